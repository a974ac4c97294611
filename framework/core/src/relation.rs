//! Relations: the computation itself, independent of how it is proved.
//!
//! A [`Relation`] is one small computation — a hash compression, a permutation — with typed
//! inputs and outputs, a native evaluation and known-answer vectors from its specification.
//! Each proof engine consumes an *encoding* of it:
//!
//! | encoding | what it adds | engine |
//! |---|---|---|
//! | `CircuitEncoding` (`flockwork-circuit`) | a Boolean circuit (a `Gadget`) and how inputs and outputs map to its input and output vectors | batch-R1CS (`flockwork-r1cs`) |
//! | [`LayeredEncoding`] | layers ([`LayeredRelation`]) and how inputs and outputs map to the first and last state | GKR (`flockwork-gkr`) |
//! | [`BooleanLayeredEncoding`] | Boolean layers ([`BooleanLayeredRelation`]: an F2-linear map and a quadratic gate per output bit) and how inputs and outputs map to the first and last bit state | GKR over GF(2^128) on the bit-sliced trace (`flockwork-gkr`'s `BooleanGkr`) |
//!
//! A gadget crate implements [`Relation`] and the encodings it has, so a computation written
//! once is proved by every engine that has an encoding of it, and a harness compares engines
//! on one statement by checking every proof's outputs against [`Relation::evaluate_batch`].
//! [`check_layered_encoding`], [`check_boolean_layered_encoding`] and `flockwork-circuit`'s
//! `check_circuit_encoding` are the tests every encoding passes: on the known answers and on
//! given inputs, the encoding computes what the native evaluation does.
//!
//! ## One statement, every engine
//!
//! A [`Statement`] says what is public about `N` instances of a relation ([`Io`]: every
//! input and output, [`Io::Public`]; a commitment to them, [`Io::Committed`]; the two ends
//! of a chain, [`Io::Chain`]; or the leaves and root of a Merkle tree, [`Io::Merkle`]), in
//! terms of the relation's own types. A [`Batcher`] is
//! one way to prove it — an engine with its batching strategy, commitment and transcript —
//! behind an object-safe interface, so a harness (the facade's `engines` module) lists the
//! batchers that can prove a relation, proves one statement with each, verifies it, and
//! compares them in one table; a statement whose outputs are not the native evaluation's is
//! rejected by every one of them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use crate::boolean_layered::{
    BooleanLayeredRelation, check_boolean_layered, pack_instances, unpack_instances,
};
use crate::layered::LayeredRelation;

/// One computation with typed inputs and outputs, evaluated natively.
pub trait Relation: Send + Sync {
    /// One instance's input.
    type Input: Clone + Debug + Send + Sync;
    /// One instance's output.
    type Output: Clone + Debug + Eq + Send + Sync;
    /// What one instance hands the next in a chain ([`Io::Chain`]): a compression's chaining
    /// value, a permutation's state. A relation whose instances do not chain names `()` and
    /// keeps the provided [`Relation::input_state`] and [`Relation::output_state`], which
    /// say so.
    type State: Clone + Debug + Eq + Send + Sync;

    /// A short name with its parameters (`"sha256-compress"`, `"keccak-p[1600,2]"`, …).
    fn name(&self) -> String;

    /// The output of one instance.
    fn evaluate(&self, input: &Self::Input) -> Self::Output;

    /// The outputs of many instances, in order. The default maps [`Relation::evaluate`].
    fn evaluate_batch(&self, inputs: &[Self::Input]) -> Vec<Self::Output> {
        inputs.iter().map(|x| self.evaluate(x)).collect()
    }

    /// Input–output pairs from the computation's specification (test vectors), at least one
    /// for a standard instance; empty for variants the specification does not cover (e.g.
    /// reduced-round test circuits).
    fn known_answers(&self) -> Vec<(Self::Input, Self::Output)>;

    /// The part of `input` that the previous instance of a chain supplies; `None` if the
    /// relation does not chain (the default).
    fn input_state(&self, input: &Self::Input) -> Option<Self::State> {
        let _ = input;
        None
    }

    /// The part of `output` that the next instance of a chain reads; `None` if the relation
    /// does not chain (the default).
    fn output_state(&self, output: &Self::Output) -> Option<Self::State> {
        let _ = output;
        None
    }

