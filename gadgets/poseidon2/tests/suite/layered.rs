//! The layered relation (feature `layered`): the layers compose to the permutation and the
//! native kernels agree with the description; the layered encoding agrees with the
//! permutation on the known answers and other states, in every field.

use flockwork_core::layered::LayeredRelation;
use flockwork_core::relation::{LayeredEncoding, Relation, check_layered_encoding};
use flockwork_field::Field;
use flockwork_field_prime::{BabyBearArk, Bls12_381Fr, Bn254Fr, Goldilocks, PallasFp};
use flockwork_poseidon2::instances::bn254_t3;
use flockwork_poseidon2::{Poseidon2, Poseidon2Field, Poseidon2Relation, instances, plonky3};

#[test]
fn layers_compose_to_the_bn254_permutation() {
    let perm = bn254_t3();
    let rel = Poseidon2Relation::new(perm);
    assert_eq!(rel.num_layers(), 64);
    let input = [1u64, 2, 3].map(Bn254Fr::from_index);
    let mut s = input;
    rel.apply_input(&mut s);
    rel.apply_all_layers(&mut s);
    assert_eq!(s.to_vec(), perm.permutation(&input));
    for layer in [1, 5, 60, 64] {
        let mut a = [7u64, 8, 9].map(Bn254Fr::from_index);
        let mut b = a;
        rel.apply_layer(layer, &mut a);
        rel.apply_layer_generic(layer, &mut b);
        assert_eq!(a, b, "layer {layer}");
    }
}

/// `check_layered_encoding` on `perm`'s relation, over its known answers (`known` of them)
/// and two other states.
fn check<F: Poseidon2Field>(perm: &Poseidon2<F>, known: usize) {
    let relation = Poseidon2Relation::new(perm);
    assert_eq!(relation.name(), perm.name());
    assert_eq!(relation.known_answers().len(), known, "{}", perm.name());
    let t = perm.width() as u64;
    let states: Vec<Vec<F>> = (0..2u64)
        .map(|i| {
            (0..t)
                .map(|j| F::from_index(0x9e37 * i + 3 * j + 1))
                .collect()
        })
        .collect();
    check_layered_encoding(&relation, &states);
    assert_eq!(relation.output_of_lanes(&states[0][1..]), None);
}

#[test]
fn layered_encoding_agrees_with_the_permutation() {
    check(instances::bn254_t3(), 1);
    check(instances::bn254_t8(), 1);
    check(instances::bls12_381_t2(), 1);
    check(instances::bls12_381_t8(), 0);
    check::<Goldilocks>(instances::goldilocks_t12(), 1);
    check::<BabyBearArk>(instances::babybear_t24(), 1);
    check::<PallasFp>(instances::pallas_t3(), 1);
    // The Plonky3 convention (its own external matrix), no known answers.
    check::<Goldilocks>(plonky3::goldilocks_t8(), 0);
}

#[test]
fn the_relation_id_names_the_instance() {
    let a = Poseidon2Relation::new(instances::bn254_t3());
    let b = Poseidon2Relation::new(instances::bn254_t4());
    let c = Poseidon2Relation::<Bls12_381Fr>::new(instances::bls12_381_t3());
    assert!(a.id().starts_with(b"poseidon2/"));
    assert_ne!(a.id(), b.id());
    assert_ne!(a.id(), c.id());
    assert_eq!(a.id(), Poseidon2Relation::new(instances::bn254_t3()).id());
}

/// A degree without a fixed addition chain (`x^11` over Goldilocks) takes the permutation's
/// run-time S-box; the layered relation, which computes its own powers, agrees with it.
#[test]
fn a_run_time_sbox_degree_agrees_with_the_layers() {
    let generated =
        flockwork_poseidon2::grain::generate::<Goldilocks>(8, 11, 8, 22).expect("valid instance");
    check(&Poseidon2::new(generated.params), 0);
}

/// Permutations chain through their whole state: a chain statement starts at the first input
/// and ends at the last output, and a broken chain is refused, for the permutation and for
/// its layered relation.
#[test]
fn permutations_chain_through_their_whole_state() {
    fn chain<R>(rel: &R)
    where
        R: Relation<Input = Vec<Bn254Fr>, Output = Vec<Bn254Fr>, State = Vec<Bn254Fr>>,
    {
        use flockwork_core::relation::{Io, Statement};
        let mut inputs = vec![[1u64, 2, 3].map(Bn254Fr::from_index).to_vec()];
        for _ in 0..3 {
            let next = rel.evaluate(inputs.last().unwrap());
            inputs.push(next);
        }
        let Io::Chain { count, start, end } = Statement::chain(rel, &inputs).unwrap().io else {
            unreachable!()
        };
        assert_eq!((count, &start), (4, &inputs[0]));
        assert_eq!(end, rel.evaluate(&inputs[3]));
        inputs[2][1] += Bn254Fr::ONE;
        assert!(Statement::chain(rel, &inputs).is_err());
    }
    chain(bn254_t3());
    chain(&Poseidon2Relation::new(bn254_t3()));
}
