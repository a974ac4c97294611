//! The AES-based tower of frost-gkr's Poseidon2b variant (see
//! `shared/notes/poseidon2b-gkr.md` and `vectors/poseidon2b/frost_gkr_tower_t4.json`).
//!
//! `A_8 = GF(2^8)` in AES form ([`Aes8`], modulus `0x11B`), then
//! `A_2k = A_k[X_k] / (X_k^2 + X_k + τ_k)` with `τ_8 = 0x20` and `τ_2k = τ_k · X_k`
//! (`τ_16 = 0x2000`, `τ_32 = 0x2000_0000`, `τ_64 = 0x2000_0000_0000_0000`). An element of
//! `A_2k` is `lo + hi·X_k`, `lo` in the low `k` bits. `X^2 + X + τ_k` is irreducible over
//! `A_k` iff `Tr_{A_k/GF(2)}(τ_k) = 1`, which a test checks at every level.
//!
//! Arithmetic per level (`X^2 = X + τ`, conjugate `X + 1`):
//! * product `(m0 + τ m1) + (m2 + m0) X` with Karatsuba products `m0 = a0 b0`,
//!   `m1 = a1 b1`, `m2 = (a0 + a1)(b0 + b1)`;
//! * `v · τ_2k = v · τ_k X_k = τ_k^2 hi + τ_k (lo + hi) X_k`, multiplication-free down to
//!   one AES-byte lookup;
//! * square `(a0^2 + τ a1^2) + a1^2 X`;
//! * inverse `((a0 + a1) + a1 X) · N^-1` with the norm `N = a0^2 + a0 a1 + τ a1^2`.
//!
//! Only the top level is a public type ([`AesTower128`]); it is an extension of degree 16
//! of [`Aes8`] (the low byte) with the monomial basis in `X_8, X_16, X_32, X_64` (chunk `i`
//! = byte `i`).

use core::ops::{Add, AddAssign, Mul, MulAssign};

use flockwork_field::ExtensionField;

use crate::Aes8;
use crate::aes::{AES_TABLES, aes_basis_products};
use crate::byte_field::bilinear_mul;
use crate::macros::impl_uint_binary_field;
use crate::tower::{join, split};

/// `τ_8 = 0x20`.
pub const TAU8: u8 = 0x20;

/// `v · τ_8` in AES GF(2^8) for every byte `v`.
static AES_MUL_TAU: [u8; 256] = {
    let products = aes_basis_products();
    let mut out = [0u8; 256];
    let mut v = 0usize;
    while v < 256 {
        out[v] = bilinear_mul(v as u8, TAU8, &products);
        v += 1;
    }
    out
};

/// Arithmetic of one level of the AES tower on its raw bit pattern.
trait AesTowerRepr: Copy + core::ops::BitXor<Output = Self> {
    fn a_mul(self, rhs: Self) -> Self;
    fn a_square(self) -> Self;
    /// `self · τ` for this level's `τ`.
    fn a_mul_by_tau(self) -> Self;
    fn a_inverse_or_zero(self) -> Self;
}

impl AesTowerRepr for u8 {
    #[inline(always)]
    fn a_mul(self, rhs: Self) -> Self {
        AES_TABLES.mul(self, rhs)
    }
    #[inline(always)]
    fn a_square(self) -> Self {
        AES_TABLES.mul(self, self)
    }
    #[inline(always)]
    fn a_mul_by_tau(self) -> Self {
        AES_MUL_TAU[usize::from(self)]
    }
    #[inline]
    fn a_inverse_or_zero(self) -> Self {
        AES_TABLES.inverse_or_zero(self)
    }
}