    /// The input of the instance that hashes two child digests into their parent, digests
    /// being states ([`Io::Merkle`]: the parent is that instance's
    /// [`Relation::output_state`]); `None` if the relation has no Merkle nodes (the default).
    fn merkle_node(&self, left: &Self::State, right: &Self::State) -> Option<Self::Input> {
        let _ = (left, right);
        None
    }
}

/// A [`Relation`] as layers: the [`LayeredRelation`] that GKR walks, with the maps between
/// typed values and one state of `t` lanes (before the input map, after the last layer).
pub trait LayeredEncoding: Relation + LayeredRelation {
    /// The state of one instance before [`LayeredRelation::apply_input`] (`t` lanes).
    fn input_lanes(&self, input: &Self::Input) -> Vec<Self::Base>;

    /// The last-layer state of an output (`t` lanes).
    fn output_lanes(&self, output: &Self::Output) -> Vec<Self::Base>;

    /// The typed output of a last-layer state; `None` if the lanes are not an output of
    /// the relation (wrong length).
    fn output_of_lanes(&self, lanes: &[Self::Base]) -> Option<Self::Output>;
}

/// A [`Relation`] as Boolean layers: the [`BooleanLayeredRelation`] a binary-field GKR walks
/// on packed bits, with the maps between typed values and the bit states before the first
/// layer and after the last (`u64` words, bit `i` of the state at bit `i mod 64` of word
/// `i / 64`, the layout [`pack_instances`] reads).
pub trait BooleanLayeredEncoding: Relation + BooleanLayeredRelation {
    /// The input state `S_0` of one instance (`⌈w_0 / 64⌉` words).
    fn input_bits(&self, input: &Self::Input) -> Vec<u64>;

    /// The output state `S_L` of an output (`⌈w_L / 64⌉` words).
    fn output_bits(&self, output: &Self::Output) -> Vec<u64>;

    /// The typed output of an output state; `None` if the words are not an output of the
    /// relation (wrong length, or bits past `w_L` set).
    fn output_of_bits(&self, words: &[u64]) -> Option<Self::Output>;
}

/// The known answers' inputs followed by `inputs`, after checking that every known answer
/// is the native evaluation of its input: the inputs every encoding check runs on (these
/// below, and the circuit encoding's in `flockwork-circuit`).
///
/// # Panics
/// If a known answer differs from the native evaluation.
pub fn known_and_given<R: Relation>(relation: &R, inputs: &[R::Input]) -> Vec<R::Input> {
    let answers = relation.known_answers();
    for (input, output) in &answers {
        assert_eq!(
            relation.evaluate(input),
            *output,
            "{}: a known answer differs from the native evaluation",
            relation.name()
        );
    }
    let known = answers.into_iter().map(|(x, _)| x);
    known.chain(inputs.iter().cloned()).collect()
}

/// Checks a layered encoding against its relation, panicking with a description on the first
/// disagreement: on the known answers and on `inputs`, the input map and every layer
/// ([`LayeredRelation`]'s native kernels) compute the native output.
///
/// # Panics
/// On the first disagreement.
pub fn check_layered_encoding<R: LayeredEncoding>(relation: &R, inputs: &[R::Input]) {
    let name = relation.name();
    let known = relation.known_answers().into_iter().map(|(x, _)| x);
    let all: Vec<R::Input> = known.chain(inputs.iter().cloned()).collect();
    for (input, expected) in all.iter().zip(relation.evaluate_batch(&all)) {
        let mut state = relation.input_lanes(input);
        assert_eq!(
            state.len(),
            relation.lanes(),
            "{name}: lanes of the input state"
        );
        relation.apply_input(&mut state);
        relation.apply_all_layers(&mut state);
        assert_eq!(
            relation.output_lanes(&expected),
            state,
            "{name}: the layers disagree with the native evaluation on {input:?}"
        );
        assert_eq!(
            relation.output_of_lanes(&state),
            Some(expected),
            "{name}: output_of_lanes does not invert output_lanes"
        );
    }
}

