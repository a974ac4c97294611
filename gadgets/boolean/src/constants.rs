//! Constants of the three hashes, computed from their definitions at compile time (so no
//! table can carry a typo; the tests still compare each hash with its reference crate).

/// The first 64 primes.
const PRIMES: [u128; 64] = first_primes();

const fn first_primes() -> [u128; 64] {
    let mut out = [0u128; 64];
    let mut n = 0;
    let mut candidate = 2;
    while n < 64 {
        let mut d = 2;
        let mut prime = true;
        while d * d <= candidate {
            if candidate % d == 0 {
                prime = false;
                break;
            }
            d += 1;
        }
        if prime {
            out[n] = candidate;
            n += 1;
        }
        candidate += 1;
    }
    out
}

/// `⌊x^(1/k)⌋` for `k ∈ {2, 3}` by binary search; the root must be below `2^40` (square)
/// or `2^36` (cube) so that no intermediate power overflows.
const fn integer_root(x: u128, k: u32) -> u128 {
    let (mut lo, mut hi) = (0u128, if k == 2 { 1u128 << 40 } else { 1u128 << 36 });
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let p = if k == 2 { mid * mid } else { mid * mid * mid };
        if p <= x { lo = mid } else { hi = mid - 1 }
    }
    lo
}

/// SHA-256 round constants: the first 32 fractional bits of the cube roots of the first 64
/// primes (FIPS 180-4 §4.2.2), i.e. `⌊∛(p · 2^96)⌋ mod 2^32`.
pub const SHA256_K: [u32; 64] = {
    let mut k = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        k[i] = integer_root(PRIMES[i] << 96, 3) as u32;
        i += 1;
    }
    k
};

/// SHA-256 initial hash value: the first 32 fractional bits of the square roots of the
/// first 8 primes (FIPS 180-4 §5.3.3), i.e. `⌊√(p · 2^64)⌋ mod 2^32`.
pub const SHA256_IV: [u32; 8] = {
    let mut h = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        h[i] = integer_root(PRIMES[i] << 64, 2) as u32;
        i += 1;
    }
    h
};

/// BLAKE3's IV is SHA-256's (BLAKE3 spec §2.1).
pub const BLAKE3_IV: [u32; 8] = SHA256_IV;

/// BLAKE3 message word permutation applied between rounds (BLAKE3 spec §2.2, Table 2).
pub const BLAKE3_MSG_PERMUTATION: [usize; 16] =
    [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

/// The state words of the eight G calls of a BLAKE3 round: four columns, then four
/// diagonals; G call `j` takes message words `2j` and `2j + 1`.
pub const BLAKE3_SCHEDULE: [[usize; 4]; 8] = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
];

/// BLAKE3 domain flag of a chunk's first block.
pub const BLAKE3_CHUNK_START: u32 = 1;
/// BLAKE3 domain flag of a chunk's last block.
pub const BLAKE3_CHUNK_END: u32 = 2;
/// BLAKE3 domain flag of a parent node.
pub const BLAKE3_PARENT: u32 = 4;
/// BLAKE3 domain flag of the root compression.
pub const BLAKE3_ROOT: u32 = 8;

/// Keccak ρ rotation offsets by lane `x + 5y` (FIPS 202 Algorithm 2): walking
/// `(x, y) ← (y, 2x + 3y)` from `(1, 0)`, step `t` rotates by `(t+1)(t+2)/2 mod 64`.
pub const KECCAK_RHO: [u32; 25] = {
    let mut r = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        r[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    r
};

/// Keccak ι round constants (FIPS 202 Algorithms 5 and 6): bit `2^j − 1` of `RC[i]` is
/// `rc(j + 7i)`, the output of the LFSR `x^8 + x^6 + x^5 + x^4 + 1`.
pub const KECCAK_RC: [u64; 24] = {
    let mut rc = [0u64; 24];
    let mut lfsr: u32 = 1;
    let mut t = 0;
    while t < 24 * 7 {
        let (i, j) = (t / 7, t % 7);
        if lfsr & 1 == 1 {
            rc[i] |= 1 << ((1 << j) - 1);
        }
        lfsr <<= 1;
        if lfsr & 0x100 != 0 {
            lfsr ^= 0x171;
        }
        t += 1;
    }
    rc
};
