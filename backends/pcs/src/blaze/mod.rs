//! A Blaze-style multilinear commitment: Ligerito with an interleaved RAA code at level 0
//! (Brehm, Chen, Fisch, Resch, Rothblum, Zeilberger, *Blaze: Fast SNARKs from Interleaved
//! RAA Codes*, eprint 2024/1609; the "practical Blaze-style backend" of notes/pcs.md §3).
//!
//! ## Commit (level 0)
//!
//! The `2^ℓ` hypercube values of `P` are a matrix `M_0` with `2^(ℓ−k_0)` rows and `2^k_0`
//! columns (index `x = col + 2^k_0·row`: the column carries the first `k_0` variables), as in
//! Ligerito. Every column is encoded with the repeat–accumulate–accumulate code
//! `RAA = A·P2·A·P1·F_4` of rate ¼ ([`flockwork_codes::Raa`]; repetition, two seeded
//! permutations, two prefix XORs), giving `X_0` with `n_0 = 2^(ℓ−k_0+2)` rows; the Merkle tree
//! has one leaf per row and the commitment is its root. This is the paper's interleaved RAA
//! commitment, with GF(2^128) symbols instead of packed bits.
//!
//! ## Open
//!
//! The protocol is Ligerito's ([`crate::ligerito`]) with level 0 swapped — the same
//! [`MultiLevel`] engine ([`crate::multilevel`]) with the RAA code at level 0:
//!
//! 1. Absorb the code parameters (shape and permutation seed) and the claims; batch them with
//!    independent `α_j`: running claim `Σ_x v_0(x)·B(x) = s`, `v_0 = P`, `B = Σ_j α_j W_j`.
//!    Level 0 is analysed in the unique-decoding regime, so it needs no out-of-domain sample.
//! 2. `k_0` sumcheck rounds on `⟨v_0, B⟩` bind the column variables:
//!    `v_1 = M_0·⊗_t(1 − r_t, r_t)`, never sent.
//! 3. Commit `v_1` as Reed–Solomon level 1 (or, for small `ℓ`, send it in clear).
//! 4. Draw `Q_0` distinct rows `j` of `X_0` (≈ 1060 for 100 bits: the query error per row is
//!    `1 − δ/3`, see [`config`]) and open them. Row `j` gives the linear claim
//!    `⟨X_0[j, :], eq(r_0, ·)⟩ = ⟨g_j, v_1⟩`, `g_j` row `j` of the RAA generator. With one
//!    challenge `γ` they glue into the running claim: `B ← B(r_0, ·) + b`, with
//!    `b = Σ_t γ^(t+1)·g_{j_t} = RAAᵀ(Σ_t γ^(t+1)·e_{j_t})` — the transposed code applied to
//!    a `Q_0`-sparse vector: suffix sums, `π2⁻¹`, suffix sums, `π1⁻¹`, sums of groups of 4
//!    ([`flockwork_codes::Raa::transpose_encode_sparse`], `O(n_0)` additions).
//! 5. Levels `≥ 1` are Ligerito's Reed–Solomon levels (fold, commit, optional out-of-domain
//!    samples, queries, glue), ending with the clear final message and `s = v(r_tail)·B(r*)`.
//!
//! The verifier evaluates the level-0 glued weight **densely**: it computes `b` with the same
//! `O(n_0) = O(4N/2^k_0)` transpose and evaluates its multilinear extension at the suffix of
//! the final point (`2^(ℓ−k_0)` products). Unlike Reed–Solomon generator rows, RAA rows are
//! not tensors, so this is the verifier's dominant cost (linear in `N/2^k_0`, a few
//! milliseconds at `2^21` elements); the paper's permutation and accumulation IOPP that makes
//! it polylogarithmic (notes/pcs.md §3, step 2) is out of scope here.
//!
//! ## Costs
//!
//! Committing is XOR-only: one accumulate-and-scatter pass and one prefix-XOR pass over the
//! `4N`-element codeword (`8N` additions of field elements, no multiplication, no transform)
//! and one Merkle tree over `4N` elements — against Ligerito's additive NTT (`O(N log N)`
//! multiplications). The price is the proof: the RAA distance (`δ ≈ 0.19`, against `1 − ρ`
//! for Reed–Solomon) needs about 1060 level-0 queries for 100 bits where Ligerito's rate-½
//! level 0 needs 218–241, so the level-0 openings (`Q_0·(2^k_0·16 B + Merkle path)`,
//! ≈ 0.6 MB at `ℓ = 21`, `k_0 = 4`) dominate a proof 1.6–3.8× larger than Ligerito's.
//!
//! The commit hashes each block of Merkle leaves inside the encoder's outer accumulation
//! ([`flockwork_codes::Raa::encode_visiting`], while the rows are in cache), stripes of rows
//! in parallel, then builds the tree above the leaf digests: the same codeword and root as
//! encoding and then [`MerkleTree::new`].
//!
//! Measured at `2^21` GF(2^128) elements with SHA-256 (`examples/blaze_commit.rs 21 5`, 2
//! shared vCPUs, Merkle trees on the multi-lane SHA-256 of `flockwork-sha256x`, codewords on
//! transparent huge pages through [`flockwork_codes::buffer`]): Blaze commits in ≈ 65 ms (the
//! encoder alone ≈ 32–37 ms, a Merkle tree over the finished codeword ≈ 28 ms), opens in
//! ≈ 100 ms, verifies in ≈ 3.7 ms with a 681 KB proof; Ligerito's fast presets commit in
//! ≈ 33–35 ms (351–418 KB proofs, verify ≈ 1.0–1.3 ms) and its slim preset, also at rate ¼, in
//! ≈ 65 ms (177 KB). With one thread: 110 ms against 59–68 and 114 ms. The XOR-only encoder
//! is memory-bound: the codeword is four times the input, its first pass is a random scatter
//! of rows, and the Reed–Solomon encoder it competes with runs its additive NTT on
//! VPCLMULQDQ at close to memory speed, so at rate ¼ the two encoders cost about the same
//! and a rate-½ Reed–Solomon commit writes and hashes half as much. Parameters and the
//! soundness report: [`config`].

