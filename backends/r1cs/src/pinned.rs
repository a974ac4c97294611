//! Friendly (pinned) zerocheck challenges (Dao–Thaler, eprint 2024/1038; Flock notes §3
//! "Friendly (pinned) zerocheck challenges").
//!
//! The first seven coordinates of the zerocheck's row point (index bits 6..12, i.e. 128
//! consecutive rows) are public constants instead of random challenges:
//!
//! * small, bits 6–8: `r_i = α^(2^i) / (1 + α^(2^i))` in GF(2^8) (`α = 0x02`), so that
//!   `Π_i eq(r_i, k_i) = C_s·α^k` with `k = bit6 + 2·bit7 + 4·bit8` and
//!   `C_s = Π_i (1 + r_i) = 0x1C`;
//! * medium, bits 9–12: `β_i = γ^(2^(i−1)) / (1 + γ^(2^(i−1)))` in GF(2^128) (`γ = X`), so that
//!   the weight is `γ^j / D'` with `D' = (1+γ)(1+γ²)(1+γ⁴)(1+γ⁸)`.
//!
//! Within a group of 128 rows the eq weight of row `k + 8j` is `C_s·α^k·γ^j / D'`. Because
//! these 128 weights are `F2`-linearly independent (a basis of GF(2^128) over F2, checked by a
//! test) and the constraint values `a·b + c` are bits, `Σ_q w_q·e_q = 0` forces every `e_q` to
//! vanish: pinning loses no soundness, and the random part of the point contributes the usual
//! `(m − 13)/|F|`. At most `log2 |F| / 1 = 7` coordinates can be pinned this way.
//!
//! The payoff is the prover's round-1 inner loop: for a group and a point `λ`, the 128 byte
//! products `p_{j,k}` collapse to 16 bytes `y_j = Σ_k α^k p_{j,k}` (a carry-less shift
//! accumulate and one AES reduction) and then to `Σ_j γ^j φ8(y_j)` — an `F2`-linear map of the
//! 16 bytes: 16 lookups in [`ConvertTable`] or 32 GFNI affine products per eight points —
//! with a single GF(2^128) multiplication by the outer eq weight.

use flockwork_field::{Field, PackedField};
use flockwork_field_binary::gf2::{BitMatrix128, ByteTableMap};
use flockwork_field_binary::{Aes8, Ghash128, phi8};

/// Number of pinned coordinates (index bits 6..12).
pub const PINNED_VARS: usize = 7;
/// Rows per pinned group.
pub const GROUP_ROWS: usize = 1 << PINNED_VARS;
/// Pinned small coordinates (GF(2^8)).
const SMALL: usize = 3;
/// `C_s = Π (1 + r_i)` over the small coordinates.
pub const SMALL_SCALE: Aes8 = Aes8(0x1C);

/// `γ^(2^e)` for the medium coordinates.
fn gamma_pow2(e: usize) -> Ghash128 {
    let mut g = Ghash128::X;
    for _ in 0..e {
        g = g.square();
    }
    g
}

/// The seven pinned coordinates in order (bits 6..12 of the row index).
#[must_use]
pub fn pinned_point() -> [Ghash128; PINNED_VARS] {
    core::array::from_fn(|i| {
        if i < SMALL {
            let a = Aes8(1u8 << (1 << i)); // α^(2^i) = x^(2^i), below x^8
            phi8(a * (Aes8(1) + a).invert_or_zero())
        } else {
            let g = gamma_pow2(i - SMALL);
            g * (Ghash128::ONE + g).inverse().expect("γ^(2^e) ≠ 1")
        }
    })
}

/// `1 / D'` with `D' = Π_{e<4} (1 + γ^(2^e))`: the factor the prover drops from the medium
/// weights and restores with `C_s` before sending.
#[must_use]
pub fn group_scale() -> Ghash128 {
    let d: Ghash128 = (0..4).map(|e| Ghash128::ONE + gamma_pow2(e)).product();
    phi8(SMALL_SCALE) * d.inverse().expect("D' ≠ 0")
}

