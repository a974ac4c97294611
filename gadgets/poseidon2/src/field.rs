//! The field capability a Poseidon2 permutation needs, and the S-box `x ↦ x^d`.
//!
//! [`Poseidon2Field`] is a [`PrimeField`] whose two linear layers may be overridden by a
//! faster, field-specific kernel. The default methods are the generic kernels of
//! [`crate::matrix`]; the specialised [`Goldilocks`] backend overrides both with lazy
//! reduction (accumulate in `u128`, reduce once per output element), which is where most of
//! a small-field permutation's additions go.

use flockwork_field::{Field, PrimeField};
use flockwork_field_prime::{Ark, Goldilocks};

use crate::matrix;
use crate::permutation::{RoundConstants, permute_generic};

/// A prime field that Poseidon2 runs over.
///
/// Implementations must keep the semantics of the default methods exactly (the tests compare
/// every override against the generic kernels and against dense matrix products).
pub trait Poseidon2Field: PrimeField {
    /// `state ← M_E · state`, the external (full-round) linear layer of eprint 2023/323,
    /// §5.1: `circ(2, 1)` for `t = 2`, `circ(2, 1, 1)` for `t = 3`, and for `t = 4k` the block
    /// matrix with `2·M4` on the diagonal and `M4` elsewhere.
    ///
    /// # Panics
    /// If the width is not 2, 3 or a multiple of 4 (rejected earlier by parameter validation).
    #[inline(always)]
    fn external_layer(state: &mut [Self]) {
        matrix::external_layer(state);
    }

    /// `state ← M_I · state`, the internal (partial-round) linear layer of eprint 2023/323,
    /// §5.2: `M_I = J + diag(μ − 1)` (`J` all ones), evaluated as
    /// `y_i = (μ_i − 1)·x_i + Σ_j x_j`. `diag_m1` holds `μ_i − 1`.
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Self]) {
        matrix::internal_layer(state, diag_m1);
    }

    /// `state ← M_E · state` in the Plonky3 convention ([`crate::Convention::Plonky3`]):
    /// the block construction of [`Self::external_layer`] with `M4' = circ(2, 3, 1, 1)`, and
    /// `2·M4'` at `t = 4`.
    ///
    /// # Panics
    /// If the width is not a multiple of 4.
    #[inline(always)]
    fn external_layer_plonky3(state: &mut [Self]) {
        matrix::external_layer_plonky3(state);
    }

    /// The whole permutation of `N` independent states of width `T` (hook for a
    /// field-specific kernel; the default runs the generic round function on the layers
    /// above). Not part of the stable API.
    #[doc(hidden)]
    #[inline(always)]
    fn permute_lanes<const T: usize, const N: usize>(
        states: &mut [[Self; T]; N],
        constants: &RoundConstants<'_, Self>,
    ) {
        debug_assert_eq!(T, constants.t);
        permute_generic(states, constants);
    }

    /// The whole permutation of one state of run-time width (hook, as
    /// [`Self::permute_lanes`]). Not part of the stable API.
    #[doc(hidden)]
    #[inline(always)]
    fn permute_slice(state: &mut [Self], constants: &RoundConstants<'_, Self>) {
        debug_assert_eq!(state.len(), constants.t);
        permute_generic(state, constants);
    }
}

impl<F: ark_ff::PrimeField> Poseidon2Field for Ark<F> {}

impl Poseidon2Field for Goldilocks {
    #[inline(always)]
    fn external_layer(state: &mut [Self]) {
        crate::goldilocks::external_layer_lazy::<crate::matrix::HorizenLabsM4>(state);
    }

    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Self]) {
        crate::goldilocks::internal_layer_lazy(state, diag_m1);
    }

    #[inline(always)]
    fn external_layer_plonky3(state: &mut [Self]) {
        crate::goldilocks::external_layer_lazy::<crate::matrix::Plonky3M4>(state);
    }

    #[inline(always)]
    fn permute_lanes<const T: usize, const N: usize>(
        states: &mut [[Self; T]; N],
        constants: &RoundConstants<'_, Self>,
    ) {
        crate::goldilocks::permute_lanes(states, constants);
    }

    #[inline]
    fn permute_slice(state: &mut [Self], constants: &RoundConstants<'_, Self>) {
        crate::goldilocks::permute_slice(state, constants);
    }
}

/// The S-box `x ↦ x^D` (eprint 2023/323, §2: `d` is the smallest integer `≥ 3` with
/// `gcd(d, p − 1) = 1`, so the map is a permutation of GF(p)).
///
/// Addition chains, counted as squarings (S) and general multiplications (M):
///
/// | d | chain | cost |
/// |---|---|---|
/// | 3 | `x²·x` | 1S + 1M |
/// | 5 | `(x²)²·x` | 2S + 1M |
/// | 7 | `x³ = x²·x`, `x⁷ = (x³)²·x` | 2S + 2M |
/// | 11 | `x⁴·x⁷`… via square-and-multiply | see [`Field::pow`] |
///
/// `D` is a const generic so the chain is chosen at compile time; any other degree falls
/// back to square-and-multiply.
#[inline(always)]
#[must_use]
pub fn sbox<F: Field, const D: u64>(x: F) -> F {
    match D {
        3 => x.square() * x,
        5 => x.square().square() * x,
        7 => (x.square() * x).square() * x,
        _ => x.pow(&[D]),
    }
}
