//! `flockwork-boolean`'s hash-chain and Merkle witness builders: the IO regions line up as the
//! arguments expect, and the block R1CS holds.

use flockwork_boolean::constants::BLAKE3_CHUNK_START;
use flockwork_boolean::native::{keccak_f1600, sha256_compress};
use flockwork_boolean::{
    Blake3Block, Blake3Compress, ChainStep, KeccakF1600, MerkleNode, Sha256Compress, chain_witness,
    merkle_witness,
};
use flockwork_circuit::{BatchWitness, Gadget, SlotId};
use flockwork_r1cs::R1csLowering;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The bits of region `slot` in instance `k`.
fn region<G: Gadget>(gadget: &G, w: &BatchWitness, k: usize, slot: SlotId) -> Vec<bool> {
    gadget
        .layout()
        .positions(slot)
        .map(|p| w.bit(k, p))
        .collect()
}

/// `state_out(i) = state_in(i + 1)` for every link, and the R1CS holds.
fn check_chain<G: ChainStep>(gadget: &G, w: &BatchWitness) {
    for i in 0..w.instances - 1 {
        assert_eq!(
            region(gadget, w, i, G::STATE_OUT),
            region(gadget, w, i + 1, G::STATE_IN)
        );
    }
    let lowering = R1csLowering::new(gadget);
    assert_eq!(lowering.first_violation(&w.z, w.instances), None);
}

/// Each node's child halves equal its children's digest regions (heap order: node `p`'s
/// children are nodes `2p` and `2p + 1`), and the R1CS holds.
fn check_merkle<G: MerkleNode>(gadget: &G, m: &flockwork_boolean::MerkleWitness<G::Digest>) {
    let w = &m.witness;
    assert_eq!(w.instances, m.leaves().len());
    for level in 1..m.levels.len() {
        for j in 0..m.levels[level].len() {
            let p = m.instance(level, j);
            if level >= 2 {
                assert_eq!(m.instance(level - 1, 2 * j), 2 * p);
                assert_eq!(m.instance(level - 1, 2 * j + 1), 2 * p + 1);
            }
        }
    }
    assert_eq!(
        m.instance(m.levels.len() - 1, 0),
        1,
        "the root is instance 1"
    );
    for level in 2..m.levels.len() {
        for j in 0..m.levels[level].len() {
            let children = region(gadget, w, m.instance(level, j), G::CHILDREN);
            let (left, right) = children.split_at(children.len() / 2);
            let digest = |c| region(gadget, w, m.instance(level - 1, c), G::DIGEST);
            assert_eq!(left, &digest(2 * j)[..]);
            assert_eq!(right, &digest(2 * j + 1)[..]);
        }
    }
    let lowering = R1csLowering::new(gadget);
    assert_eq!(lowering.first_violation(&w.z, w.instances), None);
}

#[test]
fn sha256_chain_and_merkle() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let blocks: Vec<[u8; 64]> = (0..9).map(|_| rng.random()).collect();
    let init: [u32; 8] = rng.random();
    let chain = chain_witness(&Sha256Compress, init, &blocks, false);
    let mut state = init;
    for b in &blocks {
        sha256_compress(&mut state, b);
    }
    assert_eq!(chain.states[9], state);
    check_chain(&Sha256Compress, &chain.witness);

    let leaves: Vec<[u32; 8]> = (0..8).map(|_| rng.random()).collect();
    let tree = merkle_witness(&Sha256Compress, &leaves, false);
    assert_eq!(tree.witness.instances, 8);
    let parent = |l: &[u32; 8], r: &[u32; 8]| Sha256Compress.node_digest(l, r);
    let level1: Vec<[u32; 8]> = leaves.chunks(2).map(|p| parent(&p[0], &p[1])).collect();
    let level2: Vec<[u32; 8]> = level1.chunks(2).map(|p| parent(&p[0], &p[1])).collect();
    assert_eq!(tree.root(), parent(&level2[0], &level2[1]));
    check_merkle(&Sha256Compress, &tree);
}

#[test]
fn blake3_chain_and_merkle() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let blocks: Vec<Blake3Block> = (0..5)
        .map(|i| Blake3Block {
            words: rng.random(),
            counter: 0,
            block_len: 64,
            flags: if i == 0 { BLAKE3_CHUNK_START } else { 0 },
        })
        .collect();
    let chain = chain_witness(&Blake3Compress, rng.random(), &blocks, false);
    check_chain(&Blake3Compress, &chain.witness);

    // A 2-chunk BLAKE3 hash: the root is the parent of the two chunk chaining values, here
    // with the ROOT flag added on top of PARENT, pinned to `blake3::hash`.
    let input: Vec<u8> = (0..2048).map(|_| rng.random()).collect();
    let leaves: Vec<[u32; 8]> = input
        .chunks(1024)
        .enumerate()
        .map(|(i, c)| chunk_cv(c, i as u64))
        .collect();
    let tree = merkle_witness(&Blake3Compress, &leaves, false);
    check_merkle(&Blake3Compress, &tree);
    let words: [u32; 16] = core::array::from_fn(|i| {
        if i < 8 {
            leaves[0][i]
        } else {
            leaves[1][i - 8]
        }
    });
    let flags =
        flockwork_boolean::constants::BLAKE3_PARENT | flockwork_boolean::constants::BLAKE3_ROOT;
    let root = flockwork_boolean::native::blake3_compress(
        &flockwork_boolean::constants::BLAKE3_IV,
        &words,
        0,
        64,
        flags,
    );
    let bytes: Vec<u8> = root[..8].iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(bytes, blake3::hash(&input).as_bytes().to_vec());
    // The tree's (non-root) parent differs from the root only by the ROOT flag.
    assert_eq!(
        tree.root(),
        Blake3Compress.node_digest(&leaves[0], &leaves[1])
    );
}

