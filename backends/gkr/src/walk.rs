//! What the prover and the verifier of one GKR walk share: claims, transcript labels, the
//! batching weights and the compressed round-polynomial format.

use flockwork_core::layered::LayeredRelation;
use flockwork_field::{ExtensionField, Field};

/// Label of the per-layer batching challenge `α`.
pub const LABEL_ALPHA: &str = "gkr/alpha";
/// Label of a compressed round polynomial `(c_0, c_2, …, c_D)`.
pub const LABEL_ROUND: &str = "gkr/round";
/// Label of a round challenge `ρ_k`.
pub const LABEL_CHALLENGE: &str = "gkr/challenge";
/// Label of the layer values `u_a = S_{l−1,a}(ρ_{<w_a})` sent at the end of a layer.
pub const LABEL_LAYER_VALUES: &str = "gkr/layer-values";

/// A claim on one region's layer: the multilinear extension of lane `i` of the layer's
/// table (over the region's `w` variables) takes `values[i]` at `point` (`w` coordinates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionClaim<E> {
    /// The evaluation point, `w` coordinates (variable `k` = bit `k` of the row index).
    pub point: Vec<E>,
    /// The claimed value of every lane, `t` entries.
    pub values: Vec<E>,
}

/// The batching weights of a layer: `w_{a,i} = α^(t·a + i + 1)` for region `a`, lane `i`
/// (one challenge for lanes and regions; a false claim survives with probability at most
/// `t·A / |E|`, the degree of the combined claim as a polynomial in `α`).
#[must_use]
pub fn layer_weights<E: Field>(alpha: E, regions: usize, lanes: usize) -> Vec<Vec<E>> {
    let mut power = alpha;
    (0..regions)
        .map(|_| {
            (0..lanes)
                .map(|_| {
                    let w = power;
                    power *= alpha;
                    w
                })
                .collect()
        })
        .collect()
}

/// The folded weights `cw_a = M_l^T · w_a` of every region and the batched claim
/// `Σ_{a,i} w_{a,i} · v_{a,i}`.
pub fn fold_layer<R, E>(
    relation: &R,
    layer: usize,
    alpha: E,
    claims: &[RegionClaim<E>],
) -> (Vec<Vec<E>>, E)
where
    R: LayeredRelation + ?Sized,
    E: ExtensionField<R::Base>,
{
    let t = relation.lanes();
    let weights = layer_weights(alpha, claims.len(), t);
    let mut claim = E::ZERO;
    let folded = weights
        .iter()
        .zip(claims)
        .map(|(w, c)| {
            claim += w.iter().zip(&c.values).map(|(&w, &v)| w * v).sum::<E>();
            let mut cw = vec![E::ZERO; t];
            relation.fold_weights(layer, w, &mut cw);
            cw
        })
        .collect();
    (folded, claim)
}

/// `c_1 = claim − 2·c_0 − Σ_{k≥2} c_k`, from `p(0) + p(1) = 2c_0 + Σ_{k≥1} c_k` (in
/// characteristic two `c_1 = claim + Σ_{k≥2} c_k`), and the full coefficient vector.
/// `message = (c_0, c_2, …, c_D)`, `D ≥ 1`.
#[must_use]
pub fn restore_round_poly<E: Field>(claim: E, message: &[E]) -> Vec<E> {
    let c0 = message[0];
    let rest: E = message[1..].iter().copied().sum();
    let c1 = claim - c0.double() - rest;
    let mut poly = Vec::with_capacity(message.len() + 1);
    poly.push(c0);
    poly.push(c1);
    poly.extend_from_slice(&message[1..]);
    poly
}

/// `p(x)` by Horner's rule (coefficients lowest first).
#[must_use]
pub fn horner<E: Field>(coeffs: &[E], x: E) -> E {
    coeffs.iter().rev().fold(E::ZERO, |acc, &c| acc * x + c)
}

/// `eq(z, r)` for one coordinate: `z·r + (1 − z)(1 − r) = 1 − z − r + 2·z·r`, which is
/// `1 + z + r` (no product) in characteristic two.
#[inline]
#[must_use]
pub fn eq1<E: Field>(z: E, r: E) -> E {
    if E::CHARACTERISTIC_TWO {
        E::ONE + z + r
    } else {
        E::ONE - z - r + (z * r).double()
    }
}

/// `eq(z, r) = Π_k eq1(z_k, r_k)` over the common length.
#[must_use]
pub fn eq_point<E: Field>(z: &[E], r: &[E]) -> E {
    z.iter().zip(r).map(|(&z, &r)| eq1(z, r)).product()
}

/// The implicit ragged selector `χ(ρ) = Π_{j ∈ tail} (1 − ρ_j)` (`1 + ρ_j` in
/// characteristic two): 1 on the rows whose high bits are zero, 0 elsewhere on the cube.
#[must_use]
pub fn selector<E: Field>(tail: &[E]) -> E {
    tail.iter().map(|&r| E::ONE - r).product()
}

/// Number of field elements a walk writes: per layer `W` messages of `D_l` elements
/// (`D_l = deg_l + 1` with the eq factor, one coefficient restored) and `t·A` layer values.
#[must_use]
pub fn walk_elements<R: LayeredRelation + ?Sized>(
    relation: &R,
    max_width: usize,
    regions: usize,
) -> usize {
    (1..=relation.num_layers())
        .map(|l| max_width * (relation.layer_degree(l) + 1) + relation.lanes() * regions)
        .sum()
}
