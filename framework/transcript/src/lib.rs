//! # flockwork-transcript
//!
//! Fiat–Shamir transcripts where **the proof is the transcript**: the prover writes bytes, the
//! verifier reads the same bytes back in the same order, and both derive identical challenges
//! from everything absorbed so far (the Binius / halo2 / spongefish model).
//!
//! | item | role |
//! |---|---|
//! | [`Transcript`] | shared by both sides: absorb public data, squeeze challenges (bytes, field elements, unbiased indices) |
//! | [`ProverTranscript`] | send (absorb + write), hint (write only), grind, `into_proof` |
//! | [`VerifierTranscript`] | receive (read + absorb, canonical field decoding), hint, check a grind, `remaining`, `finish` (no trailing bytes) |
//! | [`HashProverTranscript`] / [`HashVerifierTranscript`] | the one implementation, generic over a [`digest::Digest`] |
//! | [`Sha256ProverTranscript`], [`Blake3ProverTranscript`], … | the shipped instances |
//! | [`DomainSeparator`] | the mandatory protocol id + instance every transcript starts from |
//! | [`TranscriptScheme`] ([`scheme`]) | how a protocol generic over its transcript starts both sides, and the scheme's name: [`Sha256`], [`Blake3`] here, the Poseidon2b sponge in `flockwork-poseidon2b`; [`TranscriptKind`] for run-time choice |
//! | [`TranscriptError`] | why a read or proof-of-work check failed |
//!
//! Verifier reads never panic on any proof bytes, and allocate at most as many bytes as the
//! proof still holds.
//!
//! ## Byte-level construction (version 1)
//!
//! `H` is the digest, `‖` concatenation, `u64le(x)` the 8-byte little-endian encoding and
//! `lp(x) = u64le(|x|) ‖ x` a length-prefixed string. The state is one running hash input.
//!
//! * **Start.** `state = "flockwork-transcript/v1/init" ‖ lp(protocol) ‖ lp(instance)`.
//! * **Absorb an operation** `(tag, label, data)`: `state ‖= tag ‖ lp(label) ‖ lp(data)`, with
//!   the one-byte tags `1` public, `2` send, `3` challenge, `4` grind, `5` grind nonce.
//!   [`Transcript::public_bytes`] absorbs with tag 1, [`ProverTranscript::send_bytes`] and
//!   [`VerifierTranscript::recv_bytes`] with tag 2. Hints are not absorbed.
//!   Field elements are absorbed and sent as their canonical encodings
//!   ([`flockwork_field::Field::write_bytes`]), concatenated.
//! * **Ratchet** `(tag, label, data)`: absorb the operation, `seed = H(state)`, then restart
//!   `state = "flockwork-transcript/v1/chain" ‖ seed`.
//! * **Challenge bytes** (`m` bytes under `label`): ratchet `(3, label, u64le(m))`, then output the
//!   first `m` bytes of `B_0 ‖ B_1 ‖ …` with
//!   `B_k = H("flockwork-transcript/v1/squeeze" ‖ seed ‖ u64le(k))`.
//!   A field challenge takes `F::UNIFORM_BYTES` such bytes and applies
//!   [`flockwork_field::Field::from_uniform_bytes`] (a wide reduction for prime fields); `n`
//!   field challenges are one request of `n · UNIFORM_BYTES` bytes, split in order.
//!   [`Transcript::challenge_index`] rejection-samples 8-byte requests.
//! * **Grinding** (`b` bits, `1 ≤ b ≤ 32`): ratchet `(4, label, [b])`; the prover finds the
//!   smallest `nonce: u64` such that `H("flockwork/pow/2" ‖ seed ‖ u64le(nonce))`
//!   starts with `b` zero bits (most significant bit of byte 0 first), writes `u64le(nonce)` to
//!   the proof and absorbs `(5, label, u64le(nonce))`. `b = 0` is a no-op; `b > 32` is an error.
//!   The search is deterministic: with SHA-256 it hashes nonces in SIMD lanes and, with
//!   the `parallel` feature (enabled through `flockwork-core/parallel`), spreads windows of
//!   nonces over the current thread pool (`flockwork_field::par`), still returning the
//!   smallest accepted nonce.
//!
//! No prefix is a prefix of another (the first three differ after
//! `"flockwork-transcript/v1/"` in their first letter, the proof-of-work prefix, fifteen bytes
//! so that a candidate nonce costs one SHA-256 compression, differs from them at its tenth
//! byte), and every absorbed field is length-prefixed, so distinct operation sequences,
//! labels, data boundaries and domain separators give distinct hash inputs.
//!
//! ```
//! use flockwork_transcript::{
//!     DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
//!     Transcript, VerifierTranscript,
//! };
//!
//! let domain = DomainSeparator::new("example/v1", b"instance 7");
//! let mut prover = Sha256ProverTranscript::new(domain);
//! prover.send_bytes("commitment", &[1, 2, 3]);
//! let index = prover.challenge_index("query", 10);
//! let proof = prover.into_proof();
//!
//! let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
//! assert_eq!(verifier.recv_bytes("commitment", 3).unwrap(), &[1, 2, 3]);
//! assert_eq!(verifier.challenge_index("query", 10), index);
//! verifier.finish().unwrap();
//! ```
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod error;
mod hash;
pub mod scheme;
mod traits;

pub use error::TranscriptError;
pub use hash::{
    Blake3ProverTranscript, Blake3VerifierTranscript, DomainSeparator, HashProverTranscript,
    HashVerifierTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
};
pub use scheme::{Blake3, Sha256, TranscriptKind, TranscriptScheme};
pub use traits::{MAX_GRIND_BITS, ProverTranscript, Transcript, VerifierTranscript};
