//! Unit tests of the ark adapter: strict decoding, wide reduction, roots of unity, sizes.

use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use flockwork_field::{Field, PrimeField};

use crate::{Ark, Bls12_381Fr, Bn254Fr, GoldilocksArk};

/// `bytes + 1` as a little-endian integer of the same length (no overflow in these tests).
fn increment(bytes: &mut [u8]) {
    for b in bytes.iter_mut() {
        let (v, carry) = b.overflowing_add(1);
        *b = v;
        if !carry {
            return;
        }
    }
    panic!("increment overflowed");
}

/// The encodings of p, p + 1 and 2^MODULUS_BITS − 1, all ≥ p.
fn non_canonical_encodings<F: ArkPrimeField>() -> Vec<Vec<u8>> {
    let n = Ark::<F>::NUM_BYTES;
    let mut p = F::MODULUS.to_bytes_le();
    p.resize(n, 0);
    let mut p_plus_one = p.clone();
    increment(&mut p_plus_one);
    let mut all_bits = vec![0xff; n];
    let spare_bits = 8 * n as u32 - F::MODULUS_BIT_SIZE;
    all_bits[n - 1] >>= spare_bits;
    vec![p, p_plus_one, all_bits]
}

fn check_rejects_non_canonical<F: ArkPrimeField>() {
    for bytes in non_canonical_encodings::<F>() {
        assert_eq!(
            Ark::<F>::read_bytes(&bytes),
            None,
            "non-canonical {bytes:02x?} accepted"
        );
    }
    // p − 1 is the largest canonical encoding and round-trips.
    let minus_one = -Ark::<F>::ONE;
    let mut bytes = vec![0; Ark::<F>::NUM_BYTES];
    minus_one.write_bytes(&mut bytes);
    assert_eq!(Ark::<F>::read_bytes(&bytes), Some(minus_one));
    // Setting any bit above MODULUS_BITS (ark's flag bits) is rejected.
    let spare_bits = 8 * Ark::<F>::NUM_BYTES as u32 - F::MODULUS_BIT_SIZE;
    for bit in 0..spare_bits {
        let mut flagged = vec![0; Ark::<F>::NUM_BYTES];
        *flagged.last_mut().unwrap() |= 0x80 >> bit;
        assert_eq!(
            Ark::<F>::read_bytes(&flagged),
            None,
            "flag bit {bit} accepted"
        );
    }
    // Trailing bytes after a valid encoding are rejected.
    let mut long = vec![0; Ark::<F>::NUM_BYTES];
    long.push(0);
    assert_eq!(Ark::<F>::read_bytes(&long), None);
}

#[test]
fn rejects_non_canonical_encodings() {
    check_rejects_non_canonical::<ark_bn254::Fr>();
    check_rejects_non_canonical::<ark_bls12_381::Fr>();
    check_rejects_non_canonical::<crate::GoldilocksFp>();
}

#[test]
fn goldilocks_two_pow_64_minus_one_is_rejected() {
    assert_eq!(GoldilocksArk::read_bytes(&[0xff; 8]), None);
}

fn check_sizes<F: ArkPrimeField>(bits: u32, bytes: usize, two_adicity: u32) {
    assert_eq!(Ark::<F>::MODULUS_BITS, bits);
    assert_eq!(Ark::<F>::ORDER_BITS, bits - 1);
    assert_eq!(Ark::<F>::NUM_BYTES, bytes);
    assert_eq!(Ark::<F>::UNIFORM_BYTES, bytes + 16);
    assert_eq!(Ark::<F>::TWO_ADICITY, two_adicity);
    assert_eq!(F::ONE.compressed_size(), bytes, "ark's encoding size");
}

#[test]
fn sizes_match_the_moduli() {
    check_sizes::<ark_bn254::Fr>(254, 32, 28);
    check_sizes::<ark_bls12_381::Fr>(255, 32, 32);
    check_sizes::<crate::GoldilocksFp>(64, 8, 32);
    check_sizes::<crate::PallasFpInner>(255, 32, 32);
    check_sizes::<crate::VestaFpInner>(255, 32, 32);
    check_sizes::<crate::BabyBearFp>(31, 4, 27);
}

fn check_uniform_reduction<F: ArkPrimeField>() {
    let n = Ark::<F>::UNIFORM_BYTES;
    // p + 5 reduces to 5.
    let mut bytes = F::MODULUS.to_bytes_le();
    bytes.resize(n, 0);
    for _ in 0..5 {
        increment(&mut bytes);
    }
    assert_eq!(Ark::<F>::from_uniform_bytes(&bytes), Ark::<F>::from_u64(5));
    // 2^(8n) − 1 ≡ (256^n − 1): compare with Horner evaluation in the field.
    let ones = vec![0xff; n];
    let mut expected = Ark::<F>::ZERO;
    for _ in 0..n {
        expected = expected * Ark::<F>::from_u64(256) + Ark::<F>::from_u64(255);
    }
    assert_eq!(Ark::<F>::from_uniform_bytes(&ones), expected);
    // 2^(8·NUM_BYTES) lands on 2^(8·NUM_BYTES) mod p, not on zero: the high bytes count.
    let mut high = vec![0; n];
    high[Ark::<F>::NUM_BYTES] = 1;
    let two = Ark::<F>::from_u64(2);
    let expected_high = two.pow(&[8 * Ark::<F>::NUM_BYTES as u64]);
    assert_eq!(Ark::<F>::from_uniform_bytes(&high), expected_high);
}

