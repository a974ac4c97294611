//! The statistics interpreter.

use alloc::vec;
use alloc::vec::Vec;

use super::layout::Allocator;
use super::{CircuitBuilder, Gadget, SlotId, SlotKind};

/// Constraint statistics of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CircuitStats {
    /// AND gates, one committed bit (and one R1CS row) each.
    pub and_gates: usize,
    /// XOR gates the gadget emitted (free; NOT counts as one XOR with the constant wire).
    pub xor_gates: usize,
    /// Free input bits.
    pub input_bits: usize,
    /// Output bits.
    pub output_bits: usize,
    /// Materialized linear bits other than outputs ("linear slots").
    pub materialized_bits: usize,
    /// Committed bits: inputs + outputs + ANDs + materialized + the constant wire.
    pub committed_bits: usize,
    /// Positions used in the instance block, counting unused bits of the IO slot units.
    pub positions: usize,
    /// `m0 = ⌈log2(positions)⌉`, at least 6 (an instance block holds whole `u64` words).
    pub log_block: usize,
}

impl CircuitStats {
    /// The statistics of a finished run: what `alloc` handed out, and `xor_gates` XORs.
    #[must_use]
    pub fn from_allocator(alloc: &Allocator, xor_gates: usize) -> Self {
        let c = alloc.counts;
        let positions = alloc.positions();
        Self {
            and_gates: c.and_gates,
            xor_gates,
            input_bits: c.input_bits,
            output_bits: c.output_bits,
            materialized_bits: c.materialized_bits,
            committed_bits: c.and_gates + c.materialized_bits + c.input_bits + c.output_bits + 1,
            positions,
            log_block: log_block(positions),
        }
    }

    /// `2^m0`, the instance block length in bits.
    #[must_use]
    pub fn block_bits(&self) -> usize {
        1 << self.log_block
    }
}

/// `max(6, ⌈log2 n⌉)`.
pub(crate) fn log_block(positions: usize) -> usize {
    (positions.next_power_of_two().trailing_zeros() as usize).max(6)
}

/// Counts gates and committed bits without computing anything (`Wire = ()`).
#[derive(Debug)]
pub struct StatsCounter {
    alloc: Allocator,
    xor_gates: usize,
}

impl StatsCounter {
    /// Runs `gadget` and returns its statistics.
    ///
    /// # Panics
    /// If the gadget misuses its IO regions (see [`CircuitBuilder::input`]).
    #[must_use]
    pub fn run<G: Gadget>(gadget: &G) -> CircuitStats {
        let mut counter = Self {
            alloc: Allocator::new(gadget.layout()),
            xor_gates: 0,
        };
        gadget.synthesize(&mut counter);
        counter.alloc.check_complete();
        CircuitStats::from_allocator(&counter.alloc, counter.xor_gates)
    }
}

impl CircuitBuilder for StatsCounter {
    type Wire = ();

    fn zero(&self) {}

    fn one(&self) {}

    fn xor(&mut self, (): (), (): ()) {
        self.xor_gates += 1;
    }

    fn and(&mut self, (): (), (): ()) {
        self.alloc.and_gate();
    }

    fn materialize(&mut self, (): ()) {
        self.alloc.materialized();
    }

    fn input(&mut self, slot: SlotId) -> Vec<()> {
        let bits = self.alloc.layout.slot(slot).bits;
        self.alloc.io(slot, SlotKind::Input, bits);
        vec![(); bits]
    }

    fn output(&mut self, slot: SlotId, wires: &[()]) {
        self.alloc.io(slot, SlotKind::Output, wires.len());
    }
}
