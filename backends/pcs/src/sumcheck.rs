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

/// `[G(1), G(∞)]` for the tables `v`, `b` of equal power-of-two length ≥ 2.
pub(crate) fn round_message<F: Field>(v: &[F], b: &[F]) -> [F; 2] {
    let pair = |j: usize| {
        let (v0, v1, b0, b1) = (v[2 * j], v[2 * j + 1], b[2 * j], b[2 * j + 1]);
        [v1 * b1, (v1 - v0) * (b1 - b0)]
    };
    let add = |x: [F; 2], y: [F; 2]| [x[0] + y[0], x[1] + y[1]];
    let half = v.len() / 2;
    #[cfg(feature = "parallel")]
    if half >= 1 << 12 {
        use rayon::prelude::*;
        return (0..half)
            .into_par_iter()
            .with_min_len(1 << 10)
            .map(pair)
            .reduce(|| [F::ZERO; 2], add);
    }
    (0..half).map(pair).fold([F::ZERO; 2], add)
}

/// `t(r, ·)`: binds the first variable of `table` to `r`,
/// `t'[j] = t[2j] + r·(t[2j+1] − t[2j])`, into a new table of half the length.
pub(crate) fn fold_to_vec<F: Field>(table: &[F], r: F) -> Vec<F> {
    let half = table.len() / 2;
    let fold = |j: usize| table[2 * j] + r * (table[2 * j + 1] - table[2 * j]);
    #[cfg(feature = "parallel")]
    if half >= 1 << 12 {
        use rayon::prelude::*;
        return (0..half)
            .into_par_iter()
            .with_min_len(1 << 10)
            .map(fold)
            .collect();
    }
    (0..half).map(fold).collect()
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
