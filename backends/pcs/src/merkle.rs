//! Merkle trees over any [`digest::Digest`], with rows of field elements as leaves and
//! batched multi-openings.
//!
//! ## Hashing (domain-separated)
//!
//! * leaf `j`: `H(0x00 ‖ bytes(row_j))`, the canonical encodings of the row's elements
//!   concatenated;
//! * internal node: `H(0x01 ‖ left ‖ right)`.
//!
//! The distinct prefixes make a leaf and an internal node never collide as preimages (the
//! second-preimage attack of interpreting two child digests as a leaf, Flock's reference tree
//! lacks this; see notes/flock.md, pitfall 12).
//!
//! When `D` is SHA-256 ([`flockwork_sha256x::is_sha256`]), the prover's tree is built with
//! the multi-lane SHA-256 of [`flockwork_sha256x`] (16 leaves or nodes per AVX-512 pass where
//! available): the same digests, about three times the throughput of one message at a time.
//! The verifier ([`verify_rows`]) hashes the opened rows and then each level's parents the same
//! way, on its one thread.
//!
//! ## Multi-openings
//!
//! For a sorted set of distinct leaf indices, the opening lists, level by level from the
//! leaves up and left to right, the digest of every sibling that the verifier cannot compute
//! itself: two opened nodes that are siblings share their parent, so common path segments
//! appear once. The verifier walks the same schedule ([`sibling_count`] tells how many digests
//! it reads) and compares the recomputed root; it never panics and only allocates in
//! proportion to the openings.

use core::marker::PhantomData;

use digest::{Digest, Output};
use flockwork_core::VerifyError;
use flockwork_field::Field;
use itertools::Itertools;

/// Prefix byte of leaf hashes.
const LEAF_PREFIX: u8 = 0;
/// Prefix byte of internal-node hashes.
const NODE_PREFIX: u8 = 1;

/// The digest length of `D` in bytes.
#[must_use]
pub fn digest_len<D: Digest>() -> usize {
    <D as Digest>::output_size()
}

/// `H(0x00 ‖ bytes(row))`.
#[must_use]
pub fn hash_leaf<D: Digest, F: Field>(row: &[F]) -> Vec<u8> {
    let mut bytes = vec![0u8; row.len() * F::NUM_BYTES];
    for (x, out) in row.iter().zip(bytes.chunks_exact_mut(F::NUM_BYTES.max(1))) {
        x.write_bytes(out);
    }
    D::new()
        .chain_update([LEAF_PREFIX])
        .chain_update(&bytes)
        .finalize()
        .to_vec()
}

/// `H(0x01 ‖ left ‖ right)`.
fn hash_node<D: Digest>(left: &[u8], right: &[u8]) -> Output<D> {
    D::new()
        .chain_update([NODE_PREFIX])
        .chain_update(left)
        .chain_update(right)
        .finalize()
}

/// A complete binary Merkle tree over `2^depth` leaves, each a row of field elements.
#[derive(Clone, Debug)]
pub struct MerkleTree<D> {
    /// `levels[0]` are the leaf digests, `levels[depth]` the root; each level is the
    /// concatenation of its digests.
    levels: Vec<Vec<u8>>,
    _digest: PhantomData<fn() -> D>,
}

impl<D: Digest> MerkleTree<D> {
    /// Builds the tree whose leaf `j` is `rows[j·width .. (j+1)·width]` (leaves and levels
    /// hashed in parallel with the `parallel` feature).
    ///
    /// # Panics
    /// If `width == 0` or the number of rows is not a power of two.
    #[must_use]
    pub fn new<F: Field>(rows: &[F], width: usize) -> Self {
        assert!(width > 0, "leaves need at least one element");
        let num_leaves = rows.len() / width;
        assert!(
            num_leaves * width == rows.len() && num_leaves.is_power_of_two(),
            "a Merkle tree needs 2^depth leaves"
        );
        let len = digest_len::<D>();
        let mut leaves = flockwork_codes::buffer::zeroed(num_leaves * len, 0u8);
        for_each_batch(&mut leaves, LEAF_BATCH * len, |(batch, digests)| {
            let first = batch * LEAF_BATCH * width;
            let count = digests.len() / len;
            hash_leaves_into::<D, F>(&rows[first..first + count * width], width, digests);
        });
        Self::from_leaf_digests(leaves)
    }

