//! The Plonky3 convention against Plonky3 itself (`p3-poseidon2`, `p3-goldilocks`,
//! `p3-baby-bear` 0.9.0-rc.2 as dev-dependencies): the shipped constants, the permutation on
//! random inputs for every default instance, Goldilocks `t = 20` and instances with random
//! round constants fed to both sides, and the Plonky3 external matrix against its dense
//! definition.

use flockwork_field::{Field, PrimeField};
use flockwork_field_prime::{BabyBearArk, Bn254Fr, Goldilocks, GoldilocksArk};
use flockwork_poseidon2::matrix::{M4_PLONKY3, external_matrix_with, mat_vec};
use flockwork_poseidon2::{
    Convention, Poseidon2, Poseidon2Error, Poseidon2Field, Poseidon2Fixed, Poseidon2Params,
    instances, plonky3,
};
use flockwork_testkit::{random_vec, rng};
use p3_baby_bear as p3bb;
use p3_field::{PrimeField32, PrimeField64};
use p3_goldilocks as p3gl;
use p3_poseidon2::ExternalLayerConstants;
use p3_symmetric::Permutation;
use rand::RngCore;

const SAMPLES: usize = 32;

/// Conversions between one of our fields and the matching Plonky3 field.
trait P3Field: Poseidon2Field {
    type P3: Copy + Default + PartialEq + core::fmt::Debug;
    fn to_p3(self) -> Self::P3;
    fn from_p3(x: Self::P3) -> Self;
}

impl P3Field for Goldilocks {
    type P3 = p3gl::Goldilocks;
    fn to_p3(self) -> Self::P3 {
        p3gl::Goldilocks::new(self.to_u64())
    }
    fn from_p3(x: Self::P3) -> Self {
        Goldilocks::new(x.as_canonical_u64()).expect("canonical")
    }
}

impl P3Field for BabyBearArk {
    type P3 = p3bb::BabyBear;
    fn to_p3(self) -> Self::P3 {
        let v = self.to_canonical_limbs().as_ref()[0];
        p3bb::BabyBear::new(u32::try_from(v).expect("31-bit"))
    }
    fn from_p3(x: Self::P3) -> Self {
        BabyBearArk::from_u64(u64::from(x.as_canonical_u32()))
    }
}

fn to_p3<F: P3Field>(v: &[F]) -> Vec<F::P3> {
    v.iter().map(|x| x.to_p3()).collect()
}

/// Our runtime, const-generic and batch permutations all equal Plonky3's on random states.
fn check_against_p3<F: P3Field, const T: usize, const RP: usize>(
    ours: &Poseidon2<F>,
    fixed: &Poseidon2Fixed<F, T, 4, RP>,
    theirs: &impl Permutation<[F::P3; T]>,
    label: &str,
) {
    assert_eq!(ours.params().convention(), Convention::Plonky3);
    let mut r = rng(label);
    let inputs: Vec<[F; T]> = (0..SAMPLES)
        .map(|_| random_vec(&mut r, T).try_into().expect("T elements"))
        .collect();
    let expected: Vec<[F; T]> = inputs
        .iter()
        .map(|x| theirs.permute(x.map(F::to_p3)).map(F::from_p3))
        .collect();
    for (x, e) in inputs.iter().zip(&expected) {
        assert_eq!(ours.permutation(x), e.to_vec(), "{label} runtime");
        assert_eq!(fixed.permutation(*x), *e, "{label} fixed");
    }
    let mut batch: [[F; T]; 4] = inputs[..4].try_into().expect("4 states");
    fixed.permute_batch(&mut batch);
    assert_eq!(batch[..], expected[..4], "{label} batch");
    let mut many = inputs.clone();
    fixed.permute_many::<8>(&mut many);
    assert_eq!(many, expected, "{label} many");
}

