//! Merkle trees in heap order: prove and verify for SHA-256 and BLAKE3 nodes; wrong roots,
//! wrong leaves, broken links and wrong fixed inputs are rejected.

use flockwork_boolean::io::{MerkleNode, merkle_witness};
use flockwork_boolean::words::join_u32;
use flockwork_boolean::{Blake3Compress, Sha256Compress};
use flockwork_core::circuit::{BatchWitness, Gadget, SlotId, SlotKind, batch_witness};
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A tree in heap order: the instance inputs (instance 0 is padding), root and leaves.
struct Tree {
    inputs: Vec<u64>,
    root: Vec<u64>,
    leaves: Vec<Vec<u64>>,
}

fn heap_tree<G: MerkleNode<Digest = [u32; 8]>>(gadget: &G, leaves: &[[u32; 8]]) -> Tree {
    let tree = merkle_witness(gadget, leaves, false);
    Tree {
        root: join_u32::<4>(&tree.root()).to_vec(),
        leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
        inputs: tree.inputs,
    }
}

fn setup<G: MerkleNode<Digest = [u32; 8]>>(gadget: G, log_k: usize) -> Flock<G> {
    let fixed = gadget.fixed_inputs();
    Flock::with_merkle(
        gadget,
        log_k,
        G::CHILDREN,
        G::DIGEST,
        fixed,
        FlockConfig::default(),
    )
    .unwrap()
}

fn roundtrip<G: MerkleNode<Digest = [u32; 8]>>(gadget: G, log_k: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(log_k as u64 + 40);
    let leaves: Vec<[u32; 8]> = (0..1 << log_k).map(|_| rng.random()).collect();
    let tree = heap_tree(&gadget, &leaves);
    let flock = setup(gadget, log_k);
    let statement = Statement::Merkle {
        root: tree.root.clone(),
        leaves: tree.leaves.clone(),
    };
    let (proof, _) = flock.prove(&tree.inputs, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();

    let mut bad_root = statement.clone();
    if let Statement::Merkle { root, .. } = &mut bad_root {
        root[3] ^= 1 << 40;
    }
    assert!(flock.verify(&bad_root, proof.as_bytes()).is_err());
    let (cheat, _) = flock.prove(&tree.inputs, &bad_root).unwrap();
    assert!(matches!(
        flock.verify(&bad_root, cheat.as_bytes()),
        Err(FlockError::Opening(_))
    ));
    for leaf in [0, leaves.len() / 2, leaves.len() - 1] {
        let mut bad_leaf = statement.clone();
        if let Statement::Merkle { leaves, .. } = &mut bad_leaf {
            leaves[leaf][0] ^= 1;
        }
        let (cheat, _) = flock.prove(&tree.inputs, &bad_leaf).unwrap();
        assert!(
            flock.verify(&bad_leaf, cheat.as_bytes()).is_err(),
            "leaf {leaf}"
        );
    }
}

#[test]
fn sha256_trees() {
    roundtrip(Sha256Compress, 3);
    roundtrip(Sha256Compress, 8);
}

#[test]
fn blake3_trees() {
    roundtrip(Blake3Compress, 1);
    roundtrip(Blake3Compress, 9);
}

/// Instance inputs with one region of one instance replaced.
fn tampered<G: Gadget>(
    gadget: &G,
    inputs: &[u64],
    instance: usize,
    region: SlotId,
) -> BatchWitness {
    let layout = gadget.layout();
    let words = layout.vector_bits(SlotKind::Input) / 64;
    let mut inputs = inputs.to_vec();
    inputs[instance * words + layout.vector_offset(region) / 64] ^= 1 << 9;
    batch_witness(gadget, &inputs, true)
}

#[test]
fn broken_links_and_fixed_inputs_are_rejected() {
    let log_k = 4;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let leaves: Vec<[u32; 8]> = (0..1 << log_k).map(|_| rng.random()).collect();
    let tree = heap_tree(&Sha256Compress, &leaves);
    let flock = setup(Sha256Compress, log_k);
    let statement = Statement::Merkle {
        root: tree.root,
        leaves: tree.leaves,
    };
    // A child digest that is not its child's output (internal and leaf level), and a node
    // with another IV: each changes only that instance's inputs.
    for (instance, region) in [
        (3, Sha256Compress::MSG),
        (12, Sha256Compress::MSG),
        (5, Sha256Compress::H_IN),
    ] {
        let w = tampered(&Sha256Compress, &tree.inputs, instance, region);
        let (cheat, _) = flock.prove_witness(&w, &statement).unwrap();
        assert!(
            matches!(
                flock.verify(&statement, cheat.as_bytes()),
                Err(FlockError::Opening(_))
            ),
            "instance {instance}"
        );
    }
    // The padding instance is free.
    let w = tampered(&Sha256Compress, &tree.inputs, 0, Sha256Compress::MSG);
    let (proof, _) = flock.prove_witness(&w, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    // Statements of the wrong shape.
    let Statement::Merkle { root, leaves } = statement else {
        unreachable!()
    };
    let short = Statement::Merkle {
        root: root.clone(),
        leaves: leaves[1..].to_vec(),
    };
    assert!(matches!(
        flock.verify(&short, &[]),
        Err(FlockError::Truncated)
    ));
    assert!(matches!(
        flock.prove(&tree.inputs, &short),
        Err(flockwork_r1cs::ProveError::Statement(_))
    ));
}
