//! Four GF(2^256) elements at once: [`PackedGhash256x4`], the
//! [`Field::Packing`](flockwork_field::Field::Packing) of [`Ghash256`].
//!
//! A packed element holds the `lo` coefficients of four elements in one
//! [`PackedGhash128x4`] and the `hi` coefficients in another, so the Karatsuba product of
//! [`Ghash256`] becomes three four-lane GHASH products (one `zmm` multiplication each with
//! AVX-512 + VPCLMULQDQ) and the multiplication by `β = x^121` a lane-wise shift; the
//! square is two four-lane squares. Lane `i` computes exactly what the scalar [`Ghash256`]
//! operations compute on lane `i` (tested in the parent module).

use core::ops::{Add, Mul, Neg, Sub};

use flockwork_field::{PackedField, derive_assign_ops};

use super::{Ghash256, mul_by_beta};
use crate::ghash::PackedGhash128x4;

/// Four [`Ghash256`] lanes: lane `i` is `lo.get(i) + hi.get(i)·Y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedGhash256x4 {
    /// The coefficients of 1.
    pub lo: PackedGhash128x4,
    /// The coefficients of `Y`.
    pub hi: PackedGhash128x4,
}

/// `v · β` lane by lane.
#[inline(always)]
fn mul_by_beta_x4(v: PackedGhash128x4) -> PackedGhash128x4 {
    PackedGhash128x4::from_lanes(v.to_lanes().map(mul_by_beta))
}

impl Add for PackedGhash256x4 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self {
            lo: self.lo + rhs.lo,
            hi: self.hi + rhs.hi,
        }
    }
}

impl Sub for PackedGhash256x4 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self + rhs
    }
}

impl Neg for PackedGhash256x4 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
}

impl Mul for PackedGhash256x4 {
    type Output = Self;
    /// Karatsuba, as [`Ghash256`]'s product, with four-lane GHASH products.
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        let m0 = self.lo * rhs.lo;
        let m1 = self.hi * rhs.hi;
        let m2 = (self.lo + self.hi) * (rhs.lo + rhs.hi);
        Self {
            lo: m0 + mul_by_beta_x4(m1),
            hi: m2 + m0,
        }
    }
}

derive_assign_ops!(PackedGhash256x4);

impl PackedField for PackedGhash256x4 {
    type Scalar = Ghash256;
    const WIDTH: usize = 4;

    #[inline]
    fn broadcast(value: Ghash256) -> Self {
        Self {
            lo: PackedGhash128x4::broadcast(value.lo),
            hi: PackedGhash128x4::broadcast(value.hi),
        }
    }

    #[inline]
    fn from_fn(mut f: impl FnMut(usize) -> Ghash256) -> Self {
        let v: [Ghash256; 4] = core::array::from_fn(&mut f);
        Self {
            lo: PackedGhash128x4::from_lanes(v.map(|x| x.lo)),
            hi: PackedGhash128x4::from_lanes(v.map(|x| x.hi)),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Ghash256 {
        Ghash256::new(self.lo.get(i), self.hi.get(i))
    }

    #[inline]
    fn set(&mut self, i: usize, value: Ghash256) {
        self.lo.set(i, value.lo);
        self.hi.set(i, value.hi);
    }

    /// `(lo + hi·Y)^2 = (lo^2 + β hi^2) + hi^2·Y` (squaring is linear in characteristic 2
    /// and `Y^2 = Y + β`).
    #[inline]
    fn square(&self) -> Self {
        let (s0, s1) = (self.lo.square(), self.hi.square());
        Self {
            lo: s0 + mul_by_beta_x4(s1),
            hi: s1,
        }
    }
}
