//! The integration tests of `flockwork-gkr`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-gkr --test suite` (one module: `-- <module>::`).

mod common;

mod batchers;
mod boolean;
mod compiled;
mod opening;
mod relation_batchers;
mod tower_verifier;
mod transcripts;
mod walk_claims;
