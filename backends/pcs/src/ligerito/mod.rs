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
//! Parameters and the soundness report: [`config`].

pub mod config;
mod prover;
mod verifier;

use core::marker::PhantomData;
use std::sync::Arc;

use digest::Digest;
use flockwork_codes::{AdditiveNtt, NttField, ReedSolomon};
use flockwork_core::pcs::Claim;
use flockwork_core::{PolynomialCommitment, VerifyError};
use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};

pub use config::{
    ConfigError, DEFAULT_ETA, LevelConfig, LigeritoConfig, Preset, Regime, SecurityReport, Term,
};

use crate::merkle::MerkleTree;

const LABEL_OOD_POINT: &str = "ligerito/ood/point";
const LABEL_OOD_VALUE: &str = "ligerito/ood/value";
const LABEL_ROOT: &str = "ligerito/root";
const LABEL_QUERY_POW: &str = "ligerito/query-pow";
const LABEL_QUERY: &str = "ligerito/query";
const LABEL_ROWS: &str = "ligerito/rows";
const LABEL_GLUE: &str = "ligerito/glue";
const LABEL_FINAL: &str = "ligerito/final";
const LABEL_LEVEL: &str = "ligerito/level";
const LABELS: crate::sumcheck::Labels = crate::sumcheck::Labels {
    round: "ligerito/sumcheck/round",
    pow: "ligerito/fold-pow",
    challenge: "ligerito/sumcheck/challenge",
};

/// Ligerito over the binary field `F` with Merkle trees over the digest `D`.
#[derive(Clone, Debug)]
pub struct Ligerito<F, D> {
    config: LigeritoConfig,
    /// The code of each level.
    codes: Vec<ReedSolomon<F>>,
    _digest: PhantomData<fn() -> D>,
}

/// What the prover keeps between commit and open: the polynomial, its level-0 codeword and
/// Merkle tree.
#[derive(Clone, Debug)]
pub struct LigeritoProverData<F, D> {
    evals: Vec<F>,
    level: CommittedLevel<F, D>,
}

/// A committed level: codeword rows and their Merkle tree.
#[derive(Clone, Debug)]
struct CommittedLevel<F, D> {
    codeword: Vec<F>,
    tree: MerkleTree<D>,
}

impl<F: NttField, D: Digest> Ligerito<F, D> {
    /// Ligerito with an explicit schedule.
    ///
    /// # Errors
    /// The schedule's [`ConfigError`], or [`ConfigError::BadRate`] if a level's domain does
    /// not fit in `F`.
    pub fn new(config: LigeritoConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let levels = config.levels.len();
        let max_rows = (0..levels)
            .map(|i| config.level_rows_log(i))
            .max()
            .unwrap_or(0);
        let max_block = (0..levels)
            .map(|i| config.level_block_log(i))
            .max()
            .unwrap_or(0);
        if max_block > F::BITS.min(40) {
            return Err(ConfigError::BadRate);
        }
        let ntt = Arc::new(AdditiveNtt::new(max_rows, max_block));
        let codes = (0..levels)
            .map(|i| {
                ReedSolomon::with_ntt(
                    Arc::clone(&ntt),
                    config.level_rows_log(i),
                    config.levels[i].log_inv_rate,
                )
            })
            .collect();
        Ok(Self {
            config,
            codes,
            _digest: PhantomData,
        })
    }

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

    /// The schedule.
    #[must_use]
    pub fn config(&self) -> &LigeritoConfig {
        &self.config
    }

    /// Encodes `message` as level `i` and builds its Merkle tree.
    fn commit_level(&self, i: usize, message: &[F]) -> CommittedLevel<F, D> {
        let width = 1 << self.config.levels[i].log_cols;
        // The leaves are hashed as the encoder finishes each block of rows, while the
        // block is still in cache.
        let digest = crate::merkle::digest_len::<D>();
        let rows = (message.len() / width) << self.config.levels[i].log_inv_rate;
        let mut leaves = flockwork_codes::buffer::zeroed(rows * digest, 0u8);
        let codeword = self.codes[i].encode_then(message, width, &mut leaves, |block, digests| {
            crate::merkle::hash_leaves_into::<D, F>(block, width, digests);
        });
        let tree = MerkleTree::from_leaf_digests(leaves);
        CommittedLevel { codeword, tree }
    }
}

