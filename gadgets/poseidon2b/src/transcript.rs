//! An algebraic Fiat–Shamir transcript: a duplex sponge over the official Poseidon2b `t = 4`
//! permutation ([`crate::official_t4`]) implementing `flockwork-transcript`'s
//! [`Transcript`], [`ProverTranscript`] and [`VerifierTranscript`], as a drop-in
//! replacement for its SHA-256 / BLAKE3 hash transcripts (the proof is the transcript bytes;
//! the same operations, labels, hints, grinding and `finish` semantics). [`Poseidon2bSponge`]
//! is the same transcript as a [`TranscriptScheme`], the type parameter that protocols generic
//! over their transcript take.
//!
//! ## Construction (version 1)
//!
//! `‖` is concatenation, `u64le(x)` the 8-byte little-endian encoding, `lp(x) = u64le(|x|) ‖ x`.
//!
//! * **State.** `s ∈ GF(2^128)^4`: rate `s[0], s[1]` (32 bytes), capacity `s[2], s[3]`
//!   (256 bits). It starts at `s = [0, 0, IV_0, IV_1]` with [`CAPACITY_IV`]
//!   (`IV_0` = the ASCII bytes `"flockwork/fs/p2b"` read little-endian, `IV_1 = 1`, the
//!   version), which separates it from [`crate::sponge::hash`] (capacity `[tag, 0]`) and
//!   frost-gkr's channel.
//! * **Bytes ↔ elements.** Absorbed bytes fill a 32-byte block; byte `i` of a block is bits
//!   `8·(i mod 16) .. 8·(i mod 16) + 8` of rate element `i / 16` (16 bytes per element, little
//!   endian). A full block is added (XOR of bit patterns) into the rate and the state is
//!   permuted. Output bytes are read back the same way: `s[0]` as 16 little-endian bytes,
//!   then `s[1]`.
//! * **Byte stream** (exactly the hash transcripts' encoding). Creation absorbs
//!   `lp(protocol) ‖ lp(instance)`; every operation absorbs `tag ‖ lp(label) ‖ lp(data)` with
//!   the tags `1` public, `2` send, `3` challenge, `4` grind, `5` grind nonce. Hints are not
//!   absorbed. Field elements are their canonical encodings, concatenated (the trait
//!   defaults).
//! * **Seal** (one duplexing call ends): append `0x01`, then zero bytes to the end of the
//!   block (`10*` padding: always at least one byte, so a stream ending on a block boundary
//!   gets a whole block `01 00 … 00`), absorb the block, permute. The next operation starts
//!   on a fresh block.
//! * **Challenge bytes** (`m` bytes under `label`): absorb `(3, label, u64le(m))`, seal,
//!   output the rate (32 bytes); while more bytes are needed, permute and output the rate
//!   again. `m = 0` still absorbs and seals. A field challenge is `F::UNIFORM_BYTES` such
//!   bytes through [`flockwork_field::Field::from_uniform_bytes`] (the trait default), `n`
//!   challenges one request of `n · UNIFORM_BYTES` bytes, [`Transcript::challenge_index`]
//!   rejection-samples 8-byte requests.
//! * **Grinding** (`b` bits, `1 ≤ b ≤ 32`): absorb `(4, label, [b])`, seal; call the
//!   resulting state `S*`. A nonce is accepted iff the first 4 output bytes of
//!   `perm(S* + block(6 ‖ u64le(nonce) ‖ 01 ‖ 00…))` read as a big-endian `u32` have `b`
//!   leading zero bits (most significant bit of byte 0 first), as in the hash transcripts.
//!   The prover finds the smallest such `nonce: u64` (evaluating candidates in batches with
//!   [`Poseidon2b::permute_many`]), writes `u64le(nonce)` to the proof; both sides continue
//!   from `S*` and absorb `(5, label, u64le(nonce))`. `b = 0` is a no-op, `b > 32` an error.
//!
//! ## Security
//!
//! Adding blocks into the rate and permuting is the sponge's absorbing phase, an extra
//! permutation between output blocks absorbs a zero block, so every output block is a
//! sponge output on the string of blocks absorbed so far; the records are self-delimiting
//! (length-prefixed), every duplexing call ends with a `10*`-padded block that is never
//! zero, the number of zero blocks after a challenge is fixed by its absorbed length `m`,
//! and proof-of-work attempts (tag 6) never match a continuation (tags 1–5), so distinct
//! transcript histories give distinct sponge inputs. By sponge indifferentiability
//! (Bertoni et al., 2008) with capacity `c = 256` bits, the outputs are those of a random
//! oracle on the history up to `≈ q²/2^257` for `q` permutation queries: 128-bit security,
//! matching the 128-bit claim of the Poseidon2b instance. Squeezed bytes are therefore
//! uniform, and `challenge::<F>()` (via `UNIFORM_BYTES`) is exactly uniform for binary
//! fields and within `2^-128` of uniform for prime fields (wide reduction).
//!
//! ## Cost
//!
//! One permutation per 32 absorbed bytes, one per seal (challenge or grind request) and one
//! per extra 32 output bytes; a send of `k` bytes under a short label costs about
//! `⌈(k + 17 + |label|)/32⌉` permutations. Counted by [`Poseidon2bProverTranscript::permutations`].
//!
//! ```
//! use flockwork_poseidon2b::transcript::{Poseidon2bProverTranscript, Poseidon2bVerifierTranscript};
//! use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};
//!
//! let mut prover = Poseidon2bProverTranscript::new("example/v1", b"instance 7");
//! prover.send_bytes("commitment", &[1, 2, 3]);
//! let index = prover.challenge_index("query", 10);
//! let proof = prover.into_proof();
//!
//! let mut verifier = Poseidon2bVerifierTranscript::new("example/v1", b"instance 7", &proof);
//! assert_eq!(verifier.recv_bytes("commitment", 3).unwrap(), &[1, 2, 3]);
//! assert_eq!(verifier.challenge_index("query", 10), index);
//! verifier.finish().unwrap();
//! ```

