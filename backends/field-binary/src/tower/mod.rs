//! The binary tower of Wiedemann (1988) and Fan–Paar (1997), as used by Binius
//! (Diamond–Posen, eprint 2023/1784 §2.3).
//!
//! `T_0 = GF(2)` and `T_{k+1} = T_k[X_k] / (X_k^2 + X_{k-1}·X_k + 1)` with `X_{-1} = 1`, so
//! `T_k = GF(2^(2^k))`. An element of `T_{k+1}` is `lo + hi·X_k` with `lo, hi ∈ T_k`, `lo` in
//! the low half of the bits and `hi` in the high half. Unrolled, bit `i` of a `T_k` element
//! is the coefficient of the monomial `Π_{j : bit j of i is set} X_j`, so every `T_j ⊂ T_k`
//! is the set of elements with only the low `2^j` bits set, and the coordinates of `T_k`
//! over `T_j` are its consecutive `2^j`-bit chunks.
//!
//! | type | field | generator | stored in |
//! |---|---|---|---|
//! | [`Tower1`] | `T_0 = GF(2)` | — | `u8` |
//! | [`Tower2`] | `T_1 = GF(2^2)` | `X_0 = 0b10` | `u8` |
//! | [`Tower4`] | `T_2 = GF(2^4)` | `X_1 = 0b100` | `u8` |
//! | [`Tower8`] | `T_3 = GF(2^8)` | `X_2 = 0x10` | `u8` |
//! | [`Tower16`] | `T_4 = GF(2^16)` | `X_3 = 1 << 8` | `u16` |
//! | [`Tower32`] | `T_5 = GF(2^32)` | `X_4 = 1 << 16` | `u32` |
//! | [`Tower64`] | `T_6 = GF(2^64)` | `X_5 = 1 << 32` | `u64` |
//! | [`Tower128`] | `T_7 = GF(2^128)` | `X_6 = 1 << 64` | `u128` |
//!
//! Products use Karatsuba on the halves (three sub-products per level) and the
//! multiplication-free "times `X_{k-1}`" step, bottoming out at compile-time log/exp tables
//! of `T_3`; a `Tower128` product costs 81 byte products. `T_0 … T_2` use the `T_3` tables
//! (they are subfields). Inversion recurses through the norm to `T_k` (see `arith`).
//! [`ExtensionField`] is implemented for each adjacent pair and for `T_3 ⊂ T_k`; the
//! basis of `T_k` over `T_j` is the monomials in `X_j, …, X_{k-1}` in chunk order, and the
//! `T_k × T_j` product multiplies each chunk.

mod arith;
#[cfg(test)]
mod tests;

use core::ops::{Add, AddAssign, Mul, MulAssign};

use flockwork_field::ExtensionField;

use crate::macros::impl_uint_binary_field;
use arith::TowerRepr;
pub(crate) use arith::{join, split};

/// Declares a tower field type `$ty` over `$repr` with `$bits` bits and its field impls.
macro_rules! tower_field {
    ($(#[$doc:meta])* $ty:ident, $repr:ty, $bits:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(transparent)]
        pub struct $ty(pub $repr);

        impl $ty {
            /// The element with bit pattern `bits` (tower basis).
            ///
            /// # Panics
            /// If `bits` has bits above [`Self::BITS`] set.
            #[inline(always)]
            #[must_use]
            pub const fn new(bits: $repr) -> Self {
                assert!(Self::fits(bits), "value wider than the field");
                Self(bits)
            }

            /// Inverse, and zero for zero.
            #[inline]
            #[must_use]
            pub fn invert_or_zero(self) -> Self {
                Self(self.0.t_inverse_or_zero())
            }
        }

        impl Mul for $ty {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                Self(self.0.t_mul(rhs.0))
            }
        }

        impl_uint_binary_field!(
            $ty,
            $repr,
            $bits,
            square = |x: &$ty| $ty(x.0.t_square()),
            inverse = |x: &$ty| x.invert_or_zero()
        );
    };
}

