//! Blaze-style parameters: the RAA level 0, the Reed–Solomon levels after it, the parameter
//! selector and the security report.
//!
//! ## Soundness terms (field `F` with `|F| = 2^b`)
//!
//! **Level 0 (RAA, unique decoding with `d/3` slack).** The code has block length `n`, and
//! *assumed* minimum distance `d ≥ δ·n` ([`RaaLevelConfig::distance`], default
//! [`DEFAULT_DISTANCE`] `= 0.19` at rate ¼: the distance that Blaze proves for random
//! permutations with high probability, eprint 2024/1609, the RAA distance analysis; notes/pcs.md
//! §3). The bound is a property of the permutations fixed by the seed, taken as an assumption
//! of the report: it holds with high probability over the choice of seed at large block
//! lengths, and no efficient test certifies it for a given seed. Let `e = ⌊(d − 1)/3⌋`.
//!
//! * **fold** (proximity gap of the tensor fold by the `k_0` sumcheck challenges): if the
//!   committed `2^k_0`-interleaved word is `e`-far from the interleaved code, its fold
//!   `X·⊗_t(1 − r_t, r_t)` is `e`-close to the code with probability at most
//!   `2·k_0·e/|F|` — Diamond–Posen, *Proximity Testing with Logarithmic Randomness*, eprint
//!   2023/630, Thm 2, which holds for **every** linear code and `e < d/3` (the analogue of
//!   the Ligero lemma of Ames–Hazay–Ishai–Venkitasubramaniam, CCS 2017, for tensor
//!   combinations). The report charges `2·k_0·(e + 1)/|F| ≤ 2·k_0·(δn/3 + 1)/|F|` (one extra
//!   unit of slack), plus the grinding bits before each fold challenge. (The statement
//!   `Pr > 2·log m·e/q ⇒ e-close` for `e < d/3` was checked against a published restatement
//!   of the theorem; the later improvement to `log m·(e + 1)/q`, eprint 2024/1351, would
//!   gain one bit here, where the term is not the binding one.)
//! * **query** (Ligero's column test, here a row test): if the word is `e`-far, its fold is
//!   `e`-far from the code (outside the fold event) and differs from the encoding of the
//!   claimed next message in more than `e` positions; if it is `e`-close, it decodes uniquely
//!   and a wrong next message differs from the fold in at least `d − e > e` positions. Either
//!   way a uniform query catches the prover with probability at least `(e + 1)/n ≥ δ/3`:
//!   error `(1 − δ/3)^Q_0` (distinct queries only do better), plus the query grinding bits.
//!   `δ = 0.19` gives `−log2(1 − 0.19/3) = 0.0944` bits per query, `Q_0 = 1060` for 100 bits
//!   (notes/pcs.md §3: the paper's 1059 column openings).
//! * **glue**: the `Q_0 + s_1` new claims on the next message (`s_1` out-of-domain samples of
//!   level 1) are combined with powers of one challenge: `(Q_0 + s_1)/|F|`.
//!
//! **Levels ≥ 1** are Ligerito's Reed–Solomon levels and use its terms (query, fold,
//! out-of-domain, glue; [`crate::ligerito::config`], [`crate::security`]) for the message of
//! `ℓ − k_0` variables.
//!
//! **Protocol-wide:** batching of the claims `1/|F|`, sumcheck `2/|F|` per round (`ℓ`
//! rounds).
//!
//! [`SecurityReport::bits`] is the weakest term (the protocol is round-by-round sound with
//! these errors; Canetti et al., STOC 2019), [`SecurityReport::union_bits`] the union bound.

use crate::ligerito::{self, LigeritoConfig};
pub use crate::ligerito::{LevelConfig, Preset};
use crate::multilevel::Schedule;
pub use crate::security::{Regime, SecurityReport, Term};

