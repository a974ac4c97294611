//! Sponge, byte API and error behaviour.

use flockwork_field::{Field, PrimeField};
use flockwork_field_prime::{Bn254Fr, Goldilocks};
use flockwork_poseidon2::Poseidon2Error;
use flockwork_poseidon2::hash::{Endianness, decode_element, encode_elements, hash, hash_bytes};
use flockwork_poseidon2::instances;

/// The sponge is the documented construction, written out by hand for one block.
#[test]
fn sponge_matches_its_definition() {
    let perm = instances::bn254_t3();
    let (a, b) = (Bn254Fr::from_u64(7), Bn254Fr::from_u64(11));
    // rate 2, one input element: block [a, 1], tag out_len + 2^32 · rate.
    let tag = Bn254Fr::from_u64((2 << 32) | 1);
    let state = perm.permutation(&[a, Bn254Fr::ONE, tag]);
    assert_eq!(hash(perm, &[a], 2, 1).unwrap(), vec![state[0]]);
    // Two elements fill the block: padding adds a second block [1, 0].
    let mut s = perm.permutation(&[a, b, tag]);
    s[0] += Bn254Fr::ONE;
    perm.permute(&mut s);
    assert_eq!(hash(perm, &[a, b], 2, 1).unwrap(), vec![s[0]]);
}

#[test]
fn sponge_separates_lengths_and_outputs() {
    let perm = instances::goldilocks_t12();
    let x: Vec<Goldilocks> = (0..20).map(Goldilocks::from_u64).collect();
    let h = |inp: &[Goldilocks], out| hash(perm, inp, 8, out).unwrap();
    // Trailing zeros are not absorbed away (10* padding).
    let mut with_zero = x.clone();
    with_zero.push(Goldilocks::ZERO);
    assert_ne!(h(&x, 4), h(&with_zero, 4));
    assert_ne!(h(&[], 4), h(&[Goldilocks::ZERO], 4));
    // Output length is domain-separated: the 4-element digest is not a prefix of the 12.
    assert_ne!(h(&x, 4)[..], h(&x, 12)[..4]);
    // Squeezing more than one block works and is deterministic.
    assert_eq!(h(&x, 20).len(), 20);
    assert_eq!(h(&x, 20), h(&x, 20));
    // The fixed path gives the same digest.
    assert_eq!(
        hash(instances::goldilocks_t12_fixed(), &x, 8, 5).unwrap(),
        h(&x, 5)
    );
}

#[test]
fn sponge_rejects_bad_rates() {
    let perm = instances::bn254_t3();
    for rate in [0, 3, 4] {
        assert_eq!(
            hash(perm, &[], rate, 1),
            Err(Poseidon2Error::InvalidRate { rate, t: 3 })
        );
    }
}

#[test]
fn bytes_round_trip_in_both_orders() {
    let perm = instances::bn254_t3();
    let x = [Bn254Fr::from_u64(0x0102), -Bn254Fr::ONE];
    let expected = hash(perm, &x, 2, 2).unwrap();
    for e in [Endianness::Little, Endianness::Big] {
        let bytes = encode_elements(&x, e);
        let inputs: Vec<&[u8]> = bytes.chunks(32).collect();
        let digest = hash_bytes::<Bn254Fr, _>(perm, e, &inputs, 2, 2).unwrap();
        assert_eq!(digest, encode_elements(&expected, e));
    }
    let be = encode_elements(&x[..1], Endianness::Big);
    assert_eq!(&be[30..], &[1, 2]);
    let le = encode_elements(&x[..1], Endianness::Little);
    assert_eq!(&le[..2], &[2, 1]);
}

#[test]
fn bytes_reject_non_canonical_and_wrong_length() {
    let perm = instances::goldilocks_t8();
    let p = Goldilocks::MODULUS;
    let ok = 5u64.to_le_bytes();
    let bad = p.to_le_bytes();
    assert_eq!(
        hash_bytes::<Goldilocks, _>(perm, Endianness::Little, &[&ok, &bad], 4, 1),
        Err(Poseidon2Error::NonCanonical { index: 1 })
    );
    assert_eq!(
        hash_bytes::<Goldilocks, _>(perm, Endianness::Big, &[&p.to_be_bytes()], 4, 1),
        Err(Poseidon2Error::NonCanonical { index: 0 })
    );
    // p − 1 is the largest canonical value, in both orders.
    assert!(decode_element::<Goldilocks>(&(p - 1).to_be_bytes(), Endianness::Big, 0).is_ok());
    assert_eq!(
        hash_bytes::<Goldilocks, _>(perm, Endianness::Little, &[&ok, &ok[..7]], 4, 1),
        Err(Poseidon2Error::WrongLength {
            index: 1,
            expected: 8,
            actual: 7
        })
    );
    // A BN254 value with a high bit set is rejected, the same value reduced is accepted.
    let mut high = [0u8; 32];
    high[0] = 0x80;
    assert_eq!(
        decode_element::<Bn254Fr>(&high, Endianness::Big, 3),
        Err(Poseidon2Error::NonCanonical { index: 3 })
    );
    let msg = Poseidon2Error::NonCanonical { index: 3 }.to_string();
    assert!(
        msg.contains("input 3") && msg.contains("canonical"),
        "{msg}"
    );
}
