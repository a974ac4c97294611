//! aarch64 kernels on `PMULL` (`vmull_p64`, the 64 × 64 → 128-bit carry-less product of
//! the NEON crypto extension; Rust enables it with the `aes` target feature).
//!
//! The formulas are those of the x86-64 kernels (see [`crate::arch::x86_64`]):
//! Karatsuba over 64-bit halves — `lo = a0·b0`, `hi = a1·b1`, `c = (a0 + a1)(b0 + b1)`,
//! `a·b = lo + (c + lo + hi)·x^64 + hi·x^128` — then two folds by `P = 0x87`
//! (`x^128 ≡ x^7 + x^2 + x + 1`): the top word `q3` as `(q3·P)·x^64`, then `q2` as `q2·P`.
//!
//! Entry points are `unsafe fn`s with `#[target_feature(enable = "neon,aes")]`; the
//! dispatcher in [`crate::arch`] calls them only after detecting PMULL.

use core::arch::aarch64::vmull_p64;

const P: u64 = 0x87;

/// 64 × 64 → 128-bit carry-less product.
#[target_feature(enable = "neon,aes")]
#[inline]
fn clmul64(a: u64, b: u64) -> u128 {
    vmull_p64(a, b)
}

/// Karatsuba terms `(lo, c, hi)` of `x · y`.
#[target_feature(enable = "neon,aes")]
#[inline]
fn karatsuba(x: u128, y: u128) -> (u128, u128, u128) {
    let (x0, x1) = (x as u64, (x >> 64) as u64);
    let (y0, y1) = (y as u64, (y >> 64) as u64);
    (clmul64(x0, y0), clmul64(x0 ^ x1, y0 ^ y1), clmul64(x1, y1))
}

/// Reduces `lo + m·x^64 + hi·x^128` modulo `x^128 + x^7 + x^2 + x + 1`.
#[target_feature(enable = "neon,aes")]
#[inline]
fn reduce3(lo: u128, m: u128, hi: u128) -> u128 {
    // q3 · x^192 ≡ (q3 · P) · x^64, folded into m.
    let m = m ^ clmul64((hi >> 64) as u64, P);
    // q2 = hi0 + m1; q2 · x^128 ≡ q2 · P.
    let q2 = (hi as u64) ^ ((m >> 64) as u64);
    lo ^ (m << 64) ^ clmul64(q2, P)
}

#[target_feature(enable = "neon,aes")]
#[inline]
fn mul_inner(x: u128, y: u128) -> u128 {
    let (lo, c, hi) = karatsuba(x, y);
    reduce3(lo, c ^ lo ^ hi, hi)
}

/// `x · y` in GF(2^128).
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn mul(x: u128, y: u128) -> u128 {
    mul_inner(x, y)
}

/// `x^2` in GF(2^128) (`(x0 + x1·x^64)^2 = x0^2 + x1^2·x^128`).
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn square(x: u128) -> u128 {
    let (x0, x1) = (x as u64, (x >> 64) as u64);
    reduce3(clmul64(x0, x0), 0, clmul64(x1, x1))
}

/// The unreduced carry-less product `x · y` as `(lo, hi)` halves.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn clmul128(x: u128, y: u128) -> (u128, u128) {
    let (lo, c, hi) = karatsuba(x, y);
    let m = c ^ lo ^ hi;
    (lo ^ (m << 64), hi ^ (m >> 64))
}

/// Four independent products.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn mul_x4(x: &[u128; 4], y: &[u128; 4]) -> [u128; 4] {
    [
        mul_inner(x[0], y[0]),
        mul_inner(x[1], y[1]),
        mul_inner(x[2], y[2]),
        mul_inner(x[3], y[3]),
    ]
}

/// Four independent squares.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn square_x4(x: &[u128; 4]) -> [u128; 4] {
    let sq = |v: u128| {
        let (v0, v1) = (v as u64, (v >> 64) as u64);
        reduce3(clmul64(v0, v0), 0, clmul64(v1, v1))
    };
    [sq(x[0]), sq(x[1]), sq(x[2]), sq(x[3])]
}

/// `out[i] = x[i] · y[i]`.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
pub unsafe fn mul_slices(out: &mut [u128], x: &[u128], y: &[u128]) {
    for ((o, &a), &b) in out.iter_mut().zip(x).zip(y) {
        *o = mul_inner(a, b);
    }
}

/// `v[i] = v[i] · s`.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
pub unsafe fn mul_assign_scalar(v: &mut [u128], s: u128) {
    for a in v {
        *a = mul_inner(*a, s);
    }
}

/// `acc[i] += v[i] · s`.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
pub unsafe fn add_mul_scalar(acc: &mut [u128], v: &[u128], s: u128) {
    for (o, &a) in acc.iter_mut().zip(v) {
        *o ^= mul_inner(a, s);
    }
}

/// `u[i] += s·v[i]`, then `v[i] += u[i]` (the forward NTT butterfly).
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
pub unsafe fn butterfly(u: &mut [u128], v: &mut [u128], s: u128) {
    for (a, b) in u.iter_mut().zip(v) {
        *a ^= mul_inner(*b, s);
        *b ^= *a;
    }
}

/// Two layers of forward NTT butterflies on four rows (see the portable twin), as four
/// [`butterfly`] passes.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
pub unsafe fn butterfly4(rows: [&mut [u128]; 4], t: [u128; 3]) {
    let [a, b, c, d] = rows;
    // SAFETY: the caller guarantees NEON and PMULL, which `butterfly` needs.
    unsafe {
        butterfly(a, c, t[0]);
        butterfly(b, d, t[0]);
        butterfly(a, b, t[1]);
        butterfly(c, d, t[2]);
    }
}

/// `Σ x[i] · y[i]`, Karatsuba terms accumulated unreduced and reduced once.
///
/// # Safety
/// The CPU must support NEON and PMULL.
#[target_feature(enable = "neon,aes")]
#[must_use]
pub unsafe fn dot(x: &[u128], y: &[u128]) -> u128 {
    let (mut lo, mut c, mut hi) = (0u128, 0u128, 0u128);
    for (&a, &b) in x.iter().zip(y) {
        let (l, m, h) = karatsuba(a, b);
        lo ^= l;
        c ^= m;
        hi ^= h;
    }
    reduce3(lo, c ^ lo ^ hi, hi)
}
