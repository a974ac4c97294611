//! Every engine on one relation: the batchers that can prove a [`Relation`], listed at run
//! time, each proving the same [`Statement`] — the comparison the framework exists for.
//!
//! [`batchers_for`] asks a relation ([`Provable`]) for the batchers its encodings allow at a
//! count, commitment choice and transcript ([`Choices`]):
//!
//! | encoding | batchers | statements | counts |
//! |---|---|---|---|
//! | [`CircuitEncoding`] (SHA-256, BLAKE3, Keccak-f compressions) | batch-R1CS ragged (exactly `N` instances), independent and padded (the regions of `N`'s binary digits, [`crate::flock::region_layout`]), each over each commitment scheme | public IO, committed IO, a chain; a Merkle tree (SHA-256, BLAKE3; ragged) | any (a tree: at least 2 leaves) |
//! | [`BooleanLayeredEncoding`] (Keccak-f) | the independent, padded and ragged GKR walks on the Boolean layers ([`flockwork_gkr::BooleanGkr`]); for committed IO each over each commitment scheme (ring-switched) | public IO, committed IO | any (regions of the count's binary digits) |
//! | [`LayeredEncoding`] (the Poseidon2b permutation over GF(2^128); Poseidon2 over BN254) | the independent, padded and ragged GKR walks over the encoding's field ([`GkrField`]: its challenge field and commitments); for committed IO each over each commitment scheme the field has (BN254: FRI, as BaseFold) | public IO, committed IO | any (regions of the count's binary digits) |
//!
//! The GKR batchers are the engine's own ([`flockwork_gkr::relation_batchers`]: generic over
//! the encoding, its field, the transcript and any commitment); this module picks the
//! transcript and the commitments the [`Choices`] name.
//!
//! [`compare`] proves the public-IO statement with each, [`compare_statement`] any statement
//! (a chain, [`Statement::chain`]; a Merkle tree, [`Statement::merkle`]) with each batcher
//! that supports its IO, [`compare_committed`] the committed statement each batcher makes
//! ([`Batcher::commit`]); all verify every proof and return one row per batcher.
//!
//! ## Committed statements
//!
//! [`Io::Committed`] carries a batcher's own commitment to the instances' inputs and
//! outputs. Batch-R1CS commits to its batch witness, which holds every instance's input and
//! output vector ([`Flock::commit`]), and a proof of the setup without IO must carry exactly
//! that commitment ([`Flock::verify_committed`]). GKR commits to every region's inputs and
//! outputs in one polynomial, draws the output points after the commitment and proves the
//! walk's terminal claims and the output claims by one opening
//! ([`Setup::prove_io`](flockwork_gkr::Setup::prove_io); module docs of
//! [`flockwork_gkr::opening`]); on Keccak-f's Boolean layers it commits the bits of every
//! input and output state through ring-switching and proves the output claims and the
//! walk's terminal claims, each reduced to one evaluation per region, by one opening
//! ([`flockwork_gkr::BooleanGkr::prove_io`]; module docs of [`flockwork_gkr::boolean`]).
//! A statement's outputs are the relation's native evaluation ([`Statement::public`]), and a
//! statement with any other output is rejected by every batcher (tests), so a verified proof
//! checks the engine against the relation.
//!
//! ## The GKR public-IO statement
//!
//! A GKR walk proves claims on the multilinear extensions of a region's outputs. For public
//! inputs and outputs the harness hands both to the engine ([`flockwork_gkr::Statement::public`],
//! region by region), which derives the claims, prover and verifier alike: the walk's
//! transcript absorbs the relation, the batcher, the widths and every region's input and
//! output digests before it draws one point per region, and the claim's values are the
//! outputs' multilinear extensions at that point (module docs of
//! [`flockwork_gkr::statement`]). A wrong output changes the points and the values, and is
//! accepted with probability at most `w/|E|` for a region of `2^w` instances
//! (Schwartz–Zippel over `E = GF(2^256)`; counted in the batcher's soundness).

use std::time::{Duration, Instant};

use crate::flock::{HashGadget, IoKind as FlockIo, per_proof, region_chain_setup, region_layout};
use flockwork_boolean::io::ChainStep;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{CircuitEncoding, SlotKind, evaluate};
use flockwork_core::layered::LayeredRelation;
use flockwork_core::relation::{
    BatchError, Batcher, BooleanLayeredEncoding, Io, IoKind, LayeredEncoding, Relation, Statement,
    Unavailable,
};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_field_prime::Bn254Fr;
use flockwork_gkr::binary_regions;
use flockwork_gkr::{BooleanBatcher, LayeredBatcher, Variant};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{BaseFold, Commitment, PcsKind, Profile};
use flockwork_poseidon2::Poseidon2Relation;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_r1cs::{Flock, FlockConfig};
use flockwork_transcript::{TranscriptKind, TranscriptScheme};

/// A proof system: the engine a batcher runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// Batch-R1CS (Flock) over a circuit encoding.
    BatchR1cs,
    /// Layered GKR over a layered or Boolean layered encoding.
    Gkr,
}

impl System {
    /// Both systems.
    pub const ALL: [Self; 2] = [Self::BatchR1cs, Self::Gkr];

    /// `"r1cs"` or `"gkr"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::BatchR1cs => "r1cs",
            Self::Gkr => "gkr",
        }
    }
}

/// What [`batchers_for`] offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Choices {
    /// The proof systems listed.
    pub systems: Vec<System>,
    /// The security target of every commitment.
    pub target_bits: u32,
    /// The Fiat–Shamir transcript of every batcher.
    pub transcript: TranscriptKind,
    /// The commitment schemes of batch-R1CS.
    pub schemes: Vec<PcsKind>,
    /// The batching strategies of both systems (independent, padded, ragged).
    pub variants: Vec<Variant>,
}

