//! Errors of the GKR prover and verifier.

use flockwork_core::VerifyError;
use flockwork_transcript::TranscriptError;
use thiserror::Error;

/// Why a GKR proof was rejected. The verifier returns it for every malformed or false proof
/// and never panics, whatever bytes it is given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GkrError {
    /// The proof does not start with the magic bytes, version and variant this verifier reads.
    #[error("bad proof header")]
    Header,
    /// The proof has a retired version of its format: the named commit's verifier reads it.
    #[error(
        "proof version {version} is retired (this verifier reads a later one); the verifier \
         of commit {commit} reads it"
    )]
    Retired {
        /// The proof's version.
        version: u16,
        /// The last commit that reads it.
        commit: &'static str,
    },
    /// Reading the proof failed (truncated, non-canonical element, trailing bytes).
    #[error("transcript: {0}")]
    Transcript(#[from] TranscriptError),
    /// The statement does not fit the setup (region count, widths, point or column shapes).
    #[error("statement does not fit the setup: {0}")]
    Statement(&'static str),
    /// The proof's length differs from the one the statement determines.
    #[error("proof has {got} bytes, expected {expected}")]
    ProofLength {
        /// Bytes the statement determines.
        expected: usize,
        /// Bytes supplied.
        got: usize,
    },
    /// The final check of a layer's sumcheck failed: the layer values the prover sent do not
    /// reproduce the reduced claim.
    #[error("layer {layer}: final sumcheck check failed")]
    LayerCheck {
        /// The layer `l ∈ 1..=L` whose sumcheck failed.
        layer: usize,
    },
    /// A terminal claim on the committed layer `S_0` does not match the committed columns.
    #[error("region {region}: terminal claim does not match the committed layer")]
    Terminal {
        /// The region index.
        region: usize,
    },
    /// The opening of the layer-0 commitment was rejected ([`crate::opening`]).
    #[error("layer-0 opening: {0}")]
    Opening(VerifyError),
}

/// Why the prover refused: inputs or a statement that do not fit the setup. (A false
/// statement is not an error; its proof fails verification.)
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProveError {
    /// The statement does not fit the setup.
    #[error("statement does not fit the setup: {0}")]
    Statement(&'static str),
    /// The witness does not fit the setup.
    #[error("witness does not fit the setup: {0}")]
    Witness(&'static str),
}
