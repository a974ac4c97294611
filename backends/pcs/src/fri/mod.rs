//! The FRI-based multilinear commitment: BaseFold (Zeilberger–Chen–Fisch, eprint 2023/1705)
//! over any [`FoldableCode`] — FRI-Binius (Diamond–Posen, eprint 2024/504, §4) with the
//! additive NTT over binary fields ([`FriBinius`]), and the same driver with a radix-2 NTT
//! over FFT-friendly prime fields ([`BaseFold`]).
//!
//! ## Commit
//!
//! The `2^ℓ` hypercube values of `P` are a matrix with `2^(ℓ−b)` rows and `2^b` columns (index
//! `x = col + 2^b·row`: the columns carry the first `b` variables). Every column is encoded
//! with the level-0 code `C_0` (message = the column as coefficients; rate `2^−R`), giving
//! `2^(ℓ−b+R)` codeword rows. Oracle 0 is the Merkle tree whose leaf `q` holds the `2^ϑ_0`
//! consecutive rows `q·2^ϑ_0 + k`; the commitment is its root.
//!
//! ## Open
//!
//! 1. Absorb the claims and the parameters; batch the claims with independent `α_j` into the
//!    running sumcheck `Σ_x P(x)·B(x) = s`, `B = Σ_j α_j W_j`.
//! 2. Sumcheck rounds bind the variables from the lowest (LSB first); each challenge `r_t` is
//!    also a fold challenge. The first `b` combine the codeword rows with `eq(r_0..r_{b−1})`;
//!    the others fold the codeword ([`FoldableCode::fold`]), so after `t` rounds it encodes
//!    `P(r_0, …, r_{t−1}, ·)` (BaseFold Thm. 3; FRI-Binius Lemma 4.6). After the `ϑ_i` folds
//!    of oracle `i`, the folded codeword is committed as oracle `i + 1` (leaves of
//!    `2^ϑ_{i+1}` consecutive positions), and after the last oracle the prover sends the
//!    folded message (`2^f` values) in clear.
//! 3. Grind, draw `Q` distinct leaves `q` of oracle 0 and open, for every oracle `i`, the
//!    leaves `q >> (ϑ_1 + … + ϑ_i)`, each oracle with one Merkle multi-opening. The verifier
//!    folds each opened leaf down to one value and checks it against the next oracle's leaf
//!    (at offset `(q >> (ϑ_1 + … + ϑ_{i−1})) mod 2^ϑ_i`) and finally against the encoding of
//!    the clear message.
//! 4. The last `f` sumcheck rounds run over the clear message; the verifier ends with
//!    `s = v_final(r_tail)·B(r*)`, one evaluation of each claim weight.
//!
//! Parameters and the soundness report: [`config`].

pub mod config;
mod prover;
mod verifier;

use core::marker::PhantomData;

use digest::Digest;
use flockwork_codes::{BinaryRs, FoldableCode, Radix2Rs};
use flockwork_core::pcs::Claim;
use flockwork_core::{PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};

pub use config::{FriConfig, FriConfigError};

use crate::merkle::MerkleTree;
use crate::sumcheck::Labels;

const LABEL_PARAMS: &str = "fri/params";
const LABEL_ROOT: &str = "fri/root";
const LABEL_FINAL: &str = "fri/final";
const LABEL_QUERY_POW: &str = "fri/query-pow";
const LABEL_QUERY: &str = "fri/query";
const LABEL_LEAVES: &str = "fri/leaves";
const LABELS: Labels = Labels {
    round: "fri/sumcheck/round",
    pow: "fri/fold-pow",
    challenge: "fri/sumcheck/challenge",
};

/// The FRI commitment over the field `F` with the foldable code `C` and Merkle trees over the
/// digest `D`.
#[derive(Clone, Debug)]
pub struct Fri<F, C, D> {
    config: FriConfig,
    code: C,
    _marker: PhantomData<fn() -> (F, D)>,
}

/// FRI-Binius: binary fields, Reed–Solomon in the novel basis (additive NTT).
pub type FriBinius<F, D> = Fri<F, BinaryRs<F>, D>;

/// BaseFold over an FFT-friendly prime field (radix-2 NTT, bit-reversed domain).
pub type BaseFold<F, D> = Fri<F, Radix2Rs<F>, D>;

/// What the prover keeps between commit and open: the polynomial, the level-0 codeword and
/// its Merkle tree.
#[derive(Clone, Debug)]
pub struct FriProverData<F, D> {
    evals: Vec<F>,
    codeword: Vec<F>,
    tree: MerkleTree<D>,
}

