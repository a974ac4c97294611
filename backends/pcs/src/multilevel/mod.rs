//! The multi-level engine behind [`Ligerito`](crate::Ligerito) and [`Blaze`](crate::Blaze):
//! a multilinear commitment from linear codes, Merkle trees and one running sumcheck, generic
//! over its level-0 code ([`LevelZeroCode`]). Levels `i ≥ 1` are Reed–Solomon codes
//! ([`flockwork_codes::ReedSolomon`], additive NTT) in every instance.
//!
//! ## Commit (level 0)
//!
//! The `2^ℓ` hypercube values of `P` are a matrix `M_0` with `2^(ℓ−k_0)` rows and `2^k_0`
//! columns (index `x = col + 2^k_0·row`: the column carries the first `k_0` variables). Every
//! column is encoded with the level-0 code `C_0` at rate `2^−R_0`, giving `X_0` with
//! `n_0 = 2^(ℓ−k_0+R_0)` rows; the Merkle tree has one leaf per row, hashed while the encoder
//! finishes each block of rows. The commitment is its root.
//!
//! ## Open
//!
//! 1. Absorb the level-0 code's public parameters (if it has any), then the claims; draw the
//!    level-0 out-of-domain points `ζ` and send `P(ζ)` (if the schedule asks for any). Batch
//!    everything with independent `α_j`: running claim `Σ_x v_0(x)·B(x) = s`, `v_0 = P`,
//!    `B = Σ_j α_j W_j`.
//! 2. Level `i`: `k_i` rounds of the degree-2 sumcheck on `⟨v_i, B⟩`, grinding before each
//!    challenge. The challenges `r_i` bind the column variables, so
//!    `v_{i+1} = v_i(r_i, ·) = M_i·⊗_t(1 − r_t, r_t)` — Ligero's row combination, never sent.
//! 3. If a level follows: commit `v_{i+1}` as Reed–Solomon level `i + 1`, send the root, then
//!    its out-of-domain values. Otherwise send `v_{i+1}` in clear.
//! 4. Grind, draw `Q_i` distinct rows `j` of `X_i`, send them with one Merkle multi-opening.
//!    Each row gives the linear claim `⟨X_i[j, :], eq(r_i, ·)⟩ = ⟨g_j, v_{i+1}⟩`, where `g_j`
//!    is row `j` of the generator of `C_i`. With one challenge `γ`, glue them (after the
//!    out-of-domain claims) into the running claim: `B ← B(r_i, ·) + Σ_t γ^(t+1)·W_t`,
//!    `s ← s + Σ_t γ^(t+1)·y_t`; the rows' part of `B` is the transposed code on a sparse
//!    vector, `C_iᵀ(Σ_t γ^(t+1)·e_{j_t})`.
//! 5. After the last level, the opened rows are checked against the encoding of the clear
//!    message, and the remaining sumcheck rounds run over its variables; the verifier ends with
//!    `s = v_final(r_tail)·B(r*)`.
//!
//! ## What the level-0 code decides
//!
//! | | [`Ligerito`](crate::Ligerito) (Reed–Solomon) | [`Blaze`](crate::Blaze) (RAA) |
//! |---|---|---|
//! | level-0 code | Reed–Solomon, novel basis, rate `2^−R_0` from the schedule | `RAA = A·P2·A·P1·F_4`, rate ¼, seeded permutations |
//! | parameters absorbed before the claims | none | `ℓ`, rate, assumed distance, seed |
//! | level-0 out-of-domain samples | in the Johnson regime (list decoding) | none (unique decoding) |
//! | level shape absorbed | 16 bytes (without the sample count) | 17 bytes (with it) |
//! | verifier's level-0 glued weight | `Σ_t c_t·ĝ_{j_t}(r)`, each generator row a tensor, `O(Q_0·ℓ)` | `RAAᵀ(Σ_t c_t·e_{j_t})` densely, then its multilinear extension, `O(n_0)` |
//!
//! The transcript labels carry the scheme's name (`ligerito/…`, `blaze/…`), and each scheme's
//! schedule and soundness report stay its own ([`crate::ligerito::config`],
//! [`crate::blaze::config`]).

