//! Batches of regions, each its own hash chain, proved with each batching strategy
//! ([`RegionBatch`]) and compared ([`BatchComparison`]).

use std::time::Instant;

use flockwork_boolean::io::ChainStep;
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::SlotKind;
use flockwork_core::regions::{Variant, region_layout};
use flockwork_pcs::Commitment;
use flockwork_r1cs::{Flock, FlockConfig, Statement};
use flockwork_transcript::{TranscriptKind, TranscriptScheme};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::hash::{HashGadget, HashKind, setup_error};
use crate::workload::WorkloadError;

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
