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

use flockwork_core::circuit::{R1csLowering, transpose64};
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

/// `z_vec[j] = Σ_k eq(s_out, k)·z[k, j]` for a batch witness of `2^k` instances of `2^m0` bits.
///
/// Instances are taken 64 at a time and bit-transposed, so a position's 64 bits index eight
/// tables of subset sums of the instances' eq weights: `2^m0 · K / 8` additions in all.
#[must_use]
pub fn fold_instances(z: &[u64], log_block: usize, s_out: &[Ghash128]) -> Vec<Ghash128> {
    let weights = eq_table(s_out);
    let instances = weights.len();
    let block_words = (1usize << log_block) / 64;
    assert_eq!(z.len(), instances * block_words, "witness length");
    let groups = instances.div_ceil(64);
    let maps: Vec<RowMap> = (0..groups)
        .map(|g| {
            let w: [Ghash128; 64] =
                core::array::from_fn(|r| weights.get(64 * g + r).copied().unwrap_or_default());
            RowMap::new(&w)
        })
        .collect();
    let word = |wi: usize| -> [Ghash128; 64] {
        let mut out = [Ghash128::ZERO; 64];
        let mut images = [Ghash128::ZERO; 64];
        for (g, map) in maps.iter().enumerate() {
            let mut m = [0u64; 64];
            for (r, row) in m.iter_mut().enumerate() {
                let k = 64 * g + r;
                if k < instances {
                    *row = z[k * block_words + wi];
                }
            }
            transpose64(&mut m);
            map.apply_slice(&m, &mut images);
            for (o, &v) in out.iter_mut().zip(&images) {
                *o += v;
            }
        }
        out
    };
    #[cfg(feature = "parallel")]
    let words: Vec<[Ghash128; 64]> = {
        use rayon::prelude::*;
        (0..block_words).into_par_iter().map(word).collect()
    };
    #[cfg(not(feature = "parallel"))]
    let words: Vec<[Ghash128; 64]> = (0..block_words).map(word).collect();
    words.into_iter().flatten().collect()
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
