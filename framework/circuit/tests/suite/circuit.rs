//! The circuit builder's interpreters on small gadgets.

//! The R1CS lowering's checks of the same gadgets are `flockwork-r1cs`'s (tests/suite/lowering.rs).

use flockwork_circuit::{
    Gadget, IoLayout, LaneEvaluator, SlotId, Wide, batch_witness, evaluate, rotr,
};
use flockwork_testkit::circuit::{AddMaterialize, Adder, Step, step};

#[test]
fn layout_positions() {
    let layout = IoLayout::new(256)
        .input("a", 0, 256)
        .output("b", 1, 128)
        .input("c", 2, 512);
    assert_eq!(layout.const_position(), 1024);
    assert_eq!(layout.positions(SlotId(2)), 512..1024);
    assert_eq!(layout.vector_offset(SlotId(2)), 256);
    assert_eq!(layout.vector_offset(SlotId(1)), 0);
}

#[test]
#[should_panic(expected = "overlaps")]
fn overlapping_regions_are_rejected() {
    let _ = IoLayout::new(64).input("a", 0, 128).output("b", 1, 64);
}

#[test]
fn addition_costs_n_minus_one_ands_and_is_correct() {
    assert_eq!(Adder::<32>.stats().and_gates, 31);
    assert_eq!(Adder::<8>.stats().and_gates, 7);
    let mut s = 0x1234_5678_9abc_def0u64;
    for _ in 0..50 {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let (x0, x1) = (s as u32, (s >> 32) as u32);
        let out = evaluate(&Adder::<32>, &[s]);
        assert_eq!(out[0] as u32, x0.wrapping_add(x1));
        let mix = x0.rotate_left(3) ^ (x1 >> 5) ^ (x0 << 7);
        assert_eq!((out[0] >> 32) as u32, mix);
        let x8 = (s as u8, (s >> 8) as u8);
        assert_eq!(
            evaluate(&Adder::<8>, &[s & 0xffff])[0] as u8,
            x8.0.wrapping_add(x8.1)
        );
    }
    assert_eq!(rotr(&[0, 1, 2, 3], 1), [1, 2, 3, 0]);
}