/// The assumed relative distance of the rate-¼ RAA code (eprint 2024/1609: `≈ 0.19` with
/// high probability over the permutations).
pub const DEFAULT_DISTANCE: f64 = 0.19;
/// Variables folded by level 0 by default: rows of 16 elements (256 bytes for GF(2^128)).
///
/// The level-0 proof is about `Q_0·(2^k_0·|F| + Merkle path)` while the verifier's dense
/// `RAAᵀ` pass costs `O(2^(ℓ − k_0 + 2))`. Measured at `ℓ = 21` (GF(2^128), SHA-256, the
/// default Reed–Solomon tail): proofs of 588 / 682 / 910 / 1412 KB for `k_0 = 3 … 6`.
/// `k_0 = 4` stays near the small end with the verifier pass at `2^(ℓ−2)` additions.
pub const DEFAULT_LOG_COLS: usize = 4;
/// The seed of the default permutations (any public constant works; changing it changes the
/// code, hence every commitment).
pub const DEFAULT_SEED: [u8; 32] = *b"flockwork/blaze/raa-level-0/v1..";
/// Largest supported grinding (the transcript's limit).
const MAX_POW_BITS: u32 = 32;
/// Variables left for the clear final message, at most (as Ligerito).
const FINAL_LOG_LEN: usize = 5;
/// The RAA block length must index rows with `u32`.
const MAX_RAA_BLOCK_LOG: usize = 31;

/// Level 0: the interleaved RAA code.
#[derive(Clone, Debug, PartialEq)]
pub struct RaaLevelConfig {
    /// `k_0`: variables folded at level 0 (the message matrix has `2^k_0` columns).
    pub log_cols: usize,
    /// `R`: repetition `2^R`, rate `2^−R` (2 for the paper's rate ¼).
    pub log_inv_rate: usize,
    /// `Q_0`: distinct codeword rows opened (capped at the block length).
    pub num_queries: usize,
    /// Grinding before each of the `k_0` fold challenges.
    pub fold_pow_bits: u32,
    /// Grinding before the query indices are drawn.
    pub query_pow_bits: u32,
    /// `δ`: the assumed relative minimum distance of the code.
    pub distance: f64,
    /// The seed of the permutations `π1, π2` (public parameter, never part of a proof).
    pub seed: [u8; 32],
}

/// The full Blaze-style schedule for polynomials in `num_vars` variables.
#[derive(Clone, Debug, PartialEq)]
pub struct BlazeConfig {
    /// `ℓ`: variables of the committed polynomial.
    pub num_vars: usize,
    /// Level 0.
    pub raa: RaaLevelConfig,
    /// The Reed–Solomon levels `1, 2, …` (possibly none: then the level-0 fold is sent in
    /// clear).
    pub levels: Vec<LevelConfig>,
    /// The regime of the Reed–Solomon levels.
    pub regime: Regime,
    /// `b = log2 |F|` of the field the bounds are computed for.
    pub field_bits: u32,
}

/// Choices of [`BlazeConfig::select`]; [`Default`] is the documented default profile.
#[derive(Clone, Debug, PartialEq)]
pub struct BlazeOptions {
    /// `k_0` (capped at `ℓ`).
    pub log_cols: usize,
    /// The assumed relative distance `δ` of the RAA code.
    pub distance: f64,
    /// The permutation seed.
    pub seed: [u8; 32],
    /// Query grinding at level 0 (each bit saves about 10.6 queries at `δ = 0.19`).
    pub query_pow_bits: u32,
    /// The Ligerito preset of the Reed–Solomon levels.
    pub preset: Preset,
    /// The regime of the Reed–Solomon levels.
    pub regime: Regime,
}

impl Default for BlazeOptions {
    /// `k_0 = 4`, `δ = 0.19`, [`DEFAULT_SEED`], no level-0 grinding; Reed–Solomon levels of
    /// Ligerito's slim preset in the Johnson regime (`η = 0.02`): the tail is small next to
    /// level 0 (at `ℓ = 21` it is ≈ 80 KB of a 682 KB proof, against ≈ 250 KB with the fast
    /// preset in unique decoding), so it is tuned for size.
    fn default() -> Self {
        Self {
            log_cols: DEFAULT_LOG_COLS,
            distance: DEFAULT_DISTANCE,
            seed: DEFAULT_SEED,
            query_pow_bits: 0,
            preset: Preset::Slim,
            regime: Regime::Johnson {
                eta: crate::ligerito::DEFAULT_ETA,
            },
        }
    }
}

