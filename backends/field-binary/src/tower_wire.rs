//! Tower arithmetic behind the GHASH wire format: [`TowerWire128`] and [`TowerWire256`], the
//! fields a verifier uses to check, **in the binary-tower basis**, proofs written by a prover
//! that computes in the GHASH basis ([`Ghash128`], [`Ghash256`]).
//!
//! ## Tower arithmetic
//!
//! [`Tower128`] is `T_7` of the Wiedemann / Fan–Paar tower
//! `T_{k+1} = T_k[X_k]/(X_k^2 + X_{k-1} X_k + 1)` ([`crate::tower`]): a product is a
//! recursive Karatsuba over the halves down to byte log/exp tables (81 byte products per
//! `T_7` product, no carry-less multiplication), an inverse recurses through the norm. GHASH
//! multiplies polynomials modulo `x^128 + x^7 + x^2 + x + 1` with CLMUL. The two share no
//! code and no constant beyond the bit-level XOR of addition.
//!
//! ## Wire format
//!
//! Both are GF(2^128), and [`crate::iso`] fixes an isomorphism `φ: T_7 → GHASH`
//! ([`tower_to_ghash`]): F2-linear (a 128 × 128 bit matrix) and multiplicative, since it
//! sends the tower generators `X_k` to roots `Y_k ∈ GHASH` of the same defining equations
//! `Y_k^2 + Y_{k-1} Y_k + 1 = 0`, so it sends the tower monomial basis to a basis and every
//! product of monomials to the product of the images. A [`TowerWire128`] holds the tower
//! element `t` and multiplies, adds and inverts it as [`Tower128`] does; but everything that
//! leaves or enters the field as bits is the GHASH element `φ(t)`:
//!
//! | operation | value |
//! |---|---|
//! | [`Field::write_bytes`] / [`Field::read_bytes`] | the 16 bytes of `φ(t)` (every pattern canonical) |
//! | [`Field::from_uniform_bytes`] | `φ⁻¹` of GHASH's element for the same bytes |
//! | [`Field::from_index`], [`BinaryField::from_bits`] | `φ⁻¹(i)`, `φ⁻¹(bits)` (GHASH bit patterns) |
//! | [`BinaryField::low_bits`] | the bits of `φ(t)` |
//!
//! So a transcript absorbs and squeezes the same bytes, and a sumcheck evaluates at the same
//! points, whichever representation a party computes in: for every function `f` built from
//! `+`, `·`, inverses and these conversions, `φ(f_tower(x)) = f_ghash(φ(x))`. The conversion
//! tables of [`crate::iso`] are touched only at this boundary (reading and writing bytes);
//! no product goes through them.
//!
//! ## The quadratic extension
//!
//! [`Ghash256`] `= GHASH[Y]/(Y^2 + Y + β)`, `β = x^121` ([`crate::ext256`]). Its tower twin is
//! [`TowerWire256`] `= T_7[Y]/(Y^2 + Y + β_T)` with [`BETA_TOWER`] `β_T = φ⁻¹(β)`. The
//! coefficient-wise map `Φ(lo + hi·Y) = φ(lo) + φ(hi)·Y` is a ring isomorphism
//! `T_7[Y] → GHASH[Y]` (it extends `φ` and fixes `Y`) sending the defining polynomial
//! `Y^2 + Y + β_T` to `Y^2 + Y + β`; it therefore induces an isomorphism of the quotients, and
//! `Y^2 + Y + β_T` is irreducible over `T_7` because its image is over GHASH
//! (`Tr(β) = 1`). Products use the same Karatsuba as [`Ghash256`] with `β_T` (a dense tower
//! element, so one full tower product) in place of the shift by `x^121`. Canonical bytes are
//! `lo` then `hi` in wire format, 32 bytes: exactly the bytes of `Φ(a)` as a [`Ghash256`];
//! `from_uniform_bytes`, `from_index`, `from_bits` and `low_bits` follow [`Ghash256`]'s
//! conventions through `Φ` (the low coefficient carries the bits, `hi = 0`).
//!
//! Everything here needs `std` (the conversion tables of [`crate::iso`]).

