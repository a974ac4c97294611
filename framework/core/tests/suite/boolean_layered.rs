//! Boolean layered relations: the builder's checks, packed evaluation against the reference
//! evaluator on random descriptions, a toy relation against independent native code, and the
//! layer term as the summand of a degree-2 (per instance variable) sumcheck.

use flockwork_core::MultilinearPoly;
use flockwork_core::UnivariatePoly;
use flockwork_core::boolean_layered::{
    AffineForm, BooleanLayer, BooleanLayered, BooleanLayeredError, BooleanLayeredRelation,
    BooleanLayersBuilder, PackedBits, QuadraticGate, bits_of_words, check_boolean_layered,
    pack_instances, unpack_instances, words_of_bits,
};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use proptest::prelude::*;

use crate::xorshift;

/// A 16-bit toy with its own native code: three rounds of
/// `t = s ⊕ rotl(s, 3) ⊕ rotl(s, 7)`, `s' = t ⊕ (¬rotr(t, 1) ∧ rotr(t, 2)) ⊕ c_r`
/// (χ along the 16-bit ring), then a narrowing layer to 8 bits
/// `o = s_lo ⊕ (s_hi ∧ rotl(s_lo, 1)) ⊕ 1`.
pub(crate) struct Toy {
    layers: BooleanLayered,
}

const TOY_CONSTANTS: [u16; 3] = [0x0001, 0x8082, 0x808a];

impl Toy {
    pub(crate) fn new() -> Self {
        let mut b = BooleanLayersBuilder::new(16);
        for c in TOY_CONSTANTS {
            b.layer(|l| {
                let t: Vec<AffineForm> = (0..16)
                    .map(|i| l.xor_all([l.bit(i), l.bit((i + 13) % 16), l.bit((i + 9) % 16)]))
                    .collect();
                for i in 0..16 {
                    let linear = if c >> i & 1 == 1 {
                        l.not(&t[i])
                    } else {
                        t[i].clone()
                    };
                    l.output(&linear ^ (&l.not(&t[(i + 1) % 16]) & &t[(i + 2) % 16]));
                }
            });
        }
        b.layer(|l| {
            for i in 0..8 {
                let product = l.and(&l.bit(8 + i), &l.bit((i + 7) % 8));
                l.output(product.xor(&!l.bit(i)));
            }
        });
        Self {
            layers: b.build().unwrap(),
        }
    }
}

impl BooleanLayeredRelation for Toy {
    fn id(&self) -> Vec<u8> {
        b"toy".to_vec()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        &self.layers
    }

    fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
        let s = state[0] as u16;
        let out = if layer <= 3 {
            let t = s ^ s.rotate_left(3) ^ s.rotate_left(7);
            t ^ (!t.rotate_right(1) & t.rotate_right(2)) ^ TOY_CONSTANTS[layer - 1]
        } else {
            let (lo, hi) = (s as u8, (s >> 8) as u8);
            u16::from(!(lo ^ (hi & lo.rotate_left(1))))
        };
        vec![u64::from(out)]
    }
}

#[test]
fn toy_agrees_with_its_native_code() {
    let toy = Toy::new();
    let layers = toy.boolean_layers();
    assert_eq!(
        (0..=4).map(|l| layers.width(l)).collect::<Vec<_>>(),
        [16, 16, 16, 16, 8]
    );
    assert_eq!(layers.and_gates(), 3 * 16 + 8);
    assert_eq!(layers.layer_degree(1), 2);
    // Every 16-bit input, then a count that leaves the last u128 block partly empty.
    let all: Vec<u64> = (0..1 << 16).collect();
    check_boolean_layered(&toy, &all, all.len());
    let mut next = xorshift(7);
    let some: Vec<u64> = (0..300).map(|_| next() & 0xffff).collect();
    check_boolean_layered(&toy, &some, 300);
}

