//! Batch hashing workloads: `2^k` chained compressions of one hash, proved with the Flock
//! batch-R1CS prover and verified, against the native single-core hash as the baseline.

use std::time::{Duration, Instant};

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_core::circuit::R1csLowering;
use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Blaze, FriBinius};
use flockwork_r1cs::{Flock, FlockConfig, SoundnessReport, Statement, Timings};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::compare::PcsKind;
use crate::workload::WorkloadError;

/// The hash compressions the batch prover ships with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    /// SHA-256 compression (22,696 ANDs).
    Sha256,
    /// Keccak-f[1600] (38,400 ANDs).
    Keccak,
    /// BLAKE3 compression (10,416 ANDs).
    Blake3,
}

impl HashKind {
    /// All shipped hashes.
    pub const ALL: [Self; 3] = [Self::Sha256, Self::Keccak, Self::Blake3];

    /// Short name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha256 => "sha256",
            Self::Keccak => "keccak-f",
            Self::Blake3 => "blake3",
        }
    }
}

/// A chain of `2^log_instances` compressions with random per-step data.
#[derive(Clone, Debug)]
pub struct FlockWorkload {
    /// The hash.
    pub hash: HashKind,
    /// `k`.
    pub log_instances: usize,
    /// Seed of the chain's data.
    pub seed: u64,
    /// The dense commitment under ring-switching.
    pub pcs: PcsKind,
    /// Prover configuration (security target; Ligerito's preset and regime).
    pub config: FlockConfig,
}

/// What a verified batch run measured.
#[derive(Clone, Debug)]
pub struct FlockReport {
    /// The workload.
    pub hash: HashKind,
    /// `k`.
    pub log_instances: usize,
    /// `m = m0 + k`.
    pub num_vars: usize,
    /// Setup (lowering, tables, PCS parameters).
    pub setup: Duration,
    /// Prover phases (witness generation included).
    pub timings: Timings,
    /// Verification.
    pub verify: Duration,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness terms.
    pub soundness: SoundnessReport,
    /// Native single-core compressions per second (portable implementation).
    pub native_per_sec: f64,
    /// The statement proved (the chain's end points).
    pub statement: Statement,
    /// The proof.
    pub proof: Vec<u8>,
}

impl FlockReport {
    /// Instances.
    #[must_use]
    pub fn instances(&self) -> usize {
        1 << self.log_instances
    }

    /// Proved compressions per second.
    #[must_use]
    pub fn proved_per_sec(&self) -> f64 {
        self.instances() as f64 / self.timings.total().as_secs_f64()
    }

    /// Prover time over native time for the same compressions.
    #[must_use]
    pub fn overhead(&self) -> f64 {
        self.native_per_sec / self.proved_per_sec()
    }
}

impl FlockWorkload {
    /// Builds the chain, proves, verifies and measures the native baseline.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for an unusable size; a rejected proof is an
    /// error too (a bug, reported rather than hidden).
    pub fn run(&self) -> Result<FlockReport, WorkloadError> {
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        let n = 1usize
            .checked_shl(self.log_instances as u32)
            .filter(|_| self.log_instances <= 24)
            .ok_or_else(|| WorkloadError::InvalidParameters("at most 2^24 instances".into()))?;
        match self.hash {
            HashKind::Sha256 => {
                let blocks: Vec<[u8; 64]> = (0..n)
                    .map(|_| {
                        let mut b = [0u8; 64];
                        rng.fill_bytes(&mut b);
                        b
                    })
                    .collect();
                let native = native_rate(|i, s: &mut [u32; 8]| {
                    sha256_compress(s, &blocks[i % n]);
                });
                self.run_chain(Sha256Compress, [0x6a09_e667; 8], &blocks, native)
            }
            HashKind::Keccak => {
                let steps = vec![(); n];
                let native = native_rate(|_, s: &mut [u64; 25]| keccak_f1600(s));
                let mut init = [0u64; 25];
                init.iter_mut().for_each(|w| *w = rng.next_u64());
                self.run_chain(KeccakF1600::new(), init, &steps, native)
            }
            HashKind::Blake3 => {
                let blocks: Vec<Blake3Block> = (0..n)
                    .map(|i| Blake3Block {
                        words: core::array::from_fn(|_| rng.next_u32()),
                        counter: i as u64,
                        block_len: 64,
                        flags: 0,
                    })
                    .collect();
                let native = native_rate(|i, s: &mut [u32; 8]| {
                    let b = &blocks[i % n];
                    let out = blake3_compress(s, &b.words, b.counter, b.block_len, b.flags);
                    s.copy_from_slice(&out[..8]);
                });
                self.run_chain(Blake3Compress, [0x6b08_e647; 8], &blocks, native)
            }
        }
    }

    fn run_chain<G: ChainStep>(
        &self,
        gadget: G,
        init: G::State,
        data: &[G::Data],
        native_per_sec: f64,
    ) -> Result<FlockReport, WorkloadError> {
        let clock = Instant::now();
        match self.pcs {
            PcsKind::Ligerito => {
                let flock = Flock::new(gadget, self.log_instances, self.config)
                    .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
                self.prove_chain(flock, clock, init, data, native_per_sec)
            }
            PcsKind::Fri => {
                let dense = fri_for(&gadget, self.log_instances, self.config.target_bits)?;
                let flock = Flock::with_pcs(gadget, self.log_instances, dense, self.config)
                    .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
                self.prove_chain(flock, clock, init, data, native_per_sec)
            }
            PcsKind::Blaze => {
                let dense = blaze_for(&gadget, self.log_instances, self.config.target_bits)?;
                let flock = Flock::with_pcs(gadget, self.log_instances, dense, self.config)
                    .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
                self.prove_chain(flock, clock, init, data, native_per_sec)
            }
        }
    }