use crate::macros::impl_quadratic_extension_glue;
use core::fmt;
use core::ops::{Add, Mul, Neg, Sub};

use flockwork_field::{
    BinaryField, ExtensionField, Field, PackedField, derive_field_ops, impl_scalar_packed,
};

use crate::iso::{ghash_to_tower, tower_to_ghash};
use crate::{Ghash128, Ghash256, Tower128};

/// `β_T = φ⁻¹(x^121)`: the constant term of [`TowerWire256`]'s defining polynomial
/// `Y^2 + Y + β_T`, the tower image of [`crate::ext256::BETA`] (tests recompute it through
/// the isomorphism tables).
pub const BETA_TOWER: Tower128 = Tower128(0xc58e_e61b_69f5_e330_3f67_4775_ff17_bc38);

/// An element of GF(2^128) computed in the binary-tower basis ([`Tower128`] arithmetic) and
/// encoded in the GHASH basis (module docs, "Wire format").
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct TowerWire128(pub Tower128);

impl TowerWire128 {
    /// The element whose tower representation is `t`.
    #[inline(always)]
    #[must_use]
    pub const fn new(t: Tower128) -> Self {
        Self(t)
    }

    /// The tower representation.
    #[inline(always)]
    #[must_use]
    pub const fn tower(self) -> Tower128 {
        self.0
    }

    /// `φ⁻¹(g)`: the element that the GHASH element `g` represents ([`ghash_to_tower`]).
    #[inline]
    #[must_use]
    pub fn from_ghash(g: Ghash128) -> Self {
        Self(ghash_to_tower(g))
    }

    /// `φ(self)`: the GHASH element, i.e. the wire value ([`tower_to_ghash`]).
    #[inline]
    #[must_use]
    pub fn to_ghash(self) -> Ghash128 {
        tower_to_ghash(self.0)
    }

    /// Inverse in the tower, and zero for zero.
    #[inline]
    #[must_use]
    pub fn invert_or_zero(self) -> Self {
        Self(self.0.invert_or_zero())
    }
}

impl fmt::Debug for TowerWire128 {
    /// The tower bits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TowerWire128(tower {:#034x})", self.0.0)
    }
}

impl fmt::Display for TowerWire128 {
    /// The wire (GHASH) bits, 32 hex digits, as [`Ghash128`] displays them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_ghash())
    }
}

impl Add for TowerWire128 {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self(self.0 + rhs.0)
    }
}

impl Sub for TowerWire128 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self(self.0 + rhs.0)
    }
}

impl Neg for TowerWire128 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self
    }
}

impl Mul for TowerWire128 {
    type Output = Self;
    /// The tower product ([`Tower128`]'s Karatsuba recursion).
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(self.0 * rhs.0)
    }
}

derive_field_ops!(
    TowerWire128,
    zero = TowerWire128(Tower128(0)),
    one = TowerWire128(Tower128(1))
);
impl_scalar_packed!(TowerWire128, |x: &TowerWire128| TowerWire128(
    PackedField::square(&x.0)
));

impl Field for TowerWire128 {
    const ZERO: Self = Self(Tower128(0));
    const ONE: Self = Self(Tower128(1));
    const CHARACTERISTIC_TWO: bool = true;
    const NUM_BYTES: usize = 16;
    const UNIFORM_BYTES: usize = 16;
    const ORDER_BITS: u32 = 128;

    type Packing = Self;

    fn inverse(&self) -> Option<Self> {
        self.0.inverse().map(Self)
    }

    /// The 16 bytes of the GHASH element `φ(self)`.
    fn write_bytes(&self, out: &mut [u8]) {
        self.to_ghash().write_bytes(out);
    }

    /// `φ⁻¹` of the GHASH element these bytes encode.
    fn read_bytes(bytes: &[u8]) -> Option<Self> {
        Ghash128::read_bytes(bytes).map(Self::from_ghash)
    }

    fn from_uniform_bytes(bytes: &[u8]) -> Self {
        Self::from_ghash(Ghash128::from_uniform_bytes(bytes))
    }

