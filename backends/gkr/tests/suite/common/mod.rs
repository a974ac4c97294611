//! Helpers shared by the integration tests.

use std::sync::Arc;

use flockwork_field::Field;
use flockwork_gkr::{OutputLayer, Statement};
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

/// `statement` with the output of instance `row`, lane `lane`, of region `region` changed by
/// `delta` (the output digest recomputed).
pub fn change_output<F: Field>(
    statement: &Statement<F>,
    region: usize,
    row: usize,
    lane: usize,
    delta: F,
) -> Statement<F> {
    let mut changed = statement.clone();
    let outputs = &changed.regions[region].outputs;
    let width = outputs.width();
    let mut columns = outputs.columns().to_vec();
    columns[lane][row] += delta;
    changed.regions[region].outputs = Arc::new(OutputLayer::from_columns(width, columns));
    changed
}

/// The first, a middle and the last instance of a region of `2^width`.
pub fn first_middle_last(width: usize) -> Vec<usize> {
    let n = 1usize << width;
    let mut rows = vec![0, n / 2, n - 1];
    rows.dedup();
    rows
}
