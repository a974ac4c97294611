//! Batch-R1CS as core's [`Batcher<R>`](Batcher): the engine's three batching strategies for
//! any relation with a circuit encoding ([`CircuitEncoding`]), over any commitment
//! ([`ConfiguredCommitment`], shipped or a user's) and any transcript, proving every kind of
//! [`Statement`] the relation declares.
//!
//! | strategy | proofs ([`flockwork_core::regions`]) | type |
//! |---|---|---|
//! | ragged | one proof of exactly `N` instances (the regions back to back; the blocks past `N` an implicit zero extension, [`crate::padding`]) | [`RaggedBatcher`] |
//! | independent, padded | one proof per region of `N`'s binary digits, or one of `A·2^{w_1}` instances with the zero input in every padding instance | [`RegionBatcher`] |
//!
//! What each proves comes from what the relation declares (module docs of
//! [`flockwork_circuit::encoding`]):
//!
//! - **public IO** ([`Io::Public`]): every instance's encoded input and output vector
//!   ([`Flock::public_io`]);
//! - **committed IO** ([`Io::Committed`]): the commitment to the batch witness, which holds
//!   every instance's input and output vector ([`Flock::commit`],
//!   [`Flock::verify_committed`]);
//! - **a chain** ([`Io::Chain`]) for a relation with chain regions
//!   ([`CircuitEncoding::chain_regions`]), its ends encoded by
//!   [`CircuitEncoding::encode_state`] ([`Flock::chained`]; per region,
//!   [`Flock::region_chains`]);
//! - **a Merkle tree** ([`Io::Merkle`]) for a relation with Merkle nodes
//!   ([`CircuitEncoding::merkle_io`]; ragged only: the left-complete tree over `N` leaves
//!   does not split into one tree per region).
//!
//! A kind of IO the relation does not declare, or whose setup cannot be built (a tree of one
//! leaf), is not supported ([`Batcher::supports`]), and a statement of that kind is refused
//! with the reason.
//!
//! ## The region strategies
//!
//! On the regions `w_1 > … > w_A` of `N` (region `a` is the statement's instances
//! `first_a .. first_a + 2^{w_a}`), laid out as [`region_layout`] says, each proof's
//! commitment targets `⌈log2 proofs⌉` bits more, so that the union reaches the target
//! ([`FlockConfig::per_proof`]).
//!
//! - **Public IO**: each proof's public statement is its regions' inputs and outputs at
//!   their offsets and, for every padding instance, the zero input and its output (computed
//!   once, natively).
//! - **Committed IO**: one commitment per proof (each to its whole witness, padding
//!   included), framed as below; each proof must carry its own.
//! - **A chain** `start → end`: the prover sends the states `m_1 … m_{A−1}` where regions
//!   meet (`m_a` is region `a`'s first input state) and each proof shows each of its regions
//!   to be a chain from `m_a` to `m_{a+1}` (`m_0 = start`, `m_A = end`;
//!   [`Flock::region_chains`]). Together they are the chain `start → end`; the states are
//!   bound by each proof's transcript with its statement.
//!
//! Bytes (proof and commitment alike): `"FWRB" ‖ u16le(`[`REGION_FORMAT_VERSION`]`) ‖
//! u32le(A − 1 or 0) ‖ u32le(proofs) ‖` the meeting states (`u64le` words) `‖` for each proof
//! `u32le(len) ‖ bytes`.

use flockwork_circuit::{CircuitEncoding, SlotKind, evaluate};
use flockwork_core::regions::{Variant, binary_regions, region_firsts, region_layout};
use flockwork_core::relation::{BatchError, Batcher, Io, IoKind, Relation, Statement};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, Profile};
use flockwork_transcript::TranscriptScheme;

use crate::{Flock, FlockConfig, FlockError};

/// The IO a setup is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetupIo {
    /// None: committed statements ([`crate::Statement::Batch`]).
    Batch,
    Public,
    Chain,
    Merkle,
}

