//! IO regions of any bit count and the automatic layout ([`IoLayout::auto`]): placement,
//! the input and output vectors (`⌈bits/64⌉` words a region, high bits zero) and the zero
//! padding of every slot unit past a region's end, in the evaluator and the batch witness.

use flockwork_circuit::{
    CircuitBuilder, Gadget, IoLayout, SlotId, SlotKind, batch_witness, evaluate,
};

#[test]
fn auto_layout_picks_power_of_two_units_that_hold_the_state() {
    // SHA-1: a 160-bit state in 256-bit units, the block in the two units after it.
    let sha1 = IoLayout::auto()
        .state("h_in", "h_out", 160)
        .input("block", 512)
        .build();
    assert_eq!(sha1.slot_bits(), 256);
    assert_eq!(sha1.state(), Some((SlotId(0), SlotId(1))));
    let firsts: Vec<usize> = sha1.slots().iter().map(|s| s.first_slot).collect();
    assert_eq!(firsts, [0, 1, 2]);
    assert_eq!(sha1.positions(SlotId(1)), 256..416);
    assert_eq!(sha1.const_position(), 1024);
    assert_eq!(
        (
            sha1.vector_words(SlotKind::Input),
            sha1.vector_words(SlotKind::Output)
        ),
        (3 + 8, 3)
    );
    assert_eq!(sha1.vector_offset(SlotId(2)), 192);
    assert_eq!(sha1.vector_bits(SlotKind::Input), 64 * 11);
    assert_eq!(sha1.find("block"), Some(SlotId(2)));
    assert_eq!(sha1.find("nonce"), None);

    // A 200-bit sponge state, a 1000-bit rate region (4 units), no state: 128-bit units.
    let sponge = IoLayout::auto()
        .input("rate", 1000)
        .state("s_in", "s_out", 200)
        .output("squeezed", 7)
        .build();
    assert_eq!(sponge.slot_bits(), 256);
    let firsts: Vec<usize> = sponge.slots().iter().map(|s| s.first_slot).collect();
    assert_eq!(firsts, [0, 4, 5, 6]);
    assert_eq!(sponge.state(), Some((SlotId(1), SlotId(2))));
    let plain = IoLayout::auto().input("x", 1).output("y", 129).build();
    assert_eq!(plain.slot_bits(), 128);
    assert_eq!(plain.state(), None);
    assert_eq!(plain.positions(SlotId(1)), 128..257);
    assert_eq!(plain.const_position(), 384);
    // A state larger than 128 bits that is a power of two fills its unit exactly.
    let keccak = IoLayout::auto().state("a", "b", 1600).build();
    assert_eq!(keccak.slot_bits(), 2048);
}

#[test]
fn explicit_layouts_keep_their_places() {
    let layout = IoLayout::new(256)
        .input("h_in", 0, 256)
        .output("h_out", 1, 256)
        .input("msg", 2, 512);
    assert_eq!(layout.state(), None);
    assert_eq!(layout.vector_offset(SlotId(2)), 256);
    assert_eq!(layout.const_position(), 1024);
}

#[test]
#[should_panic(expected = "overlaps")]
fn a_region_in_the_padding_of_another_overlaps_it() {
    // 130 bits in 128-bit units take units 0 and 1.
    let _ = IoLayout::new(128).input("a", 0, 130).output("b", 1, 64);
}

#[test]
#[should_panic(expected = "one chained state")]
fn a_layout_has_one_state() {
    let _ = IoLayout::auto().state("a", "b", 64).state("c", "d", 64);
}

#[test]
fn padding_bits_of_a_vector_are_found() {
    let layout = IoLayout::auto()
        .input("x", 100)
        .input("k", 64)
        .input("t", 3)
        .build();
    assert_eq!(layout.padding_bit_set(SlotKind::Input, &[0; 4]), None);
    assert_eq!(
        layout.padding_bit_set(SlotKind::Input, &[0, 1 << 36, 0, 0]),
        Some("x")
    );
    assert_eq!(
        layout.padding_bit_set(SlotKind::Input, &[0, 0, !0, 7]),
        None
    );
    assert_eq!(
        layout.padding_bit_set(SlotKind::Input, &[0, 0, 0, 8]),
        Some("t")
    );
}

/// `y = x ⊕ (x ∧ k)` over a 100-bit state and a 100-bit key, and the 5-bit parity of
/// `x ∧ k` in blocks of 20: regions of sizes that fill no word.
struct Odd;

impl Gadget for Odd {
    fn layout(&self) -> IoLayout {
        IoLayout::auto()
            .state("x", "y", 100)
            .input("k", 100)
            .output("p", 5)
            .build()
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let (x, k) = (b.input(SlotId(0)), b.input(SlotId(2)));
        let t: Vec<B::Wire> = x.iter().zip(&k).map(|(&x, &k)| b.and(x, k)).collect();
        let y: Vec<B::Wire> = x.iter().zip(&t).map(|(&x, &t)| b.xor(x, t)).collect();
        b.output(SlotId(1), &y);
        let p: Vec<B::Wire> = t
            .chunks(20)
            .map(|c| c.iter().fold(b.zero(), |acc, &w| b.xor(acc, w)))
            .collect();
        b.output(SlotId(3), &p);
    }
}

/// The native `Odd`: input vector `x (2 words) ‖ k (2 words)`, output vector `y ‖ p`.
fn odd(x: u128, k: u128) -> [u64; 3] {
    let t = x & k;
    let y = x ^ t;
    let p = (0..5).fold(0, |p, i| {
        p | u64::from(((t >> (20 * i)) & 0xf_ffff).count_ones() % 2 == 1) << i
    });
    [y as u64, (y >> 64) as u64, p]
}

#[test]
fn regions_of_any_size_evaluate_with_zero_padding() {
    let mask = (1u128 << 100) - 1;
    let mut s = 0x0123_4567_89ab_cdefu128;
    let mut inputs = Vec::new();
    for _ in 0..70 {
        s = s
            .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
            .wrapping_add(0x5851_f42d);
        let (x, k) = (s & mask, s.rotate_left(37) & mask);
        let vector = [x as u64, (x >> 64) as u64, k as u64, (k >> 64) as u64];
        assert_eq!(evaluate(&Odd, &vector).as_slice(), odd(x, k));
        inputs.extend_from_slice(&vector);
    }
    let witness = batch_witness(&Odd, &inputs, true);
    let layout = Odd.layout();
    assert_eq!(layout.slot_bits(), 128);
    // Every position of a slot unit past its region's end is zero in every instance, and so
    // are its A and B sides (the row 0 · 0 = 0).
    let (a, b) = witness.sides.as_ref().unwrap();
    for instance in 0..70 {
        for (id, slot) in layout.slots().iter().enumerate() {
            let end = (slot.first_slot + slot.bits.div_ceil(128)) * 128;
            for p in layout.positions(SlotId(id)).end..end {
                assert!(
                    !witness.bit(instance, p),
                    "instance {instance}, position {p}"
                );
                let i = (instance << witness.log_block) + p;
                assert_eq!((a[i / 64] >> (i % 64)) & 1, 0);
                assert_eq!((b[i / 64] >> (i % 64)) & 1, 0);
            }
        }
    }
    // High input bits past a region's end are not read.
    let mut noisy = inputs[..4].to_vec();
    noisy[1] |= !0 << 36;
    assert_eq!(evaluate(&Odd, &noisy), evaluate(&Odd, &inputs[..4]));
}
