//! Packed (SIMD) fields.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::Field;

/// `WIDTH` elements of the field [`PackedField::Scalar`] held and multiplied together.
///
/// Arithmetic is lane-wise. Hot loops are written against this trait so the same kernel
/// runs on a scalar field (width 1, every [`Field`] is one) and on its SIMD packing
/// ([`Field::Packing`]). `flockwork-testkit` checks each packing against its scalar field
/// lane by lane.
pub trait PackedField:
    Copy
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// The field of each lane.
    type Scalar: Field;
    /// Number of lanes.
    const WIDTH: usize;

    /// All lanes equal to `value`.
    #[must_use]
    fn broadcast(value: Self::Scalar) -> Self;

    /// Lane `i` set to `f(i)`.
    #[must_use]
    fn from_fn(f: impl FnMut(usize) -> Self::Scalar) -> Self;

    /// Lane `i`.
    ///
    /// # Panics
    /// If `i >= WIDTH`.
    #[must_use]
    fn get(&self, i: usize) -> Self::Scalar;

    /// Sets lane `i`.
    ///
    /// # Panics
    /// If `i >= WIDTH`.
    fn set(&mut self, i: usize, value: Self::Scalar);

    /// Lane-wise square.
    #[must_use]
    fn square(&self) -> Self;

    /// Lane-wise product with one scalar.
    #[must_use]
    fn mul_scalar(self, s: Self::Scalar) -> Self {
        self * Self::broadcast(s)
    }
}

/// Implements [`PackedField`] with `WIDTH = 1` for a scalar field type (every [`Field`]
/// must be a packed field of width 1). The type must already implement the arithmetic
/// operators, `Default` and `Debug`; `square` is `x * x` unless a faster expression is given.
///
/// Usage, inside the crate that defines the field type `MyField`:
///
/// ```text
/// flockwork_field::impl_scalar_packed!(MyField);                         // square = x * x
/// flockwork_field::impl_scalar_packed!(MyField, |x: &MyField| x.fast_square());
/// ```
#[macro_export]
macro_rules! impl_scalar_packed {
    ($ty:ty) => {
        $crate::impl_scalar_packed!($ty, |x: &$ty| *x * *x);
    };
    ($ty:ty, $square:expr) => {
        impl $crate::PackedField for $ty {
            type Scalar = $ty;
            const WIDTH: usize = 1;
            #[inline(always)]
            fn broadcast(value: $ty) -> Self {
                value
            }
            #[inline(always)]
            fn from_fn(mut f: impl FnMut(usize) -> $ty) -> Self {
                f(0)
            }
            #[inline(always)]
            fn get(&self, i: usize) -> $ty {
                assert_eq!(i, 0, "lane out of range");
                *self
            }
            #[inline(always)]
            fn set(&mut self, i: usize, value: $ty) {
                assert_eq!(i, 0, "lane out of range");
                *self = value;
            }
            #[inline(always)]
            fn square(&self) -> Self {
                let sq: fn(&$ty) -> $ty = $square;
                sq(self)
            }
        }
    };
}