/// The commitment of a setup: `pcs(m, target_bits)` is the dense commitment for a batch
/// witness of `2^m` bits at `target_bits` (it has `m − 7` variables: ring-switching packs
/// 128 bits per element).
pub trait PcsChoice<P>: Fn(usize, u32) -> Result<P, String> + Send + Sync {}

impl<P, F: Fn(usize, u32) -> Result<P, String> + Send + Sync> PcsChoice<P> for F {}

/// The shipped scheme `config.scheme` with `config`'s preset and regime
/// ([`Commitment::for_bits`], as [`Flock::new`] selects it).
#[must_use]
pub fn shipped(config: FlockConfig) -> impl PcsChoice<Commitment> {
    let profile = Profile {
        preset: config.preset,
        regime: config.regime,
    };
    move |m, target| {
        Commitment::for_bits(config.scheme, m, target, &profile).map_err(|e| e.to_string())
    }
}

/// The setup of exactly `n` instances of `relation` for `io` over `pcs`; `Err` with the
/// reason if there is none (a commitment that cannot reach the size, a relation that does not
/// declare the IO).
fn setup<R, P, T>(
    relation: &R,
    n: usize,
    config: FlockConfig,
    io: SetupIo,
    pcs: &impl PcsChoice<P>,
) -> Result<Flock<R, P, T>, String>
where
    R: CircuitEncoding + Clone,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme,
{
    let flock = base_setup(relation, n, config, pcs)?;
    let flock = match io {
        SetupIo::Batch => Ok(flock),
        SetupIo::Public => flock.public_io(),
        SetupIo::Chain => {
            let (input, output) = chain_regions(relation)?;
            flock.chained(input, output)
        }
        SetupIo::Merkle => {
            let m = relation
                .merkle_io()
                .ok_or_else(|| format!("{} has no Merkle nodes", relation.name()))?;
            flock.merkle_tree(m.children, m.digest, m.fixed)
        }
    };
    Ok(flock.map_err(|e| e.to_string())?.with_transcript::<T>())
}

/// `n` instances of `relation` without IO, over `pcs`.
fn base_setup<R, P>(
    relation: &R,
    n: usize,
    config: FlockConfig,
    pcs: &impl PcsChoice<P>,
) -> Result<Flock<R, P>, String>
where
    R: CircuitEncoding + Clone,
    P: ConfiguredCommitment<Ghash128>,
{
    if n == 0 {
        return Err("a batch of no instances".into());
    }
    let log = n.next_power_of_two().trailing_zeros() as usize;
    let m = crate::check_shape(relation, log).map_err(|e| e.to_string())?;
    let dense = pcs(m, config.target_bits)?;
    Flock::with_pcs(relation.clone(), log, dense, config)
        .and_then(|f| f.with_instances(n))
        .map_err(|e| e.to_string())
}

/// The relation's chain regions, or why it has none.
fn chain_regions<R: CircuitEncoding>(
    relation: &R,
) -> Result<(flockwork_circuit::SlotId, flockwork_circuit::SlotId), String> {
    relation
        .chain_regions()
        .ok_or_else(|| format!("{} declares no chaining state", relation.name()))
}

/// A chain state's words, or why there are none.
fn state_words<R: CircuitEncoding>(relation: &R, state: &R::State) -> Result<Vec<u64>, BatchError> {
    relation.encode_state(state).ok_or_else(|| {
        BatchError::Unsupported(format!("{} declares no state encoding", relation.name()))
    })
}

/// The batcher's name: `batch-R1CS <strategy> / <commitment> / <transcript>`.
pub fn batcher_name(variant: Variant, pcs: &str, transcript: &str) -> String {
    format!("batch-R1CS {} / {pcs} / {transcript}", variant.name())
}

/// Refuses a statement about another count than `count`, or a malformed one.
fn check_count<R: Relation>(statement: &Statement<R>, count: usize) -> Result<(), BatchError> {
    if statement.count() != count || !statement.is_consistent() {
        return Err(BatchError::Unsupported(format!(
            "{} instances; this setup proves {count}",
            statement.count()
        )));
    }
    Ok(())
}

