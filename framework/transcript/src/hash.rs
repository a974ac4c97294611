//! [`HashProverTranscript`] and [`HashVerifierTranscript`]: the transcript over any
//! [`digest::Digest`], with the byte-level construction documented in the crate root.

use alloc::vec::Vec;

use digest::{Digest, Output};
use flockwork_field::par;

use crate::{MAX_GRIND_BITS, ProverTranscript, Transcript, TranscriptError, VerifierTranscript};

/// Prefix of the initial state (followed by the domain separator).
const PREFIX_INIT: &[u8] = b"flockwork-transcript/v1/init";
/// Prefix of the state after a squeeze (followed by the seed).
const PREFIX_CHAIN: &[u8] = b"flockwork-transcript/v1/chain";
/// Prefix of an output block (followed by the seed and the block counter).
const PREFIX_SQUEEZE: &[u8] = b"flockwork-transcript/v1/squeeze";
/// Prefix of a proof-of-work hash (followed by the seed and the nonce). Fifteen bytes, so
/// that `prefix ‖ seed ‖ nonce` (55 bytes with a 32-byte seed) fits one SHA-256 block with its
/// padding: each candidate nonce costs one compression.
const PREFIX_POW: &[u8] = b"flockwork/pow/2";

/// Operation tags, the first byte of every absorbed operation.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Tag {
    Public = 1,
    Send = 2,
    Challenge = 3,
    Grind = 4,
    Nonce = 5,
}

/// The mandatory domain separator: which protocol, and which instance of it.
///
/// Two transcripts with different separators never share challenges, so proofs for one
/// protocol or statement cannot be replayed for another. `instance` should encode the
/// public statement (sizes, public inputs, commitments known in advance).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomainSeparator<'a> {
    protocol: &'static str,
    instance: &'a [u8],
}

impl<'a> DomainSeparator<'a> {
    /// A separator for `protocol` (a fixed, versioned name such as `"flock/keccak/v1"`) and
    /// the encoded public `instance`.
    #[must_use]
    pub const fn new(protocol: &'static str, instance: &'a [u8]) -> Self {
        Self { protocol, instance }
    }
}

/// The Fiat–Shamir state shared by both sides: one running hash.
#[derive(Clone, Debug)]
struct HashState<D> {
    hasher: D,
}

impl<D: Digest + Clone> HashState<D> {
    fn new(domain: &DomainSeparator<'_>) -> Self {
        let mut hasher = D::new();
        hasher.update(PREFIX_INIT);
        update_prefixed(&mut hasher, domain.protocol.as_bytes());
        update_prefixed(&mut hasher, domain.instance);
        Self { hasher }
    }

    /// Absorbs `tag ‖ u64le(|label|) ‖ label ‖ u64le(|data|) ‖ data`.
    fn absorb(&mut self, tag: Tag, label: &str, data: &[u8]) {
        self.hasher.update([tag as u8]);
        update_prefixed(&mut self.hasher, label.as_bytes());
        update_prefixed(&mut self.hasher, data);
    }

    /// Absorbs an operation, finalises the state into a seed and restarts the state as
    /// `PREFIX_CHAIN ‖ seed`.
    fn ratchet(&mut self, tag: Tag, label: &str, data: &[u8]) -> Output<D> {
        self.absorb(tag, label, data);
        let mut next = D::new();
        next.update(PREFIX_CHAIN);
        let seed = core::mem::replace(&mut self.hasher, next).finalize();
        self.hasher.update(&seed);
        seed
    }

    fn squeeze(&mut self, label: &str, out: &mut [u8]) {
        let seed = self.ratchet(Tag::Challenge, label, &(out.len() as u64).to_le_bytes());
        let mut prefix = D::new();
        prefix.update(PREFIX_SQUEEZE);
        prefix.update(&seed);
        let block_len = <D as Digest>::output_size();
        for (counter, chunk) in out.chunks_mut(block_len).enumerate() {
            let mut block = prefix.clone();
            block.update((counter as u64).to_le_bytes());
            chunk.copy_from_slice(&block.finalize()[..chunk.len()]);
        }
    }

