//! The univariate skip over the low six index bits (Gruen, eprint 2024/108, §5.1; Flock notes
//! §3 "Univariate skip").
//!
//! A row of the witness is one `u64` word: its 64 bits are the values of a Boolean polynomial
//! on the skip variables, read at the points of the subspace
//!
//! ```text
//! S = φ8({0..63}) = span_F2{1, α, …, α^5} ⊂ GF(2^8),    bit s of a row ↔ point φ8(s).
//! ```
//!
//! The prover's round-1 messages are the values on the coset `Λ = φ8(0x40) + S = φ8({64..127})`,
//! the other half of the 7-dimensional subspace `S ∪ Λ`. All of it lives in GF(2^8):
//!
//! * `Z_S(X) = Π_{s∈S}(X + s)` is `F2`-linear, `D = Z_S'(s) = Π_{s≠0} s = 0x33` for every
//!   `s ∈ S`, and `μ = Z_S(λ) = 0x24` for every `λ ∈ Λ`;
//! * Lagrange on `S` at any point: `L_k(X) = Z_S(X) / (D·(X + s_k))`; on `Λ`:
//!   `L^Λ_i(X) = (Z_S(X) + μ) / (D·(X + λ_i))` (because `Z_Λ(X) = Z_S(X) + μ`);
//! * the LDE matrix `S → Λ` is `M[i][k] = μ / (D·(λ_i + s_k))`, and `λ_i + s_k = 0x40 ⊕ i ⊕ k`,
//!   so `M[i][k] = 0x84 · (0x40 ⊕ i ⊕ k)^(−1)` depends on `i ⊕ k` only.
//!
//! Hence `M[i][8b + j] = M[i ⊕ 8b][j]`, and one table `T[v][i] = ⊕_{j<8, v_j = 1} M[i][j]`
//! (256 × 64 bytes = 16 KiB) gives the LDE of a row with bytes `a_0..a_7` as
//! `â(λ_i) = ⊕_b T[a_b][i ⊕ 8b]`: XOR-ing the index with `8b` permutes the 8-byte blocks of a
//! table entry, so the LDE is eight 64-byte loads with a block permutation.

use flockwork_field::Field;
use flockwork_field_binary::{Aes8, Ghash128, phi8};

/// Number of skipped variables `k_s`.
pub const SKIP_VARS: usize = 6;
/// Size of the skip domain `|S| = 2^k_s`.
pub const SKIP_SIZE: usize = 1 << SKIP_VARS;

/// `D = Π_{s ∈ S, s ≠ 0} s` in GF(2^8).
pub const SKIP_D: Aes8 = Aes8(0x33);
/// `μ = Z_S(λ)` for every `λ ∈ Λ`, in GF(2^8).
pub const SKIP_MU: Aes8 = Aes8(0x24);
/// The first point of `Λ` (its offset from `S`).
pub const LAMBDA_OFFSET: u8 = 0x40;

/// `M[i][k] = μ / (D·(λ_i + s_k)) = 0x84 · (0x40 ⊕ i ⊕ k)^(−1)`.
#[must_use]
pub fn lde_entry(i: usize, k: usize) -> Aes8 {
    debug_assert!(i < SKIP_SIZE && k < SKIP_SIZE);
    Aes8(0x84) * Aes8(LAMBDA_OFFSET ^ (i ^ k) as u8).invert_or_zero()
}

/// The 16 KiB LDE table `T[v]`, one 64-byte entry per byte value, stored as eight `u64`
/// blocks (block `q` holds the values at `λ_{8q..8q+7}`, little-endian); and the same map in
/// bit planes, one table per byte position of a row (128 KiB, for the bit-sliced kernel):
/// `planes[b][v][c]` has bit `i` set iff bit `c` of `Σ_{j: v_j = 1} M[i][8b + j]` is.
#[derive(Clone)]
pub struct LdeTable {
    table: Box<[[u64; 8]; 256]>,
    planes: Box<[[[u64; 8]; 256]; 8]>,
}

impl core::fmt::Debug for LdeTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("LdeTable")
    }
}

impl Default for LdeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl LdeTable {
    /// Builds `T` from the closed form of `M`.
    #[must_use]
    pub fn new() -> Self {
        let mut table = Box::new([[0u64; 8]; 256]);
        for j in 0..8 {
            let mut column = [0u64; 8];
            for i in 0..SKIP_SIZE {
                column[i / 8] |= u64::from(lde_entry(i, j).0) << (8 * (i % 8));
            }
            subset_sums(&mut table, j, column);
        }
        let mut planes = Box::new([[[0u64; 8]; 256]; 8]);
        for (b, plane_table) in planes.iter_mut().enumerate() {
            for j in 0..8 {
                let mut column = [0u64; 8];
                for i in 0..SKIP_SIZE {
                    let entry = lde_entry(i, 8 * b + j).0;
                    for (c, plane) in column.iter_mut().enumerate() {
                        *plane |= u64::from((entry >> c) & 1) << i;
                    }
                }
                subset_sums(plane_table, j, column);
            }
        }
        Self { table, planes }
    }

    /// The bit-plane tables (see the type's docs).
    #[must_use]
    pub fn planes(&self) -> &[[[u64; 8]; 256]; 8] {
        &self.planes
    }

    /// The raw table (for SIMD kernels).
    #[must_use]
    pub fn raw(&self) -> &[[u64; 8]; 256] {
        &self.table
    }

