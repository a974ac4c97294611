//! Relations and statements (`flockwork_core::relation`) on toy relations with their own native
//! code: the statement constructors (public, committed, chain, Merkle) against independent
//! computations and on every refused input, the encoding checks passing a faithful encoding and
//! naming each kind of fault in a broken one, and a batcher's provided `commit`.

use flockwork_core::boolean_layered::{BooleanLayered, BooleanLayeredRelation};
use flockwork_core::layered::{LaneMap, LayeredRelation};
use flockwork_core::merkle::leaf_node;
use flockwork_core::relation::{
    BatchError, Io, IoKind, Statement, check_boolean_layered_encoding, check_layered_encoding,
    known_and_given,
};
use flockwork_core::{Batcher, BooleanLayeredEncoding, LayeredEncoding, Relation};
use flockwork_field::Field;
use flockwork_field_binary::{Ghash128, Ghash256};

use crate::boolean_layered::Toy;
use crate::xorshift;

/// A toy compression `f(cv, m) = ((cv ⊕ rotl(m, 17))·K) ⊕ cv` on `u64` words that chains
/// through `cv` and hashes two digests as `(left, right)`.
struct Compress {
    /// A wrong known answer (for the check that catches it).
    wrong_answer: bool,
}

const K: u64 = 0x9e37_79b9_7f4a_7c15;

fn compress(cv: u64, m: u64) -> u64 {
    (cv ^ m.rotate_left(17)).wrapping_mul(K) ^ cv
}

impl Relation for Compress {
    type Input = (u64, u64);
    type Output = u64;
    type State = u64;

    fn name(&self) -> String {
        "toy-compress".into()
    }

    fn evaluate(&self, &(cv, m): &(u64, u64)) -> u64 {
        compress(cv, m)
    }

    fn known_answers(&self) -> Vec<((u64, u64), u64)> {
        // f(1, 0) = (1·K) ⊕ 1, worked by hand.
        let answer = if self.wrong_answer { K } else { K ^ 1 };
        vec![((1, 0), answer)]
    }

    fn input_state(&self, input: &(u64, u64)) -> Option<u64> {
        Some(input.0)
    }

    fn output_state(&self, output: &u64) -> Option<u64> {
        Some(*output)
    }

    fn merkle_node(&self, left: &u64, right: &u64) -> Option<(u64, u64)> {
        Some((*left, *right))
    }
}

const HONEST: Compress = Compress {
    wrong_answer: false,
};

/// A fault planted in an encoding, for the checks that must name it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// The input map has the wrong length.
    InputLength,
    /// The computation is wrong (a skipped input map, a flipped output bit).
    Compute,
    /// The output decoder does not invert the output encoder.
    Decode,
}

/// Two lanes over GF(2^128): the input map adds 5 to lane 1; each of two layers is
/// `s_0 ← (s_0 + 3)^3 + X·s_1`, lane 1 unchanged. It does not chain (the provided state maps).
struct Cube(Fault);

fn cube_native(a: u64, b: u64) -> [Ghash128; 2] {
    let (mut s0, s1) = (
        Ghash128::new(a.into()),
        Ghash128::new(b.into()) + Ghash128::new(5),
    );
    for _ in 0..2 {
        let c = s0 + Ghash128::new(3);
        s0 = c * c * c + Ghash128::X * s1;
    }
    [s0, s1]
}

impl Relation for Cube {
    type Input = (u64, u64);
    type Output = [Ghash128; 2];
    type State = ();

    fn name(&self) -> String {
        "toy-cube".into()
    }

    fn evaluate(&self, &(a, b): &(u64, u64)) -> [Ghash128; 2] {
        cube_native(a, b)
    }

    fn known_answers(&self) -> Vec<((u64, u64), [Ghash128; 2])> {
        Vec::new()
    }
}

impl LayeredRelation for Cube {
    type Base = Ghash128;

    fn id(&self) -> Vec<u8> {
        b"toy-cube".to_vec()
    }

    fn lanes(&self) -> usize {
        2
    }

    fn num_layers(&self) -> usize {
        2
    }