use alloc::vec::Vec;
use core::fmt;

use flockwork_field_binary::Ghash128;
use flockwork_transcript::{
    MAX_GRIND_BITS, ProverTranscript, Transcript, TranscriptError, TranscriptScheme,
    VerifierTranscript,
};

use crate::permutation::{Poseidon2b, official_t4};

/// Bytes per block: the rate, two GF(2^128) elements.
pub const RATE_BYTES: usize = 32;

/// The initial capacity `(s[2], s[3])` as bit patterns: `"flockwork/fs/p2b"` little-endian,
/// and the construction version `1`.
pub const CAPACITY_IV: [u128; 2] = [u128::from_le_bytes(*b"flockwork/fs/p2b"), 1];

/// Operation tags, the first byte of every absorbed record.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Tag {
    Public = 1,
    Send = 2,
    Challenge = 3,
    Grind = 4,
    Nonce = 5,
    /// A proof-of-work attempt (never part of the transcript itself).
    PowAttempt = 6,
}

/// Nonces evaluated per [`Poseidon2b::permute_many`] batch when grinding (at most).
const GRIND_BATCH: usize = 256;

/// The duplex sponge shared by both sides.
#[derive(Clone)]
struct Duplex {
    perm: &'static Poseidon2b<Ghash128, 4>,
    state: [Ghash128; 4],
    /// Pending bytes of the current block.
    block: [u8; RATE_BYTES],
    filled: usize,
    permutations: u64,
}

/// Adds a 32-byte block into the rate of `state`.
fn add_block(state: &mut [Ghash128; 4], block: &[u8; RATE_BYTES]) {
    for (s, word) in state.iter_mut().zip(block.chunks_exact(16)) {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(word);
        *s = Ghash128::new(s.to_bits() ^ u128::from_le_bytes(bytes));
    }
}

/// The rate of `state` as 32 bytes.
fn rate_bytes(state: &[Ghash128; 4]) -> [u8; RATE_BYTES] {
    let mut out = [0u8; RATE_BYTES];
    out[..16].copy_from_slice(&state[0].to_bits().to_le_bytes());
    out[16..].copy_from_slice(&state[1].to_bits().to_le_bytes());
    out
}

/// Whether the first four output bytes, read big-endian, have `bits` leading zeros.
fn pow_accepts(state: &[Ghash128; 4], bits: u32) -> bool {
    let head = state[0].to_bits().to_le_bytes();
    u32::from_be_bytes([head[0], head[1], head[2], head[3]]).leading_zeros() >= bits
}

/// The state and counters only (the permutation's constants would fill the screen).
impl fmt::Debug for Duplex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Duplex")
            .field("state", &self.state)
            .field("block", &&self.block[..self.filled])
            .field("permutations", &self.permutations)
            .finish_non_exhaustive()
    }
}

impl Duplex {
    fn new(protocol: &str, instance: &[u8]) -> Self {
        let mut duplex = Self {
            perm: official_t4(),
            state: [
                Ghash128::new(0),
                Ghash128::new(0),
                Ghash128::new(CAPACITY_IV[0]),
                Ghash128::new(CAPACITY_IV[1]),
            ],
            block: [0; RATE_BYTES],
            filled: 0,
            permutations: 0,
        };
        duplex.absorb_prefixed(protocol.as_bytes());
        duplex.absorb_prefixed(instance);
        duplex
    }

