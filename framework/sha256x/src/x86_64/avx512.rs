//! AVX-512 backend: 16 messages in the 16 32-bit lanes of `zmm` registers.
//!
//! Rotations are single `vprord`s and each three-input bit function (`Ch`, `Maj`, the XOR of
//! three rotations) one `vpternlogd`; the 8 working variables and the 16-word schedule ring
//! fit in the 32 registers. Needs AVX-512F and, for the byte swaps (`vpshufb`), AVX-512BW.

#[allow(clippy::wildcard_imports)]
use core::arch::x86_64::*;

/// The vector of one 32-bit word per lane.
type V = __m512i;
/// Messages hashed at once.
pub(crate) const LANES: usize = 16;

/// `x` in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn splat(x: u32) -> V {
    _mm512_set1_epi32(x as i32)
}

/// Lane-wise wrapping addition.
#[target_feature(enable = "avx512f")]
#[inline]
fn add(x: V, y: V) -> V {
    _mm512_add_epi32(x, y)
}

/// Lane-wise wrapping subtraction.
#[target_feature(enable = "avx512f")]
#[inline]
fn sub(x: V, y: V) -> V {
    _mm512_sub_epi32(x, y)
}

/// `x ^ y ^ z`.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(x: V, y: V, z: V) -> V {
    _mm512_ternarylogic_epi32::<0x96>(x, y, z)
}

/// `Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g)`: `e ? f : g` bitwise.
#[target_feature(enable = "avx512f")]
#[inline]
fn ch(e: V, f: V, g: V) -> V {
    _mm512_ternarylogic_epi32::<0xCA>(e, f, g)
}

/// `Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn maj(a: V, b: V, c: V) -> V {
    _mm512_ternarylogic_epi32::<0xE8>(a, b, c)
}

/// `Σ0(a) = ROTR²(a) ⊕ ROTR¹³(a) ⊕ ROTR²²(a)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma0(a: V) -> V {
    xor3(
        _mm512_ror_epi32::<2>(a),
        _mm512_ror_epi32::<13>(a),
        _mm512_ror_epi32::<22>(a),
    )
}

/// `Σ1(e) = ROTR⁶(e) ⊕ ROTR¹¹(e) ⊕ ROTR²⁵(e)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma1(e: V) -> V {
    xor3(
        _mm512_ror_epi32::<6>(e),
        _mm512_ror_epi32::<11>(e),
        _mm512_ror_epi32::<25>(e),
    )
}

/// `σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma0(x: V) -> V {
    xor3(
        _mm512_ror_epi32::<7>(x),
        _mm512_ror_epi32::<18>(x),
        _mm512_srli_epi32::<3>(x),
    )
}

/// `σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma1(x: V) -> V {
    xor3(
        _mm512_ror_epi32::<17>(x),
        _mm512_ror_epi32::<19>(x),
        _mm512_srli_epi32::<10>(x),
    )
}

/// Reverses the bytes of every 32-bit lane (big-endian words ↔ little-endian lanes).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn bswap(x: V) -> V {
    let order = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
    _mm512_shuffle_epi8(x, order)
}

/// The 64 bytes of `block` as a vector (memory order).
#[target_feature(enable = "avx512f")]
#[inline]
fn load(block: &[u8; 64]) -> V {
    // SAFETY: `block` is 64 readable bytes, the size of the unaligned load.
    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
}

/// Writes `v` to `out`.
#[target_feature(enable = "avx512f")]
#[inline]
fn store(out: &mut [u8; 32], v: __m256i) {
    // SAFETY: `out` is 32 writable bytes, the size of the unaligned store.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
}

