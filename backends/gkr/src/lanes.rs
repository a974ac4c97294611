//! Round-polynomial kernels of one lane: the coefficients of `e · T(a + b·X)` for a lane map
//! `T` ([`LaneMap`]), added into an accumulator in the monomial basis.
//!
//! In round `k` a hypercube pair `(lo, hi)` of a lane restricts to the line
//! `s(X) = lo + X·(hi − lo)`, and the lane contributes `e · T(s(X))` with the pair's eq weight
//! `e`. Three expansions (chosen once per layer, [`LanePlan::new`]):
//!
//! * **linear** (`T(s) = s + c`, degree 1): `e·a + e·b·X`, 2 products;
//! * **Mersenne power in characteristic two** (`T(s) = (s + c)^(2^m − 1)`, e.g. the x^7
//!   S-box): squaring is linear, so
//!   `(a + bX)^(2^m − 1) = Π_{i<m} (a^(2^i) + b^(2^i) X^(2^i))` and every coefficient
//!   `a^(d−k) b^k` appears with coefficient 1 (all binomials `C(2^m − 1, k)` are odd). The
//!   eq weight is multiplied into the first factor: `(e·a + e·b·X)·(a² + b²X²)·(a⁴ + b⁴X⁴)`
//!   costs `2 + 4 + 8 = 14` products and 4 squarings for `x^7` (notes/poseidon2b-gkr.md
//!   §(b) "Degree"; 12 products without the weight, 8 more to apply it afterwards);
//! * **binomial** (any other power, any characteristic):
//!   `e · Σ_k C(d, k) a^(d−k) b^k X^k`, with the binomials built by Pascal's rule in the field.

use core::ops::Mul;
use flockwork_core::layered::LaneMap;

use flockwork_field::{ExtensionField, Field, PackedField};

/// How one lane of one layer is expanded into round-polynomial coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LanePlan<F> {
    /// `T(s) = s + shift`.
    Linear {
        /// The constant (zero for the identity).
        shift: F,
    },
    /// `T(s) = (s + shift)^(2^m − 1)` in characteristic two, `m ≥ 2`.
    Mersenne {
        /// The constant added before the power.
        shift: F,
        /// `m`, with degree `2^m − 1`.
        m: u32,
    },
    /// `T(s) = (s + shift)^d` by the binomial theorem.
    Binomial {
        /// The constant added before the power.
        shift: F,
        /// `C(d, k)` for `k = 0..=d`, as field elements.
        binomials: Vec<F>,
    },
}

impl<F: Field> LanePlan<F> {
    /// The cheapest expansion of `map`.
    #[must_use]
    pub fn new(map: LaneMap<F>) -> Self {
        match map {
            LaneMap::Identity => Self::Linear { shift: F::ZERO },
            LaneMap::Power { shift, exponent: 1 } => Self::Linear { shift },
            LaneMap::Power { shift, exponent } => {
                let d = exponent as usize;
                if F::CHARACTERISTIC_TWO && (d + 1).is_power_of_two() {
                    Self::Mersenne {
                        shift,
                        m: (d + 1).trailing_zeros(),
                    }
                } else {
                    Self::Binomial {
                        shift,
                        binomials: binomial_row(d),
                    }
                }
            }
        }
    }

    /// The degree of the lane map.
    #[must_use]
    pub fn degree(&self) -> usize {
        match self {
            Self::Linear { .. } => 1,
            Self::Mersenne { m, .. } => (1 << m) - 1,
            Self::Binomial { binomials, .. } => binomials.len() - 1,
        }
    }

    /// Adds the coefficients of `e · T(lo + X·(hi − lo))` to `acc[0..=degree]`; `scratch`
    /// holds at least `degree + 1` elements.
    #[inline]
    pub fn accumulate<V, E>(&self, e: E, lo: V, hi: V, acc: &mut [E], scratch: &mut [E])
    where
        V: ExtensionField<F>,
        E: ExtensionField<V>,
    {
        match self {
            Self::Linear { shift } => {
                acc[0] += e * (lo + *shift);
                acc[1] += e * (hi - lo);
            }
            Self::Mersenne { shift, m } => {
                let (a, b) = (lo + *shift, hi - lo);
                let len = 1 << *m;
                mersenne_expand([e * a, e * b], a, b, *m, &mut scratch[..len]);
                for (o, &c) in acc.iter_mut().zip(&scratch[..len]) {
                    *o += c;
                }
            }
            Self::Binomial { shift, binomials } => {
                let d = binomials.len() - 1;
                let a = lo + *shift;
                let b = hi - lo;
                // scratch[k] = e · b^k, then multiplied by C(d, k) · a^(d−k) from the top.
                let mut eb = e;
                for s in scratch.iter_mut().take(d + 1) {
                    *s = eb;
                    eb *= b;
                }
                let mut apow = V::ONE;
                for k in (0..=d).rev() {
                    acc[k] += scratch[k] * (apow * binomials[k]);
                    apow *= a;
                }
            }
        }
    }

