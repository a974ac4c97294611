//! The structured linear layers against dense matrix products, and the batch / runtime-width
//! APIs against the one-state permutation.

use flockwork_field::{BinaryField, Field, PackedField};
use flockwork_field_binary::ghash::PackedGhash128x4;
use flockwork_poseidon2b::matrix::{apply_mf, apply_mp, dense_apply, mf_bits, mp_bits, to_field};
use flockwork_poseidon2b::{
    AesTower128, DynPoseidon2b, Ghash128, Poseidon2b, Poseidon2bError, Poseidon2bField,
    frost_gkr_t4, official_t4, official_t6,
};
use rand::{Rng, SeedableRng, rngs::StdRng};

fn random_state<F: BinaryField, const T: usize>(rng: &mut StdRng) -> [F; T] {
    core::array::from_fn(|_| F::from_bits(rng.random()))
}

fn kernels_match_dense<F: Poseidon2bField, const T: usize>(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mf = to_field::<F, T>(&mf_bits::<T>());
    let mp = to_field::<F, T>(&mp_bits::<T>());
    let mut cases: Vec<[F; T]> = (0..200).map(|_| random_state(&mut rng)).collect();
    // Unit vectors: the kernel's columns are the matrix's columns.
    for j in 0..T {
        let mut e = [F::ZERO; T];
        e[j] = F::ONE;
        cases.push(e);
    }
    for s in cases {
        let mut fast = s;
        apply_mf(&mut fast);
        assert_eq!(fast, dense_apply(&mf, &s), "MF, t = {T}");
        let mut fast = s;
        apply_mp(&mut fast);
        assert_eq!(fast, dense_apply(&mp, &s), "MP, t = {T}");
    }
}

#[test]
fn mf_and_mp_kernels_equal_dense_products_polynomial_basis() {
    kernels_match_dense::<Ghash128, 4>(10);
    kernels_match_dense::<Ghash128, 6>(11);
}

#[test]
fn mf_and_mp_kernels_equal_dense_products_tower_basis() {
    kernels_match_dense::<AesTower128, 4>(12);
    kernels_match_dense::<AesTower128, 6>(13);
}

#[test]
fn packed_kernels_equal_scalar_kernels() {
    fn check<const T: usize>(rng: &mut StdRng) {
        let states: [[Ghash128; T]; 4] = core::array::from_fn(|_| random_state(rng));
        let mut packed: [PackedGhash128x4; T] =
            core::array::from_fn(|i| PackedGhash128x4::from_fn(|k| states[k][i]));
        let mut packed_mp = packed;
        apply_mf(&mut packed);
        apply_mp(&mut packed_mp);
        for (k, s) in states.iter().enumerate() {
            let (mut a, mut b) = (*s, *s);
            apply_mf(&mut a);
            apply_mp(&mut b);
            for i in 0..T {
                assert_eq!(packed[i].get(k), a[i]);
                assert_eq!(packed_mp[i].get(k), b[i]);
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(14);
    for _ in 0..50 {
        check::<4>(&mut rng);
        check::<6>(&mut rng);
    }
}

#[test]
fn matrices_read_in_the_field_are_the_instance_matrices() {
    let p = official_t4();
    assert_eq!(p.mf_matrix()[0].map(Ghash128::to_bits), [5, 7, 1, 3]);
    assert_eq!(p.mp_matrix()[1].map(Ghash128::to_bits), [1, 0x2000, 1, 1]);
    assert_eq!(
        official_t6().mf_matrix()[1].map(Ghash128::to_bits),
        [1, 1 << 9, 1, 2, 2, 1 << 11]
    );
}

fn batch_equals_one_by_one<F: Poseidon2bField, const T: usize>(perm: &Poseidon2b<F, T>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    // Lengths around BATCH_MIN = 4 and BATCH_BLOCK = 128 (full blocks plus a remainder).
    for n in [0usize, 1, 3, 4, 5, 7, 8, 9, 17, 127, 128, 129, 300] {
        let states: Vec<[F; T]> = (0..n).map(|_| random_state(&mut rng)).collect();
        let mut batch = states.clone();
        perm.permute_many(&mut batch);
        for (i, s) in states.iter().enumerate() {
            assert_eq!(batch[i], perm.permutation(*s), "n = {n}, state {i}");
        }
        if n > 0 {
            assert_ne!(batch[0], states[0]);
        }
    }
    let mut fixed: [[F; T]; 3] = core::array::from_fn(|_| random_state(&mut rng));
    let expected = fixed.map(|s| perm.permutation(s));
    perm.permute_interleaved(&mut fixed);
    assert_eq!(fixed, expected);
    // Packed: two packings of F::Packing::WIDTH states each.
    let w = <F::Packing as PackedField>::WIDTH;
    let states: Vec<[F; T]> = (0..2 * w).map(|_| random_state(&mut rng)).collect();
    let mut packed: [[F::Packing; T]; 2] = core::array::from_fn(|p| {
        core::array::from_fn(|i| F::Packing::from_fn(|k| states[p * w + k][i]))
    });
    perm.permute_packed(&mut packed);
    for (j, s) in states.iter().enumerate() {
        let out = perm.permutation(*s);
        for i in 0..T {
            assert_eq!(
                packed[j / w][i].get(j % w),
                out[i],
                "packed state {j} lane {i}"
            );
        }
    }
}

#[test]
fn batch_api_equals_one_by_one() {
    batch_equals_one_by_one(official_t4(), 20);
    batch_equals_one_by_one(official_t6(), 21);
    batch_equals_one_by_one(frost_gkr_t4(), 22);
}

#[test]
fn runtime_width_rejects_bad_lengths_and_widths() {
    assert_eq!(
        DynPoseidon2b::official(5).unwrap_err(),
        Poseidon2bError::UnsupportedWidth { t: 5 }
    );
    let p = DynPoseidon2b::official(6).unwrap();
    let mut short = [Ghash128::ONE; 4];
    assert_eq!(
        p.permute(&mut short).unwrap_err(),
        Poseidon2bError::WrongLength {
            expected: 6,
            actual: 4
        }
    );
    assert_eq!(short, [Ghash128::ONE; 4], "left unchanged");
    let mut ragged = [Ghash128::ONE; 13];
    assert!(p.permute_many(&mut ragged).is_err());
    assert_eq!(ragged, [Ghash128::ONE; 13]);
    let mut state = [Ghash128::ONE; 6];
    p.permute(&mut state).unwrap();
    assert_eq!(state, official_t6().permutation([Ghash128::ONE; 6]));
}

#[test]
fn constructor_rejects_wrong_table_sizes() {
    use flockwork_poseidon2b::Instance;
    assert_eq!(
        Poseidon2b::<Ghash128, 4>::from_constant_bits(Instance::Official, &[0; 10]).unwrap_err(),
        Poseidon2bError::ConstantCount {
            expected: 264,
            actual: 10
        }
    );
}

#[test]
fn uncached_constructor_equals_cached_instance() {
    assert_eq!(&Poseidon2b::<Ghash128, 4>::official(), official_t4());
    assert_eq!(&Poseidon2b::<Ghash128, 6>::official(), official_t6());
    assert_eq!(&Poseidon2b::frost_gkr(), frost_gkr_t4());
}
