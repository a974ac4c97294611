//! The additive NTT of Lin–Chung–Han (FOCS 2014: the butterfly transform in the novel basis),
//! interleaved over rows.
//!
//! ## Transform
//!
//! Input: the coefficients `a_k` (`k < 2^ℓ`) of `D = Σ_k a_k X_k` in the novel basis
//! ([`crate::subspace`]). Output: `D(x_{s + j})` for `j < 2^ℓ`, the evaluations on the coset
//! `s + U_ℓ` with shift `s = x_{t·2^ℓ}` (coset number `t`).
//!
//! Split by the lowest coefficient bit: `D = E + Ŵ_0·O`, where `E`, `O` only involve
//! `Ŵ_1, Ŵ_2, …`, all of which vanish on `β_0`. Hence for the pair `x, x + β_0`:
//! `D(x) = E(x) + Ŵ_0(x)·O(x)` and `D(x + β_0) = D(x) + O(x)` (as `Ŵ_0(x + β_0) = Ŵ_0(x) + 1`).
//! Applying this to every bit gives `ℓ` layers, processed from bit `ℓ − 1` down to bit 0;
//! layer `i` pairs the entries `j` and `j + 2^i` (bit `i` clear/set) with the butterfly
//!
//! ```text
//! u ← u + τ·v,   v ← v + u,        τ = Ŵ_i(x_{s + (j with bits ≤ i cleared)}),
//! ```
//!
//! `(N/2)·log N` products in all. By linearity `τ = Ŵ_i(s) + Σ_{c > i, bit c of j} Ŵ_i(β_c)`;
//! the second term only depends on the block index `h = j >> (i + 1)` and is precomputed
//! (`2^(ℓ_max − 1 − i)` values for layer `i`, `2^ℓ_max` in all). The inverse transform runs the
//! layers in the opposite order with the inverse butterfly `v ← v + u, u ← u + τ·v`.
//!
//! ## Interleaving and parallelism
//!
//! Each of the `2^ℓ` entries is a row of `width` elements, and one twiddle serves a whole
//! block of rows, so the butterfly is a slice kernel ([`NttField::butterfly`]: `u += τ·v`,
//! `v += u` in one pass). The forward transform takes its layers in pairs: a block's quarters
//! `a, b, c, d` go through the outer layer (`(a, c)`, `(b, d)`) and the inner one (`(a, b)`,
//! `(c, d)`) in registers ([`NttField::butterfly4`]), so on x86-64 (VPCLMULQDQ, PCLMULQDQ)
//! every element is read and written once per two layers — the same radix-4 grouping as a
//! split-radix FFT, with half the memory traffic. The portable and aarch64 (PMULL) kernels
//! run the four butterflies one after another over the rows, so there each element is still
//! loaded and stored once per layer. Blocks of a layer run in parallel (rayon, feature
//! `parallel`); when a layer has few large blocks, the halves (quarters) are cut into chunks
//! that run in parallel instead.

use std::sync::OnceLock;

use crate::kernels::NttField;
use crate::subspace::SubspaceBasis;
use flockwork_field::par::{self, BUTTERFLY_CHUNK, CACHE_ELEMS, MIN_PARALLEL_ELEMS};

/// Twiddles for additive NTTs of up to `2^max_log_len` rows on the cosets of
/// `U_{max_log_len}` inside `U_dim`.
///
/// The twiddle tables (`2^max_log_len` elements) are built on the first transform, not by
/// [`AdditiveNtt::new`]: a verifier holds the code of a large commitment without paying for
/// them, since it only evaluates subspace polynomials at the queried points through
/// [`AdditiveNtt::basis`] (`dim²` elements).
#[derive(Clone, Debug)]
pub struct AdditiveNtt<F> {
    basis: SubspaceBasis<F>,
    max_log_len: usize,
    /// `twiddles[i][h] = Σ_{bit b of h} Ŵ_i(β_{i+1+b})`, `h < 2^(max_log_len − 1 − i)`.
    twiddles: OnceLock<Vec<Vec<F>>>,
}

impl<F: NttField> AdditiveNtt<F> {
    /// Twiddles for transforms of up to `2^max_log_len` rows on a domain `U_dim`
    /// (`dim − max_log_len` bits of coset index).
    ///
    /// # Panics
    /// If `max_log_len > dim` or `dim` exceeds [`SubspaceBasis::new`]'s limits.
    #[must_use]
    pub fn new(max_log_len: usize, dim: usize) -> Self {
        assert!(max_log_len <= dim, "transform longer than its domain");
        Self {
            basis: SubspaceBasis::new(dim),
            max_log_len,
            twiddles: OnceLock::new(),
        }
    }

