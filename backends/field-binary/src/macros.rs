//! Boilerplate shared by the binary fields stored in one unsigned integer (`Aes8`, the
//! tower fields): XOR addition, identity negation, canonical little-endian bytes, formatting
//! and the `Field`/`BinaryField` impls. Each field writes only its `Mul` and its inverse.

/// Implements `Add`/`Sub` (XOR), `Neg` (identity), the derived operators, width-1 packing,
/// `Field`, `BinaryField`, `Debug` and `Display` for `$ty`, a tuple struct over the unsigned
/// integer `$repr` holding an element of GF(2^`$bits`) in its low `$bits` bits.
///
/// * `square = $square`: a `fn(&$ty) -> $ty` computing the square;
/// * `inverse = $inverse`: a `fn(&$ty) -> $ty` computing the inverse of a nonzero element.
///
/// Canonical bytes are the `$repr` little-endian (`$bits <= 8` use one byte); encodings with
/// bits above `$bits` are rejected. `from_index(i)` and `from_uniform_bytes` keep the low
/// `$bits` bits.
macro_rules! impl_uint_binary_field {
    ($ty:ident, $repr:ty, $bits:expr, square = $square:expr, inverse = $inverse:expr) => {
        impl $ty {
            /// Degree over GF(2).
            pub const BITS: usize = $bits;
            /// The bits that may be set in a canonical element.
            pub const MASK: $repr = <$repr>::MAX >> (<$repr>::BITS as usize - $bits);

            /// `true` iff `bits` has no bit set above [`Self::BITS`].
            #[inline(always)]
            #[must_use]
            pub const fn fits(bits: $repr) -> bool {
                match bits.checked_shr($bits) {
                    Some(high) => high == 0,
                    None => true,
                }
            }
        }

        impl ::core::ops::Add for $ty {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                Self(self.0 ^ rhs.0)
            }
        }

        impl ::core::ops::Sub for $ty {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 ^ rhs.0)
            }
        }

        impl ::core::ops::Neg for $ty {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                self
            }
        }

        ::flockwork_field::derive_field_ops!($ty, zero = $ty(0), one = $ty(1));
        ::flockwork_field::impl_scalar_packed!($ty, $square);

        impl ::flockwork_field::Field for $ty {
            const ZERO: Self = Self(0);
            const ONE: Self = Self(1);
            const CHARACTERISTIC_TWO: bool = true;
            const NUM_BYTES: usize = ::core::mem::size_of::<$repr>();
            const UNIFORM_BYTES: usize = ::core::mem::size_of::<$repr>();
            const ORDER_BITS: u32 = $bits;

            type Packing = Self;

            fn inverse(&self) -> Option<Self> {
                let inv: fn(&$ty) -> $ty = $inverse;
                (self.0 != 0).then(|| inv(self))
            }

            fn write_bytes(&self, out: &mut [u8]) {
                out.copy_from_slice(&self.0.to_le_bytes());
            }

            fn read_bytes(bytes: &[u8]) -> Option<Self> {
                let v = <$repr>::from_le_bytes(bytes.try_into().ok()?);
                Self::fits(v).then_some(Self(v))
            }

            fn from_uniform_bytes(bytes: &[u8]) -> Self {
                let raw = bytes
                    .try_into()
                    .expect(concat!(stringify!($ty), ": wrong number of uniform bytes"));
                Self(<$repr>::from_le_bytes(raw) & Self::MASK)
            }

            fn from_index(i: u64) -> Self {
                Self((i as $repr) & Self::MASK)
            }
        }

        impl ::flockwork_field::BinaryField for $ty {
            const BITS: usize = $bits;

            fn from_bits(bits: u128) -> Self {
                assert!(
                    bits <= Self::MASK as u128,
                    concat!(stringify!($ty), "::from_bits: value wider than the field")
                );
                Self(bits as $repr)
            }

            fn low_bits(&self) -> u128 {
                self.0 as u128
            }
        }

        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(
                    f,
                    concat!(stringify!($ty), "({:#0w$x})"),
                    self.0,
                    w = 2 + ::core::mem::size_of::<$repr>() * 2
                )
            }
        }

        impl ::core::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(
                    f,
                    "{:0w$x}",
                    self.0,
                    w = ::core::mem::size_of::<$repr>() * 2
                )
            }
        }
    };
}

pub(crate) use impl_uint_binary_field;

