//! The flockwork field conformance suite on every prime field of this crate.

use flockwork_field_prime::{
    BabyBearArk, Bls12_381Fr, Bn254Fr, Goldilocks, GoldilocksArk, PallasFp, VestaFp,
};
use flockwork_testkit::field::check_field;

#[test]
fn bn254_scalar_field() {
    check_field::<Bn254Fr>();
}

#[test]
fn bls12_381_scalar_field() {
    check_field::<Bls12_381Fr>();
}

#[test]
fn goldilocks_through_ark() {
    check_field::<GoldilocksArk>();
}

#[test]
fn goldilocks_u64_backend() {
    check_field::<Goldilocks>();
}

#[test]
fn pallas_base_field() {
    check_field::<PallasFp>();
}

#[test]
fn vesta_base_field() {
    check_field::<VestaFp>();
}

#[test]
fn babybear_through_ark() {
    check_field::<BabyBearArk>();
}
