//! Ring-switching (Diamond–Posen, eprint 2024/504 §3, on the packed tower-field commitments of
//! eprint 2023/1784; Flock, eprint 2026/1329, App. B): a
//! commitment to a Boolean multilinear `t` in `ℓ` variables from any dense
//! [`PolynomialCommitment`] over GF(2^128).
//!
//! ## Packing
//!
//! Split the variables as `(v, y)` with `v ∈ {0,1}^7` (the low seven, a bit position) and
//! `y ∈ {0,1}^ℓ'`, `ℓ' = ℓ − 7`. The packed polynomial is
//! `t'(y) = Σ_v t(v, y)·X^v ∈ GF(2^128)` — exactly the `u128` word `y` of the bit string, so
//! packing costs nothing and the dense scheme commits `t'` (`ℓ'` variables).
//!
//! ## Reducing a claim
//!
//! A claim `Σ_{v,y} t(v, y)·w(v)·eq(r_hi, y) = s` (`w = eq(r_lo, ·)` for a point; any table for
//! a quirky univariate-skip point, [`Weight::Tensor`]):
//!
//! 1. The prover sends the partial evaluations `ŝ_v = Σ_y t(v, y)·eq(r_hi, y)` (128 elements);
//!    the verifier checks `s = Σ_v w(v)·ŝ_v`.
//! 2. `ŝ` is an element `Σ_v X^v ⊗ ŝ_v` of the tensor algebra `A = F ⊗_F2 F`; honestly it is
//!    `e = Σ_y t'(y) ⊗ eq(r_hi, y)`. Read in the other basis (the **128 × 128 bit transpose**),
//!    `ŝ = Σ_u s'_u ⊗ X^u` with `s'_u = Σ_v bit_u(ŝ_v)·X^v`, and honestly
//!    `s'_u = Σ_y t'(y)·bit_u(eq(r_hi, y))`, a linear claim on `t'`.
//! 3. With `r'' ∈ F^7` the 128 claims become one: `⟨t', B⟩ = Σ_u eq(r'', u)·s'_u` where
//!    `B(y) = Φ(eq(r_hi, y))` and `Φ: X^u ↦ eq(r'', u)` is `F2`-linear ([`RingSwitchWeight`]).
//!
//! The naive recombination `t'(r_hi) = Σ_v X^v·ŝ_v` is **unsound**: the multiplication map
//! `A → F` is not injective, so `ŝ` can be altered in its kernel to move `Σ_v w(v)·ŝ_v`
//! anywhere while `t'(r_hi)` stays correct (the tests build exactly this attack and check that
//! the transpose catches it). Soundness error: `7/|F|` for `r''` (a nonzero multilinear in `r''`
//! vanishes with probability at most `7/|F|`) on top of the dense scheme's.
//!
//! Many claims share `r''`; their dense claims are batched by the dense scheme's opening.
//! The verifier evaluates `B̂` succinctly ([`RingSwitchWeight::evaluate`], `O(ℓ'·128²)` bit
//! operations).

use std::sync::Arc;

use flockwork_core::pcs::{
    CHUNK_VARS, ChunkFiller, Claim, MultilinearWeight, Weight, absorb_claims, accumulate_by_chunks,
};
use flockwork_core::{PolynomialCommitment, VerifyError, eq_table};
use flockwork_field::Field;
use flockwork_field::par::PACKED_CHUNK;
use flockwork_field::transpose::transpose128;
use flockwork_field_binary::Ghash128;
use flockwork_field_binary::gf2::{BitMatrix128, ByteTableMap};
use flockwork_transcript::{ProverTranscript, VerifierTranscript};

pub use flockwork_field_binary::ghash::PACKED_VARS;
/// Bits per packed element.
const PACKED_BITS: usize = 1 << PACKED_VARS;

const LABEL_PARTIALS: &str = "ring-switch/partials";
const LABEL_MIX: &str = "ring-switch/r''";

/// A Boolean polynomial commitment built from a dense commitment `P` over GF(2^128).
///
/// Evaluations are `u128` words: bit `v` of word `y` is `t(v, y)` (hypercube index
/// `v + 128·y`).
#[derive(Clone, Debug)]
pub struct RingSwitched<P> {
    inner: P,
}

/// Prover data: the dense scheme's data and, when that does not keep them
/// ([`PolynomialCommitment::committed_evals`]), the packed words.
#[derive(Debug)]
pub struct RingSwitchedData<D> {
    inner: D,
    packed: Option<Vec<Ghash128>>,
}

