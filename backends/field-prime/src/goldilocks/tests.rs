//! White-box tests of the Goldilocks kernels against plain `u128 % p` arithmetic.

use flockwork_field::{Field, PackedField, PrimeField};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{EPSILON, Goldilocks, P, TWO_POW_128_MOD_P, add, mul, neg, reduce128, reduce192, sub};

const P128: u128 = P as u128;

/// Canonical edge values and a few non-canonical `u64`s used as raw 128-bit inputs.
const EDGES: [u64; 12] = [
    0,
    1,
    2,
    EPSILON,
    1 << 32,
    (1 << 32) + 1,
    1 << 63,
    P - 2,
    P - 1,
    P - (1 << 32),
    0xDEAD_BEEF_CAFE_F00D,
    0x0123_4567_89AB_CDEF,
];

fn canonical_edges() -> impl Iterator<Item = u64> {
    EDGES.into_iter().filter(|&v| v < P)
}

#[test]
fn reduce128_matches_remainder() {
    let mut specials = vec![
        0u128,
        P128,
        P128 - 1,
        P128 + 1,
        u64::MAX as u128,
        u128::MAX,
        (P128 - 1) * (P128 - 1),
        1 << 96,
        (1 << 96) - 1,
        (1 << 96) + 1,
        ((1 << 32) - 1) << 96,
        P128 << 64,
        (P128 << 64) - 1,
    ];
    for &a in &EDGES {
        for &b in &EDGES {
            specials.push(a as u128 * b as u128);
            specials.push(((a as u128) << 64) | b as u128);
        }
    }
    for x in specials {
        assert_eq!(reduce128(x) as u128, x % P128, "reduce128({x:#x})");
    }
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200_000 {
        let x: u128 = rng.random();
        assert_eq!(reduce128(x) as u128, x % P128, "reduce128({x:#x})");
    }
}

#[test]
fn add_sub_neg_mul_match_u128_reference() {
    let mut rng = StdRng::seed_from_u64(2);
    let random = (0..20_000).map(|_| rng.random_range(0..P));
    let values: Vec<u64> = canonical_edges().chain(random).collect();
    for (i, &a) in values.iter().enumerate() {
        // All pairs of edges, and each random value against its neighbour and the edges.
        let partners = values.iter().take(EDGES.len()).chain(values.get(i + 1));
        for &b in partners {
            let (a1, b1) = (a as u128, b as u128);
            assert_eq!(add(a, b) as u128, (a1 + b1) % P128, "{a} + {b}");
            assert_eq!(sub(a, b) as u128, (a1 + P128 - b1) % P128, "{a} - {b}");
            assert_eq!(mul(a, b) as u128, a1 * b1 % P128, "{a} * {b}");
        }
        assert_eq!(neg(a) as u128, (P128 - a as u128) % P128, "-{a}");
    }
}

#[test]
fn reduce192_matches_remainder() {
    assert_eq!(
        TWO_POW_128_MOD_P as u128,
        (u128::MAX % P128 + 1) % P128,
        "2^128 mod p"
    );
    let reference = |lo: u128, hi: u64| {
        let high = (hi as u128 % P128) * TWO_POW_128_MOD_P as u128 % P128;
        (lo % P128 + high) % P128
    };
    let mut cases = vec![(0, 0), (u128::MAX, u64::MAX), (P128, P - 1), (1, 1)];
    let mut rng = StdRng::seed_from_u64(3);
    cases.extend((0..100_000).map(|_| (rng.random(), rng.random())));
    for (lo, hi) in cases {
        assert_eq!(
            reduce192(lo, hi) as u128,
            reference(lo, hi),
            "({lo:#x}, {hi:#x})"
        );
    }
}

#[test]
fn inverse_by_addition_chain() {
    assert_eq!(Goldilocks(0).invert_or_zero(), Goldilocks(0));
    assert_eq!(Goldilocks::ZERO.inverse(), None);
    let mut rng = StdRng::seed_from_u64(4);
    let random = (0..10_000).map(|_| rng.random_range(1..P));
    for v in canonical_edges().filter(|&v| v != 0).chain(random) {
        let x = Goldilocks(v);
        let inv = x.inverse().expect("nonzero");
        assert_eq!(x * inv, Goldilocks::ONE, "{v} · {v}^-1");
        assert_eq!(inv, x.pow(&[P - 2]), "chain = Fermat for {v}");
    }
}

