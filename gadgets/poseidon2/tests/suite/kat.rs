//! Every known-answer vector of shared/vectors/poseidon2 (81 permutations, 16 compressions),
//! through the cached runtime instances, a fresh parse, and the const-generic path.

use crate::common;

use common::{elements, kat_file, permutation};
use flockwork_field::Field;
use flockwork_field_prime::{Bls12_381Fr, Bn254Fr, GoldilocksArk, PallasFp, VestaFp};
use flockwork_poseidon2::hash::compress_2to1;
use flockwork_poseidon2::instances::{self, DATA};
use flockwork_poseidon2::{Poseidon2, Poseidon2Field};

/// Runs every vector of `field`'s file through `lookup(t)` and a fresh parse; returns the
/// number of vectors checked.
fn check_field_kats<F: Poseidon2Field>(
    field: &str,
    lookup: impl Fn(usize) -> &'static Poseidon2<F>,
) -> usize {
    let file = kat_file(field);
    let vectors = file["vectors"].as_array().expect("vectors");
    for v in vectors {
        let t = v["t"].as_u64().expect("t") as usize;
        let input: Vec<F> = elements(&v["input"]);
        let expected: Vec<F> = elements(&v["output"]);
        let cached = lookup(t);
        assert_eq!(cached.params().rp() as u64, v["rp"].as_u64().unwrap());
        assert_eq!(cached.params().d(), v["d"].as_u64().unwrap());
        assert_eq!(
            cached.permutation(&input),
            expected,
            "{field} t={t} {}",
            v["name"]
        );
        let fresh = permutation::<F>(&format!("{field}_t{t}"));
        assert_eq!(
            fresh.permutation(&input),
            expected,
            "{field} t={t} {} (fresh)",
            v["name"]
        );
    }
    vectors.len()
}

/// Counts the vectors [`check_field_kats`] checks, field by field.
struct PermutationKats(usize);

impl common::FieldVisitor for PermutationKats {
    fn visit<F: Poseidon2Field>(
        &mut self,
        field: &str,
        lookup: fn(usize) -> &'static Poseidon2<F>,
    ) {
        self.0 += check_field_kats(field, lookup);
    }
}

#[test]
fn all_permutation_kats() {
    let mut kats = PermutationKats(0);
    common::for_each_reference_field(&mut kats);
    assert_eq!(
        kats.0, 81,
        "the shared directory holds 81 permutation vectors"
    );
}

/// The Goldilocks vectors also hold through ark's Montgomery Goldilocks (generic kernels),
/// so the specialised lazy kernels are checked against an independent arithmetic.
#[test]
fn goldilocks_kats_through_ark() {
    let file = kat_file("goldilocks");
    for v in file["vectors"].as_array().unwrap() {
        let t = v["t"].as_u64().unwrap();
        let perm = permutation::<GoldilocksArk>(&format!("goldilocks_t{t}"));
        let input: Vec<GoldilocksArk> = elements(&v["input"]);
        assert_eq!(
            perm.permutation(&input),
            elements::<GoldilocksArk>(&v["output"])
        );
    }
}

/// Checks the compression vectors of one field against its `t = 3` instance.
fn check_compress<F: Poseidon2Field>(field: &str, perm: &Poseidon2<F>) -> usize {
    let file = kat_file("compress");
    let mut n = 0;
    for v in file["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["field"] == field)
    {
        assert_eq!(v["t"], 3);
        let [l, r, out]: [F; 3] = ["left", "right", "output"]
            .map(|k| flockwork_poseidon2::data::parse_hex(v[k].as_str().unwrap()).unwrap());
        assert_eq!(compress_2to1(perm, l, r), out, "{field} compress");
        n += 1;
    }
    n
}

#[test]
fn all_compression_kats() {
    let n = check_compress::<Bn254Fr>("bn254", instances::bn254_t3())
        + check_compress::<Bls12_381Fr>("bls12_381", instances::bls12_381_t3())
        + check_compress::<PallasFp>("pallas", instances::pallas_t3())
        + check_compress::<VestaFp>("vesta", instances::vesta_t3());
    assert_eq!(n, 16);
    // The fixed path's compression agrees.
    let (l, r) = (Bn254Fr::from_index(5), Bn254Fr::from_index(9));
    assert_eq!(
        compress_2to1(instances::bn254_t3_fixed(), l, r),
        compress_2to1(instances::bn254_t3(), l, r)
    );
}

#[test]
fn every_embedded_instance_is_listed_once() {
    let mut names: Vec<&str> = DATA.iter().map(|d| d.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 20);
}
