//! 64×64 bit-matrix transposition: between instance-major blocks and bit-sliced lanes.

use alloc::vec;
use alloc::vec::Vec;

/// Transposes a 64×64 bit matrix in place: bit `c` of `m[r]` becomes bit `r` of `m[c]`.
///
/// Six rounds of masked swaps (recursive block transposition, Warren, *Hacker's Delight*,
/// 2nd ed., §7-3): round `j = 32, 16, …, 1` swaps the upper-right and lower-left `j×j`
/// sub-blocks of every `2j×2j` block, 192 word operations per round.
pub fn transpose64(m: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        for block in m.chunks_exact_mut(2 * j) {
            let (lo, hi) = block.split_at_mut(j);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = ((*a >> j) ^ *b) & mask;
                *b ^= t;
                *a ^= t << j;
            }
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// Bit-slices up to 64 blocks: block `i` is `data[(first + i)·words ..][..words]` for
/// `first + i < count` (missing blocks read as zero). Returns `64·words` lane words; lane word
/// `64c + b` holds bit `b` of word `c` of block `i` in bit `i`.
pub(crate) fn lanes_of_blocks(data: &[u64], words: usize, first: usize, count: usize) -> Vec<u64> {
    let mut lanes = vec![0u64; 64 * words];
    let live = count.saturating_sub(first).min(64);
    for (c, chunk) in lanes.chunks_exact_mut(64).enumerate() {
        let mut m = [0u64; 64];
        for (i, row) in m.iter_mut().enumerate().take(live) {
            *row = data[(first + i) * words + c];
        }
        transpose64(&mut m);
        chunk.copy_from_slice(&m);
    }
    lanes
}

/// The inverse of [`lanes_of_blocks`]: writes the first `live` blocks of `words` words each
/// into `out` (block `i` at `out[i·words ..]`) from lane words. Lane words past the end of
/// `lanes` are zero; the corresponding words of `out` are left untouched (callers pass a
/// zeroed `out`).
pub(crate) fn blocks_of_lanes(lanes: &[u64], words: usize, live: usize, out: &mut [u64]) {
    for (c, chunk) in lanes.chunks(64).enumerate().take(words) {
        let mut m = [0u64; 64];
        m[..chunk.len()].copy_from_slice(chunk);
        transpose64(&mut m);
        for (i, &w) in m.iter().enumerate().take(live) {
            out[i * words + c] = w;
        }
    }
}
