//! The integration tests of `flockwork`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork --test suite` (one module: `-- <module>::`).
//! `tests/allocator.rs` runs apart: it changes the allocator of its whole process.

#[path = "../../fuzz/src/targets.rs"]
#[allow(dead_code)]
mod targets;

mod book;
mod cli;
mod engines;
mod flock;
mod fuzz_smoke;
mod pinned;
