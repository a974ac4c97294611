//! The radix-2 number-theoretic transform over FFT-friendly prime fields, interleaved over
//! rows, with bit-reversed output.
//!
//! ## Transform
//!
//! For `N = 2^n` and a primitive `N`-th root of unity `ω`, the coefficients `a_i` of
//! `D(X) = Σ_i a_i X^i` become the evaluations `D(ω^k)`, stored at position `bitrev_n(k)`.
//! Decimation in frequency (Gentleman–Sande): layer `s` (half size `h = 2^s`, from `s = n − 1`
//! down to 0) maps each pair `(u, v)` at distance `h` in a block of `2h` to
//! `(u + v, (u − v)·ω^(j·N/(2h)))`; after all layers position `j` holds `D(ω^bitrev(j))`
//! (Cooley–Tukey, *Math. Comp.* 19, 1965; Gentleman–Sande, AFIPS 1966).
//!
//! In bit-reversed order the positions `2m` and `2m + 1` hold `D(x)` and `D(−x)` and the
//! squares `x²` of the even positions are the domain of size `N/2` in bit-reversed order —
//! the pairing BaseFold's fold needs ([`crate::foldable::Radix2Rs`]).
//!
//! Each entry is a row of `width` elements and one twiddle serves a whole row, as in
//! [`crate::ntt`]; blocks of a layer run in parallel.

use std::sync::OnceLock;

use flockwork_field::PrimeField;

use flockwork_field::par::{self, MIN_PARALLEL_ELEMS};

/// Twiddles for transforms of length `2^log_len`.
///
/// The table of powers (`N/2` elements) is built on the first transform; before it,
/// [`Radix2Ntt::root_power`] exponentiates (a verifier evaluates the domain at its queried
/// points only and never pays for the table).
#[derive(Clone, Debug)]
pub struct Radix2Ntt<F> {
    log_len: usize,
    /// `ω`, a primitive `N`-th root of unity.
    omega: F,
    /// `ω^k` for `k < N/2`, built on first use.
    powers: OnceLock<Vec<F>>,
}

impl<F: PrimeField> Radix2Ntt<F> {
    /// The tables for length `2^log_len`.
    ///
    /// # Panics
    /// If `log_len` exceeds the field's two-adicity.
    #[must_use]
    pub fn new(log_len: usize) -> Self {
        Self {
            log_len,
            omega: F::two_adic_root_of_unity(log_len as u32),
            powers: OnceLock::new(),
        }
    }

    /// `ω^k` for `k < N/2` (at least one entry), built on first use.
    fn powers(&self) -> &[F] {
        self.powers.get_or_init(|| {
            let half = (1usize << self.log_len) / 2;
            let mut powers = Vec::with_capacity(half.max(1));
            let mut acc = F::ONE;
            for _ in 0..half.max(1) {
                powers.push(acc);
                acc *= self.omega;
            }
            powers
        })
    }

    /// `log2 N`.
    #[must_use]
    pub fn log_len(&self) -> usize {
        self.log_len
    }

    /// `ω^k` for any `k < N` (`ω^(k + N/2) = −ω^k`).
    ///
    /// # Panics
    /// If `k ≥ N`.
    #[must_use]
    pub fn root_power(&self, k: usize) -> F {
        assert!(k >> self.log_len == 0, "exponent beyond the group order");
        let half = (1usize << self.log_len) / 2;
        if self.log_len == 0 {
            F::ONE
        } else if let Some(powers) = self.powers.get() {
            if k < half {
                powers[k]
            } else {
                F::ZERO - powers[k - half]
            }
        } else {
            self.omega.pow(&[k as u64])
        }
    }

    /// Replaces the coefficients in `data` (`N` rows of `width` elements, row-major) by
    /// their evaluations in bit-reversed order, for every column.
    ///
    /// # Panics
    /// If `data.len() != width·N`.
    pub fn forward_bit_reversed(&self, data: &mut [F], width: usize) {
        assert!(width > 0, "rows must hold at least one element");
        assert_eq!(data.len(), width << self.log_len, "data must hold N rows");
        let powers = self.powers();
        for s in (0..self.log_len).rev() {
            let half_rows = 1usize << s;
            let stride = 1usize << (self.log_len - 1 - s);
            let block = 2 * half_rows * width;
            if data.len() / block >= 2 {
                par::for_each_chunk(data, block, MIN_PARALLEL_ELEMS, |_, b| {
                    let (u, v) = b.split_at_mut(half_rows * width);
                    butterfly_rows(u, v, width, |j| powers[j * stride]);
                });
            } else {
                // One block (the first layer): its halves are cut into row ranges that run in
                // parallel, each knowing its first row.
                let (u, v) = data.split_at_mut(half_rows * width);
                let rows_per_task = (MIN_PARALLEL_ELEMS / width).max(1);
                let task = rows_per_task * width;
                par::zip_chunks(u, task, v, task, MIN_PARALLEL_ELEMS, |c, ur, vr| {
                    let first = c * rows_per_task;
                    butterfly_rows(ur, vr, width, |j| powers[(first + j) * stride]);
                });
            }
        }
    }
}

/// `(u, v) ← (u + v, (u − v)·t(row))` over rows of `width` elements.
fn butterfly_rows<F: PrimeField>(u: &mut [F], v: &mut [F], width: usize, t: impl Fn(usize) -> F) {
    for (j, (ur, vr)) in u
        .chunks_exact_mut(width)
        .zip(v.chunks_exact_mut(width))
        .enumerate()
    {
        let twiddle = t(j);
        for (x, y) in ur.iter_mut().zip(vr.iter_mut()) {
            let (a, b) = (*x, *y);
            *x = a + b;
            *y = (a - b) * twiddle;
        }
    }
}
