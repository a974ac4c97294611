//! The fast linear-layer kernels against dense matrix products, the Goldilocks lazy kernels
//! against the generic ones, and the const-generic / batch / runtime paths against each
//! other on random states.

use crate::common;

use flockwork_field::Field;
use flockwork_field_prime::{Bn254Fr, Goldilocks, GoldilocksArk};
use flockwork_poseidon2::instances::{self, DATA};
use flockwork_poseidon2::matrix::{
    M4, M4_PLONKY3, apply_m4, apply_m4_plonky3, external_layer, external_matrix, internal_layer,
    internal_matrix, mat_mul, mat_vec,
};
use flockwork_poseidon2::{Poseidon2Field, Poseidon2Fixed, fixed_internal_diag_m1, sbox};
use flockwork_testkit::{random_vec, rng};

/// Every shipped width, and 28, past the widest the Goldilocks lazy kernels take (they hand
/// it to the generic kernel).
const WIDTHS: [usize; 9] = [2, 3, 4, 8, 12, 16, 20, 24, 28];

/// `M_E` and `M_I` kernels (through the field's `Poseidon2Field` hooks) equal `M · x`.
fn check_kernels_against_dense<F: Poseidon2Field>(label: &str) {
    let mut rng = rng(label);
    for t in WIDTHS {
        for _ in 0..8 {
            let x: Vec<F> = random_vec(&mut rng, t);
            let mut y = x.clone();
            F::external_layer(&mut y);
            assert_eq!(y, mat_vec(&external_matrix(t), &x), "{label}: M_E, t = {t}");
            let mut g = x.clone();
            external_layer(&mut g);
            assert_eq!(g, y, "{label}: generic M_E, t = {t}");

            let diag = fixed_internal_diag_m1::<F>(t).unwrap_or_else(|| random_vec(&mut rng, t));
            let mut y = x.clone();
            F::internal_layer(&mut y, &diag);
            assert_eq!(
                y,
                mat_vec(&internal_matrix(&diag), &x),
                "{label}: M_I, t = {t}"
            );
            let mut g = x.clone();
            internal_layer(&mut g, &diag);
            assert_eq!(g, y, "{label}: generic M_I, t = {t}");
        }
    }
}

/// Each S-box addition chain (and the square-and-multiply fallback) is `x^d`.
fn check_sbox_chains<F: Field>(label: &str) {
    let mut rng = rng(label);
    for x in random_vec::<F>(&mut rng, 8) {
        assert_eq!(sbox::<F, 3>(x), x.pow(&[3]), "{label}: d = 3");
        assert_eq!(sbox::<F, 5>(x), x.pow(&[5]), "{label}: d = 5");
        assert_eq!(sbox::<F, 7>(x), x.pow(&[7]), "{label}: d = 7");
        assert_eq!(
            sbox::<F, 11>(x),
            x * x.square().square().square() * x.square(),
            "{label}: d = 11"
        );
    }
}

#[test]
fn sbox_chains_are_powers() {
    check_sbox_chains::<Goldilocks>("sbox goldilocks");
    check_sbox_chains::<Bn254Fr>("sbox bn254");
}

#[test]
fn kernels_match_dense_products() {
    check_kernels_against_dense::<Bn254Fr>("kernels bn254");
    check_kernels_against_dense::<GoldilocksArk>("kernels goldilocks ark");
    check_kernels_against_dense::<Goldilocks>("kernels goldilocks lazy");
}

/// Extreme inputs for the lazy Goldilocks bounds: every element p − 1, diagonal p − 1.
#[test]
fn goldilocks_lazy_kernels_at_the_bounds() {
    let max = -Goldilocks::ONE;
    for t in WIDTHS {
        let x = vec![max; t];
        let mut y = x.clone();
        Goldilocks::external_layer(&mut y);
        assert_eq!(y, mat_vec(&external_matrix(t), &x));
        let diag = fixed_internal_diag_m1(t).unwrap_or_else(|| vec![max; t]);
        let mut y = x.clone();
        Goldilocks::internal_layer(&mut y, &diag);
        assert_eq!(y, mat_vec(&internal_matrix(&diag), &x));
    }
}

