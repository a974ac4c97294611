//! Several instances of one gadget per instance block ([`Wide`]).
//!
//! The block R1CS commits `2^m0` positions per block, `m0 = ⌈log2(positions)⌉`, so a gadget
//! whose positions sit just above a power of two wastes up to half of every block. Keccak-f
//! commits 41,601 bits in a block of 2^16 (63% used); three permutations fill 2^17 to 95%
//! (the reference prover's "keccak3" layout, Flock notes §2). [`Wide`] writes that once for
//! every gadget: `n` copies of the gadget's circuit share one block and its constant wire,
//! and [`Wide::best`] picks the `n` that minimises the committed positions per instance.
//!
//! ## Layout
//!
//! Copy 0's IO regions keep their inner positions; the regions of copies 1, 2, … follow in
//! order, each starting at the next free slot unit, so every region stays aligned to its slot
//! units. The constant wire follows the last region, then the internal bits of copy 0,
//! copy 1, … in creation order.
//!
//! ## Chains inside a block
//!
//! [`Wide::chained`] wires copy `c`'s state output to copy `c + 1`'s state input inside the
//! block instead of committing both regions: the block's state input is copy 0's (at the inner
//! input region's place and handle) and its state output copy `n − 1`'s (at the inner output
//! region's place and handle), so a chain over `K` blocks is a chain of `n·K` steps and the
//! hash-chain argument runs on the block as on the inner gadget. The intermediate states are
//! linear expressions in the committed bits of the copy that produced them (free, like every
//! XOR), so they cost no committed positions.
//!
//! ## Soundness
//!
//! A wide block is one instance of an ordinary gadget, so the batch-R1CS argument is
//! unchanged: each row still pins one committed bit to a product of XORs of committed bits.
//! The copies share the constant wire, which the lincheck's `β` term pins to 1 in every block.

use alloc::vec;
use alloc::vec::Vec;

use super::{CircuitBuilder, Gadget, IoLayout, SlotId, StatsCounter};

/// `n` copies of `G` in one instance block, independent or chained through two regions (see
/// the module docs).
#[derive(Clone, Debug)]
pub struct Wide<G> {
    inner: G,
    copies: usize,
    chain: Option<(SlotId, SlotId)>,
    /// `handles[c][s]`: the block's handle of copy `c`'s inner region `s`, or `None` for a
    /// chained state region wired inside the block.
    handles: Vec<Vec<Option<SlotId>>>,
    layout: IoLayout,
}

impl<G: Gadget> Wide<G> {
    /// `copies` independent copies of `gadget`: copy `c`'s region `s` has handle
    /// `SlotId(c · R + s)` (`R` regions per copy), and the block's input vector is the copies'
    /// input vectors one after the other (likewise the output vector).
    ///
    /// # Panics
    /// If `copies` is zero.
    #[must_use]
    pub fn independent(gadget: G, copies: usize) -> Self {
        Self::build(gadget, copies, None)
    }

    /// `copies` copies of `gadget` chained inside the block: copy `c`'s region `output` feeds
    /// copy `c + 1`'s region `input` (the same number of bits). The block keeps copy 0's
    /// `input` under the handle `input` and copy `copies − 1`'s `output` under the handle
    /// `output`, both at the inner positions; the other regions of copy 0 keep their inner
    /// handles, those of later copies follow in copy order.
    ///
    /// # Panics
    /// If `copies` is zero, `input` is not an input region, `output` not an output region,
    /// or their lengths differ.
    #[must_use]
    pub fn chained(gadget: G, copies: usize, input: SlotId, output: SlotId) -> Self {
        let layout = gadget.layout();
        let (i, o) = (layout.slot(input), layout.slot(output));
        assert!(
            i.kind == super::SlotKind::Input && o.kind == super::SlotKind::Output,
            "a chain runs from an input region to an output region"
        );
        assert_eq!(i.bits, o.bits, "chained regions have the same length");
        Self::build(gadget, copies, Some((input, output)))
    }

    fn build(inner: G, copies: usize, chain: Option<(SlotId, SlotId)>) -> Self {
        assert!(copies >= 1, "at least one copy per block");
        let base = inner.layout();
        let unit = base.slot_bits();
        let regions = base.slots().len();
        let mut layout = IoLayout::new(unit);
        let mut handles = vec![vec![None; regions]; copies];
        let mut next = 0;
        // Slot unit where the next region of a later copy goes.
        let mut cursor = base.const_position() / unit;
        for c in 0..copies {
            for (s, slot) in base.slots().iter().enumerate() {
                let id = SlotId(s);
                let (owner, first_slot) = match chain {
                    // Copy 0's place of the output region holds the last copy's output.
                    Some((_, out)) if c == 0 && id == out => (copies - 1, slot.first_slot),
                    Some((inp, out)) if (c > 0 && id == inp) || id == out => continue,
                    _ if c == 0 => (0, slot.first_slot),
                    _ => {
                        let first = cursor;
                        cursor += slot.bits.div_ceil(unit);
                        (c, first)
                    }
                };
                handles[owner][s] = Some(SlotId(next));
                next += 1;
                layout = layout.with_slot(slot.name, slot.kind, first_slot, slot.bits);
            }
        }
        Self {
            inner,
            copies,
            chain,
            handles,
            layout,
        }
    }

