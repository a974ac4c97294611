//! Batch hashing workloads: any number of compressions of one hash, chained or arranged as a Merkle
//! tree, proved with the Flock batch-R1CS prover over any of the shipped commitments and
//! verified, against the native single-core hash as the baseline.

use std::time::{Duration, Instant};

use flockwork_boolean::io::{
    ChainStep, MerkleNode, best_chain_width, chain_witness, merkle_witness, wide_chain,
};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::words::join_u32;
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_core::circuit::{BatchWitness, Gadget, SlotKind, Wide, batch_witness};
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
/// (several chain steps per block where that fills blocks better, [`best_chain_width`]). The
/// batch-R1CS setup proves exactly `blocks` blocks in a witness of `2^log_blocks()` blocks, the
/// rest zero ([`flockwork_r1cs::padding`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchShape {
    /// Instances per block.
    pub copies: usize,
    /// Blocks: the batch-R1CS setup's instance count `N`.
    pub blocks: usize,
}

/// The widest block [`BatchShape::for_count`] considers.
pub const MAX_COPIES: usize = 8;

impl BatchShape {
    /// Instances in the batch.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.copies * self.blocks
    }

    /// `k = ⌈log2 blocks⌉`: the witness holds `2^k` blocks.
    #[must_use]
    pub fn log_blocks(&self) -> usize {
        self.blocks.next_power_of_two().trailing_zeros() as usize
    }

    /// The shape `flockwork prove` uses for `count` instances: one per block, exactly `count`
    /// blocks, for public IO; one per block and the next power of two for Merkle trees (a
    /// tree takes one instance per heap node); for chains the width that commits the fewest
    /// positions per instance (3 for Keccak-f, 1 for SHA-256 and BLAKE3) and the fewest
    /// blocks that hold the request (at most `copies − 1` steps more than `count`).
    #[must_use]
    pub fn for_count(hash: HashKind, io: IoKind, count: usize) -> Self {
        use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
        let copies = match (io, hash) {
            (IoKind::Merkle | IoKind::Public, _) => 1,
            (IoKind::Chain, HashKind::Sha256) => best_chain_width(&Sha256Compress, MAX_COPIES),
            (IoKind::Chain, HashKind::Keccak) => best_chain_width(&KeccakF1600::new(), MAX_COPIES),
            (IoKind::Chain, HashKind::Blake3) => best_chain_width(&Blake3Compress, MAX_COPIES),
        };
        let blocks = count.max(1).div_ceil(copies);
        let blocks = match io {
            IoKind::Merkle => blocks.next_power_of_two(),
            IoKind::Chain | IoKind::Public => blocks,
        };
        Self { copies, blocks }
    }
}

/// `count` compressions (as [`BatchShape::for_count`] lays them out: exactly, except whole
/// blocks for wide chains and a power of two for Merkle trees) with random data
/// from the seed: a chain (random message blocks) or a Merkle tree (random leaves).
#[derive(Clone, Debug)]
pub struct FlockWorkload {
    /// The hash.
    pub hash: HashKind,
    /// The compressions asked for (1 to 2^24; a wide chain rounds up to whole blocks and a
    /// Merkle tree to a power of two, see [`BatchShape`]).
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
    /// The layout of the instances proved (at least `count`).
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
    /// The statement proved (the chain's end points, or the tree's root and leaves).
    pub statement: Statement,
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

/// A witness and the statement it proves.
type Job = (BatchWitness, Statement);
/// Builds a [`Job`] from the same data every time it is called, once the setup has passed
/// its memory check.
type LazyJob = Box<dyn Fn() -> Job>;

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
                        let job = chain_job(wide.clone(), [0x6a09_e667; 8], blocks);
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
                let job = chain_job(wide.clone(), init, vec![(); n]);
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
                        let job = chain_job(wide.clone(), [0x6b08_e647; 8], blocks);
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
            let (witness, statement) = job();
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
                (timings, statement, proof),
                timings.total(),
                clock.elapsed(),
            ))
        })?;
        let (timings, statement, proof) = measured.best;
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
            proof: proof.into_bytes(),
        })
    }
}

/// The chain from `init` through `data`, the steps grouped into the blocks of `gadget`.
fn chain_job<G: ChainStep + 'static>(gadget: Wide<G>, init: G::State, data: Vec<G::Data>) -> LazyJob
where
    G::Data: Clone,
{
    let blocks: Vec<Vec<G::Data>> = data
        .chunks(gadget.copies())
        .map(<[G::Data]>::to_vec)
        .collect();
    Box::new(move || {
        let chain = chain_witness(&gadget, init, &blocks, true);
        let statement = Statement::Chain {
            start: gadget.state_words(&init),
            end: gadget.state_words(chain.states.last().expect("K + 1 states")),
        };
        (chain.witness, statement)
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
        (witness, Statement::Public { inputs, outputs })
    })
}

/// The tree over `leaves` (heap order, one instance per leaf).
fn merkle_job<G: MerkleNode<Digest = [u32; 8]> + 'static>(
    gadget: G,
    leaves: Vec<[u32; 8]>,
) -> LazyJob {
    Box::new(move || {
        let tree = merkle_witness(&gadget, &leaves, true);
        let statement = Statement::Merkle {
            root: join_u32::<4>(&tree.root()).to_vec(),
            leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
        };
        (tree.witness, statement)
    })
}

fn random_leaves(rng: &mut ChaCha20Rng, n: usize) -> Vec<[u32; 8]> {
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.next_u32()))
        .collect()
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