impl Default for Choices {
    /// Both systems, 100 bits, SHA-256, every scheme and every strategy.
    fn default() -> Self {
        Self {
            systems: System::ALL.to_vec(),
            target_bits: 100,
            transcript: TranscriptKind::default(),
            schemes: PcsKind::ALL.to_vec(),
            variants: vec![Variant::Independent, Variant::Padded, Variant::Ragged],
        }
    }
}

/// A relation that lists the batchers its encodings allow.
pub trait Provable: Relation + Sized + 'static {
    /// Every batcher its encodings allow for `count` instances with `choices`: those that
    /// can prove, and those whose setup could not be built, as [`Unavailable`] batchers with
    /// their reasons ([`Batcher::unavailable`]); empty for no instances.
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>>;
}

/// Every batcher that can prove `count` instances of `relation` with `choices` (the
/// [`listing`] without the unavailable ones).
#[must_use]
pub fn batchers_for<R: Provable>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    listing(relation, count, choices)
        .into_iter()
        .filter(|b| b.unavailable().is_none())
        .collect()
}

/// Every batcher `relation`'s encodings allow for `count` instances with `choices`, those
/// whose setup could not be built included ([`Unavailable`], [`Batcher::unavailable`] says
/// why): what a comparison shows, one row each.
#[must_use]
pub fn listing<R: Provable>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    relation.batchers(count, choices)
}

/// One batcher's result in [`compare`].
#[derive(Clone, Debug)]
pub struct Row {
    /// The batcher.
    pub name: String,
    /// Why it did not prove and verify the statement: its setup could not be built
    /// ([`Unavailable`]), its prover refused, or its proof was rejected (a bug, or a false
    /// statement). `None` for a proof that verified; the times and sizes are zero otherwise.
    pub failure: Option<String>,
    /// Prover time.
    pub prove: Duration,
    /// Verifier time.
    pub verify: Duration,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// The setup's soundness.
    pub soundness_bits: f64,
}

/// Proves the public-IO statement of `inputs` (outputs evaluated natively) with every
/// batcher [`batchers_for`] lists, verifies each proof, and returns one row per batcher.
///
/// # Errors
/// The first batcher that refuses or whose proof is rejected (a bug), named.
pub fn compare<R: Provable>(
    relation: &R,
    inputs: Vec<R::Input>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    let statement = Statement::public(relation, inputs.clone());
    compare_statement(relation, &inputs, &statement, choices)
}

/// Proves `statement` about `inputs` (a public-IO statement, [`Statement::public`], a
/// chain, [`Statement::chain`], or a Merkle tree, [`Statement::merkle`]) with every batcher
/// the [`listing`] has for its kind of IO, verifies each proof, and returns one row per
/// batcher: a batcher that could not be set up, refuses or is rejected (a false statement,
/// or a bug) is a row with its reason ([`Row::failure`]); the others still run. A committed
/// statement belongs to the batcher that made its commitment: [`compare_committed`] makes one
/// per batcher.
///
/// # Errors
/// [`BatchError::Unsupported`] for a committed statement.
pub fn compare_statement<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    compare_statement_with(relation, inputs, statement, choices, Vec::new())
}

/// [`compare_statement`] with `extra` batchers beside the listed ones — batchers defined
/// outside the engines (a strategy of the user's, [`Batcher`] implemented in their crate) or
/// engine batchers over a commitment scheme of the user's
/// ([`flockwork_gkr::LayeredBatcher::committed`] takes any
/// [`ConfiguredCommitment`]); their rows follow the listed ones.
///
/// # Errors
/// As [`compare_statement`].
pub fn compare_statement_with<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
    extra: Vec<Box<dyn Batcher<R>>>,
) -> Result<Vec<Row>, BatchError> {
    if statement.kind() == IoKind::Committed {
        return Err(BatchError::Unsupported(
            "a committed statement is one batcher's (compare_committed makes one per batcher)"
                .into(),
        ));
    }
    Ok(listing(relation, statement.count(), choices)
        .into_iter()
        .chain(extra)
        .filter(|b| b.supports(statement.kind()))
        .map(|b| row(b.as_ref(), inputs, statement))
        .collect())
}

/// Commits to `inputs` and their outputs with every batcher the [`listing`] has for
/// committed statements ([`Batcher::commit`]), proves each one's [`Statement::committed`],
/// verifies it, and returns one row per batcher (the prover's time excludes the commitment,
/// the statement's maker's work); a batcher that could not be set up, refuses or is rejected
/// is a row with its reason ([`Row::failure`]).
///
/// # Errors
/// None today; the `Result` is [`compare_statement`]'s shape.
pub fn compare_committed<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    compare_committed_with(relation, inputs, choices, Vec::new())
}

/// [`compare_committed`] with `extra` batchers beside the listed ones (as
/// [`compare_statement_with`]): each commits with its own scheme and proves its own
/// committed statement.
///
/// # Errors
/// As [`compare_committed`].
pub fn compare_committed_with<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    choices: &Choices,
    extra: Vec<Box<dyn Batcher<R>>>,
) -> Result<Vec<Row>, BatchError> {
    Ok(listing(relation, inputs.len(), choices)
        .into_iter()
        .chain(extra)
        .filter(|b| b.supports(IoKind::Committed))
        .map(|b| {
            if let Some(reason) = b.unavailable() {
                return failed_row(b.as_ref(), format!("unavailable: {reason}"));
            }
            match b.commit(inputs) {
                Ok(commitment) => row(
                    b.as_ref(),
                    inputs,
                    &Statement::committed(inputs.len(), commitment),
                ),
                Err(e) => failed_row(b.as_ref(), format!("commit: {e}")),
            }
        })
        .collect())
}

