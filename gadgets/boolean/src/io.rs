//! IO glue: witness builders for hash chains and Merkle trees.
//!
//! The hash-chain and Merkle arguments of the batch-R1CS prover (Flock notes §3 "IO") read
//! the committed IO regions of consecutive instances. These builders compute the instance
//! inputs natively (each instance's input depends on earlier outputs), then generate the
//! batch witness, so the regions satisfy, bit for bit:
//!
//! * **chain**: the state-out region of instance `i` equals the state-in region of
//!   instance `i + 1` ([`ChainStep::STATE_IN`], [`ChainStep::STATE_OUT`]);
//! * **Merkle**: a tree over `K` leaves takes `K` instances in heap order, the layout of the
//!   batch-R1CS Merkle argument: instance `p ≥ 1` is heap node `p` (the root is instance 1,
//!   node `p`'s children are nodes `2p` and `2p + 1`, the leaves are nodes `K .. 2K`), and
//!   instance 0 is padding, a real node hashing two default digests. The left/right child
//!   digests occupy the two halves of the message region ([`MerkleNode::CHILDREN`]) and the
//!   node digest its output region ([`MerkleNode::DIGEST`]).
//!
//! The prover needs a power-of-two number of instances; padding instances must be real
//! computations (pitfall 1 of the notes), e.g. more chain steps.

use flockwork_circuit::{BatchWitness, Gadget, SlotId, SlotKind, Wide, batch_witness};

use crate::blake3::Blake3Compress;
use crate::constants::{BLAKE3_IV, BLAKE3_PARENT, SHA256_IV};
use crate::keccak::KeccakF1600;
use crate::native::{blake3_compress, keccak_p1600};
use crate::sha256::Sha256Compress;
use crate::words::join_u32;

/// A gadget whose instances chain: `state_{i+1} = step(state_i, data_i)`.
pub trait ChainStep: Gadget {
    /// The chained state.
    type State: Copy;
    /// Per-instance data besides the state (a message block, nothing, ...).
    type Data;
    /// Region holding the input state.
    const STATE_IN: SlotId;
    /// Region holding the output state.
    const STATE_OUT: SlotId;

    /// The input vector of one instance.
    fn chain_input(&self, state: &Self::State, data: &Self::Data) -> Vec<u64>;

    /// The next state, computed natively.
    fn chain_next(&self, state: &Self::State, data: &Self::Data) -> Self::State;

    /// `state` as the words of the [`ChainStep::STATE_IN`] region (and of
    /// [`ChainStep::STATE_OUT`], which holds a state the same way): a chain statement's start
    /// and end.
    fn state_words(&self, state: &Self::State) -> Vec<u64>;

    /// Appends the input vector of one instance to `inputs` and returns the next state: one
    /// step of [`chain_witness`]'s serial walk. The provided method calls
    /// [`ChainStep::chain_input`] and [`ChainStep::chain_next`]; a gadget whose input
    /// already computes the next state (a [`Wide`] chain block) overrides it to do so once.
    fn chain_step(
        &self,
        state: &Self::State,
        data: &Self::Data,
        inputs: &mut Vec<u64>,
    ) -> Self::State {
        inputs.extend_from_slice(&self.chain_input(state, data));
        self.chain_next(state, data)
    }
}

/// A gadget that compresses two child digests into a parent digest.
pub trait MerkleNode: Gadget {
    /// A node digest.
    type Digest: Copy + Default;
    /// Region holding `left ‖ right`.
    const CHILDREN: SlotId;
    /// Region holding the node digest.
    const DIGEST: SlotId;

    /// The input vector of the instance hashing `left ‖ right`.
    fn node_input(&self, left: &Self::Digest, right: &Self::Digest) -> Vec<u64>;

    /// The parent digest, computed natively.
    fn node_digest(&self, left: &Self::Digest, right: &Self::Digest) -> Self::Digest;

