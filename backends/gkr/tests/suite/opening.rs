//! The layer-0 PCS path (`flockwork_gkr::opening`): every region's `S_0` committed with a
//! polynomial commitment (Ligerito, FRI-Binius and Blaze over GF(2^128) with GF(2^256)
//! challenges; BaseFold over BN254 with `E = F`), terminal claims proved by its opening.
//! Honest proofs verify for the three batchers; statements (a changed output of the first, a
//! middle or the last instance), commitments, witnesses and proof bytes that do not belong
//! together are rejected; nothing panics.

use flockwork_core::PolynomialCommitment;
use flockwork_core::layered::LayeredRelation;
use flockwork_field::{ExtensionField, Field};
use flockwork_field_prime::Bn254Fr;
use flockwork_gkr::statement::evaluate_outputs;
use flockwork_gkr::{Ghash128, Ghash256, GkrError, ProveError, Setup, Statement, Variant};
use flockwork_pcs::{
    BaseFold, Blaze, BlazeConfig, BlazeOptions, FriBinius, FriConfig, Ligerito, Preset, Regime,
};
use flockwork_poseidon2::Poseidon2Relation;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::Sha256;

use crate::common;
use common::{change_output, first_middle_last};

fn random_inputs<F: Field>(seed: u64, t: usize, widths: &[usize]) -> Vec<Vec<F>> {
    common::random_inputs(&mut ChaCha8Rng::seed_from_u64(seed), t, widths)
}

/// Commits, proves and verifies with every variant, then checks the rejections that do not
/// depend on the proof bytes.
fn exercise<R, E, P>(relation: R, widths: Vec<usize>, pcs: &P, seed: u64)
where
    R: LayeredRelation + Sync + Clone,
    R::Base: 'static,
    E: ExtensionField<R::Base> + 'static,
    P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
{
    let t = relation.lanes();
    let setup = Setup::<R, E>::new(relation, widths.clone());
    assert_eq!(pcs.num_vars(), setup.input_layout().num_vars());
    let inputs = random_inputs::<R::Base>(seed, t, &widths);
    let (commitment, data) = setup.commit_inputs(pcs, &inputs).unwrap();
    let outputs = evaluate_outputs(setup.relation(), &inputs);
    let statement = setup
        .committed_statement(commitment.as_ref(), &outputs)
        .unwrap();
    // The statement without columns cannot be discharged directly.
    assert!(
        statement
            .regions
            .iter()
            .all(|r| !r.committed.holds_columns())
    );
    for variant in Variant::ALL {
        let proof = setup
            .prove_opened(variant, pcs, &commitment, &data, &inputs, &statement)
            .unwrap();
        setup
            .verify_opened(variant, pcs, &commitment, &statement, &proof)
            .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
        let terminal = setup
            .verify_walks(variant, &statement, &proof[..setup.proof_len(variant)])
            .unwrap();
        assert!(matches!(
            setup.discharge(&statement, &terminal),
            Err(GkrError::Statement(_))
        ));

        // A statement with another output (the first, a middle, the last instance of the
        // first and the last region) is rejected, and so is its prover's proof.
        for a in [0, widths.len() - 1] {
            for row in first_middle_last(widths[a]) {
                let wrong = change_output(&statement, a, row, t - 1, R::Base::ONE);
                assert!(
                    setup
                        .verify_opened(variant, pcs, &commitment, &wrong, &proof)
                        .is_err(),
                    "{variant:?}: region {a}, instance {row}'s changed output accepted"
                );
                let false_proof = setup
                    .prove_opened(variant, pcs, &commitment, &data, &inputs, &wrong)
                    .unwrap();
                assert!(
                    setup
                        .verify_opened(variant, pcs, &commitment, &wrong, &false_proof)
                        .is_err()
                );
            }
        }

        // Truncated or extended proofs, a flipped opening byte.
        assert!(
            setup
                .verify_opened(
                    variant,
                    pcs,
                    &commitment,
                    &statement,
                    &proof[..proof.len() - 1]
                )
                .is_err()
        );
        let mut longer = proof.clone();
        longer.push(0);
        assert!(
            setup
                .verify_opened(variant, pcs, &commitment, &statement, &longer)
                .is_err()
        );
        let mut flipped = proof.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(
            setup
                .verify_opened(variant, pcs, &commitment, &statement, &flipped)
                .is_err()
        );
    }

    // The statement of the clear path (column digests) is not bound to the commitment.
    let clear = Statement::of_inputs(setup.relation(), &inputs);
    assert!(matches!(
        setup.prove_opened(Variant::Ragged, pcs, &commitment, &data, &inputs, &clear),
        Err(ProveError::Statement(_))
    ));
    let proof = setup
        .prove_opened(
            Variant::Ragged,
            pcs,
            &commitment,
            &data,
            &inputs,
            &statement,
        )
        .unwrap();
    assert!(matches!(
        setup.verify_opened(Variant::Ragged, pcs, &commitment, &clear, &proof),
        Err(GkrError::Statement(_))
    ));

    // Another commitment (to other inputs): the statement is not bound to it.
    let other_inputs = random_inputs::<R::Base>(seed + 1, t, &widths);
    let (other, other_data) = setup.commit_inputs(pcs, &other_inputs).unwrap();
    assert!(matches!(
        setup.verify_opened(Variant::Ragged, pcs, &other, &statement, &proof),
        Err(GkrError::Statement(_))
    ));

    // A prover whose committed inputs differ from the statement's: the opening fails.
    let lying = setup
        .prove_opened(
            Variant::Ragged,
            pcs,
            &commitment,
            &other_data,
            &inputs,
            &statement,
        )
        .unwrap();
    assert!(matches!(
        setup.verify_opened(Variant::Ragged, pcs, &commitment, &statement, &lying),
        Err(GkrError::Opening(_))
    ));
    // The walk proven on other rows than the committed ones: a walk check or the opening fails.
    let other_statement = setup
        .committed_statement(
            commitment.as_ref(),
            &evaluate_outputs(setup.relation(), &other_inputs),
        )
        .unwrap();
    let swapped = setup
        .prove_opened(
            Variant::Ragged,
            pcs,
            &commitment,
            &data,
            &other_inputs,
            &other_statement,
        )
        .unwrap();
    assert!(
        setup
            .verify_opened(
                Variant::Ragged,
                pcs,
                &commitment,
                &other_statement,
                &swapped
            )
            .is_err()
    );
}

