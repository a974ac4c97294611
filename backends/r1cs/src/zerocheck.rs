//! The zerocheck on `(A z) ∘ (B z) = z` (Flock §4; notes §3): one univariate-skip round over
//! the six bit variables of a row, then `m − 6` multilinear rounds with Gruen's eq-factoring.
//!
//! With `C = I`, the c side is the committed `z` itself. For the row point
//! `r = (7 pinned constants ‖ m − 13 random)` the prover sends, on the 64 points of `Λ`,
//!
//! ```text
//! P^ab(λ) = Σ_x eq(r, x)·â_x(λ)·b̂_x(λ)   (degree ≤ 126)      P^c(λ) = Σ_x eq(r, x)·ĉ_x(λ)   (degree ≤ 63)
//! ```
//!
//! where `â_x` is the LDE from `S` of row `x` of `A z`. On `S` both agree for a satisfying
//! witness, so `P^ab = P^c + Z_S·Q` with `deg Q ≤ 63`, and the verifier recovers at the
//! challenge `ζ`:
//!
//! ```text
//! P^c(ζ) = Σ_i L^Λ_i(ζ)·P^c(λ_i),     P^ab(ζ) = P^c(ζ) + (Z_S(ζ)/μ)·Σ_i L^Λ_i(ζ)·(P^ab(λ_i) + P^c(λ_i)).
//! ```
//!
//! `P^c(ζ) = ẑ(ζ, r)` is the **c-claim** on the commitment (a quirky point: Lagrange weights on
//! the six low variables). `P^ab(ζ)` starts the multilinear sumcheck
//! `Σ_x eq(r, x)·â(ζ, x)·b̂(ζ, x)`, which ends in the prover's values `â(ζ, ρ)`, `b̂(ζ, ρ)`, handed
//! to the lincheck.
//!
//! Prover cost of round 1 (the hot loop): per row two byte-table LDEs ([`LdeTable`]) and 64
//! GF(2^8) products; per 128-row group the conversion of 2 × 64 points' 16 bytes to GF(2^128)
//! ([`kernel::group_sums`]: a linear map, 16 lookups in the [`ConvertTable`] or 32 GFNI affine
//! products per eight points) and 128 GF(2^128) multiplications by the group's outer eq
//! weight ([`crate::pinned`]). `P^c` aggregates the z rows first
//! (`v[s] = Σ_x eq(r, x)·z(s, x)`) and extends once.
//!
//! The multilinear rounds start from the bit rows ([`rounds::prove_from_rows`]): the folded
//! tables `â(ζ, ·)`, `b̂(ζ, ·)` are only built after the first round's challenge, at half size.

use flockwork_core::{VerifyError, eq_table};
use flockwork_field::{Field, par};
use flockwork_field_binary::ghash::batch::add_mul_scalar;
use flockwork_field_binary::{Ghash128, phi8};
use flockwork_transcript::{ProverTranscript, VerifierTranscript};

use crate::pinned::{ConvertTable, GROUP_ROWS, PINNED_VARS, group_scale, pinned_point};
use crate::rowmap::RowMap;
use crate::skip::{
    LdeTable, SKIP_MU, SKIP_SIZE, lagrange_lambda, lagrange_s, lde_entry, vanishing,
};
use crate::{kernel, rounds};

const LABEL_POINT: &str = "flock/zerocheck/r";
const LABEL_PAB: &str = "flock/zerocheck/p-ab";
const LABEL_PC: &str = "flock/zerocheck/p-c";
const LABEL_ZETA: &str = "flock/zerocheck/zeta";
const LABEL_AB: &str = "flock/zerocheck/ab";

