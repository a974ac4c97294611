//! SHA-1's compression in the comparison, from its one registration line
//! (`flockwork::provable!(Sha1Compress: circuit, compiled)` in the crate; no batcher code):
//! listed with every batch-R1CS strategy × commitment and every compiled Boolean GKR strategy ×
//! (public IO, committed IO over each commitment); every batch-R1CS batcher proves and
//! verifies public IO, a chain and (ragged) a Merkle tree of 5 instances, matching the native
//! evaluation and rejecting an output bit flipped in the first and the last instance; a setup
//! that cannot be built is a row with its reason. (The compiled GKR's proofs are the
//! `gkr` module's: tens of MB each.)

use crate::inputs;
use flockwork::engines::{Choices, System, batchers_for, compare_statement, listing};
use flockwork_core::Relation;
use flockwork_core::relation::{Io, IoKind, Statement};
use flockwork_gkr::Variant;
use flockwork_outside::{IV, Sha1Compress, Sha1Input, compress};
use flockwork_pcs::PcsKind;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const COUNT: usize = 5;

fn batch_r1cs() -> Choices {
    Choices {
        systems: vec![System::BatchR1cs],
        ..Choices::default()
    }
}

#[test]
fn the_registration_lists_every_strategy_of_both_engines() {
    let choices = Choices {
        compiled: true,
        ..Choices::default()
    };
    let names: Vec<String> = listing(&Sha1Compress, COUNT, &choices)
        .iter()
        .map(|b| b.name())
        .collect();
    for scheme in PcsKind::ALL {
        for variant in Variant::ALL {
            let r1cs = format!("batch-R1CS {variant} / {scheme} / sha256");
            let gkr = format!("GKR boolean {variant} / {scheme} / sha256 [compiled]");
            assert!(names.contains(&r1cs), "{r1cs} in {names:?}");
            assert!(names.contains(&gkr), "{gkr} in {names:?}");
        }
    }
    for variant in Variant::ALL {
        let public = format!("GKR boolean {variant} / sha256 [compiled]");
        assert!(names.contains(&public), "{public} in {names:?}");
    }
    assert_eq!(names.len(), 9 + 3 + 9, "{names:?}");
    // Without the compiled layers (the default), batch-R1CS only.
    assert_eq!(listing(&Sha1Compress, COUNT, &Choices::default()).len(), 9);
}

#[test]
fn every_batch_r1cs_batcher_proves_public_io_and_rejects_flipped_outputs() {
    let inputs = inputs(COUNT, 0x5a1);
    let statement = Statement::public(&Sha1Compress, inputs.clone());
    let Io::Public { outputs, .. } = &statement.io else {
        unreachable!("a public statement")
    };
    for (x, y) in inputs.iter().zip(outputs) {
        assert_eq!(*y, compress(&x.state, &x.block));
    }
    let batchers = batchers_for(&Sha1Compress, COUNT, &batch_r1cs());
    assert_eq!(batchers.len(), 9);
    for b in &batchers {
        assert!(b.soundness_bits() >= 100.0, "{}", b.name());
        let proof = b.prove(&inputs, &statement).unwrap();
        b.verify(&statement, &proof)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        for i in [0, COUNT - 1] {
            let mut wrong = statement.clone();
            let Io::Public { outputs, .. } = &mut wrong.io else {
                unreachable!("a public statement")
            };
            outputs[i][2] ^= 1 << 9;
            assert!(b.verify(&wrong, &proof).is_err(), "{}: {i}", b.name());
        }
    }
}

#[test]
fn chains_and_trees_come_from_what_the_relation_declares() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc4a1);
    let mut state = IV;
    let chain: Vec<Sha1Input> = (0..COUNT)
        .map(|_| {
            let x = Sha1Input {
                state,
                block: rng.random(),
            };
            state = Sha1Compress.evaluate(&x);
            x
        })
        .collect();
    let statement = Statement::chain(&Sha1Compress, &chain).unwrap();
    let rows = compare_statement(&Sha1Compress, &chain, &statement, &batch_r1cs()).unwrap();
    assert_eq!(rows.len(), 9);
    for row in &rows {
        assert_eq!(row.failure, None, "{}", row.name);
    }
    let leaves: Vec<[u32; 5]> = (0..COUNT).map(|_| rng.random()).collect();
    let (tree, nodes) = Statement::merkle(&Sha1Compress, &leaves).unwrap();
    let rows = compare_statement(&Sha1Compress, &nodes, &tree, &batch_r1cs()).unwrap();
    assert_eq!(rows.len(), 3, "the ragged batchers prove trees");
    for row in &rows {
        assert_eq!(row.failure, None, "{}", row.name);
    }
    // A wrong end is rejected by every batcher.
    let Io::Chain { count, start, end } = statement.io else {
        unreachable!("a chain")
    };
    let mut wrong_end = end;
    wrong_end[4] ^= 1;
    let wrong = Statement {
        io: Io::Chain {
            count,
            start,
            end: wrong_end,
        },
    };
    for b in batchers_for(&Sha1Compress, COUNT, &batch_r1cs()) {
        assert!(b.supports(IoKind::Chain), "{}", b.name());
        let proof = b.prove(&chain, &wrong).unwrap_or_default();
        assert!(b.verify(&wrong, &proof).is_err(), "{}", b.name());
    }
}

#[test]
fn a_setup_that_cannot_be_built_is_a_row_with_its_reason() {
    let choices = Choices {
        target_bits: 400,
        ..batch_r1cs()
    };
    let inputs = inputs(COUNT, 7);
    let statement = Statement::public(&Sha1Compress, inputs.clone());
    let rows = compare_statement(&Sha1Compress, &inputs, &statement, &choices).unwrap();
    assert_eq!(rows.len(), 9);
    for row in &rows {
        let failure = row.failure.as_deref().unwrap_or_default();
        assert!(
            failure.starts_with("unavailable: "),
            "{}: {failure}",
            row.name
        );
    }
    assert!(batchers_for(&Sha1Compress, COUNT, &choices).is_empty());
}
