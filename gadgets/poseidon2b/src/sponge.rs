//! Sponges over the permutation: this crate's field-element sponge [`hash`], and frost-gkr's
//! byte sponge and Fiat–Shamir channel ([`FrostSponge`], [`FrostChannel`]).
//!
//! ## [`hash`] (this crate's construction)
//!
//! The Poseidon2b specification defines the permutation only. [`hash`] is a plain sponge
//! (Bertoni et al., "Cryptographic sponge functions") with
//!
//! * **capacity 2 elements (256 bits), rate `t − 2`**: rate 2 for `t = 4`, rate 4 for `t = 6`;
//! * **domain separation in the capacity**: the state starts at zero except the first
//!   capacity element `s[rate] = tag`, the bit pattern `2^96·t + 2^64·rate + out_len`, so
//!   digests of different lengths (and widths) are unrelated (a shorter digest is not a
//!   prefix of a longer one);
//! * **padding `10*`**: append the element `1`, then zeros to a multiple of the rate (always
//!   at least one element), an injective map from inputs of any length to blocks, so inputs
//!   of different lengths (e.g. `[a]` and `[a, 0]`) absorb different blocks;
//! * absorb: add each block into `s[0..rate]` and permute; squeeze: output `s[0..rate]`,
//!   permuting between blocks, until `out_len` elements.
//!
//! ## frost-gkr's sponge (`crates/poseidon2b/src/native/{sponge,domain}.rs`, `0c08595306fa`)
//!
//! `t = 4`, rate 2, capacity 2, byte-oriented: bytes fill a 32-byte buffer; every full buffer
//! is added into `s[0], s[1]` as two 16-byte little-endian elements, then the state is
//! permuted. Flushing pads only a *partial* buffer: zero the rest, OR `0x80` into its first
//! free byte and `0x01` into its last byte (one free byte becomes `0x81`), absorb it; a full
//! or empty buffer is not padded. A squeeze outputs `(s[0], s[1])` and then permutes. The
//! transcript seeds the capacity with the tag `"FROSTGKR"`: with `L` the tag read as a
//! big-endian `u64`, `s[2] = L·2^64` and `s[3] = L`. The channel hands out one element per
//! challenge: it flushes, squeezes a pair, returns the first and keeps the second for the
//! next challenge unless something is absorbed in between.
//!
//! No frost-gkr sponge outputs are published with the vectors, so [`FrostSponge`] is checked
//! against its definition only (tests), not against frost-gkr output.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::BinaryField;
use flockwork_field_binary::AesTower128;

use crate::field::Poseidon2bField;
use crate::permutation::{Poseidon2b, frost_gkr_t4};

/// The capacity tag of [`hash`]: `2^96·t + 2^64·rate + out_len`.
#[must_use]
pub fn domain_tag(t: usize, rate: usize, out_len: usize) -> u128 {
    ((t as u128) << 96) | ((rate as u128) << 64) | out_len as u128
}

/// Sponge hash of `inputs` to `out_len` elements with rate `T − 2` and capacity 2 (module
/// docs: capacity tag, `10*` padding).
#[must_use]
pub fn hash<F: Poseidon2bField, const T: usize>(
    perm: &Poseidon2b<F, T>,
    inputs: &[F],
    out_len: usize,
) -> Vec<F> {
    let rate = T - 2;
    let mut state = [F::ZERO; T];
    state[rate] = F::from_bits(domain_tag(T, rate, out_len));
    let mut padded = Vec::with_capacity((inputs.len() + 1).next_multiple_of(rate));
    padded.extend_from_slice(inputs);
    padded.push(F::ONE);
    padded.resize(padded.len().next_multiple_of(rate), F::ZERO);
    for block in padded.chunks_exact(rate) {
        for (s, &m) in state.iter_mut().zip(block) {
            *s += m;
        }
        perm.permute(&mut state);
    }
    let mut out = vec![F::ZERO; out_len];
    let mut blocks = out.chunks_mut(rate).peekable();
    while let Some(block) = blocks.next() {
        block.copy_from_slice(&state[..block.len()]);
        if blocks.peek().is_some() {
            perm.permute(&mut state);
        }
    }
    out
}

/// The buffer size of frost-gkr's sponge: two 16-byte elements.
pub const FROST_BLOCK_BYTES: usize = 32;

/// frost-gkr's transcript tag.
pub const FROST_GKR_TAG: &[u8; 8] = b"FROSTGKR";

/// frost-gkr's capacity IV for an 8-byte ASCII tag: `L = u64::from_be_bytes(tag)`,
/// `[L·2^64, L]` (bit patterns of `s[2]`, `s[3]`).
#[must_use]
pub const fn capacity_iv(tag: &[u8; 8]) -> [u128; 2] {
    let label = u64::from_be_bytes(*tag) as u128;
    [label << 64, label]
}

