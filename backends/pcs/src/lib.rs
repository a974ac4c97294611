//! # flockwork-pcs
//!
//! Polynomial commitment schemes behind [`flockwork_core::PolynomialCommitment`].
//!
//! | module | contents |
//! |---|---|
//! | [`merkle`] | Merkle trees over any [`digest::Digest`]: row leaves, leaf/node domain separation, de-duplicated multi-openings |
//! | [`multilevel`] | [`MultiLevel`]: the multi-level code + sumcheck engine, generic over its level-0 code ([`multilevel::LevelZeroCode`]) |
//! | [`ligerito`] | [`Ligerito`]: the engine with Reed–Solomon at every level, parameter selector and security report |
//! | [`fri`] | [`Fri`]: the FRI-based multilinear commitment (BaseFold / FRI-Binius) over any foldable code: [`FriBinius`] for binary fields, [`BaseFold`] for FFT-friendly prime fields |
//! | [`blaze`] | [`Blaze`]: the engine with an interleaved RAA code at level 0 (Blaze-style, XOR-only commit), parameter selector and security report |
//! | [`commitment`] | [`Commitment`]: the shipped GF(2^128) schemes as one value, chosen by [`PcsKind`] and sized by one constructor |
//! | [`ring_switch`] | [`ring_switch::RingSwitched`]: Boolean polynomials through any dense GF(2^128) commitment (Diamond–Posen ring-switching) |
//! | [`security`] | the proximity regimes, per-query and per-fold soundness formulas, [`security::SecurityReport`] |
//! | [`conformance`] | the conformance suite every commitment runs: honest batches accept; tampered claims and proofs reject, never panic |
//!
//! ## Using a commitment
//!
//! `commit` never touches the transcript; the caller sends or absorbs the commitment, then
//! `open` proves a batch of [`flockwork_core::Claim`]s and `verify` reads the same bytes back
//! (the proof is the transcript). [`conformance::check_pcs`] is the test every scheme passes.
//!
//! ## Example
//!
//! ```
//! use flockwork_core::{Claim, MultilinearPoly, PolynomialCommitment};
//! use flockwork_field::Field;
//! use flockwork_field_binary::Ghash128;
//! use flockwork_pcs::{Ligerito, Preset, Regime};
//! use flockwork_transcript::{
//!     DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
//!     VerifierTranscript,
//! };
//!
//! // A polynomial in 10 variables, committed with the fast preset at 100 bits.
//! let pcs = Ligerito::<Ghash128, sha2::Sha256>::with_preset(
//!     10, 100, Preset::Fast, Regime::Johnson { eta: 0.02 },
//! ).unwrap();
//! let evals: Vec<Ghash128> = (0..1024).map(|i| Ghash128::from_index(i * i + 1)).collect();
//! let (commitment, data) = pcs.commit(&evals);
//!
//! let point: Vec<Ghash128> = (0..10).map(|i| Ghash128::from_index(1000 + i)).collect();
//! let value = MultilinearPoly::new(evals).evaluate(&point);
//! let claims = [Claim::evaluation(point, value)];
//!
//! let domain = DomainSeparator::new("example/ligerito", b"");
//! let mut prover = Sha256ProverTranscript::new(domain);
//! pcs.send_commitment("commitment", &commitment, &mut prover);
//! pcs.open(&data, &claims, &mut prover);
//! let proof = prover.into_proof();
//!
//! let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
//! let received = pcs.recv_commitment("commitment", &mut verifier).unwrap();
//! pcs.verify(&received, &claims, &mut verifier).unwrap();
//! verifier.finish().unwrap();
//! ```
//!
//! ## References
//!
//! * A. Novakovic, G. Angeris, *Ligerito: A Small and Concretely Fast Polynomial Commitment
//!   Scheme*, eprint 2025/1187.
//! * B. Diamond, J. Posen, *Polylogarithmic Proofs for Multilinears over Binary Towers*,
//!   eprint 2024/504, §3 (ring-switching); *Succinct Arguments over Towers of Binary
//!   Fields*, eprint 2023/1784 (packing, block-level encoding).
//! * S.-J. Lin, W.-H. Chung, Y. S. Han, *Novel Polynomial Basis and Its Application to
//!   Reed–Solomon Erasure Codes*, FOCS 2014 (the code, via `flockwork-codes`).
//! * R. Merkle, *A Digital Signature Based on a Conventional Encryption Function*, CRYPTO
//!   1987 (hash trees).
#![forbid(unsafe_code)]

pub mod blaze;
pub mod commitment;
pub mod conformance;
pub mod fri;
pub mod ligerito;
pub mod merkle;
pub mod multilevel;
pub mod params;
mod queries;
pub mod ring_switch;
pub mod security;
mod sumcheck;

pub use blaze::{Blaze, BlazeConfig, BlazeOptions};
pub use commitment::{Commitment, CommitmentData, PcsKind, Profile, SelectError};
pub use fri::{BaseFold, Fri, FriBinius, FriConfig};
pub use ligerito::{Ligerito, LigeritoConfig, Preset, Regime};
pub use multilevel::{MultiLevel, Schedule};
