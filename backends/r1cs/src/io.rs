//! The hash-chain IO argument (Flock notes §3 "IO: hash chain"): binds the public chain
//! endpoints to the committed witness with **one linear claim on the packed polynomial**.
//!
//! Instance `i` reads its state from the input region and writes the next state to the output
//! region; both regions sit at slot-aligned word offsets of every instance block. Let `P` be
//! the packed witness (`u128` word `y` of the bit string; `n = m − 7` variables), with the word
//! index split as `y = (pos, slot, inst)`: `p` bits of position inside a slot unit of `2^p`
//! words, the slot-unit index inside the instance, and `k` instance bits. Fold each region at
//! the packed level with a random `τ_pos ∈ F^p`:
//! `In(i) = Σ_pos eq(τ_pos, pos)·P[pos, in, i]`, `Out(i)` likewise. With the shift polynomial
//!
//! ```text
//! shift(a, b) = Σ_j Π_{l<j} a_l(1 + b_l) · (1 + a_j) b_j · Π_{l>j} (1 + a_l + b_l)   (= 1 iff b = a + 1 on the cube)
//! ```
//!
//! the chain `Out(i) = In(i + 1)`, `In(0) = X_0`, `Out(N − 1) = X_last` through the first `N`
//! of the `K = 2^k` blocks (the blocks past them zero, [`crate::padding`]: `In(N) = 0`) gives,
//! in characteristic two and for random `τ ∈ F^k`, `α`,
//!
//! ```text
//! Σ_i [shift(τ, i) + α·eq(0, i)]·In(i) + eq(τ, i)·Out(i) = eq(τ, N − 1)·X_last + α·X_0.
//! ```
//!
//! That is `⟨P, W⟩ = v` for the weight
//! `W(pos, slot, inst) = eq(τ_pos, pos)·(eq(in, slot)·(shift(τ, inst) + α·eq(0, inst)) + eq(out, slot)·eq(τ, inst))`,
//! which the verifier evaluates at any point in `O(n)` ([`ChainWeight`]). The PCS proves it
//! together with the other claims — no extra sumcheck. If the chain is broken the two sides
//! differ as polynomials of total degree `≤ k + p + 1` in `(τ, τ_pos, α)`, so a false claim
//! survives with probability `≤ (k + p + 1)/|F|` (Schwartz–Zippel); the packed fold is
//! injective on bit strings, so equal folds mean equal regions.
//!
//! The state may have any number of bits up to a slot unit (SHA-1's 160 in 256-bit units):
//! the rest of each state unit is positions of no region, whose rows `0 · 0 = 0` make them zero
//! in every satisfying witness, and the public ends are zero-padded to the unit, so equal units
//! are equal states ([`ChainLayout`]). A statement whose ends set a bit past the state is
//! refused before any claim.

use std::sync::Arc;

use flockwork_circuit::{IoLayout, SlotId, SlotKind};
use flockwork_core::pcs::{Claim, MultilinearWeight};
use flockwork_core::{eq_eval, eq_table};
use flockwork_field::{Field, par};
use flockwork_field_binary::Ghash128;
use flockwork_transcript::Transcript;

use crate::SetupError;

const LABEL_TAU_POS: &str = "flock/chain/tau-pos";
const LABEL_TAU: &str = "flock/chain/tau";
const LABEL_ALPHA: &str = "flock/chain/alpha";

/// Where the chained state lives in an instance block.
///
/// The state may have any number of bits up to one slot unit ([`flockwork_circuit::IoLayout`]:
/// regions of any size, the rest of their unit zero). The claim compares whole slot units:
/// positions `state_bits .. 2^p·128` of the input and the output unit belong to no region,
/// so their rows are `0 · 0 = 0` and every satisfying witness holds zero there in every
/// instance; the public ends are zero-padded to the unit likewise. Equal units therefore mean
/// equal states, bit for bit, and nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLayout {
    /// `p`: a slot unit is `2^p` packed words.
    pub log_slot_words: usize,
    /// Slot unit of the input state.
    pub in_slot: usize,
    /// Slot unit of the output state.
    pub out_slot: usize,
    /// Bits of the state (both regions).
    pub state_bits: usize,
}

