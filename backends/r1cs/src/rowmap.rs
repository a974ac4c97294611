//! A fixed `F2`-linear map `F2^64 → GF(2^128)` applied to many `u64` rows: the fold of a bit
//! row at a point, `row ↦ Σ_s w_s·bit_s(row)` (the zerocheck's fold at `ζ`, the lincheck's fold
//! over 64 instances).
//!
//! * **portable**: eight tables of 256 subset sums (Four Russians), eight lookups per row;
//! * **x86-64 AVX-512 VBMI + GFNI**: output byte `ℓ` of the image is `Σ_b M_{ℓ,b}·byte_b(row)`
//!   for 8×8 bit matrices `M_{ℓ,b}`. Eight rows go at once: one `vpermb` spreads byte `b` of the
//!   eight rows over every 64-bit lane, one `vgf2p8affineqb` per (input byte, half) applies the
//!   eight matrices of output bytes `0..8` (or `8..16`) lane by lane, and two `vpermt2b`
//!   gather the eight 16-byte images. Sixteen affine products per eight rows instead of 64
//!   lookups.
//!
//! [`RowMap::apply_slice`] picks the kernel at run time; a test checks the two agree.

use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_field_binary::gf2::{BitMatrix128, ByteTableMap};

use crate::kernel::{Kernel, active};

/// A linear map `F2^64 → GF(2^128)` given by the images of the 64 unit vectors.
#[derive(Clone)]
pub struct RowMap {
    tables: Box<[[Ghash128; 256]; 8]>,
    /// `matrices[b][h]`: the GFNI matrices of input byte `b` for output bytes `8h..8h+8`
    /// (lane `q` ↔ output byte `8h + q`).
    matrices: [[[u64; 8]; 2]; 8],
}

impl core::fmt::Debug for RowMap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("RowMap")
    }
}

impl RowMap {
    /// The map sending bit `s` to `images[s]`.
    #[must_use]
    pub fn new(images: &[Ghash128; 64]) -> Self {
        let mut tables = Box::new([[Ghash128::ZERO; 256]; 8]);
        for (b, table) in tables.iter_mut().enumerate() {
            for v in 1..256usize {
                table[v] = table[v & (v - 1)] + images[8 * b + v.trailing_zeros() as usize];
            }
        }
        // The GFNI blocks of the map on 128-bit inputs whose high 64 bits are zero.
        let map = ByteTableMap::new(&BitMatrix128::from_fn(|i| {
            images.get(i).map_or(0, |x| x.to_bits())
        }));
        let matrices = core::array::from_fn(|b| map.gfni_matrices()[b]);
        Self { tables, matrices }
    }

    /// The image of one row (portable).
    #[inline]
    #[must_use]
    pub fn apply(&self, row: u64) -> Ghash128 {
        row.to_le_bytes()
            .iter()
            .zip(self.tables.iter())
            .map(|(&byte, t)| t[usize::from(byte)])
            .sum()
    }

