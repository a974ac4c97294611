//! Boolean layered relations: a bit state pushed through layers of one F2-linear map and one
//! quadratic gate per output bit, evaluated on bit-sliced (packed) instances. The shape a GKR
//! prover over a binary field walks for AND/XOR hashes (Keccak-f, and any circuit a gadget
//! author writes against [`BooleanLayersBuilder`]).
//!
//! ## Shape
//!
//! A state is a vector of bits. Layer `l = 1, …, L` maps the state `S_{l−1}` of
//! `w_{l−1}` bits to `S_l` of `w_l` bits, one **quadratic gate** per output bit:
//!
//! ```text
//! S_l[j] = L0_{l,j}(S_{l−1}) ⊕ ( L1_{l,j}(S_{l−1}) ∧ L2_{l,j}(S_{l−1}) ),
//! ```
//!
//! where every `Lk_{l,j}` is an **affine form** over F2 ([`AffineForm`]): the XOR of some
//! state bits plus an optional constant 1. The forms *are* the layer's F2-linear map (each is
//! one row of it, its constant the affine shift), and the gate ([`QuadraticGate`]) is the one
//! nonlinear step. A gate with no product is linear (degree 1). `S_0` is the input, `S_L` the
//! output. Keccak-f\[1600\] is 24 such layers of 1600 bits: θ, ρ and π are the forms (θ gives
//! each one 11 input bits), χ `a ⊕ (¬b ∧ c) = a ⊕ ((b ⊕ 1) ∧ c)` is the gate and ι's round
//! constant is the constant of `L0`.
//!
//! Every AND/XOR circuit has this form once it is cut into layers of AND depth one; a
//! general `L0 ⊕ L1·L2` (rather than AND alone) lets the linear part of a round ride along
//! with its nonlinear part, so a round is one layer.
//!
//! ## Why one quadratic gate per output bit: the sumcheck of a layer
//!
//! Embed F2 in a binary field `F` (GF(2^128)): XOR is `+`, AND is `·` on `{0, 1}`, the
//! constant is `1`. For `K = 2^k` instances let `S_{l,i}(x)` be the multilinear extension in
//! the instance index `x ∈ {0,1}^k` of bit `i` of layer `l`. Then, on the hypercube,
//! `S_{l,j}(x) = g_{l,j}(S_{l−1}(x))` with `g = L0 + L1·L2`, and a batch of claims with weights
//! `w_j` on the output bits at a point `z` is (Thaler, *Proofs, Arguments, and
//! Zero-Knowledge*, §4.6, the GKR protocol)
//!
//! ```text
//! Σ_j w_j S_{l,j}(z) = Σ_{x ∈ {0,1}^k} eq(z, x) · Σ_j w_j ( L0_j(S_{l−1}(x)) + L1_j(S_{l−1}(x)) · L2_j(S_{l−1}(x)) ).
//! ```
//!
//! Each `Lk_j(S_{l−1}(x))` is an affine combination of multilinear polynomials, hence
//! multilinear in `x`; their product has degree 2 in every variable, and with the `eq` factor
//! the summand has degree 3 per variable: every layer is a degree-3 sumcheck over `k`
//! variables (four values per round, three with the claimed sum), however many XORs its
//! forms hold. The verifier's last check of a layer is [`BooleanLayered::layer_term`] at the
//! reduced point. A gate with two ANDs would need degree 4 (or a second layer); gates of
//! the form `L0 ⊕ L1 ∧ L2` keep the degree at its minimum while every XOR stays free.
//!
//! With **packed** data (Hashcaster, L. Soukhanov, `hackmd.io/@levs57/SJ4fuZMD0`, and its
//! "boolcheck" write-up by T. Coratger, "Hashcaster — Part 3: boolcheck",
//! `hackmd.io/@tcoratger/Syedn5151e`) one GF(2^128) element holds one state bit of 128
//! instances, its coordinates `π_i` in a basis `b_0, …, b_127` over F2. XOR is still field
//! addition, but AND is coordinate-wise, `P ∧ Q = Σ_i b_i π_i(P) π_i(Q)`, and every
//! coordinate `π_i(P) = Tr(b_i^* P) = Σ_t (b_i^* P)^{2^t}` is F2-linear in the Frobenius
//! twists of `P` (`b^*` the dual basis). The gate stays quadratic, so the layer sumcheck
//! keeps degree 2 (3 with eq) over `k − 7` variables, which is what makes bit-slicing the
//! natural witness layout (Polyhedra's Binary GKR, `blog.polyhedra.network/binary-gkr`,
//! proves Keccak with the same per-round structure).
//!
//! ## Packed evaluation
//!
//! A [`PackedBits`] word (`u64`, `u128`) holds one state bit of 64 or 128 instances (bit `t`
//! of the word is instance `t` of the block), so one XOR or AND acts on a whole block. A
//! batch is stored **block-major**: block `b`'s state of `w` bits is `words[b·w .. (b+1)·w]`
//! ([`pack_instances`], [`unpack_instances`] convert from and to instance-major `u64`
//! words). [`BooleanLayered::trace_packed`] returns every layer (the GKR prover needs them
//! all), [`BooleanLayered::evaluate_packed`] only the output and
//! [`BooleanLayered::apply_layer_packed`] one layer; blocks run in parallel with the
//! `parallel` feature.
//!
//! Each layer is compiled once, when the description is built, into flat index arrays: a
//! straight-line XOR program computes each **distinct** linear part of the layer's forms
//! once (Keccak's χ reads every π output three times, so a round has 1600 linear parts, not
//! 4800), a part that differs in few bits from an earlier one starting from it (Keccak's five
//! θ outputs of one column differ in two bits); the gates then read three values each and
//! add their constants. [`BooleanLayered::apply_layer_reference`] evaluates the forms
//! directly, one instance of `bool`s at a time, and is what the packed path is tested
//! against.
//!
//! ## Writing a relation
//!
//! ```
//! use flockwork_core::boolean_layered::{BooleanLayersBuilder, pack_instances, unpack_instances};
//!
//! // A 3-bit toy: one round of `s'_i = s_i ⊕ (¬s_{i+1} ∧ s_{i+2})` (χ on a 3-bit row)
//! // after the rotation `s_i ← s_i ⊕ s_{i+1}`, then a linear layer with a constant.
//! let mut builder = BooleanLayersBuilder::new(3);
//! builder.layer(|l| {
//!     let mixed: Vec<_> = (0..3).map(|i| l.xor(&l.bit(i), &l.bit((i + 1) % 3))).collect();
//!     for i in 0..3 {
//!         let product = l.and(&l.not(&mixed[(i + 1) % 3]), &mixed[(i + 2) % 3]);
//!         l.output(product.xor(&mixed[i]));
//!     }
//! });
//! builder.layer(|l| {
//!     l.output(l.not(&l.bit(0)));
//!     l.output(l.xor_all((0..3).map(|i| l.bit(i))));
//! });
//! let relation = builder.build().unwrap();
//! assert_eq!((relation.num_layers(), relation.output_width(), relation.and_gates()), (2, 2, 3));
//!
//! // 200 instances (bits of instance k in word k), 128 per packed word.
//! let inputs: Vec<u64> = (0..200).map(|k| k % 8).collect();
//! let packed = pack_instances::<u128>(3, &inputs, 200);
//! let outputs = unpack_instances(2, &relation.evaluate_packed(&packed), 200);
//! for (k, &out) in outputs.iter().enumerate() {
//!     let bits: Vec<bool> = (0..3).map(|i| inputs[k] >> i & 1 == 1).collect();
//!     let expected = relation.evaluate_reference(&bits);
//!     assert_eq!(out, u64::from(expected[0]) | u64::from(expected[1]) << 1);
//! }
//! ```

