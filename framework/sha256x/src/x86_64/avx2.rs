//! AVX2 backend: 8 messages in the 8 32-bit lanes of `ymm` registers.
//!
//! AVX2 has no rotate and no three-input logic, so a rotation is two shifts and an OR and the
//! bit functions are spelled out; with 16 registers the schedule ring lives partly in memory.

#[allow(clippy::wildcard_imports)]
use core::arch::x86_64::*;

/// The vector of one 32-bit word per lane.
type V = __m256i;
/// Messages hashed at once.
pub(crate) const LANES: usize = 8;

/// `x` rotated right by the literal `n` in every lane.
macro_rules! ror {
    ($x:expr, $n:literal) => {
        _mm256_or_si256(
            _mm256_srli_epi32::<$n>($x),
            _mm256_slli_epi32::<{ 32 - $n }>($x),
        )
    };
}

/// `x` in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn splat(x: u32) -> V {
    _mm256_set1_epi32(x as i32)
}

/// Lane-wise wrapping addition.
#[target_feature(enable = "avx2")]
#[inline]
fn add(x: V, y: V) -> V {
    _mm256_add_epi32(x, y)
}

/// Lane-wise wrapping subtraction.
#[target_feature(enable = "avx2")]
#[inline]
fn sub(x: V, y: V) -> V {
    _mm256_sub_epi32(x, y)
}

/// `x ^ y ^ z`.
#[target_feature(enable = "avx2")]
#[inline]
fn xor3(x: V, y: V, z: V) -> V {
    _mm256_xor_si256(_mm256_xor_si256(x, y), z)
}

/// `Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g) = ((f ⊕ g) ∧ e) ⊕ g`.
#[target_feature(enable = "avx2")]
#[inline]
fn ch(e: V, f: V, g: V) -> V {
    _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g)
}

/// `Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c) = ((a ⊕ b) ∧ (b ⊕ c)) ⊕ b`.
#[target_feature(enable = "avx2")]
#[inline]
fn maj(a: V, b: V, c: V) -> V {
    let ab = _mm256_xor_si256(a, b);
    let bc = _mm256_xor_si256(b, c);
    _mm256_xor_si256(_mm256_and_si256(ab, bc), b)
}

/// `Σ0(a) = ROTR²(a) ⊕ ROTR¹³(a) ⊕ ROTR²²(a)`.
#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma0(a: V) -> V {
    xor3(ror!(a, 2), ror!(a, 13), ror!(a, 22))
}

/// `Σ1(e) = ROTR⁶(e) ⊕ ROTR¹¹(e) ⊕ ROTR²⁵(e)`.
#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma1(e: V) -> V {
    xor3(ror!(e, 6), ror!(e, 11), ror!(e, 25))
}

/// `σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x)`.
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma0(x: V) -> V {
    xor3(ror!(x, 7), ror!(x, 18), _mm256_srli_epi32::<3>(x))
}

/// `σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x)`.
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma1(x: V) -> V {
    xor3(ror!(x, 17), ror!(x, 19), _mm256_srli_epi32::<10>(x))
}

/// Reverses the bytes of every 32-bit lane (big-endian words ↔ little-endian lanes).
#[target_feature(enable = "avx2")]
#[inline]
fn bswap(x: V) -> V {
    let order = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    );
    _mm256_shuffle_epi8(x, order)
}

/// The 32 bytes of `bytes` as a vector (memory order).
#[target_feature(enable = "avx2")]
#[inline]
fn load(bytes: &[u8; 32]) -> V {
    // SAFETY: `bytes` is 32 readable bytes, the size of the unaligned load.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Writes `v` to `out`.
#[target_feature(enable = "avx2")]
#[inline]
fn store(out: &mut [u8; 32], v: V) {
    // SAFETY: `out` is 32 writable bytes, the size of the unaligned store.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
}

/// Transposes the 8×8 matrix of 32-bit words `rows` (row `i` in vector `i`): word `t` of
/// every row ends up in vector `t`. A 4×4 transpose inside each 128-bit half
/// (`unpack*_epi32`, `unpack*_epi64`), then the 2×2 matrix of halves (`permute2x128`).
#[target_feature(enable = "avx2")]
#[inline]
fn transpose8(rows: [V; 8]) -> [V; 8] {
    let zero = _mm256_setzero_si256();
    // Half L of u[4q + k]: word 4L + k of rows 4q..4q + 4.
    let mut u = [zero; 8];
    for q in 0..2 {
        let r = &rows[4 * q..4 * q + 4];
        let lo01 = _mm256_unpacklo_epi32(r[0], r[1]);
        let hi01 = _mm256_unpackhi_epi32(r[0], r[1]);
        let lo23 = _mm256_unpacklo_epi32(r[2], r[3]);
        let hi23 = _mm256_unpackhi_epi32(r[2], r[3]);
        u[4 * q] = _mm256_unpacklo_epi64(lo01, lo23);
        u[4 * q + 1] = _mm256_unpackhi_epi64(lo01, lo23);
        u[4 * q + 2] = _mm256_unpacklo_epi64(hi01, hi23);
        u[4 * q + 3] = _mm256_unpackhi_epi64(hi01, hi23);
    }
    let mut t = [zero; 8];
    for k in 0..4 {
        t[k] = _mm256_permute2x128_si256::<0x20>(u[k], u[4 + k]);
        t[4 + k] = _mm256_permute2x128_si256::<0x31>(u[k], u[4 + k]);
    }
    t
}

/// The 16 message words of one block per lane: `w[t]` holds big-endian word `t` of
/// `blocks[i]` in lane `i` (two 8×8 transposes, one per block half).
#[target_feature(enable = "avx2")]
#[inline]
fn load_words(blocks: &[&[u8; 64]; LANES]) -> [V; 16] {
    let zero = _mm256_setzero_si256();
    let mut w = [zero; 16];
    for (half, w) in w.chunks_exact_mut(8).enumerate() {
        let mut rows = [zero; 8];
        for (row, block) in rows.iter_mut().zip(blocks) {
            *row = bswap(load(&block.as_chunks::<32>().0[half]));
        }
        w.copy_from_slice(&transpose8(rows));
    }
    w
}

/// Writes lane `i`'s digest (state words, big-endian) to `out[i]`: an 8×8 transpose.
#[target_feature(enable = "avx2")]
#[inline]
fn store_digests(state: &[V; 8], out: &mut [[u8; 32]; LANES]) {
    let mut rows = *state;
    for row in &mut rows {
        *row = bswap(*row);
    }
    for (out, digest) in out.iter_mut().zip(transpose8(rows)) {
        store(out, digest);
    }
}

lane_engine!("avx2");
