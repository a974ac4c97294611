//! What the permutation needs from a field: the S-box and multiplication by a basis monomial.
//!
//! The matrices of Poseidon2b are written with small polynomials in `x` (the integer 2): the
//! entries are the bit patterns `1, 3, 5, …, 2^14`. A field representation reads a bit
//! pattern `b` as an element through [`BinaryField::from_bits`]; the element whose pattern is
//! `1 << k` is the *monomial* `m_k`. In the official polynomial basis ([`Ghash128`]),
//! `m_k = x^k` and `v · x^k` is a shift plus a reduction by `x^128 = x^7 + x^2 + x + 1`:
//!
//! ```text
//! v · x^k = (v << k) ⊕ h ⊕ (h << 1) ⊕ (h << 2) ⊕ (h << 7),   h = v >> (128 − k),
//! ```
//!
//! exact for `1 ≤ k ≤ 121` (then `h · (x^7 + x^2 + x + 1)` has degree `< 128`, no second
//! reduction). Other representations (the AES tower of frost-gkr, [`AesTower128`]) use a
//! general product with `m_k`.

use flockwork_field::{BinaryField, PackedField};
use flockwork_field_binary::ghash::PackedGhash128x4;
use flockwork_field_binary::{AesTower128, Ghash128};

/// One lane type of the round function: a field element or a SIMD packing of several, with
/// multiplication by a basis monomial.
pub trait Poseidon2bLane: PackedField {
    /// `self · m_k` lane-wise, where `m_k` is the element with bit pattern `1 << k`
    /// (`x^k` in the polynomial basis). `k < 128`.
    #[must_use]
    fn mul_monomial(self, k: u32) -> Self;
}

/// A 128-bit binary field the permutation runs over, together with its SIMD packing.
///
/// Implemented for [`Ghash128`] (the official polynomial basis, packed as
/// [`PackedGhash128x4`]) and [`AesTower128`] (frost-gkr's tower basis, unpacked).
pub trait Poseidon2bField: BinaryField<Packing: Poseidon2bLane> + Poseidon2bLane {
    /// `v ← v^7` for every element of `v`; the two scratch slices (each at least as long
    /// as `v`) are clobbered.
    ///
    /// The default runs [`sbox`] element by element; [`Ghash128`] overrides it with the
    /// backend's slice kernels (one dispatch per slice, four products per instruction with
    /// VPCLMULQDQ-512).
    fn sbox_slice(v: &mut [Self], scratch: &mut [Self], scratch2: &mut [Self]) {
        let _ = (scratch, scratch2);
        for x in v {
            *x = sbox(*x);
        }
    }
}

/// `v · x^k` in `GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)` on bit patterns (module docs).
/// Not recursive, so it inlines into the MDS kernels.
#[inline(always)]
#[must_use]
pub const fn ghash_mul_monomial(v: u128, k: u32) -> u128 {
    assert!(k < 128, "monomial exponent out of range");
    if k <= 121 {
        shift_reduce(v, k)
    } else {
        // Two steps keep each within the single-reduction range.
        shift_reduce(shift_reduce(v, 64), k - 64)
    }
}

/// `v · x^k` for `k ≤ 121`: a shift and one reduction by `x^128 = x^7 + x^2 + x + 1` (the
/// bits shifted out, `h`, have degree below 121, so `h·(x^7 + x^2 + x + 1)` fits).
#[inline(always)]
const fn shift_reduce(v: u128, k: u32) -> u128 {
    if k == 0 {
        return v;
    }
    let h = v >> (128 - k);
    (v << k) ^ h ^ (h << 1) ^ (h << 2) ^ (h << 7)
}

impl Poseidon2bLane for Ghash128 {
    #[inline(always)]
    fn mul_monomial(self, k: u32) -> Self {
        Ghash128(ghash_mul_monomial(self.0, k))
    }
}

impl Poseidon2bLane for PackedGhash128x4 {
    #[inline(always)]
    fn mul_monomial(self, k: u32) -> Self {
        PackedGhash128x4(self.0.map(|v| ghash_mul_monomial(v, k)))
    }
}

impl Poseidon2bField for Ghash128 {
    fn sbox_slice(v: &mut [Self], s2: &mut [Self], s3: &mut [Self]) {
        use flockwork_field_binary::ghash::batch::mul_slices;
        let n = v.len();
        let (s2, s3) = (&mut s2[..n], &mut s3[..n]);
        mul_slices(s2, v, v); // v^2
        mul_slices(s3, s2, v); // v^3
        mul_slices(s2, s3, s3); // v^6
        mul_slices(s3, s2, v); // v^7
        v.copy_from_slice(s3);
    }
}

impl Poseidon2bLane for AesTower128 {
    #[inline]
    fn mul_monomial(self, k: u32) -> Self {
        assert!(k < 128, "monomial exponent out of range");
        self * AesTower128(1 << k)
    }
}

impl Poseidon2bField for AesTower128 {}

/// The S-box `v ↦ v^7` lane-wise (`gcd(7, 2^128 − 1) = 1`, so it is a permutation), as
/// `v^2`, then `v^3 = v^2·v` and `v^4 = (v^2)^2` independently, then `v^7 = v^4·v^3`: two
/// squarings and two products on a critical path of three (the partial rounds are a
/// chain of S-boxes, so the depth sets the latency of one permutation).
#[inline(always)]
#[must_use]
pub fn sbox<P: PackedField>(v: P) -> P {
    let v2 = v.square();
    let v3 = v2 * v;
    let v4 = v2.square();
    v4 * v3
}
