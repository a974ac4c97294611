//! Goldilocks arithmetic on eight lanes of one AVX-512 register, behind a safe interface.
//!
//! ## Why a token and a kernel trait
//!
//! AVX-512 instructions may only run on a CPU that has them, so the arithmetic is reachable
//! only through an [`Avx512`] token, which [`Avx512::detect`] hands out after probing the CPU
//! (`is_x86_feature_detected!` with the `std` feature, the compile-time target features
//! without it). Every [`PackedGoldilocks`] value is built from a token, so holding one proves
//! the instructions are available, and its operations are safe.
//!
//! For the instructions to be *inlined* (a call per 8-lane operation would cost more than the
//! operation), the code using them must be compiled with AVX-512 enabled. That is what
//! [`Avx512::vectorize`] does: it runs an [`Avx512Kernel`] inside a function compiled with
//! `#[target_feature(enable = "avx512f")]`; the kernel's `run` and every operation here are
//! `#[inline(always)]`, so the whole kernel is compiled for AVX-512 and the intrinsics inline
//! into it. Client crates (the Poseidon2 gadget) write their kernels against this interface
//! without any `unsafe` of their own.
//!
//! ## Arithmetic (p = 2^64 − 2^32 + 1, ε = 2^32 − 1 = 2^64 mod p)
//!
//! Lanes always hold canonical residues `[0, p)`.
//!
//! * **Addition** of canonical `a, b`: with `n = p − b ∈ (0, p]`, `a + b = a − n` if `a ≥ n`
//!   (the sum reached p), else `a − n + p` — two subtractions, one unsigned compare and one
//!   masked addition, no carry flag needed.
//! * **Multiplication**: AVX-512F multiplies 32 × 32 → 64 bits (`vpmuludq`), so a 64 × 64 →
//!   128-bit product takes four of them on the 32-bit halves (schoolbook, with the middle
//!   terms summed without overflow: `a_h·b_l + (a_l·b_l ≫ 32) < 2^64`).
//! * **Reduction** of `x = lo + 2^64·hi`, `hi = 2^32·h_t + h_m`: `2^64 ≡ ε` and `2^96 ≡ −1`
//!   give `x ≡ lo − h_t + ε·h_m`. A borrow of `lo − h_t` wrapped by `2^64 ≡ ε` and is undone
//!   by subtracting ε (the wrapped value is `≥ 2^64 − 2^32 + 1 > ε`); a carry of the final
//!   addition dropped `2^64 ≡ ε` and is put back (the wrapped sum is `< ε·h_m ≤ 2^64 − 2^33 +
//!   1`, so this cannot carry again). One conditional subtraction of p makes the result
//!   canonical. This is the scalar [`Goldilocks`] reduction, lane by lane, with masks in
//!   place of carry flags.
//!
//! The tests compare every operation with the scalar [`Goldilocks`] (the portable twin) on
//! edge values and random inputs.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_cmpge_epu64_mask, _mm512_cmplt_epu64_mask,
    _mm512_loadu_si512, _mm512_mask_add_epi64, _mm512_mask_blend_epi32, _mm512_mask_sub_epi64,
    _mm512_mul_epu32, _mm512_set1_epi64, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_sub_epi64,
};

use core::ops::{Add, Mul};

use crate::Goldilocks;

/// p.
const P: u64 = Goldilocks::MODULUS;
/// ε = 2^64 − p = 2^32 − 1.
const EPSILON: u64 = 0xFFFF_FFFF;

/// Proof that the CPU executes AVX-512F: the only way to reach [`PackedGoldilocks`].
#[derive(Clone, Copy, Debug)]
pub struct Avx512 {
    _private: (),
}

/// Code to run with AVX-512 enabled (see the module docs): implement `run` with
/// `#[inline(always)]` and hand the kernel to [`Avx512::vectorize`].
pub trait Avx512Kernel {
    /// What the kernel returns.
    type Output;
    /// The kernel's body; `simd` builds [`PackedGoldilocks`] values.
    fn run(self, simd: Avx512) -> Self::Output;
}