/// p − 1 = 2^32 · 3 · 5 · 17 · 257 · 65537.
const ODD_PRIME_FACTORS: [u64; 5] = [3, 5, 17, 257, 65537];

#[test]
fn seven_generates_the_multiplicative_group() {
    let product: u64 = ODD_PRIME_FACTORS.iter().product::<u64>() << 32;
    assert_eq!(product, P - 1, "factorisation of p − 1");
    let g = Goldilocks::MULTIPLICATIVE_GENERATOR;
    assert_eq!(g.pow(&[P - 1]), Goldilocks::ONE, "Fermat");
    for q in [2].into_iter().chain(ODD_PRIME_FACTORS) {
        assert_ne!(g.pow(&[(P - 1) / q]), Goldilocks::ONE, "7^((p−1)/{q}) = 1");
    }
}

#[test]
fn two_adic_roots_have_exact_order() {
    assert_eq!(
        Goldilocks::TWO_ADIC_ROOT_OF_UNITY,
        Goldilocks::MULTIPLICATIVE_GENERATOR.pow(&[(P - 1) >> 32])
    );
    assert_eq!(Goldilocks::two_adic_root_of_unity(0), Goldilocks::ONE);
    for log_n in 1..=32 {
        let w = Goldilocks::two_adic_root_of_unity(log_n);
        assert_eq!(w.square_n(log_n), Goldilocks::ONE, "ω^(2^{log_n}) = 1");
        assert_eq!(
            w.square_n(log_n - 1),
            -Goldilocks::ONE,
            "ω^(2^{log_n}/2) = −1"
        );
    }
}

#[test]
#[should_panic(expected = "no 2^33-th root of unity")]
fn roots_beyond_the_two_adicity_panic() {
    let _ = Goldilocks::two_adic_root_of_unity(33);
}

#[test]
fn canonical_bytes() {
    assert_eq!(Goldilocks::read_bytes(&P.to_le_bytes()), None, "p");
    assert_eq!(
        Goldilocks::read_bytes(&(P + 1).to_le_bytes()),
        None,
        "p + 1"
    );
    assert_eq!(Goldilocks::read_bytes(&[0xff; 8]), None, "2^64 − 1");
    assert_eq!(
        Goldilocks::read_bytes(&(P - 1).to_le_bytes()),
        Some(-Goldilocks::ONE)
    );
    assert_eq!(Goldilocks::read_bytes(&[0; 7]), None);
    assert_eq!(Goldilocks::read_bytes(&[0; 9]), None);
    let mut out = [0u8; 8];
    Goldilocks(0x0102_0304_0506_0708).write_bytes(&mut out);
    assert_eq!(out, [8, 7, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn integer_conversions() {
    assert_eq!(Goldilocks::from_u64(u64::MAX).to_u64(), u64::MAX - P);
    assert_eq!(Goldilocks::from_u64(P).to_u64(), 0);
    assert_eq!(Goldilocks::new(P), None);
    assert_eq!(Goldilocks::new(P - 1), Some(-Goldilocks::ONE));
    assert_eq!(
        Goldilocks::from_u128_reduced(u128::MAX).to_u64() as u128,
        u128::MAX % P128
    );
    assert_eq!(Goldilocks::from_le_bytes_mod_order(&[]), Goldilocks::ZERO);
    // 13 bytes: the high partial limb is aligned at byte 8.
    let bytes: Vec<u8> = (1..=13).collect();
    let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as u128;
    let mut hi = [0u8; 8];
    hi[..5].copy_from_slice(&bytes[8..]);
    let value = lo | (u64::from_le_bytes(hi) as u128) << 64;
    assert_eq!(
        Goldilocks::from_le_bytes_mod_order(&bytes).to_u64() as u128,
        value % P128
    );
    assert_eq!(Goldilocks(5).to_canonical_limbs().as_ref(), &[5]);
}

#[test]
fn square_is_mul() {
    for v in canonical_edges() {
        let x = Goldilocks(v);
        assert_eq!(PackedField::square(&x), x * x);
    }
}