pub mod config;

use digest::Digest;
use flockwork_codes::{NttField, Raa, ReedSolomon};
use flockwork_core::eq_table;
use flockwork_transcript::Transcript;

pub use config::{
    BlazeConfig, BlazeOptions, ConfigError, DEFAULT_DISTANCE, DEFAULT_LOG_COLS, DEFAULT_SEED,
    RaaLevelConfig,
};

#[cfg(test)]
use crate::ligerito::LevelConfig;
use crate::merkle::MerkleTree;
#[cfg(test)]
use crate::multilevel::fold_row;
use crate::multilevel::{CommittedLevel, Labels, MultiLevelProverData, labels, reed_solomon_codes};
pub use crate::multilevel::{LevelZeroCode, MultiLevel, Schedule};
use crate::security::SecurityReport;

const LABEL_PARAMS: &str = "blaze/params";

/// The Blaze-style commitment over the binary field `F` with Merkle trees over the digest
/// `D`: the multi-level engine with an interleaved RAA code at level 0, Ligerito's
/// Reed–Solomon levels after it.
pub type Blaze<F, D> = MultiLevel<F, D, Raa>;

/// What the prover keeps between commit and open: the polynomial, its level-0 codeword and
/// Merkle tree.
pub type BlazeProverData<F, D> = MultiLevelProverData<F, D>;

/// The interleaved RAA code at level 0 (its permutations expanded once, when the commitment
/// is built).
impl<F: NttField> LevelZeroCode<F> for Raa {
    type Config = BlazeConfig;
    type Error = ConfigError;

    const NAME: &'static str = "blaze";
    const LABELS: Labels = labels!("blaze");
    const LEVEL_ABSORBS_OOD: bool = true;

    /// # Errors
    /// The schedule's [`ConfigError`], or [`ConfigError::BadRate`] if a Reed–Solomon domain
    /// does not fit in `F`.
    fn build(config: &BlazeConfig) -> Result<(Self, Vec<ReedSolomon<F>>), ConfigError> {
        config.validate()?;
        let raa = Raa::new(
            config.level_rows_log(0),
            config.raa.log_inv_rate,
            config.raa.seed,
        );
        let codes =
            reed_solomon_codes(config, 1..config.num_levels()).ok_or(ConfigError::BadRate)?;
        Ok((raa, codes))
    }

    fn security_report(config: &BlazeConfig) -> SecurityReport {
        config.security_report()
    }

