//! Small gadgets for the tests of the circuit interpreters: each exercises a part of the
//! builder (modular additions, free shifts and rotations, a materialized word, a chainable
//! state with a key region) at a size whose native value is one line of Rust, so the
//! statistics counter, the lane evaluator, [`Wide`](flockwork_circuit::Wide) blocks and the
//! R1CS lowering (`flockwork-r1cs`) are checked against the same circuits; [`PaddingShapes`]
//! is large enough for the batch-R1CS prover and holds the shapes its zero blocks must
//! survive.

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

/// The shapes a zero block must survive, in a block of `2^13` bits (the smallest the
/// batch-R1CS prover takes): NOT of the constant wire, of zero and of an input bit, outputs
/// that are constants (`0`, `1`, a constant byte, a materialized `¬1`), AND rows whose sides
/// are XORs of two earlier bits, and a chain of 28 AND layers, each reading the one before (so
/// the padding check's fixed point takes 29 passes). Built only from the circuit builder, it
/// forces its padding as every builder gadget does: NOT is an XOR with the constant
/// *column*, which a padding block holds at 0, so there `¬0 = 0` and the zero block satisfies
/// every row.
pub struct PaddingShapes;

impl PaddingShapes {
    /// AND layers after the inputs.
    pub const LAYERS: usize = 28;
}

impl Gadget for PaddingShapes {
    fn layout(&self) -> IoLayout {
        IoLayout::new(256).input("x", 0, 256).output("y", 1, 256)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let (zero, one) = (b.zero(), b.one());
        let not_one = b.not(one);
        let not_zero = b.not(zero);
        let not_x0 = b.not(x[0]);
        let kept = b.materialize(not_one);
        let byte: [B::Wire; 8] = b.constant_word(0xa5);
        let mut acc = x.clone();
        for layer in 0..Self::LAYERS {
            acc = (0..256)
                .map(|i| {
                    let left = b.xor(acc[i], x[(i + layer + 1) % 256]);
                    let right = b.not(acc[(i + 1) % 256]);
                    b.and(left, right)
                })
                .collect();
        }
        let mut out = vec![not_one, not_zero, not_x0, kept, one, zero];
        out.extend_from_slice(&byte);
        out.extend_from_slice(&acc[..256 - out.len()]);
        b.output(SlotId(1), &out);
    }
}

/// [`PaddingShapes`] natively: the output vector of the input vector `x` (four words each).
#[must_use]
pub fn padding_shapes(x: &[u64; 4]) -> [u64; 4] {
    let xs: Vec<bool> = (0..256).map(|i| (x[i / 64] >> (i % 64)) & 1 == 1).collect();
    let mut acc = xs.clone();
    for layer in 0..PaddingShapes::LAYERS {
        acc = (0..256)
            .map(|i| (acc[i] ^ xs[(i + layer + 1) % 256]) & !acc[(i + 1) % 256])
            .collect();
    }
    let mut out = vec![false, true, !xs[0], false, true, false];
    out.extend((0..8).map(|i| (0xa5 >> i) & 1 == 1));
    let rest = 256 - out.len();
    out.extend_from_slice(&acc[..rest]);
    core::array::from_fn(|w| (0..64).fold(0, |v, i| v | u64::from(out[64 * w + i]) << i))
}
