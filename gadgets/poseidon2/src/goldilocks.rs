//! The specialised [`Goldilocks`] backend: lazy-reduction linear layers and a whole-permutation
//! kernel on raw `u64` residues.
//!
//! ## Linear layers
//!
//! A canonical Goldilocks addition costs a carry check and a conditional subtraction. The
//! linear layers only add and multiply by small or random constants, so they can instead
//! accumulate exact integers in `u128` and reduce each output once with the special-form
//! reduction `2^64 ≡ 2^32 − 1` ([`Goldilocks::from_u128_reduced`]). Bounds (inputs `< 2^64`):
//!
//! * `M4` has row sums `≤ 16` (`circ(2,3,1,1)`: 7), so a chunk output is `< 2^68`; adding
//!   the `t/4 ≤ 6` column sums of a width `t ≤ 24` state keeps every value `< 7 · 2^68 <
//!   2^71`, and a round constant `< 2^64` on top keeps it `< 2^72`.
//! * internal layer: `x_i · (μ_i − 1) ≤ (p − 1)(2^64 − 1)` and the reduced sum and a round
//!   constant add `< 2^64 + p`, which stays `≤ p · 2^64 − 1 < 2^128`.
//!
//! ## The kernel ([`permute_lanes`])
//!
//! The whole permutation of `N` states runs on `u64` words that are residues mod p but not
//! necessarily canonical (any value in `[0, 2^64)`); only the output is canonicalised.
//!
//! * Multiplication reduces the 128-bit product to `[0, 2^64)` without the final conditional
//!   subtraction of p ([`reduce_lazy`]).
//! * Round constants are pre-added: every linear layer adds the next round's constants to
//!   its exact `u128` outputs before the single reduction, so no separate addition (and no
//!   carry handling) is spent on them.
//! * S-box `x^7 = (x·x²)·(x²)²`: 4 multiplications, depth 3 ([`sbox7`]).
//! * Partial rounds: with `S' = Σ_{i≥1} x_i` (exact), `y_0 = μ_0·x_0^7 + S' + c` (one
//!   reduction, as `(μ_0 − 1)·x_0 + x_0 = μ_0·x_0`) and
//!   `y_i = (μ_i − 1)·x_i + (S' + x_0^7) + c_i`. For a single state (`N = 1`) the critical
//!   path is shortened to three multiplications per round by
//!   `μ_0·x^7 = ((μ_0·x)·x²)·(x²)²`, at the price of one more multiplication.
//! * Carry and borrow corrections are conditional moves
//!   ([`core::hint::select_unpredictable`]): they depend on random data, and as branches
//!   (which LLVM otherwise emits inside loops) they mispredict half the time.
//! * The `N` states of a batch go through each round together; the partial rounds' S-box
//!   chains of all states are issued step by step, so their latencies overlap (a single
//!   state's partial rounds are one long dependency chain).
//!
//! ## AVX-512
//!
//! A batch of a multiple of 8 states runs on AVX-512 when the CPU has it (`avx512`: one
//! state per 64-bit lane, 16 states in flight), which multiplies 8 lanes with four 32-bit
//! `vpmuludq`; the scalar kernel above is its portable twin and the reference in the tests.

use core::array;

use flockwork_field_prime::Goldilocks;

use crate::matrix::{self, ExternalMatrix, HorizenLabsM4, Plonky3M4, adds_column_sums};
use crate::params::Convention;
use crate::permutation::{RoundConstants, permute_generic};

#[cfg(target_arch = "x86_64")]
mod avx512;

/// Widest state the lazy external layer handles on the stack; wider states use the generic
/// kernel (no instance is that wide).
const MAX_LAZY_WIDTH: usize = 24;