impl ChainLayout {
    /// The chain between input region `input` and output region `output` of `layout`.
    ///
    /// # Errors
    /// [`SetupError::ChainLayout`], naming the region and the limit, unless both regions
    /// exist with the right kinds, have the same length, fit in one slot unit each, and slot
    /// units are a power of two of at least 128 bits.
    pub fn new(layout: &IoLayout, input: SlotId, output: SlotId) -> Result<Self, SetupError> {
        let bad = |why: String| Err(SetupError::ChainLayout(why));
        let slot_bits = check_slot_bits(layout).map_err(SetupError::ChainLayout)?;
        let (Some(i), Some(o)) = (layout.slots().get(input.0), layout.slots().get(output.0)) else {
            return bad(format!(
                "no IO region {} or {} (the layout has {})",
                input.0,
                output.0,
                layout.slots().len()
            ));
        };
        if i.kind != SlotKind::Input || o.kind != SlotKind::Output {
            return bad(format!(
                "the chain reads an input region and writes an output region; {} is an \
                 {:?} region and {} an {:?} region",
                i.name, i.kind, o.name, o.kind
            ));
        }
        if i.bits != o.bits {
            return bad(format!(
                "the state regions {} ({} bits) and {} ({} bits) differ in length",
                i.name, i.bits, o.name, o.bits
            ));
        }
        if i.bits > slot_bits {
            return bad(format!(
                "the state region {} has {} bits, more than one {slot_bits}-bit slot unit \
                 (IoLayout::auto with the state marked picks units that hold it)",
                i.name, i.bits
            ));
        }
        Ok(Self {
            log_slot_words: (slot_bits / 128).trailing_zeros() as usize,
            in_slot: i.first_slot,
            out_slot: o.first_slot,
            state_bits: i.bits,
        })
    }

    /// Words of the state vector (`u64`): `⌈state_bits/64⌉`, the bits past `state_bits` zero.
    #[must_use]
    pub fn state_words(&self) -> usize {
        self.state_bits.div_ceil(64)
    }
}

/// The slot units of `layout` in bits, if they are a power of two of at least 128 bits (whole
/// packed words, addressed by selector bits), as every IO argument needs; otherwise the
/// message the chain, Merkle and public-IO setups give.
pub(crate) fn check_slot_bits(layout: &IoLayout) -> Result<usize, String> {
    let slot_bits = layout.slot_bits();
    if slot_bits.is_power_of_two() && slot_bits >= 128 {
        Ok(slot_bits)
    } else {
        Err(format!(
            "the gadget's IO slot units have {slot_bits} bits; the IO arguments need a power of \
             two of at least 128 bits (whole packed words addressed by selector bits; \
             IoLayout::auto picks them)"
        ))
    }
}

/// Whether `words` (a state of `bits` bits in `⌈bits/64⌉` words) sets a bit past `bits`.
pub(crate) fn sets_padding(words: &[u64], bits: usize) -> bool {
    let used = bits % 64;
    used != 0 && words.get(bits / 64).is_some_and(|w| w >> used != 0)
}

/// What every chain weight shares: the layout, the slot-unit bits and the challenges `τ_pos`,
/// `τ`; the weight is `eq(τ_pos, pos)·(sel_in(slot)·In(inst) + sel_out(slot)·Out(inst))`.
#[derive(Clone, Debug)]
struct ChainBase {
    layout: ChainLayout,
    /// Bits of the slot-unit index (`m0 − 7 − p`).
    slot_vars: usize,
    tau_pos: Vec<Ghash128>,
    tau: Vec<Ghash128>,
}

/// The weight `W` of the chain claim (see the module docs).
#[derive(Clone, Debug)]
pub struct ChainWeight {
    base: ChainBase,
    alpha: Ghash128,
}

/// `shift(a, b)` (multilinear in both; 1 iff `b = a + 1` on the cube, LSB first).
#[must_use]
pub fn shift_eval(a: &[Ghash128], b: &[Ghash128]) -> Ghash128 {
    let n = a.len();
    let one = Ghash128::ONE;
    // suffix[j] = Π_{l ≥ j} (1 + a_l + b_l)
    let mut suffix = vec![one; n + 1];
    for l in (0..n).rev() {
        suffix[l] = suffix[l + 1] * (one + a[l] + b[l]);
    }
    let mut prefix = one;
    let mut total = Ghash128::ZERO;
    for j in 0..n {
        total += prefix * (one + a[j]) * b[j] * suffix[j + 1];
        prefix *= a[j] * (one + b[j]);
    }
    total
}

