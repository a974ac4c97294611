//! x86-64 kernels: `PCLMULQDQ` on `xmm` ([`pclmul`]) and `VPCLMULQDQ` on `ymm`
//! ([`vpclmul256`], AVX2) and `zmm` ([`vpclmul512`], AVX-512F).
//!
//! All three modules are generated from one template, so they compute with the same formulas;
//! a register holds one field element per 128-bit lane (qword 0 = bits 0..64, which is the
//! little-endian memory layout of `u128`), and every instruction acts lane-wise.
//!
//! **Product (Karatsuba).** For `a = a0 + a1·x^64`, `b = b0 + b1·x^64` (64-bit halves):
//! `lo = a0·b0`, `hi = a1·b1`, `c = (a0 + a1)·(b0 + b1)`, and
//! `a·b = lo + (c + lo + hi)·x^64 + hi·x^128` — three carry-less multiplications.
//!
//! **Reduction.** Write the product as `lo + m·x^64 + hi·x^128` (128-bit `lo`, `m`, `hi`),
//! i.e. 64-bit words `q0 = lo0`, `q1 = lo1 + m0`, `q2 = hi0 + m1`, `q3 = hi1`. With
//! `P = x^7 + x^2 + x + 1 = 0x87` and `x^128 ≡ P`:
//! 1. `q3·x^192 ≡ (q3·P)·x^64`; `t = q3·P` has at most 71 bits, so adding it to `m` folds
//!    it into `q1, q2`;
//! 2. `q2·x^128 ≡ q2·P`; `u = q2·P` has at most 71 bits and lands in `q0, q1`.
//!
//! Result: `lo + (m + t)0·x^64 + u`, two more carry-less multiplications by the constant
//! `0x87` (five per product, four per square, whose middle term vanishes).
//!
//! Every entry point is an `unsafe fn` with `#[target_feature]`: the caller (the dispatch in
//! [`crate::arch`]) must have detected the features. Internal helpers are safe
//! `#[target_feature]` functions, callable without `unsafe` from functions that enable the
//! same features, and inlined into them.

