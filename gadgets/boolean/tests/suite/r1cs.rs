//! Statistics, batch witnesses and R1CS satisfaction of the three hashes.

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{
    BatchWitness, CircuitStats, Gadget, R1csLowering, SlotKind, batch_witness, evaluate,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random input vectors for `k` instances.
fn random_inputs<G: Gadget>(gadget: &G, k: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..k * words).map(|_| rng.random()).collect()
}

fn pinned(stats: &CircuitStats) -> (usize, usize, usize, usize) {
    (
        stats.and_gates,
        stats.committed_bits,
        stats.materialized_bits,
        stats.log_block,
    )
}

#[test]
fn statistics_are_pinned() {
    // (AND gates, committed bits, materialized non-output bits, m0)
    assert_eq!(pinned(&KeccakF1600::new().stats()), (38_400, 41_601, 0, 16));
    assert_eq!(pinned(&Sha256Compress.stats()), (22_696, 31_401, 7_680, 15));
    assert_eq!(pinned(&Blake3Compress.stats()), (10_416, 15_409, 3_584, 14));
    assert_eq!(KeccakF1600::new().stats().positions, 2 * 2048 + 1 + 38_400);
    let sha = Sha256Compress.stats();
    assert_eq!((sha.input_bits, sha.output_bits), (768, 256));
    let blake = Blake3Compress.stats();
    assert_eq!((blake.input_bits, blake.output_bits), (896, 512));
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
            if lowering.row(p) != [flockwork_circuit::NodeId::ZERO; 2] {
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
    let words = witness.block_words();
    let live = witness.instances.min(64);
    let lanes = |v: &[u64]| -> Vec<u64> {
        (0..words * 64)
            .map(|p| {
                (0..live).fold(0u64, |acc, i| {
                    acc | (((v[i * words + p / 64] >> (p % 64)) & 1) << i)
                })
            })
            .collect()
    };
    let (wa, wb) = lowering.sides_lanes(&lanes(&witness.z));
    assert_eq!(wa, lanes(a));
    assert_eq!(wb, lanes(b));
}

#[test]
fn sha256_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&Sha256Compress, 70, 1);
}

#[test]
fn blake3_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&Blake3Compress, 70, 2);
}

#[test]
fn keccak_r1cs_is_satisfied_and_sound() {
    check_satisfaction(&KeccakF1600::new(), 9, 3);
}