impl<P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>> RingSwitched<P> {
    /// [`PolynomialCommitment::commit`] of the Boolean polynomial whose packed form `t'`
    /// (128 bits per element, bit `i` of element `j` = entry `128·j + i`) is `packed`, taken
    /// by value: it is handed to the dense scheme ([`PolynomialCommitment::commit_owned`]),
    /// and kept here only if the dense prover data does not keep it.
    pub fn commit_packed(
        &self,
        packed: Vec<Ghash128>,
    ) -> (P::Commitment, RingSwitchedData<P::ProverData>) {
        if self.inner.keeps_evals() {
            let (commitment, inner) = self.inner.commit_owned(packed.into_boxed_slice());
            (
                commitment,
                RingSwitchedData {
                    inner,
                    packed: None,
                },
            )
        } else {
            let (commitment, inner) = self.inner.commit(&packed);
            let packed = Some(packed);
            (commitment, RingSwitchedData { inner, packed })
        }
    }

    /// The packed words `t'` of a commitment (from the dense scheme's data when it keeps them).
    #[must_use]
    pub fn packed<'a>(&self, data: &'a RingSwitchedData<P::ProverData>) -> &'a [Ghash128] {
        match &data.packed {
            Some(packed) => packed,
            None => self
                .inner
                .committed_evals(&data.inner)
                .expect("a scheme that keeps its values returns them"),
        }
    }

    /// Wraps `inner`, a commitment for polynomials in `ℓ' = ℓ − 7` variables; the Boolean
    /// polynomials then have `ℓ = inner.num_vars() + 7` variables.
    #[must_use]
    pub fn new(inner: P) -> Self {
        Self { inner }
    }

    /// The dense scheme.
    #[must_use]
    pub fn inner(&self) -> &P {
        &self.inner
    }

    /// Reduces claims to dense claims given the partial evaluations of each claim.
    fn dense_claims(
        &self,
        split: &[SplitClaim],
        partials: &[Vec<Ghash128>],
        mix: &[Ghash128],
    ) -> Vec<Claim<Ghash128>> {
        let eq_mix = eq_table(mix);
        split
            .iter()
            .zip(partials)
            .map(|(claim, s_hat)| {
                let transposed = transpose_bits(s_hat);
                let value = transposed.iter().zip(&eq_mix).map(|(&s, &e)| s * e).sum();
                let weight = RingSwitchWeight::new(claim.high.clone(), mix.to_vec());
                Claim::linear(Arc::new(weight), value)
            })
            .collect()
    }
}

/// A Boolean claim split into its bit weights `w(v)` (128) and the high eq point `r_hi`.
struct SplitClaim {
    low: Vec<Ghash128>,
    high: Vec<Ghash128>,
}

/// Splits a claim on `ℓ = ℓ' + 7` variables; `None` for a weight that does not factor as
/// (table over at most the low 7 variables) ⊗ eq.
fn split_claim(weight: &Weight<Ghash128>, num_vars: usize) -> Option<SplitClaim> {
    if weight.num_vars() != Some(num_vars) || num_vars < PACKED_VARS {
        return None;
    }
    let (low, high) = match weight {
        Weight::Eq(point) => (
            eq_table(&point[..PACKED_VARS]),
            point[PACKED_VARS..].to_vec(),
        ),
        Weight::Tensor { low, high } => {
            let low_vars = low.len().trailing_zeros() as usize;
            if low_vars > PACKED_VARS {
                return None;
            }
            // Move the first high coordinates into the bit weights: w(v) = low[v mod 2^a]·eq.
            let (moved, rest) = high.split_at(PACKED_VARS - low_vars);
            let moved = eq_table(moved);
            let table = moved
                .iter()
                .flat_map(|&m| low.iter().map(move |&l| l * m))
                .collect();
            (table, rest.to_vec())
        }
        Weight::Linear(_) => return None,
    };
    Some(SplitClaim { low, high })
}

