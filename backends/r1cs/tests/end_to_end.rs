//! End-to-end prove/verify of the three hashes, batch and chain statements.

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_core::circuit::{Gadget, SlotKind};
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
    eprintln!(
        "m = {}, proof {} bytes\n{}",
        flock.num_vars(),
        report.proof_bytes,
        report.timings
    );
    flock.verify(&Statement::Batch, proof.as_bytes()).unwrap();
}

#[test]
fn sha256_batch() {
    batch_roundtrip(Sha256Compress, 3);
}

#[test]
fn blake3_batch() {
    batch_roundtrip(Blake3Compress, 3);
}

#[test]
fn keccak_batch() {
    batch_roundtrip(KeccakF1600::new(), 3);
}

/// The chain endpoints read off the witness: instance 0's input region, the last instance's
/// output region.
fn chain_statement<G: Gadget>(
    flock: &Flock<G>,
    w: &flockwork_core::circuit::BatchWitness,
) -> Statement {
    let layout = flock.chain().unwrap();
    let slot_words = (1 << layout.log_slot_words) * 2;
    let n = layout.state_words();
    let block = w.block_words();
    let last = (w.instances - 1) * block;
    Statement::Chain {
        start: w.z[layout.in_slot * slot_words..][..n].to_vec(),
        end: w.z[last + layout.out_slot * slot_words..][..n].to_vec(),
    }
}

#[test]
fn sha256_chain() {
    let log_k = 3;
    let blocks: Vec<[u8; 64]> = (0..1u8 << log_k).map(|i| [i; 64]).collect();
    let chain = chain_witness(&Sha256Compress, [7u32; 8], &blocks, true);
    let flock = Flock::with_chain(
        Sha256Compress,
        log_k,
        Sha256Compress::STATE_IN,
        Sha256Compress::STATE_OUT,
        FlockConfig::default(),
    )
    .unwrap();
    let statement = chain_statement(&flock, &chain.witness);
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    let mut wrong_end = statement.clone();
    if let Statement::Chain { end, .. } = &mut wrong_end {
        end[0] ^= 1;
    }
    assert!(flock.verify(&wrong_end, proof.as_bytes()).is_err());
}
