//! The harness of `flockwork::engines`: every (relation, batcher, commitment, transcript)
//! combination it lists (Keccak-f by batch-R1CS and by GKR on its Boolean layers) proves,
//! verifies and matches the relation's native evaluation; a
//! statement with a changed output or input, in the first or the last instance, is rejected
//! by every batcher; a proof made under one transcript is rejected under another; chains
//! of every Boolean hash prove and verify under batch-R1CS, and a changed start or end is
//! rejected; Merkle trees of SHA-256 and BLAKE3 likewise, with a changed root or leaf;
//! committed statements of batch-R1CS and of every GKR strategy over every commitment
//! verify, and are rejected with another commitment, other inputs or a changed proof byte;
//! batch-R1CS's independent and padded batchers bind the states where regions meet.

use flockwork::engines::boolean_gkr_batcher;
use flockwork::prelude::*;

fn sha256_inputs(n: usize) -> Vec<Sha256Input> {
    (0..n as u32)
        .map(|i| Sha256Input {
            state: [i.wrapping_mul(0x9e37_79b9); 8],
            block: [i as u8 ^ 0x5a; 64],
        })
        .collect()
}

fn blake3_inputs(n: usize) -> Vec<Blake3Input> {
    (0..n as u32)
        .map(|i| Blake3Input {
            cv: [i ^ 0x6a09_e667; 8],
            block: Blake3Block {
                words: [i.wrapping_mul(7); 16],
                counter: u64::from(i),
                block_len: 64,
                flags: 1,
            },
        })
        .collect()
}

fn poseidon2b_inputs(n: usize) -> Vec<[Ghash128; 4]> {
    (0..n as u128)
        .map(|i| [0, 1, 2, 3].map(|j| Ghash128::new(4 * i + j + 11)))
        .collect()
}

fn with(transcript: TranscriptKind) -> Choices {
    Choices {
        transcript,
        ..Choices::default()
    }
}

/// Every batcher listed proves and verifies its statement; changing one output or one input
/// of the first or the last instance makes every one of them reject the honest proof.
fn every_batcher_proves_and_rejects_changes<R: Provable>(
    relation: &R,
    inputs: Vec<R::Input>,
    choices: &Choices,
    expected: usize,
    change_output: impl Fn(&mut R::Output),
    change_input: impl Fn(&mut R::Input),
) {
    let statement = Statement::public(relation, inputs.clone());
    let batchers: Vec<_> = batchers_for(relation, inputs.len(), choices)
        .into_iter()
        .filter(|b| b.supports(IoKind::Public))
        .collect();
    assert_eq!(batchers.len(), expected, "{}", relation.name());
    for b in &batchers {
        assert!(
            b.soundness_bits() >= 100.0,
            "{}: {}",
            b.name(),
            b.soundness_bits()
        );
        let proof = b.prove(&inputs, &statement).unwrap();
        b.verify(&statement, &proof)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        for i in [0, inputs.len() - 1] {
            let mut wrong = statement.clone();
            let Io::Public { outputs, .. } = &mut wrong.io else {
                unreachable!("a public statement")
            };
            change_output(&mut outputs[i]);
            assert!(
                matches!(b.verify(&wrong, &proof), Err(BatchError::Rejected(_))),
                "{}: output {i} changed, accepted",
                b.name()
            );
            let mut wrong = statement.clone();
            let Io::Public { inputs, .. } = &mut wrong.io else {
                unreachable!("a public statement")
            };
            change_input(&mut inputs[i]);
            assert!(
                matches!(b.verify(&wrong, &proof), Err(BatchError::Rejected(_))),
                "{}: input {i} changed, accepted",
                b.name()
            );
        }
        // The statement for another count is not this batcher's.
        let shorter = Statement::public(relation, inputs[1..].to_vec());
        assert!(matches!(
            b.verify(&shorter, &proof),
            Err(BatchError::Unsupported(_))
        ));
    }
}