    /// The twiddle tables, built on first use.
    fn twiddles(&self) -> &[Vec<F>] {
        self.twiddles.get_or_init(|| {
            (0..self.max_log_len)
                .map(|i| {
                    let mut table = vec![F::ZERO];
                    for c in i + 1..self.max_log_len {
                        let w = self.basis.w_hat(i, 1 << c);
                        let extended: Vec<F> = table.iter().map(|&t| t + w).collect();
                        table.extend(extended);
                    }
                    table
                })
                .collect()
        })
    }

    /// Whether the twiddle tables have been built (by a transform).
    #[must_use]
    pub fn has_tables(&self) -> bool {
        self.twiddles.get().is_some()
    }

    /// The subspace tables of the domain.
    #[must_use]
    pub fn basis(&self) -> &SubspaceBasis<F> {
        &self.basis
    }

    /// The largest supported `log_len`.
    #[must_use]
    pub fn max_log_len(&self) -> usize {
        self.max_log_len
    }

    /// Replaces the novel-basis coefficients in `data` (`2^log_len` rows of `width`
    /// elements, row-major) by the evaluations on coset `coset`: row `j` becomes
    /// `D(x_{coset·2^log_len + j})`, computed for every column.
    ///
    /// # Panics
    /// If `data.len() != width·2^log_len`, `log_len > max_log_len`, or the coset lies outside
    /// the domain.
    pub fn forward(&self, data: &mut [F], width: usize, coset: u64) {
        self.run(data, width, coset, Order::TopDown, forward_butterfly);
    }

    /// [`AdditiveNtt::forward`], then `finish(rows, out_part)` on every block of rows as
    /// soon as its last layer is done, while the block is still in cache: `out` is cut in
    /// proportion to the rows (`out.len() / 2^log_len` items per row) and each block gets
    /// the part of its rows. Blocks are disjoint and together cover `data` (a Merkle tree's
    /// leaves are hashed this way without reading the codeword from memory again).
    ///
    /// # Panics
    /// As [`AdditiveNtt::forward`], or if `out` is empty or its length is not a multiple of
    /// the row count.
    pub fn forward_then<T: Send>(
        &self,
        data: &mut [F],
        width: usize,
        coset: u64,
        out: &mut [T],
        finish: &(dyn Fn(&[F], &mut [T]) + Sync),
    ) {
        let rows = data.len() / width.max(1);
        assert!(
            rows > 0 && !out.is_empty() && out.len().is_multiple_of(rows),
            "out must hold the same positive number of items for every row"
        );
        let ran = self.run_with(
            data,
            width,
            coset,
            Order::TopDown,
            forward_butterfly,
            |pass, data, top| pass.block_then(data, 0, top, out, finish),
        );
        if !ran {
            // One row: nothing to transform.
            finish(data, out);
        }
    }

    /// The inverse of [`AdditiveNtt::forward`] with the same arguments.
    ///
    /// # Panics
    /// As [`AdditiveNtt::forward`].
    pub fn inverse(&self, data: &mut [F], width: usize, coset: u64) {
        self.run(data, width, coset, Order::BottomUp, inverse_butterfly);
    }

    /// The transpose of [`AdditiveNtt::forward`] (as a linear map on each column): layers in
    /// the opposite order, each butterfly `[[1, τ], [1, 1 + τ]]` replaced by its transpose
    /// `u ← u + v, v ← v + τ·u`. It maps evaluation-side weights to coefficient-side weights:
    /// `Σ_j c_j·(X_k(x_j))_k` for a vector `c` over the coset.
    ///
    /// # Panics
    /// As [`AdditiveNtt::forward`].
    pub fn transpose_forward(&self, data: &mut [F], width: usize, coset: u64) {
        self.run(data, width, coset, Order::BottomUp, transposed_butterfly);
    }

    /// Runs all layers in `order` with `butterfly`, depth first: a block of rows is split into
    /// its halves (processed in parallel) until it fits in cache, and a cache-resident block
    /// runs all its remaining layers before the next block is touched. Only the layers above
    /// the cache size stream the whole array.
    fn run(&self, data: &mut [F], width: usize, coset: u64, order: Order, butterfly: Butterfly<F>) {
        self.run_with(data, width, coset, order, butterfly, |pass, data, top| {
            pass.block(data, 0, top);
        });
    }

