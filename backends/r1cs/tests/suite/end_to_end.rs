//! End-to-end prove/verify of the three hashes: batch statements at small sizes, hash chains
//! at K = 2^8 .. 2^12, and the soundness of the default configuration.

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{Gadget, SlotKind};
use flockwork_r1cs::{Flock, FlockConfig, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_inputs<G: Gadget>(gadget: &G, instances: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..instances * words).map(|_| rng.random()).collect()
}

fn batch_roundtrip<G: Gadget>(gadget: G, log_k: usize) {
    let inputs = random_inputs(&gadget, 1 << log_k, 7);
    let flock = Flock::new(gadget, log_k, FlockConfig::default()).unwrap();
    let (proof, report) = flock.prove(&inputs, &Statement::Batch).unwrap();
    assert_eq!(report.proof_bytes, proof.len());
    flock.verify(&Statement::Batch, proof.as_bytes()).unwrap();
    let mut flipped = proof.into_bytes();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 4;
    assert!(flock.verify(&Statement::Batch, &flipped).is_err());
}

#[test]
fn batch_statements_of_every_hash() {
    batch_roundtrip(Sha256Compress, 3);
    batch_roundtrip(Blake3Compress, 1);
    batch_roundtrip(KeccakF1600::new(), 0);
}

/// Proves and verifies the chain through `data`, then checks that the proof fails for a
/// different end state; returns the setup, the witness and the statement.
fn chain_roundtrip<G: ChainStep>(
    gadget: G,
    init: G::State,
    data: &[G::Data],
) -> (Flock<G>, flockwork_circuit::BatchWitness, Statement) {
    let log_k = data.len().trailing_zeros() as usize;
    let chain = chain_witness(&gadget, init, data, true);
    let flock = Flock::with_chain(
        gadget,
        log_k,
        G::STATE_IN,
        G::STATE_OUT,
        FlockConfig::default(),
    )
    .unwrap();
    let statement = flock.chain_statement(&chain.witness).unwrap();
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    let Statement::Chain { start, mut end } = statement.clone() else {
        unreachable!()
    };
    end[1] ^= 1 << 17;
    let wrong = Statement::Chain { start, end };
    assert!(flock.verify(&wrong, proof.as_bytes()).is_err());
    (flock, chain.witness, statement)
}

fn sha_chain(log_k: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(log_k as u64);
    let blocks: Vec<[u8; 64]> = (0..1 << log_k).map(|_| rng.random()).collect();
    let _ = chain_roundtrip(Sha256Compress, [0x6a09_e667; 8], &blocks);
}

fn blake3_chain(log_k: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(log_k as u64);
    let blocks: Vec<Blake3Block> = (0..1u64 << log_k)
        .map(|i| Blake3Block {
            words: rng.random(),
            counter: i,
            block_len: 64,
            flags: 0,
        })
        .collect();
    let _ = chain_roundtrip(Blake3Compress, [0x1234_5678; 8], &blocks);
}

fn keccak_chain(log_k: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(log_k as u64);
    let _ = chain_roundtrip(KeccakF1600::new(), rng.random(), &vec![(); 1 << log_k]);
}

#[test]
fn sha256_chains_2_8_and_2_12() {
    sha_chain(8);
    sha_chain(12);
}

#[test]
fn blake3_chains_2_8_and_2_12() {
    blake3_chain(8);
    blake3_chain(12);
}

#[test]
fn keccak_chains_2_8_and_2_12() {
    keccak_chain(8);
    keccak_chain(12);
}

#[test]
fn chains_2_9_to_2_11() {
    sha_chain(9);
    blake3_chain(10);
    keccak_chain(11);
}

#[test]
fn default_configuration_reaches_100_bits() {
    for log_k in [0, 8, 12, 16] {
        let flock = Flock::with_chain(
            Sha256Compress,
            log_k,
            Sha256Compress::STATE_IN,
            Sha256Compress::STATE_OUT,
            FlockConfig::default(),
        )
        .unwrap();
        let report = flock.soundness();
        assert!(report.bits() >= 100.0, "2^{log_k}:\n{report}");
        assert!(
            report
                .terms
                .iter()
                .all(|t| t.bits > 100.0 && t.bits <= 128.0)
        );
    }
    // A weaker target gives a weaker, still computed, report.
    let weak = FlockConfig {
        target_bits: 80,
        ..FlockConfig::default()
    };
    let flock = Flock::new(KeccakF1600::new(), 4, weak).unwrap();
    let bits = flock.soundness().bits();
    assert!((80.0..100.0).contains(&bits), "{bits}");
}

