//! # flockwork-circuit
//!
//! The Boolean-circuit frontend of batch-R1CS: a hash is written once as a [`Gadget`] of AND
//! and XOR gates against the [`CircuitBuilder`] trait, on bits and on words
//! ([`WordBuilder`]), with a fixed [`IoLayout`] of its input and output regions; the crate
//! interprets it for statistics, evaluates it bit-sliced over many instances ([`Lanes`],
//! [`batch_witness`]) into the committed witness of the batch, and states the
//! [`CircuitEncoding`] of a relation (its circuit and the maps between typed values and the
//! circuit's input and output vectors).
//!
//! ## Its place in the layering
//!
//! `flockwork-field`, `flockwork-transcript` ← `flockwork-core` ← **`flockwork-circuit`** ←
//! gadgets (`flockwork-boolean`) and the batch-R1CS backend (`flockwork-r1cs`, which lowers a
//! gadget to its block R1CS and proves the batch) ← the `flockwork` facade, which re-exports
//! this crate as `flockwork::circuit`. It uses `flockwork-core` for the
//! [`Relation`](flockwork_core::Relation) trait its encoding extends, and `flockwork-field`
//! for the bit transposes ([`flockwork_field::transpose`]) and the parallel loops
//! ([`flockwork_field::par`]); the commitment side does not depend on it.
//!
//! | part | contents |
//! |---|---|
//! | (root) | [`CircuitBuilder`], [`Gadget`]; [`WordBuilder`] and the word helpers ([`rotl`], [`rotr`], [`shl`], [`shr`]); the adders ([`Adder`]: [`ripple_add`], [`kogge_stone_add`], [`brent_kung_add`], chosen with [`WordBuilder::add_with`], several words with [`WordBuilder::add_many`] after carry-save [`WordBuilder::compress_terms`]); [`IoLayout`] and its regions ([`IoSlot`], [`SlotId`], [`SlotKind`]) |
//! | interpreters | [`StatsCounter`] ([`CircuitStats`]), [`LaneEvaluator`] ([`Lanes`]), [`Allocator`] (the positions every interpreter shares) |
//! | witnesses | [`BatchWitness`], [`batch_witness`], [`evaluate`]; [`lanes_of_blocks`] (instance blocks to bit-sliced lanes); [`Wide`] (several instances per block) |
//! | [`encoding`] | [`CircuitEncoding`] and [`check_circuit_encoding`] |
//! | [`layers`] | the compiler of any gadget into Boolean layers for the Boolean GKR ([`layers::compile_layers`]), [`layers::CompiledLayers`] (every circuit encoding also a `BooleanLayeredEncoding`), [`layers::LayersShape`] |
//!
//! Feature `parallel` (default) builds batch witnesses on rayon's pool; without it the crate
//! is `no_std` + `alloc`.
//!
//! ## Interpreters
//!
//! A gadget is written once against the [`CircuitBuilder`] trait (the idea of Plonky3's
//! `Air<AB: AirBuilder>::eval` and of Binius64's circuit builders). The same code then runs
//! under several interpreters:
//!
//! | interpreter | `Wire` | produces |
//! |---|---|---|
//! | [`StatsCounter`] | `()` | [`CircuitStats`]: AND gates, committed bits, linear slots, `m0` |
//! | [`LaneEvaluator`] | [`Lanes<W>`](Lanes) (`64·W` instances, bit-sliced) | committed bits `z` (and the A/B sides) |
//! | `R1csLowering` (`flockwork-r1cs`) | a node of the XOR graph | the block R1CS `A0 z ∘ B0 z = z` with forward and backward walks |
//! | the layer compiler ([`layers`]) | an affine form over inputs and ANDs | Boolean layers `S_l[j] = L0 ⊕ L1·L2`, one per AND level |
//!
//! and [`batch_witness`] runs the evaluator over many instances in parallel. [`Wide`] puts
//! several instances of a gadget into one block when that fills the block better.
//!
//! ## The encoding (Flock notes §2; Bünz–Rothblum–Wang, *Flock*, eprint 2026/1329)
//!
//! Only the results of AND gates and explicitly materialized linear values are committed.
//! With `C0 = I`, every committed position `j` of an instance block has exactly one row
//! `(A0 z)_j · (B0 z)_j = z_j` over F2, where each row of `A0`, `B0` is an XOR of committed
//! bits:
//!
//! * the constant wire `1 · 1 = 1` (it must be pinned to 1 by the prover's lincheck, since
//!   `0 · 0 = 0` satisfies the row too);
//! * a free input `x · 1 = x`;
//! * an AND gate `t = a ∧ b`: `a · b = t`;
//! * a materialized or output bit `s` of the linear value `ℓ`: `ℓ · 1 = s`;
//! * unused (padding) positions: `0 · 0 = 0`.
//!
//! XOR, NOT (`x ⊕ 1`, through the constant wire), rotations, shifts and permutations are
//! free: they only relabel or combine wires symbolically. Addition modulo `2^N` costs `N − 1`
//! ANDs through the auxiliary bits of [`WordBuilder::add`].
//!
//! ## Positions in an instance block
//!
//! `[IO regions (slot-aligned) | constant | internal bits in creation order | padding]`,
//! `2^m0` positions in all ([`IoLayout`]). Every interpreter shares one allocator, so they
//! agree bit for bit.
//!
//! ## Batch layout
//!
//! The batch witness of `K` instances is `z = z_0 ‖ z_1 ‖ … ‖ z_{K−1}`, one block of `2^m0`
//! bits per instance, packed little-endian into `u64` words (bit `p` of instance `k` is bit
//! `(k·2^m0 + p) mod 64` of word `(k·2^m0 + p) / 64`).

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

