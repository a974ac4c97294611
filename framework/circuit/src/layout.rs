//! Where the bits of one instance live: fixed IO slots, the constant wire, then the
//! internal committed bits in the order the gadget creates them.
//!
//! ## Regions of any size
//!
//! An IO region holds any positive number of bits `b` (SHA-1's 160-bit chaining value, a
//! 200-bit sponge state, a 512-bit block). The layout pads internally; the author never rounds
//! a size up:
//!
//! * **In the instance block** the region starts at a slot unit of `u = slot_bits` positions
//!   and covers `⌈b/u⌉` whole units: its bit `i < b` sits at position `first_slot·u + i`, and
//!   the remaining `⌈b/u⌉·u − b` positions of its last unit belong to no region, gate or
//!   constant. Every interpreter leaves them alone, so the R1CS lowering gives them the empty
//!   row `0 · 0 = 0`: every satisfying witness holds **zero** there (and the witness generator
//!   writes zero). Unit-level IO arguments (hash chain, Merkle tree, public IO in
//!   `flockwork-r1cs`) compare whole slot units, and because these padding positions are zero
//!   on both sides, equality of units is equality of the regions' `b` bits.
//! * **In the input and output vectors** ([`IoLayout::vector_offset`]) every region takes
//!   `⌈b/64⌉` little-endian `u64` words of its own: bit `i` of the region is bit `i mod 64` of
//!   the region's word `i / 64`, and the high `64·⌈b/64⌉ − b` bits of its last word are zero
//!   (an encoder writes zero there; the evaluator never reads them, and a public statement
//!   that sets them is refused).
//!
//! ## Automatic placement
//!
//! [`IoLayout::auto`] places regions by name and size alone: the author lists them (marking
//! the chained state, the pair of regions a hash chain or a Merkle tree passes from one
//! instance to the next, with [`AutoLayout::state`]) and the layout chooses the slot units
//! (the least power of two of at least 128 bits that holds the state: 256 for SHA-1's 160
//! bits, 128 without a state) and gives the regions consecutive units in declaration order.
//! Power-of-two units of at least 128 bits are whole packed GF(2^128) words, addressed by
//! selector bits, which is what the chain, Merkle and public-IO arguments need; a state in one
//! unit is what the chain and Merkle arguments compare. [`IoLayout::new`] with explicit
//! offsets stays for layouts pinned by existing proofs.

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
    /// Number of bits (any positive count; may span several slot units, the rest of the last
    /// unit is zero padding, see [`IoLayout`]).
    pub bits: usize,
}

impl IoSlot {
    /// `⌈bits/64⌉`: the region's words in its instance's input or output vector.
    #[must_use]
    pub fn words(&self) -> usize {
        self.bits.div_ceil(64)
    }
}

/// The IO layout of a gadget: regions aligned to `slot_bits`-bit slot units at the start of
/// every instance block.
///
/// Within an instance block of `2^m0` positions, region `s` occupies positions
/// `first_slot·slot_bits .. first_slot·slot_bits + bits` — any positive number of bits — and
/// the rest of its last slot unit is padding: positions of no region, gate or constant, whose
/// R1CS rows are `0 · 0 = 0`, so every satisfying witness holds zero there. IO arguments that
/// compare whole slot units (chain, Merkle tree, public IO) therefore compare the regions' bits
/// exactly. The constant wire sits at [`IoLayout::const_position`], the
/// first position after the last slot unit that any region touches; internal committed bits
/// (AND outputs and materialized linear values) follow in the order the gadget creates them.
/// Aligned slots are what the hash-chain and Merkle arguments address with a few selector
/// bits (Flock notes §3 "IO").
///
/// The *input vector* of an instance is the concatenation of its input regions in
/// declaration order, each as `⌈bits/64⌉` little-endian `u64` words (bit `i` of a region is
/// bit `i % 64` of its word `i / 64`; the bits of its last word past `bits` are zero); the
/// *output vector* likewise for the output regions.
///
/// Build one with [`IoLayout::auto`] (regions by name and size, placed for you) or with
/// [`IoLayout::new`] and explicit slot offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoLayout {
    slot_bits: usize,
    slots: Vec<IoSlot>,
    state: Option<(SlotId, SlotId)>,
}

