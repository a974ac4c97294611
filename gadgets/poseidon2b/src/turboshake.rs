//! TurboSHAKE256 (RFC 9861 §2.2) on top of the `keccak` crate's `Keccak-p[1600, 12]`.
//!
//! TurboSHAKE256 is the sponge over `Keccak-p[1600, n_r = 12]` (the *last* 12 rounds of
//! `Keccak-f[1600]`, FIPS 202 §3.3) with capacity 512 bits, i.e. rate 136 bytes, and the
//! padding of RFC 9861 §2.2: after the message, XOR the domain byte `D ∈ [0x01, 0x7F]` at the
//! next position of the block and `0x80` at the last byte of the rate, then apply the
//! permutation. Squeezing reads the rate bytes in order, permuting between blocks. The
//! state's 25 lanes are little-endian 64-bit words, lane `i` holding bytes `8i..8i + 8`.
//!
//! Poseidon2b draws its round constants from this XOF with `D = 0x1F` (see
//! [`crate::constants`]). The module is tested against the RFC 9861 §5 test vectors and,
//! differentially, against RustCrypto's `sha3` 0.10 implementation (`tests/turboshake.rs`).

use keccak::Keccak;

/// The rate in bytes (`1600 − 512` bits).
pub const RATE: usize = 136;

/// The number of Keccak-p rounds.
pub const ROUNDS: usize = 12;

/// An incremental TurboSHAKE256 instance: absorb with [`TurboShake256::absorb`], then
/// squeeze with [`TurboShake256::squeeze`] (the first squeeze pads and finalizes).
#[derive(Clone, Debug)]
pub struct TurboShake256 {
    keccak: Keccak,
    state: [u64; 25],
    /// Next byte position in the rate (absorbing or squeezing).
    pos: usize,
    domain: u8,
    squeezing: bool,
}

impl TurboShake256 {
    /// A fresh instance with domain-separation byte `domain`.
    ///
    /// # Panics
    /// If `domain` is not in `0x01..=0x7F` (RFC 9861 §2.2).
    #[must_use]
    pub fn new(domain: u8) -> Self {
        assert!(
            (0x01..=0x7F).contains(&domain),
            "TurboSHAKE domain byte must be in 0x01..=0x7F, got {domain:#04x}"
        );
        Self {
            keccak: Keccak::new(),
            state: [0; 25],
            pos: 0,
            domain,
            squeezing: false,
        }
    }

    #[inline]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i / 8] ^= u64::from(b) << (8 * (i % 8));
    }

    #[inline]
    fn byte(&self, i: usize) -> u8 {
        self.state[i / 8].to_le_bytes()[i % 8]
    }

    fn permute(&mut self) {
        let state = &mut self.state;
        self.keccak.with_p1600::<ROUNDS>(|p| p(state));
    }

    /// Absorbs `data`.
    ///
    /// # Panics
    /// After the first [`TurboShake256::squeeze`].
    pub fn absorb(&mut self, data: &[u8]) {
        assert!(!self.squeezing, "TurboSHAKE256: absorb after squeeze");
        for &b in data {
            self.xor_byte(self.pos, b);
            self.pos += 1;
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
        }
    }

    fn finalize(&mut self) {
        self.xor_byte(self.pos, self.domain);
        self.xor_byte(RATE - 1, 0x80);
        self.permute();
        self.pos = 0;
        self.squeezing = true;
    }

    /// Fills `out` with the next output bytes (finalizing on the first call); successive
    /// calls continue the same output stream.
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            self.finalize();
        }
        for o in out {
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
            *o = self.byte(self.pos);
            self.pos += 1;
        }
    }
}

/// One-shot TurboSHAKE256: `out.len()` bytes of `TurboSHAKE256(message, domain)`.
///
/// # Panics
/// If `domain` is not in `0x01..=0x7F`.
pub fn turboshake256(domain: u8, message: &[u8], out: &mut [u8]) {
    let mut xof = TurboShake256::new(domain);
    xof.absorb(message);
    xof.squeeze(out);
}