    /// Validates the arguments, sets up the pass and hands it `data` and its top layer;
    /// `false` (and `go` not called) for a single row, which no layer touches.
    fn run_with(
        &self,
        data: &mut [F],
        width: usize,
        coset: u64,
        order: Order,
        butterfly: Butterfly<F>,
        go: impl FnOnce(&Pass<'_, F>, &mut [F], usize),
    ) -> bool {
        let log_len = self.check_shape(data, width, coset);
        if log_len == 0 {
            return false;
        }
        let shifts = self.shifts(log_len, coset);
        let pass = Pass {
            twiddles: self.twiddles(),
            shifts: &shifts,
            width,
            order,
            butterfly,
            fused: order == Order::TopDown,
        };
        go(&pass, data, log_len - 1);
        true
    }

    /// `Ŵ_i(s)` for the shift `s` of coset `coset` of `U_log_len`, every layer `i`.
    fn shifts(&self, log_len: usize, coset: u64) -> Vec<F> {
        (0..log_len)
            .map(|i| self.basis.w_hat(i, coset << log_len))
            .collect()
    }

    /// Validates the arguments and returns `log_len`.
    fn check_shape(&self, data: &[F], width: usize, coset: u64) -> usize {
        assert!(width > 0, "rows must hold at least one element");
        let rows = data.len() / width;
        assert!(
            rows * width == data.len() && rows.is_power_of_two(),
            "data must hold 2^ℓ rows of {width} elements"
        );
        let log_len = rows.trailing_zeros() as usize;
        assert!(
            log_len <= self.max_log_len(),
            "transform of 2^{log_len} rows is too long"
        );
        let coset_bits = self.basis.dim() - log_len;
        assert!(coset >> coset_bits == 0, "coset {coset} outside the domain");
        log_len
    }
}

/// The order of the layers: from the top bit down (forward) or from bit 0 up (inverse and
/// transpose).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    TopDown,
    BottomUp,
}

/// A butterfly on two rows with one twiddle.
type Butterfly<F> = fn(&mut [F], &mut [F], F);

/// One transform in progress: the per-layer coset shifts and the butterfly.
struct Pass<'a, F> {
    /// The transform's twiddle tables.
    twiddles: &'a [Vec<F>],
    /// `Ŵ_i(s)` for the coset shift `s`.
    shifts: &'a [F],
    width: usize,
    order: Order,
    butterfly: Butterfly<F>,
    /// The forward transform (the only top-down one): layers go in pairs through
    /// [`NttField::butterfly4`] (one load and store per element per two layers on x86-64:
    /// module docs).
    fused: bool,
}