    /// [`LanePlan::accumulate`] on `P::WIDTH` row pairs at once: lane `i` of `acc` receives
    /// what `accumulate(e_i, lo_i, hi_i)` adds, all values in the extension (the packing of
    /// the rounds after the first, whose tables are already lifted). `shift` is this plan's
    /// shift lifted and broadcast ([`LanePlan::shift`]).
    #[inline]
    pub fn accumulate_packed<E, P>(
        &self,
        shift: P,
        e: P,
        lo: P,
        hi: P,
        acc: &mut [P],
        scratch: &mut [P],
    ) where
        E: ExtensionField<F>,
        P: PackedField<Scalar = E>,
    {
        match self {
            Self::Linear { .. } => {
                acc[0] += e * (lo + shift);
                acc[1] += e * (hi - lo);
            }
            Self::Mersenne { m, .. } => {
                let (a, b) = (lo + shift, hi - lo);
                let len = 1 << *m;
                mersenne_expand([e * a, e * b], a, b, *m, &mut scratch[..len]);
                for (o, &c) in acc.iter_mut().zip(&scratch[..len]) {
                    *o += c;
                }
            }
            Self::Binomial { .. } => {
                let d = self.degree();
                let (mut lane_acc, mut lane_scratch) = (vec![E::ZERO; d + 1], vec![E::ZERO; d + 1]);
                for i in 0..P::WIDTH {
                    lane_acc.iter_mut().for_each(|c| *c = E::ZERO);
                    self.accumulate::<E, E>(
                        e.get(i),
                        lo.get(i),
                        hi.get(i),
                        &mut lane_acc,
                        &mut lane_scratch,
                    );
                    for (o, &c) in acc.iter_mut().zip(&lane_acc) {
                        o.set(i, o.get(i) + c);
                    }
                }
            }
        }
    }

    /// The constant `c` of the lane map `T(s) = (s + c)^d`.
    #[must_use]
    pub fn shift(&self) -> F {
        match self {
            Self::Linear { shift }
            | Self::Mersenne { shift, .. }
            | Self::Binomial { shift, .. } => *shift,
        }
    }
}

/// `out = first · Π_{1≤i<m} (a^(2^i) + b^(2^i) X^(2^i))` in the monomial basis (`out` has
/// `2^m` entries; `first` holds the two coefficients of the first factor, `a + bX` itself or
/// scaled by an eq weight). In characteristic two this is `(a + bX)^(2^m − 1)` (module docs).
#[inline]
pub fn mersenne_expand<P, Q>(first: [P; 2], a: Q, b: Q, m: u32, out: &mut [P])
where
    P: Copy + Mul<Q, Output = P>,
    Q: PackedField,
{
    let (mut a, mut b) = (a, b);
    out[..2].copy_from_slice(&first);
    let mut len = 2;
    for _ in 1..m {
        a = a.square();
        b = b.square();
        for k in 0..len {
            let c = out[k];
            out[k + len] = c * b;
            out[k] = c * a;
        }
        len *= 2;
    }
}

/// `C(d, k)` for `k = 0..=d` in `F`, by Pascal's rule (exact in every characteristic).
#[must_use]
pub fn binomial_row<F: Field>(d: usize) -> Vec<F> {
    let mut row = vec![F::ONE];
    for _ in 0..d {
        let mut next = vec![F::ONE; row.len() + 1];
        for k in 1..row.len() {
            next[k] = row[k - 1] + row[k];
        }
        row = next;
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_field_binary::{Ghash128, Ghash256};
    use flockwork_field_prime::Bn254Fr;

    /// Evaluates the accumulated coefficients at `x` and compares with `e · T(lo + x(hi−lo))`.
    fn check<F: Field, E: ExtensionField<F>>(map: LaneMap<F>, e: E, lo: F, hi: F, x: E) {
        let plan = LanePlan::new(map);
        let d = plan.degree();
        let mut acc = vec![E::ZERO; d + 1];
        let mut scratch = vec![E::ZERO; d + 1];
        plan.accumulate::<F, E>(e, lo, hi, &mut acc, &mut scratch);
        let value = acc.iter().rev().fold(E::ZERO, |v, &c| v * x + c);
        let line = E::from(lo) + x * (hi - lo);
        assert_eq!(value, e * map.eval(line));
        // The same in the extension (round ≥ 1 tables).
        let mut acc2 = vec![E::ZERO; d + 1];
        plan.accumulate::<E, E>(e, E::from(lo), E::from(hi), &mut acc2, &mut scratch);
        assert_eq!(acc, acc2);
    }

    #[test]
    fn expansions_match_direct_evaluation() {
        for exponent in 1..=9 {
            for shift in [0u64, 5] {
                check::<Ghash128, Ghash256>(
                    LaneMap::Power {
                        shift: Ghash128::from_index(shift),
                        exponent,
                    },
                    Ghash256::Y + Ghash256::from_index(3),
                    Ghash128::new(0xdead_beef),
                    Ghash128::new(0x1234_5678_9abc),
                    Ghash256::Y * Ghash256::from_index(11),
                );
                check::<Bn254Fr, Bn254Fr>(
                    LaneMap::Power {
                        shift: Bn254Fr::from_index(shift),
                        exponent,
                    },
                    Bn254Fr::from_index(17),
                    Bn254Fr::from_index(1000),
                    Bn254Fr::from_index(2024),
                    Bn254Fr::from_index(99),
                );
            }
        }
        check::<Ghash128, Ghash256>(
            LaneMap::Identity,
            Ghash256::Y,
            Ghash128::new(3),
            Ghash128::new(9),
            Ghash256::from_index(7),
        );
    }

    #[test]
    fn x7_uses_the_mersenne_plan_in_characteristic_two_only() {
        assert!(matches!(
            LanePlan::new(LaneMap::Power {
                shift: Ghash128::ONE,
                exponent: 7
            }),
            LanePlan::Mersenne { m: 3, .. }
        ));
        assert!(matches!(
            LanePlan::new(LaneMap::Power {
                shift: Bn254Fr::ONE,
                exponent: 7
            }),
            LanePlan::Binomial { .. }
        ));
        assert_eq!(
            binomial_row::<Bn254Fr>(5),
            [1, 5, 10, 10, 5, 1].map(Bn254Fr::from_index).to_vec()
        );
    }
}
