//! Soundness accounting shared by the commitments: the proximity regimes, the per-query and
//! per-fold error formulas, and the term-by-term [`SecurityReport`].
//!
//! ## Formulas (field `F` with `|F| = 2^b`, code of rate `ρ = 2^−R`, block length `n`)
//!
//! * **query** (one spot check of a committed oracle): unique decoding `(1 + ρ)/2` per
//!   query (the distance to the code is at least `δ/2` with `δ = 1 − ρ`); Johnson list
//!   decoding with slack `η`: `√ρ + η` per query.
//! * **fold** (proximity gap of a random combination of `2^k` interleaved words,
//!   Ben-Sasson–Carmon–Haböck–Kopparty–Saraf 2025, "BCHKS25"): unique decoding
//!   `k·(γn + 1)/|F|` with `γ = δ/2 − 3/(δn)` (Cor. 1.4, one line per folded variable);
//!   Johnson `a·2^(k−1)/|F|` with
//!   `a = [2(m + ½)^5 + 3(m + ½)γρ]/(3ρ^{3/2})·n + (m + ½)/√ρ`, `m = max(⌈√ρ/(2η)⌉, 3)`,
//!   `γ = 1 − √ρ − η` (Thm 4.6).
//!
//! The protocols are round-by-round sound with per-round errors like these, so their
//! Fiat–Shamir transforms have the security of the weakest term (Canetti et al., STOC 2019;
//! Chiesa–Yogev, *Building Cryptographic Proofs from Hash Functions*):
//! [`SecurityReport::bits`]. [`SecurityReport::union_bits`] is the plain union bound.

use core::fmt;

/// The proximity regime the query counts are computed for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Regime {
    /// Unique decoding radius: no out-of-domain samples.
    UniqueDecoding,
    /// Johnson list decoding with slack `eta` (`0 < η < 1 − √ρ`): fewer queries, one
    /// out-of-domain sample per committed level.
    Johnson {
        /// The slack `η` below the Johnson radius `1 − √ρ`.
        eta: f64,
    },
}

/// `√ρ` for `ρ = 2^−R`.
pub(crate) fn rate_sqrt(log_inv_rate: usize) -> f64 {
    (-(log_inv_rate as f64) / 2.0).exp2()
}

/// Bits per query: `−log2((1 + ρ)/2)` or `−log2(√ρ + η)`; `None` for a slack outside
/// `0 < η < 1 − √ρ`.
#[must_use]
pub fn query_error_bits(regime: Regime, log_inv_rate: usize) -> Option<f64> {
    let rho = (-(log_inv_rate as f64)).exp2();
    match regime {
        Regime::UniqueDecoding => Some(-((1.0 + rho) / 2.0).log2()),
        Regime::Johnson { eta } => {
            let p = rate_sqrt(log_inv_rate) + eta;
            if eta <= 0.0 || p >= 1.0 {
                return None;
            }
            Some(-p.log2())
        }
    }
}

/// Bits of the fold (proximity-gap) term before grinding, `−log2 ε` for a field of
/// `field_bits` bits: `log_cols` variables folded at once over a code of rate `2^−R` and
/// block length `2^block_log`; `None` for a bad slack.
#[must_use]
pub fn fold_error_bits(
    regime: Regime,
    log_cols: usize,
    log_inv_rate: usize,
    block_log: usize,
    field_bits: u32,
) -> Option<f64> {
    let n = (block_log as f64).exp2();
    let rho = (-(log_inv_rate as f64)).exp2();
    let sqrt_rho = rate_sqrt(log_inv_rate);
    let log_err = match regime {
        Regime::UniqueDecoding => {
            let delta = 1.0 - rho;
            let gamma = (delta / 2.0 - 3.0 / (delta * n)).max(0.0);
            (log_cols.max(1) as f64).log2() + (gamma * n + 1.0).log2()
        }
        Regime::Johnson { eta } => {
            query_error_bits(regime, log_inv_rate)?;
            let m = (sqrt_rho / (2.0 * eta)).ceil().max(3.0) + 0.5;
            let gamma = 1.0 - sqrt_rho - eta;
            let a = (2.0 * m.powi(5) + 3.0 * m * gamma * rho) / (3.0 * rho * sqrt_rho) * n
                + m / sqrt_rho;
            a.log2() + (log_cols.max(1) as f64 - 1.0)
        }
    };
    Some(f64::from(field_bits) - log_err)
}

