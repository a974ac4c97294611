//! Layered relations: a fixed computation written as `L` layers of one state, the shape a
//! GKR prover walks (Goldwasser–Kalai–Rothblum; Thaler, *Proofs, Arguments, and
//! Zero-Knowledge*, §4.6).
//!
//! ## Shape
//!
//! A state is `t` lanes over the base field `F` ([`LayeredRelation::lanes`]). An instance
//! starts from its input, the committed layer is `S_0 = input_map(input)`
//! ([`LayeredRelation::apply_input`], e.g. Poseidon2's initial `M_E`), and for
//! `l = 1, …, L`
//!
//! ```text
//! S_l = M_l · T_l(S_{l−1}),      T_{l,j}(s) = T_{l,j}(s_j) lane-wise,
//! ```
//!
//! with a `t × t` matrix `M_l` over `F` ([`LayeredRelation::matrix_entry`]) and a lane map
//! `T_{l,j}` ([`LaneMap`]): the identity or a shifted power `(s + c)^d`. `S_L` is the output.
//! Every SPN-style permutation (Poseidon2 over prime fields, Poseidon2b over GF(2^128))
//! has this shape, with one layer per round.
//!
//! ## What a GKR layer needs (notes/poseidon2b-gkr.md §(b))
//!
//! A claim batch `Σ_i w_i · S_{l,i}(z)` (weights `w` over the lanes) is, by linearity of
//! `M_l`,
//!
//! ```text
//! Σ_i w_i S_{l,i}(z) = Σ_x eq(z, x) · Σ_j cw_j · T_{l,j}(S_{l−1,j}(x)),   cw_j = Σ_i w_i M_l[i][j],
//! ```
//!
//! so a prover folds the matrix into the weights once per layer
//! ([`LayeredRelation::fold_weights`]) and only ever evaluates the lane maps, each a
//! univariate of degree [`LaneMap::degree`] (the sumcheck term has degree
//! [`LayeredRelation::layer_degree`] `+ 1` with the eq factor). The verifier's final check of
//! a layer is [`LayeredRelation::layer_term`] at one point. The native side
//! ([`LayeredRelation::apply_layer`]) computes the layers with the relation's fast kernels;
//! [`LayeredRelation::apply_layer_generic`] recomputes them from the description, and the
//! two must agree (relations test it).

use alloc::vec::Vec;

use flockwork_field::{ExtensionField, Field};

/// The map `T_{l,j}` a layer applies to one lane before its matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneMap<F> {
    /// `T(s) = s` (degree 1).
    Identity,
    /// `T(s) = (s + shift)^exponent` (degree `exponent ≥ 1`), e.g. an S-box after its round
    /// constant.
    Power {
        /// The constant added before the power.
        shift: F,
        /// The exponent `d ≥ 1`.
        exponent: u32,
    },
}

impl<F: Field> LaneMap<F> {
    /// The degree of the map as a univariate polynomial.
    #[must_use]
    pub fn degree(&self) -> usize {
        match self {
            Self::Identity => 1,
            Self::Power { exponent, .. } => *exponent as usize,
        }
    }

    /// `T(s)` for `s` in any extension of `F`.
    #[must_use]
    pub fn eval<E: ExtensionField<F>>(&self, s: E) -> E {
        match *self {
            Self::Identity => s,
            Self::Power { shift, exponent } => (s + shift).pow(&[u64::from(exponent)]),
        }
    }
}

/// A fixed computation as `L` layers of a `t`-lane state (module docs).
///
/// Layers are numbered `1..=L`; layer `l` maps `S_{l−1}` to `S_l`. Implementations provide
/// the description (lane maps and matrices) and fast native kernels; everything a GKR
/// prover or verifier needs beyond that is a provided method.
pub trait LayeredRelation {
    /// The field the states live in.
    type Base: Field;

    /// Bytes identifying the relation (name and parameters), absorbed into transcripts so
    /// that proofs for different relations never share challenges.
    fn id(&self) -> Vec<u8>;

    /// Lanes per state, `t ≥ 1`.
    fn lanes(&self) -> usize;

    /// Number of layers `L`.
    fn num_layers(&self) -> usize;

    /// The lane map `T_{l,j}` of layer `layer ∈ 1..=L`, lane `lane < t`.
    fn lane_map(&self, layer: usize, lane: usize) -> LaneMap<Self::Base>;

    /// `M_l[row][col]` of layer `layer ∈ 1..=L`.
    fn matrix_entry(&self, layer: usize, row: usize, col: usize) -> Self::Base;

