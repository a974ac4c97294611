//! The three batchers on Poseidon2b (GF(2^128), challenges in GF(2^256)) and on Poseidon2
//! over BN254 (odd characteristic, `E = F`): honest proofs verify; mutated bytes, changed
//! outputs (first, middle and last instance of a region) and witness rows are rejected;
//! nothing panics.

use flockwork_core::layered::LayeredRelation;
use flockwork_field::{ExtensionField, Field};
use flockwork_field_prime::Bn254Fr;
use flockwork_gkr::{
    Ghash128, Ghash256, GkrError, Independent, Padded, ProverConfig, Ragged, Setup, Statement,
    Variant,
};
use flockwork_poseidon2::Poseidon2Relation;
use flockwork_poseidon2b::Poseidon2bRelation;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common;
use common::{change_output, first_middle_last, random_inputs};

/// Proves with all three variants, checks acceptance, proof sizes and rejections.
fn exercise<R, E>(relation: R, widths: Vec<usize>, seed: u64)
where
    R: LayeredRelation + Sync + Clone,
    E: ExtensionField<R::Base>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let t = relation.lanes();
    let inputs = random_inputs::<R::Base>(&mut rng, t, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<R, E>::new(relation.clone(), widths.clone()).with_config(ProverConfig {
        checkpoint_spacing: 1 + (seed as usize % 7),
    });
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        assert_eq!(proof.len(), setup.proof_len(variant), "{variant:?}");
        setup
            .verify(variant, &statement, &proof)
            .unwrap_or_else(|e| panic!("{variant:?} {widths:?}: {e}"));

        // Another variant's proof is rejected (header).
        for other in Variant::ALL.into_iter().filter(|&o| o != variant) {
            assert!(setup.verify(other, &statement, &proof).is_err());
        }

        // Mutated bytes: header, start, middle, end, and random positions.
        let mut positions = vec![0, 5, 6, 7, proof.len() / 2, proof.len() - 1];
        positions.extend((0..6).map(|_| rng.random_range(0..proof.len())));
        for pos in positions {
            let mut bad = proof.clone();
            bad[pos] ^= 1 << rng.random_range(0..8);
            assert!(
                setup.verify(variant, &statement, &bad).is_err(),
                "{variant:?}: flipped byte {pos} accepted"
            );
        }
        // Truncated and extended proofs.
        for len in [0, 3, 7, proof.len() - 1] {
            assert!(setup.verify(variant, &statement, &proof[..len]).is_err());
        }
        let mut longer = proof.clone();
        longer.push(0);
        assert!(setup.verify(variant, &statement, &longer).is_err());

        // A changed output (the first, a middle and the last instance of a random region,
        // a random lane) is rejected, and so is the proof its prover makes for it.
        let a = rng.random_range(0..widths.len());
        for row in first_middle_last(widths[a]) {
            let lane = rng.random_range(0..t);
            let changed = change_output(&statement, a, row, lane, R::Base::ONE);
            assert!(
                setup.verify(variant, &changed, &proof).is_err(),
                "{variant:?}: region {a}, instance {row}'s changed output accepted"
            );
            let false_proof = setup.prove(variant, &inputs, &changed).unwrap();
            assert!(setup.verify(variant, &changed, &false_proof).is_err());
        }

        // A wrong witness row: the proof does not verify against the committed statement.
        let mut wrong = inputs.clone();
        let row = rng.random_range(0..1usize << widths[a]);
        wrong[a][row * t + rng.random_range(0..t)] += R::Base::ONE;
        let bad_proof = setup.prove(variant, &wrong, &statement).unwrap();
        assert!(
            setup.verify(variant, &statement, &bad_proof).is_err(),
            "{variant:?}: wrong witness row accepted"
        );
    }
}

fn random_widths(rng: &mut ChaCha8Rng, max_regions: usize, max_width: usize) -> Vec<usize> {
    let a = rng.random_range(1..=max_regions);
    (0..a).map(|_| rng.random_range(0..=max_width)).collect()
}