    fn lane_map(&self, _layer: usize, lane: usize) -> LaneMap<Ghash128> {
        if lane == 0 {
            LaneMap::Power {
                shift: Ghash128::new(3),
                exponent: 3,
            }
        } else {
            LaneMap::Identity
        }
    }

    fn matrix_entry(&self, _layer: usize, row: usize, col: usize) -> Ghash128 {
        [
            [Ghash128::ONE, Ghash128::X],
            [Ghash128::ZERO, Ghash128::ONE],
        ][row][col]
    }

    fn apply_layer(&self, _layer: usize, s: &mut [Ghash128]) {
        let c = s[0] + Ghash128::new(3);
        s[0] = c * c * c + Ghash128::X * s[1];
    }

    fn apply_input(&self, state: &mut [Ghash128]) {
        if self.0 != Fault::Compute {
            state[1] += Ghash128::new(5);
        }
    }
}

impl LayeredEncoding for Cube {
    fn input_lanes(&self, &(a, b): &(u64, u64)) -> Vec<Ghash128> {
        let mut lanes = vec![Ghash128::new(a.into()), Ghash128::new(b.into())];
        if self.0 == Fault::InputLength {
            lanes.push(Ghash128::ZERO);
        }
        lanes
    }

    fn output_lanes(&self, output: &[Ghash128; 2]) -> Vec<Ghash128> {
        output.to_vec()
    }

    fn output_of_lanes(&self, lanes: &[Ghash128]) -> Option<[Ghash128; 2]> {
        let lanes: [Ghash128; 2] = lanes.try_into().ok()?;
        Some(if self.0 == Fault::Decode {
            [lanes[1], lanes[0]]
        } else {
            lanes
        })
    }
}

/// The Boolean toy of `boolean_layered.rs` (16 bits in, 8 out) as a relation.
struct Bits(Toy, Fault);

impl Relation for Bits {
    type Input = u16;
    type Output = u8;
    type State = ();

    fn name(&self) -> String {
        "toy-bits".into()
    }

    fn evaluate(&self, input: &u16) -> u8 {
        let mut state = vec![u64::from(*input)];
        for layer in 1..=4 {
            state = self.0.apply_layer_native(layer, &state);
        }
        u8::try_from(state[0]).expect("an 8-bit output")
    }

    fn known_answers(&self) -> Vec<(u16, u8)> {
        Vec::new()
    }
}

impl BooleanLayeredRelation for Bits {
    fn id(&self) -> Vec<u8> {
        self.0.id()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        self.0.boolean_layers()
    }

    fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
        self.0.apply_layer_native(layer, state)
    }
}

impl BooleanLayeredEncoding for Bits {
    fn input_bits(&self, input: &u16) -> Vec<u64> {
        let mut words = vec![u64::from(*input)];
        if self.1 == Fault::InputLength {
            words.push(0);
        }
        words
    }

    fn output_bits(&self, output: &u8) -> Vec<u64> {
        let flip = u64::from(self.1 == Fault::Compute);
        vec![u64::from(*output) ^ flip]
    }

    fn output_of_bits(&self, words: &[u64]) -> Option<u8> {
        let [word] = words else { return None };
        let byte = u8::try_from(*word).ok()?;
        Some(if self.1 == Fault::Decode { !byte } else { byte })
    }
}

#[test]
fn the_known_answers_come_first_and_are_checked() {
    assert_eq!(
        known_and_given(&HONEST, &[(2, 3), (4, 5)]),
        [(1, 0), (2, 3), (4, 5)]
    );
    assert_eq!(
        HONEST.evaluate_batch(&[(1, 0), (7, 9)]),
        [K ^ 1, compress(7, 9)]
    );
}

#[test]
#[should_panic(expected = "toy-compress: a known answer differs from the native evaluation")]
fn a_wrong_known_answer_is_caught() {
    let _ = known_and_given(&Compress { wrong_answer: true }, &[]);
}

