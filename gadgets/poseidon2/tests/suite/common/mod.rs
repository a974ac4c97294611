//! Shared helpers of the integration tests: the vector files and field lookups.
#![allow(dead_code)]

use flockwork_field::Field;
use flockwork_field_prime::{BabyBearArk, Bls12_381Fr, Bn254Fr, Goldilocks, PallasFp, VestaFp};
use flockwork_poseidon2::data::{ConstantsFile, parse_hex};
use flockwork_poseidon2::instances::{self, DATA};
use flockwork_poseidon2::{Poseidon2, Poseidon2Field};
use serde_json::Value;

/// A KAT file copied from shared/vectors/poseidon2.
pub fn kat_file(field: &str) -> Value {
    let text = match field {
        "bn254" => include_str!("../../data/bn254.json"),
        "bls12_381" => include_str!("../../data/bls12_381.json"),
        "goldilocks" => include_str!("../../data/goldilocks.json"),
        "babybear" => include_str!("../../data/babybear.json"),
        "pallas" => include_str!("../../data/pallas.json"),
        "vesta" => include_str!("../../data/vesta.json"),
        "compress" => include_str!("../../data/compress_2to1.json"),
        other => panic!("no vector file for {other}"),
    };
    serde_json::from_str(text).expect("vector files are valid JSON")
}

/// The field elements of a JSON array of hex strings.
pub fn elements<F: Field>(v: &Value) -> Vec<F> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| parse_hex(x.as_str().expect("a hex string")).expect("a canonical element"))
        .collect()
}

/// The embedded constants of instance `name`, parsed into `F`.
pub fn constants<F: Poseidon2Field>(name: &str) -> ConstantsFile<F> {
    let data = DATA
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no instance {name}"));
    ConstantsFile::parse(data.text).expect("embedded constants parse")
}

/// A runtime permutation for instance `name` (fresh parse, independent of the cache).
pub fn permutation<F: Poseidon2Field>(name: &str) -> Poseidon2<F> {
    Poseidon2::new(constants::<F>(name).params)
}

/// What runs once per field of the reference instances ([`for_each_reference_field`]).
pub trait FieldVisitor {
    /// Called with the field's name (as in the vector files) and its cached instances by
    /// width (panics on a width the field has no instance of).
    fn visit<F: Poseidon2Field>(&mut self, field: &str, lookup: fn(usize) -> &'static Poseidon2<F>);
}

/// Runs `visitor` on BN254, BLS12-381, Goldilocks, BabyBear, Pallas and Vesta, in that order.
pub fn for_each_reference_field(visitor: &mut impl FieldVisitor) {
    visitor.visit::<Bn254Fr>("bn254", |t| match t {
        2 => instances::bn254_t2(),
        3 => instances::bn254_t3(),
        4 => instances::bn254_t4(),
        8 => instances::bn254_t8(),
        12 => instances::bn254_t12(),
        16 => instances::bn254_t16(),
        _ => panic!("no bn254 t={t}"),
    });
    visitor.visit::<Bls12_381Fr>("bls12_381", |t| match t {
        2 => instances::bls12_381_t2(),
        3 => instances::bls12_381_t3(),
        4 => instances::bls12_381_t4(),
        8 => instances::bls12_381_t8(),
        _ => panic!("no bls12_381 t={t}"),
    });
    visitor.visit::<Goldilocks>("goldilocks", |t| match t {
        8 => instances::goldilocks_t8(),
        12 => instances::goldilocks_t12(),
        16 => instances::goldilocks_t16(),
        20 => instances::goldilocks_t20(),
        _ => panic!("no goldilocks t={t}"),
    });
    visitor.visit::<BabyBearArk>("babybear", |t| match t {
        16 => instances::babybear_t16(),
        24 => instances::babybear_t24(),
        _ => panic!("no babybear t={t}"),
    });
    visitor.visit::<PallasFp>("pallas", |t| match t {
        3 => instances::pallas_t3(),
        4 => instances::pallas_t4(),
        8 => instances::pallas_t8(),
        _ => panic!("no pallas t={t}"),
    });
    visitor.visit::<VestaFp>("vesta", |t| match t {
        3 => instances::vesta_t3(),
        _ => panic!("no vesta t={t}"),
    });
}
