//! Interleaved Reed–Solomon codes over binary fields in the novel basis.
//!
//! `RS[2^ℓ, rate 2^−R]`: a message of `2^ℓ` novel-basis coefficients (see
//! [`crate::subspace`]) is encoded as the evaluations of `D = Σ_k a_k X_k` on the domain
//! `U_{ℓ+R} = {x_0, …, x_{2^(ℓ+R)−1}}`, computed as `2^R` coset transforms of the additive NTT
//! ([`AdditiveNtt`]); position `j` of the codeword is `D(x_j)`. The code is linear, MDS
//! (`deg D < 2^ℓ`, so two codewords agree on fewer than `2^ℓ` points: minimum distance
//! `2^(ℓ+R) − 2^ℓ + 1`) and non-systematic.
//!
//! Interleaving: the message is `2^ℓ` rows of `width` elements and every column is encoded;
//! the codeword is `2^(ℓ+R)` rows of `width` elements, row `j` holding position `j` of every
//! column. Ligerito's Merkle leaves are these rows.

use std::sync::Arc;

use crate::kernels::NttField;
use crate::ntt::AdditiveNtt;
use flockwork_field::par::{self, MIN_PARALLEL_ELEMS};

/// An interleaved Reed–Solomon code with `2^log_msg_len` message rows and rate
/// `2^−log_inv_rate`.
#[derive(Clone, Debug)]
pub struct ReedSolomon<F> {
    ntt: Arc<AdditiveNtt<F>>,
    log_msg_len: usize,
    log_inv_rate: usize,
}

impl<F: NttField> ReedSolomon<F> {
    /// The code with its own twiddle tables.
    ///
    /// # Panics
    /// If `log_msg_len + log_inv_rate` exceeds the field's dimension limits.
    #[must_use]
    pub fn new(log_msg_len: usize, log_inv_rate: usize) -> Self {
        let ntt = AdditiveNtt::new(log_msg_len, log_msg_len + log_inv_rate);
        Self::with_ntt(Arc::new(ntt), log_msg_len, log_inv_rate)
    }

    /// The code over shared twiddle tables (`ntt` must cover `2^log_msg_len` rows and a
    /// domain of dimension at least `log_msg_len + log_inv_rate`).
    ///
    /// # Panics
    /// If `ntt` is too small.
    #[must_use]
    pub fn with_ntt(ntt: Arc<AdditiveNtt<F>>, log_msg_len: usize, log_inv_rate: usize) -> Self {
        assert!(ntt.max_log_len() >= log_msg_len, "NTT tables too short");
        assert!(
            ntt.basis().dim() >= log_msg_len + log_inv_rate,
            "NTT domain too small"
        );
        Self {
            ntt,
            log_msg_len,
            log_inv_rate,
        }
    }

    /// `log2` of the message length (rows).
    #[must_use]
    pub fn log_msg_len(&self) -> usize {
        self.log_msg_len
    }

    /// `R`, the rate being `2^−R`.
    #[must_use]
    pub fn log_inv_rate(&self) -> usize {
        self.log_inv_rate
    }

    /// `log2` of the block length (codeword rows).
    #[must_use]
    pub fn log_len(&self) -> usize {
        self.log_msg_len + self.log_inv_rate
    }

    /// The shared NTT.
    #[must_use]
    pub fn ntt(&self) -> &AdditiveNtt<F> {
        &self.ntt
    }

    /// Encodes every column of `message` (`2^ℓ` rows of `width` elements, row-major).
    ///
    /// # Panics
    /// If `message.len() != width·2^ℓ`.
    #[must_use]
    pub fn encode(&self, message: &[F], width: usize) -> Vec<F> {
        assert_eq!(
            message.len(),
            width << self.log_msg_len,
            "message must hold 2^ℓ rows"
        );
        // Each coset starts as a copy of the message (written once, not zeroed first).
        let mut codeword = crate::buffer::repeated(message, 1 << self.log_inv_rate);
        par::for_each_chunk(
            &mut codeword,
            message.len(),
            MIN_PARALLEL_ELEMS,
            |coset, chunk| {
                self.ntt.forward(chunk, width, coset as u64);
            },
        );
        codeword
    }

