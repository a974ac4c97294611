//! The sponges: determinism, length / domain separation, frost-gkr's padding rules.

use flockwork_field::{BinaryField, Field};
use flockwork_poseidon2b::sponge::{
    FROST_GKR_TAG, FrostChannel, FrostSponge, capacity_iv, domain_tag, hash,
};
use flockwork_poseidon2b::{
    AesTower128, DynPoseidon2b, Ghash128, frost_gkr_t4, official_t4, official_t6,
};

fn g(v: u128) -> Ghash128 {
    Ghash128::new(v)
}

#[test]
fn hash_is_deterministic_and_matches_a_hand_run_sponge() {
    let p = official_t4();
    let input = [g(1), g(2), g(3)];
    let a = hash(p, &input, 3);
    assert_eq!(a, hash(p, &input, 3));
    assert_eq!(a, p.hash(&input, 3));
    assert_eq!(a, DynPoseidon2b::official(4).unwrap().hash(&input, 3));
    // By hand: rate 2, tag in s[2], blocks [1, 2], [3, 1 (pad)], squeeze 2 + 1.
    let mut s = [
        Ghash128::ZERO,
        Ghash128::ZERO,
        g(domain_tag(4, 2, 3)),
        Ghash128::ZERO,
    ];
    s[0] += g(1);
    s[1] += g(2);
    p.permute(&mut s);
    s[0] += g(3);
    s[1] += Ghash128::ONE;
    p.permute(&mut s);
    let mut expected = vec![s[0], s[1]];
    p.permute(&mut s);
    expected.push(s[0]);
    assert_eq!(a, expected);
}

#[test]
fn hash_separates_input_lengths() {
    let p = official_t4();
    let outs = [
        hash(p, &[], 2),
        hash(p, &[Ghash128::ZERO], 2),
        hash(p, &[Ghash128::ZERO; 2], 2),
        hash(p, &[Ghash128::ZERO; 3], 2),
        hash(p, &[Ghash128::ONE], 2),
        hash(p, &[Ghash128::ONE, Ghash128::ZERO], 2),
    ];
    for i in 0..outs.len() {
        for j in 0..i {
            assert_ne!(outs[i], outs[j], "inputs {i} and {j} collide");
        }
    }
}

#[test]
fn hash_separates_output_lengths() {
    let p = official_t4();
    let input = [g(7), g(8)];
    let short = hash(p, &input, 1);
    let long = hash(p, &input, 5);
    assert_eq!(short.len(), 1);
    assert_eq!(long.len(), 5);
    assert_ne!(
        short[0], long[0],
        "a shorter digest is not a prefix of a longer one"
    );
    assert!(hash(p, &input, 0).is_empty());
}

#[test]
fn hash_separates_widths() {
    let input = [g(1), g(2), g(3), g(4)];
    let a = hash(official_t4(), &input, 2);
    let b = hash(official_t6(), &input, 2);
    assert_ne!(a, b);
    assert_eq!(hash(official_t6(), &input, 9).len(), 9);
}

#[test]
fn frost_iv_is_the_tag_split_across_the_capacity() {
    let label = u64::from_be_bytes(*b"FROSTGKR") as u128;
    assert_eq!(capacity_iv(FROST_GKR_TAG), [label << 64, label]);
    let s = FrostSponge::frost_gkr().state();
    assert_eq!(s[0], AesTower128::ZERO);
    assert_eq!(s[1], AesTower128::ZERO);
    assert_eq!(s[2].low_bits(), label << 64);
    assert_eq!(s[3].low_bits(), label);
}

#[test]
fn frost_sponge_absorbs_full_blocks_without_padding() {
    let perm = frost_gkr_t4();
    let block: Vec<u8> = (0u8..32).collect();
    let mut sponge = FrostSponge::frost_gkr();
    sponge.update(&block);
    let after_block = sponge.state();
    sponge.flush(); // nothing pending: no padding block
    assert_eq!(sponge.state(), after_block);
    // By hand.
    let mut s = FrostSponge::frost_gkr().state();
    s[0] += AesTower128::from_bits(u128::from_le_bytes(block[..16].try_into().unwrap()));
    s[1] += AesTower128::from_bits(u128::from_le_bytes(block[16..].try_into().unwrap()));
    perm.permute(&mut s);
    assert_eq!(after_block, s);
    // Split updates give the same state.
    let mut split = FrostSponge::frost_gkr();
    split.update(&block[..5]);
    split.update(&block[5..]);
    assert_eq!(split.state(), after_block);
}

#[test]
fn frost_sponge_pads_partial_blocks() {
    let perm = frost_gkr_t4();
    for len in [1usize, 16, 31] {
        let data: Vec<u8> = (0..len as u8).map(|b| b ^ 0x5a).collect();
        let mut sponge = FrostSponge::frost_gkr();
        sponge.update(&data);
        assert_eq!(
            sponge.state(),
            FrostSponge::frost_gkr().state(),
            "buffered only"
        );
        sponge.flush();
        let mut padded = [0u8; 32];
        padded[..len].copy_from_slice(&data);
        padded[len] |= 0x80;
        padded[31] |= 0x01;
        let mut s = FrostSponge::frost_gkr().state();
        s[0] += AesTower128::from_bits(u128::from_le_bytes(padded[..16].try_into().unwrap()));
        s[1] += AesTower128::from_bits(u128::from_le_bytes(padded[16..].try_into().unwrap()));
        perm.permute(&mut s);
        assert_eq!(sponge.state(), s, "len {len}");
    }
    // One free byte becomes 0x81.
    let mut a = FrostSponge::frost_gkr();
    a.update(&[0u8; 31]);
    a.flush();
    let mut b = FrostSponge::frost_gkr();
    let mut block = [0u8; 32];
    block[31] = 0x81;
    b.update(&block);
    assert_eq!(a.state(), b.state());
}

#[test]
fn frost_channel_is_deterministic_and_input_dependent() {
    let run = |x: u128| {
        let mut c = FrostChannel::frost_gkr();
        c.absorb(AesTower128::from_bits(x));
        (c.squeeze(), c.squeeze(), c.squeeze())
    };
    let (a1, b1, c1) = run(42);
    assert_eq!((a1, b1, c1), run(42));
    assert_ne!(a1, b1);
    assert_ne!(run(1).0, run(2).0);
    // The pair (a, b) is one squeeze; the third challenge comes from the next permutation.
    let mut sponge = FrostSponge::frost_gkr();
    sponge.absorb(AesTower128::from_bits(42));
    sponge.flush();
    let [a, b] = sponge.squeeze();
    assert_eq!((a, b), (a1, b1));
    assert_eq!(sponge.squeeze()[0], c1);
    // The IV matters.
    let mut bare = FrostSponge::new(frost_gkr_t4());
    bare.absorb(AesTower128::from_bits(42));
    bare.flush();
    assert_ne!(bare.squeeze()[0], a1);
}