/// What the zerocheck reduces to (both sides compute the same values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZerocheckClaims {
    /// The skip challenge `ζ`.
    pub zeta: Ghash128,
    /// `L_s(ζ)` for the 64 points of `S`.
    pub lagrange: [Ghash128; SKIP_SIZE],
    /// The row point `r` (`m − 6` coordinates; the first 7 pinned).
    pub row_point: Vec<Ghash128>,
    /// `ẑ(ζ, r) = P^c(ζ)`: the c-claim.
    pub c_value: Ghash128,
    /// The sumcheck point `ρ` (`m − 6` coordinates).
    pub rho: Vec<Ghash128>,
    /// `(A z)^(ζ, ρ)`.
    pub a_value: Ghash128,
    /// `(B z)^(ζ, ρ)`.
    pub b_value: Ghash128,
}

/// At most this many groups of 128 rows are summed by one task of [`round_one`] (2^14 rows:
/// 128 KiB each of `a`, `b` and `z`); smaller batches get at least 64 tasks.
const TASK_GROUPS: usize = 128;

/// Squeezes the row point: the pinned constants, then `m − 13` challenges.
fn row_point<T: flockwork_transcript::Transcript>(
    row_vars: usize,
    transcript: &mut T,
) -> Vec<Ghash128> {
    let mut point = pinned_point().to_vec();
    point.extend(transcript.challenges::<Ghash128>(LABEL_POINT, row_vars - PINNED_VARS));
    point
}

/// Round 1 of the prover: `(P^ab|Λ, P^c|Λ)` from the bit rows of `a = A z`, `b = B z`, `z`,
/// of which only the first `live_rows` can be non-zero (the zero blocks past the last
/// instance, [`crate::padding`]): the groups past them are skipped, so the round costs
/// `O(live_rows)`.
#[must_use]
pub fn round_one(
    a: &[u64],
    b: &[u64],
    z: &[u64],
    random_point: &[Ghash128],
    live_rows: usize,
    lde: &LdeTable,
    tconv: &ConvertTable,
) -> ([Ghash128; SKIP_SIZE], [Ghash128; SKIP_SIZE]) {
    let outer = eq_table(random_point);
    assert_eq!(z.len(), outer.len() * GROUP_ROWS, "row count");
    // Zero rows have zero group sums.
    let outer = &outer[..live_rows.div_ceil(GROUP_ROWS).min(outer.len())];
    let zero = || ([Ghash128::ZERO; SKIP_SIZE], [Ghash128::ZERO; SKIP_SIZE]);
    // A task sums up to `TASK_GROUPS` groups into one pair of accumulators in place (`acc += s·v`
    // in one pass); only the tasks' sums travel through the reduction, so the 2 KiB pairs
    // are not copied once per group.
    let per_task = (outer.len() / 64).clamp(1, TASK_GROUPS);
    let task = |t: usize| {
        let (mut ab, mut c) = zero();
        let first = t * per_task;
        for (o, &weight) in outer.iter().enumerate().skip(first).take(per_task) {
            let rows = o * GROUP_ROWS..(o + 1) * GROUP_ROWS;
            let (gab, gc) =
                kernel::group_sums(lde, tconv, &a[rows.clone()], &b[rows.clone()], &z[rows]);
            add_mul_scalar(&mut ab, &gab, weight);
            add_mul_scalar(&mut c, &gc, weight);
        }
        (ab, c)
    };
    let add = |(mut x, mut y): ([Ghash128; SKIP_SIZE], [Ghash128; SKIP_SIZE]),
               (u, v): ([Ghash128; SKIP_SIZE], [Ghash128; SKIP_SIZE])| {
        for i in 0..SKIP_SIZE {
            x[i] += u[i];
            y[i] += v[i];
        }
        (x, y)
    };
    let tasks = outer.len().div_ceil(per_task);
    let (ab, c) = par::map_reduce(tasks, 0, 1, zero, task, add);
    let scale = group_scale();
    let p_ab = ab.map(|v| v * scale);
    let v = c.map(|v| v * scale);
    let p_c = core::array::from_fn(|i| (0..SKIP_SIZE).map(|s| phi8(lde_entry(i, s)) * v[s]).sum());
    (p_ab, p_c)
}

