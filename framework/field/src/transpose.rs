//! Bit-matrix transposition: 64×64 matrices (one at a time or `W` interleaved) and 128×128
//! matrices, by recursive block swaps.
//!
//! A batch of instances is stored instance-major (one block of words per instance) or
//! bit-sliced (one word per bit position, bit `i` of it from instance `i`); these transposes
//! turn one into the other. The Boolean-circuit witness, the packed Boolean layers and the
//! ring-switching commitment (which reads a GF(2^128) element's 128 bits as 128 rows) all go
//! through them.

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
/// lane groups of a bit-sliced evaluator are transposed without gathering their words.
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
