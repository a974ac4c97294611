//! Unreduced products: [`Ghash256Unreduced`].
//!
//! The carry-less product of two elements of GF(2^128) is a polynomial of degree at most
//! 254. Sums of such products can be accumulated with XOR and reduced modulo
//! `x^128 + x^7 + x^2 + x + 1` once at the end, because the reduction is F2-linear:
//! `Σ reduce(aᵢ·bᵢ) = reduce(Σ aᵢ·bᵢ)`. This saves two of the five carry-less
//! multiplications of every product in an inner product.

use core::ops::{Add, AddAssign, BitXor, BitXorAssign};

use super::Ghash128;
use crate::arch;

/// A polynomial of degree < 256 over GF(2), `lo + hi·x^128` (bit `i` of `lo`/`hi` is the
/// coefficient of `x^i`/`x^(128 + i)`), typically an unreduced product of two [`Ghash128`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ghash256Unreduced {
    /// Coefficients of `x^0 … x^127`.
    pub lo: u128,
    /// Coefficients of `x^128 … x^255`.
    pub hi: u128,
}

impl Ghash256Unreduced {
    /// The zero polynomial.
    pub const ZERO: Self = Self { lo: 0, hi: 0 };

    /// The polynomial's residue modulo `x^128 + x^7 + x^2 + x + 1`.
    #[inline]
    #[must_use]
    pub fn reduce(self) -> Ghash128 {
        Ghash128(arch::portable::reduce(self.lo, self.hi))
    }
}

impl From<Ghash128> for Ghash256Unreduced {
    /// Embeds a field element as a polynomial of degree < 128.
    #[inline]
    fn from(a: Ghash128) -> Self {
        Self { lo: a.0, hi: 0 }
    }
}

impl BitXor for Ghash256Unreduced {
    type Output = Self;
    #[inline]
    fn bitxor(self, rhs: Self) -> Self {
        Self {
            lo: self.lo ^ rhs.lo,
            hi: self.hi ^ rhs.hi,
        }
    }
}

impl BitXorAssign for Ghash256Unreduced {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Self) {
        *self = *self ^ rhs;
    }
}

impl Add for Ghash256Unreduced {
    type Output = Self;
    /// Polynomial addition over GF(2), i.e. XOR.
    #[inline]
    fn add(self, rhs: Self) -> Self {
        self ^ rhs
    }
}

impl AddAssign for Ghash256Unreduced {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        *self ^= rhs;
    }
}

impl core::iter::Sum for Ghash256Unreduced {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |a, b| a ^ b)
    }
}

impl Ghash128 {
    /// The unreduced carry-less product `self · rhs` (degree ≤ 254), with the active
    /// backend; `self.mul_unreduced(rhs).reduce() == self * rhs`.
    #[inline]
    #[must_use]
    pub fn mul_unreduced(self, rhs: Self) -> Ghash256Unreduced {
        let (lo, hi) = arch::clmul128(self.0, rhs.0);
        Ghash256Unreduced { lo, hi }
    }
}