/// Generates, in the calling module, the lane-wise kernels and the slice/packed entry points
/// for one vector width.
macro_rules! lane_kernels {
    (
        features: $feat:literal,
        vector: $V:ty,
        lanes: $lanes:literal,
        clmul: $clmul:ident,
        xor: $xor:ident,
        shuffle_epi32: $shuf:ident,
        unpacklo_epi64: $unpacklo:ident,
        zero: $zero:ident,
        splat_epi64: $splat:ident,
        broadcast_128: $bcast:path,
        load: $load:ident,
        store: $store:ident $(,)?
    ) => {
        #[allow(clippy::wildcard_imports)]
        use core::arch::x86_64::*;

        type V = $V;
        /// Field elements per register.
        const LANES: usize = $lanes;

        /// `x + swap_halves(x)`: `(x0 + x1)` in both qwords of each lane.
        #[target_feature(enable = $feat)]
        #[inline]
        fn fold_halves(x: V) -> V {
            $xor(x, $shuf::<0x4E>(x))
        }

        /// Karatsuba terms `(lo, c, hi)` of `a · b` per lane, `b_fold = fold_halves(b)`.
        #[target_feature(enable = $feat)]
        #[inline]
        fn karatsuba(a: V, b: V, b_fold: V) -> (V, V, V) {
            let lo = $clmul::<0x00>(a, b);
            let hi = $clmul::<0x11>(a, b);
            let c = $clmul::<0x00>(fold_halves(a), b_fold);
            (lo, c, hi)
        }

        /// Reduces `lo + m·x^64 + hi·x^128` per lane (see the module docs).
        #[target_feature(enable = $feat)]
        #[inline]
        fn reduce(lo: V, m: V, hi: V) -> V {
            let p = $splat(0x87);
            // t = q3 · P, folded into (q1, q2).
            let m = $xor(m, $clmul::<0x01>(hi, p));
            // Qword 1 of `w` is q2 = hi0 + m1.
            let w = $xor(m, $unpacklo($zero(), hi));
            let u = $clmul::<0x01>(w, p);
            // lo + m0·x^64 + u.
            $xor($xor(lo, $unpacklo($zero(), m)), u)
        }

        /// `a · b` per lane, `b_fold = fold_halves(b)`.
        #[target_feature(enable = $feat)]
        #[inline]
        fn mul_folded(a: V, b: V, b_fold: V) -> V {
            let (lo, c, hi) = karatsuba(a, b, b_fold);
            reduce(lo, $xor($xor(c, lo), hi), hi)
        }

        /// `a^2` per lane: `(a0 + a1·x^64)^2 = a0^2 + a1^2·x^128`, no middle term.
        #[target_feature(enable = $feat)]
        #[inline]
        fn square_v(a: V) -> V {
            reduce($clmul::<0x00>(a, a), $zero(), $clmul::<0x11>(a, a))
        }

        /// Loads `LANES` elements.
        #[target_feature(enable = $feat)]
        #[inline]
        fn load(chunk: &[u128]) -> V {
            assert_eq!(chunk.len(), LANES);
            // SAFETY: `chunk` holds exactly `LANES` `u128`s = `size_of::<V>()` readable bytes;
            // the unaligned load has no alignment requirement.
            unsafe { $load(chunk.as_ptr().cast()) }
        }

        /// Stores `LANES` elements.
        #[target_feature(enable = $feat)]
        #[inline]
        fn store(chunk: &mut [u128], v: V) {
            assert_eq!(chunk.len(), LANES);
            // SAFETY: `chunk` holds exactly `LANES` `u128`s = `size_of::<V>()` writable bytes;
            // the unaligned store has no alignment requirement, and any bits are a valid `u128`.
            unsafe { $store(chunk.as_mut_ptr().cast(), v) }
        }

        /// `out[i] = x[i] · y[i]`; the lengths must agree (checked by the dispatcher;
        /// extra elements are ignored).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn mul_slices(out: &mut [u128], x: &[u128], y: &[u128]) {
            let mut o = out.chunks_exact_mut(LANES);
            let mut a = x.chunks_exact(LANES);
            let mut b = y.chunks_exact(LANES);
            for ((o, a), b) in (&mut o).zip(&mut a).zip(&mut b) {
                let b = load(b);
                store(o, mul_folded(load(a), b, fold_halves(b)));
            }
            let rest = o.into_remainder().iter_mut();
            for ((o, &a), &b) in rest.zip(a.remainder()).zip(b.remainder()) {
                *o = super::pclmul::mul_u128(a, b);
            }
        }

        /// `v[i] = v[i] · s`.
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn mul_assign_scalar(v: &mut [u128], s: u128) {
            let sv = $bcast(super::pclmul::to_xmm(s));
            let s_fold = fold_halves(sv);
            let mut chunks = v.chunks_exact_mut(LANES);
            for c in &mut chunks {
                store(c, mul_folded(load(c), sv, s_fold));
            }
            for a in chunks.into_remainder() {
                *a = super::pclmul::mul_u128(*a, s);
            }
        }

        /// `acc[i] += v[i] · s`; the lengths must agree (checked by the dispatcher; extra
        /// elements are ignored).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn add_mul_scalar(acc: &mut [u128], v: &[u128], s: u128) {
            let sv = $bcast(super::pclmul::to_xmm(s));
            let s_fold = fold_halves(sv);
            let mut o = acc.chunks_exact_mut(LANES);
            let mut a = v.chunks_exact(LANES);
            for (o, a) in (&mut o).zip(&mut a) {
                let product = mul_folded(load(a), sv, s_fold);
                store(o, $xor(load(o), product));
            }
            for (o, &a) in o.into_remainder().iter_mut().zip(a.remainder()) {
                *o ^= super::pclmul::mul_u128(a, s);
            }
        }

        /// The forward NTT butterfly in one pass: `u[i] += s·v[i]`, then `v[i] += u[i]`; the
        /// lengths must agree (checked by the dispatcher; extra elements are ignored).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn butterfly(u: &mut [u128], v: &mut [u128], s: u128) {
            let sv = $bcast(super::pclmul::to_xmm(s));
            let s_fold = fold_halves(sv);
            let mut uc = u.chunks_exact_mut(LANES);
            let mut vc = v.chunks_exact_mut(LANES);
            for (a, b) in (&mut uc).zip(&mut vc) {
                let y = load(b);
                let x = $xor(load(a), mul_folded(y, sv, s_fold));
                store(a, x);
                store(b, $xor(y, x));
            }
            let rest = uc.into_remainder().iter_mut();
            for (a, b) in rest.zip(vc.into_remainder()) {
                *a ^= super::pclmul::mul_u128(*b, s);
                *b ^= *a;
            }
        }

        /// Two layers of forward NTT butterflies on four rows, each element loaded and
        /// stored once: `(a, c)` and `(b, d)` with `t[0]`, then `(a, b)` with `t[1]` and
        /// `(c, d)` with `t[2]`; the lengths must agree (checked by the dispatcher).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn butterfly4(rows: [&mut [u128]; 4], t: [u128; 3]) {
            let [a, b, c, d] = rows;
            let s = t.map(|t| $bcast(super::pclmul::to_xmm(t)));
            let f = [fold_halves(s[0]), fold_halves(s[1]), fold_halves(s[2])];
            let n = a.len() / LANES * LANES;
            for i in (0..n).step_by(LANES) {
                let r = i..i + LANES;
                let (mut xa, mut xb) = (load(&a[r.clone()]), load(&b[r.clone()]));
                let (mut xc, mut xd) = (load(&c[r.clone()]), load(&d[r.clone()]));
                xa = $xor(xa, mul_folded(xc, s[0], f[0]));
                xc = $xor(xc, xa);
                xb = $xor(xb, mul_folded(xd, s[0], f[0]));
                xd = $xor(xd, xb);
                xa = $xor(xa, mul_folded(xb, s[1], f[1]));
                xb = $xor(xb, xa);
                xc = $xor(xc, mul_folded(xd, s[2], f[2]));
                xd = $xor(xd, xc);
                store(&mut a[r.clone()], xa);
                store(&mut b[r.clone()], xb);
                store(&mut c[r.clone()], xc);
                store(&mut d[r], xd);
            }
            for i in n..a.len() {
                let mul = super::pclmul::mul_u128;
                a[i] ^= mul(c[i], t[0]);
                c[i] ^= a[i];
                b[i] ^= mul(d[i], t[0]);
                d[i] ^= b[i];
                a[i] ^= mul(b[i], t[1]);
                b[i] ^= a[i];
                c[i] ^= mul(d[i], t[2]);
                d[i] ^= c[i];
            }
        }

        /// `Σ x[i] · y[i]`: the Karatsuba terms are summed unreduced per lane, the lanes are
        /// summed, and the result is reduced once (everything is F2-linear).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn dot(x: &[u128], y: &[u128]) -> u128 {
            let mut a = x.chunks_exact(LANES);
            let mut b = y.chunks_exact(LANES);
            let (mut lo, mut c, mut hi) = ($zero(), $zero(), $zero());
            for (a, b) in (&mut a).zip(&mut b) {
                let b = load(b);
                let (l, m, h) = karatsuba(load(a), b, fold_halves(b));
                lo = $xor(lo, l);
                c = $xor(c, m);
                hi = $xor(hi, h);
            }
            // Sum the lanes of each accumulator.
            let mut lanes = [[0u128; LANES]; 3];
            for (buf, acc) in lanes.iter_mut().zip([lo, c, hi]) {
                store(buf, acc);
            }
            let [lo, c, hi] = lanes.map(|l| l.iter().fold(0, |s, &v| s ^ v));
            let (mut lo, mut c, mut hi) = (lo, c, hi);
            for (&a, &b) in a.remainder().iter().zip(b.remainder()) {
                let (l, m, h) = super::pclmul::karatsuba_u128(a, b);
                lo ^= l;
                c ^= m;
                hi ^= h;
            }
            super::pclmul::reduce_u128(lo, c ^ lo ^ hi, hi)
        }

        /// Four independent products.
        ///
        /// The operands are read in 16-byte pieces: a packed value is usually written just
        /// before by code without wide registers, and one wide load of several narrow
        /// stores cannot be store-forwarded (it would wait for the stores to retire).
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn mul_x4(x: &[u128; 4], y: &[u128; 4]) -> [u128; 4] {
            let mut out = [0u128; 4];
            for ((o, a), b) in out
                .chunks_exact_mut(LANES)
                .zip(x.chunks_exact(LANES))
                .zip(y.chunks_exact(LANES))
            {
                let b = load_pieces(b);
                store(o, mul_folded(load_pieces(a), b, fold_halves(b)));
            }
            out
        }

        /// Four independent squares.
        ///
        /// # Safety
        #[doc = concat!("The CPU must support `", $feat, "`.")]
        #[target_feature(enable = $feat)]
        pub unsafe fn square_x4(x: &[u128; 4]) -> [u128; 4] {
            let mut out = [0u128; 4];
            for (o, a) in out.chunks_exact_mut(LANES).zip(x.chunks_exact(LANES)) {
                store(o, square_v(load_pieces(a)));
            }
            out
        }
    };
}

