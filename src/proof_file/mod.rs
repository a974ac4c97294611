//! The proof file written by `flockwork prove --out` and checked by `flockwork verify`: a
//! proof with everything the verifier must know about its statement.
//!
//! ## Layout (little-endian)
//!
//! ```text
//! "FWPF" | u16 version (7) | u8 system | u8 transcript (0 SHA-256, 1 BLAKE3, 2 Poseidon2b)
//! system 0, batch-R1CS (Flock):
//!     u8 hash | u8 pcs | u8 preset | u8 copies | u32 blocks | u32 count | u16 target_bits
//!     | u8 statement kind
//!     kind 1, chain:  u32 n | n × u64 start | u32 n | n × u64 end (after `count` steps)
//!     kind 2, Merkle: u32 d | d × u64 root | count leaves × d × u64 (the left-complete tree)
//!     kind 3, public: u32 a | u32 b | blocks × a × u64 inputs | blocks × b × u64
//!                     outputs (one instance per block)
//! system 1, GKR over Poseidon2b (t = 4, official instance), inputs and outputs public:
//!     u8 batcher | u8 regions A | A × u8 width w_a
//!     per region: t·2^w_a × 16-byte inputs | t·2^w_a × 16-byte outputs (instance after
//!     instance, t lanes each)
//! system 2, GKR over Poseidon2b with the input layer committed (`flockwork_gkr::opening`),
//! outputs public:
//!     u8 batcher | u8 pcs | u8 regions A | A × u8 width w_a | u16 n | n commitment bytes
//!     per region: t·2^w_a × 16-byte outputs
//! system 3, Keccak-f[1600] with GKR on its Boolean layers (the harness's batcher,
//! `flockwork::engines`):
//!     u8 batcher | u8 pcs (255: none) | u16 target_bits (0 without pcs) | u32 N (1 to 2^24)
//!     pcs 255, public IO: N × 25 × u64 inputs | N × 25 × u64 outputs
//!     otherwise, committed IO: u16 n | n commitment bytes
//! system 4, any relation by any of its batchers (`relation.rs`, [`RelationFile`]):
//!     relation name and digest | batcher name | u16 target_bits | u8 IO kind | u32 count
//!     | u64 s | s statement bytes, in the relation's canonical bytes
//! then: u64 proof length | proof bytes
//! ```
//!
//! Systems 0 to 3 are the shipped workloads' files (`flockwork prove --out`), each laid out
//! for its relation; system 4 holds a proof of any relation, shipped or the user's, by any
//! batcher: [`save`] writes one, [`verify`] checks one in the relation's own binary, and
//! `flockwork verify` resolves the relations it ships through [`crate::registry`].
//!
//! The version changes whenever the meaning of a file's bytes does (its layout, or the bytes
//! of a proof for the same statement); a build reads its own version only and refuses an
//! older file with an error that names the last commit reading it ([`RETIRED`]).
//!
//! **What a file states.** Chains: the two end states; Merkle trees: the root and the leaves;
//! batch-R1CS public IO and GKR files (systems 1 and 3): every instance's input and output,
//! or (systems 2 and 3 committed) a commitment to the inputs (and, system 3, the outputs).
//! A GKR file over Poseidon2b holds no output point and no claimed value: the verifier draws
//! the points from the proof's transcript after the statement is absorbed and computes the
//! claimed values itself ([`flockwork_gkr::statement`]).
//!
//! Parsing is strict: every count is bounded, and checked against the bytes left, before
//! anything is allocated; field elements must be canonical; unknown codes and trailing bytes
//! are errors. Verification rebuilds the setup from the header (a batch-R1CS proof also
//! carries its setup digest and is bound to the setup by its transcript).
//!
//! ## Rooms
//!
//! One file a concept, in `src/proof_file/`:
//!
//! - `version.rs`: the magic bytes, [`VERSION`] and the [`RETIRED`] versions;
//! - `error.rs`: [`ProofFileError`];
//! - `framing.rs`: the strict reader, which bounds every allocation by the bytes the file has
//!   left, and its writer twins;
//! - `codes.rs`: the one-byte codes of the transcript, the commitment and the batcher;
//! - `header.rs`: the common header, [`ProofFile::to_bytes`], [`ProofFile::read_from`] and
//!   the dispatch on the system byte;
//! - `batch_r1cs.rs`, `gkr.rs`, `boolean_gkr.rs`: each system's layout, statement and
//!   verification ([`FlockFile`]; [`GkrFile`] and [`GkrOpenedFile`]; [`BooleanGkrFile`]), and
//!   the file of a workload's run ([`ProofFile::of_flock`], [`ProofFile::of_permutations`]);
//! - `relation.rs`: system 4, a proof of any relation ([`RelationFile`], [`save`],
//!   [`verify`], [`verify_with`], [`relation_digest`]);
//! - `verify.rs`: [`ProofFile::verify`], [`ProofFile::verify_within`] and
//!   [`ProofFile::into_verified`], under the memory limit;
//! - `tests/`: the unit tests, by the same rooms.

mod batch_r1cs;
mod boolean_gkr;
mod codes;
mod error;
mod framing;
mod gkr;
mod header;
mod relation;
mod verify;
mod version;

#[cfg(test)]
mod tests;

pub use batch_r1cs::FlockFile;
pub use boolean_gkr::{BooleanGkrFile, BooleanIo};
pub use error::ProofFileError;
pub use gkr::{GkrFile, GkrOpenedFile};
pub use relation::{RelationFile, relation_digest, save, verify, verify_with};
pub use version::{MAGIC, RETIRED, VERSION};

/// A proof file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofFile {
    /// A batch of hash compressions proved with batch-R1CS.
    Flock(FlockFile),
    /// A batch of Poseidon2b permutations proved with GKR.
    Gkr(GkrFile),
    /// A batch of Poseidon2b permutations proved with GKR, the inputs committed.
    GkrOpened(GkrOpenedFile),
    /// A batch of Keccak-f permutations proved with GKR on their Boolean layers.
    BooleanGkr(BooleanGkrFile),
    /// A batch of any relation's instances proved by any of its batchers.
    Relation(RelationFile),
}

impl ProofFile {
    /// The proof bytes.
    #[must_use]
    pub fn proof(&self) -> &[u8] {
        match self {
            Self::Flock(f) => &f.proof,
            Self::Gkr(g) => &g.proof,
            Self::GkrOpened(g) => &g.proof,
            Self::BooleanGkr(g) => &g.proof,
            Self::Relation(f) => &f.proof,
        }
    }

    /// One sentence on what the proof is about.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Flock(f) => f.describe(),
            Self::Gkr(g) => g.describe(),
            Self::GkrOpened(g) => g.describe(),
            Self::BooleanGkr(g) => g.describe(),
            Self::Relation(f) => f.describe(),
        }
    }
}