#[test]
fn a_batch_over_the_memory_limit_is_refused_before_any_work() {
    let flock = Flock::new(Sha256Compress, 6, FlockConfig::default()).unwrap();
    let needed = flock.estimated_prover_bytes();
    // 2^m witness bits, about twelve times their bytes with Ligerito.
    let witness_bytes = (1u64 << flock.num_vars()) / 8;
    assert!(needed > 12 * witness_bytes && needed < 13 * witness_bytes + (16 << 20));
    let limited = FlockConfig {
        memory_limit: Some(needed - 1),
        ..FlockConfig::default()
    };
    let flock = Flock::new(Sha256Compress, 6, limited).unwrap();
    // The check runs before the inputs are even looked at.
    let err = flock.prove(&[], &Statement::Batch).unwrap_err();
    assert!(
        matches!(err, flockwork_r1cs::ProveError::MemoryLimit { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("MiB limit"));
    let enough = FlockConfig {
        memory_limit: Some(needed),
        ..FlockConfig::default()
    };
    let flock = Flock::new(Sha256Compress, 6, enough).unwrap();
    let inputs = random_inputs(&Sha256Compress, 64, 1);
    flock.prove(&inputs, &Statement::Batch).unwrap();
}

/// A chain of `n · 2^log_k` steps in wide blocks of `n` steps: proves, verifies, and a proof
/// from a witness with one flipped bit in the last copy of a block is rejected.
fn wide_chain_roundtrip<G: ChainStep + Clone>(
    gadget: G,
    n: usize,
    init: G::State,
    data: Vec<G::Data>,
) where
    G::Data: Clone,
{
    let wide = flockwork_boolean::wide_chain(gadget, n);
    let positions = wide.stats().positions;
    let blocks: Vec<Vec<G::Data>> = data.chunks(n).map(<[G::Data]>::to_vec).collect();
    let (flock, mut w, statement) = chain_roundtrip(wide, init, &blocks);
    // The last AND output of the last copy of block 1.
    let at = w.block_words() * 64 + positions - 1;
    w.z[at / 64] ^= 1 << (at % 64);
    w.lanes = None; // the lane-order copy no longer matches z
    let (bad, _) = flock.prove_witness(&w, &statement).unwrap();
    assert!(flock.verify(&statement, bad.as_bytes()).is_err());
}

#[test]
fn wide_chains_three_keccak_and_two_sha256_per_block() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    wide_chain_roundtrip(KeccakF1600::new(), 3, rng.random(), vec![(); 24]);
    let blocks: Vec<[u8; 64]> = (0..32).map(|_| rng.random()).collect();
    wide_chain_roundtrip(Sha256Compress, 2, rng.random(), blocks);
}

/// A block of one chain step is the gadget itself: the same lowering, setup digest and
/// proofs (so proofs made before blocks of several steps existed still verify).
#[test]
fn one_step_blocks_are_the_gadget() {
    fn same<G: ChainStep + Clone>(gadget: G) {
        let one = flockwork_boolean::wide_chain(gadget.clone(), 1);
        let config = FlockConfig::default();
        let plain = Flock::with_chain(gadget, 3, G::STATE_IN, G::STATE_OUT, config).unwrap();
        let wide = Flock::with_chain(one, 3, G::STATE_IN, G::STATE_OUT, config).unwrap();
        assert_eq!(plain.r1cs_digest(), wide.r1cs_digest());
        assert_eq!(plain.setup_digest(), wide.setup_digest());
    }
    same(Sha256Compress);
    same(Blake3Compress);
    same(KeccakF1600::new());
}

/// The owned prover folds the instances for the lincheck from the witness's lane-order copy
/// of `z` (`BatchWitness::lanes`), the borrowed one from the committed `z`: the same proof
/// bytes, for full groups of 64 instances and for fewer instances than one group.
#[test]
fn lane_order_lincheck_gives_the_same_proof() {
    for log_k in [3, 7] {
        let gadget = Blake3Compress;
        let inputs = random_inputs(&gadget, 1 << log_k, 5);
        let witness = flockwork_circuit::batch_witness(&gadget, &inputs, true);
        assert!(witness.lanes.is_some());
        let flock = Flock::new(gadget, log_k, FlockConfig::default()).unwrap();
        let (borrowed, _) = flock.prove_witness(&witness, &Statement::Batch).unwrap();
        let (owned, _) = flock
            .prove_witness_owned(witness, &Statement::Batch)
            .unwrap();
        assert_eq!(owned.as_bytes(), borrowed.as_bytes(), "k = {log_k}");
        flock.verify(&Statement::Batch, owned.as_bytes()).unwrap();
    }
}