/// Why a configuration is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The levels fold more variables than the polynomial has.
    TooManyFoldedVars,
    /// A rate of zero, a Reed–Solomon domain larger than the field, or an RAA block length
    /// beyond `2^31` rows.
    BadRate,
    /// A level needs at least one query.
    NoQueries,
    /// Grinding of more than 32 bits.
    TooMuchGrinding,
    /// The assumed distance must satisfy `0 < δ < 1`.
    BadDistance,
    /// The Johnson slack of the Reed–Solomon levels is invalid.
    BadEta,
}

crate::multilevel::error_via_debug!(ConfigError);

impl From<ligerito::ConfigError> for ConfigError {
    fn from(e: ligerito::ConfigError) -> Self {
        match e {
            ligerito::ConfigError::TooManyFoldedVars => Self::TooManyFoldedVars,
            ligerito::ConfigError::NoLevels | ligerito::ConfigError::BadRate => Self::BadRate,
            ligerito::ConfigError::NoQueries => Self::NoQueries,
            ligerito::ConfigError::TooMuchGrinding => Self::TooMuchGrinding,
            ligerito::ConfigError::BadEta => Self::BadEta,
        }
    }
}

/// Bits per level-0 query: `−log2(1 − δ/3)`.
#[must_use]
pub fn raa_query_error_bits(distance: f64) -> f64 {
    -(1.0 - distance / 3.0).log2()
}

/// Bits of the level-0 fold term before grinding: `b − log2(2·k_0·(δn/3 + 1))` for a block
/// of `2^block_log` rows (Diamond–Posen, eprint 2023/630, Thm 2, with one unit of slack).
#[must_use]
pub fn raa_fold_error_bits(
    log_cols: usize,
    distance: f64,
    block_log: usize,
    field_bits: u32,
) -> f64 {
    let n = (block_log as f64).exp2();
    let e = distance * n / 3.0 + 1.0;
    f64::from(field_bits) - (2.0 * log_cols.max(1) as f64 * e).log2()
}

impl BlazeConfig {
    /// The parameter selector: level 0 folds `k_0 = min(options.log_cols, ℓ)` variables with
    /// the rate-¼ RAA code, `Q_0 = ⌈(target − query PoW)/−log2(1 − δ/3)⌉` queries and fold
    /// grinding if the fold term needs it; the remaining `ℓ − k_0` variables follow
    /// [`LigeritoConfig::select`] (none if at most 5 remain: the fold is then sent in clear).
    /// Every term of [`BlazeConfig::security_report`] reaches `target_bits`.
    ///
    /// # Errors
    /// [`ConfigError::BadDistance`] for `δ ∉ (0, 1)`, [`ConfigError::TooMuchGrinding`] if a
    /// fold term needs more than 32 bits of grinding, [`ConfigError::BadRate`] for an RAA
    /// block beyond `2^31` rows, and the errors of the Reed–Solomon levels.
    pub fn select(
        num_vars: usize,
        target_bits: u32,
        field_bits: u32,
        options: &BlazeOptions,
    ) -> Result<Self, ConfigError> {
        if !(options.distance > 0.0 && options.distance < 1.0) {
            return Err(ConfigError::BadDistance);
        }
        let log_cols = options.log_cols.min(num_vars);
        let log_inv_rate = flockwork_codes::raa::DEFAULT_LOG_INV_RATE;
        let rows_log = num_vars - log_cols;
        let block_log = rows_log + log_inv_rate;
        if block_log > MAX_RAA_BLOCK_LOG {
            return Err(ConfigError::BadRate);
        }
        let target = f64::from(target_bits);
        let per_query = raa_query_error_bits(options.distance);
        let needed = ((target - f64::from(options.query_pow_bits)).max(0.0) / per_query).ceil();
        let num_queries = (needed as usize).clamp(1, 1 << block_log);
        let fold = raa_fold_error_bits(log_cols, options.distance, block_log, field_bits);
        let fold_pow_bits = if log_cols == 0 {
            0
        } else {
            (target - fold).ceil().max(0.0) as u32
        };
        if fold_pow_bits > MAX_POW_BITS {
            return Err(ConfigError::TooMuchGrinding);
        }
        let levels = if rows_log > FINAL_LOG_LEN {
            LigeritoConfig::select(
                rows_log,
                target_bits,
                options.preset,
                options.regime,
                field_bits,
            )?
            .levels
        } else {
            Vec::new()
        };
        let config = Self {
            num_vars,
            raa: RaaLevelConfig {
                log_cols,
                log_inv_rate,
                num_queries,
                fold_pow_bits,
                query_pow_bits: options.query_pow_bits,
                distance: options.distance,
                seed: options.seed,
            },
            levels,
            regime: options.regime,
            field_bits,
        };
        config.validate()?;
        Ok(config)
    }