impl<P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>> PolynomialCommitment<Ghash128>
    for RingSwitched<P>
{
    type Evals = [u128];
    type Commitment = P::Commitment;
    type ProverData = RingSwitchedData<P::ProverData>;

    fn num_vars(&self) -> usize {
        self.inner.num_vars() + PACKED_VARS
    }

    fn commitment_len(&self) -> usize {
        self.inner.commitment_len()
    }

    fn commitment_from_bytes(&self, bytes: &[u8]) -> Option<P::Commitment> {
        self.inner.commitment_from_bytes(bytes)
    }

    fn commit(&self, evals: &[u128]) -> (P::Commitment, Self::ProverData) {
        self.commit_packed(flockwork_codes::buffer::mapped(evals, Ghash128::new))
    }

    fn open<T: ProverTranscript>(
        &self,
        data: &Self::ProverData,
        claims: &[Claim<Ghash128>],
        transcript: &mut T,
    ) {
        self.open_inner(data, claims, &[], &[], transcript, |_, _| {});
    }

    fn verify<T: VerifierTranscript>(
        &self,
        commitment: &P::Commitment,
        claims: &[Claim<Ghash128>],
        transcript: &mut T,
    ) -> Result<(), VerifyError> {
        self.verify_with_packed(commitment, claims, &[], transcript)
    }
}

impl<P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>> RingSwitched<P> {
    /// [`PolynomialCommitment::verify`] for Boolean `claims` plus `packed` claims made
    /// directly on the packed polynomial `t'` (`ℓ − 7` variables), which skip the ring switch
    /// and join the dense scheme's batch (the Flock IO arguments produce such claims).
    ///
    /// # Errors
    /// As [`PolynomialCommitment::verify`]; a packed claim of the wrong shape is rejected by
    /// the dense scheme.
    pub fn verify_with_packed<T: VerifierTranscript>(
        &self,
        commitment: &P::Commitment,
        claims: &[Claim<Ghash128>],
        packed: &[Claim<Ghash128>],
        transcript: &mut T,
    ) -> Result<(), VerifyError> {
        flockwork_core::pcs::check_claim_shapes(claims, self.num_vars())?;
        let split = claims
            .iter()
            .enumerate()
            .map(|(i, c)| {
                split_claim(&c.weight, self.num_vars())
                    .ok_or(VerifyError::UnsupportedClaim { claim: i })
            })
            .collect::<Result<Vec<_>, _>>()?;
        absorb_claims(claims, transcript);
        let mut partials = Vec::with_capacity(claims.len());
        for (i, (claim, parts)) in claims.iter().zip(&split).enumerate() {
            let s_hat = transcript.recv_field::<Ghash128>(LABEL_PARTIALS, PACKED_BITS)?;
            let combined: Ghash128 = s_hat.iter().zip(&parts.low).map(|(&s, &w)| s * w).sum();
            if combined != claim.value {
                return Err(VerifyError::RingSwitchMismatch { claim: i });
            }
            partials.push(s_hat);
        }
        let mix = transcript.challenges::<Ghash128>(LABEL_MIX, PACKED_VARS);
        let mut dense = self.dense_claims(&split, &partials, &mix);
        dense.extend_from_slice(packed);
        self.inner.verify(commitment, &dense, transcript)
    }

    /// [`PolynomialCommitment::open`] for Boolean `claims` plus claims on the packed
    /// polynomial (see [`RingSwitched::verify_with_packed`]), where the caller may already
    /// hold the partial evaluations `ŝ` of some claims (`known[i]` for claim `i`; missing or
    /// `None` entries, and all of them for `known = &[]`, are computed from the committed
    /// words): a prover that reduced a claim from a small folded vector gives `ŝ` at that
    /// vector's cost. With honest values the proof is the same bytes as without them.
    ///
    /// # Panics
    /// As [`PolynomialCommitment::open`], or if a known entry does not have 128 elements.
    pub fn open_with_known_partials<T: ProverTranscript>(
        &self,
        data: &RingSwitchedData<P::ProverData>,
        claims: &[Claim<Ghash128>],
        known: &[Option<&[Ghash128]>],
        packed: &[Claim<Ghash128>],
        transcript: &mut T,
    ) {
        self.open_inner(data, claims, known, packed, transcript, |_, _| {});
    }

