//! Known-answer tests: the official t = 4 and t = 6 vectors, the check value, the generated
//! round constants and matrices against the stored data, and frost-gkr's variant.

use crate::common;

use common::{hex_list, hex_matrix, kats, load};
use flockwork_field::BinaryField;
use flockwork_poseidon2b::constants::{
    FROST_GKR_RC_DIGITS, frost_gkr_round_constants, official_round_constants,
};
use flockwork_poseidon2b::matrix::{mf_bits, mp_bits};
use flockwork_poseidon2b::{
    AesTower128, DynPoseidon2b, Ghash128, Instance, ROUNDS, frost_gkr_t4, is_full_round,
    official_t4, official_t6,
};

fn elements<F: BinaryField, const T: usize>(v: &[u128]) -> [F; T] {
    assert_eq!(v.len(), T, "vector width");
    core::array::from_fn(|i| F::from_bits(v[i]))
}

fn bits<F: BinaryField, const T: usize>(s: &[F; T]) -> Vec<u128> {
    s.iter().map(BinaryField::low_bits).collect()
}

#[test]
fn check_value_p_0123() {
    // notes/poseidon2b-gkr.md (a): P(0,1,2,3).
    let out = official_t4().permutation([0, 1, 2, 3].map(Ghash128::new));
    assert_eq!(
        out.map(Ghash128::to_bits),
        [
            0x8f7655abdb748e34e248218d828e976e,
            0x03d8a962b3ef9fdb012a2babed7a22a4,
            0xebef045a528b84d0c01304ec452eb78c,
            0x1c59b5817ed799d58530654b62a40a39,
        ]
    );
}

#[test]
fn official_t4_all_101_vectors() {
    let file = load("official_n128t4.json");
    assert_eq!(file["t"], 4);
    let vectors = kats(&file);
    assert_eq!(vectors.len(), 101);
    assert_eq!(vectors[0].name, "seq0123");
    let perm = official_t4();
    for kat in &vectors {
        let out = perm.permutation(elements::<Ghash128, 4>(&kat.input));
        assert_eq!(bits(&out), kat.output, "vector {}", kat.name);
    }
}

#[test]
fn official_t6_all_101_vectors() {
    let file = load("official_n128t6.json");
    assert_eq!(file["t"], 6);
    let vectors = kats(&file);
    assert_eq!(vectors.len(), 101);
    assert_eq!(vectors[0].name, "seq012345");
    let perm = official_t6();
    for kat in &vectors {
        let out = perm.permutation(elements::<Ghash128, 6>(&kat.input));
        assert_eq!(bits(&out), kat.output, "vector {}", kat.name);
    }
}

#[test]
fn runtime_width_matches_the_vectors() {
    for (t, name) in [(4, "official_n128t4.json"), (6, "official_n128t6.json")] {
        let perm = DynPoseidon2b::official(t).unwrap();
        assert_eq!(perm.width(), t);
        let vectors = kats(&load(name));
        // All 101 states back to back through the batch API, then one by one.
        let mut flat: Vec<Ghash128> = vectors
            .iter()
            .flat_map(|k| k.input.iter().map(|&b| Ghash128::new(b)))
            .collect();
        let expected: Vec<u128> = vectors.iter().flat_map(|k| k.output.clone()).collect();
        let mut single = flat.clone();
        perm.permute_many(&mut flat).unwrap();
        assert_eq!(
            flat.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            expected
        );
        for state in single.chunks_mut(t) {
            perm.permute(state).unwrap();
        }
        assert_eq!(
            single.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            expected
        );
    }
}

#[test]
fn generated_t4_constants_equal_the_stored_matrix() {
    let file = load("official_n128t4.json");
    let stored = hex_matrix(&file["round_constants"]);
    assert_eq!(stored.len(), ROUNDS);
    let generated = official_round_constants(4);
    assert_eq!(generated.len(), ROUNDS * 4);
    for (r, row) in stored.iter().enumerate() {
        assert_eq!(&generated[r * 4..r * 4 + 4], row.as_slice(), "round {r}");
    }
    // And through the instance, as used.
    let used = official_t4().round_constants();
    for (r, row) in stored.iter().enumerate() {
        assert_eq!(bits(&used[r]), *row, "instance round {r}");
    }
}

#[test]
fn generated_t6_constants_have_the_documented_shape() {
    // The t = 6 file stores no constants: they are checked through the 101 vectors above.
    // Here: the same stream as t = 4 (the seed does not depend on t), drawn 6 per round.
    let c6 = official_round_constants(6);
    let c4 = official_round_constants(4);
    assert_eq!(c6.len(), ROUNDS * 6);
    assert_eq!(c6[..4], c4[..4], "round 0 starts the same stream");
    for r in 0..ROUNDS {
        for lane in 1..6 {
            assert_eq!(
                c6[r * 6 + lane] == 0,
                !is_full_round(r),
                "round {r} lane {lane}"
            );
        }
        assert_ne!(c6[r * 6], 0);
    }
}

