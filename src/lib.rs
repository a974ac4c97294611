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
//! | [`transcript`] | `flockwork-transcript` | Fiat–Shamir transcripts over SHA-256 and BLAKE3 |
//! | [`poly`] | `flockwork-core` | multilinear, eq and univariate polynomials, sumcheck |
//! | [`workload`] | this crate | timed, verified protocol runs with their reports |
//!
//! ```
//! use flockwork::prelude::*;
//!
//! let x = Ghash128::new(0x87);
//! assert_eq!(x * x.inverse().unwrap(), Ghash128::ONE);
//! ```

pub use flockwork_core as poly;
pub use flockwork_field as field;
pub use flockwork_field_binary as binary;
pub use flockwork_field_prime as prime;
pub use flockwork_transcript as transcript;

pub mod prelude;
pub mod workload;