/// Implements [`AesTowerRepr`] for `$u = A_2k` over `$half = A_k`.
macro_rules! aes_tower_level {
    ($u:ty, $half:ty) => {
        impl AesTowerRepr for $u {
            #[inline(always)]
            fn a_mul(self, rhs: Self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let (b0, b1) = split::<$u, $half>(rhs);
                let m0 = a0.a_mul(b0);
                let m1 = a1.a_mul(b1);
                let m2 = (a0 ^ a1).a_mul(b0 ^ b1);
                join::<$u, $half>(m0 ^ m1.a_mul_by_tau(), m2 ^ m0)
            }

            #[inline(always)]
            fn a_square(self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let (s0, s1) = (a0.a_square(), a1.a_square());
                join::<$u, $half>(s0 ^ s1.a_mul_by_tau(), s1)
            }

            #[inline(always)]
            fn a_mul_by_tau(self) -> Self {
                let (lo, hi) = split::<$u, $half>(self);
                join::<$u, $half>(hi.a_mul_by_tau().a_mul_by_tau(), (lo ^ hi).a_mul_by_tau())
            }

            fn a_inverse_or_zero(self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let norm = a0.a_square() ^ a0.a_mul(a1) ^ a1.a_square().a_mul_by_tau();
                let n_inv = norm.a_inverse_or_zero();
                join::<$u, $half>((a0 ^ a1).a_mul(n_inv), a1.a_mul(n_inv))
            }
        }
    };
}

aes_tower_level!(u16, u8);
aes_tower_level!(u32, u16);
aes_tower_level!(u64, u32);
aes_tower_level!(u128, u64);

/// GF(2^128) as frost-gkr's AES tower `A_128 = A_64[X_64]/(X_64^2 + X_64 + τ_64)` (module
/// docs); the 128-bit integer is the tower-basis bit pattern.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct AesTower128(pub u128);

impl AesTower128 {
    /// The tower generator `X_k` for `k ∈ {8, 16, 32, 64}` (bit `k` set).
    ///
    /// # Panics
    /// For any other `k`.
    #[must_use]
    pub const fn generator(k: u32) -> Self {
        assert!(
            matches!(k, 8 | 16 | 32 | 64),
            "generators are X_8, X_16, X_32, X_64"
        );
        Self(1 << k)
    }

    /// `τ_k` for `k ∈ {8, 16, 32, 64}`: `τ_8 = 0x20` and `τ_2k = τ_k · X_k`, i.e. `0x20 << (k - 8)`.
    ///
    /// # Panics
    /// For any other `k`.
    #[must_use]
    pub const fn tau(k: u32) -> Self {
        assert!(
            matches!(k, 8 | 16 | 32 | 64),
            "tau is defined for k = 8, 16, 32, 64"
        );
        Self((TAU8 as u128) << (k - 8))
    }

    /// Inverse, and zero for zero.
    #[inline]
    #[must_use]
    pub fn invert_or_zero(self) -> Self {
        Self(self.0.a_inverse_or_zero())
    }
}

impl Mul for AesTower128 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(self.0.a_mul(rhs.0))
    }
}

impl_uint_binary_field!(
    AesTower128,
    u128,
    128,
    square = |x: &AesTower128| AesTower128(x.0.a_square()),
    inverse = |x: &AesTower128| x.invert_or_zero()
);

impl From<Aes8> for AesTower128 {
    #[inline(always)]
    fn from(v: Aes8) -> Self {
        Self(u128::from(v.0))
    }
}

impl Mul<Aes8> for AesTower128 {
    type Output = Self;
    /// Sixteen byte products, one per coordinate.
    #[inline]
    fn mul(self, rhs: Aes8) -> Self {
        let mut bytes = self.0.to_le_bytes();
        for b in &mut bytes {
            *b = b.a_mul(rhs.0);
        }
        Self(u128::from_le_bytes(bytes))
    }
}

impl MulAssign<Aes8> for AesTower128 {
    #[inline]
    fn mul_assign(&mut self, rhs: Aes8) {
        *self = *self * rhs;
    }
}

impl Add<Aes8> for AesTower128 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Aes8) -> Self {
        self + Self::from(rhs)
    }
}

impl AddAssign<Aes8> for AesTower128 {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Aes8) {
        *self = *self + rhs;
    }
}