    /// Every input region except [`MerkleNode::CHILDREN`], with the value every node gives
    /// it (the IV, counters, flags): the public constants a Merkle setup pins.
    fn fixed_inputs(&self) -> Vec<(SlotId, Vec<u64>)> {
        let layout = self.layout();
        let sample = self.node_input(&Self::Digest::default(), &Self::Digest::default());
        (0..layout.slots().len())
            .map(SlotId)
            .filter(|&id| layout.slot(id).kind == SlotKind::Input && id != Self::CHILDREN)
            .map(|id| {
                let offset = layout.vector_offset(id) / 64;
                (
                    id,
                    sample[offset..offset + layout.slot(id).words()].to_vec(),
                )
            })
            .collect()
    }
}

/// A hash chain: the states (`K + 1`, the initial one first), the instance inputs and the
/// batch witness of the `K` steps.
#[derive(Clone, Debug)]
pub struct ChainWitness<S> {
    /// `state_0 .. state_K`.
    pub states: Vec<S>,
    /// Concatenated input vectors of the `K` instances.
    pub inputs: Vec<u64>,
    /// The batch witness.
    pub witness: BatchWitness,
}

/// Builds the witness of the chain starting at `init` with one instance per `data` item.
#[must_use]
pub fn chain_witness<G: ChainStep>(
    gadget: &G,
    init: G::State,
    data: &[G::Data],
    record_sides: bool,
) -> ChainWitness<G::State> {
    let mut states = Vec::with_capacity(data.len() + 1);
    let input_words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut inputs = Vec::with_capacity(data.len() * input_words);
    let mut state = init;
    states.push(state);
    for d in data {
        state = gadget.chain_step(&state, d, &mut inputs);
        states.push(state);
    }
    let witness = batch_witness(gadget, &inputs, record_sides);
    ChainWitness {
        states,
        inputs,
        witness,
    }
}

/// A Merkle tree: its levels (`levels[0]` the leaves, the last one the root), the instance
/// inputs (heap order, instance 0 padding: module docs) and the batch witness.
#[derive(Clone, Debug)]
pub struct MerkleWitness<D> {
    /// Digests per level, leaves first.
    pub levels: Vec<Vec<D>>,
    /// Concatenated input vectors of the `K` instances (`K` = number of leaves).
    pub inputs: Vec<u64>,
    /// The batch witness.
    pub witness: BatchWitness,
}

impl<D: Copy> MerkleWitness<D> {
    /// The root digest.
    #[must_use]
    pub fn root(&self) -> D {
        self.levels[self.levels.len() - 1][0]
    }

    /// The leaves, left to right.
    #[must_use]
    pub fn leaves(&self) -> &[D] {
        &self.levels[0]
    }

    /// Instance index of node `j` of level `level ≥ 1` (its heap index `K/2^level + j`).
    ///
    /// # Panics
    /// If `level` is 0 or beyond the root, or `j` is beyond the level.
    #[must_use]
    pub fn instance(&self, level: usize, j: usize) -> usize {
        assert!(
            level >= 1 && level < self.levels.len() && j < self.levels[level].len(),
            "no instance at this level"
        );
        self.levels[level].len() + j
    }
}

/// Builds the witness of the Merkle tree over `leaves` in heap order (module docs).
///
/// # Panics
/// If the number of leaves is not a power of two at least 2.
#[must_use]
pub fn merkle_witness<G: MerkleNode>(
    gadget: &G,
    leaves: &[G::Digest],
    record_sides: bool,
) -> MerkleWitness<G::Digest> {
    assert!(
        leaves.len() >= 2 && leaves.len().is_power_of_two(),
        "a power-of-two number of leaves, at least 2"
    );
    let mut levels = vec![leaves.to_vec()];
    while levels[levels.len() - 1].len() > 1 {
        let below = &levels[levels.len() - 1];
        let level = below
            .chunks_exact(2)
            .map(|pair| gadget.node_digest(&pair[0], &pair[1]))
            .collect();
        levels.push(level);
    }
    // Heap order: the root level first, each level left to right, after the padding node.
    let padding = G::Digest::default();
    let mut inputs = gadget.node_input(&padding, &padding);
    for below in levels[..levels.len() - 1].iter().rev() {
        for pair in below.chunks_exact(2) {
            inputs.extend(gadget.node_input(&pair[0], &pair[1]));
        }
    }
    let witness = batch_witness(gadget, &inputs, record_sides);
    MerkleWitness {
        levels,
        inputs,
        witness,
    }
}

