//! Subspace polynomials and the novel polynomial basis of Lin–Chung–Han (FOCS 2014).
//!
//! Fix the `F2`-basis `β_c = from_bits(1 << c)` and `U_i = span_F2(β_0, …, β_{i−1})`. The
//! subspace polynomial `W_i(X) = Π_{u ∈ U_i} (X − u)` has degree `2^i` and is `F2`-linear; it
//! satisfies `W_0(X) = X` and `W_{i+1}(X) = W_i(X)·W_i(X + β_i) = W_i(X)·(W_i(X) + W_i(β_i))`.
//! The normalised `Ŵ_i = W_i / W_i(β_i)` takes the value 1 at `β_i` and vanishes on `U_i`.
//!
//! The novel basis is `X_k(X) = Π_{i : bit i of k} Ŵ_i(X)` (`deg X_k = k`), and a message
//! `(a_k)_{k < 2^ℓ}` is the polynomial `Σ_k a_k X_k`. Evaluated at the domain point
//! `x_j = Σ_{c : bit c of j} β_c = from_bits(j)`, the generator "row" `(X_k(x_j))_k` is a
//! tensor product `⊗_{i<ℓ} (1, Ŵ_i(x_j))`, so its multilinear extension is
//! `Π_i (1 − y_i + y_i·Ŵ_i(x_j))` — which is why Ligerito's verifier can evaluate glued
//! row weights in `O(ℓ)` (Ligerito, eprint 2025/1187; FRI-Binius, eprint 2024/504).

use flockwork_field::BinaryField;

/// The values `Ŵ_i(β_c)` for `i, c < dim`: everything needed to evaluate subspace
/// polynomials on the domain `U_dim`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubspaceBasis<F> {
    /// `normalized[i][c] = Ŵ_i(β_c)` (zero for `c < i`).
    normalized: Vec<Vec<F>>,
}

impl<F: BinaryField> SubspaceBasis<F> {
    /// The tables for the domain `U_dim` of `2^dim` points.
    ///
    /// # Panics
    /// If `dim > F::BITS` or `dim > 63`.
    #[must_use]
    pub fn new(dim: usize) -> Self {
        assert!(
            dim <= F::BITS && dim < 64,
            "domain of dimension {dim} does not fit"
        );
        // w[c] = W_i(β_c) for the current i, starting from W_0(X) = X.
        let mut w: Vec<F> = (0..dim).map(|c| F::from_bits(1u128 << c)).collect();
        let mut normalized = Vec::with_capacity(dim);
        for i in 0..dim {
            let at_beta_i = w[i];
            let inv = at_beta_i.inverse().expect("W_i(β_i) ≠ 0 because β_i ∉ U_i");
            normalized.push(w.iter().map(|&x| x * inv).collect());
            // W_{i+1}(β_c) = W_i(β_c)·(W_i(β_c) + W_i(β_i)).
            for x in &mut w {
                *x = *x * (*x + at_beta_i);
            }
        }
        Self { normalized }
    }

