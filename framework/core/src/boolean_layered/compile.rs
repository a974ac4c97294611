//! A layer compiled into flat index arrays: a straight-line XOR program over the distinct
//! linear parts of its forms, then the gates (module docs of [`super`], *Packed evaluation*).

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::{BooleanLayer, PackedBits, symmetric_difference};

/// Sentinel step index: the operand is the constant 0.
const ZERO_SLOT: u32 = 0;

/// A gate of a compiled layer: the value slots of its three forms' linear parts (`L0`, `L1`,
/// `L2`; slot numbering in [`LayerForms`](super::LayerForms)) and the forms' constants (bit
/// `k` of `constants` for form `Lk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateSlots {
    /// The value slots of the linear parts of `L0`, `L1`, `L2`.
    pub slots: [u32; 3],
    /// Bit `k`: the constant of `Lk`.
    pub constants: u8,
}

/// A layer compiled into flat index arrays (module docs, *Packed evaluation*).
///
/// Values are numbered: slot 0 is the constant 0, slots `1 ..= w` the previous state's bits,
/// and slots `w + 1 ..` the results of the XOR program's steps in order. Step `s` is the XOR
/// of the slots `operands[starts[s] .. starts[s + 1]]`, all earlier than its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CompiledLayer {
    input_width: usize,
    starts: Vec<u32>,
    operands: Vec<u32>,
    gates: Vec<GateSlots>,
}

/// How many earlier linear parts, per bit, the compiler compares a new one with.
const CANDIDATES_PER_BIT: usize = 16;

impl CompiledLayer {
    pub(super) fn new(input_width: usize, layer: &BooleanLayer) -> Self {
        let mut compiler = LayerCompiler {
            input_width,
            parts: BTreeMap::new(),
            computed: Vec::new(),
            containing: vec![Vec::new(); input_width],
            starts: vec![0],
            operands: Vec::new(),
        };
        let gates = layer
            .gates
            .iter()
            .map(|g| {
                let forms = [&g.linear, &g.left, &g.right];
                let mut constants = 0u8;
                for (k, f) in forms.iter().enumerate() {
                    constants |= u8::from(f.constant) << k;
                }
                GateSlots {
                    slots: forms.map(|f| compiler.slot(&f.bits)),
                    constants,
                }
            })
            .collect();
        Self {
            input_width,
            starts: compiler.starts,
            operands: compiler.operands,
            gates,
        }
    }

    fn steps(&self) -> usize {
        self.starts.len() - 1
    }

    /// The XORs of one block: the operands after the first of every step.
    pub(super) fn xors(&self) -> usize {
        self.operands.len() - self.steps()
    }

    /// The number of value slots the program uses.
    pub(super) fn slots(&self) -> usize {
        1 + self.input_width + self.steps()
    }

    /// The gates' slots and constants.
    pub(super) fn gates(&self) -> &[GateSlots] {
        &self.gates
    }

    /// Every slot's value on one state over any additive group (`add` is XOR for bits,
    /// field addition for an embedding in characteristic 2); `values` is resized to
    /// [`CompiledLayer::slots`].
    pub(super) fn slot_values<V: Copy>(
        &self,
        state: &[V],
        zero: V,
        add: impl Fn(V, V) -> V,
        values: &mut Vec<V>,
    ) {
        debug_assert_eq!(state.len(), self.input_width);
        values.clear();
        values.resize(self.slots(), zero);
        values[1..=self.input_width].copy_from_slice(state);
        let first = 1 + self.input_width;
        for (s, range) in self.starts.windows(2).enumerate() {
            let ops = &self.operands[range[0] as usize..range[1] as usize];
            let mut acc = values[ops[0] as usize];
            for &o in &ops[1..] {
                acc = add(acc, values[o as usize]);
            }
            values[first + s] = acc;
        }
    }

    /// `out = layer(state)` on one block; `values` is scratch space (resized as needed).
    pub(super) fn run<T: PackedBits>(&self, state: &[T], out: &mut [T], values: &mut Vec<T>) {
        debug_assert_eq!(out.len(), self.gates.len());
        self.slot_values(state, T::ZERO, |a, b| a ^ b, values);
        let constant = |c: u8, k: u32| if c >> k & 1 == 1 { T::ONES } else { T::ZERO };
        for (o, g) in out.iter_mut().zip(&self.gates) {
            let [a, b, c] = g.slots.map(|s| values[s as usize]);
            let (a, b, c) = (
                a ^ constant(g.constants, 0),
                b ^ constant(g.constants, 1),
                c ^ constant(g.constants, 2),
            );
            *o = a ^ (b & c);
        }
    }
}

/// Builds a [`CompiledLayer`]'s XOR program: one step per distinct linear part of two or
/// more bits, each started from the earlier part (sharing one of its first two bits) that
/// leaves the fewest bits to add, when that beats XORing its bits from scratch.
struct LayerCompiler {
    input_width: usize,
    /// Linear part (sorted bits) → its value slot.
    parts: BTreeMap<Vec<u32>, u32>,
    /// The parts with a step, in step order.
    computed: Vec<Vec<u32>>,
    /// Bit → the steps (indices into `computed`) whose part contains it (the first
    /// [`CANDIDATES_PER_BIT`]).
    containing: Vec<Vec<u32>>,
    starts: Vec<u32>,
    operands: Vec<u32>,
}

impl LayerCompiler {
    fn slot(&mut self, bits: &[u32]) -> u32 {
        match bits {
            [] => return ZERO_SLOT,
            &[b] => return 1 + b,
            _ => {}
        }
        if let Some(&slot) = self.parts.get(bits) {
            return slot;
        }
        let step = self.computed.len();
        let slot = u32::try_from(1 + self.input_width + step).expect("slots fit in u32");
        // The cheapest start: an earlier part `p` costs `|bits Δ p|` operands after it,
        // from scratch `|bits|` operands.
        let mut best: Option<(usize, u32)> = None;
        for &b in &bits[..2] {
            for &candidate in &self.containing[b as usize] {
                let cost = symmetric_difference_len(bits, &self.computed[candidate as usize]);
                if best.is_none_or(|(c, _)| cost < c) {
                    best = Some((cost, candidate));
                }
            }
        }
        match best {
            Some((cost, candidate)) if cost + 1 < bits.len() => {
                let start = u32::try_from(1 + self.input_width).expect("slots fit in u32");
                self.operands.push(start + candidate);
                let diff = symmetric_difference(bits, &self.computed[candidate as usize]);
                self.operands.extend(diff.iter().map(|&b| 1 + b));
            }
            _ => self.operands.extend(bits.iter().map(|&b| 1 + b)),
        }
        self.starts
            .push(u32::try_from(self.operands.len()).expect("operands fit in u32"));
        for &b in bits {
            let list = &mut self.containing[b as usize];
            if list.len() < CANDIDATES_PER_BIT {
                list.push(u32::try_from(step).expect("steps fit in u32"));
            }
        }
        self.computed.push(bits.to_vec());
        self.parts.insert(bits.to_vec(), slot);
        slot
    }
}

/// `|a Δ b|` for sorted, distinct `a` and `b`.
fn symmetric_difference_len(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            core::cmp::Ordering::Less => i += 1,
            core::cmp::Ordering::Greater => j += 1,
            core::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    a.len() + b.len() - 2 * common
}
