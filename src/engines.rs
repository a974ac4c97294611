//! Every engine on one relation: the batchers that can prove a [`Relation`], listed at run
//! time, each proving the same [`Statement`] — the comparison the framework exists for.
//!
//! [`batchers_for`] asks a relation ([`Provable`]) for the batchers its encodings allow at a
//! count, commitment choice and transcript ([`Choices`]):
//!
//! | encoding | batchers | statements | counts |
//! |---|---|---|---|
//! | [`CircuitEncoding`] (SHA-256, BLAKE3, Keccak-f compressions) | batch-R1CS over each commitment scheme | public IO, committed IO, a chain, a Merkle tree (SHA-256, BLAKE3) | any (exactly `N`; Merkle trees over a power of two of leaves) |
//! | [`BooleanLayeredEncoding`] (Keccak-f) | the independent, padded and ragged GKR walks on the Boolean layers ([`BooleanGkr`]); for committed IO each over each commitment scheme (ring-switched) | public IO, committed IO | any (regions of the count's binary digits) |
//! | [`LayeredEncoding`] (the Poseidon2b permutation) | the independent, padded and ragged GKR walks; for committed IO each over each commitment scheme | public IO, committed IO | any (regions of the count's binary digits) |
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
//! ([`BooleanGkr::prove_io`]; module docs of [`flockwork_gkr::boolean`]).
//! A statement's outputs are the relation's native evaluation ([`Statement::public`]), and a
//! statement with any other output is rejected by every batcher (tests), so a verified proof
//! checks the engine against the relation.
//!
//! ## The GKR public-IO statement
//!
//! A GKR walk proves claims on the multilinear extensions of a region's outputs. For public
//! outputs the claims are derived, by prover and verifier alike: the inputs give each region's
//! committed layer, and a SHA-256 transcript (protocol [`GKR_PUBLIC_PROTOCOL`], the relation's
//! id) absorbs every output and every layer digest before it draws one point per region; the
//! claim's values are the outputs' multilinear extensions at that point. A wrong output
//! changes the points and the values, and is accepted with probability at most `w/|E|` for a
//! region of `2^w` instances (Schwartz–Zippel over `E = GF(2^256)`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::flock::{HashGadget, IoKind as FlockIo};
use crate::permutations::region_widths;
use flockwork_boolean::io::ChainStep;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::CircuitEncoding;
use flockwork_core::relation::{
    BatchError, Batcher, BooleanLayeredEncoding, Io, IoKind, LayeredEncoding, Relation, Statement,
};
use flockwork_field::Field;
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_gkr::statement::evaluate_columns;
use flockwork_gkr::{
    BooleanGkr, BooleanStatement, CommittedLayer, RegionClaim, RegionStatement, Setup, Variant,
};
use flockwork_pcs::PcsKind;
use flockwork_pcs::ring_switch::RingSwitched;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_r1cs::{Flock, FlockConfig};
use flockwork_transcript::{
    DomainSeparator, Sha256ProverTranscript, Transcript, TranscriptKind, TranscriptScheme,
};

/// Domain separator of the GKR public-IO points ([module docs](self)).
pub const GKR_PUBLIC_PROTOCOL: &str = "flockwork/engines/gkr-public-io/v1";

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
    /// The GKR batching strategies.
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
    /// The batchers that can prove `count` instances with `choices`; empty if none can.
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>>;
}

/// Every batcher that can prove `count` instances of `relation` with `choices`.
#[must_use]
pub fn batchers_for<R: Provable>(
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
/// [`batchers_for`] lists that supports its kind of IO, verifies each proof, and returns one
/// row per batcher. A committed statement belongs to the batcher that made its commitment:
/// [`compare_committed`] makes one per batcher.
///
/// # Errors
/// [`BatchError::Unsupported`] for a committed statement; the first batcher that refuses or
/// whose proof is rejected (a false statement, or a bug), named.
pub fn compare_statement<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    if statement.kind() == IoKind::Committed {
        return Err(BatchError::Unsupported(
            "a committed statement is one batcher's (compare_committed makes one per batcher)"
                .into(),
        ));
    }
    batchers_for(relation, statement.count(), choices)
        .into_iter()
        .filter(|b| b.supports(statement.kind()))
        .map(|b| row(b.as_ref(), inputs, statement))
        .collect()
}

