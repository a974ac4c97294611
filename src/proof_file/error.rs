//! Why a proof file is unreadable or its proof is rejected: one error for the framing (a
//! truncated file, bad magic, a retired or unknown version, a header field out of range,
//! trailing bytes) and for verification (a setup the header cannot build, a proof a verifier
//! rejects, a verifier over the memory limit).

use flockwork_gkr::GkrError;
use flockwork_r1cs::FlockError;
use thiserror::Error;

use super::version::VERSION;

/// Why a proof file is unreadable or its proof is rejected.
#[derive(Debug, Error)]
pub enum ProofFileError {
    /// The file ends early.
    #[error("the proof file is truncated (it ends inside its {0})")]
    Truncated(&'static str),
    /// Not a flockwork proof file.
    #[error("not a flockwork proof file (bad magic bytes)")]
    BadMagic,
    /// The file's source failed.
    #[error("cannot read the proof file: {0}")]
    Read(#[source] std::io::Error),
    /// An earlier format version, and the last commit that reads it.
    #[error(
        "proof file version {version} is not read by this build (it reads version {VERSION}); \
         flockwork at commit {commit} reads version {version}"
    )]
    Retired {
        /// The file's version.
        version: u16,
        /// The last commit that reads it.
        commit: &'static str,
    },
    /// An unknown format version (written by a later build).
    #[error("proof file version {0} is unknown to this build (it reads version {VERSION})")]
    Version(u16),
    /// A header field out of range.
    #[error("invalid proof file header: {0}")]
    Header(String),
    /// Bytes after the proof.
    #[error("{0} unexpected bytes after the proof")]
    TrailingBytes(usize),
    /// The setup the header describes cannot be built.
    #[error("cannot set up the verifier: {0}")]
    Setup(String),
    /// The batch-R1CS proof does not verify for this statement.
    #[error("the proof is rejected: {0}")]
    Rejected(#[from] FlockError),
    /// The GKR proof does not verify for this statement.
    #[error("the proof is rejected: {0}")]
    GkrRejected(#[from] GkrError),
    /// A harness batcher rejects the proof for this statement (its message names the check).
    #[error("{0}")]
    BatchRejected(String),
    /// The verifier's estimated memory exceeds the limit
    /// ([`ProofFile::verify_within`](super::ProofFile::verify_within)).
    #[error(
        "the verifier would need about {} MiB, over the memory limit of {} MiB",
        estimate.div_ceil(1 << 20),
        limit >> 20
    )]
    MemoryLimit {
        /// The estimate in bytes.
        estimate: u64,
        /// The limit in bytes.
        limit: u64,
    },
}