/// Bits of `v` as 0/1 field elements (`n` of them, LSB first).
pub(crate) fn bits_point(v: usize, n: usize) -> Vec<Ghash128> {
    (0..n)
        .map(|i| {
            if (v >> i) & 1 == 1 {
                Ghash128::ONE
            } else {
                Ghash128::ZERO
            }
        })
        .collect()
}

impl ChainBase {
    /// Squeezes `τ_pos` and `τ`.
    fn squeeze<T: Transcript>(
        layout: &ChainLayout,
        log_block: usize,
        log_instances: usize,
        transcript: &mut T,
    ) -> Self {
        let p = layout.log_slot_words;
        Self {
            layout: layout.clone(),
            slot_vars: log_block - 7 - p,
            tau_pos: transcript.challenges(LABEL_TAU_POS, p),
            tau: transcript.challenges(LABEL_TAU, log_instances),
        }
    }

    fn num_vars(&self) -> usize {
        self.layout.log_slot_words + self.slot_vars + self.tau.len()
    }

    /// `point` as `(pos, slot, inst)`.
    fn split<'a>(&self, point: &'a [Ghash128]) -> (&'a [Ghash128], &'a [Ghash128], &'a [Ghash128]) {
        let (pos, rest) = point.split_at(self.layout.log_slot_words);
        let (slot, inst) = rest.split_at(self.slot_vars);
        (pos, slot, inst)
    }

    /// The weight at `(pos, slot, ·)` from its input and output parts at the instance point.
    fn combine(
        &self,
        pos: &[Ghash128],
        slot: &[Ghash128],
        in_part: Ghash128,
        out_part: Ghash128,
    ) -> Ghash128 {
        let in_sel = eq_eval(&bits_point(self.layout.in_slot, self.slot_vars), slot);
        let out_sel = eq_eval(&bits_point(self.layout.out_slot, self.slot_vars), slot);
        eq_eval(&self.tau_pos, pos) * (in_sel * in_part + out_sel * out_part)
    }

    /// Adds `scale` times the table to `out`: per instance `i`, `input(i, eq(τ, ·))` at the
    /// input slot (`None`: the instance has no weight) and `eq(τ, i)` at the output slot.
    fn accumulate<F>(&self, scale: Ghash128, out: &mut [Ghash128], input: F)
    where
        F: Fn(usize, &[Ghash128]) -> Option<Ghash128> + Sync + Send,
    {
        let p = self.layout.log_slot_words;
        let eq_pos = eq_table(&self.tau_pos);
        let eq_inst = eq_table(&self.tau);
        let block = 1usize << (p + self.slot_vars);
        for_each_instance_block(out, block, |i, out| {
            let Some(shifted) = input(i, &eq_inst) else {
                return;
            };
            for (slot, w) in [
                (self.layout.in_slot, shifted),
                (self.layout.out_slot, eq_inst[i]),
            ] {
                add_scaled_slot(&mut out[slot << p..][..1 << p], scale * w, &eq_pos);
            }
        });
    }

    /// `tag`, the layout and `extra` as `u64`s, then `τ_pos`, `τ` and `more` challenges.
    fn transcript_bytes(&self, tag: &[u8], extra: &[usize], more: &[Ghash128]) -> Vec<u8> {
        let mut out = tag.to_vec();
        let l = &self.layout;
        for &v in [l.log_slot_words, self.slot_vars, l.in_slot, l.out_slot]
            .iter()
            .chain(extra)
        {
            out.extend_from_slice(&(v as u64).to_le_bytes());
        }
        for x in self.tau_pos.iter().chain(&self.tau).chain(more) {
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        out
    }
}

impl MultilinearWeight<Ghash128> for ChainWeight {
    fn num_vars(&self) -> usize {
        self.base.num_vars()
    }

    fn accumulate_table(&self, scale: Ghash128, out: &mut [Ghash128]) {
        self.base.accumulate(scale, out, |i, eq_inst| {
            Some(if i == 0 { self.alpha } else { eq_inst[i - 1] })
        });
    }

    fn evaluate(&self, point: &[Ghash128]) -> Ghash128 {
        let (pos, slot, inst) = self.base.split(point);
        let zero_inst = vec![Ghash128::ZERO; inst.len()];
        let in_part = shift_eval(&self.base.tau, inst) + self.alpha * eq_eval(&zero_inst, inst);
        self.base
            .combine(pos, slot, in_part, eq_eval(&self.base.tau, inst))
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        self.base
            .transcript_bytes(b"flock/chain", &[], &[self.alpha])
    }
}

