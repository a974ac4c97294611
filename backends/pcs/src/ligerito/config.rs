//! Ligerito parameters: the level schedule, the parameter selector and the security report.
//!
//! ## Soundness terms (field `F` with `|F| = 2^b`, per level `i` with rate `ρ_i = 2^−R_i`,
//! block length `n_i`, `k_i` folded variables, `Q_i` queries)
//!
//! The formulas are those of notes/pcs.md §1 (Ligerito, Novakovic–Angeris, eprint 2025/1187;
//! proximity gaps of Ben-Sasson–Carmon–Haböck–Kopparty–Saraf 2025, "BCHKS25"):
//!
//! * **query** (Ligero row test): unique decoding `((1 + ρ)/2)^Q`; Johnson list decoding with
//!   slack `η`: `(√ρ + η)^Q`; plus the query grinding bits.
//! * **fold** (proximity gap of the `2^k`-interleaved fold): unique decoding
//!   `k·(γn + 1)/|F|` with `γ = δ/2 − 3/(δn)`, `δ = 1 − ρ` (BCHKS25 Cor. 1.4, one line per
//!   folded variable); Johnson `a·2^(k−1)/|F|` with
//!   `a = [2(m + ½)^5 + 3(m + ½)γρ]/(3ρ^{3/2})·n + (m + ½)/√ρ`, `m = max(⌈√ρ/(2η)⌉, 3)`,
//!   `γ = 1 − √ρ − η` (BCHKS25 Thm 4.6); plus the grinding bits before each fold challenge.
//! * **out-of-domain** (Johnson only): the list has `L ≤ 1/(2η√ρ)` codewords; `s` samples of
//!   a multilinear in `μ` variables give `s·(b − log2 μ) − (2·log2 L − 1)` bits.
//! * **sumcheck**: `2/|F|` per round (degree 2), `ℓ` rounds in all.
//! * **glue**: the `Q_i + s_{i+1}` new claims are combined with powers of one challenge,
//!   error `(Q_i + s_{i+1})/|F|`.
//! * **batch**: the opening claims are combined with independent challenges, error `1/|F|`.
//!
//! The protocol is round-by-round sound with these per-round errors, so its Fiat–Shamir
//! transform has the security of the weakest term (Canetti et al., STOC 2019, round-by-round
//! soundness; Chiesa–Yogev, *Building Cryptographic Proofs from Hash Functions*);
//! [`SecurityReport::bits`] is that minimum. [`SecurityReport::union_bits`] additionally
//! reports the plain union bound over all terms.

use crate::multilevel::Schedule;
pub use crate::security::{Regime, SecurityReport, Term};
use crate::security::{fold_error_bits, query_error_bits, rate_sqrt};

/// A named parameter profile (Flock's configurations, notes/pcs.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Rate ½ at level 0, halving per level, no query grinding: fastest prover.
    Fast,
    /// Rate ¼ at level 0, halving per level, 16 bits of query grinding: smaller proofs.
    Slim,
}

/// One level of the recursion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    /// `k_i`: variables folded at this level (the matrix has `2^k_i` columns).
    pub log_cols: usize,
    /// `R_i`: the Reed–Solomon rate is `2^−R_i`.
    pub log_inv_rate: usize,
    /// `Q_i`: distinct codeword rows opened (capped at the block length).
    pub num_queries: usize,
    /// Grinding before each of the `k_i` fold challenges.
    pub fold_pow_bits: u32,
    /// Grinding before the query indices are drawn.
    pub query_pow_bits: u32,
    /// Out-of-domain samples of this level's committed polynomial.
    pub ood_samples: usize,
}

/// The full Ligerito schedule for polynomials in `num_vars` variables.
#[derive(Clone, Debug, PartialEq)]
pub struct LigeritoConfig {
    /// `ℓ`: variables of the committed polynomial.
    pub num_vars: usize,
    /// The levels, level 0 first; after the last one the folded polynomial is sent in clear.
    pub levels: Vec<LevelConfig>,
    /// The regime the parameters were chosen for (decides the reported bounds).
    pub regime: Regime,
    /// `b = log2 |F|` of the field the bounds are computed for.
    pub field_bits: u32,
}

/// Why a configuration is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The levels fold more variables than the polynomial has.
    TooManyFoldedVars,
    /// There must be at least one level.
    NoLevels,
    /// A rate of zero (`R = 0`) or a domain larger than the field.
    BadRate,
    /// A level needs at least one query.
    NoQueries,
    /// Grinding of more than 32 bits.
    TooMuchGrinding,
    /// The Johnson slack must satisfy `0 < η < 1 − √ρ` at every level.
    BadEta,
}

crate::multilevel::error_via_debug!(ConfigError);

/// Variables left for the clear final message, at most.
const FINAL_LOG_LEN: usize = 5;
/// Largest supported grinding (the transcript's limit).
const MAX_POW_BITS: u32 = 32;
/// The Johnson slack of the presets.
pub const DEFAULT_ETA: f64 = 0.02;

