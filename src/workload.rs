//! Timed, verified protocol runs: what the `flockwork` tool, the examples and the book run.
//!
//! A workload builds a statement of a chosen size from a seed, proves it, verifies the proof
//! and reports the costs together with the computed soundness. A run whose proof fails to
//! verify is an error, never a report.

use std::time::{Duration, Instant};

use digest::Digest;
use flockwork_core::{MultilinearPoly, VerifyError, eq_table, prove, soundness_bits, verify};
use flockwork_field::Field;
use flockwork_transcript::{
    DomainSeparator, HashProverTranscript, HashVerifierTranscript, ProverTranscript, Transcript,
    TranscriptError, VerifierTranscript,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Why a workload did not produce a report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkloadError {
    /// The parameters describe no statement.
    #[error("invalid parameters: {0}")]
    InvalidParameters(String),
    /// The tables would not fit in the memory budget.
    #[error(
        "the statement needs about {needed_mib} MiB of tables, more than the {budget_mib} MiB \
         budget; lower --vars or --degree"
    )]
    TooLarge {
        /// Estimated memory need.
        needed_mib: u64,
        /// The budget.
        budget_mib: u64,
    },
    /// A tool-level failure with its own message (unreadable files, rejected proof files,
    /// failed worker processes).
    #[error("{0}")]
    Failed(String),
    /// The verifier rejected the honest proof: a bug, reported rather than hidden.
    #[error("the verifier rejected the proof: {0}")]
    Rejected(#[from] VerifyError),
    /// A final evaluation the verifier accepted is not the polynomial's value: a bug.
    #[error("final evaluation of factor {factor} does not match the polynomial")]
    OracleMismatch {
        /// Index of the factor.
        factor: usize,
    },
}

impl From<TranscriptError> for WorkloadError {
    fn from(e: TranscriptError) -> Self {
        Self::Rejected(e.into())
    }
}

/// The median of `times` (the upper one of the middle two for an even count).
pub(crate) fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// Refuses zero measured runs.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for `reps == 0`.
pub(crate) fn check_reps(reps: usize) -> Result<(), WorkloadError> {
    if reps == 0 {
        return Err(WorkloadError::InvalidParameters(
            "at least one measured run (reps ≥ 1)".into(),
        ));
    }
    Ok(())
}

/// What one run of [`measure`] returns: its output, its prover time and its verifier time.
pub(crate) type Timed<T> = (T, Duration, Duration);

/// The measured runs of one statement ([`measure`]).
pub(crate) struct Measured<T> {
    /// What the best run (least prover time) produced.
    pub(crate) best: T,
    /// The best run's prover time.
    pub(crate) prove: Duration,
    /// The median prover time over the measured runs ([`median`]).
    pub(crate) prove_median: Duration,
    /// The least verifier time over the measured runs.
    pub(crate) verify: Duration,
}

/// Runs `once` `reps` times (at least once) and keeps the run with the least prover time.
/// With more than one run, one warm-up run comes first and is not counted; `once` proves and
/// verifies afresh each time, the warm-up included.
///
/// # Errors
/// The first error `once` returns.
pub(crate) fn measure<T, E>(
    reps: usize,
    mut once: impl FnMut() -> Result<Timed<T>, E>,
) -> Result<Measured<T>, E> {
    let reps = reps.max(1);
    if reps > 1 {
        once()?;
    }
    let mut proves = Vec::with_capacity(reps);
    let mut best: Option<(T, Duration)> = None;
    let mut verify = Duration::MAX;
    for _ in 0..reps {
        let (output, prove, verified) = once()?;
        proves.push(prove);
        verify = verify.min(verified);
        if best.as_ref().is_none_or(|(_, least)| prove < *least) {
            best = Some((output, prove));
        }
    }
    let (best, prove) = best.expect("at least one measured run");
    Ok(Measured {
        best,
        prove,
        prove_median: median(&mut proves),
        verify,
    })
}

/// A sumcheck statement `Σ_x [eq(r, x)·] Π_{j<degree} P_j(x) = claim` over random
/// multilinear `P_j` in `num_vars` variables.
///
/// Protocol (one transcript): the prover sends the claim; both sides squeeze the eq point
/// `r`; the sumcheck runs; the prover sends the final evaluations `P_j(ρ)`; the verifier
/// checks them against the reduced claim. The workload then checks the final evaluations
/// against the polynomials themselves, the job a polynomial commitment does in a full
/// protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumcheckWorkload {
    /// Number of variables `n`.
    pub num_vars: usize,
    /// Number of multilinear factors `d ≥ 1`.
    pub degree: usize,
    /// Weight the sum by `eq(r, x)` (a zerocheck-style statement).
    pub with_eq: bool,
    /// Seed of the random polynomials.
    pub seed: u64,
}

/// Costs and soundness of one [`SumcheckWorkload`] run.
#[derive(Clone, Debug, PartialEq)]
pub struct SumcheckReport {
    /// The statement that was run.
    pub workload: SumcheckWorkload,
    /// Time to build the random tables and compute the claim (not part of proving).
    pub setup: Duration,
    /// Prover time (rounds and final evaluations).
    pub prove: Duration,
    /// Verifier time (transcript replay, round checks, final check).
    pub verify: Duration,
    /// Proof size in bytes.
    pub proof_bytes: usize,
    /// Soundness of the sumcheck in bits ([`soundness_bits`]).
    pub soundness_bits: u32,
}

