//! Exact instance counts ([`Flock::for_count`]): `N` real instances in `2^k` blocks, the rest
//! zero. BLAKE3 chains over Ligerito at N = 1, 2, 3, 1000, 1025 and 2^12 − 1; the boundary
//! counts N = 1 and 3 for SHA-256 and Keccak-f chains, public IO, and FRI-Binius and Blaze.
//! Honest proofs verify; a wrong end, a bad bit in the first or the last real instance, a raised
//! constant wire in a padding block and a witness that runs one step past `N` are rejected; a
//! proof for `N` is refused by the setups for `N ± 1`. A builder gadget of the shapes a zero
//! block must survive (NOT of the constant, constant outputs, a 28-layer AND chain) pads at
//! every count.

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{BatchWitness, Gadget, SlotKind, batch_witness};
use flockwork_pcs::PcsKind;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, SetupError, Statement};
use flockwork_testkit::circuit::{PaddingShapes, padding_shapes};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn config(scheme: PcsKind) -> FlockConfig {
    FlockConfig {
        scheme,
        ..FlockConfig::default()
    }
}

/// The chain setup for exactly `n` steps.
fn chain_setup<G: ChainStep>(gadget: G, n: usize, scheme: PcsKind) -> Flock<G> {
    Flock::for_count(gadget, n, config(scheme))
        .unwrap()
        .chained(G::STATE_IN, G::STATE_OUT)
        .unwrap()
}

fn expect_rejected(result: Result<(), FlockError>, what: &str) {
    let err = result.expect_err(what);
    assert!(
        matches!(
            err,
            FlockError::Zerocheck(_) | FlockError::Lincheck(_) | FlockError::Opening(_)
        ),
        "{what}: {err}"
    );
}

/// `w` with bit `position` of instance `instance` flipped and the lane copy dropped.
fn flipped(w: &BatchWitness, instance: usize, position: usize) -> BatchWitness {
    let mut w = w.clone();
    let words = w.block_words();
    w.z[instance * words + position / 64] ^= 1 << (position % 64);
    w.lanes = None;
    w
}

/// Proves and verifies the chain through the first `n` of `data`, then plays the cheats of the
/// module docs against it.
fn chain_at<G: ChainStep + Clone>(
    gadget: G,
    init: G::State,
    data: &[G::Data],
    n: usize,
    scheme: PcsKind,
) {
    let flock = chain_setup(gadget.clone(), n, scheme);
    assert_eq!(flock.instances(), n);
    assert_eq!(1 << flock.log_instances(), n.next_power_of_two());
    let chain = chain_witness(&gadget, init, &data[..n], true);
    let statement = flock.chain_statement(&chain.witness).unwrap();
    assert_eq!(
        statement,
        Statement::Chain {
            start: gadget.state_words(&init),
            end: gadget.state_words(chain.states.last().unwrap()),
        }
    );
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();

    // A wrong end point.
    let Statement::Chain { start, mut end } = statement.clone() else {
        unreachable!()
    };
    end[0] ^= 1 << 9;
    expect_rejected(
        flock.verify(&Statement::Chain { start, end }, proof.as_bytes()),
        "a wrong end",
    );

    // A bad bit inside the first and the last real instance.
    let middle = (1 << flock.lowering().log_block()) / 2 + 3;
    for instance in [0, n - 1] {
        let (bad, _) = flock
            .prove_witness(&flipped(&chain.witness, instance, middle), &statement)
            .unwrap();
        expect_rejected(
            flock.verify(&statement, bad.as_bytes()),
            &format!("a bad bit in instance {instance} of {n}"),
        );
    }

    // The setups for N ± 1 refuse the proof.
    for other in [n - 1, n + 1] {
        if other == 0 {
            continue;
        }
        let neighbour = chain_setup(gadget.clone(), other, scheme);
        assert_eq!(
            neighbour.verify(&statement, proof.as_bytes()),
            Err(FlockError::Setup),
            "the proof for {n} checked as one for {other}"
        );
    }

    let blocks = 1usize << flock.log_instances();
    if n < blocks {
        // A padding block that raises its constant wire (and the sides that go with it).
        let mut padded = padded_to(&chain.witness, blocks);
        let words = padded.block_words();
        let c = flock.lowering().layout().const_position();
        let (a, b) = padded.sides.as_mut().unwrap();
        for side in [&mut padded.z, a, b] {
            side[n * words + c / 64] |= 1 << (c % 64);
        }
        let (bad, _) = flock.prove_witness(&padded, &statement).unwrap();
        expect_rejected(
            flock.verify(&statement, bad.as_bytes()),
            "a padding block with its constant wire raised",
        );

        // One more step than the statement says, ending where the statement says the chain
        // ends only after that step: the block past N is not padding.
        let longer = chain_witness(&gadget, init, &data[..=n], true);
        let longer_statement = Statement::Chain {
            start: gadget.state_words(&init),
            end: gadget.state_words(longer.states.last().unwrap()),
        };
        let (bad, _) = flock
            .prove_witness(&padded_to(&longer.witness, blocks), &longer_statement)
            .unwrap();
        expect_rejected(
            flock.verify(&longer_statement, bad.as_bytes()),
            "a chain one step past N",
        );
    }
}

/// `w` extended with zero blocks to `blocks` blocks (sides too; the lane copy dropped).
fn padded_to(w: &BatchWitness, blocks: usize) -> BatchWitness {
    let mut w = w.clone();
    let len = blocks * w.block_words();
    w.z.resize(len, 0);
    if let Some((a, b)) = w.sides.as_mut() {
        a.resize(len, 0);
        b.resize(len, 0);
    }
    w.lanes = None;
    w.instances = blocks;
    w
}

