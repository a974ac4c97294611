//! GF(2^128) in GHASH form.
//!
//! Elements are polynomials over GF(2) modulo `x^128 + x^7 + x^2 + x + 1`, stored in a `u128`
//! whose bit `i` is the coefficient of `x^i`. This is the GCM polynomial *without* GCM's bit
//! reflection (NIST SP 800-38D §6.3 reflects bits; we do not), the convention of Binius64 and
//! Flock (eprint 2026/1329 §3) and of the official Poseidon2b instance.
//!
//! Multiplication is a 128 × 128 carry-less product followed by a reduction; the product
//! kernels live in [`crate::arch`] and are chosen at run time from the CPU's features.
//!
//! | item | what |
//! |---|---|
//! | [`Ghash128`] | one element; `*` uses the active backend's scalar kernel |
//! | [`PackedGhash128x4`] | four elements, multiplied with one SIMD kernel (`Field::Packing`) |
//! | [`batch`] | slice kernels (`mul_slices`, `mul_assign_scalar`, `dot`), dispatched once per call |
//! | [`Ghash256Unreduced`] | an unreduced 255-bit product, for sums reduced once |

use core::fmt;
use core::ops::{Add, Mul, Neg, Sub};

use flockwork_field::{BinaryField, Field, derive_field_ops, impl_scalar_packed};

use crate::arch;

pub mod batch;
mod packed;
mod unreduced;

pub use packed::PackedGhash128x4;

/// Variables of GF(2) values packed into one GF(2^128) element (`2^7 = 128` bits): the
/// packing of ring-switching, which both the commitments (`flockwork_pcs::ring_switch`) and
/// the Boolean GKR's input claims use.
pub const PACKED_VARS: usize = 7;
pub use unreduced::Ghash256Unreduced;

/// An element of GF(2^128) in GHASH (polynomial) basis; bit `i` is the coefficient of `x^i`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Ghash128(pub u128);

impl Ghash128 {
    /// The generator `x` of the polynomial basis.
    pub const X: Self = Self(2);

    /// The element with bit pattern `bits`.
    #[inline(always)]
    #[must_use]
    pub const fn new(bits: u128) -> Self {
        Self(bits)
    }

    /// The bit pattern (bit `i` = coefficient of `x^i`).
    #[inline(always)]
    #[must_use]
    pub const fn to_bits(self) -> u128 {
        self.0
    }

    /// Bit patterns viewed as elements, without a copy (`Ghash128` is a transparent `u128`).
    #[must_use]
    pub fn slice_from_bits(bits: &[u128]) -> &[Self] {
        // SAFETY: `Ghash128` is `#[repr(transparent)]` over `u128` (same layout, alignment
        // and validity); the borrow is carried over unchanged.
        unsafe { core::slice::from_raw_parts(bits.as_ptr().cast::<Self>(), bits.len()) }
    }

    /// The elements as `u64` words without a copy: element `i` is words `2i` (bits 0..64)
    /// and `2i + 1` (bits 64..128). Little-endian targets only (there the `u128` in memory is
    /// exactly these two words).
    #[cfg(target_endian = "little")]
    #[must_use]
    pub fn slice_as_words(elements: &[Self]) -> &[u64] {
        // SAFETY: `Ghash128` is a transparent `u128`: on a little-endian target its 16 bytes
        // are the low then the high `u64`, every bit pattern is a valid `u64`, and the
        // alignment of `u128` is a multiple of that of `u64`. The view borrows `elements`.
        unsafe { core::slice::from_raw_parts(elements.as_ptr().cast::<u64>(), 2 * elements.len()) }
    }

