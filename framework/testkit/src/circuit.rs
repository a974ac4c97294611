//! Small gadgets for the tests of the circuit interpreters: each exercises a part of the
//! builder (modular additions, free shifts and rotations, a materialized word, a chainable
//! state with a key region) at a size whose native value is one line of Rust, so the
//! statistics counter, the lane evaluator, [`Wide`](flockwork_circuit::Wide) blocks and the
//! R1CS lowering (`flockwork-r1cs`) are checked against the same circuits.

use flockwork_circuit::{
    CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotl, rotr, shl, shr,
};

/// `y = x0 + x1` and `x0 <<< 3 ⊕ x1 >> 5 ⊕ x0 << 7` (mod 2^N) on N-bit words.
pub struct Adder<const N: usize>;

impl<const N: usize> Gadget for Adder<N> {
    fn layout(&self) -> IoLayout {
        let bits = (2 * N).max(64);
        IoLayout::new(bits).input("x", 0, bits).output("y", 1, bits)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let x0: [B::Wire; N] = core::array::from_fn(|i| x[i]);
        let x1: [B::Wire; N] = core::array::from_fn(|i| x[N + i]);
        let sum = b.add(&x0, &x1);
        let z = b.zero();
        let mix = b.xor_words(&rotl(&x0, 3), &shr(&x1, 5, z));
        let mix = b.xor_words(&mix, &shl(&x0, 7, z));
        let mut out = sum.to_vec();
        out.extend_from_slice(&mix);
        out.resize(x.len(), z);
        b.output(SlotId(1), &out);
    }
}

/// Two dependent additions around a materialized word: exercises the evaluator's batched
/// `add` and `materialize_word`, with and without recorded sides.
pub struct AddMaterialize;

impl Gadget for AddMaterialize {
    fn layout(&self) -> IoLayout {
        IoLayout::new(64).input("x", 0, 64).output("y", 1, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let x0: [B::Wire; 32] = core::array::from_fn(|i| x[i]);
        let x1: [B::Wire; 32] = core::array::from_fn(|i| x[32 + i]);
        let s = b.add(&x0, &x1);
        let m = b.xor_words(&s, &x0);
        let m = b.materialize_word(&rotr(&m, 5));
        let t = b.add(&m, &x1);
        let out: Vec<B::Wire> = s.iter().chain(&t).copied().collect();
        b.output(SlotId(1), &out);
    }
}

/// `y = (x0 + x1, x1 ⊕ (x0 <<< 3))` on 32-bit halves: a state that can be chained.
#[derive(Clone, Copy)]
pub struct Step;

impl Gadget for Step {
    fn layout(&self) -> IoLayout {
        IoLayout::new(64)
            .input("x", 0, 64)
            .output("y", 1, 64)
            .input("k", 2, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let k = b.input(SlotId(2));
        let x0: [B::Wire; 32] = core::array::from_fn(|i| x[i]);
        let x1: [B::Wire; 32] = core::array::from_fn(|i| b.xor(x[32 + i], k[i]));
        let s = b.add(&x0, &x1);
        let t = b.xor_words(&x1, &rotl(&x0, 3));
        let out: Vec<B::Wire> = s.iter().chain(&t).copied().collect();
        b.output(SlotId(1), &out);
    }
}

/// [`Step`] natively: the output of input `x` with key `k`.
#[must_use]
pub fn step(x: u64, k: u64) -> u64 {
    let (x0, x1) = (x as u32, (x >> 32) as u32 ^ k as u32);
    u64::from(x0.wrapping_add(x1)) | u64::from(x1 ^ x0.rotate_left(3)) << 32
}
