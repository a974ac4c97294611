//! Transcript schemes: a protocol generic over its Fiat–Shamir transcript takes a type
//! parameter `T: `[`TranscriptScheme`] and starts its prover and verifier transcripts with
//! [`TranscriptScheme::prover`] / [`TranscriptScheme::verifier`] from its protocol string and
//! encoded public instance. [`TranscriptScheme::NAME`] names the scheme, so a protocol can
//! bind it into its setup (the batch-R1CS setup digest does); [`TranscriptKind`] names the
//! shipped schemes at run time (for command lines).
//!
//! | scheme | transcript | [`NAME`](TranscriptScheme::NAME) |
//! |---|---|---|
//! | [`Sha256`] (the default of the GKR and batch-R1CS setups) | [`Sha256ProverTranscript`] / [`Sha256VerifierTranscript`] | `"sha256"` |
//! | [`Blake3`] | [`Blake3ProverTranscript`] / [`Blake3VerifierTranscript`] | `"blake3"` |
//! | `flockwork_poseidon2b::Poseidon2bSponge` | the algebraic duplex-sponge transcript of `flockwork_poseidon2b::transcript` | `"poseidon2b"` |
//!
//! Every transcript starts from the protocol string and the instance bytes (a
//! [`DomainSeparator`] for the hash transcripts, the same two parts for the sponge). Another
//! digest `D` becomes a scheme through a marker type of your own implementing
//! [`TranscriptScheme`] with `Prover = HashProverTranscript<D>` and
//! `Verifier<'a> = HashVerifierTranscript<'a, D>` under a name of its own.
//!
//! [`Sha256ProverTranscript`]: crate::Sha256ProverTranscript
//! [`Sha256VerifierTranscript`]: crate::Sha256VerifierTranscript
//! [`Blake3ProverTranscript`]: crate::Blake3ProverTranscript
//! [`Blake3VerifierTranscript`]: crate::Blake3VerifierTranscript

use alloc::format;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::{
    DomainSeparator, HashProverTranscript, HashVerifierTranscript, ProverTranscript,
    VerifierTranscript,
};

/// SHA-256, the default transcript hash.
pub type Sha256 = sha2::Sha256;

/// BLAKE3 (256-bit output).
pub type Blake3 = blake3::Hasher;

/// How to start the prover's and the verifier's transcript from a protocol string and the
/// encoded public instance, and the scheme's name.
pub trait TranscriptScheme {
    /// The scheme's name (`"sha256"`, `"blake3"`, `"poseidon2b"` for the shipped ones, equal
    /// to their [`TranscriptKind::name`]), for protocols that bind their transcript into
    /// their setup. Distinct schemes must have distinct names.
    const NAME: &'static str;

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

/// The hash transcript of this crate over the digest `$digest`, named `$name`.
macro_rules! hash_scheme {
    ($digest:ty, $name:literal) => {
        impl TranscriptScheme for $digest {
            const NAME: &'static str = $name;
            type Prover = HashProverTranscript<$digest>;
            type Verifier<'a> = HashVerifierTranscript<'a, $digest>;

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
    };
}

hash_scheme!(Sha256, "sha256");
hash_scheme!(Blake3, "blake3");

/// The shipped transcript schemes, chosen at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TranscriptKind {
    /// [`Sha256`] (the default).
    #[default]
    Sha256,
    /// [`Blake3`].
    Blake3,
    /// `flockwork_poseidon2b::Poseidon2bSponge`, the Poseidon2b duplex sponge.
    Poseidon2b,
}

impl TranscriptKind {
    /// All kinds.
    pub const ALL: [TranscriptKind; 3] = [
        TranscriptKind::Sha256,
        TranscriptKind::Blake3,
        TranscriptKind::Poseidon2b,
    ];

    /// `"sha256"`, `"blake3"` or `"poseidon2b"`: the [`TranscriptScheme::NAME`] of the
    /// scheme.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TranscriptKind::Sha256 => <Sha256 as TranscriptScheme>::NAME,
            TranscriptKind::Blake3 => <Blake3 as TranscriptScheme>::NAME,
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