#[test]
fn default_goldilocks_instances_match_plonky3() {
    check_against_p3(
        plonky3::goldilocks_t8(),
        plonky3::goldilocks_t8_fixed(),
        &p3gl::default_goldilocks_poseidon2_8(),
        "p3 goldilocks t8",
    );
    check_against_p3(
        plonky3::goldilocks_t12(),
        plonky3::goldilocks_t12_fixed(),
        &p3gl::default_goldilocks_poseidon2_12(),
        "p3 goldilocks t12",
    );
    check_against_p3(
        plonky3::goldilocks_t16(),
        plonky3::goldilocks_t16_fixed(),
        &p3gl::default_goldilocks_poseidon2_16(),
        "p3 goldilocks t16",
    );
}

#[test]
fn default_babybear_instances_match_plonky3() {
    check_against_p3(
        plonky3::babybear_t16(),
        plonky3::babybear_t16_fixed(),
        &p3bb::default_babybear_poseidon2_16(),
        "p3 babybear t16",
    );
    check_against_p3(
        plonky3::babybear_t24(),
        plonky3::babybear_t24_fixed(),
        &p3bb::default_babybear_poseidon2_24(),
        "p3 babybear t24",
    );
}

/// Plonky3's permutation of the given width built from our constants.
fn p3_goldilocks<const T: usize>(ours: &Poseidon2Params<Goldilocks>) -> p3gl::Poseidon2Goldilocks<T>
where
    p3gl::Poseidon2Goldilocks<T>: Permutation<[p3gl::Goldilocks; T]>,
{
    let rows = |v: &[Goldilocks]| -> Vec<[p3gl::Goldilocks; T]> {
        v.chunks(T)
            .map(|row| to_p3(row).try_into().expect("T constants"))
            .collect()
    };
    p3gl::Poseidon2Goldilocks::<T>::new(
        ExternalLayerConstants::new(rows(ours.full_begin()), rows(ours.full_end())),
        to_p3(ours.partial()),
    )
}

/// Plonky3's BabyBear permutation of width `$t` built from our constants (a macro: the
/// internal-layer bounds of `p3-baby-bear` are only met for concrete widths).
macro_rules! p3_babybear {
    ($t:literal, $ours:expr) => {{
        let ours: &Poseidon2Params<BabyBearArk> = $ours;
        let rows = |v: &[BabyBearArk]| -> Vec<[p3bb::BabyBear; $t]> {
            v.chunks($t)
                .map(|row| to_p3(row).try_into().expect("t constants"))
                .collect()
        };
        p3bb::Poseidon2BabyBear::<$t>::new(
            ExternalLayerConstants::new(rows(ours.full_begin()), rows(ours.full_end())),
            to_p3(ours.partial()),
        )
    }};
}

/// Plonky3 has no default Goldilocks `t = 20` instance: its engine (with its
/// `MATRIX_DIAG_20_GOLDILOCKS`) is fed our Grain constants.
#[test]
fn goldilocks_t20_matches_plonky3_engine() {
    let ours = plonky3::goldilocks_t20();
    let theirs = p3_goldilocks::<20>(ours.params());
    check_against_p3(
        ours,
        plonky3::goldilocks_t20_fixed(),
        &theirs,
        "p3 goldilocks t20",
    );
}

/// Random round constants and a random number of partial rounds, fed to both engines (as
/// Plonky3's own tests build instances from a seeded RNG).
fn random_instance<F: P3Field>(
    template: &Poseidon2Params<F>,
    r: &mut impl RngCore,
    rp: usize,
) -> Poseidon2Params<F> {
    let t = template.t();
    Poseidon2Params::new_with_convention(
        Convention::Plonky3,
        t,
        template.d(),
        8,
        rp,
        random_vec(r, 4 * t),
        random_vec(r, rp),
        random_vec(r, 4 * t),
        template.diag_m1().to_vec(),
    )
    .expect("valid shape")
}