    /// Builds the tree above the given leaf digests (concatenated, `2^depth` of them, as
    /// computed by [`hash_leaves_into`]); internal levels hashed in parallel with the
    /// `parallel` feature.
    ///
    /// # Panics
    /// If the number of digests is not a power of two.
    #[must_use]
    pub fn from_leaf_digests(leaves: Vec<u8>) -> Self {
        let len = digest_len::<D>();
        let num_leaves = leaves.len() / len;
        assert!(
            num_leaves * len == leaves.len() && num_leaves.is_power_of_two(),
            "a Merkle tree needs 2^depth leaves"
        );
        let multi_lane = flockwork_sha256x::is_sha256::<D>();
        let mut levels = vec![leaves];
        while levels.last().map_or(0, Vec::len) > len {
            let below = levels.last().expect("at least the leaf level");
            let parents = below.len() / len / 2;
            let next = if multi_lane {
                sha256_nodes(below)
            } else {
                hash_all(parents, len, |p| {
                    hash_node::<D>(
                        &below[2 * p * len..(2 * p + 1) * len],
                        &below[(2 * p + 1) * len..(2 * p + 2) * len],
                    )
                })
            };
            levels.push(next);
        }
        Self {
            levels,
            _digest: PhantomData,
        }
    }

    /// `log2` of the number of leaves.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// The root digest.
    #[must_use]
    pub fn root(&self) -> &[u8] {
        self.levels.last().expect("a tree has a root")
    }

    /// The sibling digests of the multi-opening of `indices`, concatenated in the order
    /// described in the [module docs](self).
    ///
    /// # Panics
    /// If `indices` is not strictly increasing or holds an index beyond the leaves.
    #[must_use]
    pub fn open(&self, indices: &[usize]) -> Vec<u8> {
        let len = digest_len::<D>();
        let mut siblings = Vec::new();
        let leaves = indices.iter().map(|&j| (j, ())).collect();
        walk(
            leaves,
            self.depth(),
            |level, node| {
                siblings.extend_from_slice(&self.levels[level][node * len..(node + 1) * len]);
                Ok::<(), ()>(())
            },
            |pairs| Ok(vec![(); pairs.len()]),
        )
        .expect("indices must be sorted, distinct and in range");
        siblings
    }
}

/// The number of sibling digests in the multi-opening of `indices` in a tree of the given
/// depth; `None` if `indices` is not strictly increasing or out of range.
#[must_use]
pub fn sibling_count(depth: usize, indices: &[usize]) -> Option<usize> {
    let mut count = 0;
    let leaves = indices.iter().map(|&j| (j, ())).collect();
    walk(
        leaves,
        depth,
        |_, _| {
            count += 1;
            Ok::<(), ()>(())
        },
        |pairs| Ok(vec![(); pairs.len()]),
    )
    .ok()?;
    Some(count)
}

/// Verifies a multi-opening of rows: `rows` holds the opened leaves `indices[t]` (`width`
/// elements each, in order), `siblings` the concatenated sibling digests
/// ([`MerkleTree::open`]). With SHA-256 the leaves and each level's parents are hashed with
/// the multi-lane SHA-256 ([`flockwork_sha256x`]) on the calling thread.
///
/// # Errors
/// [`VerifyError::MerklePath`] for malformed indices, a row count that differs from the
/// indices, a wrong number of sibling bytes, or a root mismatch.
pub fn verify_rows<D: Digest, F: Field>(
    root: &[u8],
    depth: usize,
    indices: &[usize],
    rows: &[F],
    width: usize,
    siblings: &[u8],
) -> Result<(), VerifyError> {
    let len = digest_len::<D>();
    if width == 0 || rows.len() != indices.len() * width {
        return Err(VerifyError::MerklePath);
    }
    let mut digests = vec![0u8; indices.len() * len];
    hash_leaves_into::<D, F>(rows, width, &mut digests);
    verify_opening::<D>(root, depth, indices, &digests, siblings)
}

