use flockwork_field::{ExtensionField, Field, PackedField};
use flockwork_testkit::field::{check_extension, check_field};
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::*;

/// Tower product straight from the definition, bit-serial and without Karatsuba or tables:
/// `(a0 + a1 X)(b0 + b1 X) = (a0 b0 + a1 b1) + (a0 b1 + a1 b0 + t a1 b1) X`, `t = X_{k-1}`.
fn reference_mul(a: u128, b: u128, width: u32) -> u128 {
    if width == 1 {
        return a & b & 1;
    }
    let h = width / 2;
    let mask = (1u128 << h) - 1;
    let (a0, a1, b0, b1) = (a & mask, a >> h, b & mask, b >> h);
    let t = if h == 1 { 1 } else { 1u128 << (h / 2) };
    let lo = reference_mul(a0, b0, h) ^ reference_mul(a1, b1, h);
    let a1b1 = reference_mul(a1, b1, h);
    let hi = reference_mul(a0, b1, h) ^ reference_mul(a1, b0, h) ^ reference_mul(t, a1b1, h);
    lo | (hi << h)
}

#[test]
fn field_laws_at_every_level() {
    check_field::<Tower1>();
    check_field::<Tower2>();
    check_field::<Tower4>();
    check_field::<Tower8>();
    check_field::<Tower16>();
    check_field::<Tower32>();
    check_field::<Tower64>();
    check_field::<Tower128>();
}

#[test]
fn extension_chain() {
    check_extension::<Tower2, Tower1>();
    check_extension::<Tower4, Tower2>();
    check_extension::<Tower8, Tower4>();
    check_extension::<Tower16, Tower8>();
    check_extension::<Tower32, Tower16>();
    check_extension::<Tower64, Tower32>();
    check_extension::<Tower128, Tower64>();
    check_extension::<Tower32, Tower8>();
    check_extension::<Tower64, Tower8>();
    check_extension::<Tower128, Tower8>();
    check_extension::<Tower64, Tower16>();
    check_extension::<Tower128, Tower16>();
    check_extension::<Tower128, Tower32>();
    check_extension::<Tower128, Tower1>();
}

#[test]
fn generators_satisfy_their_defining_equations() {
    // X_k^2 + X_{k-1} X_k + 1 = 0 with X_{-1} = 1, at every level, inside T_7.
    let mut prev = Tower128::ONE;
    for k in 0..7 {
        let x = Tower128::generator(k);
        assert_eq!(x * x + prev * x + Tower128::ONE, Tower128::ZERO, "X_{k}");
        // X_k is not in T_k (it is not fixed by the 2^(2^k)-power Frobenius).
        assert_ne!(
            x.pow(&[1u64 << (1u64 << k).min(63)]),
            x,
            "X_{k} outside T_{k}"
        );
        prev = x;
    }
    // The same relations in the small types.
    assert_eq!(Tower2(2) * Tower2(2), Tower2(3));
    assert_eq!(Tower4(4) * Tower4(4), Tower4(0b1001));
    assert_eq!(Tower8(0x10) * Tower8(0x10), Tower8(0x41));
    assert_eq!(Tower16(0x100) * Tower16(0x100), Tower16(0x1001));
}

#[test]
fn products_match_the_definition() {
    let mut rng = StdRng::seed_from_u64(7);
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            assert_eq!(
                u128::from((Tower8(a) * Tower8(b)).0),
                reference_mul(a.into(), b.into(), 8)
            );
        }
    }
    for _ in 0..200 {
        let (a, b): (u128, u128) = (rng.random(), rng.random());
        assert_eq!((Tower128(a) * Tower128(b)).0, reference_mul(a, b, 128));
        let (a, b) = (a as u32, b as u32);
        assert_eq!(
            u128::from((Tower32(a) * Tower32(b)).0),
            reference_mul(a.into(), b.into(), 32)
        );
    }
}

#[test]
fn subfields_are_closed_and_consistent() {
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..1000 {
        let (a, b): (u64, u64) = (rng.random(), rng.random());
        let wide = Tower128::from(Tower64(a)) * Tower128::from(Tower64(b));
        assert_eq!(wide, Tower128::from(Tower64(a) * Tower64(b)));
        let inv = Tower64(a).inverse().map(Tower128::from);
        assert_eq!(inv, Tower128::from(Tower64(a)).inverse());
    }
}

#[test]
fn tower8_inverse_and_square_exhaustive() {
    for a in 0..=255u8 {
        let x = Tower8(a);
        assert_eq!(PackedField::square(&x), x * x);
        if a != 0 {
            assert_eq!(x * x.invert_or_zero(), Tower8::ONE);
        }
    }
    assert_eq!(Tower8::GENERATOR.pow(&[255]), Tower8::ONE);
    assert_ne!(Tower8::GENERATOR.pow(&[85]), Tower8::ONE);
    assert_ne!(Tower8::GENERATOR.pow(&[51]), Tower8::ONE);
    assert_ne!(Tower8::GENERATOR.pow(&[15]), Tower8::ONE);
}

#[test]
fn frobenius_fixes_each_level() {
    let mut rng = StdRng::seed_from_u64(3);
    let a = Tower128(rng.random());
    let mut s = a;
    for _ in 0..128 {
        s = PackedField::square(&s);
    }
    assert_eq!(s, a, "a^(2^128) = a");
    let b = Tower16(rng.random());
    assert_eq!(b.pow(&[1 << 16]), b);
}

#[test]
fn base_coefficients_are_chunks() {
    let v = Tower128(0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100);
    let mut c = [Tower8::ZERO; 16];
    v.to_base_coeffs(&mut c);
    for (i, ci) in c.iter().enumerate() {
        assert_eq!(ci.0 as usize, i);
    }
    assert_eq!(
        <Tower128 as ExtensionField<Tower8>>::basis(1),
        Tower128(1 << 8)
    );
    assert_eq!(Tower128::new(u128::MAX).0, u128::MAX);
    assert_eq!(Tower1::read_bytes(&[2]), None);
    assert_eq!(Tower4::read_bytes(&[0x10]), None);
}
