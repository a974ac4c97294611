//! The lincheck with circuit walking (Flock §5; notes §3 "Lincheck with circuit walking").
//!
//! The zerocheck leaves two claims at the quirky row point `(ζ, ρ)`:
//! `â = Σ_col Â(ζ, ρ; col)·z(col)` and `b̂` likewise. With `A = I_K ⊗ A0` and the row point
//! split as `ρ = (s_in, s_out)` (the `m0 − 6` in-instance bits, then the `k` instance bits),
//!
//! ```text
//! Â((ζ, s_in, s_out), (j, k)) = eq(s_out, k)·Â0((ζ, s_in), j),   so   â = Σ_j Â0((ζ, s_in), j)·z_vec[j]
//! ```
//!
//! with `z_vec[j] = Σ_k eq(s_out, k)·z[k, j]` (one fold of the witness over the instances; all
//! later work is independent of `K`). For random `α, β` the prover runs a degree-2 sumcheck on
//!
//! ```text
//! Σ_{j ∈ {0,1}^m0} comb[j]·z_vec[j] = α·â + b̂ + β,    comb = α·A0ᵀ e + B0ᵀ e + β·e_const,
//! ```
//!
//! where `e[i] = L_{i mod 64}(ζ)·eq(s_in, ⌊i/64⌋)`. `A0ᵀe` and `B0ᵀe` come from the backward
//! walk of the XOR graph ([`R1csLowering::transpose_mul`]), never from a matrix. The `β` term
//! pins the constant column: `z_vec[const] = 1` iff (w.h.p.) the constant wire is 1 in every
//! instance, which the rows `1·1 = 1` alone do not force (`0·0 = 0` satisfies them too).
//!
//! The sumcheck ends at `r'`; the verifier recomputes `comb` by the same walk (cost
//! `O(#XOR + 2^m0)`, independent of `K`), checks the prover's `comb(r')`, and the prover's
//! `z_vec(r') = ẑ(r', s_out)` becomes the z-claim on the commitment.

use flockwork_core::circuit::{R1csLowering, transpose64_groups};
use flockwork_core::{MultilinearPoly, VerifyError, eq_table};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};

use crate::rowmap::RowMap;
use crate::skip::SKIP_VARS;
use crate::zerocheck::ZerocheckClaims;

const LABEL_ALPHA: &str = "flock/lincheck/alpha";
const LABEL_BETA: &str = "flock/lincheck/beta";
const LABEL_FINAL: &str = "flock/lincheck/final";

/// The lincheck's output: the z-claim `ẑ(point) = value` (`point = r' ‖ s_out`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LincheckClaim {
    /// The evaluation point (`m` coordinates).
    pub point: Vec<Ghash128>,
    /// The claimed value.
    pub value: Ghash128,
}

/// `comb = α·A0ᵀe + B0ᵀe + β·e_const` (both sides).
#[must_use]
pub fn comb_vector(
    lowering: &R1csLowering,
    zc: &ZerocheckClaims,
    alpha: Ghash128,
    beta: Ghash128,
) -> Vec<Ghash128> {
    let m0 = lowering.log_block();
    let s_in = &zc.rho[..m0 - SKIP_VARS];
    let e: Vec<Ghash128> = eq_table(s_in)
        .iter()
        .flat_map(|&w| zc.lagrange.iter().map(move |&l| l * w))
        .collect();
    let e_a: Vec<Ghash128> = e.iter().map(|&w| alpha * w).collect();
    let mut comb = lowering.transpose_mul(&e_a, &e);
    comb[lowering.layout().const_position()] += beta;
    comb
}

/// Groups of 64 instances whose maps are built and held at once (64 × 32 KiB of tables).
const MAP_BATCH: usize = 64;
/// Block words per task of [`fold_instances`]: its 4096 outputs (64 KiB) stay in cache while
/// every map of a batch passes over them.
const WORD_CHUNK: usize = 64;
/// Words of one instance transposed together ([`transpose64_groups`]).
const STACK: usize = 4;