impl LigeritoConfig {
    /// The parameter selector: level schedule of `preset` (level 0 folds 6 variables, later
    /// levels 3, until at most 2^5 values remain; rates `2^−(i+1)` (fast) or `2^−(i+2)`
    /// (slim), at most `2^−6`), query counts and grinding so that **every** soundness term
    /// reaches `target_bits` in `regime`, over a field of `field_bits` bits.
    ///
    /// # Errors
    /// [`ConfigError::TooMuchGrinding`] if a fold term cannot reach the target with 32 bits of
    /// grinding; [`ConfigError::BadEta`] for an invalid slack.
    pub fn select(
        num_vars: usize,
        target_bits: u32,
        preset: Preset,
        regime: Regime,
        field_bits: u32,
    ) -> Result<Self, ConfigError> {
        let (rate_offset, query_pow_bits) = match preset {
            Preset::Fast => (1, 0),
            Preset::Slim => (2, 16),
        };
        let mut levels = Vec::new();
        let mut vars = num_vars;
        loop {
            let default_k = if levels.is_empty() { 6 } else { 3 };
            // Fold towards the final size; a polynomial that is already small gets one level
            // folding everything (a committed level is always needed).
            let room = vars.saturating_sub(FINAL_LOG_LEN);
            let log_cols = if room > 0 { default_k.min(room) } else { vars };
            let log_inv_rate = (levels.len() + rate_offset).min(6);
            let mut level = LevelConfig {
                log_cols,
                log_inv_rate,
                num_queries: 1,
                fold_pow_bits: 0,
                query_pow_bits,
                ood_samples: usize::from(matches!(regime, Regime::Johnson { .. })),
            };
            let rows_log = vars - log_cols;
            let block_log = rows_log + log_inv_rate;
            let target = f64::from(target_bits);
            let per_query = query_error_bits(regime, log_inv_rate).ok_or(ConfigError::BadEta)?;
            let needed =
                ((target - f64::from(query_pow_bits)).max(0.0) / per_query).ceil() as usize;
            level.num_queries = needed.clamp(1, 1 << block_log.min(40));
            let fold = fold_error_bits(regime, log_cols, log_inv_rate, block_log, field_bits)
                .ok_or(ConfigError::BadEta)?;
            let pow = (target - fold).ceil().max(0.0) as u32;
            if pow > MAX_POW_BITS {
                return Err(ConfigError::TooMuchGrinding);
            }
            level.fold_pow_bits = if log_cols == 0 { 0 } else { pow };
            levels.push(level);
            vars = rows_log;
            if vars <= FINAL_LOG_LEN {
                break;
            }
        }
        let config = Self {
            num_vars,
            levels,
            regime,
            field_bits,
        };
        config.validate()?;
        Ok(config)
    }

    /// Checks the schedule: levels fit the variables, rates and grinding are in range.
    ///
    /// # Errors
    /// The first violated rule as a [`ConfigError`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.levels.is_empty() {
            return Err(ConfigError::NoLevels);
        }
        let folded: usize = self.levels.iter().map(|l| l.log_cols).sum();
        if folded > self.num_vars {
            return Err(ConfigError::TooManyFoldedVars);
        }
        for (i, level) in self.levels.iter().enumerate() {
            let block_log = self.level_vars(i) - level.log_cols + level.log_inv_rate;
            if level.log_inv_rate == 0 || block_log > 40 {
                return Err(ConfigError::BadRate);
            }
            if level.num_queries == 0 {
                return Err(ConfigError::NoQueries);
            }
            if level.fold_pow_bits > MAX_POW_BITS || level.query_pow_bits > MAX_POW_BITS {
                return Err(ConfigError::TooMuchGrinding);
            }
            query_error_bits(self.regime, level.log_inv_rate).ok_or(ConfigError::BadEta)?;
        }
        Ok(())
    }

    /// The security report, term by term.
    ///
    /// # Panics
    /// If the configuration does not [`validate`](Self::validate).
    #[must_use]
    pub fn security_report(&self) -> SecurityReport {
        self.validate().expect("invalid Ligerito configuration");
        let b = f64::from(self.field_bits);
        let mut terms = Vec::new();
        terms.push(Term::new("batch claims", None, b));
        terms.push(Term::new(
            "sumcheck rounds",
            None,
            b - (2.0 * self.num_vars.max(1) as f64).log2(),
        ));
        for (i, level) in self.levels.iter().enumerate() {
            let block_log = self.level_block_log(i);
            let rate = level.log_inv_rate;
            if let Regime::Johnson { eta } = self.regime {
                let list = 1.0 / (2.0 * eta * rate_sqrt(rate));
                let mu = (self.level_vars(i).max(1)) as f64;
                let bits = level.ood_samples as f64 * (b - mu.log2()) - (2.0 * list.log2() - 1.0);
                terms.push(Term::new("out-of-domain", Some(i), bits));
            }
            if level.log_cols > 0 {
                let fold = fold_error_bits(
                    self.regime,
                    level.log_cols,
                    rate,
                    block_log,
                    self.field_bits,
                )
                .expect("validated");
                terms.push(Term::new(
                    "fold",
                    Some(i),
                    fold + f64::from(level.fold_pow_bits),
                ));
            }
            let queries = self.effective_queries(i);
            let query_bits = if queries as u128 >= 1u128 << block_log.min(127) {
                f64::INFINITY
            } else {
                queries as f64 * query_error_bits(self.regime, rate).expect("validated")
                    + f64::from(level.query_pow_bits)
            };
            terms.push(Term::new("query", Some(i), query_bits));
            let next_ood = self.levels.get(i + 1).map_or(0, |l| l.ood_samples);
            terms.push(Term::new(
                "glue",
                Some(i),
                b - ((queries + next_ood).max(1) as f64).log2(),
            ));
        }
        SecurityReport { terms }
    }
}

impl Schedule for LigeritoConfig {
    fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn num_levels(&self) -> usize {
        self.levels.len()
    }

    fn level(&self, i: usize) -> LevelConfig {
        self.levels[i].clone()
    }
}