mod prover;
mod verifier;

use core::fmt::Debug;
use core::marker::PhantomData;
use std::sync::Arc;

use digest::Digest;
use flockwork_codes::{AdditiveNtt, NttField, ReedSolomon};
use flockwork_core::pcs::Claim;
use flockwork_core::{PolynomialCommitment, VerifyError};
use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};

use crate::ligerito::LevelConfig;
use crate::merkle::MerkleTree;
use crate::params::{EncodeParameters, ParameterBytes};
use crate::security::SecurityReport;

/// The transcript labels of one scheme, each `"<name>/…"` (built from the name by the
/// crate's `labels!` macro).
#[derive(Clone, Copy, Debug)]
pub struct Labels {
    /// An out-of-domain point.
    pub ood_point: &'static str,
    /// An out-of-domain value.
    pub ood_value: &'static str,
    /// The Merkle root of a level `≥ 1`.
    pub root: &'static str,
    /// The grinding before the queries.
    pub query_pow: &'static str,
    /// The query indices.
    pub query: &'static str,
    /// The opened rows.
    pub rows: &'static str,
    /// The glue challenge `γ`.
    pub glue: &'static str,
    /// The final message in clear.
    pub final_message: &'static str,
    /// A level's shape.
    pub level: &'static str,
    /// A sumcheck round message.
    pub round: &'static str,
    /// The grinding before a fold challenge.
    pub fold_pow: &'static str,
    /// A sumcheck challenge.
    pub challenge: &'static str,
}

impl Labels {
    /// The labels of the running sumcheck.
    const fn sumcheck(&self) -> crate::sumcheck::Labels {
        crate::sumcheck::Labels {
            round: self.round,
            pow: self.fold_pow,
            challenge: self.challenge,
        }
    }
}

/// The [`Labels`] of the scheme named `$name`: `"$name/root"`, `"$name/sumcheck/round"`, ….
macro_rules! labels {
    ($name:literal) => {
        $crate::multilevel::Labels {
            ood_point: concat!($name, "/ood/point"),
            ood_value: concat!($name, "/ood/value"),
            root: concat!($name, "/root"),
            query_pow: concat!($name, "/query-pow"),
            query: concat!($name, "/query"),
            rows: concat!($name, "/rows"),
            glue: concat!($name, "/glue"),
            final_message: concat!($name, "/final"),
            level: concat!($name, "/level"),
            round: concat!($name, "/sumcheck/round"),
            fold_pow: concat!($name, "/fold-pow"),
            challenge: concat!($name, "/sumcheck/challenge"),
        }
    };
}
pub(crate) use labels;

/// `Display` as `Debug` and `std::error::Error` for a schedule's error enum.
macro_rules! error_via_debug {
    ($error:ty) => {
        impl core::fmt::Display for $error {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Debug::fmt(self, f)
            }
        }

        impl std::error::Error for $error {}
    };
}
pub(crate) use error_via_debug;

/// A schedule of levels: level `i` folds `k_i` variables and is opened at `Q_i` rows.
pub trait Schedule {
    /// `ℓ`: variables of the committed polynomial.
    fn num_vars(&self) -> usize;

    /// The number of committed levels.
    fn num_levels(&self) -> usize;

    /// Level `i` in Ligerito's shape.
    ///
    /// # Panics
    /// If `i ≥ num_levels()`.
    fn level(&self, i: usize) -> LevelConfig;

    /// `ℓ_i`: variables of the polynomial committed at level `i` (`ℓ_0 = ℓ`); `i` up to
    /// `num_levels()` (the final message).
    ///
    /// # Panics
    /// If `i > num_levels()`.
    fn level_vars(&self, i: usize) -> usize {
        let folded: usize = (0..i).map(|j| self.level(j).log_cols).sum();
        self.num_vars().saturating_sub(folded)
    }

    /// `log2` of the number of message rows of level `i` (`ℓ_i − k_i`).
    fn level_rows_log(&self, i: usize) -> usize {
        self.level_vars(i + 1)
    }

    /// `log2` of the block length of level `i`.
    fn level_block_log(&self, i: usize) -> usize {
        self.level_rows_log(i) + self.level(i).log_inv_rate
    }