/// `left ‖ right` as 16 words.
pub(crate) fn concat8(left: &[u32; 8], right: &[u32; 8]) -> [u32; 16] {
    core::array::from_fn(|i| if i < 8 { left[i] } else { right[i - 8] })
}

impl ChainStep for Sha256Compress {
    type State = [u32; 8];
    type Data = [u8; 64];
    const STATE_IN: SlotId = Self::H_IN;
    const STATE_OUT: SlotId = Self::H_OUT;

    fn chain_input(&self, state: &[u32; 8], block: &[u8; 64]) -> Vec<u64> {
        Self::encode_input(state, block).to_vec()
    }

    fn state_words(&self, state: &[u32; 8]) -> Vec<u64> {
        join_u32::<4>(state).to_vec()
    }

    /// With the `sha2` crate's compression function (SHA-NI where the CPU has it): the
    /// serial part of a chain's witness.
    fn chain_next(&self, state: &[u32; 8], block: &[u8; 64]) -> [u32; 8] {
        let mut next = *state;
        sha2::block_api::compress256(&mut next, core::slice::from_ref(block));
        next
    }
}

/// SHA-256 Merkle nodes: `parent = compress(IV, left ‖ right)` on the digest words.
impl MerkleNode for Sha256Compress {
    type Digest = [u32; 8];
    const CHILDREN: SlotId = Self::MSG;
    const DIGEST: SlotId = Self::H_OUT;

    fn node_input(&self, left: &[u32; 8], right: &[u32; 8]) -> Vec<u64> {
        Self::encode_words(&SHA256_IV, &concat8(left, right)).to_vec()
    }

    fn node_digest(&self, left: &[u32; 8], right: &[u32; 8]) -> [u32; 8] {
        let mut state = SHA256_IV;
        let block = Self::words_block(&concat8(left, right));
        sha2::block_api::compress256(&mut state, core::slice::from_ref(&block));
        state
    }
}

/// Per-instance data of a BLAKE3 chain step besides the chaining value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blake3Block {
    /// Message words.
    pub words: [u32; 16],
    /// Block counter.
    pub counter: u64,
    /// Bytes in the block.
    pub block_len: u32,
    /// Domain flags.
    pub flags: u32,
}

flockwork_core::codec!(Blake3Block {
    words,
    counter,
    block_len,
    flags
});

impl ChainStep for Blake3Compress {
    type State = [u32; 8];
    type Data = Blake3Block;
    const STATE_IN: SlotId = Self::CV_IN;
    const STATE_OUT: SlotId = Self::CV_OUT;

    fn chain_input(&self, cv: &[u32; 8], d: &Blake3Block) -> Vec<u64> {
        Self::encode_input(cv, &d.words, d.counter, d.block_len, d.flags).to_vec()
    }

    fn state_words(&self, cv: &[u32; 8]) -> Vec<u64> {
        join_u32::<4>(cv).to_vec()
    }

    fn chain_next(&self, cv: &[u32; 8], d: &Blake3Block) -> [u32; 8] {
        let out = blake3_compress(cv, &d.words, d.counter, d.block_len, d.flags);
        core::array::from_fn(|i| out[i])
    }
}

/// BLAKE3 parent nodes (BLAKE3 spec §2.5): `compress(IV, left ‖ right, 0, 64, PARENT)[0..8]`.
impl MerkleNode for Blake3Compress {
    type Digest = [u32; 8];
    const CHILDREN: SlotId = Self::MSG;
    const DIGEST: SlotId = Self::CV_OUT;

    fn node_input(&self, left: &[u32; 8], right: &[u32; 8]) -> Vec<u64> {
        Self::encode_input(&BLAKE3_IV, &concat8(left, right), 0, 64, BLAKE3_PARENT).to_vec()
    }

    fn node_digest(&self, left: &[u32; 8], right: &[u32; 8]) -> [u32; 8] {
        let out = blake3_compress(&BLAKE3_IV, &concat8(left, right), 0, 64, BLAKE3_PARENT);
        core::array::from_fn(|i| out[i])
    }
}