#[test]
#[should_panic(expected = "disagrees with the native code")]
fn a_wrong_description_is_caught() {
    /// The toy with one gate's constant flipped in its second layer.
    struct Broken(BooleanLayered, Toy);
    impl BooleanLayeredRelation for Broken {
        fn id(&self) -> Vec<u8> {
            b"broken".to_vec()
        }
        fn boolean_layers(&self) -> &BooleanLayered {
            &self.0
        }
        fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
            self.1.apply_layer_native(layer, state)
        }
    }
    let toy = Toy::new();
    let layers: Vec<BooleanLayer> = (1..=4)
        .map(|l| {
            let mut gates = toy.layers.layer(l).gates().to_vec();
            if l == 2 {
                gates[5] = gates[5].clone().xor(&AffineForm::ONE);
            }
            BooleanLayer::new(gates)
        })
        .collect();
    let broken = Broken(BooleanLayered::new(16, layers).unwrap(), toy);
    check_boolean_layered(&broken, &(0..64).collect::<Vec<_>>(), 64);
}

#[test]
fn the_builder_rejects_malformed_descriptions() {
    assert_eq!(
        BooleanLayersBuilder::new(0)
            .layer(|l| {
                l.output(AffineForm::ONE);
            })
            .clone()
            .build(),
        Err(BooleanLayeredError::EmptyInput)
    );
    assert_eq!(
        BooleanLayersBuilder::new(4).build(),
        Err(BooleanLayeredError::NoLayers)
    );
    let mut empty = BooleanLayersBuilder::new(4);
    empty.layer(|l| {
        l.output(l.bit(0));
    });
    empty.layer(|_| {});
    assert_eq!(
        empty.build(),
        Err(BooleanLayeredError::EmptyLayer { layer: 2 })
    );
    // Bit 4 of a 4-bit input, in a factor of the second gate.
    let mut wide = BooleanLayersBuilder::new(4);
    wide.layer(|l| {
        l.output(l.bit(3));
        l.output(l.and(&l.bit(0), &l.xor(&l.bit(1), &l.bit(4))));
    });
    assert_eq!(
        wide.build(),
        Err(BooleanLayeredError::BitOutOfRange {
            layer: 1,
            gate: 1,
            bit: 4,
            width: 4
        })
    );
    // The second layer reads a 2-bit state: bit 2 is past its end, although the input had it.
    let mut narrowing = BooleanLayersBuilder::new(4);
    narrowing.layer(|l| {
        l.output(l.bit(2));
        l.output(l.bit(3));
    });
    assert_eq!(narrowing.width(), 2);
    narrowing.layer(|l| {
        assert_eq!(l.input_width(), 2);
        l.output(l.xor(&l.bit(1), &l.bit(2)));
    });
    assert_eq!(
        narrowing.build(),
        Err(BooleanLayeredError::BitOutOfRange {
            layer: 2,
            gate: 0,
            bit: 2,
            width: 2
        })
    );
    // The same description through `BooleanLayered::new`.
    let gate = QuadraticGate::linear(AffineForm::new([0, 9], false));
    assert!(matches!(
        BooleanLayered::new(8, vec![BooleanLayer::new(vec![gate])]),
        Err(BooleanLayeredError::BitOutOfRange {
            bit: 9,
            width: 8,
            ..
        })
    ));
}

#[test]
fn the_compiled_program_shares_linear_parts() {
    // Three gates reading the parts {0..5} (twice, once negated) and {0..4, 5}: the first
    // costs 4 XORs, the repeat nothing, the second starts from the first (2 XORs).
    let mut b = BooleanLayersBuilder::new(6);
    b.layer(|l| {
        let p = l.xor_all((0..5).map(|i| l.bit(i)));
        let q = l.xor_all((0..4).chain([5]).map(|i| l.bit(i)));
        l.output(p.clone());
        l.output(l.and(&l.not(&p), &q));
        l.output(l.bit(5));
    });
    let relation = b.build().unwrap();
    assert_eq!(relation.compiled_xors(1), 4 + 2);
    for input in 0..64u64 {
        let packed = pack_instances::<u64>(6, &[input], 1);
        let out = unpack_instances(3, &relation.evaluate_packed(&packed), 1);
        let expected = relation.evaluate_reference(&bits_of_words(6, &[input]));
        assert_eq!(out, words_of_bits(&expected));
    }
}

