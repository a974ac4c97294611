//! The witnesses and statements a batch run proves, built from seeded data: a chain, a
//! Merkle tree ([`merkle_tree`]) or independent instances with public IO.

use flockwork_boolean::io::{ChainStep, MerkleNode, chain_witness};
use flockwork_boolean::words::join_u32;
use flockwork_circuit::{BatchWitness, Gadget, SlotKind, Wide, batch_witness};
use flockwork_r1cs::{PublicLayout, Statement};
use rand::RngCore;
use rand_chacha::ChaCha20Rng;

/// A witness, the statement the setup proves and the exact statement.
pub(super) type Job = (BatchWitness, Statement, Statement);
/// Builds a [`Job`] from the same data every time it is called, once the setup has passed
/// its memory check.
pub(super) type LazyJob = Box<dyn Fn() -> Job>;

/// The chain from `init` through `data` (whole blocks of `gadget`), the steps grouped into
/// its blocks; the exact statement ends after the first `count` steps.
pub(super) fn chain_job<G: ChainStep + 'static>(
    gadget: Wide<G>,
    init: G::State,
    data: Vec<G::Data>,
    count: usize,
) -> LazyJob
where
    G::Data: Clone,
{
    let blocks: Vec<Vec<G::Data>> = data
        .chunks(gadget.copies())
        .map(<[G::Data]>::to_vec)
        .collect();
    Box::new(move || {
        let chain = chain_witness(&gadget, init, &blocks, true);
        let start = gadget.state_words(&init);
        let statement = Statement::Chain {
            start: start.clone(),
            end: gadget.state_words(chain.states.last().expect("K + 1 states")),
        };
        // The state after `count` steps: the last block's first steps from its input state.
        let last = blocks.len() - 1;
        let end = blocks[last][..count - last * gadget.copies()]
            .iter()
            .fold(chain.states[last], |s, d| gadget.inner().chain_next(&s, d));
        let exact = Statement::Chain {
            start,
            end: gadget.state_words(&end),
        };
        (chain.witness, statement, exact)
    })
}

/// `n` instances of `gadget` with random input vectors from `rng`, their inputs and
/// outputs public ([`Statement::Public`], read from the witness).
pub(super) fn public_job<G: Gadget + 'static>(
    gadget: G,
    n: usize,
    rng: &mut ChaCha20Rng,
) -> LazyJob {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..n * words).map(|_| rng.next_u64()).collect();
    let layout = PublicLayout::new(&gadget.layout());
    Box::new(move || {
        let witness = batch_witness(&gadget, &inputs, true);
        let (inputs, outputs) = layout
            .as_ref()
            .ok()
            .and_then(|l| l.read(&witness, witness.log_block, witness.instances))
            .expect("the shipped hashes' IO regions are public-IO layouts");
        let statement = Statement::Public { inputs, outputs };
        (witness, statement.clone(), statement)
    })
}

/// The left-complete tree over `leaves` (heap order, one instance per leaf,
/// [`flockwork_r1cs::merkle`]).
pub(super) fn merkle_job<G: MerkleNode<Digest = [u32; 8]> + 'static>(
    gadget: G,
    leaves: Vec<[u32; 8]>,
) -> LazyJob {
    Box::new(move || {
        let (witness, statement) = merkle_tree(&gadget, &leaves);
        (witness, statement.clone(), statement)
    })
}

/// The batch witness (sides recorded) and the statement of the left-complete Merkle tree
/// over `leaves` (at least 2, left to right; [`flockwork_r1cs::merkle::heap_tree`]): one
/// instance per leaf, instance `p ≥ 1` heap node `p`, instance 0 hashing two zero digests.
///
/// # Panics
/// If there are fewer than 2 leaves.
#[must_use]
pub fn merkle_tree<G: MerkleNode<Digest = [u32; 8]>>(
    gadget: &G,
    leaves: &[[u32; 8]],
) -> (BatchWitness, Statement) {
    let (children, root) =
        flockwork_r1cs::merkle::heap_tree(leaves, |l, r| gadget.node_digest(l, r));
    let inputs: Vec<u64> = children
        .iter()
        .flat_map(|(l, r)| gadget.node_input(l, r))
        .collect();
    let statement = Statement::Merkle {
        root: join_u32::<4>(&root).to_vec(),
        leaves: leaves.iter().map(|l| join_u32::<4>(l).to_vec()).collect(),
    };
    (batch_witness(gadget, &inputs, true), statement)
}

pub(super) fn random_leaves(rng: &mut ChaCha20Rng, n: usize) -> Vec<[u32; 8]> {
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.next_u32()))
        .collect()
}
