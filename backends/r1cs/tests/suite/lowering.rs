//! The R1CS lowering against the other interpreters: the statistics counter, and the batch
//! witnesses of the lane evaluator, which satisfy the block R1CS (and stop satisfying it when
//! a committed bit flips), with recorded sides equal to the forward walk's; on the three
//! hashes (with every adder) and on small gadgets of the builder's parts (modular additions,
//! a materialized word, `Wide` blocks).

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{BatchWitness, Gadget, SlotId, SlotKind, Wide, batch_witness, evaluate};
use flockwork_r1cs::R1csLowering;
use flockwork_testkit::circuit::{AddMaterialize, Adder, Step};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random input vectors for `k` instances.
fn random_inputs<G: Gadget>(gadget: &G, k: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..k * words).map(|_| rng.random()).collect()
}

#[test]
fn lowering_and_counter_agree() {
    assert_eq!(
        *R1csLowering::new(&Sha256Compress).stats(),
        Sha256Compress.stats()
    );
    assert_eq!(
        *R1csLowering::new(&Blake3Compress).stats(),
        Blake3Compress.stats()
    );
}

/// Honest witnesses satisfy the block R1CS; flipping one committed bit of one instance
/// breaks it (in that instance); the recorded sides equal the forward walk's.
fn check_satisfaction<G: Gadget>(gadget: &G, k: usize, seed: u64) {
    let lowering = R1csLowering::new(gadget);
    let inputs = random_inputs(gadget, k, seed);
    let witness = batch_witness(gadget, &inputs, true);
    assert_eq!(witness.instances, k);
    assert_eq!(witness.log_block, lowering.log_block());
    assert_eq!(lowering.first_violation(&witness.z, k), None);

    check_outputs(gadget, &inputs, &witness);
    check_sides(&lowering, &witness);

    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let positions = lowering.stats().positions;
    for _ in 0..3 {
        let instance = rng.random_range(0..k);
        let position = loop {
            let p = rng.random_range(0..positions);
            if lowering.row(p) != [flockwork_r1cs::NodeId::ZERO; 2] {
                break p; // a committed position
            }
        };
        let mut z = witness.z.clone();
        let bit = (instance << witness.log_block) + position;
        z[bit / 64] ^= 1 << (bit % 64);
        let violation = lowering.first_violation(&z, k);
        assert_eq!(violation.map(|v| v.0), Some(instance), "flipped {position}");
    }
}

/// The output regions of every instance's block hold the gadget's outputs.
fn check_outputs<G: Gadget>(gadget: &G, inputs: &[u64], witness: &BatchWitness) {
    let layout = gadget.layout();
    let in_words = inputs.len() / witness.instances;
    for k in [0, witness.instances - 1] {
        let out = evaluate(gadget, &inputs[k * in_words..(k + 1) * in_words]);
        let mut bit = 0;
        for (i, slot) in layout.slots().iter().enumerate() {
            if slot.kind != SlotKind::Output {
                continue;
            }
            for p in layout.positions(flockwork_circuit::SlotId(i)) {
                assert_eq!(witness.bit(k, p), (out[bit / 64] >> (bit % 64)) & 1 == 1);
                bit += 1;
            }
        }
    }
}

/// `a ∧ b = z` word by word, and the sides of the first 64 instances equal the forward walk.
fn check_sides(lowering: &R1csLowering, witness: &BatchWitness) {
    let (a, b) = witness.sides.as_ref().expect("sides recorded");
    for ((&zw, &aw), &bw) in witness.z.iter().zip(a).zip(b) {
        assert_eq!(aw & bw, zw);
    }
    let live = witness.instances.min(64);
    let (wa, wb) = lowering.sides_lanes(&lanes_of(witness, &witness.z, 0, live));
    assert_eq!(wa, lanes_of(witness, a, 0, live));
    assert_eq!(wb, lanes_of(witness, b, 0, live));
}

