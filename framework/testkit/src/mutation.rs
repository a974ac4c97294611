//! Mutation testing of proofs: a verifier is a parser of hostile input.
//!
//! [`check_mutations`] takes an honest proof and a verifier closure and checks that
//!
//! * every single-byte change — all 255 other values at every position when that is at most
//!   [`MutationBudget::exhaustive_limit`] verifications, a seeded random sample otherwise —
//! * every truncation (all lengths, or a sample for long proofs), and
//! * appended bytes
//!
//! are rejected, and that the verifier never panics. It returns the counts and writes them to
//! the process's standard error as one line, past the test harness's output capture, so every
//! `cargo test` log shows how many mutations each proof system's sweep tried.
//!
//! # The cap
//!
//! A suite states the budget a thorough sweep of its proofs takes (its *full* budget:
//! hundreds of thousands of verifications for some). The environment variable
//! [`MUTATIONS_ENV`] (`FLOCKWORK_MUTATIONS`) caps what a run spends:
//!
//! | value | byte changes, and truncations, per proof |
//! |---|---|
//! | unset (`cargo test`, CI) | at most [`DEFAULT_CAP`] each: every proof system is still swept |
//! | a number `N` | at most `N` each |
//! | `full` | the suite's own budget, uncapped |
//!
//! A capped sweep draws from the same seeded stream (where the full sweep samples too, the
//! capped byte changes are the first ones of its sample), so a failure reproduces under the
//! same value. The full sweep of every suite is
//! `FLOCKWORK_MUTATIONS=full cargo test --workspace -- mutation` (the book's security chapter
//! gives its counts and time).

use std::fmt::Debug;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::{Rng, SeedableRng};

/// How many verifications a mutation run may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MutationBudget {
    /// Single-byte changes are exhaustive when `255 · len` is at most this; otherwise this
    /// many random `(position, value)` changes are tried.
    pub exhaustive_limit: usize,
    /// Truncations are exhaustive when the proof has at most this many bytes; otherwise this
    /// many random lengths (plus 0 and `len − 1`) are tried.
    pub truncation_limit: usize,
    /// Seed of the random sample.
    pub seed: u64,
}

impl Default for MutationBudget {
    fn default() -> Self {
        Self {
            exhaustive_limit: 200_000,
            truncation_limit: 4096,
            seed: 0x6d75_7461_7465,
        }
    }
}

/// The environment variable that caps the mutations a sweep tries per proof (module docs).
pub const MUTATIONS_ENV: &str = "FLOCKWORK_MUTATIONS";

/// Byte changes, and truncations, per proof when [`MUTATIONS_ENV`] is unset.
pub const DEFAULT_CAP: usize = 2_000;

/// The cap [`MUTATIONS_ENV`] sets: `None` for `full`.
///
/// # Panics
/// If the variable holds neither `full` nor a number (a typo must not silently run the
/// default).
#[must_use]
pub fn cap_from_env() -> Option<usize> {
    match std::env::var(MUTATIONS_ENV) {
        Err(std::env::VarError::NotPresent) => Some(DEFAULT_CAP),
        Ok(value) if value.trim() == "full" => None,
        Ok(value) => Some(value.trim().parse().unwrap_or_else(|_| {
            panic!("{MUTATIONS_ENV} must be `full` or a number of mutations, not {value:?}")
        })),
        Err(e) => panic!("{MUTATIONS_ENV}: {e}"),
    }
}

impl MutationBudget {
    /// This budget with both counts limited to `cap` (`None`: unchanged).
    #[must_use]
    pub fn capped(self, cap: Option<usize>) -> Self {
        match cap {
            None => self,
            Some(cap) => Self {
                exhaustive_limit: self.exhaustive_limit.min(cap),
                truncation_limit: self.truncation_limit.min(cap),
                ..self
            },
        }
    }

    /// Whether the single-byte changes of a `len`-byte proof are exhaustive under this
    /// budget.
    #[must_use]
    pub fn is_exhaustive_for(&self, len: usize) -> bool {
        len.saturating_mul(255) <= self.exhaustive_limit
    }
}

/// What a mutation run tried; every mutation was rejected (the run panics otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MutationReport {
    /// Single-byte changes tried.
    pub byte_changes: usize,
    /// Whether the byte changes covered every position and value.
    pub exhaustive: bool,
    /// Truncations tried.
    pub truncations: usize,
    /// Proofs with appended bytes tried.
    pub extensions: usize,
}

