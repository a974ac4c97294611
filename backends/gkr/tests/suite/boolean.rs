//! The Boolean GKR walk (`flockwork_gkr::boolean`): honest proofs verify for Keccak-f
//! (reduced and full rounds) and toy relations written with `BooleanLayersBuilder`, at
//! instance counts inside one word, exactly one word and several; false statements, edited
//! and truncated proofs are rejected; the mutation harness; the soundness at `k = 14`.

use flockwork_boolean::KeccakF1600;
use flockwork_core::PolynomialCommitment;
use flockwork_core::boolean_layered::{
    BooleanLayered, BooleanLayeredRelation, BooleanLayersBuilder,
};
use flockwork_gkr::boolean::{HEADER_LEN, PACKED_VARS, RETIRED_VERSIONS};
use flockwork_gkr::{BooleanGkr, BooleanStatement, GkrError, Variant};
use flockwork_pcs::ring_switch::RingSwitched;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind, Profile};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A relation given only by its description (native code: the default, the reference
/// evaluation).
struct Toy(BooleanLayered);

impl BooleanLayeredRelation for Toy {
    fn id(&self) -> Vec<u8> {
        b"toy".to_vec()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        &self.0
    }
}

/// Three layers of unequal widths (5 → 7 → 3 → 4 bits): χ-like gates with constants,
/// linear gates, a gate with affine factors and a constant output.
fn toy() -> Toy {
    let mut builder = BooleanLayersBuilder::new(5);
    builder.layer(|l| {
        for i in 0..7 {
            let a = l.xor(&l.bit(i % 5), &l.bit((i + 2) % 5));
            let b = l.not(&l.bit((i + 1) % 5));
            let c = l.xor(&l.bit((i + 3) % 5), &l.bit((i + 4) % 5));
            if i == 4 {
                l.output(a);
            } else {
                l.output(l.and(&b, &c).xor(&a));
            }
        }
    });
    builder.layer(|l| {
        l.output(l.and(&l.bit(0), &l.bit(6)).xor(&l.bit(3)));
        l.output(l.not(&l.xor_all((0..7).map(|i| l.bit(i)))));
        l.output(l.and(&l.not(&l.bit(2)), &l.not(&l.bit(5))).xor(&l.bit(1)));
    });
    builder.layer(|l| {
        for i in 0..4 {
            let f = l.and(
                &l.bit(i % 3),
                &l.xor(&l.bit((i + 1) % 3), &l.bit((i + 2) % 3)),
            );
            l.output(f.xor(&l.bit((i + 2) % 3)));
        }
    });
    Toy(builder.build().unwrap())
}

fn random_words(rng: &mut ChaCha8Rng, width: usize, count: usize) -> Vec<u64> {
    let per = width.div_ceil(64);
    (0..count * per)
        .map(|i| {
            let w: u64 = rng.random();
            let bits = width - 64 * (i % per);
            if bits >= 64 {
                w
            } else {
                w & ((1u64 << bits) - 1)
            }
        })
        .collect()
}

fn honest<R: BooleanLayeredRelation + Sync>(
    setup: &BooleanGkr<R>,
    variant: Variant,
    seed: u64,
) -> (BooleanStatement, Vec<u8>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let layers = setup.relation().boolean_layers();
    let inputs = random_words(&mut rng, layers.input_width(), setup.count());
    let statement = setup.statement(inputs);
    let proof = setup.prove(variant, &statement).unwrap();
    assert_eq!(proof.len(), setup.proof_len(variant));
    (statement, proof)
}

/// Flips bit `bit` of instance `instance` in `words` of `width`-bit states.
fn flip(words: &mut [u64], width: usize, instance: usize, bit: usize) {
    words[instance * width.div_ceil(64) + bit / 64] ^= 1 << (bit % 64);
}

/// Region shapes: one region inside a word, a word, several words; regions of unequal size
/// (inside one word, across words), equal regions, a count's binary digits.
const SHAPES: [&[usize]; 8] = [
    &[0],
    &[3],
    &[7],
    &[9],
    &[2, 0, 3],
    &[7, 1, 6],
    &[0, 0],
    &[6, 4, 1, 0],
];

#[test]
fn toy_honest_proofs_verify_for_every_variant_and_shape() {
    for (i, widths) in SHAPES.iter().enumerate() {
        let setup = BooleanGkr::<_>::new(toy(), widths.to_vec());
        assert_eq!(setup.widths(), *widths);
        assert_eq!(setup.max_width(), widths.iter().copied().max().unwrap());
        assert_eq!(
            setup.count(),
            widths.iter().map(|&w| 1usize << w).sum::<usize>()
        );
        for variant in Variant::ALL {
            let (statement, proof) = honest(&setup, variant, 10 + i as u64);
            setup.verify(variant, &statement, &proof).unwrap();
            // A proof of one variant is not a proof of another.
            for other in Variant::ALL.into_iter().filter(|&v| v != variant) {
                assert!(setup.verify(other, &statement, &proof).is_err());
            }
        }
    }
}

#[test]
fn keccak_reduced_rounds_verify() {
    for (rounds, widths) in [
        (1, vec![0]),
        (2, vec![3]),
        (2, vec![6]),
        (2, vec![8]),
        (3, vec![7]),
        (2, vec![7, 3, 0]),
    ] {
        let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(rounds), widths.clone());
        for variant in Variant::ALL {
            let (statement, proof) = honest(&setup, variant, 100 + widths[0] as u64);
            setup.verify(variant, &statement, &proof).unwrap();
        }
    }
}