/// `M_E` with one reduction per output element; see the module docs for the bounds.
#[inline(always)]
pub(crate) fn external_layer_lazy<M: ExternalMatrix>(state: &mut [Goldilocks]) {
    let t = state.len();
    if !t.is_multiple_of(4) || t > MAX_LAZY_WIDTH {
        matrix::external_layer_with::<M, _>(state);
        return;
    }
    let mut wide = [0u128; MAX_LAZY_WIDTH];
    let wide = &mut wide[..t];
    for (w, x) in wide.iter_mut().zip(state.iter()) {
        *w = u128::from(x.to_u64());
    }
    for chunk in wide.chunks_exact_mut(4) {
        M::apply_wide(chunk);
    }
    if adds_column_sums(M::CONVENTION, t) {
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

/// `ε = 2^64 mod p = 2^32 − 1`.
const EPSILON: u64 = 0xFFFF_FFFF;

/// `x mod p` as a residue in `[0, 2^64)` (not canonical) for any `x < 2^128`.
///
/// `x = lo + 2^64·mid + 2^96·top` with `2^64 ≡ ε` and `2^96 ≡ −1`, so `x ≡ lo − top + ε·mid`.
/// A borrow of `lo − top` wrapped by `+2^64 ≡ +ε` and is undone by `−ε` (the wrapped value
/// is `≥ 2^64 − 2^32 + 1 > ε`); a carry of the final addition dropped `2^64 ≡ ε` and is
/// put back (the wrapped sum is `≤ 2^64 − 2^33`, so this cannot carry again).
#[inline(always)]
fn reduce_lazy(x: u128) -> u64 {
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let top = hi >> 32;
    let mid = hi & EPSILON;
    let (t0, borrow) = lo.overflowing_sub(top);
    let t0 = t0.wrapping_sub(carry_fix(borrow));
    let t1 = (mid << 32) - mid;
    let (sum, carry) = t0.overflowing_add(t1);
    sum.wrapping_add(carry_fix(carry))
}

/// `ε` if `flag`, else 0, as a conditional move: the flags are carries of random data, so
/// a branch would mispredict half the time (LLVM turns such selects in loops into branches
/// unless told they are unpredictable).
#[inline(always)]
fn carry_fix(flag: bool) -> u64 {
    core::hint::select_unpredictable(flag, EPSILON, 0)
}

/// `x mod p` in `[0, 2^64)` for `x < 2^96` (`top = 0` in [`reduce_lazy`]): the linear
/// layers' sums, which stay below `2^72`.
#[inline(always)]
fn reduce_small(x: u128) -> u64 {
    debug_assert!(x >> 96 == 0);
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let (sum, carry) = lo.overflowing_add((hi << 32) - hi);
    sum.wrapping_add(carry_fix(carry))
}

/// `a·b mod p` in `[0, 2^64)` for any `a, b < 2^64`.
#[inline(always)]
fn mul(a: u64, b: u64) -> u64 {
    reduce_lazy(u128::from(a) * u128::from(b))
}

/// The canonical element of a residue `< 2^64 < 2p`.
#[inline(always)]
fn canonical(x: u64) -> Goldilocks {
    Goldilocks::from_u64_reduced(x)
}

/// What a linear layer adds to its exact outputs before reducing them: the next round's
/// constants (a full round's row, or a partial round's single constant on element 0).
#[derive(Clone, Copy)]
enum Next<'a, const T: usize> {
    Row(&'a [Goldilocks; T]),
    First(Goldilocks),
    Nothing,
}

impl<const T: usize> Next<'_, T> {
    #[inline(always)]
    fn at(self, i: usize) -> u128 {
        u128::from(match self {
            Self::Row(row) => row[i].to_u64(),
            Self::First(c) if i == 0 => c.to_u64(),
            _ => 0,
        })
    }
}

/// `x^7 = (x·x²)·(x²)²`: 4 multiplications, depth 3.
#[inline(always)]
fn sbox7(x: u64) -> u64 {
    let x2 = mul(x, x);
    mul(mul(x2, x), mul(x2, x2))
}

/// `x ← x^7` on every element of every state (all `N·T` chains are independent).
#[inline(always)]
fn sbox_full<const T: usize, const N: usize>(s: &mut [[u64; T]; N]) {
    for lane in s.iter_mut() {
        for x in lane.iter_mut() {
            *x = sbox7(*x);
        }
    }
}

/// `x ← M_E·x + next` with one reduction per element (module docs for the bounds).
#[inline(always)]
fn external<M: ExternalMatrix, const T: usize, const N: usize>(
    s: &mut [[u64; T]; N],
    next: Next<'_, T>,
) {
    for lane in s.iter_mut() {
        let mut w = [0u128; T];
        for (v, x) in w.iter_mut().zip(lane.iter()) {
            *v = u128::from(*x);
        }
        for chunk in w.as_chunks_mut::<4>().0 {
            M::apply_wide(chunk);
        }
        if adds_column_sums(M::CONVENTION, T) {
            let mut sums = [0u128; 4];
            for chunk in w.as_chunks::<4>().0 {
                for (sum, v) in sums.iter_mut().zip(chunk) {
                    *sum += *v;
                }
            }
            for (i, v) in w.iter_mut().enumerate() {
                *v += sums[i % 4];
            }
        }
        for (i, (x, v)) in lane.iter_mut().zip(w).enumerate() {
            *x = reduce_small(v + next.at(i));
        }
    }
}

/// One partial round without its constant (pre-added by the previous layer):
/// `x_0 ← x_0^7`, then `x ← M_I·x + next` (module docs).
#[inline(always)]
fn partial_round<const T: usize, const N: usize>(
    s: &mut [[u64; T]; N],
    diag_m1: &[u64; T],
    mu0: u64,
    next: Next<'_, T>,
) {
    // S' = Σ_{i≥1} x_i, exact (`< 23·2^64`) and reduced; neither depends on the S-box.
    let rest: [u128; N] = array::from_fn(|l| s[l][1..].iter().map(|&x| u128::from(x)).sum());
    let rest_reduced: [u128; N] = array::from_fn(|l| u128::from(reduce_small(rest[l])));
    let x: [u64; N] = array::from_fn(|l| s[l][0]);
    let x2: [u64; N] = array::from_fn(|l| mul(x[l], x[l]));
    let x4: [u64; N] = array::from_fn(|l| mul(x2[l], x2[l]));
    let (x7, y0): ([u64; N], [u128; N]) = if N == 1 {
        // μ_0·x^7 = ((μ_0·x)·x²)·x⁴: depth 3 instead of 4 on the critical path.
        let mx = mul(mu0, x[0]);
        let mx3 = mul(mx, x2[0]);
        let x3 = mul(x2[0], x[0]);
        let x7 = mul(x3, x4[0]);
        (
            [x7; N],
            // (2^64 − 1)^2 + (2^64 − 1) + (p − 1) = 2^128 − 2^32: no overflow.
            [u128::from(mx3) * u128::from(x4[0]) + rest_reduced[0] + next.at(0); N],
        )
    } else {
        let x3: [u64; N] = array::from_fn(|l| mul(x2[l], x[l]));
        let x7: [u64; N] = array::from_fn(|l| mul(x3[l], x4[l]));
        let y0 =
            array::from_fn(|l| u128::from(mu0) * u128::from(x7[l]) + rest_reduced[l] + next.at(0));
        (x7, y0)
    };
    for l in 0..N {
        let sum = u128::from(reduce_small(rest[l] + u128::from(x7[l])));
        s[l][0] = reduce_lazy(y0[l]);
        for i in 1..T {
            let v = u128::from(diag_m1[i]) * u128::from(s[l][i]) + sum + next.at(i);
            s[l][i] = reduce_lazy(v);
        }
    }
}

/// The kernel of the module docs for `d = 7`, `R_F/2 >= 1`, `R_P >= 1`.
#[inline]
fn kernel<M: ExternalMatrix, const T: usize, const N: usize>(
    states: &mut [[Goldilocks; T]; N],
    c: &RoundConstants<'_, Goldilocks>,
) {
    let begin = c.full_begin.as_chunks::<T>().0;
    let end = c.full_end.as_chunks::<T>().0;
    let diag_m1: [u64; T] = array::from_fn(|i| c.diag_m1[i].to_u64());
    let mu0 = (c.diag_m1[0] + <Goldilocks as flockwork_field::Field>::ONE).to_u64();
    let mut s = [[0u64; T]; N];
    for (raw, state) in s.iter_mut().zip(states.iter()) {
        for (r, x) in raw.iter_mut().zip(state) {
            *r = x.to_u64();
        }
    }

    external::<M, T, N>(&mut s, Next::Row(&begin[0]));
    for r in 0..begin.len() {
        sbox_full(&mut s);
        match begin.get(r + 1) {
            Some(row) => external::<M, T, N>(&mut s, Next::Row(row)),
            None => external::<M, T, N>(&mut s, Next::First(c.partial[0])),
        }
    }
    for r in 0..c.partial.len() {
        match c.partial.get(r + 1) {
            Some(&k) => partial_round(&mut s, &diag_m1, mu0, Next::First(k)),
            None => partial_round(&mut s, &diag_m1, mu0, Next::Row(&end[0])),
        }
    }
    for r in 0..end.len() {
        sbox_full(&mut s);
        match end.get(r + 1) {
            Some(row) => external::<M, T, N>(&mut s, Next::Row(row)),
            None => external::<M, T, N>(&mut s, Next::Nothing),
        }
    }
    for (state, raw) in states.iter_mut().zip(s.iter()) {
        for (x, r) in state.iter_mut().zip(raw) {
            *x = canonical(*r);
        }
    }
}

/// The permutation of `N` Goldilocks states: the kernel where it applies (`d = 7`, `t = 4k
/// ≤ 24`, at least one full and one partial round), the generic round function otherwise.
#[inline]
pub(crate) fn permute_lanes<const T: usize, const N: usize>(
    states: &mut [[Goldilocks; T]; N],
    c: &RoundConstants<'_, Goldilocks>,
) {
    debug_assert_eq!(T, c.t);
    let supported = c.d == 7
        && T.is_multiple_of(4)
        && (4..=MAX_LAZY_WIDTH).contains(&T)
        && !c.partial.is_empty()
        && !c.full_begin.is_empty()
        && c.full_begin.len() == c.full_end.len();
    if !supported {
        permute_generic(states, c);
        return;
    }
    match c.convention {
        Convention::HorizenLabs => batch::<HorizenLabsM4, T, N>(states, c),
        Convention::Plonky3 => batch::<Plonky3M4, T, N>(states, c),
    }
}

/// `N` states through the AVX-512 kernel when `N` is a multiple of its 8 lanes and the CPU
/// has it, through the scalar kernel otherwise.
#[inline(always)]
fn batch<M: ExternalMatrix, const T: usize, const N: usize>(
    states: &mut [[Goldilocks; T]; N],
    c: &RoundConstants<'_, Goldilocks>,
) {
    #[cfg(target_arch = "x86_64")]
    if N.is_multiple_of(avx512::LANES) && avx512::permute::<M, T>(states, c) {
        return;
    }
    kernel::<M, T, N>(states, c);
}

/// One state of run-time width: dispatches the widths the kernel covers to
/// [`permute_lanes`].
pub(crate) fn permute_slice(state: &mut [Goldilocks], c: &RoundConstants<'_, Goldilocks>) {
    fn fixed<const T: usize>(state: &mut [Goldilocks], c: &RoundConstants<'_, Goldilocks>) {
        let state: &mut [Goldilocks; T] = state.try_into().expect("width checked by the caller");
        permute_lanes(array::from_mut(state), c);
    }
    match state.len() {
        4 => fixed::<4>(state, c),
        8 => fixed::<8>(state, c),
        12 => fixed::<12>(state, c),
        16 => fixed::<16>(state, c),
        20 => fixed::<20>(state, c),
        24 => fixed::<24>(state, c),
        _ => permute_generic(state, c),
    }
}

#[cfg(test)]
mod tests {
    use flockwork_field_prime::Goldilocks;

    use super::permute_lanes;
    use crate::params::Convention;
    use crate::permutation::{RoundConstants, permute_generic};

    fn elements(seed: u64, n: usize) -> Vec<Goldilocks> {
        (0..n as u64)
            .map(|i| Goldilocks::from_u64_reduced((seed + i).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect()
    }

    /// Round shapes the kernel does not take (no partial rounds, no full rounds before or
    /// after them, a different number before than after, an S-box other than `x^7`), next to
    /// one it takes, run by `permute_lanes` and by the generic round function: the same
    /// permutation.
    #[test]
    fn the_kernel_is_chosen_only_for_the_shapes_it_handles() {
        const T: usize = 8;
        let diag_m1 = elements(1, T);
        let shapes = [
            (4, 22, 4),
            (4, 0, 4),
            (0, 22, 4),
            (4, 22, 0),
            (0, 22, 0),
            (2, 3, 1),
        ];
        for (convention, d) in [
            (Convention::HorizenLabs, 7),
            (Convention::Plonky3, 7),
            (Convention::HorizenLabs, 5),
        ] {
            for (begin, partial, end) in shapes {
                let (full_begin, partial, full_end) = (
                    elements(2, begin * T),
                    elements(3, partial),
                    elements(4, end * T),
                );
                let c = RoundConstants {
                    convention,
                    t: T,
                    d,
                    full_begin: &full_begin,
                    partial: &partial,
                    full_end: &full_end,
                    diag_m1: &diag_m1,
                };
                let mut lanes: [[Goldilocks; T]; 1] = [elements(5, T).try_into().unwrap()];
                let mut generic = lanes;
                permute_lanes(&mut lanes, &c);
                permute_generic(&mut generic, &c);
                assert_eq!(
                    lanes,
                    generic,
                    "{convention:?}, d = {d}, rounds {begin} + {} + {end}",
                    c.partial.len()
                );
            }
        }
    }
}