/// Proves and verifies `statement` with one batcher, timed; a batcher that is unavailable,
/// refuses or is rejected is a row with its reason ([`Row::failure`]).
fn row<R: Relation>(b: &dyn Batcher<R>, inputs: &[R::Input], statement: &Statement<R>) -> Row {
    if let Some(reason) = b.unavailable() {
        return failed_row(b, format!("unavailable: {reason}"));
    }
    match measure(b, inputs, statement, 1) {
        Ok(m) => Row {
            name: b.name(),
            failure: None,
            prove: m.prove,
            verify: m.verify,
            proof_bytes: m.proof.len(),
            soundness_bits: b.soundness_bits(),
        },
        Err(e) => failed_row(b, e.to_string()),
    }
}

/// The row of a batcher that did not prove and verify, with the reason.
fn failed_row<R: Relation>(b: &dyn Batcher<R>, failure: String) -> Row {
    Row {
        name: b.name(),
        failure: Some(failure),
        prove: Duration::ZERO,
        verify: Duration::ZERO,
        proof_bytes: 0,
        soundness_bits: b.soundness_bits(),
    }
}

/// What [`measure`] found: the best of the measured runs and the median.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The least prover time.
    pub prove: Duration,
    /// The median prover time.
    pub prove_median: Duration,
    /// The least verifier time (every run's proof is verified).
    pub verify: Duration,
    /// The proof of the fastest run.
    pub proof: Vec<u8>,
}

/// Proves `statement` about `inputs` with `batcher` `reps` times (after one unmeasured
/// warm-up when `reps > 1`), verifying every proof.
///
/// # Errors
/// The batcher's refusal or rejection, named; [`BatchError::Unsupported`] for `reps = 0`.
pub fn measure<R: Relation>(
    batcher: &dyn Batcher<R>,
    inputs: &[R::Input],
    statement: &Statement<R>,
    reps: usize,
) -> Result<Measurement, BatchError> {
    if reps == 0 {
        return Err(BatchError::Unsupported("no measured run".into()));
    }
    let named = |e: BatchError| BatchError::Prove(format!("{}: {e}", batcher.name()));
    let warm_up = usize::from(reps > 1);
    let mut runs = Vec::with_capacity(reps);
    for _ in 0..warm_up + reps {
        let clock = Instant::now();
        let proof = batcher.prove(inputs, statement).map_err(named)?;
        let prove = clock.elapsed();
        let clock = Instant::now();
        batcher.verify(statement, &proof).map_err(named)?;
        runs.push((prove, clock.elapsed(), proof));
    }
    let runs = &mut runs[warm_up..];
    let verify = runs.iter().map(|r| r.1).min().unwrap_or_default();
    runs.sort_by_key(|r| r.0);
    let prove_median = runs[runs.len() / 2].0;
    let (prove, _, proof) = runs[0].clone();
    Ok(Measurement {
        prove,
        prove_median,
        verify,
        proof,
    })
}

/// Batch-R1CS's ragged strategy over one commitment and transcript: one proof of exactly
/// `N` instances (the regions of `N`'s binary digits back to back, widest first, so each is
/// an aligned block, and the blocks past `N` an implicit zero extension;
/// [`flockwork_r1cs::padding`]), proving public-IO, committed, chain and (for a relation
/// with Merkle nodes) Merkle-tree statements: one setup for each kind of IO.
struct R1csBatcher<R, T> {
    /// The setup without IO ([`flockwork_r1cs::Statement::Batch`]): committed statements.
    committed: Flock<R, flockwork_pcs::Commitment, T>,
    public: Flock<R, flockwork_pcs::Commitment, T>,
    chain: Flock<R, flockwork_pcs::Commitment, T>,
    merkle: Option<Flock<R, flockwork_pcs::Commitment, T>>,
    name: String,
}

/// The Boolean relations batch-R1CS proves here: a shipped hash circuit ([`HashGadget`]: its
/// chain regions, and its Merkle regions where it has them) whose chain regions carry the
/// relation's chaining state.
trait HashCircuit:
    CircuitEncoding + HashGadget + ChainStep<State = <Self as Relation>::State> + Clone
{
}

impl<R> HashCircuit for R where
    R: CircuitEncoding + HashGadget + ChainStep<State = <R as Relation>::State> + Clone
{
}

/// The batch-R1CS batchers of `relation` for `count` instances: for each commitment scheme,
/// each strategy of `choices` — ragged ([`R1csBatcher`]: exactly `count` instances,
/// [`Flock::for_count`]), independent and padded ([`R1csRegionBatcher`]: the regions of
/// `count`'s binary digits); none for no instances.
fn r1cs_batchers<R: HashCircuit + 'static>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    if count == 0 || !choices.systems.contains(&System::BatchR1cs) {
        return Vec::new();
    }
    let mut batchers = Vec::new();
    for &scheme in &choices.schemes {
        let config = FlockConfig {
            scheme,
            target_bits: choices.target_bits,
            ..FlockConfig::default()
        };
        for &variant in &choices.variants {
            let name = format!(
                "batch-R1CS {} / {scheme} / {}",
                variant.name(),
                choices.transcript
            );
            let batcher = with_transcript!(choices.transcript, T => match variant {
                Variant::Ragged => R1csBatcher::<R, T>::new(relation, count, config, name.clone())
                    .map(|b| Box::new(b) as Box<dyn Batcher<R>>),
                _ => R1csRegionBatcher::<R, T>::new(relation, count, variant, config, name.clone())
                    .map(|b| Box::new(b) as Box<dyn Batcher<R>>),
            });
            batchers.push(batcher.unwrap_or_else(|reason| {
                let kinds = vec![
                    IoKind::Public,
                    IoKind::Committed,
                    IoKind::Chain,
                    IoKind::Merkle,
                ];
                unavailable(name, kinds, reason)
            }));
        }
    }
    batchers
}

