//! Forward and backward walks of the R1CS lowering against explicit sparse matrices built
//! here from the XOR graph (the library itself never expands a row).

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotr};
use flockwork_field::{BinaryField, Field};
use flockwork_field_binary::Ghash128;
use flockwork_r1cs::{Node, R1csLowering};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A small circuit touching every primitive: a 32-bit addition, a materialized rotation,
/// NOT, AND and constants.
struct Small;

impl Gadget for Small {
    fn layout(&self) -> IoLayout {
        IoLayout::new(64).input("x", 0, 64).output("y", 1, 64)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input_words::<32>(SlotId(0));
        let sum = b.add(&x[0], &x[1]);
        let r = b.materialize_word(&rotr(&sum, 5));
        let n = b.not_word(&x[0]);
        let t = b.and_words(&n, &r);
        let k = b.constant_word::<32>(0xdead_beef);
        let u = b.xor_words(&t, &k);
        b.output_words(SlotId(1), &[u, sum]);
    }
}

/// Rows of `A0` and `B0` as sorted column lists, expanded from the XOR graph with
/// cancellation (`x ⊕ x = 0`). Nodes are numbered topologically, so one increasing pass
/// expands them all.
struct SparseRows {
    a: Vec<Vec<usize>>,
    b: Vec<Vec<usize>>,
}

fn expand(lowering: &R1csLowering) -> SparseRows {
    let columns = 1 << lowering.log_block();
    let total = 1 + columns + lowering.xor_nodes();
    let mut memo: Vec<Vec<usize>> = Vec::with_capacity(total);
    memo.push(Vec::new());
    memo.extend((0..columns).map(|p| vec![p]));
    for k in 0..lowering.xor_nodes() {
        let Node::Xor(x, y) = lowering.node(lowering.node_id(1 + columns + k)) else {
            panic!("node {k} is not an XOR");
        };
        let merged = xor_lists(&memo[x.index()], &memo[y.index()]);
        memo.push(merged);
    }
    let side = |s: usize| {
        (0..columns)
            .map(|j| memo[lowering.row(j)[s].index()].clone())
            .collect()
    };
    SparseRows {
        a: side(0),
        b: side(1),
    }
}

/// Symmetric-difference merge of two sorted lists.
fn xor_lists(x: &[usize], y: &[usize]) -> Vec<usize> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(x.len() + y.len());
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                out.push(x[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(y[j]);
                j += 1;
            }
        }
    }
    out.extend_from_slice(&x[i..]);
    out.extend_from_slice(&y[j..]);
    out
}

fn random_vec(rng: &mut ChaCha8Rng, n: usize) -> Vec<Ghash128> {
    (0..n).map(|_| Ghash128::from_bits(rng.random())).collect()
}

/// `M v` for sparse rows.
fn sparse_mul(rows: &[Vec<usize>], v: &[Ghash128]) -> Vec<Ghash128> {
    rows.iter().map(|r| r.iter().map(|&c| v[c]).sum()).collect()
}

/// `Mᵀ w` for sparse rows.
fn sparse_transpose_mul(rows: &[Vec<usize>], w: &[Ghash128]) -> Vec<Ghash128> {
    let mut out = vec![Ghash128::ZERO; w.len()];
    for (r, &wj) in rows.iter().zip(w) {
        for &c in r {
            out[c] += wj;
        }
    }
    out
}

/// Both walks against the explicit sparse matrices, for random weight vectors.
fn check_walks_against_sparse<G: Gadget>(gadget: &G, seed: u64) -> usize {
    let lowering = R1csLowering::new(gadget);
    let sparse = expand(&lowering);
    let n = 1 << lowering.log_block();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (wa, wb, v) = (
        random_vec(&mut rng, n),
        random_vec(&mut rng, n),
        random_vec(&mut rng, n),
    );
    let expected: Vec<Ghash128> = sparse_transpose_mul(&sparse.a, &wa)
        .into_iter()
        .zip(sparse_transpose_mul(&sparse.b, &wb))
        .map(|(x, y)| x + y)
        .collect();
    assert_eq!(lowering.transpose_mul(&wa, &wb), expected);
    let (av, bv) = lowering.mul(&v);
    assert_eq!(av, sparse_mul(&sparse.a, &v));
    assert_eq!(bv, sparse_mul(&sparse.b, &v));
    sparse.a.iter().map(Vec::len).max().unwrap_or(0)
}

#[test]
fn small_circuit_walks_match_sparse_matrices() {
    let widest = check_walks_against_sparse(&Small, 10);
    assert!(widest > 2, "the small circuit has composite rows");
}

#[test]
fn sha256_walks_match_sparse_matrices() {
    check_walks_against_sparse(&Sha256Compress, 11);
}

#[test]
fn blake3_walks_match_sparse_matrices() {
    check_walks_against_sparse(&Blake3Compress, 12);
}

#[test]
fn reduced_keccak_walks_match_sparse_matrices() {
    let widest = check_walks_against_sparse(&KeccakF1600::reduced(2), 13);
    assert!(widest > 11, "two rounds already substitute θ twice");
}

/// Full Keccak-f: the sparse matrix is too dense to build in a test, so the backward walk
/// is checked against the forward walk through the adjoint identity
/// `⟨w_a, A0 v⟩ + ⟨w_b, B0 v⟩ = ⟨A0ᵀ w_a + B0ᵀ w_b, v⟩` (the forward walk itself is checked
/// by the satisfaction tests and, on two rounds, against the sparse matrix above).
#[test]
fn keccak_backward_walk_is_the_adjoint_of_the_forward_walk() {
    let lowering = R1csLowering::new(&KeccakF1600::new());
    let n = 1 << lowering.log_block();
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for _ in 0..2 {
        let (wa, wb, v) = (
            random_vec(&mut rng, n),
            random_vec(&mut rng, n),
            random_vec(&mut rng, n),
        );
        let (av, bv) = lowering.mul(&v);
        let lhs: Ghash128 = wa.iter().zip(&av).map(|(x, y)| *x * *y).sum::<Ghash128>()
            + wb.iter().zip(&bv).map(|(x, y)| *x * *y).sum::<Ghash128>();
        let t = lowering.transpose_mul(&wa, &wb);
        let rhs: Ghash128 = t.iter().zip(&v).map(|(x, y)| *x * *y).sum();
        assert_eq!(lhs, rhs);
    }
}
