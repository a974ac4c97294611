//! The integration tests of `flockwork-core`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-core --test suite` (one module: `-- <module>::`).

mod ark_poly_reference;
mod boolean_layered;
mod mutation;
mod polynomials;
mod relation;
mod sumcheck;
#[cfg(feature = "parallel")]
mod workers;

/// A xorshift64 stream from `seed` (test data).
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
