//! # flockwork-gkr
//!
//! GKR for many instances of one layered relation
//! ([`LayeredRelation`](flockwork_core::layered::LayeredRelation)), with instances split
//! into regions of `2^{w_a}` rows each, proven in one transcript without padding every region
//! to the largest width. Construction and pitfalls: `notes/poseidon2b-gkr.md` §(b) and §(e)
//! (after the public construction note and its reference implementation, frost-gkr).
//!
//! | module / item | contents |
//! |---|---|
//! | [`walk`] | claims, transcript labels, batching weights `α^(t·a+i+1)`, compressed round polynomials |
//! | [`prove_walk`] ([`prover`]) | the prover of one walk: ragged rounds, Gruen eq-factoring, base-field first round, checkpointed layer tables, rayon over rows |
//! | [`verify_walk`] ([`verifier`]) | the verifier of one walk: scalar, sequential, never panics |
//! | [`lanes`] | round-polynomial kernels per lane (`x^(2^m−1)` in characteristic two, binomial otherwise) |
//! | [`statement`] | the public statement: per region the input layer `S_0` (held in the clear, digest absorbed; or known by a commitment only) and the stated outputs `S_L` (digest absorbed); the output points are drawn by the walk's transcript, never stated |
//! | [`opening`] | the layer-0 PCS path: every region's `S_0` in one polynomial committed with any [`PolynomialCommitment`](flockwork_core::PolynomialCommitment), terminal claims proved by its opening |
//! | [`batchers`] | [`Setup`] and its three strategies [`Independent`], [`Padded`], [`Ragged`] (a setup with its [`Variant`] fixed: `prove_batch`, `verify_batch`, `soundness_bits`) over the same statement; proof format; soundness |
//! | `D` of [`Setup`]`<R, E, D>` | the Fiat–Shamir transcript, a [`TranscriptScheme`](flockwork_transcript::TranscriptScheme) from `flockwork-transcript` — SHA-256 (default), BLAKE3 — or the algebraic `Poseidon2bSponge` from `flockwork-poseidon2b` |
//! | `R` of [`Setup`]`<R, E, D>` | any [`LayeredRelation`](flockwork_core::layered::LayeredRelation); the shipped ones live beside their permutations (feature `layered` of each gadget crate): `flockwork_poseidon2b::Poseidon2bRelation` (66 layers over GF(2^128); GHASH basis, or the tower basis via its [`ChangeOfBasis`](flockwork_core::layered::ChangeOfBasis)) and `flockwork_poseidon2::Poseidon2Relation` (any prime-field Poseidon2 instance). This crate depends on no gadget. |
//! | [`relation_batchers`] | [`LayeredBatcher`] and [`BooleanBatcher`]: core's [`Batcher<R>`](flockwork_core::Batcher) for any relation with a layered encoding (over the field it declares, any challenge field extending it) or a Boolean layered encoding, each strategy, public IO or committed IO over any [`ConfiguredCommitment`](flockwork_pcs::security::ConfiguredCommitment) (shipped or a user's); regions of the count's binary digits ([`binary_regions`]) |
//! | [`boolean`] | [`BooleanGkr`]: GKR over GF(2^128) for Boolean layered relations (Keccak-f), the prover on the bit-sliced trace; the three batchers of [`Variant`] over regions of unequal size; public IO, or inputs and outputs committed through ring-switching over any PCS with one opening |
//!
//! ## The protocol in one paragraph
//!
//! A statement says "these inputs (or the inputs this commitment binds) give these outputs
//! under the relation, every instance". The walk's transcript absorbs the relation, the
//! batcher, the widths, every region's input and output digests, and then draws one point
//! `z_a` per region; both sides compute `v_a = S_{L,a}(z_a)` from the stated outputs. These
//! output claims (one point per region, shared by the `t` lanes) are reduced layer by layer. At layer `l` one challenge `α` batches lanes and regions, the
//! matrix of the layer is folded into the weights (`cw = M_l^T w`), and one sumcheck over
//! `W = max_a w_a` variables, bound least significant bit first, proves
//! `Σ_a Σ_x eq(z_a, x_{<w_a}) χ_a(x_{≥w_a}) Σ_j cw_{a,j} T_{l,j}(S_{l−1,a}(x))`, a polynomial of
//! degree `deg_l + 1` per variable (8 for Poseidon2b's `x^7`). Round polynomials go over the
//! wire in monomial form without `c_1`. At the end of the layer the prover sends
//! `u_a = S_{l−1,a}(ρ_{<w_a})`; these become the next claims. After layer 1 the claims sit
//! on the committed layer `S_0` and are **discharged by direct multilinear evaluation of the
//! committed columns** ([`statement`]), or proved by opening a polynomial commitment to all
//! of them ([`opening`], the layer-0 PCS path).
//!
//! Challenges live in an extension `E` of the relation's field (`GF(2^256)` = [`Ghash256`]
//! over [`Ghash128`] for Poseidon2b); the ragged selector is `Π (1 − x_j)`, which is
//! `Π (1 + x_j)` in characteristic two, so one engine serves binary and prime fields.
//!
//! ## Representation boundary
//!
//! The prover computes in the CLMUL-friendly GHASH basis; [`Setup::verify_in_tower`] verifies
//! the same proof bytes with every verifier operation in the binary-tower basis
//! ([`TowerWire128`], [`TowerWire256`]: tower multiplication, GHASH wire format), after mapping
//! the relation (its [`ChangeOfBasis`](flockwork_core::layered::ChangeOfBasis) image, e.g.
//! `Poseidon2bRelation::to_tower`) and the statement ([`Statement::to_tower`]) through the
//! field isomorphism. A proof both accept has crossed two independent arithmetic
//! implementations (`batchers` module docs, "Representation boundary";
//! `tests/suite/tower_verifier.rs`; the facade's `gkr_tower_bench` binary times both verifiers
//! on the same proofs).
//!
//! ```
//! use flockwork_field::Field;
//! use flockwork_gkr::{Ghash128, Ghash256, Ragged, Statement, Variant};
//! use flockwork_poseidon2b::Poseidon2bRelation;
//!
//! let relation = Poseidon2bRelation::official();
//! let widths = vec![2, 0, 3];
//! let inputs: Vec<Vec<Ghash128>> = widths
//!     .iter()
//!     .map(|&w| (0..4u128 << w).map(Ghash128::new).collect())
//!     .collect();
//! // The statement: these inputs give these outputs (computed natively here).
//! let statement = Statement::of_inputs(&relation, &inputs);
//! let batcher = Ragged::<_, Ghash256>::new(relation, widths);
//! let proof = batcher.prove_batch(&inputs, &statement).unwrap();
//! batcher.verify_batch(&statement, &proof).unwrap();
//! // The same proof bytes, verified with tower-basis arithmetic.
//! batcher.0.verify_in_tower(Variant::Ragged, &statement, &proof).unwrap();
//! assert!(batcher.soundness_bits() > 240.0);
//! // Another output, here instance 0's, is a statement the proof does not prove.
//! let mut outputs = statement.outputs();
//! outputs[0][0] += Ghash128::ONE;
//! let other = Statement::public(batcher.0.relation(), &inputs, &outputs).unwrap();
//! assert!(batcher.verify_batch(&other, &proof).is_err());
//! ```
#![forbid(unsafe_code)]

pub mod batchers;
pub mod boolean;
mod error;
pub mod lanes;
pub mod opening;
pub mod prover;
pub mod relation_batchers;
pub mod statement;
pub mod verifier;
pub mod walk;

pub use batchers::{Independent, Padded, Ragged, Setup, Variant};
pub use boolean::{BooleanGkr, BooleanStatement};
pub use error::{GkrError, ProveError};
pub use flockwork_field_binary::{Ghash128, Ghash256, TowerWire128, TowerWire256};
pub use opening::InputLayout;
pub use prover::{ProverConfig, RegionInput, prove_walk};
pub use relation_batchers::{BooleanBatcher, LayeredBatcher, RelationBatcher, binary_regions};
pub use statement::{CommittedLayer, OutputLayer, RegionStatement, Statement};
pub use verifier::verify_walk;
pub use walk::RegionClaim;