/// Checks a Boolean layered encoding against its relation, as [`check_layered_encoding`]:
/// on the known answers and on `inputs`, the packed evaluation of the layers (128 instances
/// a word) computes the native output, whose bits decode back to it; and the description,
/// its packed evaluation and the native layers agree state by state
/// ([`check_boolean_layered`]).
///
/// # Panics
/// On the first disagreement.
pub fn check_boolean_layered_encoding<R: BooleanLayeredEncoding>(
    relation: &R,
    inputs: &[R::Input],
) {
    let name = relation.name();
    let layers = relation.boolean_layers();
    let (w_in, w_out) = (layers.input_width(), layers.output_width());
    let all = known_and_given(relation, inputs);
    let expected = relation.evaluate_batch(&all);
    let words: Vec<u64> = all
        .iter()
        .flat_map(|input| {
            let bits = relation.input_bits(input);
            assert_eq!(bits.len(), w_in.div_ceil(64), "{name}: input words");
            bits
        })
        .collect();
    let packed = pack_instances::<u128>(w_in, &words, all.len());
    let outputs = unpack_instances(w_out, &layers.evaluate_packed(&packed), all.len());
    let out_words = w_out.div_ceil(64);
    for ((input, expected), got) in all.iter().zip(&expected).zip(outputs.chunks(out_words)) {
        assert_eq!(
            relation.output_of_bits(got).as_ref(),
            Some(expected),
            "{name}: the Boolean layers disagree with the native evaluation on {input:?}"
        );
        assert_eq!(
            relation.output_bits(expected),
            got,
            "{name}: output_bits is not the last layer's state"
        );
    }
    check_boolean_layered(relation, &words, all.len());
}

/// A relation whose statements can be written as bytes (a proof file's): its inputs, outputs
/// and chaining states have canonical bytes ([`Codec`](crate::codec::Codec)). Every relation
/// whose three types have a codec is one; a struct input gets its codec from one line,
/// `codec!(MyInput { key, counter, nonce });` ([`codec!`](macro@crate::codec)).
pub trait StatementCodec:
    Relation<Input: crate::codec::Codec, Output: crate::codec::Codec, State: crate::codec::Codec>
{
}

impl<R> StatementCodec for R where
    R: Relation<
            Input: crate::codec::Codec,
            Output: crate::codec::Codec,
            State: crate::codec::Codec,
        >
{
}

/// Which kind of public IO a [`Statement`] has (what a [`Batcher`] says it supports).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IoKind {
    /// [`Io::Public`].
    Public,
    /// [`Io::Committed`].
    Committed,
    /// [`Io::Chain`].
    Chain,
    /// [`Io::Merkle`].
    Merkle,
}

impl IoKind {
    /// Every kind.
    pub const ALL: [Self; 4] = [Self::Public, Self::Committed, Self::Chain, Self::Merkle];

    /// `"public"`, `"committed"`, `"chain"` or `"merkle"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Committed => "committed",
            Self::Chain => "chain",
            Self::Merkle => "merkle",
        }
    }
}

/// What is public about the instances of a [`Statement`].
pub enum Io<R: Relation> {
    /// Every instance's input and output, bound into the proof's transcript before any
    /// challenge: the proof says `outputs[i] = R(inputs[i])` for every `i`.
    Public {
        /// The inputs, instance by instance.
        inputs: Vec<R::Input>,
        /// The outputs, instance by instance.
        outputs: Vec<R::Output>,
    },
    /// `count` instances whose inputs and outputs are known to the verifier by a commitment
    /// only: `commitment` is what a batcher's [`Batcher::commit`] made of the instances
    /// before the proof, and the proof says that the inputs and outputs it binds satisfy
    /// `outputs[i] = R(inputs[i])` for every `i`. The commitment is the batcher's own (its
    /// engine's layout and commitment scheme), so a later protocol can open inputs or outputs
    /// against it; a statement made by one batcher is not one another batcher proves.
    Committed {
        /// The number of instances.
        count: usize,
        /// The batcher's commitment to the instances' inputs and outputs.
        commitment: Vec<u8>,
    },
    /// A chain of `count` instances with only its ends public: instance 0's input carries
    /// `start` ([`Relation::input_state`]), instance `i + 1`'s carries instance `i`'s output
    /// state ([`Relation::output_state`]), and the last output's state is `end`. The rest of
    /// every input (a compression's message blocks) stays private.
    Chain {
        /// The number of instances.
        count: usize,
        /// The state the chain starts from.
        start: R::State,
        /// The state the chain ends in.
        end: R::State,
    },
    /// A Merkle tree over `leaves` (at least 2) with its root, both public: the
    /// left-complete tree ([`crate::merkle`]), whose instances are its internal nodes in heap
    /// order after one padding instance ([`Statement::merkle`]), node `p` hashing the digests
    /// of nodes `2p` and `2p + 1` ([`Relation::merkle_node`]), each a node's output or a leaf.
    Merkle {
        /// The leaf digests, left to right.
        leaves: Vec<R::State>,
        /// The root digest.
        root: R::State,
    },
}

