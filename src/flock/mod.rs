//! Batch hashing workloads: any number of compressions of one hash, chained, arranged as a
//! Merkle tree or with public IO, proved with the Flock batch-R1CS prover over any of the
//! shipped commitments and verified, against the native single-core hash as the baseline.
//!
//! Every count is proved exactly ([`BatchShape`]): a Merkle tree over any number of leaves
//! (the left-complete tree, [`merkle_tree`]), a Keccak-f chain of any length in blocks of
//! three (the last block's extra permutations mapped onto the statement's end,
//! [`BatchShape::setup_statement`]); [`verify_exact`] checks a proof against the exact
//! statement. [`RegionBatch`] and [`BatchComparison`] prove batches of regions, each its own
//! chain, with the three batching strategies of [`Variant`].

use std::time::{Duration, Instant};

use flockwork_boolean::io::{ChainStep, MerkleNode, best_chain_width, chain_witness, wide_chain};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::words::join_u32;
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{BatchWitness, Gadget, SlotKind, Wide, batch_witness};
use flockwork_core::regions::{Variant, region_layout};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::Commitment;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_r1cs::{
    Flock, FlockConfig, PublicLayout, SetupError, SoundnessReport, Statement, Timings,
};
use flockwork_transcript::{TranscriptKind, TranscriptScheme};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::workload::{WorkloadError, check_reps, measure};

/// The hash compressions the batch prover ships with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    /// SHA-256 compression (22,696 ANDs).
    Sha256,
    /// Keccak-f\[1600\] (38,400 ANDs).
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

/// The public IO a batch proves about its instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IoKind {
    /// A hash chain: only its two ends are public ([`Statement::Chain`]).
    #[default]
    Chain,
    /// A Merkle tree over `K` leaves in `K` instances: the root and the leaves are public
    /// ([`Statement::Merkle`]; SHA-256 and BLAKE3 nodes).
    Merkle,
    /// Independent instances whose input and output vectors are all public
    /// ([`Statement::Public`]).
    Public,
}

impl IoKind {
    /// Short name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Chain => "chain",
            Self::Merkle => "merkle",
            Self::Public => "public",
        }
    }
}

impl HashKind {
    /// Whether the hash has Merkle nodes ([`MerkleNode`]): SHA-256 and BLAKE3 do; Keccak-f
    /// is a permutation without a two-to-one compression mode here.
    #[must_use]
    pub fn has_merkle_nodes(self) -> bool {
        matches!(self, Self::Sha256 | Self::Blake3)
    }
}

/// The batch-R1CS setup of [`FlockWorkload`]: exactly `blocks` instances (blocks) of
/// `gadget` ([`Flock::for_count`]) over the commitment `config.scheme`, set up for the IO
/// `io`.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for an unusable size, an unreachable target or a
/// gadget without that IO (Merkle trees take a power-of-two number of blocks).
pub fn flock_for<G: HashGadget>(
    gadget: G,
    blocks: usize,
    io: IoKind,
    config: FlockConfig,
) -> Result<Flock<G>, WorkloadError> {
    G::configure(
        Flock::for_count(gadget, blocks, config).map_err(setup_error)?,
        io,
    )
}

/// The shipped hash gadgets: chain steps, and Merkle nodes where the hash has them.
pub trait HashGadget: ChainStep + Sized {
    /// Sets `flock` up for the IO `io`.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] if the gadget has no such IO (Merkle nodes) or
    /// its regions do not fit the setup.
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError>;
}

fn setup_error(e: SetupError) -> WorkloadError {
    WorkloadError::InvalidParameters(e.to_string())
}

fn configure_merkle<G: ChainStep + MerkleNode, P: ConfiguredCommitment<Ghash128>>(
    flock: Flock<G, P>,
    io: IoKind,
) -> Result<Flock<G, P>, WorkloadError> {
    let flock = match io {
        IoKind::Chain => flock.chained(G::STATE_IN, G::STATE_OUT),
        IoKind::Merkle => {
            let fixed = flock.gadget().fixed_inputs();
            flock.merkle_tree(G::CHILDREN, G::DIGEST, fixed)
        }
        IoKind::Public => flock.public_io(),
    };
    flock.map_err(setup_error)
}

