//! The byte kernel of the zerocheck's round 1: for one 128-row group (16 sub-groups `j` of 8
//! rows `k`), the bytes
//!
//! ```text
//! y_j[i] = Σ_k α^k · â_{8j+k}(λ_i) · b̂_{8j+k}(λ_i)      z_j[s] = Σ_k α^k · z_{8j+k}[s]
//! ```
//!
//! in GF(2^8) (the AES field; `α^k = x^k` for `k < 8`, so `z_j[s]` is just bit `s` of row `k`
//! placed at bit `k`). Three implementations with identical results (tested):
//!
//! * **portable**, bit-sliced over the 64 points: a row's LDE is eight lookups of eight bit
//!   planes (`u64`, bit `i` for point `λ_i`; [`LdeTable::planes`]), the 64 products of two rows
//!   are one carry-less 8 × 8 plane product (64 ANDs and XORs on `u64`s, 64 products each),
//!   the `α^k` weight is a shift of the plane index, the 15 + 7 accumulated planes are reduced
//!   once per sub-group and turned back into bytes by 8×8 bit transposes; four sub-groups run
//!   in the lanes of `[u64; 4]` words, and the `z` bytes come from 8×8 bit transposes;
//! * **x86-64 AVX2**: the portable code compiled with AVX2 enabled, so that the four lanes are
//!   one 256-bit register and a row's eight planes two (for CPUs without GFNI);
//! * **x86-64 AVX-512 + GFNI**: a row's LDE is eight 64-byte loads, each permuted by
//!   `vpermq` (the block index XOR `b`), the 64 products and the `α^k` scaling are one
//!   `vgf2p8mulb` each (GFNI multiplies in exactly the AES field), and the `z` bytes are one
//!   masked broadcast per row.
//!
//! The prover calls [`group_sums`], which picks the fastest available at run time and also
//! converts the bytes to GF(2^128); [`group_bytes_with`] exposes the bytes of each kernel
//! (the tests compare them with a field-arithmetic reference).

use std::sync::OnceLock;

use flockwork_field::Field;
use flockwork_field_binary::Ghash128;

use crate::pinned::{ConvertTable, GROUP_ROWS};
use crate::skip::{LdeTable, SKIP_SIZE};

/// Sub-groups of 8 rows per group.
pub const SUBGROUPS: usize = GROUP_ROWS / 8;

/// The bytes of one group: `(y, z)`, `SUBGROUPS × 64` each.
pub type GroupBytes = ([[u8; SKIP_SIZE]; SUBGROUPS], [[u8; SKIP_SIZE]; SUBGROUPS]);

/// The converted sums of one group: `(ab, c)`, 64 values each.
pub type GroupSums = ([Ghash128; SKIP_SIZE], [Ghash128; SKIP_SIZE]);

/// Which implementation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Scalar code, every target.
    Portable,
    /// The portable code compiled for AVX2 (the round-1 kernel only; the row maps run their
    /// portable code).
    Avx2,
    /// AVX-512F/BW/VBMI + GFNI.
    Gfni,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    #[must_use]
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("gfni")
            {
                return Self::Gfni;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Portable
    }

    /// Whether this CPU can run the kernel.
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Self::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx2 => false,
            Self::Gfni => Self::detect() == Self::Gfni,
        }
    }

    /// Short name (for reports).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Avx2 => "avx2",
            Self::Gfni => "avx512-gfni",
        }
    }
}

/// The kernel chosen once per process.
#[must_use]
pub fn active() -> Kernel {
    static ACTIVE: OnceLock<Kernel> = OnceLock::new();
    *ACTIVE.get_or_init(Kernel::detect)
}

