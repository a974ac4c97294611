//! The tests of `flockwork-outside`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-outside --test suite` (one module: `-- <module>::`).

mod encoding;
mod flock;
mod gkr;