/// A statement about `count` instances of a relation, in the one shape every engine
/// accepts ([`Batcher`]).
pub struct Statement<R: Relation> {
    /// What is public.
    pub io: Io<R>,
}

// Written out: derives would ask `R` itself for `Clone`, `Debug` and `PartialEq`.
impl<R: Relation> Clone for Io<R> {
    fn clone(&self) -> Self {
        self.retype()
    }
}

impl<R: Relation> Debug for Io<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Public { inputs, outputs } => f
                .debug_struct("Public")
                .field("inputs", inputs)
                .field("outputs", outputs)
                .finish(),
            Self::Committed { count, commitment } => f
                .debug_struct("Committed")
                .field("count", count)
                .field("commitment", commitment)
                .finish(),
            Self::Chain { count, start, end } => f
                .debug_struct("Chain")
                .field("count", count)
                .field("start", start)
                .field("end", end)
                .finish(),
            Self::Merkle { leaves, root } => f
                .debug_struct("Merkle")
                .field("leaves", leaves)
                .field("root", root)
                .finish(),
        }
    }
}

impl<R: Relation> Clone for Statement<R> {
    fn clone(&self) -> Self {
        Self {
            io: self.io.clone(),
        }
    }
}

impl<R: Relation> Debug for Statement<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Statement").field("io", &self.io).finish()
    }
}

impl<R: Relation> Statement<R> {
    /// The public-IO statement of `inputs`, their outputs computed natively
    /// ([`Relation::evaluate_batch`]).
    #[must_use]
    pub fn public(relation: &R, inputs: Vec<R::Input>) -> Self {
        let outputs = relation.evaluate_batch(&inputs);
        Self {
            io: Io::Public { inputs, outputs },
        }
    }

    /// The statement that `count` instances bound by `commitment` (from
    /// [`Batcher::commit`]) satisfy the relation ([`Io::Committed`]).
    #[must_use]
    pub fn committed(count: usize, commitment: Vec<u8>) -> Self {
        Self {
            io: Io::Committed { count, commitment },
        }
    }

    /// The chain through `inputs` ([`Io::Chain`]), its end computed natively.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] if there are no inputs or the relation does not chain;
    /// [`BatchError::Prove`] if an input does not carry its predecessor's output state
    /// (the inputs are not a chain), naming the first such instance.
    pub fn chain(relation: &R, inputs: &[R::Input]) -> Result<Self, BatchError> {
        let unchained =
            || BatchError::Unsupported(alloc::format!("{} does not chain", relation.name()));
        let first = inputs
            .first()
            .ok_or_else(|| BatchError::Unsupported("a chain of no instances".into()))?;
        let start = relation.input_state(first).ok_or_else(unchained)?;
        let outputs = relation.evaluate_batch(inputs);
        for (i, (output, next)) in outputs.iter().zip(&inputs[1..]).enumerate() {
            if relation.input_state(next) != relation.output_state(output) {
                return Err(BatchError::Prove(alloc::format!(
                    "instance {} does not read instance {i}'s output state",
                    i + 1
                )));
            }
        }
        let last = outputs.last().expect("as many outputs as inputs");
        let end = relation.output_state(last).ok_or_else(unchained)?;
        Ok(Self {
            io: Io::Chain {
                count: inputs.len(),
                start,
                end,
            },
        })
    }

    /// The Merkle tree over `leaves` ([`Io::Merkle`]), its root computed natively: the
    /// left-complete tree in heap order ([`crate::merkle`]), with the instances' inputs in heap
    /// order: instance 0 is padding (the root's node again, a real computation the statement
    /// does not constrain), instance `p ∈ [1, L)` is node `p`.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] for fewer than 2 leaves or a relation without Merkle nodes.
    pub fn merkle(relation: &R, leaves: &[R::State]) -> Result<(Self, Vec<R::Input>), BatchError> {
        if leaves.len() < 2 {
            return Err(BatchError::Unsupported(alloc::format!(
                "a Merkle tree over {} leaves (at least 2)",
                leaves.len()
            )));
        }
        let no_nodes =
            || BatchError::Unsupported(alloc::format!("{} has no Merkle nodes", relation.name()));
        let mut inputs = Vec::with_capacity(leaves.len());
        let (_, root) = crate::merkle::heap_tree(leaves, |left, right| {
            let input = relation.merkle_node(left, right).ok_or_else(no_nodes)?;
            let parent = relation
                .output_state(&relation.evaluate(&input))
                .ok_or_else(no_nodes)?;
            inputs.push(input);
            Ok(parent)
        })?;
        // Built from node L − 1 down to the root: reverse to heap order from node 1, then the
        // padding instance 0 in front.
        inputs.reverse();
        inputs.insert(0, inputs[0].clone());
        Ok((
            Self {
                io: Io::Merkle {
                    leaves: leaves.to_vec(),
                    root,
                },
            },
            inputs,
        ))
    }