/// `z_vec[j] = Σ_k eq(s_out, k)·z[k, j]` for a batch witness of `2^k` instances of `2^m0` bits.
///
/// Instances are taken 64 at a time (a group `g`) and bit-transposed, so a position's 64 bits
/// index the eight tables of subset sums of the group's eq weights ([`RowMap`]):
/// `2^m0 · K / 8` additions in all. The loops run map by map over chunks of the block's
/// positions: one group's 32 KiB of tables and a chunk's outputs stay in cache while the
/// group's words stream past, and the memory for tables stays bounded (the maps of
/// `MAP_BATCH` groups at a time). Chunks run in parallel; positions that are zero in all of a
/// group's instances (padding) are skipped.
#[must_use]
pub fn fold_instances(z: &[u64], log_block: usize, s_out: &[Ghash128]) -> Vec<Ghash128> {
    let weights = eq_table(s_out);
    let instances = weights.len();
    let block_words = (1usize << log_block) / 64;
    assert_eq!(z.len(), instances * block_words, "witness length");
    let groups = instances.div_ceil(64);
    let mut out = vec![Ghash128::ZERO; 64 * block_words];
    for first in (0..groups).step_by(MAP_BATCH) {
        let batch = first..(first + MAP_BATCH).min(groups);
        let map = |g: usize| {
            let w: [Ghash128; 64] =
                core::array::from_fn(|r| weights.get(64 * g + r).copied().unwrap_or_default());
            RowMap::new(&w)
        };
        #[cfg(feature = "parallel")]
        let maps: Vec<RowMap> = {
            use rayon::prelude::*;
            batch.clone().into_par_iter().map(map).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let maps: Vec<RowMap> = batch.clone().map(map).collect();
        let task = |(c, out): (usize, &mut [Ghash128])| {
            fold_chunk(z, block_words, instances, c * WORD_CHUNK, &maps, first, out);
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            out.par_chunks_mut(64 * WORD_CHUNK)
                .enumerate()
                .for_each(task);
        }
        #[cfg(not(feature = "parallel"))]
        out.chunks_mut(64 * WORD_CHUNK).enumerate().for_each(task);
    }
    out
}

/// Adds the images of block words `word0 ..` (as many as `out` holds positions) of the
/// groups `first_group ..` (one map each) into `out`.
fn fold_chunk(
    z: &[u64],
    block_words: usize,
    instances: usize,
    word0: usize,
    maps: &[RowMap],
    first_group: usize,
    out: &mut [Ghash128],
) {
    let words = out.len() / 64;
    let mut images = [Ghash128::ZERO; 64];
    for (g, map) in (first_group..).zip(maps) {
        let live = (instances - 64 * g).min(64);
        for w in (0..words).step_by(STACK) {
            let width = STACK.min(words - w);
            let mut m = [[0u64; STACK]; 64];
            let mut any = 0;
            for (r, row) in m.iter_mut().enumerate().take(live) {
                let at = (64 * g + r) * block_words + word0 + w;
                row[..width].copy_from_slice(&z[at..at + width]);
                any |= row.iter().fold(0, |a, &x| a | x);
            }
            if any == 0 {
                continue;
            }
            transpose64_groups(&mut m);
            for t in 0..width {
                let rows: [u64; 64] = core::array::from_fn(|b| m[b][t]);
                map.apply_slice(&rows, &mut images);
                for (o, &v) in out[64 * (w + t)..][..64].iter_mut().zip(&images) {
                    *o += v;
                }
            }
        }
    }
}

/// Squeezes `α`, `β` and returns the sumcheck claim `α·â + b̂ + β`.
fn challenges<T: Transcript>(
    zc: &ZerocheckClaims,
    transcript: &mut T,
) -> (Ghash128, Ghash128, Ghash128) {
    let alpha = transcript.challenge::<Ghash128>(LABEL_ALPHA);
    let beta = transcript.challenge::<Ghash128>(LABEL_BETA);
    (alpha, beta, alpha * zc.a_value + zc.b_value + beta)
}

/// The lincheck prover; `z` is the packed batch witness.
pub fn prove<T: ProverTranscript>(
    lowering: &R1csLowering,
    z: &[u64],
    zc: &ZerocheckClaims,
    transcript: &mut T,
) -> LincheckClaim {
    let m0 = lowering.log_block();
    let (alpha, beta, claim) = challenges(zc, transcript);
    let comb = comb_vector(lowering, zc, alpha, beta);
    let s_out = &zc.rho[m0 - SKIP_VARS..];
    let z_vec = fold_instances(z, m0, s_out);
    let polys = vec![MultilinearPoly::new(comb), MultilinearPoly::new(z_vec)];
    let out = flockwork_core::prove(polys, None, claim, transcript);
    transcript.send_field(LABEL_FINAL, &out.final_evals);
    let mut point = out.point;
    point.extend_from_slice(s_out);
    LincheckClaim {
        point,
        value: out.final_evals[1],
    }
}

/// The lincheck verifier.
///
/// # Errors
/// Transcript and sumcheck errors; [`VerifyError::FinalClaimMismatch`] if the prover's
/// `comb(r')` is not the verifier's or the product misses the reduced claim.
pub fn verify<T: VerifierTranscript>(
    lowering: &R1csLowering,
    zc: &ZerocheckClaims,
    transcript: &mut T,
) -> Result<LincheckClaim, VerifyError> {
    let m0 = lowering.log_block();
    let (alpha, beta, claim) = challenges(zc, transcript);
    let reduced = flockwork_core::verify(m0, 2, claim, None, transcript)?;
    let evals = transcript.recv_field::<Ghash128>(LABEL_FINAL, 2)?;
    let comb = MultilinearPoly::new(comb_vector(lowering, zc, alpha, beta));
    if evals[0] != comb.evaluate(&reduced.point) || evals[0] * evals[1] != reduced.value {
        return Err(VerifyError::FinalClaimMismatch);
    }
    let mut point = reduced.point;
    point.extend_from_slice(&zc.rho[m0 - SKIP_VARS..]);
    Ok(LincheckClaim {
        point,
        value: evals[1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `Σ_k eq(s_out, k)·z[k, j]` bit by bit.
    fn naive(z: &[u64], log_block: usize, s_out: &[Ghash128]) -> Vec<Ghash128> {
        let weights = eq_table(s_out);
        let words = (1usize << log_block) / 64;
        (0..1usize << log_block)
            .map(|j| {
                weights
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| (z[k * words + j / 64] >> (j % 64)) & 1 == 1)
                    .map(|(_, &w)| w)
                    .sum()
            })
            .collect()
    }

    #[test]
    fn instance_fold_matches_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        // Fewer than 64 instances, a word count that is not a multiple of the stack, two
        // word chunks, and two batches of maps.
        for (log_block, log_instances) in [(6, 0), (7, 3), (8, 7), (13, 7), (6, 13)] {
            let words = (1usize << log_block) / 64;
            let mut z: Vec<u64> = (0..words << log_instances).map(|_| rng.random()).collect();
            // A position that is zero in every instance of the first group.
            for k in 0..(1usize << log_instances).min(64) {
                z[k * words] &= !1;
            }
            let s_out: Vec<Ghash128> = (0..log_instances)
                .map(|_| Ghash128::new(rng.random()))
                .collect();
            assert_eq!(
                fold_instances(&z, log_block, &s_out),
                naive(&z, log_block, &s_out),
                "m0 = {log_block}, k = {log_instances}"
            );
        }
    }
}
