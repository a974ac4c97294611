//! Opening claims: `⟨P, W⟩ = Σ_{x ∈ {0,1}^n} P(x)·W(x) = value` for a verifier-evaluable
//! multilinear weight `W`.
//!
//! A point evaluation `P(z) = y` is the claim with `W = eq(z, ·)`, because
//! `P(z) = Σ_x eq(z, x)·P(x)` for multilinear `P` (Thaler, *Proofs, Arguments, and
//! Zero-Knowledge*, §3.5). Sumcheck-based commitments (Ligerito, BaseFold/FRI-Binius, Blaze)
//! all reduce a batch of such claims to one running sumcheck `Σ_x P(x)·B(x) = Σ_j α_j v_j`
//! with `B = Σ_j α_j W_j`, and end by evaluating `B` at one random point; [`Weight`] offers
//! exactly the two operations that needs: the hypercube table (prover) and the evaluation at a
//! point (verifier).

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt::Debug;

use flockwork_field::Field;
use flockwork_transcript::Transcript;

use crate::eq::{SPLIT_BLOCK_VARS, add_scaled_eq, add_scaled_eq_blocks, eq_eval, eq_table};
use crate::multilinear::MultilinearPoly;

/// A multilinear weight `W` in `num_vars` variables that the verifier evaluates succinctly
/// (shift weights, ring-switch weights, sparse selectors, …).
pub trait MultilinearWeight<F: Field>: Send + Sync + Debug {
    /// The number of variables `n`.
    fn num_vars(&self) -> usize;

    /// `out[x] += scale · W(x)` for every `x ∈ {0,1}^n` (`out.len() = 2^n`); prover side.
    fn accumulate_table(&self, scale: F, out: &mut [F]);

    /// `W(point)` for `point ∈ F^n`; verifier side, expected to be polylogarithmic.
    fn evaluate(&self, point: &[F]) -> F;

    /// Canonical bytes that identify `W`; absorbed into the transcript with the claim.
    fn transcript_bytes(&self) -> Vec<u8>;

    /// [`accumulate_table`](Self::accumulate_table) one aligned chunk of `2^chunk_vars`
    /// entries at a time (`chunk_vars ≤ n`), with what every chunk shares (eq tables, byte
    /// tables) computed once here; `None` if the weight is only accumulated whole.
    ///
    /// Dense weights provide it, so that a batch of them is summed in one pass over
    /// cache-resident chunks ([`BatchedClaims::accumulate_table_then`]) instead of one pass
    /// over the whole table each; sparse weights, which touch few entries, keep the default.
    fn chunk_filler(&self, scale: F, chunk_vars: usize) -> Option<ChunkFiller<'_, F>> {
        let _ = (scale, chunk_vars);
        None
    }
}

/// A weight's chunked table ([`MultilinearWeight::chunk_filler`]): `f(start, out)` adds
/// `scale·W(start + i)` to `out[i]`, for `out` of the chunk length the filler was made for and
/// `start` a multiple of it.
pub type ChunkFiller<'a, F> = Box<dyn Fn(usize, &mut [F]) + Send + Sync + 'a>;

/// Variables of the chunks [`BatchedClaims::accumulate_table`] sums its weights in: `2^12`
/// entries (64 KiB of GF(2^128)), resident in the L2 cache while every weight adds to it —
/// the block size of the split-eq passes ([`add_scaled_eq`](crate::add_scaled_eq)).
pub const CHUNK_VARS: usize = SPLIT_BLOCK_VARS;

/// `filler` over every aligned chunk of `2^chunk_vars` entries of `out` (in parallel with the
/// `parallel` feature): the whole-table [`MultilinearWeight::accumulate_table`] of a weight
/// that has a [`MultilinearWeight::chunk_filler`].
pub fn accumulate_by_chunks<F: Field>(
    out: &mut [F],
    chunk_vars: usize,
    filler: &ChunkFiller<'_, F>,
) {
    flockwork_field::par::map_chunks(out, 1 << chunk_vars, filler, |(), ()| ());
}

/// The weight `W` of a [`Claim`].
#[derive(Clone, Debug)]
pub enum Weight<F> {
    /// `W = eq(z, ·)`: the claim is the evaluation `P(z)`.
    Eq(Vec<F>),
    /// `W(u, y) = low[u] · eq(high, y)` with `u` the first `log2 |low|` variables and `y` the
    /// rest: a "quirky" point whose low coordinates are replaced by an arbitrary table
    /// (univariate-skip Lagrange weights, ring-switching's 128 bit weights).
    Tensor {
        /// The table over the low variables (`2^a` entries).
        low: Vec<F>,
        /// The eq point of the high variables.
        high: Vec<F>,
    },
    /// Any verifier-evaluable multilinear weight.
    Linear(Arc<dyn MultilinearWeight<F>>),
}

