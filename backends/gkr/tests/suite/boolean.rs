//! The Boolean GKR walk (`flockwork_gkr::boolean`): honest proofs verify for Keccak-f
//! (reduced and full rounds) and toy relations written with `BooleanLayersBuilder`, at
//! instance counts inside one word, exactly one word and several; false statements, edited
//! and truncated proofs are rejected; the mutation harness; the soundness at `k = 14`.

use flockwork_boolean::KeccakF1600;
use flockwork_core::boolean_layered::{
    BooleanLayered, BooleanLayeredRelation, BooleanLayersBuilder, bits_of_words, words_of_bits,
};
use flockwork_gkr::boolean::HEADER_LEN;
use flockwork_gkr::{BooleanGkr, BooleanStatement, GkrError};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A relation given only by its description (native code = the reference evaluation).
struct Toy(BooleanLayered);

impl BooleanLayeredRelation for Toy {
    fn id(&self) -> Vec<u8> {
        b"toy".to_vec()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        &self.0
    }

    fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
        let bits = bits_of_words(self.0.width(layer - 1), state);
        words_of_bits(&self.0.apply_layer_reference(layer, &bits))
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
    seed: u64,
) -> (BooleanStatement, Vec<u8>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let layers = setup.relation().boolean_layers();
    let inputs = random_words(&mut rng, layers.input_width(), 1 << setup.log_count());
    let statement = setup.statement(inputs);
    let proof = setup.prove(&statement).unwrap();
    assert_eq!(proof.len(), setup.proof_len());
    (statement, proof)
}

/// Flips bit `bit` of instance `instance` in `words` of `width`-bit states.
fn flip(words: &mut [u64], width: usize, instance: usize, bit: usize) {
    words[instance * width.div_ceil(64) + bit / 64] ^= 1 << (bit % 64);
}

#[test]
fn toy_honest_proofs_verify_at_every_count_shape() {
    for k in [0, 1, 2, 3, 5, 6, 7, 9] {
        let setup = BooleanGkr::<_>::new(toy(), k);
        let (statement, proof) = honest(&setup, 10 + k as u64);
        setup.verify(&statement, &proof).unwrap();
    }
}

#[test]
fn keccak_reduced_rounds_verify() {
    for (rounds, k) in [(1, 0), (2, 3), (2, 6), (2, 8), (3, 7)] {
        let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(rounds), k);
        let (statement, proof) = honest(&setup, 100 + k as u64);
        setup.verify(&statement, &proof).unwrap();
    }
}

#[test]
fn keccak_full_rounds_verify() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), 4);
    let (statement, proof) = honest(&setup, 7);
    setup.verify(&statement, &proof).unwrap();
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
    for (k, seed) in [(7u64, 70u64), (2, 71)] {
        let setup = BooleanGkr::<_>::new(toy(), k as usize);
        let (statement, proof) = honest(&setup, seed);
        let layers = setup.relation().boolean_layers();
        let count = 1usize << setup.log_count();
        for instance in [0, count - 1] {
            let mut wrong = statement.clone();
            flip(&mut wrong.outputs, layers.output_width(), instance, 2);
            assert!(setup.verify(&wrong, &proof).is_err());
            let forged = setup.prove(&wrong).unwrap();
            assert!(matches!(
                setup.verify(&wrong, &forged),
                Err(GkrError::LayerCheck { .. })
            ));
            // The toy is lossy: an edited input may keep the outputs, and then the
            // statement is true and its proof verifies.
            for bit in 0..layers.input_width() {
                let mut wrong = statement.clone();
                flip(&mut wrong.inputs, layers.input_width(), instance, bit);
                assert!(setup.verify(&wrong, &proof).is_err());
                let forged = setup.prove(&wrong).unwrap();
                let true_statement = setup.statement(wrong.inputs.clone()) == wrong;
                assert_eq!(setup.verify(&wrong, &forged).is_ok(), true_statement);
            }
        }
    }
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), 7);
    let (statement, proof) = honest(&setup, 72);
    let mut wrong = statement.clone();
    flip(&mut wrong.outputs, 1600, 77, 1234);
    assert!(setup.verify(&wrong, &proof).is_err());
    let forged = setup.prove(&wrong).unwrap();
    assert!(setup.verify(&wrong, &forged).is_err());
    let mut wrong = statement.clone();
    flip(&mut wrong.inputs, 1600, 3, 999);
    let forged = setup.prove(&wrong).unwrap();
    assert!(matches!(
        setup.verify(&wrong, &forged),
        Err(GkrError::LayerCheck { .. })
    ));
}