    fn permute(&mut self) {
        self.perm.permute(&mut self.state);
        self.permutations += 1;
    }

    /// Appends bytes to the stream; every completed block is absorbed at once.
    fn absorb_raw(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (RATE_BYTES - self.filled).min(data.len());
            self.block[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled == RATE_BYTES {
                add_block(&mut self.state, &self.block);
                self.permute();
                self.filled = 0;
            }
        }
    }

    /// `u64le(|data|) ‖ data`.
    fn absorb_prefixed(&mut self, data: &[u8]) {
        self.absorb_raw(&(data.len() as u64).to_le_bytes());
        self.absorb_raw(data);
    }

    /// Absorbs the record `tag ‖ lp(label) ‖ lp(data)`.
    fn absorb(&mut self, tag: Tag, label: &str, data: &[u8]) {
        self.absorb_raw(&[tag as u8]);
        self.absorb_prefixed(label.as_bytes());
        self.absorb_prefixed(data);
    }

    /// Ends a duplexing call: `10*` padding to the end of the block, absorb, permute.
    fn seal(&mut self) {
        self.block[self.filled] = 0x01;
        self.block[self.filled + 1..].fill(0);
        add_block(&mut self.state, &self.block);
        self.permute();
        self.filled = 0;
    }

    fn squeeze(&mut self, label: &str, out: &mut [u8]) {
        self.absorb(Tag::Challenge, label, &(out.len() as u64).to_le_bytes());
        self.seal();
        for (k, chunk) in out.chunks_mut(RATE_BYTES).enumerate() {
            if k > 0 {
                self.permute();
            }
            chunk.copy_from_slice(&rate_bytes(&self.state)[..chunk.len()]);
        }
    }

    /// Starts a proof of work: absorbs the request and seals (the state is then `S*`).
    fn pow_start(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError> {
        if bits > MAX_GRIND_BITS {
            return Err(TranscriptError::TooManyBits {
                bits,
                max: MAX_GRIND_BITS,
            });
        }
        self.absorb(Tag::Grind, label, &[bits as u8]);
        self.seal();
        Ok(())
    }

    /// `S* + block(6 ‖ u64le(nonce) ‖ 01 ‖ 00…)`, before the permutation.
    fn pow_input(&self, nonce: u64) -> [Ghash128; 4] {
        let mut block = [0u8; RATE_BYTES];
        block[0] = Tag::PowAttempt as u8;
        block[1..9].copy_from_slice(&nonce.to_le_bytes());
        block[9] = 0x01;
        let mut state = self.state;
        add_block(&mut state, &block);
        state
    }

    fn pow_check(&mut self, nonce: u64, bits: u32) -> bool {
        let mut state = self.pow_input(nonce);
        self.perm.permute(&mut state);
        self.permutations += 1;
        pow_accepts(&state, bits)
    }

    /// The smallest accepted nonce, evaluated in batches (same result as trying
    /// `0, 1, 2, …` one at a time).
    fn pow_search(&mut self, bits: u32) -> Option<u64> {
        let batch = 1usize << bits.min(GRIND_BATCH.trailing_zeros());
        let mut states = Vec::with_capacity(batch);
        let mut start = 0u64;
        loop {
            let left = u128::from(u64::MAX - start) + 1;
            let n = (batch as u128).min(left) as usize;
            states.clear();
            states.extend((0..n as u64).map(|i| self.pow_input(start + i)));
            self.perm.permute_many(&mut states);
            self.permutations += n as u64;
            if let Some(i) = states.iter().position(|s| pow_accepts(s, bits)) {
                return Some(start + i as u64);
            }
            start = start.checked_add(n as u64)?;
        }
    }
}

/// The prover side of the Poseidon2b transcript; the proof is the byte string it
/// accumulates (module docs).
#[derive(Clone, Debug)]
pub struct Poseidon2bProverTranscript {
    duplex: Duplex,
    proof: Vec<u8>,
}

impl Poseidon2bProverTranscript {
    /// A fresh transcript for `protocol` (a fixed, versioned name) and the encoded public
    /// `instance` — the two parts of a [`flockwork_transcript::DomainSeparator`], absorbed
    /// exactly as the hash transcripts absorb them.
    #[must_use]
    pub fn new(protocol: &str, instance: &[u8]) -> Self {
        Self {
            duplex: Duplex::new(protocol, instance),
            proof: Vec::new(),
        }
    }

