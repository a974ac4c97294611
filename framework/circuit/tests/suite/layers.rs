//! The circuit → Boolean layers compiler on small circuits: constant outputs, input
//! pass-throughs, an AND of XORs riding with an XOR, a value carried many layers, a final
//! linear layer, a shared AND, a materialized value carried as one bit, and random circuits
//! against the lane evaluator.

use flockwork_circuit::layers::{LayersShape, compile_layers};
use flockwork_circuit::{CircuitBuilder, Gadget, IoLayout, SlotId, evaluate};
use flockwork_core::boolean_layered::{BooleanLayered, bits_of_words, words_of_bits};
use proptest::prelude::*;

/// A gadget from a closure over the 64 input bits, writing 64 output bits (zero-padded).
struct Bits<F>(F);

impl<F: Fn(&mut dyn FnMut(Op) -> usize) -> Vec<usize> + Sync> Gadget for Bits<F> {
    fn layout(&self) -> IoLayout {
        IoLayout::new(64).input("x", 0, 64).output("y", 1, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let mut wires = b.input(SlotId(0));
        wires.push(b.one());
        let mut emit = |op: Op| {
            let w = match op {
                Op::Xor(x, y) => b.xor(wires[x], wires[y]),
                Op::And(x, y) => b.and(wires[x], wires[y]),
                Op::Not(x) => b.not(wires[x]),
                Op::Materialize(x) => b.materialize(wires[x]),
            };
            wires.push(w);
            wires.len() - 1
        };
        let outputs = (self.0)(&mut emit);
        let mut out: Vec<B::Wire> = outputs.iter().map(|&o| wires[o]).collect();
        out.resize(64, b.zero());
        b.output(SlotId(1), &out);
    }
}

/// One builder call on earlier wires (indices: 0..64 inputs, 64 the constant 1, then the
/// calls' results in order).
#[derive(Clone, Copy, Debug)]
enum Op {
    Xor(usize, usize),
    And(usize, usize),
    Not(usize),
    Materialize(usize),
}

const ONE: usize = 64;

/// The compiled layers evaluate like the circuit (the lane evaluator) on `inputs`.
fn agrees<G: Gadget>(gadget: &G, layers: &BooleanLayered, inputs: &[u64]) {
    let width = layers.input_width();
    let words = width / 64;
    for input in inputs.chunks_exact(words) {
        let got = words_of_bits(&layers.evaluate_reference(&bits_of_words(width, input)));
        assert_eq!(got, evaluate(gadget, input), "input {input:x?}");
    }
}

fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

fn samples(seed: u64, n: usize) -> Vec<u64> {
    let mut next = xorshift(seed | 1);
    let mut v: Vec<u64> = (0..n).map(|_| next()).collect();
    v.extend([0, u64::MAX]);
    v
}

#[test]
fn constant_outputs_are_one_linear_layer() {
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let not0 = e(Op::Not(0));
        let never = e(Op::And(0, not0)); // x ∧ ¬x = 0
        let always = e(Op::Xor(ONE, never));
        vec![ONE, never, always]
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!(layers.num_layers(), 1);
    assert_eq!(layers.and_gates(), 0);
    assert_eq!(layers.output_width(), 64);
    assert!(
        layers
            .layer(1)
            .gates()
            .iter()
            .all(|g| g.linear_part().bits().is_empty())
    );
    agrees(&g, &layers, &samples(1, 8));
    assert_eq!(
        words_of_bits(&layers.evaluate_reference(&[true; 64])),
        [0b101]
    );
}

#[test]
fn input_pass_throughs_are_one_linear_layer() {
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let x = e(Op::Xor(3, 5));
        let nx = e(Op::Not(x));
        (0..60).chain([x, nx]).collect()
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!((layers.num_layers(), layers.and_gates()), (1, 0));
    let gates = layers.layer(1).gates();
    assert_eq!(gates[7].linear_part().bits(), [7]);
    assert_eq!(gates[61].linear_part().bits(), [3, 5]);
    assert!(gates[61].linear_part().constant());
    agrees(&g, &layers, &samples(2, 8));
}

#[test]
fn an_and_of_xors_rides_with_its_xor() {
    // y = x4 ⊕ ((x0 ⊕ x1) ∧ ¬(x2 ⊕ x3)): one gate L0 ⊕ L1·L2, one layer.
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let a = e(Op::Xor(0, 1));
        let b = e(Op::Xor(2, 3));
        let nb = e(Op::Not(b));
        let t = e(Op::And(a, nb));
        vec![e(Op::Xor(t, 4))]
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!((layers.num_layers(), layers.and_gates()), (1, 1));
    let gate = &layers.layer(1).gates()[0];
    let (l1, l2) = gate.factors();
    assert_eq!(gate.linear_part().bits(), [4]);
    let mut factors = [l1.clone(), l2.clone()];
    factors.sort();
    assert_eq!(
        (factors[0].bits(), factors[1].bits()),
        (&[0, 1][..], &[2, 3][..])
    );
    assert_eq!(
        (factors[0].constant(), factors[1].constant()),
        (false, true)
    );
    agrees(&g, &layers, &samples(3, 16));
}

#[test]
fn a_value_needed_much_later_is_carried_until_its_last_use() {
    // t_1 = x0 ∧ x1, t_{k+1} = t_k ∧ x_{k+1}: depth 10; the output XORs x63 and x62 (read
    // only at the end) and t_5 (level 5) into t_10.
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let mut t = e(Op::And(0, 1));
        let mut t5 = t;
        for k in 2..=10 {
            t = e(Op::And(t, k));
            if k == 5 {
                t5 = t;
            }
        }
        let late = e(Op::Xor(63, 62));
        let late = e(Op::Xor(late, t5));
        vec![e(Op::Xor(t, late)), 40]
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!((layers.num_layers(), layers.and_gates()), (10, 10));
    // S_l for l < 10: t_l, x_{l+1} … x_10 still to be read, x40, x62, x63, and t_5 from layer 5.
    for l in 1..10 {
        let expected = 1 + (10 - l) + 3 + usize::from(l > 5);
        assert_eq!(layers.width(l), expected, "width of S_{l}");
    }
    // The last layer is exactly the output vector (64 bits), the top AND riding there.
    assert_eq!(layers.output_width(), 64);
    assert_eq!(layers.layer(10).and_gates(), 1);
    agrees(&g, &layers, &samples(4, 32));
    let shape = LayersShape::of(&layers);
    assert_eq!(
        (shape.layers, shape.max_width, shape.and_gates),
        (10, 64, 10)
    );
}

#[test]
fn two_top_level_ands_in_one_output_take_a_final_linear_layer() {
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let s = e(Op::And(0, 1));
        let t = e(Op::And(2, 3));
        let u = e(Op::Xor(s, t)); // two level-1 ANDs: no single gate computes u
        vec![u, s]
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!(
        (layers.num_layers(), layers.width(1), layers.and_gates()),
        (2, 2, 2)
    );
    assert_eq!(layers.layer_degree(2), 1);
    agrees(&g, &layers, &samples(5, 16));
}

#[test]
fn an_and_is_shared_and_duplicated_only_on_the_last_layer() {
    // The same AND written twice (operands in either order) is one gate; on the last layer
    // two outputs holding it each get their own product.
    let g = Bits(|e: &mut dyn FnMut(Op) -> usize| {
        let a = e(Op::Xor(0, 1));
        let t = e(Op::And(a, 2));
        let t2 = e(Op::And(2, a));
        let u = e(Op::And(t, 3));
        vec![e(Op::Xor(u, t2)), e(Op::Xor(u, 9)), e(Op::Xor(t, 7))]
    });
    let layers = compile_layers(&g).unwrap();
    assert_eq!(layers.num_layers(), 2);
    assert_eq!(layers.layer(1).and_gates(), 1);
    assert_eq!(layers.layer(2).and_gates(), 2);
    agrees(&g, &layers, &samples(6, 16));
}

#[test]
fn a_materialized_value_is_one_carried_bit_at_no_extra_depth() {
    // v = t1 ⊕ t2 ⊕ t3 (three level-1 ANDs), read by an AND right away (level 2) and by
    // the output after a chain of 6 more ANDs: materialized, v is one bit in S_2..S_7
    // instead of its three ANDs, and the depth is the same.
    let circuit = |materialize: bool| {
        Bits(move |e: &mut dyn FnMut(Op) -> usize| {
            let t: Vec<usize> = (0..3).map(|i| e(Op::And(2 * i, 2 * i + 1))).collect();
            let v = e(Op::Xor(t[0], t[1]));
            let mut v = e(Op::Xor(v, t[2]));
            if materialize {
                v = e(Op::Materialize(v));
            }
            let mut u = e(Op::And(v, 10));
            for k in 11..17 {
                u = e(Op::And(u, k));
            }
            vec![e(Op::Xor(u, v))]
        })
    };
    let (plain, materialized) = (circuit(false), circuit(true));
    let (a, b) = (
        compile_layers(&plain).unwrap(),
        compile_layers(&materialized).unwrap(),
    );
    assert_eq!((a.num_layers(), b.num_layers()), (8, 8));
    for l in 2..8 {
        assert_eq!(a.width(l), b.width(l) + 2, "S_{l}");
    }
    agrees(&plain, &a, &samples(7, 16));
    agrees(&materialized, &b, &samples(8, 16));
}

/// A random circuit of `gates` calls on the 64 inputs, reading mostly recent wires (so it
/// gets deep), and 64 random outputs.
fn random_ops(seed: u64, gates: usize) -> (Vec<Op>, Vec<usize>) {
    let mut next = xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut ops = Vec::new();
    let pick = |n: usize, r: u64| {
        if r.is_multiple_of(3) {
            (r as usize >> 8) % n
        } else {
            n - 1 - (r as usize >> 8) % n.min(12)
        }
    };
    for k in 0..gates {
        let n = 65 + k;
        let (r, s, t) = (next(), next(), next());
        let (x, y) = (pick(n, s), pick(n, t));
        ops.push(match r % 7 {
            0..=2 => Op::Xor(x, y),
            3 | 4 => Op::And(x, y),
            5 => Op::Not(x),
            _ => Op::Materialize(x),
        });
    }
    let outputs = (0..64)
        .map(|_| (next() as usize >> 3) % (65 + gates))
        .collect();
    (ops, outputs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_circuits_compile_to_layers_that_evaluate_like_them(
        seed in any::<u64>(),
        gates in 1usize..400,
    ) {
        let (ops, outputs) = random_ops(seed, gates);
        let g = Bits(move |e: &mut dyn FnMut(Op) -> usize| {
            for &op in &ops {
                e(op);
            }
            outputs.clone()
        });
        let layers = compile_layers(&g).unwrap();
        agrees(&g, &layers, &samples(seed, 24));
    }
}

/// Regions of any bit count (`IoLayout::auto`): a 40-bit input and a 24-bit output take one
/// word each, their bits past the region zero; the compiled layers write those output bits as
/// the constant 0 and evaluate like the circuit.
#[test]
fn regions_of_any_size_compile_with_their_padding_zero() {
    struct Odd;
    impl Gadget for Odd {
        fn layout(&self) -> IoLayout {
            IoLayout::auto().input("x", 40).output("y", 24).build()
        }
        fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
            let x = b.input(SlotId(0));
            let y: Vec<B::Wire> = (0..24)
                .map(|i| {
                    let t = b.and(x[i], x[i + 16]);
                    b.xor(t, x[(i + 3) % 40])
                })
                .collect();
            b.output(SlotId(1), &y);
        }
    }
    let layers = compile_layers(&Odd).unwrap();
    assert_eq!((layers.input_width(), layers.output_width()), (64, 64));
    let inputs: Vec<u64> = samples(40, 50)
        .iter()
        .map(|w| w & ((1 << 40) - 1))
        .collect();
    agrees(&Odd, &layers, &inputs);
    for input in &inputs {
        let out = words_of_bits(&layers.evaluate_reference(&bits_of_words(64, &[*input])));
        assert_eq!(out[0] >> 24, 0, "the output's padding bits are zero");
    }
}