/// The dense product composes the maps: `(A·B)·x = A·(B·x)`, for square and for
/// rectangular factors.
#[test]
fn dense_products_compose() {
    let mut rng = rng("mat_mul");
    for (n, k, m) in [(4, 4, 4), (3, 5, 2), (1, 1, 1)] {
        let a: Vec<Vec<Bn254Fr>> = (0..n).map(|_| random_vec(&mut rng, k)).collect();
        let b: Vec<Vec<Bn254Fr>> = (0..k).map(|_| random_vec(&mut rng, m)).collect();
        let x: Vec<Bn254Fr> = random_vec(&mut rng, m);
        let ab = mat_mul(&a, &b);
        assert_eq!((ab.len(), ab[0].len()), (n, m));
        assert_eq!(mat_vec(&ab, &x), mat_vec(&a, &mat_vec(&b, &x)));
    }
}

/// The two 4 × 4 blocks' addition chains are their matrices, on the first four words of a
/// longer slice (the rest untouched).
#[test]
fn m4_chains_are_their_matrices() {
    let mut rng = rng("m4");
    let as_matrix = |m: [[u64; 4]; 4]| -> Vec<Vec<Bn254Fr>> {
        m.iter()
            .map(|row| row.map(Bn254Fr::from_index).to_vec())
            .collect()
    };
    for (apply, m) in [
        (apply_m4::<Bn254Fr> as fn(&mut [Bn254Fr]), M4),
        (apply_m4_plonky3::<Bn254Fr>, M4_PLONKY3),
    ] {
        for _ in 0..4 {
            let x: Vec<Bn254Fr> = random_vec(&mut rng, 6);
            let mut y = x.clone();
            apply(&mut y);
            assert_eq!(y[..4], mat_vec(&as_matrix(m), &x[..4])[..]);
            assert_eq!(y[4..], x[4..]);
        }
    }
}

/// Widths other than 2, 3 and multiples of 4 have no external matrix: the layer panics (as
/// documented) rather than leave the last words unmixed.
#[test]
#[should_panic(expected = "no external matrix for t = 6")]
fn external_layers_refuse_widths_without_a_matrix() {
    external_layer(&mut [Bn254Fr::ONE; 6]);
}

/// The M4 block structure is the documented one: `M4` alone at `t = 4`, `2·M4` on the
/// diagonal blocks and `M4` off them for `t = 8`.
#[test]
fn external_matrix_structure() {
    let m4: Vec<Vec<Bn254Fr>> = external_matrix(4);
    assert_eq!(m4[0][..], [5u64, 7, 1, 3].map(Bn254Fr::from_index)[..]);
    let m8: Vec<Vec<Bn254Fr>> = external_matrix(8);
    assert_eq!(m8[1][1], Bn254Fr::from_index(12));
    assert_eq!(m8[1][5], Bn254Fr::from_index(6));
    let m3: Vec<Vec<Bn254Fr>> = external_matrix(3);
    assert_eq!(m3[2][..], [1u64, 1, 2].map(Bn254Fr::from_index)[..]);
}

/// Runtime, fixed, batch and `permute_many` agree on random states.
fn check_paths<F: Poseidon2Field, const T: usize, const RP: usize>(
    runtime: &flockwork_poseidon2::Poseidon2<F>,
    fixed: &Poseidon2Fixed<F, T, 4, RP>,
) {
    let mut rng = rng("paths");
    // 40 states: whole batches of 16 and 8 (the AVX-512 kernel's for Goldilocks) and a rest.
    let states: Vec<[F; T]> = (0..40)
        .map(|_| random_vec(&mut rng, T).try_into().unwrap())
        .collect();
    let expected: Vec<[F; T]> = states
        .iter()
        .map(|s| runtime.permutation(s).try_into().unwrap())
        .collect();
    for (s, e) in states.iter().zip(&expected) {
        assert_eq!(fixed.permutation(*s), *e);
    }
    let mut batch: [[F; T]; 4] = states[..4].try_into().unwrap();
    fixed.permute_batch(&mut batch);
    assert_eq!(batch[..], expected[..4]);
    let mut many = states.clone();
    fixed.permute_many::<4>(&mut many);
    assert_eq!(many, expected);
    let mut many = states.clone();
    fixed.permute_many::<16>(&mut many);
    assert_eq!(many, expected);
    let mut batch: [[F; T]; 8] = states[..8].try_into().unwrap();
    fixed.permute_batch(&mut batch);
    assert_eq!(batch[..], expected[..8]);
}