/// Hashes with Merkle nodes: both IO kinds.
macro_rules! hash_gadget_with_merkle_nodes {
    ($($gadget:ty),*) => {$(
        impl HashGadget for $gadget {
            fn configure<P: ConfiguredCommitment<Ghash128>>(
                flock: Flock<Self, P>,
                io: IoKind,
            ) -> Result<Flock<Self, P>, WorkloadError> {
                configure_merkle(flock, io)
            }
        }
    )*};
}

hash_gadget_with_merkle_nodes!(Sha256Compress, Blake3Compress);

/// `flock` set up for a chain; `why_not_merkle` is the error for a Merkle tree.
fn chain_only<G: ChainStep, P: ConfiguredCommitment<Ghash128>>(
    flock: Flock<G, P>,
    io: IoKind,
    why_not_merkle: &str,
) -> Result<Flock<G, P>, WorkloadError> {
    match io {
        IoKind::Chain => flock
            .chained(G::STATE_IN, G::STATE_OUT)
            .map_err(setup_error),
        IoKind::Public => flock.public_io().map_err(setup_error),
        IoKind::Merkle => Err(WorkloadError::InvalidParameters(why_not_merkle.into())),
    }
}

impl HashGadget for KeccakF1600 {
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError> {
        chain_only(
            flock,
            io,
            "keccak-f is a permutation without Merkle nodes here; use sha256 or blake3 for \
             --merkle",
        )
    }
}

/// Blocks of chain steps ([`wide_chain`]) prove chains only.
impl<G: ChainStep + Clone> HashGadget for Wide<G> {
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError> {
        chain_only(flock, io, "a Merkle tree takes one node per block")
    }
}

/// How a batch lays out its instances: `copies` instances in each of `blocks` blocks
/// (several chain steps per block where that fills blocks better, [`best_chain_width`]), of
/// which the first `count` are the statement's. The batch-R1CS setup proves exactly `blocks`
/// blocks in a witness of `2^log_blocks()` blocks, the rest zero ([`flockwork_r1cs::padding`]).
///
/// A Keccak-f chain of `count` steps that is not a multiple of `copies` runs
/// [`BatchShape::overhang`] more permutations in its last block: Keccak-f is a permutation
/// without per-step data, so "`count` steps from `start` end at `end`" holds exactly when
/// "`copies · blocks` steps from `start` end at `f^e(end)`" does (`e` the overhang; `f` is a
/// bijection), and the setup's statement is the latter ([`BatchShape::setup_statement`], which
/// the verifier computes from the exact statement with `e ≤ copies − 1` native permutations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchShape {
    /// Instances per block.
    pub copies: usize,
    /// Blocks: the batch-R1CS setup's instance count `N`.
    pub blocks: usize,
    /// The instances the statement is about (`copies · blocks − overhang`).
    pub count: usize,
}

/// The widest block [`BatchShape::for_count`] considers.
pub const MAX_COPIES: usize = 8;

