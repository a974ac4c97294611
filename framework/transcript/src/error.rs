//! The error type of transcript reads and proof-of-work checks.

use thiserror::Error;

/// Why a transcript operation failed.
///
/// Verifier-side reads return it for malformed proofs (truncated, non-canonical, trailing
/// bytes, bad proof of work); the prover only sees [`TranscriptError::TooManyBits`] and, in
/// theory, [`TranscriptError::GrindingFailed`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TranscriptError {
    /// The proof ended before a read of `expected` bytes; only `remaining` bytes were left.
    #[error("proof truncated: a read needs {expected} bytes but only {remaining} remain")]
    Truncated {
        /// Bytes the read needed (saturated at `usize::MAX` when the size overflows).
        expected: usize,
        /// Bytes left in the proof.
        remaining: usize,
    },
    /// Field element number `index` of a read is not a canonical encoding.
    #[error("field element {index} of the read is not canonically encoded")]
    NonCanonical {
        /// Position of the offending element within the read.
        index: usize,
    },
    /// [`finish`](crate::VerifierTranscript::finish) found unread bytes at the end of the proof.
    #[error("{remaining} trailing bytes after the end of the proof")]
    TrailingBytes {
        /// Number of unread bytes.
        remaining: usize,
    },
    /// The proof-of-work nonce does not give `bits` leading zero bits (verifier), or no
    /// nonce was found (prover, after exhausting all 2^64 nonces).
    #[error("proof-of-work check of {bits} bits failed")]
    GrindingFailed {
        /// The required number of leading zero bits.
        bits: u32,
    },
    /// A proof of work of more than `max` bits was requested.
    #[error("proof-of-work of {bits} bits requested, at most {max} are supported")]
    TooManyBits {
        /// The requested number of bits.
        bits: u32,
        /// The largest supported number of bits ([`MAX_GRIND_BITS`](crate::MAX_GRIND_BITS)).
        max: u32,
    },
}