/// Commits to `inputs` and their outputs with every batcher [`batchers_for`] lists that
/// proves committed statements ([`Batcher::commit`]), proves each one's
/// [`Statement::committed`], verifies it, and returns one row per batcher (the prover's time
/// includes its commitment; [`Batcher::commit`] itself is the statement's maker's work).
///
/// # Errors
/// The first batcher that refuses or whose proof is rejected (a bug), named.
pub fn compare_committed<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    batchers_for(relation, inputs.len(), choices)
        .into_iter()
        .filter(|b| b.supports(IoKind::Committed))
        .map(|b| {
            let commitment = b
                .commit(inputs)
                .map_err(|e| BatchError::Prove(format!("{}: {e}", b.name())))?;
            row(
                b.as_ref(),
                inputs,
                &Statement::committed(inputs.len(), commitment),
            )
        })
        .collect()
}

/// Proves and verifies `statement` with one batcher, timed.
fn row<R: Relation>(
    b: &dyn Batcher<R>,
    inputs: &[R::Input],
    statement: &Statement<R>,
) -> Result<Row, BatchError> {
    let m = measure(b, inputs, statement, 1)?;
    Ok(Row {
        name: b.name(),
        prove: m.prove,
        verify: m.verify,
        proof_bytes: m.proof.len(),
        soundness_bits: b.soundness_bits(),
    })
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

/// Batch-R1CS over one commitment and transcript, proving public-IO, committed, chain and
/// (for a relation with Merkle nodes) Merkle-tree statements about `N` instances: one setup
/// for each kind of IO.
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

/// The batch-R1CS batchers of `relation` for exactly `count` instances
/// ([`Flock::for_count`]): one per commitment scheme, none for no instances.
fn r1cs_batchers<R: HashCircuit + 'static>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    if count == 0 || !choices.systems.contains(&System::BatchR1cs) {
        return Vec::new();
    }
    choices
        .schemes
        .iter()
        .filter_map(|&scheme| {
            let config = FlockConfig {
                scheme,
                target_bits: choices.target_bits,
                ..FlockConfig::default()
            };
            let setup = |io| {
                Flock::for_count(relation.clone(), count, config)
                    .ok()
                    .and_then(|f| R::configure(f, io).ok())
            };
            let committed = Flock::for_count(relation.clone(), count, config).ok()?;
            let public = setup(FlockIo::Public)?;
            let chain = setup(FlockIo::Chain)?;
            let merkle = setup(FlockIo::Merkle);
            let name = format!("batch-R1CS / {scheme} / {}", choices.transcript);
            Some(with_transcript!(choices.transcript, T => {
                Box::new(R1csBatcher {
                    committed: committed.with_transcript::<T>(),
                    public: public.with_transcript::<T>(),
                    chain: chain.with_transcript::<T>(),
                    merkle: merkle.map(Flock::with_transcript::<T>),
                    name,
                }) as Box<dyn Batcher<R>>
            }))
        })
        .collect()
}

impl<R: HashCircuit + 'static, T: TranscriptScheme + Send + Sync> R1csBatcher<R, T> {
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

/// The (commitment scheme, strategy) pairs of the GKR batchers: each strategy for public IO
/// (`None`), then each again over each scheme.
fn gkr_combinations(choices: &Choices) -> impl Iterator<Item = (Option<PcsKind>, Variant)> + '_ {
    std::iter::once(None)
        .chain(choices.schemes.iter().copied().map(Some))
        .flat_map(|scheme| {
            choices
                .variants
                .iter()
                .map(move |&variant| (scheme, variant))
        })
}

/// The commitment `pcs` of a GKR batcher named `name` whose setup proves `setup_count`
/// instances, for a committed statement about `count`.
fn committed_pcs<'a, P>(
    pcs: Option<&'a P>,
    count: usize,
    setup_count: usize,
    name: &str,
) -> Result<&'a P, BatchError> {
    match pcs {
        Some(pcs) if count == setup_count => Ok(pcs),
        Some(_) => Err(BatchError::Unsupported(format!(
            "{count} instances; this setup proves {setup_count}"
        ))),
        None => Err(BatchError::Unsupported(format!(
            "{name} proves public-IO statements"
        ))),
    }
}