impl SumcheckWorkload {
    /// Memory budget for the tables (16 GiB: the development machine has 24 GiB).
    pub const MEMORY_BUDGET_MIB: u64 = 16 * 1024;

    /// Estimated peak memory of the prover's tables in MiB.
    #[must_use]
    pub fn table_mib<F: Field>(&self) -> u64 {
        // d tables of 2^n elements plus their first fold (half size) and the eq tables.
        let elements = (self.degree as u128 * 3 / 2 + 1) << self.num_vars.min(100);
        u64::try_from((elements * F::NUM_BYTES as u128) >> 20).unwrap_or(u64::MAX)
    }

    fn check<F: Field>(&self) -> Result<(), WorkloadError> {
        if self.degree == 0 {
            return Err(WorkloadError::InvalidParameters(
                "the degree (number of factors) must be at least 1".into(),
            ));
        }
        if self.num_vars > 40 {
            return Err(WorkloadError::InvalidParameters(format!(
                "{} variables is beyond any machine; use at most 40",
                self.num_vars
            )));
        }
        let needed_mib = self.table_mib::<F>();
        if needed_mib > Self::MEMORY_BUDGET_MIB {
            return Err(WorkloadError::TooLarge {
                needed_mib,
                budget_mib: Self::MEMORY_BUDGET_MIB,
            });
        }
        Ok(())
    }

    fn domain(&self) -> [u8; 24] {
        let mut instance = [0u8; 24];
        instance[..8].copy_from_slice(&(self.num_vars as u64).to_le_bytes());
        instance[8..16].copy_from_slice(&(self.degree as u64).to_le_bytes());
        instance[16] = u8::from(self.with_eq);
        instance
    }

    /// Builds, proves and verifies the statement over the field `F` with the transcript hash
    /// `D`.
    ///
    /// # Errors
    /// [`WorkloadError`] for invalid or oversized parameters, or if verification fails.
    pub fn run<F: Field, D: Digest + Clone>(&self) -> Result<SumcheckReport, WorkloadError> {
        self.check::<F>()?;
        let start = Instant::now();
        let polys = self.random_polys::<F>();
        let setup = start.elapsed();

        let instance = self.domain();
        let domain = DomainSeparator::new("flockwork/workload/sumcheck/v1", &instance);

        let start = Instant::now();
        let mut transcript = HashProverTranscript::<D>::new(domain);
        let eq_point = self
            .with_eq
            .then(|| sample_eq_point(&mut transcript, self.num_vars));
        // The claim is part of the statement, not of the proof: its cost counts as setup.
        let claim_start = Instant::now();
        let claim = claimed_sum(&polys, eq_point.as_deref());
        let claim_time = claim_start.elapsed();
        transcript.send_field("workload/claim", &[claim]);
        let output = prove(polys.clone(), eq_point.as_deref(), claim, &mut transcript);
        output.send_final_evals(&mut transcript);
        let proof = transcript.into_proof();
        let prove_time = start.elapsed() - claim_time;

        let start = Instant::now();
        let mut transcript = HashVerifierTranscript::<D>::new(domain, &proof);
        let eq_point = self
            .with_eq
            .then(|| sample_eq_point(&mut transcript, self.num_vars));
        let [claim] = transcript.recv_field::<F>("workload/claim", 1)?[..] else {
            unreachable!("recv_field returns exactly the requested count")
        };
        let reduced = verify(
            self.num_vars,
            self.degree,
            claim,
            eq_point.as_deref(),
            &mut transcript,
        )?;
        let final_evals = reduced.recv_final_evals(&mut transcript)?;
        transcript.finish()?;
        let verify_time = start.elapsed();

        // The job of a commitment opening: the final evaluations are the polynomials' values.
        for (factor, (poly, eval)) in polys.iter().zip(&final_evals).enumerate() {
            if poly.evaluate(&reduced.point) != *eval {
                return Err(WorkloadError::OracleMismatch { factor });
            }
        }

        Ok(SumcheckReport {
            workload: *self,
            setup: setup + claim_time,
            prove: prove_time,
            verify: verify_time,
            proof_bytes: proof.len(),
            soundness_bits: soundness_bits(self.num_vars, self.degree, self.with_eq, F::ORDER_BITS),
        })
    }

    fn random_polys<F: Field>(&self) -> Vec<MultilinearPoly<F>> {
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let mut bytes = vec![0u8; F::UNIFORM_BYTES];
        (0..self.degree)
            .map(|_| {
                let evals = (0..1usize << self.num_vars)
                    .map(|_| {
                        rng.fill_bytes(&mut bytes);
                        F::from_uniform_bytes(&bytes)
                    })
                    .collect();
                MultilinearPoly::new(evals)
            })
            .collect()
    }
}

fn sample_eq_point<F: Field, T: Transcript>(transcript: &mut T, num_vars: usize) -> Vec<F> {
    transcript.challenges("workload/eq-point", num_vars)
}

/// `Σ_x [eq(r, x)·] Π_j P_j(x)`, computed directly.
fn claimed_sum<F: Field>(polys: &[MultilinearPoly<F>], eq_point: Option<&[F]>) -> F {
    let size = polys[0].evals().len();
    let weights = eq_point.map(eq_table);
    (0..size)
        .map(|x| {
            let product: F = polys.iter().map(|p| p.evals()[x]).product();
            weights.as_ref().map_or(product, |w| w[x] * product)
        })
        .sum()
}
