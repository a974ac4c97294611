//! Four GF(2^128) elements multiplied together: [`PackedGhash128x4`], the
//! [`Field::Packing`](flockwork_field::Field::Packing) of [`Ghash128`].
//!
//! Addition is a lane-wise XOR. Multiplication runs the active [`Backend`](crate::arch::Backend)'s
//! four-lane kernel: one `zmm` register of four elements with AVX-512 + VPCLMULQDQ, two `ymm`
//! registers with AVX2 + VPCLMULQDQ, four `xmm` registers with PCLMULQDQ, or the portable
//! twin — each lane a Karatsuba product (3 carry-less multiplications) followed by the
//! reduction by `x^128 + x^7 + x^2 + x + 1` (2 more), all lanes in the same instructions.

use core::fmt;
use core::ops::{Add, Mul, Neg, Sub};

use flockwork_field::{PackedField, derive_assign_ops};

use super::Ghash128;
use crate::arch::{self, Available};

/// Four [`Ghash128`] lanes; lane `i` is the bit pattern `self.0[i]`.
///
/// Aligned to 64 bytes so one value fills one cache line and one `zmm` register.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct PackedGhash128x4(pub [u128; 4]);

impl PackedGhash128x4 {
    /// The packing of four scalars, lane `i` = `lanes[i]`.
    #[inline]
    #[must_use]
    pub const fn from_lanes(lanes: [Ghash128; 4]) -> Self {
        Self([lanes[0].0, lanes[1].0, lanes[2].0, lanes[3].0])
    }

    /// The four lanes as scalars.
    #[inline]
    #[must_use]
    pub const fn to_lanes(self) -> [Ghash128; 4] {
        let v = self.0;
        [
            Ghash128(v[0]),
            Ghash128(v[1]),
            Ghash128(v[2]),
            Ghash128(v[3]),
        ]
    }
}

impl fmt::Debug for PackedGhash128x4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.to_lanes()).finish()
    }
}

impl Add for PackedGhash128x4 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self(core::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}

impl Sub for PackedGhash128x4 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self + rhs
    }
}

impl Neg for PackedGhash128x4 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
}

impl Mul for PackedGhash128x4 {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Self(arch::mul_x4_on(Available::active(), &self.0, &rhs.0))
    }
}

derive_assign_ops!(PackedGhash128x4);

impl PackedField for PackedGhash128x4 {
    type Scalar = Ghash128;
    const WIDTH: usize = 4;

    #[inline]
    fn broadcast(value: Ghash128) -> Self {
        Self([value.0; 4])
    }

    #[inline]
    fn from_fn(mut f: impl FnMut(usize) -> Ghash128) -> Self {
        Self(core::array::from_fn(|i| f(i).0))
    }

    #[inline]
    fn get(&self, i: usize) -> Ghash128 {
        Ghash128(self.0[i])
    }

    #[inline]
    fn set(&mut self, i: usize, value: Ghash128) {
        self.0[i] = value.0;
    }

    #[inline]
    fn square(&self) -> Self {
        Self(arch::square_x4_on(Available::active(), &self.0))
    }
}
