//! Independent instances with public inputs and outputs ([`Statement::Public`]): SHA-256
//! compressions checked against `sha2`'s compression function, BLAKE3 over FRI-Binius and
//! Keccak-f checked against the native references; a wrong word anywhere in the statement, a
//! statement of the wrong size and a statement of another kind are rejected.

use flockwork_boolean::native::{blake3_compress, keccak_f1600};
use flockwork_boolean::words::{join_u32, split_u32};
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{Gadget, SlotKind, batch_witness};
use flockwork_pcs::PcsKind;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, ProveError, SetupError, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A public-IO setup of `2^log_k` instances.
fn setup<G: Gadget>(gadget: G, log_k: usize, config: FlockConfig) -> Flock<G> {
    Flock::new(gadget, log_k, config)
        .unwrap()
        .public_io()
        .unwrap()
}

/// `instances` random input vectors of `gadget`, flat.
fn random_inputs<G: Gadget>(gadget: &G, instances: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..instances * words).map(|_| rng.random()).collect()
}

/// The output vectors of SHA-256 compressions by the `sha2` crate, from the input vectors
/// (`H_in` then the message words, [`Sha256Compress::encode_words`]).
fn sha256_outputs(inputs: &[u64]) -> Vec<u64> {
    inputs
        .chunks_exact(12)
        .flat_map(|input| {
            let mut state = split_u32::<8>(&input[..4]);
            let block = Sha256Compress::words_block(&split_u32::<16>(&input[4..]));
            sha2::block_api::compress256(&mut state, &[block]);
            join_u32::<4>(&state)
        })
        .collect()
}

/// Proves `statement` from `inputs` and checks that it verifies.
fn prove_and_verify<G: Gadget>(flock: &Flock<G>, inputs: &[u64], statement: &Statement) -> Vec<u8> {
    let (proof, report) = flock.prove(inputs, statement).unwrap();
    assert_eq!(report.proof_bytes, proof.len());
    flock.verify(statement, proof.as_bytes()).unwrap();
    proof.into_bytes()
}

#[test]
fn sha256_compressions_with_public_io() {
    let log_k = 3;
    let inputs = random_inputs(&Sha256Compress, 1 << log_k, 11);
    let outputs = sha256_outputs(&inputs);
    let flock = setup(Sha256Compress, log_k, FlockConfig::default());
    let statement = Statement::Public {
        inputs: inputs.clone(),
        outputs,
    };
    // The statement a witness holds is the one computed natively.
    let witness = batch_witness(&Sha256Compress, &inputs, true);
    assert_eq!(flock.public_statement(&witness), Some(statement.clone()));
    let proof = prove_and_verify(&flock, &inputs, &statement);
    let (proof_w, _) = flock.prove_witness(&witness, &statement).unwrap();
    assert_eq!(proof_w.as_bytes(), &proof[..]);

    let soundness = flock.soundness();
    assert!(soundness.bits() >= 100.0, "{soundness}");
    assert!(
        soundness.terms.iter().any(|t| t.name == "public-IO claim"),
        "{soundness}"
    );
    eprintln!("SHA-256 × 2^{log_k}, public IO, default setup:\n{soundness}");
}

#[test]
fn a_wrong_public_word_is_rejected() {
    let log_k = 3;
    let k = 1usize << log_k;
    let inputs = random_inputs(&Sha256Compress, k, 12);
    let flock = setup(Sha256Compress, log_k, FlockConfig::default());
    let statement = Statement::Public {
        inputs: inputs.clone(),
        outputs: sha256_outputs(&inputs),
    };
    let honest = prove_and_verify(&flock, &inputs, &statement);
    // Instance 0, a middle one and the last; an input word in each region (H_in, both units
    // of the message) and an output word; a bit in each half of a packed word.
    let cases = [
        (0, true, 0, 0),
        (0, false, 3, 63),
        (k / 2 - 1, true, 5, 17),
        (k / 2 - 1, false, 0, 40),
        (k - 1, true, 11, 63),
        (k - 1, false, 2, 1),
        (3, true, 8, 32),
    ];
    for (instance, input, word, bit) in cases {
        let mut bad = statement.clone();
        let Statement::Public { inputs, outputs } = &mut bad else {
            unreachable!()
        };
        if input {
            inputs[instance * 12 + word] ^= 1 << bit;
        } else {
            outputs[instance * 4 + word] ^= 1 << bit;
        }
        let case = format!("instance {instance}, input {input}, word {word}, bit {bit}");
        // The honest proof is not a proof of the wrong statement …
        assert!(flock.verify(&bad, &honest).is_err(), "{case}");
        // … and the prover cannot make one: the IO claim is false, the opening fails.
        let (cheat, _) = flock.prove(&statement_inputs(&statement), &bad).unwrap();
        assert!(
            matches!(
                flock.verify(&bad, cheat.as_bytes()),
                Err(FlockError::Opening(_))
            ),
            "{case}"
        );
    }
}

fn statement_inputs(statement: &Statement) -> Vec<u64> {
    match statement {
        Statement::Public { inputs, .. } => inputs.clone(),
        _ => unreachable!(),
    }
}