    /// [`PolynomialCommitment::open`] with a hook that may alter claim `i`'s partial
    /// evaluations before they are sent (the honest opening passes a no-op; tests use it to
    /// play a cheating prover).
    fn open_inner<T: ProverTranscript>(
        &self,
        data: &RingSwitchedData<P::ProverData>,
        claims: &[Claim<Ghash128>],
        known: &[Option<&[Ghash128]>],
        packed: &[Claim<Ghash128>],
        transcript: &mut T,
        tamper: impl Fn(usize, &mut [Ghash128]),
    ) {
        flockwork_core::pcs::check_claim_shapes(claims, self.num_vars())
            .expect("claims must be non-empty and have ℓ variables");
        let split: Vec<SplitClaim> = claims
            .iter()
            .map(|c| split_claim(&c.weight, self.num_vars()).expect("eq or tensor claims only"))
            .collect();
        absorb_claims(claims, transcript);
        let known = |i: usize| known.get(i).copied().flatten();
        let highs: Vec<&[Ghash128]> = (0..claims.len())
            .filter(|&i| known(i).is_none())
            .map(|i| &split[i].high[..])
            .collect();
        let mut computed = partial_evaluations_many(self.packed(data), &highs).into_iter();
        let mut partials: Vec<Vec<Ghash128>> = (0..claims.len())
            .map(|i| match known(i) {
                Some(s_hat) => {
                    assert_eq!(s_hat.len(), PACKED_BITS, "128 partial evaluations");
                    s_hat.to_vec()
                }
                None => computed
                    .next()
                    .expect("one computed entry per unknown claim"),
            })
            .collect();
        for (i, s_hat) in partials.iter_mut().enumerate() {
            tamper(i, s_hat);
            transcript.send_field(LABEL_PARTIALS, s_hat);
        }
        let mix = transcript.challenges::<Ghash128>(LABEL_MIX, PACKED_VARS);
        let mut dense = self.dense_claims(&split, &partials, &mix);
        dense.extend_from_slice(packed);
        self.inner.open(&data.inner, &dense, transcript);
    }
}

/// The value at `point` of the Boolean multilinear polynomial held as packed words (bit `v`
/// of word `y` is the value at index `128·y + v`): `t(r) = Σ_v eq(r_lo, v)·ŝ_v`, with
/// `r_lo` the 7 low coordinates and `ŝ` the [`partial_evaluations`] at the high ones.
///
/// # Panics
/// If `point` has fewer than 7 coordinates or does not match `packed`.
#[must_use]
pub fn evaluate_packed(packed: &[Ghash128], point: &[Ghash128]) -> Ghash128 {
    let (low, high) = point.split_at(PACKED_VARS);
    let s_hat = partial_evaluations(packed, high);
    eq_table(low).iter().zip(&s_hat).map(|(&w, &s)| w * s).sum()
}

/// `ŝ_v = Σ_y bit_v(word_y)·eq(r_hi, y)` for the 128 bit positions `v`.
///
/// With at least 128 words the eq weight factors over blocks of 128 words,
/// `eq(r_hi, y) = eq(r_in, y mod 128)·eq(r_out, ⌊y/128⌋)` (`r_in` the 7 low coordinates of
/// `r_hi`, LSB first), so
/// `ŝ_v = Σ_c eq(r_out, c)·Σ_j bit_v(word_{128c+j})·eq(r_in, j)`. Per block the 128 × 128 bit
/// matrix of its words is transposed ([`transpose_bits`]): row `v` then holds bit `v` of every
/// word, and its inner sum is the `F2`-linear map `row ↦ Σ_j bit_j(row)·eq(r_in, j)`
/// ([`ByteTableMap`]: 32 GFNI affine products per eight rows, or sixteen lookups in tables of
/// subset sums of the 128 inner weights; built once for all blocks), then scaled by the
/// block's outer weight. Only the `2^(ℓ'−7)` outer weights are tabulated, not all `2^ℓ'`.
#[must_use]
pub fn partial_evaluations(packed: &[Ghash128], high: &[Ghash128]) -> Vec<Ghash128> {
    partial_evaluations_many(packed, &[high])
        .pop()
        .expect("one point, one result")
}