impl BatchShape {
    /// Instances the statement is about: exactly the count asked for.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.count
    }

    /// Instances the blocks hold (`copies · blocks`): the count and the overhang.
    #[must_use]
    pub fn block_instances(&self) -> usize {
        self.copies * self.blocks
    }

    /// Steps a Keccak-f chain's last block runs past the statement's end (0 for every other
    /// batch; see the type's docs).
    #[must_use]
    pub fn overhang(&self) -> usize {
        self.block_instances() - self.count
    }

    /// `k = ⌈log2 blocks⌉`: the witness holds `2^k` blocks.
    #[must_use]
    pub fn log_blocks(&self) -> usize {
        self.blocks.next_power_of_two().trailing_zeros() as usize
    }

    /// The shape `flockwork prove` uses for `count ≥ 1` instances, always exactly `count`:
    /// one per block, `count` blocks, for public IO and Merkle trees (a tree over `count`
    /// leaves, [`flockwork_r1cs::merkle`]); for chains the width that commits the fewest
    /// positions per instance (3 for Keccak-f, 1 for SHA-256 and BLAKE3) and the fewest blocks
    /// that hold the request, the last block's extra steps an [overhang](Self::overhang) for
    /// Keccak-f (a chain step with per-step data takes one step per block unless the width
    /// divides the count).
    #[must_use]
    pub fn for_count(hash: HashKind, io: IoKind, count: usize) -> Self {
        use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
        let count = count.max(1);
        let copies = match (io, hash) {
            (IoKind::Merkle | IoKind::Public, _) => 1,
            (IoKind::Chain, HashKind::Sha256) => best_chain_width(&Sha256Compress, MAX_COPIES),
            (IoKind::Chain, HashKind::Keccak) => best_chain_width(&KeccakF1600::new(), MAX_COPIES),
            (IoKind::Chain, HashKind::Blake3) => best_chain_width(&Blake3Compress, MAX_COPIES),
        };
        let copies = if hash == HashKind::Keccak || count.is_multiple_of(copies) {
            copies
        } else {
            1
        };
        Self {
            copies,
            blocks: count.div_ceil(copies),
            count,
        }
    }

    /// The statement the batch-R1CS setup of this shape proves for the exact `statement`
    /// about [`BatchShape::instances`] instances: the same statement, except for a Keccak-f
    /// chain with an [overhang](Self::overhang) `e`, whose end becomes `f^e(end)` (the type's
    /// docs). Prover and verifier both call it.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for an overhang on anything but a Keccak-f chain
    /// statement with 25-word states.
    pub fn setup_statement(
        &self,
        hash: HashKind,
        statement: &Statement,
    ) -> Result<Statement, WorkloadError> {
        let e = self.overhang();
        if e == 0 {
            return Ok(statement.clone());
        }
        match (hash, statement) {
            (HashKind::Keccak, Statement::Chain { start, end }) if end.len() == 25 => {
                let mut state: [u64; 25] = core::array::from_fn(|i| end[i]);
                for _ in 0..e {
                    keccak_f1600(&mut state);
                }
                Ok(Statement::Chain {
                    start: start.clone(),
                    end: state.to_vec(),
                })
            }
            _ => Err(WorkloadError::InvalidParameters(format!(
                "{e} steps past the count: only a Keccak-f chain of 25-word states runs past it"
            ))),
        }
    }
}

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

/// A witness, the statement the setup proves and the exact statement.
type Job = (BatchWitness, Statement, Statement);
/// Builds a [`Job`] from the same data every time it is called, once the setup has passed
/// its memory check.
type LazyJob = Box<dyn Fn() -> Job>;

impl FlockWorkload {
    /// The proof file of `report`, a run of this workload: the exact statement, the shape,
    /// the commitment's scheme, preset and target and the transcript the verifier rebuilds
    /// its setup from. `ProofFile::verify` checks it from the file alone.
    #[must_use]
    pub fn proof_file(&self, report: &FlockReport) -> crate::proof_file::ProofFile {
        crate::proof_file::ProofFile::Flock(crate::proof_file::FlockFile {
            hash: report.hash,
            transcript: self.transcript,
            pcs: self.config.scheme,
            preset: self.config.preset,
            copies: report.shape.copies,
            blocks: report.shape.blocks,
            count: report.count,
            target_bits: self.config.target_bits,
            statement: report.exact.clone(),
            proof: report.proof.clone(),
        })
    }

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
                    IoKind::Public => public_job(Sha256Compress, n, &mut rng),
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
                    IoKind::Public => public_job(Blake3Compress, n, &mut rng),
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

/// The chain from `init` through `data` (whole blocks of `gadget`), the steps grouped into
/// its blocks; the exact statement ends after the first `count` steps.
fn chain_job<G: ChainStep + 'static>(
    gadget: Wide<G>,
    init: G::State,
    data: Vec<G::Data>,
    count: usize,
) -> LazyJob
where
    G::Data: Clone,
{
    let blocks: Vec<Vec<G::Data>> = data
        .chunks(gadget.copies())
        .map(<[G::Data]>::to_vec)
        .collect();
    Box::new(move || {
        let chain = chain_witness(&gadget, init, &blocks, true);
        let start = gadget.state_words(&init);
        let statement = Statement::Chain {
            start: start.clone(),
            end: gadget.state_words(chain.states.last().expect("K + 1 states")),
        };
        // The state after `count` steps: the last block's first steps from its input state.
        let last = blocks.len() - 1;
        let end = blocks[last][..count - last * gadget.copies()]
            .iter()
            .fold(chain.states[last], |s, d| gadget.inner().chain_next(&s, d));
        let exact = Statement::Chain {
            start,
            end: gadget.state_words(&end),
        };
        (chain.witness, statement, exact)
    })
}

