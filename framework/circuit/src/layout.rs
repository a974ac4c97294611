//! Where the bits of one instance live: fixed IO slots, the constant wire, then the
//! internal committed bits in the order the gadget creates them.

use alloc::vec::Vec;
use core::ops::Range;

/// Whether an IO slot is read by the circuit (a free input) or written by it (an output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Free input bits: row `x · 1 = x`, bound only by the chain / Merkle / opening claims.
    Input,
    /// Output bits: row `(linear expression) · 1 = out`.
    Output,
}

/// Handle of an IO slot: its index in [`IoLayout::slots`], in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotId(pub usize);

/// One IO region of an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoSlot {
    /// Human-readable name (`"h_in"`, `"msg"`, ...).
    pub name: &'static str,
    /// Input or output.
    pub kind: SlotKind,
    /// Index of the first slot unit the region occupies (position `first_slot · slot_bits`).
    pub first_slot: usize,
    /// Number of bits (a multiple of 64; may span several slot units).
    pub bits: usize,
}

/// The IO layout of a gadget: regions aligned to `slot_bits`-bit slot units at the start of
/// every instance block.
///
/// Within an instance block of `2^m0` positions, region `s` occupies positions
/// `first_slot·slot_bits .. first_slot·slot_bits + bits`. The constant wire sits at
/// [`IoLayout::const_position`], the first position after the last slot unit that any region
/// touches; internal committed bits (AND outputs and materialized linear values) follow in
/// the order the gadget creates them. Aligned, consecutive slots are what the hash-chain and
/// Merkle arguments address with a few selector bits (Flock notes §3 "IO").
///
/// The *input vector* of an instance is the concatenation of its input regions in
/// declaration order, as little-endian `u64` words (bit `i` is bit `i % 64` of word `i / 64`);
/// the *output vector* likewise for the output regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoLayout {
    slot_bits: usize,
    slots: Vec<IoSlot>,
}

impl IoLayout {
    /// An empty layout with slot units of `slot_bits` bits.
    ///
    /// # Panics
    /// If `slot_bits` is zero or not a multiple of 64.
    #[must_use]
    pub fn new(slot_bits: usize) -> Self {
        assert!(
            slot_bits > 0 && slot_bits.is_multiple_of(64),
            "slot_bits must be a positive multiple of 64"
        );
        Self {
            slot_bits,
            slots: Vec::new(),
        }
    }

    /// Adds an input region starting at slot unit `first_slot`.
    ///
    /// # Panics
    /// See [`IoLayout::with_slot`].
    #[must_use]
    pub fn input(self, name: &'static str, first_slot: usize, bits: usize) -> Self {
        self.with_slot(name, SlotKind::Input, first_slot, bits)
    }

    /// Adds an output region starting at slot unit `first_slot`.
    ///
    /// # Panics
    /// See [`IoLayout::with_slot`].
    #[must_use]
    pub fn output(self, name: &'static str, first_slot: usize, bits: usize) -> Self {
        self.with_slot(name, SlotKind::Output, first_slot, bits)
    }

    /// Adds a region.
    ///
    /// # Panics
    /// If `bits` is zero or not a multiple of 64, or the region overlaps an earlier one.
    #[must_use]
    pub fn with_slot(
        mut self,
        name: &'static str,
        kind: SlotKind,
        first_slot: usize,
        bits: usize,
    ) -> Self {
        assert!(
            bits > 0 && bits.is_multiple_of(64),
            "IO regions hold a positive multiple of 64 bits"
        );
        let slot = IoSlot {
            name,
            kind,
            first_slot,
            bits,
        };
        let new = self.range_of(&slot);
        for old in &self.slots {
            let old = self.range_of(old);
            assert!(
                new.end <= old.start || old.end <= new.start,
                "IO region {name} overlaps another region"
            );
        }
        self.slots.push(slot);
        self
    }

    /// Bits per slot unit.
    #[must_use]
    pub fn slot_bits(&self) -> usize {
        self.slot_bits
    }

    /// The regions in declaration order.
    #[must_use]
    pub fn slots(&self) -> &[IoSlot] {
        &self.slots
    }

    /// The region behind a handle.
    ///
    /// # Panics
    /// If the handle is out of range.
    #[must_use]
    pub fn slot(&self, id: SlotId) -> &IoSlot {
        &self.slots[id.0]
    }