#[test]
fn public_and_committed_statements() {
    let inputs = vec![(1, 2), (3, 4), (5, 6)];
    let statement = Statement::public(&HONEST, inputs.clone());
    let Io::Public {
        inputs: got,
        outputs,
    } = &statement.io
    else {
        panic!("a public statement");
    };
    assert_eq!(*got, inputs);
    assert_eq!(*outputs, [compress(1, 2), compress(3, 4), compress(5, 6)]);
    assert_eq!(
        (
            statement.count(),
            statement.kind(),
            statement.is_consistent()
        ),
        (3, IoKind::Public, true)
    );
    let mut short = statement.clone();
    if let Io::Public { outputs, .. } = &mut short.io {
        outputs.pop();
    }
    assert!(!short.is_consistent());
    assert_eq!(
        format!("{statement:?}"),
        format!(
            "Statement {{ io: Public {{ inputs: {inputs:?}, outputs: [{}, {}, {}] }} }}",
            compress(1, 2),
            compress(3, 4),
            compress(5, 6)
        )
    );

    let committed = Statement::<Compress>::committed(5, vec![7; 3]);
    assert_eq!(
        (
            committed.count(),
            committed.kind(),
            committed.is_consistent()
        ),
        (5, IoKind::Committed, true)
    );
    assert!(matches!(
        &committed.clone().io,
        Io::Committed { count: 5, commitment } if *commitment == [7; 3]
    ));
    assert_eq!(
        format!("{:?}", committed.io),
        "Committed { count: 5, commitment: [7, 7, 7] }"
    );
    assert!(!Statement::<Compress>::committed(0, vec![7]).is_consistent());
}

#[test]
fn a_chain_has_its_ends_and_must_be_a_chain() {
    let mut next = xorshift(11);
    let start = next();
    let mut inputs = Vec::new();
    let mut cv = start;
    for _ in 0..5 {
        let m = next();
        inputs.push((cv, m));
        cv = compress(cv, m);
    }
    let statement = Statement::chain(&HONEST, &inputs).unwrap();
    assert!(matches!(
        statement.io,
        Io::Chain { count: 5, start: s, end } if s == start && end == cv
    ));
    assert_eq!(
        (
            statement.count(),
            statement.kind(),
            statement.is_consistent()
        ),
        (5, IoKind::Chain, true)
    );
    assert_eq!(
        format!("{:?}", statement.clone().io),
        format!("Chain {{ count: 5, start: {start}, end: {cv} }}")
    );
    // One instance is a chain too.
    let one = Statement::chain(&HONEST, &inputs[..1]).unwrap();
    assert!(
        matches!(one.io, Io::Chain { count: 1, end, .. } if end == compress(inputs[0].0, inputs[0].1))
    );

    // Instance 3 does not read instance 2's output.
    let mut broken = inputs.clone();
    broken[3].0 ^= 1;
    assert_eq!(
        Statement::chain(&HONEST, &broken).unwrap_err(),
        BatchError::Prove("instance 3 does not read instance 2's output state".into())
    );
    assert_eq!(
        Statement::chain(&HONEST, &[]).unwrap_err(),
        BatchError::Unsupported("a chain of no instances".into())
    );
    assert_eq!(
        Statement::chain(&Cube(Fault::None), &[(1, 2)]).unwrap_err(),
        BatchError::Unsupported("toy-cube does not chain".into())
    );
    assert!(
        !Statement::<Compress> {
            io: Io::Chain {
                count: 0,
                start: 0,
                end: 0
            }
        }
        .is_consistent()
    );
}

/// The left-complete tree computed here, independently of `Statement::merkle`: the digests of
/// heap nodes `1 .. 2L` (node `p` hashes nodes `2p` and `2p + 1`).
fn heap_digests(leaves: &[u64]) -> Vec<u64> {
    let l = leaves.len();
    let mut digest = vec![0; 2 * l];
    for (j, &leaf) in leaves.iter().enumerate() {
        digest[leaf_node(j, l)] = leaf;
    }
    for p in (1..l).rev() {
        digest[p] = compress(digest[2 * p], digest[2 * p + 1]);
    }
    digest
}