/// The group bytes with a given kernel, the reference the tests compare each kernel's
/// bytes with (the prover converts them on the fly: [`group_sums_with`]). Slices hold the
/// group's 128 rows.
///
/// # Panics
/// If the kernel is not available or a slice does not hold 128 rows.
#[cfg(test)]
#[must_use]
pub fn group_bytes_with(
    kernel: Kernel,
    lde: &LdeTable,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupBytes {
    assert!(a.len() == GROUP_ROWS && b.len() == GROUP_ROWS && z.len() == GROUP_ROWS);
    assert!(kernel.is_available(), "{kernel:?} kernel not available");
    match kernel {
        Kernel::Portable => sliced_group_bytes(lde.planes(), lde_planes, a, b, z),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU supports AVX2 (checked above).
        Kernel::Avx2 => unsafe { x86::sliced_group_bytes(lde.planes(), a, b, z) },
        // SAFETY: the CPU supports AVX-512F/BW and GFNI (checked above).
        #[cfg(target_arch = "x86_64")]
        Kernel::Gfni => unsafe { x86::group_bytes(lde.raw(), a, b, z) },
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Avx2 | Kernel::Gfni => unreachable!(),
    }
}

/// The images of one group: `(Σ_j γ^j·φ8(y_j[i]), Σ_j γ^j·φ8(z_j[s]))` for the 64 points,
/// with the [`active`] kernel (the group's bytes as in [`group_bytes_with`], converted).
#[must_use]
pub fn group_sums(
    lde: &LdeTable,
    conv: &ConvertTable,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupSums {
    group_sums_with(active(), lde, conv, a, b, z)
}

/// The group images with a given kernel: the portable one converts the bytes by 16 lookups
/// per point in the [`ConvertTable`]; the GFNI one applies the conversion as a linear map on
/// the 16 bytes of a point (`vgf2p8affineqb` with eight 8×8 matrices per input byte, eight
/// points at once, as `rowmap::RowMap` does for 8-byte rows), 32 affine products
/// per eight points instead of 128 lookups.
///
/// # Panics
/// If the kernel is not available or a slice does not hold 128 rows.
#[must_use]
pub fn group_sums_with(
    kernel: Kernel,
    lde: &LdeTable,
    conv: &ConvertTable,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupSums {
    assert!(a.len() == GROUP_ROWS && b.len() == GROUP_ROWS && z.len() == GROUP_ROWS);
    assert!(kernel.is_available(), "{kernel:?} kernel not available");
    match kernel {
        Kernel::Portable => sliced_group_sums(lde.planes(), lde_planes, conv, a, b, z),
        // SAFETY: the CPU supports AVX2 (checked above).
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { x86::sliced_group_sums(lde.planes(), conv, a, b, z) },
        // SAFETY: the CPU supports AVX-512F/BW/VBMI and GFNI (checked above).
        #[cfg(target_arch = "x86_64")]
        Kernel::Gfni => unsafe { x86::group_sums(lde.raw(), conv.matrices(), a, b, z) },
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Avx2 | Kernel::Gfni => unreachable!(),
    }
}

/// Sub-groups the bit-sliced kernel runs side by side, one per lane of a `[u64; LANES]` word.
const LANES: usize = 4;

/// Eight bit planes of `LANES` rows: `planes[c][l]` holds bit `c` of the 64 values of lane `l`.
type LanePlanes = [[u64; LANES]; 8];

/// Transposes an 8×8 bit matrix held in a `u64` (byte `r`, bit `c` ↔ byte `c`, bit `r`).
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The bit planes of the LDEs of `LANES` rows: eight lookups of eight planes per row.
#[inline(always)]
fn lde_planes(planes: &[[[u64; 8]; 256]; 8], rows: [u64; LANES]) -> LanePlanes {
    let mut out = [[0u64; LANES]; 8];
    for (l, row) in rows.into_iter().enumerate() {
        let mut acc = [0u64; 8];
        for (table, byte) in planes.iter().zip(row.to_le_bytes()) {
            let entry = &table[usize::from(byte)];
            for (x, &e) in acc.iter_mut().zip(entry) {
                *x ^= e;
            }
        }
        for (o, x) in out.iter_mut().zip(acc) {
            o[l] = x;
        }
    }
    out
}

/// The 64 bytes whose bit `c` is bit `i` of `planes[c]`, byte `i` for point `i`.
#[inline(always)]
fn bytes_of_planes(planes: [u64; 8]) -> [u8; SKIP_SIZE] {
    let mut out = [0u8; SKIP_SIZE];
    for (q, chunk) in out.chunks_exact_mut(8).enumerate() {
        let block = planes
            .iter()
            .enumerate()
            .fold(0u64, |m, (c, &p)| m | (((p >> (8 * q)) & 0xFF) << (8 * c)));
        chunk.copy_from_slice(&transpose8(block).to_le_bytes());
    }
    out
}

/// The `z` bytes of sub-group `j`: byte `s` holds bit `s` of row `8j + k` at bit `k`.
#[inline(always)]
fn z_bytes(rows: &[u64]) -> [u8; SKIP_SIZE] {
    let mut out = [0u8; SKIP_SIZE];
    for (c, chunk) in out.chunks_exact_mut(8).enumerate() {
        // Byte c of the 8 rows → one 8×8 block; transposed, byte s holds bit (8c + s) of
        // row k at bit k.
        let block = rows
            .iter()
            .enumerate()
            .fold(0u64, |m, (k, &r)| m | (((r >> (8 * c)) & 0xFF) << (8 * k)));
        chunk.copy_from_slice(&transpose8(block).to_le_bytes());
    }
    out
}

/// The group bytes, bit-sliced (module docs), with `lde` computing the planes of four rows'
/// LDEs ([`lde_planes`] or a SIMD twin).
#[inline(always)]
fn sliced_group_bytes(
    planes: &[[[u64; 8]; 256]; 8],
    lde: impl Fn(&[[[u64; 8]; 256]; 8], [u64; LANES]) -> LanePlanes,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupBytes {
    let mut ys = [[0u8; SKIP_SIZE]; SUBGROUPS];
    for t in 0..SUBGROUPS / LANES {
        // Planes of Σ_k x^k·â_k·b̂_k before reduction (degree ≤ 14 + 7).
        let mut acc = [[0u64; LANES]; 22];
        for k in 0..8 {
            let rows: [usize; LANES] = core::array::from_fn(|l| 8 * (LANES * t + l) + k);
            if rows.iter().all(|&r| a[r] == 0 || b[r] == 0) {
                continue;
            }
            let pa = lde(planes, rows.map(|r| a[r]));
            let pb = lde(planes, rows.map(|r| b[r]));
            for (c, xa) in pa.iter().enumerate() {
                for (e, xb) in pb.iter().enumerate() {
                    let out = &mut acc[c + e + k];
                    for l in 0..LANES {
                        out[l] ^= xa[l] & xb[l];
                    }
                }
            }
        }
        // x^8 = x^4 + x^3 + x + 1 (the AES polynomial), from the top plane down.
        for d in (8..22).rev() {
            let v = acc[d];
            for shift in [4, 5, 7, 8] {
                for l in 0..LANES {
                    acc[d - shift][l] ^= v[l];
                }
            }
        }
        for l in 0..LANES {
            ys[LANES * t + l] = bytes_of_planes(core::array::from_fn(|c| acc[c][l]));
        }
    }
    let zs = core::array::from_fn(|j| z_bytes(&z[8 * j..8 * j + 8]));
    (ys, zs)
}

/// The group images from the bit-sliced bytes and the [`ConvertTable`] (16 lookups per point).
#[inline(always)]
fn sliced_group_sums(
    planes: &[[[u64; 8]; 256]; 8],
    lde: impl Fn(&[[[u64; 8]; 256]; 8], [u64; LANES]) -> LanePlanes,
    conv: &ConvertTable,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupSums {
    let (ys, zs) = sliced_group_bytes(planes, lde, a, b, z);
    let mut ab = [Ghash128::ZERO; SKIP_SIZE];
    let mut c = [Ghash128::ZERO; SKIP_SIZE];
    for (j, (y, zb)) in ys.iter().zip(&zs).enumerate() {
        for i in 0..SKIP_SIZE {
            ab[i] += conv.get(j, y[i]);
            c[i] += conv.get(j, zb[i]);
        }
    }
    (ab, c)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use flockwork_field::Field;
    use flockwork_field_binary::Ghash128;

    #[cfg(test)]
    use super::GroupBytes;
    use super::{GroupSums, LANES, LanePlanes, SUBGROUPS};
    use crate::pinned::ConvertTable;

    /// [`super::lde_planes`] with 256-bit loads: a row's eight planes are two registers,
    /// accumulated over its eight bytes, then the four rows' registers are transposed (4×4
    /// blocks of `u64`) into planes of four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lde_planes(planes: &[[[u64; 8]; 256]; 8], rows: [u64; LANES]) -> LanePlanes {
        let mut lo = [_mm256_setzero_si256(); LANES];
        let mut hi = [_mm256_setzero_si256(); LANES];
        for (l, row) in rows.into_iter().enumerate() {
            for (table, byte) in planes.iter().zip(row.to_le_bytes()) {
                let entry = &table[usize::from(byte)];
                // SAFETY: an entry is eight readable `u64`s.
                let (e0, e1) = unsafe {
                    (
                        _mm256_loadu_si256(entry.as_ptr().cast()),
                        _mm256_loadu_si256(entry[4..].as_ptr().cast()),
                    )
                };
                lo[l] = _mm256_xor_si256(lo[l], e0);
                hi[l] = _mm256_xor_si256(hi[l], e1);
            }
        }
        let mut out = [[0u64; LANES]; 8];
        for (half, regs) in [lo, hi].iter().enumerate() {
            let t0 = _mm256_unpacklo_epi64(regs[0], regs[1]);
            let t1 = _mm256_unpackhi_epi64(regs[0], regs[1]);
            let t2 = _mm256_unpacklo_epi64(regs[2], regs[3]);
            let t3 = _mm256_unpackhi_epi64(regs[2], regs[3]);
            let columns = [
                _mm256_permute2x128_si256::<0x20>(t0, t2),
                _mm256_permute2x128_si256::<0x20>(t1, t3),
                _mm256_permute2x128_si256::<0x31>(t0, t2),
                _mm256_permute2x128_si256::<0x31>(t1, t3),
            ];
            for (c, column) in columns.into_iter().enumerate() {
                // SAFETY: `out[4·half + c]` is four writable `u64`s.
                unsafe { _mm256_storeu_si256(out[4 * half + c].as_mut_ptr().cast(), column) };
            }
        }
        out
    }
    use crate::rowmap::x86::{gather_indices, load_matrices, store_images};
    use crate::skip::SKIP_SIZE;

    /// The bit-sliced group bytes compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2; slices hold 128 rows.
    #[cfg(test)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sliced_group_bytes(
        planes: &[[[u64; 8]; 256]; 8],
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> GroupBytes {
        // SAFETY (of the closure): AVX2 is enabled in this function.
        super::sliced_group_bytes(planes, |p, r| lde_planes(p, r), a, b, z)
    }

    /// The bit-sliced group images compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2; slices hold 128 rows.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sliced_group_sums(
        planes: &[[[u64; 8]; 256]; 8],
        conv: &ConvertTable,
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> GroupSums {
        super::sliced_group_sums(planes, |p, r| lde_planes(p, r), conv, a, b, z)
    }

    /// Row LDE: `⊕_b permute(T[byte_b], q ↦ q ⊕ b)`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    fn lde(table: &[[u64; 8]; 256], perms: &[__m512i; 8], row: u64) -> __m512i {
        let mut acc = _mm512_setzero_si512();
        for (b, &perm) in perms.iter().enumerate() {
            let byte = ((row >> (8 * b)) & 0xFF) as usize;
            // SAFETY: `table[byte]` is 64 readable bytes.
            let e = unsafe { _mm512_loadu_si512(table[byte].as_ptr().cast()) };
            acc = _mm512_xor_si512(acc, _mm512_permutexvar_epi64(perm, e));
        }
        acc
    }

    /// The group's `y_j` and `z_j` bytes in registers (one 64-byte vector per `j`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    fn group_vectors(
        table: &[[u64; 8]; 256],
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> ([__m512i; SUBGROUPS], [__m512i; SUBGROUPS]) {
        let perms: [__m512i; 8] = core::array::from_fn(|b| {
            let b = b as i64;
            _mm512_set_epi64(7 ^ b, 6 ^ b, 5 ^ b, 4 ^ b, 3 ^ b, 2 ^ b, 1 ^ b, b)
        });
        let mut ys = [_mm512_setzero_si512(); SUBGROUPS];
        let mut zs = [_mm512_setzero_si512(); SUBGROUPS];
        for j in 0..SUBGROUPS {
            let mut y = _mm512_setzero_si512();
            let mut zb = _mm512_setzero_si512();
            for k in 0..8 {
                let row = 8 * j + k;
                let alpha_k = _mm512_set1_epi8((1u8 << k) as i8);
                if a[row] != 0 && b[row] != 0 {
                    let p = _mm512_gf2p8mul_epi8(
                        lde(table, &perms, a[row]),
                        lde(table, &perms, b[row]),
                    );
                    y = _mm512_xor_si512(y, _mm512_gf2p8mul_epi8(p, alpha_k));
                }
                zb = _mm512_or_si512(zb, _mm512_maskz_mov_epi8(z[row], alpha_k));
            }
            ys[j] = y;
            zs[j] = zb;
        }
        (ys, zs)
    }

    /// # Safety
    /// The CPU must support AVX-512F, AVX-512BW and GFNI; slices hold 128 rows.
    #[cfg(test)]
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    pub(super) unsafe fn group_bytes(
        table: &[[u64; 8]; 256],
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> GroupBytes {
        let (yv, zv) = group_vectors(table, a, b, z);
        let mut ys = [[0u8; SKIP_SIZE]; SUBGROUPS];
        let mut zs = [[0u8; SKIP_SIZE]; SUBGROUPS];
        for j in 0..SUBGROUPS {
            // SAFETY: each destination is 64 writable bytes.
            unsafe {
                _mm512_storeu_si512(ys[j].as_mut_ptr().cast(), yv[j]);
                _mm512_storeu_si512(zs[j].as_mut_ptr().cast(), zv[j]);
            }
        }
        (ys, zs)
    }

    /// `out[i] = Σ_j L_j(bytes_j[i])` for the 64 points, `L_j` given by `mats[j]`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    fn convert(
        mats: &[[__m512i; 2]; SUBGROUPS],
        gather: &[__m512i; 2],
        bytes: &[__m512i; SUBGROUPS],
        out: &mut [Ghash128; SKIP_SIZE],
    ) {
        for (q, o8) in out.chunks_exact_mut(8).enumerate() {
            // Lane `q'`, byte `r` ← byte `8q + r` of `bytes[j]` (point `8q + r`).
            let spread = _mm512_set1_epi64(q as i64);
            let mut lo = _mm512_setzero_si512();
            let mut hi = _mm512_setzero_si512();
            for (m, &v) in mats.iter().zip(bytes) {
                let x = _mm512_permutexvar_epi64(spread, v);
                lo = _mm512_xor_si512(lo, _mm512_gf2p8affine_epi64_epi8::<0>(x, m[0]));
                hi = _mm512_xor_si512(hi, _mm512_gf2p8affine_epi64_epi8::<0>(x, m[1]));
            }
            store_images(gather, lo, hi, o8);
        }
    }

    /// # Safety
    /// The CPU must support AVX-512F/BW/VBMI and GFNI; slices hold 128 rows.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    pub(super) unsafe fn group_sums(
        table: &[[u64; 8]; 256],
        matrices: &[[[u64; 8]; 2]; SUBGROUPS],
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> GroupSums {
        let mats = load_matrices(matrices);
        let gather = gather_indices();
        let (yv, zv) = group_vectors(table, a, b, z);
        let mut ab = [Ghash128::ZERO; SKIP_SIZE];
        let mut c = [Ghash128::ZERO; SKIP_SIZE];
        convert(&mats, &gather, &yv, &mut ab);
        convert(&mats, &gather, &zv, &mut c);
        (ab, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn transpose8_is_an_involution_and_transposes() {
        let x = 0x0102_0408_1020_4080u64;
        assert_eq!(transpose8(x), x);
        let y = 0x0000_0000_0000_00FFu64;
        assert_eq!(transpose8(y), 0x0101_0101_0101_0101);
        assert_eq!(
            transpose8(transpose8(0xdead_beef_cafe_f00d)),
            0xdead_beef_cafe_f00d
        );
    }

    fn reference(lde: &LdeTable, a: &[u64], b: &[u64], z: &[u64]) -> GroupBytes {
        use flockwork_field_binary::Aes8;
        let mut ys = [[0u8; SKIP_SIZE]; SUBGROUPS];
        let mut zs = [[0u8; SKIP_SIZE]; SUBGROUPS];
        for j in 0..SUBGROUPS {
            for k in 0..8 {
                let r = 8 * j + k;
                let (ea, eb) = (lde.extend(a[r]), lde.extend(b[r]));
                for i in 0..SKIP_SIZE {
                    let byte = |e: &[u64; 8]| Aes8((e[i / 8] >> (8 * (i % 8))) as u8);
                    let p = byte(&ea) * byte(&eb) * Aes8(1 << k);
                    ys[j][i] ^= p.0;
                    zs[j][i] |= (((z[r] >> i) & 1) as u8) << k;
                }
            }
        }
        (ys, zs)
    }

    #[test]
    fn kernels_agree_with_the_reference() {
        let lde = LdeTable::new();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for density in [0u32, 1, 2] {
            let mut row = || -> u64 {
                let x: u64 = rng.random();
                match density {
                    0 => x & rng.random::<u64>() & rng.random::<u64>(),
                    1 => x,
                    _ => !0,
                }
            };
            let a: Vec<u64> = (0..GROUP_ROWS).map(|_| row()).collect();
            let mut b: Vec<u64> = (0..GROUP_ROWS).map(|_| row()).collect();
            b[3] = 0;
            let z: Vec<u64> = (0..GROUP_ROWS).map(|_| row()).collect();
            let expect = reference(&lde, &a, &b, &z);
            for kernel in [Kernel::Portable, Kernel::Avx2, Kernel::Gfni] {
                if kernel.is_available() {
                    assert_eq!(
                        group_bytes_with(kernel, &lde, &a, &b, &z),
                        expect,
                        "{kernel:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn converted_sums_agree_across_kernels() {
        let lde = LdeTable::new();
        let conv = ConvertTable::new();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..4 {
            let a: Vec<u64> = (0..GROUP_ROWS).map(|_| rng.random()).collect();
            let b: Vec<u64> = (0..GROUP_ROWS).map(|_| rng.random()).collect();
            let z: Vec<u64> = (0..GROUP_ROWS).map(|_| rng.random()).collect();
            let (ys, zs) = group_bytes_with(Kernel::Portable, &lde, &a, &b, &z);
            let convert = |bytes: &[[u8; SKIP_SIZE]; SUBGROUPS]| -> [Ghash128; SKIP_SIZE] {
                core::array::from_fn(|i| (0..SUBGROUPS).map(|j| conv.get(j, bytes[j][i])).sum())
            };
            let expect = (convert(&ys), convert(&zs));
            assert_ne!(expect.0, [Ghash128::ZERO; SKIP_SIZE]);
            for kernel in [Kernel::Portable, Kernel::Avx2, Kernel::Gfni] {
                if kernel.is_available() {
                    let got = group_sums_with(kernel, &lde, &conv, &a, &b, &z);
                    assert_eq!(got, expect, "{kernel:?}");
                }
            }
        }
    }
}