/// `P^c(ζ)` and `P^ab(ζ)` from the values on `Λ` (verifier and prover).
#[must_use]
pub fn skip_values(p_ab: &[Ghash128], p_c: &[Ghash128], zeta: Ghash128) -> (Ghash128, Ghash128) {
    let l = lagrange_lambda(zeta);
    let c: Ghash128 = l.iter().zip(p_c).map(|(&w, &v)| w * v).sum();
    let q: Ghash128 = l
        .iter()
        .zip(p_ab.iter().zip(p_c))
        .map(|(&w, (&x, &y))| w * (x + y))
        .sum();
    let mu_inv = phi8(SKIP_MU.invert_or_zero());
    (c, c + vanishing(zeta) * mu_inv * q)
}

/// The zerocheck prover. `a`, `b`, `z` are the bit rows (`2^(m−6)` words each), zero past
/// the first `live_rows`.
pub fn prove<T: ProverTranscript>(
    a: &[u64],
    b: &[u64],
    z: &[u64],
    live_rows: usize,
    lde: &LdeTable,
    tconv: &ConvertTable,
    transcript: &mut T,
) -> ZerocheckClaims {
    let row_vars = z.len().trailing_zeros() as usize;
    // The first multilinear round's tables, allocated before the skip round's eq table so
    // that they can take whole blocks the prover has just freed, and written by all threads
    // (a serial fill of 2 × 2^(m−7) elements was a serial phase of its own).
    let half = z.len() / 2;
    let tables = (
        flockwork_codes::buffer::zeroed(half, Ghash128::ZERO),
        flockwork_codes::buffer::zeroed(half, Ghash128::ZERO),
    );
    let row_point = row_point(row_vars, transcript);
    let (p_ab, p_c) = round_one(a, b, z, &row_point[PINNED_VARS..], live_rows, lde, tconv);
    transcript.send_field(LABEL_PAB, &p_ab);
    transcript.send_field(LABEL_PC, &p_c);
    let zeta = transcript.challenge::<Ghash128>(LABEL_ZETA);
    let (c_value, ab_value) = skip_values(&p_ab, &p_c, zeta);
    let lagrange = lagrange_s(zeta);
    let map = RowMap::new(&lagrange);
    let out = rounds::prove_from_rows(a, b, &map, &row_point, ab_value, tables, transcript);
    transcript.send_field(LABEL_AB, &[out.a, out.b]);
    ZerocheckClaims {
        zeta,
        lagrange,
        row_point,
        c_value,
        rho: out.point,
        a_value: out.a,
        b_value: out.b,
    }
}

/// The zerocheck verifier for `row_vars = m − 6` row variables.
///
/// # Errors
/// Transcript errors, sumcheck errors, or [`VerifyError::FinalClaimMismatch`] if
/// `â·b̂` differs from the reduced claim.
pub fn verify<T: VerifierTranscript>(
    row_vars: usize,
    transcript: &mut T,
) -> Result<ZerocheckClaims, VerifyError> {
    let row_point = row_point(row_vars, transcript);
    let p_ab = transcript.recv_field::<Ghash128>(LABEL_PAB, SKIP_SIZE)?;
    let p_c = transcript.recv_field::<Ghash128>(LABEL_PC, SKIP_SIZE)?;
    let zeta = transcript.challenge::<Ghash128>(LABEL_ZETA);
    let (c_value, ab_value) = skip_values(&p_ab, &p_c, zeta);
    // The prover binds the most significant variable first (`crate::rounds`).
    let reversed: Vec<Ghash128> = row_point.iter().rev().copied().collect();
    let reduced = flockwork_core::verify(row_vars, 2, ab_value, Some(&reversed), transcript)?;
    let mut rho = reduced.point;
    rho.reverse();
    let evals = transcript.recv_field::<Ghash128>(LABEL_AB, 2)?;
    if evals[0] * evals[1] != reduced.value {
        return Err(VerifyError::FinalClaimMismatch);
    }
    Ok(ZerocheckClaims {
        zeta,
        lagrange: lagrange_s(zeta),
        row_point,
        c_value,
        rho,
        a_value: evals[0],
        b_value: evals[1],
    })
}
