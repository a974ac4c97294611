//! Conformance suites for [`Field`], [`PackedField`] and [`ExtensionField`].

use flockwork_field::{ExtensionField, Field, PackedField};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Number of proptest cases per property.
pub const CASES: u32 = 256;

/// A proptest strategy producing field elements: uniform ones most of the time and the edge
/// values `0`, `1`, `-1`, `from_index(2)`, `from_index(3)` the rest.
pub fn arb_field<F: Field>() -> impl Strategy<Value = F> {
    let uniform = proptest::collection::vec(any::<u8>(), F::UNIFORM_BYTES)
        .prop_map(|bytes| F::from_uniform_bytes(&bytes));
    let edge = prop_oneof![
        Just(F::ZERO),
        Just(F::ONE),
        Just(-F::ONE),
        Just(F::from_index(2)),
        Just(F::from_index(3)),
    ];
    prop_oneof![4 => uniform, 1 => edge]
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Checks the field axioms and every documented promise of [`Field`] for `F`.
///
/// # Panics
/// On the first violated property, with the failing inputs.
#[allow(clippy::op_ref)] // the by-reference operators are part of what is checked
pub fn check_field<F: Field>() {
    check_constants::<F>();
    let triple = (arb_field::<F>(), arb_field::<F>(), arb_field::<F>());
    runner()
        .run(&triple, |(a, b, c)| {
            prop_assert_eq!((a + b) + c, a + (b + c), "add associative");
            prop_assert_eq!(a + b, b + a, "add commutative");
            prop_assert_eq!((a * b) * c, a * (b * c), "mul associative");
            prop_assert_eq!(a * b, b * a, "mul commutative");
            prop_assert_eq!(a * (b + c), a * b + a * c, "distributive");
            prop_assert_eq!(a + F::ZERO, a, "additive identity");
            prop_assert_eq!(a * F::ONE, a, "multiplicative identity");
            prop_assert_eq!(a * F::ZERO, F::ZERO, "zero annihilates");
            prop_assert_eq!(a + (-a), F::ZERO, "additive inverse");
            prop_assert_eq!(a - b, a + (-b), "sub is add of negation");
            prop_assert_eq!((a - b) + b, a, "sub then add");
            prop_assert_eq!(PackedField::square(&a), a * a, "square");
            prop_assert_eq!(a.double(), a + a, "double");
            prop_assert_eq!(a + &b, a + b, "add by reference");
            prop_assert_eq!(a - &b, a - b, "sub by reference");
            prop_assert_eq!(a * &b, a * b, "mul by reference");
            let mut x = a;
            x += b;
            prop_assert_eq!(x, a + b, "add-assign");
            x -= b;
            prop_assert_eq!(x, a, "sub-assign");
            x *= b;
            prop_assert_eq!(x, a * b, "mul-assign");
            prop_assert_eq!([a, b, c].into_iter().sum::<F>(), a + b + c, "sum");
            prop_assert_eq!([a, b, c].iter().sum::<F>(), a + b + c, "sum of refs");
            prop_assert_eq!([a, b, c].into_iter().product::<F>(), a * b * c, "product");
            let mut v = [a, b, c, a + b, b * c, F::ONE, F::ZERO];
            F::scale_slice(&mut v, c);
            prop_assert_eq!(
                v,
                [a * c, b * c, c * c, (a + b) * c, b * c * c, c, F::ZERO],
                "scale_slice"
            );
            prop_assert_eq!(
                F::inner_product(&[a, b, c, F::ONE], &[c, a, b]),
                a * c + b * a + c * b,
                "inner_product"
            );
            prop_assert_eq!(a.is_zero(), a == F::ZERO, "is_zero");
            match a.inverse() {
                None => prop_assert!(a.is_zero(), "only zero lacks an inverse"),
                Some(inv) => prop_assert_eq!(a * inv, F::ONE, "inverse"),
            }
            prop_assert_eq!(a.pow(&[3]), a * a * a, "pow 3");
            prop_assert_eq!(
                a.pow(&[0, 1]),
                {
                    let mut s = a;
                    for _ in 0..64 {
                        s = PackedField::square(&s);
                    }
                    s
                },
                "pow 2^64"
            );
            if F::CHARACTERISTIC_TWO {
                prop_assert_eq!(a + a, F::ZERO, "characteristic two");
                prop_assert_eq!(-a, a, "negation is identity in characteristic two");
            }
            // Canonical bytes round-trip.
            let mut bytes = vec![0u8; F::NUM_BYTES];
            a.write_bytes(&mut bytes);
            prop_assert_eq!(F::read_bytes(&bytes), Some(a), "bytes round-trip");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("field law violated: {e}"));
}

fn check_constants<F: Field>() {
    assert_ne!(F::ZERO, F::ONE, "ZERO != ONE");
    assert_eq!(F::ZERO.inverse(), None, "zero has no inverse");
    assert_eq!(F::ONE.inverse(), Some(F::ONE), "one is its own inverse");
    assert_eq!(F::from_index(0), F::ZERO, "from_index(0) = ZERO");
    assert_eq!(F::from_index(1), F::ONE, "from_index(1) = ONE");
    assert_eq!(
        F::ONE + F::ONE == F::ZERO,
        F::CHARACTERISTIC_TWO,
        "CHARACTERISTIC_TWO matches 1 + 1 = 0"
    );
    assert!(F::ORDER_BITS >= 1, "ORDER_BITS");
    assert!(
        F::UNIFORM_BYTES * 8 >= F::ORDER_BITS as usize,
        "UNIFORM_BYTES covers the field"
    );
    // from_index is injective on small indices.
    let n = if F::ORDER_BITS >= 10 {
        1024
    } else {
        1u64 << F::ORDER_BITS
    };
    let points: Vec<F> = (0..n).map(F::from_index).collect();
    for (i, p) in points.iter().enumerate() {
        for q in &points[..i] {
            assert_ne!(p, q, "from_index not injective below {n}");
        }
    }
    // Wrong lengths are rejected, never panic.
    let bytes = vec![0u8; F::NUM_BYTES + 1];
    assert_eq!(F::read_bytes(&bytes), None, "overlong encoding accepted");
    assert_eq!(
        F::read_bytes(&bytes[..F::NUM_BYTES - 1]),
        None,
        "short encoding accepted"
    );
    assert_eq!(F::read_bytes(&[]), None, "empty encoding accepted");
    assert_eq!(
        F::read_bytes(&bytes[..F::NUM_BYTES]),
        Some(F::ZERO),
        "zero bytes"
    );
    // An all-0xff encoding is either the maximal element (round-trips) or rejected.
    let ones = vec![0xffu8; F::NUM_BYTES];
    if let Some(x) = F::read_bytes(&ones) {
        let mut back = vec![0u8; F::NUM_BYTES];
        x.write_bytes(&mut back);
        assert_eq!(back, ones, "non-canonical encoding accepted");
    }
    // Uniform sampling from all-zero and all-one bytes stays in the field.
    for fill in [0u8, 0xff, 0x5a] {
        let x = F::from_uniform_bytes(&vec![fill; F::UNIFORM_BYTES]);
        let mut back = vec![0u8; F::NUM_BYTES];
        x.write_bytes(&mut back);
        assert_eq!(
            F::read_bytes(&back),
            Some(x),
            "sampled element is canonical"
        );
    }
}

/// Checks that the packing `P` agrees with its scalar field lane by lane.
///
/// # Panics
/// On the first lane where a packed operation differs from the scalar one.
pub fn check_packed<P: PackedField>() {
    let lanes = proptest::collection::vec(arb_field::<P::Scalar>(), 2 * P::WIDTH + 1);
    runner()
        .run(&lanes, |v| {
            let (xs, rest) = v.split_at(P::WIDTH);
            let (ys, s) = rest.split_at(P::WIDTH);
            let s = s[0];
            let x = P::from_fn(|i| xs[i]);
            let y = P::from_fn(|i| ys[i]);
            for i in 0..P::WIDTH {
                prop_assert_eq!(x.get(i), xs[i], "from_fn/get");
                prop_assert_eq!((x + y).get(i), xs[i] + ys[i], "packed add, lane {}", i);
                prop_assert_eq!((x - y).get(i), xs[i] - ys[i], "packed sub, lane {}", i);
                prop_assert_eq!((x * y).get(i), xs[i] * ys[i], "packed mul, lane {}", i);
                prop_assert_eq!((-x).get(i), -xs[i], "packed neg, lane {}", i);
                prop_assert_eq!(
                    x.square().get(i),
                    xs[i] * xs[i],
                    "packed square, lane {}",
                    i
                );
                prop_assert_eq!(x.mul_scalar(s).get(i), xs[i] * s, "packed scalar mul");
                prop_assert_eq!(P::broadcast(s).get(i), s, "broadcast");
            }
            let mut z = x;
            z += y;
            z *= y;
            z -= x;
            for i in 0..P::WIDTH {
                prop_assert_eq!(z.get(i), (xs[i] + ys[i]) * ys[i] - xs[i], "assign ops");
            }
            let mut w = x;
            w.set(P::WIDTH - 1, s);
            prop_assert_eq!(w.get(P::WIDTH - 1), s, "set");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("packed field disagrees with its scalar field: {e}"));
}

/// Checks that `E` is an extension of `B` as promised by [`ExtensionField`].
///
/// # Panics
/// On the first violated property.
pub fn check_extension<E: ExtensionField<B>, B: Field>() {
    assert_eq!(E::basis(0), E::ONE, "basis(0) = ONE");
    assert_eq!(E::from(B::ONE), E::ONE, "embedding keeps ONE");
    assert_eq!(E::from(B::ZERO), E::ZERO, "embedding keeps ZERO");
    assert!(E::DEGREE >= 1);
    assert!(
        E::ORDER_BITS as usize >= B::ORDER_BITS as usize * E::DEGREE,
        "ORDER_BITS consistent with the degree"
    );
    let strat = (arb_field::<E>(), arb_field::<B>(), arb_field::<B>());
    runner()
        .run(&strat, |(e, a, b)| {
            prop_assert_eq!(
                E::from(a) * E::from(b),
                E::from(a * b),
                "embedding multiplicative"
            );
            prop_assert_eq!(
                E::from(a) + E::from(b),
                E::from(a + b),
                "embedding additive"
            );
            prop_assert_eq!(e * a, e * E::from(a), "E x B product");
            prop_assert_eq!(e + a, e + E::from(a), "E + B sum");
            let mut m = e;
            m *= a;
            prop_assert_eq!(m, e * E::from(a), "E x= B");
            let mut s = e;
            s += a;
            prop_assert_eq!(s, e + E::from(a), "E += B");
            let mut coeffs = vec![B::ZERO; E::DEGREE];
            e.to_base_coeffs(&mut coeffs);
            prop_assert_eq!(
                E::from_base_coeffs(&coeffs),
                e,
                "base coefficients round-trip"
            );
            // Coordinates are B-linear.
            let mut ca = vec![B::ZERO; E::DEGREE];
            (e * a).to_base_coeffs(&mut ca);
            for (x, y) in ca.iter().zip(&coeffs) {
                prop_assert_eq!(*x, *y * a, "coordinates are B-linear");
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("extension law violated: {e}"));
}
