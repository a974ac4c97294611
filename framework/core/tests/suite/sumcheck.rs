//! The sumcheck conformance suite of `flockwork-testkit` over the shipped fields.

use flockwork_field_binary::{Aes8, Ghash128, Ghash256, Tower128};
use flockwork_field_prime::{Bn254Fr, Goldilocks};
use flockwork_testkit::sumcheck::{check_sumcheck, check_sumcheck_ext};

#[test]
fn sumcheck_ghash128() {
    check_sumcheck::<Ghash128>();
}

#[test]
fn sumcheck_tower128() {
    check_sumcheck::<Tower128>();
}

#[test]
fn sumcheck_goldilocks() {
    check_sumcheck::<Goldilocks>();
}

#[test]
fn sumcheck_bn254() {
    check_sumcheck::<Bn254Fr>();
}

#[test]
fn sumcheck_aes8_polys_ghash128_challenges() {
    check_sumcheck_ext::<Aes8, Ghash128>();
}

#[test]
fn sumcheck_ghash128_polys_ghash256_challenges() {
    check_sumcheck_ext::<Ghash128, Ghash256>();
}
