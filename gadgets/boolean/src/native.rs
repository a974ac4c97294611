//! Portable native implementations: the baselines witness generation is measured against,
//! and the references the circuits are checked with (themselves checked against `sha2`,
//! `keccak` and `blake3` in the tests).
//!
//! Plain scalar code: no SHA-NI, no SIMD, single core.

use crate::constants::{
    BLAKE3_IV, BLAKE3_MSG_PERMUTATION, BLAKE3_SCHEDULE, KECCAK_RC, KECCAK_RHO, SHA256_K,
};

/// SHA-256 compression (FIPS 180-4 §6.2.2): updates `state` with one 64-byte block.
pub fn sha256_compress(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 64];
    for (t, chunk) in block.chunks_exact(4).enumerate() {
        w[t] = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    for t in 16..64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = s1
            .wrapping_add(w[t - 7])
            .wrapping_add(s0)
            .wrapping_add(w[t - 16]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in 0..64 {
        let big_s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = g ^ (e & (f ^ g));
        let t1 = h
            .wrapping_add(big_s1)
            .wrapping_add(ch)
            .wrapping_add(SHA256_K[t])
            .wrapping_add(w[t]);
        let big_s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = a ^ ((a ^ b) & (a ^ c));
        let t2 = big_s0.wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// The BLAKE3 compression function (BLAKE3 spec §2.2): 7 rounds of the G mixing function
/// over the 16-word state `cv ‖ IV[0..4] ‖ counter_lo ‖ counter_hi ‖ block_len ‖ flags`,
/// returning the full 16-word output (`v[i] ⊕ v[i+8]`, `v[i+8] ⊕ cv[i]`).
#[must_use]
pub fn blake3_compress(
    cv: &[u32; 8],
    block: &[u32; 16],
    counter: u64,
    block_len: u32,
    flags: u32,
) -> [u32; 16] {
    let mut v = [0u32; 16];
    v[..8].copy_from_slice(cv);
    v[8..12].copy_from_slice(&BLAKE3_IV[..4]);
    v[12] = counter as u32;
    v[13] = (counter >> 32) as u32;
    v[14] = block_len;
    v[15] = flags;
    let mut m = *block;
    for round in 0..7 {
        for (j, &[a, b, c, d]) in BLAKE3_SCHEDULE.iter().enumerate() {
            blake3_g(&mut v, [a, b, c, d], m[2 * j], m[2 * j + 1]);
        }
        if round < 6 {
            m = core::array::from_fn(|i| m[BLAKE3_MSG_PERMUTATION[i]]);
        }
    }
    core::array::from_fn(|i| {
        if i < 8 {
            v[i] ^ v[i + 8]
        } else {
            v[i] ^ cv[i - 8]
        }
    })
}

/// The BLAKE3 G function on state words `a, b, c, d` with message words `mx`, `my`.
fn blake3_g(v: &mut [u32; 16], [a, b, c, d]: [usize; 4], mx: u32, my: u32) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(mx);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(12);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(my);
    v[d] = (v[d] ^ v[a]).rotate_right(8);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(7);
}

/// Keccak-f\[1600\] (FIPS 202 §3.3): 24 rounds on 25 lanes, lane `x + 5y`.
pub fn keccak_f1600(state: &mut [u64; 25]) {
    keccak_p1600(state, 24);
}

/// Keccak-p[1600, `rounds`] (FIPS 202 §3.3): the **last** `rounds` rounds of Keccak-f
/// (round indices `24 − rounds .. 24`).
///
/// # Panics
/// If `rounds > 24`.
pub fn keccak_p1600(state: &mut [u64; 25], rounds: usize) {
    assert!(rounds <= 24, "Keccak-f[1600] has 24 rounds");
    for &rc in &KECCAK_RC[24 - rounds..] {
        keccak_round(state, rc);
    }
}

/// One Keccak-f\[1600\] round `ι ∘ χ ∘ π ∘ ρ ∘ θ` (FIPS 202 §3.3) with round constant `rc`.
pub fn keccak_round(state: &mut [u64; 25], rc: u64) {
    let c: [u64; 5] = core::array::from_fn(|x| (0..5).fold(0, |acc, y| acc ^ state[x + 5 * y]));
    let mut b = [0u64; 25];
    for y in 0..5 {
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            b[y + 5 * ((2 * x + 3 * y) % 5)] =
                (state[x + 5 * y] ^ d).rotate_left(KECCAK_RHO[x + 5 * y]);
        }
    }
    for y in 0..5 {
        for x in 0..5 {
            state[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
        }
    }
    state[0] ^= rc;
}
