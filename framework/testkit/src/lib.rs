//! # flockwork-testkit
//!
//! Reusable conformance suites. Every backend calls the suite of each trait it implements,
//! so a new field, packing or extension is held to the same laws as the shipped ones.
//!
//! | suite | checks |
//! |---|---|
//! | [`field::check_field`] | field axioms (proptest), edge values, canonical bytes, uniform sampling, `from_index` |
//! | [`field::check_packed`] | a packed field agrees with its scalar field lane by lane |
//! | [`field::check_extension`] | `From<B>` is a ring embedding, `E × B` products, base coordinates |
//! | [`sumcheck::check_sumcheck`] | the sumcheck engine over a field: honest proofs, tampering, truncation, malformed statements |
//! | [`mutation::check_mutations`] | any verifier: every byte change, truncation and extension of an honest proof is rejected, without a panic |
//!
//! [`circuit`] holds small gadgets ([`circuit::Adder`], [`circuit::AddMaterialize`],
//! [`circuit::Step`], [`circuit::PaddingShapes`]) that the circuit crate's and the R1CS
//! lowering's tests share.
//!
//! The suites panic with a descriptive message on the first violation (they are called from
//! `#[test]` functions). Randomness is seeded, so failures reproduce.

pub mod circuit;
pub mod field;
pub mod mutation;
pub mod sumcheck;

use flockwork_field::Field;
use rand::{RngCore, SeedableRng};

/// A deterministic RNG for tests, seeded from a label so each test draws its own stream.
#[must_use]
pub fn rng(label: &str) -> rand_chacha::ChaCha20Rng {
    let mut seed = [0u8; 32];
    for (i, b) in label.bytes().enumerate() {
        seed[i % 32] ^= b.rotate_left((i / 32) as u32);
    }
    rand_chacha::ChaCha20Rng::from_seed(seed)
}

/// A uniformly random field element (through [`Field::from_uniform_bytes`]).
pub fn random<F: Field>(rng: &mut impl RngCore) -> F {
    let mut bytes = vec![0u8; F::UNIFORM_BYTES];
    rng.fill_bytes(&mut bytes);
    F::from_uniform_bytes(&bytes)
}

/// `n` uniformly random field elements.
pub fn random_vec<F: Field>(rng: &mut impl RngCore, n: usize) -> Vec<F> {
    (0..n).map(|_| random(rng)).collect()
}

/// `n` uniformly random field elements from a numbered seed (benchmarks and tests that need
/// the same inputs on every run).
#[must_use]
pub fn seeded_vec<F: Field>(seed: u64, n: usize) -> Vec<F> {
    random_vec(&mut rand_chacha::ChaCha20Rng::seed_from_u64(seed), n)
}
