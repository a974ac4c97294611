//! The degree-2 product sumcheck `Σ_x v(x)·B(x) = s` that runs through all of Ligerito's
//! levels, one round at a time (the levels interleave commitments and glue new weight terms
//! between rounds, so the whole-protocol driver of `flockwork_core::sumcheck` does not fit).
//!
//! Messages use the core engine's format for degree 2 without eq factor: `[G(1), G(∞)]`,
//! where `G(X) = Σ_{x'} v(X, x')·B(X, x')`; `G(0) = s − G(1)` is recovered by
//! [`decode_round_message`] on both sides (Thaler, *Proofs, Arguments, and Zero-Knowledge*,
//! §4.1; Gruen, eprint 2024/108, §3 for the point at infinity).

use std::borrow::Cow;

use flockwork_core::VerifyError;
use flockwork_core::pcs::BatchedClaims;
use flockwork_core::sumcheck::decode_round_message;
use flockwork_field::Field;
use flockwork_transcript::{ProverTranscript, VerifierTranscript};

/// The transcript labels of one commitment's running sumcheck.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Labels {
    /// A round message.
    pub round: &'static str,
    /// The grinding before a fold challenge.
    pub pow: &'static str,
    /// A round challenge.
    pub challenge: &'static str,
}

/// The running sumcheck `Σ_x v(x)·B(x) = claim` on the prover side. `v` borrows the committed
/// polynomial until the first fold, so the `2^ℓ` table is never copied.
pub(crate) struct ProverState<'a, F: Clone> {
    pub v: Cow<'a, [F]>,
    pub b: Vec<F>,
    pub claim: F,
    /// The challenges so far (`round = point.len()`).
    pub point: Vec<F>,
    /// The next round's message, computed while folding (`None` after `b` changed).
    pub next_message: Option<[F; 2]>,
}

impl<'a, F: Field> ProverState<'a, F> {
    /// The state before the first round.
    pub fn new(v: &'a [F], b: Vec<F>, claim: F) -> Self {
        Self {
            v: Cow::Borrowed(v),
            b,
            claim,
            point: Vec::new(),
            next_message: None,
        }
    }

    /// The state before the first round of the batched opening `Σ_x v(x)·B(x) = s`,
    /// `B = Σ_j α_j W_j`: `B` is tabulated on huge pages, chunk by chunk, and the first round
    /// message is summed over each chunk while it is still in cache
    /// ([`BatchedClaims::accumulate_table_then`]), so the first round reads neither table
    /// again.
    pub fn from_claims(v: &'a [F], batched: &BatchedClaims<'_, F>) -> Self {
        let mut b = flockwork_codes::buffer::zeroed(v.len(), F::ZERO);
        let first = batched.accumulate_table_then(
            &mut b,
            |start, chunk| round_message(&v[start..start + chunk.len()], chunk),
            |x, y| [x[0] + y[0], x[1] + y[1]],
        );
        let mut state = Self::new(v, b, batched.value());
        if v.len() >= 2 {
            state.next_message = Some(first);
        }
        state
    }

    /// One round with `pow_bits` of grinding before the challenge; returns the challenge.
    /// The fold and the next round's message share one pass over the tables
    /// ([`fold_with_message`]).
    pub fn round<T: ProverTranscript>(
        &mut self,
        labels: Labels,
        pow_bits: u32,
        transcript: &mut T,
    ) -> F {
        let message = self
            .next_message
            .take()
            .unwrap_or_else(|| round_message(&self.v, &self.b));
        transcript.send_field(labels.round, &message);
        transcript
            .grind(labels.pow, pow_bits)
            .expect("grinding bits validated by the configuration");
        let r = transcript.challenge::<F>(labels.challenge);
        self.claim = next_claim(self.point.len(), self.claim, &message, r).expect("two values");
        let (v, b, next) = fold_with_message(&self.v, &self.b, r);
        self.v = Cow::Owned(v);
        self.b = b;
        self.next_message = next;
        self.point.push(r);
        r
    }
}

/// The running sumcheck on the verifier side: the claim and the challenges.
pub(crate) struct VerifierState<F> {
    pub claim: F,
    pub point: Vec<F>,
}

impl<F: Field> VerifierState<F> {
    /// Reads one round message, checks the grinding and draws the challenge.
    pub fn round<T: VerifierTranscript>(
        &mut self,
        labels: Labels,
        pow_bits: u32,
        transcript: &mut T,
    ) -> Result<F, VerifyError> {
        let message = transcript.recv_field::<F>(labels.round, 2)?;
        transcript.check_grind(labels.pow, pow_bits)?;
        let r = transcript.challenge::<F>(labels.challenge);
        self.claim = next_claim(self.point.len(), self.claim, &message, r)?;
        self.point.push(r);
        Ok(r)
    }
}

// Pairs per chunk of the slice kernels below.
use flockwork_field::par::{self, SUMCHECK_CHUNK as CHUNK};

/// Splits the pairs `(t[2j], t[2j + 1])` of a chunk into `lo[j]` and `hi[j] − lo[j]`.
fn split_pairs<F: Field>(t: &[F], lo: &mut [F], slope: &mut [F]) {
    for ((pair, l), s) in t.chunks_exact(2).zip(lo.iter_mut()).zip(slope.iter_mut()) {
        *l = pair[0];
        *s = pair[1] - pair[0];
    }
}