    /// `S_l ← M_l · T_l(S_{l−1})` on one state of `t` lanes, in place, with the relation's
    /// fast kernels (must agree with [`Self::apply_layer_generic`]).
    fn apply_layer(&self, layer: usize, state: &mut [Self::Base]);

    /// The committed layer from an instance's input, in place: `S_0 = input_map(input)`.
    /// Must be linear (zero maps to zero). The default is the identity.
    fn apply_input(&self, state: &mut [Self::Base]) {
        let _ = state;
    }

    /// [`Self::apply_layer`] on every state of `rows` (`t` lanes each, back to back).
    /// Relations with batch kernels override it.
    fn apply_layer_rows(&self, layer: usize, rows: &mut [Self::Base]) {
        for state in rows.chunks_exact_mut(self.lanes()) {
            self.apply_layer(layer, state);
        }
    }

    /// [`Self::apply_input`] on every state of `rows`.
    fn apply_input_rows(&self, rows: &mut [Self::Base]) {
        for state in rows.chunks_exact_mut(self.lanes()) {
            self.apply_input(state);
        }
    }

    /// The degree of layer `layer` in the previous state: `max_j deg T_{l,j}`.
    fn layer_degree(&self, layer: usize) -> usize {
        (0..self.lanes())
            .map(|j| self.lane_map(layer, j).degree())
            .max()
            .unwrap_or(1)
    }

    /// The largest [`Self::layer_degree`] over all layers (1 for `L = 0`).
    fn max_degree(&self) -> usize {
        (1..=self.num_layers())
            .map(|l| self.layer_degree(l))
            .max()
            .unwrap_or(1)
    }

    /// `cw_j = Σ_i weights_i · M_l[i][j]`: output-lane weights folded through the matrix of
    /// layer `layer` (`weights` and `out` have `t` entries).
    fn fold_weights<E: ExtensionField<Self::Base>>(
        &self,
        layer: usize,
        weights: &[E],
        out: &mut [E],
    ) {
        for (col, o) in out.iter_mut().enumerate() {
            *o = weights
                .iter()
                .enumerate()
                .map(|(row, &w)| w * self.matrix_entry(layer, row, col))
                .sum();
        }
    }

    /// `Σ_j cw_j · T_{l,j}(state_j)`: the layer's weighted output at one (extension) point,
    /// the verifier's final check of a layer.
    fn layer_term<E: ExtensionField<Self::Base>>(&self, layer: usize, cw: &[E], state: &[E]) -> E {
        cw.iter()
            .zip(state)
            .enumerate()
            .map(|(j, (&c, &s))| c * self.lane_map(layer, j).eval(s))
            .sum()
    }

    /// `S_l = M_l · T_l(S_{l−1})` from the description (lane maps and matrix), in any
    /// extension; the reference [`Self::apply_layer`] is tested against.
    fn apply_layer_generic<E: ExtensionField<Self::Base>>(&self, layer: usize, state: &mut [E]) {
        let t = self.lanes();
        let mapped: Vec<E> = (0..t)
            .map(|j| self.lane_map(layer, j).eval(state[j]))
            .collect();
        for (row, out) in state.iter_mut().enumerate().take(t) {
            *out = mapped
                .iter()
                .enumerate()
                .map(|(col, &m)| m * self.matrix_entry(layer, row, col))
                .sum();
        }
    }

    /// All layers from the committed layer: `S_L` of `S_0`, in place (native kernels).
    fn apply_all_layers(&self, state: &mut [Self::Base]) {
        for layer in 1..=self.num_layers() {
            self.apply_layer(layer, state);
        }
    }
}

/// A layered relation written over another representation `G` of its base field: the same
/// relation with every constant (lane-map shifts, matrix entries) mapped by a field
/// isomorphism `Base → G`, e.g. GF(2^128) from the GHASH basis to a tower basis.
///
/// An isomorphism commutes with every layer, so the image computes the mapped states
/// (`S_l' = φ(S_l)`) and keeps the same [`LayeredRelation::id`]: a proof made against one
/// verifies against the other, which lets an engine check the same proof bytes with a second,
/// independent arithmetic (`flockwork-gkr`'s `Setup::verify_in_tower`).
pub trait ChangeOfBasis<G: Field>: LayeredRelation {
    /// The relation over `G`.
    type Image: LayeredRelation<Base = G>;

    /// The relation with every constant mapped by the isomorphism, the same id.
    fn change_basis(&self) -> Self::Image;
}