#[test]
fn keccak_full_rounds_verify() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), vec![4, 2]);
    let (statement, proof) = honest(&setup, Variant::Ragged, 7);
    setup.verify(Variant::Ragged, &statement, &proof).unwrap();
    // The statement is the keccak crate's permutation of the inputs.
    for (input, output) in statement
        .inputs
        .chunks_exact(25)
        .zip(statement.outputs.chunks_exact(25))
    {
        let mut state: [u64; 25] = input.try_into().unwrap();
        keccak::Keccak::new().with_f1600(|f| f(&mut state));
        assert_eq!(state[..], output[..]);
    }
}

/// A wrong output bit or input bit: the honest proof is rejected for the edited statement,
/// and so is the proof the prover makes for it (unless the edit left a true statement).
#[test]
fn false_statements_are_rejected() {
    for (widths, seed) in [(vec![7], 70u64), (vec![2], 71), (vec![3, 0], 72)] {
        let setup = BooleanGkr::<_>::new(toy(), widths);
        let layers = setup.relation().boolean_layers();
        let count = setup.count();
        for variant in Variant::ALL {
            let (statement, proof) = honest(&setup, variant, seed);
            for instance in [0, count - 1] {
                let mut wrong = statement.clone();
                flip(&mut wrong.outputs, layers.output_width(), instance, 2);
                assert!(setup.verify(variant, &wrong, &proof).is_err());
                let forged = setup.prove(variant, &wrong).unwrap();
                assert!(matches!(
                    setup.verify(variant, &wrong, &forged),
                    Err(GkrError::LayerCheck { .. })
                ));
                // The toy is lossy: an edited input may keep the outputs, and then the
                // statement is true and its proof verifies.
                for bit in 0..layers.input_width() {
                    let mut wrong = statement.clone();
                    flip(&mut wrong.inputs, layers.input_width(), instance, bit);
                    assert!(setup.verify(variant, &wrong, &proof).is_err());
                    let forged = setup.prove(variant, &wrong).unwrap();
                    let true_statement = setup.statement(wrong.inputs.clone()) == wrong;
                    assert_eq!(
                        setup.verify(variant, &wrong, &forged).is_ok(),
                        true_statement
                    );
                }
            }
        }
    }
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![7]);
    let (statement, proof) = honest(&setup, Variant::Ragged, 72);
    let mut wrong = statement.clone();
    flip(&mut wrong.outputs, 1600, 77, 1234);
    assert!(setup.verify(Variant::Ragged, &wrong, &proof).is_err());
    let forged = setup.prove(Variant::Ragged, &wrong).unwrap();
    assert!(setup.verify(Variant::Ragged, &wrong, &forged).is_err());
    let mut wrong = statement.clone();
    flip(&mut wrong.inputs, 1600, 3, 999);
    let forged = setup.prove(Variant::Ragged, &wrong).unwrap();
    assert!(matches!(
        setup.verify(Variant::Ragged, &wrong, &forged),
        Err(GkrError::LayerCheck { .. })
    ));
}