/// `n` instances of `gadget` with random input vectors from `rng`, their inputs and
/// outputs public ([`Statement::Public`], read from the witness).
fn public_job<G: Gadget + 'static>(gadget: G, n: usize, rng: &mut ChaCha20Rng) -> LazyJob {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..n * words).map(|_| rng.next_u64()).collect();
    let layout = PublicLayout::new(&gadget.layout());
    Box::new(move || {
        let witness = batch_witness(&gadget, &inputs, true);
        let (inputs, outputs) = layout
            .as_ref()
            .ok()
            .and_then(|l| l.read(&witness, witness.log_block, witness.instances))
            .expect("the shipped hashes' IO regions are public-IO layouts");
        let statement = Statement::Public { inputs, outputs };
        (witness, statement.clone(), statement)
    })
}

/// The left-complete tree over `leaves` (heap order, one instance per leaf,
/// [`flockwork_r1cs::merkle`]).
fn merkle_job<G: MerkleNode<Digest = [u32; 8]> + 'static>(
    gadget: G,
    leaves: Vec<[u32; 8]>,
) -> LazyJob {
    Box::new(move || {
        let (witness, statement) = merkle_tree(&gadget, &leaves);
        (witness, statement.clone(), statement)
    })
}

/// The batch witness (sides recorded) and the statement of the left-complete Merkle tree
/// over `leaves` (at least 2, left to right; [`flockwork_r1cs::merkle::heap_tree`]): one
/// instance per leaf, instance `p ≥ 1` heap node `p`, instance 0 hashing two zero digests.
///
/// # Panics
/// If there are fewer than 2 leaves.
#[must_use]
pub fn merkle_tree<G: MerkleNode<Digest = [u32; 8]>>(
    gadget: &G,
    leaves: &[[u32; 8]],
) -> (BatchWitness, Statement) {
    let (children, root) =
        flockwork_r1cs::merkle::heap_tree(leaves, |l, r| gadget.node_digest(l, r));
    let inputs: Vec<u64> = children
        .iter()
        .flat_map(|(l, r)| gadget.node_input(l, r))
        .collect();
    let statement = Statement::Merkle {
        root: join_u32::<4>(&root).to_vec(),
        leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
    };
    (batch_witness(gadget, &inputs, true), statement)
}

fn random_leaves(rng: &mut ChaCha20Rng, n: usize) -> Vec<[u32; 8]> {
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.next_u32()))
        .collect()
}

/// Why [`verify_exact`] did not accept a proof.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// No setup for these parameters, or a statement that does not fit the shape.
    #[error(transparent)]
    Setup(#[from] WorkloadError),
    /// The batch-R1CS verifier rejected the proof.
    #[error("the proof is rejected: {0}")]
    Rejected(#[from] flockwork_r1cs::FlockError),
    /// The verifier's estimated memory ([`flockwork_r1cs::Flock::estimated_verifier_bytes`])
    /// exceeds the configuration's limit ([`FlockConfig::memory_limit`]); nothing was read.
    #[error(
        "the verifier would need about {} MiB, over the memory limit of {} MiB",
        estimate >> 20,
        limit >> 20
    )]
    MemoryLimit {
        /// The estimate in bytes.
        estimate: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

/// Verifies a batch-R1CS proof that `statement` holds for exactly `count` compressions of
/// `hash` with the IO `io`: the setup [`BatchShape::for_count`] lays out (what
/// [`FlockWorkload`] proves with), the statement mapped by [`BatchShape::setup_statement`].
/// A proof for `count` is rejected for any other count (another setup digest, or for a
/// Keccak-f chain in the same blocks another end).
///
/// # Errors
/// [`ExactError::Setup`] for parameters without a setup or a statement of the wrong kind;
/// [`ExactError::Rejected`] if the verifier rejects the proof; [`ExactError::MemoryLimit`]
/// if `config.memory_limit` is below the verifier's estimated memory.
pub fn verify_exact(
    hash: HashKind,
    io: IoKind,
    count: usize,
    config: FlockConfig,
    transcript: TranscriptKind,
    statement: &Statement,
    proof: &[u8],
) -> Result<(), ExactError> {
    // The proof's own framing first: nothing sized by `count` is built for bytes that are
    // not a batch-R1CS proof of this version.
    flockwork_r1cs::check_proof_header(proof)?;
    let shape = BatchShape::for_count(hash, io, count);
    let statement = shape.setup_statement(hash, statement)?;
    let check = Check {
        shape,
        io,
        config,
        transcript,
        statement: &statement,
        proof,
    };
    match hash {
        HashKind::Sha256 => check.run(Sha256Compress),
        HashKind::Blake3 => check.run(Blake3Compress),
        HashKind::Keccak => check.run(KeccakF1600::new()),
    }
}

/// One [`verify_exact`] call's setup parameters, statement and proof.
struct Check<'a> {
    shape: BatchShape,
    io: IoKind,
    config: FlockConfig,
    transcript: TranscriptKind,
    statement: &'a Statement,
    proof: &'a [u8],
}

