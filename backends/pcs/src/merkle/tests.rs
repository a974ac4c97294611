use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_testkit::{random_vec, rng};

use super::*;

fn rows(n: usize, width: usize) -> Vec<Ghash128> {
    random_vec(&mut rng("merkle/rows"), n * width)
}

fn leaf_hashes<D: Digest>(rows: &[Ghash128], width: usize, indices: &[usize]) -> Vec<u8> {
    indices
        .iter()
        .flat_map(|&j| hash_leaf::<D, Ghash128>(&rows[j * width..(j + 1) * width]))
        .collect()
}

fn check_openings<D: Digest>() {
    let width = 3;
    for depth in 0..6 {
        let data = rows(1 << depth, width);
        let tree = MerkleTree::<D>::new(&data, width);
        assert_eq!(tree.depth(), depth);
        let subsets: Vec<Vec<usize>> = vec![
            vec![0],
            vec![(1 << depth) - 1],
            (0..1 << depth).collect(),
            (0..1 << depth).step_by(3).collect(),
        ];
        for indices in subsets {
            let siblings = tree.open(&indices);
            let count = sibling_count(depth, &indices).unwrap();
            assert_eq!(siblings.len(), count * digest_len::<D>());
            let hashes = leaf_hashes::<D>(&data, width, &indices);
            verify_opening::<D>(tree.root(), depth, &indices, &hashes, &siblings).unwrap();
            // The same opening from the rows (leaves hashed by `verify_rows`), and a changed
            // element or a missing row rejected.
            let mut opened: Vec<Ghash128> = indices
                .iter()
                .flat_map(|&j| data[j * width..(j + 1) * width].iter().copied())
                .collect();
            verify_rows::<D, Ghash128>(tree.root(), depth, &indices, &opened, width, &siblings)
                .unwrap();
            assert!(
                verify_rows::<D, Ghash128>(
                    tree.root(),
                    depth,
                    &indices,
                    &opened[width..],
                    width,
                    &siblings
                )
                .is_err()
            );
            opened[width - 1] += Ghash128::ONE;
            assert!(
                verify_rows::<D, Ghash128>(tree.root(), depth, &indices, &opened, width, &siblings)
                    .is_err()
            );
        }
    }
}

#[test]
fn honest_multi_openings_verify_sha256_and_blake3() {
    check_openings::<sha2::Sha256>();
    check_openings::<blake3::Hasher>();
}

#[test]
fn shared_paths_are_deduplicated() {
    assert_eq!(sibling_count(5, &[7]), Some(5));
    assert_eq!(sibling_count(5, &[6, 7]), Some(4));
    assert_eq!(sibling_count(5, &[4, 5, 6, 7]), Some(3));
    assert_eq!(sibling_count(5, &(0..32).collect::<Vec<_>>()), Some(0));
    assert_eq!(sibling_count(3, &[0, 7]), Some(4));
}

#[test]
fn tampering_is_rejected_without_panics() {
    type D = sha2::Sha256;
    let width = 2;
    let depth = 6;
    let data = rows(1 << depth, width);
    let tree = MerkleTree::<D>::new(&data, width);
    let indices = [3usize, 17, 18, 40];
    let siblings = tree.open(&indices);
    let hashes = leaf_hashes::<D>(&data, width, &indices);
    let root = tree.root().to_vec();
    let verify = |idx: &[usize], h: &[u8], s: &[u8]| verify_opening::<D>(&root, depth, idx, h, s);

    // A path for the wrong leaf: the row of leaf 4 claimed at index 3.
    let mut wrong = hashes.clone();
    wrong[..32].copy_from_slice(&leaf_hashes::<D>(&data, width, &[4]));
    assert_eq!(
        verify(&indices, &wrong, &siblings),
        Err(VerifyError::MerklePath)
    );
    // Right leaves at the wrong indices.
    assert!(verify(&[3, 17, 19, 40], &hashes, &siblings).is_err());
    // Every flipped sibling byte.
    for i in 0..siblings.len() {
        let mut bad = siblings.clone();
        bad[i] ^= 1;
        assert!(verify(&indices, &hashes, &bad).is_err(), "byte {i}");
    }
    // Truncated or extended sibling lists.
    assert!(verify(&indices, &hashes, &siblings[..siblings.len() - 32]).is_err());
    assert!(verify(&indices, &hashes, &siblings[..siblings.len() - 1]).is_err());
    let mut longer = siblings.clone();
    longer.extend_from_slice(&[0u8; 32]);
    assert!(verify(&indices, &hashes, &longer).is_err());
    // Malformed index lists.
    assert!(verify(&[17, 3, 18, 40], &hashes, &siblings).is_err());
    assert!(verify(&[3, 3, 18, 40], &hashes, &siblings).is_err());
    assert!(verify(&[3, 17, 18, 64], &hashes, &siblings).is_err());
    assert!(verify(&[], &[], &siblings).is_err());
    assert!(verify(&indices, &hashes[..3 * 32], &siblings).is_err());
    assert!(verify(&indices, &hashes[..hashes.len() - 1], &siblings).is_err());
    assert_eq!(sibling_count(depth, &[5, 5]), None);
    assert_eq!(sibling_count(depth, &[1 << depth]), None);
    assert!(verify_opening::<D>(&root, 200, &indices, &hashes, &siblings).is_err());
}