#[test]
fn uniform_bytes_reduce_wide_integers() {
    check_uniform_reduction::<ark_bn254::Fr>();
    check_uniform_reduction::<ark_bls12_381::Fr>();
    check_uniform_reduction::<crate::GoldilocksFp>();
}

#[test]
#[should_panic(expected = "wrong number of uniform bytes")]
fn uniform_bytes_need_the_exact_length() {
    let _ = Bn254Fr::from_uniform_bytes(&[0; 32]);
}

fn check_roots<F: ArkPrimeField>() {
    let one = Ark::<F>::ONE;
    for log_n in 0..=Ark::<F>::TWO_ADICITY {
        let w = Ark::<F>::two_adic_root_of_unity(log_n);
        assert_eq!(w.pow(&[1 << log_n]), one, "ω^(2^{log_n}) = 1");
        if log_n > 0 {
            assert_ne!(w.pow(&[1 << (log_n - 1)]), one, "ω has order 2^{log_n}");
            assert_eq!(w.pow(&[1 << (log_n - 1)]), -one, "ω^(n/2) = −1");
        }
    }
}

#[test]
fn two_adic_roots_have_exact_order() {
    check_roots::<ark_bn254::Fr>();
    check_roots::<ark_bls12_381::Fr>();
    check_roots::<crate::GoldilocksFp>();
    check_roots::<crate::PallasFpInner>();
    check_roots::<crate::VestaFpInner>();
    check_roots::<crate::BabyBearFp>();
}

/// `g^((p − 1) / 2) = −1`: the configured generator is a quadratic non-residue, which is
/// what makes `g^((p − 1) / 2^s)` a primitive `2^s`-th root of unity.
fn check_generator_is_non_residue<F: ArkPrimeField>() {
    let g = F::GENERATOR;
    let mut half = (-F::ONE).into_bigint();
    half.div2();
    assert_eq!(ark_ff::Field::pow(&g, half), -F::ONE);
}

#[test]
fn new_generators_are_non_residues() {
    check_generator_is_non_residue::<crate::PallasFpInner>();
    check_generator_is_non_residue::<crate::VestaFpInner>();
    check_generator_is_non_residue::<crate::BabyBearFp>();
}

#[test]
#[should_panic(expected = "no 2^29-th root of unity")]
fn roots_beyond_the_two_adicity_panic() {
    let _ = Bn254Fr::two_adic_root_of_unity(29);
}

#[test]
fn integers_and_limbs() {
    let x = Bls12_381Fr::from_u64(u64::MAX);
    assert_eq!(x.to_canonical_limbs().as_ref(), &[u64::MAX, 0, 0, 0]);
    assert_eq!(Bls12_381Fr::from_index(7), Bls12_381Fr::from_u64(7));
    // Goldilocks: u64::MAX = p + 2^32 − 2 reduces.
    let g = GoldilocksArk::from_u64(u64::MAX);
    assert_eq!(g.to_canonical_limbs().as_ref(), &[(1 << 32) - 2]);
    // Little-endian bytes of any length, including none.
    assert_eq!(Bn254Fr::from_le_bytes_mod_order(&[]), Bn254Fr::ZERO);
    assert_eq!(
        Bn254Fr::from_le_bytes_mod_order(&[1, 2]),
        Bn254Fr::from_u64(0x0201)
    );
}

#[test]
fn bytes_are_little_endian_integers() {
    let mut bytes = [0u8; 32];
    Bn254Fr::from_u64(0x0102_0304).write_bytes(&mut bytes);
    assert_eq!(&bytes[..5], &[4, 3, 2, 1, 0]);
    assert!(bytes[5..].iter().all(|&b| b == 0));
}

#[test]
fn adapter_is_transparent() {
    assert_eq!(
        core::mem::size_of::<Bn254Fr>(),
        core::mem::size_of::<ark_bn254::Fr>()
    );
    let a = ark_bn254::Fr::from(12345u64);
    let b = ark_bn254::Fr::from(678u64);
    assert_eq!((Bn254Fr::new(a) * Bn254Fr::new(b)).into_inner(), a * b);
    assert_eq!(format!("{:?}", Bn254Fr::from_u64(42)), "Ark(42)");
}
