//! Multilinear polynomials given by their evaluations on the Boolean hypercube.
//!
//! `f: {0,1}^n → F` has a unique multilinear extension
//! `f(x) = Σ_{b ∈ {0,1}^n} f(b)·eq(b, x)` (Thaler, *Proofs, Arguments, and Zero-Knowledge*,
//! §3.5). The table entry at index `b = Σ_i b_i 2^i` is `f(b_0, …, b_{n−1})`: bit `i` of the
//! index is variable `i`.
//!
//! Variables are bound **least significant first**. Fixing `x_0 = r` maps the table `f` to
//! `f'[j] = f[2j] + r·(f[2j+1] − f[2j])` of `n − 1` variables, because
//! `f(r, x') = (1 − r)·f(0, x') + r·f(1, x')`. When `r` lies in an extension `E ⊇ F`, the first
//! fold takes `F` values to `E` with cheap `E × F` products; later folds run in `E`.

use alloc::vec::Vec;

use flockwork_field::{ExtensionField, Field};

use flockwork_field::par::{self, MIN_PARALLEL_ITEMS};

/// A multilinear polynomial in `num_vars` variables, stored as its `2^num_vars` hypercube
/// evaluations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultilinearPoly<F> {
    evals: Vec<F>,
}

impl<F: Field> MultilinearPoly<F> {
    /// The polynomial with hypercube evaluations `evals` (index bit `i` = variable `i`).
    ///
    /// # Panics
    /// If `evals.len()` is not a power of two.
    #[must_use]
    pub fn new(evals: Vec<F>) -> Self {
        assert!(
            evals.len().is_power_of_two(),
            "a multilinear table needs 2^n entries, got {}",
            evals.len()
        );
        Self { evals }
    }

    /// The number of variables `n`.
    #[must_use]
    pub fn num_vars(&self) -> usize {
        self.evals.len().trailing_zeros() as usize
    }

    /// The hypercube evaluations.
    #[must_use]
    pub fn evals(&self) -> &[F] {
        &self.evals
    }

    /// The hypercube evaluations, by value.
    #[must_use]
    pub fn into_evals(self) -> Vec<F> {
        self.evals
    }

    /// Binds the first variable to `r` in place: `f ← f(r, ·)`.
    ///
    /// # Panics
    /// If the polynomial has no variables.
    pub fn fold_in_place(&mut self, r: F) {
        let half = self.half_len();
        if half < MIN_PARALLEL_ITEMS {
            for j in 0..half {
                self.evals[j] = fold_pair(self.evals[2 * j], self.evals[2 * j + 1], r);
            }
            self.evals.truncate(half);
        } else {
            *self = self.fold(r);
        }
    }

    /// `f(r, ·)` for `r` in an extension field: the first variable is bound and the result
    /// has coefficients in `E` (one `E × F` product per output entry).
    ///
    /// # Panics
    /// If the polynomial has no variables.
    #[must_use]
    pub fn fold<E: ExtensionField<F>>(&self, r: E) -> MultilinearPoly<E> {
        let evals = &self.evals;
        MultilinearPoly {
            evals: par::map_collect(self.half_len(), MIN_PARALLEL_ITEMS, |j| {
                fold_pair(evals[2 * j], evals[2 * j + 1], r)
            }),
        }
    }

    /// `f(prefix, ·)`: binds the first `prefix.len()` variables (in order `x_0, x_1, …`).
    ///
    /// # Panics
    /// If `prefix.len() > num_vars`.
    #[must_use]
    pub fn partial_evaluate<E: ExtensionField<F>>(&self, prefix: &[E]) -> MultilinearPoly<E> {
        assert!(
            prefix.len() <= self.num_vars(),
            "prefix of {} coordinates for {} variables",
            prefix.len(),
            self.num_vars()
        );
        match prefix.split_first() {
            None => MultilinearPoly {
                evals: self.evals.iter().map(|&v| E::from(v)).collect(),
            },
            Some((&first, rest)) => {
                let mut folded = self.fold(first);
                for &r in rest {
                    folded.fold_in_place(r);
                }
                folded
            }
        }
    }

    /// `f(point)` for a point in `F^n` or in an extension `E^n`.
    ///
    /// # Panics
    /// If `point.len() != num_vars`.
    #[must_use]
    pub fn evaluate<E: ExtensionField<F>>(&self, point: &[E]) -> E {
        assert_eq!(
            point.len(),
            self.num_vars(),
            "evaluation point has the wrong number of coordinates"
        );
        self.partial_evaluate(point).evals[0]
    }

    fn half_len(&self) -> usize {
        assert!(self.num_vars() > 0, "cannot bind a variable of a constant");
        self.evals.len() / 2
    }
}

/// `lo + r·(hi − lo)`: the line through `(0, lo)` and `(1, hi)` at `r`.
#[inline]
fn fold_pair<F: Field, E: ExtensionField<F>>(lo: F, hi: F, r: E) -> E {
    r * (hi - lo) + lo
}