/// Verifies a multi-opening: `leaf_hashes` concatenates the digests of the leaves `indices`
/// (one digest each, in order), and `siblings` the sibling digests ([`MerkleTree::open`]).
/// Each level's parents are hashed together (multi-lane with SHA-256, on the calling thread);
/// digests are carried by value, so the walk allocates per level, not per node.
///
/// # Errors
/// [`VerifyError::MerklePath`] for malformed indices, a wrong number of leaf or sibling
/// bytes, or a root mismatch.
pub fn verify_opening<D: Digest>(
    root: &[u8],
    depth: usize,
    indices: &[usize],
    leaf_hashes: &[u8],
    siblings: &[u8],
) -> Result<(), VerifyError> {
    let len = digest_len::<D>();
    if leaf_hashes.len() != indices.len() * len || !siblings.len().is_multiple_of(len) {
        return Err(VerifyError::MerklePath);
    }
    let digest = |bytes: &[u8]| Output::<D>::try_from(bytes).expect("chunks of the digest length");
    let mut supplied = siblings.chunks_exact(len).map(digest);
    let leaves = indices
        .iter()
        .copied()
        .zip(leaf_hashes.chunks_exact(len).map(digest))
        .collect();
    let multi_lane = flockwork_sha256x::is_sha256::<D>();
    let top = walk(
        leaves,
        depth,
        |_, _| supplied.next().ok_or(()),
        |pairs| {
            Ok(if multi_lane {
                sha256_pairs::<D>(&pairs)
            } else {
                pairs.iter().map(|(l, r)| hash_node::<D>(l, r)).collect()
            })
        },
    )
    .map_err(|()| VerifyError::MerklePath)?;
    let all_used = supplied.next().is_none();
    match top.as_slice() {
        [(0, digest)] if all_used && digest.as_slice() == root => Ok(()),
        _ => Err(VerifyError::MerklePath),
    }
}

/// The SHA-256 parents `H(0x01 ‖ left ‖ right)` of `pairs` of 32-byte digests, in order,
/// with the multi-lane SHA-256 on the calling thread: the same digests as [`hash_node`].
fn sha256_pairs<D: Digest>(pairs: &[(Output<D>, Output<D>)]) -> Vec<Output<D>> {
    let mut bytes = Vec::with_capacity(64 * pairs.len());
    for (left, right) in pairs {
        bytes.extend_from_slice(left);
        bytes.extend_from_slice(right);
    }
    let messages: Vec<&[u8]> = bytes.chunks_exact(64).collect();
    let mut digests = vec![[0u8; 32]; pairs.len()];
    flockwork_sha256x::sha256_prefixed_many(&[NODE_PREFIX], &messages, &mut digests);
    digests
        .iter()
        .map(|d| Output::<D>::try_from(&d[..]).expect("SHA-256 digests are 32 bytes"))
        .collect()
}

/// The multi-opening schedule shared by prover and verifier.
///
/// Starts from the opened `(index, node)` pairs at the leaf level and goes up `depth` levels.
/// At each level, a node whose sibling is also known is paired with it; otherwise
/// `sibling(level, sibling_index)` supplies the missing one; `combine(pairs)` then produces the
/// level's parents from its `(left, right)` pairs, in order. Fails (`Err(())`) if the indices
/// are not strictly increasing or out of range, or if a callback fails or returns another
/// number of parents.
fn walk<N, S, C>(
    mut nodes: Vec<(usize, N)>,
    depth: usize,
    mut sibling: S,
    mut combine: C,
) -> Result<Vec<(usize, N)>, ()>
where
    S: FnMut(usize, usize) -> Result<N, ()>,
    C: FnMut(Vec<(N, N)>) -> Result<Vec<N>, ()>,
{
    let in_range = |j: usize| depth >= usize::BITS as usize || j >> depth == 0;
    let increasing = nodes.iter().tuple_windows().all(|(a, b)| a.0 < b.0);
    if nodes.is_empty() || !increasing || !nodes.iter().all(|(j, _)| in_range(*j)) {
        return Err(());
    }
    for level in 0..depth {
        let mut indices = Vec::with_capacity(nodes.len());
        let mut pairs = Vec::with_capacity(nodes.len());
        let mut iter = nodes.into_iter().peekable();
        while let Some((j, node)) = iter.next() {
            let pair_known = j % 2 == 0 && iter.peek().is_some_and(|(k, _)| *k == j + 1);
            let pair = if pair_known {
                let (_, right) = iter.next().expect("peeked");
                (node, right)
            } else if j % 2 == 0 {
                (node, sibling(level, j + 1)?)
            } else {
                (sibling(level, j - 1)?, node)
            };
            indices.push(j / 2);
            pairs.push(pair);
        }
        let parents = combine(pairs)?;
        if parents.len() != indices.len() {
            return Err(());
        }
        nodes = indices.into_iter().zip(parents).collect();
    }
    Ok(nodes)
}

