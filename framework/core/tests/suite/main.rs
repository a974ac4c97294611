//! The integration tests of `flockwork-core`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-core --test suite` (one module: `-- <module>::`).

mod circuit;
mod mutation;
mod polynomials;
mod sumcheck;
#[cfg(feature = "parallel")]
mod workers;