fn check_random_constants<F: P3Field, const T: usize, const RP: usize>(
    template: &Poseidon2Params<F>,
    build_p3: impl Fn(&Poseidon2Params<F>) -> Box<dyn Fn([F::P3; T]) -> [F::P3; T]>,
    label: &str,
) {
    let mut r = rng(label);
    for _ in 0..3 {
        let params = random_instance(template, &mut r, RP);
        let theirs = build_p3(&params);
        let fixed = Poseidon2Fixed::<F, T, 4, RP>::from_params(&params).expect("shape");
        let ours = Poseidon2::new(params);
        for _ in 0..8 {
            let x: [F; T] = random_vec(&mut r, T).try_into().expect("T elements");
            let expected = theirs(x.map(F::to_p3)).map(F::from_p3);
            assert_eq!(ours.permutation(&x), expected.to_vec(), "{label} runtime");
            assert_eq!(fixed.permutation(x), expected, "{label} fixed");
            let mut batch = [x; 16];
            fixed.permute_batch(&mut batch);
            assert_eq!(batch, [expected; 16], "{label} batch");
        }
    }
}

#[test]
fn random_constants_match_plonky3_engine() {
    fn gl<const T: usize>(
        p: &Poseidon2Params<Goldilocks>,
    ) -> Box<dyn Fn([p3gl::Goldilocks; T]) -> [p3gl::Goldilocks; T]>
    where
        p3gl::Poseidon2Goldilocks<T>: Permutation<[p3gl::Goldilocks; T]> + 'static,
    {
        let perm = p3_goldilocks::<T>(p);
        Box::new(move |x| perm.permute(x))
    }
    fn bb16(
        p: &Poseidon2Params<BabyBearArk>,
    ) -> Box<dyn Fn([p3bb::BabyBear; 16]) -> [p3bb::BabyBear; 16]> {
        let perm = p3_babybear!(16, p);
        Box::new(move |x| perm.permute(x))
    }
    fn bb24(
        p: &Poseidon2Params<BabyBearArk>,
    ) -> Box<dyn Fn([p3bb::BabyBear; 24]) -> [p3bb::BabyBear; 24]> {
        let perm = p3_babybear!(24, p);
        Box::new(move |x| perm.permute(x))
    }
    check_random_constants::<_, 8, 5>(plonky3::goldilocks_t8().params(), gl::<8>, "rc gl8");
    check_random_constants::<_, 12, 17>(plonky3::goldilocks_t12().params(), gl::<12>, "rc gl12");
    check_random_constants::<_, 16, 1>(plonky3::goldilocks_t16().params(), gl::<16>, "rc gl16");
    check_random_constants::<_, 20, 30>(plonky3::goldilocks_t20().params(), gl::<20>, "rc gl20");
    check_random_constants::<_, 16, 9>(plonky3::babybear_t16().params(), bb16, "rc bb16");
    check_random_constants::<_, 24, 21>(plonky3::babybear_t24().params(), bb24, "rc bb24");
}