#[test]
fn sha256_over_every_commitment_and_transcript() {
    for (transcript, count) in TranscriptKind::ALL.into_iter().zip([2, 3, 5]) {
        every_batcher_proves_and_rejects_changes(
            &Sha256Compress,
            sha256_inputs(count),
            &with(transcript),
            9,
            |y| y[7] ^= 1 << 31,
            |x| x.block[63] ^= 1,
        );
    }
}

#[test]
fn blake3_and_keccak_over_every_commitment() {
    let choices = Choices::default();
    every_batcher_proves_and_rejects_changes(
        &Blake3Compress,
        blake3_inputs(3),
        &choices,
        9,
        |y| y[15] ^= 1,
        |x| x.block.flags ^= 8,
    );
    // Batch-R1CS's three strategies over each commitment, and the three GKR strategies on
    // the Boolean layers (three instances: regions of two and one).
    every_batcher_proves_and_rejects_changes(
        &KeccakF1600::new(),
        vec![[3; 25], [5; 25], [9; 25]],
        &choices,
        12,
        |y| y[24] ^= 1 << 63,
        |x| x[0] ^= 1,
    );
}

#[test]
fn poseidon2b_over_every_gkr_strategy_and_transcript() {
    let relation = Poseidon2bRelation::official();
    for transcript in TranscriptKind::ALL {
        every_batcher_proves_and_rejects_changes(
            &relation,
            poseidon2b_inputs(5),
            &with(transcript),
            3,
            |y| y[3] += Ghash128::ONE,
            |x| x[0] += Ghash128::ONE,
        );
    }
}

/// Poseidon2 over BN254's scalar field through the same GKR strategies, challenges in the
/// field: public IO under every transcript, committed IO with FRI (BaseFold; Ligerito and
/// Blaze are binary-field schemes and list no BN254 batcher).
#[test]
fn poseidon2_over_bn254_through_every_gkr_strategy() {
    use flockwork::field::PrimeField;
    use flockwork::prime::Bn254Fr;
    let relation =
        flockwork::poseidon2::Poseidon2Relation::new(flockwork::poseidon2::instances::bn254_t3());
    let inputs: Vec<Vec<Bn254Fr>> = (0..3u64)
        .map(|i| (0..3).map(|j| Bn254Fr::from_u64(10 * i + j)).collect())
        .collect();
    for transcript in TranscriptKind::ALL {
        every_batcher_proves_and_rejects_changes(
            &relation,
            inputs.clone(),
            &with(transcript),
            3,
            |y| y[2] += Bn254Fr::ONE,
            |x| x[0] += Bn254Fr::ONE,
        );
    }
    let mut other = inputs.clone();
    other[2][1] += Bn254Fr::ONE;
    every_batcher_proves_committed(&relation, &inputs, &other, 3);
    let names: Vec<String> = batchers_for(&relation, 3, &Choices::default())
        .iter()
        .map(|b| b.name())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !n.contains("ligerito") && !n.contains("blaze"))
    );
    // The listing keeps them, unavailable with their reason, and so does the comparison: a
    // row each, never a silent omission.
    let unavailable: Vec<_> = listing(&relation, 3, &Choices::default())
        .into_iter()
        .filter_map(|b| b.unavailable().map(|why| (b.name(), why)))
        .collect();
    assert_eq!(unavailable.len(), 6, "{unavailable:?}");
    for (name, why) in &unavailable {
        assert!(
            name.contains("ligerito") || name.contains("blaze"),
            "{name}"
        );
        assert!(why.contains("binary-field polynomials only"), "{why}");
    }
    let rows = compare_committed(&relation, &inputs, &Choices::default()).unwrap();
    assert_eq!(rows.len(), 9);
    for row in rows.iter().filter(|r| r.name.contains("blaze")) {
        let failure = row.failure.as_deref().unwrap_or_default();
        assert!(
            failure.contains("binary-field polynomials only"),
            "{failure}"
        );
        assert_eq!(row.proof_bytes, 0);
    }
}