    /// The number of instances.
    #[must_use]
    pub fn count(&self) -> usize {
        match &self.io {
            Io::Public { inputs, .. } => inputs.len(),
            Io::Committed { count, .. } | Io::Chain { count, .. } => *count,
            Io::Merkle { leaves, .. } => leaves.len(),
        }
    }

    /// The kind of IO.
    #[must_use]
    pub fn kind(&self) -> IoKind {
        match &self.io {
            Io::Public { .. } => IoKind::Public,
            Io::Committed { .. } => IoKind::Committed,
            Io::Chain { .. } => IoKind::Chain,
            Io::Merkle { .. } => IoKind::Merkle,
        }
    }

    /// Whether the statement is well formed: as many outputs as inputs, a commitment to at
    /// least one instance, a chain of at least one instance, a tree over at least 2 leaves.
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        match &self.io {
            Io::Public { inputs, outputs } => inputs.len() == outputs.len(),
            Io::Committed { count, .. } | Io::Chain { count, .. } => *count > 0,
            Io::Merkle { leaves, .. } => leaves.len() >= 2,
        }
    }
}

/// Why a [`Batcher`] did not prove or did not accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// The batcher cannot prove this statement (its IO kind or its count).
    Unsupported(String),
    /// The prover refused (inputs or statement that do not fit the setup).
    Prove(String),
    /// The verifier rejected the proof, naming the failed check.
    Rejected(String),
}

impl core::fmt::Display for BatchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Unsupported(why) => write!(f, "unsupported statement: {why}"),
            Self::Prove(why) => write!(f, "the prover refused: {why}"),
            Self::Rejected(why) => write!(f, "the proof is rejected: {why}"),
        }
    }
}

impl core::error::Error for BatchError {}

/// One way to prove many instances of the relation `R` — an engine with its batching
/// strategy, commitment and transcript — behind one object-safe interface, so that a
/// harness runs every batcher on the same [`Statement`] and checks the outputs against the
/// relation's native evaluation. Engines implement it through their encodings
/// (`flockwork-circuit`'s `CircuitEncoding`, [`LayeredEncoding`]); the typed engine APIs stay
/// the fast path.
pub trait Batcher<R: Relation>: Send + Sync {
    /// A name for tables: engine, strategy, commitment, transcript.
    fn name(&self) -> String;

    /// Whether it proves statements with this kind of IO.
    fn supports(&self, io: IoKind) -> bool;

    /// Bits of soundness of its setup, computed from its parameters.
    fn soundness_bits(&self) -> f64;

    /// Commits to the instances `inputs` and their outputs for an [`Io::Committed`]
    /// statement ([`Statement::committed`]): the commitment bytes the statement carries.
    /// The default says the batcher proves no committed statement.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] if the batcher does not prove committed statements or
    /// not this many instances.
    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        Err(BatchError::Unsupported(alloc::format!(
            "{} proves no committed statement ({} instances)",
            self.name(),
            inputs.len()
        )))
    }

    /// Proves `statement` about the instances `inputs`; returns the proof bytes.
    ///
    /// # Errors
    /// [`BatchError::Unsupported`] for a statement of an unsupported kind or count,
    /// [`BatchError::Prove`] for inputs that do not match it. A false statement is not an
    /// error: its proof fails verification.
    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError>;

    /// Verifies proof bytes for `statement`; never panics, whatever the bytes.
    ///
    /// # Errors
    /// [`BatchError::Rejected`] naming the failed check, [`BatchError::Unsupported`] for a
    /// statement it does not prove.
    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError>;

    /// Why this batcher proves nothing — its setup could not be built for this count or
    /// choice ([`Unavailable`]); `None` (the default) for a batcher that proves.
    fn unavailable(&self) -> Option<String> {
        None
    }
}

