//! Tower arithmetic on raw unsigned integers.
//!
//! Level `T_{k+1} = T_k[X_k] / (X_k^2 + X_{k-1}·X_k + 1)` stores `lo + hi·X_k` with `lo` in
//! the low half of the bits. With `t = X_{k-1}` (so `X_k^2 = t·X_k + 1`):
//!
//! * product: `(a0 + a1 X)(b0 + b1 X) = (m0 + m1) + (m2 + m0 + m1 + t·m1) X` with the three
//!   Karatsuba products `m0 = a0 b0`, `m1 = a1 b1`, `m2 = (a0 + a1)(b0 + b1)`;
//! * multiplication by the top generator: `(lo + hi X)·X = hi + (lo + t·hi) X`, recursive
//!   and multiplication-free down to one byte lookup;
//! * square: `(a0 + a1 X)^2 = (a0^2 + a1^2) + t·a1^2 X` (squaring is F2-linear);
//! * inverse: the conjugate of `X` is `X + t`, the norm is
//!   `N(a) = a·ā = a0^2 + t·a0 a1 + a1^2 ∈ T_k`, and `a^-1 = ((a0 + t a1) + a1 X) · N(a)^-1`.
//!
//! The recursion bottoms out at `T_3 = GF(2^8)` (a `u8`), multiplied with compile-time
//! log/exp tables in the tower basis.

use crate::byte_field::{BasisProducts, LogExpTables, bilinear_mul};

/// Product in `T_k` for an element of `2^k = width` bits (`width ∈ {1, 2, 4, 8}`), by the
/// defining recursion (slow; builds the byte tables).
const fn tower_mul_const(a: u8, b: u8, width: u32) -> u8 {
    if width == 1 {
        return a & b & 1;
    }
    let h = width / 2;
    let mask = (1u8 << h) - 1;
    let (a0, a1) = (a & mask, a >> h);
    let (b0, b1) = (b & mask, b >> h);
    let m0 = tower_mul_const(a0, b0, h);
    let m1 = tower_mul_const(a1, b1, h);
    let m2 = tower_mul_const(a0 ^ a1, b0 ^ b1, h);
    // X_{k-1} in the half field: 1 at the bottom level (X_{-1} = 1), else its top generator.
    let t = if h == 1 { 1 } else { 1u8 << (h / 2) };
    let lo = m0 ^ m1;
    let hi = m2 ^ m0 ^ m1 ^ tower_mul_const(m1, t, h);
    lo | (hi << h)
}

const fn tower8_basis_products() -> BasisProducts {
    let mut p = [[0u8; 8]; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            p[i][j] = tower_mul_const(1 << i, 1 << j, 8);
            j += 1;
        }
        i += 1;
    }
    p
}

/// Log/exp tables of `T_3 = GF(2^8)` in the tower basis.
static TOWER8_TABLES: LogExpTables = LogExpTables::new(&tower8_basis_products());

/// `X_2 = 0x10`, the top generator of `T_3`.
const TOWER8_TOP: u8 = 0x10;

/// `v · X_2` in `T_3` for every byte `v`.
static TOWER8_MUL_TOP: [u8; 256] = {
    let products = tower8_basis_products();
    let mut out = [0u8; 256];
    let mut v = 0usize;
    while v < 256 {
        out[v] = bilinear_mul(v as u8, TOWER8_TOP, &products);
        v += 1;
    }
    out
};

/// `v^2` in `T_3` for every byte `v`.
static TOWER8_SQUARE: [u8; 256] = {
    let products = tower8_basis_products();
    let mut out = [0u8; 256];
    let mut v = 0usize;
    while v < 256 {
        out[v] = bilinear_mul(v as u8, v as u8, &products);
        v += 1;
    }
    out
};

/// The smallest multiplicative generator of `T_3`.
pub(crate) const TOWER8_GENERATOR: u8 = LogExpTables::new(&tower8_basis_products()).generator();

