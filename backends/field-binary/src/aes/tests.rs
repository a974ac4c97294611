#[cfg(feature = "std")]
use flockwork_field::ExtensionField;
use flockwork_field::Field;
#[cfg(feature = "std")]
use flockwork_testkit::field::check_extension;
use flockwork_testkit::field::check_field;

use super::*;

/// Schoolbook product modulo 0x11B, independent of the tables.
fn reference_mul(a: u8, b: u8) -> u8 {
    let (mut a, mut b, mut acc) = (u16::from(a), b, 0u16);
    while b != 0 {
        if b & 1 == 1 {
            acc ^= a;
        }
        a <<= 1;
        if a & 0x100 != 0 {
            a ^= AES_POLY;
        }
        b >>= 1;
    }
    acc as u8
}

fn all_bytes() -> impl Iterator<Item = Aes8> {
    (0..=255u8).map(Aes8)
}

#[test]
fn aes8_field_laws() {
    check_field::<Aes8>();
}

#[test]
fn aes8_fips197_known_answers() {
    // FIPS-197 §4.2: {57}·{83} = {c1}, {57}·{13} = {fe}; §5.1.1: {53}^-1 = {ca}.
    assert_eq!(Aes8(0x57) * Aes8(0x83), Aes8(0xc1));
    assert_eq!(Aes8(0x57) * Aes8(0x13), Aes8(0xfe));
    assert_eq!(Aes8(0x53) * Aes8(0xca), Aes8(0x01));
    assert_eq!(Aes8(0x53).inverse(), Some(Aes8(0xca)));
    assert_eq!(Aes8::GENERATOR, Aes8(0x03));
}

#[test]
fn aes8_table_product_matches_schoolbook_exhaustively() {
    for a in all_bytes() {
        for b in all_bytes() {
            assert_eq!((a * b).0, reference_mul(a.0, b.0), "{a:?} * {b:?}");
        }
        if a.0 != 0 {
            assert_eq!(a * a.invert_or_zero(), Aes8::ONE, "inverse of {a:?}");
        }
    }
}

#[test]
fn phi8_alpha_is_a_root_of_the_aes_polynomial() {
    let a = PHI8_ALPHA;
    let a2 = a * a;
    let a4 = a2 * a2;
    let a8 = a4 * a4;
    assert_eq!(a8 + a4 + a2 * a + a + Ghash128::ONE, Ghash128::ZERO);
}

#[test]
fn phi8_basis_is_powers_of_alpha() {
    let mut p = Ghash128::ONE;
    for (i, b) in PHI8_BASIS.iter().enumerate() {
        assert_eq!(*b, p, "PHI8_BASIS[{i}]");
        p *= PHI8_ALPHA;
    }
    assert_eq!(phi8(Aes8::ALPHA), PHI8_ALPHA);
}

#[test]
fn phi8_is_a_homomorphism_exhaustively() {
    for a in all_bytes() {
        for b in all_bytes() {
            assert_eq!(
                phi8(a * b),
                phi8(a) * phi8(b),
                "phi8 multiplicative at {a:?}, {b:?}"
            );
            assert_eq!(
                phi8(a + b),
                phi8(a) + phi8(b),
                "phi8 additive at {a:?}, {b:?}"
            );
        }
    }
    // Injective: 256 distinct images.
    let mut images: Vec<u128> = all_bytes().map(|a| phi8(a).0).collect();
    images.sort_unstable();
    images.dedup();
    assert_eq!(images.len(), 256);
}

#[test]
fn flock_skip_constants() {
    // D = Π_{s ∈ S, s ≠ 0} s for S = phi8(span{1, α, …, α^5}) = phi8({0..63}); phi8 is a
    // homomorphism, so D = phi8(Π_{v=1}^{63} v).
    let d: Aes8 = (1..64u8).map(Aes8).product();
    assert_eq!(d, Aes8(0x33));
    assert_eq!(
        (1..64u8).map(|v| phi8(Aes8(v))).product::<Ghash128>(),
        phi8(Aes8(0x33))
    );
    // μ = Z_S(λ) = Π_{s ∈ S} (λ + s) for any λ ∈ Λ = phi8(0x40) + S = phi8({64..127}), so
    // μ = phi8(Π_{w=64}^{127} w) = phi8(0x24).
    let mu: Aes8 = (64..128u8).map(Aes8).product();
    assert_eq!(mu, Aes8(0x24));
    for lambda in [64u8, 77, 127] {
        let z: Ghash128 = (0..64u8)
            .map(|s| phi8(Aes8(lambda)) + phi8(Aes8(s)))
            .product();
        assert_eq!(z, phi8(Aes8(0x24)), "Z_S at phi8({lambda:#x})");
    }
}

#[test]
fn byte_mul_table_matches_products() {
    let g = Ghash128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
    let table = ByteMulTable::new(g);
    assert_eq!(table.factor(), g);
    for b in all_bytes() {
        assert_eq!(table.mul(b), g * phi8(b), "byte {b:?}");
        assert_eq!(g * b, g * phi8(b));
    }
}

#[cfg(feature = "std")]
#[test]
fn monomials_are_a_basis_over_the_aes_subfield() {
    assert_eq!(coordinates::coefficient_matrix().rank(), 128);
}

#[cfg(feature = "std")]
#[test]
fn ghash_extends_aes8() {
    use crate::gf2::absolute_trace;

    check_extension::<Ghash128, Aes8>();
    let mut coeffs = [Aes8::ZERO; 16];
    Ghash128(1 << 5).to_base_coeffs(&mut coeffs);
    assert_eq!(coeffs[5], Aes8::ONE);
    assert_eq!(coeffs.iter().filter(|c| !c.is_zero()).count(), 1);
    // The subfield is fixed by the 8th power of Frobenius and has trace 0 over GF(2) when
    // embedded (Tr_{128/1} = 16 · Tr_{8/1} = 0).
    for b in all_bytes() {
        let e = phi8(b);
        assert_eq!(e.pow(&[256]), e);
        assert_eq!(absolute_trace(e), Ghash128::ZERO);
    }
}