/// The batch-R1CS setup of exactly `n` instances of `relation` with the IO `io` (`None`: no
/// IO, the setup of committed statements); `Err` with the reason if there is no such setup.
fn r1cs_setup<R: HashCircuit, T: TranscriptScheme>(
    relation: &R,
    n: usize,
    config: FlockConfig,
    io: Option<FlockIo>,
) -> Result<Flock<R, flockwork_pcs::Commitment, T>, String> {
    let flock = Flock::for_count(relation.clone(), n, config).map_err(|e| e.to_string())?;
    let flock = match io {
        Some(io) => R::configure(flock, io).map_err(|e| e.to_string())?,
        None => flock,
    };
    Ok(flock.with_transcript::<T>())
}

impl<R: HashCircuit + 'static, T: TranscriptScheme + Send + Sync> R1csBatcher<R, T> {
    /// The setups for exactly `count` instances; `Err` with the reason if the commitment
    /// cannot reach them.
    fn new(relation: &R, count: usize, config: FlockConfig, name: String) -> Result<Self, String> {
        let setup = |io| r1cs_setup::<R, T>(relation, count, config, io);
        Ok(Self {
            committed: setup(None)?,
            public: setup(Some(FlockIo::Public))?,
            chain: setup(Some(FlockIo::Chain))?,
            merkle: setup(Some(FlockIo::Merkle)).ok(),
            name,
        })
    }

    /// The instances' input vectors, instance after instance.
    fn words(&self, inputs: &[R::Input]) -> Vec<u64> {
        let relation = self.public.gadget();
        inputs
            .iter()
            .flat_map(|x| relation.encode_input(x))
            .collect()
    }

    /// The setup for the statement's IO and the batch-R1CS statement: every input and output
    /// vector, instance after instance, the chain's two states as region words, or (for a
    /// committed statement) none, the commitment being checked against the proof's.
    fn statement(
        &self,
        statement: &Statement<R>,
    ) -> Result<
        (
            &Flock<R, flockwork_pcs::Commitment, T>,
            flockwork_r1cs::Statement,
        ),
        BatchError,
    > {
        let count = self.public.instances();
        if statement.count() != count || !statement.is_consistent() {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {count}",
                statement.count()
            )));
        }
        let relation = self.public.gadget();
        Ok(match &statement.io {
            Io::Public { inputs, outputs } => (
                &self.public,
                flockwork_r1cs::Statement::Public {
                    inputs: inputs
                        .iter()
                        .flat_map(|x| relation.encode_input(x))
                        .collect(),
                    outputs: outputs
                        .iter()
                        .flat_map(|y| relation.encode_output(y))
                        .collect(),
                },
            ),
            Io::Committed { .. } => (&self.committed, flockwork_r1cs::Statement::Batch),
            Io::Chain { start, end, .. } => (
                &self.chain,
                flockwork_r1cs::Statement::Chain {
                    start: relation.state_words(start),
                    end: relation.state_words(end),
                },
            ),
            Io::Merkle { leaves, root } => (
                self.merkle.as_ref().ok_or_else(|| {
                    BatchError::Unsupported(format!("{} has no Merkle nodes", relation.name()))
                })?,
                flockwork_r1cs::Statement::Merkle {
                    root: relation.state_words(root),
                    leaves: leaves.iter().map(|l| relation.state_words(l)).collect(),
                },
            ),
        })
    }
}

impl<R, T> Batcher<R> for R1csBatcher<R, T>
where
    R: HashCircuit + 'static,
    T: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match io {
            IoKind::Public | IoKind::Committed | IoKind::Chain => true,
            IoKind::Merkle => self.merkle.is_some(),
        }
    }

    fn soundness_bits(&self) -> f64 {
        [
            Some(&self.committed),
            Some(&self.public),
            Some(&self.chain),
            self.merkle.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(|flock| flock.soundness().bits())
        .fold(f64::INFINITY, f64::min)
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let count = self.committed.instances();
        if inputs.len() != count {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {count}",
                inputs.len()
            )));
        }
        self.committed
            .commit(&self.words(inputs))
            .map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let (flock, st) = self.statement(statement)?;
        flock
            .prove(&self.words(inputs), &st)
            .map(|(proof, _)| proof.into_bytes())
            .map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        let (flock, st) = self.statement(statement)?;
        match &statement.io {
            Io::Committed { commitment, .. } => flock.verify_committed(commitment, proof),
            _ => flock.verify(&st, proof),
        }
        .map_err(|e| BatchError::Rejected(e.to_string()))
    }
}

/// One proof of an [`R1csRegionBatcher`]: the regions it proves at their offsets and its
/// setup for each kind of IO.
struct RegionPart<R, T> {
    /// `(region, offset)`: region `a` is the setup's instances `offset .. offset + 2^{w_a}`.
    regions: Vec<(usize, usize)>,
    committed: Flock<R, flockwork_pcs::Commitment, T>,
    public: Flock<R, flockwork_pcs::Commitment, T>,
    /// Every region its own chain ([`region_chain_setup`]).
    chain: Flock<R, flockwork_pcs::Commitment, T>,
}

