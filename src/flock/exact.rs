//! Verification of a proof against the exact statement about `count` compressions
//! ([`verify_exact`]) and why it can fail ([`ExactError`]).

use flockwork_boolean::io::wide_chain;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_r1cs::{FlockConfig, Statement};
use flockwork_transcript::TranscriptKind;

use super::hash::{HashGadget, HashKind, IoKind, flock_for};
use super::shape::BatchShape;
use crate::workload::WorkloadError;

/// Why [`verify_exact`] did not accept a proof.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// No setup for these parameters, or a statement that does not fit the shape.
    #[error(transparent)]
    Setup(#[from] WorkloadError),
    /// The batch-R1CS verifier rejected the proof.
    #[error("the proof is rejected: {0}")]
    Rejected(#[from] flockwork_r1cs::FlockError),
    /// The verifier's estimated memory ([`flockwork_r1cs::Flock::estimated_verifier_bytes`])
    /// exceeds the configuration's limit ([`FlockConfig::memory_limit`]); nothing was read.
    #[error(
        "the verifier would need about {} MiB, over the memory limit of {} MiB",
        estimate >> 20,
        limit >> 20
    )]
    MemoryLimit {
        /// The estimate in bytes.
        estimate: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

/// Verifies a batch-R1CS proof that `statement` holds for exactly `count` compressions of
/// `hash` with the IO `io`: the setup [`BatchShape::for_count`] lays out (what
/// [`FlockWorkload`] proves with), the statement mapped by [`BatchShape::setup_statement`].
/// A proof for `count` is rejected for any other count (another setup digest, or for a
/// Keccak-f chain in the same blocks another end).
///
/// # Errors
/// [`ExactError::Setup`] for parameters without a setup or a statement of the wrong kind;
/// [`ExactError::Rejected`] if the verifier rejects the proof; [`ExactError::MemoryLimit`]
/// if `config.memory_limit` is below the verifier's estimated memory.
///
/// [`FlockWorkload`]: super::FlockWorkload
pub fn verify_exact(
    hash: HashKind,
    io: IoKind,
    count: usize,
    config: FlockConfig,
    transcript: TranscriptKind,
    statement: &Statement,
    proof: &[u8],
) -> Result<(), ExactError> {
    // The proof's own framing first: nothing sized by `count` is built for bytes that are
    // not a batch-R1CS proof of this version.
    flockwork_r1cs::check_proof_header(proof)?;
    let shape = BatchShape::for_count(hash, io, count);
    let statement = shape.setup_statement(hash, statement)?;
    let check = Check {
        shape,
        io,
        config,
        transcript,
        statement: &statement,
        proof,
    };
    match hash {
        HashKind::Sha256 => check.run(Sha256Compress),
        HashKind::Blake3 => check.run(Blake3Compress),
        HashKind::Keccak => check.run(KeccakF1600::new()),
    }
}

/// One [`verify_exact`] call's setup parameters, statement and proof.
struct Check<'a> {
    shape: BatchShape,
    io: IoKind,
    config: FlockConfig,
    transcript: TranscriptKind,
    statement: &'a Statement,
    proof: &'a [u8],
}

impl Check<'_> {
    /// Verifies with the gadget's setup: chains in blocks of `copies` steps.
    fn run<G: HashGadget + Clone>(&self, gadget: G) -> Result<(), ExactError> {
        match self.io {
            IoKind::Chain => self.verify(wide_chain(gadget, self.shape.copies)),
            IoKind::Merkle | IoKind::Public | IoKind::Committed => self.verify(gadget),
        }
    }

    fn verify<G: HashGadget>(&self, gadget: G) -> Result<(), ExactError> {
        let flock = flock_for(gadget, self.shape.blocks, self.io, self.config)?;
        if let Some(limit) = self.config.memory_limit {
            let estimate = flock.estimated_verifier_bytes(self.statement, self.proof.len());
            if estimate > limit {
                return Err(ExactError::MemoryLimit { estimate, limit });
            }
        }
        with_transcript!(self.transcript, T => {
            flock.with_transcript::<T>().verify(self.statement, self.proof)
        })?;
        Ok(())
    }
}