/// The chaining value of a full 1024-byte chunk (16 blocks) with chunk counter `counter`.
fn chunk_cv(chunk: &[u8], counter: u64) -> [u32; 8] {
    use flockwork_boolean::constants::{BLAKE3_CHUNK_END, BLAKE3_IV};
    let mut cv = BLAKE3_IV;
    for (i, block) in chunk.chunks(64).enumerate() {
        let mut flags = 0;
        if i == 0 {
            flags |= BLAKE3_CHUNK_START;
        }
        if i == 15 {
            flags |= BLAKE3_CHUNK_END;
        }
        let words = Blake3Compress::block_words(block.try_into().expect("64 bytes"));
        let out = flockwork_boolean::native::blake3_compress(&cv, &words, counter, 64, flags);
        cv = core::array::from_fn(|j| out[j]);
    }
    cv
}

#[test]
fn keccak_chain() {
    let init: [u64; 25] = ChaCha8Rng::seed_from_u64(23).random();
    let chain = chain_witness(&KeccakF1600::new(), init, &[(), (), ()], false);
    let mut state = init;
    for _ in 0..3 {
        keccak_f1600(&mut state);
    }
    assert_eq!(chain.states[3], state);
    check_chain(&KeccakF1600::new(), &chain.witness);
}

/// A chain of `blocks · n` steps of `gadget` in wide blocks of `n`: the end state is the
/// narrow chain's, the block regions link, the R1CS holds, and one flipped committed bit in
/// any copy of any block breaks a row.
fn check_wide_chain<G: ChainStep + Clone>(gadget: &G, n: usize, init: G::State, data: Vec<G::Data>)
where
    G::State: PartialEq + core::fmt::Debug,
    G::Data: Clone,
{
    let narrow = chain_witness(gadget, init, &data, false);
    let wide = flockwork_boolean::wide_chain(gadget.clone(), n);
    let blocks: Vec<Vec<G::Data>> = data.chunks(n).map(<[G::Data]>::to_vec).collect();
    let chain = chain_witness(&wide, init, &blocks, true);
    assert_eq!(chain.states.last(), narrow.states.last());
    check_chain(&wide, &chain.witness);
    let lowering = R1csLowering::new(&wide);
    let w = &chain.witness;
    let stats = wide.stats();
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    for _ in 0..8 {
        // A committed position: an IO bit, the constant or an internal bit of any copy.
        let position = loop {
            let p = rng.random_range(0..stats.positions);
            let in_io = wide
                .layout()
                .slots()
                .iter()
                .enumerate()
                .any(|(s, _)| wide.layout().positions(SlotId(s)).contains(&p));
            if in_io || p >= wide.layout().const_position() {
                break p;
            }
        };
        let block = rng.random_range(0..w.instances);
        let mut z = w.z.clone();
        let at = block * stats.block_bits() + position;
        z[at / 64] ^= 1 << (at % 64);
        assert!(
            lowering.first_violation(&z, w.instances).is_some(),
            "flipping bit {position} of block {block} went unnoticed"
        );
    }
}

#[test]
fn wide_chains_of_every_hash() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let blocks: Vec<[u8; 64]> = (0..12).map(|_| rng.random()).collect();
    check_wide_chain(&Sha256Compress, 3, rng.random(), blocks);
    let blocks: Vec<Blake3Block> = (0..8)
        .map(|i| Blake3Block {
            words: rng.random(),
            counter: i,
            block_len: 64,
            flags: 0,
        })
        .collect();
    check_wide_chain(&Blake3Compress, 2, rng.random(), blocks);
    check_wide_chain(&KeccakF1600::new(), 3, rng.random(), vec![(); 6]);
    check_wide_chain(&KeccakF1600::reduced(2), 4, rng.random(), vec![(); 8]);
}

#[test]
fn keccak_is_proved_three_per_block() {
    use flockwork_boolean::best_chain_width;
    assert_eq!(best_chain_width(&KeccakF1600::new(), 8), 3);
    assert_eq!(best_chain_width(&Sha256Compress, 8), 1);
    assert_eq!(best_chain_width(&Blake3Compress, 8), 1);
    let stats = flockwork_boolean::wide_chain(KeccakF1600::new(), 3).stats();
    // Two 2048-bit state slots, the constant, 3 · 38,400 χ products.
    assert_eq!(stats.positions, 2 * 2048 + 1 + 3 * 38_400);
    assert_eq!(stats.log_block, 17);
}