/// A batcher that refuses or is rejected is a row with its reason, and the comparison goes on
/// to the next: a statement whose outputs are not the relation's is rejected by every
/// batcher, each in its row.
#[test]
fn a_rejected_proof_is_a_row_and_the_comparison_goes_on() {
    let relation = Poseidon2bRelation::official();
    let inputs = poseidon2b_inputs(3);
    let mut statement = Statement::public(&relation, inputs.clone());
    let Io::Public { outputs, .. } = &mut statement.io else {
        unreachable!("a public statement")
    };
    outputs[1][0] += Ghash128::ONE;
    let rows = compare_statement(&relation, &inputs, &statement, &Choices::default()).unwrap();
    assert_eq!(rows.len(), 3);
    for row in &rows {
        let failure = row.failure.as_deref().unwrap_or_default();
        assert!(failure.contains("rejected"), "{}: {failure}", row.name);
    }
}

/// Batch-R1CS and the GKR walks (Poseidon2b, Keccak-f's Boolean layers) prove any count;
/// nothing proves no instances.
#[test]
fn the_listing_depends_on_the_count() {
    let choices = Choices::default();
    assert!(batchers_for(&Sha256Compress, 0, &choices).is_empty());
    assert_eq!(batchers_for(&Sha256Compress, 3, &choices).len(), 9);
    // Keccak-f: batch-R1CS's three strategies over each commitment; the three GKR strategies
    // for public IO and each again over each (ring-switched) commitment for committed IO.
    for count in [3, 4] {
        let keccak = batchers_for(&KeccakF1600::new(), count, &choices);
        assert_eq!(keccak.len(), 21);
        assert_eq!(
            keccak.iter().filter(|b| b.supports(IoKind::Public)).count(),
            12
        );
        assert_eq!(
            keccak
                .iter()
                .filter(|b| b.supports(IoKind::Committed) && b.name().starts_with("GKR"))
                .count(),
            9
        );
    }
    // Three public-IO strategies, and each again over each commitment for committed IO.
    let gkr = batchers_for(&Poseidon2bRelation::official(), 3, &choices);
    assert_eq!(gkr.len(), 12);
    assert_eq!(gkr.iter().filter(|b| b.supports(IoKind::Public)).count(), 3);
    assert_eq!(
        gkr.iter().filter(|b| b.supports(IoKind::Committed)).count(),
        9
    );
    let rows = compare(
        &Poseidon2bRelation::official(),
        poseidon2b_inputs(3),
        &choices,
    )
    .unwrap();
    assert_eq!(rows.len(), 3);
}

/// A proof made under one transcript is rejected under every other, for each engine.
#[test]
fn proofs_do_not_cross_transcripts() {
    /// The public-IO batchers under transcript `kind`, in the harness's order.
    fn public<R: Provable>(
        relation: &R,
        count: usize,
        kind: TranscriptKind,
    ) -> Vec<Box<dyn Batcher<R>>> {
        let mut batchers = batchers_for(relation, count, &with(kind));
        batchers.retain(|b| b.supports(IoKind::Public));
        batchers
    }
    fn check<R: Provable>(relation: &R, inputs: Vec<R::Input>, engine: usize) {
        let statement = Statement::public(relation, inputs.clone());
        for a in TranscriptKind::ALL {
            let prover = public(relation, inputs.len(), a).remove(engine);
            let proof = prover.prove(&inputs, &statement).unwrap();
            for b in TranscriptKind::ALL.into_iter().filter(|&b| b != a) {
                let verifier = public(relation, inputs.len(), b).remove(engine);
                assert!(
                    verifier.verify(&statement, &proof).is_err(),
                    "{} proof accepted by {}",
                    prover.name(),
                    verifier.name()
                );
            }
        }
    }
    check(&Blake3Compress, blake3_inputs(2), 0);
    check(&Poseidon2bRelation::official(), poseidon2b_inputs(2), 0);
    // After batch-R1CS's nine, Keccak-f's batchers are GKR on its Boolean layers.
    check(&KeccakF1600::new(), vec![[1; 25], [2; 25]], 9);
}