/// [`partial_evaluations`] at several points `r_hi` of the same length in one pass: each
/// block is transposed once for all of them.
///
/// # Panics
/// If a point's length does not match `packed` (`2^len` words).
#[must_use]
pub fn partial_evaluations_many(packed: &[Ghash128], highs: &[&[Ghash128]]) -> Vec<Vec<Ghash128>> {
    for high in highs {
        assert_eq!(packed.len(), 1 << high.len(), "one word per point of r_hi");
    }
    if highs.is_empty() {
        return Vec::new();
    }
    if packed.len() < PACKED_BITS {
        return highs
            .iter()
            .map(|high| partial_evaluations_by_buckets(packed, high))
            .collect();
    }
    // (the map `row ↦ Σ_j bit_j(row)·eq(r_in, j)`, outer weights) per point.
    let weights: Vec<(ByteTableMap, Vec<Ghash128>)> = highs
        .iter()
        .map(|high| {
            let (inner, outer) = high.split_at(PACKED_VARS);
            let inner = eq_table(inner);
            let map = ByteTableMap::new(&BitMatrix128::from_fn(|j| inner[j].to_bits()));
            (map, eq_table(outer))
        })
        .collect();
    let blocks = |range: std::ops::Range<usize>| {
        let mut acc = vec![[Ghash128::ZERO; PACKED_BITS]; weights.len()];
        let mut rows = [0u128; PACKED_BITS];
        let mut row_sums = [Ghash128::ZERO; PACKED_BITS];
        for c in range {
            let words = &packed[c * PACKED_BITS..(c + 1) * PACKED_BITS];
            for (row, word) in rows.iter_mut().zip(words) {
                *row = word.to_bits();
            }
            transpose128(&mut rows);
            for ((map, eq_outer), acc) in weights.iter().zip(acc.iter_mut()) {
                row_sums.fill(Ghash128::ZERO);
                map.apply_xor_ghash(Ghash128::slice_from_bits(&rows), &mut row_sums);
                flockwork_field_binary::ghash::batch::add_mul_scalar(acc, &row_sums, eq_outer[c]);
            }
        }
        acc
    };
    let merge = |mut a: Vec<[Ghash128; PACKED_BITS]>, b: Vec<[Ghash128; PACKED_BITS]>| {
        for (x, y) in a.iter_mut().zip(&b) {
            x.iter_mut().zip(y).for_each(|(s, &t)| *s += t);
        }
        a
    };
    flockwork_field::par::reduce_ranges(packed.len() / PACKED_BITS, PACKED_CHUNK, blocks, merge)
        .into_iter()
        .map(|sums| sums.to_vec())
        .collect()
}

/// The word-by-word form of [`partial_evaluations`] (any size): per byte position the eq
/// weights are summed into 256 buckets by the byte's value, then each bit's sum is read off
/// the buckets whose index has that bit.
fn partial_evaluations_by_buckets(packed: &[Ghash128], high: &[Ghash128]) -> Vec<Ghash128> {
    let eq = eq_table(high);
    let mut buckets = vec![[Ghash128::ZERO; 256]; 16];
    for (word, &e) in packed.iter().zip(&eq) {
        for (bucket, byte) in buckets.iter_mut().zip(word.to_bits().to_le_bytes()) {
            bucket[usize::from(byte)] += e;
        }
    }
    (0..PACKED_BITS)
        .map(|v| {
            let bucket = &buckets[v / 8];
            (0..256)
                .filter(|b| (b >> (v % 8)) & 1 == 1)
                .map(|b| bucket[b])
                .sum()
        })
        .collect()
}

/// The 128 × 128 bit transpose: `out[u] = Σ_v bit_u(rows[v])·X^v`, i.e. bit `v` of `out[u]`
/// is bit `u` of `rows[v]` ([`transpose128`]).
///
/// # Panics
/// If `rows.len() != 128`.
#[must_use]
pub fn transpose_bits(rows: &[Ghash128]) -> Vec<Ghash128> {
    assert_eq!(rows.len(), PACKED_BITS, "a 128 × 128 bit matrix");
    let mut a = [0u128; PACKED_BITS];
    for (x, r) in a.iter_mut().zip(rows) {
        *x = r.to_bits();
    }
    transpose128(&mut a);
    a.into_iter().map(Ghash128::new).collect()
}

/// The ring-switched weight `B(y) = Φ(eq(r_hi, y))`, `Φ(X^u) = eq(r'', u)` (`F2`-linear), on
/// `ℓ'` variables.
#[derive(Clone, Debug)]
pub struct RingSwitchWeight {
    high: Vec<Ghash128>,
    mix: Vec<Ghash128>,
}

impl RingSwitchWeight {
    /// The weight for the high point `r_hi` and the mixing point `r''` (7 coordinates).
    ///
    /// # Panics
    /// If `mix.len() != 7`.
    #[must_use]
    pub fn new(high: Vec<Ghash128>, mix: Vec<Ghash128>) -> Self {
        assert_eq!(mix.len(), PACKED_VARS, "r'' has 7 coordinates");
        Self { high, mix }
    }

    /// `x ↦ scale·Φ(x)` as a bit matrix: column `u` is `scale·eq(r'', u)`.
    fn scaled_phi(&self, scale: Ghash128) -> BitMatrix128 {
        let eq = eq_table(&self.mix);
        BitMatrix128::from_fn(|u| (scale * eq[u]).to_bits())
    }
}