    /// Absorbs the public parameters of the schedule: `ℓ`, the RAA shape, its assumed
    /// distance and the permutation seed (public parameters, absorbed but never written to
    /// the proof).
    fn absorb_params<T: Transcript>(config: &BlazeConfig, transcript: &mut T) {
        let mut bytes = Vec::with_capacity(56);
        bytes.extend_from_slice(&(config.num_vars as u64).to_le_bytes());
        bytes.extend_from_slice(&(config.raa.log_inv_rate as u64).to_le_bytes());
        bytes.extend_from_slice(&config.raa.distance.to_bits().to_le_bytes());
        bytes.extend_from_slice(&config.raa.seed);
        transcript.public_bytes(LABEL_PARAMS, &bytes);
    }

    /// The RAA encoding with the Merkle leaves hashed as the encoder finishes each block of
    /// codeword rows, while the block is in cache ([`Raa::encode_visiting`]); then the tree
    /// above the leaves. The same tree as [`MerkleTree::new`] on the codeword.
    fn commit<D: Digest>(&self, message: &[F], width: usize) -> CommittedLevel<F, D> {
        let mut leaves =
            flockwork_codes::buffer::zeroed(self.len() * crate::merkle::digest_len::<D>(), 0u8);
        let codeword = self.encode_visiting(message, width, &mut leaves, |rows, out| {
            crate::merkle::hash_leaves_into::<D, F>(rows, width, out);
        });
        CommittedLevel::new(codeword, MerkleTree::from_leaf_digests(leaves))
    }

    fn encode(&self, message: &[F], width: usize) -> Vec<F> {
        Raa::encode(self, message, width)
    }

    fn transpose_encode_sparse(&self, entries: &[(usize, F)]) -> Vec<F> {
        Raa::transpose_encode_sparse(self, entries)
    }

    /// RAA rows are not tensors: `b = RAAᵀ(Σ_t c_t·e_{j_t})` streamed
    /// ([`Raa::transpose_sparse_visit`], `O(n_0)` additions), each visited `(q, v)` weighted by
    /// `eq(point, q) = eq_lo(q mod 2^h)·eq_hi(q >> h)` with `h = ⌊vars/2⌋`: the low factor
    /// multiplied in at once, the sums grouped by the high half, then `Σ_hi eq_hi·sum`. One
    /// product per position and `2^h + 2^(vars−h)` elements of memory, never `n_0`.
    fn rows_weight(&self, rows: &[(usize, F)], point: &[F]) -> F {
        let low = point.len() / 2;
        let eq_lo = eq_table(&point[..low]);
        let eq_hi = eq_table(&point[low..]);
        let mask = eq_lo.len() - 1;
        let mut sums = vec![F::ZERO; eq_hi.len()];
        self.transpose_sparse_visit(rows, |q, v| sums[q >> low] += v * eq_lo[q & mask]);
        sums.iter().zip(&eq_hi).map(|(&s, &e)| s * e).sum()
    }
}

impl<F: NttField, D: Digest> Blaze<F, D> {
    /// The default profile ([`BlazeOptions::default`]: `k_0 = 4`, rate-¼ RAA with the
    /// assumed distance `δ = 0.19`, Reed–Solomon levels of Ligerito's slim preset in the
    /// Johnson regime) for `num_vars` variables at `target_bits` of security (every term of
    /// [`Blaze::security_report`] reaches it).
    ///
    /// # Errors
    /// As [`BlazeConfig::select`] and [`Blaze::new`].
    pub fn with_security(num_vars: usize, target_bits: u32) -> Result<Self, ConfigError> {
        Self::with_options(num_vars, target_bits, &BlazeOptions::default())
    }

    /// As [`Blaze::with_security`] with explicit [`BlazeOptions`].
    ///
    /// # Errors
    /// As [`BlazeConfig::select`] and [`Blaze::new`].
    pub fn with_options(
        num_vars: usize,
        target_bits: u32,
        options: &BlazeOptions,
    ) -> Result<Self, ConfigError> {
        Self::new(BlazeConfig::select(
            num_vars,
            target_bits,
            F::ORDER_BITS,
            options,
        )?)
    }

    /// The level-0 RAA code.
    #[must_use]
    pub fn raa(&self) -> &Raa {
        self.level0()
    }

    /// The security report of the schedule (see [`config`]).
    #[must_use]
    pub fn security_report(&self) -> SecurityReport {
        self.config().security_report()
    }
}

#[cfg(test)]
mod tests;
