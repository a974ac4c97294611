//! Operator boilerplate shared by every field backend.

/// Derives, from by-value `Add`, `Sub` and `Mul` impls of a `Copy` type `T`, the
/// by-reference operators (`T op &T`), the assigning operators (`+=`, `-=`, `*=`) and
/// `Sum`/`Product` (over values and references), given the type's zero and one.
///
/// Each field backend writes its arithmetic once and calls this macro for the rest.
#[macro_export]
macro_rules! derive_field_ops {
    ($ty:ty, zero = $zero:expr, one = $one:expr) => {
        impl<'a> ::core::ops::Add<&'a $ty> for $ty {
            type Output = $ty;
            #[inline(always)]
            fn add(self, rhs: &'a $ty) -> $ty {
                self + *rhs
            }
        }
        impl<'a> ::core::ops::Sub<&'a $ty> for $ty {
            type Output = $ty;
            #[inline(always)]
            fn sub(self, rhs: &'a $ty) -> $ty {
                self - *rhs
            }
        }
        impl<'a> ::core::ops::Mul<&'a $ty> for $ty {
            type Output = $ty;
            #[inline(always)]
            fn mul(self, rhs: &'a $ty) -> $ty {
                self * *rhs
            }
        }
        $crate::derive_assign_ops!($ty);
        impl ::core::iter::Sum for $ty {
            fn sum<I: Iterator<Item = $ty>>(iter: I) -> $ty {
                iter.fold($zero, |a, b| a + b)
            }
        }
        impl<'a> ::core::iter::Sum<&'a $ty> for $ty {
            fn sum<I: Iterator<Item = &'a $ty>>(iter: I) -> $ty {
                iter.fold($zero, |a, b| a + *b)
            }
        }
        impl ::core::iter::Product for $ty {
            fn product<I: Iterator<Item = $ty>>(iter: I) -> $ty {
                iter.fold($one, |a, b| a * b)
            }
        }
    };
}

/// Derives `+=`, `-=` and `*=` from by-value `Add`, `Sub` and `Mul` of a `Copy` type (used
/// by [`derive_field_ops!`] and directly by packed types).
#[macro_export]
macro_rules! derive_assign_ops {
    ($ty:ty) => {
        impl ::core::ops::AddAssign for $ty {
            #[inline(always)]
            fn add_assign(&mut self, rhs: $ty) {
                *self = *self + rhs;
            }
        }
        impl ::core::ops::SubAssign for $ty {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: $ty) {
                *self = *self - rhs;
            }
        }
        impl ::core::ops::MulAssign for $ty {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: $ty) {
                *self = *self * rhs;
            }
        }
    };
}
