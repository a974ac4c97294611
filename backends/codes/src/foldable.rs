//! Foldable Reed–Solomon codes: the codes of FRI-Binius and BaseFold, where one random fold of
//! a codeword is a codeword of the folded message.
//!
//! ## The fold
//!
//! A message is a vector `a` of `2^ℓ` coefficients (the hypercube values of a multilinear
//! `P`). Its **multilinear fold** with challenge `r` is `a'_k = a_{2k} + r·(a_{2k+1} − a_{2k})`,
//! i.e. the hypercube values of `P(r, ·)`. A foldable code comes with a chain of codes
//! `C_0, C_1, …` (`C_t` for messages of `2^(ℓ−t)` coefficients, block length `2^(ℓ−t+R)`) and
//! a local map `fold_t` on the pair of positions `(2m, 2m + 1)` of a `C_t` codeword such that
//!
//! ```text
//! fold_t(Enc_t(a), r)[m] = Enc_{t+1}(a')[m]      for every position m.
//! ```
//!
//! So `t` folds of a committed codeword encode `P(r_0, …, r_{t−1}, ·)`, which is why the FRI
//! folding challenges can be the sumcheck challenges (BaseFold, Zeilberger–Chen–Fisch, eprint
//! 2023/1705, §3–4; FRI-Binius, Diamond–Posen, eprint 2024/504, §4, Def. 3.6).
//!
//! Each fold first **unfolds** the pair into the values `E(x), O(x)` of the two halves of the
//! message, `D = E + q(X)·O` for the codeword polynomial `D`, then returns
//! `(1 − r)·E + r·O`:
//!
//! * [`BinaryRs`] (binary fields, the additive NTT of [`crate::ntt`]): `D = E + Ŵ_t·O` with
//!   `E, O` in the novel basis of `Ŵ_{t+1}, Ŵ_{t+2}, …`; position `m` of `C_t` is the point
//!   `x_{m·2^t}`, and the pair differs by `β_t`, where `Ŵ_t` grows by one. Hence
//!   `O = D(x) + D(x + β_t)`, `E = D(x) + τ·O` with `τ = Ŵ_t(x_{2m·2^t})` — the inverse
//!   butterfly of layer `t`.
//! * [`Radix2Rs`] (prime fields, [`crate::radix2`]): `D(X) = E(X²) + X·O(X²)` in the monomial
//!   basis, evaluated on the powers of a `2^(ℓ−t+R)`-th root of unity `ω_t` in bit-reversed
//!   order, so the pair is `(x, −x)` and `E = (D(x) + D(−x))/2`, `O = (D(x) − D(−x))/(2x)`;
//!   the squares `x²` are `C_{t+1}`'s domain in bit-reversed order.

use core::fmt::Debug;
use std::sync::Arc;

use flockwork_field::{Field, PrimeField};

use crate::kernels::NttField;
use crate::ntt::AdditiveNtt;
use crate::radix2::Radix2Ntt;
use crate::reed_solomon::ReedSolomon;
use crate::subspace::SubspaceBasis;
use flockwork_field::par::{self, FOLD_CHUNK, MIN_PARALLEL_ELEMS};

/// A Reed–Solomon code with the folding structure above, interleaved at level 0.
pub trait FoldableCode<F: Field>: Clone + Debug + Send + Sync {
    /// The code family's fixed tag in parameter encodings (`binary-rs`, `radix2-rs`).
    const NAME: &'static str;

    /// The code `C_0` for messages of `2^log_msg_len` coefficients at rate `2^−log_inv_rate`;
    /// `None` if its domain does not fit in the field.
    fn with_shape(log_msg_len: usize, log_inv_rate: usize) -> Option<Self>;

    /// `ℓ`: `log2` of the level-0 message length.
    fn log_msg_len(&self) -> usize;

    /// `R`: the rate is `2^−R`.
    fn log_inv_rate(&self) -> usize;

    /// `log2` of the block length of `C_level`: `ℓ − level + R`.
    fn log_len(&self, level: usize) -> usize {
        self.log_msg_len() - level + self.log_inv_rate()
    }