/// `PCLMULQDQ` on `xmm`: one element per register; also the scalar (`u128`) kernels.
pub mod pclmul {
    lane_kernels! {
        features: "pclmulqdq,sse2",
        vector: __m128i,
        lanes: 1,
        clmul: _mm_clmulepi64_si128,
        xor: _mm_xor_si128,
        shuffle_epi32: _mm_shuffle_epi32,
        unpacklo_epi64: _mm_unpacklo_epi64,
        zero: _mm_setzero_si128,
        splat_epi64: _mm_set1_epi64x,
        broadcast_128: identity,
        load: _mm_loadu_si128,
        store: _mm_storeu_si128,
    }

    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    fn identity(x: __m128i) -> __m128i {
        x
    }

    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    fn load_pieces(chunk: &[u128]) -> __m128i {
        load(chunk)
    }

    // `load_piece` reads a `u128` as an aligned `__m128i`.
    const _: () = assert!(core::mem::align_of::<u128>() >= core::mem::align_of::<__m128i>());

    /// One 16-byte load that the compiler may not merge with its neighbours into a wider
    /// load (see `mul_x4`).
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) fn load_piece(x: &u128) -> __m128i {
        // SAFETY: `x` is a valid, readable `u128`, 16-byte aligned (asserted above), and
        // every bit pattern is a valid `__m128i`.
        unsafe { core::ptr::read_volatile(core::ptr::from_ref(x).cast::<__m128i>()) }
    }

    /// `x` in an `xmm` register (qword 0 = low 64 bits).
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) fn to_xmm(x: u128) -> __m128i {
        _mm_set_epi64x((x >> 64) as i64, x as i64)
    }

    /// The `u128` held in an `xmm` register.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    fn from_xmm(v: __m128i) -> u128 {
        let lo = _mm_cvtsi128_si64(v) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        (u128::from(hi) << 64) | u128::from(lo)
    }

    /// Scalar product, for the wider modules' slice tails.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) fn mul_u128(x: u128, y: u128) -> u128 {
        let b = to_xmm(y);
        from_xmm(mul_folded(to_xmm(x), b, fold_halves(b)))
    }

    /// Karatsuba terms `(lo, c, hi)` of a scalar product.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) fn karatsuba_u128(x: u128, y: u128) -> (u128, u128, u128) {
        let b = to_xmm(y);
        let (lo, c, hi) = karatsuba(to_xmm(x), b, fold_halves(b));
        (from_xmm(lo), from_xmm(c), from_xmm(hi))
    }

    /// Reduction of `lo + m·x^64 + hi·x^128`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) fn reduce_u128(lo: u128, m: u128, hi: u128) -> u128 {
        from_xmm(reduce(to_xmm(lo), to_xmm(m), to_xmm(hi)))
    }

    /// `x · y` in GF(2^128).
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq` and `sse2`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[must_use]
    pub unsafe fn mul(x: u128, y: u128) -> u128 {
        mul_u128(x, y)
    }

    /// `x^2` in GF(2^128).
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq` and `sse2`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[must_use]
    pub unsafe fn square(x: u128) -> u128 {
        from_xmm(square_v(to_xmm(x)))
    }

    /// The unreduced carry-less product `x · y` as `(lo, hi)` halves.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq` and `sse2`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[must_use]
    pub unsafe fn clmul128(x: u128, y: u128) -> (u128, u128) {
        let (lo, c, hi) = karatsuba_u128(x, y);
        let m = c ^ lo ^ hi;
        (lo ^ (m << 64), hi ^ (m >> 64))
    }
}

