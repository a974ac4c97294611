//! Relations as Boolean circuits: the encoding batch-R1CS proves.
//!
//! A [`CircuitEncoding`] is a [`Relation`] (`flockwork-core`: typed inputs and outputs, native
//! evaluation, known answers) that is also a [`Gadget`], with the maps between its typed
//! values and the gadget's input and output vectors. [`check_circuit_encoding`] is the test
//! every circuit encoding passes: on the relation's known answers and on given inputs, the
//! circuit computes the native output.
//!
//! ## What a relation declares for chains and trees
//!
//! Batch-R1CS proves a chain by equating consecutive instances' state regions and a Merkle
//! tree by wiring each node's digest region into its parent's children region (Flock notes
//! §3 "IO"). A circuit encoding declares them, so the engine's batchers need nothing else:
//!
//! - [`CircuitEncoding::chain_regions`]: the chained state's input and output regions (by
//!   default the state [`IoLayout::auto`](crate::IoLayout::auto) marks), and
//!   [`CircuitEncoding::encode_state`], a [`Relation::State`] as that region's words (how a
//!   chain statement's two ends are encoded);
//! - [`CircuitEncoding::merkle_io`]: the node's children and digest regions and the values
//!   of its other input regions ([`MerkleIo`]).
//!
//! [`check_circuit_encoding`] checks the declarations against the relation: every known
//! answer's and given input's state ([`Relation::input_state`]) encodes as its input
//! vector's state region, every output's ([`Relation::output_state`]) as its output
//! vector's, and a Merkle node's input vector has the declared fixed regions.

use alloc::vec::Vec;

use flockwork_core::relation::{Relation, known_and_given};

use crate::{Gadget, IoLayout, SlotId, SlotKind, evaluate};

/// The regions of a Merkle node (batch-R1CS's Merkle-tree IO): the node's input region
/// `children` holds `left ‖ right`, its output region `digest` the node's digest, and every
/// other input region takes the same value at every node (`fixed`: the IV, counters, flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleIo {
    /// The input region holding the two child digests.
    pub children: SlotId,
    /// The output region holding the node's digest.
    pub digest: SlotId,
    /// Every other input region with its value at every node.
    pub fixed: Vec<(SlotId, Vec<u64>)>,
}

impl MerkleIo {
    /// The Merkle IO of `relation` whose nodes read `children` and write `digest`, the other
    /// input regions' values read from `node`, any node's input
    /// ([`Relation::merkle_node`]).
    #[must_use]
    pub fn of_node<R: CircuitEncoding>(
        relation: &R,
        children: SlotId,
        digest: SlotId,
        node: &R::Input,
    ) -> Self {
        let layout = relation.layout();
        let words = relation.encode_input(node);
        let fixed = (0..layout.slots().len())
            .map(SlotId)
            .filter(|&id| layout.slot(id).kind == SlotKind::Input && id != children)
            .map(|id| (id, region_words(&layout, id, &words).to_vec()))
            .collect();
        Self {
            children,
            digest,
            fixed,
        }
    }
}

/// The words of region `id` within a vector of its kind.
#[must_use]
pub fn region_words<'a>(layout: &IoLayout, id: SlotId, vector: &'a [u64]) -> &'a [u64] {
    let offset = layout.vector_offset(id) / 64;
    &vector[offset..offset + layout.slot(id).words()]
}

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

    /// The chained state's `(input, output)` regions, where [`Relation::input_state`] and
    /// [`Relation::output_state`] sit in the input and output vectors; `None` if the
    /// instances do not chain. The default is the state the layout marks
    /// ([`IoLayout::state`]).
    fn chain_regions(&self) -> Option<(SlotId, SlotId)> {
        self.layout().state()
    }

    /// `state` as the words of the chain's input region (and of its output region, which
    /// holds a state the same way): a chain statement's start and end. `None` (the default)
    /// if the relation does not chain.
    fn encode_state(&self, state: &Self::State) -> Option<Vec<u64>> {
        let _ = state;
        None
    }

    /// The regions of a Merkle node ([`MerkleIo::of_node`] builds them); `None` (the
    /// default) if the relation has no Merkle nodes.
    fn merkle_io(&self) -> Option<MerkleIo> {
        None
    }
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
        check_states(relation, input, expected, &words, &circuit);
    }
    if let Some(merkle) = relation.merkle_io() {
        let state = all.iter().find_map(|x| relation.input_state(x));
        let node = state.and_then(|s| relation.merkle_node(&s, &s));
        let node = node.unwrap_or_else(|| panic!("{name}: Merkle IO without Merkle nodes"));
        let words = relation.encode_input(&node);
        for (id, value) in &merkle.fixed {
            assert_eq!(
                region_words(&layout, *id, &words),
                &value[..],
                "{name}: a Merkle node's fixed input region {id:?}"
            );
        }
    }
}

/// The chain declarations on one instance: the input's and output's states encode as the
/// state regions of its input and output vectors.
fn check_states<R: CircuitEncoding>(
    relation: &R,
    input: &R::Input,
    output: &R::Output,
    words: &[u64],
    circuit: &[u64],
) {
    let name = relation.name();
    let Some((state_in, state_out)) = relation.chain_regions() else {
        return;
    };
    let layout = relation.layout();
    let pairs = [
        (relation.input_state(input), state_in, words, "input"),
        (relation.output_state(output), state_out, circuit, "output"),
    ];
    for (state, region, vector, side) in pairs {
        let state = state.unwrap_or_else(|| panic!("{name}: chain regions but no {side} state"));
        let encoded = relation
            .encode_state(&state)
            .unwrap_or_else(|| panic!("{name}: chain regions but no encode_state"));
        assert_eq!(
            encoded,
            region_words(&layout, region, vector),
            "{name}: encode_state is not the {side} vector's state region"
        );
    }
}