/// The contribution `[Σ v1·b1, Σ (v1 − v0)(b1 − b0)]` of the pairs of one chunk (at most
/// `2·CHUNK` entries of each table).
fn round_message_chunk<F: Field>(v: &[F], b: &[F]) -> [F; 2] {
    let n = v.len() / 2;
    let mut scratch = [[F::ZERO; CHUNK]; 4];
    let [v0, dv, b0, db] = &mut scratch;
    split_pairs(v, &mut v0[..n], &mut dv[..n]);
    split_pairs(b, &mut b0[..n], &mut db[..n]);
    let at_infinity = F::inner_product(&dv[..n], &db[..n]);
    for (x, &d) in v0[..n].iter_mut().zip(&dv[..n]) {
        *x += d;
    }
    for (x, &d) in b0[..n].iter_mut().zip(&db[..n]) {
        *x += d;
    }
    [F::inner_product(&v0[..n], &b0[..n]), at_infinity]
}

/// `[G(1), G(∞)]` for the tables `v`, `b` of equal power-of-two length ≥ 2.
///
/// Chunk by chunk, the pairs are split into values at 0 and slopes, so both sums are inner
/// products ([`Field::inner_product`]: SIMD for GF(2^128)); `G(1) = Σ (v0 + dv)(b0 + db)`.
pub(crate) fn round_message<F: Field>(v: &[F], b: &[F]) -> [F; 2] {
    let chunk = |c: usize| {
        let range = 2 * c * CHUNK..(2 * (c + 1) * CHUNK).min(v.len());
        round_message_chunk(&v[range.clone()], &b[range])
    };
    let add = |x: [F; 2], y: [F; 2]| [x[0] + y[0], x[1] + y[1]];
    let chunks = (v.len() / 2).div_ceil(CHUNK);
    par::map_reduce(chunks, 4, 1, || [F::ZERO; 2], chunk, add)
}

/// `t(r, ·)`: binds the first variable of `table` to `r`,
/// `t'[j] = t[2j] + r·(t[2j+1] − t[2j])`, into a new table of half the length (the slopes
/// scaled by [`Field::scale_slice`], chunk by chunk).
#[cfg(test)]
pub(crate) fn fold_to_vec<F: Field>(table: &[F], r: F) -> Vec<F> {
    let half = table.len() / 2;
    let mut out = flockwork_codes::buffer::zeroed(half, F::ZERO);
    let fold = |_, o: &mut [F], t: &[F]| {
        let mut slope = [F::ZERO; CHUNK];
        let slope = &mut slope[..o.len()];
        split_pairs(t, o, slope);
        F::scale_slice(slope, r);
        for (x, &s) in o.iter_mut().zip(slope.iter()) {
            *x += s;
        }
    };
    par::zip_chunks_read(&mut out, CHUNK, table, 2 * CHUNK, 4 * CHUNK, fold);
    out
}

/// Folds both tables at `r` and, in the same pass, computes the next round's message on the
/// folded tables: `(v(r, ·), b(r, ·), [G'(1), G'(∞)])`, the message `None` when the folded
/// tables have a single entry. Equal to [`fold_to_vec`] twice and [`round_message`], with
/// one read of `v` and `b` instead of two.
pub(crate) fn fold_with_message<F: Field>(
    v: &[F],
    b: &[F],
    r: F,
) -> (Vec<F>, Vec<F>, Option<[F; 2]>) {
    let half = v.len() / 2;
    let mut v_out = flockwork_codes::buffer::zeroed(half, F::ZERO);
    let mut b_out = flockwork_codes::buffer::zeroed(half, F::ZERO);
    let fold = |t: &[F], o: &mut [F]| {
        let mut slope = [F::ZERO; CHUNK];
        let slope = &mut slope[..o.len()];
        split_pairs(t, o, slope);
        F::scale_slice(slope, r);
        for (x, &s) in o.iter_mut().zip(slope.iter()) {
            *x += s;
        }
    };
    let chunk = |c: usize, ov: &mut [F], ob: &mut [F]| {
        let range = 2 * c * CHUNK..2 * c * CHUNK + 2 * ov.len();
        fold(&v[range.clone()], ov);
        fold(&b[range], ob);
        if ov.len() < 2 {
            return [F::ZERO; 2];
        }
        round_message_chunk(ov, ob)
    };
    let add = |x: [F; 2], y: [F; 2]| [x[0] + y[0], x[1] + y[1]];
    let message = par::zip_chunks_reduce(
        &mut v_out,
        &mut b_out,
        CHUNK,
        4 * CHUNK,
        || [F::ZERO; 2],
        chunk,
        add,
    );
    let message = (half >= 2).then_some(message);
    (v_out, b_out, message)
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

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_field_binary::Ghash128;

    #[test]
    fn fused_fold_equals_fold_then_message() {
        let g = |i: u64| Ghash128::new(u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c) ^ 7);
        for log in [1usize, 2, 3, 11, 13] {
            let v: Vec<Ghash128> = (0..1u64 << log).map(|i| g(2 * i + 1)).collect();
            let b: Vec<Ghash128> = (0..1u64 << log).map(|i| g(3 * i + 5)).collect();
            let r = g(99);
            let (fv, fb, message) = fold_with_message(&v, &b, r);
            assert_eq!(fv, fold_to_vec(&v, r));
            assert_eq!(fb, fold_to_vec(&b, r));
            let expect = (fv.len() >= 2).then(|| round_message(&fv, &fb));
            assert_eq!(message, expect, "2^{log}");
        }
    }
}