    /// Variables of the final message sent in clear.
    fn final_vars(&self) -> usize {
        self.level_vars(self.num_levels())
    }

    /// Rows actually opened at level `i`: `Q_i` distinct rows, or all `n_i` rows once
    /// `2·Q_i ≥ n_i` (opening everything is then about as cheap, the query error is zero, and
    /// distinct sampling never needs long rejection runs).
    fn effective_queries(&self, i: usize) -> usize {
        let block_len = 1usize << self.level_block_log(i);
        let queries = self.level(i).num_queries;
        if queries.saturating_mul(2) >= block_len {
            block_len
        } else {
            queries
        }
    }
}

/// The level-0 code of a [`MultiLevel`] commitment, with what comes with it: the schedule
/// type, the transcript labels, the public parameters absorbed before the claims, and how the
/// verifier evaluates the glued weight of the opened level-0 rows.
pub trait LevelZeroCode<F: NttField>: Sized + Send + Sync + Debug {
    /// The schedule (level 0 and the Reed–Solomon levels after it).
    type Config: Schedule + EncodeParameters + Clone + Debug + Send + Sync;
    /// Why a schedule is rejected.
    type Error;

    /// The scheme's name (transcript labels, [`crate::security::ConfiguredCommitment::name`],
    /// the parameter bytes).
    const NAME: &'static str;
    /// The transcript labels.
    const LABELS: Labels;
    /// Whether the absorbed level shape carries the out-of-domain sample count.
    const LEVEL_ABSORBS_OOD: bool;

    /// Validates `config` and builds the level-0 code and the Reed–Solomon codes of levels
    /// `1, 2, …` (index `i − 1`).
    ///
    /// # Errors
    /// The schedule's error, or an error if a code does not fit in `F`.
    fn build(config: &Self::Config) -> Result<(Self, Vec<ReedSolomon<F>>), Self::Error>;

    /// The soundness report of `config`.
    fn security_report(config: &Self::Config) -> SecurityReport;

    /// Absorbs the public parameters of `config` that the level shapes do not carry.
    fn absorb_params<T: Transcript>(config: &Self::Config, transcript: &mut T);

    /// Encodes the `width` columns of `message` and builds the Merkle tree, one leaf per
    /// codeword row.
    fn commit<D: Digest>(&self, message: &[F], width: usize) -> CommittedLevel<F, D>;

    /// Encodes the `width` columns of `message`.
    fn encode(&self, message: &[F], width: usize) -> Vec<F>;

    /// `Gᵀc` for the sparse `c = [(row, coeff)]`.
    fn transpose_encode_sparse(&self, entries: &[(usize, F)]) -> Vec<F>;

    /// `Σ (coeff·ĝ_row)(point)`: the multilinear extension of the rows' combination at
    /// `point` (the message variables).
    fn rows_weight(&self, rows: &[(usize, F)], point: &[F]) -> F;
}

/// The multi-level commitment over the binary field `F` with level-0 code `C` and Merkle trees
/// over the digest `D` ([module docs](self)).
pub struct MultiLevel<F: NttField, D, C: LevelZeroCode<F>> {
    config: C::Config,
    /// The level-0 code.
    level0: Arc<C>,
    /// The Reed–Solomon code of level `i ≥ 1` at index `i − 1`.
    codes: Vec<ReedSolomon<F>>,
    _digest: PhantomData<fn() -> D>,
}

impl<F: NttField, D, C: LevelZeroCode<F>> Clone for MultiLevel<F, D, C> {
    fn clone(&self) -> Self {
        Self {
            config: self.config.clone(),
            level0: Arc::clone(&self.level0),
            codes: self.codes.clone(),
            _digest: PhantomData,
        }
    }
}

impl<F: NttField, D, C: LevelZeroCode<F>> Debug for MultiLevel<F, D, C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(C::NAME)
            .field("config", &self.config)
            .field("level0", &self.level0)
            .field("codes", &self.codes)
            .finish()
    }
}