impl Avx512 {
    /// The token, if the CPU supports AVX-512F.
    #[must_use]
    pub fn detect() -> Option<Self> {
        #[cfg(feature = "std")]
        let available = std::is_x86_feature_detected!("avx512f");
        #[cfg(not(feature = "std"))]
        let available = cfg!(target_feature = "avx512f");
        available.then_some(Self { _private: () })
    }

    /// Runs `kernel` compiled with AVX-512F enabled, so that its 8-lane operations inline.
    #[inline]
    pub fn vectorize<K: Avx512Kernel>(self, kernel: K) -> K::Output {
        // SAFETY: a token exists only if `detect` found AVX-512F on this CPU.
        #[allow(unsafe_code)]
        unsafe {
            run_with_avx512(self, kernel)
        }
    }
}

#[target_feature(enable = "avx512f")]
fn run_with_avx512<K: Avx512Kernel>(simd: Avx512, kernel: K) -> K::Output {
    kernel.run(simd)
}

/// Eight canonical Goldilocks elements in one `zmm` register (lane `i` = element `i`).
#[derive(Clone, Copy, Debug)]
pub struct PackedGoldilocks(__m512i);

// Every function below executes AVX-512F instructions. SAFETY (for each `unsafe` block): a
// `PackedGoldilocks` is only ever built from an `Avx512` token (or from other
// `PackedGoldilocks` values), so the CPU supports AVX-512F; no intrinsic here touches memory
// except the unaligned load/store of whole `[u64; 8]` arrays.
#[allow(unsafe_code)]
impl PackedGoldilocks {
    /// The same element in every lane.
    #[inline(always)]
    #[must_use]
    pub fn splat(_simd: Avx512, x: Goldilocks) -> Self {
        Self(unsafe { _mm512_set1_epi64(x.to_u64() as i64) })
    }

    /// Lane `i` = `lanes[i]`.
    #[inline(always)]
    #[must_use]
    pub fn from_array(_simd: Avx512, lanes: [Goldilocks; 8]) -> Self {
        let raw = lanes.map(Goldilocks::to_u64);
        Self(unsafe { _mm512_loadu_si512(raw.as_ptr().cast()) })
    }

    /// The lanes.
    #[inline(always)]
    #[must_use]
    pub fn to_array(self) -> [Goldilocks; 8] {
        let mut raw = [0u64; 8];
        unsafe { _mm512_storeu_si512(raw.as_mut_ptr().cast(), self.0) };
        raw.map(Goldilocks::from_u64_reduced)
    }

    /// `2·self`, lane by lane.
    #[inline(always)]
    #[must_use]
    pub fn double(self) -> Self {
        self + self
    }

    /// `self²`, lane by lane.
    #[inline(always)]
    #[must_use]
    pub fn square(self) -> Self {
        self * self
    }
}

impl Add for PackedGoldilocks {
    type Output = Self;

    /// Lane-wise sum (module docs).
    #[inline(always)]
    #[allow(unsafe_code)]
    fn add(self, other: Self) -> Self {
        // SAFETY: see the inherent impl.
        unsafe {
            let p = _mm512_set1_epi64(P as i64);
            let n = _mm512_sub_epi64(p, other.0);
            let diff = _mm512_sub_epi64(self.0, n);
            let below = _mm512_cmplt_epu64_mask(self.0, n);
            Self(_mm512_mask_add_epi64(diff, below, diff, p))
        }
    }
}

impl Mul for PackedGoldilocks {
    type Output = Self;

    /// Lane-wise product (module docs).
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        let (lo, hi) = mul_wide(self.0, other.0);
        Self(reduce(lo, hi))
    }
}