/// `Tconv[j][v] = γ^j·φ8(v)` for `j < 16` (64 KiB), and the same map
/// `(y_0, …, y_15) ↦ Σ_j γ^j·φ8(y_j)` (linear over `F2` in the 128 input bits) as GFNI byte
/// matrices for `kernel::group_sums`.
#[derive(Clone)]
pub struct ConvertTable {
    table: Box<[[Ghash128; 256]; 16]>,
    matrices: [[[u64; 8]; 2]; 16],
}

impl core::fmt::Debug for ConvertTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ConvertTable")
    }
}

impl Default for ConvertTable {
    fn default() -> Self {
        Self::new()
    }
}

impl ConvertTable {
    /// Builds the table.
    #[must_use]
    pub fn new() -> Self {
        let mut table = Box::new([[Ghash128::ZERO; 256]; 16]);
        let mut g = Ghash128::ONE;
        for row in table.iter_mut() {
            for (v, e) in row.iter_mut().enumerate() {
                *e = g * phi8(Aes8(v as u8));
            }
            g *= Ghash128::X;
        }
        let map = ByteTableMap::new(&BitMatrix128::from_fn(|k| {
            table[k / 8][1 << (k % 8)].to_bits()
        }));
        let matrices = *map.gfni_matrices();
        Self { table, matrices }
    }

    /// The GFNI matrices of the map
    /// ([`flockwork_field_binary::gf2::ByteTableMap::gfni_matrices`]).
    #[must_use]
    pub(crate) fn matrices(&self) -> &[[[u64; 8]; 2]; 16] {
        &self.matrices
    }

    /// `γ^j·φ8(v)`.
    #[inline(always)]
    #[must_use]
    pub fn get(&self, j: usize, v: u8) -> Ghash128 {
        self.table[j][usize::from(v)]
    }
}

/// Reduces a carry-less accumulator of degree < 15 modulo the AES polynomial `x^8 + x^4 +
/// x^3 + x + 1`.
#[cfg(test)]
#[must_use]
pub fn aes_reduce(mut acc: u16) -> u8 {
    for bit in (8..15).rev() {
        if acc & (1 << bit) != 0 {
            acc ^= 0x11B << (bit - 8);
        }
    }
    acc as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_core::eq_table;
    use flockwork_field_binary::gf2::BitMatrix128;

    #[test]
    fn small_coordinates_match_the_notes() {
        let p = pinned_point();
        assert_eq!(p[0], phi8(Aes8(0xF7)));
        assert_eq!(p[1], phi8(Aes8(0x53)));
        assert_eq!(p[2], phi8(Aes8(0xB5)));
    }

    #[test]
    fn group_weights_have_the_closed_form() {
        let eq = eq_table(&pinned_point());
        let scale = group_scale();
        let tconv = ConvertTable::new();
        for j in 0..16 {
            for k in 0..8 {
                let alpha_k = Aes8(1 << k);
                assert_eq!(
                    eq[k + 8 * j],
                    scale * tconv.get(j, alpha_k.0),
                    "k={k} j={j}"
                );
            }
        }
    }

    #[test]
    fn pinned_weights_are_an_f2_basis() {
        let rows: Vec<u128> = eq_table(&pinned_point())
            .iter()
            .map(|w| w.to_bits())
            .collect();
        assert_eq!(BitMatrix128::from_fn(|i| rows[i]).rank(), 128);
        // A dependent set is detected: duplicating a weight drops the rank.
        assert!(BitMatrix128::from_fn(|i| rows[i.min(126)]).rank() < 128);
    }

    #[test]
    fn aes_reduce_matches_field_multiplication() {
        for p in [0u8, 1, 0x53, 0xCA, 0xFF] {
            for k in 0..8 {
                let acc = u16::from(p) << k;
                assert_eq!(Aes8(aes_reduce(acc)), Aes8(p) * Aes8(1 << k));
            }
        }
    }
}
