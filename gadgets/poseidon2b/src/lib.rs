//! # flockwork-poseidon2b
//!
//! Poseidon2b (Grassi, Khovratovich, Schofnegger et al., "Poseidon2b: a binary field version
//! of Poseidon2", ePrint 2025/058; reference `Poseidon-Hash/Poseidon2b`, known-answer tests
//! `asanso/poseidon2b`), the official `n = 128` instances for `t = 4` and `t = 6`, over
//! GF(2^128) in the polynomial basis.
//!
//! | item | what it gives |
//! |---|---|
//! | [`Poseidon2b`] | the const-generic permutation `[F; T]`, `T ∈ {4, 6}`; `permute`, `permute_many` (the batch API, slice S-box kernels) |
//! | [`official_t4`], [`official_t6`] | the cached official instances over [`Ghash128`] |
//! | [`DynPoseidon2b`] | the runtime-width permutation (width 4 or 6 chosen at run time) on slices |
//! | [`relation`] | [`Poseidon2b`] over [`Ghash128`] as a `flockwork_core::Relation` (one state in, one out; known answers from the official vectors) |
//! | `layered` (feature `layered`, default) | `Poseidon2bRelation`: the `t = 4` permutation as a 66-layer `flockwork_core::layered::LayeredRelation` for GKR provers (`flockwork-gkr`), with its `Relation` and `LayeredEncoding`; the same relation in the tower basis |
//! | [`sponge`] | [`sponge::hash`] (rate `t − 2`, capacity 2) and frost-gkr's byte sponge / channel |
//! | [`transcript`] | [`Poseidon2bProverTranscript`] / [`Poseidon2bVerifierTranscript`]: a duplex-sponge Fiat–Shamir transcript (`t = 4`, rate 2, capacity 2) implementing `flockwork-transcript`'s traits; [`Poseidon2bSponge`], the same transcript as a `TranscriptScheme` |
//! | [`matrix`] | `MF`, `MP`: definitions, dense matrices, the fast kernels |
//! | [`constants`] | the TurboSHAKE256 round-constant procedure; frost-gkr's placeholder table |
//! | [`turboshake`] | TurboSHAKE256 (RFC 9861) on `keccak`'s Keccak-p[1600, 12] |
//! | [`frost_gkr_t4`] | frost-gkr's tower-basis variant (**not** Poseidon2b), for like-for-like comparisons |
//!
//! ```
//! use flockwork_poseidon2b::{DynPoseidon2b, Ghash128, official_t4};
//!
//! let perm = official_t4(); // constants generated with TurboSHAKE256 at first use, then cached
//! let out = perm.permutation([0, 1, 2, 3].map(Ghash128::new));
//! assert_eq!(out[0].to_bits(), 0x8f7655abdb748e34e248218d828e976e); // the spec's check value
//!
//! let mut batch = vec![[Ghash128::new(7); 4]; 1000];
//! perm.permute_many(&mut batch); // the batch API
//! assert_eq!(batch[999], perm.permutation([Ghash128::new(7); 4]));
//!
//! let digest = perm.hash(&[Ghash128::new(1), Ghash128::new(2)], 2); // rate 2, capacity 2
//! assert_eq!(digest, DynPoseidon2b::official(4).unwrap().hash(&[Ghash128::new(1), Ghash128::new(2)], 2));
//! ```
//!
//! ## The field
//!
//! `GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1)` in the polynomial basis, bit `i` of the
//! 128-bit integer = coefficient of `x^i` (the GCM polynomial *without* GCM's bit reflection).
//! This is exactly the representation of [`Ghash128`] from `flockwork-field-binary` (its
//! module docs say so, and `tests/field.rs` checks `x · x^127 = x^7 + x^2 + x + 1`, i.e.
//! `0x87`), so the official instances use it directly: CLMUL/VPCLMULQDQ products with
//! run-time dispatch, and a 4-lane packing for the batch API.
//!
//! ## The permutation (ePrint 2025/058; same structure as Poseidon2, eprint 2023/323 §3)
//!
//! S-box `v ↦ v^7` (a permutation since `gcd(7, 2^128 − 1) = 1`), `R_F = 8` full rounds
//! (4 + 4) around `R_P = 58` partial rounds, 66 rounds in all:
//!
//! ```text
//! s ← MF · s                                             (initial linear layer)
//! for r in 0..66:
//!     if r < 4 or r ≥ 62:  s_i ← (s_i + rc[r][i])^7 for all i;  s ← MF · s   (full)
//!     else:                s_0 ← (s_0 + rc[r][0])^7;            s ← MP · s   (partial)
//! output s                                               (no feed-forward)
//! ```
//!
//! `MF` and `MP` are in [`matrix`]; the constants in [`constants`].
//!
//! ## The frost-gkr variant
//!
//! `ignotusnemo/frost-gkr` runs the same schedule with the same `MF`/`MP` integers, but reads
//! them — and placeholder round constants `0..=7` — in an AES-based tower basis
//! ([`AesTower128`]: GF(2^8) mod `0x11B`, then `X^2 + X + τ_k`, `τ_8 = 0x20`,
//! `τ_2k = τ_k·X_k`). Its outputs match neither the official vectors nor Binius; it is here
//! ([`frost_gkr_t4`], [`Instance::FrostGkr`]) only to compare like-for-like with frost-gkr.
//!
//! ## Features
//!
//! `std` (default) only forwards to the field backend (run-time CPU detection); without it
//! the crate is `no_std` + `alloc`. `layered` (default; implies `std`, which the tower-basis
//! image needs) adds the layered relation (`Poseidon2bRelation`, module `layered`) and its
//! one extra dependency, `sha2` (the relation's id); it depends on no proof backend, so a GKR
//! engine proves it without the gadget depending on the engine. `default-features = false,
//! features = ["std"]` gives the permutation alone.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod constants;
mod error;
mod field;
#[cfg(feature = "layered")]
pub mod layered;
pub mod matrix;
mod permutation;
pub mod relation;
pub mod sponge;
pub mod transcript;
pub mod turboshake;

pub use error::Poseidon2bError;
pub use field::{Poseidon2bField, Poseidon2bLane, ghash_mul_monomial, sbox};
pub use flockwork_field_binary::{AesTower128, Ghash128};
#[cfg(feature = "layered")]
pub use layered::Poseidon2bRelation;
pub use permutation::{
    BATCH_BLOCK, BATCH_MIN, DynPoseidon2b, Instance, Poseidon2b, frost_gkr_t4, official_t4,
    official_t6,
};
pub use transcript::{Poseidon2bProverTranscript, Poseidon2bSponge, Poseidon2bVerifierTranscript};

/// The S-box exponent `d`.
pub const ALPHA: u64 = 7;

/// Full rounds before (and after) the partial rounds: `R_F / 2`.
pub const ROUNDS_F_HALF: usize = 4;

/// Full rounds `R_F`.
pub const ROUNDS_F: usize = 2 * ROUNDS_F_HALF;

/// Partial rounds `R_P`.
pub const ROUNDS_P: usize = 58;

/// All rounds `R_F + R_P`.
pub const ROUNDS: usize = ROUNDS_F + ROUNDS_P;

/// Whether round `r ∈ 0..66` is a full round (`r < 4` or `r ≥ 62`).
#[must_use]
pub const fn is_full_round(r: usize) -> bool {
    r < ROUNDS_F_HALF || r >= ROUNDS_F_HALF + ROUNDS_P
}