impl<F: Field> Weight<F> {
    /// The number of variables `n`, or `None` for a malformed tensor table (length not a
    /// power of two).
    #[must_use]
    pub fn num_vars(&self) -> Option<usize> {
        match self {
            Self::Eq(point) => Some(point.len()),
            Self::Tensor { low, high } => low
                .len()
                .is_power_of_two()
                .then(|| low.len().trailing_zeros() as usize + high.len()),
            Self::Linear(w) => Some(w.num_vars()),
        }
    }

    /// `out[x] += scale · W(x)` for every hypercube point (`out.len() = 2^n`).
    ///
    /// # Panics
    /// If `out.len() != 2^n`.
    pub fn accumulate_table(&self, scale: F, out: &mut [F]) {
        assert_eq!(
            Some(out.len()),
            self.num_vars().map(|n| 1usize << n),
            "weight table size"
        );
        match self {
            Self::Eq(point) => add_scaled_eq(out, scale, point),
            Self::Tensor { low, high } => {
                let high = eq_table(high);
                for (chunk, &h) in out.chunks_exact_mut(low.len()).zip(&high) {
                    F::add_scaled_slice(chunk, low, scale * h);
                }
            }
            Self::Linear(w) => w.accumulate_table(scale, out),
        }
    }

    /// The chunked form of [`Weight::accumulate_table`] ([`MultilinearWeight::chunk_filler`]):
    /// an eq weight splits as `eq(z, x) = eq(z_lo, x mod 2^c)·eq(z_hi, ⌊x/2^c⌋)`; tensor
    /// weights are accumulated whole.
    ///
    /// # Panics
    /// If `chunk_vars` exceeds the number of variables.
    #[must_use]
    pub fn chunk_filler(&self, scale: F, chunk_vars: usize) -> Option<ChunkFiller<'_, F>> {
        match self {
            Self::Eq(point) => Some(Box::new(add_scaled_eq_blocks(scale, point, chunk_vars))),
            Self::Tensor { .. } => None,
            Self::Linear(w) => w.chunk_filler(scale, chunk_vars),
        }
    }

    /// `W(point)`; `None` if `point` has the wrong number of coordinates.
    #[must_use]
    pub fn evaluate(&self, point: &[F]) -> Option<F> {
        if self.num_vars() != Some(point.len()) {
            return None;
        }
        Some(match self {
            Self::Eq(z) => eq_eval(z, point),
            Self::Tensor { low, high } => {
                let (lo_point, hi_point) = point.split_at(point.len() - high.len());
                MultilinearPoly::new(low.clone()).evaluate(lo_point) * eq_eval(high, hi_point)
            }
            Self::Linear(w) => w.evaluate(point),
        })
    }

    /// Absorbs a tag byte and the canonical description of the weight.
    fn absorb<T: Transcript>(&self, transcript: &mut T) {
        match self {
            Self::Eq(point) => {
                transcript.public_bytes("pcs/claim/kind", &[0]);
                transcript.public_field("pcs/claim/point", point);
            }
            Self::Tensor { low, high } => {
                transcript.public_bytes("pcs/claim/kind", &[1]);
                transcript.public_field("pcs/claim/low", low);
                transcript.public_field("pcs/claim/point", high);
            }
            Self::Linear(w) => {
                transcript.public_bytes("pcs/claim/kind", &[2]);
                transcript.public_bytes("pcs/claim/weight", &w.transcript_bytes());
            }
        }
    }
}

/// The claim `Σ_x P(x)·W(x) = value` about a committed multilinear `P`.
#[derive(Clone, Debug)]
pub struct Claim<F> {
    /// The weight `W`.
    pub weight: Weight<F>,
    /// The claimed value.
    pub value: F,
}

impl<F: Field> Claim<F> {
    /// The evaluation claim `P(point) = value`.
    #[must_use]
    pub fn evaluation(point: Vec<F>, value: F) -> Self {
        Self {
            weight: Weight::Eq(point),
            value,
        }
    }

    /// The claim `Σ_x P(x)·W(x) = value` for a custom weight.
    #[must_use]
    pub fn linear(weight: Arc<dyn MultilinearWeight<F>>, value: F) -> Self {
        Self {
            weight: Weight::Linear(weight),
            value,
        }
    }
}

/// Absorbs a batch of claims (count, then each weight and value). Openings and verifiers call
/// it first, so the batching challenges depend on every claim.
pub fn absorb_claims<F: Field, T: Transcript>(claims: &[Claim<F>], transcript: &mut T) {
    transcript.public_bytes("pcs/claims", &(claims.len() as u64).to_le_bytes());
    for claim in claims {
        claim.weight.absorb(transcript);
        transcript.public_field("pcs/claim/value", &[claim.value]);
    }
}