tower_field!(
    /// `T_0 = GF(2)`, the bottom of the tower (`0` or `1` in a byte).
    Tower1, u8, 1
);
tower_field!(
    /// `T_1 = GF(2^2) = GF(2)[X_0]/(X_0^2 + X_0 + 1)`.
    Tower2, u8, 2
);
tower_field!(
    /// `T_2 = GF(2^4) = T_1[X_1]/(X_1^2 + X_0 X_1 + 1)`.
    Tower4, u8, 4
);
tower_field!(
    /// `T_3 = GF(2^8) = T_2[X_2]/(X_2^2 + X_1 X_2 + 1)` (tower basis, not AES).
    Tower8, u8, 8
);
tower_field!(
    /// `T_4 = GF(2^16) = T_3[X_3]/(X_3^2 + X_2 X_3 + 1)`.
    Tower16, u16, 16
);
tower_field!(
    /// `T_5 = GF(2^32) = T_4[X_4]/(X_4^2 + X_3 X_4 + 1)`.
    Tower32, u32, 32
);
tower_field!(
    /// `T_6 = GF(2^64) = T_5[X_5]/(X_5^2 + X_4 X_5 + 1)`.
    Tower64, u64, 64
);
tower_field!(
    /// `T_7 = GF(2^128) = T_6[X_6]/(X_6^2 + X_5 X_6 + 1)`, Binius' `BinaryField128b` layout.
    Tower128, u128, 128
);

impl Tower8 {
    /// The smallest multiplicative generator of `T_3`.
    pub const GENERATOR: Self = Self(arith::TOWER8_GENERATOR);
}

impl Tower128 {
    /// The tower generator `X_k` (`k < 7`) as an element of `T_7`: bit `2^k` set.
    ///
    /// # Panics
    /// If `k >= 7`.
    #[must_use]
    pub const fn generator(k: usize) -> Self {
        assert!(k < 7, "T_7 has generators X_0 .. X_6");
        Self(1 << (1u32 << k))
    }
}

/// Implements `ExtensionField<$small> for $big` for tower levels: the subfield is the low
/// `$small::BITS` bits, the basis is the monomials in the intermediate generators (chunk `i`
/// = `basis(i)`), and the mixed product multiplies every chunk by the small element.
macro_rules! tower_extension {
    ($big:ident, $brepr:ty, $small:ident, $srepr:ty) => {
        impl From<$small> for $big {
            #[inline(always)]
            fn from(v: $small) -> Self {
                Self(<$brepr>::from(v.0))
            }
        }

        impl Mul<$small> for $big {
            type Output = Self;
            #[inline]
            fn mul(self, rhs: $small) -> Self {
                let mut out: $brepr = 0;
                for shift in (0..$big::BITS).step_by($small::BITS) {
                    let chunk = (self.0 >> shift) as $srepr & $small::MASK;
                    out |= <$brepr>::from(chunk.t_mul(rhs.0)) << shift;
                }
                Self(out)
            }
        }

        impl MulAssign<$small> for $big {
            #[inline]
            fn mul_assign(&mut self, rhs: $small) {
                *self = *self * rhs;
            }
        }

        impl Add<$small> for $big {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: $small) -> Self {
                self + Self::from(rhs)
            }
        }

        impl AddAssign<$small> for $big {
            #[inline(always)]
            fn add_assign(&mut self, rhs: $small) {
                *self = *self + rhs;
            }
        }

        impl ExtensionField<$small> for $big {
            const DEGREE: usize = $big::BITS / $small::BITS;

            fn basis(i: usize) -> Self {
                assert!(
                    i < <Self as ExtensionField<$small>>::DEGREE,
                    "basis index out of range"
                );
                Self(1 << (i * $small::BITS))
            }

            fn to_base_coeffs(&self, out: &mut [$small]) {
                assert_eq!(
                    out.len(),
                    <Self as ExtensionField<$small>>::DEGREE,
                    "wrong number of base coefficients"
                );
                for (i, o) in out.iter_mut().enumerate() {
                    *o = $small((self.0 >> (i * $small::BITS)) as $srepr & $small::MASK);
                }
            }

            fn from_base_coeffs(coeffs: &[$small]) -> Self {
                assert_eq!(
                    coeffs.len(),
                    <Self as ExtensionField<$small>>::DEGREE,
                    "wrong number of base coefficients"
                );
                Self(coeffs.iter().enumerate().fold(0, |acc, (i, c)| {
                    acc | (<$brepr>::from(c.0) << (i * $small::BITS))
                }))
            }
        }
    };
}

tower_extension!(Tower2, u8, Tower1, u8);
tower_extension!(Tower4, u8, Tower2, u8);
tower_extension!(Tower8, u8, Tower4, u8);
tower_extension!(Tower16, u16, Tower8, u8);
tower_extension!(Tower32, u32, Tower16, u16);
tower_extension!(Tower64, u64, Tower32, u32);
tower_extension!(Tower128, u128, Tower64, u64);
tower_extension!(Tower32, u32, Tower8, u8);
tower_extension!(Tower64, u64, Tower8, u8);
tower_extension!(Tower128, u128, Tower8, u8);
tower_extension!(Tower64, u64, Tower16, u16);
tower_extension!(Tower128, u128, Tower16, u16);
tower_extension!(Tower128, u128, Tower32, u32);
tower_extension!(Tower128, u128, Tower1, u8);
