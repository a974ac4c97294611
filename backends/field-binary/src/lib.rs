//! # flockwork-field-binary
//!
//! Fields of characteristic two, hand-written because no maintained crate provides them
//! with the layout flockwork needs.
//!
//! | module | field |
//! |---|---|
//! | [`ghash`] | GF(2^128) = GF(2)\[x\]/(x^128 + x^7 + x^2 + x + 1), bit `i` = coefficient of `x^i` (not bit-reflected); CLMUL/PMULL SIMD with runtime detection and a portable twin |
//! | [`arch`] | the carry-less multiplication kernels per target, behind one dispatch |
//! | [`aes`] | GF(2^8) = GF(2)\[y\]/(y^8 + y^4 + y^3 + y + 1) (AES, `0x11B`); the embedding `phi8` into GHASH, `Ghash128` over `Aes8` (degree 16), `ByteMulTable` |
//! | [`tower`] | the Wiedemann / Fan–Paar binary tower `T_0 = GF(2) ⊂ … ⊂ T_7 = GF(2^128)`, `X_k^2 + X_{k-1} X_k + 1` (Binius layout) |
//! | [`iso`] | the field isomorphism `Tower128 ↔ Ghash128` (needs `std`) |
//! | [`ext256`] | GF(2^256) = GHASH\[Y\]/(Y^2 + Y + x^121) |
//! | [`tower_wire`] | [`TowerWire128`], [`TowerWire256`]: tower arithmetic, GHASH wire format (bytes, sampling, indices) through [`iso`]; GF(2^256) = `T_7[Y]/(Y^2 + Y + φ⁻¹(x^121))` (needs `std`) |
//! | [`aes_tower`] | frost-gkr's AES tower `A_2k = A_k[X]/(X^2 + X + τ_k)` up to GF(2^128) |
//! | [`gf2`] | F2-linear algebra on 128-bit vectors (elimination, byte-table maps, trace) |
#![cfg_attr(not(feature = "std"), no_std)]

pub mod aes;
pub mod aes_tower;
pub mod arch;
mod byte_field;
pub mod ext256;
pub mod gf2;
pub mod ghash;
#[cfg(feature = "std")]
pub mod iso;
mod macros;
pub mod tower;
#[cfg(feature = "std")]
pub mod tower_wire;

pub use aes::{Aes8, ByteMulTable, phi8};
pub use aes_tower::AesTower128;
pub use ext256::Ghash256;
pub use ghash::Ghash128;
pub use tower::{Tower1, Tower2, Tower4, Tower8, Tower16, Tower32, Tower64, Tower128};
#[cfg(feature = "std")]
pub use tower_wire::{TowerWire128, TowerWire256};

flockwork_field::field_codec!(
    Ghash128,
    Ghash256,
    Aes8,
    AesTower128,
    TowerWire128,
    TowerWire256
);
