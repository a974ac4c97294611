//! Differential tests: the specialised [`Goldilocks`] backend against ark-ff's Montgomery
//! Goldilocks ([`GoldilocksArk`]), operation by operation, on edge values and 100k random pairs.

use flockwork_field::{Field, PackedField, PrimeField};
use flockwork_field_prime::{Goldilocks, GoldilocksArk};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const P: u64 = Goldilocks::MODULUS;
const RANDOM_PAIRS: usize = 100_000;

/// The same element in the reference implementation, via the canonical integer.
fn to_ark(x: Goldilocks) -> GoldilocksArk {
    GoldilocksArk::from_u64(x.to_u64())
}

/// Edge values as `u64`s, including non-canonical ones (≥ p) that go through `from_u64`.
fn edge_u64s() -> Vec<u64> {
    vec![
        0,
        1,
        2,
        P - 1,
        P - 2,
        P,
        P + 1,
        1 << 32,
        (1 << 32) - 1,
        (1 << 32) + 1,
        1 << 63,
        (1 << 63) - 1,
        u64::MAX,
        u64::MAX - 1,
    ]
}

fn edge_elements() -> Vec<Goldilocks> {
    let mut edges: Vec<Goldilocks> = edge_u64s().into_iter().map(Goldilocks::from_u64).collect();
    let minus_one = -Goldilocks::ONE;
    edges.push(minus_one * minus_one); // (p − 1)^2 = 1
    edges.push(Goldilocks::from_u64(P - 2).square());
    edges
}

fn assert_same(ours: Goldilocks, reference: GoldilocksArk, what: &str) {
    assert_eq!(
        to_ark(ours),
        reference,
        "{what}: ours {ours:?}, ark {reference:?}"
    );
}

fn check_pair(a: Goldilocks, b: Goldilocks) {
    let (x, y) = (to_ark(a), to_ark(b));
    assert_same(a + b, x + y, "add");
    assert_same(a - b, x - y, "sub");
    assert_same(a * b, x * y, "mul");
}

fn check_single(a: Goldilocks) {
    let x = to_ark(a);
    assert_same(-a, -x, "neg");
    assert_same(a.square(), x.square(), "square");
    assert_same(a.double(), x.double(), "double");
    match (a.inverse(), x.inverse()) {
        (Some(i), Some(j)) => assert_same(i, j, "inverse"),
        (None, None) => assert!(a.is_zero()),
        (i, j) => panic!("inverse existence differs for {a:?}: {i:?} vs {j:?}"),
    }
    let (mut ours, mut theirs) = ([0u8; 8], [0u8; 8]);
    a.write_bytes(&mut ours);
    x.write_bytes(&mut theirs);
    assert_eq!(ours, theirs, "bytes of {a:?}");
}

#[test]
fn edge_values_agree() {
    let edges = edge_elements();
    for &a in &edges {
        check_single(a);
        for &b in &edges {
            check_pair(a, b);
        }
    }
}

#[test]
fn random_pairs_agree() {
    let mut rng = StdRng::seed_from_u64(0x601d_10c5);
    for _ in 0..RANDOM_PAIRS {
        let a = Goldilocks::from_u64(rng.random());
        let b = Goldilocks::from_u64(rng.random());
        check_pair(a, b);
        check_single(a);
    }
}

#[test]
fn integer_inputs_agree() {
    let mut rng = StdRng::seed_from_u64(7);
    let random = (0..RANDOM_PAIRS).map(|_| rng.random::<u64>());
    for v in edge_u64s().into_iter().chain(random) {
        assert_same(
            Goldilocks::from_u64(v),
            GoldilocksArk::from_u64(v),
            "from_u64",
        );
        assert_same(
            Goldilocks::from_index(v),
            GoldilocksArk::from_index(v),
            "from_index",
        );
    }
}

#[test]
fn byte_decoding_agrees() {
    let mut rng = StdRng::seed_from_u64(8);
    let random = (0..RANDOM_PAIRS).map(|_| rng.random::<u64>());
    // Random u64s are ≥ p with probability ~2^-32, so add the boundary ones explicitly.
    for v in edge_u64s().into_iter().chain(random) {
        let bytes = v.to_le_bytes();
        let ours = Goldilocks::read_bytes(&bytes);
        let theirs = GoldilocksArk::read_bytes(&bytes);
        assert_eq!(ours.map(to_ark), theirs, "read_bytes({v:#x})");
        assert_eq!(ours.is_some(), v < P, "canonical iff < p: {v:#x}");
    }
}

#[test]
fn uniform_sampling_agrees() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut inputs: Vec<[u8; 24]> = vec![[0; 24], [0xff; 24], [0x5a; 24]];
    inputs.extend((0..RANDOM_PAIRS).map(|_| rng.random::<[u8; 24]>()));
    for bytes in inputs {
        assert_same(
            Goldilocks::from_uniform_bytes(&bytes),
            GoldilocksArk::from_uniform_bytes(&bytes),
            "from_uniform_bytes",
        );
        assert_same(
            Goldilocks::from_le_bytes_mod_order(&bytes[..17]),
            GoldilocksArk::from_le_bytes_mod_order(&bytes[..17]),
            "from_le_bytes_mod_order",
        );
    }
}

#[test]
fn two_adic_roots_agree() {
    assert_eq!(Goldilocks::TWO_ADICITY, GoldilocksArk::TWO_ADICITY);
    assert_eq!(Goldilocks::MODULUS_BITS, GoldilocksArk::MODULUS_BITS);
    assert_eq!(Goldilocks::ORDER_BITS, GoldilocksArk::ORDER_BITS);
    assert_eq!(Goldilocks::NUM_BYTES, GoldilocksArk::NUM_BYTES);
    assert_eq!(Goldilocks::UNIFORM_BYTES, GoldilocksArk::UNIFORM_BYTES);
    for log_n in 0..=Goldilocks::TWO_ADICITY {
        assert_same(
            Goldilocks::two_adic_root_of_unity(log_n),
            GoldilocksArk::two_adic_root_of_unity(log_n),
            "two_adic_root_of_unity",
        );
    }
}

#[test]
fn powers_agree() {
    let mut rng = StdRng::seed_from_u64(10);
    for _ in 0..1_000 {
        let a = Goldilocks::from_u64(rng.random());
        let e = [rng.random::<u64>(), rng.random::<u64>()];
        assert_same(a.pow(&e), to_ark(a).pow(&e), "pow");
    }
}
