//! Claims at extension-field points about base-field polynomials.
//!
//! A protocol over an extension `E ⊇ F` of degree `D` (GKR with `GF(2^256)` challenges over
//! `GF(2^128)` data, say) ends in claims `P̂(z) = v` with `z ∈ E^n`, while the committed `P`
//! has values in `F` and its commitment proves claims over `F`. The coordinates in the fixed
//! `F`-basis `(b_k)` of `E` ([`ExtensionField::basis`]) split such a claim exactly:
//!
//! ```text
//! P̂(z) = Σ_x P(x)·eq(z, x) = Σ_k b_k · Σ_x P(x)·W_k(x),   W_k(x) = coord_k(eq(z, x)),
//! ```
//!
//! because `P(x) ∈ F` and `coord_k : E → F` is `F`-linear. So `P̂(z) = v` holds if and only if
//! the `D` base-field claims `⟨P, W_k⟩ = coord_k(v)` hold — no message, no challenge and no
//! soundness loss; the commitment then proves them with its own error. The weights are
//! verifier-evaluable: the multilinear extension of `W_k` at `s ∈ F^n` is
//! `Σ_x eq(s, x)·coord_k(eq(z, x)) = coord_k(eq(z, s))` (again by `F`-linearity, `eq(s, x) ∈ F`),
//! `O(n)` operations in `E`.
//!
//! [`ExtensionEq`] also carries a scale `c ∈ E` and a Boolean block selector, for claims on
//! one aligned block of a larger committed vector: with `n = m + h` variables,
//! `W_k(x_lo, x_hi) = coord_k(c·eq(z, x_lo)) · [x_hi = j]` for `z ∈ E^m` and block `j < 2^h`
//! (the low `m` variables index inside the block). Its extension at `(s_lo, s_hi)` is
//! `coord_k(c·eq(z, s_lo)) · eq(j, s_hi)`, where `eq(j, ·)` is over the bits of `j`.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::marker::PhantomData;

use flockwork_field::{ExtensionField, Field};

use super::claim::{Claim, MultilinearWeight};
use crate::eq::eq_table;

/// The weight `W_k(x_lo, x_hi) = coord_k(c·eq(z, x_lo)) · [x_hi = j]` ([module docs](self)).
#[derive(Clone, Debug)]
pub struct ExtensionEq<F, E> {
    point: Vec<E>,
    scale: E,
    block_vars: usize,
    block: usize,
    coord: usize,
    base: PhantomData<fn() -> F>,
}

impl<F: Field, E: ExtensionField<F>> ExtensionEq<F, E> {
    /// The weight of coordinate `coord` for the point `point` (the low variables), the scale
    /// `scale` and block `block` of the `block_vars` high variables.
    ///
    /// # Panics
    /// If `coord >= E::DEGREE`, `block_vars >= usize::BITS` or `block >= 2^block_vars`.
    #[must_use]
    pub fn new(point: Vec<E>, scale: E, block_vars: usize, block: usize, coord: usize) -> Self {
        assert!(coord < E::DEGREE, "coordinate out of range");
        assert!(
            block_vars < usize::BITS as usize && block >> block_vars == 0,
            "block index out of range"
        );
        Self {
            point,
            scale,
            block_vars,
            block,
            coord,
            base: PhantomData,
        }
    }
}

impl<F: Field, E: ExtensionField<F>> MultilinearWeight<F> for ExtensionEq<F, E> {
    fn num_vars(&self) -> usize {
        self.point.len() + self.block_vars
    }

    /// Only the selected block is touched: `2^m` entries.
    fn accumulate_table(&self, scale: F, out: &mut [F]) {
        let len = 1usize << self.point.len();
        let block = &mut out[self.block * len..(self.block + 1) * len];
        let mut eq = eq_table(&self.point);
        E::scale_slice(&mut eq, self.scale);
        let mut coords = alloc::vec![F::ZERO; E::DEGREE];
        for (o, e) in block.iter_mut().zip(&eq) {
            e.to_base_coeffs(&mut coords);
            *o += scale * coords[self.coord];
        }
    }

    fn evaluate(&self, point: &[F]) -> F {
        let (lo, hi) = point.split_at(self.point.len());
        let inner: E = self
            .point
            .iter()
            .zip(lo)
            .map(|(&z, &s)| z * s + (E::ONE - z) * (F::ONE - s))
            .product();
        let mut coords = alloc::vec![F::ZERO; E::DEGREE];
        (self.scale * inner).to_base_coeffs(&mut coords);
        let selector: F = hi
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                if (self.block >> i) & 1 == 1 {
                    s
                } else {
                    F::ONE - s
                }
            })
            .product();
        coords[self.coord] * selector
    }

    /// A tag, the shape (`m`, block variables, block, coordinate), then the canonical bytes
    /// of the scale and of the point.
    fn transcript_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(40 + E::NUM_BYTES * (1 + self.point.len()));
        bytes.extend_from_slice(b"ext-eq");
        for v in [self.point.len(), self.block_vars, self.block, self.coord] {
            bytes.extend_from_slice(&(v as u64).to_le_bytes());
        }
        let mut buf = alloc::vec![0u8; E::NUM_BYTES];
        for x in core::iter::once(&self.scale).chain(&self.point) {
            x.write_bytes(&mut buf);
            bytes.extend_from_slice(&buf);
        }
        bytes
    }
}

/// The `D` base-field claims equivalent to `Σ_x P(x)·c·eq(z, x_lo)·[x_hi = j] = value`
/// ([module docs](self)): claim `k` has weight [`ExtensionEq`] of coordinate `k` and value
/// `coord_k(value)`.
///
/// # Panics
/// As [`ExtensionEq::new`].
#[must_use]
pub fn extension_claims<F, E>(
    point: &[E],
    scale: E,
    block_vars: usize,
    block: usize,
    value: E,
) -> Vec<Claim<F>>
where
    F: Field + 'static,
    E: ExtensionField<F> + 'static,
{
    let mut coords = alloc::vec![F::ZERO; E::DEGREE];
    value.to_base_coeffs(&mut coords);
    coords
        .into_iter()
        .enumerate()
        .map(|(k, v)| {
            let weight = ExtensionEq::<F, E>::new(point.to_vec(), scale, block_vars, block, k);
            Claim::linear(Arc::new(weight), v)
        })
        .collect()
}