/// Plonky3 ships the Grain round constants of the HorizenLabs instances, and its Goldilocks
/// diagonals are our `V` tables.
#[test]
fn shipped_constants_equal_plonky3_tables() {
    fn same<F: P3Field>(ours: &[F], theirs: &[F::P3], what: &str) {
        assert_eq!(to_p3(ours), theirs, "{what}");
    }
    macro_rules! gl {
        ($t:literal, $ours:expr, $hl:expr, $ini:ident, $fin:ident, $int:ident, $diag:ident) => {
            let p = $ours.params();
            same(p.full_begin(), p3gl::$ini.as_flattened(), stringify!($ini));
            same(p.full_end(), p3gl::$fin.as_flattened(), stringify!($fin));
            same(p.partial(), &p3gl::$int, stringify!($int));
            same(p.diag_m1(), &p3gl::$diag, stringify!($diag));
            let hl = $hl.params();
            assert_eq!(
                (hl.full_begin(), hl.partial(), hl.full_end()),
                (p.full_begin(), p.partial(), p.full_end()),
                "t = {}: the same Grain constants as HorizenLabs",
                $t
            );
        };
    }
    gl!(
        8,
        plonky3::goldilocks_t8(),
        instances::goldilocks_t8(),
        GOLDILOCKS_POSEIDON2_RC_8_EXTERNAL_INITIAL,
        GOLDILOCKS_POSEIDON2_RC_8_EXTERNAL_FINAL,
        GOLDILOCKS_POSEIDON2_RC_8_INTERNAL,
        MATRIX_DIAG_8_GOLDILOCKS
    );
    gl!(
        12,
        plonky3::goldilocks_t12(),
        instances::goldilocks_t12(),
        GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_INITIAL,
        GOLDILOCKS_POSEIDON2_RC_12_EXTERNAL_FINAL,
        GOLDILOCKS_POSEIDON2_RC_12_INTERNAL,
        MATRIX_DIAG_12_GOLDILOCKS
    );
    gl!(
        16,
        plonky3::goldilocks_t16(),
        instances::goldilocks_t16(),
        GOLDILOCKS_POSEIDON2_RC_16_EXTERNAL_INITIAL,
        GOLDILOCKS_POSEIDON2_RC_16_EXTERNAL_FINAL,
        GOLDILOCKS_POSEIDON2_RC_16_INTERNAL,
        MATRIX_DIAG_16_GOLDILOCKS
    );
    same(
        plonky3::goldilocks_t20().params().diag_m1(),
        &p3gl::MATRIX_DIAG_20_GOLDILOCKS,
        "MATRIX_DIAG_20_GOLDILOCKS",
    );
    for (ours, ini, fin, int) in [
        (
            plonky3::babybear_t16(),
            p3bb::BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL.as_flattened(),
            p3bb::BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL.as_flattened(),
            &p3bb::BABYBEAR_POSEIDON2_RC_16_INTERNAL[..],
        ),
        (
            plonky3::babybear_t24(),
            p3bb::BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL.as_flattened(),
            p3bb::BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL.as_flattened(),
            &p3bb::BABYBEAR_POSEIDON2_RC_24_INTERNAL[..],
        ),
    ] {
        let p = ours.params();
        same(p.full_begin(), ini, "babybear initial");
        same(p.full_end(), fin, "babybear final");
        same(p.partial(), int, "babybear internal");
    }
}

/// The two conventions are different permutations on the same constants.
#[test]
fn conventions_differ() {
    let x: [Goldilocks; 8] = core::array::from_fn(|i| Goldilocks::from_index(i as u64));
    assert_ne!(
        plonky3::goldilocks_t8_fixed().permutation(x),
        instances::goldilocks_t8_fixed().permutation(x)
    );
    assert_eq!(
        plonky3::goldilocks_t8_fixed().convention(),
        Convention::Plonky3
    );
}

/// The dense external matrices exist where the kernels do: `t = 2, 3` in the HorizenLabs
/// convention only, and multiples of 4; every other width panics (as documented).
#[test]
fn dense_external_matrices_exist_only_for_their_widths() {
    use std::panic::catch_unwind;
    let dense =
        |convention, t| catch_unwind(|| external_matrix_with::<Bn254Fr>(convention, t).len()).ok();
    for t in [2, 3, 4, 8, 12] {
        assert_eq!(dense(Convention::HorizenLabs, t), Some(t), "t = {t}");
    }
    for t in [4, 8, 12] {
        assert_eq!(dense(Convention::Plonky3, t), Some(t), "t = {t}");
    }
    for (convention, t) in [
        (Convention::Plonky3, 2),
        (Convention::Plonky3, 3),
        (Convention::HorizenLabs, 6),
        (Convention::Plonky3, 6),
        (Convention::HorizenLabs, 1),
    ] {
        assert_eq!(dense(convention, t), None, "{convention:?}, t = {t}");
    }
}