/// Batch-R1CS's independent and padded strategies over one commitment and transcript, on
/// the regions of `N`'s binary digits `w_1 > … > w_A` (region `a` is the statement's
/// instances `first_a .. first_a + 2^{w_a}`), laid out as [`region_layout`] says:
/// independent, one proof of `2^{w_a}` instances per region; padded, one proof of `A·2^{w_1}`
/// instances, region `a` at `a·2^{w_1}` and the zero input everywhere else. Each proof's
/// commitment targets `⌈log2 proofs⌉` bits more, so that the union reaches the target
/// ([`per_proof`]).
///
/// - **Public IO**: each proof's public statement is its regions' inputs and outputs at
///   their offsets and, for every padding instance, the zero input and its output (computed
///   once, natively).
/// - **Committed IO**: the commitment is one per proof (each to its whole witness, padding
///   included), framed as below; each proof must carry its own.
/// - **A chain** `start → end`: the prover sends the states `m_1 … m_{A−1}` where regions
///   meet (`m_a` is region `a`'s first input state) and each proof shows each of its regions
///   to be a chain from `m_a` to `m_{a+1}` (`m_0 = start`, `m_A = end`;
///   [`Flock::region_chains`]). Together they are the chain `start → end`; the states are
///   bound by each proof's transcript with its statement.
/// - **Merkle trees** are the ragged batcher's: the left-complete tree over `N` leaves does
///   not split into one tree per region.
///
/// Bytes (proof and commitment alike): `"FWRB" ‖ u16le(`[`REGION_FORMAT_VERSION`]`) ‖
/// u32le(A − 1 or 0) ‖ u32le(proofs) ‖` the meeting states (`u64le` words) `‖` for each proof
/// `u32le(len) ‖ bytes`.
struct R1csRegionBatcher<R, T> {
    widths: Vec<usize>,
    /// `first_a`: the statement's first instance of each region.
    firsts: Vec<usize>,
    parts: Vec<RegionPart<R, T>>,
    /// The output vector of the zero input (public statements' padding).
    zero_output: Vec<u64>,
    name: String,
}

/// The format of batch-R1CS's independent and padded proofs and commitments (their framing;
/// each proof inside carries its own version): changes whenever the bytes' meaning does.
pub const REGION_FORMAT_VERSION: u16 = 1;
const REGION_MAGIC: &[u8; 4] = b"FWRB";

/// The bytes of an [`R1csRegionBatcher`] proof or commitment.
fn frame(states: &[u64], meetings: usize, parts: &[Vec<u8>]) -> Vec<u8> {
    let len = 14 + states.len() * 8 + parts.iter().map(|p| 4 + p.len()).sum::<usize>();
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(REGION_MAGIC);
    out.extend_from_slice(&REGION_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&u32::try_from(meetings).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&u32::try_from(parts.len()).unwrap_or(u32::MAX).to_le_bytes());
    for w in states {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for p in parts {
        out.extend_from_slice(&u32::try_from(p.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(p);
    }
    out
}

/// Reads [`frame`]'s bytes expecting exactly `meetings` states of `state_words` words and
/// `parts` parts; anything else, trailing bytes included, is [`BatchError::Rejected`].
fn unframe(
    bytes: &[u8],
    meetings: usize,
    state_words: usize,
    parts: usize,
) -> Result<(Vec<u64>, Vec<&[u8]>), BatchError> {
    let bad = |why: &str| BatchError::Rejected(format!("malformed region proof: {why}"));
    let Some((head, mut rest)) = bytes.split_first_chunk::<6>() else {
        return Err(bad("truncated"));
    };
    if &head[..4] != REGION_MAGIC {
        return Err(bad("not a batch-R1CS region proof"));
    }
    let version = u16::from_le_bytes([head[4], head[5]]);
    if version != REGION_FORMAT_VERSION {
        return Err(bad(&format!(
            "format version {version}; this build reads version {REGION_FORMAT_VERSION}"
        )));
    }
    let u32_at = |rest: &mut &[u8]| -> Result<usize, BatchError> {
        let (head, tail) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| bad("truncated"))?;
        *rest = tail;
        Ok(u32::from_le_bytes(*head) as usize)
    };
    if u32_at(&mut rest)? != meetings || u32_at(&mut rest)? != parts {
        return Err(bad("another number of meeting states or proofs"));
    }
    let words = meetings * state_words;
    if rest.len() < words * 8 {
        return Err(bad("truncated"));
    }
    let (head, tail) = rest.split_at(words * 8);
    rest = tail;
    let states = head
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("eight bytes")))
        .collect();
    let mut out = Vec::with_capacity(parts);
    for _ in 0..parts {
        let len = u32_at(&mut rest)?;
        if rest.len() < len {
            return Err(bad("truncated"));
        }
        let (part, tail) = rest.split_at(len);
        out.push(part);
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(bad("trailing bytes"));
    }
    Ok((states, out))
}