impl MutationReport {
    /// All mutations tried (and rejected).
    #[must_use]
    pub fn total(&self) -> usize {
        self.byte_changes + self.truncations + self.extensions
    }
}

impl core::fmt::Display for MutationReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} mutations tried, {} rejected, 0 panicked ({} byte changes{}, {} truncations, {} extensions)",
            self.total(),
            self.total(),
            self.byte_changes,
            if self.exhaustive {
                ", exhaustive"
            } else {
                ", sampled"
            },
            self.truncations,
            self.extensions
        )
    }
}

/// Runs the mutation checks described in the [module docs](self) within `budget` capped by
/// [`MUTATIONS_ENV`], and writes the counts to standard error (uncaptured) as
/// `mutation sweep <name> (<len> proof bytes, cap <N> | full budget): …`.
///
/// # Panics
/// If the honest proof is rejected, if any mutation is accepted, or if the verifier panics,
/// naming the mutation; if [`MUTATIONS_ENV`] is malformed.
pub fn check_mutations<E: Debug>(
    name: &str,
    proof: &[u8],
    budget: MutationBudget,
    verify: impl Fn(&[u8]) -> Result<(), E>,
) -> MutationReport {
    let cap = cap_from_env();
    let report = sweep(name, proof, budget.capped(cap), verify);
    let limit = match cap {
        Some(cap) => format!("cap {cap}"),
        None => "full budget".to_owned(),
    };
    // One write of the whole line to the handle itself: libtest captures `print!` and
    // `eprint!`, not writes to `std::io::stderr()`, so the line shows in every log.
    let line = format!(
        "mutation sweep {name} ({} proof bytes, {limit}): {report}\n",
        proof.len()
    );
    // A log line that cannot be written is no test failure.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    report
}

/// [`check_mutations`] within exactly `budget`.
fn sweep<E: Debug>(
    name: &str,
    proof: &[u8],
    budget: MutationBudget,
    verify: impl Fn(&[u8]) -> Result<(), E>,
) -> MutationReport {
    let run = |label: &dyn Fn() -> String, bytes: &[u8]| -> Result<(), E> {
        catch_unwind(AssertUnwindSafe(|| verify(bytes)))
            .unwrap_or_else(|_| panic!("{name}: the verifier panicked on {}", label()))
    };
    if let Err(e) = run(&|| "the honest proof".into(), proof) {
        panic!("{name}: honest proof rejected: {e:?}");
    }
    let reject = |label: &dyn Fn() -> String, bytes: &[u8]| {
        assert!(run(label, bytes).is_err(), "{name}: accepted {}", label());
    };
    let mut report = MutationReport::default();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(budget.seed);
    let mut mutated = proof.to_vec();

    let exhaustive = budget.is_exhaustive_for(proof.len());
    report.exhaustive = exhaustive;
    let mut change = |position: usize, value: u8| {
        let original = mutated[position];
        mutated[position] = value;
        reject(
            &|| format!("byte {position} changed {original:#04x} -> {value:#04x}"),
            &mutated,
        );
        mutated[position] = original;
    };
    if exhaustive {
        for (position, &byte) in proof.iter().enumerate() {
            for delta in 1..=255u8 {
                change(position, byte ^ delta);
                report.byte_changes += 1;
            }
        }
    } else if !proof.is_empty() {
        for _ in 0..budget.exhaustive_limit {
            let position = rng.random_range(0..proof.len());
            let delta = rng.random_range(1..=255u8);
            change(position, proof[position] ^ delta);
            report.byte_changes += 1;
        }
    }

    let lengths: Vec<usize> = if proof.len() <= budget.truncation_limit {
        (0..proof.len()).collect()
    } else {
        let mut lengths: Vec<usize> = (0..budget.truncation_limit)
            .map(|_| rng.random_range(0..proof.len()))
            .collect();
        lengths.extend([0, proof.len() - 1]);
        lengths
    };
    for len in lengths {
        reject(&|| format!("truncation to {len} bytes"), &proof[..len]);
        report.truncations += 1;
    }

    for suffix in [&[0u8][..], &[0xff], &[0; 16], &[0xa5; 64]] {
        let mut long = proof.to_vec();
        long.extend_from_slice(suffix);
        reject(&|| format!("{} appended bytes", suffix.len()), &long);
        report.extensions += 1;
    }
    report
}
