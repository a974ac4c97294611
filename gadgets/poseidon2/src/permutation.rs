//! The Poseidon2 round structure (eprint 2023/323, §3, Fig. 1), written once and run by both
//! APIs: the runtime-configured [`crate::Poseidon2`] and the const-generic
//! [`crate::Poseidon2Fixed`], on one state or on a batch of independent states.
//!
//! ```text
//! x ← M_E · x                                               (initial linear layer)
//! R_F/2 full rounds:    x_i ← (x_i + c_{r,i})^d for all i;  x ← M_E · x
//! R_P partial rounds:   x_0 ← (x_0 + c_r)^d;                x ← M_I · x
//! R_F/2 full rounds:    as above
//! ```
//!
//! The output is the whole state (no feed-forward).

use crate::field::{Poseidon2Field, sbox};
use crate::matrix::{ExternalMatrix, HorizenLabsM4, Plonky3M4};
use crate::params::Convention;

/// Borrowed constants of one instance, in round order.
///
/// Public only so that [`Poseidon2Field`]'s hidden permutation hooks can name it; it is not
/// reachable from outside the crate.
#[derive(Clone, Copy, Debug)]
pub struct RoundConstants<'a, F> {
    /// Which external matrix.
    pub convention: Convention,
    /// Width `t`.
    pub t: usize,
    /// S-box degree `d`.
    pub d: u64,
    /// First half of the full rounds, `R_F/2 · t` values row by row.
    pub full_begin: &'a [F],
    /// One constant per partial round.
    pub partial: &'a [F],
    /// Second half of the full rounds, `R_F/2 · t` values row by row.
    pub full_end: &'a [F],
    /// `μ_i − 1`, the internal matrix diagonal minus one.
    pub diag_m1: &'a [F],
}

/// The S-box as a type, so the permutation monomorphises over the degree.
pub(crate) trait SBox<F>: Copy {
    fn apply(self, x: F) -> F;
}

/// `x^D` with a compile-time addition chain ([`sbox`]).
#[derive(Clone, Copy)]
struct PowConst<const D: u64>;

impl<F: Poseidon2Field, const D: u64> SBox<F> for PowConst<D> {
    #[inline(always)]
    fn apply(self, x: F) -> F {
        sbox::<F, D>(x)
    }
}

/// `x^d` for a degree only known at run time (square-and-multiply).
#[derive(Clone, Copy)]
struct PowRuntime(u64);

impl<F: Poseidon2Field> SBox<F> for PowRuntime {
    #[inline(always)]
    fn apply(self, x: F) -> F {
        x.pow(&[self.0])
    }
}

/// `state ← M_E · state` through the field's (possibly specialised) kernel of the
/// convention `M` (resolved at compile time).
#[inline(always)]
fn external_layer<F: Poseidon2Field, M: ExternalMatrix>(state: &mut [F]) {
    match M::CONVENTION {
        Convention::HorizenLabs => F::external_layer(state),
        Convention::Plonky3 => F::external_layer_plonky3(state),
    }
}

/// One or several states the round functions act on.
pub(crate) trait Lanes<F: Poseidon2Field> {
    /// `x ← M_E · x`.
    fn external<M: ExternalMatrix>(&mut self);
    /// `x_i ← S(x_i + rc_i)` for all `i`, then `x ← M_E · x`.
    fn full_round<M: ExternalMatrix>(&mut self, rc: &[F], s: impl SBox<F>);
    /// `x_0 ← S(x_0 + c)`, then `x ← M_I · x`.
    fn partial_round(&mut self, c: F, diag_m1: &[F], s: impl SBox<F>);
}

impl<F: Poseidon2Field> Lanes<F> for [F] {
    #[inline(always)]
    fn external<M: ExternalMatrix>(&mut self) {
        external_layer::<F, M>(self);
    }

    #[inline(always)]
    fn full_round<M: ExternalMatrix>(&mut self, rc: &[F], s: impl SBox<F>) {
        for (x, c) in self.iter_mut().zip(rc) {
            *x = s.apply(*x + *c);
        }
        external_layer::<F, M>(self);
    }

    #[inline(always)]
    fn partial_round(&mut self, c: F, diag_m1: &[F], s: impl SBox<F>) {
        self[0] = s.apply(self[0] + c);
        F::internal_layer(self, diag_m1);
    }
}

/// `N` independent states advanced step by step together: each step is issued for every
/// state before the next step starts, so the long dependency chain of the partial rounds of
/// one state overlaps with the others' (instruction-level parallelism).
impl<F: Poseidon2Field, const T: usize, const N: usize> Lanes<F> for [[F; T]; N] {
    #[inline(always)]
    fn external<M: ExternalMatrix>(&mut self) {
        for state in self.iter_mut() {
            external_layer::<F, M>(state);
        }
    }

    #[inline(always)]
    fn full_round<M: ExternalMatrix>(&mut self, rc: &[F], s: impl SBox<F>) {
        for state in self.iter_mut() {
            for (x, c) in state.iter_mut().zip(rc) {
                *x = s.apply(*x + *c);
            }
        }
        self.external::<M>();
    }

    #[inline(always)]
    fn partial_round(&mut self, c: F, diag_m1: &[F], s: impl SBox<F>) {
        for state in self.iter_mut() {
            state[0] = s.apply(state[0] + c);
        }
        for state in self.iter_mut() {
            F::internal_layer(state, diag_m1);
        }
    }
}

/// The round structure of the module docs, on any [`Lanes`].
#[inline]
fn permute_lanes<F: Poseidon2Field, M: ExternalMatrix, L: Lanes<F> + ?Sized>(
    lanes: &mut L,
    c: &RoundConstants<'_, F>,
    s: impl SBox<F>,
) {
    lanes.external::<M>();
    for rc in c.full_begin.chunks_exact(c.t) {
        lanes.full_round::<M>(rc, s);
    }
    for &k in c.partial {
        lanes.partial_round(k, c.diag_m1, s);
    }
    for rc in c.full_end.chunks_exact(c.t) {
        lanes.full_round::<M>(rc, s);
    }
}

/// Chooses the S-box implementation for `c.d` once per call, then runs the rounds.
#[inline]
fn dispatch_sbox<F: Poseidon2Field, M: ExternalMatrix, L: Lanes<F> + ?Sized>(
    lanes: &mut L,
    c: &RoundConstants<'_, F>,
) {
    match c.d {
        3 => permute_lanes::<F, M, L>(lanes, c, PowConst::<3>),
        5 => permute_lanes::<F, M, L>(lanes, c, PowConst::<5>),
        7 => permute_lanes::<F, M, L>(lanes, c, PowConst::<7>),
        d => permute_lanes::<F, M, L>(lanes, c, PowRuntime(d)),
    }
}

/// The generic round function: chooses the external matrix and the S-box once per call.
#[inline]
pub(crate) fn permute_generic<F: Poseidon2Field, L: Lanes<F> + ?Sized>(
    lanes: &mut L,
    c: &RoundConstants<'_, F>,
) {
    match c.convention {
        Convention::HorizenLabs => dispatch_sbox::<F, HorizenLabsM4, L>(lanes, c),
        Convention::Plonky3 => dispatch_sbox::<F, Plonky3M4, L>(lanes, c),
    }
}