/// Calls `f(i, block_i)` for the `block`-entry block of every instance `i` of a weight table,
/// in parallel with the `parallel` feature. The IO weights write a few entries per instance,
/// a cache line or more apart, so one thread would wait on a miss per instance.
pub(crate) fn for_each_instance_block<F>(out: &mut [Ghash128], block: usize, f: F)
where
    F: Fn(usize, &mut [Ghash128]) + Sync + Send,
{
    par::for_each_chunk(
        out,
        INSTANCE_TASK * block,
        PARALLEL_INSTANCES * block,
        |t, run| {
            for (k, b) in run.chunks_mut(block).enumerate() {
                f(t * INSTANCE_TASK + k, b);
            }
        },
    );
}

/// Instances from which a public or IO weight's per-instance loop runs in parallel: below
/// it the loop is a few microseconds, less than waking another thread.
pub(crate) const PARALLEL_INSTANCES: usize = 256;
/// Instances per task of those loops from [`PARALLEL_INSTANCES`] on.
pub(crate) const INSTANCE_TASK: usize = 64;

/// `slot[j] += s·eq_pos[j]`: one instance's slot of an IO weight.
pub(crate) fn add_scaled_slot(slot: &mut [Ghash128], s: Ghash128, eq_pos: &[Ghash128]) {
    for (o, &q) in slot.iter_mut().zip(eq_pos) {
        *o += s * q;
    }
}

/// `Σ_pos eq(τ_pos, pos)·word_pos` of a public state (`u64` words, zero-padded to the slot).
pub(crate) fn fold_state(state: &[u64], tau_pos: &[Ghash128]) -> Ghash128 {
    fold_words(state, &eq_table(tau_pos))
}

/// [`fold_state`] with the table `eq_pos = eq(τ_pos, ·)` computed by the caller.
pub(crate) fn fold_words(state: &[u64], eq_pos: &[Ghash128]) -> Ghash128 {
    eq_pos
        .iter()
        .enumerate()
        .map(|(pos, &e)| {
            let lo = state.get(2 * pos).copied().unwrap_or(0);
            let hi = state.get(2 * pos + 1).copied().unwrap_or(0);
            e * Ghash128::new(u128::from(lo) | (u128::from(hi) << 64))
        })
        .sum()
}

/// Squeezes the challenges and returns the packed claim for the chain from `start` to `end`
/// through the first `instances` of `2^log_instances` blocks of `2^log_block` bits, the blocks
/// past them zero (prover and verifier; [`crate::padding`]).
#[must_use]
pub fn chain_claim<T: Transcript>(
    layout: &ChainLayout,
    log_block: usize,
    log_instances: usize,
    instances: usize,
    start: &[u64],
    end: &[u64],
    transcript: &mut T,
) -> Claim<Ghash128> {
    let base = ChainBase::squeeze(layout, log_block, log_instances, transcript);
    let alpha = transcript.challenge(LABEL_ALPHA);
    let last = bits_point(instances - 1, log_instances);
    let value = eq_eval(&base.tau, &last) * fold_state(end, &base.tau_pos)
        + alpha * fold_state(start, &base.tau_pos);
    let weight = ChainWeight { base, alpha };
    Claim::linear(Arc::new(weight), value)
}

/// A region of a region-chains setup ([`crate::Flock::region_chains`]): the `2^log_len`
/// instances from `offset` on, `offset` a multiple of `2^log_len` (an aligned subcube of the
/// instance index), holding a chain of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// The first instance.
    pub offset: usize,
    /// `w`: the region holds `2^w` instances.
    pub log_len: usize,
}

impl Region {
    /// The instances of the region.
    #[must_use]
    pub fn len(&self) -> usize {
        1 << self.log_len
    }

    /// Never: a region holds at least one instance.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether instance `i` is in the region.
    fn contains(&self, i: usize) -> bool {
        i >> self.log_len == self.offset >> self.log_len
    }
}

/// The weight of the region-chains claim ([`region_chains_claim`]): `γ_a` per region.
#[derive(Clone, Debug)]
pub struct RegionChainsWeight {
    base: ChainBase,
    regions: Vec<Region>,
    gammas: Vec<Ghash128>,
}

