//! F2-linear algebra on 128-bit vectors, shared by the tower ↔ GHASH isomorphism
//! ([`crate::iso`]), the GF(2^8)-coordinates of GHASH ([`crate::aes`]) and the trace checks
//! of GF(2^256) ([`crate::ext256`]).
//!
//! A vector of GF(2)^128 is a `u128` (bit `i` = coordinate `i`). A linear map
//! GF(2)^128 → GF(2)^128 is stored by its columns ([`BitMatrix128`]); it is solved and
//! inverted by Gaussian elimination on `u128` rows and applied fast through sixteen
//! byte-indexed tables ([`ByteTableMap`]).

use flockwork_field::{BinaryField, PackedField};

/// A linear map of GF(2)^128 given by its columns: `apply(e_i) = cols[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix128 {
    cols: [u128; 128],
}

impl BitMatrix128 {
    /// The map sending the unit vector `e_i` to `cols[i]`.
    #[must_use]
    pub const fn from_columns(cols: [u128; 128]) -> Self {
        Self { cols }
    }

    /// The map `e_i ↦ column(i)`.
    #[must_use]
    pub fn from_fn(mut column: impl FnMut(usize) -> u128) -> Self {
        let mut cols = [0u128; 128];
        for (i, c) in cols.iter_mut().enumerate() {
            *c = column(i);
        }
        Self { cols }
    }

    /// The columns.
    #[must_use]
    pub const fn columns(&self) -> &[u128; 128] {
        &self.cols
    }

    /// `M · v` (bit by bit; for one-off use, see [`ByteTableMap`] for hot paths).
    #[must_use]
    pub fn apply(&self, v: u128) -> u128 {
        self.cols
            .iter()
            .enumerate()
            .filter(|(i, _)| (v >> i) & 1 == 1)
            .fold(0, |acc, (_, c)| acc ^ c)
    }

    /// Rank over GF(2).
    #[must_use]
    pub fn rank(&self) -> usize {
        Echelon::of(self).rank
    }

    /// Some `x` with `M · x = target`, or `None` if `target` is not in the image. When the
    /// kernel is nontrivial the solution returned is a deterministic function of `M` and
    /// `target` (the one whose support avoids non-pivot columns).
    #[must_use]
    pub fn solve(&self, target: u128) -> Option<u128> {
        Echelon::of(self).solve(target)
    }

    /// `M^-1`, or `None` if `M` is singular.
    #[must_use]
    pub fn inverse(&self) -> Option<Self> {
        let echelon = Echelon::of(self);
        if echelon.rank != 128 {
            return None;
        }
        let mut cols = [0u128; 128];
        for (r, c) in cols.iter_mut().enumerate() {
            *c = echelon.solve(1 << r)?;
        }
        Some(Self { cols })
    }
}

/// A reduced basis of the column space of a [`BitMatrix128`], each vector remembering
/// which original columns it combines.
struct Echelon {
    /// `pivots[p] = (v, combo)`: `v` has highest set bit `p` and equals the XOR of the columns
    /// selected by `combo`; `v = 0` marks an empty slot.
    pivots: [(u128, u128); 128],
    rank: usize,
}

impl Echelon {
    fn of(m: &BitMatrix128) -> Self {
        let mut echelon = Self {
            pivots: [(0, 0); 128],
            rank: 0,
        };
        for (i, &col) in m.cols.iter().enumerate() {
            let (v, combo) = echelon.reduce(col, 1 << i);
            if v != 0 {
                echelon.pivots[Self::lead(v)] = (v, combo);
                echelon.rank += 1;
            }
        }
        echelon
    }

    /// Index of the highest set bit of `v != 0`.
    fn lead(v: u128) -> usize {
        127 - v.leading_zeros() as usize
    }

    /// Reduces `v` (a combination `combo` of columns) against the pivots until its leading
    /// bit has no pivot; returns the remainder and the updated combination.
    fn reduce(&self, mut v: u128, mut combo: u128) -> (u128, u128) {
        while v != 0 {
            let (pv, pc) = self.pivots[Self::lead(v)];
            if pv == 0 {
                break;
            }
            v ^= pv;
            combo ^= pc;
        }
        (v, combo)
    }

    fn solve(&self, target: u128) -> Option<u128> {
        let (rest, combo) = self.reduce(target, 0);
        (rest == 0).then_some(combo)
    }
}

/// A linear map of GF(2)^128 applied with sixteen byte-indexed tables:
/// `M · v = ⊕_{k<16} T_k[byte_k(v)]`, where `T_k[b] = M · (b << 8k)`. 64 KiB, 16 lookups and
/// 15 XORs per application.
///
/// [`ByteTableMap::apply_xor_slice`] maps many vectors at once, on x86-64 with AVX-512 VBMI
/// and GFNI through the 8×8 blocks of `M` (`vgf2p8affineqb`, 32 affine products per eight
/// vectors; [`crate::arch::x86_64::gfni`]), elsewhere with the tables.
#[derive(Clone)]
pub struct ByteTableMap {
    tables: [[u128; 256]; 16],
    /// `matrices[j][h]`, lane `q`: the block from input byte `j` to output byte `8h + q`, in
    /// `vgf2p8affineqb` layout (output bit `t` is the parity of byte `7 − t` AND the input).
    matrices: [[[u64; 8]; 2]; 16],
}

