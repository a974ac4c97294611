//! Relations: the computation itself, independent of how it is proved.
//!
//! A [`Relation`] is one small computation — a hash compression, a permutation — with typed
//! inputs and outputs, a native evaluation and known-answer vectors from its specification.
//! Each proof engine consumes an *encoding* of it:
//!
//! | encoding | what it adds | engine |
//! |---|---|---|
//! | [`CircuitEncoding`] | a Boolean circuit ([`Gadget`]) and how inputs and outputs map to its input and output vectors | batch-R1CS (`flockwork-r1cs`) |
//! | [`LayeredEncoding`] | layers ([`LayeredRelation`]) and how inputs and outputs map to the first and last state | GKR (`flockwork-gkr`) |
//!
//! A gadget crate implements [`Relation`] and the encodings it has, so a computation written
//! once is proved by every engine that has an encoding of it, and a harness compares engines
//! on one statement by checking every proof's outputs against [`Relation::evaluate_batch`].
//! [`check_circuit_encoding`] and [`check_layered_encoding`] are the tests every encoding
//! passes: on the known answers and on given inputs, the encoding computes what the native
//! evaluation does.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use crate::circuit::{Gadget, SlotKind, evaluate};
use crate::layered::LayeredRelation;

/// One computation with typed inputs and outputs, evaluated natively.
pub trait Relation: Send + Sync {
    /// One instance's input.
    type Input: Clone + Debug + Send + Sync;
    /// One instance's output.
    type Output: Clone + Debug + Eq + Send + Sync;

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
}

/// A [`Relation`] as a Boolean circuit: the [`Gadget`] that batch-R1CS lowers, with the
/// maps between typed values and the gadget's input and output vectors (`u64` words, in
/// the order of the layout's regions of each kind).
pub trait CircuitEncoding: Relation + Gadget {
    /// The input vector of one instance (`layout().vector_bits(SlotKind::Input) / 64`
    /// words).
    fn encode_input(&self, input: &Self::Input) -> Vec<u64>;

    /// The output vector of one instance (`layout().vector_bits(SlotKind::Output) / 64`
    /// words).
    fn encode_output(&self, output: &Self::Output) -> Vec<u64>;

    /// The typed output of an output vector; `None` if the words are not an output of the
    /// relation (wrong length, or bits that no output sets).
    fn decode_output(&self, words: &[u64]) -> Option<Self::Output>;
}

/// A [`Relation`] as layers: the [`LayeredRelation`] that GKR walks, with the maps between
/// typed values and one state of `t` lanes (before the input map, after the last layer).
pub trait LayeredEncoding: Relation + LayeredRelation {
    /// The state of one instance before [`LayeredRelation::apply_input`] (`t` lanes).
    fn input_lanes(&self, input: &Self::Input) -> Vec<Self::Base>;

    /// The typed output of a last-layer state; `None` if the lanes are not an output of
    /// the relation (wrong length).
    fn output_of_lanes(&self, lanes: &[Self::Base]) -> Option<Self::Output>;
}

/// Checks a circuit encoding against its relation, panicking with a description on the first
/// disagreement: the known answers evaluate natively to their outputs, and on them and on
/// `inputs` the circuit ([`evaluate`]) computes the native output, whose encoding decodes
/// back to it.
///
/// # Panics
/// On the first disagreement (that is the point).
pub fn check_circuit_encoding<R: CircuitEncoding>(relation: &R, inputs: &[R::Input]) {
    let name = relation.name();
    let layout = relation.layout();
    let (in_words, out_words) = (
        layout.vector_bits(SlotKind::Input) / 64,
        layout.vector_bits(SlotKind::Output) / 64,
    );
    for (input, output) in relation.known_answers() {
        assert_eq!(
            relation.evaluate(&input),
            output,
            "{name}: a known answer differs from the native evaluation"
        );
    }
    let known = relation.known_answers().into_iter().map(|(x, _)| x);
    let all: Vec<R::Input> = known.chain(inputs.iter().cloned()).collect();
    let native = relation.evaluate_batch(&all);
    assert_eq!(native.len(), all.len(), "{name}: evaluate_batch length");
    for (input, expected) in all.iter().zip(&native) {
        assert_eq!(
            relation.evaluate(input),
            *expected,
            "{name}: evaluate_batch"
        );
        let words = relation.encode_input(input);
        assert_eq!(words.len(), in_words, "{name}: input vector length");
        let circuit = evaluate(relation, &words);
        assert_eq!(circuit.len(), out_words, "{name}: output vector length");
        assert_eq!(
            relation.decode_output(&circuit).as_ref(),
            Some(expected),
            "{name}: the circuit disagrees with the native evaluation on {input:?}"
        );
        assert_eq!(
            relation.encode_output(expected),
            circuit,
            "{name}: encode_output is not the circuit's output vector"
        );
    }
}

/// Checks a layered encoding against its relation, as [`check_circuit_encoding`]: on the
/// known answers and on `inputs`, the input map and every layer ([`LayeredRelation`]'s native
/// kernels) compute the native output.
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
            relation.output_of_lanes(&state),
            Some(expected),
            "{name}: the layers disagree with the native evaluation on {input:?}"
        );
    }
}
