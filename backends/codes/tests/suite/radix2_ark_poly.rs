//! `Radix2Ntt` against ark-poly's `Radix2EvaluationDomain`, the reference radix-2 FFT over
//! ark-ff prime fields.
//!
//! Conventions compared like with like: both transforms use the plain subgroup
//! `⟨ω⟩ = {ω^k : k < N}` (no coset — ark's domain is built with `new`, offset one) and the same
//! generator `ω` (checked first: `Radix2Ntt::root_power(1) == domain.group_gen()`, both the
//! ark-ff two-adic root squared down to order `N`). ark's `fft` returns `D(ω^k)` at position
//! `k` (natural order); `Radix2Ntt::forward_bit_reversed` stores it at position `bitrev_n(k)`.
//! Rows of `width` elements are transformed column by column, so every column of the
//! interleaved output is compared with ark's transform of that column.

use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use flockwork_codes::Radix2Ntt;
use flockwork_field::PrimeField;
use flockwork_field_prime::{Ark, Goldilocks, GoldilocksFp};
use itertools::iproduct;

/// `k` with its low `log_len` bits reversed.
fn bitrev(k: usize, log_len: usize) -> usize {
    if log_len == 0 {
        0
    } else {
        k.reverse_bits() >> (usize::BITS as usize - log_len)
    }
}

/// Every column of the bit-reversed interleaved NTT equals ark's natural-order FFT of that
/// column, and ark's inverse FFT of the natural-order column gives the coefficients back.
fn check_against_ark<F: ark_ff::FftField + ark_ff::PrimeField>(log_len: usize, width: usize) {
    let n = 1usize << log_len;
    let ntt = Radix2Ntt::<Ark<F>>::new(log_len);
    let domain = Radix2EvaluationDomain::<F>::new(n).expect("the field has the subgroup");
    assert_eq!(domain.size(), n);
    assert_eq!(
        ntt.root_power(usize::from(log_len > 0)).0,
        domain.group_gen(),
        "same ω, log_len {log_len}"
    );

    let mut rng = flockwork_testkit::rng(&format!("radix2-ark-{log_len}-{width}"));
    let coeffs: Vec<Ark<F>> = flockwork_testkit::random_vec(&mut rng, width * n);
    let mut data = coeffs.clone();
    ntt.forward_bit_reversed(&mut data, width);

    for col in 0..width {
        let column: Vec<F> = coeffs
            .iter()
            .skip(col)
            .step_by(width)
            .map(|c| c.0)
            .collect();
        let expected = domain.fft(&column);
        let natural: Vec<F> = (0..n)
            .map(|k| data[bitrev(k, log_len) * width + col].0)
            .collect();
        assert_eq!(
            natural, expected,
            "log_len {log_len}, width {width}, column {col}"
        );
        assert_eq!(domain.ifft(&natural), column, "ifft inverts, column {col}");
    }
}

#[test]
fn radix2_matches_ark_poly_over_bn254() {
    for (log_len, width) in iproduct!(0..=10, [1, 3]) {
        check_against_ark::<ark_bn254::Fr>(log_len, width);
    }
}

#[test]
fn radix2_matches_ark_poly_over_bls12_381() {
    for (log_len, width) in iproduct!([0, 1, 5, 9], [1, 2]) {
        check_against_ark::<ark_bls12_381::Fr>(log_len, width);
    }
}

#[test]
fn radix2_matches_ark_poly_over_goldilocks_ark() {
    for (log_len, width) in iproduct!([0, 1, 4, 8, 12], [1, 4]) {
        check_against_ark::<GoldilocksFp>(log_len, width);
    }
}

/// The specialised Goldilocks backend (not an ark-ff type) against ark's FFT over the same
/// field through ark-ff's Goldilocks: elements cross by their canonical `u64`.
#[test]
fn radix2_native_goldilocks_matches_ark_poly() {
    for log_len in [0, 3, 7, 11] {
        let n = 1usize << log_len;
        let ntt = Radix2Ntt::<Goldilocks>::new(log_len);
        let domain = Radix2EvaluationDomain::<GoldilocksFp>::new(n).expect("subgroup");
        let to_ark = |x: Goldilocks| GoldilocksFp::from(x.to_u64());
        assert_eq!(
            to_ark(ntt.root_power(usize::from(log_len > 0))),
            domain.group_gen(),
            "same ω, log_len {log_len}"
        );
        let coeffs: Vec<Goldilocks> = flockwork_testkit::seeded_vec(log_len as u64, n);
        let mut data = coeffs.clone();
        ntt.forward_bit_reversed(&mut data, 1);
        let column: Vec<GoldilocksFp> = coeffs.iter().map(|&c| to_ark(c)).collect();
        let expected = domain.fft(&column);
        for (k, want) in expected.into_iter().enumerate() {
            assert_eq!(
                to_ark(data[bitrev(k, log_len)]),
                want,
                "log_len {log_len}, k {k}"
            );
        }
    }
}

/// The comparison is not vacuous: a coefficient changed in the input changes some output.
#[test]
fn a_changed_coefficient_is_seen_by_the_comparison() {
    let log_len = 5;
    let ntt = Radix2Ntt::<Ark<ark_bn254::Fr>>::new(log_len);
    let domain = Radix2EvaluationDomain::<ark_bn254::Fr>::new(1 << log_len).expect("subgroup");
    let coeffs: Vec<Ark<ark_bn254::Fr>> = flockwork_testkit::seeded_vec(9, 1 << log_len);
    let mut changed = coeffs.clone();
    changed[17] += Ark::<ark_bn254::Fr>::from_u64(1);
    ntt.forward_bit_reversed(&mut changed, 1);
    let column: Vec<ark_bn254::Fr> = coeffs.iter().map(|c| c.0).collect();
    let expected = domain.fft(&column);
    let natural: Vec<ark_bn254::Fr> = (0..1 << log_len)
        .map(|k| changed[bitrev(k, log_len)].0)
        .collect();
    assert_ne!(natural, expected);
}
