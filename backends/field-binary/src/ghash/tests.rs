use flockwork_field::Field;

use super::Ghash128;

#[test]
fn field_conformance() {
    flockwork_testkit::field::check_field::<Ghash128>();
}

#[test]
fn x_to_the_128() {
    // x^128 = x^7 + x^2 + x + 1 = 0x87.
    let x = Ghash128::X;
    assert_eq!(x.pow(&[128]), Ghash128(0x87));
}

#[test]
fn frobenius_has_order_128() {
    // a^(2^128) = a for every a.
    let mut rng = flockwork_testkit::rng("ghash frobenius");
    for _ in 0..32 {
        let a: Ghash128 = flockwork_testkit::random(&mut rng);
        assert_eq!(a.pow(&[0, 0, 1]), a);
    }
}

// ---------------------------------------------------------------------------------------
// Independent oracles.
// ---------------------------------------------------------------------------------------

use flockwork_field::PackedField;
use ghash::universal_hash::UniversalHash;

use super::{Ghash256Unreduced, PackedGhash128x4, batch};
use crate::arch::Backend;
use crate::arch::tests::{available, with_active};

/// Schoolbook oracle: `a · b` by shift-and-add, reducing `x^128 → x^7 + x^2 + x + 1` one
/// bit at a time (Horner over the bits of `b`, most significant first).
fn schoolbook_mul(a: u128, b: u128) -> u128 {
    let mut acc = 0u128;
    for i in (0..128).rev() {
        // acc = acc · x
        let carry = acc >> 127;
        acc <<= 1;
        if carry == 1 {
            acc ^= 0x87;
        }
        if (b >> i) & 1 == 1 {
            acc ^= a;
        }
    }
    acc
}

/// Our element as a GCM block: GCM puts the coefficient of `x^0` in the most significant
/// bit of byte 0 (NIST SP 800-38D §6.3), i.e. the block read big-endian is our bit pattern
/// reversed.
fn to_gcm_block(a: Ghash128) -> [u8; 16] {
    a.0.reverse_bits().to_be_bytes()
}

fn from_gcm_block(b: [u8; 16]) -> Ghash128 {
    Ghash128(u128::from_be_bytes(b).reverse_bits())
}

/// RustCrypto's GHASH of the blocks `xs` under key `h`:
/// `Y_0 = 0`, `Y_i = (Y_{i-1} + X_i) · H`, so one block gives `X · H` — GCM's field is ours
/// up to the bit reflection, with no extra factor (the `x^-128` twist belongs to POLYVAL,
/// which the crate uses internally and undoes).
fn rustcrypto_ghash(h: Ghash128, xs: &[Ghash128]) -> Ghash128 {
    let mut g = ghash::GHash::new(&ghash::Key::from(to_gcm_block(h)));
    let blocks: Vec<ghash::Block> = xs
        .iter()
        .map(|&x| ghash::Block::from(to_gcm_block(x)))
        .collect();
    g.update(&blocks);
    from_gcm_block(g.finalize().into())
}

fn edge_elements() -> Vec<Ghash128> {
    [
        0,
        1,
        2,
        u128::MAX,
        1 << 127,
        (1 << 127) | 1,
        0x87,
        u128::from(u64::MAX),
        u128::MAX << 64,
    ]
    .map(Ghash128)
    .to_vec()
}

fn oracle_pairs(label: &str, n: usize) -> Vec<(Ghash128, Ghash128)> {
    let edges = edge_elements();
    let mut pairs: Vec<_> = edges
        .iter()
        .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
        .collect();
    let mut rng = flockwork_testkit::rng(label);
    pairs.extend((0..n).map(|_| {
        (
            flockwork_testkit::random(&mut rng),
            flockwork_testkit::random(&mut rng),
        )
    }));
    pairs
}

#[test]
fn gcm_block_mapping_is_the_reflection() {
    // The GCM block 0x80 00 .. 00 is the polynomial 1, and 0x00 .. 00 01 is x^127.
    let mut one = [0u8; 16];
    one[0] = 0x80;
    assert_eq!(from_gcm_block(one), Ghash128::ONE);
    let mut x127 = [0u8; 16];
    x127[15] = 1;
    assert_eq!(from_gcm_block(x127), Ghash128(1 << 127));
    // GHASH with H = 1 is the identity on one block; with H = x it is a shift by one.
    assert_eq!(
        rustcrypto_ghash(Ghash128::ONE, &[Ghash128(0x1234)]),
        Ghash128(0x1234)
    );
    assert_eq!(
        rustcrypto_ghash(Ghash128::X, &[Ghash128(0x1234)]),
        Ghash128(0x2468)
    );
}