/// Public words with a bit set past the state width (5 input and 4 output bits of the toy)
/// are refused by name, by the verifier before it reads the proof and by the prover.
#[test]
fn bits_past_the_state_width_are_refused() {
    let setup = BooleanGkr::<_>::new(toy(), vec![2]);
    let (statement, proof) = honest(&setup, Variant::Ragged, 73);
    let refused = Err(GkrError::Statement("bits set past the state width"));
    for (inputs, bit) in [(true, 5), (true, 63), (false, 4), (false, 63)] {
        let mut wrong = statement.clone();
        let words = if inputs {
            &mut wrong.inputs
        } else {
            &mut wrong.outputs
        };
        words[1] |= 1 << bit;
        assert_eq!(setup.verify(Variant::Ragged, &wrong, &proof), refused);
        assert_eq!(
            setup.prove(Variant::Ragged, &wrong),
            Err(flockwork_gkr::ProveError::Statement(
                "bits set past the state width"
            ))
        );
    }
}

#[test]
fn edited_and_truncated_proofs_are_rejected() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![6]);
    let v = Variant::Ragged;
    let (statement, proof) = honest(&setup, v, 5);
    // A changed round message (the first coefficient of the first round, and a later one).
    for position in [HEADER_LEN, HEADER_LEN + 16 * 3 * 4 + 5] {
        let mut bad = proof.clone();
        bad[position] ^= 1;
        assert!(matches!(
            setup.verify(v, &statement, &bad),
            Err(GkrError::LayerCheck { .. })
        ));
    }
    // A changed layer value.
    let mut bad = proof.clone();
    bad[HEADER_LEN + 16 * 3 * 6 + 17] ^= 0x80;
    assert!(setup.verify(v, &statement, &bad).is_err());
    assert!(matches!(
        setup.verify(v, &statement, &proof[..proof.len() - 1]),
        Err(GkrError::ProofLength { .. })
    ));
    assert!(matches!(
        setup.verify(v, &statement, &proof[..3]),
        Err(GkrError::Header)
    ));
    for (position, value) in [(6, 1), (7, 1)] {
        let mut bad = proof.clone();
        bad[position] = value;
        assert!(matches!(
            setup.verify(v, &statement, &bad),
            Err(GkrError::Header)
        ));
    }
    // The retired version is refused by name.
    for (old, commit) in RETIRED_VERSIONS {
        let mut bad = proof.clone();
        bad[4..6].copy_from_slice(&old.to_le_bytes());
        let err = setup.verify(v, &statement, &bad).unwrap_err();
        assert_eq!(
            err,
            GkrError::Retired {
                version: old,
                commit
            }
        );
        assert!(err.to_string().contains(commit));
    }
    // A statement of the wrong shape is refused, not a panic.
    let mut wrong = statement.clone();
    wrong.outputs.pop();
    assert!(matches!(
        setup.verify(v, &wrong, &proof),
        Err(GkrError::Statement(_))
    ));
    assert!(setup.prove(v, &wrong).is_err());
    // A proof for another instance count is rejected.
    let other = BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![5]);
    let (small, _) = honest(&other, v, 5);
    assert!(other.verify(v, &small, &proof).is_err());
}

