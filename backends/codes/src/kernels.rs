//! Row kernels of the butterflies: [`NttField`].
//!
//! A butterfly of the additive NTT updates two rows `u, v` with one twiddle `t`:
//! `u += t·v; v += u` (forward) or `v += u; u += t·v` (inverse). The only product is the
//! scaled row `t·v`, [`Field::add_scaled_slice`] (GF(2^128) computes it with the batched
//! CLMUL kernel, one backend dispatch per row instead of per product); fields with fused
//! butterfly kernels override [`NttField::butterfly`] and [`NttField::butterfly4`].
//!
//! [`Field::add_scaled_slice`]: flockwork_field::Field::add_scaled_slice

use flockwork_field::BinaryField;
use flockwork_field_binary::ghash::batch;
use flockwork_field_binary::{Aes8, Ghash128};

/// A binary field the additive NTT runs over, with its fastest row kernel.
pub trait NttField: BinaryField {
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

    /// The forward butterfly `u[i] += t·v[i]`, then `v[i] += u[i]`.
    ///
    /// # Panics
    /// If the lengths differ.
    fn butterfly(u: &mut [Self], v: &mut [Self], t: Self) {
        Self::add_scaled_slice(u, v, t);
        Self::add_rows(v, u);
    }

    /// Two layers of forward butterflies on the quarters `[a, b, c, d]` of a block:
    /// `(a, c)` and `(b, d)` with `t[0]` (the outer layer), then `(a, b)` with `t[1]` and
    /// `(c, d)` with `t[2]` (the inner layer's two blocks).
    ///
    /// # Panics
    /// If the lengths differ.
    fn butterfly4(rows: [&mut [Self]; 4], t: [Self; 3]) {
        let [a, b, c, d] = rows;
        Self::butterfly(a, c, t[0]);
        Self::butterfly(b, d, t[0]);
        Self::butterfly(a, b, t[1]);
        Self::butterfly(c, d, t[2]);
    }
}

impl NttField for Ghash128 {
    /// One pass of the batched CLMUL kernel ([`batch::butterfly`]).
    fn butterfly(u: &mut [Self], v: &mut [Self], t: Self) {
        assert_eq!(u.len(), v.len(), "rows of different widths");
        batch::butterfly(u, v, t);
    }

    /// Both layers at once ([`batch::butterfly4`]): on x86-64 (VPCLMULQDQ, PCLMULQDQ) in
    /// registers, every element loaded and stored once instead of twice; the portable and
    /// aarch64 kernels run the four butterflies one after another.
    fn butterfly4(rows: [&mut [Self]; 4], t: [Self; 3]) {
        batch::butterfly4(rows, t);
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
            Ghash128::add_scaled_slice(&mut fast, &v, t);
            slow.iter_mut().zip(&v).for_each(|(a, &b)| *a += t * b);
            assert_eq!(fast, slow, "len {len}");

            // The fused butterflies against the trait's defaults (add_scaled_slice, add_rows).
            let rows: Vec<Vec<Ghash128>> = (0..4u64)
                .map(|r| {
                    (0..len as u64)
                        .map(|i| Ghash128::from_index(i * 4 + r + 1))
                        .collect()
                })
                .collect();
            let t = [t, t * t, t + Ghash128::ONE];
            let (mut u, mut w) = (rows[0].clone(), rows[1].clone());
            Ghash128::butterfly(&mut u, &mut w, t[0]);
            let mut want = (rows[0].clone(), rows[1].clone());
            Ghash128::add_scaled_slice(&mut want.0, &want.1, t[0]);
            Ghash128::add_rows(&mut want.1, &want.0);
            assert_eq!((u, w), want, "butterfly, len {len}");
            let mut fused = rows.clone();
            let [a, b, c, d] = &mut fused[..] else {
                unreachable!()
            };
            Ghash128::butterfly4([a, b, c, d], t);
            let mut layered = rows.clone();
            for (i, j, k) in [(0, 2, 0), (1, 3, 0), (0, 1, 1), (2, 3, 2)] {
                let (lo, hi) = layered.split_at_mut(j);
                Ghash128::add_scaled_slice(&mut lo[i], &hi[0], t[k]);
                Ghash128::add_rows(&mut hi[0], &lo[i]);
            }
            assert_eq!(fused, layered, "butterfly4, len {len}");
        }
    }
}