use flockwork_field::par::{self, LEAF_BATCH, NODE_BATCH};

/// The leaf digests [`hash_leaf`] of the consecutive rows of `width` elements of `rows`,
/// concatenated into `out` (one digest per row), on the calling thread. With SHA-256
/// ([`flockwork_sha256x`]: 16 leaves at a time in the lanes of AVX-512 registers where
/// available) the same digests at about three times the throughput.
///
/// # Panics
/// If `width == 0`, or `out` does not hold one digest per row.
pub fn hash_leaves_into<D: Digest, F: Field>(rows: &[F], width: usize, out: &mut [u8]) {
    assert!(width > 0, "leaves need at least one element");
    let len = digest_len::<D>();
    assert_eq!(rows.len() / width * len, out.len(), "one digest per row");
    if flockwork_sha256x::is_sha256::<D>() {
        for (rows, digests) in rows
            .chunks(LEAF_BATCH * width)
            .zip(out.chunks_mut(LEAF_BATCH * len))
        {
            sha256_leaf_batch(rows, width, digests);
        }
    } else {
        for (row, digest) in rows.chunks_exact(width).zip(out.chunks_exact_mut(len)) {
            digest.copy_from_slice(&hash_leaf::<D, F>(row));
        }
    }
}

/// The SHA-256 leaf digests of at most [`LEAF_BATCH`] rows, in one multi-lane call.
fn sha256_leaf_batch<F: Field>(rows: &[F], width: usize, digests: &mut [u8]) {
    let leaf_bytes = width * F::NUM_BYTES;
    let encoded: Vec<u8>;
    let bytes = match F::slice_as_bytes(rows) {
        Some(bytes) => bytes,
        None => {
            let mut buf = vec![0u8; rows.len() * F::NUM_BYTES];
            for (x, b) in rows.iter().zip(buf.chunks_exact_mut(F::NUM_BYTES)) {
                x.write_bytes(b);
            }
            encoded = buf;
            &encoded
        }
    };
    let messages: Vec<&[u8]> = bytes.chunks_exact(leaf_bytes).collect();
    let (digests, _) = digests.as_chunks_mut::<32>();
    flockwork_sha256x::sha256_prefixed_many(&[LEAF_PREFIX], &messages, digests);
}

/// The level above `below` (concatenated 32-byte digests) with multi-lane SHA-256: the same
/// digests as [`hash_node`].
fn sha256_nodes(below: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; below.len() / 2];
    let work = |(batch, digests): (usize, &mut [u8])| {
        let first = batch * NODE_BATCH * 64;
        let messages: Vec<&[u8]> = below[first..first + 2 * digests.len()]
            .chunks_exact(64)
            .collect();
        let (digests, _) = digests.as_chunks_mut::<32>();
        flockwork_sha256x::sha256_prefixed_many(&[NODE_PREFIX], &messages, digests);
    };
    for_each_batch(&mut out, NODE_BATCH * 32, work);
    out
}

/// Runs `work((index, chunk))` over the `chunk`-byte chunks of `out`, in parallel with the
/// `parallel` feature.
fn for_each_batch<W>(out: &mut [u8], chunk: usize, work: W)
where
    W: Fn((usize, &mut [u8])) + Sync + Send,
{
    par::for_each_chunk(out, chunk, 0, |i, c| work((i, c)));
}

/// `f(0) ‖ f(1) ‖ … ‖ f(n − 1)`, each `len` bytes, in parallel for large `n`.
fn hash_all<G, H>(n: usize, len: usize, f: G) -> Vec<u8>
where
    G: Fn(usize) -> H + Sync + Send,
    H: AsRef<[u8]>,
{
    let mut out = vec![0u8; n * len];
    par::for_each_chunk(&mut out, len, 256 * len, |i, o| {
        o.copy_from_slice(f(i).as_ref());
    });
    out
}

#[cfg(test)]
mod tests;