impl<F: Field, C: FoldableCode<F>, D: Digest> Fri<F, C, D> {
    /// FRI with an explicit schedule.
    ///
    /// # Errors
    /// The schedule's [`FriConfigError`]; [`FriConfigError::BadRate`] if the domain does not
    /// fit in `F`.
    pub fn new(config: FriConfig) -> Result<Self, FriConfigError> {
        config.validate()?;
        let code =
            C::with_shape(config.fri_vars(), config.log_inv_rate).ok_or(FriConfigError::BadRate)?;
        Ok(Self {
            config,
            code,
            _marker: PhantomData,
        })
    }

    /// FRI for `num_vars` variables at rate `2^−log_inv_rate`, reaching `target_bits` over
    /// `F` (the schedule with the smallest estimated proof, [`FriConfig::select`]).
    ///
    /// # Errors
    /// As [`FriConfig::select`] and [`Fri::new`].
    pub fn with_security(
        num_vars: usize,
        target_bits: u32,
        log_inv_rate: usize,
    ) -> Result<Self, FriConfigError> {
        Self::new(FriConfig::select(
            num_vars,
            target_bits,
            log_inv_rate,
            F::ORDER_BITS,
            F::NUM_BYTES,
            crate::merkle::digest_len::<D>(),
        )?)
    }

    /// The schedule.
    #[must_use]
    pub fn config(&self) -> &FriConfig {
        &self.config
    }

    /// The code.
    #[must_use]
    pub fn code(&self) -> &C {
        &self.code
    }
}

impl<F: Field, C: FoldableCode<F>, D: Digest> PolynomialCommitment<F> for Fri<F, C, D> {
    type Evals = [F];
    type Commitment = Vec<u8>;
    type ProverData = FriProverData<F, D>;

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
        let codeword = self.code.encode(&evals, 1 << self.config.log_batch);
        let tree = MerkleTree::new(&codeword, self.config.leaf_width(0));
        let root = tree.root().to_vec();
        let data = FriProverData {
            evals: evals.into_vec(),
            codeword,
            tree,
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

impl<F: Field, C: FoldableCode<F>, D: Digest> crate::security::ConfiguredCommitment<F>
    for Fri<F, C, D>
{
    fn name(&self) -> &'static str {
        "fri"
    }

    fn security_report(&self) -> crate::security::SecurityReport {
        self.config.security_report()
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        let mut out = crate::params::ParameterBytes::new("fri");
        out.tag(C::NAME);
        crate::params::EncodeParameters::encode_parameters(&self.config, &mut out);
        out.into_bytes()
    }

    fn codeword_expansion(&self) -> f64 {
        (self.config.log_inv_rate as f64).exp2()
    }
}

/// Absorbs the schedule so that transcripts of different parameters diverge.
fn absorb_params<T: Transcript>(transcript: &mut T, config: &FriConfig) {
    let mut bytes = Vec::with_capacity(24 + config.arities.len());
    bytes.extend_from_slice(&(config.num_vars as u32).to_le_bytes());
    bytes.push(config.log_inv_rate as u8);
    bytes.push(config.log_batch as u8);
    bytes.extend_from_slice(&(config.num_queries as u32).to_le_bytes());
    bytes.push(config.query_pow_bits as u8);
    bytes.push(config.fold_pow_bits as u8);
    bytes.push(config.arities.len() as u8);
    bytes.extend(config.arities.iter().map(|&a| a as u8));
    transcript.public_bytes(LABEL_PARAMS, &bytes);
}

/// The leaf of oracle `i` that query `q` (a leaf of oracle 0) opens, and the offset of the
/// value folded from oracle `i − 1` inside it (`0` for oracle 0).
fn leaf_of(config: &FriConfig, i: usize, q: usize) -> (usize, usize) {
    if i == 0 {
        return (q, 0);
    }
    let before: usize = config.arities[1..i].iter().sum();
    let position = q >> before;
    (
        position >> config.arities[i],
        position & ((1 << config.arities[i]) - 1),
    )
}

/// Folds one opened leaf of a `C_level` codeword — `2^arity` consecutive positions starting at
/// `leaf·2^arity` — with `challenges` (one per fold), down to one value.
fn fold_leaf<F: Field, C: FoldableCode<F>>(
    code: &C,
    level: usize,
    leaf: usize,
    values: &[F],
    challenges: &[F],
) -> F {
    let mut values = values.to_vec();
    let mut first_pair = leaf << (challenges.len().max(1) - 1);
    for (t, &r) in challenges.iter().enumerate() {
        values = values
            .chunks_exact(2)
            .enumerate()
            .map(|(k, p)| code.fold_pair(level + t, first_pair + k, [p[0], p[1]], r))
            .collect();
        first_pair >>= 1;
    }
    values[0]
}

#[cfg(test)]
mod tests;