/// `VPCLMULQDQ` on `ymm` (AVX2): two elements per register.
pub mod vpclmul256 {
    lane_kernels! {
        features: "avx2,vpclmulqdq,pclmulqdq",
        vector: __m256i,
        lanes: 2,
        clmul: _mm256_clmulepi64_epi128,
        xor: _mm256_xor_si256,
        shuffle_epi32: _mm256_shuffle_epi32,
        unpacklo_epi64: _mm256_unpacklo_epi64,
        zero: _mm256_setzero_si256,
        splat_epi64: _mm256_set1_epi64x,
        broadcast_128: _mm256_broadcastsi128_si256,
        load: _mm256_loadu_si256,
        store: _mm256_storeu_si256,
    }

    /// Two elements from two 16-byte loads.
    #[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
    #[inline]
    fn load_pieces(chunk: &[u128]) -> __m256i {
        use super::pclmul::load_piece;
        let v = _mm256_castsi128_si256(load_piece(&chunk[0]));
        _mm256_inserti128_si256::<1>(v, load_piece(&chunk[1]))
    }
}

/// `VPCLMULQDQ` on `zmm` (AVX-512F): four elements per register.
pub mod vpclmul512 {
    lane_kernels! {
        features: "avx512f,vpclmulqdq,pclmulqdq",
        vector: __m512i,
        lanes: 4,
        clmul: _mm512_clmulepi64_epi128,
        xor: _mm512_xor_si512,
        shuffle_epi32: _mm512_shuffle_epi32,
        unpacklo_epi64: _mm512_unpacklo_epi64,
        zero: _mm512_setzero_si512,
        splat_epi64: _mm512_set1_epi64,
        broadcast_128: _mm512_broadcast_i32x4,
        load: _mm512_loadu_si512,
        store: _mm512_storeu_si512,
    }

