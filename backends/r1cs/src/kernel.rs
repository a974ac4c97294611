//! The byte kernel of the zerocheck's round 1: for one 128-row group (16 sub-groups `j` of 8
//! rows `k`), the bytes
//!
//! ```text
//! y_j[i] = Σ_k α^k · â_{8j+k}(λ_i) · b̂_{8j+k}(λ_i)      z_j[s] = Σ_k α^k · z_{8j+k}[s]
//! ```
//!
//! in GF(2^8) (the AES field; `α^k = x^k` for `k < 8`, so `z_j[s]` is just bit `s` of row `k`
//! placed at bit `k`). Two implementations with identical results (tested):
//!
//! * **portable**: the LDE through [`LdeTable::extend`], products from a 64 KiB
//!   multiplication table, the `α^k` weights as a carry-less shift accumulate reduced once, and
//!   the `z` bytes by 8×8 bit transposes;
//! * **x86-64 AVX-512 + GFNI**: a row's LDE is eight 64-byte loads, each permuted by
//!   `vpermq` (the block index XOR `b`), the 64 products and the `α^k` scaling are one
//!   `vgf2p8mulb` each (GFNI multiplies in exactly the AES field), and the `z` bytes are one
//!   masked broadcast per row.
//!
//! [`group_bytes`] picks the fastest available at run time.

use std::sync::OnceLock;

use crate::pinned::{GROUP_ROWS, aes_reduce};
use crate::skip::{LdeTable, SKIP_SIZE};

/// Sub-groups of 8 rows per group.
pub const SUBGROUPS: usize = GROUP_ROWS / 8;

/// The bytes of one group: `(y, z)`, `SUBGROUPS × 64` each.
pub type GroupBytes = ([[u8; SKIP_SIZE]; SUBGROUPS], [[u8; SKIP_SIZE]; SUBGROUPS]);

/// Which implementation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Scalar code, every target.
    Portable,
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
        }
        Self::Portable
    }

    /// Whether this CPU can run the kernel.
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Self::Portable => true,
            Self::Gfni => Self::detect() == Self::Gfni,
        }
    }
}

/// The kernel chosen once per process.
#[must_use]
pub fn active() -> Kernel {
    static ACTIVE: OnceLock<Kernel> = OnceLock::new();
    *ACTIVE.get_or_init(Kernel::detect)
}

/// The group bytes with the [`active`] kernel. Slices hold the group's 128 rows.
#[must_use]
pub fn group_bytes(lde: &LdeTable, a: &[u64], b: &[u64], z: &[u64]) -> GroupBytes {
    group_bytes_with(active(), lde, a, b, z)
}

/// The group bytes with a given kernel.
///
/// # Panics
/// If the kernel is not available or a slice does not hold 128 rows.
#[must_use]
pub fn group_bytes_with(
    kernel: Kernel,
    lde: &LdeTable,
    a: &[u64],
    b: &[u64],
    z: &[u64],
) -> GroupBytes {
    assert!(a.len() == GROUP_ROWS && b.len() == GROUP_ROWS && z.len() == GROUP_ROWS);
    match kernel {
        Kernel::Portable => portable(lde, a, b, z),
        Kernel::Gfni => {
            assert!(kernel.is_available(), "GFNI kernel not available");
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: the CPU supports AVX-512F/BW and GFNI (checked above).
                unsafe { x86::group_bytes(lde.raw(), a, b, z) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            unreachable!()
        }
    }
}

/// The full GF(2^8) multiplication table (64 KiB), built once.
fn mul_table() -> &'static [[u8; 256]; 256] {
    static TABLE: OnceLock<Box<[[u8; 256]; 256]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; 256]; 256]);
        for (x, row) in t.iter_mut().enumerate() {
            for (y, e) in row.iter_mut().enumerate() {
                *e = (flockwork_field_binary::Aes8(x as u8)
                    * flockwork_field_binary::Aes8(y as u8))
                .0;
            }
        }
        t
    })
}

/// Transposes an 8×8 bit matrix held in a `u64` (byte `r`, bit `c` ↔ byte `c`, bit `r`).
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

fn portable(lde: &LdeTable, a: &[u64], b: &[u64], z: &[u64]) -> GroupBytes {
    let mul = mul_table();
    let mut ys = [[0u8; SKIP_SIZE]; SUBGROUPS];
    let mut zs = [[0u8; SKIP_SIZE]; SUBGROUPS];
    for j in 0..SUBGROUPS {
        let mut acc = [0u16; SKIP_SIZE];
        for k in 0..8 {
            let row = 8 * j + k;
            if a[row] == 0 || b[row] == 0 {
                continue;
            }
            let ea = lde.extend(a[row]);
            let eb = lde.extend(b[row]);
            for (q, (&wa, &wb)) in ea.iter().zip(&eb).enumerate() {
                let (xa, xb) = (wa.to_le_bytes(), wb.to_le_bytes());
                for t in 0..8 {
                    let p = mul[usize::from(xa[t])][usize::from(xb[t])];
                    acc[8 * q + t] ^= u16::from(p) << k;
                }
            }
        }
        for (y, &v) in ys[j].iter_mut().zip(&acc) {
            *y = aes_reduce(v);
        }
        // Byte c of the 8 rows → one 8×8 block; transposed, byte s holds bit (8c + s) of
        // row k at bit k.
        let rows = &z[8 * j..8 * j + 8];
        for c in 0..8 {
            let block = rows
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, &r)| m | (((r >> (8 * c)) & 0xFF) << (8 * k)));
            zs[j][8 * c..8 * c + 8].copy_from_slice(&transpose8(block).to_le_bytes());
        }
    }
    (ys, zs)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::{GroupBytes, SUBGROUPS};
    use crate::skip::SKIP_SIZE;

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

    /// # Safety
    /// The CPU must support AVX-512F, AVX-512BW and GFNI; slices hold 128 rows.
    #[target_feature(enable = "avx512f,avx512bw,gfni")]
    pub(super) unsafe fn group_bytes(
        table: &[[u64; 8]; 256],
        a: &[u64],
        b: &[u64],
        z: &[u64],
    ) -> GroupBytes {
        let perms: [__m512i; 8] = core::array::from_fn(|b| {
            let b = b as i64;
            _mm512_set_epi64(7 ^ b, 6 ^ b, 5 ^ b, 4 ^ b, 3 ^ b, 2 ^ b, 1 ^ b, b)
        });
        let mut ys = [[0u8; SKIP_SIZE]; SUBGROUPS];
        let mut zs = [[0u8; SKIP_SIZE]; SUBGROUPS];
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
            // SAFETY: each destination is 64 writable bytes.
            unsafe {
                _mm512_storeu_si512(ys[j].as_mut_ptr().cast(), y);
                _mm512_storeu_si512(zs[j].as_mut_ptr().cast(), zb);
            }
        }
        (ys, zs)
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
            for kernel in [Kernel::Portable, Kernel::Gfni] {
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
}
