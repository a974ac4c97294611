//! The multilinear equality polynomial
//! `eq(r, x) = Π_i (r_i·x_i + (1 − r_i)(1 − x_i))` and its tables.
//!
//! `eq(r, ·)` is the multilinear extension of the indicator of `r` on the hypercube, so
//! `f(r) = Σ_x eq(r, x)·f(x)` for multilinear `f` (Thaler, *Proofs, Arguments, and
//! Zero-Knowledge*, §3.5). Tables follow the crate's index convention: bit `i` of the index
//! `x` is the variable `x_i`, matching `r_i`. In characteristic two `1 − r_i = 1 + r_i`; the
//! code writes `F::ONE − r` (or `t − t·r`) and the field does the rest.
//!
//! [`SplitEq`] stores `eq(r, ·)` as the tensor product `eq_lo ⊗ eq_hi` of the tables of the
//! low and high halves of the variables: `2·2^(n/2)` entries instead of `2^n`, and sums of the
//! form `Σ_x eq(r, x)·g(x)` become `Σ_hi eq_hi · (Σ_lo eq_lo · g)` with one outer product per
//! inner block (Dao–Thaler, eprint 2024/1210, §3 "split-eq").

use alloc::vec::Vec;

use flockwork_field::Field;

use flockwork_field::par::{self, EQ_CHUNK, MIN_PARALLEL_ITEMS};

/// `eq(x, y) = Π_i (x_i·y_i + (1 − x_i)(1 − y_i))`.
///
/// # Panics
/// If `x.len() != y.len()`.
#[must_use]
pub fn eq_eval<F: Field>(x: &[F], y: &[F]) -> F {
    assert_eq!(x.len(), y.len(), "eq_eval needs points of equal length");
    x.iter()
        .zip(y)
        .map(|(&a, &b)| a * b + (F::ONE - a) * (F::ONE - b))
        .product()
}

/// The table `T[x] = eq(point, x)` for `x ∈ {0,1}^n`, `n = point.len()`, with bit `i` of `x`
/// the variable `i`.
///
/// Built by `n` doubling steps: after step `i` the first `2^(i+1)` entries are the table of
/// `point[..=i]`, obtained from the previous `2^i` entries `t` as `t·(1 − r_i)` (bit `i`
/// clear) and `t·r_i` (bit `i` set). The products go through [`Field::scale_slice`] (SIMD for
/// GF(2^128)) in chunks; large steps run in parallel.
#[must_use]
pub fn eq_table<F: Field>(point: &[F]) -> Vec<F> {
    // Built by appending, so no entry is written before its value is known (no zeroing).
    let mut table = Vec::with_capacity(1 << point.len());
    table.push(F::ONE);
    for &r in point {
        let len = table.len();
        table.extend_from_within(..len);
        let (low, high) = table.split_at_mut(len);
        par::zip_chunks(
            low,
            EQ_CHUNK,
            high,
            EQ_CHUNK,
            MIN_PARALLEL_ITEMS,
            |_, lo, hi| {
                F::scale_slice(hi, r);
                for (t, &h) in lo.iter_mut().zip(hi.iter()) {
                    *t -= h;
                }
            },
        );
    }
    table
}

/// Variables of the blocks the split-eq passes below work in: `2^12` weights (64 KiB of
/// GF(2^128)) stay in the L2 cache while a block of the big table streams past.
pub(crate) const SPLIT_BLOCK_VARS: usize = 12;

/// `Σ_x t[x]·eq(r, x)`, the multilinear extension of `table` at `point`, without the
/// `2^n`-entry eq table: with `eq(r, x) = eq(r_lo, x mod 2^c)·eq(r_hi, ⌊x/2^c⌋)` for blocks
/// of `2^c` entries, `t(r) = Σ_b eq(r_hi, b)·⟨t_b, eq(r_lo, ·)⟩` — one inner product
/// ([`Field::inner_product`], SIMD for GF(2^128)) per block, one product per block outside,
/// and one read of `table` (in parallel over blocks for large tables).
///
/// # Panics
/// If `table.len() != 2^point.len()`.
#[must_use]
pub fn eq_inner_product<F: Field>(table: &[F], point: &[F]) -> F {
    assert_eq!(table.len(), 1 << point.len(), "a table of 2^n values");
    let lo_vars = point.len().min(SPLIT_BLOCK_VARS);
    let (lo, hi) = point.split_at(lo_vars);
    let (eq_lo, eq_hi) = (eq_table(lo), eq_table(hi));
    let block = eq_lo.len();
    par::fold_reduce(
        eq_hi.len(),
        block,
        MIN_PARALLEL_ITEMS,
        || F::ZERO,
        |acc, b| acc + eq_hi[b] * F::inner_product(&table[b * block..(b + 1) * block], &eq_lo),
        |x, y| x + y,
    )
}

