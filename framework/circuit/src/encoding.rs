//! Relations as Boolean circuits: the encoding batch-R1CS proves.
//!
//! A [`CircuitEncoding`] is a [`Relation`] (`flockwork-core`: typed inputs and outputs, native
//! evaluation, known answers) that is also a [`Gadget`], with the maps between its typed
//! values and the gadget's input and output vectors. [`check_circuit_encoding`] is the test
//! every circuit encoding passes: on the relation's known answers and on given inputs, the
//! circuit computes the native output.

use alloc::vec::Vec;

use flockwork_core::relation::{Relation, known_and_given};

use crate::{Gadget, SlotKind, evaluate};

/// A [`Relation`] as a Boolean circuit: the [`Gadget`] that batch-R1CS lowers, with the
/// maps between typed values and the gadget's input and output vectors (`u64` words, in
/// the order of the layout's regions of each kind, `⌈bits/64⌉` words a region with the bits
/// of its last word past the region's end zero; [`crate::IoLayout`]).
pub trait CircuitEncoding: Relation + Gadget {
    /// The input vector of one instance (`layout().vector_words(SlotKind::Input)` words, zero
    /// past each region's bits).
    fn encode_input(&self, input: &Self::Input) -> Vec<u64>;

    /// The output vector of one instance (`layout().vector_words(SlotKind::Output)` words,
    /// zero past each region's bits).
    fn encode_output(&self, output: &Self::Output) -> Vec<u64>;

    /// The typed output of an output vector; `None` if the words are not an output of the
    /// relation (wrong length, or bits that no output sets).
    fn decode_output(&self, words: &[u64]) -> Option<Self::Output>;
}

/// Checks a circuit encoding against its relation, panicking with a description on the first
/// disagreement: the known answers evaluate natively to their outputs, and on them and on
/// `inputs` the circuit ([`evaluate`]) computes the native output, whose encoding decodes
/// back to it; the encoded input vectors leave the bits past each region's end zero.
///
/// # Panics
/// On the first disagreement (that is the point).
pub fn check_circuit_encoding<R: CircuitEncoding>(relation: &R, inputs: &[R::Input]) {
    let name = relation.name();
    let layout = relation.layout();
    let (in_words, out_words) = (
        layout.vector_words(SlotKind::Input),
        layout.vector_words(SlotKind::Output),
    );
    let all = known_and_given(relation, inputs);
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
        if let Some(region) = layout.padding_bit_set(SlotKind::Input, &words) {
            panic!("{name}: encode_input sets bits past the end of input region {region}");
        }
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