mod builder;
mod compile;
mod form;
mod packed;

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;
use thiserror::Error;

pub use builder::{BooleanLayersBuilder, LayerBuilder};
use compile::CompiledLayer;
pub use compile::GateSlots;
use form::symmetric_difference;
pub use form::{AffineForm, BooleanLayer, QuadraticGate};
pub use packed::{PackedBits, bits_of_words, pack_instances, unpack_instances, words_of_bits};

use flockwork_field::par::for_each_init;

/// Why a Boolean layered description is malformed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BooleanLayeredError {
    /// The input state has no bits.
    #[error("the input state has no bits")]
    EmptyInput,
    /// There are no layers.
    #[error("a Boolean layered relation needs at least one layer")]
    NoLayers,
    /// A layer has no gates (no output bits).
    #[error("layer {layer} has no output bits")]
    EmptyLayer {
        /// The layer (1-based).
        layer: usize,
    },
    /// A form reads a bit the previous state does not have.
    #[error("layer {layer}, gate {gate} reads bit {bit} of a {width}-bit state")]
    BitOutOfRange {
        /// The layer (1-based).
        layer: usize,
        /// The gate (output bit) in the layer.
        gate: usize,
        /// The bit it reads.
        bit: usize,
        /// The width of the previous state.
        width: usize,
    },
    /// A state is wider than `u32` indices reach.
    #[error("layer {layer} has {width} bits, more than u32 indices reach")]
    TooWide {
        /// The layer (0 for the input).
        layer: usize,
        /// Its width.
        width: usize,
    },
}