#[test]
fn packing_round_trips() {
    let mut next = xorshift(11);
    for (width, count) in [(100usize, 200usize), (64, 64), (1, 3), (130, 129)] {
        let words = width.div_ceil(64);
        let mask = |i: usize| {
            if (i + 1).is_multiple_of(words) && !width.is_multiple_of(64) {
                (1u64 << (width % 64)) - 1
            } else {
                !0
            }
        };
        let data: Vec<u64> = (0..count * words).map(|_| next()).collect();
        let masked: Vec<u64> = data.iter().enumerate().map(|(i, &w)| w & mask(i)).collect();
        let p64 = pack_instances::<u64>(width, &data, count);
        let p128 = pack_instances::<u128>(width, &data, count);
        assert_eq!(p64.len(), count.div_ceil(64) * width);
        assert_eq!(unpack_instances(width, &p64, count), masked);
        assert_eq!(unpack_instances(width, &p128, count), masked);
        // Bit i of instance k is bit k mod 128 of word i of block k / 128.
        for k in [0, count / 2, count - 1] {
            let bits = bits_of_words(width, &data[k * words..]);
            for (i, &bit) in bits.iter().enumerate() {
                let word = p128[(k / 128) * width + i];
                assert_eq!(word >> (k % 128) & 1 == 1, bit);
            }
        }
    }
}

/// A form's bits and constant.
type Form = (Vec<usize>, bool);

/// A layer's gates, three forms each.
type Gates = Vec<[Form; 3]>;

/// A random description: widths in `1..=20`, every form of up to 4 bits and a constant.
fn arb_description() -> impl Strategy<Value = (usize, Vec<Gates>)> {
    let form = |w: usize| (proptest::collection::vec(0..w, 0..5), any::<bool>());
    (1usize..=20, proptest::collection::vec(1usize..=20, 1..5)).prop_flat_map(move |(w0, ws)| {
        let mut widths = vec![w0];
        widths.extend(&ws);
        let layers: Vec<_> = widths
            .windows(2)
            .map(|p| proptest::collection::vec([form(p[0]), form(p[0]), form(p[0])], p[1]))
            .collect();
        (Just(w0), layers)
    })
}

fn build(w0: usize, layers: &[Gates]) -> BooleanLayered {
    let mut b = BooleanLayersBuilder::new(w0);
    for gates in layers {
        b.layer(|l| {
            for [f0, f1, f2] in gates {
                let form = |(bits, c): &Form| AffineForm::new(bits.clone(), *c);
                l.output(&form(f0) ^ (&form(f1) & &form(f2)));
            }
        });
    }
    b.build().unwrap()
}

