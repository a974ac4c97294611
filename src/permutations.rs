//! Batches of Poseidon2b permutations (t = 4, the official instance over GF(2^128)) proved
//! with the layered GKR engine and verified, against the native permutation on one core.
//!
//! A batch is a list of regions of `2^w_a` permutations each. Any count `N` needs no padding:
//! [`PermutationWorkload::for_count`] splits it into its binary digits,
//! `N = Σ_a 2^{w_a}`, and the ragged batcher proves all regions in one walk at the cost of
//! their native sizes (the padded batcher would pay `A·2^{max w_a}` rows).
//!
//! **What a proof says.** The stated inputs give the stated outputs under the permutation,
//! every instance: the GKR walk starts from the outputs' multilinear extensions at points its
//! transcript draws after absorbing the inputs and the outputs (`flockwork_gkr::statement`).
//! By default the inputs are public, held in the clear in place of a commitment. With a layer-0 commitment ([`PermutationWorkload::pcs`]) the
//! inputs are committed with Ligerito, FRI-Binius or Blaze over GF(2^128) at
//! [`LAYER0_TARGET_BITS`] ([`layer0_commitment`]) and the proof ends with the opening of the walk's terminal claims
//! (`flockwork_gkr::opening`): the verifier needs the commitment, not the inputs.

use std::time::{Duration, Instant};

use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_gkr::statement::evaluate_outputs;
use flockwork_gkr::{Setup, Statement, Variant};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind};
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_transcript::{TranscriptKind, TranscriptScheme};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::workload::{Timed, WorkloadError, check_reps, measure};

/// Lanes of the permutation (the state width `t`).
pub const LANES: usize = 4;
/// Widest region a workload accepts (`2^24` permutations).
pub const MAX_WIDTH: usize = 24;
/// Most regions a workload accepts.
pub const MAX_REGIONS: usize = 64;

/// Regions of Poseidon2b permutations with random inputs from a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationWorkload {
    /// The region widths `w_a` (one to [`MAX_REGIONS`], each at most [`MAX_WIDTH`]).
    pub widths: Vec<usize>,
    /// Seed of the inputs.
    pub seed: u64,
    /// The batcher.
    pub variant: Variant,
    /// The commitment of the input layer, or `None` for inputs held in the clear.
    pub pcs: Option<PcsKind>,
    /// The Fiat–Shamir transcript of the walk (and of the opening).
    pub transcript: TranscriptKind,
}

/// What verified runs measured (the best of the measured runs, least prover time, with the
/// median beside it), with everything a verifier needs.
#[derive(Clone, Debug)]
pub struct PermutationReport {
    /// Rows the prover's tables hold (the padded walk pays `A·2^W`).
    pub physical_rows: usize,
    /// Prover time of the best run (with the layer-0 commitment and opening, if any).
    pub prove: Duration,
    /// Measured runs (a warm-up run before them when there is more than one).
    pub reps: usize,
    /// Median prover time over the measured runs (the upper one of the middle two for an
    /// even count).
    pub prove_median: Duration,
    /// Verifier time, the least over the measured runs (every run's proof is verified): the
    /// walk(s) and the check of the layer-0 claims against the inputs (or the opening of the
    /// layer-0 commitment).
    pub verify: Duration,
    /// Soundness, bits: the walk(s) (GF(2^256) challenges), and the layer-0 commitment's
    /// opening if there is one (the weaker of the two).
    pub soundness_bits: f64,
    /// Native permutations per second on one core.
    pub native_per_sec: f64,
    /// The inputs, region by region (`t · 2^w_a` elements each, permutation after
    /// permutation).
    pub inputs: Vec<Vec<Ghash128>>,
    /// The statement: committed input layers and the stated outputs.
    pub statement: Statement<Ghash128>,
    /// The layer-0 commitment's scheme and bytes, if the inputs were committed.
    pub commitment: Option<(PcsKind, Vec<u8>)>,
    /// The best run's proof.
    pub proof: Vec<u8>,
}