    /// Encodes every column of `message` (`2^ℓ` rows of `width` elements, row-major) with
    /// `C_0`: `2^(ℓ+R)` rows of `width` elements.
    ///
    /// # Panics
    /// If `message.len() != width·2^ℓ`.
    fn encode(&self, message: &[F], width: usize) -> Vec<F>;

    /// The fold of the pair of positions `(2·pair, 2·pair + 1)` of a `C_level` codeword with
    /// values `values` and challenge `r`: position `pair` of the folded `C_{level+1}` word.
    ///
    /// # Panics
    /// If `level ≥ ℓ` or the pair lies outside the block.
    fn fold_pair(&self, level: usize, pair: usize, values: [F; 2], r: F) -> F;

    /// The fold of a whole `C_level` codeword (prover side; parallel).
    ///
    /// # Panics
    /// As [`FoldableCode::fold_pair`], or if the length is not `C_level`'s block length.
    fn fold(&self, level: usize, codeword: &[F], r: F) -> Vec<F> {
        assert_eq!(codeword.len(), 1 << self.log_len(level), "codeword length");
        let mut out = vec![F::ZERO; codeword.len() / 2];
        par::for_each_chunk(&mut out, FOLD_CHUNK, MIN_PARALLEL_ELEMS, |c, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let m = c * FOLD_CHUNK + i;
                *o = self.fold_pair(level, m, [codeword[2 * m], codeword[2 * m + 1]], r);
            }
        });
        out
    }

    /// `Enc_level(message)` for a message of `2^(ℓ − level)` coefficients, by the definition
    /// (verifier side, for the short final message).
    ///
    /// # Panics
    /// If `level > ℓ` or the message length is not `2^(ℓ − level)`.
    fn encode_at_level(&self, level: usize, message: &[F]) -> Vec<F>;
}

/// The multilinear fold of a message: `a'_k = a_{2k} + r·(a_{2k+1} − a_{2k})`.
///
/// # Panics
/// If the length is odd.
#[must_use]
pub fn fold_message<F: Field>(message: &[F], r: F) -> Vec<F> {
    assert!(message.len().is_multiple_of(2), "a message of odd length");
    message
        .chunks_exact(2)
        .map(|p| p[0] + r * (p[1] - p[0]))
        .collect()
}

/// The binary-field foldable code: Reed–Solomon in the Lin–Chung–Han novel basis on
/// `U_{ℓ+R}` ([`ReedSolomon`]); FRI-Binius's code.
#[derive(Clone, Debug)]
pub struct BinaryRs<F> {
    rs: ReedSolomon<F>,
}

impl<F: NttField> BinaryRs<F> {
    /// The subspace tables of the domain.
    #[must_use]
    pub fn basis(&self) -> &SubspaceBasis<F> {
        self.rs.ntt().basis()
    }

    /// Whether the encoder's twiddle tables have been built (a verifier never builds them:
    /// it folds with [`BinaryRs::basis`] at the queried pairs).
    #[must_use]
    pub fn has_tables(&self) -> bool {
        self.rs.ntt().has_tables()
    }

    /// `τ = Ŵ_level(x_{2·pair·2^level})`, the twiddle of the pair.
    fn twiddle(&self, level: usize, pair: usize) -> F {
        self.basis().w_hat(level, ((2 * pair) << level) as u64)
    }
}

impl<F: NttField> FoldableCode<F> for BinaryRs<F> {
    const NAME: &'static str = "binary-rs";

    fn with_shape(log_msg_len: usize, log_inv_rate: usize) -> Option<Self> {
        let dim = log_msg_len + log_inv_rate;
        if log_inv_rate == 0 || dim > F::BITS.min(40) {
            return None;
        }
        let ntt = Arc::new(AdditiveNtt::new(log_msg_len, dim));
        Some(Self {
            rs: ReedSolomon::with_ntt(ntt, log_msg_len, log_inv_rate),
        })
    }

    fn log_msg_len(&self) -> usize {
        self.rs.log_msg_len()
    }