    /// Starts a proof of work: absorbs the request and returns a checker for nonces.
    fn pow_challenge(
        &mut self,
        label: &str,
        bits: u32,
    ) -> Result<PowChallenge<D>, TranscriptError> {
        if bits > MAX_GRIND_BITS {
            return Err(TranscriptError::TooManyBits {
                bits,
                max: MAX_GRIND_BITS,
            });
        }
        let seed = self.ratchet(Tag::Grind, label, &[bits as u8]);
        let mut prefix = D::new();
        prefix.update(PREFIX_POW);
        prefix.update(&seed);
        let mut prefix_bytes = PREFIX_POW.to_vec();
        prefix_bytes.extend_from_slice(&seed);
        Ok(PowChallenge {
            prefix,
            prefix_bytes,
            bits,
        })
    }
}

/// `u64le(|data|) ‖ data`.
fn update_prefixed<D: Digest>(hasher: &mut D, data: &[u8]) {
    hasher.update((data.len() as u64).to_le_bytes());
    hasher.update(data);
}

/// A pending proof of work: `H(PREFIX_POW ‖ seed ‖ u64le(nonce))` must start with `bits`
/// zero bits (most significant bit of the first byte first).
struct PowChallenge<D> {
    /// The hasher after `PREFIX_POW ‖ seed`.
    prefix: D,
    /// `PREFIX_POW ‖ seed`.
    prefix_bytes: Vec<u8>,
    bits: u32,
}

/// Nonces tried per multi-lane SHA-256 call in [`PowChallenge::smallest_nonce`].
const NONCE_BATCH: u64 = 64;

/// Consecutive nonces one thread searches per window of [`PowChallenge::smallest_nonce`].
const NONCE_BLOCK: u64 = 16 * NONCE_BATCH;

impl<D: Digest + Clone> PowChallenge<D> {
    fn accepts(&self, nonce: u64) -> bool {
        let mut hasher = self.prefix.clone();
        hasher.update(nonce.to_le_bytes());
        meets_target(self.bits, &hasher.finalize())
    }

    /// The smallest accepted nonce (what the verifier checks is only that it is accepted).
    ///
    /// With SHA-256, [`NONCE_BATCH`] candidates are hashed at a time in SIMD lanes
    /// ([`flockwork_sha256x`]), and with the `parallel` feature the nonces are searched in
    /// windows of one [`NONCE_BLOCK`] per thread of the current rayon pool: the answer is
    /// the smallest accepted nonce of the first window that has one, the same as the
    /// one-at-a-time search for every thread count. (The last, partial block below
    /// `u64::MAX` is never searched: at most `2^32` expected trials, it is never reached.)
    fn smallest_nonce(&self) -> Option<u64> {
        if !flockwork_sha256x::is_sha256::<D>() {
            return (0..=u64::MAX).find(|&nonce| self.accepts(nonce));
        }
        let search = Sha256Pow {
            prefix_bytes: &self.prefix_bytes,
            bits: self.bits,
        };
        let blocks = window_blocks();
        let last_block = u64::MAX / NONCE_BLOCK;
        (0..=last_block / blocks).find_map(|window| {
            search.first_in_blocks(window * blocks, blocks.min(last_block - window * blocks))
        })
    }
}

/// Whether `hash` starts with `bits` zero bits.
fn meets_target(bits: u32, hash: &[u8]) -> bool {
    let mut head = [0u8; 4];
    let n = hash.len().min(4);
    head[..n].copy_from_slice(&hash[..n]);
    u32::from_be_bytes(head).leading_zeros() >= bits
}

/// The SHA-256 proof-of-work search: what the threads share.
struct Sha256Pow<'a> {
    /// `PREFIX_POW ‖ seed`.
    prefix_bytes: &'a [u8],
    bits: u32,
}