    /// The proof bytes written so far.
    #[must_use]
    pub fn proof(&self) -> &[u8] {
        &self.proof
    }

    /// Permutations evaluated so far (including grinding attempts).
    #[must_use]
    pub fn permutations(&self) -> u64 {
        self.duplex.permutations
    }
}

impl Transcript for Poseidon2bProverTranscript {
    fn public_bytes(&mut self, label: &str, data: &[u8]) {
        self.duplex.absorb(Tag::Public, label, data);
    }

    fn challenge_bytes(&mut self, label: &str, out: &mut [u8]) {
        self.duplex.squeeze(label, out);
    }
}

impl ProverTranscript for Poseidon2bProverTranscript {
    fn send_bytes(&mut self, label: &str, data: &[u8]) {
        self.duplex.absorb(Tag::Send, label, data);
        self.proof.extend_from_slice(data);
    }

    fn hint_bytes(&mut self, data: &[u8]) {
        self.proof.extend_from_slice(data);
    }

    fn grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError> {
        if bits == 0 {
            return Ok(());
        }
        self.duplex.pow_start(label, bits)?;
        let nonce = self
            .duplex
            .pow_search(bits)
            .ok_or(TranscriptError::GrindingFailed { bits })?;
        let bytes = nonce.to_le_bytes();
        self.duplex.absorb(Tag::Nonce, label, &bytes);
        self.proof.extend_from_slice(&bytes);
        Ok(())
    }

    fn into_proof(self) -> Vec<u8> {
        self.proof
    }
}

/// The verifier side of the Poseidon2b transcript, reading a proof byte string.
#[derive(Clone, Debug)]
pub struct Poseidon2bVerifierTranscript<'a> {
    duplex: Duplex,
    remaining: &'a [u8],
}

impl<'a> Poseidon2bVerifierTranscript<'a> {
    /// A verifier transcript over `proof`, for the `protocol` and `instance` the prover used.
    #[must_use]
    pub fn new(protocol: &str, instance: &[u8], proof: &'a [u8]) -> Self {
        Self {
            duplex: Duplex::new(protocol, instance),
            remaining: proof,
        }
    }

    /// Permutations evaluated so far.
    #[must_use]
    pub fn permutations(&self) -> u64 {
        self.duplex.permutations
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

impl Transcript for Poseidon2bVerifierTranscript<'_> {
    fn public_bytes(&mut self, label: &str, data: &[u8]) {
        self.duplex.absorb(Tag::Public, label, data);
    }

    fn challenge_bytes(&mut self, label: &str, out: &mut [u8]) {
        self.duplex.squeeze(label, out);
    }
}

impl VerifierTranscript for Poseidon2bVerifierTranscript<'_> {
    fn recv_bytes(&mut self, label: &str, n: usize) -> Result<&[u8], TranscriptError> {
        let data = self.take(n)?;
        self.duplex.absorb(Tag::Send, label, data);
        Ok(data)
    }

    fn hint_bytes(&mut self, n: usize) -> Result<&[u8], TranscriptError> {
        self.take(n)
    }

    fn check_grind(&mut self, label: &str, bits: u32) -> Result<(), TranscriptError> {
        if bits == 0 {
            return Ok(());
        }
        self.duplex.pow_start(label, bits)?;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(self.take(8)?);
        if !self.duplex.pow_check(u64::from_le_bytes(bytes), bits) {
            return Err(TranscriptError::GrindingFailed { bits });
        }
        self.duplex.absorb(Tag::Nonce, label, &bytes);
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

/// The Poseidon2b duplex-sponge transcript as a [`TranscriptScheme`] (named `"poseidon2b"`):
/// the official `t = 4` permutation, rate 2, capacity 2 elements of GF(2^128). Choose it as
/// the transcript parameter of a protocol generic over its scheme (the GKR setups,
/// batch-R1CS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Poseidon2bSponge;

impl TranscriptScheme for Poseidon2bSponge {
    const NAME: &'static str = "poseidon2b";
    type Prover = Poseidon2bProverTranscript;
    type Verifier<'a> = Poseidon2bVerifierTranscript<'a>;

    fn prover(protocol: &'static str, instance: &[u8]) -> Self::Prover {
        Poseidon2bProverTranscript::new(protocol, instance)
    }

    fn verifier<'a>(
        protocol: &'static str,
        instance: &[u8],
        proof: &'a [u8],
    ) -> Self::Verifier<'a> {
        Poseidon2bVerifierTranscript::new(protocol, instance, proof)
    }
}