/// `out[x] += scale·eq(r, x)` on the hypercube, block by block as in [`eq_inner_product`]:
/// each block of `out` receives the low table scaled by `scale·eq(r_hi, b)`, so no table of
/// the size of `out` is built and `out` is written once.
///
/// # Panics
/// If `out.len() != 2^point.len()`.
pub fn add_scaled_eq<F: Field>(out: &mut [F], scale: F, point: &[F]) {
    assert_eq!(out.len(), 1 << point.len(), "a table of 2^n values");
    let lo_vars = point.len().min(SPLIT_BLOCK_VARS);
    let add = add_scaled_eq_blocks(scale, point, lo_vars);
    par::map_chunks(out, 1 << lo_vars, add, |(), ()| ());
}

/// The block step of [`add_scaled_eq`] for blocks of `2^lo_vars` entries: `f(start, block)`
/// adds `scale·eq(r, start + i)` to `block[i]` (`start` a multiple of the block length), the
/// low table `eq(r_lo, ·)` and the high weights built once.
pub(crate) fn add_scaled_eq_blocks<F: Field>(
    scale: F,
    point: &[F],
    lo_vars: usize,
) -> impl Fn(usize, &mut [F]) + Send + Sync + use<F> {
    let (lo, hi) = point.split_at(lo_vars);
    let (eq_lo, eq_hi) = (eq_table(lo), eq_table(hi));
    move |start, block| F::add_scaled_slice(block, &eq_lo, scale * eq_hi[start >> lo_vars])
}

/// `eq(r, ·)` in split form: `eq(r, x) = lo[x mod 2^lo_vars] · hi[x >> lo_vars]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitEq<F> {
    lo: Vec<F>,
    hi: Vec<F>,
    lo_vars: usize,
}

impl<F: Field> SplitEq<F> {
    /// Splits `point` into its first `⌊n/2⌋` coordinates (low index bits) and the rest.
    #[must_use]
    pub fn new(point: &[F]) -> Self {
        Self::with_low_vars(point, point.len() / 2)
    }

    /// Splits `point` after its first `lo_vars` coordinates (at most `point.len()`): a
    /// prover that walks the table in chunks of `2^lo_vars` entries keeps [`SplitEq::lo`] in
    /// cache and reads one [`SplitEq::hi`] weight per chunk.
    ///
    /// # Panics
    /// If `lo_vars > point.len()`.
    #[must_use]
    pub fn with_low_vars(point: &[F], lo_vars: usize) -> Self {
        Self {
            lo: eq_table(&point[..lo_vars]),
            hi: eq_table(&point[lo_vars..]),
            lo_vars,
        }
    }

    /// The number of variables `n`.
    #[must_use]
    pub fn num_vars(&self) -> usize {
        self.lo_vars + self.hi.len().trailing_zeros() as usize
    }

    /// The number of low variables (the first ones, covered by [`SplitEq::lo`]).
    #[must_use]
    pub fn lo_vars(&self) -> usize {
        self.lo_vars
    }

    /// The table of the low variables, `2^lo_vars` entries.
    #[must_use]
    pub fn lo(&self) -> &[F] {
        &self.lo
    }

    /// The table of the high variables, `2^(n − lo_vars)` entries.
    #[must_use]
    pub fn hi(&self) -> &[F] {
        &self.hi
    }

    /// `eq(r, x)` for the hypercube point with index `x`.
    ///
    /// # Panics
    /// If `x ≥ 2^n`.
    #[must_use]
    pub fn get(&self, x: usize) -> F {
        self.lo[x & (self.lo.len() - 1)] * self.hi[x >> self.lo_vars]
    }

    /// The full table of [`eq_table`] (`2^n` entries).
    #[must_use]
    pub fn to_table(&self) -> Vec<F> {
        par::map_collect(self.lo.len() * self.hi.len(), MIN_PARALLEL_ITEMS, |x| {
            self.get(x)
        })
    }

    /// Sums out the first variable: afterwards `self` represents `eq((r_1, …, r_{n−1}), ·)`.
    ///
    /// Since `eq(r_0, 0) + eq(r_0, 1) = 1`, the new table entry at `x` is the sum of the old
    /// entries at `2x` and `2x + 1` (applied to the low table while it has variables, then to
    /// the high table). This is how the sumcheck prover drops the variable it just bound.
    ///
    /// # Panics
    /// If `n = 0`.
    pub fn sum_out_first_var(&mut self) {
        assert!(self.num_vars() > 0, "no variable left to sum out");
        if self.lo_vars > 0 {
            sum_adjacent_pairs(&mut self.lo);
            self.lo_vars -= 1;
        } else {
            sum_adjacent_pairs(&mut self.hi);
        }
    }
}

/// `t[j] ← t[2j] + t[2j+1]`, halving the length.
fn sum_adjacent_pairs<F: Field>(table: &mut Vec<F>) {
    let half = table.len() / 2;
    for j in 0..half {
        table[j] = table[2 * j] + table[2 * j + 1];
    }
    table.truncate(half);
}
