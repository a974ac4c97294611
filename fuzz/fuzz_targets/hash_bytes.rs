//! Fuzzes the byte API `hash_bytes`: arbitrary element slices (any lengths, any values),
//! both byte orders, any rate and output length. It must never panic; it must reject
//! exactly the inputs with a wrong length or an integer >= p, naming the first one; and on
//! success it must equal the sponge over the decoded elements.
#![no_main]

use flockwork_field::Field;
use flockwork_field_prime::{Bn254Fr, Goldilocks};
use flockwork_poseidon2::hash::{Endianness, Permutation, decode_element, encode_elements, hash, hash_bytes};
use flockwork_poseidon2::{Poseidon2Error, Poseidon2Field, instances};
use libfuzzer_sys::fuzz_target;

/// Splits `data` into element slices: each slice is prefixed by one length byte, taken
/// modulo `NUM_BYTES + 2` so that wrong lengths (short and long) occur often.
fn split<F: Field>(mut data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while let Some((&len, rest)) = data.split_first() {
        let len = (len as usize % (F::NUM_BYTES + 2)).min(rest.len());
        let (elem, rest) = rest.split_at(len);
        out.push(elem);
        data = rest;
    }
    out
}

fn check<F: Poseidon2Field, P: Permutation<F>>(perm: &P, control: u8, data: &[u8]) {
    let endianness = if control & 1 == 0 { Endianness::Little } else { Endianness::Big };
    let rate = usize::from(control >> 1 & 0x0f) % (perm.width() + 1);
    let out_len = usize::from(control >> 5);
    let inputs = split::<F>(data);
    let result = hash_bytes::<F, P>(perm, endianness, &inputs, rate, out_len);
    let decoded: Result<Vec<F>, Poseidon2Error> = inputs
        .iter()
        .enumerate()
        .map(|(i, b)| decode_element(b, endianness, i))
        .collect();
    match (&result, decoded) {
        (Ok(digest), Ok(elements)) => {
            let expected = hash(perm, &elements, rate, out_len).expect("valid rate");
            assert_eq!(*digest, encode_elements(&expected, endianness));
            assert_eq!(digest.len(), out_len * F::NUM_BYTES);
        }
        (Err(e), Err(first_bad)) if !matches!(e, Poseidon2Error::InvalidRate { .. }) => {
            assert_eq!(*e, first_bad);
        }
        (Err(Poseidon2Error::InvalidRate { .. }), _) => {
            assert!(rate == 0 || rate >= perm.width());
        }
        (r, d) => panic!("hash_bytes {r:?} disagrees with element decoding {d:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else { return };
    let Some((&which, rest)) = rest.split_first() else { return };
    match which % 3 {
        0 => check::<Goldilocks, _>(instances::goldilocks_t8_fixed(), control, rest),
        1 => check::<Bn254Fr, _>(instances::bn254_t3(), control, rest),
        _ => check::<Goldilocks, _>(instances::goldilocks_t12(), control, rest),
    }
});
