//! The items most programs need: `use flockwork::prelude::*;`.

pub use flockwork_core::{
    MultilinearPoly, SplitEq, SumcheckClaim, SumcheckOutput, SumcheckProver, UnivariatePoly,
    VerifyError, eq_eval, eq_table, prove, soundness_bits, verify,
};
pub use flockwork_field::{BinaryField, ExtensionField, Field, PackedField, PrimeField};
pub use flockwork_field_binary::{Aes8, Ghash128, Ghash256, Tower8, Tower128};
pub use flockwork_field_prime::{Bls12_381Fr, Bn254Fr, Goldilocks, GoldilocksArk};
pub use flockwork_transcript::{
    Blake3ProverTranscript, Blake3VerifierTranscript, DomainSeparator, ProverTranscript,
    Sha256ProverTranscript, Sha256VerifierTranscript, Transcript, TranscriptError, TranscriptKind,
    TranscriptScheme, VerifierTranscript,
};

// The framework as a researcher uses it: relations, their batchers, the engines and gadgets,
// one commitment value.
pub use crate::engines::{
    Choices, Provable, Row, batchers_for, compare, compare_committed, compare_committed_with,
    compare_statement, compare_statement_with, listing,
};
pub use flockwork_boolean::{
    Blake3Block, Blake3Compress, Blake3Input, KeccakF1600, Sha256Compress, Sha256Input,
};
pub use flockwork_circuit::CircuitEncoding;
pub use flockwork_core::relation::{
    BatchError, Batcher, Io, IoKind, LayeredEncoding, Relation, Statement, Unavailable,
};
pub use flockwork_gkr::{Setup as GkrSetup, Variant};
pub use flockwork_pcs::{Commitment, PcsKind};
pub use flockwork_poseidon2b::Poseidon2bRelation;
pub use flockwork_r1cs::{Flock, FlockConfig};