#[test]
fn runtime_fixed_and_batch_paths_agree() {
    check_paths(instances::bn254_t2(), instances::bn254_t2_fixed());
    check_paths(instances::bn254_t3(), instances::bn254_t3_fixed());
    check_paths(instances::bn254_t4(), instances::bn254_t4_fixed());
    check_paths(instances::bn254_t8(), instances::bn254_t8_fixed());
    check_paths(instances::bn254_t12(), instances::bn254_t12_fixed());
    check_paths(instances::bn254_t16(), instances::bn254_t16_fixed());
    check_paths(instances::bls12_381_t2(), instances::bls12_381_t2_fixed());
    check_paths(instances::bls12_381_t3(), instances::bls12_381_t3_fixed());
    check_paths(instances::bls12_381_t4(), instances::bls12_381_t4_fixed());
    check_paths(instances::bls12_381_t8(), instances::bls12_381_t8_fixed());
    check_paths(instances::bls12_381_t12(), instances::bls12_381_t12_fixed());
    check_paths(instances::goldilocks_t8(), instances::goldilocks_t8_fixed());
    check_paths(
        instances::goldilocks_t12(),
        instances::goldilocks_t12_fixed(),
    );
    check_paths(
        instances::goldilocks_t16(),
        instances::goldilocks_t16_fixed(),
    );
    check_paths(
        instances::goldilocks_t20(),
        instances::goldilocks_t20_fixed(),
    );
    check_paths(instances::babybear_t16(), instances::babybear_t16_fixed());
    check_paths(instances::babybear_t24(), instances::babybear_t24_fixed());
    check_paths(instances::pallas_t3(), instances::pallas_t3_fixed());
    check_paths(instances::pallas_t4(), instances::pallas_t4_fixed());
    check_paths(instances::pallas_t8(), instances::pallas_t8_fixed());
    check_paths(instances::vesta_t3(), instances::vesta_t3_fixed());
    assert_eq!(DATA.len(), 20, "every instance is covered above");
}

/// The specialised Goldilocks backend and ark's Goldilocks agree on random states.
#[test]
fn goldilocks_backends_agree() {
    let mut rng = rng("goldilocks backends");
    for t in [8, 12, 16, 20] {
        let name = format!("goldilocks_t{t}");
        let fast = common::permutation::<Goldilocks>(&name);
        let ark = common::permutation::<GoldilocksArk>(&name);
        for _ in 0..16 {
            let x: Vec<Goldilocks> = random_vec(&mut rng, t);
            let x_ark: Vec<GoldilocksArk> = x
                .iter()
                .map(|v| GoldilocksArk::from_index(v.to_u64()))
                .collect();
            let y: Vec<u64> = fast.permutation(&x).iter().map(|v| v.to_u64()).collect();
            let y_ark: Vec<GoldilocksArk> = ark.permutation(&x_ark);
            let y_ark: Vec<u64> = y_ark
                .iter()
                .map(|v| flockwork_field::PrimeField::to_canonical_limbs(v).as_ref()[0])
                .collect();
            assert_eq!(y, y_ark, "t = {t}");
        }
    }
}

/// A const-generic type refuses parameters of another shape.
#[test]
fn fixed_path_rejects_other_shapes() {
    let err = Poseidon2Fixed::<Bn254Fr, 3, 4, 57>::from_params(instances::bn254_t3().params());
    assert_eq!(
        err.unwrap_err(),
        flockwork_poseidon2::Poseidon2Error::ShapeMismatch {
            expected: (3, 8, 57),
            actual: (3, 8, 56)
        }
    );
}
