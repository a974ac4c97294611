//! The integration tests of `flockwork-boolean`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-boolean --test suite` (one module: `-- <module>::`).

mod compiled;
mod layered;
mod reference;
mod relation;
mod stats;