impl PermutationReport {
    /// Permutations proved.
    #[must_use]
    pub fn permutations(&self) -> usize {
        self.inputs.iter().map(|r| r.len() / LANES).sum()
    }

    /// Proved permutations per second in the best run.
    #[must_use]
    pub fn proved_per_sec(&self) -> f64 {
        self.permutations() as f64 / self.prove.as_secs_f64()
    }

    /// Proved permutations per second at the median prover time.
    #[must_use]
    pub fn median_per_sec(&self) -> f64 {
        self.permutations() as f64 / self.prove_median.as_secs_f64()
    }

    /// Prover time over native time for the same permutations.
    #[must_use]
    pub fn overhead(&self) -> f64 {
        self.native_per_sec / self.proved_per_sec()
    }
}

/// The ragged, independent or padded setup of these widths over the transcript `D`.
#[must_use]
pub fn setup<D: TranscriptScheme>(widths: Vec<usize>) -> Setup<Poseidon2bRelation, Ghash256, D> {
    Setup::new(Poseidon2bRelation::official(), widths)
}

/// Checks widths against the workload's limits.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] naming the limit.
pub fn check_widths(widths: &[usize]) -> Result<(), WorkloadError> {
    if widths.is_empty() || widths.len() > MAX_REGIONS {
        return Err(WorkloadError::InvalidParameters(format!(
            "between 1 and {MAX_REGIONS} regions, not {}",
            widths.len()
        )));
    }
    if let Some(&w) = widths.iter().find(|&&w| w > MAX_WIDTH) {
        return Err(WorkloadError::InvalidParameters(format!(
            "a region of 2^{w} permutations: each region has at most 2^{MAX_WIDTH}"
        )));
    }
    Ok(())
}

impl PermutationWorkload {
    /// `count` permutations as regions of the powers of two in `count`'s binary expansion,
    /// widest first.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for no permutation or more than `2^MAX_WIDTH`.
    pub fn for_count(count: usize, seed: u64, variant: Variant) -> Result<Self, WorkloadError> {
        if count == 0 || count > 1 << MAX_WIDTH {
            return Err(WorkloadError::InvalidParameters(format!(
                "between 1 and 2^{MAX_WIDTH} permutations, not {count}"
            )));
        }
        Ok(Self {
            widths: flockwork_gkr::binary_regions(count),
            seed,
            variant,
            pcs: None,
            transcript: TranscriptKind::default(),
        })
    }

    /// The same batch with its inputs committed with `pcs` (or held in the clear for `None`).
    #[must_use]
    pub fn with_pcs(mut self, pcs: Option<PcsKind>) -> Self {
        self.pcs = pcs;
        self
    }

    /// The same batch proved over the transcript `transcript`.
    #[must_use]
    pub fn with_transcript(mut self, transcript: TranscriptKind) -> Self {
        self.transcript = transcript;
        self
    }

