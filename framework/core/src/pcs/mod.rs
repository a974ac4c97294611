//! The [`PolynomialCommitment`] trait and its claim types.
//!
//! A polynomial commitment scheme (PCS) commits to a multilinear polynomial `P` in `n`
//! variables, given by its `2^n` hypercube values, and later proves a **batch** of linear
//! claims `Σ_x P(x)·W_j(x) = v_j` ([`Claim`]): evaluations at several points (`W = eq(z, ·)`),
//! quirky tensor points, and general verifier-evaluable weights ([`MultilinearWeight`]).
//!
//! ## Transcript discipline
//!
//! * [`PolynomialCommitment::commit`] does **not** touch the transcript. The caller binds the
//!   commitment (usually [`PolynomialCommitment::send_commitment`] /
//!   [`PolynomialCommitment::recv_commitment`], or `public_bytes` when it is known in
//!   advance) before any challenge the claims depend on.
//! * [`PolynomialCommitment::open`] and [`PolynomialCommitment::verify`] absorb the claims
//!   themselves ([`absorb_claims`]), so the batching randomness depends on them.
//! * The proof is the transcript: `open` writes, `verify` reads the same bytes, and returns
//!   [`VerifyError`] (never panics) on any input.
//!
//! The notes' design (one running sumcheck `Σ_x P(x)·B(x)` with `B = Σ_j α_j W_j`, ending in
//! one evaluation of `B`) is shared by Ligerito (Novakovic–Angeris, eprint 2025/1187),
//! FRI-Binius / BaseFold (Diamond–Posen, eprint 2024/504, §4; Zeilberger–Chen–Fisch, eprint
//! 2023/1705) and Blaze (eprint 2024/1609), so each backend only swaps the code and the
//! query phase.

mod claim;
pub mod extension;

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt::Debug;

use flockwork_field::Field;
use flockwork_transcript::{ProverTranscript, VerifierTranscript};

pub use claim::{
    BatchedClaims, CHUNK_VARS, ChunkFiller, Claim, MultilinearWeight, Weight, absorb_claims,
    accumulate_by_chunks, check_claim_shapes,
};
pub use extension::{ExtensionEq, extension_claims};

use crate::VerifyError;

/// A commitment scheme for one multilinear polynomial with evaluations of type
/// [`PolynomialCommitment::Evals`], proving claims over the field `F`.
///
/// `Self` holds the parameters (shape, code, security profile, precomputed tables), so the
/// same value serves many commitments.
pub trait PolynomialCommitment<F: Field> {
    /// How the hypercube values are given: `[F]` for a dense polynomial over `F`, packed
    /// bit words for a Boolean polynomial (ring-switching).
    type Evals: ?Sized;
    /// What the verifier keeps: a Merkle root or similar; its bytes are
    /// [`AsRef::as_ref`].
    type Commitment: Clone + Debug + Eq + AsRef<[u8]>;
    /// What the prover keeps from `commit` to `open` (codewords, Merkle trees).
    type ProverData: Send + Sync;

    /// The number of variables `n` of committed polynomials.
    fn num_vars(&self) -> usize;

    /// The byte length of a commitment.
    fn commitment_len(&self) -> usize;

    /// Parses a commitment; `None` for a wrong length.
    fn commitment_from_bytes(&self, bytes: &[u8]) -> Option<Self::Commitment>;

    /// Commits to `evals` (without touching any transcript).
    ///
    /// # Panics
    /// If `evals` does not hold `2^n` values.
    fn commit(&self, evals: &Self::Evals) -> (Self::Commitment, Self::ProverData);

    /// [`PolynomialCommitment::commit`] of values the caller gives up: a scheme whose prover
    /// data keeps the values takes them without a copy (a `Vec` whose capacity equals its
    /// length converts to the box for free). The default borrows them for `commit`.
    ///
    /// # Panics
    /// As `commit`.
    fn commit_owned(&self, evals: Box<Self::Evals>) -> (Self::Commitment, Self::ProverData) {
        self.commit(&evals)
    }

    /// Whether the prover data keeps the committed values, readable through
    /// [`PolynomialCommitment::committed_evals`] (then a wrapper scheme such as ring switching
    /// hands them over with [`PolynomialCommitment::commit_owned`] instead of keeping a copy
    /// of its own). The default: `false`.
    fn keeps_evals(&self) -> bool {
        false
    }

    /// The committed values, if [`PolynomialCommitment::keeps_evals`]. The default: `None`.
    fn committed_evals<'a>(&self, data: &'a Self::ProverData) -> Option<&'a Self::Evals> {
        let _ = data;
        None
    }

    /// Proves all `claims` about the committed polynomial (true or not: a false claim gives a
    /// proof the verifier rejects).
    ///
    /// # Panics
    /// If `claims` is empty or a weight does not have `n` variables.
    fn open<T: ProverTranscript>(
        &self,
        data: &Self::ProverData,
        claims: &[Claim<F>],
        transcript: &mut T,
    );

    /// Verifies the proof of `claims` read from `transcript`.
    ///
    /// # Errors
    /// Any [`VerifyError`]: malformed or truncated proof bytes, a claim of the wrong shape, a
    /// failed Merkle or proximity check, a false claim.
    fn verify<T: VerifierTranscript>(
        &self,
        commitment: &Self::Commitment,
        claims: &[Claim<F>],
        transcript: &mut T,
    ) -> Result<(), VerifyError>;

    /// Sends the commitment under `label` (absorbed and written to the proof).
    fn send_commitment<T: ProverTranscript>(
        &self,
        label: &str,
        commitment: &Self::Commitment,
        transcript: &mut T,
    ) {
        transcript.send_bytes(label, commitment.as_ref());
    }

    /// Reads a commitment sent with [`PolynomialCommitment::send_commitment`].
    ///
    /// # Errors
    /// A transcript error, or [`VerifyError::MalformedCommitment`].
    fn recv_commitment<T: VerifierTranscript>(
        &self,
        label: &str,
        transcript: &mut T,
    ) -> Result<Self::Commitment, VerifyError> {
        let bytes: Vec<u8> = transcript
            .recv_bytes(label, self.commitment_len())?
            .to_vec();
        self.commitment_from_bytes(&bytes)
            .ok_or(VerifyError::MalformedCommitment)
    }
}

#[cfg(test)]
mod tests;