/// A checked Boolean layered relation: input width, layers, and each layer compiled for
/// packed evaluation (module docs). Layers are numbered `1..=L`; layer `l` maps `S_{l−1}`
/// to `S_l`, and width `0` is the input's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanLayered {
    widths: Vec<usize>,
    layers: Vec<BooleanLayer>,
    compiled: Vec<CompiledLayer>,
}

impl BooleanLayered {
    /// Checks and compiles a description: inputs of `input_width` bits, then `layers` in
    /// order, each reading the previous one's output.
    ///
    /// # Errors
    /// [`BooleanLayeredError::EmptyInput`] for `input_width = 0`,
    /// [`BooleanLayeredError::NoLayers`], [`BooleanLayeredError::EmptyLayer`] for a layer
    /// without gates, [`BooleanLayeredError::BitOutOfRange`] for a form reading past the end
    /// of the previous state, [`BooleanLayeredError::TooWide`] for a state of more than
    /// `u32::MAX / 2` bits.
    pub fn new(input_width: usize, layers: Vec<BooleanLayer>) -> Result<Self, BooleanLayeredError> {
        if input_width == 0 {
            return Err(BooleanLayeredError::EmptyInput);
        }
        if layers.is_empty() {
            return Err(BooleanLayeredError::NoLayers);
        }
        let mut widths = Vec::with_capacity(layers.len() + 1);
        widths.push(input_width);
        for (index, layer) in layers.iter().enumerate() {
            let (number, width) = (index + 1, widths[index]);
            if width > (u32::MAX / 2) as usize {
                return Err(BooleanLayeredError::TooWide {
                    layer: index,
                    width,
                });
            }
            if layer.gates.is_empty() {
                return Err(BooleanLayeredError::EmptyLayer { layer: number });
            }
            for (gate, g) in layer.gates.iter().enumerate() {
                if let Some(bit) = g.max_bit().filter(|&b| b as usize >= width) {
                    return Err(BooleanLayeredError::BitOutOfRange {
                        layer: number,
                        gate,
                        bit: bit as usize,
                        width,
                    });
                }
            }
            widths.push(layer.width());
        }
        let last = widths.len() - 1;
        if widths[last] > (u32::MAX / 2) as usize {
            return Err(BooleanLayeredError::TooWide {
                layer: last,
                width: widths[last],
            });
        }
        let compiled = layers
            .iter()
            .zip(&widths)
            .map(|(layer, &width)| CompiledLayer::new(width, layer))
            .collect();
        Ok(Self {
            widths,
            layers,
            compiled,
        })
    }

    /// The number of layers `L`.
    #[must_use]
    pub fn num_layers(&self) -> usize {
        self.layers.len()
    }

    /// The width of `S_layer` in bits (`layer = 0` is the input).
    ///
    /// # Panics
    /// If `layer > L`.
    #[must_use]
    pub fn width(&self, layer: usize) -> usize {
        self.widths[layer]
    }

