//! Engine batchers: prove many instances of one relation in one proof, in an engine's own
//! statement and witness types (the typed fast path beneath the relation-typed
//! [`Batcher`](crate::relation::Batcher)).
//!
//! A relation is the fixed computation (a Boolean circuit written as a
//! `Gadget` of `flockwork-circuit` for batch-R1CS; a layered relation for GKR). A batcher
//! is a *setup* for a number of instances of it: it knows the shapes, the commitment
//! parameters and the IO argument, and turns the instances' inputs into one proof about a
//! public statement (nothing, the endpoints of a chain, a Merkle root and its leaves, …).
//! Strategies that prove the same relation differently (independent, padded, ragged,
//! batch-R1CS) are different implementations of this trait, so one harness can compare them.

use alloc::vec::Vec;
use core::fmt::{Debug, Display};

/// Proves and verifies a batch of instances of one relation.
pub trait EngineBatcher {
    /// The public data a proof is about.
    type Statement;
    /// What the prover gets besides the statement (usually the instances' inputs).
    type Witness: ?Sized;
    /// Why the prover refused (inputs or a statement that do not fit the setup).
    type ProveError: Debug + Display;
    /// Why a proof was rejected.
    type VerifyError: Debug + Display;

    /// Number of instances of the setup.
    fn instances(&self) -> usize;

    /// Proves `statement` about the instances given by `witness`; returns the proof bytes.
    ///
    /// # Errors
    /// [`EngineBatcher::ProveError`] when the inputs do not fit the setup. A false statement is not
    /// an error: its proof fails verification.
    fn prove_batch(
        &self,
        witness: &Self::Witness,
        statement: &Self::Statement,
    ) -> Result<Vec<u8>, Self::ProveError>;

    /// Verifies proof bytes for `statement`; never panics, whatever the bytes.
    ///
    /// # Errors
    /// [`EngineBatcher::VerifyError`] naming the failed check.
    fn verify_batch(
        &self,
        statement: &Self::Statement,
        proof: &[u8],
    ) -> Result<(), Self::VerifyError>;

    /// Bits of soundness of the setup (computed from its parameters).
    fn soundness_bits(&self) -> f64;
}