    /// The Reed–Solomon levels as a Ligerito schedule for the `ℓ − k_0` variables of the
    /// level-0 fold (`None` without Reed–Solomon levels).
    #[must_use]
    pub fn rs_config(&self) -> Option<LigeritoConfig> {
        (!self.levels.is_empty()).then(|| LigeritoConfig {
            num_vars: self.num_vars.saturating_sub(self.raa.log_cols),
            levels: self.levels.clone(),
            regime: self.regime,
            field_bits: self.field_bits,
        })
    }

    /// Checks the schedule.
    ///
    /// # Errors
    /// The first violated rule as a [`ConfigError`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        let raa = &self.raa;
        if raa.log_cols > self.num_vars {
            return Err(ConfigError::TooManyFoldedVars);
        }
        if !(raa.distance > 0.0 && raa.distance < 1.0) {
            return Err(ConfigError::BadDistance);
        }
        if raa.log_inv_rate == 0 || self.level_block_log(0) > MAX_RAA_BLOCK_LOG {
            return Err(ConfigError::BadRate);
        }
        if raa.num_queries == 0 {
            return Err(ConfigError::NoQueries);
        }
        if raa.fold_pow_bits > MAX_POW_BITS || raa.query_pow_bits > MAX_POW_BITS {
            return Err(ConfigError::TooMuchGrinding);
        }
        if let Some(rs) = self.rs_config() {
            rs.validate()?;
        }
        Ok(())
    }

    /// The security report, term by term (conditional on the RAA distance assumption, see the
    /// [module docs](self)).
    ///
    /// # Panics
    /// If the configuration does not [`validate`](Self::validate).
    #[must_use]
    pub fn security_report(&self) -> SecurityReport {
        self.validate().expect("invalid Blaze configuration");
        let b = f64::from(self.field_bits);
        let raa = &self.raa;
        let mut terms = vec![
            Term::new("batch claims", None, b),
            Term::new(
                "sumcheck rounds",
                None,
                b - (2.0 * self.num_vars.max(1) as f64).log2(),
            ),
        ];
        let block_log = self.level_block_log(0);
        if raa.log_cols > 0 {
            let fold = raa_fold_error_bits(raa.log_cols, raa.distance, block_log, self.field_bits);
            terms.push(Term::new(
                "fold",
                Some(0),
                fold + f64::from(raa.fold_pow_bits),
            ));
        }
        let queries = self.effective_queries(0);
        let query_bits = if queries >= 1usize << block_log {
            f64::INFINITY
        } else {
            queries as f64 * raa_query_error_bits(raa.distance) + f64::from(raa.query_pow_bits)
        };
        terms.push(Term::new("query", Some(0), query_bits));
        let next_ood = self.levels.first().map_or(0, |l| l.ood_samples);
        terms.push(Term::new(
            "glue",
            Some(0),
            b - ((queries + next_ood).max(1) as f64).log2(),
        ));
        if let Some(rs) = self.rs_config() {
            for term in rs.security_report().terms {
                if let Some(level) = term.level {
                    terms.push(Term::new(term.name, Some(level + 1), term.bits));
                }
            }
        }
        SecurityReport { terms }
    }
}

impl Schedule for BlazeConfig {
    fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The number of committed levels (RAA level 0 and the Reed–Solomon levels).
    fn num_levels(&self) -> usize {
        1 + self.levels.len()
    }

    /// Level `i` in Ligerito's shape (level 0 has no out-of-domain samples: unique decoding).
    fn level(&self, i: usize) -> LevelConfig {
        if i == 0 {
            LevelConfig {
                log_cols: self.raa.log_cols,
                log_inv_rate: self.raa.log_inv_rate,
                num_queries: self.raa.num_queries,
                fold_pow_bits: self.raa.fold_pow_bits,
                query_pow_bits: self.raa.query_pow_bits,
                ood_samples: 0,
            }
        } else {
            self.levels[i - 1].clone()
        }
    }
}
