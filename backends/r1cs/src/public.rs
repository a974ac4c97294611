//! The public-IO argument: `K` independent instances whose inputs and outputs are all public,
//! bound to the committed witness with **one linear claim on the packed polynomial**, in the
//! style of the hash-chain argument ([`crate::io`]; Flock notes §3 "IO", pitfall 2: IO bits
//! are free witness bits until a claim binds them).
//!
//! ## Layout
//!
//! Every IO region of the gadget's [`IoLayout`] starts at a slot unit of `2^p` packed words
//! (`128·2^p` bits) and covers `⌈bits / (128·2^p)⌉` of them; no two regions share a unit.
//! A region may have any number of bits: the statement gives it `⌈bits/64⌉` words, the bits
//! past `bits` zero (a statement that sets one is refused before any claim). Let
//! `U` be the slot units that regions occupy and, for an instance `i` and a unit `u ∈ U`,
//! `X[pos, u, i]` the packed word the statement gives it: the region's public words, zero
//! past the region's end. The zeros are what the witness holds there: positions that no
//! region, gate or constant uses have the empty row `0 · 0 = 0`, so every satisfying
//! witness (and the witness generator) has zero bits in them. Comparing whole units is
//! therefore comparing the regions' bits.
//!
//! ## The claim
//!
//! With the packed witness `P` indexed as `y = (pos, slot, inst)` ([`crate::io`]), random
//! `τ_pos ∈ F^p`, `τ ∈ F^k` and one coefficient `γ_u` per unit,
//!
//! ```text
//! Σ_{pos, slot, inst} W(pos, slot, inst)·P[pos, slot, inst] = Σ_i eq(τ, i)·Σ_u γ_u·Σ_pos eq(τ_pos, pos)·X[pos, u, i],
//! W(pos, slot, inst) = eq(τ_pos, pos)·eq(τ, inst)·Σ_{u ∈ U} γ_u·eq(u, slot).
//! ```
//!
//! The verifier evaluates `W` at any point in `O(n·|U|)` ([`PublicWeight`]; `|U|` is a
//! constant of the gadget, four units for SHA-256) and the right side in `O(K·|U|·2^p)`
//! field operations, linear in the public data it reads anyway. The PCS proves the claim
//! together with the other claims — no extra sumcheck.
//!
//! **Soundness.** Write `D = P − X` on the units `U`. The claim's two sides differ by
//! `Σ_{i,u,pos} D[pos, u, i]·eq(τ, i)·γ_u·eq(τ_pos, pos)`, a polynomial in `(τ, γ, τ_pos)`
//! of total degree `≤ k + 1 + p`; the products `eq(τ, i)·γ_u·eq(τ_pos, pos)` are linearly
//! independent, so it is the zero polynomial only if `D = 0`. A false statement therefore
//! survives with probability `≤ (k + p + 1)/|F|` (Schwartz–Zippel). `D = 0` means equal packed
//! words, and packing 128 bits into a GF(2^128) element is a bijection, so every bit of every
//! region (and its zero padding) equals the public data.

use std::sync::Arc;

use flockwork_circuit::{BatchWitness, IoLayout, SlotId, SlotKind};
use flockwork_core::pcs::{Claim, MultilinearWeight};
use flockwork_core::{eq_eval, eq_table};
use flockwork_field::{Field, par};
use flockwork_field_binary::Ghash128;
use flockwork_transcript::Transcript;

use crate::SetupError;
use crate::io::{
    INSTANCE_TASK, PARALLEL_INSTANCES, add_scaled_slot, bits_point, check_slot_bits, fold_words,
    for_each_instance_block, sets_padding,
};

const LABEL_TAU_POS: &str = "flock/public/tau-pos";
const LABEL_TAU: &str = "flock/public/tau";
const LABEL_GAMMA: &str = "flock/public/gamma";

/// One IO region of the gadget, as the public-IO argument reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicRegion {
    /// Input or output.
    pub kind: SlotKind,
    /// First slot unit of the region.
    pub first_slot: usize,
    /// Bits of the region (any positive count; `⌈bits/64⌉` words in its vector).
    pub bits: usize,
    /// Offset in `u64` words of the region inside its instance's input or output vector.
    pub offset: usize,
}

/// Where the public inputs and outputs live in an instance block, and how a
/// [`crate::Statement::Public`] lays them out: instance `i`'s input vector is
/// `inputs[i·input_words .. (i + 1)·input_words]`, its output vector
/// `outputs[i·output_words .. (i + 1)·output_words]` (the input and output vectors of
/// [`IoLayout`]: the regions of each kind in declaration order, `u64` words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicLayout {
    /// `p`: a slot unit is `2^p` packed words.
    pub log_slot_words: usize,
    /// Every IO region, in declaration order.
    pub regions: Vec<PublicRegion>,
    /// Words of an instance's input vector.
    pub input_words: usize,
    /// Words of an instance's output vector.
    pub output_words: usize,
}

