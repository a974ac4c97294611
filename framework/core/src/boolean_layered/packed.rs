//! Bit-sliced words and the conversions between instance-major words and packed blocks.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::ops::{BitAnd, BitXor, BitXorAssign};

use flockwork_field::par::for_each_init;
use flockwork_field::transpose::transpose64;

/// A word of bit-sliced instances: bit `t` is one state bit of instance `t` of a block of
/// [`PackedBits::INSTANCES`] instances, so XOR and AND act on the whole block.
pub trait PackedBits:
    Copy
    + Debug
    + Eq
    + Send
    + Sync
    + BitXor<Output = Self>
    + BitAnd<Output = Self>
    + BitXorAssign
    + 'static
{
    /// No instance set.
    const ZERO: Self;
    /// Every instance set.
    const ONES: Self;
    /// `u64` words per value (`INSTANCES / 64`).
    const WORDS: usize;
    /// Instances per value.
    const INSTANCES: usize = 64 * Self::WORDS;

    /// Word `index` (instances `64·index ..`).
    fn word(self, index: usize) -> u64;

    /// Sets word `index`.
    fn set_word(&mut self, index: usize, word: u64);
}

impl PackedBits for u64 {
    const ZERO: Self = 0;
    const ONES: Self = !0;
    const WORDS: usize = 1;

    fn word(self, index: usize) -> u64 {
        debug_assert_eq!(index, 0);
        self
    }

    fn set_word(&mut self, index: usize, word: u64) {
        debug_assert_eq!(index, 0);
        *self = word;
    }
}

impl PackedBits for u128 {
    const ZERO: Self = 0;
    const ONES: Self = !0;
    const WORDS: usize = 2;

    fn word(self, index: usize) -> u64 {
        (self >> (64 * index)) as u64
    }

    fn set_word(&mut self, index: usize, word: u64) {
        let shift = 64 * index;
        *self = (*self & !(u128::from(u64::MAX) << shift)) | (u128::from(word) << shift);
    }
}

/// Bit-slices `count` instances of `width` bits into blocks of [`PackedBits::INSTANCES`]:
/// instance `k`'s bit `i` is bit `i mod 64` of `data[k·⌈width/64⌉ + i/64]` (bits of the last
/// word past `width` are ignored), and it becomes bit `k mod INSTANCES` of word `i` of block
/// `k / INSTANCES` (block-major, `width` words per block). Missing instances of the last
/// block are zero.
///
/// # Panics
/// If `data` has fewer than `count · ⌈width/64⌉` words.
#[must_use]
pub fn pack_instances<T: PackedBits>(width: usize, data: &[u64], count: usize) -> Vec<T> {
    let words = width.div_ceil(64);
    assert!(data.len() >= count * words, "too few input words");
    let blocks = count.div_ceil(T::INSTANCES);
    let mut out = vec![T::ZERO; blocks * width];
    if width == 0 {
        return out;
    }
    let items: Vec<_> = out.chunks_exact_mut(width).enumerate().collect();
    for_each_init(
        items,
        || (),
        |(), (block, packed)| {
            for part in 0..T::WORDS {
                let first = block * T::INSTANCES + 64 * part;
                let rows = count.saturating_sub(first).min(64);
                for column in 0..words {
                    let mut m = [0u64; 64];
                    for (r, row) in m.iter_mut().enumerate().take(rows) {
                        *row = data[(first + r) * words + column];
                    }
                    transpose64(&mut m);
                    let bits = packed.iter_mut().skip(64 * column).take(64);
                    for (value, &word) in bits.zip(&m) {
                        value.set_word(part, word);
                    }
                }
            }
        },
    );
    out
}

/// The inverse of [`pack_instances`]: the first `count` instances of packed blocks of
/// `width` words, as `⌈width/64⌉` `u64` words per instance (bits past `width` zero).
///
/// # Panics
/// If `packed` has fewer than `⌈count / INSTANCES⌉` blocks.
#[must_use]
pub fn unpack_instances<T: PackedBits>(width: usize, packed: &[T], count: usize) -> Vec<u64> {
    let words = width.div_ceil(64);
    let blocks = count.div_ceil(T::INSTANCES);
    assert!(packed.len() >= blocks * width, "too few packed blocks");
    let mut out = vec![0u64; count * words];
    if words == 0 {
        return out;
    }
    let items: Vec<_> = out
        .chunks_mut(T::INSTANCES * words)
        .zip(packed.chunks_exact(width))
        .collect();
    for_each_init(
        items,
        || (),
        |(), (instances, block)| {
            for (part, group) in instances.chunks_mut(64 * words).enumerate() {
                for column in 0..words {
                    let mut m = [0u64; 64];
                    for (row, value) in m.iter_mut().zip(block.iter().skip(64 * column)) {
                        *row = value.word(part);
                    }
                    transpose64(&mut m);
                    for (instance, &word) in group.chunks_exact_mut(words).zip(&m) {
                        instance[column] = word;
                    }
                }
            }
        },
    );
    out
}

/// The bits of one instance's words (`width` bits, bit `i` from bit `i mod 64` of word
/// `i / 64`).
///
/// # Panics
/// If `words` has fewer than `⌈width/64⌉` words.
#[must_use]
pub fn bits_of_words(width: usize, words: &[u64]) -> Vec<bool> {
    (0..width)
        .map(|i| words[i / 64] >> (i % 64) & 1 == 1)
        .collect()
}

/// The words of one instance's bits (the inverse of [`bits_of_words`]).
#[must_use]
pub fn words_of_bits(bits: &[bool]) -> Vec<u64> {
    let mut words = vec![0u64; bits.len().div_ceil(64)];
    for (i, &b) in bits.iter().enumerate() {
        words[i / 64] |= u64::from(b) << (i % 64);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u128_words_round_trip() {
        let mut x = 0u128;
        x.set_word(1, 0xdead);
        x.set_word(0, 7);
        assert_eq!((x.word(0), x.word(1)), (7, 0xdead));
        x.set_word(1, 1);
        assert_eq!(x, (1u128 << 64) | 7);
    }
}