impl MultilinearWeight<Ghash128> for RegionChainsWeight {
    fn num_vars(&self) -> usize {
        self.base.num_vars()
    }

    fn accumulate_table(&self, scale: Ghash128, out: &mut [Ghash128]) {
        self.base.accumulate(scale, out, |i, eq_inst| {
            let a = self.regions.iter().position(|r| r.contains(i))?;
            Some(if i == self.regions[a].offset {
                self.gammas[a]
            } else {
                eq_inst[i - 1]
            })
        });
    }

    fn evaluate(&self, point: &[Ghash128]) -> Ghash128 {
        let (pos, slot, inst) = self.base.split(point);
        let (k, tau) = (inst.len(), &self.base.tau);
        let (mut in_part, mut out_part) = (Ghash128::ZERO, Ghash128::ZERO);
        for (r, &gamma) in self.regions.iter().zip(&self.gammas) {
            let w = r.log_len;
            let hi = bits_point(r.offset >> w, k - w);
            // eq(τ_hi, o_hi)·eq(o_hi, x_hi): the region's cube, τ's high part fixed there.
            let cube = eq_eval(&tau[w..], &hi) * eq_eval(&hi, &inst[w..]);
            in_part += shift_eval(&tau[..w], &inst[..w]) * cube
                + gamma * eq_eval(&bits_point(r.offset, k), inst);
            out_part += eq_eval(&tau[..w], &inst[..w]) * cube;
        }
        self.base.combine(pos, slot, in_part, out_part)
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        let mut extra = vec![self.regions.len()];
        extra.extend(self.regions.iter().flat_map(|r| [r.offset, r.log_len]));
        self.base
            .transcript_bytes(b"flock/region-chains", &extra, &self.gammas)
    }
}

/// Squeezes the challenges and returns the packed claim that every region of `regions`
/// (aligned, disjoint, inside the first `2^log_instances` blocks) holds a chain from its
/// `starts[a]` to its `ends[a]` (`state_words` words each, region after region), prover and
/// verifier. With `o_a`, `w_a` a region's offset and width, `γ_a` random:
///
/// ```text
/// Σ_a [ Σ_{i ∈ a, i ≠ o_a} eq(τ, i − 1)·In(i) + γ_a·In(o_a) + Σ_{i ∈ a} eq(τ, i)·Out(i) ]
///     = Σ_a eq(τ, o_a + 2^{w_a} − 1)·End_a + γ_a·Start_a,
/// ```
///
/// which holds iff every region's first input is its start, each instance of a region reads
/// its predecessor's output and the region's last output is its end (the coefficient of
/// `eq(τ, i)` and of `γ_a`; instances outside every region are unconstrained). On the region's
/// cube the weights factor as `eq(τ_lo, x_lo)·eq(τ_hi, o_hi)·eq(o_hi, x_hi)` and
/// `shift(τ_lo, x_lo)·eq(τ_hi, o_hi)·eq(o_hi, x_hi)` over the low `w_a` bits, so the verifier
/// evaluates the weight in `O(A·n)`. A false claim survives with probability at most
/// `(k + p + 1)/|F|` (Schwartz–Zippel).
///
/// # Panics
/// If `starts` or `ends` do not hold one state per region (the caller checks the statement).
#[must_use]
pub fn region_chains_claim<T: Transcript>(
    layout: &ChainLayout,
    log_block: usize,
    log_instances: usize,
    regions: &[Region],
    starts: &[u64],
    ends: &[u64],
    transcript: &mut T,
) -> Claim<Ghash128> {
    let n = layout.state_words();
    assert!(starts.len() == regions.len() * n && ends.len() == regions.len() * n);
    let base = ChainBase::squeeze(layout, log_block, log_instances, transcript);
    let gammas = transcript.challenges(LABEL_ALPHA, regions.len());
    let eq_pos = eq_table(&base.tau_pos);
    let value = regions
        .iter()
        .zip(&gammas)
        .zip(starts.chunks_exact(n).zip(ends.chunks_exact(n)))
        .map(|((r, &gamma), (start, end))| {
            let last = bits_point(r.offset + r.len() - 1, log_instances);
            eq_eval(&base.tau, &last) * fold_words(end, &eq_pos)
                + gamma * fold_words(start, &eq_pos)
        })
        .sum();
    let weight = RegionChainsWeight {
        base,
        regions: regions.to_vec(),
        gammas,
    };
    Claim::linear(Arc::new(weight), value)
}

