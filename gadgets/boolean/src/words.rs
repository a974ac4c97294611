//! Packing 32-bit words into the little-endian `u64` words of input/output vectors.

/// Packs `2N` 32-bit words into `N` `u64` words (word `2j` in the low half of word `j`).
///
/// # Panics
/// If `words.len() != 2N`.
#[must_use]
pub fn join_u32<const N: usize>(words: &[u32]) -> [u64; N] {
    assert_eq!(words.len(), 2 * N, "need {} words", 2 * N);
    core::array::from_fn(|j| u64::from(words[2 * j]) | (u64::from(words[2 * j + 1]) << 32))
}

/// The inverse of [`join_u32`]: the first `M` 32-bit words of `words`.
///
/// # Panics
/// If `words` holds fewer than `M` 32-bit words.
#[must_use]
pub fn split_u32<const M: usize>(words: &[u64]) -> [u32; M] {
    assert!(2 * words.len() >= M, "need {M} 32-bit words");
    core::array::from_fn(|i| (words[i / 2] >> (32 * (i % 2))) as u32)
}