#[test]
fn mul_matches_rustcrypto_ghash_on_every_backend() {
    let pairs = oracle_pairs("ghash oracle", 10_000);
    let want: Vec<Ghash128> = pairs
        .iter()
        .map(|&(h, x)| rustcrypto_ghash(h, &[x]))
        .collect();
    for b in available() {
        with_active(b, || {
            for (&(h, x), &w) in pairs.iter().zip(&want) {
                assert_eq!(h * x, w, "{b}: {h:?} * {x:?}");
                assert_eq!(x * h, w, "{b}: commuted");
            }
            let (a, c): (Vec<_>, Vec<_>) = pairs.iter().copied().unzip();
            let mut out = vec![Ghash128::ZERO; a.len()];
            batch::mul_slices(&mut out, &a, &c);
            assert_eq!(out, want, "{b}: batch::mul_slices");
        });
    }
}

#[test]
fn multi_block_ghash_is_a_dot_product_with_powers_of_h() {
    // GHASH_H(X_1..X_n) = Σ X_i · H^(n+1-i).
    let mut rng = flockwork_testkit::rng("ghash multi-block");
    for n in [1usize, 2, 3, 4, 5, 8, 13, 64, 101] {
        let h: Ghash128 = flockwork_testkit::random(&mut rng);
        let xs: Vec<Ghash128> = flockwork_testkit::random_vec(&mut rng, n);
        let mut powers: Vec<Ghash128> = (0..n).map(|_| h).collect();
        for i in (0..n.saturating_sub(1)).rev() {
            powers[i] = powers[i + 1] * h;
        }
        let want = rustcrypto_ghash(h, &xs);
        for b in available() {
            with_active(b, || {
                assert_eq!(batch::dot(&xs, &powers), want, "{b}: n = {n}")
            });
        }
    }
}

#[test]
fn mul_matches_schoolbook_on_every_backend() {
    let pairs = oracle_pairs("schoolbook oracle", 10_000);
    for b in available() {
        for &(x, y) in &pairs {
            let want = schoolbook_mul(x.0, y.0);
            assert_eq!(
                crate::arch::mul_with(b, x.0, y.0),
                want,
                "{b}: {x:?} * {y:?}"
            );
            assert_eq!(
                crate::arch::square_with(b, x.0),
                schoolbook_mul(x.0, x.0),
                "{b}"
            );
        }
    }
}

#[test]
fn schoolbook_oracle_sanity() {
    assert_eq!(schoolbook_mul(1 << 127, 2), 0x87);
    assert_eq!(schoolbook_mul(0x1234, 1), 0x1234);
    assert_eq!(schoolbook_mul(0b11, 0b11), 0b101);
}

// ---------------------------------------------------------------------------------------
// Unreduced products.
// ---------------------------------------------------------------------------------------

#[test]
fn unreduced_sums_reduce_to_the_sum_of_products() {
    let pairs = oracle_pairs("unreduced", 2_000);
    for b in available() {
        with_active(b, || {
            let mut acc = Ghash256Unreduced::ZERO;
            let mut acc_add = Ghash256Unreduced::default();
            let mut want = Ghash128::ZERO;
            for (i, &(x, y)) in pairs.iter().enumerate() {
                let p = x.mul_unreduced(y);
                assert_eq!(p.reduce(), x * y, "{b}: reduce(mul_unreduced)");
                acc ^= p;
                acc_add += p;
                want += x * y;
                if i % 97 == 0 {
                    assert_eq!(acc.reduce(), want, "{b}: prefix {i}");
                }
            }
            assert_eq!(acc, acc_add);
            assert_eq!(acc.reduce(), want);
            let summed: Ghash256Unreduced = pairs.iter().map(|&(x, y)| x.mul_unreduced(y)).sum();
            assert_eq!(summed, acc);
            let (a, c): (Vec<_>, Vec<_>) = pairs.iter().copied().unzip();
            assert_eq!(batch::dot(&a, &c), want, "{b}: dot");
        });
    }
}

