//! Lazy-reduction linear layers for the specialised [`Goldilocks`] backend.
//!
//! A canonical Goldilocks addition costs a carry check and a conditional subtraction. The
//! linear layers only add and multiply by small or random constants, so they can instead
//! accumulate exact integers in `u128` and reduce each output once with the special-form
//! reduction `2^64 ≡ 2^32 − 1` ([`Goldilocks::from_u128_reduced`]). Bounds (inputs `< p <
//! 2^64`):
//!
//! * `M4` has row sums `≤ 16`, so a chunk output is `< 2^68`; adding the `t/4 ≤ 6` column
//!   sums of a width `t ≤ 24` state keeps every value `< 7 · 2^68 < 2^71`.
//! * internal layer: `x_i · (μ_i − 1) ≤ (p − 1)^2` and the reduced sum is `< p`, so
//!   `(p − 1)^2 + p < 2^128`.
//!
//! Outputs are canonical again, so the rest of the permutation is unaffected.

use flockwork_field_prime::Goldilocks;

use crate::matrix;

/// Widest state the lazy external layer handles on the stack; wider states use the generic
/// kernel (no instance is that wide).
const MAX_LAZY_WIDTH: usize = 24;

/// `[a, b, c, d] ← M4 · [a, b, c, d]` on exact integers (same chain as [`matrix::apply_m4`]).
#[inline(always)]
fn m4_wide(x: &mut [u128]) {
    let (a, b, c, d) = (x[0], x[1], x[2], x[3]);
    let t0 = a + b;
    let t1 = c + d;
    let t2 = 2 * b + t1;
    let t3 = 2 * d + t0;
    let t4 = 4 * t1 + t3;
    let t5 = 4 * t0 + t2;
    x[0] = t3 + t5;
    x[1] = t5;
    x[2] = t2 + t4;
    x[3] = t4;
}

/// `M_E` with one reduction per output element; see the module docs for the bounds.
#[inline(always)]
pub(crate) fn external_layer_lazy(state: &mut [Goldilocks]) {
    let t = state.len();
    if !t.is_multiple_of(4) || t > MAX_LAZY_WIDTH {
        matrix::external_layer(state);
        return;
    }
    let mut wide = [0u128; MAX_LAZY_WIDTH];
    let wide = &mut wide[..t];
    for (w, x) in wide.iter_mut().zip(state.iter()) {
        *w = u128::from(x.to_u64());
    }
    for chunk in wide.chunks_exact_mut(4) {
        m4_wide(chunk);
    }
    if t > 4 {
        let mut sums = [wide[0], wide[1], wide[2], wide[3]];
        for chunk in wide[4..].chunks_exact(4) {
            for (s, w) in sums.iter_mut().zip(chunk) {
                *s += *w;
            }
        }
        for chunk in wide.chunks_exact_mut(4) {
            for (w, s) in chunk.iter_mut().zip(&sums) {
                *w += *s;
            }
        }
    }
    for (x, w) in state.iter_mut().zip(wide.iter()) {
        *x = Goldilocks::from_u128_reduced(*w);
    }
}

/// `M_I` with the sum accumulated exactly and one reduction per output element.
#[inline(always)]
pub(crate) fn internal_layer_lazy(state: &mut [Goldilocks], diag_m1: &[Goldilocks]) {
    if state.len() <= 3 {
        matrix::internal_layer(state, diag_m1);
        return;
    }
    let sum: u128 = state.iter().map(|x| u128::from(x.to_u64())).sum();
    let sum = u128::from(Goldilocks::from_u128_reduced(sum).to_u64());
    for (x, m) in state.iter_mut().zip(diag_m1) {
        let prod = u128::from(x.to_u64()) * u128::from(m.to_u64());
        *x = Goldilocks::from_u128_reduced(prod + sum);
    }
}
