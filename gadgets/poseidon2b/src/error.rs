//! The crate's one error type.

/// Everything that can go wrong when choosing an instance or passing a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Poseidon2bError {
    /// No Poseidon2b instance of this width is defined here (`t = 4` and `t = 6` are).
    #[error("unsupported width t = {t}: Poseidon2b is defined here for t = 4 and t = 6")]
    UnsupportedWidth {
        /// The rejected width.
        t: usize,
    },
    /// A state (or a batch of states) has the wrong length.
    #[error("wrong state length: expected {expected}, got {actual}")]
    WrongLength {
        /// The expected length (for a batch, the next multiple of the width).
        expected: usize,
        /// The given length.
        actual: usize,
    },
    /// A round-constant table has the wrong number of entries.
    #[error("expected {expected} round constants (66·t), got {actual}")]
    ConstantCount {
        /// `66 · t`.
        expected: usize,
        /// The given number.
        actual: usize,
    },
}
