//! The integration tests of `flockwork-field-prime`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-field-prime --test suite` (one module: `-- <module>::`).

mod conformance;
mod goldilocks_differential;