fn blake3_blocks(n: usize) -> Vec<Blake3Block> {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    (0..n)
        .map(|i| Blake3Block {
            words: core::array::from_fn(|_| rng.random()),
            counter: i as u64,
            block_len: 64,
            flags: 0,
        })
        .collect()
}

#[test]
fn blake3_chains_at_every_count() {
    let data = blake3_blocks(4096);
    for n in [1, 2, 3, 1000, 1025, (1 << 12) - 1] {
        chain_at(
            Blake3Compress,
            [0x6b08_e647; 8],
            &data,
            n,
            PcsKind::Ligerito,
        );
    }
}

#[test]
fn sha256_and_keccak_chains_at_the_boundary_counts() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let blocks: Vec<[u8; 64]> = (0..4)
        .map(|_| core::array::from_fn(|_| rng.random()))
        .collect();
    let init: [u64; 25] = core::array::from_fn(|_| rng.random());
    for n in [1, 3] {
        chain_at(
            Sha256Compress,
            [0x6a09_e667; 8],
            &blocks,
            n,
            PcsKind::Ligerito,
        );
        chain_at(KeccakF1600::new(), init, &[(); 4], n, PcsKind::Ligerito);
    }
}

#[test]
fn chains_at_three_over_every_commitment() {
    let data = blake3_blocks(4);
    for scheme in [PcsKind::Fri, PcsKind::Blaze] {
        chain_at(Blake3Compress, [0x6b08_e647; 8], &data, 3, scheme);
    }
}

#[test]
fn public_io_at_the_boundary_counts() {
    for n in [1, 3] {
        let flock = Flock::for_count(Sha256Compress, n, FlockConfig::default())
            .unwrap()
            .public_io()
            .unwrap();
        let words = Sha256Compress.layout().vector_bits(SlotKind::Input) / 64;
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let inputs: Vec<u64> = (0..n * words).map(|_| rng.random()).collect();
        let witness = batch_witness(&Sha256Compress, &inputs, true);
        let statement = flock.public_statement(&witness).unwrap();
        let (proof, _) = flock.prove(&inputs, &statement).unwrap();
        flock.verify(&statement, proof.as_bytes()).unwrap();
        // A wrong output word of the last real instance.
        let Statement::Public {
            inputs: i,
            mut outputs,
        } = statement.clone()
        else {
            unreachable!()
        };
        let last = outputs.len() - 1;
        outputs[last] ^= 1;
        expect_rejected(
            flock.verify(&Statement::Public { inputs: i, outputs }, proof.as_bytes()),
            "a wrong output of the last instance",
        );
    }
}

#[test]
fn counts_outside_the_blocks_are_refused() {
    let setup = |k| Flock::new(Blake3Compress, k, FlockConfig::default()).unwrap();
    assert!(matches!(
        setup(2).with_instances(5),
        Err(SetupError::InstanceCount {
            instances: 5,
            log_instances: 2
        })
    ));
    assert!(matches!(
        setup(2).with_instances(0),
        Err(SetupError::InstanceCount { instances: 0, .. })
    ));
    assert!(Flock::for_count(Blake3Compress, 0, FlockConfig::default()).is_err());
}

/// NOT of the constant wire, of zero and of an input bit, constant outputs and a chain of AND
/// layers ([`PaddingShapes`]): a padding block holds the constant column at 0, where
/// `¬0 = 0 ⊕ 0`, so the zero block satisfies every row and the setup accepts every count below
/// the 8 blocks (the refusal of a gadget that leaves a bit free is tested on edited lowerings,
/// which no builder makes: `flockwork_r1cs`'s unit tests). Public-IO proofs at 1, 5, 7 and 8
/// instances verify, with the outputs computed natively; a wrong constant output of the last
/// instance is rejected.
#[test]
fn builder_shapes_pad_at_every_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let inputs: Vec<u64> = (0..8 * 4).map(|_| rng.random()).collect();
    for n in [1, 5, 7, 8] {
        let flock = Flock::new(PaddingShapes, 3, FlockConfig::default())
            .unwrap()
            .with_instances(n)
            .unwrap()
            .public_io()
            .unwrap();
        let witness = batch_witness(&PaddingShapes, &inputs[..4 * n], true);
        let statement = flock.public_statement(&witness).unwrap();
        let Statement::Public { outputs, .. } = &statement else {
            unreachable!()
        };
        for (i, out) in outputs.chunks(4).enumerate() {
            let x: [u64; 4] = inputs[4 * i..4 * i + 4].try_into().unwrap();
            assert_eq!(out, padding_shapes(&x), "instance {i} of {n}");
            // ¬1 = 0, ¬0 = 1, ¬x0, the materialized ¬1, 1, 0, then the byte 0xa5.
            assert_eq!(out[0] & 0x3f, 0b01_0010 | u64::from(x[0] & 1 == 0) << 2);
            assert_eq!((out[0] >> 6) & 0xff, 0xa5);
        }
        let (proof, _) = flock.prove(&inputs[..4 * n], &statement).unwrap();
        flock.verify(&statement, proof.as_bytes()).unwrap();

        let Statement::Public {
            inputs: i,
            mut outputs,
        } = statement
        else {
            unreachable!()
        };
        outputs[4 * (n - 1)] ^= 1; // the last instance's ¬1 claimed to be 1
        expect_rejected(
            flock.verify(&Statement::Public { inputs: i, outputs }, proof.as_bytes()),
            "a wrong constant output",
        );
    }
}
