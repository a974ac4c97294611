//! # flockwork-field
//!
//! The algebraic vocabulary every other flockwork crate is written against. It holds traits
//! only; the fields themselves live in `flockwork-field-binary` (GF(2^128) in GHASH form,
//! GF(2^8), binary towers, GF(2^256)) and `flockwork-field-prime` (ark-ff prime fields and a
//! specialised Goldilocks backend).
//!
//! | trait | what it promises |
//! |---|---|
//! | [`Field`] | a finite field: arithmetic, `ZERO`/`ONE`, inversion, canonical bytes, uniform sampling |
//! | [`PackedField`] | `WIDTH` elements of one field processed together (SIMD); every field is one of width 1 |
//! | [`ExtensionField`] | a field `E ⊇ B` of degree `DEGREE` over `B`, with the cheap `E × B` product |
//! | [`BinaryField`] | a field of characteristic two, GF(2^`BITS`) |
//! | [`PrimeField`] | a prime field GF(p), with integer conversions and two-adic roots of unity |
//!
//! Beside the traits, modules of helpers every layer above may use:
//!
//! | module | contents |
//! |---|---|
//! | [`par`] | the provers' parallel loops (rayon with the `parallel` feature, in order without) and their tuned thresholds |
//! | [`codec`](mod@codec) | canonical bytes of statement values ([`Codec`]: integers, arrays, vectors, tuples, field elements, structs by `codec!`), read strictly |
//! | [`transpose`] | bit-matrix transposes (64×64, `W` interleaved 64×64, 128×128) between instance-major and bit-sliced words |
//!
//! Binary fields do **not** implement an odd-characteristic API: there is no Legendre symbol,
//! square root or `BasePrimeField` in [`Field`], so GF(2^128) never has to fake one.
//!
//! ## Conventions
//!
//! * Canonical bytes are little-endian and exactly [`Field::NUM_BYTES`] long; decoding rejects
//!   non-canonical encodings (a prime-field integer ≥ p, a wrong length).
//! * [`Field::from_uniform_bytes`] maps [`Field::UNIFORM_BYTES`] uniformly random bytes to a
//!   field element whose distribution is within 2^-128 of uniform (prime fields read 16 bytes
//!   more than they need and reduce; binary fields read exactly their width).
//! * [`Field::from_index`] enumerates distinct elements `0, 1, 2, …`: integers in a prime
//!   field, bit patterns in a binary field. Univariate round polynomials are evaluated on
//!   these points, which are distinct in any characteristic (unlike `1 + 1`).
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod codec;
mod field;
mod ops;
mod packed;
pub mod par;
pub mod transpose;

pub use codec::Codec;
pub use field::{BinaryField, ExtensionField, Field, PrimeField};
pub use packed::PackedField;