/// Test helper: `W`'s prover table agrees with its verifier evaluation on the cube, and the
/// multilinear extension of the table with it at a random point.
#[cfg(test)]
pub(crate) fn check_weight_is_its_mle(w: &dyn MultilinearWeight<Ghash128>) {
    let n = w.num_vars();
    let mut table = vec![Ghash128::ZERO; 1 << n];
    w.accumulate_table(Ghash128::ONE, &mut table);
    for (y, &t) in table.iter().enumerate() {
        assert_eq!(w.evaluate(&bits_point(y, n)), t, "y={y}");
    }
    let point: Vec<Ghash128> = (0..n as u128)
        .map(|i| Ghash128::new(0x0123_4567_89ab_cdef_0fed_cba9_8765_4321 ^ (i << 77) ^ i))
        .collect();
    let mle = flockwork_core::MultilinearPoly::new(table).evaluate(&point);
    assert_eq!(mle, w.evaluate(&point));
}

/// Test helper: SHA-1's automatic layout (a 160-bit state in and out, a 512-bit block; slot
/// units of 256 bits), the shape of an IO region that fills no unit.
#[cfg(test)]
pub(crate) fn sha1_layout() -> IoLayout {
    IoLayout::auto()
        .state("h_in", "h_out", 160)
        .input("block", 512)
        .build()
}

/// Test helper: `message` (a setup error's) contains each of `parts`.
#[cfg(test)]
pub(crate) fn assert_says(message: &str, parts: &[&str]) {
    assert!(parts.iter().all(|p| message.contains(p)), "{message}");
}