#[test]
fn poseidon2b_random_widths() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for seed in 0..6 {
        let widths = random_widths(&mut rng, 4, 6);
        exercise::<_, Ghash256>(Poseidon2bRelation::official(), widths, seed);
    }
}

#[test]
fn poseidon2b_equal_widths_and_single_region() {
    exercise::<_, Ghash256>(Poseidon2bRelation::official(), vec![3, 3, 3], 10);
    exercise::<_, Ghash256>(Poseidon2bRelation::official(), vec![5], 11);
    exercise::<_, Ghash256>(Poseidon2bRelation::official(), vec![0], 12);
    exercise::<_, Ghash256>(Poseidon2bRelation::official(), vec![0, 4, 1], 13);
}

#[test]
fn poseidon2_bn254_through_the_same_engine() {
    let relation = Poseidon2Relation::new(flockwork_poseidon2::instances::bn254_t3());
    exercise::<_, Bn254Fr>(relation.clone(), vec![3, 1, 4], 20);
    exercise::<_, Bn254Fr>(relation, vec![2], 21);
}

/// The three batchers through the `Batcher` trait, on the same statement.
#[test]
fn batcher_trait_and_identical_claims() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![4, 2, 5, 3];
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let inputs = random_inputs::<Ghash128>(&mut rng, 4, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let independent = Independent::<_, Ghash256>::new(relation.clone(), widths.clone());
    let padded = Padded::<_, Ghash256>::new(relation.clone(), widths.clone());
    let ragged = Ragged::<_, Ghash256>::new(relation, widths);
    assert_eq!(independent.instances(), 16 + 4 + 32 + 8);
    let proofs = [
        independent.prove_batch(&inputs, &statement).unwrap(),
        padded.prove_batch(&inputs, &statement).unwrap(),
        ragged.prove_batch(&inputs, &statement).unwrap(),
    ];
    independent.verify_batch(&statement, &proofs[0]).unwrap();
    padded.verify_batch(&statement, &proofs[1]).unwrap();
    ragged.verify_batch(&statement, &proofs[2]).unwrap();
    // Ragged and padded proofs have the same shape; the transcripts differ.
    assert_eq!(proofs[1].len(), proofs[2].len());
    assert_ne!(proofs[1][7..], proofs[2][7..]);
    // The stated outputs: S_66, the native permutation of every input; the same statement
    // from them verifies the same proofs.
    let mut outputs = Vec::new();
    for rows in &inputs {
        let mut region = Vec::new();
        for row in rows.chunks_exact(4) {
            let out = flockwork_poseidon2b::official_t4().permutation(row.try_into().unwrap());
            region.extend(out);
        }
        outputs.push(region);
    }
    assert_eq!(statement.outputs(), outputs);
    let relation = Poseidon2bRelation::official();
    assert_eq!(
        Statement::public(&relation, &inputs, &outputs).unwrap(),
        statement
    );
    assert_eq!(
        flockwork_gkr::statement::evaluate_outputs(&relation, &inputs),
        outputs
    );
    // Soundness: ragged = padded > independent.
    assert_eq!(padded.soundness_bits(), ragged.soundness_bits());
    assert!(independent.soundness_bits() < ragged.soundness_bits());
}

