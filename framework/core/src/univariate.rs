//! Univariate polynomials in coefficient form, with Lagrange interpolation on the points
//! `F::from_index(0), F::from_index(1), …` and the "point at infinity".
//!
//! The interpolation nodes are `x_k = F::from_index(k)`: the integers `0, 1, 2, …` in a prime
//! field and the bit patterns `0, 1, x, x + 1, …` in a binary field. They are distinct in any
//! characteristic, unlike `1 + 1 = 0` in GF(2^k).
//!
//! For `p(X) = Σ_i c_i X^i` of degree at most `d`, the value "at infinity" is `c_d`, the
//! leading coefficient (the limit of `p(X) / X^d`). Sumcheck messages use it (Gruen, eprint
//! 2024/108 §3): `d` finite values plus `p(∞)` determine `p`, since
//! `p(X) = q(X) + p(∞)·Z(X)`, where `Z(X) = Π_{k<d} (X − x_k)` and `q` interpolates the finite
//! values (`Z` vanishes on every node, and `q` has degree below `d`).

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;

/// A univariate polynomial `Σ_i coeffs[i] · X^i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnivariatePoly<F> {
    coeffs: Vec<F>,
}

impl<F: Field> UnivariatePoly<F> {
    /// The polynomial with the given coefficients (constant term first).
    #[must_use]
    pub fn new(coeffs: Vec<F>) -> Self {
        Self { coeffs }
    }

    /// The coefficients, constant term first.
    #[must_use]
    pub fn coeffs(&self) -> &[F] {
        &self.coeffs
    }

    /// The degree bound `coeffs.len() − 1` (`0` for the empty polynomial); the actual degree
    /// is lower when leading coefficients are zero.
    #[must_use]
    pub fn degree_bound(&self) -> usize {
        self.coeffs.len().saturating_sub(1)
    }

    /// `p(x)` by Horner's rule.
    #[must_use]
    pub fn evaluate(&self, x: F) -> F {
        horner(&self.coeffs, x)
    }

    /// The value at infinity for the degree bound: the coefficient of `X^degree_bound`.
    #[must_use]
    pub fn at_infinity(&self) -> F {
        self.coeffs.last().copied().unwrap_or(F::ZERO)
    }

    /// The polynomial of degree below `values.len()` with `p(from_index(k)) = values[k]`.
    ///
    /// # Panics
    /// If two nodes coincide, i.e. `values.len()` exceeds the number of elements of `F`.
    #[must_use]
    pub fn interpolate(values: &[F]) -> Self {
        let vanishing = vanishing_poly::<F>(values.len());
        Self::new(lagrange_combination(values, &vanishing))
    }

    /// The polynomial of degree bound `values.len()` with `p(from_index(k)) = values[k]` and
    /// `p(∞) = at_infinity`.
    ///
    /// # Panics
    /// As [`UnivariatePoly::interpolate`].
    #[must_use]
    pub fn interpolate_with_infinity(values: &[F], at_infinity: F) -> Self {
        let vanishing = vanishing_poly::<F>(values.len());
        let mut coeffs = lagrange_combination(values, &vanishing);
        coeffs.push(F::ZERO);
        for (c, z) in coeffs.iter_mut().zip(&vanishing) {
            *c += at_infinity * *z;
        }
        Self::new(coeffs)
    }
}

/// `Σ_i coeffs[i] · x^i`.
fn horner<F: Field>(coeffs: &[F], x: F) -> F {
    coeffs.iter().rev().fold(F::ZERO, |acc, &c| acc * x + c)
}

/// The node `x_k = F::from_index(k)`.
fn node<F: Field>(k: usize) -> F {
    F::from_index(k as u64)
}

/// Coefficients of `Z(X) = Π_{k<n} (X − x_k)` (length `n + 1`, monic).
fn vanishing_poly<F: Field>(n: usize) -> Vec<F> {
    let mut z = vec![F::ONE];
    for k in 0..n {
        z = mul_by_linear(&z, node(k));
    }
    z
}

/// `p(X) · (X − a)`.
fn mul_by_linear<F: Field>(p: &[F], a: F) -> Vec<F> {
    let mut out = vec![F::ZERO; p.len() + 1];
    for (i, &c) in p.iter().enumerate() {
        out[i + 1] += c;
        out[i] -= a * c;
    }
    out
}

/// `Z(X) / (X − a)` for a root `a` of `Z`, by synthetic division.
fn div_by_linear<F: Field>(z: &[F], a: F) -> Vec<F> {
    let mut quotient = vec![F::ZERO; z.len() - 1];
    let mut carry = F::ZERO;
    for i in (0..quotient.len()).rev() {
        carry = z[i + 1] + a * carry;
        quotient[i] = carry;
    }
    quotient
}

/// `Σ_k values[k] · L_k(X)` with the Lagrange basis `L_k = Z / ((X − x_k) · Z'(x_k))` of the
/// nodes `x_0..x_{n−1}` (`vanishing` = `Z`); `n` coefficients.
fn lagrange_combination<F: Field>(values: &[F], vanishing: &[F]) -> Vec<F> {
    let mut coeffs = vec![F::ZERO; values.len()];
    for (k, &value) in values.iter().enumerate() {
        let basis = div_by_linear(vanishing, node(k));
        let denominator = horner(&basis, node(k));
        let scale = value
            * denominator
                .inverse()
                .expect("interpolation nodes must be distinct field elements");
        for (c, b) in coeffs.iter_mut().zip(&basis) {
            *c += scale * *b;
        }
    }
    coeffs
}
