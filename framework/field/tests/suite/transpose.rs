//! The bit-matrix transposes against their definition: bit `c` of row `r` becomes bit `r` of
//! row `c`.

use flockwork_field::transpose::{transpose64, transpose64_groups, transpose128};

/// A stream of well-mixed words (SplitMix64's finaliser over a counter) from `seed`.
fn words(seed: u64) -> impl FnMut() -> u64 {
    let mut counter = seed;
    move || {
        counter = counter.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = counter;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}

#[test]
fn transpose64_matches_the_definition() {
    let mut next = words(0x9e37_79b9_7f4a_7c15);
    let m: [u64; 64] = core::array::from_fn(|_| next());
    let mut t = m;
    transpose64(&mut t);
    for (r, row) in m.iter().enumerate() {
        for (c, column) in t.iter().enumerate() {
            assert_eq!((column >> r) & 1, (row >> c) & 1);
        }
    }
}

#[test]
fn transpose128_matches_the_definition() {
    let mut next = words(0x243f_6a88_85a3_08d3);
    let m: [u128; 128] = core::array::from_fn(|_| u128::from(next()) | (u128::from(next()) << 64));
    let mut t = m;
    transpose128(&mut t);
    for (r, row) in m.iter().enumerate() {
        for (c, column) in t.iter().enumerate() {
            assert_eq!((column >> r) & 1, (row >> c) & 1, "row {r}, column {c}");
        }
    }
}

#[test]
fn interleaved_transposes_are_independent_single_ones() {
    let mut next = words(0x1319_8a2e_0370_7344);
    let m: [[u64; 3]; 64] = core::array::from_fn(|_| core::array::from_fn(|_| next()));
    let mut t = m;
    transpose64_groups(&mut t);
    for w in 0..3 {
        let mut single: [u64; 64] = core::array::from_fn(|r| m[r][w]);
        transpose64(&mut single);
        assert!(
            t.iter().zip(&single).all(|(row, &s)| row[w] == s),
            "matrix {w}"
        );
    }
}
