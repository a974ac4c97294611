//! The integration tests of `flockwork-r1cs`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-r1cs --test suite` (one module: `-- <module>::`).

mod any_pcs;
mod end_to_end;
mod exact_count;
mod lowering;
mod merkle;
mod mutation;
mod public;
mod regions;
mod rejection;
mod transcripts;
mod walks;
mod witnesses;
