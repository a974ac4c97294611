//! The permutation as a `Relation`: names, and known answers that are exactly the external
//! `"seq"` vectors of `tests/data/` (HorizenLabs and `taceo-poseidon2`), present only for the
//! reference instances they were published for.

use crate::common;

use common::{elements, kat_file};
use flockwork_core::relation::Relation;
use flockwork_field_prime::{Bn254Fr, GoldilocksArk};
use flockwork_poseidon2::data::ConstantsFile;
use flockwork_poseidon2::instances::{self, DATA};
use flockwork_poseidon2::{Poseidon2, Poseidon2Field, plonky3};
use serde_json::Value;

/// The external `P(0, …, t − 1)` vectors of `field`'s file, by width.
fn external_seq_vectors(field: &str) -> Vec<(usize, Value)> {
    let file = kat_file(field);
    file["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .filter(|v| {
            let origin = v["expected_origin"].as_str().expect("an origin");
            v["name"] == "seq"
                && (origin.starts_with("upstream KAT") || origin.starts_with("third-party KAT"))
        })
        .map(|v| (v["t"].as_u64().expect("t") as usize, v.clone()))
        .collect()
}

/// Counts the known answers [`check_field`] checks, field by field.
struct KnownAnswers(usize);

/// Every reference instance of the field (`lookup(t)` for the widths of [`DATA`]) has the
/// file's external vector as its known answer if the file has one, and none otherwise.
impl common::FieldVisitor for KnownAnswers {
    fn visit<F: Poseidon2Field>(
        &mut self,
        field: &str,
        lookup: fn(usize) -> &'static Poseidon2<F>,
    ) {
        let external = external_seq_vectors(field);
        for data in DATA
            .iter()
            .filter(|d| d.name.rsplit_once("_t").unwrap().0 == field)
        {
            let t: usize = data.name.rsplit_once("_t").unwrap().1.parse().unwrap();
            let perm = lookup(t);
            assert_eq!(perm.name(), format!("poseidon2-{field}-t{t}"));
            let answers = perm.known_answers();
            match external.iter().find(|(w, _)| *w == t) {
                Some((_, v)) => {
                    let input: Vec<F> = elements(&v["input"]);
                    let output: Vec<F> = elements(&v["output"]);
                    assert_eq!(
                        answers,
                        vec![(input.clone(), output.clone())],
                        "{}",
                        data.name
                    );
                    assert_eq!(perm.evaluate(&input), output, "{}", data.name);
                    self.0 += 1;
                }
                None => assert!(answers.is_empty(), "{} has no external vector", data.name),
            }
        }
    }
}

#[test]
fn known_answers_are_the_external_vectors() {
    let mut known = KnownAnswers(0);
    common::for_each_reference_field(&mut known);
    // HorizenLabs: BN254 t = 3, BLS12-381 t = 2, 3, 4, Goldilocks t = 12, BabyBear t = 24,
    // Pallas t = 3, Vesta t = 3; taceo-poseidon2: BN254 t = 2, 4, 8, 12, 16.
    assert_eq!(known.0, 13);
}

/// The same field in another backend (Goldilocks over ark-ff) is recognised by its modulus.
#[test]
fn the_field_is_recognised_by_its_modulus() {
    let ark = common::permutation::<GoldilocksArk>("goldilocks_t12");
    assert_eq!(ark.name(), "poseidon2-goldilocks-t12");
    let (input, output) = ark.known_answers().pop().expect("a known answer");
    assert_eq!(ark.evaluate(&input), output);
}

/// Instances no external vector covers have no known answers: the Plonky3 convention and a
/// reference instance with two round constants swapped.
#[test]
fn other_instances_have_no_known_answers() {
    let p3 = plonky3::goldilocks_t12();
    assert_eq!(p3.name(), "poseidon2-goldilocks-t12-plonky3");
    assert!(p3.known_answers().is_empty());
    let text = DATA.iter().find(|d| d.name == "bn254_t3").unwrap().text;
    let partial = text.lines().find(|l| l.starts_with("partial ")).unwrap();
    let mut constants: Vec<&str> = partial.split_whitespace().skip(1).collect();
    constants.swap(0, 1);
    let swapped = format!("partial {}", constants.join(" "));
    let file = ConstantsFile::<Bn254Fr>::parse(&text.replace(partial, &swapped)).unwrap();
    let changed = Poseidon2::new(file.params);
    assert_ne!(changed.params(), instances::bn254_t3().params());
    assert_eq!(changed.name(), "poseidon2-bn254-t3");
    assert!(changed.known_answers().is_empty());
}