impl<R: HashCircuit + 'static, T: TranscriptScheme + Send + Sync> R1csRegionBatcher<R, T> {
    /// The setups of `variant` (independent or padded) for `count` instances; `Err` with the
    /// reason if the commitment cannot reach one.
    fn new(
        relation: &R,
        count: usize,
        variant: Variant,
        config: FlockConfig,
        name: String,
    ) -> Result<Self, String> {
        let widths = binary_regions(count);
        let firsts = widths
            .iter()
            .scan(0, |first, &w| {
                let at = *first;
                *first += 1usize << w;
                Some(at)
            })
            .collect();
        let layout = region_layout(&widths, variant);
        let config = per_proof(config, layout.len());
        let parts = layout
            .into_iter()
            .map(|(n, regions)| {
                Ok(RegionPart {
                    committed: r1cs_setup::<R, T>(relation, n, config, None)?,
                    public: r1cs_setup::<R, T>(relation, n, config, Some(FlockIo::Public))?,
                    chain: region_chain_setup(relation, &widths, n, &regions, config)
                        .map_err(|e| e.to_string())?
                        .with_transcript::<T>(),
                    regions,
                })
            })
            .collect::<Result<_, String>>()?;
        let zero = vec![0u64; relation.layout().vector_bits(SlotKind::Input) / 64];
        Ok(Self {
            zero_output: evaluate(relation, &zero),
            widths,
            firsts,
            parts,
            name,
        })
    }

    fn count(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    /// Refuses a statement about another count, or a malformed one.
    fn check(&self, statement: &Statement<R>) -> Result<(), BatchError> {
        let count = self.count();
        if statement.count() != count || !statement.is_consistent() {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {count}",
                statement.count()
            )));
        }
        Ok(())
    }

    /// `vectors[i]` (one per statement instance, `words` words each) at the part's regions'
    /// offsets, `padding` in every other instance of its setup.
    fn lay_out(&self, part: &RegionPart<R, T>, vectors: &[Vec<u64>], padding: &[u64]) -> Vec<u64> {
        let words = padding.len();
        let mut out = padding.repeat(part.public.instances());
        for &(a, offset) in &part.regions {
            let first = self.firsts[a];
            for (i, v) in vectors[first..first + (1 << self.widths[a])]
                .iter()
                .enumerate()
            {
                out[(offset + i) * words..][..words].copy_from_slice(v);
            }
        }
        out
    }

    /// Each part's witness inputs: the instances' input vectors at the regions' offsets, the
    /// zero input elsewhere.
    fn inputs(&self, inputs: &[R::Input]) -> Vec<Vec<u64>> {
        let relation = self.parts[0].public.gadget();
        let vectors: Vec<Vec<u64>> = inputs.iter().map(|x| relation.encode_input(x)).collect();
        let zero = vec![0u64; relation.layout().vector_bits(SlotKind::Input) / 64];
        self.parts
            .iter()
            .map(|p| self.lay_out(p, &vectors, &zero))
            .collect()
    }

    /// Each part's public statement.
    fn public_statements(
        &self,
        inputs: &[R::Input],
        outputs: &[R::Output],
    ) -> Vec<flockwork_r1cs::Statement> {
        let relation = self.parts[0].public.gadget();
        let outputs: Vec<Vec<u64>> = outputs.iter().map(|y| relation.encode_output(y)).collect();
        self.inputs(inputs)
            .into_iter()
            .zip(&self.parts)
            .map(|(inputs, p)| flockwork_r1cs::Statement::Public {
                inputs,
                outputs: self.lay_out(p, &outputs, &self.zero_output),
            })
            .collect()
    }

    /// Each part's chain statement from the states `m_0 … m_A` where regions begin and end.
    fn chain_statements(&self, states: &[Vec<u64>]) -> Vec<flockwork_r1cs::Statement> {
        self.parts
            .iter()
            .map(|p| flockwork_r1cs::Statement::Chain {
                start: p
                    .regions
                    .iter()
                    .flat_map(|&(a, _)| states[a].clone())
                    .collect(),
                end: p
                    .regions
                    .iter()
                    .flat_map(|&(a, _)| states[a + 1].clone())
                    .collect(),
            })
            .collect()
    }

    /// `m_0 … m_A` from a chain's ends and the meeting states (flat words).
    fn chain_states(
        &self,
        start: &<R as Relation>::State,
        end: &<R as Relation>::State,
        meetings: &[u64],
    ) -> Vec<Vec<u64>> {
        let relation = self.parts[0].public.gadget();
        let first = relation.state_words(start);
        let words = first.len();
        std::iter::once(first)
            .chain(meetings.chunks_exact(words.max(1)).map(<[u64]>::to_vec))
            .chain(std::iter::once(relation.state_words(end)))
            .collect()
    }

    /// Words of one chain state.
    fn state_words(&self, state: &<R as Relation>::State) -> usize {
        self.parts[0].public.gadget().state_words(state).len()
    }

    /// The meeting states of a chain through `inputs`: region `a`'s first input state for
    /// `a ≥ 1`.
    fn meetings(&self, inputs: &[R::Input]) -> Result<Vec<u64>, BatchError> {
        let relation = self.parts[0].public.gadget();
        self.firsts[1..]
            .iter()
            .map(|&i| {
                let state = inputs
                    .get(i)
                    .and_then(|x| relation.input_state(x))
                    .ok_or_else(|| {
                        BatchError::Prove(format!("no chaining state in instance {i}"))
                    })?;
                Ok(relation.state_words(&state))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|m| m.concat())
    }

    /// Each part's commitment, or the first error.
    fn commitments(&self, inputs: &[R::Input]) -> Result<Vec<Vec<u8>>, BatchError> {
        if inputs.len() != self.count() {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {}",
                inputs.len(),
                self.count()
            )));
        }
        self.commit_words(&self.inputs(inputs))
    }

    /// Each part's commitment to its laid-out witness inputs ([`Self::inputs`]).
    fn commit_words(&self, words: &[Vec<u64>]) -> Result<Vec<Vec<u8>>, BatchError> {
        words
            .iter()
            .zip(&self.parts)
            .map(|(words, p)| {
                p.committed
                    .commit(words)
                    .map_err(|e| BatchError::Prove(e.to_string()))
            })
            .collect()
    }
}