/// `inputs` made into a chain: each input after the first carries its predecessor's output
/// state (`set_state`).
fn chained<R: Relation>(
    relation: &R,
    mut inputs: Vec<R::Input>,
    set_state: impl Fn(&mut R::Input, R::State),
) -> Vec<R::Input> {
    for i in 1..inputs.len() {
        let previous = relation.evaluate(&inputs[i - 1]);
        let state = relation
            .output_state(&previous)
            .expect("the relation chains");
        set_state(&mut inputs[i], state);
    }
    inputs
}

/// Every batcher that lists chains proves the chain through `inputs` and verifies it; a
/// changed start or end state is rejected, the proof is not one of the public-IO statement,
/// and inputs that do not chain are refused.
fn every_batcher_proves_a_chain<R: Provable>(
    relation: &R,
    inputs: Vec<R::Input>,
    expected: usize,
    change_state: impl Fn(&mut R::State),
    break_chain: impl Fn(&mut R::Input),
) {
    let statement = Statement::chain(relation, &inputs).unwrap();
    assert_eq!(statement.kind(), IoKind::Chain);
    assert_eq!(statement.count(), inputs.len());
    let rows = compare_statement(relation, &inputs, &statement, &Choices::default()).unwrap();
    assert_eq!(rows.len(), expected, "{}", relation.name());
    for b in batchers_for(relation, inputs.len(), &Choices::default()) {
        if !b.supports(IoKind::Chain) {
            continue;
        }
        let proof = b.prove(&inputs, &statement).unwrap();
        b.verify(&statement, &proof)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        for which in ["start", "end"] {
            let mut wrong = statement.clone();
            let Io::Chain { start, end, .. } = &mut wrong.io else {
                unreachable!("a chain")
            };
            change_state(if which == "start" { start } else { end });
            assert!(
                matches!(b.verify(&wrong, &proof), Err(BatchError::Rejected(_))),
                "{}: the chain's {which} changed, accepted",
                b.name()
            );
        }
        let public = Statement::public(relation, inputs.clone());
        assert!(b.verify(&public, &proof).is_err(), "{}", b.name());
    }
    let mut broken = inputs.clone();
    break_chain(broken.last_mut().unwrap());
    assert!(matches!(
        Statement::chain(relation, &broken),
        Err(BatchError::Prove(_))
    ));
}

#[test]
fn chains_of_every_boolean_hash_under_batch_r1cs() {
    // Three steps (regions of two and one) and seven (four, two, one).
    let sha256 = chained(&Sha256Compress, sha256_inputs(3), |x, s| x.state = s);
    every_batcher_proves_a_chain(
        &Sha256Compress,
        sha256,
        9,
        |s| s[0] ^= 1,
        |x| x.state[7] ^= 1 << 31,
    );
    let sha256 = chained(&Sha256Compress, sha256_inputs(7), |x, s| x.state = s);
    every_batcher_proves_a_chain(
        &Sha256Compress,
        sha256,
        9,
        |s| s[0] ^= 1,
        |x| x.state[7] ^= 1 << 31,
    );
    let blake3 = chained(&Blake3Compress, blake3_inputs(2), |x, s| x.cv = s);
    every_batcher_proves_a_chain(&Blake3Compress, blake3, 9, |s| s[7] ^= 1, |x| x.cv[0] ^= 1);
    let keccak = KeccakF1600::new();
    let states = chained(&keccak, vec![[7; 25]; 3], |x, s| *x = s);
    every_batcher_proves_a_chain(&keccak, states, 9, |s| s[24] ^= 1, |x| x[3] ^= 1);
}

