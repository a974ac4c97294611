//! The degree-2 product sumcheck `Σ_x v(x)·B(x) = s` that runs through all of Ligerito's
//! levels, one round at a time (the levels interleave commitments and glue new weight terms
//! between rounds, so the whole-protocol driver of `flockwork_core::sumcheck` does not fit).
//!
//! Messages use the core engine's format for degree 2 without eq factor: `[G(1), G(∞)]`,
//! where `G(X) = Σ_{x'} v(X, x')·B(X, x')`; `G(0) = s − G(1)` is recovered by
//! [`decode_round_message`] on both sides (Thaler, *Proofs, Arguments, and Zero-Knowledge*,
//! §4.1; Gruen, eprint 2024/108, §3 for the point at infinity). The rounds run on the core's
//! kernel of two-table sumchecks ([`product`], the Pairs layout), which folds and computes the
//! next message in one pass.

use std::borrow::Cow;

use flockwork_core::VerifyError;
use flockwork_core::pcs::BatchedClaims;
use flockwork_core::sumcheck::{decode_round_message, product};
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
            |start, chunk| product::pairs_message(&v[start..start + chunk.len()], chunk, None),
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
    /// ([`product::pairs_fold_with_message`]).
    pub fn round<T: ProverTranscript>(
        &mut self,
        labels: Labels,
        pow_bits: u32,
        transcript: &mut T,
    ) -> F {
        let message = self
            .next_message
            .take()
            .unwrap_or_else(|| product::pairs_message(&self.v, &self.b, None));
        transcript.send_field(labels.round, &message);
        transcript
            .grind(labels.pow, pow_bits)
            .expect("grinding bits validated by the configuration");
        let r = transcript.challenge::<F>(labels.challenge);
        self.claim = next_claim(self.point.len(), self.claim, &message, r).expect("two values");
        let half = self.v.len() / 2;
        let mut v = flockwork_codes::buffer::zeroed(half, F::ZERO);
        let mut b = flockwork_codes::buffer::zeroed(half, F::ZERO);
        self.next_message = product::pairs_fold_with_message(&self.v, &self.b, r, &mut v, &mut b);
        self.v = Cow::Owned(v);
        self.b = b;
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