/// What the prover keeps between commit and open: the polynomial, its level-0 codeword and
/// Merkle tree.
#[derive(Clone, Debug)]
pub struct MultiLevelProverData<F, D> {
    pub(crate) evals: Vec<F>,
    pub(crate) level: CommittedLevel<F, D>,
}

/// A committed level: codeword rows and their Merkle tree.
#[derive(Clone, Debug)]
pub struct CommittedLevel<F, D> {
    pub(crate) codeword: Vec<F>,
    pub(crate) tree: MerkleTree<D>,
}

impl<F: NttField, D> CommittedLevel<F, D> {
    /// The level's codeword and tree.
    pub(crate) fn new(codeword: Vec<F>, tree: MerkleTree<D>) -> Self {
        Self { codeword, tree }
    }
}

/// Encodes `message` (`width` columns) with the Reed–Solomon `code`, hashing the Merkle leaves
/// as the encoder finishes each block of rows, while the block is still in cache; then builds
/// the tree above the leaves (the same tree as [`MerkleTree::new`] on the codeword).
pub(crate) fn commit_reed_solomon<F: NttField, D: Digest>(
    code: &ReedSolomon<F>,
    message: &[F],
    width: usize,
) -> CommittedLevel<F, D> {
    let digest = crate::merkle::digest_len::<D>();
    let rows = (message.len() / width) << code.log_inv_rate();
    let mut leaves = flockwork_codes::buffer::zeroed(rows * digest, 0u8);
    let codeword = code.encode_then(message, width, &mut leaves, |block, digests| {
        crate::merkle::hash_leaves_into::<D, F>(block, width, digests);
    });
    CommittedLevel::new(codeword, MerkleTree::from_leaf_digests(leaves))
}

/// The Reed–Solomon codes of the levels in `levels` of `config`, sharing one additive NTT
/// large enough for all of them; `None` if a domain does not fit in `F`.
pub(crate) fn reed_solomon_codes<F: NttField>(
    config: &impl Schedule,
    levels: core::ops::Range<usize>,
) -> Option<Vec<ReedSolomon<F>>> {
    if levels.is_empty() {
        return Some(Vec::new());
    }
    let max_rows = levels.clone().map(|i| config.level_rows_log(i)).max()?;
    let max_block = levels.clone().map(|i| config.level_block_log(i)).max()?;
    if max_block > F::BITS.min(40) {
        return None;
    }
    let ntt = Arc::new(AdditiveNtt::new(max_rows, max_block));
    let codes = levels
        .map(|i| {
            let rate = config.level(i).log_inv_rate;
            ReedSolomon::with_ntt(Arc::clone(&ntt), config.level_rows_log(i), rate)
        })
        .collect();
    Some(codes)
}

/// `Σ coeff·ĝ_row(point)` for Reed–Solomon generator rows: each is a tensor
/// (`g_j = ⊗_b (1, Ŵ_b(x_j))`, [`flockwork_codes::SubspaceBasis::generator_row_mle`]), so
/// the sum costs `O(ℓ)` per row.
pub(crate) fn reed_solomon_rows_weight<F: NttField>(
    code: &ReedSolomon<F>,
    rows: &[(usize, F)],
    point: &[F],
) -> F {
    let basis = code.ntt().basis();
    rows.iter()
        .map(|&(row, coeff)| coeff * basis.generator_row_mle(row as u64, point))
        .sum()
}

impl<F: NttField, D: Digest, C: LevelZeroCode<F>> MultiLevel<F, D, C> {
    /// The commitment with an explicit schedule.
    ///
    /// # Errors
    /// The schedule's error, or an error if a level's code does not fit in `F`
    /// ([`LevelZeroCode::build`]).
    pub fn new(config: C::Config) -> Result<Self, C::Error> {
        let (level0, codes) = C::build(&config)?;
        Ok(Self {
            config,
            level0: Arc::new(level0),
            codes,
            _digest: PhantomData,
        })
    }

    /// The schedule.
    #[must_use]
    pub fn config(&self) -> &C::Config {
        &self.config
    }

    /// The level-0 code.
    #[must_use]
    pub fn level0(&self) -> &C {
        &self.level0
    }

