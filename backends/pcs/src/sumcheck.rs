//! The degree-2 product sumcheck `Σ_x v(x)·B(x) = s` that runs through all of Ligerito's
//! levels, one round at a time (the levels interleave commitments and glue new weight terms
//! between rounds, so the whole-protocol driver of `flockwork_core::sumcheck` does not fit).
//!
//! Messages use the core engine's format for degree 2 without eq factor: `[G(1), G(∞)]`,
//! where `G(X) = Σ_{x'} v(X, x')·B(X, x')`; `G(0) = s − G(1)` is recovered by
//! [`decode_round_message`] on both sides (Thaler, *Proofs, Arguments, and Zero-Knowledge*,
//! §4.1; Gruen, eprint 2024/108, §3 for the point at infinity).

use flockwork_core::VerifyError;
use flockwork_core::sumcheck::decode_round_message;
use flockwork_field::Field;

/// Label of a round message.
pub(crate) const LABEL_ROUND: &str = "ligerito/sumcheck/round";
/// Label of a round challenge.
pub(crate) const LABEL_CHALLENGE: &str = "ligerito/sumcheck/challenge";
/// Label of the grinding before a fold challenge.
pub(crate) const LABEL_FOLD_POW: &str = "ligerito/fold-pow";

/// Pairs per chunk of the slice kernels below.
const CHUNK: usize = 1 << 10;

/// Splits the pairs `(t[2j], t[2j + 1])` of a chunk into `lo[j]` and `hi[j] − lo[j]`.
fn split_pairs<F: Field>(t: &[F], lo: &mut [F], slope: &mut [F]) {
    for ((pair, l), s) in t.chunks_exact(2).zip(lo.iter_mut()).zip(slope.iter_mut()) {
        *l = pair[0];
        *s = pair[1] - pair[0];
    }
}

/// `[G(1), G(∞)]` for the tables `v`, `b` of equal power-of-two length ≥ 2.
///
/// Chunk by chunk, the pairs are split into values at 0 and slopes, so both sums are inner
/// products ([`Field::inner_product`]: SIMD for GF(2^128)); `G(1) = Σ (v0 + dv)(b0 + db)`.
pub(crate) fn round_message<F: Field>(v: &[F], b: &[F]) -> [F; 2] {
    let chunk = |c: usize| {
        let range = 2 * c * CHUNK..(2 * (c + 1) * CHUNK).min(v.len());
        let n = range.len() / 2;
        let mut scratch = [[F::ZERO; CHUNK]; 4];
        let [v0, dv, b0, db] = &mut scratch;
        split_pairs(&v[range.clone()], &mut v0[..n], &mut dv[..n]);
        split_pairs(&b[range], &mut b0[..n], &mut db[..n]);
        let at_infinity = F::inner_product(&dv[..n], &db[..n]);
        for (x, &d) in v0[..n].iter_mut().zip(&dv[..n]) {
            *x += d;
        }
        for (x, &d) in b0[..n].iter_mut().zip(&db[..n]) {
            *x += d;
        }
        [F::inner_product(&v0[..n], &b0[..n]), at_infinity]
    };
    let add = |x: [F; 2], y: [F; 2]| [x[0] + y[0], x[1] + y[1]];
    let chunks = (v.len() / 2).div_ceil(CHUNK);
    #[cfg(feature = "parallel")]
    if chunks >= 4 {
        use rayon::prelude::*;
        return (0..chunks)
            .into_par_iter()
            .map(chunk)
            .reduce(|| [F::ZERO; 2], add);
    }
    (0..chunks).map(chunk).fold([F::ZERO; 2], add)
}

/// `t(r, ·)`: binds the first variable of `table` to `r`,
/// `t'[j] = t[2j] + r·(t[2j+1] − t[2j])`, into a new table of half the length (the slopes
/// scaled by [`Field::scale_slice`], chunk by chunk).
pub(crate) fn fold_to_vec<F: Field>(table: &[F], r: F) -> Vec<F> {
    let half = table.len() / 2;
    let mut out = vec![F::ZERO; half];
    let fold = |(t, o): (&[F], &mut [F])| {
        let mut slope = [F::ZERO; CHUNK];
        let slope = &mut slope[..o.len()];
        split_pairs(t, o, slope);
        F::scale_slice(slope, r);
        for (x, &s) in o.iter_mut().zip(slope.iter()) {
            *x += s;
        }
    };
    #[cfg(feature = "parallel")]
    if half >= 4 * CHUNK {
        use rayon::prelude::*;
        table
            .par_chunks(2 * CHUNK)
            .zip(out.par_chunks_mut(CHUNK))
            .for_each(fold);
        return out;
    }
    table
        .chunks(2 * CHUNK)
        .zip(out.chunks_mut(CHUNK))
        .for_each(fold);
    out
}

/// `t(point)` for the multilinear extension of `table` (`2^point.len()` entries), folding
/// from the borrowed table so that it is never copied whole.
pub(crate) fn evaluate<F: Field>(table: &[F], point: &[F]) -> F {
    match point.split_first() {
        None => table.first().copied().unwrap_or(F::ZERO),
        Some((&first, rest)) => {
            let mut folded = fold_to_vec(table, first);
            for &r in rest {
                folded = fold_to_vec(&folded, r);
            }
            folded.first().copied().unwrap_or(F::ZERO)
        }
    }
}

/// The next running claim `G(r)` from the current claim and a round message.
///
/// # Errors
/// [`VerifyError::MessageLength`] for a malformed message.
pub(crate) fn next_claim<F: Field>(
    round: usize,
    claim: F,
    message: &[F],
    r: F,
) -> Result<F, VerifyError> {
    Ok(decode_round_message(round, claim, None, 2, message)?.evaluate(r))
}