/// The mutation harness over toy proofs of every variant (exhaustive byte changes) and a
/// two-round Keccak proof (sampled).
#[test]
fn boolean_proofs_reject_sampled_mutations() {
    let setup = BooleanGkr::<_>::new(toy(), vec![3, 1]);
    for variant in Variant::ALL {
        let (statement, proof) = honest(&setup, variant, 9);
        let name = format!("gkr/boolean/toy/{}", variant.name());
        check_mutations(&name, &proof, MutationBudget::default(), |b| {
            setup.verify(variant, &statement, b)
        });
    }
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![3]);
    let (statement, proof) = honest(&setup, Variant::Ragged, 9);
    let budget = MutationBudget {
        exhaustive_limit: 4000,
        truncation_limit: 2000,
        ..MutationBudget::default()
    };
    check_mutations("gkr/boolean/keccak-2", &proof, budget, |b| {
        setup.verify(Variant::Ragged, &statement, b)
    });
}

#[test]
fn keccak_soundness_at_k14_is_above_100_bits() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), vec![14]);
    let bits = setup.soundness_bits(Variant::Ragged);
    // ε ≤ (14 + 1600 + 3·14·24 + 23·1600) / 2^128.
    let expected = 128.0 - (39_422f64).log2();
    assert!((bits - expected).abs() < 1e-9, "{bits}");
    assert!(bits >= 100.0, "{bits}");
    assert_eq!(setup.proof_elements(Variant::Ragged), 24 * (3 * 14 + 1600));
    // Regions of 2^14 + 2^13 + 1: one walk of 14 rounds, three regions' values.
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), vec![14, 13, 0]);
    for variant in Variant::ALL {
        assert!(setup.soundness_bits(variant) >= 100.0);
    }
    assert_eq!(
        setup.proof_elements(Variant::Ragged),
        24 * (3 * 14 + 3 * 1600)
    );
    assert_eq!(
        setup.proof_elements(Variant::Independent),
        24 * (3 * 27 + 3 * 1600)
    );
}

#[test]
fn random_inputs_differ_from_zero() {
    // The tests' random inputs reach every input bit (the masks keep widths exact).
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let words = random_words(&mut rng, 5, 64);
    assert!(words.iter().all(|&w| w < 32));
    assert!(words.iter().fold(0, |a, &w| a | w) == 31);
}

/// The ring-switched commitment of `kind` for `setup`'s committed polynomial.
fn boolean_pcs<R: BooleanLayeredRelation + Sync>(
    setup: &BooleanGkr<R>,
    kind: PcsKind,
) -> RingSwitched<Commitment> {
    RingSwitched::new(
        Commitment::for_bits(kind, setup.io_bit_vars(), 100, &Profile::default()).unwrap(),
    )
}

/// Committed inputs and outputs: honest proofs verify for every variant and every scheme;
/// a proof of inputs other than the committed ones, a commitment with a wrong output bit or
/// a wrong input bit, a changed round message and a changed opening are rejected.
#[test]
fn committed_io_proofs_verify_and_reject_edits() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![3, 1]);
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let inputs = random_words(&mut rng, 1600, setup.count());
    let words = setup.io_words(&inputs).unwrap();
    let layout = setup.io_layout();
    for kind in PcsKind::ALL {
        let pcs = boolean_pcs(&setup, kind);
        let (commitment, data) = setup.commit_io(&pcs, &inputs).unwrap();
        for variant in Variant::ALL {
            let proof = setup
                .prove_io(variant, &pcs, &commitment, &data, &inputs)
                .unwrap();
            setup.verify_io(variant, &pcs, &commitment, &proof).unwrap();
            let walks = setup.io_walks_len(variant);
            // A changed round message (the first round of the first walk).
            let mut bad = proof.clone();
            bad[HEADER_LEN + 16] ^= 4;
            assert!(setup.verify_io(variant, &pcs, &commitment, &bad).is_err());
            // A changed opening byte, early and late.
            for at in [walks + 40, proof.len() - 7] {
                let mut bad = proof.clone();
                bad[at] ^= 1;
                assert!(setup.verify_io(variant, &pcs, &commitment, &bad).is_err());
            }
            // Inputs that are not the committed ones.
            let mut other = inputs.clone();
            other[25 + 3] ^= 1 << 9;
            let forged = setup
                .prove_io(variant, &pcs, &commitment, &data, &other)
                .unwrap();
            assert!(
                setup
                    .verify_io(variant, &pcs, &commitment, &forged)
                    .is_err()
            );
        }
        // A commitment whose output slab (or input slab) has one bit flipped: the honest
        // prover's proof for the true inputs is rejected.
        for (region, lane, bit) in [(0, 1, 1234 * 8 + 5), (1, 1, 7 * 2), (0, 0, 3 * 8 + 2)] {
            let mut bad = words.clone();
            let pos = layout.offset(region, lane) + bit;
            bad[pos / 128] ^= 1 << (pos % 128);
            let (commitment, data) = pcs.commit(&bad);
            for variant in Variant::ALL {
                let proof = setup
                    .prove_io(variant, &pcs, &commitment, &data, &inputs)
                    .unwrap();
                assert!(
                    setup.verify_io(variant, &pcs, &commitment, &proof).is_err(),
                    "{kind} {} region {region} lane {lane}",
                    variant.name()
                );
            }
        }
    }
}