#[test]
fn generated_matrices_equal_the_stored_ones() {
    let file = load("official_n128t4.json");
    let mf: Vec<Vec<u128>> = mf_bits::<4>().iter().map(|r| r.to_vec()).collect();
    let mp: Vec<Vec<u128>> = mp_bits::<4>().iter().map(|r| r.to_vec()).collect();
    assert_eq!(mf, hex_matrix(&file["mf"]));
    assert_eq!(mp, hex_matrix(&file["mp"]));
    // The frost-gkr file stores the same integers.
    let frost = load("frost_gkr_tower_t4.json");
    assert_eq!(mf, hex_matrix(&frost["mf"]));
    assert_eq!(mp, hex_matrix(&frost["mp"]));
}

#[test]
fn t6_matrices_follow_the_file_notes() {
    let file = load("official_n128t6.json");
    assert!(
        file["mf_note"]
            .as_str()
            .unwrap()
            .contains("[x^9, 1, x, x, x^11, 1]")
    );
    assert!(
        file["mp_note"]
            .as_str()
            .unwrap()
            .contains("[x^8, x^10, x^3, x^2, x^11, x^14]")
    );
    let mf = mf_bits::<6>();
    assert_eq!(mf[0], [1 << 9, 1, 2, 2, 1 << 11, 1]);
    for i in 0..6 {
        for j in 0..6 {
            assert_eq!(mf[i][j], mf[0][(j + 6 - i) % 6], "circulant ({i}, {j})");
        }
    }
    let diag = [8, 10, 3, 2, 11, 14];
    for (i, row) in mp_bits::<6>().iter().enumerate() {
        for (j, &entry) in row.iter().enumerate() {
            let expected = if i == j { 1u128 << diag[i] } else { 1 };
            assert_eq!(entry, expected, "MP ({i}, {j})");
        }
    }
}

#[test]
fn frost_gkr_constants_equal_the_stored_table() {
    let file = load("frost_gkr_tower_t4.json");
    let stored = hex_matrix(&file["round_constants"]);
    let table = frost_gkr_round_constants();
    assert_eq!(stored.len(), ROUNDS);
    for (r, row) in stored.iter().enumerate() {
        assert_eq!(&table[r * 4..r * 4 + 4], row.as_slice(), "round {r}");
        for (lane, digits) in FROST_GKR_RC_DIGITS.iter().enumerate() {
            assert_eq!(u128::from(digits[r] - b'0'), row[lane]);
        }
    }
    let perm = frost_gkr_t4();
    assert_eq!(perm.instance(), Instance::FrostGkr);
    let used = perm.round_constants();
    for (r, row) in stored.iter().enumerate() {
        let expected: Vec<u128> = if is_full_round(r) {
            row.clone()
        } else {
            vec![row[0], 0, 0, 0]
        };
        assert_eq!(bits(&used[r]), expected, "round {r}");
    }
}

#[test]
fn frost_gkr_all_9_vectors() {
    let file = load("frost_gkr_tower_t4.json");
    let vectors = kats(&file);
    assert_eq!(vectors.len(), 9);
    let perm = frost_gkr_t4();
    for kat in &vectors {
        let out = perm.permutation(elements::<AesTower128, 4>(&kat.input));
        assert_eq!(bits(&out), kat.output, "vector {}", kat.name);
    }
    // The notes' observation: every constant lies in GF(2^16), so 0,1,2,3 maps to 16-bit outputs.
    assert!(vectors[0].output.iter().all(|&v| v < 1 << 16));
}

#[test]
fn the_two_instances_differ() {
    // Same inputs, different basis and constants: the official outputs are not frost-gkr's.
    let frost = kats(&load("frost_gkr_tower_t4.json"));
    let official = official_t4().permutation(elements::<Ghash128, 4>(&frost[1].input));
    assert_ne!(bits(&official), frost[1].output);
    assert_eq!(official_t4().instance(), Instance::Official);
    assert_eq!(
        hex_list(&load("official_n128t4.json")["vectors"][0]["output"]),
        bits(&official_t4().permutation([0, 1, 2, 3].map(Ghash128::new)))
    );
}

/// The permutation as a `Relation`: its known answers are the first official vectors, and
/// its batch evaluation agrees with one-at-a-time evaluation.
#[test]
fn relation_known_answers_are_the_official_vectors() {
    use flockwork_core::relation::Relation;
    let t4 = &kats(&load("official_n128t4.json"))[0];
    let [(x, y)] = official_t4().known_answers().try_into().unwrap();
    assert_eq!((bits(&x), bits(&y)), (t4.input.clone(), t4.output.clone()));
    assert_eq!(official_t4().evaluate(&x), y);
    let t6 = &kats(&load("official_n128t6.json"))[0];
    let [(x, y)] = official_t6().known_answers().try_into().unwrap();
    assert_eq!((bits(&x), bits(&y)), (t6.input.clone(), t6.output.clone()));
    assert_eq!(official_t6().evaluate(&x), y);
    assert_eq!(official_t4().name(), "poseidon2b-t4");
    let states: Vec<[Ghash128; 4]> = (0..40u128)
        .map(|i| core::array::from_fn(|j| Ghash128::new(i * 4 + j as u128 + 7)))
        .collect();
    let batch = official_t4().evaluate_batch(&states);
    for (x, y) in states.iter().zip(&batch) {
        assert_eq!(official_t4().evaluate(x), *y);
    }
}
