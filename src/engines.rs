//! Every engine on one relation: the batchers that can prove a [`Relation`], listed at run
//! time, each proving the same [`Statement`] — the comparison the framework exists for.
//!
//! [`batchers_for`] asks a relation ([`Provable`]) for the batchers its encodings allow at a
//! count, commitment choice and transcript ([`Choices`]):
//!
//! | encoding | batchers | statements | counts |
//! |---|---|---|---|
//! | [`CircuitEncoding`] (SHA-256, BLAKE3, Keccak-f compressions) | batch-R1CS over each commitment scheme | public IO, a chain, a Merkle tree (SHA-256, BLAKE3) | powers of two |
//! | [`LayeredEncoding`] (the Poseidon2b permutation) | the independent, padded and ragged GKR walks | public IO | any (regions of the count's binary digits) |
//!
//! [`compare`] proves the public-IO statement with each, [`compare_statement`] any statement
//! (a chain, [`Statement::chain`]; a Merkle tree, [`Statement::merkle`]) with each batcher
//! that supports its IO; both verify every proof and return one row per batcher.
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
use flockwork_core::relation::{
    BatchError, Batcher, CircuitEncoding, Io, IoKind, LayeredEncoding, Relation, Statement,
};
use flockwork_field::Field;
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_gkr::statement::evaluate_columns;
use flockwork_gkr::{CommittedLayer, RegionClaim, RegionStatement, Setup, Variant};
use flockwork_pcs::PcsKind;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_r1cs::{Flock, FlockConfig};
use flockwork_transcript::{
    DomainSeparator, Sha256ProverTranscript, Transcript, TranscriptKind, TranscriptScheme,
};

/// Domain separator of the GKR public-IO points ([module docs](self)).
pub const GKR_PUBLIC_PROTOCOL: &str = "flockwork/engines/gkr-public-io/v1";

/// What [`batchers_for`] offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Choices {
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
    /// 100 bits, SHA-256, every scheme and every strategy.
    fn default() -> Self {
        Self {
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
/// chain, [`Statement::chain`], or a Merkle tree, [`Statement::merkle`]) with every batcher [`batchers_for`] lists that supports its
/// kind of IO, verifies each proof, and returns one row per batcher.
///
/// # Errors
/// The first batcher that refuses or whose proof is rejected (a false statement, or a bug),
/// named.
pub fn compare_statement<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    batchers_for(relation, statement.count(), choices)
        .into_iter()
        .filter(|b| b.supports(statement.kind()))
        .map(|b| {
            let named = |e: BatchError| BatchError::Prove(format!("{}: {e}", b.name()));
            let clock = Instant::now();
            let proof = b.prove(inputs, statement).map_err(named)?;
            let prove = clock.elapsed();
            let clock = Instant::now();
            b.verify(statement, &proof).map_err(named)?;
            Ok(Row {
                name: b.name(),
                prove,
                verify: clock.elapsed(),
                proof_bytes: proof.len(),
                soundness_bits: b.soundness_bits(),
            })
        })
        .collect()
}

/// Batch-R1CS over one commitment and transcript, proving public-IO, chain and (for a
/// relation with Merkle nodes) Merkle-tree statements about `2^k` instances: one setup for
/// each kind of IO.
struct R1csBatcher<R, T> {
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

/// The batch-R1CS batchers of `relation` for `count` instances: one per commitment scheme,
/// none unless `count` is a power of two.
fn r1cs_batchers<R: HashCircuit + 'static>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    if !count.is_power_of_two() {
        return Vec::new();
    }
    let k = count.trailing_zeros() as usize;
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
                Flock::new(relation.clone(), k, config)
                    .ok()
                    .and_then(|f| R::configure(f, io).ok())
            };
            let public = setup(FlockIo::Public)?;
            let chain = setup(FlockIo::Chain)?;
            let merkle = setup(FlockIo::Merkle);
            let name = format!("batch-R1CS / {scheme} / {}", choices.transcript);
            Some(with_transcript!(choices.transcript, T => {
                Box::new(R1csBatcher {
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
    /// The setup for the statement's IO and the batch-R1CS statement: every input and output
    /// vector, instance after instance, or the chain's two states as region words.
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
        let count = 1usize << self.public.log_instances();
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
            IoKind::Public | IoKind::Chain => true,
            IoKind::Merkle => self.merkle.is_some(),
        }
    }

    fn soundness_bits(&self) -> f64 {
        [Some(&self.public), Some(&self.chain), self.merkle.as_ref()]
            .into_iter()
            .flatten()
            .map(|flock| flock.soundness().bits())
            .fold(f64::INFINITY, f64::min)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let (flock, st) = self.statement(statement)?;
        let relation = flock.gadget();
        let words: Vec<u64> = inputs
            .iter()
            .flat_map(|x| relation.encode_input(x))
            .collect();
        flock
            .prove(&words, &st)
            .map(|(proof, _)| proof.into_bytes())
            .map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        let (flock, st) = self.statement(statement)?;
        flock
            .verify(&st, proof)
            .map_err(|e| BatchError::Rejected(e.to_string()))
    }
}

/// A GKR batching strategy over one transcript, proving public-IO statements.
struct GkrBatcher<R, D> {
    setup: Setup<R, Ghash256, D>,
    variant: Variant,
    name: String,
}

/// The GKR batchers of `relation` for `count` instances: one per strategy.
fn gkr_batchers<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: LayeredEncoding<Base = Ghash128> + Clone + 'static,
{
    if count == 0 {
        return Vec::new();
    }
    choices
        .variants
        .iter()
        .map(|&variant| {
            let name = format!("GKR {} / {}", variant.name(), choices.transcript);
            with_transcript!(choices.transcript, D => {
                Box::new(GkrBatcher {
                    setup: Setup::<R, Ghash256, D>::new(relation.clone(), region_widths(count)),
                    variant,
                    name,
                }) as Box<dyn Batcher<R>>
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

    /// The walk's statement for public inputs and outputs ([module docs](self)).
    fn statement(
        &self,
        statement: &Statement<R>,
    ) -> Result<flockwork_gkr::Statement<Ghash128, Ghash256>, BatchError> {
        let Io::Public { inputs, outputs } = &statement.io else {
            return Err(BatchError::Unsupported(
                "the GKR walks prove public-IO statements".into(),
            ));
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
        io == IoKind::Public
    }

    fn soundness_bits(&self) -> f64 {
        self.setup.soundness_bits(self.variant)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let st = self.statement(statement)?;
        self.setup
            .prove(self.variant, &self.regions(inputs), &st)
            .map_err(|e| BatchError::Prove(e.to_string()))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        let st = self.statement(statement)?;
        self.setup
            .verify(self.variant, &st, proof)
            .map_err(|e| BatchError::Rejected(e.to_string()))
    }
}

/// The Boolean hashes: batch-R1CS (their GKR encoding comes with the issue "Boolean hashes
/// through GKR").
macro_rules! provable_by_batch_r1cs {
    ($($relation:ty),*) => {$(
        impl Provable for $relation {
            fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
                r1cs_batchers(self, count, choices)
            }
        }
    )*};
}

provable_by_batch_r1cs!(Sha256Compress, Blake3Compress, KeccakF1600);

/// Poseidon2b: the GKR strategies.
impl Provable for Poseidon2bRelation {
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>> {
        gkr_batchers(self, count, choices)
    }
}