    fn prove_chain<G: ChainStep, P: ConfiguredCommitment<Ghash128>>(
        &self,
        flock: Flock<G, P>,
        clock: Instant,
        init: G::State,
        data: &[G::Data],
        native_per_sec: f64,
    ) -> Result<FlockReport, WorkloadError> {
        let flock = flock
            .chained(G::STATE_IN, G::STATE_OUT)
            .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
        flock
            .check_memory()
            .map_err(|e| WorkloadError::Failed(e.to_string()))?;
        let setup = clock.elapsed();
        let clock = Instant::now();
        let chain = chain_witness(flock.gadget(), init, data, true);
        let witness_time = clock.elapsed();
        let statement = flock
            .chain_statement(&chain.witness)
            .expect("the chain witness has the setup's shape");
        let (proof, report) = flock
            .prove_witness(&chain.witness, &statement)
            .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
        drop(chain);
        let mut timings = report.timings;
        timings.witness = witness_time;
        let clock = Instant::now();
        flock
            .verify(&statement, proof.as_bytes())
            .map_err(|e| WorkloadError::InvalidParameters(format!("proof rejected: {e}")))?;
        let verify = clock.elapsed();
        debug_assert!(matches!(statement, Statement::Chain { .. }));
        Ok(FlockReport {
            hash: self.hash,
            log_instances: self.log_instances,
            num_vars: flock.num_vars(),
            setup,
            timings,
            verify,
            proof_bytes: proof.len(),
            soundness: flock.soundness(),
            native_per_sec,
            statement,
            proof: proof.into_bytes(),
        })
    }
}

/// The Blaze-style commitment for the packed witness of `2^log_instances` instances of
/// `gadget`, one bit above `target_bits`.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] if no schedule reaches the target.
pub fn blaze_for<G: flockwork_core::circuit::Gadget>(
    gadget: &G,
    log_instances: usize,
    target_bits: u32,
) -> Result<Blaze<Ghash128, sha2::Sha256>, WorkloadError> {
    let vars = R1csLowering::new(gadget).log_block() + log_instances - 7;
    Blaze::with_security(vars, target_bits + 1)
        .map_err(|e| WorkloadError::InvalidParameters(format!("blaze: {e}")))
}

/// FRI-Binius for the packed witness of `2^log_instances` instances of `gadget` (`m − 7`
/// variables), one bit above `target_bits` like the Ligerito default.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] if no schedule reaches the target.
pub fn fri_for<G: flockwork_core::circuit::Gadget>(
    gadget: &G,
    log_instances: usize,
    target_bits: u32,
) -> Result<FriBinius<Ghash128, sha2::Sha256>, WorkloadError> {
    let vars = R1csLowering::new(gadget).log_block() + log_instances - 7;
    FriBinius::with_security(vars, target_bits + 1, 1)
        .map_err(|e| WorkloadError::InvalidParameters(format!("fri: {e}")))
}

/// Native compressions per second on one core: runs `step` on a chained state for at least
/// 200 ms.
fn native_rate<S: Default + Copy>(mut step: impl FnMut(usize, &mut S)) -> f64 {
    let mut state = S::default();
    let mut done = 0usize;
    let clock = Instant::now();
    while clock.elapsed() < Duration::from_millis(200) {
        for _ in 0..1024 {
            step(done, &mut state);
            done += 1;
        }
    }
    std::hint::black_box(state);
    done as f64 / clock.elapsed().as_secs_f64()
}

/// The soundness of a batch-R1CS setup, without proving: the protocol's terms (the PCS's
/// round-by-round level among them) and the commitment's own term-by-term report.
#[derive(Clone, Debug)]
pub struct SecuritySummary {
    /// The batch-R1CS terms.
    pub protocol: SoundnessReport,
    /// The dense commitment's terms.
    pub pcs: flockwork_pcs::security::SecurityReport,
    /// `m = m0 + k`.
    pub num_vars: usize,
}

/// The [`SecuritySummary`] of the setup `flockwork prove` would use.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for an unusable size or an unreachable target.
pub fn security_summary(
    hash: HashKind,
    log_instances: usize,
    pcs: PcsKind,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    if log_instances > 40 {
        return Err(WorkloadError::InvalidParameters(
            "at most 2^40 instances".into(),
        ));
    }
    match hash {
        HashKind::Sha256 => summary_of(Sha256Compress, log_instances, pcs, config),
        HashKind::Keccak => summary_of(KeccakF1600::new(), log_instances, pcs, config),
        HashKind::Blake3 => summary_of(Blake3Compress, log_instances, pcs, config),
    }
}

fn summary_of<G: flockwork_core::circuit::Gadget>(
    gadget: G,
    log_instances: usize,
    pcs: PcsKind,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    let setup = |e: flockwork_r1cs::SetupError| WorkloadError::InvalidParameters(e.to_string());
    fn summary<G: flockwork_core::circuit::Gadget, P: ConfiguredCommitment<Ghash128>>(
        flock: &Flock<G, P>,
    ) -> SecuritySummary {
        SecuritySummary {
            protocol: flock.soundness(),
            pcs: flock.pcs().inner().security_report(),
            num_vars: flock.num_vars(),
        }
    }
    Ok(match pcs {
        PcsKind::Ligerito => summary(&Flock::new(gadget, log_instances, config).map_err(setup)?),
        PcsKind::Fri => {
            let dense = fri_for(&gadget, log_instances, config.target_bits)?;
            summary(&Flock::with_pcs(gadget, log_instances, dense, config).map_err(setup)?)
        }
        PcsKind::Blaze => {
            let dense = blaze_for(&gadget, log_instances, config.target_bits)?;
            summary(&Flock::with_pcs(gadget, log_instances, dense, config).map_err(setup)?)
        }
    })
}
