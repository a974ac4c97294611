//! The batch-R1CS prover runs unchanged over every dense commitment: SHA-256 batches proved
//! and verified over each shipped scheme chosen by [`FlockConfig::scheme`] and a SHA-256
//! chain over FRI-Binius, with tampering rejected and the soundness report at 100 bits; a
//! typed commitment of the wrong size is refused.

use flockwork_boolean::Sha256Compress;
use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_circuit::{Gadget, SlotKind};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::{FriBinius, PcsKind};
use flockwork_r1cs::{Flock, FlockConfig, SetupError, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Fri = FriBinius<Ghash128, sha2::Sha256>;

fn random_inputs<G: Gadget>(gadget: &G, instances: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..instances * words).map(|_| rng.random()).collect()
}

fn over(scheme: PcsKind) -> FlockConfig {
    FlockConfig {
        scheme,
        ..FlockConfig::default()
    }
}

fn batch_over(scheme: PcsKind, log_k: usize) {
    let flock = Flock::new(Sha256Compress, log_k, over(scheme)).unwrap();
    assert_eq!(flock.pcs().inner().kind(), scheme);
    assert!(flock.soundness().bits() >= 100.0, "{}", flock.soundness());
    let inputs = random_inputs(&Sha256Compress, 1 << log_k, 5);
    let (proof, _) = flock.prove(&inputs, &Statement::Batch).unwrap();
    flock.verify(&Statement::Batch, proof.as_bytes()).unwrap();
    let mut bytes = proof.into_bytes();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    assert!(flock.verify(&Statement::Batch, &bytes).is_err());
}

#[test]
fn sha256_batch_over_fri() {
    batch_over(PcsKind::Fri, 3);
}

#[test]
fn sha256_batch_over_blaze() {
    batch_over(PcsKind::Blaze, 3);
}

#[test]
fn sha256_chain_over_fri() {
    let log_k = 4;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let blocks: Vec<[u8; 64]> = (0..1 << log_k).map(|_| rng.random()).collect();
    let gadget = Sha256Compress;
    let chain = chain_witness(&gadget, [0x6a09_e667; 8], &blocks, true);
    let flock = Flock::new(gadget, log_k, over(PcsKind::Fri))
        .unwrap()
        .chained(Sha256Compress::STATE_IN, Sha256Compress::STATE_OUT)
        .unwrap();
    let statement = flock.chain_statement(&chain.witness).unwrap();
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    let Statement::Chain { start, mut end } = statement else {
        unreachable!()
    };
    end[0] ^= 1;
    let wrong = Statement::Chain { start, end };
    assert!(flock.verify(&wrong, proof.as_bytes()).is_err());
}

#[test]
fn a_commitment_of_the_wrong_size_is_refused() {
    let dense = Fri::with_security(10, 100, 1).unwrap();
    assert!(matches!(
        Flock::with_pcs(Sha256Compress, 3, dense, FlockConfig::default()),
        Err(SetupError::PcsVars { .. })
    ));
}
