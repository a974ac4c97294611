//! The integration tests of `flockwork-poseidon2b`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-poseidon2b --test suite` (one module: `-- <module>::`).

mod common;

mod field;
mod kat;
mod kernels;
#[cfg(feature = "layered")]
mod layered;
mod sponge;
mod transcript;
mod turboshake;
