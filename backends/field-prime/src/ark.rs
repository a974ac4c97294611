//! The generic adapter [`Ark<F>`] from `ark_ff::PrimeField` to flockwork's field traits.
//!
//! ## Maths
//!
//! ark-ff stores an element `a ∈ GF(p)` of an `N`-limb field in Montgomery form `a·R mod p`
//! with `R = 2^(64·N)`; a product `(aR)(bR)` is brought back to `abR` by Montgomery
//! reduction (multiply by `R^-1` via `-p^-1 mod 2^64` one limb at a time, CIOS). The adapter
//! forwards every operation to ark unchanged, so it costs nothing: [`Ark<F>`] is
//! `#[repr(transparent)]` and every method is a thin `#[inline]` wrapper.
//!
//! ## Bytes
//!
//! The canonical encoding is ark's compressed serialization: the integer representative in
//! `[0, p)` (not the Montgomery form), little-endian, `ceil(MODULUS_BIT_SIZE / 8)` bytes.
//! Decoding checks the length first (ark would silently ignore trailing bytes), then lets
//! ark reject every integer ≥ p; ark's unused high bits ("flags") are part of that integer,
//! so a set flag bit is rejected too.

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use ark_ff::{AdditiveGroup, FftField};
use ark_serialize::{Compress, Validate};
use flockwork_field::{Field, PackedField, PrimeField};

/// A prime-field element of any `ark_ff::PrimeField` `F`, seen as a flockwork
/// [`Field`] + [`PrimeField`].
///
/// `#[repr(transparent)]` over `F`: the adapter adds no data and no work. The inner ark
/// value is public, so ark-specific APIs stay reachable through `.0`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Ark<F>(pub F);

impl<F: ark_ff::PrimeField> Ark<F> {
    /// Wraps an ark field element.
    #[inline(always)]
    #[must_use]
    pub const fn new(inner: F) -> Self {
        Self(inner)
    }

    /// The wrapped ark field element.
    #[inline(always)]
    #[must_use]
    pub const fn into_inner(self) -> F {
        self.0
    }
}

impl<F: ark_ff::PrimeField> From<F> for Ark<F> {
    #[inline(always)]
    fn from(inner: F) -> Self {
        Self(inner)
    }
}

impl<F: ark_ff::PrimeField> fmt::Debug for Ark<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // ark's Display prints the canonical integer, not the Montgomery form.
        write!(f, "Ark({})", self.0)
    }
}

impl<F: ark_ff::PrimeField> fmt::Display for Ark<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Implements a binary operator `Ark<F> op Ark<F>` and `Ark<F> op &Ark<F>` by forwarding to
/// the same operator on `F`, and the matching assigning operator.
macro_rules! forward_binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident) => {
        impl<F: ark_ff::PrimeField> $Op for Ark<F> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: Self) -> Self {
                Self(self.0.$op(rhs.0))
            }
        }
        impl<'a, F: ark_ff::PrimeField> $Op<&'a Ark<F>> for Ark<F> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: &'a Self) -> Self {
                Self(self.0.$op(&rhs.0))
            }
        }
        impl<F: ark_ff::PrimeField> $OpAssign for Ark<F> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: Self) {
                self.0.$op_assign(&rhs.0);
            }
        }
    };
}

forward_binop!(Add, add, AddAssign, add_assign);
forward_binop!(Sub, sub, SubAssign, sub_assign);
forward_binop!(Mul, mul, MulAssign, mul_assign);

impl<F: ark_ff::PrimeField> Neg for Ark<F> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self(-self.0)
    }
}

impl<F: ark_ff::PrimeField> Sum for Ark<F> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self(F::ZERO), |acc, x| acc + x)
    }
}

impl<'a, F: ark_ff::PrimeField> Sum<&'a Self> for Ark<F> {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Self(F::ZERO), |acc, x| acc + x)
    }
}

impl<F: ark_ff::PrimeField> Product for Ark<F> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self(F::ONE), |acc, x| acc * x)
    }
}