#[test]
fn edited_and_truncated_proofs_are_rejected() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), 6);
    let (statement, proof) = honest(&setup, 5);
    // A changed round message (the first coefficient of the first round, and a later one).
    for position in [HEADER_LEN, HEADER_LEN + 16 * 3 * 4 + 5] {
        let mut bad = proof.clone();
        bad[position] ^= 1;
        assert!(matches!(
            setup.verify(&statement, &bad),
            Err(GkrError::LayerCheck { .. })
        ));
    }
    // A changed layer value.
    let mut bad = proof.clone();
    bad[HEADER_LEN + 16 * 3 * 6 + 17] ^= 0x80;
    assert!(setup.verify(&statement, &bad).is_err());
    assert!(matches!(
        setup.verify(&statement, &proof[..proof.len() - 1]),
        Err(GkrError::ProofLength { .. })
    ));
    assert!(matches!(
        setup.verify(&statement, &proof[..3]),
        Err(GkrError::Header)
    ));
    let mut bad = proof.clone();
    bad[6] = 2;
    assert!(matches!(
        setup.verify(&statement, &bad),
        Err(GkrError::Header)
    ));
    // A statement of the wrong shape is refused, not a panic.
    let mut wrong = statement.clone();
    wrong.outputs.pop();
    assert!(matches!(
        setup.verify(&wrong, &proof),
        Err(GkrError::Statement(_))
    ));
    assert!(setup.prove(&wrong).is_err());
    // A proof for another instance count is rejected.
    let other = BooleanGkr::<_>::new(KeccakF1600::reduced(2), 5);
    let (small, _) = honest(&other, 5);
    assert!(other.verify(&small, &proof).is_err());
}

/// The mutation harness over a toy proof (exhaustive byte changes) and a two-round Keccak
/// proof (sampled).
#[test]
fn boolean_proofs_reject_sampled_mutations() {
    let setup = BooleanGkr::<_>::new(toy(), 3);
    let (statement, proof) = honest(&setup, 9);
    check_mutations("gkr/boolean/toy", &proof, MutationBudget::default(), |b| {
        setup.verify(&statement, b)
    });
    let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(2), 3);
    let (statement, proof) = honest(&setup, 9);
    let budget = MutationBudget {
        exhaustive_limit: 4000,
        truncation_limit: 2000,
        ..MutationBudget::default()
    };
    check_mutations("gkr/boolean/keccak-2", &proof, budget, |b| {
        setup.verify(&statement, b)
    });
}

#[test]
fn keccak_soundness_at_k14_is_above_100_bits() {
    let setup = BooleanGkr::<_>::new(KeccakF1600::new(), 14);
    let bits = setup.soundness_bits();
    // ε ≤ (14 + 1600 + 3·14·24 + 23·1600) / 2^128.
    let expected = 128.0 - (39_422f64).log2();
    assert!((bits - expected).abs() < 1e-9, "{bits}");
    assert!(bits >= 100.0, "{bits}");
    assert_eq!(setup.proof_elements(), 24 * (3 * 14 + 1600));
}

#[test]
fn random_inputs_differ_from_zero() {
    // The tests' random inputs reach every input bit (the masks keep widths exact).
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let words = random_words(&mut rng, 5, 64);
    assert!(words.iter().all(|&w| w < 32));
    assert!(words.iter().fold(0, |a, &w| a | w) == 31);
}
