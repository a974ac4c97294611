//! The shipped relations: the engines each reaches and the instances `flockwork verify`
//! resolves by name — one line per relation in the `registry!` table below, the
//! relation's type, the instances it ships and its engines. The engines part is
//! [`provable!`](crate::provable)'s line, the same line a relation's author writes in their
//! own crate; the instances are what a proof file of any relation (system 4,
//! [`RelationFile`]) is checked against when it names one ([`verify`]).
//!
//! | relation | engines |
//! |---|---|
//! | SHA-256, BLAKE3 compressions (each adder) | batch-R1CS; the Boolean GKR, compiled circuit |
//! | Keccak-f\[1600\] | batch-R1CS; the Boolean GKR on its hand-written layers (one per round) |
//! | Poseidon2b over GF(2^128) | the layered GKR |
//! | Poseidon2 over BN254 (t = 2, 3, 4) | the layered GKR over the prime field |
//!
//! Keccak-f's compiled layers are the hand-written ones' shape (one AND layer per round,
//! tested equal in `flockwork-boolean`), so it lists the hand-written ones only.

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::Adder::{self, BrentKung, KoggeStone, Ripple};
use flockwork_core::StatementCodec;
use flockwork_field_prime::Bn254Fr;
use flockwork_poseidon2::instances::{bn254_t2, bn254_t3, bn254_t4};
use flockwork_poseidon2::{Poseidon2, Poseidon2Relation};
use flockwork_poseidon2b::Poseidon2bRelation;

use crate::engines::Provable;
use crate::proof_file::{ProofFileError, RelationFile};

/// A shipped relation's instance, as `flockwork verify` resolves it.
pub trait Registered: Send + Sync {
    /// The instance's name ([`Relation::name`](flockwork_core::Relation::name)).
    fn name(&self) -> String;

    /// Verifies `file`, a proof of this instance ([`RelationFile::verify`]).
    ///
    /// # Errors
    /// As [`RelationFile::verify`].
    fn verify(&self, file: &RelationFile) -> Result<(), ProofFileError>;
}

/// One instance of a registered relation.
struct Entry<R>(R);

impl<R: Provable + StatementCodec> Registered for Entry<R> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn verify(&self, file: &RelationFile) -> Result<(), ProofFileError> {
        file.verify(&self.0)
    }
}

/// The registry's table: `Relation = [instance, …]: engine, …;` a line. Each line implements
/// [`Provable`] for the type ([`provable!`](crate::provable)) and lists its instances in
/// [`relations`].
macro_rules! registry {
    ($($relation:ty = [$($value:expr),+ $(,)?]: $($engine:ident),+;)+) => {
        $(crate::provable!($relation: $($engine),+);)+

        /// Every shipped relation's instances, as `flockwork verify` resolves them by name.
        #[must_use]
        pub fn relations() -> Vec<Box<dyn Registered>> {
            vec![$($(Box::new(Entry::<$relation>($value)) as Box<dyn Registered>,)+)+]
        }
    };
}

registry! {
    Sha256Compress = [sha256(Ripple), sha256(KoggeStone), sha256(BrentKung)]: circuit, compiled;
    Blake3Compress = [blake3(Ripple), blake3(KoggeStone), blake3(BrentKung)]: circuit, compiled;
    KeccakF1600 = [KeccakF1600::new()]: circuit, boolean_layers;
    Poseidon2bRelation = [Poseidon2bRelation::official()]: layered;
    Poseidon2Relation<Bn254Fr> = [bn254(bn254_t2()), bn254(bn254_t3()), bn254(bn254_t4())]: layered;
}

const fn sha256(adder: Adder) -> Sha256Compress {
    Sha256Compress::with_adder(adder)
}

const fn blake3(adder: Adder) -> Blake3Compress {
    Blake3Compress::with_adder(adder)
}

fn bn254(perm: &Poseidon2<Bn254Fr>) -> Poseidon2Relation<Bn254Fr> {
    Poseidon2Relation::new(perm)
}

/// Verifies `file` against the shipped relation it names.
///
/// # Errors
/// [`ProofFileError::Setup`] if no shipped relation has the file's name (a relation of
/// another crate is verified in that crate's binary, [`crate::proof_file::verify`]); as
/// [`RelationFile::verify`] otherwise.
pub fn verify(file: &RelationFile) -> Result<(), ProofFileError> {
    relations()
        .into_iter()
        .find(|r| r.name() == file.relation)
        .ok_or_else(|| {
            ProofFileError::Setup(format!(
                "flockwork ships no relation {:?} (a relation of another crate is verified by \
                 that crate's binary, with flockwork::proof_file::verify)",
                file.relation
            ))
        })?
        .verify(file)
}
