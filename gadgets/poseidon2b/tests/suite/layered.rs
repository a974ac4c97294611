//! The layered relation (feature `layered`): the 66 layers compose to the permutation and the
//! official check value, the row kernels and the GHASH kernels agree with the single-state
//! kernels and the dense description, the tower-basis image describes the same relation, and
//! the layered encoding agrees with the permutation.

use flockwork_core::layered::{ChangeOfBasis, LayeredRelation};
use flockwork_core::relation::Relation;
use flockwork_field::Field;
use flockwork_field_binary::{Ghash256, TowerWire128};
use flockwork_poseidon2b::{Ghash128, Poseidon2bRelation, official_t4};

#[test]
fn layers_compose_to_the_permutation_and_the_check_value() {
    let rel = Poseidon2bRelation::official();
    let mut s = [0, 1, 2, 3].map(Ghash128::new);
    rel.apply_input(&mut s);
    rel.apply_all_layers(&mut s);
    assert_eq!(s[0].to_bits(), 0x8f7655abdb748e34e248218d828e976e);
    let input = [9, 8, 7, 6].map(Ghash128::new);
    let mut s = input;
    rel.apply_input(&mut s);
    rel.apply_all_layers(&mut s);
    assert_eq!(s, official_t4().permutation(input));
}

#[test]
fn row_kernels_match_the_single_state_kernels() {
    let rel = Poseidon2bRelation::official();
    // 700 rows: more than one S-box block, and a partial block.
    let rows: Vec<Ghash128> = (0..4 * 700u128)
        .map(|i| Ghash128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
        .collect();
    for layer in [1, 4, 5, 33, 62, 66] {
        let mut fast = rows.clone();
        rel.apply_layer_rows(layer, &mut fast);
        let mut slow = rows.clone();
        for s in slow.chunks_exact_mut(4) {
            rel.apply_layer(layer, s);
        }
        assert_eq!(fast, slow, "layer {layer}");
    }
    let mut fast = rows.clone();
    rel.apply_input_rows(&mut fast);
    let mut slow = rows;
    for s in slow.chunks_exact_mut(4) {
        rel.apply_input(s);
    }
    assert_eq!(fast, slow);
}

#[test]
fn kernels_match_the_description() {
    let rel = Poseidon2bRelation::official();
    for layer in [1, 4, 5, 30, 62, 63, 66] {
        let mut s = [0x11u128, 0x2222, 0x333333, 0x44444444].map(Ghash128::new);
        let mut lifted = s.map(Ghash256::from);
        rel.apply_layer(layer, &mut s);
        rel.apply_layer_generic(layer, &mut lifted);
        assert_eq!(lifted, s.map(Ghash256::from), "layer {layer}");
        let cw = [
            Ghash256::Y,
            Ghash256::ONE,
            Ghash256::from_index(9),
            Ghash256::Y * Ghash256::Y,
        ];
        let u = [
            Ghash256::from_index(3),
            Ghash256::Y,
            Ghash256::ONE,
            Ghash256::ZERO,
        ];
        let generic: Ghash256 = (0..4)
            .map(|j| cw[j] * rel.lane_map(layer, j).eval(u[j]))
            .sum();
        assert_eq!(rel.layer_term(layer, &cw, &u), generic);
        // Folded weights against the dense matrix.
        let mut fast = [Ghash256::ZERO; 4];
        rel.fold_weights(layer, &cw, &mut fast);
        let dense: Vec<Ghash256> = (0..4)
            .map(|j| (0..4).map(|i| cw[i] * rel.matrix_entry(layer, i, j)).sum())
            .collect();
        assert_eq!(fast.to_vec(), dense, "layer {layer}");
    }
}

/// The layered encoding computes the permutation: on the official known answer and on
/// other states, the input map and the 66 layers give the native output.
#[test]
fn layered_encoding_agrees_with_the_permutation() {
    let relation = Poseidon2bRelation::official();
    assert_eq!(relation.name(), "poseidon2b-t4");
    assert_eq!(relation.known_answers().len(), 1);
    let states: Vec<[Ghash128; 4]> = (0..3u128)
        .map(|i| core::array::from_fn(|j| Ghash128::new(0x9e37 * i + j as u128)))
        .collect();
    flockwork_core::relation::check_layered_encoding(&relation, &states);
}

/// The tower-basis image: the same id and, state by state, the layers of the GHASH relation
/// mapped by the isomorphism.
#[test]
fn the_tower_image_computes_the_mapped_layers() {
    let ghash = Poseidon2bRelation::official();
    let tower = ghash.change_basis();
    assert_eq!(tower, ghash.to_tower());
    assert_eq!(tower.id(), ghash.id());
    let mut g = [5u128, 6, 7, 8].map(Ghash128::new);
    let mut t = g.map(TowerWire128::from_ghash);
    ghash.apply_input(&mut g);
    tower.apply_input(&mut t);
    for layer in [1, 4, 5, 62, 66] {
        ghash.apply_layer(layer, &mut g);
        tower.apply_layer(layer, &mut t);
        assert_eq!(t, g.map(TowerWire128::from_ghash), "layer {layer}");
    }
}