impl ByteTableMap {
    /// Tables for `m`, built with one XOR per entry.
    #[must_use]
    pub fn new(m: &BitMatrix128) -> Self {
        let mut tables = [[0u128; 256]; 16];
        for (k, table) in tables.iter_mut().enumerate() {
            for b in 1..256usize {
                let low = b.trailing_zeros() as usize;
                table[b] = table[b & (b - 1)] ^ m.cols[8 * k + low];
            }
        }
        let mut matrices = [[[0u64; 8]; 2]; 16];
        for (j, per_input) in matrices.iter_mut().enumerate() {
            for (h, lanes) in per_input.iter_mut().enumerate() {
                for (q, lane) in lanes.iter_mut().enumerate() {
                    let l = 8 * h + q;
                    for t in 0..8 {
                        let mask = (0..8).fold(0u64, |acc, u| {
                            acc | ((((m.cols[8 * j + u] >> (8 * l + t)) & 1) as u64) << u)
                        });
                        *lane |= mask << (8 * (7 - t));
                    }
                }
            }
        }
        Self { tables, matrices }
    }

    /// The 8×8 blocks of `M` in `vgf2p8affineqb` layout (`[j][h]`, lane `q`: input byte `j`
    /// to output byte `8h + q`), for SIMD kernels that fuse the map into their own loops.
    #[must_use]
    pub fn gfni_matrices(&self) -> &[[[u64; 8]; 2]; 16] {
        &self.matrices
    }

    /// `out[i] ^= M · input[i]`, with the GFNI kernel when the CPU has it.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn apply_xor_slice(&self, input: &[u128], out: &mut [u128]) {
        self.apply_xor_slice_with(crate::arch::has_gfni_avx512(), input, out);
    }

    /// `out[i] += M · input[i]` on GF(2^128) elements (their bit patterns), with the GFNI
    /// kernel when the CPU has it.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn apply_xor_ghash(&self, input: &[crate::Ghash128], out: &mut [crate::Ghash128]) {
        self.apply_xor_slice(crate::arch::bits(input), crate::arch::bits_mut(out));
    }

    /// [`ByteTableMap::apply_xor_slice`] forcing the kernel: `simd = false` is the portable
    /// twin (tests compare the two).
    ///
    /// # Panics
    /// If the lengths differ, or `simd` is requested on a CPU without AVX-512 VBMI + GFNI.
    pub fn apply_xor_slice_with(&self, simd: bool, input: &[u128], out: &mut [u128]) {
        assert_eq!(input.len(), out.len(), "one output per input");
        let mut done = 0;
        if simd {
            assert!(crate::arch::has_gfni_avx512(), "GFNI kernel not available");
            #[cfg(target_arch = "x86_64")]
            {
                done = input.len() / 8 * 8;
                // SAFETY: AVX-512F/BW/VBMI and GFNI were detected; lengths are equal
                // multiples of 8.
                unsafe {
                    crate::arch::x86_64::gfni::map_xor(
                        &self.matrices,
                        &input[..done],
                        &mut out[..done],
                    );
                }
            }
        }
        for (o, &v) in out[done..].iter_mut().zip(&input[done..]) {
            *o ^= self.apply(v);
        }
    }

    /// `M · v`.
    #[inline]
    #[must_use]
    pub fn apply(&self, v: u128) -> u128 {
        self.tables
            .iter()
            .zip(v.to_le_bytes())
            .fold(0, |acc, (t, b)| acc ^ t[usize::from(b)])
    }
}

impl core::fmt::Debug for ByteTableMap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ByteTableMap { 16 x 256 u128 }")
    }
}

/// The absolute trace `Tr(a) = Σ_{i < BITS} a^(2^i)` of GF(2^BITS) over GF(2); it is always
/// `0` or `1`. `y^2 + y = c` has a root in the field iff `Tr(c) = 0` (Hilbert 90 for the
/// Artin–Schreier map).
#[must_use]
pub fn absolute_trace<F: BinaryField>(a: F) -> F {
    let mut power = a;
    let mut acc = a;
    for _ in 1..F::BITS {
        power = PackedField::square(&power);
        acc += power;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_table_kernels_agree_with_the_matrix() {
        let mut x = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834u128;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let m = BitMatrix128::from_fn(|_| next());
        let map = ByteTableMap::new(&m);
        let mut input: Vec<u128> = (0..203).map(|_| next()).collect();
        input[0] = 0;
        input[1] = u128::MAX;
        input[2] = 1 << 127;
        let start: Vec<u128> = (0..203).map(|_| next()).collect();
        let expect: Vec<u128> = input
            .iter()
            .zip(&start)
            .map(|(&v, &s)| s ^ m.apply(v))
            .collect();
        for simd in [false, true] {
            if simd && !crate::arch::has_gfni_avx512() {
                continue;
            }
            let mut out = start.clone();
            map.apply_xor_slice_with(simd, &input, &mut out);
            assert_eq!(out, expect, "simd = {simd}");
        }
    }
}