    /// [`ReedSolomon::encode`], then `finish(rows, out_part)` on every block of finished
    /// codeword rows while it is still in cache ([`AdditiveNtt::forward_then`]): `out` holds
    /// the same number of items for every codeword row (`out.len() / 2^(ℓ+R)`) and each
    /// block gets its rows' items. Used to hash Merkle leaves as the codeword is produced.
    ///
    /// # Panics
    /// As [`ReedSolomon::encode`], or if `out` is empty or its length is not a multiple of
    /// the block length.
    #[must_use]
    pub fn encode_then<T: Send>(
        &self,
        message: &[F],
        width: usize,
        out: &mut [T],
        finish: impl Fn(&[F], &mut [T]) + Sync,
    ) -> Vec<F> {
        assert_eq!(
            message.len(),
            width << self.log_msg_len,
            "message must hold 2^ℓ rows"
        );
        let cosets = 1usize << self.log_inv_rate;
        assert!(
            !out.is_empty() && out.len().is_multiple_of(cosets << self.log_msg_len),
            "out must hold the same positive number of items for every codeword row"
        );
        let mut codeword = crate::buffer::repeated(message, cosets);
        let out_len = out.len() / cosets;
        let coset_len = message.len();
        par::zip_chunks(
            &mut codeword,
            coset_len,
            out,
            out_len,
            MIN_PARALLEL_ELEMS,
            |coset, c, o| {
                self.ntt.forward_then(c, width, coset as u64, o, &finish);
            },
        );
        codeword
    }

    /// Decodes an **uncorrupted** codeword: inverts the transform on the first coset and
    /// re-encodes; `None` if `codeword` is not a codeword (or has the wrong length).
    #[must_use]
    pub fn decode(&self, codeword: &[F], width: usize) -> Option<Vec<F>> {
        if width == 0 || codeword.len() != width << self.log_len() {
            return None;
        }
        let mut message = codeword[..width << self.log_msg_len].to_vec();
        self.ntt.inverse(&mut message, width, 0);
        (self.encode(&message, width) == codeword).then_some(message)
    }

    /// The generator row of position `j`: `(X_k(x_j))_{k < 2^ℓ}`, so that codeword row `j`
    /// is `Σ_k row[k]·message[k]`.
    ///
    /// # Panics
    /// If `j` is not below the block length.
    #[must_use]
    pub fn generator_row(&self, j: usize) -> Vec<F> {
        assert!(j >> self.log_len() == 0, "position outside the code");
        self.ntt.basis().generator_row(self.log_msg_len, j as u64)
    }

    /// `Σ_t c_t · generator_row(j_t)` for the sparse vector `entries = [(j_t, c_t)]` over the
    /// block: the transposed encoding `Gᵀc`, a weight on the message (Ligerito's glued row
    /// weights). Uses either the tensor rows directly (`|entries|·2^ℓ` products) or one
    /// transposed NTT per touched coset (`ℓ·2^(ℓ−1)` products each), whichever is cheaper.
    ///
    /// # Panics
    /// If a position is outside the block.
    #[must_use]
    pub fn transpose_encode_sparse(&self, entries: &[(usize, F)]) -> Vec<F> {
        let msg_len = 1usize << self.log_msg_len;
        let mut cosets: Vec<usize> = entries
            .iter()
            .map(|&(j, _)| j >> self.log_msg_len)
            .collect();
        cosets.sort_unstable();
        cosets.dedup();
        let direct_cost = entries.len() * msg_len;
        let ntt_cost = cosets.len() * (self.log_msg_len.max(1) * msg_len / 2 + msg_len);
        let mut out = vec![F::ZERO; msg_len];
        if direct_cost <= ntt_cost {
            for &(j, c) in entries {
                F::add_scaled_slice(&mut out, &self.generator_row(j), c);
            }
            return out;
        }
        for coset in cosets {
            let mut buffer = vec![F::ZERO; msg_len];
            for &(j, c) in entries
                .iter()
                .filter(|&&(j, _)| j >> self.log_msg_len == coset)
            {
                buffer[j & (msg_len - 1)] += c;
            }
            self.ntt.transpose_forward(&mut buffer, 1, coset as u64);
            F::add_rows(&mut out, &buffer);
        }
        out
    }
}