impl<F: NttField> Pass<'_, F> {
    /// Runs layers `top..=0` on `data`, which is block number `index` of `2^(top+1)` rows.
    fn block(&self, data: &mut [F], index: usize, top: usize) {
        if data.len() <= CACHE_ELEMS {
            self.block_in_cache(data, index, top);
            return;
        }
        if self.fused && top > 0 {
            // Layers `top` and `top − 1` in one pass, then the four quarters: the recursion
            // of `block_then`, with nothing to hand on.
            self.block_then::<()>(data, index, top, &mut [], &|_, _| {});
            return;
        }
        if self.order == Order::TopDown {
            self.butterfly_block(data, index, top, true);
        }
        if top > 0 {
            let (lo, hi) = data.split_at_mut(data.len() / 2);
            par::join(
                || self.block(lo, 2 * index, top - 1),
                || self.block(hi, 2 * index + 1, top - 1),
            );
        }
        if self.order == Order::BottomUp {
            self.butterfly_block(data, index, top, true);
        }
    }

    /// [`Pass::block`] of the fused forward transform, then `finish` on every finished
    /// block of rows with its share of `out` (the same recursion, `out` split alongside).
    fn block_then<T: Send>(
        &self,
        data: &mut [F],
        index: usize,
        top: usize,
        out: &mut [T],
        finish: &(dyn Fn(&[F], &mut [T]) + Sync),
    ) {
        if data.len() <= CACHE_ELEMS || top == 0 {
            self.block(data, index, top);
            finish(data, out);
            return;
        }
        self.butterfly4_block(data, index, top, true);
        if top == 1 {
            finish(data, out);
            return;
        }
        let [q0, q1, q2, q3] = quarters(data);
        let [o0, o1, o2, o3] = quarters(out);
        par::join(
            || {
                par::join(
                    || self.block_then(q0, 4 * index, top - 2, o0, finish),
                    || self.block_then(q1, 4 * index + 1, top - 2, o1, finish),
                );
            },
            || {
                par::join(
                    || self.block_then(q2, 4 * index + 2, top - 2, o2, finish),
                    || self.block_then(q3, 4 * index + 3, top - 2, o3, finish),
                );
            },
        );
    }

    /// All layers `top..=0` of a cache-resident block, layer by layer (in pairs when
    /// fused).
    fn block_in_cache(&self, data: &mut [F], index: usize, top: usize) {
        if self.fused {
            let mut i = top;
            while i > 0 {
                let sub_len = self.width << (i + 1);
                for (h, sub) in data.chunks_mut(sub_len).enumerate() {
                    self.butterfly4_block(sub, (index << (top - i)) + h, i, false);
                }
                if i == 1 {
                    return;
                }
                i -= 2;
            }
            let sub_len = self.width << 1;
            for (h, sub) in data.chunks_mut(sub_len).enumerate() {
                self.butterfly_block(sub, (index << top) + h, 0, false);
            }
            return;
        }
        let mut layer = |i: usize| {
            let sub_len = self.width << (i + 1);
            for (h, sub) in data.chunks_mut(sub_len).enumerate() {
                self.butterfly_block(sub, (index << (top - i)) + h, i, false);
            }
        };
        match self.order {
            Order::TopDown => (0..=top).rev().for_each(&mut layer),
            Order::BottomUp => (0..=top).for_each(&mut layer),
        }
    }

    /// The twiddle of layer `i` on block `index`.
    fn twiddle(&self, i: usize, index: usize) -> F {
        self.shifts[i] + self.twiddles[i][index]
    }

    /// Layers `i` and `i − 1` (`i ≥ 1`) of the forward transform on block `index`
    /// (`2^(i+1)` rows) in one pass ([`NttField::butterfly4`] on its quarters), optionally
    /// cut into chunks that run in parallel.
    fn butterfly4_block(&self, block: &mut [F], index: usize, i: usize, split: bool) {
        let t = [
            self.twiddle(i, index),
            self.twiddle(i - 1, 2 * index),
            self.twiddle(i - 1, 2 * index + 1),
        ];
        let [a, b, c, d] = quarters(block);
        if split {
            par::zip4_chunks([a, b, c, d], BUTTERFLY_CHUNK, MIN_PARALLEL_ELEMS, |rows| {
                F::butterfly4(rows, t)
            });
        } else {
            F::butterfly4([a, b, c, d], t);
        }
    }

    /// The butterfly of layer `i` on block `index` (`2^(i+1)` rows), optionally with the
    /// halves cut into chunks that run in parallel.
    fn butterfly_block(&self, block: &mut [F], index: usize, i: usize, split: bool) {
        let twiddle = self.twiddle(i, index);
        let (u, v) = block.split_at_mut(block.len() / 2);
        let butterfly = self.butterfly;
        if split {
            par::zip_chunks(
                u,
                BUTTERFLY_CHUNK,
                v,
                BUTTERFLY_CHUNK,
                MIN_PARALLEL_ELEMS,
                |_, a, b| butterfly(a, b, twiddle),
            );
        } else {
            for (a, b) in u
                .chunks_mut(BUTTERFLY_CHUNK)
                .zip(v.chunks_mut(BUTTERFLY_CHUNK))
            {
                butterfly(a, b, twiddle);
            }
        }
    }
}

/// The four quarters of a slice whose length is a multiple of four.
fn quarters<T>(data: &mut [T]) -> [&mut [T]; 4] {
    let (lo, hi) = data.split_at_mut(data.len() / 2);
    let (a, b) = lo.split_at_mut(lo.len() / 2);
    let (c, d) = hi.split_at_mut(hi.len() / 2);
    [a, b, c, d]
}

/// `u ← u + τ·v, v ← v + u`.
fn forward_butterfly<F: NttField>(u: &mut [F], v: &mut [F], twiddle: F) {
    F::butterfly(u, v, twiddle);
}

/// `v ← v + u, u ← u + τ·v` (undoes [`forward_butterfly`] in characteristic two).
fn inverse_butterfly<F: NttField>(u: &mut [F], v: &mut [F], twiddle: F) {
    F::add_rows(v, u);
    F::add_scaled_slice(u, v, twiddle);
}

/// `u ← u + v, v ← v + τ·u`: the transpose of [`forward_butterfly`].
fn transposed_butterfly<F: NttField>(u: &mut [F], v: &mut [F], twiddle: F) {
    F::add_rows(u, v);
    F::add_scaled_slice(v, u, twiddle);
}
