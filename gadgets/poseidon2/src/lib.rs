//! # flockwork-poseidon2
//!
//! Poseidon2 (Grassi, Khovratovich, Schofnegger, eprint 2023/323) over prime fields,
//! faithful to the HorizenLabs reference implementation and parameter script.
//!
//! | module / item | what it gives |
//! |---|---|
//! | [`Poseidon2`] | the runtime-configured permutation: one type for every width and instance |
//! | [`Poseidon2Fixed`] | the const-generic permutation: stack state `[F; T]`, unrolled rounds, a batch API |
//! | [`instances`] | cached reference instances: BN254, BLS12-381, Goldilocks, BabyBear, Pallas, Vesta |
//! | [`plonky3`] | the Plonky3-convention instances ([`Convention::Plonky3`]): Goldilocks t = 8, 12, 16, 20; BabyBear t = 16, 24 |
//! | [`grain`] | the Grain-LFSR constant generator with the minimal-polynomial check, and [`rounds::round_numbers`] |
//! | [`hash`] | sponge, 2-to-1 compression, byte API |
//! | [`matrix`] | the linear layers as kernels and as dense matrices |
//! | [`relation`] | [`Poseidon2`] as a `flockwork_core::Relation` (one state in, one out; known answers from the HorizenLabs and `taceo-poseidon2` vectors) |
//! | `layered` (feature `layered`, default) | `Poseidon2Relation`: an instance as a `flockwork_core::layered::LayeredRelation` (`R_F + R_P` layers) for GKR provers (`flockwork-gkr`), with its `Relation` and `LayeredEncoding` |
//!
//! ## The permutation (eprint 2023/323, §3)
//!
//! A state `x ∈ F^t` goes through an initial linear layer `x ← M_E·x`, then `R_F/2` full
//! rounds (`x_i ← (x_i + c_{r,i})^d` for every `i`, then `M_E`), `R_P` partial rounds
//! (`x_0 ← (x_0 + c_r)^d`, then `M_I`) and `R_F/2` full rounds again. `d` is the smallest
//! integer `≥ 3` coprime to `p − 1`. `M_E` is `circ(2,1)`, `circ(2,1,1)` or built from the
//! 4×4 matrix `M4` (§5.1); `M_I = J + diag(μ − 1)` (§5.2).
//!
//! ## Features
//!
//! `std` (default) only forwards to the field backends; without it the crate is `no_std` +
//! `alloc`. `layered` (default) adds the layered relation (`Poseidon2Relation`, module
//! `layered`) and its one extra dependency, `sha2` (the relation's id); it stays `no_std` and
//! depends on no proof backend. `default-features = false, features = ["std"]` gives the
//! permutation alone.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod data;
mod error;
mod field;
mod fixed;
mod goldilocks;
pub mod grain;
pub mod hash;
pub mod instances;
#[cfg(feature = "layered")]
pub mod layered;
pub mod matrix;
pub mod minpoly;
mod params;
mod permutation;
pub mod plonky3;
pub mod relation;
pub mod rounds;

pub use error::Poseidon2Error;
pub use field::{Poseidon2Field, sbox};
pub use fixed::Poseidon2Fixed;
#[cfg(feature = "layered")]
pub use layered::Poseidon2Relation;
pub use params::{
    Convention, Poseidon2, Poseidon2Params, fixed_internal_diag_m1, is_valid_sbox_degree,
    smallest_sbox_degree,
};
