//! Which Fiat–Shamir transcript a [`Setup`](crate::Setup) (and the batchers) uses: the
//! third type parameter `D` of `Setup<R, E, D>` is a [`TranscriptScheme`].
//!
//! | `D` | transcript |
//! |---|---|
//! | [`Sha256`] (the default) | [`flockwork_transcript::Sha256ProverTranscript`] / `…Verifier…` |
//! | [`Blake3`] | [`flockwork_transcript::Blake3ProverTranscript`] / `…Verifier…` |
//! | any other [`digest::Digest`] `+ Clone` | [`HashProverTranscript<D>`] / [`HashVerifierTranscript<D>`] |
//! | [`Poseidon2bSponge`] | the algebraic duplex-sponge transcript of [`flockwork_poseidon2b::transcript`] |
//!
//! Every transcript starts from the batcher's protocol string and instance bytes (a
//! [`DomainSeparator`] for the hash transcripts, the same two parts for the sponge). The
//! proof does not name its transcript: a proof made with one is rejected by a verifier using
//! another (its challenges differ). [`TranscriptKind`] names the three shipped schemes at run
//! time (for command lines).

use core::fmt;
use core::str::FromStr;

use digest::Digest;
use flockwork_poseidon2b::transcript::{Poseidon2bProverTranscript, Poseidon2bVerifierTranscript};
use flockwork_transcript::{
    DomainSeparator, HashProverTranscript, HashVerifierTranscript, ProverTranscript,
    VerifierTranscript,
};

/// SHA-256, the default transcript hash.
pub type Sha256 = sha2::Sha256;

/// BLAKE3 (256-bit output).
pub type Blake3 = blake3::Hasher;

/// How to start the prover's and the verifier's transcript from a protocol string and the
/// encoded public instance.
pub trait TranscriptScheme {
    /// The prover side.
    type Prover: ProverTranscript;
    /// The verifier side, reading a proof that lives for `'a`.
    type Verifier<'a>: VerifierTranscript;

    /// A fresh prover transcript.
    fn prover(protocol: &'static str, instance: &[u8]) -> Self::Prover;

    /// A fresh verifier transcript over `proof`.
    fn verifier<'a>(protocol: &'static str, instance: &[u8], proof: &'a [u8])
    -> Self::Verifier<'a>;
}

/// Every digest gives the hash transcript of `flockwork-transcript`.
impl<D: Digest + Clone> TranscriptScheme for D {
    type Prover = HashProverTranscript<D>;
    type Verifier<'a> = HashVerifierTranscript<'a, D>;

    fn prover(protocol: &'static str, instance: &[u8]) -> Self::Prover {
        HashProverTranscript::new(DomainSeparator::new(protocol, instance))
    }

    fn verifier<'a>(
        protocol: &'static str,
        instance: &[u8],
        proof: &'a [u8],
    ) -> Self::Verifier<'a> {
        HashVerifierTranscript::new(DomainSeparator::new(protocol, instance), proof)
    }
}

/// The Poseidon2b duplex-sponge transcript ([`flockwork_poseidon2b::transcript`]: official
/// `t = 4` permutation, rate 2, capacity 2 elements of GF(2^128)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Poseidon2bSponge;

impl TranscriptScheme for Poseidon2bSponge {
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

/// The shipped transcript schemes, chosen at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TranscriptKind {
    /// [`Sha256`] (the default).
    #[default]
    Sha256,
    /// [`Blake3`].
    Blake3,
    /// [`Poseidon2bSponge`].
    Poseidon2b,
}

impl TranscriptKind {
    /// All kinds.
    pub const ALL: [TranscriptKind; 3] = [
        TranscriptKind::Sha256,
        TranscriptKind::Blake3,
        TranscriptKind::Poseidon2b,
    ];

    /// `"sha256"`, `"blake3"` or `"poseidon2b"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TranscriptKind::Sha256 => "sha256",
            TranscriptKind::Blake3 => "blake3",
            TranscriptKind::Poseidon2b => "poseidon2b",
        }
    }
}

impl fmt::Display for TranscriptKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TranscriptKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown transcript {s:?} (sha256, blake3 or poseidon2b)"))
    }
}
