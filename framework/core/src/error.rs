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
    /// A commitment opening was asked to verify no claims.
    #[error("no claims to verify")]
    NoClaims,
    /// A claim's weight has the wrong number of variables (or a malformed table).
    #[error("claim weight has {got} variables, expected {expected}")]
    ClaimNumVars {
        /// The committed polynomial's number of variables.
        expected: usize,
        /// The weight's number of variables (`usize::MAX` for a malformed table).
        got: usize,
    },
    /// A commitment has the wrong length or encoding.
    #[error("malformed commitment")]
    MalformedCommitment,
    /// A Merkle multi-opening does not authenticate the opened leaves against the root.
    #[error("Merkle authentication failed")]
    MerklePath,
    /// An opened codeword row is inconsistent with the next level's claim (proximity test).
    #[error("level {level}: opened row {row} is inconsistent with the folded message")]
    RowCheck {
        /// The commitment level.
        level: usize,
        /// The codeword row (leaf index).
        row: usize,
    },
    /// The final check of a commitment opening failed (the claims are false).
    #[error("final opening check failed")]
    OpeningMismatch,
    /// The commitment scheme does not support this kind of claim weight.
    #[error("claim {claim}: weight kind not supported by this commitment")]
    UnsupportedClaim {
        /// Index of the claim in the batch.
        claim: usize,
    },
    /// A ring-switching claim's partial evaluations do not match the claimed value.
    #[error("ring-switching: partial evaluations do not match claim {claim}")]
    RingSwitchMismatch {
        /// Index of the claim in the batch.
        claim: usize,
    },
}