impl Check<'_> {
    /// Verifies with the gadget's setup: chains in blocks of `copies` steps.
    fn run<G: HashGadget + Clone>(&self, gadget: G) -> Result<(), ExactError> {
        match self.io {
            IoKind::Chain => self.verify(wide_chain(gadget, self.shape.copies)),
            IoKind::Merkle | IoKind::Public => self.verify(gadget),
        }
    }

    fn verify<G: HashGadget>(&self, gadget: G) -> Result<(), ExactError> {
        let flock = flock_for(gadget, self.shape.blocks, self.io, self.config)?;
        if let Some(limit) = self.config.memory_limit {
            let estimate = flock.estimated_verifier_bytes(self.statement, self.proof.len());
            if estimate > limit {
                return Err(ExactError::MemoryLimit { estimate, limit });
            }
        }
        with_transcript!(self.transcript, T => {
            flock.with_transcript::<T>().verify(self.statement, self.proof)
        })?;
        Ok(())
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

/// The soundness of a batch-R1CS setup, without proving: the protocol's terms (the PCS's
/// round-by-round level among them) and the commitment's own term-by-term report.
#[derive(Clone, Debug)]
pub struct SecuritySummary {
    /// The batch-R1CS terms.
    pub protocol: SoundnessReport,
    /// The dense commitment's terms.
    pub pcs: flockwork_pcs::security::SecurityReport,
    /// The layout of the instances.
    pub shape: BatchShape,
    /// `m = m0 + ⌈log2 blocks⌉`.
    pub num_vars: usize,
}

/// The [`SecuritySummary`] of the setup `flockwork prove` would use for a chain of at least
/// `2^log_instances` compressions.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for an unusable size or an unreachable target.
pub fn security_summary(
    hash: HashKind,
    log_instances: usize,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    if log_instances > 40 {
        return Err(WorkloadError::InvalidParameters(
            "at most 2^40 instances".into(),
        ));
    }
    let shape = BatchShape::for_count(hash, IoKind::Chain, 1 << log_instances);
    match hash {
        HashKind::Sha256 => summary_of(wide_chain(Sha256Compress, shape.copies), shape, config),
        HashKind::Keccak => summary_of(wide_chain(KeccakF1600::new(), shape.copies), shape, config),
        HashKind::Blake3 => summary_of(wide_chain(Blake3Compress, shape.copies), shape, config),
    }
}

fn summary_of<G: Gadget>(
    gadget: G,
    shape: BatchShape,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    let flock = Flock::for_count(gadget, shape.blocks, config).map_err(setup_error)?;
    Ok(SecuritySummary {
        protocol: flock.soundness(),
        pcs: flock.pcs().inner().security_report(),
        shape,
        num_vars: flock.num_vars(),
    })
}

/// How batch-R1CS proves a batch of regions, region `a` a hash chain of `2^{w_a}` steps
/// from its own start (the batch-R1CS counterparts of the GKR batchers,
/// `flockwork_gkr::batchers`, named by the same [`Variant`]):
///
/// | strategy | proofs | instances proved | IO argument |
/// |---|---|---|---|
/// | [`Variant::Independent`] | one per region | `Σ_a 2^{w_a}` | a chain per proof |
/// | [`Variant::Padded`] | one | `A·2^W`, `W = max_a w_a`: region `a` at `a·2^W`, then `2^W − 2^{w_a}` instances of the zero input | one chain per region ([`Flock::region_chains`]) |
/// | [`Variant::Ragged`] | one | `Σ_a 2^{w_a}` (regions by decreasing width, back to back, so each is an aligned block; the blocks past the last zero) | one chain per region |
/// The widest region [`BatchComparison`] takes (`2^20` steps).
pub const MAX_REGION_WIDTH: usize = 20;

/// One strategy's result in [`BatchComparison`].
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BatchRow {
    /// The strategy ([`Variant::name`]).
    pub batcher: String,
    /// The hash ([`HashKind::name`]).
    pub hash: String,
    /// The region widths `w_a`.
    pub widths: Vec<usize>,
    /// The chain steps the statement is about, `Σ_a 2^{w_a}`.
    pub instances: usize,
    /// The instances the proofs hold (padded: `A·2^W`).
    pub proved_instances: usize,
    /// Proofs (independent: one per region).
    pub proofs: usize,
    /// Prover time, witness generation included, all proofs (ms).
    pub prove_ms: f64,
    /// Verifier time, all proofs (ms).
    pub verify_ms: f64,
    /// Bytes of all proofs.
    pub proof_bytes: usize,
    /// Soundness bits (for several proofs, of their union).
    pub soundness_bits: f64,
}

/// A hash whose chains [`RegionBatch`] proves: random per-step data from a seed.
pub trait RegionHash: HashGadget + Clone + 'static {
    /// The hash.
    const HASH: HashKind;
    /// The data of one step, from `rng`.
    fn random_data(rng: &mut ChaCha20Rng, step: usize) -> Self::Data;
    /// The start state of region `a`, from `rng`.
    fn random_start(rng: &mut ChaCha20Rng) -> Self::State;
}

