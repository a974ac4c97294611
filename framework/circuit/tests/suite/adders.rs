//! The adders of `WordBuilder::add_with` against `wrapping_add` on 8-, 32- and 64-bit words,
//! through the lane evaluator (`evaluate`) and the compiled Boolean layers; their AND gates
//! (the statistics counter) and AND depth (layers) pinned.

use flockwork_circuit::layers::compile_layers;
use flockwork_circuit::{Adder, CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, evaluate};
use flockwork_core::boolean_layered::{bits_of_words, words_of_bits};
use proptest::prelude::*;

/// `y = x0 + x1 mod 2^N` with `adder`, operands in two 64-bit input words, the sum in one
/// 64-bit output word.
struct Add<const N: usize>(Adder);

impl<const N: usize> Gadget for Add<N> {
    fn layout(&self) -> IoLayout {
        IoLayout::new(128).input("x", 0, 128).output("y", 1, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let x0: [B::Wire; N] = core::array::from_fn(|i| x[i]);
        let x1: [B::Wire; N] = core::array::from_fn(|i| x[64 + i]);
        let mut out = b.add_with(self.0, &x0, &x1).to_vec();
        out.resize(64, b.zero());
        b.output(SlotId(1), &out);
    }
}

fn mask(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1 << n) - 1 }
}

/// The sum through the lane evaluator and through the compiled layers.
fn sums<const N: usize>(adder: Adder, x: u64, y: u64) -> [u64; 2] {
    let (x, y) = (x & mask(N), y & mask(N));
    let gadget = Add::<N>(adder);
    let circuit = evaluate(&gadget, &[x, y])[0];
    let layers = compile_layers(&gadget).unwrap();
    let compiled = words_of_bits(&layers.evaluate_reference(&bits_of_words(128, &[x, y])))[0];
    [circuit, compiled]
}

fn expected<const N: usize>(x: u64, y: u64) -> u64 {
    (x & mask(N)).wrapping_add(y & mask(N)) & mask(N)
}

proptest! {
    #[test]
    fn every_adder_adds_8_bit_words(x in any::<u64>(), y in any::<u64>()) {
        for adder in Adder::ALL {
            prop_assert_eq!(sums::<8>(adder, x, y), [expected::<8>(x, y); 2], "{:?}", adder);
        }
    }

    #[test]
    fn every_adder_adds_32_bit_words(x in any::<u64>(), y in any::<u64>()) {
        for adder in Adder::ALL {
            prop_assert_eq!(sums::<32>(adder, x, y), [expected::<32>(x, y); 2], "{:?}", adder);
        }
    }

    #[test]
    fn every_adder_adds_64_bit_words(x in any::<u64>(), y in any::<u64>()) {
        for adder in Adder::ALL {
            prop_assert_eq!(sums::<64>(adder, x, y), [expected::<64>(x, y); 2], "{:?}", adder);
        }
    }
}

#[test]
fn every_adder_adds_at_odd_widths_and_carry_chains() {
    // Operands that carry across every bit, and widths that are not powers of two.
    let cases = [
        (u64::MAX, 1),
        (0x7fff_ffff, 1),
        (0x5555_5555_5555_5555, 0xaaaa_aaaa_aaaa_aaab),
    ];
    for adder in Adder::ALL {
        for (x, y) in cases {
            assert_eq!(sums::<1>(adder, x, y), [expected::<1>(x, y); 2]);
            assert_eq!(sums::<2>(adder, x, y), [expected::<2>(x, y); 2]);
            assert_eq!(sums::<3>(adder, x, y), [expected::<3>(x, y); 2]);
            assert_eq!(sums::<13>(adder, x, y), [expected::<13>(x, y); 2]);
            assert_eq!(sums::<33>(adder, x, y), [expected::<33>(x, y); 2]);
            assert_eq!(sums::<64>(adder, x, y), [expected::<64>(x, y); 2]);
        }
    }
}

/// `Σ` of the first `k` of seven 32-bit words with `adder` ([`WordBuilder::add_many`]).
struct AddMany(Adder, usize);

impl Gadget for AddMany {
    fn layout(&self) -> IoLayout {
        IoLayout::new(256).input("x", 0, 256).output("y", 1, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input_words::<32>(SlotId(0));
        let mut out = b.add_many(self.0, &x[..self.1]).to_vec();
        out.resize(64, b.zero());
        b.output(SlotId(1), &out);
    }
}

proptest! {
    #[test]
    fn every_adder_adds_many_words(words in any::<[u32; 7]>()) {
        let input: Vec<u64> = words
            .chunks(2)
            .map(|p| u64::from(p[0]) | u64::from(*p.get(1).unwrap_or(&0)) << 32)
            .collect();
        for adder in Adder::ALL {
            for k in 0..=7 {
                let gadget = AddMany(adder, k);
                let expected = words[..k].iter().fold(0u32, |s, &w| s.wrapping_add(w));
                prop_assert_eq!(evaluate(&gadget, &input)[0], u64::from(expected));
                let layers = compile_layers(&gadget).unwrap();
                let got = words_of_bits(&layers.evaluate_reference(&bits_of_words(256, &input)))[0];
                prop_assert_eq!(got, u64::from(expected), "{:?}, {} words", adder, k);
            }
        }
    }
}

#[test]
fn many_words_cost_pinned_ands_and_levels() {
    // Ripple: k − 1 chained additions overlap bit by bit (32 levels for five words, not
    // 4 · 31); a prefix adder after 3→2 compression (3 levels for 5 and 6 words).
    let cost = |adder, k| {
        let g = AddMany(adder, k);
        (
            g.stats().and_gates,
            compile_layers(&g).unwrap().num_layers(),
        )
    };
    let costs = [
        cost(Adder::Ripple, 5),
        cost(Adder::KoggeStone, 5),
        cost(Adder::BrentKung, 5),
        cost(Adder::KoggeStone, 6),
    ];
    assert_eq!(costs, [(124, 32), (342, 9), (198, 11), (373, 9)]);
}

/// `(AND gates, layers)` of one addition: what batch-R1CS commits (the statistics counter)
/// and the AND depth GKR walks (the compiled layers).
fn cost<const N: usize>(adder: Adder) -> (usize, usize) {
    let g = Add::<N>(adder);
    (
        g.stats().and_gates,
        compile_layers(&g).unwrap().num_layers(),
    )
}

#[test]
fn adder_costs_are_pinned() {
    let table: Vec<_> = Adder::ALL
        .iter()
        .map(|&a| [cost::<8>(a), cost::<32>(a), cost::<64>(a)])
        .collect();
    assert_eq!(table[0], [(7, 7), (31, 31), (63, 63)], "ripple");
    assert_eq!(table[1], [(29, 4), (249, 6), (631, 7)], "Kogge-Stone");
    assert_eq!(table[2], [(17, 5), (105, 9), (229, 11)], "Brent-Kung");
}
