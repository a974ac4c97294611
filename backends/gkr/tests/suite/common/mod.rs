//! Helpers shared by the integration tests.

use flockwork_field::Field;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Uniform inputs for regions of `2^widths[a]` instances of `t` lanes (row after row).
pub fn random_inputs<F: Field>(rng: &mut ChaCha8Rng, t: usize, widths: &[usize]) -> Vec<Vec<F>> {
    let mut bytes = vec![0u8; F::UNIFORM_BYTES];
    widths
        .iter()
        .map(|&w| {
            (0..t << w)
                .map(|_| {
                    rng.fill(&mut bytes[..]);
                    F::from_uniform_bytes(&bytes)
                })
                .collect()
        })
        .collect()
}
