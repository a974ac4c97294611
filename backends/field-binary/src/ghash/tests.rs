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