    /// The input width `w_0`.
    #[must_use]
    pub fn input_width(&self) -> usize {
        self.widths[0]
    }

    /// The output width `w_L`.
    #[must_use]
    pub fn output_width(&self) -> usize {
        self.widths[self.num_layers()]
    }

    /// Layer `layer ∈ 1..=L`.
    ///
    /// # Panics
    /// If `layer` is 0 or more than `L`.
    #[must_use]
    pub fn layer(&self, layer: usize) -> &BooleanLayer {
        assert!(layer >= 1, "layers are numbered from 1");
        &self.layers[layer - 1]
    }

    /// Gates with a product, over all layers.
    #[must_use]
    pub fn and_gates(&self) -> usize {
        self.layers.iter().map(BooleanLayer::and_gates).sum()
    }

    /// The degree of layer `layer` in the previous state (1 or 2); the layer's sumcheck
    /// has degree one more (module docs).
    #[must_use]
    pub fn layer_degree(&self, layer: usize) -> usize {
        self.layer(layer).degree()
    }

    /// The XOR operations one block of layer `layer` costs in the compiled program
    /// (operands after the first of every step); a measure of the linear map's cost.
    #[must_use]
    pub fn compiled_xors(&self, layer: usize) -> usize {
        assert!(layer >= 1, "layers are numbered from 1");
        self.compiled[layer - 1].xors()
    }

