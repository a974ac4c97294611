//! A tour of the field backends: GHASH, the AES byte field and its embedding, the binary
//! tower and its isomorphism to GHASH, GF(2^256), and the prime fields.
//!
//! Run with `cargo run --release --example fields`.

use flockwork::binary::{arch::Backend, iso, phi8};
use flockwork::prelude::*;

fn main() {
    // ANCHOR: ghash
    // GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1); bit i of the u128 is the coefficient
    // of x^i. x^128 reduces to x^7 + x^2 + x + 1 = 0x87.
    let x = Ghash128::X;
    assert_eq!(x.pow(&[128]), Ghash128::new(0x87));
    let y = Ghash128::new(0x0123_4567_89ab_cdef_0011_2233_4455_6677);
    assert_eq!(y * y.inverse().expect("nonzero"), Ghash128::ONE);
    println!(
        "GHASH kernel chosen for this CPU: {}",
        Backend::active().name()
    );
    // ANCHOR_END: ghash

    // ANCHOR: packed
    // Four products per instruction stream: PackedGhash128x4 is GHASH's SIMD packing.
    type P = <Ghash128 as Field>::Packing;
    let a = P::from_fn(|i| Ghash128::from_index(i as u64 + 2));
    let b = P::broadcast(y);
    let c = a * b;
    for i in 0..P::WIDTH {
        assert_eq!(c.get(i), a.get(i) * y);
    }
    // ANCHOR_END: packed

    // ANCHOR: subfields
    // The AES field GF(2^8) embeds into GHASH through phi8, a field homomorphism.
    let (u, v) = (Aes8::new(0x57), Aes8::new(0x83));
    assert_eq!(u * v, Aes8::new(0xc1)); // FIPS-197 §4.2
    assert_eq!(phi8(u * v), phi8(u) * phi8(v));
    // Ghash128 is an extension of degree 16 over Aes8, with a cheap mixed product.
    assert_eq!(<Ghash128 as ExtensionField<Aes8>>::DEGREE, 16);
    assert_eq!(y * u, y * phi8(u));
    // ANCHOR_END: subfields

    // ANCHOR: tower
    // The binary tower and GHASH are two bases of the same field: the isomorphism preserves
    // sums and products.
    let s = Tower128::from_bits(0xdead_beef);
    let t = Tower128::from_bits(0x1234_5678_9abc_def0_1122_3344_5566_7788);
    assert_eq!(
        iso::tower_to_ghash(s * t),
        iso::tower_to_ghash(s) * iso::tower_to_ghash(t)
    );
    assert_eq!(iso::ghash_to_tower(iso::tower_to_ghash(t)), t);
    // GF(2^256) = GHASH[Y]/(Y^2 + Y + beta), for challenges with 2^-256 error terms.
    let w = Ghash256::new(y, x);
    assert_eq!(w * w.inverse().expect("nonzero"), Ghash256::ONE);
    // ANCHOR_END: tower

    // ANCHOR: prime
    // Prime fields come through one ark-ff adapter; Goldilocks also has a u64 backend.
    let p = Goldilocks::from_u64(u64::MAX); // 2^64 - 1 reduces mod p = 2^64 - 2^32 + 1
    assert_eq!(p, Goldilocks::from_u64((1 << 32) - 2));
    let q = Bn254Fr::from_u64(7);
    assert_eq!(q * q.inverse().expect("nonzero"), Bn254Fr::ONE);
    const { assert!(!Bn254Fr::CHARACTERISTIC_TWO && Ghash128::CHARACTERISTIC_TWO) };
    // ANCHOR_END: prime

    println!("all field checks passed");
}
