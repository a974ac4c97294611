//! # flockwork-core
//!
//! The polynomial toolkit and the sumcheck engine every flockwork prover is built from.
//!
//! | module | contents |
//! |---|---|
//! | [`multilinear`] | [`MultilinearPoly`]: hypercube tables, LSB-first folding, (partial) evaluation, base-to-extension folds |
//! | [`eq`] | [`eq_eval`], [`eq_table`], the split table [`SplitEq`] (`eq = eq_lo ⊗ eq_hi`) and the block passes [`eq_inner_product`], [`add_scaled_eq`] |
//! | [`univariate`] | [`UnivariatePoly`]: Horner evaluation, interpolation on `from_index(0..)`, the point at infinity |
//! | [`sumcheck`] | generic prover ([`SumcheckProver`], [`prove`]) and verifier ([`verify`]) for `Σ [eq·] Π P_j`, with Gruen's eq-factoring; [`sumcheck::product`], the slice kernel of every two-table (degree-2) sumcheck |
//! | [`pcs`] | the [`PolynomialCommitment`] trait and its claims ([`Claim`], [`Weight`]) |
//! | [`layered`] | the [`LayeredRelation`](layered::LayeredRelation) trait: `S_l = M_l · T_l(S_{l−1})` with lane maps ([`LaneMap`](layered::LaneMap)), MDS-folded weights and native kernels, for GKR; [`ChangeOfBasis`](layered::ChangeOfBasis), the same relation over an isomorphic field |
//! | [`boolean_layered`] | Boolean layered relations for GKR over binary fields: layers of an F2-linear map and one quadratic gate `L0 ⊕ (L1 ∧ L2)` per output bit ([`BooleanLayersBuilder`](boolean_layered::BooleanLayersBuilder), [`BooleanLayered`](boolean_layered::BooleanLayered), [`BooleanLayeredRelation`](boolean_layered::BooleanLayeredRelation)), packed (bit-sliced) evaluation of every layer |
//! | [`relation`] | the [`Relation`] trait (a computation, its native evaluation and known answers), the relation-typed [`Batcher`] and [`Statement`](relation::Statement), and the encodings for GKR: [`LayeredEncoding`], [`BooleanLayeredEncoding`] (GKR on packed bits); the batch-R1CS encoding of a relation, `CircuitEncoding`, is `flockwork-circuit`'s |
//! | [`VerifyError`] | why a verifier rejected |
//!
//! ## Conventions
//!
//! * Bit `i` of a hypercube index is variable `i`; variables are bound least significant
//!   first.
//! * Univariate round polynomials are evaluated on `F::from_index(k)`, distinct in every
//!   characteristic, plus the point at infinity (the leading coefficient).
//! * Provers may panic on programmer errors (documented under `# Panics`); verifiers return
//!   [`VerifyError`] for any proof bytes.
//! * Feature `parallel` (default) runs prover loops on rayon; without it (and without `std`)
//!   the crate is `no_std` + `alloc`.
//!
//! ## Example
//!
//! ```
//! use flockwork_core::{MultilinearPoly, prove, verify};
//! use flockwork_field::Field;
//! use flockwork_field_binary::Ghash128;
//! use flockwork_transcript::{
//!     DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
//!     VerifierTranscript,
//! };
//!
//! // Σ_x eq(r, x)·a(x)·b(x) over 3 variables.
//! let field = |v: &[u64]| v.iter().map(|&i| Ghash128::from_index(i)).collect::<Vec<_>>();
//! let a = MultilinearPoly::new(field(&[1, 2, 3, 4, 5, 6, 7, 8]));
//! let b = MultilinearPoly::new(field(&[8, 7, 6, 5, 4, 3, 2, 1]));
//! let r = field(&[11, 12, 13]);
//! let claim: Ghash128 = flockwork_core::eq_table(&r)
//!     .iter()
//!     .zip(a.evals().iter().zip(b.evals()))
//!     .map(|(&w, (&x, &y))| w * x * y)
//!     .sum();
//!
//! let domain = DomainSeparator::new("example/sumcheck", b"");
//! let mut prover = Sha256ProverTranscript::new(domain);
//! let output = prove(vec![a.clone(), b.clone()], Some(&r), claim, &mut prover);
//! let proof = prover.into_proof();
//!
//! let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
//! let reduced = verify(3, 2, claim, Some(&r), &mut verifier).unwrap();
//! verifier.finish().unwrap();
//! // The caller checks the reduced claim with evaluations it trusts (here: computed directly).
//! let evals = [a.evaluate(&reduced.point), b.evaluate(&reduced.point)];
//! assert_eq!(evals.to_vec(), output.final_evals);
//! reduced.check_evals(&evals).unwrap();
//! ```
//!
//! ## References
//!
//! * J. Thaler, *Proofs, Arguments, and Zero-Knowledge* (2022), §3.5 (multilinear
//!   extensions), §4.1 (sumcheck).
//! * A. Gruen, *Some Improvements for the PIOP for ZeroCheck*, eprint 2024/108, §3
//!   (eq-factoring of round polynomials).
//! * Q. Dao, J. Thaler, *More Optimizations to Sum-Check Proving*, eprint 2024/1210 (split-eq).
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod boolean_layered;
pub mod eq;
mod error;
pub mod layered;
pub mod merkle;
pub mod multilinear;
pub mod pcs;
pub mod regions;
pub mod relation;
pub mod soundness;
pub mod sumcheck;
pub mod univariate;

pub use eq::{SplitEq, add_scaled_eq, eq_eval, eq_inner_product, eq_table};
pub use error::VerifyError;
pub use flockwork_field::codec;
pub use flockwork_field::par::on_worker;
pub use multilinear::MultilinearPoly;
pub use pcs::{Claim, PolynomialCommitment, Weight};
pub use relation::{
    Batcher, BooleanLayeredEncoding, LayeredEncoding, Relation, StatementCodec, Unavailable,
};
pub use sumcheck::{SumcheckClaim, SumcheckOutput, SumcheckProver, prove, soundness_bits, verify};
pub use univariate::UnivariatePoly;