impl Sha256Pow<'_> {
    /// The smallest accepted nonce of block `block` ([`NONCE_BLOCK`] nonces from
    /// `block·NONCE_BLOCK`), hashed [`NONCE_BATCH`] at a time in SIMD lanes.
    fn first_in_block(&self, block: u64) -> Option<u64> {
        let mut digests = [[0u8; 32]; NONCE_BATCH as usize];
        let mut nonces = [[0u8; 8]; NONCE_BATCH as usize];
        let first = block * NONCE_BLOCK;
        (first..first + NONCE_BLOCK)
            .step_by(NONCE_BATCH as usize)
            .find_map(|start| {
                for (i, n) in nonces.iter_mut().enumerate() {
                    *n = (start + i as u64).to_le_bytes();
                }
                let messages: [&[u8]; NONCE_BATCH as usize] =
                    core::array::from_fn(|i| &nonces[i][..]);
                flockwork_sha256x::sha256_prefixed_many(self.prefix_bytes, &messages, &mut digests);
                let i = digests.iter().position(|d| meets_target(self.bits, d))?;
                Some(start + i as u64)
            })
    }

    /// The smallest accepted nonce of the `count` blocks from `first`, one block per thread.
    fn first_in_blocks(&self, first: u64, count: u64) -> Option<u64> {
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        par::map_reduce(
            count,
            2,
            1,
            || None,
            |b| self.first_in_block(first + b as u64),
            |x: Option<u64>, y| match (x, y) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
        )
    }
}

/// Blocks per window of the nonce search: the threads of the current pool (one without the
/// `parallel` feature).
fn window_blocks() -> u64 {
    par::threads() as u64
}

/// The prover side of the hash transcript; the proof is the byte string it accumulates.
#[derive(Clone, Debug)]
pub struct HashProverTranscript<D> {
    state: HashState<D>,
    proof: Vec<u8>,
}

impl<D: Digest + Clone> HashProverTranscript<D> {
    /// A fresh transcript for the given protocol and instance.
    #[must_use]
    pub fn new(domain: DomainSeparator<'_>) -> Self {
        Self {
            state: HashState::new(&domain),
            proof: Vec::new(),
        }
    }

    /// The proof bytes written so far.
    #[must_use]
    pub fn proof(&self) -> &[u8] {
        &self.proof
    }
}

impl<D: Digest + Clone> Transcript for HashProverTranscript<D> {
    fn public_bytes(&mut self, label: &str, data: &[u8]) {
        self.state.absorb(Tag::Public, label, data);
    }

    fn challenge_bytes(&mut self, label: &str, out: &mut [u8]) {
        self.state.squeeze(label, out);
    }
}

impl<D: Digest + Clone> ProverTranscript for HashProverTranscript<D> {
    fn send_bytes(&mut self, label: &str, data: &[u8]) {
        self.state.absorb(Tag::Send, label, data);
        self.proof.extend_from_slice(data);
    }

    fn hint_bytes(&mut self, data: &[u8]) {
        self.proof.extend_from_slice(data);
    }

    fn grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError> {
        if bits == 0 {
            return Ok(());
        }
        let pow = self.state.pow_challenge(label, bits)?;
        let nonce = pow
            .smallest_nonce()
            .ok_or(TranscriptError::GrindingFailed { bits })?;
        let bytes = nonce.to_le_bytes();
        self.state.absorb(Tag::Nonce, label, &bytes);
        self.proof.extend_from_slice(&bytes);
        Ok(())
    }

    fn into_proof(self) -> Vec<u8> {
        self.proof
    }
}

/// The verifier side of the hash transcript, reading a proof byte string.
#[derive(Clone, Debug)]
pub struct HashVerifierTranscript<'a, D> {
    state: HashState<D>,
    remaining: &'a [u8],
}

impl<'a, D: Digest + Clone> HashVerifierTranscript<'a, D> {
    /// A verifier transcript over `proof`, for the same protocol and instance the prover used.
    #[must_use]
    pub fn new(domain: DomainSeparator<'_>, proof: &'a [u8]) -> Self {
        Self {
            state: HashState::new(&domain),
            remaining: proof,
        }
    }

