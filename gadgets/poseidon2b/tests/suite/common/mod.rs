//! Loading the known-answer files in `vectors/` (copied from `shared/vectors/poseidon2b`, see
//! `vectors/README.md` for provenance).

#![allow(dead_code)]

use serde_json::Value;

/// The parsed JSON of `vectors/<name>`.
pub fn load(name: &str) -> Value {
    let path = format!("{}/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A `"0x…"` hex string as a 128-bit integer.
pub fn hex(v: &Value) -> u128 {
    let s = v.as_str().expect("hex string");
    let digits = s.strip_prefix("0x").unwrap_or(s);
    u128::from_str_radix(digits, 16).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A list of hex strings.
pub fn hex_list(v: &Value) -> Vec<u128> {
    v.as_array().expect("array").iter().map(hex).collect()
}

/// A matrix (list of lists) of hex strings.
pub fn hex_matrix(v: &Value) -> Vec<Vec<u128>> {
    v.as_array().expect("array").iter().map(hex_list).collect()
}

/// One known-answer vector.
pub struct Kat {
    pub name: String,
    pub input: Vec<u128>,
    pub output: Vec<u128>,
}

/// The `vectors` array of a file.
pub fn kats(file: &Value) -> Vec<Kat> {
    file["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .map(|v| Kat {
            name: v["name"].as_str().unwrap_or("").to_owned(),
            input: hex_list(&v["input"]),
            output: hex_list(&v["output"]),
        })
        .collect()
}
