//! Ligerito (Novakovic–Angeris, eprint 2025/1187): a multilinear commitment from
//! Reed–Solomon codes, Merkle trees and one running sumcheck, with the multi-level recursion,
//! grinding and out-of-domain samples of notes/pcs.md §1.
//!
//! ## Commit (level 0)
//!
//! The `2^ℓ` hypercube values of `P` are a matrix `M_0` with `2^(ℓ−k_0)` rows and `2^k_0`
//! columns (index `x = col + 2^k_0·row`: the column carries the first `k_0` variables). Every
//! column is Reed–Solomon encoded at rate `2^−R_0` (novel-basis coefficients, additive NTT;
//! `flockwork_codes`), giving `X_0` with `n_0 = 2^(ℓ−k_0+R_0)` rows; the Merkle tree has one
//! leaf per row. The commitment is its root.
//!
//! ## Open
//!
//! 1. Absorb the claims; in the Johnson regime, draw out-of-domain points `ζ` and send `P(ζ)`
//!    (extra eq claims, so that the list-decoding analysis holds for any claim points).
//!    Batch everything with independent `α_j`: running claim `Σ_x v_0(x)·B(x) = s`,
//!    `v_0 = P`, `B = Σ_j α_j W_j`.
//! 2. Level `i`: `k_i` rounds of the degree-2 sumcheck on `⟨v_i, B⟩`, grinding before each
//!    challenge. The challenges `r_i` bind the column variables, so
//!    `v_{i+1} = v_i(r_i, ·) = M_i·⊗_t(1 − r_t, r_t)` — Ligero's row combination, never sent.
//! 3. If a level follows: commit `v_{i+1}` as level `i + 1` (new shape, lower rate), send the
//!    root, then its out-of-domain values. Otherwise send `v_{i+1}` in clear.
//! 4. Grind, draw `Q_i` distinct rows `j` of `X_i`, send them with one Merkle multi-opening.
//!    Each row gives the linear claim `⟨X_i[j, :], eq(r_i, ·)⟩ = ⟨g_j, v_{i+1}⟩`, where
//!    `g_j = (X_k(x_j))_k` is the generator row. With one challenge `γ`, glue them (and the
//!    out-of-domain claims) into the running claim: `B ← B(r_i, ·) + Σ_t γ^(t+1)·W_t`,
//!    `s ← s + Σ_t γ^(t+1)·y_t`.
//! 5. After the last level, the opened rows are checked against the encoding of the clear
//!    message, and the remaining sumcheck rounds run over its variables; the verifier ends with
//!    `s = v_final(r_tail)·B(r*)`.
//!
//! `B(r*)` is cheap: eq weights cost `O(ℓ)`, generator rows are tensors
//! (`g_j = ⊗_b (1, Ŵ_b(x_j))`, [`flockwork_codes::SubspaceBasis::generator_row_mle`]), and
//! custom weights bring their own evaluator.
//!
//! ## Engine
//!
//! Ligerito is [`MultiLevel`] with Reed–Solomon at level 0 ([`crate::multilevel`], which
//! holds the prover and verifier): level 0 absorbs no extra parameters and, in the Johnson
//! regime, draws its out-of-domain samples before batching; the verifier evaluates the level-0
//! generator rows as tensors like every other level.
//!
//! Parameters and the soundness report: [`config`].

pub mod config;

use digest::Digest;
use flockwork_codes::{NttField, ReedSolomon};
use flockwork_transcript::Transcript;

pub use config::{
    ConfigError, DEFAULT_ETA, LevelConfig, LigeritoConfig, Preset, Regime, SecurityReport, Term,
};

use crate::multilevel::{
    CommittedLevel, Labels, MultiLevelProverData, commit_reed_solomon, labels, reed_solomon_codes,
    reed_solomon_rows_weight,
};
pub use crate::multilevel::{LevelZeroCode, MultiLevel, Schedule};

/// Ligerito over the binary field `F` with Merkle trees over the digest `D`: the multi-level
/// engine with Reed–Solomon at level 0.
pub type Ligerito<F, D> = MultiLevel<F, D, ReedSolomon<F>>;

/// What the prover keeps between commit and open: the polynomial, its level-0 codeword and
/// Merkle tree.
pub type LigeritoProverData<F, D> = MultiLevelProverData<F, D>;

/// Reed–Solomon at level 0: the codes of all levels share one additive NTT.
impl<F: NttField> LevelZeroCode<F> for ReedSolomon<F> {
    type Config = LigeritoConfig;
    type Error = ConfigError;

    const NAME: &'static str = "ligerito";
    const LABELS: Labels = labels!("ligerito");
    const LEVEL_ABSORBS_OOD: bool = false;

    /// # Errors
    /// The schedule's [`ConfigError`], or [`ConfigError::BadRate`] if a level's domain does
    /// not fit in `F`.
    fn build(config: &LigeritoConfig) -> Result<(Self, Vec<Self>), ConfigError> {
        config.validate()?;
        let mut codes =
            reed_solomon_codes(config, 0..config.levels.len()).ok_or(ConfigError::BadRate)?;
        let level0 = codes.remove(0);
        Ok((level0, codes))
    }

    fn security_report(config: &LigeritoConfig) -> SecurityReport {
        config.security_report()
    }

    fn absorb_params<T: Transcript>(_config: &LigeritoConfig, _transcript: &mut T) {}

    fn commit<D: Digest>(&self, message: &[F], width: usize) -> CommittedLevel<F, D> {
        commit_reed_solomon(self, message, width)
    }

    fn encode(&self, message: &[F], width: usize) -> Vec<F> {
        ReedSolomon::encode(self, message, width)
    }

    fn transpose_encode_sparse(&self, entries: &[(usize, F)]) -> Vec<F> {
        ReedSolomon::transpose_encode_sparse(self, entries)
    }

    fn rows_weight(&self, rows: &[(usize, F)], point: &[F]) -> F {
        reed_solomon_rows_weight(self, rows, point)
    }
}

impl<F: NttField, D: Digest> Ligerito<F, D> {
    /// Ligerito for `num_vars` variables with a preset, at `target_bits` of security.
    ///
    /// # Errors
    /// As [`LigeritoConfig::select`] and [`Ligerito::new`].
    pub fn with_preset(
        num_vars: usize,
        target_bits: u32,
        preset: Preset,
        regime: Regime,
    ) -> Result<Self, ConfigError> {
        Self::new(LigeritoConfig::select(
            num_vars,
            target_bits,
            preset,
            regime,
            F::ORDER_BITS,
        )?)
    }
}

#[cfg(test)]
mod tests;