/// The commitment a GKR prover makes again from its `given` inputs (`commit`) with its
/// prover data, refused unless there are `count` inputs and it is the statement's
/// `commitment`.
fn remade_commitment<D, E: ToString>(
    given: usize,
    count: usize,
    commitment: &[u8],
    commit: impl FnOnce() -> Result<(Vec<u8>, D), E>,
) -> Result<(Vec<u8>, D), BatchError> {
    if given != count {
        return Err(BatchError::Prove(format!(
            "{given} inputs for {count} instances"
        )));
    }
    let (made, data) = commit().map_err(|e| BatchError::Prove(e.to_string()))?;
    if made != commitment {
        return Err(BatchError::Prove(
            "the inputs are not the ones the statement's commitment binds".into(),
        ));
    }
    Ok((made, data))
}

/// A GKR batching strategy over one transcript, proving public-IO statements or, with a
/// commitment to the inputs and outputs, committed statements
/// ([`Setup::prove_io`](flockwork_gkr::Setup::prove_io)).
struct GkrBatcher<R, D> {
    setup: Setup<R, Ghash256, D>,
    variant: Variant,
    /// The commitment of committed statements; `None` for public IO.
    pcs: Option<flockwork_pcs::Commitment>,
    name: String,
}

/// The GKR batchers of `relation` for `count` instances: one per strategy for public IO,
/// and one per strategy and commitment scheme for committed IO.
fn gkr_batchers<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: LayeredEncoding<Base = Ghash128> + Clone + 'static,
{
    if count == 0 || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    gkr_combinations(choices)
        .filter_map(|(scheme, variant)| {
            with_transcript!(choices.transcript, D => {
                let setup = Setup::<R, Ghash256, D>::new(relation.clone(), region_widths(count));
                let pcs = match scheme {
                    None => None,
                    Some(scheme) => Some(
                        flockwork_pcs::Commitment::select(
                            scheme,
                            setup.io_layout().num_vars(),
                            choices.target_bits,
                        )
                        .ok()?,
                    ),
                };
                let name = match scheme {
                    None => format!("GKR {} / {}", variant.name(), choices.transcript),
                    Some(scheme) => {
                        format!("GKR {} / {scheme} / {}", variant.name(), choices.transcript)
                    }
                };
                Some(Box::new(GkrBatcher { setup, variant, pcs, name }) as Box<dyn Batcher<R>>)
            })
        })
        .collect()
}

impl<R, D> GkrBatcher<R, D>
where
    R: LayeredEncoding<Base = Ghash128> + Clone + Sync + 'static,
    D: TranscriptScheme,
{
    /// The instances' input rows, region by region (`t · 2^w` elements each).
    fn regions(&self, inputs: &[R::Input]) -> Vec<Vec<Ghash128>> {
        let relation = self.setup.relation();
        let mut rest = inputs;
        self.setup
            .widths()
            .iter()
            .map(|&w| {
                let (region, tail) = rest.split_at(1 << w);
                rest = tail;
                region
                    .iter()
                    .flat_map(|x| relation.input_lanes(x))
                    .collect()
            })
            .collect()
    }

    /// The commitment of committed statements about `count` instances.
    fn committed_pcs(&self, count: usize) -> Result<&flockwork_pcs::Commitment, BatchError> {
        let setup_count: usize = self.setup.widths().iter().map(|&w| 1usize << w).sum();
        committed_pcs(self.pcs.as_ref(), count, setup_count, &self.name)
    }

    /// The walk's statement for public inputs and outputs ([module docs](self)).
    fn statement(
        &self,
        statement: &Statement<R>,
    ) -> Result<flockwork_gkr::Statement<Ghash128, Ghash256>, BatchError> {
        let (None, Io::Public { inputs, outputs }) = (&self.pcs, &statement.io) else {
            return Err(BatchError::Unsupported(format!(
                "{} does not prove {:?} statements",
                self.name,
                statement.kind()
            )));
        };
        let count: usize = self.setup.widths().iter().map(|&w| 1usize << w).sum();
        if inputs.len() != count || outputs.len() != count {
            return Err(BatchError::Unsupported(format!(
                "{} instances with {} outputs; this setup proves {count}",
                inputs.len(),
                outputs.len()
            )));
        }
        let relation = self.setup.relation();
        let t = relation.lanes();
        let mut fs =
            Sha256ProverTranscript::new(DomainSeparator::new(GKR_PUBLIC_PROTOCOL, &relation.id()));
        let mut bytes = Vec::with_capacity(Ghash128::NUM_BYTES * t * count);
        let mut buf = vec![0u8; Ghash128::NUM_BYTES];
        for y in outputs {
            for lane in relation.output_lanes(y) {
                lane.write_bytes(&mut buf);
                bytes.extend_from_slice(&buf);
            }
        }
        fs.public_bytes("outputs", &bytes);
        let layers: Vec<CommittedLayer<Ghash128>> = self
            .setup
            .widths()
            .iter()
            .zip(self.regions(inputs))
            .map(|(&w, rows)| CommittedLayer::from_inputs(relation, w, &rows))
            .collect();
        for layer in &layers {
            fs.public_bytes("commitment", layer.digest());
        }
        let mut rest = &outputs[..];
        let regions = layers
            .into_iter()
            .map(|layer| {
                let w = layer.width();
                let (region, tail) = rest.split_at(1 << w);
                rest = tail;
                let mut columns = vec![Vec::with_capacity(1 << w); t];
                for y in region {
                    for (c, v) in columns.iter_mut().zip(relation.output_lanes(y)) {
                        c.push(v);
                    }
                }
                let point: Vec<Ghash256> = fs.challenges("point", w);
                let values = evaluate_columns(&columns, &point);
                RegionStatement {
                    committed: Arc::new(layer),
                    claim: RegionClaim { point, values },
                }
            })
            .collect();
        Ok(flockwork_gkr::Statement { regions })
    }
}