/// Test helper: `base` and the weights `edits` make of it, each changing one parameter, have
/// pairwise distinct transcript bytes, the same on every call, so a claim binds every
/// parameter of its weight.
#[cfg(test)]
pub(crate) fn check_bytes_bind_every_parameter<W>(base: &W, edits: &[fn(&mut W)])
where
    W: MultilinearWeight<Ghash128> + Clone,
{
    let weights: Vec<W> = core::iter::once(base.clone())
        .chain(edits.iter().map(|edit| {
            let mut w = base.clone();
            edit(&mut w);
            w
        }))
        .collect();
    let bytes: Vec<Vec<u8>> = weights.iter().map(W::transcript_bytes).collect();
    for (i, (w, b)) in weights.iter().zip(&bytes).enumerate() {
        assert_eq!(&w.transcript_bytes(), b, "weight {i}");
        for (j, other) in bytes[..i].iter().enumerate() {
            assert_ne!(b, other, "weights {j} and {i}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_is_the_successor_indicator_on_the_cube() {
        let n = 4;
        for a in 0..16 {
            for b in 0..16 {
                let v = shift_eval(&bits_point(a, n), &bits_point(b, n));
                let expect = if b == a + 1 {
                    Ghash128::ONE
                } else {
                    Ghash128::ZERO
                };
                assert_eq!(v, expect, "a={a} b={b}");
            }
        }
    }

    /// A chain base over `2^log_k` instances with fixed challenges (slot units of 2 words,
    /// 4 slot units per instance).
    fn base(log_k: u128) -> ChainBase {
        let g =
            |i: u128| Ghash128::new(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834 ^ (i * 0x1234_5677));
        ChainBase {
            layout: ChainLayout {
                log_slot_words: 1,
                in_slot: 0,
                out_slot: 1,
                state_bits: 256,
            },
            slot_vars: 2,
            tau_pos: vec![g(1)],
            tau: (0..log_k).map(|i| g(2 + i)).collect(),
        }
    }

    #[test]
    fn chain_states_of_any_size_within_a_slot_unit() {
        let sha1 = sha1_layout();
        let c = ChainLayout::new(&sha1, SlotId(0), SlotId(1)).unwrap();
        assert_eq!(
            (c.log_slot_words, c.in_slot, c.out_slot, c.state_bits),
            (1, 0, 1, 160)
        );
        assert_eq!(c.state_words(), 3);
        let err = |layout: &IoLayout, i, o| {
            let e = ChainLayout::new(layout, SlotId(i), SlotId(o)).unwrap_err();
            assert!(matches!(e, SetupError::ChainLayout(_)));
            e.to_string()
        };
        let says = |message: String, parts: &[&str]| assert_says(&message, parts);
        let big = IoLayout::new(256).input("s", 0, 300).output("t", 2, 300);
        says(err(&big, 0, 1), &["s has 300 bits", "256-bit slot unit"]);
        let unequal = IoLayout::new(256).input("s", 0, 160).output("t", 1, 192);
        says(err(&unequal, 0, 1), &["s (160 bits) and t (192 bits)"]);
        says(err(&sha1, 1, 0), &["h_out is an Output region"]);
        says(err(&sha1, 0, 7), &["no IO region 0 or 7"]);
        let units = IoLayout::new(192).input("s", 0, 160).output("t", 1, 160);
        says(err(&units, 0, 1), &["192 bits", "power of two"]);
    }

    #[test]
    fn padding_bits_past_a_state_are_found() {
        assert!(!sets_padding(&[!0, !0, 0xffff_ffff], 160));
        assert!(sets_padding(&[0, 0, 1 << 32], 160));
        assert!(!sets_padding(&[!0; 4], 256));
        assert!(
            !sets_padding(&[0, 0], 160),
            "a short state is the length check's"
        );
    }

    #[test]
    fn chain_weight_table_is_its_multilinear_extension() {
        // 8 instances (one thread fills the table) and 512 (the parallel fill).
        for log_k in [3, 9] {
            let w = ChainWeight {
                base: base(log_k),
                alpha: Ghash128::new(0x1234_5678_9abc_def0 << 40),
            };
            check_weight_is_its_mle(&w);
        }
    }

    #[test]
    fn region_chains_weight_table_is_its_multilinear_extension() {
        // Regions of widths 2, 1, 0 and a gap (a ragged layout), and two regions of width 1
        // padded to 4 instances each.
        for regions in [
            vec![(0, 2), (4, 1), (6, 0)],
            vec![(0, 1), (4, 1)],
            vec![(0, 3)],
        ] {
            let regions: Vec<Region> = regions
                .into_iter()
                .map(|(offset, log_len)| Region { offset, log_len })
                .collect();
            let w = RegionChainsWeight {
                base: base(3),
                gammas: (0..regions.len() as u128)
                    .map(|i| Ghash128::new(0x5555_0000_1111 ^ (i << 70) ^ i))
                    .collect(),
                regions,
            };
            check_weight_is_its_mle(&w);
        }
    }

    #[test]
    fn chain_weight_bytes_bind_every_parameter() {
        let chain = ChainWeight {
            base: base(3),
            alpha: Ghash128::new(7),
        };
        check_bytes_bind_every_parameter(
            &chain,
            &[
                |w| w.alpha = Ghash128::new(8),
                |w| w.base.tau_pos[0] += Ghash128::ONE,
                |w| w.base.tau[2] += Ghash128::ONE,
                |w| w.base.tau.truncate(2),
                |w| w.base.slot_vars = 3,
                |w| w.base.layout.log_slot_words = 2,
                |w| w.base.layout.in_slot = 2,
                |w| w.base.layout.out_slot = 2,
            ],
        );
        let region = |offset, log_len| Region { offset, log_len };
        let regions = RegionChainsWeight {
            base: base(3),
            regions: vec![region(0, 2), region(4, 1)],
            gammas: vec![Ghash128::new(5), Ghash128::new(6)],
        };
        check_bytes_bind_every_parameter(
            &regions,
            &[
                |w| w.regions[1].log_len = 0,
                |w| w.regions[1].offset = 6,
                |w| w.gammas[1] += Ghash128::ONE,
                |w| {
                    w.regions.pop();
                    w.gammas.pop();
                },
                |w| w.base.tau[0] += Ghash128::ONE,
            ],
        );
        // No regions and γ = α: the chain weight's parameters, another tag.
        let like_chain = RegionChainsWeight {
            base: base(3),
            regions: vec![],
            gammas: vec![chain.alpha],
        };
        assert_ne!(like_chain.transcript_bytes(), chain.transcript_bytes());
    }

    #[test]
    fn regions_hold_two_to_the_width_instances() {
        // Regions are aligned: offset 16 starts one of every width up to 16.
        for log_len in 0..5 {
            let r = Region {
                offset: 16,
                log_len,
            };
            assert_eq!(r.len(), 1 << log_len);
            assert!(!r.is_empty());
            assert!(r.contains(16) && r.contains(16 + r.len() - 1));
            assert!(!r.contains(15) && !r.contains(16 + r.len()));
        }
    }
}