#[test]
fn a_merkle_statement_lists_its_nodes_in_heap_order() {
    // Four leaves: the balanced tree, written out.
    let leaves = [10, 11, 12, 13];
    let (statement, inputs) = Statement::merkle(&HONEST, &leaves).unwrap();
    let (a, b) = (compress(10, 11), compress(12, 13));
    let root = compress(a, b);
    assert!(
        matches!(&statement.io, Io::Merkle { leaves: l, root: r } if *l == leaves && *r == root)
    );
    assert_eq!(inputs, [(a, b), (a, b), (10, 11), (12, 13)]);
    assert_eq!(
        (
            statement.count(),
            statement.kind(),
            statement.is_consistent()
        ),
        (4, IoKind::Merkle, true)
    );
    assert_eq!(
        format!("{:?}", statement.clone().io),
        format!("Merkle {{ leaves: [10, 11, 12, 13], root: {root} }}")
    );

    // Every count up to 17: instance p hashes nodes 2p and 2p + 1; instance 0 repeats node 1.
    let mut next = xorshift(3);
    for l in 2..=17 {
        let leaves: Vec<u64> = (0..l).map(|_| next()).collect();
        let digest = heap_digests(&leaves);
        let (statement, inputs) = Statement::merkle(&HONEST, &leaves).unwrap();
        assert!(matches!(statement.io, Io::Merkle { root, .. } if root == digest[1]));
        assert_eq!(inputs.len(), l);
        assert_eq!(inputs[0], inputs[1]);
        for (p, input) in inputs.iter().enumerate().skip(1) {
            assert_eq!(
                *input,
                (digest[2 * p], digest[2 * p + 1]),
                "{l} leaves, node {p}"
            );
        }
    }

    assert_eq!(
        Statement::merkle(&HONEST, &[1]).unwrap_err(),
        BatchError::Unsupported("a Merkle tree over 1 leaves (at least 2)".into())
    );
    assert_eq!(
        Statement::merkle(&Cube(Fault::None), &[(), ()]).unwrap_err(),
        BatchError::Unsupported("toy-cube has no Merkle nodes".into())
    );
    assert!(
        !Statement::<Compress> {
            io: Io::Merkle {
                leaves: vec![1],
                root: 1
            }
        }
        .is_consistent()
    );
}

#[test]
fn the_provided_state_maps_say_a_relation_does_not_chain() {
    let cube = Cube(Fault::None);
    let output = cube.evaluate(&(1, 2));
    assert_eq!(output, cube_native(1, 2));
    assert_eq!(cube.input_state(&(1, 2)), None);
    assert_eq!(cube.output_state(&output), None);
    assert_eq!(cube.merkle_node(&(), &()), None);
}

#[test]
fn generic_layer_and_folded_weights_agree_with_the_kernel() {
    let cube = Cube(Fault::None);
    let mut s = [Ghash128::new(0x1234), Ghash128::new(0x99)];
    let mut lifted = s.map(Ghash256::from);
    cube.apply_layer(1, &mut s);
    cube.apply_layer_generic(1, &mut lifted);
    assert_eq!(lifted, s.map(Ghash256::from));
    assert_eq!((cube.layer_degree(1), cube.max_degree()), (3, 3));

    // Σ_i w_i S_1,i = Σ_j cw_j T_j(S_0,j).
    let prev = [Ghash256::from_index(77), Ghash256::Y];
    let w = [Ghash256::Y + Ghash256::ONE, Ghash256::from_index(5)];
    let mut next = prev;
    cube.apply_layer_generic(1, &mut next);
    let mut cw = [Ghash256::ZERO; 2];
    cube.fold_weights(1, &w, &mut cw);
    assert_eq!(
        w[0] * next[0] + w[1] * next[1],
        cube.layer_term(1, &cw, &prev)
    );
}

#[test]
fn the_provided_row_kernels_apply_the_state_kernels() {
    let cube = Cube(Fault::None);
    let mut next = xorshift(13);
    let mut rows: Vec<Ghash128> = (0..6).map(|_| Ghash128::new(next().into())).collect();
    let mut expected = rows.clone();
    for state in expected.chunks_exact_mut(2) {
        cube.apply_input(state);
        cube.apply_layer(1, state);
    }
    cube.apply_input_rows(&mut rows);
    cube.apply_layer_rows(1, &mut rows);
    assert_eq!(rows, expected);
}

#[test]
fn a_faithful_layered_encoding_passes() {
    let mut next = xorshift(5);
    let inputs: Vec<(u64, u64)> = (0..20).map(|_| (next(), next())).collect();
    check_layered_encoding(&Cube(Fault::None), &inputs);
}