/// One slot unit of a region: its index in the block, and the words of its instance vector
/// it holds (`words ≤ 2^(p+1)`; the rest of the unit is zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    slot: usize,
    kind: SlotKind,
    offset: usize,
    words: usize,
}

impl PublicLayout {
    /// Every IO region of `layout`, public.
    ///
    /// # Errors
    /// [`SetupError::PublicLayout`] if the slot units are not a power of two of at least 128
    /// bits (a unit must be whole packed words, addressed by selector bits) or the layout has
    /// no IO regions.
    pub fn new(layout: &IoLayout) -> Result<Self, SetupError> {
        let slot_bits = check_slot_bits(layout).map_err(SetupError::PublicLayout)?;
        if layout.slots().is_empty() {
            return Err(SetupError::PublicLayout(
                "the gadget declares no IO regions (prove Statement::Batch instead)".into(),
            ));
        }
        let regions = layout
            .slots()
            .iter()
            .enumerate()
            .map(|(id, s)| PublicRegion {
                kind: s.kind,
                first_slot: s.first_slot,
                bits: s.bits,
                offset: layout.vector_offset(SlotId(id)) / 64,
            })
            .collect();
        Ok(Self {
            log_slot_words: (slot_bits / 128).trailing_zeros() as usize,
            regions,
            input_words: layout.vector_words(SlotKind::Input),
            output_words: layout.vector_words(SlotKind::Output),
        })
    }

    /// Whether a public statement's vectors (`N` instances each, checked for length) set a
    /// bit past a region's end in some instance: the high bits of a region's last word, which
    /// the layout keeps zero ([`IoLayout`]).
    pub(crate) fn sets_padding(&self, inputs: &[u64], outputs: &[u64]) -> bool {
        self.regions
            .iter()
            .filter(|r| !r.bits.is_multiple_of(64))
            .any(|r| {
                let (data, words) = match r.kind {
                    SlotKind::Input => (inputs, self.input_words),
                    SlotKind::Output => (outputs, self.output_words),
                };
                data.chunks_exact(words)
                    .any(|v| sets_padding(&v[r.offset..], r.bits))
            })
    }

    /// The slot units the regions occupy, in region order.
    fn units(&self) -> Vec<Unit> {
        let unit_words = 2usize << self.log_slot_words;
        let mut out = Vec::new();
        for r in &self.regions {
            let words = r.bits.div_ceil(64);
            for j in 0..words.div_ceil(unit_words) {
                out.push(Unit {
                    slot: r.first_slot + j,
                    kind: r.kind,
                    offset: r.offset + j * unit_words,
                    words: (words - j * unit_words).min(unit_words),
                });
            }
        }
        out
    }

    /// The input and output vectors of the first `instances` blocks of `witness` (blocks of
    /// `2^log_block` bits), flat as [`crate::Statement::Public`] takes them; `None` for a
    /// witness of another shape.
    #[must_use]
    pub fn read(
        &self,
        witness: &BatchWitness,
        log_block: usize,
        instances: usize,
    ) -> Option<(Vec<u64>, Vec<u64>)> {
        if witness.log_block != log_block || witness.instances < instances {
            return None;
        }
        let unit_words = 2usize << self.log_slot_words;
        let mut inputs = Vec::with_capacity(instances.checked_mul(self.input_words)?);
        let mut outputs = Vec::with_capacity(instances.checked_mul(self.output_words)?);
        for block in witness
            .z
            .chunks_exact(witness.block_words())
            .take(instances)
        {
            for kind in [SlotKind::Input, SlotKind::Output] {
                let out = match kind {
                    SlotKind::Input => &mut inputs,
                    SlotKind::Output => &mut outputs,
                };
                for r in self.regions.iter().filter(|r| r.kind == kind) {
                    let region = block
                        .get(r.first_slot * unit_words..)?
                        .get(..r.bits.div_ceil(64))?;
                    out.extend_from_slice(region);
                }
            }
        }
        let whole = inputs.len() == instances * self.input_words
            && outputs.len() == instances * self.output_words;
        whole.then_some((inputs, outputs))
    }
}

/// The challenges of the public-IO argument.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PublicChallenges {
    tau_pos: Vec<Ghash128>,
    tau: Vec<Ghash128>,
    /// One per slot unit, in [`PublicLayout::units`] order.
    gammas: Vec<Ghash128>,
}

/// The weight `W` of the public-IO claim (see the module docs).
#[derive(Clone, Debug)]
pub struct PublicWeight {
    log_slot_words: usize,
    /// Bits of the slot-unit index (`m0 − 7 − p`).
    slot_vars: usize,
    /// The slot units, in challenge order.
    slots: Vec<usize>,
    ch: PublicChallenges,
}

