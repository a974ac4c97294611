//! The shape of a Merkle tree over any number of leaves: the **left-complete** binary tree in
//! **heap order**, one home for every engine and statement that builds one.
//!
//! A tree over `L ≥ 2` leaves has every level full except the deepest, which fills from the
//! left. Heap node `p ∈ [1, 2L)` has children `2p` and `2p + 1`; nodes `1 .. L` are the
//! `L − 1` internal nodes (the root is node 1) and nodes `L .. 2L` the leaves. With
//! `d = ⌈log2 L⌉`, the `2L − 2^d` leaves of the deepest level are nodes `2^d .. 2L` and the
//! others nodes `L .. 2^d`, so leaf `j` (left to right) is node [`leaf_node`]`(j, L)`. For
//! `L = 2^k` this is the complete tree with leaf `j` at node `L + j`.
//!
//! It is the shape whose wiring is one closed form for every `L` — node `p` reads nodes
//! `2p` and `2p + 1` — which is what lets batch-R1CS's Merkle argument use one weight for
//! any number of leaves (`flockwork_r1cs::merkle`).

use alloc::vec::Vec;

/// The heap node (in `[L, 2L)`) that holds leaf `j` of `L = leaves` leaves, counted left to
/// right ([module docs](self)).
#[must_use]
pub fn leaf_node(j: usize, leaves: usize) -> usize {
    let full = leaves.next_power_of_two();
    let deep = 2 * leaves - full;
    if j < deep {
        full + j
    } else {
        leaves + j - deep
    }
}

/// The left-complete tree over `leaves` (left to right) with the node function
/// `node(left, right)`: the children of internal nodes `1 .. L` (`children[p − 1]` for node
/// `p`) and the root; the first error `node` returns, if any.
///
/// # Panics
/// If there are fewer than 2 leaves.
pub fn heap_tree<D: Clone, E>(
    leaves: &[D],
    mut node: impl FnMut(&D, &D) -> Result<D, E>,
) -> Result<(Vec<(D, D)>, D), E> {
    let l = leaves.len();
    assert!(l >= 2, "a tree needs at least 2 leaves");
    // digest[c] for heap nodes c ∈ [1, 2L): the leaves first, then the internal nodes bottom up.
    let mut digest: Vec<Option<D>> = alloc::vec![None; 2 * l];
    for (j, leaf) in leaves.iter().enumerate() {
        digest[leaf_node(j, l)] = Some(leaf.clone());
    }
    let mut children = alloc::vec![None; l];
    for p in (1..l).rev() {
        let (left, right) = (
            digest[2 * p].clone().expect("a child below"),
            digest[2 * p + 1].clone().expect("a child below"),
        );
        digest[p] = Some(node(&left, &right)?);
        children[p] = Some((left, right));
    }
    let children = children
        .into_iter()
        .skip(1)
        .map(|c| c.expect("every internal node"))
        .collect();
    Ok((children, digest[1].take().expect("the root")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leaves are numbers, a node is `2·left + 3·right`: the trees of 2 to 9 leaves against
    /// ones written out by hand.
    #[test]
    fn small_trees_by_hand() {
        let node = |l: &u64, r: &u64| Ok::<_, ()>(2 * l + 3 * r);
        let root = |leaves: &[u64]| heap_tree(leaves, node).unwrap().1;
        let f = |l: u64, r: u64| 2 * l + 3 * r;
        assert_eq!(root(&[1, 2]), f(1, 2));
        // Three leaves: the deepest level holds the first two.
        assert_eq!(root(&[1, 2, 3]), f(f(1, 2), 3));
        assert_eq!(root(&[1, 2, 3, 4]), f(f(1, 2), f(3, 4)));
        assert_eq!(root(&[1, 2, 3, 4, 5]), f(f(f(1, 2), 3), f(4, 5)));
        assert_eq!(
            root(&[1, 2, 3, 4, 5, 6, 7]),
            f(f(f(1, 2), f(3, 4)), f(f(5, 6), 7))
        );
        assert_eq!(
            root(&[1, 2, 3, 4, 5, 6, 7, 8, 9]),
            f(f(f(f(1, 2), 3), f(4, 5)), f(f(6, 7), f(8, 9)))
        );
    }

    /// Every leaf sits at its own node in `[L, 2L)`, left to right along the deepest level
    /// and then the one above.
    #[test]
    fn leaves_fill_the_nodes_in_order() {
        for l in 2..70 {
            let mut nodes: Vec<usize> = (0..l).map(|j| leaf_node(j, l)).collect();
            let depth = |p: usize| usize::BITS - p.leading_zeros();
            // Left to right: by decreasing depth, then by node.
            assert!(nodes.windows(2).all(|w| {
                depth(w[0]) > depth(w[1]) || (depth(w[0]) == depth(w[1]) && w[0] < w[1])
            }));
            nodes.sort_unstable();
            assert_eq!(nodes, (l..2 * l).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_first_error_stops_the_tree() {
        let failing = |l: &u64, _: &u64| if *l == 3 { Err(*l) } else { Ok(*l) };
        assert_eq!(heap_tree(&[1, 2, 3, 4], failing), Err(3));
    }
}
