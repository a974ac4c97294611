//! Multilinear, eq and univariate polynomials against their definitions.

use flockwork_core::{
    MultilinearPoly, SplitEq, UnivariatePoly, add_scaled_eq, eq_eval, eq_inner_product, eq_table,
};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{Aes8, Ghash128};
use flockwork_field_prime::Goldilocks;
use flockwork_testkit::field::arb_field;
use flockwork_testkit::{random, random_vec, rng};
use proptest::prelude::*;

/// `f(point) = Σ_b f(b) · Π_i (b_i ? p_i : 1 − p_i)`, straight from the definition.
fn naive_evaluate<F: Field>(evals: &[F], point: &[F]) -> F {
    evals
        .iter()
        .enumerate()
        .map(|(b, &value)| {
            let weight: F = point
                .iter()
                .enumerate()
                .map(|(i, &p)| if (b >> i) & 1 == 1 { p } else { F::ONE - p })
                .product();
            weight * value
        })
        .sum()
}

/// A multilinear table of `0..=5` variables and a point of matching length.
fn table_and_point<F: Field>() -> impl Strategy<Value = (Vec<F>, Vec<F>)> {
    (0usize..=5).prop_flat_map(|n| {
        (
            proptest::collection::vec(arb_field::<F>(), 1 << n),
            proptest::collection::vec(arb_field::<F>(), n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn evaluate_matches_naive_sum_ghash((evals, point) in table_and_point::<Ghash128>()) {
        let poly = MultilinearPoly::new(evals.clone());
        prop_assert_eq!(poly.evaluate(&point), naive_evaluate(&evals, &point));
    }

    #[test]
    fn evaluate_matches_naive_sum_goldilocks((evals, point) in table_and_point::<Goldilocks>()) {
        let poly = MultilinearPoly::new(evals.clone());
        prop_assert_eq!(poly.evaluate(&point), naive_evaluate(&evals, &point));
    }

    #[test]
    fn partial_evaluation_composes((evals, point) in table_and_point::<Ghash128>(), split in 0usize..=5) {
        let poly = MultilinearPoly::new(evals);
        let split = split.min(point.len());
        let (prefix, rest) = point.split_at(split);
        prop_assert_eq!(poly.partial_evaluate(prefix).evaluate(rest), poly.evaluate(&point));
    }

    #[test]
    fn eq_table_is_the_extension_of_the_indicator(point in proptest::collection::vec(arb_field::<Ghash128>(), 0..=5)) {
        let table = eq_table(&point);
        prop_assert_eq!(table.iter().copied().sum::<Ghash128>(), Ghash128::ONE);
        for (x, &value) in table.iter().enumerate() {
            prop_assert_eq!(value, eq_eval(&point, &cube_point(x, point.len())));
        }
        prop_assert_eq!(SplitEq::new(&point).to_table(), table);
    }

    // Sizes past the 2^12-entry blocks of the split passes, so several blocks are summed.
    #[test]
    fn the_split_eq_passes_match_the_full_table(
        point in proptest::collection::vec(arb_field::<Ghash128>(), 0..=14),
        scale in arb_field::<Ghash128>(),
        seed in any::<u64>(),
    ) {
        let n = 1usize << point.len();
        let values: Vec<Ghash128> = (0..n as u64)
            .map(|i| Ghash128::new(u128::from(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed) << 3 | 1))
            .collect();
        let table = eq_table(&point);
        let expected: Ghash128 = values.iter().zip(&table).map(|(&v, &e)| v * e).sum();
        prop_assert_eq!(eq_inner_product(&values, &point), expected);
        prop_assert_eq!(MultilinearPoly::new(values.clone()).evaluate(&point), expected);
        let mut out = values.clone();
        add_scaled_eq(&mut out, scale, &point);
        for ((&o, &v), &e) in out.iter().zip(&values).zip(&table) {
            prop_assert_eq!(o, v + scale * e);
        }
    }
}

fn cube_point<F: Field>(x: usize, n: usize) -> Vec<F> {
    (0..n)
        .map(|i| if (x >> i) & 1 == 1 { F::ONE } else { F::ZERO })
        .collect()
}

fn check_folds<F: Field>(num_vars: usize) {
    let mut rng = rng("folds");
    let poly = MultilinearPoly::new(random_vec::<F>(&mut rng, 1 << num_vars));
    let r: F = random(&mut rng);
    let mut in_place = poly.clone();
    in_place.fold_in_place(r);
    assert_eq!(in_place, poly.fold(r));
    assert_eq!(in_place, poly.partial_evaluate(&[r]));
    assert_eq!(in_place.num_vars(), num_vars - 1);
    for (j, &v) in in_place.evals().iter().enumerate() {
        let (lo, hi) = (poly.evals()[2 * j], poly.evals()[2 * j + 1]);
        assert_eq!(v, lo + r * (hi - lo), "LSB-first binding at {j}");
    }
    let rest = random_vec::<F>(&mut rng, num_vars - 1);
    let mut full = vec![r];
    full.extend_from_slice(&rest);
    assert_eq!(in_place.evaluate(&rest), poly.evaluate(&full));
}

#[test]
fn folds_agree_small_and_parallel_sizes() {
    check_folds::<Ghash128>(3);
    check_folds::<Ghash128>(15);
    check_folds::<Goldilocks>(3);
    check_folds::<Goldilocks>(15);
}

fn check_extension_evaluation<F: Field, E: ExtensionField<F>>() {
    let mut rng = rng("extension evaluation");
    let evals = random_vec::<F>(&mut rng, 1 << 6);
    let point = random_vec::<E>(&mut rng, 6);
    let lifted = MultilinearPoly::new(evals.iter().map(|&v| E::from(v)).collect());
    let poly = MultilinearPoly::new(evals);
    assert_eq!(poly.evaluate(&point), lifted.evaluate(&point));
    assert_eq!(poly.fold(point[0]), lifted.fold(point[0]));
}

#[test]
fn evaluation_at_extension_points() {
    check_extension_evaluation::<Aes8, Ghash128>();
    check_extension_evaluation::<Ghash128, Ghash128>();
}

fn check_split_eq<F: Field>(num_vars: usize) {
    let mut rng = rng("split eq");
    let point = random_vec::<F>(&mut rng, num_vars);
    let mut split = SplitEq::new(&point);
    assert_eq!(split.num_vars(), num_vars);
    assert_eq!(split.lo().len() * split.hi().len(), 1 << num_vars);
    let table = eq_table(&point);
    assert_eq!(split.to_table(), table);
    for x in [0, 1, (1 << num_vars) - 1, (1 << num_vars) / 3] {
        assert_eq!(split.get(x), table[x]);
    }
    for i in 1..=num_vars {
        split.sum_out_first_var();
        assert_eq!(
            split.to_table(),
            eq_table(&point[i..]),
            "after summing out {i}"
        );
    }
}

#[test]
fn split_eq_equals_full_eq() {
    check_split_eq::<Ghash128>(7);
    check_split_eq::<Ghash128>(14); // parallel table construction
    check_split_eq::<Goldilocks>(6);
}

#[test]
fn eq_eval_matches_the_formula() {
    let mut rng = rng("eq eval");
    let x = random_vec::<Goldilocks>(&mut rng, 4);
    let y = random_vec::<Goldilocks>(&mut rng, 4);
    let two = Goldilocks::from_index(2);
    // 1 − x − y + 2xy per coordinate (odd characteristic).
    let expected: Goldilocks = x
        .iter()
        .zip(&y)
        .map(|(&a, &b)| Goldilocks::ONE - a - b + two * a * b)
        .product();
    assert_eq!(eq_eval(&x, &y), expected);
    // Characteristic two: 1 + x + y.
    let a: Ghash128 = random(&mut rng);
    let b: Ghash128 = random(&mut rng);
    assert_eq!(eq_eval(&[a], &[b]), Ghash128::ONE + a + b);
}

fn check_interpolation<F: Field>() {
    let mut rng = rng("interpolation");
    for degree in 0..=6usize {
        let poly = UnivariatePoly::new(random_vec::<F>(&mut rng, degree + 1));
        let nodes: Vec<F> = (0..=degree as u64).map(F::from_index).collect();
        let values: Vec<F> = nodes.iter().map(|&x| poly.evaluate(x)).collect();
        assert_eq!(
            UnivariatePoly::interpolate(&values),
            poly,
            "degree {degree}"
        );
        assert_eq!(poly.degree_bound(), degree);
        if degree > 0 {
            let with_infinity =
                UnivariatePoly::interpolate_with_infinity(&values[..degree], poly.at_infinity());
            assert_eq!(with_infinity, poly, "degree {degree} with infinity");
        }
        let x: F = random(&mut rng);
        let horner: F = poly
            .coeffs()
            .iter()
            .enumerate()
            .map(|(i, &c)| c * x.pow(&[i as u64]))
            .sum();
        assert_eq!(poly.evaluate(x), horner);
    }
    assert_eq!(
        UnivariatePoly::<F>::interpolate(&[]).evaluate(F::ONE),
        F::ZERO
    );
}

#[test]
fn interpolation_round_trips() {
    check_interpolation::<Ghash128>();
    check_interpolation::<Aes8>();
    check_interpolation::<Goldilocks>();
}