/// Blocks `first..first + count` (at most 64) of a vector laid out as `witness.z`, bit-sliced
/// bit by bit: bit `i` of word `p` is bit `p` of block `first + i`.
fn lanes_of(witness: &BatchWitness, v: &[u64], first: usize, count: usize) -> Vec<u64> {
    let words = witness.block_words();
    (0..words * 64)
        .map(|p| {
            (0..count).fold(0u64, |acc, i| {
                acc | (((v[(first + i) * words + p / 64] >> (p % 64)) & 1) << i)
            })
        })
        .collect()
}

#[test]
fn sha256_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&Sha256Compress, 70, 1);
}

#[test]
fn blake3_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&Blake3Compress, 70, 2);
}

/// The prefix adders (and the carry-save sums) go through `and` and `xor` only, so the
/// lowering, the counter and the lane evaluator agree on them as on ripple additions.
#[test]
fn prefix_adder_hashes_r1cs_is_satisfied_and_sound() {
    use flockwork_circuit::Adder as WordAdder;
    for (seed, adder) in [(4, WordAdder::KoggeStone), (5, WordAdder::BrentKung)] {
        check_satisfaction(&Sha256Compress::with_adder(adder), 3, seed);
        check_satisfaction(&Blake3Compress::with_adder(adder), 3, seed);
    }
}

#[test]
fn keccak_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&KeccakF1600::new(), 9, 3);
}

#[test]
fn batch_of_adders_satisfies_the_r1cs() {
    let inputs: Vec<u64> = (0..130u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let w = batch_witness(&Adder::<32>, &inputs, false);
    let lowering = R1csLowering::new(&Adder::<32>);
    assert_eq!(lowering.first_violation(&w.z, 130), None);
    let mut z = w.z.clone();
    let bit = (129 << w.log_block) + 130; // an internal bit of the last instance
    z[bit / 64] ^= 1 << (bit % 64);
    assert_eq!(lowering.first_violation(&z, 130).map(|v| v.0), Some(129));
}

/// The sides the evaluator records in bulk (additions, materialized words) are the forward
/// walk's `A z`, `B z`, for a full group of 64 instances and for the last 8.
#[test]
fn recorded_sides_of_added_and_materialized_words_are_the_forward_walk() {
    let inputs: Vec<u64> = (0..200u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let witness = batch_witness(&AddMaterialize, &inputs, true);
    let lowering = R1csLowering::new(&AddMaterialize);
    assert_eq!(lowering.first_violation(&witness.z, 200), None);
    let (a, b) = witness.sides.as_ref().expect("sides recorded");
    for (first, count) in [(0, 64), (192, 8)] {
        let (wa, wb) = lowering.sides_lanes(&lanes_of(&witness, &witness.z, first, count));
        assert_eq!(wa, lanes_of(&witness, a, first, count));
        assert_eq!(wb, lanes_of(&witness, b, first, count));
    }
}

#[test]
fn wide_blocks_satisfy_the_r1cs() {
    let independent = Wide::independent(Step, 3);
    let inputs: Vec<u64> = (0..6u64 * 70)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let witness = batch_witness(&independent, &inputs, true);
    let lowering = R1csLowering::new(&independent);
    assert_eq!(lowering.first_violation(&witness.z, 70), None);
    // One flipped committed bit in the last copy of one block breaks its row.
    let mut z = witness.z.clone();
    let position = independent.layout().positions(SlotId(7)).start + 5;
    let at = 33 * lowering.stats().block_bits() + position;
    z[at / 64] ^= 1 << (at % 64);
    assert!(lowering.first_violation(&z, 70).is_some());

    let chained = Wide::chained(Step, 4, SlotId(0), SlotId(1));
    let inputs: Vec<u64> = (0..5u64 * 20)
        .map(|i| i.wrapping_mul(0xd134_2543_de82_ef95))
        .collect();
    let lowering = R1csLowering::new(&chained);
    let witness = batch_witness(&chained, &inputs, true);
    assert_eq!(lowering.first_violation(&witness.z, 20), None);
}