/// The Plonky3 external layer (generic and lazy Goldilocks kernels) is the dense block
/// matrix with `circ(2, 3, 1, 1)`; the Goldilocks kernel, the ark Goldilocks field and
/// Plonky3 agree.
#[test]
fn plonky3_external_layer_matches_dense_matrix() {
    assert_eq!(M4_PLONKY3[3], [3, 1, 1, 2]);
    let m4: Vec<Vec<Bn254Fr>> = external_matrix_with(Convention::Plonky3, 4);
    assert_eq!(
        m4[0][..],
        [4u64, 6, 2, 2].map(Bn254Fr::from_index)[..],
        "2·M4' at t = 4"
    );
    let m8: Vec<Vec<Bn254Fr>> = external_matrix_with(Convention::Plonky3, 8);
    assert_eq!(m8[1][..4], [2u64, 4, 6, 2].map(Bn254Fr::from_index)[..]);
    assert_eq!(m8[1][4..], [1u64, 2, 3, 1].map(Bn254Fr::from_index)[..]);
    let mut r = rng("p3 dense");
    for t in [4, 8, 12, 16, 20, 24] {
        let x: Vec<Bn254Fr> = random_vec(&mut r, t);
        let mut y = x.clone();
        Bn254Fr::external_layer_plonky3(&mut y);
        assert_eq!(
            y,
            mat_vec(&external_matrix_with(Convention::Plonky3, t), &x)
        );
        let max = -Goldilocks::ONE;
        for x in [random_vec(&mut r, t), vec![max; t]] {
            let mut y = x.clone();
            Goldilocks::external_layer_plonky3(&mut y);
            assert_eq!(
                y,
                mat_vec(&external_matrix_with(Convention::Plonky3, t), &x)
            );
        }
    }
}

/// The specialised Goldilocks kernel and the generic round function over ark's Goldilocks
/// agree on the Plonky3 instances too (random states and the extreme all-`p − 1` state).
#[test]
fn goldilocks_kernel_matches_ark_in_plonky3_convention() {
    let mut r = rng("p3 kernel vs ark");
    for ours in [
        plonky3::goldilocks_t8(),
        plonky3::goldilocks_t12(),
        plonky3::goldilocks_t16(),
        plonky3::goldilocks_t20(),
    ] {
        let p = ours.params();
        let conv = |v: &[Goldilocks]| -> Vec<GoldilocksArk> {
            v.iter()
                .map(|x| GoldilocksArk::from_index(x.to_u64()))
                .collect()
        };
        let ark = Poseidon2::new(
            Poseidon2Params::new_with_convention(
                Convention::Plonky3,
                p.t(),
                p.d(),
                p.rf(),
                p.rp(),
                conv(p.full_begin()),
                conv(p.partial()),
                conv(p.full_end()),
                conv(p.diag_m1()),
            )
            .expect("valid"),
        );
        let t = p.t();
        for x in [random_vec(&mut r, t), vec![-Goldilocks::ONE; t]] {
            let y: Vec<GoldilocksArk> = conv(&ours.permutation(&x));
            assert_eq!(y, ark.permutation(&conv(&x)), "t = {t}");
        }
    }
}

#[test]
fn plonky3_convention_rejects_widths_2_and_3() {
    let p = instances::bn254_t3().params();
    for t in [2usize, 3, 6] {
        let err = Poseidon2Params::new_with_convention(
            Convention::Plonky3,
            t,
            p.d(),
            p.rf(),
            p.rp(),
            vec![Bn254Fr::ZERO; 4 * t],
            p.partial().to_vec(),
            vec![Bn254Fr::ZERO; 4 * t],
            vec![Bn254Fr::ONE; t],
        );
        assert_eq!(err.unwrap_err(), Poseidon2Error::UnsupportedWidth { t });
    }
}
