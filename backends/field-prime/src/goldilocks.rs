//! The Goldilocks field GF(p), p = 2^64 − 2^32 + 1, on plain `u64` arithmetic.
//!
//! ## Representation invariant
//!
//! A [`Goldilocks`] always holds the **canonical** representative `v ∈ [0, p)`. Every
//! constructor and operation restores this before returning, so equality, hashing and the
//! byte encoding can use the `u64` directly.
//!
//! ## Special-form reduction
//!
//! Write `ε = 2^32 − 1`. Because `p = 2^64 − ε`,
//!
//! * `2^64 ≡ ε (mod p)`, and
//! * `2^96 = 2^32 · 2^64 ≡ 2^32 · ε = 2^64 − 2^32 ≡ ε − 2^32 = −1 (mod p)`.
//!
//! A 128-bit product `x = x_lo + 2^64 · x_mid + 2^96 · x_top` (`x_lo` 64 bits, `x_mid` and
//! `x_top` 32 bits each) therefore satisfies
//!
//! ```text
//! x ≡ x_lo − x_top + ε · x_mid   (mod p).
//! ```
//!
//! [`reduce128`] evaluates this with one 32 × 32-bit multiplication (`ε · x_mid < 2^64`), a
//! subtraction whose borrow is fixed by subtracting `ε` (`−2^64 ≡ −ε`), an addition whose
//! carry is fixed by adding `ε`, and one final conditional subtraction of p. Likewise
//! `2^128 = (2^64)^2 ≡ ε^2 = 2^64 − 2^33 + 1 ≡ −2^32`, which reduces the 192-bit integers of
//! [`Field::from_uniform_bytes`].
//!
//! Addition and subtraction need a single correction each: `a + b < 2p`, and a carry out of
//! 64 bits is folded in as `+ε`; `a − b > −p`, and a borrow is fixed by adding p.
//!
//! ## Roots of unity
//!
//! `p − 1 = 2^32 · 3 · 5 · 17 · 257 · 65537` and 7 generates the whole multiplicative group,
//! so `7^((p − 1) / 2^32) = 7^(2^32 − 1)` is a primitive `2^32`-th root of unity (the same
//! root ark-ff derives for [`crate::GoldilocksArk`]). All powers-of-two roots are computed at
//! compile time.

use core::fmt;
use core::ops::{Add, Mul, Neg, Sub};

use flockwork_field::{Field, PrimeField, derive_field_ops, impl_scalar_packed};

/// The modulus p = 2^64 − 2^32 + 1.
const P: u64 = 0xFFFF_FFFF_0000_0001;

/// ε = 2^64 mod p = 2^32 − 1.
const EPSILON: u64 = 0xFFFF_FFFF;

/// Two-adicity of p − 1.
const TWO_ADICITY: u32 = 32;

/// An element of the Goldilocks field GF(2^64 − 2^32 + 1).
///
/// Invariant: the inner `u64` is the canonical representative, always `< p`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Goldilocks(u64);

impl Goldilocks {
    /// The modulus p = 2^64 − 2^32 + 1 = 18446744069414584321.
    pub const MODULUS: u64 = P;

    /// 7, a generator of the multiplicative group (of order p − 1).
    pub const MULTIPLICATIVE_GENERATOR: Self = Self(7);

    /// `7^(2^32 − 1)`, a primitive `2^32`-th root of unity.
    pub const TWO_ADIC_ROOT_OF_UNITY: Self = Self(pow(7, (P - 1) >> TWO_ADICITY));

    /// `ROOTS[k]` is a primitive `2^k`-th root of unity, `ROOTS[k] = ROOTS[k + 1]^2`.
    const ROOTS: [Self; TWO_ADICITY as usize + 1] = two_adic_roots();

    /// The element `v` if `v < p` (canonical), else `None`.
    #[inline]
    #[must_use]
    pub const fn new(v: u64) -> Option<Self> {
        if v < P { Some(Self(v)) } else { None }
    }

    /// `v mod p` for any `u64` (`v < 2^64 < 2p`, so at most one subtraction).
    #[inline(always)]
    #[must_use]
    pub const fn from_u64_reduced(v: u64) -> Self {
        Self(if v >= P { v - P } else { v })
    }

    /// The canonical representative in `[0, p)`.
    #[inline(always)]
    #[must_use]
    pub const fn to_u64(self) -> u64 {
        self.0
    }

    /// `x mod p` for a 128-bit integer, by the special-form reduction (module docs).
    #[inline(always)]
    #[must_use]
    pub const fn from_u128_reduced(x: u128) -> Self {
        Self(reduce128(x))
    }

