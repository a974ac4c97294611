//! Row kernels of the butterflies: [`NttField`].
//!
//! A butterfly of the additive NTT updates two rows `u, v` with one twiddle `t`:
//! `u += t·v; v += u` (forward) or `v += u; u += t·v` (inverse). The only product is the
//! scaled row `t·v`, so fields provide [`NttField::add_scaled`]; GF(2^128) computes it with
//! the batched CLMUL kernel [`flockwork_field_binary::ghash::batch::mul_assign_scalar`] (one
//! backend dispatch per 64 elements instead of per product).

use flockwork_field::BinaryField;
use flockwork_field_binary::ghash::batch;
use flockwork_field_binary::{Aes8, Ghash128};

/// A binary field the additive NTT runs over, with its fastest row kernel.
pub trait NttField: BinaryField {
    /// `u[i] += t · v[i]`.
    ///
    /// # Panics
    /// If the lengths differ.
    fn add_scaled(u: &mut [Self], t: Self, v: &[Self]) {
        assert_eq!(u.len(), v.len(), "rows of different widths");
        for (a, &b) in u.iter_mut().zip(v) {
            *a += t * b;
        }
    }

    /// `u[i] += v[i]`.
    ///
    /// # Panics
    /// If the lengths differ.
    fn add_rows(u: &mut [Self], v: &[Self]) {
        assert_eq!(u.len(), v.len(), "rows of different widths");
        for (a, &b) in u.iter_mut().zip(v) {
            *a += b;
        }
    }
}

impl NttField for Ghash128 {
    fn add_scaled(u: &mut [Self], t: Self, v: &[Self]) {
        assert_eq!(u.len(), v.len(), "rows of different widths");
        if v.len() < 4 {
            u.iter_mut().zip(v).for_each(|(a, &b)| *a += t * b);
            return;
        }
        batch::add_mul_scalar(u, v, t);
    }
}

impl NttField for Aes8 {}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_field::Field;

    #[test]
    fn batched_ghash_kernel_matches_scalar_products() {
        for len in [0usize, 1, 3, 4, 63, 64, 65, 200] {
            let v: Vec<Ghash128> = (0..len as u64)
                .map(|i| Ghash128::new(u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15) << 3 | 5))
                .collect();
            let t = Ghash128::new(0x1234_5678_9abc_def0_0fed_cba9_8765_4321);
            let mut fast: Vec<Ghash128> = (0..len as u64).map(Ghash128::from_index).collect();
            let mut slow = fast.clone();
            Ghash128::add_scaled(&mut fast, t, &v);
            slow.iter_mut().zip(&v).for_each(|(a, &b)| *a += t * b);
            assert_eq!(fast, slow, "len {len}");
        }
    }
}
