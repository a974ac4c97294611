//! FRI parameters: the fold schedule, the parameter selector and the security report.
//!
//! ## Shape
//!
//! `ℓ = b + Σ_i ϑ_i + f`: the first `b` variables (`log_batch`) are interleaved columns of the
//! level-0 codeword (bound by one row combination per query), oracle `i` is followed by
//! `ϑ_i` FRI folds (`arities[i]`), and the last `f` variables stay in the final message sent
//! in clear. Oracle 0 is the commitment; oracles `1..K` are committed during the opening.
//!
//! ## Soundness terms (unique decoding; `|F| = 2^β`, rate `ρ = 2^−R`, `Q` queries)
//!
//! With the formulas of [`crate::security`]:
//!
//! * **query**: `((1 + ρ)/2)^Q` — each query checks one fold chain through every oracle, and
//!   a word `δ/2`-far from the code is caught with probability `(1 − ρ)/2` per query
//!   (Diamond–Posen, eprint 2024/504, §5.2; BaseFold, eprint 2023/1705, §4), plus the query
//!   grinding.
//! * **fold**: the interleaved row combination of `b` variables, then one proximity-gap term
//!   per FRI fold on a code of length `n_t = 2^(ℓ − b − t + R)` (BCHKS25 Cor. 1.4, unique
//!   decoding; the largest, first fold of each oracle is reported), plus the fold grinding.
//! * **sumcheck**: `2/|F|` per round (degree 2), `ℓ` rounds.
//! * **batch**: the claims are combined with independent challenges, `1/|F|`.
//!
//! The weakest term is the security level (round-by-round soundness, as for Ligerito).

use core::fmt;

use crate::security::{Regime, SecurityReport, Term, fold_error_bits, query_error_bits};

/// The full FRI schedule for polynomials in `num_vars` variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FriConfig {
    /// `ℓ`: variables of the committed polynomial.
    pub num_vars: usize,
    /// `R`: the rate of every codeword is `2^−R`.
    pub log_inv_rate: usize,
    /// `b`: interleaved variables of the level-0 codeword (leaves hold `2^b` columns).
    pub log_batch: usize,
    /// `ϑ_i`: FRI folds after oracle `i` (`ϑ_0 ≥ 0`, later ones `≥ 1`); oracle `i`'s leaves
    /// hold `2^ϑ_i` consecutive positions (times `2^b` columns for oracle 0).
    pub arities: Vec<usize>,
    /// `Q`: distinct leaves of oracle 0 opened (all of them once `2Q` reaches their count).
    pub num_queries: usize,
    /// Grinding before the query indices.
    pub query_pow_bits: u32,
    /// Grinding before each fold challenge.
    pub fold_pow_bits: u32,
    /// `β = log2 |F|` of the field the bounds are computed for.
    pub field_bits: u32,
}

/// Why a FRI configuration is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FriConfigError {
    /// The schedule folds more variables than the polynomial has.
    TooManyFoldedVars,
    /// No oracle, or an oracle after the first with arity zero.
    BadArities,
    /// A rate of zero (`R = 0`) or a domain that does not fit in the field.
    BadRate,
    /// At least one query is needed.
    NoQueries,
    /// More than 32 bits of grinding, or a target that 32 bits of fold grinding cannot reach
    /// (the field is too small for the target: use an extension field).
    TooMuchGrinding,
}

impl fmt::Display for FriConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Self::TooManyFoldedVars => "the schedule folds more variables than the polynomial has",
            Self::BadArities => "FRI needs at least one oracle and nonzero arities after the first",
            Self::BadRate => "bad rate: R must be at least 1 and the domain must fit in the field",
            Self::NoQueries => "at least one query is needed",
            Self::TooMuchGrinding => {
                "grinding above 32 bits (or a field too small for the target security)"
            }
        };
        f.write_str(text)
    }
}

impl std::error::Error for FriConfigError {}

/// Largest supported grinding (the transcript's limit).
const MAX_POW_BITS: u32 = 32;
/// The selector considers interleaving up to this many variables.
const MAX_LOG_BATCH: usize = 4;
/// The selector considers arities up to this.
const MAX_ARITY: usize = 6;
/// The selector keeps the final message at most this long (in variables).
const MAX_FINAL_VARS: usize = 8;