/// Width-1 packing: every field is a packed field of itself. Written out by hand because
/// `flockwork_field::impl_scalar_packed!` takes a concrete type, not a generic one.
impl<F: ark_ff::PrimeField> PackedField for Ark<F> {
    type Scalar = Self;
    const WIDTH: usize = 1;

    #[inline(always)]
    fn broadcast(value: Self) -> Self {
        value
    }

    #[inline(always)]
    fn from_fn(mut f: impl FnMut(usize) -> Self) -> Self {
        f(0)
    }

    #[inline(always)]
    fn get(&self, i: usize) -> Self {
        assert_eq!(i, 0, "lane out of range");
        *self
    }

    #[inline(always)]
    fn set(&mut self, i: usize, value: Self) {
        assert_eq!(i, 0, "lane out of range");
        *self = value;
    }

    #[inline(always)]
    fn square(&self) -> Self {
        Self(self.0.square())
    }
}

impl<F: ark_ff::PrimeField> Field for Ark<F> {
    const ZERO: Self = Self(F::ZERO);
    const ONE: Self = Self(F::ONE);
    /// ark-ff prime fields use Montgomery arithmetic, which needs an odd modulus, so the
    /// characteristic is never two.
    const CHARACTERISTIC_TWO: bool = false;
    const NUM_BYTES: usize = (F::MODULUS_BIT_SIZE as usize).div_ceil(8);
    const UNIFORM_BYTES: usize = Self::NUM_BYTES + 16;
    const ORDER_BITS: u32 = F::MODULUS_BIT_SIZE - 1;

    type Packing = Self;

    #[inline]
    fn inverse(&self) -> Option<Self> {
        self.0.inverse().map(Self)
    }

    #[inline]
    fn is_zero(&self) -> bool {
        ark_ff::Zero::is_zero(&self.0)
    }

    #[inline]
    fn double(&self) -> Self {
        Self(AdditiveGroup::double(&self.0))
    }

    fn write_bytes(&self, out: &mut [u8]) {
        assert_eq!(out.len(), Self::NUM_BYTES, "wrong output length");
        self.0
            .serialize_with_mode(out, Compress::Yes)
            .expect("an ark prime field element serializes into NUM_BYTES bytes");
    }

    fn read_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::NUM_BYTES {
            return None;
        }
        F::deserialize_with_mode(bytes, Compress::Yes, Validate::Yes)
            .ok()
            .map(Self)
    }

    fn from_uniform_bytes(bytes: &[u8]) -> Self {
        assert_eq!(
            bytes.len(),
            Self::UNIFORM_BYTES,
            "wrong number of uniform bytes"
        );
        Self(F::from_le_bytes_mod_order(bytes))
    }

    #[inline]
    fn from_index(i: u64) -> Self {
        Self(F::from(i))
    }
}

impl<F: ark_ff::PrimeField> PrimeField for Ark<F> {
    const MODULUS_BITS: u32 = F::MODULUS_BIT_SIZE;
    const TWO_ADICITY: u32 = <F as FftField>::TWO_ADICITY;

    #[inline]
    fn from_u64(v: u64) -> Self {
        Self(F::from(v))
    }

    fn from_le_bytes_mod_order(bytes: &[u8]) -> Self {
        Self(F::from_le_bytes_mod_order(bytes))
    }

    fn to_canonical_limbs(&self) -> impl AsRef<[u64]> {
        self.0.into_bigint()
    }

    /// `ω_max^(2^(TWO_ADICITY − log_n))` where `ω_max` is ark's primitive
    /// `2^TWO_ADICITY`-th root of unity (the multiplicative generator raised to the odd part
    /// of `p − 1`).
    fn two_adic_root_of_unity(log_n: u32) -> Self {
        assert!(
            log_n <= Self::TWO_ADICITY,
            "no 2^{log_n}-th root of unity: two-adicity is {}",
            Self::TWO_ADICITY
        );
        let mut root = F::TWO_ADIC_ROOT_OF_UNITY;
        for _ in log_n..Self::TWO_ADICITY {
            root.square_in_place();
        }
        Self(root)
    }
}

#[cfg(test)]
mod tests;