    /// The compiled forms of layer `layer ∈ 1..=L` (module docs, *Packed evaluation*), for
    /// provers that need the three forms of every gate rather than its output.
    ///
    /// # Panics
    /// If `layer` is 0 or more than `L`.
    #[must_use]
    pub fn forms(&self, layer: usize) -> LayerForms<'_> {
        assert!(layer >= 1, "layers are numbered from 1");
        LayerForms {
            compiled: &self.compiled[layer - 1],
        }
    }

    /// `Σ_j weights_j · (L0_j(state) + L1_j(state) · L2_j(state))` over the gates of layer
    /// `layer`, for a previous state embedded in a field of characteristic 2 (module docs):
    /// a weighted claim on the layer's outputs, as a function of the previous state, the
    /// verifier's final check of a layer's sumcheck.
    ///
    /// # Panics
    /// If `F` has odd characteristic (XOR is not addition there), or `weights` or `state`
    /// have the wrong length.
    #[must_use]
    pub fn layer_term<F: Field>(&self, layer: usize, weights: &[F], state: &[F]) -> F {
        assert!(
            F::CHARACTERISTIC_TWO,
            "Boolean layers embed in characteristic 2"
        );
        let gates = self.layer(layer).gates();
        assert_eq!(weights.len(), gates.len(), "one weight per output bit");
        assert_eq!(state.len(), self.width(layer - 1), "previous state width");
        gates
            .iter()
            .zip(weights)
            .map(|(g, &w)| w * g.eval_field(state))
            .sum()
    }

    /// Layer `layer` on one instance, from the description's forms (the reference the
    /// packed evaluation is tested against).
    ///
    /// # Panics
    /// If `state` does not have `w_{layer−1}` bits.
    #[must_use]
    pub fn apply_layer_reference(&self, layer: usize, state: &[bool]) -> Vec<bool> {
        assert_eq!(state.len(), self.width(layer - 1), "previous state width");
        self.layer(layer)
            .gates()
            .iter()
            .map(|g| g.eval(state))
            .collect()
    }

    /// Every state `S_0 = input, S_1, …, S_L` of one instance, from the description.
    ///
    /// # Panics
    /// If `input` does not have `w_0` bits.
    #[must_use]
    pub fn trace_reference(&self, input: &[bool]) -> Vec<Vec<bool>> {
        let mut states = vec![input.to_vec()];
        for layer in 1..=self.num_layers() {
            let next = self.apply_layer_reference(layer, &states[layer - 1]);
            states.push(next);
        }
        states
    }

    /// The output `S_L` of one instance, from the description.
    ///
    /// # Panics
    /// If `input` does not have `w_0` bits.
    #[must_use]
    pub fn evaluate_reference(&self, input: &[bool]) -> Vec<bool> {
        (1..=self.num_layers()).fold(input.to_vec(), |state, layer| {
            self.apply_layer_reference(layer, &state)
        })
    }

    /// Layer `layer` on packed blocks: `input` holds blocks of `w_{layer−1}` words
    /// (block-major, module docs), the result the same blocks of `w_layer` words.
    ///
    /// # Panics
    /// If `input.len()` is not a multiple of `w_{layer−1}`.
    #[must_use]
    pub fn apply_layer_packed<T: PackedBits>(&self, layer: usize, input: &[T]) -> Vec<T> {
        let (w_in, w_out) = (self.width(layer - 1), self.width(layer));
        let blocks = blocks_of(input.len(), w_in);
        let compiled = &self.compiled[layer - 1];
        let mut out = vec![T::ZERO; blocks * w_out];
        let items: Vec<_> = input
            .chunks_exact(w_in)
            .zip(out.chunks_exact_mut(w_out))
            .collect();
        for_each_init(items, Vec::new, |values, (state, next)| {
            compiled.run(state, next, values);
        });
        out
    }

    /// The outputs `S_L` of packed blocks of inputs (`input`: blocks of `w_0` words,
    /// block-major), every layer computed with the compiled program, blocks in parallel.
    ///
    /// # Panics
    /// If `input.len()` is not a multiple of `w_0`.
    #[must_use]
    pub fn evaluate_packed<T: PackedBits>(&self, input: &[T]) -> Vec<T> {
        let (w_in, w_out) = (self.input_width(), self.output_width());
        let blocks = blocks_of(input.len(), w_in);
        let widest = self.widths.iter().copied().max().unwrap_or(0);
        let mut out = vec![T::ZERO; blocks * w_out];
        let items: Vec<_> = input
            .chunks_exact(w_in)
            .zip(out.chunks_exact_mut(w_out))
            .collect();
        let scratch = || (Vec::new(), vec![T::ZERO; widest], vec![T::ZERO; widest]);
        for_each_init(items, scratch, |(values, a, b), (state, output)| {
            a[..w_in].copy_from_slice(state);
            let last = self.num_layers();
            for (index, compiled) in self.compiled.iter().enumerate() {
                let w = self.widths[index + 1];
                if index + 1 == last {
                    compiled.run(&a[..self.widths[index]], output, values);
                } else {
                    compiled.run(&a[..self.widths[index]], &mut b[..w], values);
                    core::mem::swap(a, b);
                }
            }
        });
        out
    }

    /// Every layer `S_0, …, S_L` of packed blocks of inputs (`input`: blocks of `w_0` words,
    /// block-major; `S_0` is a copy of it), blocks in parallel, each block through all
    /// layers while its states are in cache.
    ///
    /// # Panics
    /// If `input.len()` is not a multiple of `w_0`.
    #[must_use]
    pub fn trace_packed<T: PackedBits>(&self, input: &[T]) -> PackedTrace<T> {
        let blocks = blocks_of(input.len(), self.input_width());
        let mut layers: Vec<Vec<T>> = self
            .widths
            .iter()
            .map(|&w| vec![T::ZERO; blocks * w])
            .collect();
        layers[0].copy_from_slice(input);
        let mut items: Vec<Vec<&mut [T]>> = (0..blocks)
            .map(|_| Vec::with_capacity(self.widths.len()))
            .collect();
        for (layer, &w) in layers.iter_mut().zip(&self.widths) {
            for (item, chunk) in items.iter_mut().zip(layer.chunks_exact_mut(w)) {
                item.push(chunk);
            }
        }
        for_each_init(items, Vec::new, |values, mut states| {
            for (index, compiled) in self.compiled.iter().enumerate() {
                let (done, next) = states.split_at_mut(index + 1);
                compiled.run(done[index], next[0], values);
            }
        });
        PackedTrace {
            widths: self.widths.clone(),
            blocks,
            layers,
        }
    }
}