impl MultilinearWeight<Ghash128> for RingSwitchWeight {
    fn num_vars(&self) -> usize {
        self.high.len()
    }

    /// `out[y] += scale·Φ(eq(r_hi, y))`, chunk by chunk ([`Self::chunk_filler`]).
    fn accumulate_table(&self, scale: Ghash128, out: &mut [Ghash128]) {
        let chunk_vars = self.high.len().min(CHUNK_VARS);
        let filler = self
            .chunk_filler(scale, chunk_vars)
            .expect("a ring-switch weight is filled by chunks");
        accumulate_by_chunks(out, chunk_vars, &filler);
    }

    /// Multiplying by `scale` is `F2`-linear too, so `x ↦ scale·Φ(x)` is one bit matrix,
    /// applied with byte tables (four Russians) or GFNI: no multiplication per entry but the
    /// eq weight's.
    ///
    /// The eq table is never built whole: with `eq(r_hi, y) = eq(r_lo, y mod 2^c)·eq(r_up,
    /// ⌊y/2^c⌋)` for chunks of `2^c` entries, each chunk scales the low table by its high
    /// weight, a slice at a time, into a stack buffer and applies the map from there, so a
    /// chunk is written once and no other table of its size is touched.
    fn chunk_filler(
        &self,
        scale: Ghash128,
        chunk_vars: usize,
    ) -> Option<ChunkFiller<'_, Ghash128>> {
        const SLICE: usize = 256;
        let phi = ByteTableMap::new(&self.scaled_phi(scale));
        let (lo, up) = self.high.split_at(chunk_vars);
        let (eq_lo, eq_up) = (eq_table(lo), eq_table(up));
        Some(Box::new(move |start, out| {
            let w = eq_up[start >> chunk_vars];
            let mut buffer = [Ghash128::ZERO; SLICE];
            for (o, l) in out.chunks_mut(SLICE).zip(eq_lo.chunks(SLICE)) {
                let e = &mut buffer[..l.len()];
                e.copy_from_slice(l);
                Ghash128::scale_slice(e, w);
                phi.apply_xor_ghash(e, o);
            }
        }))
    }

    /// `B̂(q) = Σ_y eq(q, y)·Φ(eq(r_hi, y))`, computed in the tensor algebra: the element
    /// `E = Σ_y eq(r_hi, y) ⊗ eq(q, y) = Π_i (1⊗1 + r_i⊗1 + 1⊗q_i)` (characteristic two) is
    /// kept as `Σ_u X^u ⊗ a_u`; multiplying by `r_i ⊗ 1` acts on the left factor through the
    /// bits of `r_i·X^u`, by `1 ⊗ q_i` scales every `a_u`. Finally
    /// `(Φ ⊗ id)(E)` collapses to `Σ_u eq(r'', u)·a_u`.
    fn evaluate(&self, point: &[Ghash128]) -> Ghash128 {
        let mut coords = vec![Ghash128::ZERO; PACKED_BITS];
        coords[0] = Ghash128::ONE;
        for (&r, &q) in self.high.iter().zip(point) {
            let left = multiply_left(&coords, r);
            for (c, l) in coords.iter_mut().zip(left) {
                *c = *c + l + q * *c;
            }
        }
        let eq = eq_table(&self.mix);
        coords.iter().zip(&eq).map(|(&a, &e)| a * e).sum()
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(16 * (self.high.len() + self.mix.len()));
        for x in self.high.iter().chain(&self.mix) {
            bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        bytes
    }
}

/// `(r ⊗ 1)·Σ_u X^u ⊗ a_u = Σ_{u'} X^{u'} ⊗ (Σ_{u : bit u' of r·X^u} a_u)`.
fn multiply_left(coords: &[Ghash128], r: Ghash128) -> Vec<Ghash128> {
    let mut out = vec![Ghash128::ZERO; PACKED_BITS];
    let mut shifted = r; // r·X^u
    for &a in coords {
        let mut bits = shifted.to_bits();
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            out[u] += a;
            bits &= bits - 1;
        }
        shifted *= Ghash128::X;
    }
    out
}

/// Bits of soundness the ring-switching reduction adds on top of the dense scheme:
/// `b − log2(7)` for the mixing point `r''` over a field of `b` bits.
#[must_use]
pub fn soundness_bits(field_bits: u32) -> f64 {
    f64::from(field_bits) - 7f64.log2()
}

#[cfg(test)]
mod tests;