impl<R, D> Batcher<R> for GkrBatcher<R, D>
where
    R: LayeredEncoding<Base = Ghash128> + Clone + Sync + 'static,
    D: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match self.pcs {
            None => io == IoKind::Public,
            Some(_) => io == IoKind::Committed,
        }
    }

    fn soundness_bits(&self) -> f64 {
        match &self.pcs {
            None => self.setup.soundness_bits(self.variant),
            Some(pcs) => self
                .setup
                .io_soundness_bits(self.variant, pcs.security_report().bits()),
        }
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let pcs = self.committed_pcs(inputs.len())?;
        let (commitment, _) = self
            .setup
            .commit_io(pcs, &self.regions(inputs))
            .map_err(|e| BatchError::Prove(e.to_string()))?;
        Ok(commitment)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let proved = match &statement.io {
            Io::Committed { count, commitment } => {
                let pcs = self.committed_pcs(*count)?;
                let regions = self.regions(inputs);
                let (made, data) = remade_commitment(inputs.len(), *count, commitment, || {
                    self.setup.commit_io(pcs, &regions)
                })?;
                self.setup
                    .prove_io(self.variant, pcs, &made, &data, &regions)
            }
            _ => {
                let st = self.statement(statement)?;
                self.setup.prove(self.variant, &self.regions(inputs), &st)
            }
        };
        proved.map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        match &statement.io {
            Io::Committed { count, commitment } => {
                let pcs = self.committed_pcs(*count)?;
                self.setup.verify_io(self.variant, pcs, commitment, proof)
            }
            _ => {
                let st = self.statement(statement)?;
                self.setup.verify(self.variant, &st, proof)
            }
        }
        .map_err(|e| BatchError::Rejected(e.to_string()))
    }
}

/// The Boolean GKR batcher of `relation` for `count` instances with `variant`: public IO for
/// `scheme = None`, committed IO over `scheme` (ring-switched) otherwise; `None` for no
/// instances or a scheme that cannot commit so few bits. Its [`Batcher::commit`],
/// [`Batcher::prove`], [`Batcher::verify`] and [`Batcher::soundness_bits`] are the whole
/// interface: the proof's bytes are its length, and the soundness counts the walks, the
/// opening's reductions and the commitment.
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
    let only = Choices {
        schemes: scheme.into_iter().collect(),
        variants: vec![variant],
        ..choices.clone()
    };
    let io = if scheme.is_some() {
        IoKind::Committed
    } else {
        IoKind::Public
    };
    boolean_gkr_batchers(relation, count, &only)
        .into_iter()
        .find(|b| b.supports(io))
}

/// GKR over GF(2^128) on a Boolean layered encoding ([`BooleanGkr`]) with one batching
/// strategy, regions of the count's binary digits, proving public-IO statements or, with a
/// ring-switched commitment to the inputs' and outputs' bits, committed statements
/// ([`BooleanGkr::prove_io`]).
struct BooleanGkrBatcher<R, D> {
    setup: BooleanGkr<R, D>,
    variant: Variant,
    /// The commitment of committed statements; `None` for public IO.
    pcs: Option<RingSwitched<flockwork_pcs::Commitment>>,
    name: String,
}