/// The compiled program of one layer ([`BooleanLayered::forms`]): the values of the
/// **distinct** linear parts of the layer's forms, computed once each by a straight-line
/// program of additions, and per gate the slots of its three forms.
///
/// Slots are numbered: slot 0 is the constant 0, slot `1 + i` bit `i` of the previous state,
/// the rest the program's steps. The value of form `Lk` of gate `j` is
/// `values[gate_slots()[j].slots[k]]` plus `1` if bit `k` of its `constants` is set. The
/// program only adds, so it evaluates the forms over any additive group in which the bits
/// embed: XOR on bit-sliced words, field addition on evaluations of the state's multilinear
/// extensions in a binary field (the GKR prover evaluates them at folded points).
#[derive(Clone, Copy, Debug)]
pub struct LayerForms<'a> {
    compiled: &'a CompiledLayer,
}

impl LayerForms<'_> {
    /// The number of value slots.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.compiled.slots()
    }

    /// Per gate (output bit) the slots and constants of its forms.
    #[must_use]
    pub fn gate_slots(&self) -> &[GateSlots] {
        self.compiled.gates()
    }

    /// Every slot's value on `state` (the previous state, one value per bit), `add` the
    /// group's addition and `zero` its neutral element; `values` is resized to
    /// [`LayerForms::slots`].
    ///
    /// # Panics
    /// If `state` does not have one value per bit of the previous state (debug builds), or
    /// on an out-of-range index otherwise.
    pub fn evaluate<V: Copy>(
        &self,
        state: &[V],
        zero: V,
        add: impl Fn(V, V) -> V,
        values: &mut Vec<V>,
    ) {
        self.compiled.slot_values(state, zero, add, values);
    }
}

/// `len / width`, checking that `len` is whole blocks.
fn blocks_of(len: usize, width: usize) -> usize {
    assert_eq!(
        len % width,
        0,
        "packed input must be whole blocks of {width} words"
    );
    len / width
}

/// Every layer of a packed batch ([`BooleanLayered::trace_packed`]): layer `l` holds the
/// blocks' states `S_l`, block-major (`w_l` words per block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedTrace<T> {
    widths: Vec<usize>,
    blocks: usize,
    layers: Vec<Vec<T>>,
}

impl<T: PackedBits> PackedTrace<T> {
    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// The number of layers `L` (the trace holds `L + 1` states).
    #[must_use]
    pub fn num_layers(&self) -> usize {
        self.layers.len() - 1
    }

    /// `S_layer` of every block (`layer = 0` is the input).
    #[must_use]
    pub fn layer(&self, layer: usize) -> &[T] {
        &self.layers[layer]
    }

    /// `S_layer` of one block (`w_layer` words).
    #[must_use]
    pub fn state(&self, layer: usize, block: usize) -> &[T] {
        let w = self.widths[layer];
        &self.layers[layer][block * w..(block + 1) * w]
    }

    /// The outputs `S_L`.
    #[must_use]
    pub fn output(&self) -> &[T] {
        &self.layers[self.num_layers()]
    }

    /// The states, `S_0` first.
    #[must_use]
    pub fn into_layers(self) -> Vec<Vec<T>> {
        self.layers
    }
}

/// A fixed computation as a [`BooleanLayered`] description with a native implementation of
/// each layer, the Boolean counterpart of [`crate::layered::LayeredRelation`].
///
/// States are passed to the native side as `u64` words (bit `i` of the state is bit
/// `i mod 64` of word `i / 64`), the layout [`pack_instances`] reads.
pub trait BooleanLayeredRelation {
    /// Bytes identifying the relation (name and parameters), for transcripts.
    fn id(&self) -> Vec<u8>;

    /// The layers.
    fn boolean_layers(&self) -> &BooleanLayered;

