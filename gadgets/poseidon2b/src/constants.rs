//! Round constants: the official TurboSHAKE256 procedure and frost-gkr's placeholder table.
//!
//! ## Official instance (Poseidon2b specification, ePrint 2025/058; `Poseidon-Hash/Poseidon2b`)
//!
//! A TurboSHAKE256 XOF with domain byte `0x1F` absorbs the ASCII bytes `"Poseidon2b"`, then
//! the field order `2^128` as little-endian 64-bit chunks, low chunk first (three chunks:
//! `0, 0, 1`, i.e. 24 bytes). Elements are then squeezed one at a time: each candidate is
//! `⌈129/8⌉ = 17` bytes read as a little-endian integer and is kept only when it is `< 2^128`
//! (rejection sampling: the 17th byte must be zero, acceptance `1/256`). `66 · t` elements
//! are drawn in round-major order, giving `rc[r][lane]`; lanes `1..t` of the partial rounds
//! `4..62` are then set to zero (they are drawn, so the stream stays aligned, but unused).
//! The 128-bit integer is the polynomial-basis bit pattern (bit `i` = coefficient of `x^i`).
//!
//! Nothing here is a pasted table: [`official_round_constants`] runs the procedure, and
//! `tests/kat.rs` compares its output with the 66×4 matrix stored in
//! `vectors/official_n128t4.json` (t = 6 is checked through its 101 known-answer vectors).
//!
//! ## frost-gkr variant (not Poseidon2b)
//!
//! `ignotusnemo/frost-gkr` (commit `0c08595306fa`, `crates/poseidon2b/src/native/permutation.rs`)
//! uses the Binius benchmark circuit's placeholder constants, integers `0..=7`, stored there as
//! `[lane][round]`. They are data of that variant, not derivable, so they are embedded below
//! ([`FROST_GKR_RC_DIGITS`], one octal digit per constant) and compared with
//! `vectors/frost_gkr_tower_t4.json` by the tests.

use alloc::vec::Vec;

use crate::turboshake::TurboShake256;
use crate::{ROUNDS, is_full_round};

/// The TurboSHAKE256 domain byte of the constant generator.
pub const DOMAIN_BYTE: u8 = 0x1F;

/// The ASCII label absorbed first.
pub const LABEL: &[u8] = b"Poseidon2b";

/// Bytes per candidate: `⌈(n + 1) / 8⌉` for `n = 128`.
pub const CANDIDATE_BYTES: usize = 17;

/// The seeded element reader of the official constant procedure.
#[derive(Clone, Debug)]
pub struct ConstantReader {
    xof: TurboShake256,
}

impl Default for ConstantReader {
    fn default() -> Self {
        Self::new()
    }
}

impl ConstantReader {
    /// TurboSHAKE256(`0x1F`) after absorbing `"Poseidon2b"` and `2^128` as the LE `u64`
    /// chunks `0, 0, 1`.
    #[must_use]
    pub fn new() -> Self {
        let mut xof = TurboShake256::new(DOMAIN_BYTE);
        xof.absorb(LABEL);
        // 2^128 = 0 + 0·2^64 + 1·2^128: three little-endian 64-bit chunks.
        for chunk in [0u64, 0, 1] {
            xof.absorb(&chunk.to_le_bytes());
        }
        Self { xof }
    }

    /// The next element: 17-byte little-endian candidates, rejecting those `≥ 2^128`.
    pub fn next_element(&mut self) -> u128 {
        loop {
            let mut buf = [0u8; CANDIDATE_BYTES];
            self.xof.squeeze(&mut buf);
            if buf[16] == 0 {
                let mut low = [0u8; 16];
                low.copy_from_slice(&buf[..16]);
                return u128::from_le_bytes(low);
            }
        }
    }
}

/// The official round constants for width `t` as bit patterns, round-major: entry
/// `r · t + lane` is `rc[r][lane]`, with lanes `1..t` of partial rounds zero.
#[must_use]
pub fn official_round_constants(t: usize) -> Vec<u128> {
    let mut reader = ConstantReader::new();
    let mut out = Vec::with_capacity(ROUNDS * t);
    for r in 0..ROUNDS {
        for lane in 0..t {
            let c = reader.next_element();
            out.push(if lane == 0 || is_full_round(r) { c } else { 0 });
        }
    }
    out
}

/// frost-gkr's constants as it stores them, `[lane][round]`: digit `r` of string `lane` is
/// `rc[r][lane] ∈ 0..=7` (read in its tower basis).
pub const FROST_GKR_RC_DIGITS: [&[u8; ROUNDS]; 4] = [
    b"010377662172233265750223152614103720124100257204155127310137161662",
    b"330671127375717361755571651263544632304106176716414043403007323502",
    b"605325656727641063262153177671144462540314161677627333026400031415",
    b"711512275055146524010464373240163326346323511245560556412157131222",
];

/// frost-gkr's round constants as bit patterns, round-major like
/// [`official_round_constants`] (`t = 4`). Unlike the official table, the unused lanes of
/// partial rounds keep their (non-zero) table values; the permutation ignores them.
#[must_use]
pub fn frost_gkr_round_constants() -> Vec<u128> {
    let mut out = Vec::with_capacity(ROUNDS * 4);
    for r in 0..ROUNDS {
        for digits in FROST_GKR_RC_DIGITS {
            out.push(u128::from(digits[r] - b'0'));
        }
    }
    out
}