impl<R, T> Batcher<R> for R1csRegionBatcher<R, T>
where
    R: HashCircuit + 'static,
    T: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        io != IoKind::Merkle
    }

    fn soundness_bits(&self) -> f64 {
        // Per kind of IO, the union of the proofs' errors; the weakest kind.
        let picks: [Pick<R, T>; 3] = [|p| &p.committed, |p| &p.public, |p| &p.chain];
        picks
            .into_iter()
            .map(|pick| {
                let error: f64 = self
                    .parts
                    .iter()
                    .map(|p| (-pick(p).soundness().bits()).exp2())
                    .sum();
                -error.log2()
            })
            .fold(f64::INFINITY, f64::min)
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        Ok(frame(&[], 0, &self.commitments(inputs)?))
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        self.check(statement)?;
        if inputs.len() != self.count() {
            return Err(BatchError::Prove(format!(
                "{} inputs for {} instances",
                inputs.len(),
                self.count()
            )));
        }
        let words = self.inputs(inputs);
        let prove = |p: &Flock<R, flockwork_pcs::Commitment, T>, w: &[u64], st| {
            p.prove(w, st)
                .map(|(proof, _)| proof.into_bytes())
                .map_err(|e| BatchError::Prove(e.to_string()))
        };
        let (meetings, statements, pick): (Vec<u64>, Vec<_>, Pick<R, T>) = match &statement.io {
            Io::Public { inputs: x, outputs } => {
                (Vec::new(), self.public_statements(x, outputs), |p| {
                    &p.public
                })
            }
            Io::Committed { commitment, .. } => {
                if frame(&[], 0, &self.commit_words(&words)?) != *commitment {
                    return Err(BatchError::Prove(
                        "the inputs are not the ones the statement's commitment binds".into(),
                    ));
                }
                let batch = vec![flockwork_r1cs::Statement::Batch; self.parts.len()];
                (Vec::new(), batch, |p| &p.committed)
            }
            Io::Chain { start, end, .. } => {
                let meetings = self.meetings(inputs)?;
                let states = self.chain_states(start, end, &meetings);
                (meetings, self.chain_statements(&states), |p| &p.chain)
            }
            Io::Merkle { .. } => return Err(self.no_trees()),
        };
        let proofs = self
            .parts
            .iter()
            .zip(&words)
            .zip(&statements)
            .map(|((p, w), st)| prove(pick(p), w, st))
            .collect::<Result<Vec<_>, _>>()?;
        let count = if meetings.is_empty() {
            0
        } else {
            self.widths.len() - 1
        };
        Ok(frame(&meetings, count, &proofs))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        self.check(statement)?;
        let parts = self.parts.len();
        let rejected = |e: flockwork_r1cs::FlockError| BatchError::Rejected(e.to_string());
        match &statement.io {
            Io::Public { inputs, outputs } => {
                let (_, proofs) = unframe(proof, 0, 0, parts)?;
                for ((p, st), bytes) in self
                    .parts
                    .iter()
                    .zip(self.public_statements(inputs, outputs))
                    .zip(proofs)
                {
                    p.public.verify(&st, bytes).map_err(rejected)?;
                }
            }
            Io::Committed { commitment, .. } => {
                let (_, commitments) = unframe(commitment, 0, 0, parts)?;
                let (_, proofs) = unframe(proof, 0, 0, parts)?;
                for ((p, c), bytes) in self.parts.iter().zip(commitments).zip(proofs) {
                    p.committed.verify_committed(c, bytes).map_err(rejected)?;
                }
            }
            Io::Chain { start, end, .. } => {
                let meetings = self.widths.len() - 1;
                let (states, proofs) = unframe(proof, meetings, self.state_words(start), parts)?;
                let states = self.chain_states(start, end, &states);
                for ((p, st), bytes) in self
                    .parts
                    .iter()
                    .zip(self.chain_statements(&states))
                    .zip(proofs)
                {
                    p.chain.verify(&st, bytes).map_err(rejected)?;
                }
            }
            Io::Merkle { .. } => return Err(self.no_trees()),
        }
        Ok(())
    }
}

/// Which of a part's setups proves a statement.
type Pick<R, T> = fn(&RegionPart<R, T>) -> &Flock<R, flockwork_pcs::Commitment, T>;

impl<R: HashCircuit + 'static, T: TranscriptScheme + Send + Sync> R1csRegionBatcher<R, T> {
    fn no_trees(&self) -> BatchError {
        BatchError::Unsupported(format!(
            "{}: a Merkle tree over N leaves does not split into regions (use the ragged \
             batcher)",
            self.name
        ))
    }
}

/// A field the GKR batchers of a layered encoding run over: the challenge field extending it
/// and, for committed IO, the commitment each shipped scheme names over it.
pub trait GkrField: Field {
    /// The walks' challenge field (`≥ 2^{100}` elements for the default target).
    type Challenge: ExtensionField<Self> + 'static;
    /// The commitment of committed IO.
    type Pcs: ConfiguredCommitment<Self>;

    /// The commitment `scheme` over this field for `num_vars` variables reaching
    /// `target_bits`.
    ///
    /// # Errors
    /// Why there is none (a scheme not implemented over this field, a size it cannot reach).
    fn commitment(scheme: PcsKind, num_vars: usize, target_bits: u32) -> Result<Self::Pcs, String>;
}

/// GF(2^128): GF(2^256) challenges, every shipped scheme.
impl GkrField for Ghash128 {
    type Challenge = Ghash256;
    type Pcs = Commitment;

    fn commitment(
        scheme: PcsKind,
        num_vars: usize,
        target_bits: u32,
    ) -> Result<Commitment, String> {
        Commitment::select(scheme, num_vars, target_bits).map_err(|e| e.to_string())
    }
}

/// BN254's scalar field: challenges in the field itself (254 bits), FRI as BaseFold
/// (Reed–Solomon over the radix-2 domain); Ligerito and Blaze are binary-field schemes here.
impl GkrField for Bn254Fr {
    type Challenge = Bn254Fr;
    type Pcs = BaseFold<Bn254Fr, sha2::Sha256>;

    fn commitment(scheme: PcsKind, num_vars: usize, target_bits: u32) -> Result<Self::Pcs, String> {
        match scheme {
            PcsKind::Fri => {
                BaseFold::with_security(num_vars, target_bits, 1).map_err(|e| e.to_string())
            }
            other => Err(format!(
                "{other} commits binary-field polynomials only (BN254: fri, as BaseFold)"
            )),
        }
    }
}