fn ligerito(num_vars: usize) -> Ligerito<Ghash128, Sha256> {
    Ligerito::with_preset(num_vars, 100, Preset::Fast, Regime::Johnson { eta: 0.02 }).unwrap()
}

#[test]
fn poseidon2b_inputs_opened_with_ligerito() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![4, 0, 5, 2];
    let n = Setup::<_, Ghash256>::new(relation.clone(), widths.clone())
        .input_layout()
        .num_vars();
    exercise::<_, Ghash256, _>(relation, widths, &ligerito(n), 1);
}

#[test]
fn poseidon2b_inputs_opened_with_fri_binius_and_blaze() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![3, 5, 5];
    let n = Setup::<_, Ghash256>::new(relation.clone(), widths.clone())
        .input_layout()
        .num_vars();
    let fri =
        FriBinius::<Ghash128, Sha256>::new(FriConfig::select(n, 100, 1, 128, 16, 32).unwrap())
            .unwrap();
    exercise::<_, Ghash256, _>(relation.clone(), widths.clone(), &fri, 2);
    let blaze = Blaze::<Ghash128, Sha256>::new(
        BlazeConfig::select(n, 100, 128, &BlazeOptions::default()).unwrap(),
    )
    .unwrap();
    exercise::<_, Ghash256, _>(relation, widths, &blaze, 3);
}

#[test]
fn poseidon2_bn254_inputs_opened_with_basefold() {
    let relation = Poseidon2Relation::new(flockwork_poseidon2::instances::bn254_t3());
    let widths = vec![3, 1, 4];
    let n = Setup::<_, Bn254Fr>::new(relation.clone(), widths.clone())
        .input_layout()
        .num_vars();
    let pcs = BaseFold::<Bn254Fr, Sha256>::new(
        FriConfig::select(n, 100, 1, Bn254Fr::ORDER_BITS, 32, 32).unwrap(),
    )
    .unwrap();
    exercise::<_, Bn254Fr, _>(relation, widths, &pcs, 4);
}

#[test]
fn a_pcs_of_the_wrong_size_is_refused() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![2, 1];
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths.clone());
    let n = setup.input_layout().num_vars();
    let inputs = random_inputs::<Ghash128>(5, relation.lanes(), &widths);
    let pcs = ligerito(n + 1);
    assert!(matches!(
        setup.commit_inputs(&pcs, &inputs),
        Err(ProveError::Witness(_))
    ));
    let right = ligerito(n);
    let (c, d) = setup.commit_inputs(&right, &inputs).unwrap();
    let outputs = evaluate_outputs(setup.relation(), &inputs);
    let committed = setup.committed_statement(c.as_ref(), &outputs).unwrap();
    assert!(matches!(
        setup.prove_opened(Variant::Ragged, &pcs, &c, &d, &inputs, &committed),
        Err(ProveError::Witness(_))
    ));
    let (commitment, _) = right.commit(&setup.layer0_polynomial(&inputs).unwrap());
    let statement = setup
        .committed_statement(commitment.as_ref(), &outputs)
        .unwrap();
    // Outputs of another shape than the setup's.
    assert!(matches!(
        setup.committed_statement(commitment.as_ref(), &outputs[1..]),
        Err(GkrError::Statement(_))
    ));
    assert!(matches!(
        setup.verify_opened(Variant::Ragged, &right, &commitment, &statement, &[]),
        Err(GkrError::ProofLength { .. })
    ));
}