/// The GKR walks prove public statements only: a Poseidon2b chain is a statement (the
/// permutation chains), and no GKR batcher lists or accepts it.
#[test]
fn gkr_batchers_do_not_take_chains() {
    let relation = Poseidon2bRelation::official();
    let inputs = chained(&relation, poseidon2b_inputs(3), |x, s| *x = s);
    let statement = Statement::chain(&relation, &inputs).unwrap();
    let choices = Choices::default();
    assert!(
        compare_statement(&relation, &inputs, &statement, &choices)
            .unwrap()
            .is_empty()
    );
    for b in batchers_for(&relation, 3, &choices) {
        assert!(!b.supports(IoKind::Chain));
        assert!(matches!(
            b.verify(&statement, b"any bytes"),
            Err(BatchError::Unsupported(_))
        ));
    }
}

/// Every batcher that lists Merkle trees proves the tree over `leaves` and verifies it; a
/// changed root, first leaf or last leaf is rejected, and the proof is not one of the
/// public-IO statement of the same instances.
fn every_batcher_proves_a_tree<R: Provable>(
    relation: &R,
    leaves: &[R::State],
    change: impl Fn(&mut R::State),
) {
    let (statement, inputs) = Statement::merkle(relation, leaves).unwrap();
    assert_eq!(statement.kind(), IoKind::Merkle);
    assert_eq!(
        (statement.count(), inputs.len()),
        (leaves.len(), leaves.len())
    );
    let rows = compare_statement(relation, &inputs, &statement, &Choices::default()).unwrap();
    // The ragged batcher over each commitment: a tree does not split into regions.
    assert_eq!(rows.len(), 3, "{}", relation.name());
    for b in batchers_for(relation, leaves.len(), &Choices::default()) {
        if !b.supports(IoKind::Merkle) {
            assert!(matches!(
                b.prove(&inputs, &statement),
                Err(BatchError::Unsupported(_))
            ));
            continue;
        }
        assert!(b.name().contains("ragged"), "{}", b.name());
        let proof = b.prove(&inputs, &statement).unwrap();
        b.verify(&statement, &proof)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        for which in ["root", "first leaf", "last leaf"] {
            let mut wrong = statement.clone();
            let Io::Merkle { leaves, root } = &mut wrong.io else {
                unreachable!("a tree")
            };
            change(match which {
                "root" => root,
                "first leaf" => &mut leaves[0],
                _ => leaves.last_mut().unwrap(),
            });
            assert!(
                matches!(b.verify(&wrong, &proof), Err(BatchError::Rejected(_))),
                "{}: the tree's {which} changed, accepted",
                b.name()
            );
        }
        let public = Statement::public(relation, inputs.clone());
        assert!(b.verify(&public, &proof).is_err(), "{}", b.name());
    }
}

#[test]
fn merkle_trees_of_sha256_and_blake3_under_batch_r1cs() {
    use flockwork::boolean::io::MerkleNode;
    let leaves: Vec<[u32; 8]> = (0..4u32)
        .map(|i| [i.wrapping_mul(0x0101_0101); 8])
        .collect();
    every_batcher_proves_a_tree(&Sha256Compress, &leaves, |d| d[0] ^= 1);
    let leaves8: Vec<[u32; 8]> = (0..8u32).map(|i| [i ^ 0x5a5a_5a5a; 8]).collect();
    every_batcher_proves_a_tree(&Blake3Compress, &leaves8, |d| d[7] ^= 1 << 31);
    // Trees over any number of leaves: the left-complete tree.
    every_batcher_proves_a_tree(&Sha256Compress, &leaves[..3], |d| d[3] ^= 1);
    every_batcher_proves_a_tree(&Blake3Compress, &leaves8[..5], |d| d[0] ^= 1);
    // The root is the gadgets' own Merkle node hash.
    fn root<R: Relation>(relation: &R, leaves: &[R::State]) -> R::State {
        let Io::Merkle { root, .. } = Statement::merkle(relation, leaves).unwrap().0.io else {
            unreachable!("a tree")
        };
        root
    }
    assert_eq!(
        root(&Sha256Compress, &leaves[..2]),
        Sha256Compress.node_digest(&leaves[0], &leaves[1])
    );
    assert_eq!(
        root(&Blake3Compress, &leaves[..2]),
        Blake3Compress.node_digest(&leaves[0], &leaves[1])
    );
}