    /// The dimension `dim` of the domain.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.normalized.len()
    }

    /// The domain point `x_j = from_bits(j)`.
    #[must_use]
    pub fn point(j: u64) -> F {
        F::from_bits(u128::from(j))
    }

    /// `Ŵ_i(x_j) = Σ_{c : bit c of j} Ŵ_i(β_c)` (linearity).
    ///
    /// # Panics
    /// If `i ≥ dim` or `j ≥ 2^dim`.
    #[must_use]
    pub fn w_hat(&self, i: usize, j: u64) -> F {
        let row = &self.normalized[i];
        assert!(j >> row.len() == 0, "point index {j} outside the domain");
        let mut acc = F::ZERO;
        let mut bits = j >> i; // Ŵ_i vanishes on β_c for c < i.
        let mut c = i;
        while bits != 0 {
            if bits & 1 == 1 {
                acc += row[c];
            }
            bits >>= 1;
            c += 1;
        }
        acc
    }

    /// The generator row `(X_k(x_j))_{k < 2^log_msg}` of the novel basis at the point `x_j`.
    ///
    /// # Panics
    /// If `log_msg > dim` or `j ≥ 2^dim`.
    #[must_use]
    pub fn generator_row(&self, log_msg: usize, j: u64) -> Vec<F> {
        let mut row = Vec::with_capacity(1 << log_msg);
        row.push(F::ONE);
        for i in 0..log_msg {
            let w = self.w_hat(i, j);
            let len = row.len();
            for k in 0..len {
                let scaled = row[k] * w;
                row.push(scaled);
            }
        }
        row
    }

    /// The multilinear extension of the generator row at `y`:
    /// `Σ_k eq(y, k)·X_k(x_j) = Π_i (1 − y_i + y_i·Ŵ_i(x_j))`.
    ///
    /// # Panics
    /// If `y.len() > dim` or `j ≥ 2^dim`.
    #[must_use]
    pub fn generator_row_mle(&self, j: u64, y: &[F]) -> F {
        y.iter()
            .enumerate()
            .map(|(i, &yi)| F::ONE - yi + yi * self.w_hat(i, j))
            .product()
    }

    /// `Σ_k coeffs[k]·X_k(x_j)` by the definition (quadratic time; for tests and tiny
    /// messages).
    ///
    /// # Panics
    /// If `coeffs.len()` is not a power of two `≤ 2^dim` or `j ≥ 2^dim`.
    #[must_use]
    pub fn evaluate_naive(&self, coeffs: &[F], j: u64) -> F {
        assert!(coeffs.len().is_power_of_two(), "message length must be 2^ℓ");
        let row = self.generator_row(coeffs.len().trailing_zeros() as usize, j);
        coeffs.iter().zip(&row).map(|(&a, &x)| a * x).sum()
    }
}

#[cfg(test)]
mod tests {
    use flockwork_field::Field;
    use flockwork_field_binary::{Aes8, Ghash128};

    use super::*;

    /// `W_i(x) = Π_{u ∈ U_i} (x − u)` straight from the definition.
    fn subspace_poly<F: BinaryField>(i: usize, x: F) -> F {
        (0..1u64 << i)
            .map(|u| x - SubspaceBasis::<F>::point(u))
            .product()
    }

    fn check_definition<F: BinaryField>(dim: usize) {
        let basis = SubspaceBasis::<F>::new(dim);
        for i in 0..dim.min(5) {
            let norm = subspace_poly(i, SubspaceBasis::<F>::point(1 << i));
            for j in (0..1u64 << dim).step_by(7) {
                let direct =
                    subspace_poly(i, SubspaceBasis::<F>::point(j)) * norm.inverse().unwrap();
                assert_eq!(basis.w_hat(i, j), direct, "Ŵ_{i}(x_{j})");
            }
        }
    }

    #[test]
    fn normalized_subspace_polynomials_match_their_definition() {
        check_definition::<Ghash128>(10);
        check_definition::<Aes8>(8);
    }

    #[test]
    fn generator_row_mle_agrees_with_the_table() {
        let basis = SubspaceBasis::<Ghash128>::new(9);
        let y: Vec<Ghash128> = (0..4)
            .map(|i| Ghash128::new(0xabcdef_u128 << (5 * i) | 3))
            .collect();
        for j in [0u64, 1, 77, 300, 511] {
            let row = basis.generator_row(4, j);
            let eq = eq_table_naive(&y);
            let direct: Ghash128 = row.iter().zip(&eq).map(|(&a, &b)| a * b).sum();
            assert_eq!(basis.generator_row_mle(j, &y), direct);
        }
    }

    /// `eq(y, ·)` on the hypercube (index bit i = variable i).
    fn eq_table_naive(y: &[Ghash128]) -> Vec<Ghash128> {
        let mut t = vec![Ghash128::ONE];
        for &r in y {
            let len = t.len();
            for k in 0..len {
                let hi = t[k] * r;
                t[k] -= hi;
                t.push(hi);
            }
        }
        t
    }
}
