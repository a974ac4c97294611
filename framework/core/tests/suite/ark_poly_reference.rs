//! Multilinear evaluation and eq tables over prime fields against ark-poly's
//! `DenseMultilinearExtension`, the reference implementation for ark-ff fields.
//!
//! Conventions compared like with like: both tables are indexed little-endian — bit `i` of the
//! index is variable `x_i` (ark: "`0b1011` represents `P(1,1,0,1)`") — and both bind variables
//! from `x_0` upwards: `MultilinearPoly::partial_evaluate(prefix)` and ark's
//! `fix_variables(prefix)` fix `x_0 … x_{k−1}` to `prefix` and leave a table over the remaining
//! variables in the same order. Flockwork's fields wrap ark's (`Ark<F>(pub F)`), so values
//! cross by `.0`.

use ark_poly::{DenseMultilinearExtension, MultilinearExtension, Polynomial};
use flockwork_core::{MultilinearPoly, eq_inner_product, eq_table};
use flockwork_field_prime::{Ark, GoldilocksFp};
use flockwork_testkit::{random_vec, rng};
use itertools::Itertools;

fn to_ark<F: ark_ff::PrimeField>(values: &[Ark<F>]) -> Vec<F> {
    values.iter().map(|v| v.0).collect()
}

fn ark_mle<F: ark_ff::PrimeField>(evals: &[Ark<F>]) -> DenseMultilinearExtension<F> {
    DenseMultilinearExtension::from_evaluations_vec(
        evals.len().trailing_zeros() as usize,
        to_ark(evals),
    )
}

/// `evaluate`, every `partial_evaluate` prefix and `fold_in_place` against ark's `evaluate`
/// and `fix_variables`, and the eq table's inner product against ark's evaluation.
fn check_multilinear<F: ark_ff::PrimeField>(label: &str) {
    let mut rng = rng(label);
    for num_vars in 0..=10 {
        let evals: Vec<Ark<F>> = random_vec(&mut rng, 1 << num_vars);
        let point: Vec<Ark<F>> = random_vec(&mut rng, num_vars);
        let poly = MultilinearPoly::new(evals.clone());
        let reference = ark_mle(&evals);
        let ark_point = to_ark(&point);

        let value = poly.evaluate(&point);
        assert_eq!(
            value.0,
            reference.evaluate(&ark_point),
            "{num_vars} variables"
        );
        assert_eq!(
            eq_inner_product(&evals, &point).0,
            reference.evaluate(&ark_point),
            "eq inner product, {num_vars} variables"
        );
        for k in 0..=num_vars {
            let partial = poly.partial_evaluate(&point[..k]);
            assert_eq!(
                to_ark(partial.evals()),
                reference.fix_variables(&ark_point[..k]).to_evaluations(),
                "{num_vars} variables, prefix of {k}"
            );
        }
        if let Some(&r) = point.first() {
            let mut folded = poly.clone();
            folded.fold_in_place(r);
            assert_eq!(
                to_ark(folded.evals()),
                reference.fix_variables(&[r.0]).to_evaluations(),
                "fold_in_place, {num_vars} variables"
            );
        }
    }
}

#[test]
fn multilinear_matches_ark_poly_over_bn254() {
    check_multilinear::<ark_bn254::Fr>("mle-ark-bn254");
}

#[test]
fn multilinear_matches_ark_poly_over_goldilocks() {
    check_multilinear::<GoldilocksFp>("mle-ark-goldilocks");
}

/// `eq_table(r)[x]` is the multilinear extension of the indicator of `x`, evaluated at `r`:
/// ark's evaluation of the one-hot table at `x`.
#[test]
fn eq_table_entries_are_ark_indicator_evaluations() {
    let mut rng = rng("eq-ark-indicator");
    for num_vars in 0..=6 {
        let point: Vec<Ark<ark_bn254::Fr>> = random_vec(&mut rng, num_vars);
        let ark_point = to_ark(&point);
        let table = eq_table(&point);
        for (x, entry) in table.iter().enumerate() {
            let one_hot = (0..1usize << num_vars)
                .map(|b| ark_bn254::Fr::from(u64::from(b == x)))
                .collect_vec();
            let indicator = DenseMultilinearExtension::from_evaluations_vec(num_vars, one_hot);
            assert_eq!(
                entry.0,
                indicator.evaluate(&ark_point),
                "{num_vars} variables, x = {x}"
            );
        }
    }
}

/// The comparison sees a change: a table differing in one entry evaluates differently at a
/// random point.
#[test]
fn a_changed_entry_is_seen_by_the_comparison() {
    let mut rng = rng("mle-ark-changed");
    let evals: Vec<Ark<ark_bn254::Fr>> = random_vec(&mut rng, 1 << 6);
    let point: Vec<Ark<ark_bn254::Fr>> = random_vec(&mut rng, 6);
    let mut changed = evals.clone();
    changed[45] += Ark::from(ark_bn254::Fr::from(1u64));
    let value = MultilinearPoly::new(changed).evaluate(&point);
    assert_ne!(value.0, ark_mle(&evals).evaluate(&to_ark(&point)));
}
