//! # flockwork-field-binary
//!
//! Fields of characteristic two, hand-written because no maintained crate provides them
//! with the layout flockwork needs.
//!
//! | module | field |
//! |---|---|
//! | [`ghash`] | GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1), bit `i` = coefficient of `x^i` (not bit-reflected); CLMUL/PMULL SIMD with runtime detection and a portable twin |
//! | [`arch`] | the carry-less multiplication kernels per target, behind one dispatch |
#![cfg_attr(not(feature = "std"), no_std)]

pub mod arch;
pub mod ghash;

pub use ghash::Ghash128;
