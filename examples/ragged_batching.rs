//! Ragged batching: Poseidon2b permutations in regions of very different sizes, proven in one
//! GKR transcript without padding every region to the largest, next to the two alternatives
//! (one walk per region; one padded walk), and the input layer proved by a polynomial
//! commitment's opening instead of being held by the verifier.
//!
//! `cargo run --release --example ragged_batching`

use flockwork::gkr::statement::evaluate_outputs;
use flockwork::gkr::{Ghash128, Ghash256, Setup, Statement, Variant};
use flockwork::pcs::{Ligerito, Preset, Regime};
use flockwork::poly::layered::LayeredRelation;
use flockwork::poseidon2b::Poseidon2bRelation;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
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
    // The statement: these inputs give these outputs, every instance (the outputs computed
    // natively here; `Statement::public` takes them from anywhere). The proof's transcript
    // draws its output points after absorbing both; neither a point nor a value is stated.
    let outputs = evaluate_outputs(&relation, &inputs);
    let statement = Statement::public(&relation, &inputs, &outputs)?;
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

    // ANCHOR: opening
    // The layer-0 PCS path: every region's input layer in one polynomial over GF(2^128),
    // committed with Ligerito; the walk's terminal claims (at GF(2^256) points) are proved by
    // its opening, so the verifier needs the commitment, not the columns.
    let n = setup.input_layout().num_vars();
    let pcs = Ligerito::<Ghash128, sha2::Sha256>::with_preset(
        n,
        100,
        Preset::Fast,
        Regime::Johnson { eta: 0.02 },
    )?;
    // The statement: the committed inputs give these outputs, every instance.
    let (commitment, data) = setup.commit_inputs(&pcs, &inputs)?;
    let statement = setup.committed_statement(commitment.as_ref(), &outputs)?;
    let proof = setup.prove_opened(
        Variant::Ragged,
        &pcs,
        &commitment,
        &data,
        &inputs,
        &statement,
    )?;
    setup.verify_opened(Variant::Ragged, &pcs, &commitment, &statement, &proof)?;
    println!(
        "ragged + Ligerito opening of 2^{n} input values: {:.1} KiB (walk {:.1} KiB), {:.1} bits",
        proof.len() as f64 / 1024.0,
        setup.proof_len(Variant::Ragged) as f64 / 1024.0,
        setup
            .soundness_bits(Variant::Ragged)
            .min(pcs.config().security_report().bits())
    );
    // ANCHOR_END: opening
    Ok(())
}