/// A batcher a harness lists but could not set up (a commitment that cannot reach the
/// count or the target, a scheme not implemented over the relation's field, …): it carries
/// the batcher's name, the kinds of IO it would have proved and the reason, so a comparison
/// shows it as a row with its reason instead of leaving it out. Every proving method returns
/// [`BatchError::Unsupported`] with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unavailable {
    /// The batcher's name, as it would have been.
    pub name: String,
    /// The kinds of IO it would have proved.
    pub kinds: Vec<IoKind>,
    /// Why it could not be set up.
    pub reason: String,
}

impl Unavailable {
    fn refusal(&self) -> BatchError {
        BatchError::Unsupported(alloc::format!("{}: {}", self.name, self.reason))
    }
}

impl<R: Relation> Batcher<R> for Unavailable {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        self.kinds.contains(&io)
    }

    /// No setup, no soundness.
    fn soundness_bits(&self) -> f64 {
        0.0
    }

    fn commit(&self, _: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        Err(self.refusal())
    }

    fn prove(&self, _: &[R::Input], _: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        Err(self.refusal())
    }

    fn verify(&self, _: &Statement<R>, _: &[u8]) -> Result<(), BatchError> {
        Err(self.refusal())
    }

    fn unavailable(&self) -> Option<String> {
        Some(self.reason.clone())
    }
}

/// A relation with `R`'s inputs, outputs and states: another encoding of the same
/// computation under another type (a circuit compiled into Boolean layers,
/// `flockwork-circuit`'s `CompiledLayers`), whose statements are `R`'s ([`Statement::retype`]).
pub trait SameTypes<R: Relation>:
    Relation<Input = R::Input, Output = R::Output, State = R::State>
{
}

impl<R: Relation, S: Relation<Input = R::Input, Output = R::Output, State = R::State>> SameTypes<R>
    for S
{
}

impl<R: Relation> Io<R> {
    /// The same IO about `S`, a relation with `R`'s types ([`SameTypes`]).
    #[must_use]
    pub fn retype<S: SameTypes<R>>(&self) -> Io<S> {
        match self {
            Self::Public { inputs, outputs } => Io::Public {
                inputs: inputs.clone(),
                outputs: outputs.clone(),
            },
            Self::Committed { count, commitment } => Io::Committed {
                count: *count,
                commitment: commitment.clone(),
            },
            Self::Chain { count, start, end } => Io::Chain {
                count: *count,
                start: start.clone(),
                end: end.clone(),
            },
            Self::Merkle { leaves, root } => Io::Merkle {
                leaves: leaves.clone(),
                root: root.clone(),
            },
        }
    }
}

impl<R: Relation> Statement<R> {
    /// The same statement about `S`, a relation with `R`'s types ([`SameTypes`]).
    #[must_use]
    pub fn retype<S: SameTypes<R>>(&self) -> Statement<S> {
        Statement {
            io: self.io.retype(),
        }
    }
}

/// A batcher of `S`, a relation with `R`'s types ([`SameTypes`]), listed as one of `R`: each
/// statement about `R` is handed over as the same statement about `S`
/// ([`Statement::retype`]). Its name is the inner batcher's with `tag` after it (`"GKR
/// boolean ragged / sha256 [compiled]"`), so a table tells it from a batcher of `R`'s own
/// encoding.
pub struct Retyped<S: Relation> {
    inner: alloc::boxed::Box<dyn Batcher<S>>,
    tag: String,
}

impl<S: Relation> Retyped<S> {
    /// `inner` as a batcher of any relation with `S`'s types, named with `tag`.
    #[must_use]
    pub fn new(inner: alloc::boxed::Box<dyn Batcher<S>>, tag: &str) -> Self {
        Self {
            inner,
            tag: tag.into(),
        }
    }
}

impl<R: Relation, S: SameTypes<R>> Batcher<R> for Retyped<S> {
    fn name(&self) -> String {
        alloc::format!("{} [{}]", self.inner.name(), self.tag)
    }

    fn supports(&self, io: IoKind) -> bool {
        self.inner.supports(io)
    }

    fn soundness_bits(&self) -> f64 {
        self.inner.soundness_bits()
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        self.inner.commit(inputs)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        self.inner.prove(inputs, &statement.retype())
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        self.inner.verify(&statement.retype(), proof)
    }

    fn unavailable(&self) -> Option<String> {
        self.inner.unavailable()
    }
}