    /// Splits off the next `n` bytes.
    fn take(&mut self, n: usize) -> Result<&'a [u8], TranscriptError> {
        if n > self.remaining.len() {
            return Err(TranscriptError::Truncated {
                expected: n,
                remaining: self.remaining.len(),
            });
        }
        let (head, tail) = self.remaining.split_at(n);
        self.remaining = tail;
        Ok(head)
    }
}

impl<D: Digest + Clone> Transcript for HashVerifierTranscript<'_, D> {
    fn public_bytes(&mut self, label: &str, data: &[u8]) {
        self.state.absorb(Tag::Public, label, data);
    }

    fn challenge_bytes(&mut self, label: &str, out: &mut [u8]) {
        self.state.squeeze(label, out);
    }
}

impl<D: Digest + Clone> VerifierTranscript for HashVerifierTranscript<'_, D> {
    fn recv_bytes(&mut self, label: &str, n: usize) -> Result<&[u8], TranscriptError> {
        let data = self.take(n)?;
        self.state.absorb(Tag::Send, label, data);
        Ok(data)
    }

    fn hint_bytes(&mut self, n: usize) -> Result<&[u8], TranscriptError> {
        self.take(n)
    }

    fn check_grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError> {
        if bits == 0 {
            return Ok(());
        }
        let pow = self.state.pow_challenge(label, bits)?;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(self.take(8)?);
        if !pow.accepts(u64::from_le_bytes(bytes)) {
            return Err(TranscriptError::GrindingFailed { bits });
        }
        self.state.absorb(Tag::Nonce, label, &bytes);
        Ok(())
    }

    fn remaining(&self) -> usize {
        self.remaining.len()
    }

    fn finish(self) -> Result<(), TranscriptError> {
        match self.remaining.len() {
            0 => Ok(()),
            remaining => Err(TranscriptError::TrailingBytes { remaining }),
        }
    }
}

/// The hash transcript over SHA-256, prover side.
pub type Sha256ProverTranscript = HashProverTranscript<sha2::Sha256>;
/// The hash transcript over SHA-256, verifier side.
pub type Sha256VerifierTranscript<'a> = HashVerifierTranscript<'a, sha2::Sha256>;
/// The hash transcript over BLAKE3 (256-bit output), prover side.
pub type Blake3ProverTranscript = HashProverTranscript<blake3::Hasher>;
/// The hash transcript over BLAKE3 (256-bit output), verifier side.
pub type Blake3VerifierTranscript<'a> = HashVerifierTranscript<'a, blake3::Hasher>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The multi-lane search (SHA-256) and the one-at-a-time search (any other digest) agree
    /// with the definition: the smallest accepted nonce.
    #[test]
    fn grinding_finds_the_smallest_accepted_nonce() {
        fn check<D: Digest + Clone>() {
            for bits in [1, 3, 7, 10] {
                let mut state = HashState::<D>::new(&DomainSeparator::new("test", b"grind"));
                state.absorb(Tag::Public, "x", &[bits as u8]);
                let pow = state.pow_challenge("pow", bits).expect("bits in range");
                let expected = (0..).find(|&n| pow.accepts(n));
                assert_eq!(pow.smallest_nonce(), expected, "{bits} bits");
            }
        }
        assert!(flockwork_sha256x::is_sha256::<sha2::Sha256>());
        check::<sha2::Sha256>();
        check::<blake3::Hasher>();
    }

    #[test]
    fn the_nonce_is_the_same_for_every_thread_count() {
        // Challenges whose smallest nonce lies past the first window of one to three threads.
        for (label, bits) in [("a", 11), ("b", 12), ("c", 13), ("d", 14)] {
            let mut state = HashState::<sha2::Sha256>::new(&DomainSeparator::new("test", b"pool"));
            state.absorb(Tag::Public, label, &[bits as u8]);
            let pow = state.pow_challenge("pow", bits).expect("bits in range");
            let expected = (0..).find(|&n| pow.accepts(n));
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("pool");
                assert_eq!(
                    pool.install(|| pow.smallest_nonce()),
                    expected,
                    "{bits} bits, {threads} threads"
                );
            }
        }
    }
}
