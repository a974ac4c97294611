//! Instance-major blocks and bit-sliced lane groups, converted into each other 64 blocks at a
//! time by [`transpose64_groups`].
//!
//! A batch witness stores instance `k`'s block of `words` words at `data[k·words ..]`; the
//! lane evaluator works on lane groups, where bit `i` of a lane word holds one bit of block
//! `i`. The conversions stack several 64×64 matrices per transpose so that every row read or
//! written is a run of contiguous words.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::transpose::transpose64_groups;

/// Number of 64×64 matrices [`lane_groups_of_blocks`] transposes
/// together ([`transpose64_groups`]): neighbouring words of a block, so each row of the
/// stacked matrices is one contiguous read or write of `STACK` words.
const STACK: usize = 4;

/// Number of 64×64 matrices [`blocks_of_lanes`] transposes together: eight words, so each
/// row it writes is one whole 64-byte cache line of a block (blocks lie `2^m0 / 8` bytes
/// apart, a multiple of 4 KiB, so narrower writes revisit the same few cache sets).
const OUT_STACK: usize = 8;

/// Number of the `64` blocks of word `w` of a lane group that exist, for a group whose
/// first block is `first` out of `count`.
fn live_rows(count: usize, first: usize, w: usize) -> usize {
    count.saturating_sub(first + 64 * w).min(64)
}

/// Bit-slices up to `64·W` blocks into lane groups: block `i` is
/// `data[(first + i)·words ..][..words]` for `first + i < count` (missing blocks read as
/// zero). Returns `64·words` lane groups; bit `i mod 64` of word `i / 64` of lane group
/// `64c + b` holds bit `b` of word `c` of block `i`.
pub(crate) fn lane_groups_of_blocks<const W: usize>(
    data: &[u64],
    words: usize,
    first: usize,
    count: usize,
) -> Vec<[u64; W]> {
    let mut lanes = vec![[0u64; W]; 64 * words];
    for w in 0..W {
        let start = first + 64 * w;
        let rows = live_rows(count, first, w);
        for c in (0..words).step_by(STACK) {
            let width = STACK.min(words - c);
            let mut m = [[0u64; STACK]; 64];
            for (i, row) in m.iter_mut().enumerate().take(rows) {
                let block = (start + i) * words;
                row[..width].copy_from_slice(&data[block + c..block + c + width]);
            }
            transpose64_groups(&mut m);
            for (t, chunk) in lanes[64 * c..].chunks_exact_mut(64).take(width).enumerate() {
                for (lane, row) in chunk.iter_mut().zip(&m) {
                    lane[w] = row[t];
                }
            }
        }
    }
    lanes
}

/// Bit-slices the blocks `first..min(first + 64, count)` of `data` (`words` words each; block
/// `i` at `data[i·words ..]`): `64·words` lane words, bit `i` of lane `p` being bit `p` of
/// block `first + i` (zero past the last block).
#[must_use]
pub fn lanes_of_blocks(data: &[u64], words: usize, first: usize, count: usize) -> Vec<u64> {
    lane_groups_of_blocks::<1>(data, words, first, count)
        .into_iter()
        .map(|[w]| w)
        .collect()
}

/// The inverse of [`lane_groups_of_blocks`]: writes the first `live` blocks of `words`
/// words each into `out` (block `i` at `out[i·words ..]`) from lane groups. Lane groups past
/// the end of `lanes` are zero; the corresponding words of `out` are left untouched (callers
/// pass a zeroed `out`).
pub(crate) fn blocks_of_lanes<const W: usize>(
    lanes: &[[u64; W]],
    words: usize,
    live: usize,
    out: &mut [u64],
) {
    let used = lanes.len().div_ceil(64).min(words);
    for w in 0..W {
        let rows = live_rows(live, 0, w);
        for c in (0..used).step_by(OUT_STACK) {
            let width = OUT_STACK.min(used - c);
            let mut m = [[0u64; OUT_STACK]; 64];
            for (t, chunk) in lanes[64 * c..].chunks(64).take(width).enumerate() {
                for (row, lane) in m.iter_mut().zip(chunk) {
                    row[t] = lane[w];
                }
            }
            transpose64_groups(&mut m);
            let blocks = out.chunks_mut(words).skip(64 * w).take(rows);
            if width == OUT_STACK {
                // A whole cache line per block row: a fixed-size store, not a `memcpy` call.
                for (block, row) in blocks.zip(&m) {
                    let line: &mut [u64; OUT_STACK] = (&mut block[c..c + OUT_STACK])
                        .try_into()
                        .expect("OUT_STACK words");
                    *line = *row;
                }
            } else {
                for (block, row) in blocks.zip(&m) {
                    block[c..c + width].copy_from_slice(&row[..width]);
                }
            }
        }
    }
}