#[test]
fn leaves_and_nodes_are_domain_separated() {
    type D = sha2::Sha256;
    // Two field elements have the byte length of two digests' worth of halves; the leaf hash
    // of a row never equals the node hash of the same bytes.
    let row = [Ghash128::from_index(5), Ghash128::from_index(9)];
    let mut bytes = [0u8; 32];
    row[0].write_bytes(&mut bytes[..16]);
    row[1].write_bytes(&mut bytes[16..]);
    assert_ne!(
        hash_leaf::<D, Ghash128>(&row),
        hash_node::<D>(&bytes[..16], &bytes[16..]).to_vec()
    );
    // A one-leaf tree's root is its leaf hash.
    let tree = MerkleTree::<D>::new(&row, 2);
    assert_eq!(tree.root(), hash_leaf::<D, Ghash128>(&row).as_slice());
}

/// Every level of the tree recomputed one hash at a time from the definition.
fn levels_by_definition<D: Digest>(data: &[Ghash128], width: usize) -> Vec<Vec<u8>> {
    let mut level: Vec<Vec<u8>> = data.chunks(width).map(hash_leaf::<D, Ghash128>).collect();
    let mut levels = vec![level.concat()];
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| hash_node::<D>(&p[0], &p[1]).to_vec())
            .collect();
        levels.push(level.concat());
    }
    levels
}

#[test]
fn parallel_and_sequential_construction_agree() {
    type D = blake3::Hasher;
    let data = rows(1 << 10, 1);
    let tree = MerkleTree::<D>::new(&data, 1);
    assert_eq!(tree.levels, levels_by_definition::<D>(&data, 1));
}

#[test]
fn the_multi_lane_sha256_tree_equals_the_definition() {
    type D = sha2::Sha256;
    assert!(flockwork_sha256x::is_sha256::<D>());
    // Fewer leaves than a batch, several batches with partial SIMD groups, wide and narrow
    // rows, and more nodes than a node batch.
    for (leaves, width) in [(1, 3), (2, 1), (8, 5), (64, 2), (128, 64), (1 << 11, 1)] {
        let leaves: usize = leaves;
        let data = rows(leaves.next_power_of_two(), width);
        let tree = MerkleTree::<D>::new(&data, width);
        assert_eq!(
            tree.levels,
            levels_by_definition::<D>(&data, width),
            "{leaves} leaves of {width}"
        );
    }
}

fn leaves_then_tree_equals_new<D: Digest>() {
    for (depth, width) in [(0, 1), (3, 5), (7, 16), (10, 3)] {
        let data = rows(1 << depth, width);
        let mut leaves = vec![0u8; (1 << depth) * digest_len::<D>()];
        // Uneven pieces, as a caller hashing blocks of rows would pass them.
        let (first_rows, first_out) = (data.len() / width / 3, digest_len::<D>());
        let (head, tail) = leaves.split_at_mut(first_rows * first_out);
        hash_leaves_into::<D, Ghash128>(&data[..first_rows * width], width, head);
        hash_leaves_into::<D, Ghash128>(&data[first_rows * width..], width, tail);
        let tree = MerkleTree::<D>::from_leaf_digests(leaves);
        assert_eq!(tree.root(), MerkleTree::<D>::new(&data, width).root());
        assert_eq!(tree.depth(), depth);
    }
}

#[test]
fn trees_from_leaf_digests_equal_trees_from_rows() {
    leaves_then_tree_equals_new::<sha2::Sha256>();
    leaves_then_tree_equals_new::<blake3::Hasher>();
}