/// Arithmetic of one tower level on its raw bit pattern.
pub(crate) trait TowerRepr: Copy + Eq + core::ops::BitXor<Output = Self> {
    /// `self · rhs`.
    fn t_mul(self, rhs: Self) -> Self;
    /// `self^2`.
    fn t_square(self) -> Self;
    /// `self · X_{k-1}` for the top generator `X_{k-1}` of this level `T_k`.
    fn t_mul_by_top(self) -> Self;
    /// `self^-1`, and 0 for 0.
    fn t_inverse_or_zero(self) -> Self;
}

impl TowerRepr for u8 {
    #[inline(always)]
    fn t_mul(self, rhs: Self) -> Self {
        TOWER8_TABLES.mul(self, rhs)
    }

    #[inline(always)]
    fn t_square(self) -> Self {
        TOWER8_SQUARE[usize::from(self)]
    }

    #[inline(always)]
    fn t_mul_by_top(self) -> Self {
        TOWER8_MUL_TOP[usize::from(self)]
    }

    #[inline]
    fn t_inverse_or_zero(self) -> Self {
        TOWER8_TABLES.inverse_or_zero(self)
    }
}

/// Implements [`TowerRepr`] for `$u` = `T_{k+1}` on top of `$half` = `T_k` (`$h` bits).
macro_rules! tower_level {
    ($u:ty, $half:ty, $h:expr) => {
        impl TowerRepr for $u {
            #[inline(always)]
            fn t_mul(self, rhs: Self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let (b0, b1) = split::<$u, $half>(rhs);
                let m0 = a0.t_mul(b0);
                let m1 = a1.t_mul(b1);
                let m2 = (a0 ^ a1).t_mul(b0 ^ b1);
                join::<$u, $half>(m0 ^ m1, m2 ^ m0 ^ m1 ^ m1.t_mul_by_top())
            }

            #[inline(always)]
            fn t_square(self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let (s0, s1) = (a0.t_square(), a1.t_square());
                join::<$u, $half>(s0 ^ s1, s1.t_mul_by_top())
            }

            #[inline(always)]
            fn t_mul_by_top(self) -> Self {
                let (lo, hi) = split::<$u, $half>(self);
                join::<$u, $half>(hi, lo ^ hi.t_mul_by_top())
            }

            fn t_inverse_or_zero(self) -> Self {
                let (a0, a1) = split::<$u, $half>(self);
                let norm = a0.t_square() ^ a0.t_mul(a1).t_mul_by_top() ^ a1.t_square();
                let n_inv = norm.t_inverse_or_zero();
                join::<$u, $half>((a0 ^ a1.t_mul_by_top()).t_mul(n_inv), a1.t_mul(n_inv))
            }
        }

        impl Halves<$half> for $u {
            #[inline(always)]
            fn lo(self) -> $half {
                self as $half
            }
            #[inline(always)]
            fn hi(self) -> $half {
                (self >> $h) as $half
            }
            #[inline(always)]
            fn from_halves(lo: $half, hi: $half) -> Self {
                Self::from(lo) | (Self::from(hi) << $h)
            }
        }
    };
}

/// A level split into its two halves `lo + hi·X`.
pub(crate) trait Halves<H>: Sized {
    /// The low half (`lo`).
    fn lo(self) -> H;
    /// The high half (`hi`, the coefficient of the top generator).
    fn hi(self) -> H;
    /// `lo + hi·X`.
    fn from_halves(lo: H, hi: H) -> Self;
}

#[inline(always)]
pub(crate) fn split<U: Halves<H> + Copy, H>(v: U) -> (H, H) {
    (v.lo(), v.hi())
}

#[inline(always)]
pub(crate) fn join<U: Halves<H>, H>(lo: H, hi: H) -> U {
    U::from_halves(lo, hi)
}

tower_level!(u16, u8, 8);
tower_level!(u32, u16, 16);
tower_level!(u64, u32, 32);
tower_level!(u128, u64, 64);
