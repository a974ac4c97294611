//! The sumcheck verifier: scalar, sequential, and panic-free on any proof bytes.

use alloc::vec::Vec;

use flockwork_field::Field;
use flockwork_transcript::VerifierTranscript;

use super::{
    LABEL_CHALLENGE, LABEL_FINAL_EVALS, LABEL_ROUND, absorb_statement, decode_round_message,
};
use crate::VerifyError;

/// The claim a sumcheck reduces to: `Π_j P_j(point) = value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumcheckClaim<E> {
    /// The challenges `ρ_0, …, ρ_{n−1}`.
    pub point: Vec<E>,
    /// The final running claim `c_n`.
    pub value: E,
    /// The number of factors `d`.
    pub degree: usize,
}

impl<E: Field> SumcheckClaim<E> {
    /// Checks evaluations `P_j(point)` obtained elsewhere (a commitment opening, a previous
    /// protocol layer) against the claim: there must be `d` of them, with product `value`.
    ///
    /// # Errors
    /// [`VerifyError::FinalEvalCount`] or [`VerifyError::FinalClaimMismatch`].
    pub fn check_evals(&self, evals: &[E]) -> Result<(), VerifyError> {
        if evals.len() != self.degree {
            return Err(VerifyError::FinalEvalCount {
                expected: self.degree,
                got: evals.len(),
            });
        }
        if evals.iter().copied().product::<E>() != self.value {
            return Err(VerifyError::FinalClaimMismatch);
        }
        Ok(())
    }

    /// Reads the `d` final evaluations sent by
    /// [`SumcheckOutput::send_final_evals`](super::SumcheckOutput::send_final_evals) and
    /// checks them with [`SumcheckClaim::check_evals`]. The caller must still bind each
    /// evaluation to its polynomial (e.g. by a commitment opening at `point`).
    ///
    /// # Errors
    /// Transcript errors, or those of [`SumcheckClaim::check_evals`].
    pub fn recv_final_evals<T: VerifierTranscript>(
        &self,
        transcript: &mut T,
    ) -> Result<Vec<E>, VerifyError> {
        let evals = transcript.recv_field::<E>(LABEL_FINAL_EVALS, self.degree)?;
        self.check_evals(&evals)?;
        Ok(evals)
    }
}

/// Verifies a sumcheck for `claim = Σ_x [eq(eq_point, x)·] Π_{j<degree} P_j(x)` over `num_vars`
/// variables, reading the round messages from the transcript, and returns the reduced claim
/// `Π_j P_j(point) = value` for the caller to check.
///
/// # Errors
/// [`VerifyError::ZeroDegree`], [`VerifyError::EqPointLength`] for a malformed statement;
/// transcript errors for a truncated proof; [`VerifyError::DegenerateEqPoint`] if a
/// coordinate of the eq point is 1.
pub fn verify<E: Field, T: VerifierTranscript>(
    num_vars: usize,
    degree: usize,
    claim: E,
    eq_point: Option<&[E]>,
    transcript: &mut T,
) -> Result<SumcheckClaim<E>, VerifyError> {
    if degree == 0 {
        return Err(VerifyError::ZeroDegree);
    }
    if let Some(r) = eq_point.filter(|r| r.len() != num_vars) {
        return Err(VerifyError::EqPointLength {
            expected: num_vars,
            got: r.len(),
        });
    }
    absorb_statement(transcript, num_vars, degree, eq_point.is_some(), claim);
    let mut value = claim;
    let mut point = Vec::new();
    for round in 0..num_vars {
        let message = transcript.recv_field::<E>(LABEL_ROUND, degree)?;
        let eq_coord = eq_point.and_then(|r| r.get(round).copied());
        let inner = decode_round_message(round, value, eq_coord, degree, &message)?;
        let challenge = transcript.challenge::<E>(LABEL_CHALLENGE);
        value = inner.evaluate(challenge);
        point.push(challenge);
    }
    Ok(SumcheckClaim {
        point,
        value,
        degree,
    })
}
