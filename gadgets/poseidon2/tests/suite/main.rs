//! The integration tests of `flockwork-poseidon2`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-poseidon2 --test suite` (one module: `-- <module>::`).

mod common;

mod differential;
mod grain;
mod hash;
mod kat;
mod kernels;
#[cfg(feature = "layered")]
mod layered;
mod opcount;
mod plonky3;
mod relation;