    /// `S_layer` from `S_{layer−1}` on one instance with the relation's native code (must
    /// agree with the description: [`check_boolean_layered`]).
    ///
    /// The default evaluates the description itself
    /// ([`BooleanLayered::apply_layer_reference`]), for a relation whose layers are its
    /// definition (a compiled circuit, a toy), where a native twin would only restate them
    /// and a check against it could not fail; [`check_boolean_layered`] then still compares
    /// the reference evaluation with the packed one. A relation with independent native
    /// code (Keccak-f's round) overrides it, so the check compares two implementations.
    ///
    /// # Panics
    /// If `layer` is not in `1..=L` or `state` has fewer than `⌈w_{layer−1}/64⌉` words.
    fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
        let layers = self.boolean_layers();
        let bits = bits_of_words(layers.width(layer - 1), state);
        words_of_bits(&layers.apply_layer_reference(layer, &bits))
    }

    /// `S_L` from `S_0` with the native code.
    fn evaluate_native(&self, input: &[u64]) -> Vec<u64> {
        (1..=self.boolean_layers().num_layers()).fold(input.to_vec(), |state, layer| {
            self.apply_layer_native(layer, &state)
        })
    }
}

/// Checks a relation's description against its native code, panicking with a description
/// of the first disagreement: for each of the `count` instances of `inputs` (instance-major
/// words, as [`pack_instances`] reads them), every state of the reference evaluation
/// ([`BooleanLayered::trace_reference`]) and of the packed traces over `u64` and `u128`
/// ([`BooleanLayered::trace_packed`]) equals the native layer's, and the packed outputs
/// ([`BooleanLayered::evaluate_packed`]) the native output.
///
/// # Panics
/// On the first disagreement (that is the point).
pub fn check_boolean_layered<R: BooleanLayeredRelation>(
    relation: &R,
    inputs: &[u64],
    count: usize,
) {
    let layers = relation.boolean_layers();
    let words = layers.input_width().div_ceil(64);
    let native: Vec<Vec<Vec<u64>>> = inputs
        .chunks_exact(words)
        .take(count)
        .map(|input| {
            let mut states = vec![input.to_vec()];
            for layer in 1..=layers.num_layers() {
                let next = relation.apply_layer_native(layer, &states[layer - 1]);
                assert_eq!(
                    next.len(),
                    layers.width(layer).div_ceil(64),
                    "native layer {layer}: output words"
                );
                states.push(next);
            }
            assert_eq!(
                relation.evaluate_native(input),
                states[layers.num_layers()],
                "evaluate_native"
            );
            states
        })
        .collect();
    assert_eq!(native.len(), count, "too few input words");
    for (k, states) in native.iter().enumerate() {
        let reference = layers.trace_reference(&bits_of_words(layers.input_width(), &states[0]));
        for (layer, (r, n)) in reference.iter().zip(states).enumerate() {
            assert_eq!(
                words_of_bits(r),
                *n,
                "instance {k}, layer {layer}: the description disagrees with the native code"
            );
        }
    }
    check_packed::<u64, R>(relation, inputs, &native);
    check_packed::<u128, R>(relation, inputs, &native);
}

/// The packed half of [`check_boolean_layered`] for one word type.
fn check_packed<T: PackedBits, R: BooleanLayeredRelation>(
    relation: &R,
    inputs: &[u64],
    native: &[Vec<Vec<u64>>],
) {
    let layers = relation.boolean_layers();
    let count = native.len();
    let packed = pack_instances::<T>(layers.input_width(), inputs, count);
    let trace = layers.trace_packed(&packed);
    for layer in 0..=layers.num_layers() {
        let words = layers.width(layer).div_ceil(64);
        let got = unpack_instances(layers.width(layer), trace.layer(layer), count);
        for (k, states) in native.iter().enumerate() {
            assert_eq!(
                got[k * words..(k + 1) * words],
                states[layer][..],
                "instance {k}, layer {layer}: the packed trace ({} instances a word) \
                 disagrees with the native code",
                T::INSTANCES
            );
        }
    }
    assert_eq!(
        layers.evaluate_packed(&packed),
        trace.output(),
        "evaluate_packed disagrees with trace_packed"
    );
    let mut state = packed;
    for layer in 1..=layers.num_layers() {
        state = layers.apply_layer_packed(layer, &state);
        assert_eq!(
            state,
            trace.layer(layer),
            "apply_layer_packed, layer {layer}"
        );
    }
}