impl RegionHash for Sha256Compress {
    const HASH: HashKind = HashKind::Sha256;
    fn random_data(rng: &mut ChaCha20Rng, _: usize) -> [u8; 64] {
        let mut b = [0u8; 64];
        rng.fill_bytes(&mut b);
        b
    }
    fn random_start(rng: &mut ChaCha20Rng) -> [u32; 8] {
        core::array::from_fn(|_| rng.next_u32())
    }
}

impl RegionHash for Blake3Compress {
    const HASH: HashKind = HashKind::Blake3;
    fn random_data(rng: &mut ChaCha20Rng, step: usize) -> Blake3Block {
        Blake3Block {
            words: core::array::from_fn(|_| rng.next_u32()),
            counter: step as u64,
            block_len: 64,
            flags: 0,
        }
    }
    fn random_start(rng: &mut ChaCha20Rng) -> [u32; 8] {
        core::array::from_fn(|_| rng.next_u32())
    }
}

impl RegionHash for KeccakF1600 {
    const HASH: HashKind = HashKind::Keccak;
    fn random_data(_: &mut ChaCha20Rng, _: usize) {}
    fn random_start(rng: &mut ChaCha20Rng) -> [u64; 25] {
        core::array::from_fn(|_| rng.next_u64())
    }
}

/// The chains of a batch of regions: region `a` starts at `starts[a]` and takes the steps
/// `data[a]` (`2^{w_a}` of them).
#[derive(Clone, Debug)]
pub struct RegionChains<G: ChainStep> {
    /// Start states.
    pub starts: Vec<G::State>,
    /// Per-step data, region by region.
    pub data: Vec<Vec<G::Data>>,
}

impl<G: RegionHash> RegionChains<G> {
    /// Random chains over regions of `widths` from `seed`.
    #[must_use]
    pub fn random(widths: &[usize], seed: u64) -> Self {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let starts = widths.iter().map(|_| G::random_start(&mut rng)).collect();
        let data = widths
            .iter()
            .map(|&w| (0..1 << w).map(|i| G::random_data(&mut rng, i)).collect())
            .collect();
        Self { starts, data }
    }
}

/// The batch-R1CS setup of `n` instances proving each of `regions` (`(a, offset)`, region
/// `a` of `2^{widths[a]}` instances) as its own chain ([`Flock::chained_regions`]).
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for a setup the commitment cannot reach or regions
/// that do not fit.
pub fn region_chain_setup<G: ChainStep + Clone>(
    gadget: &G,
    widths: &[usize],
    n: usize,
    regions: &[(usize, usize)],
    config: FlockConfig,
) -> Result<Flock<G>, WorkloadError> {
    Flock::for_count(gadget.clone(), n, config)
        .and_then(|f| f.chained_regions(G::STATE_IN, G::STATE_OUT, widths, regions))
        .map_err(setup_error)
}

