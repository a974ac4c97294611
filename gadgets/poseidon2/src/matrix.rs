//! The linear layers of Poseidon2 (eprint 2023/323, §5), as fast kernels and as dense
//! matrices.
//!
//! The kernels work on a state slice of any supported width `t`; called with an array whose
//! length is a compile-time constant (the fixed path) they unroll completely. The dense
//! matrices ([`external_matrix`], [`internal_matrix`]) are the definitions: the tests check
//! the kernels against `M · x`, and the Grain generator runs its minimal-polynomial check on
//! [`internal_matrix`].

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;

use crate::params::Convention;

/// `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]` (eprint 2023/323, §5.1, the HorizenLabs
/// 4 × 4 MDS matrix), one row per output.
pub const M4: [[u64; 4]; 4] = [[5, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];

/// The two operations the 4 × 4 blocks are built from, on some representation `V` of field
/// elements: the field itself, exact integers, or SIMD lanes. Each block's addition chain is
/// written once, over this trait.
pub(crate) trait LinearOps<V: Copy> {
    /// `a + b`.
    fn add(a: V, b: V) -> V;
    /// `2·a`.
    fn double(a: V) -> V;
}

/// [`LinearOps`] of a field.
struct FieldOps;

impl<F: Field> LinearOps<F> for FieldOps {
    #[inline(always)]
    fn add(a: F, b: F) -> F {
        a + b
    }

    #[inline(always)]
    fn double(a: F) -> F {
        a.double()
    }
}

/// [`LinearOps`] of exact integers (no reduction; the callers bound the growth).
struct WideOps;

impl LinearOps<u128> for WideOps {
    #[inline(always)]
    fn add(a: u128, b: u128) -> u128 {
        a + b
    }

    #[inline(always)]
    fn double(a: u128) -> u128 {
        2 * a
    }
}

/// `M4 · x` with the paper's addition chain (Appendix B: 8 additions, 4 doublings):
/// `t0 = a + b`, `t1 = c + d`, `t2 = 2b + t1`, `t3 = 2d + t0`, `t4 = 4t1 + t3`,
/// `t5 = 4t0 + t2`, `t6 = t3 + t5`, `t7 = t2 + t4`; output `(t6, t5, t7, t4)`.
#[inline(always)]
fn m4_chain<V: Copy, O: LinearOps<V>>([a, b, c, d]: [V; 4]) -> [V; 4] {
    let t0 = O::add(a, b);
    let t1 = O::add(c, d);
    let t2 = O::add(O::double(b), t1);
    let t3 = O::add(O::double(d), t0);
    let t4 = O::add(O::double(O::double(t1)), t3);
    let t5 = O::add(O::double(O::double(t0)), t2);
    [O::add(t3, t5), t5, O::add(t2, t4), t4]
}

/// `M4' · x` for `M4' = circ(2, 3, 1, 1)`: with `s = a + b + c + d`, row `i` is
/// `s + x_i + 2·x_{i+1}` (indices mod 4), so 3 + 8 additions and 4 doublings.
#[inline(always)]
fn m4_plonky3_chain<V: Copy, O: LinearOps<V>>([a, b, c, d]: [V; 4]) -> [V; 4] {
    let s = O::add(O::add(a, b), O::add(c, d));
    [
        O::add(O::add(s, a), O::double(b)),
        O::add(O::add(s, b), O::double(c)),
        O::add(O::add(s, c), O::double(d)),
        O::add(O::add(s, d), O::double(a)),
    ]
}

/// `x ← M4 · x` ([`M4`], the paper's addition chain: 8 additions, 4 doublings).
#[inline(always)]
pub fn apply_m4<F: Field>(x: &mut [F]) {
    let y = m4_chain::<F, FieldOps>([x[0], x[1], x[2], x[3]]);
    x[..4].copy_from_slice(&y);
}

/// `M4' = circ(2, 3, 1, 1)`, the 4 × 4 matrix of the Plonky3 convention (`p3-poseidon2`'s
/// `MDSMat4`), one row per output: `[[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]`.
pub const M4_PLONKY3: [[u64; 4]; 4] = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]];

/// `x ← M4' · x` for `M4' = circ(2, 3, 1, 1)` ([`M4_PLONKY3`]; 3 + 8 additions, 4
/// doublings).
#[inline(always)]
pub fn apply_m4_plonky3<F: Field>(x: &mut [F]) {
    let y = m4_plonky3_chain::<F, FieldOps>([x[0], x[1], x[2], x[3]]);
    x[..4].copy_from_slice(&y);
}

