//! The tests of `flockwork-outside`, one module per topic, linked into one test binary:
//! `cargo test -p flockwork-outside --test suite` (one module: `-- <module>::`).

mod encoding;
mod engines;
mod files;
mod flock;
mod gkr;

use flockwork_outside::Sha1Input;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` compressions of random states and blocks from `seed`.
fn inputs(n: usize, seed: u64) -> Vec<Sha1Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Sha1Input {
            state: rng.random(),
            block: rng.random(),
        })
        .collect()
}
