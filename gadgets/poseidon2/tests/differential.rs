//! Differential tests on random inputs against the reference crate `zkhash` 0.2.0 (the
//! HorizenLabs implementation, ark-ff 0.4 fields) for every instance it ships, and against
//! `taceo-poseidon2` 0.3.1 for every BN254 width. BN254 t = 2, 4, 8, 12, 16 are not shipped
//! by zkhash; its engine is fed our constants for those (an independent round function).

mod common;

use std::sync::Arc;

use ark_ff_04::{BigInteger, PrimeField as Ark04PrimeField};
use flockwork_field::Field;
use flockwork_field_prime::{BabyBearArk, Bls12_381Fr, Bn254Fr, Goldilocks, PallasFp, VestaFp};
use flockwork_poseidon2::hash::compress_2to1;
use flockwork_poseidon2::{Poseidon2, Poseidon2Field, instances};
use flockwork_testkit::{random_vec, rng};
use zkhash::poseidon2::poseidon2::Poseidon2 as ZkPoseidon2;
use zkhash::poseidon2::poseidon2_params::Poseidon2Params as ZkParams;
use zkhash::poseidon2::{
    poseidon2_instance_babybear as zk_babybear, poseidon2_instance_bls12 as zk_bls,
    poseidon2_instance_bn256 as zk_bn, poseidon2_instance_goldilocks as zk_gold,
    poseidon2_instance_pallas as zk_pallas, poseidon2_instance_vesta as zk_vesta,
};

const SAMPLES: usize = 24;

fn to_zk<F: Field, Z: Ark04PrimeField>(x: &F) -> Z {
    let mut bytes = vec![0u8; F::NUM_BYTES];
    x.write_bytes(&mut bytes);
    Z::from_le_bytes_mod_order(&bytes)
}

fn from_zk<F: Field, Z: Ark04PrimeField>(z: &Z) -> F {
    let mut bytes = z.into_bigint().to_bytes_le();
    bytes.resize(F::NUM_BYTES, 0);
    F::read_bytes(&bytes).expect("canonical")
}

/// Our permutation and zkhash's agree on random states (and on the 2-to-1 compression).
fn check_against_zkhash<F: Poseidon2Field, Z: Ark04PrimeField>(
    ours: &Poseidon2<F>,
    params: &Arc<ZkParams<Z>>,
    label: &str,
) {
    let theirs = ZkPoseidon2::new(params);
    let mut rng = rng(label);
    for _ in 0..SAMPLES {
        let x: Vec<F> = random_vec(&mut rng, ours.width());
        let zx: Vec<Z> = x.iter().map(to_zk).collect();
        let expected: Vec<F> = theirs.permutation(&zx).iter().map(from_zk).collect();
        assert_eq!(ours.permutation(&x), expected, "{label}");
        if ours.width() == 3 {
            let zc: F = from_zk(&theirs.permutation(&[zx[0], zx[1], Z::zero()])[0]);
            assert_eq!(compress_2to1(ours, x[0], x[1]), zc, "{label} compress");
        }
    }
}

/// zkhash's engine fed with our constants (partial rounds padded to t-wide rows).
fn zk_params_from<F: Poseidon2Field, Z: Ark04PrimeField>(ours: &Poseidon2<F>) -> Arc<ZkParams<Z>> {
    let p = ours.params();
    let t = p.t();
    let conv = |v: &[F]| v.iter().map(to_zk).collect::<Vec<Z>>();
    let mut rc: Vec<Vec<Z>> = p.full_begin().chunks(t).map(conv).collect();
    for c in p.partial() {
        let mut row = vec![Z::zero(); t];
        row[0] = to_zk(c);
        rc.push(row);
    }
    rc.extend(p.full_end().chunks(t).map(conv));
    Arc::new(ZkParams::new(
        t,
        p.d() as usize,
        p.rf(),
        p.rp(),
        &conv(p.diag_m1()),
        &[],
        &rc,
    ))
}

#[test]
fn bn254_against_zkhash() {
    check_against_zkhash(
        instances::bn254_t3(),
        &zk_bn::POSEIDON2_BN256_PARAMS,
        "bn254 t3",
    );
    for (perm, label) in [
        (instances::bn254_t2(), "bn254 t2 (engine)"),
        (instances::bn254_t4(), "bn254 t4 (engine)"),
        (instances::bn254_t8(), "bn254 t8 (engine)"),
        (instances::bn254_t12(), "bn254 t12 (engine)"),
        (instances::bn254_t16(), "bn254 t16 (engine)"),
    ] {
        let params = zk_params_from::<_, zkhash::fields::bn256::FpBN256>(perm);
        check_against_zkhash(perm, &params, label);
    }
}