    /// Permutations in the batch.
    #[must_use]
    pub fn count(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    /// The random inputs of every region.
    fn inputs(&self, rng: &mut ChaCha20Rng) -> Vec<Vec<Ghash128>> {
        self.widths
            .iter()
            .map(|&w| {
                (0..LANES << w)
                    .map(|_| {
                        Ghash128::new(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
                    })
                    .collect()
            })
            .collect()
    }

    /// Builds the statement, proves, verifies and measures the native baseline: one
    /// measured run ([`PermutationWorkload::run_reps`] with `reps = 1`).
    ///
    /// # Errors
    /// As [`PermutationWorkload::run_reps`].
    pub fn run(&self) -> Result<PermutationReport, WorkloadError> {
        self.run_reps(1)
    }

    /// Builds the inputs once from the seed, then proves and verifies them `reps` times (the
    /// layer-0 commitment, if any, made afresh in every run and timed with the prover); with
    /// `reps > 1` a warm-up run comes first and is not counted. The report is the run with
    /// the least prover time, with the median beside it.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for `reps = 0`, widths beyond the limits or an
    /// input layer too small for the commitment, [`WorkloadError::Failed`] if the prover
    /// refuses or the verifier rejects (a bug).
    pub fn run_reps(&self, reps: usize) -> Result<PermutationReport, WorkloadError> {
        check_reps(reps)?;
        check_widths(&self.widths)?;
        with_transcript!(self.transcript, D => self.run_over::<D>(reps))
    }

    /// [`PermutationWorkload::run_reps`] over the transcript `D`.
    fn run_over<D: TranscriptScheme>(
        &self,
        reps: usize,
    ) -> Result<PermutationReport, WorkloadError> {
        let variant = self.variant;
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let inputs = self.inputs(&mut rng);
        let setup = setup::<D>(self.widths.clone());
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            WorkloadError::Failed(format!("{}: {what}{e}", variant.name()))
        };
        let (measured, pcs_bits) = match self.pcs {
            None => {
                // The statement (outputs computed natively) is not the prover's work.
                let statement = Statement::of_inputs(setup.relation(), &inputs);
                let measured = measure::<_, WorkloadError>(reps, || {
                    let start = Instant::now();
                    let proof = setup
                        .prove(variant, &inputs, &statement)
                        .map_err(|e| failed("", &e))?;
                    let prove = start.elapsed();
                    let start = Instant::now();
                    setup
                        .verify(variant, &statement, &proof)
                        .map_err(|e| failed("proof rejected: ", &e))?;
                    let run = Run {
                        statement: statement.clone(),
                        proof,
                        commitment: None,
                    };
                    Ok((run, prove, start.elapsed()))
                })?;
                (measured, f64::INFINITY)
            }
            Some(kind) => {
                let pcs = layer0_commitment(kind, setup.input_layout().num_vars())
                    .map_err(WorkloadError::InvalidParameters)?;
                let outputs = evaluate_outputs(setup.relation(), &inputs);
                let run = OpenedRun {
                    setup: &setup,
                    inputs: &inputs,
                    outputs: &outputs,
                    variant,
                };
                let measured = measure(reps, || run.once(&pcs)).map_err(|e| failed("", &e))?;
                (measured, pcs.security_report().bits())
            }
        };
        let run = measured.best;
        Ok(PermutationReport {
            physical_rows: setup.physical_rows(variant),
            prove: measured.prove,
            reps,
            prove_median: measured.prove_median,
            verify: measured.verify,
            soundness_bits: setup.soundness_bits(variant).min(pcs_bits),
            native_per_sec: native_rate(),
            inputs,
            statement: run.statement,
            commitment: self.pcs.zip(run.commitment),
            proof: run.proof,
        })
    }
}

/// What one proof produced.
struct Run {
    statement: Statement<Ghash128>,
    proof: Vec<u8>,
    commitment: Option<Vec<u8>>,
}

/// The security target of the layer-0 commitment ([`layer0_commitment`]).
pub const LAYER0_TARGET_BITS: u32 = 100;

/// The layer-0 commitment of `kind` over `num_vars` variables at [`LAYER0_TARGET_BITS`]
/// ([`Commitment::select`]: Ligerito's fast preset in the Johnson regime, FRI-Binius at rate
/// ½, or Blaze's defaults; all over GF(2^128) with SHA-256 Merkle trees).
///
/// # Errors
/// The parameter selector's message if the commitment cannot be set up at this size.
pub fn layer0_commitment(kind: PcsKind, num_vars: usize) -> Result<Commitment, String> {
    Commitment::select(kind, num_vars, LAYER0_TARGET_BITS)
        .map_err(|e| format!("2^{num_vars} input values: {e}"))
}

/// The layer-0 PCS path of [`PermutationWorkload::run_reps`]: commit and prove (timed
/// together), then verify.
struct OpenedRun<'a, D> {
    setup: &'a Setup<Poseidon2bRelation, Ghash256, D>,
    inputs: &'a [Vec<Ghash128>],
    /// The permutations' outputs (computed natively, not the prover's work).
    outputs: &'a [Vec<Ghash128>],
    variant: Variant,
}

