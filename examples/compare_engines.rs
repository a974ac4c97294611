//! One statement, every engine: the batchers the framework lists for a relation — batch-R1CS
//! over each commitment and GKR on the Boolean layers for Keccak-f[1600], the independent,
//! padded and ragged GKR walks for Poseidon2b — each proving the same public inputs and
//! outputs over a BLAKE3 transcript, verified, in one table.
//!
//! `cargo run --release --example compare_engines`

// ANCHOR: compare
use flockwork::prelude::*;

/// Proves `inputs` with every batcher listed for `relation` and prints one row each.
fn table<R: Provable>(relation: &R, inputs: Vec<R::Input>) -> Result<(), BatchError> {
    let choices = Choices {
        transcript: TranscriptKind::Blake3,
        ..Choices::default()
    };
    let n = inputs.len();
    println!(
        "{} × {n}, outputs checked against the native evaluation",
        relation.name()
    );
    println!(
        "{:<40} {:>10} {:>10} {:>10} {:>6}",
        "batcher", "prove ms", "verify ms", "proof KiB", "bits"
    );
    for row in compare(relation, inputs, &choices)? {
        // A batcher whose setup cannot be built is a row with its reason; one that refuses
        // or is rejected would be a bug.
        if let Some(failure) = &row.failure {
            println!("{:<40} {failure}", row.name);
            if !failure.starts_with("unavailable") {
                return Err(BatchError::Rejected(format!("{}: {failure}", row.name)));
            }
            continue;
        }
        println!(
            "{:<40} {:>10.1} {:>10.2} {:>10.1} {:>6.1}",
            row.name,
            row.prove.as_secs_f64() * 1e3,
            row.verify.as_secs_f64() * 1e3,
            row.proof_bytes as f64 / 1024.0,
            row.soundness_bits
        );
    }
    Ok(())
}

fn main() -> Result<(), BatchError> {
    // The one process setting the provers want (`flockwork::allocator`): freed buffers stay
    // mapped for the next phase and the next proof.
    flockwork::allocator::retain_freed_memory();
    let keccak = KeccakF1600::new();
    let states: Vec<[u64; 25]> = (0..24u64)
        .map(|i| [i.wrapping_mul(0x9e37_79b9); 25])
        .collect();
    table(&keccak, states)?;
    let poseidon2b = Poseidon2bRelation::official();
    let states: Vec<[Ghash128; 4]> = (0..1000u128)
        .map(|i| [0, 1, 2, 3].map(|j| Ghash128::new(4 * i + j)))
        .collect();
    table(&poseidon2b, states)
}
// ANCHOR_END: compare