    /// The number of copies `n ≤ max_copies` with the fewest committed positions per
    /// instance (`2^m0(n) / n`; the smallest such `n` on ties), for the chained layout through
    /// `chain` or the independent one.
    ///
    /// # Panics
    /// As [`Wide::chained`], or if `max_copies` is zero.
    #[must_use]
    pub fn best(gadget: &G, max_copies: usize, chain: Option<(SlotId, SlotId)>) -> usize
    where
        G: Clone,
    {
        assert!(max_copies >= 1, "at least one copy per block");
        let per_instance = |n: usize| {
            let wide = Self::build(gadget.clone(), n, chain);
            let stats = StatsCounter::run(&wide);
            // Compare 2^m0 / n exactly: 2^m0(a)·b against 2^m0(b)·a.
            (stats.block_bits(), n)
        };
        let mut best = per_instance(1);
        for n in 2..=max_copies {
            let candidate = per_instance(n);
            if candidate.0 * best.1 < best.0 * candidate.1 {
                best = candidate;
            }
        }
        best.1
    }

    /// The inner gadget.
    #[must_use]
    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// Copies per block.
    #[must_use]
    pub fn copies(&self) -> usize {
        self.copies
    }

    /// The chained regions (inner handles), if the copies form a chain.
    #[must_use]
    pub fn chain(&self) -> Option<(SlotId, SlotId)> {
        self.chain
    }

    /// The block's handle of copy `copy`'s inner region `slot` (`None` for a chained state
    /// region wired inside the block).
    ///
    /// # Panics
    /// If `copy` or `slot` is out of range.
    #[must_use]
    pub fn handle(&self, copy: usize, slot: SlotId) -> Option<SlotId> {
        self.handles[copy][slot.0]
    }
}

impl<G: Gadget> Gadget for Wide<G> {
    fn layout(&self) -> IoLayout {
        self.layout.clone()
    }

    fn synthesize<B: CircuitBuilder>(&self, builder: &mut B) {
        let mut carry = None;
        for handles in &self.handles {
            let mut copy = CopyBuilder {
                inner: &mut *builder,
                handles,
                carry: &mut carry,
            };
            self.inner.synthesize(&mut copy);
        }
    }
}

/// The builder one copy sees: its IO handles renamed to the block's, chained state regions
/// passed through `carry`.
struct CopyBuilder<'a, B: CircuitBuilder> {
    inner: &'a mut B,
    handles: &'a [Option<SlotId>],
    carry: &'a mut Option<Vec<B::Wire>>,
}

impl<B: CircuitBuilder> CircuitBuilder for CopyBuilder<'_, B> {
    type Wire = B::Wire;

    fn zero(&self) -> B::Wire {
        self.inner.zero()
    }

    fn one(&self) -> B::Wire {
        self.inner.one()
    }

    fn xor(&mut self, a: B::Wire, b: B::Wire) -> B::Wire {
        self.inner.xor(a, b)
    }

    fn and(&mut self, a: B::Wire, b: B::Wire) -> B::Wire {
        self.inner.and(a, b)
    }

    fn materialize(&mut self, a: B::Wire) -> B::Wire {
        self.inner.materialize(a)
    }

    fn input(&mut self, slot: SlotId) -> Vec<B::Wire> {
        match self.handles[slot.0] {
            Some(id) => self.inner.input(id),
            None => self
                .carry
                .take()
                .expect("a chained copy reads the state its predecessor wrote"),
        }
    }

    fn output(&mut self, slot: SlotId, wires: &[B::Wire]) {
        match self.handles[slot.0] {
            Some(id) => self.inner.output(id, wires),
            None => *self.carry = Some(wires.to_vec()),
        }
    }

    fn add_mod<const N: usize>(&mut self, x: &[B::Wire; N], y: &[B::Wire; N]) -> [B::Wire; N] {
        self.inner.add_mod(x, y)
    }

    fn materialize_bits<const N: usize>(&mut self, a: &[B::Wire; N]) -> [B::Wire; N] {
        self.inner.materialize_bits(a)
    }

    fn not(&mut self, a: B::Wire) -> B::Wire {
        self.inner.not(a)
    }
}