/// The 16 message words of one block per lane: `w[t]` holds big-endian word `t` of
/// `blocks[i]` in lane `i`.
///
/// A 16×16 transpose of 32-bit words in four steps of 16 shuffles: interleave words
/// (`unpack*_epi32`) and pairs (`unpack*_epi64`) — a 4×4 transpose inside every 128-bit
/// block — then transpose the 4×4 matrices of 128-bit blocks (`shuffle_i32x4`, twice).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_words(blocks: &[&[u8; 64]; LANES]) -> [V; 16] {
    let zero = _mm512_setzero_si512();
    let mut rows = [zero; 16];
    for (row, block) in rows.iter_mut().zip(blocks) {
        *row = bswap(load(block));
    }
    // 128-bit block L of u[4q + k]: word 4L + k of rows 4q..4q + 4.
    let mut u = [zero; 16];
    for q in 0..4 {
        let r = &rows[4 * q..4 * q + 4];
        let lo01 = _mm512_unpacklo_epi32(r[0], r[1]);
        let hi01 = _mm512_unpackhi_epi32(r[0], r[1]);
        let lo23 = _mm512_unpacklo_epi32(r[2], r[3]);
        let hi23 = _mm512_unpackhi_epi32(r[2], r[3]);
        u[4 * q] = _mm512_unpacklo_epi64(lo01, lo23);
        u[4 * q + 1] = _mm512_unpackhi_epi64(lo01, lo23);
        u[4 * q + 2] = _mm512_unpacklo_epi64(hi01, hi23);
        u[4 * q + 3] = _mm512_unpackhi_epi64(hi01, hi23);
    }
    // w[4L + k] = [block L of u[k], u[4 + k], u[8 + k], u[12 + k]].
    let mut w = [zero; 16];
    for k in 0..4 {
        let y0 = _mm512_shuffle_i32x4::<0x44>(u[k], u[4 + k]);
        let y1 = _mm512_shuffle_i32x4::<0xEE>(u[k], u[4 + k]);
        let y2 = _mm512_shuffle_i32x4::<0x44>(u[8 + k], u[12 + k]);
        let y3 = _mm512_shuffle_i32x4::<0xEE>(u[8 + k], u[12 + k]);
        w[k] = _mm512_shuffle_i32x4::<0x88>(y0, y2);
        w[4 + k] = _mm512_shuffle_i32x4::<0xDD>(y0, y2);
        w[8 + k] = _mm512_shuffle_i32x4::<0x88>(y1, y3);
        w[12 + k] = _mm512_shuffle_i32x4::<0xDD>(y1, y3);
    }
    w
}

/// Writes lane `i`'s digest (state words, big-endian) to `out[i]`.
///
/// The same 4×4 word transposes as [`load_words`] turn the 8 state vectors into 128-bit
/// digest halves; one two-source permute per pair of lanes puts each digest's halves side by
/// side, and every 256-bit half of the result is one digest.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn store_digests(state: &[V; 8], out: &mut [[u8; 32]; LANES]) {
    let zero = _mm512_setzero_si512();
    // 128-bit block L of u[4g + k]: state words 4g..4g + 4 of lane 4L + k.
    let mut u = [zero; 8];
    for g in 0..2 {
        let s = &state[4 * g..4 * g + 4];
        let lo01 = _mm512_unpacklo_epi32(bswap(s[0]), bswap(s[1]));
        let hi01 = _mm512_unpackhi_epi32(bswap(s[0]), bswap(s[1]));
        let lo23 = _mm512_unpacklo_epi32(bswap(s[2]), bswap(s[3]));
        let hi23 = _mm512_unpackhi_epi32(bswap(s[2]), bswap(s[3]));
        u[4 * g] = _mm512_unpacklo_epi64(lo01, lo23);
        u[4 * g + 1] = _mm512_unpackhi_epi64(lo01, lo23);
        u[4 * g + 2] = _mm512_unpacklo_epi64(hi01, hi23);
        u[4 * g + 3] = _mm512_unpackhi_epi64(hi01, hi23);
    }
    // Digests of lanes k, 4 + k (from blocks 0, 1) and 8 + k, 12 + k (blocks 2, 3).
    let low_blocks = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let high_blocks = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for k in 0..4 {
        let lo = _mm512_permutex2var_epi64(u[k], low_blocks, u[4 + k]);
        let hi = _mm512_permutex2var_epi64(u[k], high_blocks, u[4 + k]);
        store(&mut out[k], _mm512_castsi512_si256(lo));
        store(&mut out[4 + k], _mm512_extracti64x4_epi64::<1>(lo));
        store(&mut out[8 + k], _mm512_castsi512_si256(hi));
        store(&mut out[12 + k], _mm512_extracti64x4_epi64::<1>(hi));
    }
}

lane_engine!("avx512f,avx512bw");
