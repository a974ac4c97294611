//! Ragged batching: Poseidon2b permutations in regions of very different sizes, proven in one
//! GKR transcript without padding every region to the largest, next to the two alternatives
//! (one walk per region; one padded walk).
//!
//! `cargo run --release --example ragged_batching`

use flockwork::gkr::{Ghash128, Ghash256, Poseidon2bRelation, Setup, Statement, Variant};
use flockwork::poly::layered::LayeredRelation;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // ANCHOR: statement
    // Four regions of 2^10, 2^6, 2^8 and 2^3 permutations (t = 4 lanes over GF(2^128)).
    let widths = vec![10, 6, 8, 3];
    let relation = Poseidon2bRelation::official();
    let t = relation.lanes();
    let inputs: Vec<Vec<Ghash128>> = widths
        .iter()
        .map(|&w| {
            (0..(t << w) as u128)
                .map(|i| Ghash128::new(i * 0x9e37_79b9 + 1))
                .collect()
        })
        .collect();
    // The statement: each region's committed input layer and the claim that the outputs'
    // multilinear extension takes these values at a random point.
    let statement = Statement::<Ghash128, Ghash256>::honest(&relation, &inputs, b"example");
    // ANCHOR_END: statement

    // ANCHOR: batchers
    let setup = Setup::<_, Ghash256>::new(relation, widths);
    println!("batcher      rows   proof (KiB)  soundness (bits)");
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement)?;
        setup.verify(variant, &statement, &proof)?;
        println!(
            "{:<11} {:>6} {:>13.1} {:>17.1}",
            variant.name(),
            setup.physical_rows(variant),
            proof.len() as f64 / 1024.0,
            setup.soundness_bits(variant)
        );
    }
    // ANCHOR_END: batchers
    Ok(())
}