mod batch;
pub mod encoding;
mod eval;
mod lanes;
pub mod layers;
mod layout;
mod stats;
mod wide;
mod word;

use alloc::vec::Vec;

pub use batch::{BatchWitness, batch_witness, evaluate};
pub use encoding::{CircuitEncoding, MerkleIo, check_circuit_encoding, region_words};
pub use eval::{BATCH_LANE_WORDS, LaneEvaluator, Lanes};
pub use lanes::lanes_of_blocks;
pub use layout::{Allocator, AutoLayout, CommitCounts, IoLayout, IoSlot, SlotId, SlotKind};
pub use stats::{CircuitStats, StatsCounter};
pub use wide::Wide;
pub use word::{
    Adder, WordBuilder, brent_kung_add, kogge_stone_add, ripple_add, rotl, rotr, shl, shr,
};

/// The primitive operations a gadget is written against.
///
/// A `Wire` carries one bit of every instance the interpreter handles (a symbolic node, a
/// bit-sliced `u64`, nothing at all). Only [`CircuitBuilder::and`],
/// [`CircuitBuilder::materialize`] and the IO methods commit bits; everything else is free.
/// Word-level helpers (rotations, modular addition, ...) live in [`WordBuilder`], which every
/// builder implements.
pub trait CircuitBuilder {
    /// One bit of the circuit, as this interpreter represents it.
    type Wire: Copy;

    /// The constant 0 (the empty XOR; costs nothing and commits nothing).
    fn zero(&self) -> Self::Wire;

    /// The constant wire 1 (a committed position with row `1 · 1 = 1`).
    fn one(&self) -> Self::Wire;

    /// `a ⊕ b` (free).
    fn xor(&mut self, a: Self::Wire, b: Self::Wire) -> Self::Wire;

    /// `a ∧ b`: commits the result (row `a · b = t`).
    fn and(&mut self, a: Self::Wire, b: Self::Wire) -> Self::Wire;

    /// Commits the linear value `a` to a fresh position (row `a · 1 = s`) and returns the
    /// committed bit. Used to cap the density of the rows that read `a`.
    fn materialize(&mut self, a: Self::Wire) -> Self::Wire;

    /// The bits of input region `slot` (rows `x · 1 = x`).
    ///
    /// # Panics
    /// If the region is not an input or was read before.
    fn input(&mut self, slot: SlotId) -> Vec<Self::Wire>;

    /// Writes the output region `slot` (rows `ℓ · 1 = out`).
    ///
    /// # Panics
    /// If the region is not an output, was written before or has another length.
    fn output(&mut self, slot: SlotId, wires: &[Self::Wire]);

    /// `x + y mod 2^N` with `N − 1` ANDs ([`WordBuilder::add`], which forwards here).
    ///
    /// The default, [`ripple_add`], emits the gates one by one. An interpreter may override
    /// it (the bit-sliced evaluator stores the `N − 1` aux bits in one go), but must produce
    /// the same sum and commit the same aux bits in the same order.
    fn add_mod<const N: usize>(
        &mut self,
        x: &[Self::Wire; N],
        y: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        ripple_add(self, x, y)
    }

    /// Commits every bit of `a` in order ([`CircuitBuilder::materialize`] bit by bit, the
    /// default; [`WordBuilder::materialize_word`] forwards here). An interpreter may override
    /// it to store the `N` bits in one go, committing the same bits in the same order.
    fn materialize_bits<const N: usize>(&mut self, a: &[Self::Wire; N]) -> [Self::Wire; N] {
        core::array::from_fn(|i| self.materialize(a[i]))
    }

    /// `¬a = a ⊕ 1` (free, through the constant wire).
    fn not(&mut self, a: Self::Wire) -> Self::Wire {
        let one = self.one();
        self.xor(a, one)
    }
}

/// A fixed Boolean computation (one instance of the batch), written once against
/// [`CircuitBuilder`].
///
/// `synthesize` must be data-independent (the same sequence of builder calls for every
/// input) and must read every input region and write every output region exactly once.
pub trait Gadget: Sync {
    /// The IO regions of one instance.
    fn layout(&self) -> IoLayout;

    /// Emits the circuit.
    fn synthesize<B: CircuitBuilder>(&self, builder: &mut B);

    /// Constraint statistics ([`StatsCounter`]).
    fn stats(&self) -> CircuitStats
    where
        Self: Sized,
    {
        StatsCounter::run(self)
    }
}
