//! # flockwork
//!
//! Prove huge batches of one small computation — hash compressions and permutations — fast,
//! with every part swappable. This facade re-exports the workspace's crates under short
//! names, gathers the common items in a [`prelude`], and hosts the [`workload`]s that the
//! `flockwork` command line tool, the examples and the book run.
//!
//! | module | crate | contents |
//! |---|---|---|
//! | [`field`] | `flockwork-field` | `Field`, `PackedField`, `ExtensionField`, `BinaryField`, `PrimeField` |
//! | [`binary`] | `flockwork-field-binary` | GF(2^128) GHASH (SIMD), GF(2^8), towers, GF(2^256) |
//! | [`prime`] | `flockwork-field-prime` | BN254, BLS12-381, Goldilocks (ark-ff adapter and u64 backend) |
//! | [`transcript`] | `flockwork-transcript` | Fiat–Shamir transcripts over SHA-256 and BLAKE3; `TranscriptScheme`, the transcript parameter of the GKR and batch-R1CS setups, and `TranscriptKind` to choose one at run time |
//! | [`poly`] | `flockwork-core` | multilinear, eq and univariate polynomials, sumcheck, the `Relation` trait and its GKR encodings, PCS trait |
//! | [`circuit`] | `flockwork-circuit` | the Boolean-circuit frontend of batch-R1CS: `CircuitBuilder`, `Gadget`, words, statistics, bit-sliced batch witnesses, `CircuitEncoding` |
//! | [`poseidon2b`] | `flockwork-poseidon2b` | the Poseidon2b permutation over GF(2^128), its sponge, its duplex-sponge transcript (`Poseidon2bSponge`, a `TranscriptScheme`) and its layered relation (`Poseidon2bRelation`) |
//! | [`poseidon2`] | `flockwork-poseidon2` | Poseidon2 over prime fields: instances, sponge, compression, and the layered relation (`Poseidon2Relation`) |
//! | [`boolean`] | `flockwork-boolean` | Keccak-f, SHA-256, BLAKE3 as AND/XOR circuits; chain and Merkle IO |
//! | [`gkr`] | `flockwork-gkr` | layered GKR with independent, padded and ragged batchers; with the Poseidon2b and Poseidon2 relations of the gadget crates |
//! | [`pcs`] | `flockwork-pcs` | Ligerito, FRI (FRI-Binius / BaseFold), ring-switching, Merkle trees, security reports |
//! | [`r1cs`] | `flockwork-r1cs` | the batch-R1CS (Flock) prover and verifier |
//! | [`allocator`] | this crate | glibc tuning for long proving runs (freed memory kept for reuse) |
//! | [`memory`] | this crate | the process's peak resident memory, the machine's memory, sizes such as `4GiB` |
//! | [`proof_file`] | this crate | the self-describing proof file of `flockwork prove --out` / `flockwork verify` |
//! | [`sweep`] | this crate | throughput against batch size, saved as JSON and drawn as SVG |
//! | [`workload`] | this crate | timed, verified sumcheck runs with their reports |
//! | [`engines`] | this crate | every batcher that can prove a relation, listed at run time, proving one public-IO statement each ([`engines::compare`]) |
//! | [`compare`] | this crate | one Boolean polynomial committed, opened and verified with each PCS; one Poseidon2b statement proved with each GKR batcher |
//! | [`flock`] | this crate | timed, verified batch-hashing runs (chains, Merkle trees) against the native baseline |
//! | [`permutations`] | this crate | timed, verified GKR runs over Poseidon2b permutations against the native baseline |
//!
//! ```
//! use flockwork::prelude::*;
//!
//! let x = Ghash128::new(0x87);
//! assert_eq!(x * x.inverse().unwrap(), Ghash128::ONE);
//! ```

pub use flockwork_boolean as boolean;
pub use flockwork_circuit as circuit;
pub use flockwork_core as poly;
pub use flockwork_field as field;
pub use flockwork_field_binary as binary;
pub use flockwork_field_prime as prime;
/// `flockwork-gkr`: layered GKR with its batchers, and the layered relations it proves,
/// re-exported from their gadget crates (`flockwork-gkr` itself depends on no gadget).
pub mod gkr {
    pub use flockwork_gkr::*;
    pub use flockwork_poseidon2::Poseidon2Relation;
    pub use flockwork_poseidon2b::Poseidon2bRelation;
}
pub use flockwork_pcs as pcs;
pub use flockwork_poseidon2 as poseidon2;
pub use flockwork_poseidon2b as poseidon2b;
pub use flockwork_r1cs as r1cs;
pub use flockwork_transcript as transcript;

/// Runs `$body` with the type `$t` standing for the transcript scheme that the
/// [`TranscriptKind`](flockwork_transcript::TranscriptKind) `$kind` names (each arm
/// monomorphised: the choice is made once, at the edge).
macro_rules! with_transcript {
    ($kind:expr, $t:ident => $body:expr) => {
        match $kind {
            flockwork_transcript::TranscriptKind::Sha256 => {
                type $t = flockwork_transcript::Sha256;
                $body
            }
            flockwork_transcript::TranscriptKind::Blake3 => {
                type $t = flockwork_transcript::Blake3;
                $body
            }
            flockwork_transcript::TranscriptKind::Poseidon2b => {
                type $t = flockwork_poseidon2b::Poseidon2bSponge;
                $body
            }
        }
    };
}

pub mod allocator;
pub mod compare;
pub mod engines;
pub mod flock;
pub mod memory;
pub mod permutations;
pub mod prelude;
pub mod proof_file;
pub mod registry;
pub mod sweep;
pub mod workload;
