//! Merkle trees in heap order: prove and verify for SHA-256 and BLAKE3 nodes over any number
//! of leaves (the left-complete tree, `flockwork_r1cs::merkle`); wrong roots, wrong leaves,
//! broken links, wrong fixed inputs and a bad bit in the last node are rejected, and a proof
//! over `N` leaves is refused by the setups for `N ± 1`.

use flockwork_boolean::io::{MerkleNode, merkle_witness};
use flockwork_boolean::words::join_u32;
use flockwork_boolean::{Blake3Compress, Sha256Compress};
use flockwork_circuit::{BatchWitness, Gadget, SlotId, SlotKind, batch_witness};
use flockwork_r1cs::merkle::heap_tree;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A tree in heap order: the instance inputs (instance 0 is padding), root and leaves.
/// [`boolean_tree`] builds it with `flockwork_boolean`'s builder (powers of two), [`any_tree`]
/// with this crate's.
struct Tree {
    inputs: Vec<u64>,
    root: Vec<u64>,
    leaves: Vec<Vec<u64>>,
}

fn boolean_tree<G: MerkleNode<Digest = [u32; 8]>>(gadget: &G, leaves: &[[u32; 8]]) -> Tree {
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
    let tree = boolean_tree(&gadget, &leaves);
    assert_eq!(any_tree(&gadget, &leaves).inputs, tree.inputs);
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
    let tree = boolean_tree(&Sha256Compress, &leaves);
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

/// The instance inputs, root and leaves of the left-complete tree over `leaves`
/// ([`heap_tree`]).
fn any_tree<G: MerkleNode<Digest = [u32; 8]>>(gadget: &G, leaves: &[[u32; 8]]) -> Tree {
    let (children, root) = heap_tree(leaves, |l, r| gadget.node_digest(l, r));
    Tree {
        inputs: children
            .iter()
            .flat_map(|(l, r)| gadget.node_input(l, r))
            .collect(),
        root: join_u32::<4>(&root).to_vec(),
        leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
    }
}

/// The tree setup for exactly `n` leaves.
fn count_setup<G: MerkleNode<Digest = [u32; 8]>>(gadget: G, n: usize) -> Flock<G> {
    let fixed = gadget.fixed_inputs();
    Flock::for_count(gadget, n, FlockConfig::default())
        .unwrap()
        .merkle_tree(G::CHILDREN, G::DIGEST, fixed)
        .unwrap()
}

/// Honest proof over `n` leaves, then the cheats: a wrong root, a wrong first or last
/// leaf, a bad bit in the last node, the setups for `n ± 1`.
fn tree_at<G: MerkleNode<Digest = [u32; 8]> + Clone>(gadget: G, n: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64 + 77);
    let leaves: Vec<[u32; 8]> = (0..n).map(|_| rng.random()).collect();
    let tree = any_tree(&gadget, &leaves);
    let flock = count_setup(gadget.clone(), n);
    assert_eq!(flock.instances(), n);
    let statement = Statement::Merkle {
        root: tree.root.clone(),
        leaves: tree.leaves.clone(),
    };
    let (proof, _) = flock.prove(&tree.inputs, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    let rejected = |st: &Statement, w: Option<BatchWitness>, what: &str| {
        let (cheat, _) = match w {
            Some(w) => flock.prove_witness(&w, st).unwrap(),
            None => flock.prove(&tree.inputs, st).unwrap(),
        };
        assert!(
            flock.verify(st, cheat.as_bytes()).is_err(),
            "{what} at {n} leaves"
        );
    };
    let mut bad_root = statement.clone();
    if let Statement::Merkle { root, .. } = &mut bad_root {
        root[0] ^= 1 << 17;
    }
    rejected(&bad_root, None, "a wrong root");
    for leaf in [0, n - 1] {
        let mut bad_leaf = statement.clone();
        if let Statement::Merkle { leaves, .. } = &mut bad_leaf {
            leaves[leaf][3] ^= 1 << 60;
        }
        rejected(&bad_leaf, None, "a wrong leaf");
    }
    // The last node's child digest changed (that instance's inputs only).
    let w = tampered(&gadget, &tree.inputs, n - 1, G::CHILDREN);
    rejected(&statement, Some(w), "a bad last node");
    for other in [n - 1, n + 1] {
        if other < 2 {
            continue;
        }
        assert_eq!(
            count_setup(gadget.clone(), other).verify(&statement, proof.as_bytes()),
            Err(FlockError::Statement(
                "a tree over N instances has N leaves"
            )),
            "the proof over {n} leaves checked as one over {other}"
        );
        // The same leaves less one: another setup digest.
        let fewer = Statement::Merkle {
            root: tree.root.clone(),
            leaves: tree.leaves[..other.min(n)].to_vec(),
        };
        if other < n {
            assert_eq!(
                count_setup(gadget.clone(), other).verify(&fewer, proof.as_bytes()),
                Err(FlockError::Setup)
            );
        }
    }
}

#[test]
fn trees_over_any_number_of_leaves() {
    for n in [2, 3, 5, 1000] {
        tree_at(Blake3Compress, n);
    }
    for n in [3, 7] {
        tree_at(Sha256Compress, n);
    }
}

#[test]
fn a_tree_needs_two_leaves() {
    let gadget = Blake3Compress;
    let fixed = gadget.fixed_inputs();
    let one = Flock::for_count(gadget, 1, FlockConfig::default()).unwrap();
    assert!(matches!(
        one.merkle_tree(Blake3Compress::CHILDREN, Blake3Compress::DIGEST, fixed),
        Err(flockwork_r1cs::SetupError::MerkleLayout(_))
    ));
}

/// The left-complete tree's shape: the heap builder agrees with the level-by-level
/// definition (pair the deepest level's leaves, then a perfect tree), leaf by leaf.
#[test]
fn the_heap_tree_is_the_left_complete_tree() {
    let node = |l: &u64, r: &u64| l.wrapping_mul(1_000_003) ^ r.rotate_left(17) ^ 0x5555;
    for n in 2..40u64 {
        let leaves: Vec<u64> = (1..=n).map(|i| i * 0x9e37_79b9).collect();
        let (_, root) = heap_tree(&leaves, node);
        let half = (n as usize).next_power_of_two() / 2;
        let deep = 2 * (n as usize - half);
        let mut level: Vec<u64> = leaves[..deep]
            .chunks_exact(2)
            .map(|p| node(&p[0], &p[1]))
            .chain(leaves[deep..].iter().copied())
            .collect();
        while level.len() > 1 {
            level = level.chunks_exact(2).map(|p| node(&p[0], &p[1])).collect();
        }
        assert_eq!(root, level[0], "{n} leaves");
    }
}