    /// Four elements from four 16-byte loads.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq")]
    #[inline]
    fn load_pieces(chunk: &[u128]) -> __m512i {
        use super::pclmul::load_piece;
        let v = _mm512_castsi128_si512(load_piece(&chunk[0]));
        let v = _mm512_inserti32x4::<1>(v, load_piece(&chunk[1]));
        let v = _mm512_inserti32x4::<2>(v, load_piece(&chunk[2]));
        _mm512_inserti32x4::<3>(v, load_piece(&chunk[3]))
    }
}

/// Bit-matrix products with AVX-512 VBMI + GFNI: `out[i] ^= M·v[i]` for a linear map `M` of
/// GF(2)^128, given as 8×8 blocks (see [`crate::gf2::ByteTableMap`]).
pub mod gfni {
    use core::arch::x86_64::*;

    /// `out[i] ^= M·input[i]` for `input.len()` a multiple of 8; `matrices[j][h]` holds, in
    /// lane `q`, the `vgf2p8affineqb` matrix from input byte `j` to output byte `8h + q`.
    ///
    /// Eight vectors at a time: a `vpermt2b` spreads byte `j` of the eight over every 64-bit
    /// lane (byte `8q + r` ← vector `r`), two affine products per input byte accumulate output
    /// bytes `0..8` and `8..16` (lane `q`, byte `r`), and two `vpermt2b` gather the eight
    /// 16-byte results.
    ///
    /// # Safety
    /// The CPU must support AVX-512F/BW/VBMI and GFNI; `out.len() = input.len()`, a multiple
    /// of 8.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    pub unsafe fn map_xor(matrices: &[[[u64; 8]; 2]; 16], input: &[u128], out: &mut [u128]) {
        let load = |bytes: &[u8; 64]| {
            // SAFETY: 64 readable bytes.
            unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
        };
        let spread: [__m512i; 16] = core::array::from_fn(|j| {
            load(&core::array::from_fn(|i| {
                let r = i % 8;
                (if r < 4 {
                    16 * r + j
                } else {
                    64 + 16 * (r - 4) + j
                }) as u8
            }))
        });
        let gather: [__m512i; 2] = core::array::from_fn(|g| {
            load(&core::array::from_fn(|i| {
                let (r, l) = (4 * g + i / 16, i % 16);
                (if l < 8 {
                    8 * l + r
                } else {
                    64 + 8 * (l - 8) + r
                }) as u8
            }))
        });
        let mats: [[__m512i; 2]; 16] = core::array::from_fn(|j| {
            core::array::from_fn(|h| {
                // SAFETY: 64 readable bytes.
                unsafe { _mm512_loadu_si512(matrices[j][h].as_ptr().cast()) }
            })
        });
        for (v8, o8) in input.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
            // SAFETY: 8 × 16 readable bytes.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(v8.as_ptr().cast()),
                    _mm512_loadu_si512(v8.as_ptr().add(4).cast()),
                )
            };
            let mut lo = _mm512_setzero_si512();
            let mut hi = _mm512_setzero_si512();
            for j in 0..16 {
                let x = _mm512_permutex2var_epi8(a, spread[j], b);
                lo = _mm512_xor_si512(lo, _mm512_gf2p8affine_epi64_epi8::<0>(x, mats[j][0]));
                hi = _mm512_xor_si512(hi, _mm512_gf2p8affine_epi64_epi8::<0>(x, mats[j][1]));
            }
            let first = _mm512_permutex2var_epi8(lo, gather[0], hi);
            let second = _mm512_permutex2var_epi8(lo, gather[1], hi);
            // SAFETY: 8 × 16 readable and writable bytes.
            unsafe {
                let p = o8.as_mut_ptr();
                let old0 = _mm512_loadu_si512(p.cast());
                let old1 = _mm512_loadu_si512(p.add(4).cast());
                _mm512_storeu_si512(p.cast(), _mm512_xor_si512(old0, first));
                _mm512_storeu_si512(p.add(4).cast(), _mm512_xor_si512(old1, second));
            }
        }
    }
}
