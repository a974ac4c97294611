//! Mutation testing of batch-R1CS proofs (the harness is `flockwork_testkit::mutation`): a
//! seeded sample of single-byte changes, truncations and appended bytes of honest proofs —
//! over Ligerito, FRI-Binius and the Blaze-style commitment, and of chain and public-IO
//! proofs — is rejected, and the verifier never panics. The harness prints the counts of
//! every sweep.

use flockwork_boolean::Blake3Compress;
use flockwork_circuit::{Gadget, SlotKind};
use flockwork_pcs::{Commitment, PcsKind};
use flockwork_r1cs::{Flock, FlockConfig, Statement};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use flockwork_transcript::{Blake3, TranscriptScheme};

/// A sample sized for a few seconds (a verification of these small batches takes a fraction
/// of a millisecond).
const BUDGET: MutationBudget = MutationBudget {
    exhaustive_limit: 16_000,
    truncation_limit: 1000,
    seed: 0x0066_6c6f_636b,
};

fn mutate<T: TranscriptScheme>(name: &str, flock: &Flock<Blake3Compress, Commitment, T>) {
    let words = Blake3Compress.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..2 * words as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let (proof, _) = flock.prove(&inputs, &Statement::Batch).unwrap();
    check_mutations(
        &format!("flock/{name}"),
        proof.as_bytes(),
        BUDGET,
        |bytes| flock.verify(&Statement::Batch, bytes),
    );
}

#[test]
fn flock_over_ligerito_rejects_sampled_mutations() {
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).unwrap();
    mutate("ligerito", &flock);
}

#[test]
fn flock_over_fri_rejects_sampled_mutations() {
    let config = FlockConfig {
        scheme: PcsKind::Fri,
        ..FlockConfig::default()
    };
    let flock = Flock::new(Blake3Compress, 1, config).unwrap();
    mutate("fri", &flock);
}

#[test]
fn flock_over_blaze_rejects_sampled_mutations() {
    let config = FlockConfig {
        scheme: PcsKind::Blaze,
        ..FlockConfig::default()
    };
    let flock = Flock::new(Blake3Compress, 1, config).unwrap();
    mutate("blaze", &flock);
}

/// Proofs over the other transcripts (the BLAKE3 hash transcript, the Poseidon2b sponge):
/// every sampled mutation is rejected there too.
#[test]
fn flock_over_other_transcripts_rejects_sampled_mutations() {
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).unwrap();
    mutate("blake3-transcript", &flock.with_transcript::<Blake3>());
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).unwrap();
    mutate(
        "poseidon2b-transcript",
        &flock.with_transcript::<flockwork_poseidon2b::Poseidon2bSponge>(),
    );
}

/// A chain in wide blocks (three two-round Keccak-p steps per block, two blocks): the chain
/// argument over blocks of several instances rejects every sampled mutation too.
#[test]
fn wide_chain_proofs_reject_sampled_mutations() {
    use flockwork_boolean::io::{ChainStep, chain_witness};
    use flockwork_boolean::{KeccakF1600, wide_chain};
    let wide = wide_chain(KeccakF1600::reduced(2), 3);
    let chain = chain_witness(&wide, [7u64; 25], &[vec![(); 3], vec![(); 3]], true);
    let flock = Flock::with_chain(
        wide,
        1,
        KeccakF1600::STATE_IN,
        KeccakF1600::STATE_OUT,
        FlockConfig::default(),
    )
    .unwrap();
    let statement = flock.chain_statement(&chain.witness).unwrap();
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    check_mutations("flock/wide-chain", proof.as_bytes(), BUDGET, |bytes| {
        flock.verify(&statement, bytes)
    });
}

/// A chain of exactly 3 instances in 4 blocks (the count in the setup digest and the constant
/// pin): every sampled mutation is rejected.
#[test]
fn exact_count_chain_proofs_reject_sampled_mutations() {
    use flockwork_boolean::Blake3Block;
    use flockwork_boolean::io::{ChainStep, chain_witness};
    let data: Vec<Blake3Block> = (0..3u32)
        .map(|i| Blake3Block {
            words: core::array::from_fn(|j| (i * 0x0101_0101) ^ j as u32),
            counter: u64::from(i),
            block_len: 64,
            flags: 0,
        })
        .collect();
    let chain = chain_witness(&Blake3Compress, [9u32; 8], &data, true);
    let flock = Flock::for_count(Blake3Compress, 3, FlockConfig::default())
        .unwrap()
        .chained(Blake3Compress::STATE_IN, Blake3Compress::STATE_OUT)
        .unwrap();
    let statement = flock.chain_statement(&chain.witness).unwrap();
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    check_mutations("flock/exact-count", proof.as_bytes(), BUDGET, |bytes| {
        flock.verify(&statement, bytes)
    });
}

/// Independent instances with public inputs and outputs: the public-IO claim joins the
/// opening, and every sampled mutation is rejected.
#[test]
fn public_io_proofs_reject_sampled_mutations() {
    let words = Blake3Compress.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..2 * words as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5555)
        .collect();
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default())
        .unwrap()
        .public_io()
        .unwrap();
    let witness = flockwork_circuit::batch_witness(&Blake3Compress, &inputs, true);
    let statement = flock.public_statement(&witness).unwrap();
    let (proof, _) = flock.prove(&inputs, &statement).unwrap();
    check_mutations("flock/public", proof.as_bytes(), BUDGET, |bytes| {
        flock.verify(&statement, bytes)
    });
}

/// A Merkle tree over 3 leaves (the left-complete tree, 3 instances in 4 blocks): every
/// sampled mutation is rejected.
#[test]
fn ragged_merkle_proofs_reject_sampled_mutations() {
    use flockwork_boolean::io::MerkleNode;
    use flockwork_boolean::words::join_u32;
    let leaves: Vec<[u32; 8]> = (0..3u32)
        .map(|i| core::array::from_fn(|j| i.wrapping_mul(0x0101_0101) ^ j as u32))
        .collect();
    let (children, root) =
        flockwork_r1cs::merkle::heap_tree(&leaves, |l, r| Blake3Compress.node_digest(l, r));
    let inputs: Vec<u64> = children
        .iter()
        .flat_map(|(l, r)| Blake3Compress.node_input(l, r))
        .collect();
    let statement = Statement::Merkle {
        root: join_u32::<4>(&root).to_vec(),
        leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
    };
    let flock = Flock::for_count(Blake3Compress, 3, FlockConfig::default())
        .unwrap()
        .merkle_tree(
            Blake3Compress::CHILDREN,
            Blake3Compress::DIGEST,
            Blake3Compress.fixed_inputs(),
        )
        .unwrap();
    let (proof, _) = flock.prove(&inputs, &statement).unwrap();
    check_mutations("flock/merkle-3-leaves", proof.as_bytes(), BUDGET, |bytes| {
        flock.verify(&statement, bytes)
    });
}