/// The sample of mutations of an opened proof.
fn budget() -> MutationBudget {
    MutationBudget {
        exhaustive_limit: 3000,
        truncation_limit: 500,
        ..MutationBudget::default()
    }
}

/// The mutation harness over opened proofs of the three variants (a seeded sample of byte
/// changes, truncations and appended bytes: all rejected, no panic).
#[test]
fn opened_proofs_reject_sampled_mutations() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![2, 0, 1];
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths.clone());
    let pcs = ligerito(setup.input_layout().num_vars());
    let inputs = random_inputs::<Ghash128>(6, relation.lanes(), &widths);
    let (commitment, data) = setup.commit_inputs(&pcs, &inputs).unwrap();
    let statement = setup
        .committed_statement(
            commitment.as_ref(),
            &evaluate_outputs(setup.relation(), &inputs),
        )
        .unwrap();
    for variant in Variant::ALL {
        let proof = setup
            .prove_opened(variant, &pcs, &commitment, &data, &inputs, &statement)
            .unwrap();
        let name = format!("gkr-opened/{}", variant.name());
        check_mutations(&name, &proof, budget(), |bytes| {
            setup.verify_opened(variant, &pcs, &commitment, &statement, bytes)
        });
    }
}

/// The committed-IO path (inputs and outputs in one commitment, `Setup::prove_io`): honest
/// proofs verify for every variant; committed outputs that are not the relation of the
/// committed inputs — one output value changed in the first or the last region — are
/// rejected whatever the prover does with them; a proof checked against another
/// commitment, and a PCS of the input-only layout, are refused.
#[test]
fn committed_inputs_and_outputs() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![3, 0, 2];
    let t = relation.lanes();
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths.clone());
    let layout = setup.io_layout();
    assert_eq!(layout.num_vars(), setup.input_layout().num_vars() + 1);
    let pcs = ligerito(layout.num_vars());
    let inputs = random_inputs::<Ghash128>(7, t, &widths);
    let (commitment, data) = setup.commit_io(&pcs, &inputs).unwrap();
    let other = random_inputs::<Ghash128>(8, t, &widths);
    let (other_commitment, _) = setup.commit_io(&pcs, &other).unwrap();
    for variant in Variant::ALL {
        let proof = setup
            .prove_io(variant, &pcs, &commitment, &data, &inputs)
            .unwrap();
        assert!(proof.len() > setup.io_values_len() * 32 + setup.proof_len(variant));
        setup
            .verify_io(variant, &pcs, &commitment, &proof)
            .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
        assert!(
            setup
                .verify_io(variant, &pcs, &other_commitment, &proof)
                .is_err()
        );
        // The outputs of the last row of region `a`, lane `t − 1`, changed in the committed
        // polynomial: the honest walk's claim no longer opens.
        for a in [0, widths.len() - 1] {
            let mut poly = setup.io_polynomial(&inputs).unwrap();
            let at = layout.offset(a, 2 * t - 1) + (1 << widths[a]) - 1;
            poly[at] += Ghash128::ONE;
            let (bad, bad_data) = pcs.commit(&poly);
            let proof = setup
                .prove_io(variant, &pcs, &bad, &bad_data, &inputs)
                .unwrap();
            assert!(
                setup.verify_io(variant, &pcs, &bad, &proof).is_err(),
                "{variant:?}: region {a}'s wrong output accepted"
            );
        }
    }
    // The inputs' layout is one variable short.
    let short = ligerito(setup.input_layout().num_vars());
    assert!(matches!(
        setup.commit_io(&short, &inputs),
        Err(ProveError::Witness(_))
    ));
    assert!(matches!(
        setup.verify_io(Variant::Ragged, &short, &commitment, &[]),
        Err(GkrError::Statement(_))
    ));
    assert!(matches!(
        setup.verify_io(Variant::Ragged, &pcs, &commitment, &[0; 40]),
        Err(GkrError::ProofLength { .. })
    ));
}

/// The mutation harness over committed-IO proofs of the three variants.
#[test]
fn committed_io_proofs_reject_sampled_mutations() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![1, 2];
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths.clone());
    let pcs = ligerito(setup.io_layout().num_vars());
    let inputs = random_inputs::<Ghash128>(9, relation.lanes(), &widths);
    let (commitment, data) = setup.commit_io(&pcs, &inputs).unwrap();
    for variant in Variant::ALL {
        let proof = setup
            .prove_io(variant, &pcs, &commitment, &data, &inputs)
            .unwrap();
        let name = format!("gkr-committed-io/{}", variant.name());
        check_mutations(&name, &proof, budget(), |bytes| {
            setup.verify_io(variant, &pcs, &commitment, bytes)
        });
    }
}