impl IoLayout {
    /// An empty layout with slot units of `slot_bits` bits, regions placed by hand
    /// ([`IoLayout::input`], [`IoLayout::output`]); [`IoLayout::auto`] places them for you.
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
            state: None,
        }
    }

    /// A layout placed automatically: list the regions by name and size, then
    /// [`AutoLayout::build`] (see [`AutoLayout`]: the least power-of-two slot units of at
    /// least 128 bits that hold the state, consecutive units in declaration order).
    #[must_use]
    pub fn auto() -> AutoLayout {
        AutoLayout::default()
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

    /// Adds a region of `bits` bits (any positive count) at slot unit `first_slot`; it covers
    /// `⌈bits/slot_bits⌉` units.
    ///
    /// # Panics
    /// If `bits` is zero, or the region's units overlap those of an earlier region.
    #[must_use]
    pub fn with_slot(
        mut self,
        name: &'static str,
        kind: SlotKind,
        first_slot: usize,
        bits: usize,
    ) -> Self {
        assert!(bits > 0, "IO region {name} has no bits");
        let slot = IoSlot {
            name,
            kind,
            first_slot,
            bits,
        };
        // Regions start at unit boundaries, so their bit ranges overlap iff their units do.
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

    /// The handle of the region named `name` (the first, if several share it).
    #[must_use]
    pub fn find(&self, name: &str) -> Option<SlotId> {
        self.slots.iter().position(|s| s.name == name).map(SlotId)
    }

    /// The chained state, `(input, output)`, when the layout marks one
    /// ([`AutoLayout::state`]); `None` for layouts placed by hand.
    #[must_use]
    pub fn state(&self) -> Option<(SlotId, SlotId)> {
        self.state
    }

    /// Positions (within an instance block) of region `id`: its `bits` positions, without the
    /// zero padding of its last unit.
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

    /// Offset (in bits, a multiple of 64) of region `id` inside the input or output vector of
    /// its kind: `64·Σ⌈bits/64⌉` over the earlier regions of that kind.
    #[must_use]
    pub fn vector_offset(&self, id: SlotId) -> usize {
        let kind = self.slot(id).kind;
        64 * self.slots[..id.0]
            .iter()
            .filter(|s| s.kind == kind)
            .map(IoSlot::words)
            .sum::<usize>()
    }

    /// Words of the input or output vector: `Σ⌈bits/64⌉` over the regions of that kind.
    #[must_use]
    pub fn vector_words(&self, kind: SlotKind) -> usize {
        self.slots
            .iter()
            .filter(|s| s.kind == kind)
            .map(IoSlot::words)
            .sum()
    }

    /// The name of the first region of `kind` whose words in `vector` (an input or output
    /// vector) set a bit past the region's end, in the high bits of its last word that the
    /// layout keeps zero; `None` if every region's padding is zero.
    #[must_use]
    pub fn padding_bit_set(&self, kind: SlotKind, vector: &[u64]) -> Option<&'static str> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == kind && !s.bits.is_multiple_of(64))
            .find(|&(id, s)| {
                let last = (self.vector_offset(SlotId(id)) + s.bits) / 64;
                vector.get(last).is_some_and(|w| w >> (s.bits % 64) != 0)
            })
            .map(|(_, s)| s.name)
    }

    /// Bits of the input or output vector, `64 ·` [`IoLayout::vector_words`] (the regions'
    /// bits and the zero high bits of each region's last word).
    #[must_use]
    pub fn vector_bits(&self, kind: SlotKind) -> usize {
        64 * self.vector_words(kind)
    }
}

/// The builder behind [`IoLayout::auto`]: regions by name and bit count, in declaration order
/// (which is the order of their [`SlotId`] handles); [`AutoLayout::build`] chooses the slot
/// units and places the regions in consecutive units (see [`IoLayout`] for the padding).
///
/// ```
/// use flockwork_circuit::{IoLayout, SlotId};
///
/// // SHA-1's compression: a 160-bit chaining value in and out, a 512-bit block in.
/// let layout = IoLayout::auto().state("h_in", "h_out", 160).input("block", 512).build();
/// assert_eq!(layout.slot_bits(), 256);
/// assert_eq!(layout.state(), Some((SlotId(0), SlotId(1))));
/// assert_eq!(layout.positions(SlotId(2)), 512..1024);
/// assert_eq!(layout.slot(SlotId(0)).words(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AutoLayout {
    regions: Vec<(&'static str, SlotKind, usize)>,
    state: Option<(SlotId, SlotId)>,
}

impl AutoLayout {
    /// Adds an input region of `bits` bits.
    #[must_use]
    pub fn input(self, name: &'static str, bits: usize) -> Self {
        self.region(name, SlotKind::Input, bits)
    }

    /// Adds an output region of `bits` bits.
    #[must_use]
    pub fn output(self, name: &'static str, bits: usize) -> Self {
        self.region(name, SlotKind::Output, bits)
    }

    /// Adds the chained state: an input region `input` and an output region `output` of
    /// `bits` bits each (in that order), which a hash chain links from one instance to the
    /// next and a Merkle tree uses as the node digest. The slot units are chosen to hold it
    /// in one unit each.
    ///
    /// # Panics
    /// If a state was marked before.
    #[must_use]
    pub fn state(mut self, input: &'static str, output: &'static str, bits: usize) -> Self {
        assert!(self.state.is_none(), "a layout has one chained state");
        let first = self.regions.len();
        self.state = Some((SlotId(first), SlotId(first + 1)));
        self.input(input, bits).output(output, bits)
    }

    fn region(mut self, name: &'static str, kind: SlotKind, bits: usize) -> Self {
        self.regions.push((name, kind, bits));
        self
    }

    /// The slot unit it will choose: the least power of two of at least 128 bits that holds
    /// the state (128 without a state).
    #[must_use]
    pub fn slot_bits(&self) -> usize {
        let state = self.state.map_or(0, |(i, _)| self.regions[i.0].2);
        state.max(128).next_power_of_two()
    }

    /// The layout: slot units of [`AutoLayout::slot_bits`], every region at the next free
    /// unit in declaration order.
    ///
    /// # Panics
    /// If a region has no bits.
    #[must_use]
    pub fn build(self) -> IoLayout {
        let unit = self.slot_bits();
        let mut layout = IoLayout::new(unit);
        let mut next = 0;
        for (name, kind, bits) in self.regions {
            layout = layout.with_slot(name, kind, next, bits);
            next += bits.div_ceil(unit);
        }
        layout.state = self.state;
        layout
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