/// Garbage of every length is rejected without panicking, for every variant.
#[test]
fn garbage_proofs_are_rejected() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![2, 1];
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let inputs = random_inputs::<Ghash128>(&mut rng, 4, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths);
    for variant in Variant::ALL {
        let len = setup.proof_len(variant);
        for attempt in 0..4 {
            let mut bytes = vec![
                0u8;
                if attempt == 0 {
                    len
                } else {
                    rng.random_range(0..2 * len)
                }
            ];
            rng.fill(&mut bytes[..]);
            if attempt % 2 == 0 && bytes.len() >= 7 {
                bytes[..4].copy_from_slice(b"FWGK");
                bytes[4..6].copy_from_slice(&2u16.to_le_bytes());
                bytes[6] = variant as u8;
            }
            assert!(setup.verify(variant, &statement, &bytes).is_err());
        }
        // A statement that does not fit the setup.
        let mut short = statement.clone();
        short.regions.pop();
        assert!(matches!(
            setup.verify(variant, &short, &[]),
            Err(GkrError::Statement(_))
        ));
        // Outputs of another width than the region's.
        let mut bad_outputs = statement.clone();
        bad_outputs.regions[0].outputs = statement.regions[1].outputs.clone();
        assert!(matches!(
            setup.verify(variant, &bad_outputs, &[]),
            Err(GkrError::Statement(_))
        ));
        // A proof of version 1 (output claims at stated points) is refused by name.
        let mut old = setup.prove(variant, &inputs, &statement).unwrap();
        old[4..6].copy_from_slice(&1u16.to_le_bytes());
        assert!(matches!(
            setup.verify(variant, &statement, &old),
            Err(GkrError::Retired {
                version: 1,
                commit: "dd373e8"
            })
        ));
    }
}

/// The checkpoint spacing changes memory and speed, never the proof.
#[test]
fn checkpoint_spacing_does_not_change_the_proof() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![3, 1, 2];
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let inputs = random_inputs::<Ghash128>(&mut rng, 4, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    for variant in Variant::ALL {
        let proofs: Vec<Vec<u8>> = [1, 3, 8, 11, 65, 66, 1000]
            .into_iter()
            .map(|c| {
                Setup::<_, Ghash256>::new(relation.clone(), widths.clone())
                    .with_config(ProverConfig {
                        checkpoint_spacing: c,
                    })
                    .prove(variant, &inputs, &statement)
                    .unwrap()
            })
            .collect();
        assert!(proofs.windows(2).all(|w| w[0] == w[1]), "{variant:?}");
    }
}

/// Proof sizes and soundness at the published widths (notes/poseidon2b-gkr.md §(b)):
/// ragged = padded = 66·(8W + 4A)·32 B, independent = Σ_a 66·(8w_a + 4)·32 B (plus the
/// 7-byte header); soundness −log2((Σ_a w_a + Σ_l (tA + 8W)) / 2^256).
#[test]
fn published_widths_sizes_and_soundness() {
    let widths = vec![14, 15, 17, 16, 12, 15, 16, 12, 13];
    let setup = Setup::<_, Ghash256>::new(Poseidon2bRelation::official(), widths.clone());
    let (a, w) = (widths.len(), 17);
    assert_eq!(
        setup.proof_len(Variant::Ragged),
        7 + 66 * (8 * w + 4 * a) * 32
    );
    assert_eq!(
        setup.proof_len(Variant::Padded),
        setup.proof_len(Variant::Ragged)
    );
    let independent: usize = widths.iter().map(|&w| 66 * (8 * w + 4) * 32).sum();
    assert_eq!(setup.proof_len(Variant::Independent), 7 + independent);
    assert_eq!(setup.proof_len(Variant::Ragged), 363_271);
    assert_eq!(setup.proof_len(Variant::Independent), 2_272_519);
    assert_eq!(setup.physical_rows(Variant::Ragged), 360_448);
    assert_eq!(setup.physical_rows(Variant::Padded), 9 << 17);
    // The output points: Σ_a w_a = 130.
    let ragged = 256.0 - (130.0 + 66.0f64 * (4.0 * 9.0 + 8.0 * 17.0)).log2();
    let indep = 256.0 - (130.0 + 66.0f64 * (4.0 * 9.0 + 8.0 * 130.0)).log2();
    assert!((setup.soundness_bits(Variant::Ragged) - ragged).abs() < 1e-9);
    assert!((setup.soundness_bits(Variant::Padded) - ragged).abs() < 1e-9);
    assert!((setup.soundness_bits(Variant::Independent) - indep).abs() < 1e-9);
    assert!(setup.soundness_bits(Variant::Ragged) > 242.5);
    assert!(setup.soundness_bits(Variant::Independent) > 239.8);
}

