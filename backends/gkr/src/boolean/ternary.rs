//! The first `c = min(k, 6)` rounds of a layer's sumcheck on bits, over the ternary grid
//! ([module docs](super), *The prover on bits*).
//!
//! Write `x = (t, b)`, `t ∈ {0,1}^c` the variables inside a word of instances and `b` the
//! block. Round `m < c` needs `q_m(X) = Σ_{σ,b} eq(z_{m+1..c}, σ)·eq(z_{≥c}, b)·h(r_{<m}, X, σ, b)`
//! for `X ∈ {0, 1, ∞}`, `h = Σ_j β_j (L0_j + L1_j·L2_j)` of degree 2 in each variable. A
//! polynomial of degree 2 in one variable is determined by its values at `0`, `1` and its
//! leading coefficient (the value "at ∞"):
//!
//! ```text
//! p(r) = p(0)·(1 + r) + p(1)·r + p(∞)·(r + r²)      (characteristic 2),
//! ```
//!
//! so `q_m(X) = Σ_{τ ∈ {0,1,∞}^m} Λ(r_{<m}, τ) Σ_σ eq(z_{m+1..c}, σ)·G(τ, X, σ)` with
//! `Λ(r, τ) = Π_v λ_{τ_v}(r_v)` and `G(ρ) = Σ_b eq(z_{≥c}, b)·h(ρ, b)` on the grid
//! `{0,1,∞}^c`. On the grid everything is bits: a form at `∞` in variable `v` is the XOR of
//! its values at `0` and `1` (its slope), the product's leading coefficient is the AND of the
//! slopes, and a linear form's leading coefficient is 0. So `G` is computed once per layer
//! from the bit-sliced trace: the words are transposed so that a word holds one position `t`
//! of 64 blocks, the forms evaluated by XOR, `L1`, `L2` expanded to the `3^c` grid points by
//! XOR and multiplied by AND, and each word of products weighted by `eq(z_{≥c}, ·)` over its
//! 64 blocks with byte tables, then all of a gate's words by `β_j` with one batched
//! multiply-add. Every round `m < c` is then a combination of `G`'s `3^c` values (the
//! small-value optimisation of Bagad, Dao, Domb, Thaler, *Speeding Up Sum-Check Proving*,
//! ePrint 2025/1117, with its evaluation set `{0, 1, ∞}`; on bits over a binary field the
//! values on the grid are bits, as in Soukhanov's Hashcaster notes).

use flockwork_core::boolean_layered::LayerForms;
use flockwork_core::eq_table;
use flockwork_field::transpose::transpose64;
use flockwork_field::{Field, par};
use flockwork_field_binary::ghash::Ghash256Unreduced;
use flockwork_field_binary::ghash::batch::add_mul_scalar;

use super::{ByteTables, F, byte_tables, table_sum};

/// The largest number of variables handled on the grid (those inside a `u64` word).
pub(super) const MAX_GRID_VARS: usize = 6;

/// The grid index `Σ_v d_v 3^v` of the Boolean point with bits `t` (`c` variables).
pub(super) fn ternary_index(t: usize, c: usize) -> usize {
    (0..c).rev().fold(0, |acc, v| 3 * acc + (t >> v & 1))
}

/// The steps of [`expand_grid`] for `c` variables: `(base, low)` with `low = 3^v`, for
/// every variable `v` and Boolean digits above it, in order.
pub(super) fn grid_steps(c: usize) -> Vec<(usize, usize)> {
    (0..c)
        .flat_map(|v| {
            let low = 3usize.pow(v as u32);
            (0..1usize << (c - v - 1)).map(move |hi| (3 * low * ternary_index(hi, c - v - 1), low))
        })
        .collect()
}

/// Expands values on `{0,1}^c` to the grid `{0,1,∞}^c`, in place, for several arrays at
/// once: each of `grids` (`3^c` words, index `Σ_u d_u 3^u`, digit 2 for `∞`) holds the
/// values at the Boolean points (`grid[ternary_index(t)] = value(t)`, bit `u` of `t`
/// variable `u`) and receives the others, the value at `∞` in a variable the XOR of the
/// values at 0 and 1. `steps` are [`grid_steps`]: variable by variable, and after variable
/// `v` every point with digits `> v` Boolean is known, so `3^c − 2^c` XORs per array.
pub(super) fn expand_grid<const N: usize>(grids: [&mut [u64]; N], steps: &[(usize, usize)]) {
    for grid in grids {
        for &(base, low) in steps {
            let (src, dst) = grid[base..base + 3 * low].split_at_mut(2 * low);
            let (zero, one) = src.split_at(low);
            for ((d, &a), &b) in dst.iter_mut().zip(zero).zip(one) {
                *d = a ^ b;
            }
        }
    }
}