    fn from_index(i: u64) -> Self {
        Self::from_ghash(Ghash128::from_index(i))
    }
}

impl BinaryField for TowerWire128 {
    const BITS: usize = 128;

    /// `φ⁻¹` of the GHASH element with bit pattern `bits`.
    fn from_bits(bits: u128) -> Self {
        Self::from_ghash(Ghash128(bits))
    }

    /// The bit pattern of `φ(self)`.
    fn low_bits(&self) -> u128 {
        self.to_ghash().0
    }
}

impl From<Ghash128> for TowerWire128 {
    /// [`TowerWire128::from_ghash`].
    fn from(g: Ghash128) -> Self {
        Self::from_ghash(g)
    }
}

impl From<TowerWire128> for Ghash128 {
    /// [`TowerWire128::to_ghash`].
    fn from(t: TowerWire128) -> Self {
        t.to_ghash()
    }
}

/// `v · β_T`, a full tower product.
#[inline(always)]
fn mul_by_beta(v: TowerWire128) -> TowerWire128 {
    v * TowerWire128(BETA_TOWER)
}

/// An element `lo + hi·Y` of GF(2^256) = `T_7[Y]/(Y^2 + Y + β_T)` (module docs), the tower
/// twin of [`Ghash256`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TowerWire256 {
    /// The coefficient of 1.
    pub lo: TowerWire128,
    /// The coefficient of `Y`.
    pub hi: TowerWire128,
}

impl TowerWire256 {
    /// The generator `Y` (a root of `Y^2 + Y + β_T`).
    pub const Y: Self = Self::new(TowerWire128::ZERO, TowerWire128::ONE);

    /// `lo + hi·Y`.
    #[inline(always)]
    #[must_use]
    pub const fn new(lo: TowerWire128, hi: TowerWire128) -> Self {
        Self { lo, hi }
    }

    /// `Φ⁻¹(g)`, coefficient-wise.
    #[must_use]
    pub fn from_ghash(g: Ghash256) -> Self {
        Self::new(
            TowerWire128::from_ghash(g.lo),
            TowerWire128::from_ghash(g.hi),
        )
    }

    /// `Φ(self)`, coefficient-wise: the wire value.
    #[must_use]
    pub fn to_ghash(self) -> Ghash256 {
        Ghash256::new(self.lo.to_ghash(), self.hi.to_ghash())
    }

    fn square_fast(self) -> Self {
        let (s0, s1) = (PackedField::square(&self.lo), PackedField::square(&self.hi));
        Self::new(s0 + mul_by_beta(s1), s1)
    }
}

impl fmt::Debug for TowerWire256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TowerWire256({:?} + {:?}·Y)", self.lo, self.hi)
    }
}

impl fmt::Display for TowerWire256 {
    /// The wire value as [`Ghash256`] displays it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_ghash())
    }
}

impl Mul for TowerWire256 {
    type Output = Self;
    /// Karatsuba with `Y^2 = Y + β_T`: four tower products.
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        let m0 = self.lo * rhs.lo;
        let m1 = self.hi * rhs.hi;
        let m2 = (self.lo + self.hi) * (rhs.lo + rhs.hi);
        Self::new(m0 + mul_by_beta(m1), m2 + m0)
    }
}

impl From<Ghash256> for TowerWire256 {
    /// [`TowerWire256::from_ghash`].
    fn from(g: Ghash256) -> Self {
        Self::from_ghash(g)
    }
}

impl From<TowerWire256> for Ghash256 {
    /// [`TowerWire256::to_ghash`].
    fn from(t: TowerWire256) -> Self {
        t.to_ghash()
    }
}

// The basis `1, Y` is the one [`Ghash256`] uses over GHASH, so coordinates map
// coefficient-wise.
impl_quadratic_extension_glue!(TowerWire256, TowerWire128);

#[cfg(test)]
mod tests {
    use flockwork_testkit::field::{check_extension, check_field};
    use proptest::prelude::*;

    use super::*;
    use crate::ext256::BETA;

