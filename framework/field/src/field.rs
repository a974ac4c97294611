//! Scalar field traits.

use core::hash::Hash;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Sub};

use crate::PackedField;

/// A finite field.
///
/// Implementations must satisfy the field axioms; `flockwork-testkit` checks them with
/// property tests for every backend. Every field is also a [`PackedField`] of width 1, so
/// kernels written against packed fields run unchanged on scalars.
pub trait Field:
    PackedField<Scalar = Self>
    + Eq
    + Hash
    + Sum
    + Product
    + for<'a> Sum<&'a Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
{
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// `true` iff the characteristic is 2 (then `x + x = 0` and `1 - x = 1 + x`).
    const CHARACTERISTIC_TWO: bool;
    /// Length in bytes of the canonical encoding ([`Field::write_bytes`]).
    const NUM_BYTES: usize;
    /// Number of bytes [`Field::from_uniform_bytes`] consumes.
    const UNIFORM_BYTES: usize;
    /// `floor(log2 |F|)`: the field contributes this many bits to a soundness bound
    /// `d / |F| <= d · 2^-ORDER_BITS`.
    const ORDER_BITS: u32;

    /// The best SIMD packing of this field on the target (may be `Self`).
    type Packing: PackedField<Scalar = Self>;

    /// Multiplicative inverse, `None` for zero.
    #[must_use]
    fn inverse(&self) -> Option<Self>;

    /// `true` iff `self == ZERO`.
    #[must_use]
    fn is_zero(&self) -> bool {
        *self == Self::ZERO
    }

    /// `v[i] = v[i] · s` for every element. Fields with SIMD slice kernels override it (one
    /// runtime dispatch per slice instead of per product); hot loops such as eq tables call it.
    fn scale_slice(v: &mut [Self], s: Self) {
        for x in v {
            *x *= s;
        }
    }

    /// `Σ_i a[i]·b[i]` over the common length. Fields with SIMD slice kernels override it
    /// (GF(2^128) accumulates unreduced products and reduces once).
    fn inner_product(a: &[Self], b: &[Self]) -> Self {
        a.iter().zip(b).map(|(&x, &y)| x * y).sum()
    }

    /// `out[i] = a[i]·b[i]` over the common length. Fields with SIMD slice kernels override it.
    fn mul_slices(out: &mut [Self], a: &[Self], b: &[Self]) {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = x * y;
        }
    }

    /// `acc[i] += s·v[i]` over the common length, in one pass. Fields with SIMD slice kernels
    /// override it.
    fn add_scaled_slice(acc: &mut [Self], v: &[Self], s: Self) {
        for (a, &x) in acc.iter_mut().zip(v) {
            *a += s * x;
        }
    }

    /// `self + self`.
    #[must_use]
    fn double(&self) -> Self {
        *self + *self
    }

    /// `self^exp` by square-and-multiply over the little-endian 64-bit limbs of `exp`.
    #[must_use]
    fn pow(&self, exp: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for limb in exp.iter().rev() {
            for bit in (0..64).rev() {
                acc = PackedField::square(&acc);
                if (limb >> bit) & 1 == 1 {
                    acc *= *self;
                }
            }
        }
        acc
    }

    /// Writes the canonical little-endian encoding into `out`.
    ///
    /// # Panics
    /// If `out.len() != Self::NUM_BYTES` (a programmer error).
    fn write_bytes(&self, out: &mut [u8]);

    /// Parses a canonical encoding; `None` for a wrong length or a non-canonical value.
    fn read_bytes(bytes: &[u8]) -> Option<Self>;

    /// The canonical encodings of `elements`, concatenated, as a view of their memory
    /// (no copy), where that is how the type is stored on this target; `None` otherwise
    /// (the default). Hashing code (Merkle leaves) uses it to skip [`Field::write_bytes`].
    fn slice_as_bytes(elements: &[Self]) -> Option<&[u8]> {
        let _ = elements;
        None
    }

    /// Maps `UNIFORM_BYTES` uniform random bytes to an element statistically close to
    /// uniform (see the crate docs).
    ///
    /// # Panics
    /// If `bytes.len() != Self::UNIFORM_BYTES` (a programmer error).
    fn from_uniform_bytes(bytes: &[u8]) -> Self;

    /// The `i`-th element of a fixed enumeration of the field with `from_index(0) = ZERO`
    /// and `from_index(1) = ONE`: the integer `i` in a prime field, the element whose bit
    /// pattern is `i` in a binary field. Injective for `i < min(|F|, 2^64)`.
    fn from_index(i: u64) -> Self;
}

/// An extension `Self ⊇ B` of degree [`ExtensionField::DEGREE`].
///
/// Every field is an extension of itself (degree 1) through a blanket implementation.
pub trait ExtensionField<B: Field>:
    Field + From<B> + Mul<B, Output = Self> + MulAssign<B> + Add<B, Output = Self> + AddAssign<B>
{
    /// `[Self : B]`.
    const DEGREE: usize;

    /// The `i`-th element of the fixed `B`-basis of `Self` (`basis(0) = ONE`).
    ///
    /// # Panics
    /// If `i >= DEGREE`.
    fn basis(i: usize) -> Self;

    /// Coordinates of `self` in the basis [`ExtensionField::basis`], `DEGREE` values.
    fn to_base_coeffs(&self, out: &mut [B]);

    /// `Σ coeffs[i] · basis(i)`.
    ///
    /// # Panics
    /// If `coeffs.len() != DEGREE`.
    fn from_base_coeffs(coeffs: &[B]) -> Self {
        assert_eq!(
            coeffs.len(),
            Self::DEGREE,
            "wrong number of base coefficients"
        );
        coeffs
            .iter()
            .enumerate()
            .fold(Self::ZERO, |acc, (i, c)| acc + Self::basis(i) * *c)
    }
}

impl<F: Field> ExtensionField<F> for F {
    const DEGREE: usize = 1;

    fn basis(i: usize) -> Self {
        assert_eq!(i, 0, "a field has degree 1 over itself");
        F::ONE
    }

    fn to_base_coeffs(&self, out: &mut [F]) {
        out[0] = *self;
    }
}

/// A field of characteristic two, GF(2^`BITS`).
pub trait BinaryField: Field {
    /// Degree over GF(2).
    const BITS: usize;

    /// The element whose low 128 bits of canonical representation are `bits` (higher bits
    /// zero). For fields smaller than GF(2^128) the high bits of `bits` must be zero.
    ///
    /// # Panics
    /// If `bits` does not fit in `BITS` bits.
    fn from_bits(bits: u128) -> Self;

    /// The low 128 bits of the canonical representation.
    fn low_bits(&self) -> u128;
}

/// A prime field GF(p).
pub trait PrimeField: Field {
    /// Bit length of the modulus p.
    const MODULUS_BITS: u32;
    /// Largest `s` with `2^s | p - 1`.
    const TWO_ADICITY: u32;

    /// `v mod p`.
    fn from_u64(v: u64) -> Self;

    /// `(Σ bytes[i] 256^i) mod p` for any number of bytes.
    fn from_le_bytes_mod_order(bytes: &[u8]) -> Self;

    /// The canonical integer representative in `[0, p)`, as little-endian 64-bit limbs.
    fn to_canonical_limbs(&self) -> impl AsRef<[u64]>;

    /// A primitive `2^log_n`-th root of unity.
    ///
    /// # Panics
    /// If `log_n > TWO_ADICITY`.
    fn two_adic_root_of_unity(log_n: u32) -> Self;
}