#[test]
fn statements_that_do_not_fit_the_setup_are_errors() {
    let log_k = 2;
    let k = 1usize << log_k;
    let inputs = random_inputs(&Sha256Compress, k, 13);
    let outputs = sha256_outputs(&inputs);
    let flock = setup(Sha256Compress, log_k, FlockConfig::default());
    let statement = Statement::Public {
        inputs: inputs.clone(),
        outputs: outputs.clone(),
    };
    let proof = prove_and_verify(&flock, &inputs, &statement);
    let wrong_shapes = [
        // One instance too few, one too many.
        Statement::Public {
            inputs: inputs[12..].to_vec(),
            outputs: outputs[4..].to_vec(),
        },
        Statement::Public {
            inputs: [&inputs[..], &inputs[..12]].concat(),
            outputs: [&outputs[..], &outputs[..4]].concat(),
        },
        // Inputs or outputs alone of the wrong length.
        Statement::Public {
            inputs: inputs[..inputs.len() - 1].to_vec(),
            outputs: outputs.clone(),
        },
        Statement::Public {
            inputs: inputs.clone(),
            outputs: [&outputs[..], &[0]].concat(),
        },
        Statement::Public {
            inputs: Vec::new(),
            outputs: Vec::new(),
        },
        // Another kind of statement.
        Statement::Batch,
        Statement::Chain {
            start: outputs[..4].to_vec(),
            end: outputs[4..8].to_vec(),
        },
    ];
    for bad in &wrong_shapes {
        assert!(
            matches!(flock.verify(bad, &proof), Err(FlockError::Statement(_))),
            "{bad:?}"
        );
        assert!(
            matches!(flock.prove(&inputs, bad), Err(ProveError::Statement(_))),
            "{bad:?}"
        );
    }
    // A public statement on a setup without public IO, and no public statement to read.
    let batch = Flock::new(Sha256Compress, log_k, FlockConfig::default()).unwrap();
    let (batch_proof, _) = batch.prove(&inputs, &Statement::Batch).unwrap();
    assert!(matches!(
        batch.verify(&statement, batch_proof.as_bytes()),
        Err(FlockError::Statement(_))
    ));
    assert!(matches!(
        batch.prove(&inputs, &statement),
        Err(ProveError::Statement(_))
    ));
    let witness = batch_witness(&Sha256Compress, &inputs, false);
    assert_eq!(batch.public_statement(&witness), None);
    // A witness of another batch size has no statement for this setup.
    let small = batch_witness(&Sha256Compress, &inputs[..24], false);
    assert_eq!(flock.public_statement(&small), None);
    // A proof for the plain batch is not a public-IO proof (another setup).
    assert!(matches!(
        flock.verify(&statement, batch_proof.as_bytes()),
        Err(FlockError::Setup)
    ));
}

#[test]
fn blake3_compressions_with_public_io_over_fri() {
    let log_k = 2;
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for i in 0..1u64 << log_k {
        let cv: [u32; 8] = rng.random();
        let block: [u32; 16] = rng.random();
        let (counter, len, flags) = (rng.random::<u64>() ^ i, rng.random(), rng.random());
        inputs.extend(Blake3Compress::encode_input(
            &cv, &block, counter, len, flags,
        ));
        outputs.extend(join_u32::<8>(&blake3_compress(
            &cv, &block, counter, len, flags,
        )));
    }
    let config = FlockConfig {
        scheme: PcsKind::Fri,
        ..FlockConfig::default()
    };
    let flock = setup(Blake3Compress, log_k, config);
    assert!(flock.soundness().bits() >= 100.0, "{}", flock.soundness());
    let statement = Statement::Public { inputs, outputs };
    let witness = batch_witness(&Blake3Compress, &statement_inputs(&statement), true);
    assert_eq!(flock.public_statement(&witness), Some(statement.clone()));
    let proof = prove_and_verify(&flock, &statement_inputs(&statement), &statement);
    // The parameter word (half a slot unit, the rest zero) and the extended output are bound.
    for (input, word) in [(true, 13), (false, 7)] {
        let mut bad = statement.clone();
        let Statement::Public { inputs, outputs } = &mut bad else {
            unreachable!()
        };
        let (v, n) = if input { (inputs, 14) } else { (outputs, 8) };
        v[n + word] ^= 1 << 33;
        assert!(flock.verify(&bad, &proof).is_err(), "input {input}");
    }
}

#[test]
fn keccak_permutations_with_public_io() {
    let log_k = 1;
    let inputs = random_inputs(&KeccakF1600::new(), 1 << log_k, 15);
    let outputs: Vec<u64> = inputs
        .chunks_exact(25)
        .flat_map(|s| {
            let mut state: [u64; 25] = s.try_into().unwrap();
            keccak_f1600(&mut state);
            state
        })
        .collect();
    let flock = setup(KeccakF1600::new(), log_k, FlockConfig::default());
    assert!(flock.soundness().bits() >= 100.0, "{}", flock.soundness());
    let mut statement = Statement::Public { inputs, outputs };
    let inputs = statement_inputs(&statement);
    let proof = prove_and_verify(&flock, &inputs, &statement);
    // The last lane of the last instance's output: the lone word of a half-used packed word.
    if let Statement::Public { outputs, .. } = &mut statement {
        outputs[49] ^= 1;
    }
    assert!(flock.verify(&statement, &proof).is_err());
}

#[test]
fn public_io_setup_errors_name_the_problem() {
    // BLAKE3's slot units are 256 bits: fine. A setup on a layout that does not fit says why.
    let err = flockwork_r1cs::PublicLayout::new(
        &flockwork_circuit::IoLayout::new(192).input("x", 0, 192),
    )
    .unwrap_err();
    assert!(matches!(err, SetupError::PublicLayout(_)));
    let message = err.to_string();
    assert!(
        message.contains("192 bits") && message.contains("power of two"),
        "{message}"
    );
}
