//! 64×64 bit-matrix transposition: between instance-major blocks and bit-sliced lanes.

use alloc::vec;
use alloc::vec::Vec;

/// Transposes a 64×64 bit matrix in place: bit `c` of `m[r]` becomes bit `r` of `m[c]`.
///
/// Six rounds of masked swaps (recursive block transposition, Warren, *Hacker's Delight*,
/// 2nd ed., §7-3): round `j = 32, 16, …, 1` swaps the upper-right and lower-left `j×j`
/// sub-blocks of every `2j×2j` block, 192 word operations per round. This is the `W = 1`
/// case of `transpose64_groups`.
pub fn transpose64(m: &mut [u64; 64]) {
    let mut g = m.map(|row| [row]);
    transpose64_groups(&mut g);
    *m = g.map(|[row]| row);
}

/// Transposes `W` interleaved 64×64 bit matrices in place: bit `c` of `m[r][w]` becomes bit
/// `r` of `m[c][w]`.
///
/// The `W` matrices go through the rounds of [`transpose64`] in lock step, so every word
/// operation is applied to `W` independent words at once: the compiler vectorizes all six
/// rounds across `w` (including the last, whose swap partners are adjacent rows), and the
/// lane groups of [`super::LaneEvaluator`] are transposed without gathering their words.
/// The rounds are fused in pairs (`32, 16`, `8, 4`, `2, 1`), which halves the loads and
/// stores.
pub fn transpose64_groups<const W: usize>(m: &mut [[u64; W]; 64]) {
    swap_round_pair::<32, W>(m, 0x0000_0000_FFFF_FFFF, 0x0000_FFFF_0000_FFFF);
    swap_round_pair::<8, W>(m, 0x00FF_00FF_00FF_00FF, 0x0F0F_0F0F_0F0F_0F0F);
    swap_round_pair::<2, W>(m, 0x3333_3333_3333_3333, 0x5555_5555_5555_5555);
}

/// Transposes a 128×128 bit matrix in place: bit `c` of `m[r]` becomes bit `r` of `m[c]`.
///
/// In 64×64 quadrants, `[[A, B], [C, D]]` (`A` the low halves of rows `0..64`, `C` those of
/// rows `64..128`) transposes to `[[Aᵀ, Cᵀ], [Bᵀ, Dᵀ]]`, so the four quadrants go through
/// [`transpose64_groups`] together (`W = 4`: every round is a vector operation on four
/// words) instead of seven rounds of 128-bit shifts, each several instructions.
pub fn transpose128(m: &mut [u128; 128]) {
    let mut g = [[0u64; 4]; 64];
    let (top, bottom) = m.split_at(64);
    for ((q, &x), &y) in g.iter_mut().zip(top).zip(bottom) {
        *q = [x as u64, (x >> 64) as u64, y as u64, (y >> 64) as u64];
    }
    transpose64_groups(&mut g);
    let (top, bottom) = m.split_at_mut(64);
    for ((q, x), y) in g.iter().zip(top).zip(bottom) {
        *x = u128::from(q[0]) | (u128::from(q[2]) << 64);
        *y = u128::from(q[1]) | (u128::from(q[3]) << 64);
    }
}

/// Rounds `J` and `J/2` of [`transpose64_groups`] (`J` a constant, so fully unrolled).
///
/// Round `j` swaps bits `j..2j` (mod `2j`) of row `r` with bits `0..j` of row `r + j`, for
/// every `r` with `r mod 2j < j`. Within every `2J`-row block, both rounds only mix the
/// rows `q, q + J/2, q + J, q + 3J/2` for `q < J/2`, so each such quadruple is loaded
/// once, goes through both rounds in registers and is stored once.
#[inline(always)]
fn swap_round_pair<const J: usize, const W: usize>(
    m: &mut [[u64; W]; 64],
    mask: u64,
    half_mask: u64,
) {
    let h = J / 2;
    for block in m.chunks_exact_mut(2 * J) {
        let (lo, hi) = block.split_at_mut(J);
        let (l0, l1) = lo.split_at_mut(h);
        let (h0, h1) = hi.split_at_mut(h);
        for (((a, b), c), d) in l0.iter_mut().zip(l1).zip(h0).zip(h1) {
            for w in 0..W {
                let (mut x0, mut x1, mut x2, mut x3) = (a[w], b[w], c[w], d[w]);
                delta_swap(&mut x0, &mut x2, J, mask);
                delta_swap(&mut x1, &mut x3, J, mask);
                delta_swap(&mut x0, &mut x1, h, half_mask);
                delta_swap(&mut x2, &mut x3, h, half_mask);
                (a[w], b[w], c[w], d[w]) = (x0, x1, x2, x3);
            }
        }
    }
}

/// Swaps the bits `j..2j` (mod `2j`, selected by `mask` shifted up by `j`) of `a` with the
/// bits `0..j` (selected by `mask`) of `b`.
#[inline(always)]
fn delta_swap(a: &mut u64, b: &mut u64, j: usize, mask: u64) {
    let t = ((*a >> j) ^ *b) & mask;
    *b ^= t;
    *a ^= t << j;
}

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

/// [`lane_groups_of_blocks`] for up to 64 blocks, one `u64` lane word per bit.
pub(crate) fn lanes_of_blocks(data: &[u64], words: usize, first: usize, count: usize) -> Vec<u64> {
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
