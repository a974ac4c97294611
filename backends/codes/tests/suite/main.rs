//! The integration tests of `flockwork-codes`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-codes --test suite` (one module: `-- <module>::`).

mod radix2_ark_poly;
mod reed_solomon;
