//! # flockwork-boolean
//!
//! Keccak-f\[1600\], SHA-256 compression and BLAKE3 compression as circuits of AND and XOR
//! gates, each written once against [`flockwork_circuit::CircuitBuilder`], plus the IO
//! glue for hash chains and Merkle trees and portable native baselines.
//!
//! | module | contents |
//! |---|---|
//! | [`keccak`] | [`KeccakF1600`]: 38,400 ANDs, 41,601 committed bits, `m0 = 16` (three per `m0 = 17` block in chains); as Boolean layers, 24 layers of 1600 χ gates ([`KeccakF1600::boolean_layers`]) |
//! | [`sha256`] | [`Sha256Compress`](struct@Sha256Compress): 22,696 ANDs, 31,401 committed bits, `m0 = 15` (ripple-carry additions; [`Sha256Compress::with_adder`] for a prefix adder) |
//! | [`blake3`] | [`Blake3Compress`](struct@Blake3Compress): 10,416 ANDs, 15,409 committed bits, `m0 = 14` (ripple-carry; [`Blake3Compress::with_adder`]) |
//! | [`io`] | [`ChainStep`], [`MerkleNode`], [`chain_witness`], [`merkle_witness`], [`wide_chain`] (several steps per block) |
//! | [`relation`] | each hash as a [`flockwork_core::Relation`] (typed inputs and outputs, native evaluation, known answers) with its [`flockwork_circuit::CircuitEncoding`]; Keccak-f also with its [`flockwork_core::BooleanLayeredEncoding`] |
//! | [`native`] | portable scalar SHA-256, BLAKE3 and Keccak-p, and one Keccak round (the baselines and references) |
//! | [`constants`] | round constants, IVs, schedules (computed from their definitions) |
//! | [`words`] | packing 32-bit words into input/output vectors |
//!
//! Every circuit here also compiles into Boolean layers for the Boolean GKR
//! ([`flockwork_circuit::layers::CompiledLayers`]); Keccak-f's compiled layers are its
//! hand-written ones.
//!
//! The figures match the reference encoding of the Flock paper (Bünz, Rothblum, Wang,
//! eprint 2026/1329; see `notes/flock.md` §2) and are pinned in the tests.
//!
//! ## Example
//!
//! ```
//! use flockwork_boolean::{Sha256Compress, constants::SHA256_IV, native::sha256_compress};
//! use flockwork_circuit::{Gadget, batch_witness, evaluate};
//!
//! let block = [7u8; 64];
//! let input = Sha256Compress::encode_input(&SHA256_IV, &block);
//! let mut expected = SHA256_IV;
//! sha256_compress(&mut expected, &block);
//! assert_eq!(Sha256Compress::decode_output(&evaluate(&Sha256Compress, &input)), expected);
//!
//! let stats = Sha256Compress.stats();
//! assert_eq!((stats.and_gates, stats.committed_bits, stats.log_block), (22_696, 31_401, 15));
//!
//! // Two instances: one block of 2^15 committed bits each, the witness batch-R1CS
//! // (`flockwork-r1cs`) proves.
//! let inputs = [input, input].concat();
//! let witness = batch_witness(&Sha256Compress, &inputs, false);
//! assert_eq!((witness.instances, witness.log_block), (2, 15));
//! assert_eq!(witness.z.len(), 2 * (1 << 15) / 64);
//! ```
#![forbid(unsafe_code)]

pub mod blake3;
pub mod constants;
pub mod io;
pub mod keccak;
pub mod native;
pub mod relation;
pub mod sha256;
pub mod words;

pub use blake3::Blake3Compress;
pub use io::{
    Blake3Block, ChainStep, ChainWitness, MerkleNode, MerkleWitness, best_chain_width,
    chain_witness, merkle_witness, wide_chain,
};
pub use keccak::KeccakF1600;
pub use relation::{Blake3Input, Sha256Input};
pub use sha256::Sha256Compress;