#[test]
#[should_panic(expected = "toy-cube: lanes of the input state")]
fn a_layered_input_map_of_the_wrong_length_is_named() {
    check_layered_encoding(&Cube(Fault::InputLength), &[(1, 2)]);
}

#[test]
#[should_panic(expected = "toy-cube: the layers disagree with the native evaluation on (1, 2)")]
fn layers_that_compute_something_else_are_named() {
    check_layered_encoding(&Cube(Fault::Compute), &[(1, 2)]);
}

#[test]
#[should_panic(expected = "toy-cube: output_of_lanes does not invert output_lanes")]
fn a_layered_decoder_that_does_not_invert_is_named() {
    check_layered_encoding(&Cube(Fault::Decode), &[(1, 2)]);
}

#[test]
fn a_faithful_boolean_encoding_passes() {
    let mut next = xorshift(9);
    // More than one packed word of 128 instances, the last partly empty.
    let inputs: Vec<u16> = (0..300).map(|_| next() as u16).collect();
    check_boolean_layered_encoding(&Bits(Toy::new(), Fault::None), &inputs);
}

#[test]
#[should_panic(expected = "toy-bits: input words")]
fn a_boolean_input_map_of_the_wrong_length_is_named() {
    check_boolean_layered_encoding(&Bits(Toy::new(), Fault::InputLength), &[1]);
}

#[test]
#[should_panic(expected = "toy-bits: output_bits is not the last layer's state")]
fn a_wrong_boolean_output_map_is_named() {
    check_boolean_layered_encoding(&Bits(Toy::new(), Fault::Compute), &[1]);
}

#[test]
#[should_panic(expected = "toy-bits: the Boolean layers disagree with the native evaluation on 1")]
fn a_wrong_boolean_decoder_is_named() {
    check_boolean_layered_encoding(&Bits(Toy::new(), Fault::Decode), &[1]);
}

/// A batcher that "proves" public statements by sending the outputs (no soundness): enough to
/// run the trait's provided `commit` behind `dyn`.
struct Replay;

impl Batcher<Compress> for Replay {
    fn name(&self) -> String {
        "replay".into()
    }

    fn supports(&self, io: IoKind) -> bool {
        io == IoKind::Public
    }

    fn soundness_bits(&self) -> f64 {
        0.0
    }

    fn prove(
        &self,
        inputs: &[(u64, u64)],
        statement: &Statement<Compress>,
    ) -> Result<Vec<u8>, BatchError> {
        if !self.supports(statement.kind()) {
            return Err(BatchError::Unsupported("not public".into()));
        }
        Ok(HONEST
            .evaluate_batch(inputs)
            .iter()
            .flat_map(|y| y.to_le_bytes())
            .collect())
    }

    fn verify(&self, statement: &Statement<Compress>, proof: &[u8]) -> Result<(), BatchError> {
        let Io::Public { outputs, .. } = &statement.io else {
            return Err(BatchError::Unsupported("not public".into()));
        };
        let sent: Vec<u8> = outputs.iter().flat_map(|y| y.to_le_bytes()).collect();
        if sent == proof {
            Ok(())
        } else {
            Err(BatchError::Rejected("other outputs".into()))
        }
    }
}

#[test]
fn a_batcher_without_commitments_refuses_to_commit_by_name() {
    let batcher: Box<dyn Batcher<Compress>> = Box::new(Replay);
    let inputs = [(1, 2), (3, 4), (5, 6)];
    let error = batcher.commit(&inputs).unwrap_err();
    assert_eq!(
        error,
        BatchError::Unsupported("replay proves no committed statement (3 instances)".into())
    );
    assert_eq!(
        error.to_string(),
        "unsupported statement: replay proves no committed statement (3 instances)"
    );
    let statement = Statement::public(&HONEST, inputs.to_vec());
    let proof = batcher.prove(&inputs, &statement).unwrap();
    assert_eq!(batcher.verify(&statement, &proof), Ok(()));
    let mut forged = proof;
    forged[0] ^= 1;
    assert_eq!(
        batcher.verify(&statement, &forged).unwrap_err().to_string(),
        "the proof is rejected: other outputs"
    );
    assert_eq!(
        BatchError::Prove("no".into()).to_string(),
        "the prover refused: no"
    );
}
