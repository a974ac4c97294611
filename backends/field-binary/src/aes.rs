//! GF(2^8) in the AES representation and its embedding `phi8` into GHASH GF(2^128).
//!
//! [`Aes8`] is GF(2)\[y\]/(y^8 + y^4 + y^3 + y + 1) (the Rijndael polynomial `0x11B`, FIPS-197
//! §4.2), bit `i` = coefficient of `y^i`. Products use compile-time log/exp tables.
//!
//! [`phi8`] is the field embedding GF(2^8) → GF(2^128) of Flock (eprint 2026/1329 §3) and
//! its reference code: it sends `α = y = 0x02` to the root
//! [`PHI8_ALPHA`] `= 0x0dcb364640a222fe_6b8330483c2e9849` of the AES polynomial in GHASH, and
//! is F2-linear: `phi8(v) = ⊕_{i : v_i = 1} PHI8_ALPHA^i`. The 256 images are a `const` table.
//! [`ByteMulTable`] multiplies one fixed GHASH element by embedded bytes with one lookup.
//!
//! With the `std` feature, `Ghash128` is an [`ExtensionField`](flockwork_field::ExtensionField) of degree 16 over `Aes8`
//! (through `phi8`) with the basis `1, x, …, x^15`.

use core::ops::{Add, AddAssign, Mul, MulAssign};

use crate::Ghash128;
use crate::byte_field::{BasisProducts, LogExpTables};
use crate::macros::impl_uint_binary_field;

/// An element of GF(2^8) = GF(2)\[y\]/(y^8 + y^4 + y^3 + y + 1); bit `i` = coefficient of `y^i`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Aes8(pub u8);

/// The AES reduction polynomial `y^8 + y^4 + y^3 + y + 1` with its `y^8` term.
pub const AES_POLY: u16 = 0x11B;

/// `y^n mod AES_POLY` for `n < 15`.
const fn aes_monomial(n: usize) -> u8 {
    let mut v: u16 = 1;
    let mut i = 0;
    while i < n {
        v <<= 1;
        if v & 0x100 != 0 {
            v ^= AES_POLY;
        }
        i += 1;
    }
    v as u8
}

/// `y^i · y^j` for the AES representation.
pub(crate) const fn aes_basis_products() -> BasisProducts {
    let mut p = [[0u8; 8]; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            p[i][j] = aes_monomial(i + j);
            j += 1;
        }
        i += 1;
    }
    p
}

pub(crate) static AES_TABLES: LogExpTables = LogExpTables::new(&aes_basis_products());

impl Aes8 {
    /// `α = y`, the class of the indeterminate (`0x02`).
    pub const ALPHA: Self = Self(0x02);

    /// The smallest multiplicative generator (`0x03 = y + 1`, found when the tables are built).
    pub const GENERATOR: Self = Self(AES_TABLES.generator());

    /// The element with bit pattern `bits`.
    #[inline(always)]
    #[must_use]
    pub const fn new(bits: u8) -> Self {
        Self(bits)
    }

    /// Inverse, and zero for zero.
    #[inline]
    #[must_use]
    pub fn invert_or_zero(self) -> Self {
        Self(AES_TABLES.inverse_or_zero(self.0))
    }
}

impl Mul for Aes8 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(AES_TABLES.mul(self.0, rhs.0))
    }
}

impl_uint_binary_field!(
    Aes8,
    u8,
    8,
    square = |x: &Aes8| *x * *x,
    inverse = |x: &Aes8| x.invert_or_zero()
);

/// `phi8(α)`: a root of `y^8 + y^4 + y^3 + y + 1` in GHASH GF(2^128) (hi_lo hex
/// `0dcb364640a222fe_6b8330483c2e9849`), the image of `α = 0x02` chosen by Flock.
pub const PHI8_ALPHA: Ghash128 = Ghash128(0x0dcb_3646_40a2_22fe_6b83_3048_3c2e_9849);

/// `PHI8_ALPHA^i` for `i < 8`: the images of the AES polynomial basis. A test recomputes
/// them by GHASH multiplication.
pub const PHI8_BASIS: [Ghash128; 8] = [
    Ghash128(0x0000_0000_0000_0000_0000_0000_0000_0001),
    Ghash128(0x0dcb_3646_40a2_22fe_6b83_3048_3c2e_9849),
    Ghash128(0x3d5b_d35c_9464_6a24_7573_da4a_5f77_10ed),
    Ghash128(0x6d58_c4e1_81f9_199f_41a1_2db1_f974_f3ac),
    Ghash128(0xa72e_c177_64d7_ced5_5e2f_716f_4ede_412f),
    Ghash128(0x4d52_354a_3a3d_8c86_5cb1_0fba_bcf0_0118),
    Ghash128(0x553e_92e8_bc0a_e9a7_95ed_1f57_f363_2d4d),
    Ghash128(0x9325_2331_bf04_2b11_5126_25b1_f09f_a87e),
];

/// The F2-linear combinations `⊕_{i : b_i = 1} basis[i]` for every byte `b`.
const fn byte_span(basis: &[u128; 8]) -> [u128; 256] {
    let mut out = [0u128; 256];
    let mut b = 1usize;
    while b < 256 {
        out[b] = out[b & (b - 1)] ^ basis[b.trailing_zeros() as usize];
        b += 1;
    }
    out
}

const fn phi8_basis_bits() -> [u128; 8] {
    let mut bits = [0u128; 8];
    let mut i = 0;
    while i < 8 {
        bits[i] = PHI8_BASIS[i].0;
        i += 1;
    }
    bits
}