    /// Multiplicative inverse by Itoh–Tsujii: `x^-1 = x^(2^128 - 2) = (x^(2^127 - 1))^2`, with
    /// `x^(2^k - 1)` built along the chain 1, 2, 3, 6, 7, 14, 15, 30, 31, 62, 63, 126, 127.
    /// Returns zero for zero.
    #[must_use]
    pub fn invert_or_zero(self) -> Self {
        // a = x^(2^k - 1) for the current k.
        let square_n = |mut v: Self, n: u32| {
            for _ in 0..n {
                v = v.square_fast();
            }
            v
        };
        let x = self;
        let mut a = x; // k = 1
        let mut k = 1u32;
        for step in [
            false, true, false, true, false, true, false, true, false, true, false, true,
        ] {
            if step {
                // k -> k + 1
                a = a.square_fast() * x;
                k += 1;
            } else {
                // k -> 2k
                a = square_n(a, k) * a;
                k *= 2;
            }
        }
        debug_assert_eq!(k, 127);
        a.square_fast()
    }

    #[inline(always)]
    fn square_fast(self) -> Self {
        Self(arch::square(self.0))
    }
}

impl fmt::Debug for Ghash128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ghash128({:#034x})", self.0)
    }
}

impl fmt::Display for Ghash128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl Add for Ghash128 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self(self.0 ^ rhs.0)
    }
}

impl Sub for Ghash128 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0 ^ rhs.0)
    }
}

impl Neg for Ghash128 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
}

impl Mul for Ghash128 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(arch::mul(self.0, rhs.0))
    }
}

derive_field_ops!(Ghash128, zero = Ghash128(0), one = Ghash128(1));
impl_scalar_packed!(Ghash128, |x: &Ghash128| x.square_fast());

impl Field for Ghash128 {
    const ZERO: Self = Self(0);
    const ONE: Self = Self(1);
    const CHARACTERISTIC_TWO: bool = true;
    const NUM_BYTES: usize = 16;
    const UNIFORM_BYTES: usize = 16;
    const ORDER_BITS: u32 = 128;

    type Packing = PackedGhash128x4;

    fn inverse(&self) -> Option<Self> {
        (self.0 != 0).then(|| self.invert_or_zero())
    }

    fn write_bytes(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes());
    }

    fn read_bytes(bytes: &[u8]) -> Option<Self> {
        Some(Self(u128::from_le_bytes(bytes.try_into().ok()?)))
    }

    /// The elements' memory: on a little-endian target a `u128`'s bytes are its canonical
    /// little-endian encoding.
    #[cfg(target_endian = "little")]
    fn slice_as_bytes(elements: &[Self]) -> Option<&[u8]> {
        // SAFETY: `Ghash128` is a transparent `u128` (16 bytes, no padding), every byte is
        // initialised, `u8` has alignment 1, and the view borrows `elements`.
        Some(unsafe {
            core::slice::from_raw_parts(elements.as_ptr().cast::<u8>(), 16 * elements.len())
        })
    }

    fn from_uniform_bytes(bytes: &[u8]) -> Self {
        Self(u128::from_le_bytes(
            bytes.try_into().expect("GF(2^128) samples 16 bytes"),
        ))
    }

    fn from_index(i: u64) -> Self {
        Self(u128::from(i))
    }

    fn scale_slice(v: &mut [Self], s: Self) {
        batch::mul_assign_scalar(v, s);
    }

    fn inner_product(a: &[Self], b: &[Self]) -> Self {
        let n = a.len().min(b.len());
        batch::dot(&a[..n], &b[..n])
    }

    fn mul_slices(out: &mut [Self], a: &[Self], b: &[Self]) {
        let n = out.len().min(a.len()).min(b.len());
        batch::mul_slices(&mut out[..n], &a[..n], &b[..n]);
    }

    /// Rows of fewer than four elements are scaled one product at a time (less than one
    /// SIMD register: the kernel's dispatch would cost more than the products).
    fn add_scaled_slice(acc: &mut [Self], v: &[Self], s: Self) {
        let n = acc.len().min(v.len());
        if n < 4 {
            acc.iter_mut().zip(v).for_each(|(a, &x)| *a += s * x);
            return;
        }
        batch::add_mul_scalar(&mut acc[..n], &v[..n], s);
    }
}

impl BinaryField for Ghash128 {
    const BITS: usize = 128;

    fn from_bits(bits: u128) -> Self {
        Self(bits)
    }

    fn low_bits(&self) -> u128 {
        self.0
    }
}

#[cfg(test)]
mod tests;
