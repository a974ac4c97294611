//! The timed, verified batch run ([`FlockWorkload`]) and what it measured
//! ([`FlockReport`]), against the native single-core hash.

use std::time::{Duration, Instant};

use flockwork_boolean::io::wide_chain;
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_pcs::Commitment;
use flockwork_r1cs::{Flock, FlockConfig, SoundnessReport, Statement, Timings};
use flockwork_transcript::{TranscriptKind, TranscriptScheme};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::hash::{HashGadget, HashKind, IoKind, flock_for};
use super::jobs::{LazyJob, chain_job, merkle_job, public_job, random_leaves};
use super::shape::BatchShape;
use crate::workload::{WorkloadError, check_reps, measure};

/// Exactly `count` compressions (laid out by [`BatchShape::for_count`]) with random data
/// from the seed: a chain (random message blocks), a Merkle tree over `count` leaves
/// (random leaves) or independent instances with public IO.
#[derive(Clone, Debug)]
pub struct FlockWorkload {
    /// The hash.
    pub hash: HashKind,
    /// The compressions asked for (1 to 2^24; the leaves of a Merkle tree, at least 2),
    /// proved exactly ([`BatchShape`]).
    pub count: usize,
    /// Seed of the chain's data or the tree's leaves.
    pub seed: u64,
    /// Chain or Merkle tree.
    pub io: IoKind,
    /// Prover configuration (the commitment scheme, the security target, Ligerito's preset
    /// and regime).
    pub config: FlockConfig,
    /// The Fiat–Shamir transcript.
    pub transcript: TranscriptKind,
}

/// What verified batch runs measured: the best of the measured runs (least total prover
/// time), with the median beside it.
#[derive(Clone, Debug)]
pub struct FlockReport {
    /// The workload.
    pub hash: HashKind,
    /// The compressions asked for.
    pub count: usize,
    /// The layout of the instances proved.
    pub shape: BatchShape,
    /// `m = m0 + ⌈log2 blocks⌉`.
    pub num_vars: usize,
    /// Setup (lowering, tables, PCS parameters), done once before the runs.
    pub setup: Duration,
    /// Prover phases of the best run (witness generation included).
    pub timings: Timings,
    /// Measured runs (a warm-up run before them when there is more than one).
    pub reps: usize,
    /// Median total prover time over the measured runs (the upper one of the middle two
    /// for an even count).
    pub prove_median: Duration,
    /// Verification: the least time over the measured runs (every run's proof is verified).
    pub verify: Duration,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness terms.
    pub soundness: SoundnessReport,
    /// Native single-core compressions per second (portable implementation).
    pub native_per_sec: f64,
    /// The statement the batch-R1CS setup of `shape` proves (the chain's end points, the
    /// tree's root and leaves, the public inputs and outputs): [`FlockReport::exact`] mapped
    /// by [`BatchShape::setup_statement`] (the same statement unless the shape has an
    /// overhang).
    pub statement: Statement,
    /// The statement about exactly `count` compressions.
    pub exact: Statement,
    /// The best run's proof.
    pub proof: Vec<u8>,
}

impl FlockReport {
    /// Instances proved.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.shape.instances()
    }

    /// Proved compressions per second in the best run.
    #[must_use]
    pub fn proved_per_sec(&self) -> f64 {
        self.instances() as f64 / self.timings.total().as_secs_f64()
    }

    /// Proved compressions per second at the median prover time.
    #[must_use]
    pub fn median_per_sec(&self) -> f64 {
        self.instances() as f64 / self.prove_median.as_secs_f64()
    }

    /// Prover time over native time for the same compressions (the best run).
    #[must_use]
    pub fn overhead(&self) -> f64 {
        self.native_per_sec / self.proved_per_sec()
    }
}

impl FlockWorkload {
    /// Builds the chain or tree, proves, verifies and measures the native baseline: one
    /// measured run ([`FlockWorkload::run_reps`] with `reps = 1`).
    ///
    /// # Errors
    /// As [`FlockWorkload::run_reps`].
    pub fn run(&self) -> Result<FlockReport, WorkloadError> {
        self.run_reps(1)
    }

