//! GF(2^256) as a quadratic extension of GHASH GF(2^128).
//!
//! [`Ghash256`] `= GF(2^128)[Y] / (Y^2 + Y + β)` with [`BETA`] `β = x^121` (the integer
//! `1 << 121`). An Artin–Schreier polynomial `Y^2 + Y + β` over GF(2^128) is irreducible iff
//! the absolute trace `Tr(β) = Σ_{i<128} β^(2^i)` is 1 (its roots `y` would satisfy
//! `y^2 + y = β`, whose image `Tr(y^2 + y) = 0`). By Newton's identities for the GHASH
//! modulus `x^128 + x^7 + x^2 + x + 1`, the power sums of its roots vanish below degree 121
//! and `Tr(x^121) = 121 · 1 = 1`, so `x^121` is the element of smallest bit pattern with
//! trace 1 (tests recompute both facts). Multiplying by `x^121` is a shift and a single
//! reduction step, so `β` costs no GHASH product.
//!
//! Elements are `lo + hi·Y`; canonical bytes are `lo` then `hi`, 16 little-endian bytes each.
//! Products use Karatsuba with three GHASH products:
//! `(a0 + a1 Y)(b0 + b1 Y) = (m0 + β m1) + (m2 + m0) Y` with `m0 = a0 b0`, `m1 = a1 b1`,
//! `m2 = (a0 + a1)(b0 + b1)` (because `Y^2 = Y + β`). The conjugate of `Y` is `Y + 1`, the
//! norm `N(a0 + a1 Y) = a0^2 + a0 a1 + β a1^2 ∈ GF(2^128)`, and
//! `(a0 + a1 Y)^-1 = ((a0 + a1) + a1 Y) · N^-1`.

use crate::macros::impl_quadratic_extension_glue;
use core::fmt;
use core::ops::Mul;

use flockwork_field::{
    BinaryField, ExtensionField, Field, PackedField, derive_field_ops, impl_scalar_packed,
};

use crate::Ghash128;

mod packed;
pub use packed::PackedGhash256x4;

/// The exponent of `β = x^BETA_EXPONENT`.
pub const BETA_EXPONENT: u32 = 121;

/// `β = x^121`, the constant term of the defining polynomial `Y^2 + Y + β`.
pub const BETA: Ghash128 = Ghash128(1 << BETA_EXPONENT);

/// `v · β = v · x^121` in GHASH: `v·x^121 = lo + hi·x^128` with `hi < 2^121`, and
/// `x^128 = x^7 + x^2 + x + 1` reduces `hi` in one step without overflow.
#[inline(always)]
#[must_use]
pub fn mul_by_beta(v: Ghash128) -> Ghash128 {
    let lo = v.0 << BETA_EXPONENT;
    let hi = v.0 >> (128 - BETA_EXPONENT);
    Ghash128(lo ^ hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7))
}

/// An element `lo + hi·Y` of GF(2^256) = GF(2^128)\[Y\]/(Y^2 + Y + β), `β` = [`BETA`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ghash256 {
    /// The coefficient of 1.
    pub lo: Ghash128,
    /// The coefficient of `Y`.
    pub hi: Ghash128,
}

impl Ghash256 {
    /// The generator `Y` (a root of `Y^2 + Y + β`).
    pub const Y: Self = Self::new(Ghash128::ZERO, Ghash128::ONE);

    /// `lo + hi·Y`.
    #[inline(always)]
    #[must_use]
    pub const fn new(lo: Ghash128, hi: Ghash128) -> Self {
        Self { lo, hi }
    }

    fn square_fast(self) -> Self {
        let (s0, s1) = (PackedField::square(&self.lo), PackedField::square(&self.hi));
        Self::new(s0 + mul_by_beta(s1), s1)
    }
}

impl fmt::Debug for Ghash256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ghash256({:#034x} + {:#034x}·Y)", self.lo.0, self.hi.0)
    }
}

impl fmt::Display for Ghash256 {
    /// `hi` then `lo`, 64 hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}{:032x}", self.hi.0, self.lo.0)
    }
}

impl Mul for Ghash256 {
    type Output = Self;
    /// Karatsuba: three GHASH products and a multiplication by `β` (a shift).
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        let m0 = self.lo * rhs.lo;
        let m1 = self.hi * rhs.hi;
        let m2 = (self.lo + self.hi) * (rhs.lo + rhs.hi);
        Self::new(m0 + mul_by_beta(m1), m2 + m0)
    }
}

impl_quadratic_extension_glue!(Ghash256, Ghash128, packing = PackedGhash256x4);