    /// Encodes `message` as level `i` and builds its Merkle tree.
    fn commit_level(&self, i: usize, message: &[F]) -> CommittedLevel<F, D> {
        let width = 1 << self.config.level(i).log_cols;
        match i {
            0 => self.level0.commit(message, width),
            _ => commit_reed_solomon(&self.codes[i - 1], message, width),
        }
    }

    /// Encodes `message` (`width` columns) with the code of level `i`.
    fn encode_level(&self, i: usize, message: &[F], width: usize) -> Vec<F> {
        match i {
            0 => self.level0.encode(message, width),
            _ => self.codes[i - 1].encode(message, width),
        }
    }

    /// `Gᵀc` for the sparse `c = [(row, coeff)]` with the generator of level `i`.
    fn transpose_encode_sparse(&self, i: usize, entries: &[(usize, F)]) -> Vec<F> {
        match i {
            0 => self.level0.transpose_encode_sparse(entries),
            _ => self.codes[i - 1].transpose_encode_sparse(entries),
        }
    }

    /// `Σ (coeff·ĝ_row)(point)` for rows of the generator of level `i`.
    fn rows_weight(&self, i: usize, rows: &[(usize, F)], point: &[F]) -> F {
        match i {
            0 => self.level0.rows_weight(rows, point),
            _ => reed_solomon_rows_weight(&self.codes[i - 1], rows, point),
        }
    }
}

impl<F: NttField, D: Digest, C: LevelZeroCode<F>> PolynomialCommitment<F> for MultiLevel<F, D, C> {
    type Evals = [F];
    type Commitment = Vec<u8>;
    type ProverData = MultiLevelProverData<F, D>;

    fn num_vars(&self) -> usize {
        self.config.num_vars()
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
            1 << self.config.num_vars(),
            "a polynomial in ℓ variables has 2^ℓ values"
        );
        let level = self.commit_level(0, &evals);
        let root = level.tree.root().to_vec();
        let data = MultiLevelProverData {
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

impl<F: NttField, D: Digest, C: LevelZeroCode<F>> crate::security::ConfiguredCommitment<F>
    for MultiLevel<F, D, C>
{
    fn name(&self) -> &'static str {
        C::NAME
    }

    fn security_report(&self) -> SecurityReport {
        C::security_report(&self.config)
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        let mut out = ParameterBytes::new(C::NAME);
        self.config.encode_parameters(&mut out);
        out.into_bytes()
    }

    fn codeword_expansion(&self) -> f64 {
        (self.config.level(0).log_inv_rate as f64).exp2()
    }
}

/// Absorbs the level index and shape so that transcripts of different schedules diverge
/// (with the out-of-domain sample count iff [`LevelZeroCode::LEVEL_ABSORBS_OOD`]).
fn absorb_level<F: NttField, C: LevelZeroCode<F>, T: Transcript>(
    transcript: &mut T,
    level: usize,
    config: &LevelConfig,
) {
    let mut bytes = [0u8; 17];
    bytes[..8].copy_from_slice(&(level as u64).to_le_bytes());
    bytes[8] = config.log_cols as u8;
    bytes[9] = config.log_inv_rate as u8;
    bytes[10..14].copy_from_slice(&(config.num_queries as u32).to_le_bytes());
    bytes[14] = config.fold_pow_bits as u8;
    bytes[15] = config.query_pow_bits as u8;
    bytes[16] = config.ood_samples as u8;
    let len = if C::LEVEL_ABSORBS_OOD { 17 } else { 16 };
    transcript.public_bytes(C::LABELS.level, &bytes[..len]);
}

/// `count` distinct row indices below `block_len`, sorted ([`crate::queries::sample_distinct`]).
fn sample_queries<T: Transcript>(
    labels: &Labels,
    transcript: &mut T,
    block_len: usize,
    count: usize,
) -> Vec<usize> {
    crate::queries::sample_distinct(transcript, labels.query, block_len, count)
}

/// `Σ_k eq(r, k)·row[k]`: the fold of one opened row by the level's challenges.
pub(crate) fn fold_row<F: NttField>(row: &[F], eq: &[F]) -> F {
    row.iter().zip(eq).map(|(&a, &b)| a * b).sum()
}

#[cfg(test)]
mod tests;