/// The BN254 relation's soundness uses the prime field's size (ORDER_BITS = 253).
#[test]
fn bn254_soundness_uses_its_field() {
    let relation = Poseidon2Relation::new(flockwork_poseidon2::instances::bn254_t3());
    let setup = Setup::<_, Bn254Fr>::new(relation, vec![4, 2]);
    let expected = 253.0 - (6.0 + 64.0f64 * (3.0 * 2.0 + 4.0 * 6.0)).log2();
    assert!((setup.soundness_bits(Variant::Ragged) - expected).abs() < 1e-9);
}

/// Regions of more than one parallel chunk (1024 rows): the chunked round kernels line up
/// with the eq tables.
#[test]
fn regions_larger_than_one_chunk() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![12, 2, 11];
    let mut rng = ChaCha8Rng::seed_from_u64(60);
    let inputs = random_inputs::<Ghash128>(&mut rng, 4, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, widths.clone());
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        setup.verify(variant, &statement, &proof).unwrap();
        let mut wrong = inputs.clone();
        wrong[0][4 * 3000 + 2] += Ghash128::ONE;
        let bad = setup.prove(variant, &wrong, &statement).unwrap();
        assert!(setup.verify(variant, &statement, &bad).is_err());
    }
}

/// The mutation harness (`flockwork_testkit::mutation`) over the three batchers' proofs: a
/// seeded sample of single-byte changes, every truncation (sampled beyond 2,000 bytes) and
/// appended bytes are rejected, and the verifier never panics. The harness prints the counts.
#[test]
fn every_batcher_rejects_sampled_mutations() {
    use flockwork_testkit::mutation::{MutationBudget, check_mutations};
    let relation = Poseidon2bRelation::official();
    let widths = vec![2, 0, 1];
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let inputs = random_inputs::<Ghash128>(&mut rng, relation.lanes(), &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, widths);
    let budget = MutationBudget {
        exhaustive_limit: 6000,
        truncation_limit: 2000,
        ..MutationBudget::default()
    };
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        let name = format!("gkr/{}", variant.name());
        check_mutations(&name, &proof, budget, |bytes| {
            setup.verify(variant, &statement, bytes)
        });
    }
}

/// The setups' guards: no region, or one wider than [`MAX_WIDTH`], is refused (a panic at
/// setup, before any proof); a region at exactly the bound and several regions are accepted.
/// The Boolean GKR's setup the same at its bound, `MAX_LOG_COUNT`.
#[test]
fn setups_refuse_no_region_and_regions_past_the_bound() {
    use flockwork_gkr::boolean::MAX_LOG_COUNT;
    use flockwork_gkr::statement::MAX_WIDTH;
    let refused = |f: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err();
    let layered = |widths: Vec<usize>| {
        drop(Setup::<_, Ghash256>::new(
            Poseidon2bRelation::official(),
            widths,
        ));
    };
    assert!(refused(&|| layered(vec![])));
    assert!(refused(&|| layered(vec![3, MAX_WIDTH + 1])));
    assert!(!refused(&|| layered(vec![MAX_WIDTH, 0, 5])));
    let boolean = |widths: Vec<usize>| {
        let relation = flockwork_boolean::KeccakF1600::new();
        drop(flockwork_gkr::BooleanGkr::<_>::new(relation, widths));
    };
    assert!(refused(&|| boolean(vec![])));
    assert!(refused(&|| boolean(vec![MAX_LOG_COUNT + 1])));
    assert!(!refused(&|| boolean(vec![MAX_LOG_COUNT, 0])));
}