/// Keccak chains iterate the permutation: `s_{i+1} = Keccak-p(s_i)`.
impl ChainStep for KeccakF1600 {
    type State = [u64; 25];
    type Data = ();
    const STATE_IN: SlotId = Self::S_IN;
    const STATE_OUT: SlotId = Self::S_OUT;

    fn chain_input(&self, state: &[u64; 25], (): &()) -> Vec<u64> {
        state.to_vec()
    }

    fn state_words(&self, state: &[u64; 25]) -> Vec<u64> {
        state.to_vec()
    }

    fn chain_next(&self, state: &[u64; 25], (): &()) -> [u64; 25] {
        let mut next = *state;
        keccak_p1600(&mut next, self.rounds());
        next
    }
}

/// Blocks of `n` chain steps ([`Wide::chained`] through the inner state regions): a chain of
/// `K` such blocks is a chain of `n·K` steps of the inner gadget, with the same statement
/// (start and end states), and only the first input state and the last output state of a
/// block are committed.
///
/// Build it with [`wide_chain`]; a [`Wide`] with other chained regions (or independent
/// copies) is not a chain step of this kind, and its `chain_input` panics.
impl<G: ChainStep> ChainStep for Wide<G> {
    type State = G::State;
    /// The data of the block's `n` steps, in order.
    type Data = Vec<G::Data>;
    const STATE_IN: SlotId = G::STATE_IN;
    const STATE_OUT: SlotId = G::STATE_OUT;

    /// # Panics
    /// If the block is not chained through the inner state regions or `data` does not hold
    /// one item per copy.
    fn chain_input(&self, state: &G::State, data: &Vec<G::Data>) -> Vec<u64> {
        let mut out = Vec::new();
        self.chain_step(state, data, &mut out);
        out
    }

    fn chain_next(&self, state: &G::State, data: &Vec<G::Data>) -> G::State {
        data.iter()
            .fold(*state, |s, d| self.inner().chain_next(&s, d))
    }

    fn state_words(&self, state: &G::State) -> Vec<u64> {
        self.inner().state_words(state)
    }

    /// The block's input vector and its last state in one pass over the inner steps.
    ///
    /// # Panics
    /// As [`ChainStep::chain_input`].
    fn chain_step(&self, state: &G::State, data: &Vec<G::Data>, out: &mut Vec<u64>) -> G::State {
        assert_eq!(
            self.chain(),
            Some((G::STATE_IN, G::STATE_OUT)),
            "a wide chain step is chained through the inner state regions (wide_chain)"
        );
        assert_eq!(data.len(), self.copies(), "one data item per copy");
        let inner = self.inner();
        let layout = inner.layout();
        let skip = layout.vector_offset(G::STATE_IN) / 64;
        let skip = skip..skip + layout.slot(G::STATE_IN).words();
        let mut state = *state;
        let mut input = Vec::new();
        for (c, d) in data.iter().enumerate() {
            input.clear();
            state = inner.chain_step(&state, d, &mut input);
            if c == 0 {
                out.extend_from_slice(&input);
            } else {
                out.extend_from_slice(&input[..skip.start]);
                out.extend_from_slice(&input[skip.end..]);
            }
        }
        state
    }
}

/// `copies` steps of `gadget` per block, chained inside the block (see the [`ChainStep`]
/// implementation of [`Wide`]).
///
/// # Panics
/// If `copies` is zero.
#[must_use]
pub fn wide_chain<G: ChainStep>(gadget: G, copies: usize) -> Wide<G> {
    Wide::chained(gadget, copies, G::STATE_IN, G::STATE_OUT)
}

/// The number of chain steps per block (at most `max_copies`) that commits the fewest
/// positions per step ([`Wide::best`]): 3 for Keccak-f (3 · 38,400 ANDs and two 2048-bit
/// state slots fill 2^17 to 91%, against 63% of 2^16 for one permutation), 1 for SHA-256 and
/// BLAKE3, whose single blocks are already 96% and 94% full.
#[must_use]
pub fn best_chain_width<G: ChainStep + Clone>(gadget: &G, max_copies: usize) -> usize {
    Wide::best(gadget, max_copies, Some((G::STATE_IN, G::STATE_OUT)))
}
