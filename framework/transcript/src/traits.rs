//! The transcript traits: what provers and verifiers may do with a Fiat–Shamir transcript.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;

use crate::TranscriptError;

/// The largest proof-of-work difficulty [`ProverTranscript::grind`] accepts.
pub const MAX_GRIND_BITS: u32 = 32;

/// Operations shared by the prover and the verifier side: absorbing public data and
/// squeezing challenges.
///
/// Both sides must perform the same sequence of operations with the same labels; the
/// challenges then agree. Labels are absorbed (length-prefixed), so they take part in
/// domain separation.
pub trait Transcript {
    /// Absorbs `data` that both parties already know; nothing is written to the proof.
    fn public_bytes(&mut self, label: &str, data: &[u8]);

    /// Fills `out` with challenge bytes derived from everything absorbed so far.
    ///
    /// The request (label and `out.len()`) is absorbed first, so two calls never return
    /// the same bytes.
    fn challenge_bytes(&mut self, label: &str, out: &mut [u8]);

    /// Absorbs public field elements (their canonical encodings, concatenated).
    fn public_field<F: Field>(&mut self, label: &str, values: &[F]) {
        self.public_bytes(label, &encode_field(values));
    }

    /// One challenge in `F`: [`Field::UNIFORM_BYTES`] challenge bytes mapped through
    /// [`Field::from_uniform_bytes`] (the wide reduction for prime fields).
    fn challenge<F: Field>(&mut self, label: &str) -> F {
        let mut bytes = vec![0u8; F::UNIFORM_BYTES];
        self.challenge_bytes(label, &mut bytes);
        F::from_uniform_bytes(&bytes)
    }

    /// `n` challenges in `F`, squeezed by one request of `n · UNIFORM_BYTES` bytes.
    ///
    /// # Panics
    /// If `n · UNIFORM_BYTES` overflows `usize`.
    fn challenges<F: Field>(&mut self, label: &str, n: usize) -> Vec<F> {
        let len = n
            .checked_mul(F::UNIFORM_BYTES)
            .expect("challenge request overflows usize");
        let mut bytes = vec![0u8; len];
        self.challenge_bytes(label, &mut bytes);
        bytes
            .chunks_exact(F::UNIFORM_BYTES.max(1))
            .take(n)
            .map(F::from_uniform_bytes)
            .collect()
    }

    /// A uniform integer in `0..bound`, by rejection sampling.
    ///
    /// Each attempt squeezes 8 bytes (one [`Transcript::challenge_bytes`] request under
    /// `label`) as a little-endian `u64` `v`; it is accepted iff
    /// `v < 2^64 − (2^64 mod bound)`, and the result is `v mod bound`. The accepted range is a
    /// multiple of `bound`, so the result is exactly uniform; an attempt is rejected with
    /// probability below 1/2, and both sides repeat the same attempts.
    ///
    /// # Panics
    /// If `bound == 0`.
    fn challenge_index(&mut self, label: &str, bound: usize) -> usize {
        assert!(bound > 0, "challenge_index needs a positive bound");
        let bound = bound as u64;
        // 2^64 mod bound, computed without 128-bit arithmetic.
        let excess = (u64::MAX % bound + 1) % bound;
        loop {
            let mut word = [0u8; 8];
            self.challenge_bytes(label, &mut word);
            let v = u64::from_le_bytes(word);
            if excess == 0 || v < 0u64.wrapping_sub(excess) {
                // `v mod bound < bound <= usize::MAX`, so the cast is lossless.
                return (v % bound) as usize;
            }
        }
    }
}

/// The prover side: everything it sends becomes the proof.
pub trait ProverTranscript: Transcript {
    /// Absorbs `data` and appends it to the proof.
    fn send_bytes(&mut self, label: &str, data: &[u8]);

    /// Appends `data` to the proof **without** absorbing it (advice the verifier checks by
    /// other means, e.g. Merkle authentication paths).
    fn hint_bytes(&mut self, data: &[u8]);