/// A random linear combination of claims: `B = Σ_j α_j W_j` and `s = Σ_j α_j v_j` with
/// independent challenges `α_j`. If some claim is false, `⟨P, B⟩ = s` holds for at most a
/// `1/|F|` fraction of the coefficient vectors (a nonzero linear form in `α`).
#[derive(Clone, Debug)]
pub struct BatchedClaims<'a, F> {
    claims: &'a [Claim<F>],
    coeffs: Vec<F>,
}

impl<'a, F: Field> BatchedClaims<'a, F> {
    /// Squeezes one independent coefficient per claim (label `"pcs/batch"`).
    pub fn squeeze<T: Transcript>(claims: &'a [Claim<F>], transcript: &mut T) -> Self {
        Self {
            coeffs: transcript.challenges("pcs/batch", claims.len()),
            claims,
        }
    }

    /// The coefficients `α_j`, one per claim.
    #[must_use]
    pub fn coeffs(&self) -> &[F] {
        &self.coeffs
    }

    /// `s = Σ_j α_j v_j`.
    #[must_use]
    pub fn value(&self) -> F {
        self.claims
            .iter()
            .zip(&self.coeffs)
            .map(|(c, &a)| a * c.value)
            .sum()
    }

    /// `out += Σ_j α_j W_j` on the hypercube.
    ///
    /// # Panics
    /// If a weight does not have `log2 out.len()` variables.
    pub fn accumulate_table(&self, out: &mut [F]) {
        self.accumulate_table_then(out, |_, _| (), |(), ()| ());
    }

    /// [`accumulate_table`](Self::accumulate_table) in one pass over chunks of
    /// `2^`[`CHUNK_VARS`] entries: the weights without a [`MultilinearWeight::chunk_filler`]
    /// are added whole first, then every chunk receives all the others while it is in cache
    /// and is handed, complete, to `visit(start, chunk)`; the visits' results are merged with
    /// `merge` (in parallel with the `parallel` feature). A consumer of the finished table
    /// (the first sumcheck message over it) thus reads each chunk while it is still cached.
    ///
    /// # Panics
    /// If a weight does not have `log2 out.len()` variables or `out.len()` is not a power of
    /// two.
    pub fn accumulate_table_then<R: Send>(
        &self,
        out: &mut [F],
        visit: impl Fn(usize, &[F]) -> R + Sync + Send,
        merge: impl Fn(R, R) -> R + Sync + Send,
    ) -> R {
        assert!(out.len().is_power_of_two(), "a table of 2^n values");
        let n = out.len().trailing_zeros() as usize;
        let chunk_vars = CHUNK_VARS.min(n);
        let mut fillers = Vec::new();
        for (claim, &a) in self.claims.iter().zip(&self.coeffs) {
            assert_eq!(claim.weight.num_vars(), Some(n), "weight table size");
            match claim.weight.chunk_filler(a, chunk_vars) {
                Some(filler) => fillers.push(filler),
                None => claim.weight.accumulate_table(a, out),
            }
        }
        let chunk = |start: usize, chunk: &mut [F]| {
            for filler in &fillers {
                filler(start, chunk);
            }
            visit(start, chunk)
        };
        flockwork_field::par::map_chunks(out, 1 << chunk_vars, chunk, merge)
    }

    /// `Σ_j α_j W_j(point)`; `None` on a shape mismatch.
    #[must_use]
    pub fn evaluate(&self, point: &[F]) -> Option<F> {
        self.claims
            .iter()
            .zip(&self.coeffs)
            .map(|(c, &a)| c.weight.evaluate(point).map(|w| a * w))
            .sum()
    }
}

/// Checks that every claim has `num_vars` variables.
///
/// # Errors
/// [`VerifyError::NoClaims`](crate::VerifyError::NoClaims) for an empty batch,
/// [`VerifyError::ClaimNumVars`](crate::VerifyError::ClaimNumVars) for a mismatch.
pub fn check_claim_shapes<F: Field>(
    claims: &[Claim<F>],
    num_vars: usize,
) -> Result<(), crate::VerifyError> {
    if claims.is_empty() {
        return Err(crate::VerifyError::NoClaims);
    }
    for claim in claims {
        let got = claim.weight.num_vars();
        if got != Some(num_vars) {
            return Err(crate::VerifyError::ClaimNumVars {
                expected: num_vars,
                got: got.unwrap_or(usize::MAX),
            });
        }
    }
    Ok(())
}