impl FriConfig {
    /// The parameter selector: for rate `2^−log_inv_rate` and a field of `field_bits`
    /// bits, the query count and grinding that bring **every** term to `target_bits`, and
    /// the interleaving, uniform arity and final size with the smallest estimated proof
    /// ([`FriConfig::estimated_proof_bytes`] with `elem_bytes` per field element and
    /// `digest_bytes` per hash).
    ///
    /// # Errors
    /// [`FriConfigError::TooMuchGrinding`] if the fold terms cannot reach the target (a field
    /// too small), [`FriConfigError::BadRate`] for `R = 0`.
    pub fn select(
        num_vars: usize,
        target_bits: u32,
        log_inv_rate: usize,
        field_bits: u32,
        elem_bytes: usize,
        digest_bytes: usize,
    ) -> Result<Self, FriConfigError> {
        if log_inv_rate == 0 {
            return Err(FriConfigError::BadRate);
        }
        let per_query = query_error_bits(Regime::UniqueDecoding, log_inv_rate)
            .ok_or(FriConfigError::BadRate)?;
        let num_queries = (f64::from(target_bits) / per_query).ceil().max(1.0) as usize;
        let mut best: Option<(usize, Self)> = None;
        for log_batch in 0..=MAX_LOG_BATCH.min(num_vars) {
            let fri_vars = num_vars - log_batch;
            for arity in 1..=MAX_ARITY {
                for oracles in 1..=fri_vars.div_ceil(arity).max(1) {
                    // Oracle 0 may fold fewer variables when the FRI part is short.
                    let folded = (oracles * arity).min(fri_vars);
                    let final_vars = fri_vars - folded;
                    if final_vars > MAX_FINAL_VARS {
                        continue;
                    }
                    let first = folded - (oracles - 1) * arity;
                    let mut arities = vec![first];
                    arities.extend(core::iter::repeat_n(arity, oracles - 1));
                    if oracles > 1 && first == 0 {
                        continue;
                    }
                    let mut config = Self {
                        num_vars,
                        log_inv_rate,
                        log_batch,
                        arities,
                        num_queries,
                        query_pow_bits: 0,
                        fold_pow_bits: 0,
                        field_bits,
                    };
                    let fold = config.weakest_fold_bits();
                    let pow = (f64::from(target_bits) - fold).ceil().max(0.0) as u32;
                    if pow > MAX_POW_BITS {
                        return Err(FriConfigError::TooMuchGrinding);
                    }
                    config.fold_pow_bits = pow;
                    let bytes = config.estimated_proof_bytes(elem_bytes, digest_bytes);
                    if best.as_ref().is_none_or(|(b, _)| bytes < *b) {
                        best = Some((bytes, config));
                    }
                }
            }
        }
        let (_, config) = best.ok_or(FriConfigError::TooManyFoldedVars)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks the schedule.
    ///
    /// # Errors
    /// The first violated rule as a [`FriConfigError`].
    pub fn validate(&self) -> Result<(), FriConfigError> {
        if self.arities.is_empty() || self.arities[1..].contains(&0) {
            return Err(FriConfigError::BadArities);
        }
        let folded = self.log_batch + self.arities.iter().sum::<usize>();
        if folded > self.num_vars {
            return Err(FriConfigError::TooManyFoldedVars);
        }
        if self.log_inv_rate == 0 || self.num_vars + self.log_inv_rate > 40 {
            return Err(FriConfigError::BadRate);
        }
        if self.num_queries == 0 {
            return Err(FriConfigError::NoQueries);
        }
        if self.fold_pow_bits > MAX_POW_BITS || self.query_pow_bits > MAX_POW_BITS {
            return Err(FriConfigError::TooMuchGrinding);
        }
        Ok(())
    }

    /// `ℓ − b`: the message length (log) of the FRI code.
    #[must_use]
    pub fn fri_vars(&self) -> usize {
        self.num_vars - self.log_batch
    }

    /// `f`: variables of the final message sent in clear.
    #[must_use]
    pub fn final_vars(&self) -> usize {
        self.fri_vars() - self.arities.iter().sum::<usize>()
    }

    /// The FRI level (folds of the code so far) at which oracle `i` is committed.
    #[must_use]
    pub fn oracle_level(&self, i: usize) -> usize {
        self.arities[..i].iter().sum()
    }

    /// `log2` of the leaf count of oracle `i`.
    #[must_use]
    pub fn oracle_leaves_log(&self, i: usize) -> usize {
        self.fri_vars() - self.oracle_level(i) + self.log_inv_rate - self.arities[i]
    }

    /// Field elements per leaf of oracle `i`.
    #[must_use]
    pub fn leaf_width(&self, i: usize) -> usize {
        let batch = if i == 0 { self.log_batch } else { 0 };
        1 << (self.arities[i] + batch)
    }

    /// Leaves of oracle 0 actually opened: `Q` distinct ones, or all once `2Q` reaches their
    /// count (opening everything is then about as cheap and the query error is zero).
    #[must_use]
    pub fn effective_queries(&self) -> usize {
        let leaves = 1usize << self.oracle_leaves_log(0);
        if self.num_queries.saturating_mul(2) >= leaves {
            leaves
        } else {
            self.num_queries
        }
    }

    /// The proximity-gap bits of the interleaved row combination (if `b > 0`) and of the
    /// first FRI fold after each oracle (the weakest of that oracle's folds):
    /// `(name, oracle, bits)`.
    fn fold_terms(&self) -> Vec<(&'static str, usize, f64)> {
        let rate = self.log_inv_rate;
        let mut terms = Vec::new();
        if self.log_batch > 0 {
            let len_log = self.fri_vars() + rate;
            let bits = fold_error_bits(
                Regime::UniqueDecoding,
                self.log_batch,
                rate,
                len_log,
                self.field_bits,
            )
            .expect("unique decoding has no slack");
            terms.push(("row combination", 0, bits));
        }
        for (i, &arity) in self.arities.iter().enumerate() {
            if arity > 0 {
                // The first fold after oracle i acts on the longest code.
                let len_log = self.fri_vars() - self.oracle_level(i) + rate;
                let bits =
                    fold_error_bits(Regime::UniqueDecoding, 1, rate, len_log, self.field_bits)
                        .expect("unique decoding has no slack");
                terms.push(("fold", i, bits));
            }
        }
        terms
    }

    /// The weakest fold term before grinding.
    fn weakest_fold_bits(&self) -> f64 {
        self.fold_terms()
            .iter()
            .map(|&(_, _, b)| b)
            .fold(f64::INFINITY, f64::min)
    }

    /// The expected proof size in bytes: sumcheck messages, roots, the final message, the
    /// opened leaves (expected distinct count of `Q` uniform draws) and their Merkle
    /// multi-openings (about `s·(depth − log2 s)` siblings for `s` leaves).
    #[must_use]
    pub fn estimated_proof_bytes(&self, elem_bytes: usize, digest_bytes: usize) -> usize {
        let mut bytes = 2 * self.num_vars * elem_bytes + (elem_bytes << self.final_vars());
        let queries = self.effective_queries() as f64;
        for i in 0..self.arities.len() {
            let depth = self.oracle_leaves_log(i) as f64;
            let leaves = depth.exp2();
            let opened = leaves * (1.0 - (1.0 - 1.0 / leaves).powf(queries));
            let siblings = opened * (depth - opened.log2()).max(0.0);
            if i > 0 {
                bytes += digest_bytes;
            }
            bytes += (opened * (self.leaf_width(i) * elem_bytes) as f64
                + siblings * digest_bytes as f64) as usize;
        }
        bytes
    }

    /// The security report, term by term.
    ///
    /// # Panics
    /// If the configuration does not [`validate`](Self::validate).
    #[must_use]
    pub fn security_report(&self) -> SecurityReport {
        self.validate().expect("invalid FRI configuration");
        let b = f64::from(self.field_bits);
        let mut terms = vec![
            Term::new("batch claims", None, b),
            Term::new(
                "sumcheck rounds",
                None,
                b - (2.0 * self.num_vars.max(1) as f64).log2(),
            ),
        ];
        for (name, oracle, bits) in self.fold_terms() {
            terms.push(Term::new(
                name,
                Some(oracle),
                bits + f64::from(self.fold_pow_bits),
            ));
        }
        let query_bits = if self.effective_queries() >= 1 << self.oracle_leaves_log(0) {
            f64::INFINITY
        } else {
            self.num_queries as f64
                * query_error_bits(Regime::UniqueDecoding, self.log_inv_rate)
                    .expect("unique decoding has no slack")
                + f64::from(self.query_pow_bits)
        };
        terms.push(Term::new("query", None, query_bits));
        SecurityReport { terms }
    }
}
