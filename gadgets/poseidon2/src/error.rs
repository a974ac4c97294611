//! The crate's one error type.

/// Everything that can go wrong when configuring an instance or hashing bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Poseidon2Error {
    /// The width has no Poseidon2 external matrix (the reference supports `t = 2, 3` and
    /// multiples of 4).
    #[error(
        "unsupported width t = {t}: Poseidon2 needs t = 2, 3 or a multiple of 4 (Plonky3 convention: a multiple of 4)"
    )]
    UnsupportedWidth {
        /// The rejected width.
        t: usize,
    },
    /// The S-box `x^d` is not a permutation of the field (`d < 3` or `gcd(d, p − 1) ≠ 1`).
    #[error("x^{d} is not a permutation of this field (need d >= 3 and gcd(d, p - 1) = 1)")]
    InvalidSboxDegree {
        /// The rejected degree.
        d: u64,
    },
    /// `R_F` must be even (two equal halves of full rounds).
    #[error("the number of full rounds must be even, got R_F = {rf}")]
    OddFullRounds {
        /// The rejected `R_F`.
        rf: usize,
    },
    /// A constant table has the wrong number of entries.
    #[error("{table}: expected {expected} constants, got {actual}")]
    ConstantCount {
        /// Which table (`"full_begin"`, `"partial"`, `"full_end"`, `"diag_m1"`).
        table: &'static str,
        /// The count the parameters require.
        expected: usize,
        /// The count supplied.
        actual: usize,
    },
    /// For `t = 2, 3` the internal matrix is fixed (`diag − 1 = (1, 2)` / `(1, 1, 2)`).
    #[error("for t = {t} the internal matrix is fixed; the supplied diagonal differs")]
    FixedInternalMatrix {
        /// The width.
        t: usize,
    },
    /// A const-generic instance was built from parameters of another shape.
    #[error(
        "shape mismatch: the type expects (t, R_F, R_P) = {expected:?}, the parameters have {actual:?}"
    )]
    ShapeMismatch {
        /// `(t, R_F, R_P)` of the type.
        expected: (usize, usize, usize),
        /// `(t, R_F, R_P)` of the parameters.
        actual: (usize, usize, usize),
    },
    /// The sponge rate must satisfy `1 <= rate < t` (at least one capacity element).
    #[error("invalid rate {rate} for width t = {t}: need 1 <= rate < t")]
    InvalidRate {
        /// The rejected rate.
        rate: usize,
        /// The permutation width.
        t: usize,
    },
    /// A byte-encoded field element has the wrong length.
    #[error("input {index}: a field element takes {expected} bytes, got {actual}")]
    WrongLength {
        /// Position of the element in the input.
        index: usize,
        /// `NUM_BYTES` of the field.
        expected: usize,
        /// Length supplied.
        actual: usize,
    },
    /// A byte-encoded field element is not canonical (its integer is `>= p`).
    #[error("input {index}: not a canonical field element (integer >= modulus)")]
    NonCanonical {
        /// Position of the element in the input.
        index: usize,
    },
}
