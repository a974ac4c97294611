//! Verification's entry points: a file rebuilds the setup its header describes and verifies
//! its proof of its statement (each system's room holds its own check), after refusing —
//! before any proof byte is read — a file whose verifier's estimated memory exceeds the
//! limit.

use super::ProofFile;
use super::error::ProofFileError;
use super::gkr::gkr_verifier_memory;

impl ProofFile {
    /// Rebuilds the setup the header describes and verifies the proof of the statement.
    ///
    /// # Errors
    /// [`ProofFileError::Setup`], [`ProofFileError::Rejected`] or
    /// [`ProofFileError::GkrRejected`].
    pub fn verify(&self) -> Result<(), ProofFileError> {
        self.verify_within(None)
    }

    /// [`ProofFile::verify`], refusing first — before reading any proof byte — a file whose
    /// verifier's estimated memory exceeds `limit` bytes: the setup's tables (for batch-R1CS
    /// [`flockwork_r1cs::Flock::estimated_verifier_bytes`], from the setup, which costs the
    /// circuit's size only), the statement and the proof held twice, and the commitment's
    /// working set. `flockwork verify` passes its `--memory-limit` (90% of the machine's
    /// memory by default).
    ///
    /// # Errors
    /// [`ProofFileError::MemoryLimit`] over the limit; otherwise as [`ProofFile::verify`].
    pub fn verify_within(&self, limit: Option<u64>) -> Result<(), ProofFileError> {
        self.check_memory(limit)?;
        match self {
            Self::Flock(f) => f.verify(limit),
            Self::Gkr(g) => g.verify(),
            Self::GkrOpened(g) => g.verify(),
            Self::BooleanGkr(g) => g.verify(),
            Self::Relation(f) => crate::registry::verify(f),
        }
    }

    /// [`ProofFile::verify_within`], consuming the file: a statement stated in the clear is
    /// freed region by region as the verifier takes it over, so it is held once (what
    /// `flockwork verify` runs).
    ///
    /// # Errors
    /// As [`ProofFile::verify_within`].
    pub fn into_verified(self, limit: Option<u64>) -> Result<(), ProofFileError> {
        match self {
            Self::Gkr(g) => {
                within_limit(
                    gkr_verifier_memory(&[&g.inputs, &g.outputs], g.proof.len()),
                    limit,
                )?;
                g.verify_owned()
            }
            other => other.verify_within(limit),
        }
    }

    /// Refuses a file whose verifier's estimated memory exceeds `limit` (batch-R1CS files are
    /// checked by [`verify_exact`](crate::flock::verify_exact) once their setup, which costs
    /// the circuit only, is built).
    fn check_memory(&self, limit: Option<u64>) -> Result<(), ProofFileError> {
        let estimate = match self {
            Self::Flock(_) => return Ok(()),
            Self::Gkr(g) => gkr_verifier_memory(&[&g.inputs, &g.outputs], g.proof.len()),
            Self::GkrOpened(g) => gkr_verifier_memory(&[&g.outputs], g.proof.len()),
            Self::BooleanGkr(g) => g.verifier_memory_estimate(),
            Self::Relation(f) => f.verifier_memory_estimate(),
        };
        within_limit(estimate, limit)
    }
}

/// [`ProofFileError::MemoryLimit`] if `estimate` exceeds `limit`.
fn within_limit(estimate: u64, limit: Option<u64>) -> Result<(), ProofFileError> {
    match limit {
        Some(limit) if estimate > limit => Err(ProofFileError::MemoryLimit { estimate, limit }),
        _ => Ok(()),
    }
}