/// The 4 × 4 block an external matrix is built from, chosen at compile time (crate-internal:
/// the public face is [`Convention`]).
pub(crate) trait ExternalMatrix: Copy {
    /// The convention this matrix belongs to.
    const CONVENTION: Convention;

    /// `M · x` on any representation with [`LinearOps`].
    fn chain<V: Copy, O: LinearOps<V>>(x: [V; 4]) -> [V; 4];

    /// `x ← M · x` on field elements.
    #[inline(always)]
    fn apply<F: Field>(x: &mut [F]) {
        let y = Self::chain::<F, FieldOps>([x[0], x[1], x[2], x[3]]);
        x[..4].copy_from_slice(&y);
    }

    /// `x ← M · x` on exact integers (row sums `≤ 16`, so `x_i < 2^64` gives `< 2^68`).
    #[inline(always)]
    fn apply_wide(x: &mut [u128]) {
        let y = Self::chain::<u128, WideOps>([x[0], x[1], x[2], x[3]]);
        x[..4].copy_from_slice(&y);
    }
}

/// The HorizenLabs block `M4` ([`M4`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HorizenLabsM4;

/// The Plonky3 block `circ(2, 3, 1, 1)` ([`M4_PLONKY3`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plonky3M4;

impl ExternalMatrix for HorizenLabsM4 {
    const CONVENTION: Convention = Convention::HorizenLabs;

    #[inline(always)]
    fn chain<V: Copy, O: LinearOps<V>>(x: [V; 4]) -> [V; 4] {
        m4_chain::<V, O>(x)
    }
}

impl ExternalMatrix for Plonky3M4 {
    const CONVENTION: Convention = Convention::Plonky3;

    #[inline(always)]
    fn chain<V: Copy, O: LinearOps<V>>(x: [V; 4]) -> [V; 4] {
        m4_plonky3_chain::<V, O>(x)
    }
}

/// Whether the column sums are added for this width: always for `t = 4k, k >= 2`, and at
/// `t = 4` only in the Plonky3 convention (there the matrix is `2·M4'`; HorizenLabs uses
/// plain `M4`).
#[inline(always)]
pub(crate) const fn adds_column_sums(convention: Convention, t: usize) -> bool {
    t > 4 || matches!(convention, Convention::Plonky3)
}

/// `Σ x_i` with `t − 1` additions (no addition of a zero start value).
#[inline(always)]
fn sum<F: Field>(x: &[F]) -> F {
    x[1..].iter().fold(x[0], |acc, v| acc + *v)
}

/// `state ← M_E · state` (see [`crate::Poseidon2Field::external_layer`]).
///
/// * `t = 2, 3`: `circ(2, 1)` / `circ(2, 1, 1)` = `I + J`, so `y_i = x_i + Σ x_j`.
/// * `t = 4k`: apply `M4` to every 4-chunk giving `y`, then `y_i += Σ_j y_{4j + (i mod 4)}`,
///   which is the block matrix `circ(2·M4, M4, …, M4)` (for `t = 4` the sum is `y` itself,
///   so the result would be `2·M4`; the reference uses plain `M4` there).
///
/// # Panics
/// If `t` is not 2, 3 or a multiple of 4.
#[inline(always)]
pub fn external_layer<F: Field>(state: &mut [F]) {
    external_layer_with::<HorizenLabsM4, F>(state);
}

/// `state ← M_E · state` in the Plonky3 convention: the same block construction as
/// [`external_layer`] with `M4' = circ(2, 3, 1, 1)` ([`apply_m4_plonky3`]), and `2·M4'` at
/// `t = 4` (`p3-poseidon2`'s `mds_light_permutation`).
///
/// # Panics
/// If `t` is not a multiple of 4.
#[inline(always)]
pub fn external_layer_plonky3<F: Field>(state: &mut [F]) {
    assert!(
        state.len().is_multiple_of(4),
        "the Plonky3 convention needs t = 4k"
    );
    external_layer_with::<Plonky3M4, F>(state);
}