#[test]
fn bls12_381_against_zkhash() {
    check_against_zkhash::<Bls12_381Fr, _>(
        instances::bls12_381_t2(),
        &zk_bls::POSEIDON2_BLS_2_PARAMS,
        "bls t2",
    );
    check_against_zkhash::<Bls12_381Fr, _>(
        instances::bls12_381_t3(),
        &zk_bls::POSEIDON2_BLS_3_PARAMS,
        "bls t3",
    );
    check_against_zkhash::<Bls12_381Fr, _>(
        instances::bls12_381_t4(),
        &zk_bls::POSEIDON2_BLS_4_PARAMS,
        "bls t4",
    );
    check_against_zkhash::<Bls12_381Fr, _>(
        instances::bls12_381_t8(),
        &zk_bls::POSEIDON2_BLS_8_PARAMS,
        "bls t8",
    );
}

#[test]
fn goldilocks_against_zkhash() {
    check_against_zkhash::<Goldilocks, _>(
        instances::goldilocks_t8(),
        &zk_gold::POSEIDON2_GOLDILOCKS_8_PARAMS,
        "gl t8",
    );
    check_against_zkhash::<Goldilocks, _>(
        instances::goldilocks_t12(),
        &zk_gold::POSEIDON2_GOLDILOCKS_12_PARAMS,
        "gl t12",
    );
    check_against_zkhash::<Goldilocks, _>(
        instances::goldilocks_t16(),
        &zk_gold::POSEIDON2_GOLDILOCKS_16_PARAMS,
        "gl t16",
    );
    check_against_zkhash::<Goldilocks, _>(
        instances::goldilocks_t20(),
        &zk_gold::POSEIDON2_GOLDILOCKS_20_PARAMS,
        "gl t20",
    );
}

#[test]
fn babybear_pallas_vesta_against_zkhash() {
    check_against_zkhash::<BabyBearArk, _>(
        instances::babybear_t16(),
        &zk_babybear::POSEIDON2_BABYBEAR_16_PARAMS,
        "bb t16",
    );
    check_against_zkhash::<BabyBearArk, _>(
        instances::babybear_t24(),
        &zk_babybear::POSEIDON2_BABYBEAR_24_PARAMS,
        "bb t24",
    );
    check_against_zkhash::<PallasFp, _>(
        instances::pallas_t3(),
        &zk_pallas::POSEIDON2_PALLAS_3_PARAMS,
        "pallas t3",
    );
    check_against_zkhash::<PallasFp, _>(
        instances::pallas_t4(),
        &zk_pallas::POSEIDON2_PALLAS_4_PARAMS,
        "pallas t4",
    );
    check_against_zkhash::<PallasFp, _>(
        instances::pallas_t8(),
        &zk_pallas::POSEIDON2_PALLAS_8_PARAMS,
        "pallas t8",
    );
    check_against_zkhash::<VestaFp, _>(
        instances::vesta_t3(),
        &zk_vesta::POSEIDON2_VESTA_PARAMS,
        "vesta t3",
    );
}

/// taceo-poseidon2 uses ark-bn254 0.6, the very type inside our `Bn254Fr`: no conversion.
fn check_against_taceo<const T: usize, const RP: usize>(
    ours: &flockwork_poseidon2::Poseidon2Fixed<Bn254Fr, T, 4, RP>,
    theirs: fn(&[ark_bn254::Fr; T]) -> [ark_bn254::Fr; T],
) {
    let mut rng = rng("taceo");
    for _ in 0..SAMPLES {
        let x: [Bn254Fr; T] = random_vec(&mut rng, T).try_into().unwrap();
        let expected = theirs(&x.map(Bn254Fr::into_inner)).map(Bn254Fr::new);
        assert_eq!(ours.permutation(x), expected, "taceo t = {T}");
    }
}

#[test]
fn bn254_against_taceo() {
    use taceo_poseidon2::bn254;
    check_against_taceo(instances::bn254_t2_fixed(), bn254::t2::permutation);
    check_against_taceo(instances::bn254_t3_fixed(), bn254::t3::permutation);
    check_against_taceo(instances::bn254_t4_fixed(), bn254::t4::permutation);
    check_against_taceo(instances::bn254_t8_fixed(), bn254::t8::permutation);
    check_against_taceo(instances::bn254_t12_fixed(), bn254::t12::permutation);
    check_against_taceo(instances::bn254_t16_fixed(), bn254::t16::permutation);
}