/// The GKR batchers of `relation` for `count` instances ([`LayeredBatcher`] over the
/// encoding's field, [`GkrField`]): one per strategy for public IO, then one per commitment
/// scheme and strategy for committed IO (none for a scheme that cannot commit so few values
/// or has no commitment over the field).
fn gkr_batchers<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: LayeredEncoding + Clone + Sync + 'static,
    R::Base: GkrField,
{
    if count == 0 || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    with_transcript!(choices.transcript, D => {
        type Layered<R, D> = LayeredBatcher<
            R,
            <<R as LayeredRelation>::Base as GkrField>::Challenge,
            D,
            <<R as LayeredRelation>::Base as GkrField>::Pcs,
        >;
        let public = choices.variants.iter().map(|&variant| {
            Box::new(Layered::<R, D>::public(relation.clone(), count, variant))
                as Box<dyn Batcher<R>>
        });
        let committed = committed_choices(choices).map(|(scheme, variant)| {
            Layered::<R, D>::committed(relation.clone(), count, variant, |vars| {
                R::Base::commitment(scheme, vars, choices.target_bits)
            })
            .map_or_else(
                |e| {
                    let name = format!("GKR {} / {scheme} / {}", variant.name(), D::NAME);
                    unavailable(name, vec![IoKind::Committed], e.to_string())
                },
                |b| Box::new(b) as Box<dyn Batcher<R>>,
            )
        });
        public.chain(committed).collect()
    })
}

/// The (commitment scheme, strategy) pairs of committed-IO GKR batchers.
fn committed_choices(choices: &Choices) -> impl Iterator<Item = (PcsKind, Variant)> + '_ {
    choices.schemes.iter().flat_map(|&scheme| {
        choices
            .variants
            .iter()
            .map(move |&variant| (scheme, variant))
    })
}

/// The Boolean GKR batcher of `relation` for `count` instances with `variant`
/// ([`BooleanBatcher`]): public IO for `scheme = None`, committed IO over `scheme`
/// (ring-switched) otherwise; `None` for no instances or a scheme that cannot commit so few
/// bits. Its [`Batcher::commit`], [`Batcher::prove`], [`Batcher::verify`] and
/// [`Batcher::soundness_bits`] are the whole interface: the proof's bytes are its length,
/// and the soundness counts the walks, the opening's reductions and the commitment.
#[must_use]
pub fn boolean_gkr_batcher<R>(
    relation: &R,
    count: usize,
    variant: Variant,
    scheme: Option<PcsKind>,
    choices: &Choices,
) -> Option<Box<dyn Batcher<R>>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    if count == 0 {
        return None;
    }
    let listed = boolean_gkr_listed(relation, count, variant, scheme, choices);
    listed.unavailable().is_none().then_some(listed)
}

/// [`boolean_gkr_batcher`] for `count ≥ 1`, or the [`Unavailable`] batcher with its reason.
fn boolean_gkr_listed<R>(
    relation: &R,
    count: usize,
    variant: Variant,
    scheme: Option<PcsKind>,
    choices: &Choices,
) -> Box<dyn Batcher<R>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    with_transcript!(choices.transcript, D => {
        type Boolean<R, D> = BooleanBatcher<R, D, Commitment>;
        match scheme {
            None => Box::new(Boolean::<R, D>::public(relation.clone(), count, variant))
                as Box<dyn Batcher<R>>,
            Some(scheme) => Boolean::<R, D>::committed(relation.clone(), count, variant, |vars| {
                Commitment::for_bits(scheme, vars, choices.target_bits, &Profile::default())
            })
            .map_or_else(
                |e| {
                    let name =
                        format!("GKR boolean {} / {scheme} / {}", variant.name(), D::NAME);
                    unavailable(name, vec![IoKind::Committed], e.to_string())
                },
                |b| Box::new(b) as Box<dyn Batcher<R>>,
            ),
        }
    })
}

/// The [`Unavailable`] batcher `name` (for IO of `kinds`) with its reason.
fn unavailable<R: Relation>(
    name: String,
    kinds: Vec<IoKind>,
    reason: String,
) -> Box<dyn Batcher<R>> {
    Box::new(Unavailable {
        name,
        kinds,
        reason,
    })
}

/// The Boolean GKR batchers of `relation` for `count` instances: one per strategy for public
/// IO, and one per commitment scheme and strategy for committed IO (none for a scheme that
/// cannot commit so few bits).
fn boolean_gkr_batchers<R>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    if count == 0 || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    let public = choices.variants.iter().map(|&variant| (None, variant));
    let committed = committed_choices(choices).map(|(scheme, variant)| (Some(scheme), variant));
    public
        .chain(committed)
        .map(|(scheme, variant)| boolean_gkr_listed(relation, count, variant, scheme, choices))
        .collect()
}

/// SHA-256 and BLAKE3: batch-R1CS.
macro_rules! provable_by_batch_r1cs {
    ($($relation:ty),*) => {$(
        impl Provable for $relation {
            fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
                r1cs_batchers(self, count, choices)
            }
        }
    )*};
}

provable_by_batch_r1cs!(Sha256Compress, Blake3Compress);

/// Keccak-f\[1600\]: batch-R1CS and GKR on its Boolean layers, one statement for both.
impl Provable for KeccakF1600 {
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
        let mut batchers = r1cs_batchers(self, count, choices);
        batchers.extend(boolean_gkr_batchers(self, count, choices));
        batchers
    }
}

/// Poseidon2b: the GKR strategies.
impl Provable for Poseidon2bRelation {
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
        gkr_batchers(self, count, choices)
    }
}

/// Poseidon2 over BN254 (any width): the GKR strategies over the prime field.
impl Provable for Poseidon2Relation<Bn254Fr> {
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
        gkr_batchers(self, count, choices)
    }
}