    /// `out[i] = map(rows[i])` with the [`active`] kernel.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn apply_slice(&self, rows: &[u64], out: &mut [Ghash128]) {
        self.apply_slice_with(active(), rows, out);
    }

    /// `out[i] = map(rows[i])` with a given kernel.
    ///
    /// # Panics
    /// If the lengths differ or the kernel is not available.
    pub fn apply_slice_with(&self, kernel: Kernel, rows: &[u64], out: &mut [Ghash128]) {
        assert_eq!(rows.len(), out.len(), "one output per row");
        let mut done = 0;
        if kernel == Kernel::Gfni {
            assert!(kernel.is_available(), "GFNI kernel not available");
            #[cfg(target_arch = "x86_64")]
            {
                done = rows.len() / 8 * 8;
                // SAFETY: AVX-512F/BW/VBMI and GFNI are available (checked above).
                unsafe { x86::apply(&self.matrices, &rows[..done], &mut out[..done]) };
            }
        }
        for (o, &r) in out[done..].iter_mut().zip(&rows[done..]) {
            *o = self.apply(r);
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use core::arch::x86_64::*;

    use flockwork_field_binary::Ghash128;

    /// # Safety
    /// The CPU must support AVX-512F/BW/VBMI and GFNI; `rows.len() = out.len()`, a multiple
    /// of 8.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    pub(super) unsafe fn apply(matrices: &[[[u64; 8]; 2]; 8], rows: &[u64], out: &mut [Ghash128]) {
        // spread[b]: byte 8q + r ← byte 8r + b (byte b of row r, in every lane q).
        let spread: [__m512i; 8] = core::array::from_fn(|b| {
            let idx: [u8; 64] = core::array::from_fn(|i| (8 * (i % 8) + b) as u8);
            // SAFETY: 64 readable bytes.
            unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) }
        });
        let gather = gather_indices();
        let mats = load_matrices(matrices);
        for (r8, o8) in rows.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
            // SAFETY: 64 readable bytes.
            let rows = unsafe { _mm512_loadu_si512(r8.as_ptr().cast()) };
            let mut lo = _mm512_setzero_si512();
            let mut hi = _mm512_setzero_si512();
            for b in 0..8 {
                let x = _mm512_permutexvar_epi8(spread[b], rows);
                lo = _mm512_xor_si512(lo, _mm512_gf2p8affine_epi64_epi8::<0>(x, mats[b][0]));
                hi = _mm512_xor_si512(hi, _mm512_gf2p8affine_epi64_epi8::<0>(x, mats[b][1]));
            }
            store_images(&gather, lo, hi, o8);
        }
    }

    /// `gather[g]`: image byte `ℓ` of input `4g + r` at byte `16r + ℓ`, from `lo` (`ℓ < 8`)
    /// or `hi` (the affine products leave output byte `8h + q` of input `r` in lane `q`,
    /// byte `r` of the `h` vector).
    #[target_feature(enable = "avx512f")]
    pub(crate) fn gather_indices() -> [__m512i; 2] {
        core::array::from_fn(|g| {
            let idx: [u8; 64] = core::array::from_fn(|i| {
                let (r, l) = (4 * g + i / 16, i % 16);
                if l < 8 {
                    (8 * l + r) as u8
                } else {
                    (64 + 8 * (l - 8) + r) as u8
                }
            });
            // SAFETY: 64 readable bytes.
            unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) }
        })
    }

    /// GFNI matrices ([`flockwork_field_binary::gf2::ByteTableMap::gfni_matrices`]) in
    /// registers.
    #[target_feature(enable = "avx512f")]
    pub(crate) fn load_matrices<const B: usize>(
        matrices: &[[[u64; 8]; 2]; B],
    ) -> [[__m512i; 2]; B] {
        core::array::from_fn(|b| {
            core::array::from_fn(|h| {
                // SAFETY: 64 readable bytes.
                unsafe { _mm512_loadu_si512(matrices[b][h].as_ptr().cast()) }
            })
        })
    }

    /// Writes the eight 16-byte images held in `lo`, `hi` (layout of [`gather_indices`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vbmi")]
    pub(crate) fn store_images(
        gather: &[__m512i; 2],
        lo: __m512i,
        hi: __m512i,
        out: &mut [Ghash128],
    ) {
        assert_eq!(out.len(), 8, "eight images");
        let first = _mm512_permutex2var_epi8(lo, gather[0], hi);
        let second = _mm512_permutex2var_epi8(lo, gather[1], hi);
        // SAFETY: `out` is 8 × 16 writable bytes; Ghash128 is a transparent u128 whose
        // little-endian bytes are the image bytes.
        unsafe {
            _mm512_storeu_si512(out.as_mut_ptr().cast(), first);
            _mm512_storeu_si512(out.as_mut_ptr().add(4).cast(), second);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn kernels_agree_with_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let images: [Ghash128; 64] = core::array::from_fn(|_| Ghash128::new(rng.random()));
        let map = RowMap::new(&images);
        let mut rows: Vec<u64> = (0..203).map(|_| rng.random()).collect();
        rows[5] = 0;
        rows[6] = !0;
        rows[7] = 1 << 63;
        let expect: Vec<Ghash128> = rows
            .iter()
            .map(|&r| {
                (0..64)
                    .filter(|s| (r >> s) & 1 == 1)
                    .map(|s| images[s])
                    .sum()
            })
            .collect();
        for kernel in [Kernel::Portable, Kernel::Gfni] {
            if kernel.is_available() {
                let mut out = vec![Ghash128::ZERO; rows.len()];
                map.apply_slice_with(kernel, &rows, &mut out);
                assert_eq!(out, expect, "{kernel:?}");
            }
        }
    }
}