    /// `self^(2^k)`: `k` squarings.
    #[inline]
    #[must_use]
    pub const fn square_n(self, k: u32) -> Self {
        let mut x = self.0;
        let mut i = 0;
        while i < k {
            x = mul(x, x);
            i += 1;
        }
        Self(x)
    }

    /// `self^(p − 2)`, the inverse for nonzero `self` and zero for zero (Fermat).
    ///
    /// `p − 2 = 2^64 − 2^32 − 1 = (2^31 − 1) · 2^33 + (2^32 − 1)`. Writing
    /// `e_k = x^(2^k − 1)` (so `e_{j+k} = e_j^(2^k) · e_k`), the chain
    /// `e_1, e_2, e_3, e_6, e_12, e_24, e_30, e_31, e_32` costs 64 squarings and 9
    /// multiplications in total, including the final `e_31^(2^33) · e_32`.
    #[must_use]
    pub const fn invert_or_zero(self) -> Self {
        let e1 = self;
        let e2 = e1.square_n(1).mul_const(e1);
        let e3 = e2.square_n(1).mul_const(e1);
        let e6 = e3.square_n(3).mul_const(e3);
        let e12 = e6.square_n(6).mul_const(e6);
        let e24 = e12.square_n(12).mul_const(e12);
        let e30 = e24.square_n(6).mul_const(e6);
        let e31 = e30.square_n(1).mul_const(e1);
        let e32 = e31.square_n(1).mul_const(e1);
        e31.square_n(33).mul_const(e32)
    }

    #[inline(always)]
    const fn mul_const(self, rhs: Self) -> Self {
        Self(mul(self.0, rhs.0))
    }
}

/// `a + b mod p` for canonical `a, b`.
///
/// `a + b < 2p`. Compute `s = a + b mod 2^64` and `t = s − p mod 2^64`; the answer is `t`
/// when `a + b ≥ p`, i.e. when the addition carried (then `t = s + ε` exactly, and it is
/// `< p`) or when `s − p` did not borrow; otherwise it is `s`.
#[inline(always)]
const fn add(a: u64, b: u64) -> u64 {
    let (s, carry) = a.overflowing_add(b);
    let (t, borrow) = s.overflowing_sub(P);
    if carry || !borrow { t } else { s }
}

/// `a − b mod p` for canonical `a, b`: on borrow, `a − b + 2^64` wraps back by adding p.
#[inline(always)]
const fn sub(a: u64, b: u64) -> u64 {
    let (d, borrow) = a.overflowing_sub(b);
    if borrow { d.wrapping_add(P) } else { d }
}

/// `−a mod p` for canonical `a`.
#[inline(always)]
const fn neg(a: u64) -> u64 {
    if a == 0 { 0 } else { P - a }
}

/// `a · b mod p` through the 128-bit product.
#[inline(always)]
const fn mul(a: u64, b: u64) -> u64 {
    reduce128((a as u128) * (b as u128))
}

/// `x mod p` for any `x < 2^128`, canonical result (derivation in the module docs).
#[inline(always)]
const fn reduce128(x: u128) -> u64 {
    let x_lo = x as u64;
    let x_hi = (x >> 64) as u64;
    let x_mid = x_hi & EPSILON;
    let x_top = x_hi >> 32;

    // x_lo − x_top; a borrow means we hold (x_lo − x_top) + 2^64 ≡ (x_lo − x_top) + ε, so
    // subtract ε (no underflow: the wrapped value is ≥ 2^64 − 2^32 + 1 > ε).
    let (mut t0, borrow) = x_lo.overflowing_sub(x_top);
    if borrow {
        t0 -= EPSILON;
    }
    // ε · x_mid ≤ (2^32 − 1)^2 < 2^64.
    let t1 = x_mid * EPSILON;
    // t0 + t1; a carry means we dropped 2^64 ≡ ε, and adding it back cannot overflow
    // (the wrapped sum is ≤ 2^64 − 2^33). The carry is frequent and random, so it is folded
    // in arithmetically (`ε · carry`) instead of by a hard-to-predict branch.
    let (s, carry) = t0.overflowing_add(t1);
    let s = s + EPSILON * carry as u64;
    // s < 2^64 < 2p: one subtraction makes it canonical.
    if s >= P { s - P } else { s }
}

/// `base^exp mod p` by square-and-multiply (compile-time constants).
const fn pow(base: u64, mut exp: u64) -> u64 {
    let mut acc = 1u64;
    let mut b = base;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, b);
        }
        b = mul(b, b);
        exp >>= 1;
    }
    acc
}

