//! Portable carry-less arithmetic (no SIMD), the reference twin of every SIMD kernel.
//!
//! `clmul64` uses the "integer multiplication with holes" technique: the operands are split
//! into four interleaved bit classes (bits ≡ k mod 4), so that in each integer product the
//! carries of at most 8 partial products per nibble stay inside the 3 spare bits of the
//! nibble and can be masked away. 32 × 32-bit operands keep the count of partial products per
//! output bit at most 8 < 16, so the masking is exact.

/// Carry-less product of two 32-bit polynomials (63-bit result).
#[inline]
fn clmul32(x: u32, y: u32) -> u64 {
    const M: [u64; 4] = [
        0x1111_1111_1111_1111,
        0x2222_2222_2222_2222,
        0x4444_4444_4444_4444,
        0x8888_8888_8888_8888,
    ];
    let (x, y) = (u64::from(x), u64::from(y));
    let xs = [x & M[0], x & M[1], x & M[2], x & M[3]];
    let ys = [y & M[0], y & M[1], y & M[2], y & M[3]];
    let mut z = 0u64;
    for k in 0..4 {
        // Bits of class k in the product come from x-class i and y-class j with i + j ≡ k.
        let mut acc = 0u64;
        for i in 0..4 {
            acc ^= xs[i].wrapping_mul(ys[(k + 4 - i) % 4]);
        }
        z |= acc & M[k];
    }
    z
}

/// Carry-less product of two 64-bit polynomials (127-bit result), Karatsuba over 32-bit halves.
#[inline]
#[must_use]
pub fn clmul64(x: u64, y: u64) -> u128 {
    let (x0, x1) = (x as u32, (x >> 32) as u32);
    let (y0, y1) = (y as u32, (y >> 32) as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    u128::from(lo) ^ (u128::from(mid) << 32) ^ (u128::from(hi) << 64)
}

/// Carry-less product of two 128-bit polynomials as `(lo, hi)` 128-bit halves of the
/// 255-bit result (Karatsuba over 64-bit halves).
#[inline]
#[must_use]
pub fn clmul128(x: u128, y: u128) -> (u128, u128) {
    let (x0, x1) = (x as u64, (x >> 64) as u64);
    let (y0, y1) = (y as u64, (y >> 64) as u64);
    let lo = clmul64(x0, y0);
    let hi = clmul64(x1, y1);
    let mid = clmul64(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// Reduces the 256-bit polynomial `lo + hi·x^128` modulo `x^128 + x^7 + x^2 + x + 1`.
///
/// Since `x^128 ≡ x^7 + x^2 + x + 1`, `hi·x^128 ≡ hi·(x^7 + x^2 + x + 1)`; the at most 7 bits
/// that overflow past `x^127` are folded a second time.
#[inline]
#[must_use]
pub fn reduce(lo: u128, hi: u128) -> u128 {
    let overflow = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    let folded = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    lo ^ folded ^ overflow ^ (overflow << 1) ^ (overflow << 2) ^ (overflow << 7)
}

/// `x · y` in GF(2^128) (GHASH polynomial, non-reflected).
#[inline]
#[must_use]
pub fn mul(x: u128, y: u128) -> u128 {
    let (lo, hi) = clmul128(x, y);
    reduce(lo, hi)
}

/// `x^2` in GF(2^128): squaring is F2-linear, it spreads the bits of `x` to even positions.
#[inline]
#[must_use]
pub fn square(x: u128) -> u128 {
    let spread = |v: u64| -> u128 {
        let mut v = u128::from(v);
        v = (v | (v << 32)) & 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333_3333_3333_3333_3333;
        (v | (v << 1)) & 0x5555_5555_5555_5555_5555_5555_5555_5555
    };
    reduce(spread(x as u64), spread((x >> 64) as u64))
}

/// Four independent products (the portable packed kernel).
#[must_use]
pub fn mul_x4(x: &[u128; 4], y: &[u128; 4]) -> [u128; 4] {
    core::array::from_fn(|i| mul(x[i], y[i]))
}

/// Four independent squares.
#[must_use]
pub fn square_x4(x: &[u128; 4]) -> [u128; 4] {
    x.map(square)
}

/// `out[i] = x[i] · y[i]`; the caller checks that the lengths agree.
pub fn mul_slices(out: &mut [u128], x: &[u128], y: &[u128]) {
    for ((o, &a), &b) in out.iter_mut().zip(x).zip(y) {
        *o = mul(a, b);
    }
}

/// `v[i] = v[i] · s`.
pub fn mul_assign_scalar(v: &mut [u128], s: u128) {
    for a in v {
        *a = mul(*a, s);
    }
}

/// `acc[i] += v[i] · s`.
pub fn add_mul_scalar(acc: &mut [u128], v: &[u128], s: u128) {
    for (o, &a) in acc.iter_mut().zip(v) {
        *o ^= mul(a, s);
    }
}

/// `u[i] += s·v[i]`, then `v[i] += u[i]` (the forward NTT butterfly).
pub fn butterfly(u: &mut [u128], v: &mut [u128], s: u128) {
    for (a, b) in u.iter_mut().zip(v) {
        *a ^= mul(*b, s);
        *b ^= *a;
    }
}

/// Two layers of forward NTT butterflies on four rows: `(a, c)` and `(b, d)` with `t[0]`,
/// then `(a, b)` with `t[1]` and `(c, d)` with `t[2]`.
pub fn butterfly4(rows: [&mut [u128]; 4], t: [u128; 3]) {
    let [a, b, c, d] = rows;
    butterfly(a, c, t[0]);
    butterfly(b, d, t[0]);
    butterfly(a, b, t[1]);
    butterfly(c, d, t[2]);
}

/// `Σ x[i] · y[i]`, accumulating the unreduced 255-bit products and reducing once (the
/// reduction is F2-linear, so it commutes with the sum).
#[must_use]
pub fn dot(x: &[u128], y: &[u128]) -> u128 {
    let (lo, hi) = x.iter().zip(y).fold((0u128, 0u128), |(lo, hi), (&a, &b)| {
        let (l, h) = clmul128(a, b);
        (lo ^ l, hi ^ h)
    });
    reduce(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook shift-and-add, the simplest possible oracle.
    fn clmul64_naive(x: u64, y: u64) -> u128 {
        (0..64)
            .filter(|i| (y >> i) & 1 == 1)
            .fold(0u128, |acc, i| acc ^ (u128::from(x) << i))
    }

    #[test]
    fn clmul64_matches_schoolbook() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..10_000 {
            let (x, y) = (next(), next());
            assert_eq!(clmul64(x, y), clmul64_naive(x, y));
        }
        for (x, y) in [
            (u64::MAX, u64::MAX),
            (0, u64::MAX),
            (1 << 63, 1 << 63),
            (1, 1),
        ] {
            assert_eq!(clmul64(x, y), clmul64_naive(x, y));
        }
    }

    #[test]
    fn reduction_of_x128() {
        // x^128 = x^7 + x^2 + x + 1.
        assert_eq!(reduce(0, 1), 0x87);
        // x^255 = x^127 · x^128 = x^134 + x^129 + x^128 + x^127, reduced again.
        let x127 = 1u128 << 127;
        assert_eq!(mul(x127, x127), square(x127));
        assert_eq!(mul(2, x127), 0x87);
    }
}