/// One proof of a [`RegionBatch`]: its setup and the regions it proves at their offsets.
#[derive(Debug)]
struct RegionProof<G, T> {
    flock: Flock<G, Commitment, T>,
    /// `(region, offset)`.
    regions: Vec<(usize, usize)>,
}

/// A batch of regions of one hash proved with one [`Variant`]: the setups (one per
/// proof), built once.
#[derive(Debug)]
pub struct RegionBatch<G, T = flockwork_transcript::Sha256> {
    gadget: G,
    widths: Vec<usize>,
    strategy: Variant,
    proofs: Vec<RegionProof<G, T>>,
}

impl<G: RegionHash, T: TranscriptScheme> RegionBatch<G, T> {
    /// The setups of `strategy` for regions of `widths` (each at most
    /// [`MAX_REGION_WIDTH`]).
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for no regions, a region too wide or a setup the
    /// commitment cannot reach.
    pub fn new(
        gadget: G,
        widths: &[usize],
        strategy: Variant,
        config: FlockConfig,
    ) -> Result<Self, WorkloadError> {
        if widths.is_empty() || widths.iter().any(|&w| w > MAX_REGION_WIDTH) {
            return Err(WorkloadError::InvalidParameters(format!(
                "one to many regions of widths 0 to {MAX_REGION_WIDTH}"
            )));
        }
        let layout = region_layout(widths, strategy);
        let config = config.per_proof(layout.len());
        let proofs = layout
            .into_iter()
            .map(|(n, regions)| {
                Ok(RegionProof {
                    flock: region_chain_setup(&gadget, widths, n, &regions, config)?
                        .with_transcript::<T>(),
                    regions,
                })
            })
            .collect::<Result<_, WorkloadError>>()?;
        Ok(Self {
            gadget,
            widths: widths.to_vec(),
            strategy,
            proofs,
        })
    }

    /// The strategy.
    #[must_use]
    pub fn strategy(&self) -> Variant {
        self.strategy
    }

    /// Instances the proofs hold.
    #[must_use]
    pub fn proved_instances(&self) -> usize {
        self.proofs.iter().map(|p| p.flock.instances()).sum()
    }

    /// Soundness bits of the union of the proofs' errors.
    #[must_use]
    pub fn soundness_bits(&self) -> f64 {
        let error: f64 = self
            .proofs
            .iter()
            .map(|p| (-p.flock.soundness().bits()).exp2())
            .sum();
        -error.log2()
    }

    /// The statements the proofs are about, one per proof: every region's start and end
    /// (computed natively from `chains`), in the proof's region order.
    #[must_use]
    pub fn statements(&self, chains: &RegionChains<G>) -> Vec<Statement> {
        self.proofs
            .iter()
            .map(|p| {
                let (mut start, mut end) = (Vec::new(), Vec::new());
                for &(a, _) in &p.regions {
                    let last = chains.data[a]
                        .iter()
                        .fold(chains.starts[a], |s, d| self.gadget.chain_next(&s, d));
                    start.extend(self.gadget.state_words(&chains.starts[a]));
                    end.extend(self.gadget.state_words(&last));
                }
                Statement::Chain { start, end }
            })
            .collect()
    }

    /// Proves `statements` ([`RegionBatch::statements`]) about `chains`: one proof per
    /// setup, each from its instances' inputs (the regions' chain steps at their offsets,
    /// the zero input elsewhere).
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for chains of other widths or statements that do
    /// not fit, and a memory limit the batch exceeds.
    pub fn prove(
        &self,
        chains: &RegionChains<G>,
        statements: &[Statement],
    ) -> Result<Vec<Vec<u8>>, WorkloadError> {
        let fits = chains.starts.len() == self.widths.len()
            && chains
                .data
                .iter()
                .zip(&self.widths)
                .all(|(d, &w)| d.len() == 1 << w)
            && statements.len() == self.proofs.len();
        if !fits {
            return Err(WorkloadError::InvalidParameters(
                "chains or statements of another shape".into(),
            ));
        }
        let words = self.gadget.layout().vector_bits(SlotKind::Input) / 64;
        self.proofs
            .iter()
            .zip(statements)
            .map(|(p, statement)| {
                let mut inputs = vec![0u64; p.flock.instances() * words];
                for &(a, offset) in &p.regions {
                    let mut state = chains.starts[a];
                    let mut region = Vec::with_capacity(words << self.widths[a]);
                    for d in &chains.data[a] {
                        state = self.gadget.chain_step(&state, d, &mut region);
                    }
                    inputs[offset * words..][..region.len()].copy_from_slice(&region);
                }
                p.flock
                    .prove(&inputs, statement)
                    .map(|(proof, _)| proof.into_bytes())
                    .map_err(|e| WorkloadError::InvalidParameters(e.to_string()))
            })
            .collect()
    }

