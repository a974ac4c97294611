//! The flockwork field conformance suite on every prime field of this crate.

use flockwork_field_prime::{Bls12_381Fr, Bn254Fr, Goldilocks, GoldilocksArk};
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