#[cfg(test)]
mod tests {
    use flockwork_field::PackedField;
    use flockwork_testkit::field::{check_extension, check_field};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::gf2::absolute_trace;

    fn random(rng: &mut StdRng) -> Ghash256 {
        Ghash256::new(Ghash128(rng.random()), Ghash128(rng.random()))
    }

    #[test]
    fn packed_lanes_compute_the_scalar_operations() {
        let mut rng = StdRng::seed_from_u64(0x256);
        let edges = [
            Ghash256::ZERO,
            Ghash256::ONE,
            Ghash256::Y,
            Ghash256::new(Ghash128(u128::MAX), Ghash128(u128::MAX)),
        ];
        for round in 0..200 {
            let a: [Ghash256; 4] = if round == 0 {
                edges
            } else {
                core::array::from_fn(|_| random(&mut rng))
            };
            let b: [Ghash256; 4] = core::array::from_fn(|i| {
                if round == 1 {
                    edges[3 - i]
                } else {
                    random(&mut rng)
                }
            });
            let (pa, pb) = (
                PackedGhash256x4::from_fn(|i| a[i]),
                PackedGhash256x4::from_fn(|i| b[i]),
            );
            let (sum, prod, sq) = (pa + pb, pa * pb, pa.square());
            for i in 0..4 {
                assert_eq!(pa.get(i), a[i]);
                assert_eq!(sum.get(i), a[i] + b[i]);
                assert_eq!(prod.get(i), a[i] * b[i], "lane {i}");
                assert_eq!(sq.get(i), a[i] * a[i], "lane {i}");
            }
            let mut set = PackedGhash256x4::broadcast(a[0]);
            set.set(2, b[2]);
            assert_eq!(
                (0..4).map(|i| set.get(i)).collect::<Vec<_>>(),
                [a[0], a[0], b[2], a[0]]
            );
        }
    }

    #[test]
    fn field_laws() {
        check_field::<Ghash256>();
    }

    #[test]
    fn extends_ghash() {
        check_extension::<Ghash256, Ghash128>();
    }

    #[test]
    fn beta_has_trace_one_and_is_the_smallest_such() {
        assert_eq!(absolute_trace(BETA), Ghash128::ONE);
        // Trace is F2-linear and vanishes on x^i for i < 121, hence on every bit pattern
        // below 2^121.
        for i in 0..BETA_EXPONENT {
            assert_eq!(
                absolute_trace(Ghash128(1 << i)),
                Ghash128::ZERO,
                "Tr(x^{i})"
            );
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn defining_polynomial_has_no_root_in_the_base_field() {
        // A root y would give y^2 + y = β, but z ↦ z^2 + z has image Ker(Tr) ∌ β.
        assert!(crate::iso::solve_artin_schreier(BETA).is_none());
        let y = Ghash256::Y;
        assert_eq!(y * y + y + Ghash256::from(BETA), Ghash256::ZERO);
    }

    #[test]
    fn mul_by_beta_is_a_ghash_product() {
        let mut rng = StdRng::seed_from_u64(9);
        for v in [0, 1, u128::MAX, 1 << 127]
            .into_iter()
            .chain((0..1000).map(|_| rng.random()))
        {
            assert_eq!(mul_by_beta(Ghash128(v)), Ghash128(v) * BETA);
        }
    }

    #[test]
    fn product_matches_schoolbook() {
        let mut rng = StdRng::seed_from_u64(4);
        for _ in 0..1000 {
            let (a, b) = (random(&mut rng), random(&mut rng));
            // (a0 + a1 Y)(b0 + b1 Y) with Y^2 = Y + β, four products.
            let a1b1 = a.hi * b.hi;
            let expected =
                Ghash256::new(a.lo * b.lo + a1b1 * BETA, a.lo * b.hi + a.hi * b.lo + a1b1);
            assert_eq!(a * b, expected);
            assert_eq!(a.norm(), (a * a.conjugate()).lo);
            assert_eq!((a * a.conjugate()).hi, Ghash128::ZERO);
        }
    }

    #[test]
    fn frobenius_has_order_256() {
        let mut rng = StdRng::seed_from_u64(8);
        let a = random(&mut rng);
        let mut s = a;
        for i in 1..=256 {
            s = PackedField::square(&s);
            if i == 128 {
                // a^(2^128) is the conjugate over GF(2^128).
                assert_eq!(s, a.conjugate());
            }
        }
        assert_eq!(s, a, "a^(2^256) = a");
    }
}