impl MultilinearWeight<Ghash128> for PublicWeight {
    fn num_vars(&self) -> usize {
        self.log_slot_words + self.slot_vars + self.ch.tau.len()
    }

    fn accumulate_table(&self, scale: Ghash128, out: &mut [Ghash128]) {
        let p = self.log_slot_words;
        let eq_pos = eq_table(&self.ch.tau_pos);
        let eq_inst = eq_table(&self.ch.tau);
        let block = 1usize << (p + self.slot_vars);
        for_each_instance_block(out, block, |i, out| {
            let s = scale * eq_inst[i];
            for (&slot, &gamma) in self.slots.iter().zip(&self.ch.gammas) {
                add_scaled_slot(&mut out[slot << p..][..1 << p], s * gamma, &eq_pos);
            }
        });
    }

    fn evaluate(&self, point: &[Ghash128]) -> Ghash128 {
        let (pos, rest) = point.split_at(self.log_slot_words);
        let (slot, inst) = rest.split_at(self.slot_vars);
        let select: Ghash128 = self
            .slots
            .iter()
            .zip(&self.ch.gammas)
            .map(|(&s, &gamma)| gamma * eq_eval(&bits_point(s, self.slot_vars), slot))
            .sum();
        eq_eval(&self.ch.tau_pos, pos) * eq_eval(&self.ch.tau, inst) * select
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        let mut out = b"flock/public".to_vec();
        for v in [self.log_slot_words, self.slot_vars, self.slots.len()]
            .into_iter()
            .chain(self.slots.iter().copied())
        {
            out.extend_from_slice(&(v as u64).to_le_bytes());
        }
        let ch = &self.ch;
        for x in ch.tau_pos.iter().chain(&ch.tau).chain(&ch.gammas) {
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        out
    }
}

/// `Σ_{i < N} eq(τ, i)·Σ_u γ_u·fold(X[·, u, i])` for the statement's `N` instances (the
/// blocks past them hold zeros): the public side of the claim, in parallel over the
/// instances with the `parallel` feature.
fn public_side(
    units: &[Unit],
    layout: &PublicLayout,
    ch: &PublicChallenges,
    instances: usize,
    inputs: &[u64],
    outputs: &[u64],
) -> Ghash128 {
    let eq_pos = eq_table(&ch.tau_pos);
    let eq_inst = eq_table(&ch.tau);
    let (ni, no) = (layout.input_words, layout.output_words);
    let instance = |i: usize| -> Ghash128 {
        let (vin, vout) = (&inputs[i * ni..][..ni], &outputs[i * no..][..no]);
        let folded: Ghash128 = units
            .iter()
            .zip(&ch.gammas)
            .map(|(u, &gamma)| {
                let v = if u.kind == SlotKind::Input { vin } else { vout };
                gamma * fold_words(&v[u.offset..][..u.words], &eq_pos)
            })
            .sum();
        eq_inst[i] * folded
    };
    par::map_reduce(
        instances,
        PARALLEL_INSTANCES,
        INSTANCE_TASK,
        || Ghash128::ZERO,
        instance,
        |a, b| a + b,
    )
}

/// Squeezes the challenges and returns the packed claim that the first `instances` of
/// `2^log_instances` blocks of `2^log_block` bits have these input and output vectors (flat,
/// see [`PublicLayout`]) and the blocks past them zeros ([`crate::padding`]; prover and
/// verifier).
///
/// # Panics
/// If `inputs` or `outputs` is not `instances` vectors long (the caller checks the
/// statement first), `instances` exceeds `2^log_instances`, or `layout` is not the layout
/// of a gadget with blocks of `2^log_block` bits.
#[must_use]
pub fn public_claim<T: Transcript>(
    layout: &PublicLayout,
    log_block: usize,
    log_instances: usize,
    instances: usize,
    inputs: &[u64],
    outputs: &[u64],
    transcript: &mut T,
) -> Claim<Ghash128> {
    assert!(
        instances <= 1 << log_instances,
        "more instances than blocks"
    );
    assert!(
        inputs.len() == instances * layout.input_words
            && outputs.len() == instances * layout.output_words,
        "public IO of the wrong length"
    );
    let p = layout.log_slot_words;
    let units = layout.units();
    let ch = PublicChallenges {
        tau_pos: transcript.challenges(LABEL_TAU_POS, p),
        tau: transcript.challenges(LABEL_TAU, log_instances),
        gammas: transcript.challenges(LABEL_GAMMA, units.len()),
    };
    let value = public_side(&units, layout, &ch, instances, inputs, outputs);
    let weight = PublicWeight {
        log_slot_words: p,
        slot_vars: log_block - 7 - p,
        slots: units.iter().map(|u| u.slot).collect(),
        ch,
    };
    Claim::linear(Arc::new(weight), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(i: u128) -> Ghash128 {
        Ghash128::new(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834 ^ (i * 0x1234_5677))
    }

    /// A weight over `2^log_k` instances: slot units of 2 words, 8 per instance, 5 public.
    fn weight(log_k: u128) -> PublicWeight {
        PublicWeight {
            log_slot_words: 1,
            slot_vars: 3,
            slots: vec![0, 1, 2, 3, 5],
            ch: PublicChallenges {
                tau_pos: vec![g(1)],
                tau: (0..log_k).map(|i| g(2 + i)).collect(),
                gammas: (0..5).map(|i| g(30 + i)).collect(),
            },
        }
    }

    #[test]
    fn public_weight_table_is_its_multilinear_extension() {
        // 8 instances (one thread fills the table) and 512 (the parallel fill).
        for log_k in [3, 9] {
            crate::io::check_weight_is_its_mle(&weight(log_k));
        }
    }

    #[test]
    fn public_weight_bytes_bind_every_parameter() {
        crate::io::check_bytes_bind_every_parameter(
            &weight(3),
            &[
                |w| w.log_slot_words = 2,
                |w| w.slot_vars = 4,
                |w| w.slots[4] = 6,
                |w| {
                    w.slots.pop();
                    w.ch.gammas.pop();
                },
                |w| w.ch.tau_pos[0] += Ghash128::ONE,
                |w| w.ch.tau[0] += Ghash128::ONE,
                |w| w.ch.gammas[2] += Ghash128::ONE,
            ],
        );
    }

    /// The unit at `slot` holding `words` words of its vector from `offset` on.
    fn u(slot: usize, kind: SlotKind, offset: usize, words: usize) -> Unit {
        Unit {
            slot,
            kind,
            offset,
            words,
        }
    }

    #[test]
    fn units_split_regions_and_pad_their_ends() {
        let io = IoLayout::new(256)
            .input("a", 0, 512)
            .output("b", 2, 64)
            .input("c", 3, 320);
        let layout = PublicLayout::new(&io).unwrap();
        assert_eq!((layout.input_words, layout.output_words), (13, 1));
        assert_eq!(
            layout.units(),
            [
                u(0, SlotKind::Input, 0, 4),
                u(1, SlotKind::Input, 4, 4),
                u(2, SlotKind::Output, 0, 1),
                u(3, SlotKind::Input, 8, 4),
                u(4, SlotKind::Input, 12, 1),
            ]
        );
    }

    #[test]
    fn regions_of_any_size_take_whole_words_and_whole_units() {
        // A 160-bit state in and out, a 300-bit input (two units, 5 words), a 5-bit output.
        let io = IoLayout::auto()
            .state("s", "t", 160)
            .input("m", 300)
            .output("p", 5)
            .build();
        let layout = PublicLayout::new(&io).unwrap();
        assert_eq!((layout.input_words, layout.output_words), (8, 4));
        assert_eq!(
            layout.units(),
            [
                u(0, SlotKind::Input, 0, 3),
                u(1, SlotKind::Output, 0, 3),
                u(2, SlotKind::Input, 3, 4),
                u(3, SlotKind::Input, 7, 1),
                u(4, SlotKind::Output, 3, 1),
            ]
        );
        // Two instances; a bit past a region's end in any of them is found.
        let (inputs, outputs) = (vec![0u64; 16], vec![0u64; 8]);
        assert!(!layout.sets_padding(&inputs, &outputs));
        for (input, output, bit) in [
            (Some(2), None, 32),
            (Some(8 + 7), None, 44),
            (None, Some(4 + 2), 63),
            (None, Some(4 + 3), 5),
        ] {
            let (mut i, mut o) = (inputs.clone(), outputs.clone());
            if let Some(w) = input {
                i[w] |= 1 << bit;
            }
            if let Some(w) = output {
                o[w] |= 1 << bit;
            }
            assert!(
                layout.sets_padding(&i, &o),
                "{input:?} {output:?} bit {bit}"
            );
        }
        // Bits inside the regions are not padding.
        let (mut i, mut o) = (inputs.clone(), outputs.clone());
        i[15] = (1 << 44) - 1;
        o[7] = 31;
        assert!(!layout.sets_padding(&i, &o));
    }

    #[test]
    fn unusable_layouts_are_refused() {
        for io in [
            IoLayout::new(64).input("x", 0, 64),
            IoLayout::new(192).input("x", 0, 192),
            IoLayout::new(256),
        ] {
            assert!(matches!(
                PublicLayout::new(&io),
                Err(SetupError::PublicLayout(_))
            ));
        }
    }
}
