//! The integration tests of `flockwork-circuit`, one module per topic, linked into one test
//! binary: `cargo test -p flockwork-circuit --test suite` (one module: `-- <module>::`).

mod adders;
mod circuit;
mod layers;
mod layout;
