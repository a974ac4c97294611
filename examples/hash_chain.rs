//! Batch proving: a chain of SHA-256 compressions (a Merkle–Damgård hash of 64 blocks)
//! proved with the batch-R1CS (Flock) prover, then a Merkle tree of BLAKE3 nodes.
//!
//! Run with `cargo run --release --example hash_chain`.

use flockwork::boolean::constants::SHA256_IV;
use flockwork::boolean::io::{ChainStep, MerkleNode, chain_witness, merkle_witness};
use flockwork::boolean::words::join_u32;
use flockwork::boolean::{Blake3Compress, Sha256Compress};
use flockwork::r1cs::{Flock, FlockConfig, Statement};

// ANCHOR: chain
fn prove_a_chain() -> Result<(), Box<dyn std::error::Error>> {
    // 2^6 = 64 message blocks, chained through SHA-256's compression function.
    let log_k = 6;
    let blocks: Vec<[u8; 64]> = (0..1u8 << log_k).map(|i| [i; 64]).collect();
    let iv = SHA256_IV;

    // Setup: the circuit is lowered once, the commitment sized for 64 instances, and the
    // chain runs from the h_in region of each instance to the h_out region.
    let flock = Flock::with_chain(
        Sha256Compress,
        log_k,
        Sha256Compress::STATE_IN,
        Sha256Compress::STATE_OUT,
        FlockConfig::default(),
    )?;

    // The witness: every compression evaluated as a circuit (bit-sliced, in parallel).
    let chain = chain_witness(&Sha256Compress, iv, &blocks, true);
    // The statement: only the two ends are public; the 64 blocks stay private.
    let statement = Statement::Chain {
        start: join_u32::<4>(&iv).to_vec(),
        end: join_u32::<4>(chain.states.last().expect("64 states")).to_vec(),
    };

    let (proof, report) = flock.prove_witness(&chain.witness, &statement)?;
    println!("{} compressions, proof {} bytes", 1 << log_k, proof.len());
    println!("{}", report.timings);
    flock.verify(&statement, proof.as_bytes())?;
    println!(
        "verified at {:.1} bits of soundness",
        flock.soundness().bits()
    );
    Ok(())
}
// ANCHOR_END: chain

// ANCHOR: merkle
fn prove_a_tree() -> Result<(), Box<dyn std::error::Error>> {
    // A tree over 2^5 leaves takes 2^5 instances in heap order: instance p ≥ 1 is heap
    // node p (root 1, children 2p and 2p+1), instance 0 is padding.
    let log_k = 5;
    let k = 1usize << log_k;
    let leaves: Vec<[u32; 8]> = (0..k).map(|i| [i as u32; 8]).collect();
    let tree = merkle_witness(&Blake3Compress, &leaves, true);

    // The regions every node fixes (the IV and the parent flags) are public constants.
    let flock = Flock::with_merkle(
        Blake3Compress,
        log_k,
        Blake3Compress::CHILDREN,
        Blake3Compress::DIGEST,
        Blake3Compress.fixed_inputs(),
        FlockConfig::default(),
    )?;
    // The statement: the root and the leaves are public.
    let statement = Statement::Merkle {
        root: join_u32::<4>(&tree.root()).to_vec(),
        leaves: leaves.iter().map(|d| join_u32::<4>(d).to_vec()).collect(),
    };
    let (proof, _) = flock.prove_witness(&tree.witness, &statement)?;
    flock.verify(&statement, proof.as_bytes())?;
    println!(
        "Merkle tree over {k} leaves: proof {} bytes, verified",
        proof.len()
    );
    Ok(())
}
// ANCHOR_END: merkle

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // ANCHOR: allocator
    // The one process setting the provers want (`flockwork::allocator`): freed buffers stay
    // mapped for the next phase and the next proof.
    flockwork::allocator::retain_freed_memory();
    // ANCHOR_END: allocator
    prove_a_chain()?;
    prove_a_tree()
}
