//! Errors of setup, proving and verification.

use flockwork_core::VerifyError;
use flockwork_pcs::SelectError;
use thiserror::Error;

/// A [`crate::Flock`] cannot be set up.
#[derive(Debug, Error)]
pub enum SetupError {
    /// The pinned challenges need 13 in-instance index bits.
    #[error("instance block has 2^{log_block} bits; the pinned zerocheck needs at least 2^13")]
    BlockTooSmall {
        /// `m0`.
        log_block: usize,
    },
    /// More instances than supported.
    #[error("2^{log_instances} instances is more than this implementation supports (2^40)")]
    TooManyInstances {
        /// `k`.
        log_instances: usize,
    },
    /// An instance count outside `1..=2^k` ([`crate::Flock::with_instances`]).
    #[error("{instances} instances do not fit a batch of 2^{log_instances} blocks (1 to 2^k)")]
    InstanceCount {
        /// The count asked for.
        instances: usize,
        /// `k`.
        log_instances: usize,
    },
    /// Below `2^k` instances the zero blocks past the last instance must be the only
    /// solution of the block's constraints with the constant wire at zero
    /// ([`crate::padding`]); this gadget leaves a committed bit free.
    #[error(
        "the gadget's constraints do not force bit {column} of a block to zero when the \
         constant wire is zero, so it cannot be padded with zero blocks; prove 2^k instances"
    )]
    PaddingNotForced {
        /// The first block position the constraints leave free.
        column: usize,
    },
    /// The PCS parameter selection failed.
    #[error("polynomial commitment parameters: {0}")]
    Pcs(SelectError),
    /// The dense commitment given to [`crate::Flock::with_pcs`] has the wrong size.
    #[error("the dense commitment has {found} variables; this batch needs {expected} (m − 7)")]
    PcsVars {
        /// `m − 7`.
        expected: usize,
        /// The commitment's variables.
        found: usize,
    },
    /// The chain regions are unusable (the message names the region and the limit).
    #[error("hash-chain layout: {0}")]
    ChainLayout(String),
    /// The Merkle regions are unusable (the message names the region and the limit).
    #[error("Merkle layout: {0}")]
    MerkleLayout(String),
    /// The gadget's IO layout does not fit the public-IO argument.
    #[error("public-IO layout: {0}")]
    PublicLayout(String),
}

/// The prover was called with inputs that do not fit the setup.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProveError {
    /// Wrong number of input words.
    #[error("expected {expected} input words ({instances} instances), got {got}")]
    InputLength {
        /// Expected words.
        expected: usize,
        /// Instances of the setup.
        instances: usize,
        /// Given words.
        got: usize,
    },
    /// The batch would not fit the configured memory limit.
    #[error(
        "proving this batch needs about {needed_mib} MiB, more than the {limit_mib} MiB limit; \
         prove fewer instances or raise the limit"
    )]
    MemoryLimit {
        /// The estimate ([`crate::Flock::estimated_prover_bytes`]), in MiB.
        needed_mib: u64,
        /// The limit, in MiB.
        limit_mib: u64,
    },
    /// The batch witness does not have the setup's shape.
    #[error("batch witness shape does not match the setup")]
    WitnessShape,
    /// The statement's kind does not match the setup (chain vs batch) or its data has the
    /// wrong length.
    #[error("statement does not match the setup: {0}")]
    Statement(&'static str),
}

/// A proof was rejected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum FlockError {
    /// Shorter than the header.
    #[error("proof is shorter than its header")]
    Truncated,
    /// Not a proof of this system.
    #[error("not a flock batch-R1CS proof (bad magic bytes)")]
    BadMagic,
    /// A version this verifier does not know (a later one).
    #[error("unknown proof version {0} (this verifier speaks version {expected})", expected = crate::PROOF_VERSION)]
    Version(u16),
    /// An earlier proof version, and the last commit whose verifier reads it
    /// ([`crate::RETIRED_VERSIONS`]).
    #[error(
        "proof version {version} is not read by this verifier (it speaks version {expected}); \
         flockwork at commit {commit} reads version {version}",
        expected = crate::PROOF_VERSION
    )]
    Retired {
        /// The proof's version.
        version: u16,
        /// The last commit that reads it.
        commit: &'static str,
    },
    /// The proof was made for another setup (circuit, batch size, IO mode, commitment or its
    /// parameters, transcript scheme): its setup digest differs.
    #[error(
        "the proof was made for another setup (circuit, batch size, IO, commitment parameters or transcript)"
    )]
    Setup,
    /// The statement does not match the setup.
    #[error("statement does not match the setup: {0}")]
    Statement(&'static str),
    /// The zerocheck failed.
    #[error("zerocheck: {0}")]
    Zerocheck(VerifyError),
    /// The lincheck failed.
    #[error("lincheck: {0}")]
    Lincheck(VerifyError),
    /// The commitment or its opening failed.
    #[error("commitment opening: {0}")]
    Opening(VerifyError),
    /// The proof carries another commitment than the committed statement's
    /// ([`Flock::verify_committed`](crate::Flock::verify_committed)).
    #[error("the proof's commitment is not the statement's")]
    Commitment,
    /// Bytes left after the proof.
    #[error("{0} trailing bytes after the proof")]
    TrailingBytes(usize),
}