#[test]
fn trees_need_merkle_nodes_and_two_leaves() {
    let keccak = KeccakF1600::new();
    assert!(matches!(
        Statement::merkle(&keccak, &[[0; 25]; 2]),
        Err(BatchError::Unsupported(_))
    ));
    for b in batchers_for(&keccak, 2, &Choices::default()) {
        assert!(!b.supports(IoKind::Merkle));
    }
    for n in [0, 1] {
        assert!(matches!(
            Statement::merkle(&Sha256Compress, &vec![[0; 8]; n]),
            Err(BatchError::Unsupported(_))
        ));
    }
}

/// Every batcher that proves committed statements proves the one its commitment makes; a
/// statement with another commitment (a flipped byte, or the commitment of other inputs),
/// a changed proof byte and a committed statement shared between batchers are rejected; a
/// prover given other inputs than the committed ones refuses or is rejected.
fn every_batcher_proves_committed<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    other: &[R::Input],
    expected: usize,
) {
    let rows = compare_committed(relation, inputs, &Choices::default()).unwrap();
    let proved = rows.iter().filter(|r| r.failure.is_none()).count();
    assert_eq!(proved, expected, "{}", relation.name());
    // The rest are listed batchers whose setup could not be built, each with its reason.
    for r in rows.iter().filter(|r| r.failure.is_some()) {
        let failure = r.failure.as_deref().unwrap_or_default();
        assert!(
            failure.starts_with("unavailable: "),
            "{}: {failure}",
            r.name
        );
    }
    let batchers: Vec<_> = batchers_for(relation, inputs.len(), &Choices::default())
        .into_iter()
        .filter(|b| b.supports(IoKind::Committed))
        .collect();
    let commitments: Vec<Vec<u8>> = batchers.iter().map(|b| b.commit(inputs).unwrap()).collect();
    for (b, commitment) in batchers.iter().zip(&commitments) {
        assert!(
            b.soundness_bits() >= 100.0,
            "{}: {}",
            b.name(),
            b.soundness_bits()
        );
        let statement = Statement::committed(inputs.len(), commitment.clone());
        let proof = b.prove(inputs, &statement).unwrap();
        b.verify(&statement, &proof)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        let rejected = |statement: &Statement<R>, proof: &[u8], what: &str| {
            assert!(
                matches!(b.verify(statement, proof), Err(BatchError::Rejected(_))),
                "{}: {what}, accepted",
                b.name()
            );
        };
        let mut flipped = commitment.clone();
        flipped[0] ^= 1;
        rejected(
            &Statement::committed(inputs.len(), flipped),
            &proof,
            "a flipped commitment",
        );
        let theirs = Statement::committed(inputs.len(), b.commit(other).unwrap());
        rejected(&theirs, &proof, "the commitment of other inputs");
        for at in [0, proof.len() / 2, proof.len() - 1] {
            let mut changed = proof.clone();
            changed[at] ^= 0x10;
            rejected(&statement, &changed, "a changed proof byte");
        }
        // Other inputs than the committed ones: refused, or a proof that is rejected.
        if let Ok(proof) = b.prove(other, &statement) {
            rejected(&statement, &proof, "other inputs");
        }
        // Another batcher's commitment is not this one's.
        for c in commitments.iter().filter(|c| *c != commitment) {
            rejected(
                &Statement::committed(inputs.len(), c.clone()),
                &proof,
                "another batcher's commitment",
            );
        }
        assert!(matches!(
            b.verify(
                &Statement::committed(inputs.len() + 1, commitment.clone()),
                &proof
            ),
            Err(BatchError::Unsupported(_))
        ));
    }
}