/// The batch-R1CS batcher of `count ≥ 1` instances of `relation` with `variant` (ragged:
/// [`RaggedBatcher`]; independent and padded: [`RegionBatcher`]) over the commitment `pcs`
/// chooses for each setup and the transcript `T`.
///
/// # Errors
/// [`BatchError::Unsupported`] with the reason if a setup cannot be built (the commitment
/// cannot reach the size or target, the circuit's block is too small).
pub fn batcher<R, P, T>(
    relation: &R,
    count: usize,
    variant: Variant,
    config: FlockConfig,
    pcs: impl PcsChoice<P> + 'static,
) -> Result<Box<dyn Batcher<R>>, BatchError>
where
    R: CircuitEncoding + Clone + 'static,
    P: ConfiguredCommitment<Ghash128> + 'static,
    T: TranscriptScheme + Send + Sync + 'static,
{
    Ok(match variant {
        Variant::Ragged => Box::new(RaggedBatcher::<R, P, T>::new(
            relation, count, config, &pcs,
        )?),
        _ => Box::new(RegionBatcher::<R, P, T>::new(
            relation, count, variant, config, &pcs,
        )?),
    })
}

/// Batch-R1CS's ragged strategy: one proof of exactly `N` instances, one setup for each kind
/// of IO (module docs).
pub struct RaggedBatcher<R, P = Commitment, T = flockwork_transcript::Sha256> {
    /// The setup without IO: committed statements.
    committed: Flock<R, P, T>,
    public: Flock<R, P, T>,
    /// The chained setup, or why there is none.
    chain: Result<Flock<R, P, T>, String>,
    /// The Merkle setup, or why there is none.
    merkle: Result<Flock<R, P, T>, String>,
    name: String,
}