impl<F: NttField, D: Digest> PolynomialCommitment<F> for Ligerito<F, D> {
    type Evals = [F];
    type Commitment = Vec<u8>;
    type ProverData = LigeritoProverData<F, D>;

    fn num_vars(&self) -> usize {
        self.config.num_vars
    }

    fn commitment_len(&self) -> usize {
        crate::merkle::digest_len::<D>()
    }

    fn commitment_from_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        (bytes.len() == self.commitment_len()).then(|| bytes.to_vec())
    }

    fn commit(&self, evals: &[F]) -> (Vec<u8>, Self::ProverData) {
        self.commit_owned(flockwork_codes::buffer::copied(evals).into_boxed_slice())
    }

    fn commit_owned(&self, evals: Box<[F]>) -> (Vec<u8>, Self::ProverData) {
        assert_eq!(
            evals.len(),
            1 << self.config.num_vars,
            "a polynomial in ℓ variables has 2^ℓ values"
        );
        let level = self.commit_level(0, &evals);
        let root = level.tree.root().to_vec();
        let data = LigeritoProverData {
            evals: evals.into_vec(),
            level,
        };
        (root, data)
    }

    fn keeps_evals(&self) -> bool {
        true
    }

    fn committed_evals<'a>(&self, data: &'a Self::ProverData) -> Option<&'a [F]> {
        Some(&data.evals)
    }

    fn open<T: ProverTranscript>(
        &self,
        data: &Self::ProverData,
        claims: &[Claim<F>],
        transcript: &mut T,
    ) {
        prover::open(self, data, claims, transcript);
    }

    fn verify<T: VerifierTranscript>(
        &self,
        commitment: &Vec<u8>,
        claims: &[Claim<F>],
        transcript: &mut T,
    ) -> Result<(), VerifyError> {
        verifier::verify(self, commitment, claims, transcript)
    }
}

impl<F: NttField, D: Digest> crate::security::ConfiguredCommitment<F> for Ligerito<F, D> {
    fn name(&self) -> &'static str {
        "ligerito"
    }

    fn security_report(&self) -> SecurityReport {
        self.config.security_report()
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        format!("ligerito {:?}", self.config).into_bytes()
    }

    fn codeword_expansion(&self) -> f64 {
        (self.config.levels[0].log_inv_rate as f64).exp2()
    }
}

/// Absorbs the level index and shape so that transcripts of different schedules diverge.
fn absorb_level<T: Transcript>(transcript: &mut T, level: usize, config: &LevelConfig) {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&(level as u64).to_le_bytes());
    bytes[8] = config.log_cols as u8;
    bytes[9] = config.log_inv_rate as u8;
    bytes[10..14].copy_from_slice(&(config.num_queries as u32).to_le_bytes());
    bytes[14] = config.fold_pow_bits as u8;
    bytes[15] = config.query_pow_bits as u8;
    transcript.public_bytes(LABEL_LEVEL, &bytes);
}

/// `count` distinct row indices below `block_len`, sorted ([`crate::queries::sample_distinct`]).
fn sample_queries<T: Transcript>(transcript: &mut T, block_len: usize, count: usize) -> Vec<usize> {
    crate::queries::sample_distinct(transcript, LABEL_QUERY, block_len, count)
}

/// `Σ_k eq(r, k)·row[k]`: the fold of one opened row by the level's challenges.
fn fold_row<F: NttField>(row: &[F], eq: &[F]) -> F {
    row.iter().zip(eq).map(|(&a, &b)| a * b).sum()
}

#[cfg(test)]
mod tests;