    fn log_inv_rate(&self) -> usize {
        self.rs.log_inv_rate()
    }

    fn encode(&self, message: &[F], width: usize) -> Vec<F> {
        self.rs.encode(message, width)
    }

    fn fold_pair(&self, level: usize, pair: usize, [a, b]: [F; 2], r: F) -> F {
        assert!(level < self.log_msg_len(), "no fold below a constant");
        assert!(
            pair < 1 << (self.log_len(level) - 1),
            "pair outside the block"
        );
        let odd = a + b;
        let even = a + self.twiddle(level, pair) * odd;
        even + r * (odd - even)
    }

    /// Folds with one product per pair: `(1 + r)·E + r·O = (1 + r)·a + c_m·O` with
    /// `c_m = r + (1 + r)·τ_m`, where `τ_m` (hence `c_m`) is affine in the bits of `m`, so
    /// the `c_m` table is built by doubling with one addition per entry.
    fn fold(&self, level: usize, codeword: &[F], r: F) -> Vec<F> {
        assert!(level < self.log_msg_len(), "no fold below a constant");
        assert_eq!(codeword.len(), 1 << self.log_len(level), "codeword length");
        let pairs = codeword.len() / 2;
        let one_plus_r = F::ONE + r;
        // c_m = r + (1 + r)·(Σ_{bit b of m} Ŵ_t(β_{t+1+b})).
        let mut coeffs = Vec::with_capacity(pairs);
        coeffs.push(r);
        let mut bit = 0;
        while coeffs.len() < pairs {
            let step = one_plus_r * self.basis().w_hat(level, 1u64 << (level + 1 + bit));
            let extended: Vec<F> = coeffs.iter().map(|&c| c + step).collect();
            coeffs.extend(extended);
            bit += 1;
        }
        let mut out = vec![F::ZERO; pairs];
        par::for_each_chunk(&mut out, FOLD_CHUNK, MIN_PARALLEL_ELEMS, |c, chunk| {
            let start = c * FOLD_CHUNK;
            let pairs_in = &codeword[2 * start..2 * (start + chunk.len())];
            let mut odd = [F::ZERO; FOLD_CHUNK];
            let odd = &mut odd[..chunk.len()];
            for ((o, d), p) in chunk
                .iter_mut()
                .zip(odd.iter_mut())
                .zip(pairs_in.chunks_exact(2))
            {
                *o = p[0];
                *d = p[0] + p[1];
            }
            F::scale_slice(chunk, one_plus_r);
            for ((o, &d), &cm) in chunk.iter_mut().zip(odd.iter()).zip(&coeffs[start..]) {
                *o += cm * d;
            }
        });
        out
    }

    fn encode_at_level(&self, level: usize, message: &[F]) -> Vec<F> {
        assert!(level <= self.log_msg_len(), "level beyond the message");
        let vars = self.log_msg_len() - level;
        assert_eq!(message.len(), 1 << vars, "message length at this level");
        (0..1usize << (vars + self.log_inv_rate()))
            .map(|j| {
                // Σ_k a_k Π_{bit c of k} Ŵ_{level+c}(x_{j·2^level}).
                let point = (j as u64) << level;
                let mut row = vec![F::ONE];
                for c in 0..vars {
                    let w = self.basis().w_hat(level + c, point);
                    let high: Vec<F> = row.iter().map(|&x| x * w).collect();
                    row.extend(high);
                }
                F::inner_product(&row, message)
            })
            .collect()
    }
}

/// The prime-field foldable code: Reed–Solomon in the monomial basis on the `2^(ℓ+R)`-th
/// roots of unity in bit-reversed order ([`Radix2Ntt`]); BaseFold's code for FFT-friendly
/// fields.
#[derive(Clone, Debug)]
pub struct Radix2Rs<F> {
    ntt: Arc<Radix2Ntt<F>>,
    log_msg_len: usize,
    log_inv_rate: usize,
    half: F,
}