/// The table `Λ(r, τ)` over `τ ∈ {0,1,∞}^{|r|}` (index `Σ_v d_v 3^v`), with
/// `λ_0(r) = 1 + r`, `λ_1(r) = r`, `λ_∞(r) = r + r²`.
pub(super) fn lagrange_table(r: &[F]) -> Vec<F> {
    let mut table = vec![F::ONE];
    for &rv in r {
        let lam = [F::ONE + rv, rv, rv + rv * rv];
        table = lam
            .iter()
            .flat_map(|&l| table.iter().map(move |&t| t * l))
            .collect();
    }
    table
}

/// The layer's data for the grid rounds: the grid sums `G(ρ)` (`3^c` values).
pub(super) struct Grid {
    c: usize,
    sums: Vec<F>,
}

/// Per gate and position `t < 2^c`, the words (over 64 blocks) of `L0`, `L1`, `L2`.
struct GroupForms {
    /// Gate-major: gate `j`'s forms at `[3·2^c·j ..]`, `L0` for every `t`, then `L1`, `L2`.
    words: Vec<u64>,
}

/// The words of one group of (up to) 64 blocks: transposed, forms evaluated.
fn group_forms(
    forms: LayerForms<'_>,
    words: &[u64],
    width: usize,
    c: usize,
    group: usize,
) -> GroupForms {
    let blocks = words.len() / width;
    let first = 64 * group;
    let in_group = (blocks - first).min(64);
    let positions = 1usize << c;
    // state[i][t]: bit u is bit t of block (first + u)'s word i. The forms are evaluated on
    // these 64-word columns (XOR lane by lane), so the program runs once per group.
    let state: Vec<[u64; 64]> = (0..width)
        .map(|i| {
            let mut m: [u64; 64] = std::array::from_fn(|u| {
                if u < in_group {
                    words[(first + u) * width + i]
                } else {
                    0
                }
            });
            transpose64(&mut m);
            m
        })
        .collect();
    let mut values = Vec::new();
    forms.evaluate(
        &state,
        [0u64; 64],
        |x, y| std::array::from_fn(|t| x[t] ^ y[t]),
        &mut values,
    );
    let gates = forms.gate_slots();
    let mut out = Vec::with_capacity(3 * positions * gates.len());
    let valid = if in_group == 64 {
        !0u64
    } else {
        (1u64 << in_group) - 1
    };
    for g in gates {
        for (f, &slot) in g.slots.iter().enumerate() {
            let ones = if g.constants >> f & 1 == 1 { valid } else { 0 };
            out.extend(values[slot as usize][..positions].iter().map(|&w| w ^ ones));
        }
    }
    GroupForms { words: out }
}

/// `G` restricted to one group's blocks and a range of gates: `3^c` product sums, then
/// `2^c` linear sums (indexed by `t`). Per gate the words are weighted by eq with the byte
/// tables, then all of them by `β_j` with one batched multiply-add (the field's SIMD
/// kernels).
fn group_sums(
    group: &GroupForms,
    gates: std::ops::Range<usize>,
    beta: &[F],
    tables: &ByteTables,
    c: usize,
) -> Vec<F> {
    let positions = 1usize << c;
    let grid = 3usize.pow(c as u32);
    let mut acc = vec![F::ZERO; grid + positions];
    let mut sums = vec![F::ZERO; grid + positions];
    let (mut eb, mut ec) = (vec![0u64; grid], vec![0u64; grid]);
    let boolean: Vec<usize> = (0..positions).map(|t| ternary_index(t, c)).collect();
    let steps = grid_steps(c);
    for j in gates {
        let base = 3 * j * positions;
        let w = &group.words[base..base + 3 * positions];
        let (a, rest) = w.split_at(positions);
        let (b, cc) = rest.split_at(positions);
        for ((&rho, &x), &y) in boolean.iter().zip(b).zip(cc) {
            eb[rho] = x;
            ec[rho] = y;
        }
        expand_grid([&mut eb, &mut ec], &steps);
        let (prod, lin) = sums.split_at_mut(grid);
        for ((s, &x), &y) in prod.iter_mut().zip(&eb).zip(&ec) {
            *s = table_sum(tables, x & y);
        }
        for (s, &word) in lin.iter_mut().zip(a) {
            *s = table_sum(tables, word);
        }
        add_mul_scalar(&mut acc, &sums, beta[j]);
    }
    acc
}

