//! Commitment comparison: one random Boolean polynomial committed, opened at two random
//! points and verified with each polynomial commitment scheme, through ring-switching over
//! GF(2^128), every scheme at the same security target.
//!
//! [`PcsComparison::run`] measures one scheme in the calling process; the `flockwork compare
//! pcs` command runs each scheme in a fresh worker process so that the peak memory it reports
//! belongs to that scheme alone.

use std::time::{Duration, Instant};

use flockwork_core::{Claim, PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_pcs::ring_switch::{self, RingSwitched, evaluate_packed};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind, Profile};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::workload::{WorkloadError, median};

/// The statement of a comparison: a random Boolean polynomial of `2^log_bits` bits.
#[derive(Clone, Debug)]
pub struct PcsComparison {
    /// `log2` of the committed bits (at least 8: ring-switching packs 128 bits per element
    /// and each scheme needs a few packed variables).
    pub log_bits: usize,
    /// Security target of every scheme, in bits.
    pub target_bits: u32,
    /// Seed of the polynomial and the points.
    pub seed: u64,
    /// Measured runs per scheme (at least 1): each commits, opens and verifies afresh, and
    /// every time reported is the median over the runs (single runs of a fresh process vary
    /// by tens of percent on a shared machine).
    pub reps: usize,
}

/// What one scheme measured.
#[derive(Clone, Debug)]
pub struct PcsRow {
    /// The scheme.
    pub kind: PcsKind,
    /// `log2` of the committed bits.
    pub log_bits: usize,
    /// Encoding and Merkle hashing (median over the runs, as `open` and `verify`).
    pub commit: Duration,
    /// The opening proof of two evaluation claims.
    pub open: Duration,
    /// Verification.
    pub verify: Duration,
    /// Proof bytes (the opening; the commitment is one digest more).
    pub proof_bytes: usize,
    /// The weakest soundness term of the scheme and of ring-switching.
    pub security_bits: f64,
}

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/compare-pcs/v1", b"");

impl PcsComparison {
    /// Commits, opens and verifies with `kind`.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] if the scheme has no parameters for this size or
    /// target, [`WorkloadError::Rejected`] if the proof does not verify (a bug).
    pub fn run(&self, kind: PcsKind) -> Result<PcsRow, WorkloadError> {
        if self.reps == 0 {
            return Err(WorkloadError::InvalidParameters(
                "at least one measured run per scheme".into(),
            ));
        }
        if self.log_bits < 8 || self.log_bits > 40 {
            return Err(WorkloadError::InvalidParameters(format!(
                "2^{} bits: the comparison supports 2^8 to 2^40 bits",
                self.log_bits
            )));
        }
        let dense =
            Commitment::for_bits(kind, self.log_bits, self.target_bits, &Profile::default())
                .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
        self.measure(kind, dense)
    }

    /// The random statement: packed words and two evaluation claims.
    fn statement(&self) -> (Vec<u128>, Vec<Claim<Ghash128>>) {
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let words: Vec<u128> = (0..1usize << (self.log_bits - 7))
            .map(|_| u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64)
            .collect();
        let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
        let claims = (0..2)
            .map(|_| {
                let point: Vec<Ghash128> = (0..self.log_bits)
                    .map(|_| {
                        Ghash128::new(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
                    })
                    .collect();
                let value = evaluate_packed(&packed, &point);
                Claim::evaluation(point, value)
            })
            .collect();
        (words, claims)
    }

    fn measure(&self, kind: PcsKind, dense: Commitment) -> Result<PcsRow, WorkloadError> {
        let security_bits = dense
            .security_report()
            .bits()
            .min(ring_switch::soundness_bits(Ghash128::ORDER_BITS));
        let pcs = RingSwitched::new(dense);
        let (words, claims) = self.statement();

        let (mut commits, mut opens, mut verifies) = (Vec::new(), Vec::new(), Vec::new());
        let mut proof_bytes = 0;
        for _ in 0..self.reps {
            let start = Instant::now();
            let (commitment, data) = pcs.commit(&words);
            commits.push(start.elapsed());

            let start = Instant::now();
            let mut transcript = Sha256ProverTranscript::new(DOMAIN);
            pcs.send_commitment("commitment", &commitment, &mut transcript);
            pcs.open(&data, &claims, &mut transcript);
            let proof = transcript.into_proof();
            opens.push(start.elapsed());
            drop(data);

            let start = Instant::now();
            let mut transcript = Sha256VerifierTranscript::new(DOMAIN, &proof);
            let verified = pcs
                .recv_commitment("commitment", &mut transcript)
                .and_then(|c| pcs.verify(&c, &claims, &mut transcript))
                .and_then(|()| transcript.finish().map_err(VerifyError::from));
            verifies.push(start.elapsed());
            verified?;
            proof_bytes = proof.len();
        }
        let (commit, open, verify) = (
            median(&mut commits),
            median(&mut opens),
            median(&mut verifies),
        );

        Ok(PcsRow {
            kind,
            log_bits: self.log_bits,
            commit,
            open,
            verify,
            proof_bytes,
            security_bits,
        })
    }
}

/// The statement of a batching comparison: Poseidon2b (t = 4) over regions of `2^w_a`
/// instances each, proven with the independent, padded and ragged GKR batchers.
#[derive(Clone, Debug)]
pub struct BatchComparison {
    /// The region widths `w_a` (at most 24 each).
    pub widths: Vec<usize>,
    /// Seed of the inputs and of the output points.
    pub seed: u64,
    /// The commitment of the input layer (the GKR layer-0 PCS path), or `None` for inputs
    /// held in the clear.
    pub pcs: Option<PcsKind>,
}

/// What one batcher measured.
#[derive(Clone, Debug)]
pub struct BatchRow {
    /// The batcher.
    pub variant: flockwork_gkr::Variant,
    /// Rows the prover's tables hold (the padded walk pays `A·2^W`).
    pub physical_rows: usize,
    /// Prover time.
    pub prove: Duration,
    /// Verifier time: the walk and the check of the layer-0 claims against the committed
    /// columns (or the commitment's opening).
    pub verify: Duration,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness, bits: the walk(s) (GF(2^256) challenges) and the opening, if any.
    pub security_bits: f64,
}

impl BatchComparison {
    /// Proves and verifies the statement with `variant`.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for no region, more than 64 or a width above 24,
    /// [`WorkloadError::Failed`] if the prover refuses or the verifier rejects (a bug).
    pub fn run(&self, variant: flockwork_gkr::Variant) -> Result<BatchRow, WorkloadError> {
        let report = crate::permutations::PermutationWorkload {
            widths: self.widths.clone(),
            seed: self.seed,
            variant,
            pcs: self.pcs,
            transcript: flockwork_transcript::TranscriptKind::Sha256,
        }
        .run()?;
        Ok(BatchRow {
            variant,
            physical_rows: report.physical_rows,
            prove: report.prove,
            verify: report.verify,
            proof_bytes: report.proof.len(),
            security_bits: report.soundness_bits,
        })
    }
}