    fn ghash256(lo: u128, hi: u128) -> Ghash256 {
        Ghash256::new(Ghash128(lo), Ghash128(hi))
    }

    #[test]
    fn field_laws() {
        check_field::<TowerWire128>();
        check_field::<TowerWire256>();
    }

    #[test]
    fn extends_the_base() {
        check_extension::<TowerWire256, TowerWire128>();
    }

    #[test]
    fn beta_tower_is_the_image_of_beta() {
        assert_eq!(ghash_to_tower(BETA), BETA_TOWER);
        let y = TowerWire256::Y;
        assert_eq!(
            y * y + y + TowerWire256::from(TowerWire128(BETA_TOWER)),
            TowerWire256::ZERO
        );
        assert_eq!(TowerWire256::Y.to_ghash(), Ghash256::Y);
    }

    #[test]
    fn constants_and_edges_map() {
        assert_eq!(TowerWire128::ZERO.to_ghash(), Ghash128::ZERO);
        assert_eq!(TowerWire128::ONE.to_ghash(), Ghash128::ONE);
        assert_eq!(TowerWire256::ONE.to_ghash(), Ghash256::ONE);
        assert_eq!(TowerWire256::ZERO.inverse(), None);
        for i in [0u64, 1, 2, 3, 255, u64::MAX] {
            assert_eq!(
                TowerWire256::from_index(i).to_ghash(),
                Ghash256::from_index(i)
            );
        }
    }

    proptest! {
        #[test]
        fn the_map_is_a_field_isomorphism(
            a0: u128, a1: u128, b0: u128, b1: u128
        ) {
            let (ga, gb) = (ghash256(a0, a1), ghash256(b0, b1));
            let (ta, tb) = (TowerWire256::from_ghash(ga), TowerWire256::from_ghash(gb));
            prop_assert_eq!(ta.to_ghash(), ga);
            prop_assert_eq!((ta * tb).to_ghash(), ga * gb);
            prop_assert_eq!((ta + tb).to_ghash(), ga + gb);
            prop_assert_eq!(PackedField::square(&ta).to_ghash(), PackedField::square(&ga));
            prop_assert_eq!(ta.inverse().map(TowerWire256::to_ghash), ga.inverse());
            prop_assert_eq!(ta.norm().to_ghash(), ga.norm());
            prop_assert_eq!((ta * tb.lo).to_ghash(), ga * gb.lo);
            prop_assert_eq!(
                (ta.lo * tb.hi).inverse().map(TowerWire128::to_ghash),
                (ga.lo * gb.hi).inverse()
            );
        }

        #[test]
        fn wire_conventions_match_ghash(bytes in proptest::collection::vec(any::<u8>(), 32), i: u64) {
            let g = Ghash256::from_uniform_bytes(&bytes);
            let t = TowerWire256::from_uniform_bytes(&bytes);
            prop_assert_eq!(t.to_ghash(), g);
            let mut out = [0u8; 32];
            t.write_bytes(&mut out);
            prop_assert_eq!(&out[..], &bytes[..]);
            prop_assert_eq!(TowerWire256::read_bytes(&bytes), Some(t));
            prop_assert_eq!(TowerWire128::read_bytes(&bytes[..16]), Some(t.lo));
            prop_assert_eq!(
                TowerWire128::from_uniform_bytes(&bytes[16..]).to_ghash(),
                Ghash128::from_uniform_bytes(&bytes[16..])
            );
            prop_assert_eq!(TowerWire256::from_index(i).to_ghash(), Ghash256::from_index(i));
            prop_assert_eq!(TowerWire128::from_index(i).to_ghash(), Ghash128::from_index(i));
            let bits = u128::from_le_bytes(bytes[..16].try_into().unwrap());
            prop_assert_eq!(TowerWire256::from_bits(bits).to_ghash(), Ghash256::from_bits(bits));
            prop_assert_eq!(TowerWire256::from_bits(bits).low_bits(), bits);
            prop_assert_eq!(t.low_bits(), g.low_bits());
        }
    }
}