#[test]
fn committed_statements_of_sha256_under_batch_r1cs() {
    let inputs = sha256_inputs(3);
    let mut other = inputs.clone();
    other[1].block[0] ^= 1;
    every_batcher_proves_committed(&Sha256Compress, &inputs, &other, 9);
}

#[test]
fn committed_statements_of_poseidon2b_under_every_gkr_strategy() {
    let inputs = poseidon2b_inputs(5);
    let mut other = inputs.clone();
    other[4][3] += Ghash128::ONE;
    every_batcher_proves_committed(&Poseidon2bRelation::official(), &inputs, &other, 9);
}

/// The one-batcher entry point: each strategy, public or over each scheme, proves and
/// verifies its statement.
#[test]
fn one_boolean_gkr_batcher_at_a_time() {
    let keccak = KeccakF1600::new();
    let inputs = vec![[1; 25], [2; 25], [4; 25], [8; 25], [16; 25]];
    let choices = Choices::default();
    for variant in Variant::ALL {
        let public = boolean_gkr_batcher(&keccak, 5, variant, None, &choices).unwrap();
        let statement = Statement::public(&keccak, inputs.clone());
        let proof = public.prove(&inputs, &statement).unwrap();
        public.verify(&statement, &proof).unwrap();
        assert!(public.soundness_bits() >= 100.0);
        for scheme in PcsKind::ALL {
            let b = boolean_gkr_batcher(&keccak, 5, variant, Some(scheme), &choices).unwrap();
            assert!(b.name().contains(scheme.name()), "{}", b.name());
            let statement = Statement::committed(5, b.commit(&inputs).unwrap());
            let proof = b.prove(&inputs, &statement).unwrap();
            b.verify(&statement, &proof).unwrap();
            assert!(b.soundness_bits() >= 100.0, "{}", b.soundness_bits());
        }
    }
    assert!(boolean_gkr_batcher(&keccak, 0, Variant::Ragged, None, &choices).is_none());
}

#[test]
fn committed_statements_of_keccak_under_batch_r1cs_and_every_gkr_strategy() {
    let inputs = vec![[3; 25], [5; 25], [9; 25]];
    let mut other = inputs.clone();
    other[2][24] ^= 1 << 40;
    every_batcher_proves_committed(&KeccakF1600::new(), &inputs, &other, 18);
}

/// A committed statement is one batcher's: the harness compares it per batcher.
#[test]
fn compare_statement_refuses_committed_statements() {
    let statement = Statement::<Sha256Compress>::committed(2, vec![0; 32]);
    assert!(matches!(
        compare_statement(
            &Sha256Compress,
            &sha256_inputs(2),
            &statement,
            &Choices::default()
        ),
        Err(BatchError::Unsupported(_))
    ));
}

