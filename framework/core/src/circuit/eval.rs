//! The bit-sliced witness evaluator: 64 instances per `u64` lane word.

use alloc::vec::Vec;

use super::layout::Allocator;
use super::{CircuitBuilder, Gadget, SlotId, SlotKind};

/// Evaluates a gadget on 64 instances at once: a wire is a `u64` whose bit `l` is the wire's
/// value in instance `l` (bit-slicing), so XOR and AND cost one machine instruction for 64
/// instances.
///
/// The result is one lane word per position of the instance block
/// ([`LaneEvaluator::z`]), and on request the lane words of the A side and B side of every
/// row (`a_j ∧ b_j = z_j`).
#[derive(Debug)]
pub struct LaneEvaluator<'a> {
    alloc: Allocator,
    inputs: &'a [u64],
    z: Vec<u64>,
    sides: Option<(Vec<u64>, Vec<u64>)>,
}

impl<'a> LaneEvaluator<'a> {
    /// Runs `gadget` on the input lanes `inputs` (one word per bit of the input vector, see
    /// [`super::IoLayout`]); records the row sides when `record_sides`.
    ///
    /// # Panics
    /// If `inputs` is shorter than the input vector, or the gadget misuses its IO regions.
    #[must_use]
    pub fn run<G: Gadget>(gadget: &G, inputs: &'a [u64], record_sides: bool) -> Self {
        Self::run_with_capacity(gadget, inputs, record_sides, 0)
    }

    /// [`LaneEvaluator::run`] with room reserved for `positions` lane words (avoids regrowing
    /// the buffers when the block size is known, as in [`super::batch_witness`]).
    ///
    /// # Panics
    /// As [`LaneEvaluator::run`].
    #[must_use]
    pub fn run_with_capacity<G: Gadget>(
        gadget: &G,
        inputs: &'a [u64],
        record_sides: bool,
        positions: usize,
    ) -> Self {
        let layout = gadget.layout();
        assert!(
            inputs.len() >= layout.vector_bits(SlotKind::Input),
            "too few input lanes"
        );
        let c = layout.const_position();
        let mut z = Vec::with_capacity(positions.max(c + 1));
        z.resize(c + 1, 0);
        z[c] = !0;
        let copy = |z: &Vec<u64>| {
            let mut v = Vec::with_capacity(z.capacity());
            v.extend_from_slice(z);
            v
        };
        let sides = record_sides.then(|| (copy(&z), copy(&z)));
        let mut eval = Self {
            alloc: Allocator::new(layout),
            inputs,
            z,
            sides,
        };
        gadget.synthesize(&mut eval);
        eval.alloc.check_complete();
        eval
    }

    /// Lane words of the committed bits, one per used position.
    #[must_use]
    pub fn z(&self) -> &[u64] {
        &self.z
    }

    /// Lane words of the A and B sides, when recorded.
    #[must_use]
    pub fn sides(&self) -> Option<(&[u64], &[u64])> {
        self.sides.as_ref().map(|(a, b)| (&a[..], &b[..]))
    }

    fn push(&mut self, z: u64, a: u64, b: u64) -> u64 {
        debug_assert_eq!(self.z.len() + 1, self.alloc.positions());
        self.z.push(z);
        if let Some((sa, sb)) = &mut self.sides {
            sa.push(a);
            sb.push(b);
        }
        z
    }

    fn write_region(&mut self, start: usize, wires: &[u64]) {
        self.z[start..start + wires.len()].copy_from_slice(wires);
        if let Some((sa, sb)) = &mut self.sides {
            sa[start..start + wires.len()].copy_from_slice(wires);
            sb[start..start + wires.len()].fill(!0);
        }
    }
}

impl CircuitBuilder for LaneEvaluator<'_> {
    type Wire = u64;

    #[inline(always)]
    fn zero(&self) -> u64 {
        0
    }

    #[inline(always)]
    fn one(&self) -> u64 {
        !0
    }

    #[inline(always)]
    fn xor(&mut self, a: u64, b: u64) -> u64 {
        a ^ b
    }

    #[inline(always)]
    fn and(&mut self, a: u64, b: u64) -> u64 {
        self.alloc.and_gate();
        self.push(a & b, a, b)
    }

    #[inline(always)]
    fn materialize(&mut self, a: u64) -> u64 {
        self.alloc.materialized();
        self.push(a, a, !0)
    }

    fn input(&mut self, slot: SlotId) -> Vec<u64> {
        let bits = self.alloc.layout.slot(slot).bits;
        let offset = self.alloc.layout.vector_offset(slot);
        let range = self.alloc.io(slot, SlotKind::Input, bits);
        let wires = self.inputs[offset..offset + bits].to_vec();
        self.write_region(range.start, &wires);
        wires
    }

    fn output(&mut self, slot: SlotId, wires: &[u64]) {
        let range = self.alloc.io(slot, SlotKind::Output, wires.len());
        self.write_region(range.start, wires);
    }
}