/// `PHI8_TABLE[v] = phi8(v)` for every byte `v` (4 KiB, built at compile time).
static PHI8_TABLE: [u128; 256] = byte_span(&phi8_basis_bits());

/// The embedding `phi8`: GF(2^8) (AES) → GF(2^128) (GHASH), `y ↦ PHI8_ALPHA`, one lookup.
#[inline(always)]
#[must_use]
pub fn phi8(v: Aes8) -> Ghash128 {
    Ghash128(PHI8_TABLE[usize::from(v.0)])
}

/// The 256 products `g · phi8(b)` of one fixed GHASH element `g` with every embedded byte
/// (4 KiB), built with 8 GHASH products and 248 XORs. For hot loops that multiply the same
/// `g` by many bytes: each product is then a single lookup.
#[derive(Clone)]
pub struct ByteMulTable {
    products: [u128; 256],
}

impl ByteMulTable {
    /// The table of `g · phi8(b)` for all `b`.
    #[must_use]
    pub fn new(g: Ghash128) -> Self {
        let mut basis = [0u128; 8];
        for (dst, p) in basis.iter_mut().zip(PHI8_BASIS) {
            *dst = (g * p).0;
        }
        Self {
            products: byte_span(&basis),
        }
    }

    /// The fixed factor `g` (`g · phi8(1)`).
    #[must_use]
    pub fn factor(&self) -> Ghash128 {
        Ghash128(self.products[1])
    }

    /// `g · phi8(b)`.
    #[inline(always)]
    #[must_use]
    pub fn mul(&self, b: Aes8) -> Ghash128 {
        Ghash128(self.products[usize::from(b.0)])
    }
}

impl core::fmt::Debug for ByteMulTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ByteMulTable")
            .field("factor", &self.factor())
            .finish_non_exhaustive()
    }
}

impl From<Aes8> for Ghash128 {
    /// [`phi8`].
    #[inline(always)]
    fn from(v: Aes8) -> Self {
        phi8(v)
    }
}

impl Mul<Aes8> for Ghash128 {
    type Output = Self;
    /// `self · phi8(rhs)`: one table lookup and one GHASH product.
    #[inline(always)]
    fn mul(self, rhs: Aes8) -> Self {
        self * phi8(rhs)
    }
}

impl MulAssign<Aes8> for Ghash128 {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Aes8) {
        *self = *self * rhs;
    }
}

impl Add<Aes8> for Ghash128 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Aes8) -> Self {
        self + phi8(rhs)
    }
}

impl AddAssign<Aes8> for Ghash128 {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Aes8) {
        *self = *self + rhs;
    }
}

#[cfg(feature = "std")]
mod coordinates {
    //! `Ghash128` as a vector space over `phi8(GF(2^8))` with basis `1, x, …, x^15`.

    use std::sync::OnceLock;

    use flockwork_field::ExtensionField;

    use super::{Aes8, PHI8_BASIS};
    use crate::Ghash128;
    use crate::gf2::{BitMatrix128, ByteTableMap};

    /// The coordinate map `[from, to]`: `from` sends a `u128` whose byte `i` is the
    /// coefficient `c_i` to `Σ phi8(c_i) · x^i`; `to` is its inverse.
    struct CoordinateMaps {
        from: ByteTableMap,
        to: ByteTableMap,
    }

    /// The F2-matrix of `(c_0, …, c_15) ↦ Σ phi8(c_i) x^i`: column `8i + j` is
    /// `phi8(y^j) · x^i`.
    pub(super) fn coefficient_matrix() -> BitMatrix128 {
        BitMatrix128::from_fn(|col| {
            let (i, j) = (col / 8, col % 8);
            (PHI8_BASIS[j] * Ghash128(1 << i)).0
        })
    }

    fn maps() -> &'static CoordinateMaps {
        static MAPS: OnceLock<CoordinateMaps> = OnceLock::new();
        MAPS.get_or_init(|| {
            let m = coefficient_matrix();
            let inv = m
                .inverse()
                .expect("1, x, ..., x^15 is a basis of GF(2^128) over phi8(GF(2^8))");
            CoordinateMaps {
                from: ByteTableMap::new(&m),
                to: ByteTableMap::new(&inv),
            }
        })
    }

    /// `Ghash128 ⊇ phi8(GF(2^8))`, degree 16, basis `x^i` (`i < 16`): `1, x, …, x^15` are
    /// independent over the subfield because `x` generates GF(2^128) over GF(2), so its
    /// minimal polynomial over GF(2^8) has degree 128 / 8 = 16 (checked by a test that
    /// inverts the coordinate matrix).
    impl ExtensionField<Aes8> for Ghash128 {
        const DEGREE: usize = 16;

        fn basis(i: usize) -> Self {
            assert!(i < 16, "GF(2^128) has degree 16 over GF(2^8)");
            Self(1 << i)
        }

        fn to_base_coeffs(&self, out: &mut [Aes8]) {
            let bytes = maps().to.apply(self.0).to_le_bytes();
            for (o, b) in out.iter_mut().zip(bytes) {
                *o = Aes8(b);
            }
        }

        fn from_base_coeffs(coeffs: &[Aes8]) -> Self {
            assert_eq!(coeffs.len(), 16, "wrong number of base coefficients");
            let mut bytes = [0u8; 16];
            for (b, c) in bytes.iter_mut().zip(coeffs) {
                *b = c.0;
            }
            Self(maps().from.apply(u128::from_le_bytes(bytes)))
        }
    }
}

#[cfg(test)]
mod tests;
