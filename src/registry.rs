//! The shipped relations and the engines each reaches: one registration line per relation
//! ([`provable!`](crate::provable)), the same line a relation's author writes in their own
//! crate.
//!
//! | relation | engines |
//! |---|---|
//! | SHA-256 and BLAKE3 compressions | batch-R1CS; the Boolean GKR on the compiled circuit |
//! | Keccak-f\[1600\] | batch-R1CS; the Boolean GKR on its hand-written layers (one per round) |
//! | Poseidon2b over GF(2^128) | the layered GKR |
//! | Poseidon2 over BN254 (any width) | the layered GKR over the prime field |
//!
//! Keccak-f's compiled layers are the hand-written ones' shape (one AND layer per round,
//! tested equal in `flockwork-boolean`), so it lists the hand-written ones only.

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_field_prime::Bn254Fr;
use flockwork_poseidon2::Poseidon2Relation;
use flockwork_poseidon2b::Poseidon2bRelation;

crate::provable!(Sha256Compress: circuit, compiled);
crate::provable!(Blake3Compress: circuit, compiled);
crate::provable!(KeccakF1600: circuit, boolean_layers);
crate::provable!(Poseidon2bRelation: layered);
crate::provable!(Poseidon2Relation<Bn254Fr>: layered);
