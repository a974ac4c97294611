//! Shared helpers of the integration tests: the vector files and field lookups.
#![allow(dead_code)]

use flockwork_field::Field;
use flockwork_poseidon2::data::{ConstantsFile, parse_hex};
use flockwork_poseidon2::instances::DATA;
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
