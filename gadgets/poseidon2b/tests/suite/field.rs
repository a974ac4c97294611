//! The field representation and the monomial products the kernels rely on.

use flockwork_field::{BinaryField, Field, PackedField};
use flockwork_field_binary::ghash::PackedGhash128x4;
use flockwork_poseidon2b::{AesTower128, Ghash128, Poseidon2bLane, ghash_mul_monomial, sbox};
use rand::{Rng, SeedableRng, rngs::StdRng};

#[test]
fn ghash128_is_the_official_non_reflected_polynomial_basis() {
    // x · x^127 = x^128 = x^7 + x^2 + x + 1 (0x87) in GF(2)[x]/(x^128 + x^7 + x^2 + x + 1) with
    // bit i = coefficient of x^i. A bit-reflected (GCM) layout would give another pattern.
    assert_eq!(
        Ghash128::new(2) * Ghash128::new(1 << 127),
        Ghash128::new(0x87)
    );
    assert_eq!(Ghash128::X, Ghash128::new(2));
    // x^64 · x^64 = x^128 as well, and a product of low-degree polynomials is the carry-less one.
    assert_eq!(
        Ghash128::new(1 << 64) * Ghash128::new(1 << 64),
        Ghash128::new(0x87)
    );
    assert_eq!(
        Ghash128::new(0b101) * Ghash128::new(0b11),
        Ghash128::new(0b1111)
    );
}

#[test]
fn ghash_monomial_product_is_multiplication_by_x_to_the_k() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let v: u128 = rng.random();
        for k in 0..128u32 {
            let expected = Ghash128::new(v) * Ghash128::new(1 << k);
            assert_eq!(ghash_mul_monomial(v, k), expected.to_bits(), "k = {k}");
            assert_eq!(Ghash128::new(v).mul_monomial(k), expected);
        }
    }
    // The extreme case of a single reduction: all high bits set.
    assert_eq!(
        Ghash128::new(u128::MAX).mul_monomial(121),
        Ghash128::new(u128::MAX) * Ghash128::new(1 << 121)
    );
}

#[test]
fn packed_monomial_product_is_lane_wise() {
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..50 {
        let lanes: [Ghash128; 4] = core::array::from_fn(|_| Ghash128::new(rng.random()));
        let p = PackedGhash128x4::from_lanes(lanes);
        for k in [0, 1, 2, 3, 5, 8, 9, 11, 13, 14, 100, 127] {
            let out = p.mul_monomial(k);
            for (i, &l) in lanes.iter().enumerate() {
                assert_eq!(out.get(i), l.mul_monomial(k));
            }
        }
    }
}

#[test]
fn tower_monomial_product_is_multiplication_by_the_bit_pattern() {
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..50 {
        let v = AesTower128::from_bits(rng.random());
        for k in [0u32, 1, 2, 5, 9, 13, 64, 127] {
            assert_eq!(v.mul_monomial(k), v * AesTower128::from_bits(1 << k));
        }
    }
    // In the tower, the pattern 4 is the AES byte y^2 = 2 · 2.
    let two = AesTower128::from_bits(2);
    assert_eq!(two * two, AesTower128::from_bits(4));
}

#[test]
fn sbox_is_the_seventh_power() {
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..100 {
        let v = Ghash128::new(rng.random());
        assert_eq!(sbox(v), v.pow(&[7]));
        let w = AesTower128::from_bits(rng.random());
        assert_eq!(sbox(w), w.pow(&[7]));
    }
    assert_eq!(sbox(Ghash128::ZERO), Ghash128::ZERO);
    assert_eq!(sbox(Ghash128::ONE), Ghash128::ONE);
}