impl<D: TranscriptScheme> OpenedRun<'_, D> {
    /// One commitment, proof and verification.
    fn once(&self, pcs: &Commitment) -> Result<Timed<Run>, String> {
        let Self {
            setup,
            inputs,
            outputs,
            variant,
        } = *self;
        let start = Instant::now();
        let (commitment, data) = setup
            .commit_inputs(pcs, inputs)
            .map_err(|e| e.to_string())?;
        let committing = start.elapsed();
        let statement = setup
            .committed_statement(commitment.as_ref(), outputs)
            .map_err(|e| e.to_string())?;
        let start = Instant::now();
        let proof = setup
            .prove_opened(variant, pcs, &commitment, &data, inputs, &statement)
            .map_err(|e| e.to_string())?;
        let prove = committing + start.elapsed();
        drop(data);
        let start = Instant::now();
        setup
            .verify_opened(variant, pcs, &commitment, &statement, &proof)
            .map_err(|e| format!("proof rejected: {e}"))?;
        let run = Run {
            statement,
            proof,
            commitment: Some(commitment.clone()),
        };
        Ok((run, prove, start.elapsed()))
    }
}

/// Native Poseidon2b (t = 4) permutations per second on one core, over at least 200 ms.
fn native_rate() -> f64 {
    let permutation = flockwork_poseidon2b::official_t4();
    let mut state = [Ghash128::new(1); LANES];
    let mut done = 0usize;
    let clock = Instant::now();
    while clock.elapsed() < Duration::from_millis(200) {
        for _ in 0..256 {
            permutation.permute(&mut state);
        }
        done += 256;
    }
    std::hint::black_box(state);
    done as f64 / clock.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounds of [`check_widths`], each side of each: one to [`MAX_REGIONS`] regions, each
    /// at most [`MAX_WIDTH`] (a region of one permutation included).
    #[test]
    fn widths_are_checked_at_their_bounds() {
        assert!(check_widths(&[]).is_err());
        assert!(check_widths(&[0]).is_ok());
        assert!(check_widths(&[MAX_WIDTH]).is_ok());
        assert!(check_widths(&[3, MAX_WIDTH + 1]).is_err());
        assert!(check_widths(&[5; MAX_REGIONS]).is_ok());
        assert!(check_widths(&[5; MAX_REGIONS + 1]).is_err());
        assert!(check_widths(&[MAX_WIDTH + 1; MAX_REGIONS + 1]).is_err());
    }

    #[test]
    fn counts_split_into_binary_digits() {
        let w = PermutationWorkload::for_count(1000, 1, Variant::Ragged).unwrap();
        assert_eq!(w.widths, vec![9, 8, 7, 6, 5, 3]);
        assert_eq!(w.count(), 1000);
        assert_eq!(
            PermutationWorkload::for_count(1, 1, Variant::Ragged)
                .unwrap()
                .widths,
            vec![0]
        );
        assert!(PermutationWorkload::for_count(0, 1, Variant::Ragged).is_err());
        assert!(PermutationWorkload::for_count((1 << 24) + 1, 1, Variant::Ragged).is_err());
    }

    #[test]
    fn batches_with_a_committed_input_layer_prove_and_verify() {
        for kind in PcsKind::ALL {
            let r = PermutationWorkload::for_count(300, 4, Variant::Ragged)
                .unwrap()
                .with_pcs(Some(kind))
                .run()
                .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
            assert_eq!(r.permutations(), 300);
            assert!(r.soundness_bits >= 100.0, "{}", kind.name());
            assert!(
                r.statement
                    .regions
                    .iter()
                    .all(|g| !g.committed.holds_columns())
            );
            assert_eq!(r.commitment.as_ref().map(|c| c.0), Some(kind));
        }
    }

    #[test]
    fn a_ragged_batch_proves_and_verifies() {
        let r = PermutationWorkload::for_count(11, 3, Variant::Ragged)
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(r.permutations(), 11);
        assert_eq!(r.physical_rows, 11);
        assert!(r.soundness_bits > 200.0);
    }
}