/// Degree 16 over AES GF(2^8); `basis(i)` is the monomial at byte `i`.
impl ExtensionField<Aes8> for AesTower128 {
    const DEGREE: usize = 16;

    fn basis(i: usize) -> Self {
        assert!(i < 16, "GF(2^128) has degree 16 over GF(2^8)");
        Self(1 << (8 * i))
    }

    fn to_base_coeffs(&self, out: &mut [Aes8]) {
        assert_eq!(out.len(), 16, "wrong number of base coefficients");
        for (o, b) in out.iter_mut().zip(self.0.to_le_bytes()) {
            *o = Aes8(b);
        }
    }

    fn from_base_coeffs(coeffs: &[Aes8]) -> Self {
        assert_eq!(coeffs.len(), 16, "wrong number of base coefficients");
        let mut bytes = [0u8; 16];
        for (b, c) in bytes.iter_mut().zip(coeffs) {
            *b = c.0;
        }
        Self(u128::from_le_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use flockwork_field::{Field, PackedField};
    use flockwork_testkit::field::{check_extension, check_field};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;

    /// Product straight from the definition (four sub-products, explicit `τ`).
    fn reference_mul(a: u128, b: u128, width: u32) -> u128 {
        if width == 8 {
            return u128::from((Aes8(a as u8) * Aes8(b as u8)).0);
        }
        let h = width / 2;
        let mask = (1u128 << h) - 1;
        let (a0, a1, b0, b1) = (a & mask, a >> h, b & mask, b >> h);
        let tau = u128::from(TAU8) << (h - 8);
        let a1b1 = reference_mul(a1, b1, h);
        let lo = reference_mul(a0, b0, h) ^ reference_mul(a1b1, tau, h);
        let hi = reference_mul(a0, b1, h) ^ reference_mul(a1, b0, h) ^ a1b1;
        lo | (hi << h)
    }

    #[test]
    fn field_laws() {
        check_field::<AesTower128>();
    }

    #[test]
    fn extends_aes8() {
        check_extension::<AesTower128, Aes8>();
    }

    #[test]
    fn product_matches_definition() {
        let mut rng = StdRng::seed_from_u64(21);
        for _ in 0..300 {
            let (a, b): (u128, u128) = (rng.random(), rng.random());
            assert_eq!(
                (AesTower128(a) * AesTower128(b)).0,
                reference_mul(a, b, 128)
            );
        }
    }

    #[test]
    fn generators_satisfy_their_equations_and_taus_are_chained() {
        let mut tau_prev = AesTower128::tau(8);
        assert_eq!(tau_prev, AesTower128(0x20));
        for k in [8u32, 16, 32, 64] {
            let x = AesTower128::generator(k);
            let tau = AesTower128::tau(k);
            assert_eq!(x * x + x + tau, AesTower128::ZERO, "X_{k}");
            if k > 8 {
                assert_eq!(tau, tau_prev * AesTower128::generator(k / 2), "tau_{k}");
            }
            tau_prev = tau;
        }
        assert_eq!(AesTower128::tau(64).0, 0x2000_0000_0000_0000);
    }

    #[test]
    fn each_tau_has_trace_one_so_each_level_is_a_field() {
        // Tr_{A_k / GF(2)}(τ_k) = Σ_{i<k} τ_k^(2^i); τ_k lies in A_k, a subfield.
        for k in [8u32, 16, 32, 64] {
            let tau = AesTower128::tau(k);
            let mut power = tau;
            let mut trace = tau;
            for _ in 1..k {
                power = PackedField::square(&power);
                trace += power;
            }
            assert_eq!(trace, AesTower128::ONE, "Tr(tau_{k})");
            assert_eq!(power.square(), tau, "tau_{k} in A_{k}");
        }
    }

    #[test]
    fn frobenius_has_order_128() {
        let a = AesTower128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
        let mut s = a;
        for _ in 0..128 {
            s = PackedField::square(&s);
        }
        assert_eq!(s, a);
        assert_ne!(a.pow(&[1 << 32, 0]), a);
    }
}