/// The independent and padded batch-R1CS batchers send the state where regions meet: a
/// changed meeting state, a chain broken exactly where regions meet, a truncated proof and
/// trailing bytes are all rejected (never a panic).
#[test]
fn region_batchers_bind_where_regions_meet() {
    let relation = Sha256Compress;
    let inputs = chained(&relation, sha256_inputs(3), |x, s| x.state = s);
    let statement = Statement::chain(&relation, &inputs).unwrap();
    // Regions of two and one: instance 2 starts the second region.
    let mut broken = inputs.clone();
    broken[2].state[0] ^= 1;
    let outputs = relation.evaluate_batch(&broken);
    let broken_statement = Statement {
        io: Io::Chain {
            count: 3,
            start: broken[0].state,
            end: relation.output_state(&outputs[2]).unwrap(),
        },
    };
    let choices = Choices {
        schemes: vec![PcsKind::Ligerito],
        variants: vec![Variant::Independent, Variant::Padded],
        ..Choices::default()
    };
    let batchers = batchers_for(&relation, 3, &choices);
    assert_eq!(batchers.len(), 2);
    for b in &batchers {
        let rejected = |proof: &[u8], what: &str| {
            assert!(
                matches!(b.verify(&statement, proof), Err(BatchError::Rejected(_))),
                "{}: {what}, accepted",
                b.name()
            );
        };
        let proof = b.prove(&inputs, &statement).unwrap();
        b.verify(&statement, &proof).unwrap();
        // Magic and version (six bytes), two counts (u32), then the one meeting state (eight
        // words).
        for at in [14, 14 + 31, 14 + 63] {
            let mut moved = proof.clone();
            moved[at] ^= 1;
            rejected(&moved, "a changed meeting state");
        }
        for len in [0, 4, 6, 14, 46, 78, 82, proof.len() / 2, proof.len() - 1] {
            rejected(&proof[..len], "a truncated proof");
        }
        let mut longer = proof.clone();
        longer.push(0);
        rejected(&longer, "trailing bytes");
        for at in [0, 4] {
            let mut other = proof.clone();
            other[at] ^= 1;
            rejected(&other, "another magic or format version");
        }
        // The broken chain is no chain: refused, or a proof that is rejected.
        if let Ok(cheat) = b.prove(&broken, &broken_statement) {
            assert!(
                b.verify(&broken_statement, &cheat).is_err(),
                "{}: a chain broken where regions meet, accepted",
                b.name()
            );
        }
    }
}

/// A seeded sample of single-byte changes, truncations and appended bytes of an independent
/// and a padded batch-R1CS chain proof (two regions, the meeting state and both proofs'
/// framing included) is rejected, and the verifier never panics.
#[test]
fn region_batcher_proofs_reject_sampled_mutations() {
    use flockwork_testkit::mutation::{MutationBudget, check_mutations};
    let relation = Blake3Compress;
    let inputs = chained(&relation, blake3_inputs(3), |x, s| x.cv = s);
    let statement = Statement::chain(&relation, &inputs).unwrap();
    let choices = Choices {
        schemes: vec![PcsKind::Ligerito],
        variants: vec![Variant::Independent, Variant::Padded],
        ..Choices::default()
    };
    for b in batchers_for(&relation, 3, &choices) {
        let proof = b.prove(&inputs, &statement).unwrap();
        let budget = MutationBudget {
            exhaustive_limit: 800,
            truncation_limit: 200,
            seed: 0x7265_6769_6f6e,
        };
        check_mutations(
            &format!("engines/blake3 chain, {}", b.name()),
            &proof,
            budget,
            |bytes| b.verify(&statement, bytes),
        );
    }
}

/// The compiled engine's batchers, which compile the circuit on first use, are named as the
/// Boolean GKR batchers of the compiled layers are, with `[compiled]`, and prove through them.
#[test]
fn compiled_batchers_are_the_compiled_layers_batchers() {
    use flockwork::circuit::layers::CompiledLayers;
    use flockwork::engines::{boolean_layers, compiled};
    let relation = Sha256Compress::default();
    let choices = Choices {
        compiled: true,
        ..Choices::default()
    };
    let lazy: Vec<String> = compiled(&relation, 3, &choices)
        .iter()
        .map(|b| b.name())
        .collect();
    let layers = CompiledLayers::new(relation).unwrap();
    let eager: Vec<String> = boolean_layers(&layers, 3, &choices)
        .iter()
        .map(|b| format!("{} [compiled]", b.name()))
        .collect();
    assert_eq!(lazy, eager);
    assert_eq!(lazy.len(), 3 + 9);
    // Not listed without the choice.
    assert!(compiled(&relation, 3, &Choices::default()).is_empty());
}