    /// Finds a nonce such that the hash of (transcript state, nonce) has `bits` leading zero
    /// bits, appends it to the proof and absorbs it. `bits == 0` does nothing.
    ///
    /// # Errors
    /// [`TranscriptError::TooManyBits`] if `bits > MAX_GRIND_BITS`;
    /// [`TranscriptError::GrindingFailed`] if no `u64` nonce works (probability
    /// `(1 − 2^-bits)^(2^64)`, i.e. never in practice).
    fn grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError>;

    /// The proof: every byte sent, hinted or ground, in order.
    fn into_proof(self) -> Vec<u8>;

    /// Absorbs field elements and appends their canonical encodings to the proof.
    fn send_field<F: Field>(&mut self, label: &str, values: &[F]) {
        self.send_bytes(label, &encode_field(values));
    }
}

/// The verifier side: reads what the prover sent, in the same order.
///
/// Reads never panic and never allocate more than the bytes still left in the proof.
pub trait VerifierTranscript: Transcript {
    /// Reads `n` bytes the prover sent with [`ProverTranscript::send_bytes`] and absorbs them.
    ///
    /// # Errors
    /// [`TranscriptError::Truncated`] if fewer than `n` bytes remain.
    fn recv_bytes(&mut self, label: &str, n: usize) -> Result<&[u8], TranscriptError>;

    /// Reads `n` bytes of advice ([`ProverTranscript::hint_bytes`]) without absorbing them.
    ///
    /// # Errors
    /// [`TranscriptError::Truncated`] if fewer than `n` bytes remain.
    fn hint_bytes(&mut self, n: usize) -> Result<&[u8], TranscriptError>;

    /// Reads and checks the proof-of-work nonce of [`ProverTranscript::grind`].
    ///
    /// # Errors
    /// [`TranscriptError::TooManyBits`], [`TranscriptError::Truncated`], or
    /// [`TranscriptError::GrindingFailed`] for a nonce that does not meet the difficulty.
    fn check_grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError>;

    /// Number of proof bytes not read yet (what [`VerifierTranscript::finish`] would
    /// report as trailing).
    #[must_use]
    fn remaining(&self) -> usize;

    /// Ends verification.
    ///
    /// # Errors
    /// [`TranscriptError::TrailingBytes`] if the proof has unread bytes (proofs are not
    /// malleable by appending data).
    fn finish(self) -> Result<(), TranscriptError>;

    /// Reads `n` field elements sent with [`ProverTranscript::send_field`].
    ///
    /// # Errors
    /// [`TranscriptError::Truncated`] if fewer than `n · NUM_BYTES` bytes remain (checked
    /// before anything is allocated); [`TranscriptError::NonCanonical`] for an encoding
    /// [`Field::read_bytes`] rejects.
    fn recv_field<F: Field>(&mut self, label: &str, n: usize) -> Result<Vec<F>, TranscriptError> {
        let len = n.saturating_mul(F::NUM_BYTES);
        let bytes = self.recv_bytes(label, len)?;
        decode_field(bytes)
    }
}

/// Canonical encodings of `values`, concatenated.
fn encode_field<F: Field>(values: &[F]) -> Vec<u8> {
    let mut bytes = vec![0u8; values.len() * F::NUM_BYTES];
    for (value, out) in values
        .iter()
        .zip(bytes.chunks_exact_mut(F::NUM_BYTES.max(1)))
    {
        value.write_bytes(out);
    }
    bytes
}

/// Decodes a concatenation of canonical encodings (`bytes.len()` is a multiple of
/// `NUM_BYTES`, as produced by a successful read).
fn decode_field<F: Field>(bytes: &[u8]) -> Result<Vec<F>, TranscriptError> {
    bytes
        .chunks_exact(F::NUM_BYTES.max(1))
        .enumerate()
        .map(|(index, chunk)| F::read_bytes(chunk).ok_or(TranscriptError::NonCanonical { index }))
        .collect()
}