/// The table of primitive `2^k`-th roots of unity for `k = 0..=32`.
const fn two_adic_roots() -> [Goldilocks; TWO_ADICITY as usize + 1] {
    let mut roots = [Goldilocks(1); TWO_ADICITY as usize + 1];
    let mut k = TWO_ADICITY as usize;
    roots[k] = Goldilocks::TWO_ADIC_ROOT_OF_UNITY;
    while k > 0 {
        roots[k - 1] = Goldilocks(mul(roots[k].0, roots[k].0));
        k -= 1;
    }
    roots
}

/// `2^128 mod p = p − 2^32` (module docs: `2^128 ≡ −2^32`).
#[cfg(test)]
const TWO_POW_128_MOD_P: u64 = P - (1 << 32);

/// `(lo + 2^128 · hi) mod p` for a 192-bit integer: `2^128 ≡ −2^32`, so this is
/// `lo − 2^32 · hi`, and `2^32 · hi < 2^96` reduces by [`reduce128`].
#[inline]
const fn reduce192(lo: u128, hi: u64) -> u64 {
    sub(reduce128(lo), reduce128((hi as u128) << 32))
}

impl fmt::Debug for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Goldilocks({})", self.0)
    }
}

impl fmt::Display for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Add for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self(add(self.0, rhs.0))
    }
}

impl Sub for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self(sub(self.0, rhs.0))
    }
}

impl Neg for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self(neg(self.0))
    }
}

impl Mul for Goldilocks {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(mul(self.0, rhs.0))
    }
}

derive_field_ops!(Goldilocks, zero = Goldilocks(0), one = Goldilocks(1));
impl_scalar_packed!(Goldilocks, |x: &Goldilocks| Goldilocks(mul(x.0, x.0)));

impl Field for Goldilocks {
    const ZERO: Self = Self(0);
    const ONE: Self = Self(1);
    const CHARACTERISTIC_TWO: bool = false;
    const NUM_BYTES: usize = 8;
    const UNIFORM_BYTES: usize = 24;
    const ORDER_BITS: u32 = 63;

    type Packing = Self;

    #[inline]
    fn inverse(&self) -> Option<Self> {
        (self.0 != 0).then(|| self.invert_or_zero())
    }

    #[inline]
    fn is_zero(&self) -> bool {
        self.0 == 0
    }

    fn write_bytes(&self, out: &mut [u8]) {
        assert_eq!(out.len(), Self::NUM_BYTES, "wrong output length");
        out.copy_from_slice(&self.0.to_le_bytes());
    }

    fn read_bytes(bytes: &[u8]) -> Option<Self> {
        Self::new(u64::from_le_bytes(bytes.try_into().ok()?))
    }

    /// The 24 bytes as a little-endian integer `< 2^192`, reduced mod p; the statistical
    /// distance to uniform is at most `p / 2^192 < 2^-128`.
    fn from_uniform_bytes(bytes: &[u8]) -> Self {
        let bytes: &[u8; 24] = bytes
            .try_into()
            .expect("Goldilocks samples 24 uniform bytes");
        let (lo, hi) = bytes.split_at(16);
        let lo = u128::from_le_bytes(lo.try_into().expect("16 bytes"));
        let hi = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
        Self(reduce192(lo, hi))
    }

    #[inline]
    fn from_index(i: u64) -> Self {
        Self::from_u64_reduced(i)
    }
}

impl PrimeField for Goldilocks {
    const MODULUS_BITS: u32 = 64;
    const TWO_ADICITY: u32 = TWO_ADICITY;

    #[inline]
    fn from_u64(v: u64) -> Self {
        Self::from_u64_reduced(v)
    }

    /// Horner's rule over 64-bit little-endian limbs, most significant first, with
    /// `2^64 ≡ ε`: `acc ← acc · ε + limb`.
    fn from_le_bytes_mod_order(bytes: &[u8]) -> Self {
        bytes.chunks(8).rev().fold(Self(0), |acc, chunk| {
            let mut limb = [0u8; 8];
            limb[..chunk.len()].copy_from_slice(chunk);
            acc * Self(EPSILON) + Self::from_u64_reduced(u64::from_le_bytes(limb))
        })
    }

    fn to_canonical_limbs(&self) -> impl AsRef<[u64]> {
        [self.0]
    }

    fn two_adic_root_of_unity(log_n: u32) -> Self {
        assert!(
            log_n <= TWO_ADICITY,
            "no 2^{log_n}-th root of unity: two-adicity is {TWO_ADICITY}"
        );
        Self::ROOTS[log_n as usize]
    }
}

#[cfg(test)]
mod tests;
