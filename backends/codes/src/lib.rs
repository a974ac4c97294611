//! # flockwork-codes
//!
//! Linear codes for flockwork's polynomial commitments.
//!
//! | module | contents |
//! |---|---|
//! | [`subspace`] | [`SubspaceBasis`]: the subspace polynomials `Ŵ_i` of Lin–Chung–Han and the novel polynomial basis `X_j` |
//! | [`ntt`] | [`AdditiveNtt`]: the additive NTT (novel basis → evaluations on an affine subspace), interleaved over rows of many columns, parallel |
//! | [`reed_solomon`] | [`ReedSolomon`]: interleaved Reed–Solomon encoding at rates `2^-R` (`R = 1..=6` and beyond), decoding of uncorrupted words, generator rows |
//! | [`radix2`] | [`Radix2Ntt`]: the radix-2 NTT over FFT-friendly prime fields, bit-reversed output, interleaved over rows |
//! | [`foldable`] | [`FoldableCode`]: the foldable Reed–Solomon codes of FRI-Binius ([`foldable::BinaryRs`]) and BaseFold ([`foldable::Radix2Rs`]) |
//! | [`kernels`] | [`NttField`]: the row kernels (`u += t·v`) with a batched GHASH path |
//! | [`buffer`] | [`buffer::zeroed`]: large buffers on transparent huge pages, zeroed by all threads and [`buffer::prefetch`] (the crate's only `unsafe`: two memory hints, `madvise` and `prefetcht0`) |
//! | [`raa`] | [`Raa`]: interleaved repeat–accumulate–accumulate codes over `F2` (XOR-only encoding, seeded permutations, `O(n)` transpose) |
//!
//! ## Conventions
//!
//! * The `F2`-basis of the evaluation domain is `β_c = from_bits(1 << c)`, so the domain point
//!   with index `j` is `x_j = from_bits(j)` and `U_i = span(β_0..β_{i−1})` is the set of
//!   elements with bits below `i` only.
//! * Messages are coefficients in the novel basis (non-systematic code): the Ligerito and
//!   FRI-Binius commitments use hypercube values directly as such coefficients.
//! * Data is interleaved: a "row" of `width` field elements is one symbol of the interleaved
//!   code; all butterflies act on whole rows, so every column is encoded at once.
//!
//! ## References
//!
//! * S.-J. Lin, W.-H. Chung, Y. S. Han, *Novel Polynomial Basis and Its Application to
//!   Reed–Solomon Erasure Codes*, FOCS 2014 (subspace polynomials, the novel basis, the
//!   `O(n log n)` transform).
//! * B. Diamond, J. Posen, *Polylogarithmic Proofs for Multilinears over Binary Towers*
//!   (FRI-Binius), eprint 2024/504 (the additive NTT and its domain notation, used here).
#![deny(unsafe_code)]

pub mod buffer;
pub mod foldable;
pub mod kernels;
pub mod ntt;
pub mod raa;
pub mod radix2;
pub mod reed_solomon;
pub mod subspace;

pub use foldable::{BinaryRs, FoldableCode, Radix2Rs};
pub use kernels::NttField;
pub use ntt::AdditiveNtt;
pub use raa::{RAA_PERMUTATIONS, Raa};
pub use radix2::Radix2Ntt;
pub use reed_solomon::ReedSolomon;
pub use subspace::SubspaceBasis;