    /// Sets up once, then proves the same statement `reps` times, each run generating the
    /// witness (timed as the `witness` phase) from the same seeded data, proving and
    /// verifying; with `reps > 1` a warm-up run comes first and is not counted. The report
    /// is the run with the least total prover time, with the median beside it.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for `reps = 0`, an unusable size or a hash
    /// without Merkle nodes; a rejected proof is an error too (a bug, reported rather than
    /// hidden).
    pub fn run_reps(&self, reps: usize) -> Result<FlockReport, WorkloadError> {
        check_reps(reps)?;
        let mut rng = ChaCha20Rng::seed_from_u64(self.seed);
        if !(1..=1 << 24).contains(&self.count) {
            return Err(WorkloadError::InvalidParameters(
                "between 1 and 2^24 instances".into(),
            ));
        }
        let shape = BatchShape::for_count(self.hash, self.io, self.count);
        let n = shape.instances();
        if self.io == IoKind::Merkle && !self.hash.has_merkle_nodes() {
            return Err(WorkloadError::InvalidParameters(format!(
                "{} has no Merkle nodes here (a permutation, not a two-to-one compression); \
                 use sha256 or blake3 for a Merkle tree",
                self.hash.name()
            )));
        }
        if self.io == IoKind::Committed {
            return Err(super::hash::committed());
        }
        if self.io == IoKind::Merkle && n < 2 {
            return Err(WorkloadError::InvalidParameters(
                "a Merkle tree needs at least 2 leaves".into(),
            ));
        }
        match self.hash {
            HashKind::Sha256 => {
                let native = native_rate(|_, s: &mut [u32; 8]| {
                    sha256_compress(s, std::hint::black_box(&[0x5a; 64]));
                });
                let job = match self.io {
                    IoKind::Chain => {
                        let blocks: Vec<[u8; 64]> = (0..n)
                            .map(|_| {
                                let mut b = [0u8; 64];
                                rng.fill_bytes(&mut b);
                                b
                            })
                            .collect();
                        let wide = wide_chain(Sha256Compress, shape.copies);
                        let job = chain_job(wide.clone(), [0x6a09_e667; 8], blocks, n);
                        return self.prove(wide, shape, &job, native, reps);
                    }
                    IoKind::Merkle => merkle_job(Sha256Compress, random_leaves(&mut rng, n)),
                    // Committed: refused above.
                    IoKind::Public | IoKind::Committed => public_job(Sha256Compress, n, &mut rng),
                };
                self.prove(Sha256Compress, shape, &job, native, reps)
            }
            HashKind::Keccak => {
                let native = native_rate(|_, s: &mut [u64; 25]| keccak_f1600(s));
                if self.io == IoKind::Public {
                    let job = public_job(KeccakF1600::new(), n, &mut rng);
                    return self.prove(KeccakF1600::new(), shape, &job, native, reps);
                }
                let mut init = [0u64; 25];
                init.iter_mut().for_each(|w| *w = rng.next_u64());
                // A chain: Merkle trees were refused above.
                let wide = wide_chain(KeccakF1600::new(), shape.copies);
                let job = chain_job(wide.clone(), init, vec![(); shape.block_instances()], n);
                self.prove(wide, shape, &job, native, reps)
            }
            HashKind::Blake3 => {
                let native = native_rate(|i, s: &mut [u32; 8]| {
                    let words = std::hint::black_box(&[0x5a5a_5a5a; 16]);
                    let out = blake3_compress(s, words, i as u64, 64, 0);
                    s.copy_from_slice(&out[..8]);
                });
                let job = match self.io {
                    IoKind::Chain => {
                        let blocks: Vec<Blake3Block> = (0..n)
                            .map(|i| Blake3Block {
                                words: core::array::from_fn(|_| rng.next_u32()),
                                counter: i as u64,
                                block_len: 64,
                                flags: 0,
                            })
                            .collect();
                        let wide = wide_chain(Blake3Compress, shape.copies);
                        let job = chain_job(wide.clone(), [0x6b08_e647; 8], blocks, n);
                        return self.prove(wide, shape, &job, native, reps);
                    }
                    IoKind::Merkle => merkle_job(Blake3Compress, random_leaves(&mut rng, n)),
                    // Committed: refused above.
                    IoKind::Public | IoKind::Committed => public_job(Blake3Compress, n, &mut rng),
                };
                self.prove(Blake3Compress, shape, &job, native, reps)
            }
        }
    }

    fn prove<G: HashGadget>(
        &self,
        gadget: G,
        shape: BatchShape,
        job: &LazyJob,
        native_per_sec: f64,
        reps: usize,
    ) -> Result<FlockReport, WorkloadError> {
        let clock = Instant::now();
        let flock = flock_for(gadget, shape.blocks, self.io, self.config)?;
        flock
            .check_memory()
            .map_err(|e| WorkloadError::Failed(e.to_string()))?;
        let setup = clock.elapsed();
        with_transcript!(self.transcript, T => {
            self.measure(flock.with_transcript::<T>(), shape, setup, job, native_per_sec, reps)
        })
    }

    /// Proves and verifies `reps` times (after a warm-up for `reps > 1`) with `flock`.
    fn measure<G: HashGadget, T: TranscriptScheme>(
        &self,
        flock: Flock<G, Commitment, T>,
        shape: BatchShape,
        setup: Duration,
        job: &LazyJob,
        native_per_sec: f64,
        reps: usize,
    ) -> Result<FlockReport, WorkloadError> {
        let measured = measure::<_, WorkloadError>(reps, || {
            let clock = Instant::now();
            let (witness, statement, exact) = job();
            let witness_time = clock.elapsed();
            let (proof, report) = flock
                .prove_witness_owned(witness, &statement)
                .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))?;
            let mut timings = report.timings;
            timings.witness = witness_time;
            let clock = Instant::now();
            flock.verify(&statement, proof.as_bytes()).map_err(|e| {
                WorkloadError::Failed(format!("the honest proof was rejected: {e}"))
            })?;
            Ok((
                (timings, statement, exact, proof),
                timings.total(),
                clock.elapsed(),
            ))
        })?;
        let (timings, statement, exact, proof) = measured.best;
        Ok(FlockReport {
            hash: self.hash,
            count: self.count,
            shape,
            num_vars: flock.num_vars(),
            setup,
            timings,
            reps,
            prove_median: measured.prove_median,
            verify: measured.verify,
            proof_bytes: proof.len(),
            soundness: flock.soundness(),
            native_per_sec,
            statement,
            exact,
            proof: proof.into_bytes(),
        })
    }
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