fn packed_agrees_with_reference<T: PackedBits>(relation: &BooleanLayered, inputs: &[u64]) {
    let (w0, count) = (relation.input_width(), inputs.len());
    let packed = pack_instances::<T>(w0, inputs, count);
    let trace = relation.trace_packed(&packed);
    assert_eq!(trace.blocks(), count.div_ceil(T::INSTANCES));
    assert_eq!(relation.evaluate_packed(&packed), trace.output());
    for (k, &input) in inputs.iter().enumerate() {
        let reference = relation.trace_reference(&bits_of_words(w0, &[input]));
        for (layer, state) in reference.iter().enumerate() {
            let w = relation.width(layer);
            let block = trace.state(layer, k / T::INSTANCES);
            let got: Vec<bool> = (0..w)
                .map(|i| block[i].word((k % T::INSTANCES) / 64) >> (k % 64) & 1 == 1)
                .collect();
            assert_eq!(&got, state, "instance {k}, layer {layer}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn packed_evaluation_agrees_with_the_reference(
        (w0, layers) in arb_description(),
        seed in any::<u64>(),
        count in 1usize..300,
    ) {
        let relation = build(w0, &layers);
        let mut next = xorshift(seed | 1);
        let inputs: Vec<u64> = (0..count).map(|_| next() & ((1 << w0) - 1)).collect();
        packed_agrees_with_reference::<u64>(&relation, &inputs);
        packed_agrees_with_reference::<u128>(&relation, &inputs);
    }
}

/// Bits as field elements.
fn embed(bits: &[bool]) -> Vec<Ghash128> {
    bits.iter()
        .map(|&b| if b { Ghash128::ONE } else { Ghash128::ZERO })
        .collect()
}

/// The multilinear extension in the instance index of every bit of a state, at `point`.
fn extend(states: &[Vec<bool>], point: &[Ghash128]) -> Vec<Ghash128> {
    let width = states[0].len();
    (0..width)
        .map(|i| {
            let column: Vec<bool> = states.iter().map(|s| s[i]).collect();
            MultilinearPoly::new(embed(&column)).evaluate(point)
        })
        .collect()
}

#[test]
fn the_layer_term_is_the_gkr_summand() {
    let toy = Toy::new();
    let layers = toy.boolean_layers();
    let k = 3;
    let mut next = xorshift(99);
    let field = |next: &mut dyn FnMut() -> u64| {
        Ghash128::new(u128::from(next()) << 64 | u128::from(next()))
    };
    let traces: Vec<Vec<Vec<bool>>> = (0..1 << k)
        .map(|_| layers.trace_reference(&bits_of_words(16, &[next()])))
        .collect();
    for layer in 1..=layers.num_layers() {
        let prev: Vec<Vec<bool>> = traces.iter().map(|t| t[layer - 1].clone()).collect();
        let next_states: Vec<Vec<bool>> = traces.iter().map(|t| t[layer].clone()).collect();
        let weights: Vec<Ghash128> = (0..layers.width(layer)).map(|_| field(&mut next)).collect();
        // On the hypercube the term is the weighted output.
        for (p, o) in prev.iter().zip(&next_states) {
            let embedded = embed(p);
            let expected: Ghash128 = weights
                .iter()
                .zip(o)
                .filter(|(_, b)| **b)
                .map(|(&w, _)| w)
                .sum();
            assert_eq!(layers.layer_term(layer, &weights, &embedded), expected);
        }
        // Σ_x eq(z, x) · term(S_{l−1}(x)) is the weighted claim on S_l at z.
        let z: Vec<Ghash128> = (0..k).map(|_| field(&mut next)).collect();
        let eq = flockwork_core::eq_table(&z);
        let sum: Ghash128 = prev
            .iter()
            .zip(&eq)
            .map(|(p, &e)| e * layers.layer_term(layer, &weights, &embed(p)))
            .sum();
        let claim: Ghash128 = weights
            .iter()
            .zip(extend(&next_states, &z))
            .map(|(&w, v)| w * v)
            .sum();
        assert_eq!(sum, claim, "layer {layer}");
        // Along the first instance variable the term is a polynomial of degree 2: the
        // quadratic through t = 0, 1, 2 predicts t = 3 and t = 4.
        let rest: Vec<Ghash128> = (1..k).map(|_| field(&mut next)).collect();
        let at = |t: u64| {
            let point: Vec<Ghash128> = [Ghash128::from_index(t)]
                .into_iter()
                .chain(rest.iter().copied())
                .collect();
            layers.layer_term(layer, &weights, &extend(&prev, &point))
        };
        let quadratic = UnivariatePoly::interpolate(&[at(0), at(1), at(2)]);
        for t in [3, 4] {
            assert_eq!(
                quadratic.evaluate(Ghash128::from_index(t)),
                at(t),
                "layer {layer}, t = {t}"
            );
        }
    }
}