    /// Verifies one proof per setup against its statement.
    ///
    /// # Errors
    /// The first rejection; a wrong number of proofs or statements is
    /// [`FlockError::Truncated`](flockwork_r1cs::FlockError::Truncated).
    pub fn verify(
        &self,
        statements: &[Statement],
        proofs: &[Vec<u8>],
    ) -> Result<(), flockwork_r1cs::FlockError> {
        if statements.len() != self.proofs.len() || proofs.len() != self.proofs.len() {
            return Err(flockwork_r1cs::FlockError::Truncated);
        }
        for ((p, statement), proof) in self.proofs.iter().zip(statements).zip(proofs) {
            p.flock.verify(statement, proof)?;
        }
        Ok(())
    }

    /// Proves and verifies random chains from `seed`, timed: one [`BatchRow`].
    ///
    /// # Errors
    /// As [`RegionBatch::prove`]; a rejected honest proof is [`WorkloadError::Failed`].
    pub fn row(&self, seed: u64) -> Result<BatchRow, WorkloadError> {
        let chains = RegionChains::<G>::random(&self.widths, seed);
        let statements = self.statements(&chains);
        let clock = Instant::now();
        let proofs = self.prove(&chains, &statements)?;
        let prove = clock.elapsed();
        let clock = Instant::now();
        self.verify(&statements, &proofs).map_err(|e| {
            WorkloadError::Failed(format!(
                "{}: the honest proof was rejected: {e}",
                self.strategy.name()
            ))
        })?;
        let verify = clock.elapsed();
        Ok(BatchRow {
            batcher: self.strategy.name().into(),
            hash: G::HASH.name().into(),
            widths: self.widths.clone(),
            instances: self.widths.iter().map(|&w| 1usize << w).sum(),
            proved_instances: self.proved_instances(),
            proofs: proofs.len(),
            prove_ms: prove.as_secs_f64() * 1e3,
            verify_ms: verify.as_secs_f64() * 1e3,
            proof_bytes: proofs.iter().map(Vec::len).sum(),
            soundness_bits: self.soundness_bits(),
        })
    }
}

/// `flockwork compare batch --hash H --widths w_1,…,w_A`: regions of `2^{w_a}` chain steps
/// of `hash`, each its own chain (random data from `seed`), proved and verified with each of
/// `strategies` over the commitment and transcript given ([`BatchComparison::run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchComparison {
    /// The hash.
    pub hash: HashKind,
    /// The region widths `w_a` (each at most [`MAX_REGION_WIDTH`]).
    pub widths: Vec<usize>,
    /// The strategies, in the order of the rows.
    pub strategies: Vec<Variant>,
    /// The commitment scheme, security target and Ligerito profile.
    pub config: FlockConfig,
    /// The Fiat–Shamir transcript.
    pub transcript: TranscriptKind,
    /// Seed of the chains' start states and data.
    pub seed: u64,
}

impl BatchComparison {
    /// Proves and verifies the regions with every strategy: one [`BatchRow`] per strategy,
    /// in the order given.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for no regions, a region wider than
    /// [`MAX_REGION_WIDTH`] or a setup the commitment cannot reach;
    /// [`WorkloadError::Failed`] if an honest proof is rejected (a bug).
    pub fn run(&self) -> Result<Vec<BatchRow>, WorkloadError> {
        match self.hash {
            HashKind::Sha256 => self.rows(Sha256Compress),
            HashKind::Blake3 => self.rows(Blake3Compress),
            HashKind::Keccak => self.rows(KeccakF1600::new()),
        }
    }

    fn rows<G: RegionHash>(&self, gadget: G) -> Result<Vec<BatchRow>, WorkloadError> {
        self.strategies
            .iter()
            .map(|&s| {
                with_transcript!(self.transcript, T => {
                    RegionBatch::<G, T>::new(gadget.clone(), &self.widths, s, self.config)?
                        .row(self.seed)
                })
            })
            .collect()
    }
}