/// The Boolean GKR batchers of `relation` for `count` instances: one per strategy for public
/// IO, and one per strategy and commitment scheme for committed IO (none for a scheme that
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
    gkr_combinations(choices)
        .filter_map(|(scheme, variant)| {
            with_transcript!(choices.transcript, D => {
                let setup = BooleanGkr::<R, D>::new(relation.clone(), region_widths(count));
                let pcs = match scheme {
                    None => None,
                    Some(scheme) => Some(RingSwitched::new(
                        flockwork_pcs::Commitment::for_bits(
                            scheme,
                            setup.io_bit_vars(),
                            choices.target_bits,
                            &flockwork_pcs::Profile::default(),
                        )
                        .ok()?,
                    )),
                };
                let name = match scheme {
                    None => format!("GKR boolean {} / {}", variant.name(), choices.transcript),
                    Some(scheme) => format!(
                        "GKR boolean {} / {scheme} / {}",
                        variant.name(),
                        choices.transcript
                    ),
                };
                Some(Box::new(BooleanGkrBatcher { setup, variant, pcs, name })
                    as Box<dyn Batcher<R>>)
            })
        })
        .collect()
}

impl<R, D> BooleanGkrBatcher<R, D>
where
    R: BooleanLayeredEncoding + Sync + 'static,
    D: TranscriptScheme,
{
    /// The instances' input states, instance after instance.
    fn input_words(&self, inputs: &[R::Input]) -> Vec<u64> {
        let relation = self.setup.relation();
        inputs.iter().flat_map(|x| relation.input_bits(x)).collect()
    }

    /// The commitment of committed statements about `count` instances.
    fn committed_pcs(
        &self,
        count: usize,
    ) -> Result<&RingSwitched<flockwork_pcs::Commitment>, BatchError> {
        committed_pcs(self.pcs.as_ref(), count, self.setup.count(), &self.name)
    }

    /// The walk's statement: every input and output state, instance after instance.
    fn statement(&self, statement: &Statement<R>) -> Result<BooleanStatement, BatchError> {
        let count = self.setup.count();
        match (&self.pcs, &statement.io) {
            (None, Io::Public { inputs, outputs })
                if inputs.len() == count && outputs.len() == count =>
            {
                let relation = self.setup.relation();
                Ok(BooleanStatement {
                    inputs: self.input_words(inputs),
                    outputs: outputs
                        .iter()
                        .flat_map(|y| relation.output_bits(y))
                        .collect(),
                })
            }
            (None, Io::Public { inputs, .. }) => Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {count}",
                inputs.len()
            ))),
            _ => Err(BatchError::Unsupported(format!(
                "{} does not prove {:?} statements",
                self.name,
                statement.kind()
            ))),
        }
    }
}

impl<R, D> Batcher<R> for BooleanGkrBatcher<R, D>
where
    R: BooleanLayeredEncoding + Sync + 'static,
    D: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match self.pcs {
            None => io == IoKind::Public,
            Some(_) => io == IoKind::Committed,
        }
    }

    fn soundness_bits(&self) -> f64 {
        match &self.pcs {
            None => self.setup.soundness_bits(self.variant),
            Some(pcs) => self
                .setup
                .io_soundness_bits(self.variant, pcs.inner().security_report().bits()),
        }
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let pcs = self.committed_pcs(inputs.len())?;
        let (commitment, _) = self
            .setup
            .commit_io(pcs, &self.input_words(inputs))
            .map_err(|e| BatchError::Prove(e.to_string()))?;
        Ok(commitment)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let proved = match &statement.io {
            Io::Committed { count, commitment } => {
                let pcs = self.committed_pcs(*count)?;
                let words = self.input_words(inputs);
                let (made, data) = remade_commitment(inputs.len(), *count, commitment, || {
                    self.setup.commit_io(pcs, &words)
                })?;
                self.setup.prove_io(self.variant, pcs, &made, &data, &words)
            }
            _ => {
                let mut st = self.statement(statement)?;
                // The witness is the inputs given, whatever the statement says they are.
                st.inputs = self.input_words(inputs);
                self.setup.prove(self.variant, &st)
            }
        };
        proved.map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        match &statement.io {
            Io::Committed { count, commitment } => {
                let pcs = self.committed_pcs(*count)?;
                self.setup.verify_io(self.variant, pcs, commitment, proof)
            }
            _ => {
                let st = self.statement(statement)?;
                self.setup.verify(self.variant, &st, proof)
            }
        }
        .map_err(|e| BatchError::Rejected(e.to_string()))
    }
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