impl<R, P, T> RaggedBatcher<R, P, T>
where
    R: CircuitEncoding + Clone + 'static,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme + Send + Sync,
{
    /// The setups for exactly `count ≥ 1` instances over `pcs`.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] with the reason if the setup without IO or of public IO
    /// cannot be built.
    pub fn new(
        relation: &R,
        count: usize,
        config: FlockConfig,
        pcs: &impl PcsChoice<P>,
    ) -> Result<Self, BatchError> {
        let build = |io| setup::<R, P, T>(relation, count, config, io, pcs);
        let committed = build(SetupIo::Batch).map_err(BatchError::Unsupported)?;
        let name = batcher_name(Variant::Ragged, committed.pcs().inner().name(), T::NAME);
        Ok(Self {
            committed,
            public: build(SetupIo::Public).map_err(BatchError::Unsupported)?,
            chain: build(SetupIo::Chain),
            merkle: build(SetupIo::Merkle),
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
    /// vector, instance after instance, the chain's two states, the tree's root and leaves,
    /// or (for a committed statement) none, the commitment being checked against the proof's.
    fn statement(
        &self,
        statement: &Statement<R>,
    ) -> Result<(&Flock<R, P, T>, crate::Statement), BatchError> {
        check_count(statement, self.public.instances())?;
        let relation = self.public.gadget();
        let unsupported = |e: &String| BatchError::Unsupported(e.clone());
        Ok(match &statement.io {
            Io::Public { inputs, outputs } => (
                &self.public,
                crate::Statement::Public {
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
            Io::Committed { .. } => (&self.committed, crate::Statement::Batch),
            Io::Chain { start, end, .. } => (
                self.chain.as_ref().map_err(unsupported)?,
                crate::Statement::Chain {
                    start: state_words(relation, start)?,
                    end: state_words(relation, end)?,
                },
            ),
            Io::Merkle { leaves, root } => (
                self.merkle.as_ref().map_err(unsupported)?,
                crate::Statement::Merkle {
                    root: state_words(relation, root)?,
                    leaves: leaves
                        .iter()
                        .map(|l| state_words(relation, l))
                        .collect::<Result<_, _>>()?,
                },
            ),
        })
    }
}

impl<R, P, T> Batcher<R> for RaggedBatcher<R, P, T>
where
    R: CircuitEncoding + Clone + 'static,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match io {
            IoKind::Public | IoKind::Committed => true,
            IoKind::Chain => self.chain.is_ok(),
            IoKind::Merkle => self.merkle.is_ok(),
        }
    }

    fn soundness_bits(&self) -> f64 {
        [
            Some(&self.committed),
            Some(&self.public),
            self.chain.as_ref().ok(),
            self.merkle.as_ref().ok(),
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

/// One proof of a [`RegionBatcher`]: the regions it proves at their offsets and its setup
/// for each kind of IO.
struct RegionPart<R, P, T> {
    /// `(region, offset)`: region `a` is the setup's instances `offset .. offset + 2^{w_a}`.
    regions: Vec<(usize, usize)>,
    committed: Flock<R, P, T>,
    public: Flock<R, P, T>,
    /// Every region its own chain ([`Flock::region_chains`]), or why there is none.
    chain: Result<Flock<R, P, T>, String>,
}

/// Batch-R1CS's independent and padded strategies (module docs, "The region strategies").
pub struct RegionBatcher<R, P = Commitment, T = flockwork_transcript::Sha256> {
    widths: Vec<usize>,
    /// `first_a`: the statement's first instance of each region.
    firsts: Vec<usize>,
    parts: Vec<RegionPart<R, P, T>>,
    /// The output vector of the zero input (public statements' padding).
    zero_output: Vec<u64>,
    name: String,
}

/// The format of batch-R1CS's independent and padded proofs and commitments (their framing;
/// each proof inside carries its own version): changes whenever the bytes' meaning does.
pub const REGION_FORMAT_VERSION: u16 = 1;
const REGION_MAGIC: &[u8; 4] = b"FWRB";

/// The bytes of a [`RegionBatcher`] proof or commitment.
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

/// A part's setup of one kind of IO, if it has one.
type Setup<R, P, T> = fn(&RegionPart<R, P, T>) -> Option<&Flock<R, P, T>>;

/// Which of a part's setups proves a statement.
type Pick<R, P, T> = fn(&RegionPart<R, P, T>) -> Result<&Flock<R, P, T>, BatchError>;

impl<R, P, T> RegionBatcher<R, P, T>
where
    R: CircuitEncoding + Clone + 'static,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme + Send + Sync,
{
    /// The setups of `variant` (independent or padded) for `count ≥ 1` instances over `pcs`.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] with the reason if a setup without IO or of public IO
    /// cannot be built, or for the ragged strategy ([`RaggedBatcher`]).
    pub fn new(
        relation: &R,
        count: usize,
        variant: Variant,
        config: FlockConfig,
        pcs: &impl PcsChoice<P>,
    ) -> Result<Self, BatchError> {
        if variant == Variant::Ragged {
            return Err(BatchError::Unsupported(
                "the ragged strategy is RaggedBatcher's".into(),
            ));
        }
        let widths = binary_regions(count);
        let layout = region_layout(&widths, variant);
        let config = config.per_proof(layout.len());
        let unsupported = BatchError::Unsupported;
        let parts = layout
            .into_iter()
            .map(|(n, regions)| {
                let build = |io| setup::<R, P, T>(relation, n, config, io, pcs);
                Ok(RegionPart {
                    committed: build(SetupIo::Batch).map_err(unsupported)?,
                    public: build(SetupIo::Public).map_err(unsupported)?,
                    chain: region_chain_setup(relation, &widths, n, &regions, config, pcs),
                    regions,
                })
            })
            .collect::<Result<Vec<_>, BatchError>>()?;
        let pcs_name = parts
            .first()
            .map_or("none", |p| p.committed.pcs().inner().name());
        let zero = vec![0u64; relation.layout().vector_words(SlotKind::Input)];
        Ok(Self {
            zero_output: evaluate(relation, &zero),
            name: batcher_name(variant, pcs_name, T::NAME),
            firsts: region_firsts(&widths),
            widths,
            parts,
        })
    }

    fn count(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    fn relation(&self) -> &R {
        self.parts[0].public.gadget()
    }

    /// `vectors[i]` (one per statement instance, `words` words each) at the part's regions'
    /// offsets, `padding` in every other instance of its setup.
    fn lay_out(
        &self,
        part: &RegionPart<R, P, T>,
        vectors: &[Vec<u64>],
        padding: &[u64],
    ) -> Vec<u64> {
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
        let relation = self.relation();
        let vectors: Vec<Vec<u64>> = inputs.iter().map(|x| relation.encode_input(x)).collect();
        let zero = vec![0u64; relation.layout().vector_words(SlotKind::Input)];
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
    ) -> Vec<crate::Statement> {
        let relation = self.relation();
        let outputs: Vec<Vec<u64>> = outputs.iter().map(|y| relation.encode_output(y)).collect();
        self.inputs(inputs)
            .into_iter()
            .zip(&self.parts)
            .map(|(inputs, p)| crate::Statement::Public {
                inputs,
                outputs: self.lay_out(p, &outputs, &self.zero_output),
            })
            .collect()
    }

    /// Each part's chain statement from the states `m_0 … m_A` where regions begin and end.
    fn chain_statements(&self, states: &[Vec<u64>]) -> Vec<crate::Statement> {
        let side = |p: &RegionPart<R, P, T>, at: usize| -> Vec<u64> {
            p.regions
                .iter()
                .flat_map(|&(a, _)| states[a + at].clone())
                .collect()
        };
        self.parts
            .iter()
            .map(|p| crate::Statement::Chain {
                start: side(p, 0),
                end: side(p, 1),
            })
            .collect()
    }

    /// `m_0 … m_A` from a chain's ends and the meeting states (flat words).
    fn chain_states(
        &self,
        start: &R::State,
        end: &R::State,
        meetings: &[u64],
    ) -> Result<Vec<Vec<u64>>, BatchError> {
        let relation = self.relation();
        let first = state_words(relation, start)?;
        let words = first.len();
        Ok(core::iter::once(first)
            .chain(meetings.chunks_exact(words.max(1)).map(<[u64]>::to_vec))
            .chain(core::iter::once(state_words(relation, end)?))
            .collect())
    }

    /// The meeting states `m_1 … m_{A−1}`: the chaining state of each region's first input.
    fn meetings(&self, inputs: &[R::Input]) -> Result<Vec<u64>, BatchError> {
        let relation = self.relation();
        self.firsts[1..]
            .iter()
            .map(|&i| {
                let state = inputs
                    .get(i)
                    .and_then(|x| relation.input_state(x))
                    .ok_or_else(|| {
                        BatchError::Prove(format!("no chaining state in instance {i}"))
                    })?;
                state_words(relation, &state)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|m| m.concat())
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

    fn no_trees(&self) -> BatchError {
        BatchError::Unsupported(format!(
            "{}: a Merkle tree over N leaves does not split into regions (use the ragged \
             batcher)",
            self.name
        ))
    }
}

/// The setup of `n` instances proving each of `regions` (`(a, offset)`, region `a` of
/// `2^{widths[a]}` instances) as its own chain ([`Flock::region_chains`]; the chained setup
/// when one region fills it); `Err` with the reason if there is none.
fn region_chain_setup<R, P, T>(
    relation: &R,
    widths: &[usize],
    n: usize,
    regions: &[(usize, usize)],
    config: FlockConfig,
    pcs: &impl PcsChoice<P>,
) -> Result<Flock<R, P, T>, String>
where
    R: CircuitEncoding + Clone,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme,
{
    let (input, output) = chain_regions(relation)?;
    let flock = base_setup(relation, n, config, pcs)?;
    flock
        .chained_regions(input, output, widths, regions)
        .map(Flock::with_transcript::<T>)
        .map_err(|e| e.to_string())
}

impl<R, P, T> Batcher<R> for RegionBatcher<R, P, T>
where
    R: CircuitEncoding + Clone + 'static,
    P: ConfiguredCommitment<Ghash128>,
    T: TranscriptScheme + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match io {
            IoKind::Public | IoKind::Committed => true,
            IoKind::Chain => self.parts.iter().all(|p| p.chain.is_ok()),
            IoKind::Merkle => false,
        }
    }

    fn soundness_bits(&self) -> f64 {
        // Per kind of IO, the union of the proofs' errors; the weakest kind.
        let picks: [Setup<R, P, T>; 3] = [
            |p| Some(&p.committed),
            |p| Some(&p.public),
            |p| p.chain.as_ref().ok(),
        ];
        picks
            .into_iter()
            .filter(|pick| self.parts.iter().all(|p| pick(p).is_some()))
            .map(|pick| {
                let error: f64 = self
                    .parts
                    .iter()
                    .filter_map(pick)
                    .map(|f| (-f.soundness().bits()).exp2())
                    .sum();
                -error.log2()
            })
            .fold(f64::INFINITY, f64::min)
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        if inputs.len() != self.count() {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {}",
                inputs.len(),
                self.count()
            )));
        }
        Ok(frame(&[], 0, &self.commit_words(&self.inputs(inputs))?))
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        check_count(statement, self.count())?;
        if inputs.len() != self.count() {
            return Err(BatchError::Prove(format!(
                "{} inputs for {} instances",
                inputs.len(),
                self.count()
            )));
        }
        let words = self.inputs(inputs);
        let (meetings, statements, pick): (Vec<u64>, Vec<_>, Pick<R, P, T>) = match &statement.io {
            Io::Public { inputs: x, outputs } => {
                (Vec::new(), self.public_statements(x, outputs), |p| {
                    Ok(&p.public)
                })
            }
            Io::Committed { commitment, .. } => {
                if frame(&[], 0, &self.commit_words(&words)?) != *commitment {
                    return Err(BatchError::Prove(
                        "the inputs are not the ones the statement's commitment binds".into(),
                    ));
                }
                let batch = vec![crate::Statement::Batch; self.parts.len()];
                (Vec::new(), batch, |p| Ok(&p.committed))
            }
            Io::Chain { start, end, .. } => {
                let meetings = self.meetings(inputs)?;
                let states = self.chain_states(start, end, &meetings)?;
                (meetings, self.chain_statements(&states), |p| {
                    p.chain
                        .as_ref()
                        .map_err(|e| BatchError::Unsupported(e.clone()))
                })
            }
            Io::Merkle { .. } => return Err(self.no_trees()),
        };
        let proofs = self
            .parts
            .iter()
            .zip(&words)
            .zip(&statements)
            .map(|((p, w), st)| {
                pick(p)?
                    .prove(w, st)
                    .map(|(proof, _)| proof.into_bytes())
                    .map_err(|e| BatchError::Prove(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let count = if meetings.is_empty() {
            0
        } else {
            self.widths.len() - 1
        };
        Ok(frame(&meetings, count, &proofs))
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        check_count(statement, self.count())?;
        let parts = self.parts.len();
        let rejected = |e: FlockError| BatchError::Rejected(e.to_string());
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
                let words = state_words(self.relation(), start)?.len();
                let meetings = self.widths.len() - 1;
                let (states, proofs) = unframe(proof, meetings, words, parts)?;
                let states = self.chain_states(start, end, &states)?;
                for ((p, st), bytes) in self
                    .parts
                    .iter()
                    .zip(self.chain_statements(&states))
                    .zip(proofs)
                {
                    let chain = p
                        .chain
                        .as_ref()
                        .map_err(|e| BatchError::Unsupported(e.clone()))?;
                    chain.verify(&st, bytes).map_err(rejected)?;
                }
            }
            Io::Merkle { .. } => return Err(self.no_trees()),
        }
        Ok(())
    }
}