    /// The values of a row's LDE on `Λ`: byte `i` (block `i / 8`, byte `i mod 8`) is
    /// `â(λ_i) = Σ_s M[i][s]·bit_s(row)`.
    #[inline]
    #[must_use]
    pub fn extend(&self, row: u64) -> [u64; 8] {
        let mut out = [0u64; 8];
        for (b, byte) in row.to_le_bytes().into_iter().enumerate() {
            let entry = &self.table[usize::from(byte)];
            for (q, o) in out.iter_mut().enumerate() {
                *o ^= entry[q ^ b];
            }
        }
        out
    }
}

/// Fills the entries `v` with bit `j` set of a subset-sum table: `table[v] = table[v − 2^j] ⊕
/// column` (entries below `2^j` done).
fn subset_sums(table: &mut [[u64; 8]; 256], j: usize, column: [u64; 8]) {
    let bit = 1usize << j;
    for v in bit..2 * bit {
        for q in 0..8 {
            table[v][q] = table[v - bit][q] ^ column[q];
        }
    }
}

/// The point `s` of `S` (or of `Λ` for `s ≥ 64`) as an element of GF(2^128).
#[must_use]
pub fn point(s: usize) -> Ghash128 {
    debug_assert!(s < 2 * SKIP_SIZE);
    phi8(Aes8(s as u8))
}

/// `Z_S(x) = Π_{s ∈ S}(x + s)`.
#[must_use]
pub fn vanishing(x: Ghash128) -> Ghash128 {
    (0..SKIP_SIZE).map(|s| x + point(s)).product()
}

/// Lagrange weights on a 64-point domain at `x`: `L_k(x) = (Z(x) + z_off) / (D·(x + p_k))`,
/// or the indicator of `x` if it is a domain point.
fn lagrange(x: Ghash128, base: usize) -> [Ghash128; SKIP_SIZE] {
    let mut out = [Ghash128::ZERO; SKIP_SIZE];
    if let Some(k) = (0..SKIP_SIZE).find(|&k| point(base + k) == x) {
        out[k] = Ghash128::ONE;
        return out;
    }
    let z = (0..SKIP_SIZE)
        .map(|k| x + point(base + k))
        .product::<Ghash128>();
    let d = phi8(SKIP_D);
    // Batch inversion of the 64 denominators D·(x + p_k).
    let denominators: [Ghash128; SKIP_SIZE] = core::array::from_fn(|k| d * (x + point(base + k)));
    let mut prefix = [Ghash128::ONE; SKIP_SIZE];
    let mut acc = Ghash128::ONE;
    for (p, &den) in prefix.iter_mut().zip(&denominators) {
        *p = acc;
        acc *= den;
    }
    let mut inv = acc.inverse().unwrap_or(Ghash128::ZERO);
    for k in (0..SKIP_SIZE).rev() {
        out[k] = z * inv * prefix[k];
        inv *= denominators[k];
    }
    out
}

/// `L_k(x)` for the 64 points of `S`.
#[must_use]
pub fn lagrange_s(x: Ghash128) -> [Ghash128; SKIP_SIZE] {
    lagrange(x, 0)
}

/// `L^Λ_i(x)` for the 64 points of `Λ`.
#[must_use]
pub fn lagrange_lambda(x: Ghash128) -> [Ghash128; SKIP_SIZE] {
    lagrange(x, SKIP_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aes_vanishing(x: Aes8) -> Aes8 {
        (0..SKIP_SIZE as u8).map(|s| x + Aes8(s)).product()
    }

    #[test]
    fn constants_match_their_definitions() {
        let d: Aes8 = (1..SKIP_SIZE as u8).map(Aes8).product();
        assert_eq!(d, SKIP_D);
        for l in 64..128u8 {
            assert_eq!(aes_vanishing(Aes8(l)), SKIP_MU);
        }
        for s in 0..64u8 {
            assert_eq!(aes_vanishing(Aes8(s)), Aes8(0));
            let derivative: Aes8 = (0..64u8).filter(|&t| t != s).map(|t| Aes8(s ^ t)).product();
            assert_eq!(derivative, SKIP_D);
        }
        assert_eq!(SKIP_MU * SKIP_D.invert_or_zero(), Aes8(0x84));
    }

    #[test]
    fn lde_table_matches_lagrange_interpolation() {
        let table = LdeTable::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..50 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let row = rng;
            let ext = table.extend(row);
            for i in 0..SKIP_SIZE {
                let lambda = point(SKIP_SIZE + i);
                let expect: Ghash128 = lagrange_s(lambda)
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| (row >> s) & 1 == 1)
                    .map(|(_, &l)| l)
                    .sum();
                let byte = (ext[i / 8] >> (8 * (i % 8))) as u8;
                assert_eq!(phi8(Aes8(byte)), expect, "row {row:#x}, λ_{i}");
            }
        }
    }

    #[test]
    fn lagrange_weights_interpolate_and_sum_to_one() {
        let x = Ghash128::new(0x1234_5678_9abc_def0_0fed_cba9_8765_4321);
        let l = lagrange_s(x);
        assert_eq!(l.iter().copied().sum::<Ghash128>(), Ghash128::ONE);
        // Interpolating the identity polynomial X gives x back.
        let id: Ghash128 = (0..SKIP_SIZE).map(|k| l[k] * point(k)).sum();
        assert_eq!(id, x);
        let lam = lagrange_lambda(x);
        let id: Ghash128 = (0..SKIP_SIZE).map(|k| lam[k] * point(SKIP_SIZE + k)).sum();
        assert_eq!(id, x);
        // On the domain the weights are indicators.
        assert_eq!(lagrange_s(point(5))[5], Ghash128::ONE);
        assert_eq!(lagrange_lambda(point(70))[6], Ghash128::ONE);
        assert_eq!(vanishing(point(77)), phi8(SKIP_MU));
    }
}