/// The glue of a quadratic extension `$ext = $base[Y]/(…)` of a 128-bit binary field, stored
/// as `lo + hi·Y` (fields `lo`, `hi`, constructor `new(lo, hi)`, constant `Y`, inherent
/// `square_fast`, a function `mul_by_beta` in scope; optionally a `packing = P` type, else
/// width-1 packing by itself): the norm, conjugate and inverse, coefficient-wise addition (characteristic 2:
/// subtraction is addition, negation the identity), the derived operators and width-1
/// packing, `Field` (bytes, sampling and indices coefficient by coefficient through the
/// base field, `lo` first), `BinaryField` (bits as the low coefficient), the embedding
/// `From<$base>`, the products and sums with a base element, and `ExtensionField<$base>` in
/// the basis `1, Y`. Each extension writes its own `Mul`.
macro_rules! impl_quadratic_extension_glue {
    ($ext:ident, $base:ident) => {
        impl_quadratic_extension_glue!($ext, $base, packing = $ext);
    };
    ($ext:ident, $base:ident, packing = $packing:ty) => {
        impl $ext {
            /// The norm `N(a) = a · ā = lo^2 + lo·hi + β hi^2` to the base field (`ā` the
            /// conjugate; `β` the constant term of `Y^2 + Y + β`, applied by the defining
            /// module's `mul_by_beta`).
            #[must_use]
            pub fn norm(self) -> $base {
                let (a0, a1) = (self.lo, self.hi);
                PackedField::square(&a0) + a0 * a1 + mul_by_beta(PackedField::square(&a1))
            }

            /// The conjugate `lo + hi·(Y + 1)` (the image under `a ↦ a^(2^128)`).
            #[must_use]
            pub fn conjugate(self) -> Self {
                Self::new(self.lo + self.hi, self.hi)
            }

            /// Inverse through the norm, and zero for zero.
            #[must_use]
            pub fn invert_or_zero(self) -> Self {
                self.conjugate() * self.norm().invert_or_zero()
            }
        }

        derive_field_ops!($ext, zero = $ext::ZERO, one = $ext::ONE);
        impl_scalar_packed!($ext, |x: &$ext| x.square_fast());

        impl Field for $ext {
            const ZERO: Self = Self::new($base::ZERO, $base::ZERO);
            const ONE: Self = Self::new($base::ONE, $base::ZERO);
            const CHARACTERISTIC_TWO: bool = true;
            const NUM_BYTES: usize = 32;
            const UNIFORM_BYTES: usize = 32;
            const ORDER_BITS: u32 = 256;

            type Packing = $packing;

            fn inverse(&self) -> Option<Self> {
                (*self != Self::ZERO).then(|| self.invert_or_zero())
            }

            /// `lo` then `hi`, each as the base field writes it.
            fn write_bytes(&self, out: &mut [u8]) {
                assert_eq!(out.len(), 32, "GF(2^256) encodes to 32 bytes");
                let (lo, hi) = out.split_at_mut(16);
                self.lo.write_bytes(lo);
                self.hi.write_bytes(hi);
            }

            fn read_bytes(bytes: &[u8]) -> Option<Self> {
                if bytes.len() != 32 {
                    return None;
                }
                let (lo, hi) = bytes.split_at(16);
                Some(Self::new($base::read_bytes(lo)?, $base::read_bytes(hi)?))
            }

            fn from_uniform_bytes(bytes: &[u8]) -> Self {
                assert_eq!(bytes.len(), 32, "GF(2^256) samples 32 bytes");
                let (lo, hi) = bytes.split_at(16);
                Self::new($base::from_uniform_bytes(lo), $base::from_uniform_bytes(hi))
            }

            fn from_index(i: u64) -> Self {
                Self::new($base::from_index(i), $base::ZERO)
            }
        }

        impl BinaryField for $ext {
            const BITS: usize = 256;

            /// `bits` as the low coefficient (`hi = 0`), read as the base field reads them.
            fn from_bits(bits: u128) -> Self {
                Self::new($base::from_bits(bits), $base::ZERO)
            }

            /// The bits of the low coefficient, as the base field gives them.
            fn low_bits(&self) -> u128 {
                self.lo.low_bits()
            }
        }

        impl core::ops::Add for $ext {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                Self::new(self.lo + rhs.lo, self.hi + rhs.hi)
            }
        }

        impl core::ops::Sub for $ext {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self + rhs
            }
        }

        impl core::ops::Neg for $ext {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                self
            }
        }

        impl From<$base> for $ext {
            #[inline(always)]
            fn from(v: $base) -> Self {
                Self::new(v, $base::ZERO)
            }
        }

        impl core::ops::Mul<$base> for $ext {
            type Output = Self;
            /// Two base products.
            #[inline(always)]
            fn mul(self, rhs: $base) -> Self {
                Self::new(self.lo * rhs, self.hi * rhs)
            }
        }

        impl core::ops::MulAssign<$base> for $ext {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: $base) {
                *self = *self * rhs;
            }
        }

        impl core::ops::Add<$base> for $ext {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: $base) -> Self {
                Self::new(self.lo + rhs, self.hi)
            }
        }

        impl core::ops::AddAssign<$base> for $ext {
            #[inline(always)]
            fn add_assign(&mut self, rhs: $base) {
                *self = *self + rhs;
            }
        }

        /// Degree 2 with basis `1, Y`.
        impl ExtensionField<$base> for $ext {
            const DEGREE: usize = 2;

            fn basis(i: usize) -> Self {
                match i {
                    0 => Self::ONE,
                    1 => Self::Y,
                    _ => panic!("a quadratic extension has degree 2"),
                }
            }

            fn to_base_coeffs(&self, out: &mut [$base]) {
                out[0] = self.lo;
                out[1] = self.hi;
            }

            fn from_base_coeffs(coeffs: &[$base]) -> Self {
                assert_eq!(coeffs.len(), 2, "wrong number of base coefficients");
                Self::new(coeffs[0], coeffs[1])
            }
        }
    };
}
pub(crate) use impl_quadratic_extension_glue;