/// The mutation harness over committed-IO proofs of the three variants.
#[test]
fn committed_io_proofs_reject_sampled_mutations() {
    let setup = BooleanGkr::<_>::new(toy(), vec![9, 2]);
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let inputs = random_words(&mut rng, 5, setup.count());
    let pcs = boolean_pcs(&setup, PcsKind::Ligerito);
    let (commitment, data) = setup.commit_io(&pcs, &inputs).unwrap();
    let budget = MutationBudget {
        exhaustive_limit: 3000,
        truncation_limit: 500,
        ..MutationBudget::default()
    };
    for variant in Variant::ALL {
        let proof = setup
            .prove_io(variant, &pcs, &commitment, &data, &inputs)
            .unwrap();
        let name = format!("gkr/boolean/committed-io/{}", variant.name());
        check_mutations(&name, &proof, budget, |b| {
            setup.verify_io(variant, &pcs, &commitment, b)
        });
    }
}

/// Committed-IO soundness counts, beside the same walk failures, the output and input bit
/// points `Σ_a (w_a + 2b)` and ring switching's 7 where public IO counts the outputs'
/// `Σ_a (w_a + w_L)` (module docs, "Soundness"); a weaker commitment decides.
#[test]
fn committed_io_soundness_counts_the_bit_points() {
    let failures = |bits: f64| (128.0 - bits).exp2();
    for widths in [vec![14], vec![5, 2]] {
        let setup = BooleanGkr::<_>::new(KeccakF1600::new(), widths.clone());
        let b = setup.bit_vars();
        assert_eq!(b, 11);
        let public = failures(setup.soundness_bits(Variant::Ragged));
        let committed = failures(setup.io_soundness_bits(Variant::Ragged, f64::INFINITY));
        let points: usize = widths.iter().map(|w| w + 2 * b).sum::<usize>() + PACKED_VARS;
        let outputs: usize = widths.iter().map(|w| w + 1600).sum();
        let want = public - outputs as f64 + points as f64;
        assert!((committed - want).abs() < 1e-6, "{committed} vs {want}");
        let weak = setup.io_soundness_bits(Variant::Ragged, 40.0);
        assert!((weak - 40.0).abs() < 1e-6, "{weak}");
    }
}

#[test]
fn committed_keccak_soundness_at_k14_is_above_100_bits() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), vec![14]);
    let pcs = boolean_pcs(&setup, PcsKind::Ligerito);
    let bits = setup.io_soundness_bits(Variant::Ragged, pcs.inner().security_report().bits());
    assert!(bits >= 100.0, "{bits}");
    assert_eq!(setup.io_bit_vars(), 14 + 11 + 1);
}