/// The external layer built from the block `M`.
#[inline(always)]
pub(crate) fn external_layer_with<M: ExternalMatrix, F: Field>(state: &mut [F]) {
    match state.len() {
        2 | 3 => {
            let s = sum(state);
            for x in state.iter_mut() {
                *x += s;
            }
        }
        t if t % 4 == 0 => {
            for chunk in state.chunks_exact_mut(4) {
                M::apply(chunk);
            }
            if !adds_column_sums(M::CONVENTION, t) {
                return;
            }
            let mut sums = [state[0], state[1], state[2], state[3]];
            for chunk in state[4..].chunks_exact(4) {
                for (s, x) in sums.iter_mut().zip(chunk) {
                    *s += *x;
                }
            }
            for chunk in state.chunks_exact_mut(4) {
                for (x, s) in chunk.iter_mut().zip(&sums) {
                    *x += *s;
                }
            }
        }
        t => panic!("Poseidon2 has no external matrix for t = {t}"),
    }
}

/// `state ← M_I · state` with `M_I = J + diag(μ − 1)`, `diag_m1 = μ − 1`.
///
/// For `t = 2, 3` the reference's fixed matrices `[[2,1],[1,3]]` and
/// `[[2,1,1],[1,2,1],[1,1,3]]` have `μ − 1 = (1, 2)` and `(1, 1, 2)`: the products by 1 and 2
/// become an addition and a doubling, so no multiplication is spent. Wider states multiply by
/// their random `μ_i − 1`.
#[inline(always)]
pub fn internal_layer<F: Field>(state: &mut [F], diag_m1: &[F]) {
    let s = sum(state);
    match state.len() {
        2 => {
            state[0] += s;
            state[1] = state[1].double() + s;
        }
        3 => {
            state[0] += s;
            state[1] += s;
            state[2] = state[2].double() + s;
        }
        _ => {
            for (x, m) in state.iter_mut().zip(diag_m1) {
                *x = *x * *m + s;
            }
        }
    }
}

/// The dense external matrix `M_E` of width `t`, row-major, as the kernel computes it.
///
/// # Panics
/// If `t` is not 2, 3 or a multiple of 4.
#[must_use]
pub fn external_matrix<F: Field>(t: usize) -> Vec<Vec<F>> {
    external_matrix_with(Convention::HorizenLabs, t)
}

/// The dense external matrix `M_E` of width `t` in the given convention, row-major:
/// HorizenLabs as [`external_matrix`]; Plonky3 with the block [`M4_PLONKY3`] (`2·M4'` on
/// the diagonal blocks and `M4'` elsewhere, for every `t = 4k` including `t = 4`).
///
/// # Panics
/// If `t` is not 2, 3 or a multiple of 4, or for the Plonky3 convention not a multiple of 4.
#[must_use]
pub fn external_matrix_with<F: Field>(convention: Convention, t: usize) -> Vec<Vec<F>> {
    let small = |v: u64| F::from_index(v);
    let m4 = match convention {
        Convention::HorizenLabs => M4,
        Convention::Plonky3 => M4_PLONKY3,
    };
    match t {
        2 | 3 if convention == Convention::HorizenLabs => (0..t)
            .map(|i| (0..t).map(|j| small(1 + u64::from(i == j))).collect())
            .collect(),
        t if t % 4 == 0 => (0..t)
            .map(|i| {
                (0..t)
                    .map(|j| {
                        let diagonal_block = adds_column_sums(convention, t) && i / 4 == j / 4;
                        small((1 + u64::from(diagonal_block)) * m4[i % 4][j % 4])
                    })
                    .collect()
            })
            .collect(),
        t => panic!("Poseidon2 ({convention:?}) has no external matrix for t = {t}"),
    }
}

/// The dense internal matrix `M_I = J + diag(μ − 1)` for the stored `diag_m1 = μ − 1`
/// (for `t = 2, 3` pass `(1, 2)` / `(1, 1, 2)`, the reference's fixed matrices).
#[must_use]
pub fn internal_matrix<F: Field>(diag_m1: &[F]) -> Vec<Vec<F>> {
    let t = diag_m1.len();
    (0..t)
        .map(|i| {
            (0..t)
                .map(|j| if i == j { F::ONE + diag_m1[i] } else { F::ONE })
                .collect()
        })
        .collect()
}

/// `M · x` for a dense row-major matrix.
#[must_use]
pub fn mat_vec<F: Field>(m: &[Vec<F>], x: &[F]) -> Vec<F> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| *a * *b).sum())
        .collect()
}

/// `A · B` for dense square row-major matrices.
#[must_use]
pub fn mat_mul<F: Field>(a: &[Vec<F>], b: &[Vec<F>]) -> Vec<Vec<F>> {
    let n = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            let mut out = vec![F::ZERO; n];
            for (aik, brow) in row.iter().zip(b) {
                for (o, bkj) in out.iter_mut().zip(brow) {
                    *o += *aik * *bkj;
                }
            }
            out
        })
        .collect()
}