/// The 128-bit products `(lo, hi)` of the lanes of `a` and `b`.
#[inline(always)]
#[allow(unsafe_code)]
fn mul_wide(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    // SAFETY: reached only from `PackedGoldilocks` methods (see above).
    unsafe {
        let a_hi = _mm512_srli_epi64(a, 32);
        let b_hi = _mm512_srli_epi64(b, 32);
        // vpmuludq multiplies the low 32 bits of each 64-bit lane.
        let ll = _mm512_mul_epu32(a, b);
        let lh = _mm512_mul_epu32(a, b_hi);
        let hl = _mm512_mul_epu32(a_hi, b);
        let hh = _mm512_mul_epu32(a_hi, b_hi);
        let low32 = _mm512_set1_epi64(EPSILON as i64);
        // t = a_h·b_l + (a_l·b_l ≫ 32) < 2^64; mid = a_l·b_h + (t mod 2^32) < 2^64.
        let t = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));
        let mid = _mm512_add_epi64(lh, _mm512_and_si512(t, low32));
        // lo = (mid mod 2^32)·2^32 + (ll mod 2^32): odd 32-bit words from mid ≪ 32.
        let lo = _mm512_mask_blend_epi32(0xAAAA, ll, _mm512_slli_epi64(mid, 32));
        let hi = _mm512_add_epi64(
            hh,
            _mm512_add_epi64(_mm512_srli_epi64(t, 32), _mm512_srli_epi64(mid, 32)),
        );
        (lo, hi)
    }
}

/// `lo + 2^64·hi mod p`, canonical (module docs).
#[inline(always)]
#[allow(unsafe_code)]
fn reduce(lo: __m512i, hi: __m512i) -> __m512i {
    // SAFETY: reached only from `PackedGoldilocks` methods (see above).
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let p = _mm512_set1_epi64(P as i64);
        let top = _mm512_srli_epi64(hi, 32);
        let borrow = _mm512_cmplt_epu64_mask(lo, top);
        let t0 = _mm512_sub_epi64(lo, top);
        let t0 = _mm512_mask_sub_epi64(t0, borrow, t0, eps);
        // ε·(hi mod 2^32): vpmuludq reads the low 32 bits of `hi`.
        let t1 = _mm512_mul_epu32(hi, eps);
        let sum = _mm512_add_epi64(t0, t1);
        let carry = _mm512_cmplt_epu64_mask(sum, t1);
        let sum = _mm512_mask_add_epi64(sum, carry, sum, eps);
        let over = _mm512_cmpge_epu64_mask(sum, p);
        _mm512_mask_sub_epi64(sum, over, sum, p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_field::Field;
    use proptest::prelude::*;

    /// Values where carries, borrows and the final subtraction happen.
    const EDGES: [u64; 8] = [
        0,
        1,
        EPSILON,
        EPSILON + 1,
        P - 1,
        P - 2,
        1 << 63,
        P - EPSILON,
    ];

    struct Check([u64; 8], [u64; 8]);

    impl Avx512Kernel for Check {
        type Output = ();
        #[inline(always)]
        fn run(self, simd: Avx512) {
            let a = self.0.map(Goldilocks::from_u64_reduced);
            let b = self.1.map(Goldilocks::from_u64_reduced);
            let (va, vb) = (
                PackedGoldilocks::from_array(simd, a),
                PackedGoldilocks::from_array(simd, b),
            );
            let lanes = |f: fn(Goldilocks, Goldilocks) -> Goldilocks| -> [Goldilocks; 8] {
                core::array::from_fn(|i| f(a[i], b[i]))
            };
            assert_eq!((va + vb).to_array(), lanes(|x, y| x + y));
            assert_eq!((va * vb).to_array(), lanes(|x, y| x * y));
            assert_eq!(va.double().to_array(), lanes(|x, _| x.double()));
            assert_eq!(va.square().to_array(), lanes(|x, _| x * x));
            assert_eq!(
                PackedGoldilocks::splat(simd, a[3]).to_array(),
                [a[3]; 8],
                "splat"
            );
        }
    }

    fn check(a: [u64; 8], b: [u64; 8]) {
        if let Some(simd) = Avx512::detect() {
            simd.vectorize(Check(a, b));
        }
    }

    #[test]
    fn edge_values_match_the_scalar_field() {
        // Every pair of edge values, eight pairs at a time.
        for (i, &x) in EDGES.iter().enumerate() {
            let rotated: [u64; 8] = core::array::from_fn(|j| EDGES[(i + j) % 8]);
            check([x; 8], EDGES);
            check(EDGES, rotated);
        }
    }

    proptest! {
        #[test]
        fn random_values_match_the_scalar_field(
            a in proptest::array::uniform8(0..P),
            b in proptest::array::uniform8(0..P),
        ) {
            check(a, b);
        }
    }
}
