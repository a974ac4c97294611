//! The verification error of flockwork-core.

use flockwork_transcript::TranscriptError;
use thiserror::Error;

/// Why a proof was rejected. Verifiers return it for every malformed or false proof and never
/// panic, whatever bytes they are given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// Reading the proof failed (truncated, non-canonical, trailing bytes, bad proof of work).
    #[error("transcript: {0}")]
    Transcript(#[from] TranscriptError),
    /// A sumcheck needs degree at least 1 (one multilinear factor).
    #[error("sumcheck degree must be at least 1")]
    ZeroDegree,
    /// The eq point has the wrong number of coordinates.
    #[error("eq point has {got} coordinates, expected {expected}")]
    EqPointLength {
        /// The number of sumcheck variables.
        expected: usize,
        /// The number of coordinates supplied.
        got: usize,
    },
    /// A round message has the wrong number of values.
    #[error("round {round}: message has {got} values, expected {expected}")]
    MessageLength {
        /// The round (0-based).
        round: usize,
        /// The degree of the sumcheck.
        expected: usize,
        /// The values supplied.
        got: usize,
    },
    /// `1 − r_i = 0` for the eq coordinate of this round, so `G(0)` cannot be recovered from
    /// the claim (happens with probability `1/|F|` per coordinate for random `r`).
    #[error("round {round}: eq coordinate r_i = 1 makes the round claim degenerate")]
    DegenerateEqPoint {
        /// The round (0-based).
        round: usize,
    },
    /// The number of final evaluations differs from the degree.
    #[error("{got} final evaluations, expected {expected}")]
    FinalEvalCount {
        /// The degree of the sumcheck.
        expected: usize,
        /// The evaluations supplied.
        got: usize,
    },
    /// The product of the final evaluations differs from the reduced sumcheck claim.
    #[error("final evaluations do not match the reduced sumcheck claim")]
    FinalClaimMismatch,
}