#[test]
fn lane_groups_evaluate_every_word_independently() {
    let lanes: Vec<[u64; 3]> = (0..64u64)
        .map(|i| core::array::from_fn(|w| (3 * i + w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .collect();
    let wide = LaneEvaluator::run(&Adder::<32>, &lanes, true);
    let (wide_a, wide_b) = wide.sides().expect("sides recorded");
    for w in 0..3 {
        let narrow: Vec<[u64; 1]> = lanes.iter().map(|l| [l[w]]).collect();
        let one = LaneEvaluator::run(&Adder::<32>, &narrow, true);
        let (a, b) = one.sides().expect("sides recorded");
        assert_eq!(wide.z().len(), one.z().len());
        for (wide, one) in [(wide.z(), one.z()), (wide_a, a), (wide_b, b)] {
            assert!(wide.iter().zip(one).all(|(x, y)| x[w] == y[0]));
        }
    }
}

#[test]
fn batch_witness_matches_single_evaluations() {
    let inputs: Vec<u64> = (0..300u64)
        .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
        .collect();
    let w = batch_witness(&Adder::<32>, &inputs, false);
    let layout = Adder::<32>.layout();
    for (k, &x) in inputs.iter().enumerate() {
        let out = evaluate(&Adder::<32>, &[x]);
        for (bit, p) in layout.positions(SlotId(0)).enumerate() {
            assert_eq!(w.bit(k, p), (x >> bit) & 1 == 1);
        }
        for (bit, p) in layout.positions(SlotId(1)).enumerate() {
            assert_eq!(w.bit(k, p), (out[bit / 64] >> (bit % 64)) & 1 == 1);
        }
    }
}

#[test]
fn witness_does_not_depend_on_recording_sides() {
    let inputs: Vec<u64> = (0..200u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let plain = batch_witness(&AddMaterialize, &inputs, false);
    let with_sides = batch_witness(&AddMaterialize, &inputs, true);
    assert_eq!(plain.z, with_sides.z);
    // Every row the evaluator records holds: `(A z)_p ∧ (B z)_p = z_p`.
    let (a, b) = with_sides.sides.as_ref().expect("sides recorded");
    for ((&zw, &aw), &bw) in with_sides.z.iter().zip(a).zip(b) {
        assert_eq!(aw & bw, zw);
    }
    let words = with_sides.block_words();
    let lanes = |v: &[u64], first: usize, count: usize| -> Vec<u64> {
        (0..words * 64)
            .map(|p| {
                (0..count).fold(0u64, |acc, i| {
                    acc | (((v[(first + i) * words + p / 64] >> (p % 64)) & 1) << i)
                })
            })
            .collect()
    };
    // `z` in lane order: every group of 64 instances, the last one (8 instances) masked.
    assert_eq!(plain.lanes, None);
    let recorded = with_sides
        .lanes
        .as_ref()
        .expect("lanes recorded with the sides");
    assert_eq!(recorded.len(), 4 * words * 64);
    for (g, group) in recorded.chunks(words * 64).enumerate() {
        let count = (200 - 64 * g).min(64);
        assert_eq!(group, lanes(&with_sides.z, 64 * g, count), "group {g}");
    }
    for &x in &inputs {
        let (x0, x1) = (x as u32, (x >> 32) as u32);
        let s = x0.wrapping_add(x1);
        let t = (s ^ x0).rotate_right(5).wrapping_add(x1);
        assert_eq!(
            evaluate(&AddMaterialize, &[x])[0],
            u64::from(s) | u64::from(t) << 32
        );
    }
}

#[test]
fn wide_blocks_hold_independent_copies() {
    let wide = Wide::independent(Step, 3);
    let layout = wide.layout();
    // Three copies of three regions, each copy in the three slot units after the previous one.
    assert_eq!(layout.slots().len(), 9);
    assert_eq!(layout.slot(SlotId(4)).first_slot, 4);
    assert_eq!(wide.handle(2, SlotId(2)), Some(SlotId(8)));
    let inputs: Vec<u64> = (0..6u64 * 70)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for instance in inputs.chunks(6) {
        let out = evaluate(&wide, instance);
        for c in 0..3 {
            assert_eq!(out[c], step(instance[2 * c], instance[2 * c + 1]));
        }
    }
}

#[test]
fn wide_chained_blocks_pass_the_state_inside_the_block() {
    let wide = Wide::chained(Step, 4, SlotId(0), SlotId(1));
    let layout = wide.layout();
    // Copy 0's x and the last copy's y keep the inner handles and places; k of every copy.
    assert_eq!(layout.slot(SlotId(0)).first_slot, 0);
    assert_eq!(layout.slot(SlotId(1)).first_slot, 1);
    assert_eq!(wide.handle(3, SlotId(1)), Some(SlotId(1)));
    assert_eq!(wide.handle(1, SlotId(0)), None);
    assert_eq!(wide.handle(0, SlotId(1)), None);
    assert_eq!(layout.slots().len(), 2 + 4);
    // Input vector: x, k_0, k_1, k_2, k_3.
    let inputs: Vec<u64> = (0..5u64 * 20)
        .map(|i| i.wrapping_mul(0xd134_2543_de82_ef95))
        .collect();
    for instance in inputs.chunks(5) {
        let expect = instance[1..].iter().fold(instance[0], |x, &k| step(x, k));
        assert_eq!(evaluate(&wide, instance), vec![expect]);
    }
    // Four additions of 31 ANDs and 64 + 4·64 + 64 IO bits and the constant.
    let stats = Wide::chained(Step, 4, SlotId(0), SlotId(1)).stats();
    assert_eq!(stats.and_gates, 4 * 31);
    assert_eq!(stats.input_bits, 5 * 64);
    assert_eq!(stats.output_bits, 64);
}

#[test]
fn wide_picks_the_copies_that_fill_blocks_best() {
    // One copy: 3 slot units of 64 + constant + 31 ANDs = 224 positions → 256 (m0 = 8).
    // Two chained: 4 units + 1 + 62 = 319 → 512, a tie with one (the fewer copies win);
    // three: 5 units + 1 + 93 = 414 → 512; four: 6 units + 1 + 124 = 509 → 512, half the
    // positions per instance; five and six need 1024. Independent copies need 3
    // units each: four take 12 + 1 + 124 = 893 → 1024, no better than one.
    assert_eq!(Step.stats().block_bits(), 256);
    assert_eq!(Wide::best(&Step, 1, None), 1);
    assert_eq!(Wide::best(&Step, 4, None), 1);
    assert_eq!(Wide::independent(Step, 4).stats().positions, 893);
    assert_eq!(Wide::best(&Step, 2, Some((SlotId(0), SlotId(1)))), 1);
    assert_eq!(Wide::best(&Step, 3, Some((SlotId(0), SlotId(1)))), 3);
    assert_eq!(Wide::best(&Step, 6, Some((SlotId(0), SlotId(1)))), 4);
}