/// frost-gkr's byte sponge (module docs) over any width-4 permutation; [`FrostSponge::frost_gkr`]
/// is frost-gkr's own configuration.
#[derive(Clone, Debug)]
pub struct FrostSponge<'a, F> {
    perm: &'a Poseidon2b<F, 4>,
    state: [F; 4],
    buffer: [u8; FROST_BLOCK_BYTES],
    filled: usize,
}

impl FrostSponge<'static, AesTower128> {
    /// frost-gkr's transcript sponge: its variant permutation, IV from `"FROSTGKR"`.
    #[must_use]
    pub fn frost_gkr() -> Self {
        let [a, b] = capacity_iv(FROST_GKR_TAG);
        Self::with_iv(
            frost_gkr_t4(),
            [AesTower128::from_bits(a), AesTower128::from_bits(b)],
        )
    }
}

impl<'a, F: Poseidon2bField> FrostSponge<'a, F> {
    /// A sponge with an all-zero state.
    #[must_use]
    pub fn new(perm: &'a Poseidon2b<F, 4>) -> Self {
        Self::with_iv(perm, [F::ZERO; 2])
    }

    /// A sponge with zero rate and capacity `(iv[0], iv[1])`.
    #[must_use]
    pub fn with_iv(perm: &'a Poseidon2b<F, 4>, iv: [F; 2]) -> Self {
        Self {
            perm,
            state: [F::ZERO, F::ZERO, iv[0], iv[1]],
            buffer: [0; FROST_BLOCK_BYTES],
            filled: 0,
        }
    }

    /// The current state (for tests and inspection).
    #[must_use]
    pub fn state(&self) -> [F; 4] {
        self.state
    }

    fn absorb_buffer(&mut self) {
        for (s, word) in self.state.iter_mut().zip(self.buffer.chunks_exact(16)) {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(word);
            *s += F::from_bits(u128::from_le_bytes(bytes));
        }
        self.perm.permute(&mut self.state);
    }

    /// Absorbs bytes; every completed 32-byte block is absorbed and permuted at once.
    pub fn update(&mut self, data: &[u8]) {
        for &b in data {
            self.buffer[self.filled] = b;
            self.filled += 1;
            if self.filled == FROST_BLOCK_BYTES {
                self.absorb_buffer();
                self.filled = 0;
            }
        }
    }

    /// Absorbs one element as its 16 little-endian bytes.
    pub fn absorb(&mut self, element: F) {
        self.update(&element.low_bits().to_le_bytes());
    }

    /// Pads and absorbs a partial buffer (`0x80 … 0x01`); does nothing when no bytes are
    /// pending.
    pub fn flush(&mut self) {
        if self.filled != 0 {
            let rest = &mut self.buffer[self.filled..];
            rest.fill(0);
            rest[0] |= 0x80;
            let last = rest.len() - 1;
            rest[last] |= 0x01;
            self.absorb_buffer();
            self.filled = 0;
        }
    }

    /// Outputs `(s[0], s[1])`, then permutes. Bytes still in the buffer are *not* included;
    /// call [`FrostSponge::flush`] first (as [`FrostChannel`] does).
    pub fn squeeze(&mut self) -> [F; 2] {
        let out = [self.state[0], self.state[1]];
        self.perm.permute(&mut self.state);
        out
    }
}

/// frost-gkr's Fiat–Shamir channel: one element per challenge (module docs).
#[derive(Clone, Debug)]
pub struct FrostChannel<'a, F> {
    sponge: FrostSponge<'a, F>,
    pending: Option<F>,
}

impl FrostChannel<'static, AesTower128> {
    /// frost-gkr's channel ([`FrostSponge::frost_gkr`]).
    #[must_use]
    pub fn frost_gkr() -> Self {
        Self::new(FrostSponge::frost_gkr())
    }
}

impl<'a, F: Poseidon2bField> FrostChannel<'a, F> {
    /// A channel over `sponge`.
    #[must_use]
    pub fn new(sponge: FrostSponge<'a, F>) -> Self {
        Self {
            sponge,
            pending: None,
        }
    }

    /// Absorbs an element (dropping any buffered challenge).
    pub fn absorb(&mut self, element: F) {
        self.pending = None;
        self.sponge.absorb(element);
    }

    /// The next challenge.
    pub fn squeeze(&mut self) -> F {
        if let Some(b) = self.pending.take() {
            return b;
        }
        self.sponge.flush();
        let [a, b] = self.sponge.squeeze();
        self.pending = Some(b);
        a
    }
}