    /// Positions (within an instance block) of region `id`.
    #[must_use]
    pub fn positions(&self, id: SlotId) -> Range<usize> {
        self.range_of(self.slot(id))
    }

    fn range_of(&self, slot: &IoSlot) -> Range<usize> {
        let start = slot.first_slot * self.slot_bits;
        start..start + slot.bits
    }

    /// Position of the constant wire: the first position after every slot unit in use.
    #[must_use]
    pub fn const_position(&self) -> usize {
        let end = self
            .slots
            .iter()
            .map(|s| self.range_of(s).end)
            .max()
            .unwrap_or(0);
        end.div_ceil(self.slot_bits) * self.slot_bits
    }

    /// Offset (in bits) of region `id` inside the input or output vector of its kind.
    #[must_use]
    pub fn vector_offset(&self, id: SlotId) -> usize {
        let kind = self.slot(id).kind;
        self.slots[..id.0]
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.bits)
            .sum()
    }

    /// Total bits of the regions of one kind (the input or output vector length).
    #[must_use]
    pub fn vector_bits(&self, kind: SlotKind) -> usize {
        self.slots
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.bits)
            .sum()
    }
}

/// Counts of what an interpreter committed; identical for every interpreter of one gadget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitCounts {
    /// AND gates (one committed bit each).
    pub and_gates: usize,
    /// Materialized linear bits that are not outputs.
    pub materialized_bits: usize,
    /// Free input bits.
    pub input_bits: usize,
    /// Output bits.
    pub output_bits: usize,
}

/// Hands out positions: IO regions at their fixed places, internal bits sequentially after
/// the constant wire. Shared by every interpreter (those of this crate and the R1CS lowering
/// of `flockwork-r1cs`) so they agree on the layout bit for bit.
#[derive(Clone, Debug)]
pub struct Allocator {
    pub(crate) layout: IoLayout,
    /// The next internal position.
    pub(crate) next: usize,
    pub(crate) counts: CommitCounts,
    used: Vec<bool>,
}

impl Allocator {
    /// An allocator for `layout`, nothing handed out yet.
    #[must_use]
    pub fn new(layout: IoLayout) -> Self {
        let next = layout.const_position() + 1;
        let used = alloc::vec![false; layout.slots().len()];
        Self {
            layout,
            next,
            counts: CommitCounts::default(),
            used,
        }
    }

    /// The IO layout it allocates in.
    #[must_use]
    pub fn layout(&self) -> &IoLayout {
        &self.layout
    }

    /// Next internal position for an AND output.
    pub fn and_gate(&mut self) -> usize {
        self.counts.and_gates += 1;
        self.bump()
    }

    /// Next internal position for a materialized linear bit.
    pub fn materialized(&mut self) -> usize {
        self.counts.materialized_bits += 1;
        self.bump()
    }

    fn bump(&mut self) -> usize {
        let p = self.next;
        self.next += 1;
        p
    }

    /// Marks region `id` as used once with the expected kind and `len` bits; returns its
    /// positions.
    ///
    /// # Panics
    /// If the region was used before, has the wrong kind or length.
    pub fn io(&mut self, id: SlotId, kind: SlotKind, len: usize) -> Range<usize> {
        let slot = self.layout.slot(id);
        assert_eq!(slot.kind, kind, "IO region {} used as {kind:?}", slot.name);
        assert_eq!(
            slot.bits, len,
            "IO region {} has {} bits",
            slot.name, slot.bits
        );
        assert!(!self.used[id.0], "IO region {} used twice", slot.name);
        self.used[id.0] = true;
        match kind {
            SlotKind::Input => self.counts.input_bits += len,
            SlotKind::Output => self.counts.output_bits += len,
        }
        self.layout.positions(id)
    }

    /// Positions used so far (IO extent, constant and internal bits).
    #[must_use]
    pub fn positions(&self) -> usize {
        self.next
    }

    /// Checks that every IO region was used.
    ///
    /// # Panics
    /// If a region was never read or written.
    pub fn check_complete(&self) {
        for (slot, used) in self.layout.slots().iter().zip(&self.used) {
            assert!(used, "IO region {} never used by the gadget", slot.name);
        }
    }
}