#[test]
fn unreduced_product_degree_and_embedding() {
    // x^127 · x^127 = x^254: the top bit of `hi` is never set, bit 126 of `hi` is.
    let p = Ghash128(1 << 127).mul_unreduced(Ghash128(1 << 127));
    assert_eq!(
        p,
        Ghash256Unreduced {
            lo: 0,
            hi: 1 << 126
        }
    );
    let all = Ghash128(u128::MAX).mul_unreduced(Ghash128(u128::MAX));
    assert_eq!(all.hi >> 127, 0);
    assert_eq!(Ghash256Unreduced::from(Ghash128(5)).reduce(), Ghash128(5));
    assert_eq!(Ghash256Unreduced { lo: 0, hi: 1 }.reduce(), Ghash128(0x87));
}

// ---------------------------------------------------------------------------------------
// Packed field and slice kernels.
// ---------------------------------------------------------------------------------------

#[test]
fn packed_conformance_on_every_backend() {
    for b in available() {
        with_active(b, || {
            flockwork_testkit::field::check_packed::<PackedGhash128x4>();
        });
    }
}

#[test]
fn field_conformance_on_every_backend() {
    for b in available() {
        with_active(b, flockwork_testkit::field::check_field::<Ghash128>);
    }
}

#[test]
fn packed_matches_scalar_on_edge_lanes() {
    let edges = edge_elements();
    for b in available() {
        with_active(b, || {
            for w in edges.windows(4) {
                for &s in &edges {
                    let x = PackedGhash128x4::from_lanes([w[0], w[1], w[2], w[3]]);
                    let y = PackedGhash128x4::broadcast(s);
                    let lanes = (x * y).to_lanes();
                    let sq = x.square().to_lanes();
                    for i in 0..4 {
                        assert_eq!(lanes[i].0, schoolbook_mul(w[i].0, s.0), "{b}");
                        assert_eq!(sq[i].0, schoolbook_mul(w[i].0, w[i].0), "{b}");
                    }
                    assert_eq!(x.mul_scalar(s), x * y);
                }
            }
        });
    }
}

#[test]
fn packed_layout() {
    assert_eq!(core::mem::align_of::<PackedGhash128x4>(), 64);
    assert_eq!(core::mem::size_of::<PackedGhash128x4>(), 64);
    let lanes = [1, 2, 3, 4].map(Ghash128);
    assert_eq!(PackedGhash128x4::from_lanes(lanes).to_lanes(), lanes);
    assert_eq!(PackedGhash128x4::from_lanes(lanes).get(2), Ghash128(3));
}

#[test]
fn batch_kernels_match_scalar_on_every_backend() {
    let mut rng = flockwork_testkit::rng("ghash batch");
    for b in available() {
        with_active(b, || {
            for n in [0usize, 1, 2, 3, 4, 5, 7, 9, 31, 257] {
                let a: Vec<Ghash128> = flockwork_testkit::random_vec(&mut rng, n);
                let c: Vec<Ghash128> = flockwork_testkit::random_vec(&mut rng, n);
                let s: Ghash128 = flockwork_testkit::random(&mut rng);
                let mut out = vec![Ghash128::ZERO; n];
                batch::mul_slices(&mut out, &a, &c);
                for i in 0..n {
                    assert_eq!(out[i].0, schoolbook_mul(a[i].0, c[i].0), "{b}: n = {n}");
                }
                let mut v = a.clone();
                batch::mul_assign_scalar(&mut v, s);
                for i in 0..n {
                    assert_eq!(v[i].0, schoolbook_mul(a[i].0, s.0), "{b}: n = {n}");
                }
                let want = (0..n).fold(0, |acc, i| acc ^ schoolbook_mul(a[i].0, c[i].0));
                assert_eq!(batch::dot(&a, &c).0, want, "{b}: dot, n = {n}");
            }
        });
    }
}

#[test]
fn packing_is_the_packed_type() {
    fn packing_width<F: Field>() -> usize {
        <F::Packing as PackedField>::WIDTH
    }
    assert_eq!(packing_width::<Ghash128>(), 4);
    let _ = Backend::active();
}

#[test]
#[cfg(target_endian = "little")]
fn the_word_view_lists_low_then_high_words() {
    let elements = [
        Ghash128::new(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210),
        Ghash128::new(7 << 64 | 9),
    ];
    assert_eq!(
        Ghash128::slice_as_words(&elements),
        &[0xfedc_ba98_7654_3210, 0x0123_4567_89ab_cdef, 9, 7]
    );
    // The byte view is the concatenated canonical encodings.
    let mut encoded = Vec::new();
    for x in &elements {
        let mut b = [0u8; 16];
        x.write_bytes(&mut b);
        encoded.extend_from_slice(&b);
    }
    assert_eq!(Ghash128::slice_as_bytes(&elements), Some(&encoded[..]));
}