/// One soundness term of a [`SecurityReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// What the term bounds.
    pub name: &'static str,
    /// The level it belongs to (`None` for protocol-wide terms).
    pub level: Option<usize>,
    /// `−log2` of the error (grinding included); `+∞` when the error is zero.
    pub bits: f64,
}

impl Term {
    /// A term `name` (of `level`, if any) worth `bits`.
    #[must_use]
    pub fn new(name: &'static str, level: Option<usize>, bits: f64) -> Self {
        Self { name, level, bits }
    }
}

/// The achieved soundness of a configuration, term by term.
#[derive(Clone, Debug, PartialEq)]
pub struct SecurityReport {
    /// Every term, protocol-wide ones first, then level by level.
    pub terms: Vec<Term>,
}

impl SecurityReport {
    /// The security level: the weakest term (round-by-round soundness).
    #[must_use]
    pub fn bits(&self) -> f64 {
        self.terms
            .iter()
            .map(|t| t.bits)
            .fold(f64::INFINITY, f64::min)
    }

    /// `−log2 Σ_t 2^(−bits_t)`: the plain union bound over all terms.
    #[must_use]
    pub fn union_bits(&self) -> f64 {
        flockwork_core::soundness::union_bits(self.terms.iter().map(|t| t.bits))
    }
}

impl fmt::Display for SecurityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.terms {
            match t.level {
                Some(l) => writeln!(f, "  level {l} {:<14} {:>7.1} bits", t.name, t.bits)?,
                None => writeln!(f, "  {:<22} {:>7.1} bits", t.name, t.bits)?,
            }
        }
        writeln!(
            f,
            "  security (weakest term) {:.1} bits, union bound {:.1} bits",
            self.bits(),
            self.union_bits()
        )
    }
}

/// A commitment whose parameters were selected for a size and a security target, and that
/// reports what it achieves: what a protocol needs to take any commitment as a parameter
/// (the batch-R1CS prover, the comparison tools).
pub trait ConfiguredCommitment<F: flockwork_field::Field>:
    flockwork_core::PolynomialCommitment<F, Evals = [F]> + Send + Sync
{
    /// A short name for reports and for the instance bytes of protocols that open it
    /// ("ligerito", "fri", …); a value's answer, so that an enum over schemes
    /// ([`crate::Commitment`]) names the scheme it holds.
    fn name(&self) -> &'static str;

    /// The soundness of this configuration, term by term.
    fn security_report(&self) -> SecurityReport;

    /// A description of every parameter the verifier must agree with (shape, rates, query
    /// counts, grinding, seeds): protocols hash it into a setup digest that proofs carry, so a
    /// proof for other parameters is refused with a specific error. A fixed encoding
    /// ([`crate::params`]: the scheme's tag, then each parameter as a little-endian `u64`
    /// in a documented order), stable within a proof format version.
    fn parameter_bytes(&self) -> Vec<u8>;

    /// The committed codeword's size over the polynomial's (the inverse rate of the first
    /// committed code): what the commitment adds to a prover's memory per committed byte.
    fn codeword_expansion(&self) -> f64;
}

/// The bits of the term `name` at `level` of `report` (tests of the reports).
///
/// # Panics
/// If the report has no such term.
#[cfg(test)]
pub(crate) fn term(report: &SecurityReport, name: &str, level: usize) -> f64 {
    report
        .terms
        .iter()
        .find(|t| t.name == name && t.level == Some(level))
        .map(|t| t.bits)
        .unwrap()
}
