//! Keccak-f\[1600\] as Boolean layers: the packed and reference evaluations against the
//! `keccak` crate on random states, the zero-state known answer, reduced rounds, every
//! layer against the native round, the description's shape, and a malformed description
//! refused.

use flockwork_boolean::KeccakF1600;
use flockwork_circuit::Gadget;
use flockwork_core::boolean_layered::{
    BooleanLayer, BooleanLayered, BooleanLayeredError, BooleanLayeredRelation, bits_of_words,
    pack_instances, unpack_instances, words_of_bits,
};
use flockwork_core::relation::{BooleanLayeredEncoding, Relation, check_boolean_layered_encoding};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_states(n: usize, seed: u64) -> Vec<[u64; 25]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| rng.random()).collect()
}

fn keccak_crate<const ROUNDS: usize>(state: &[u64; 25]) -> [u64; 25] {
    let mut out = *state;
    keccak::Keccak::new().with_p1600::<ROUNDS>(|f| f(&mut out));
    out
}

/// `n` states through the packed evaluation with `T` words, against the `keccak` crate.
fn packed_agrees<T: flockwork_core::boolean_layered::PackedBits>(states: &[[u64; 25]]) {
    let layers = KeccakF1600::new().boolean_layers();
    let words: Vec<u64> = states.concat();
    let packed = pack_instances::<T>(1600, &words, states.len());
    let out = unpack_instances(1600, &layers.evaluate_packed(&packed), states.len());
    for (k, (state, got)) in states.iter().zip(out.chunks_exact(25)).enumerate() {
        assert_eq!(
            got,
            keccak_crate::<24>(state),
            "instance {k} ({} a word)",
            T::INSTANCES
        );
    }
}

#[test]
fn packed_keccak_layers_agree_with_the_keccak_crate() {
    // 1000 states: 16 words of 64 and 8 of 128 instances, the last ones partly filled.
    let states = random_states(1000, 0x6b65);
    packed_agrees::<u64>(&states);
    packed_agrees::<u128>(&states);
}

#[test]
fn reference_keccak_layers_agree_with_the_keccak_crate() {
    let layers = KeccakF1600::new().boolean_layers();
    for state in random_states(24, 0x7265) {
        let out = layers.evaluate_reference(&bits_of_words(1600, &state));
        assert_eq!(words_of_bits(&out), keccak_crate::<24>(&state));
    }
}

#[test]
fn the_zero_state_gives_the_known_answer() {
    let keccak = KeccakF1600::new();
    let [(zero, expected)] = keccak.known_answers().try_into().unwrap();
    assert_eq!(expected, keccak_crate::<24>(&zero));
    let layers = keccak.boolean_layers();
    let packed = pack_instances::<u128>(1600, &zero, 1);
    assert_eq!(
        unpack_instances(1600, &layers.evaluate_packed(&packed), 1),
        expected
    );
    assert_eq!(
        words_of_bits(&layers.evaluate_reference(&[false; 1600])),
        expected
    );
}

#[test]
fn keccak_boolean_encoding_agrees_with_the_relation() {
    // Known answer and random states: packed output, decoding, and every layer of the
    // reference and packed traces against the native round.
    check_boolean_layered_encoding(&KeccakF1600::new(), &random_states(20, 0x656e));
}

#[test]
fn reduced_rounds_are_the_last_rounds() {
    let states = random_states(130, 0x7264);
    for relation in [
        KeccakF1600::reduced(1),
        KeccakF1600::reduced(2),
        KeccakF1600::reduced(5),
    ] {
        check_boolean_layered_encoding(&relation, &states[..3]);
        let layers = relation.boolean_layers();
        assert_eq!(layers.num_layers(), relation.rounds());
        let packed = pack_instances::<u128>(1600, &states.concat(), states.len());
        let out = unpack_instances(1600, &layers.evaluate_packed(&packed), states.len());
        for (state, got) in states.iter().zip(out.chunks_exact(25)) {
            let expected = match relation.rounds() {
                1 => keccak_crate::<1>(state),
                2 => keccak_crate::<2>(state),
                _ => keccak_crate::<5>(state),
            };
            assert_eq!(got, expected, "{}", relation.name());
        }
    }
}

#[test]
fn keccak_layers_have_the_expected_shape() {
    let keccak = KeccakF1600::new();
    let layers = keccak.boolean_layers();
    assert_eq!(BooleanLayeredRelation::id(&keccak), b"keccak-f[1600]");
    assert_eq!(layers.num_layers(), 24);
    assert!((0..=24).all(|l| layers.width(l) == 1600));
    // One AND per output bit, as many as the circuit has.
    assert_eq!(layers.and_gates(), 38_400);
    assert_eq!(layers.and_gates(), keccak.stats().and_gates);
    for l in 1..=24 {
        assert_eq!(layers.layer_degree(l), 2);
        for gate in layers.layer(l).gates() {
            let (left, right) = gate.factors();
            // θ: every form reads 11 bits; χ negates its first factor.
            assert_eq!(gate.linear_part().bits().len(), 11);
            assert_eq!((left.bits().len(), right.bits().len()), (11, 11));
            assert!(left.constant() && !right.constant());
        }
        // ι: the constant of L0 is set on exactly the round constant's bits of lane 0.
        let rc: u64 = (0..64)
            .filter(|&z| layers.layer(l).gates()[z].linear_part().constant())
            .map(|z| 1 << z)
            .sum();
        let others = layers.layer(l).gates()[64..]
            .iter()
            .filter(|g| g.linear_part().constant())
            .count();
        assert_eq!(
            (rc, others),
            (flockwork_boolean::constants::KECCAK_RC[l - 1], 0)
        );
        // Distinct linear parts: 1600 (each B bit once); per column bit, the first of its
        // five θ outputs costs 10 XORs and the other four 2 each.
        assert_eq!(layers.compiled_xors(l), 320 * 10 + 1280 * 2);
    }
    // The layers are built once per round count.
    assert!(std::ptr::eq(layers, KeccakF1600::new().boolean_layers()));
}

#[test]
fn a_keccak_round_on_a_narrower_state_is_refused() {
    // The first round's gates on a 1599-bit input: the forms reading bit 1599 are caught.
    let round: Vec<BooleanLayer> = vec![KeccakF1600::new().boolean_layers().layer(1).clone()];
    match BooleanLayered::new(1599, round) {
        Err(BooleanLayeredError::BitOutOfRange {
            layer: 1,
            bit: 1599,
            width: 1599,
            ..
        }) => {}
        other => panic!("expected BitOutOfRange, got {other:?}"),
    }
    assert_eq!(
        KeccakF1600::new().output_of_bits(&[0; 24]),
        None,
        "24 words are not a state"
    );
}