impl<F: PrimeField> Radix2Rs<F> {
    /// The domain point of position `j` of `C_level`: `ω_level^bitrev(j)` with
    /// `ω_level = ω_0^(2^level)`.
    fn point(&self, level: usize, j: usize) -> F {
        let bits = self.log_len(level);
        self.ntt.root_power(reverse_bits(j, bits) << level)
    }
}

/// `j` with its low `bits` bits reversed.
#[must_use]
pub fn reverse_bits(j: usize, bits: usize) -> usize {
    if bits == 0 {
        0
    } else {
        j.reverse_bits() >> (usize::BITS as usize - bits)
    }
}

impl<F: PrimeField> FoldableCode<F> for Radix2Rs<F> {
    const NAME: &'static str = "radix2-rs";

    fn with_shape(log_msg_len: usize, log_inv_rate: usize) -> Option<Self> {
        let log_len = log_msg_len + log_inv_rate;
        if log_inv_rate == 0 || log_len > F::TWO_ADICITY as usize || log_len > 40 {
            return None;
        }
        let half = F::from_u64(2).inverse()?;
        Some(Self {
            ntt: Arc::new(Radix2Ntt::new(log_len)),
            log_msg_len,
            log_inv_rate,
            half,
        })
    }

    fn log_msg_len(&self) -> usize {
        self.log_msg_len
    }

    fn log_inv_rate(&self) -> usize {
        self.log_inv_rate
    }

    fn encode(&self, message: &[F], width: usize) -> Vec<F> {
        assert_eq!(
            message.len(),
            width << self.log_msg_len,
            "message must hold 2^ℓ rows"
        );
        let mut codeword = crate::buffer::zeroed(message.len() << self.log_inv_rate, F::ZERO);
        codeword[..message.len()].copy_from_slice(message);
        self.ntt.forward_bit_reversed(&mut codeword, width);
        codeword
    }

    fn fold_pair(&self, level: usize, pair: usize, [a, b]: [F; 2], r: F) -> F {
        assert!(level < self.log_msg_len, "no fold below a constant");
        assert!(
            pair < 1 << (self.log_len(level) - 1),
            "pair outside the block"
        );
        let x_inv = self
            .point(level, 2 * pair)
            .inverse()
            .expect("roots are nonzero");
        let even = (a + b) * self.half;
        let odd = (a - b) * self.half * x_inv;
        even + r * (odd - even)
    }

    /// Folds with the inverse domain points of the level read from one table of powers.
    fn fold(&self, level: usize, codeword: &[F], r: F) -> Vec<F> {
        assert!(level < self.log_msg_len, "no fold below a constant");
        assert_eq!(codeword.len(), 1 << self.log_len(level), "codeword length");
        let pairs = codeword.len() / 2;
        let bits = self.log_len(level);
        // 1/(2x) for x = ω_level^e, e < 2^(bits−1): (ω_level^−1)^e / 2.
        let omega_inv = self
            .ntt
            .root_power(1 << level)
            .inverse()
            .expect("roots are nonzero");
        let mut inv_points = Vec::with_capacity(pairs);
        let mut acc = self.half;
        for _ in 0..pairs {
            inv_points.push(acc);
            acc *= omega_inv;
        }
        let one_minus_r = F::ONE - r;
        let mut out = vec![F::ZERO; pairs];
        par::for_each_chunk(&mut out, FOLD_CHUNK, MIN_PARALLEL_ELEMS, |c, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let m = c * FOLD_CHUNK + i;
                let (a, b) = (codeword[2 * m], codeword[2 * m + 1]);
                let e = reverse_bits(2 * m, bits);
                let even = (a + b) * self.half;
                let odd = (a - b) * inv_points[e];
                *o = one_minus_r * even + r * odd;
            }
        });
        out
    }

    fn encode_at_level(&self, level: usize, message: &[F]) -> Vec<F> {
        assert!(level <= self.log_msg_len, "level beyond the message");
        let vars = self.log_msg_len - level;
        assert_eq!(message.len(), 1 << vars, "message length at this level");
        (0..1usize << (vars + self.log_inv_rate))
            .map(|j| {
                let x = self.point(level, j);
                message.iter().rev().fold(F::ZERO, |acc, &a| acc * x + a)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