impl Grid {
    /// `G` for the layer: `words` the bit-sliced previous state (`width` words per block of
    /// `2^c` instances), `z` the layer's point, `beta` the gate weights.
    pub(super) fn new(
        forms: LayerForms<'_>,
        words: &[u64],
        width: usize,
        z: &[F],
        beta: &[F],
    ) -> Self {
        let c = z.len().min(MAX_GRID_VARS);
        let blocks = words.len() / width;
        let groups = blocks.div_ceil(64);
        let eq_hi = eq_table(&z[c..]);
        let gates = forms.gate_slots().len();
        let group_data: Vec<(GroupForms, Box<ByteTables>)> = par::map_collect(groups, 1, |g| {
            let weights: Vec<F> = (0..64)
                .map(|u| eq_hi.get(64 * g + u).copied().unwrap_or(F::ZERO))
                .collect();
            (
                group_forms(forms, words, width, c, g),
                byte_tables(&weights),
            )
        });
        // Work units: (group, chunk of gates).
        let chunks = 16usize.min(gates.max(1));
        let per = gates.div_ceil(chunks);
        let grid = 3usize.pow(c as u32);
        let positions = 1usize << c;
        let total = sum_vecs(groups * chunks, grid + positions, |u| {
            let (g, ch) = (u / chunks, u % chunks);
            let range = (ch * per).min(gates)..((ch + 1) * per).min(gates);
            let (data, tables) = &group_data[g];
            group_sums(data, range, beta, tables, c)
        });
        let mut sums = total[..grid].to_vec();
        for t in 0..positions {
            sums[ternary_index(t, c)] += total[grid + t];
        }
        Self { c, sums }
    }

    /// `(q_m(0), q_m(1), q_m(∞))` of round `m < c`, `r` the challenges `r_{<m}`.
    pub(super) fn round(&self, m: usize, z: &[F], r: &[F]) -> [F; 3] {
        let lam = lagrange_table(&r[..m]);
        let eq_rest = eq_table(&z[m + 1..self.c]);
        let low = lam.len();
        let mut out = [F::ZERO; 3];
        for (sigma, &e) in eq_rest.iter().enumerate() {
            let hi = ternary_index(sigma, self.c - m - 1);
            for (x, o) in out.iter_mut().enumerate() {
                let base = low * (x + 3 * hi);
                let inner = lam
                    .iter()
                    .zip(&self.sums[base..base + low])
                    .fold(Ghash256Unreduced::ZERO, |acc, (&l, &g)| {
                        acc ^ l.mul_unreduced(g)
                    })
                    .reduce();
                *o += e * inner;
            }
        }
        out
    }
}

/// `Σ_u f(u)` over `0..n`, element by element (vectors of `len`); in parallel with the
/// `parallel` feature.
fn sum_vecs<G>(n: usize, len: usize, f: G) -> Vec<F>
where
    G: Fn(usize) -> Vec<F> + Sync + Send,
{
    let add = |mut a: Vec<F>, b: Vec<F>| {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
        a
    };
    par::map_reduce(n, 0, 1, || vec![F::ZERO; len], f, add)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid expansion agrees with the definition: a form's value at a grid point is its
    /// leading coefficient in the `∞` variables, i.e. the XOR over the cube of the `∞`
    /// variables with the other digits fixed.
    #[test]
    fn grid_expansion_matches_definition() {
        let value = |input: &[u64], digits: &[usize]| {
            let c = digits.len();
            let inf: Vec<usize> = (0..c).filter(|&v| digits[v] == 2).collect();
            let base: usize = (0..c).filter(|&v| digits[v] == 1).map(|v| 1 << v).sum();
            (0..1usize << inf.len()).fold(0u64, |acc, s| {
                let t = inf
                    .iter()
                    .enumerate()
                    .fold(base, |t, (i, &v)| t | ((s >> i & 1) << v));
                acc ^ input[t]
            })
        };
        for c in 0..=MAX_GRID_VARS {
            let b: Vec<u64> = (0..1u64 << c)
                .map(|t| t.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x55)
                .collect();
            // Garbage off the Boolean points: every grid point must be written.
            let mut out = vec![0xdead_beef_u64; 3usize.pow(c as u32)];
            for (t, &x) in b.iter().enumerate() {
                out[ternary_index(t, c)] = x;
            }
            expand_grid([&mut out], &grid_steps(c));
            for (rho, &got) in out.iter().enumerate() {
                let digits: Vec<usize> = (0..c).map(|v| rho / 3usize.pow(v as u32) % 3).collect();
                assert_eq!(got, value(&b, &digits), "c = {c}, ρ = {rho}");
            }
        }
    }

    /// Interpolation from `{0,1,∞}` reproduces a product of two affine polynomials.
    #[test]
    fn lagrange_interpolates_quadratics() {
        let (b0, b1, c0, c1) = (F::new(3), F::new(0x55), F::new(0x1234), F::new(9));
        let p = |r: F| (b0 + r * (b0 + b1)) * (c0 + r * (c0 + c1));
        let vals = [p(F::ZERO), p(F::ONE), (b0 + b1) * (c0 + c1)];
        for r in [F::new(7), F::new(0xdead_beef), F::ZERO, F::ONE] {
            let lam = lagrange_table(&[r]);
            let got: F = lam.iter().zip(vals).map(|(&l, v)| l * v).sum();
            assert_eq!(got, p(r));
        }
    }
}
