//! Any circuit as Boolean layers: the compiler from a [`Gadget`] to a [`BooleanLayered`]
//! relation, so a circuit written once against [`CircuitBuilder`] is proved by batch-R1CS
//! (as written) and by the Boolean GKR (as compiled), and [`CompiledLayers`], which makes
//! every [`CircuitEncoding`] a [`BooleanLayeredEncoding`].
//!
//! ## The target
//!
//! `flockwork_core::boolean_layered` (its module docs) states the form GKR walks: states
//! `S_0, …, S_L` of bits, and per layer one quadratic gate per output bit,
//!
//! ```text
//! S_l[j] = L0_{l,j}(S_{l−1}) ⊕ ( L1_{l,j}(S_{l−1}) ∧ L2_{l,j}(S_{l−1}) ),
//! ```
//!
//! every `Lk` an affine F2 form of the previous state. Embedded in GF(2^128), each layer is one
//! degree-3 sumcheck over the instance variables however many XORs its forms hold (Thaler,
//! *Proofs, Arguments, and Zero-Knowledge*, §4.6): GKR pays per **layer** (AND depth) and per
//! bit of **width**, batch-R1CS per **AND gate**. The recipe is `notes/framework-api.md`,
//! "Compiling a circuit into Boolean layers".
//!
//! ## Recording: affine forms over anchors
//!
//! [`compile_layers`] runs the gadget under a symbolic interpreter. A wire is an affine form
//! over F2 of **anchors**: the input bits (level 0), one anchor per distinct AND gate (an AND
//! of the same two operand forms is shared) and one per distinct materialized value of two
//! or more anchors; XOR, NOT, rotations and shifts only combine forms. An AND `t = A ∧ B` gets
//! the level
//!
//! ```text
//! λ(t) = 1 + max { λ(a) : anchor a in A or B },
//! ```
//!
//! and its anchor stands for the gate value `C ⊕ (A ∧ B)`, `C = 0` at first. While no wire
//! holding the anchor has been read, an XOR of it with a form `Y` of lower level **rides in
//! `L0`**: `C ← C ⊕ Y` and the sum is the anchor itself (the other wires holding the anchor
//! are rewritten, `w ← w ⊕ Y`, so every form keeps its value). Keccak's `B ⊕ (¬B' ∧ B'')`
//! and ι's constant, a ripple adder's `c_{i+1} = c_i ⊕ aux_i`, a prefix adder's
//! `G_hi ⊕ P_hi·G_lo` and SHA-256's `g ⊕ e(f ⊕ g)` each become one anchor. Once read, an
//! anchor is fixed, so a form never changes meaning after it is used.
//!
//! A **materialized** value `v = F` (the gadget caps batch-R1CS row density with it: SHA-256's
//! `W_t`, `T1`, `e'`, `a'`, BLAKE3's `b` and `d`) becomes an anchor `m` of the level of `F`,
//! a bit that enters the layers one level later as the linear gate `F`. A gate of layer `l`
//! reads `m` as that bit once it is there (`λ(m) + 1 ≤ l − 1`) and reads `F` in its place
//! before (**resolving** `m`), so `m` costs no depth, and a value read many layers later
//! is carried as one bit rather than as the anchors of `F` (SHA-256's widest state: 2,044
//! bits instead of 21,477).
//!
//! ## Cutting into layers
//!
//! Anchors that no output depends on are dropped. With `T` the highest level of an
//! anchor in an output form, anchor `a` is **last used** at `u(a)`: the largest layer whose
//! gate reads it after resolving (an AND of level `λ` is a gate of layer `λ`, a materialized
//! value of level `λ` a gate of layer `λ + 1`, the outputs gates of layer `L`). State `S_l`
//! (`1 ≤ l < L`) holds every anchor `a` with `e(a) ≤ l < u(a)`, `e(a)` its entry (`λ(a)` for
//! inputs and ANDs, `λ(a) + 1` for materialized values): the entering ANDs as the gates
//! `C ⊕ (A ∧ B)` and the entering materialized values as linear gates, their forms resolved
//! and rewritten over `S_{l−1}`, and the earlier anchors still needed later as linear gates
//! `L0 = a` (carried; dropped after their last use). `S_0` is
//! the input vector (the layout's input regions in declaration order,
//! [`CircuitEncoding::encode_input`]'s words) and `S_L` exactly the output vector
//! ([`CircuitEncoding::encode_output`]'s words):
//!
//! * if every output form, resolved for layer `T`, holds at most one level-`T` AND, `L = T`
//!   and output bit `j` with form `a ⊕ R` is the gate `(C_a ⊕ R) ⊕ (A_a ∧ B_a)` (the same
//!   product may serve two outputs: a duplicated AND gate, no extra layer), one without a
//!   level-`T` AND the linear gate `R`;
//! * otherwise (or when no output depends on an AND) `S_T` holds the level-`T` anchors and a
//!   final linear layer `L = T + 1` reads the outputs off it.
//!
//! Every anchor a gate of layer `l` reads after resolving has entered by `l − 1` and is last
//! used at `l` or later, so it is in `S_{l−1}`: the forms are well defined, and by induction
//! on `l` the bit of anchor `a` in `S_l` is its value, so `S_L` is the circuit's output.
//! Constant outputs are constant forms and input pass-throughs carried input bits.
//!
//! Keccak-f\[1600\] compiles to exactly its hand-written layers
//! (`flockwork_boolean::KeccakF1600::boolean_layers`): 24 layers of 1600 χ gates. A ripple
//! adder costs `N − 1` levels, but dependent ripple additions overlap bit by bit; the prefix
//! adders of [`Adder`](crate::Adder) trade ANDs for depth, and sum several words after
//! carry-save compression ([`WordBuilder::add_many`](crate::WordBuilder::add_many)).
//! [`LayersShape`] reports what the Boolean GKR pays.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use flockwork_core::boolean_layered::{
    AffineForm, BooleanLayer, BooleanLayered, BooleanLayeredError, BooleanLayeredRelation,
    QuadraticGate,
};
use flockwork_core::relation::{BooleanLayeredEncoding, Relation};

use crate::{
    Allocator, CircuitBuilder, CircuitEncoding, Gadget, IoLayout, MerkleIo, SlotId, SlotKind,
};

/// "No anchor" / "not in this state".
const NONE: u32 = u32::MAX;
/// The node of the constant 0.
const ZERO: u32 = 0;
/// The node of the constant 1.
const ONE: u32 = 1;

/// The circuit of `gadget` as Boolean layers (module docs): `S_0` is its input vector,
/// `S_L` its output vector, one layer per AND level (and a final linear layer when the
/// outputs need one).
///
/// # Errors
/// [`BooleanLayeredError::EmptyInput`] if the gadget has no input bits; the other errors of
/// [`BooleanLayered::new`] cannot occur (an output vector has at least 64 bits).
///
/// # Panics
/// If the gadget misuses its IO regions (see [`CircuitBuilder::input`]).
pub fn compile_layers<G: Gadget>(gadget: &G) -> Result<BooleanLayered, BooleanLayeredError> {
    let mut recorder = Recorder::new(gadget.layout());
    gadget.synthesize(&mut recorder);
    recorder.alloc.check_complete();
    recorder.into_layers()
}

/// What the Boolean GKR pays for a layered relation: layers (sumchecks), widths (the values
/// each layer's walk sends) and product gates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayersShape {
    /// The number of layers `L`.
    pub layers: usize,
    /// The widest state `S_1, …, S_L`.
    pub max_width: usize,
    /// The mean width of `S_1, …, S_L`.
    pub mean_width: f64,
    /// Gates with a product, over all layers.
    pub and_gates: usize,
}

impl LayersShape {
    /// The shape of `layers`.
    #[must_use]
    pub fn of(layers: &BooleanLayered) -> Self {
        let count = layers.num_layers();
        let widths = (1..=count).map(|l| layers.width(l));
        let total: usize = widths.clone().sum();
        let mean_width = total as f64 / count as f64;
        Self {
            layers: count,
            max_width: widths.max().unwrap_or(0),
            mean_width,
            and_gates: layers.and_gates(),
        }
    }
}

/// A relation with a circuit encoding, together with its circuit compiled into Boolean layers
/// ([`compile_layers`]): a [`BooleanLayeredEncoding`] for the Boolean GKR, and still the
/// relation and its [`CircuitEncoding`] for batch-R1CS, so one value reaches both engines.
///
/// Every [`Relation`] method delegates, except [`Relation::name`], which appends `/layers`:
/// the name is the relation's identity in transcripts and setup digests
/// ([`BooleanLayeredRelation::id`] is its bytes), and a harness lists the compiled encoding
/// beside a hand-written one (Keccak-f's) as a row of its own. The layers are their own
/// native code: [`BooleanLayeredRelation::apply_layer_native`] keeps its default (the
/// description's evaluation), and [`check_boolean_layered_encoding`]
/// (`flockwork_core::relation`) compares the compiled layers with the relation's native
/// evaluation.
///
/// [`check_boolean_layered_encoding`]: flockwork_core::relation::check_boolean_layered_encoding
#[derive(Clone, Debug)]
pub struct CompiledLayers<R> {
    relation: R,
    /// Shared: every batcher of the relation holds a clone, and a compiled hash's layers
    /// are large.
    layers: Arc<BooleanLayered>,
}

impl<R: CircuitEncoding> CompiledLayers<R> {
    /// Compiles `relation`'s circuit.
    ///
    /// # Errors
    /// As [`compile_layers`].
    pub fn new(relation: R) -> Result<Self, BooleanLayeredError> {
        let layers = compile_layers(&relation)?;
        Ok(Self {
            relation,
            layers: Arc::new(layers),
        })
    }

    /// The relation.
    #[must_use]
    pub fn relation(&self) -> &R {
        &self.relation
    }

    /// The compiled layers' shape.
    #[must_use]
    pub fn shape(&self) -> LayersShape {
        LayersShape::of(&self.layers)
    }
}

impl<R: CircuitEncoding> Relation for CompiledLayers<R> {
    type Input = R::Input;
    type Output = R::Output;
    type State = R::State;

    fn name(&self) -> String {
        format!("{}/layers", self.relation.name())
    }

    fn evaluate(&self, input: &R::Input) -> R::Output {
        self.relation.evaluate(input)
    }

    fn evaluate_batch(&self, inputs: &[R::Input]) -> Vec<R::Output> {
        self.relation.evaluate_batch(inputs)
    }

    fn known_answers(&self) -> Vec<(R::Input, R::Output)> {
        self.relation.known_answers()
    }

    fn input_state(&self, input: &R::Input) -> Option<R::State> {
        self.relation.input_state(input)
    }

    fn output_state(&self, output: &R::Output) -> Option<R::State> {
        self.relation.output_state(output)
    }

    fn merkle_node(&self, left: &R::State, right: &R::State) -> Option<R::Input> {
        self.relation.merkle_node(left, right)
    }
}

impl<R: CircuitEncoding> Gadget for CompiledLayers<R> {
    fn layout(&self) -> IoLayout {
        self.relation.layout()
    }

    fn synthesize<B: CircuitBuilder>(&self, builder: &mut B) {
        self.relation.synthesize(builder);
    }
}

impl<R: CircuitEncoding> CircuitEncoding for CompiledLayers<R> {
    fn encode_input(&self, input: &R::Input) -> Vec<u64> {
        self.relation.encode_input(input)
    }

    fn encode_output(&self, output: &R::Output) -> Vec<u64> {
        self.relation.encode_output(output)
    }

    fn decode_output(&self, words: &[u64]) -> Option<R::Output> {
        self.relation.decode_output(words)
    }

    fn chain_regions(&self) -> Option<(SlotId, SlotId)> {
        self.relation.chain_regions()
    }

    fn encode_state(&self, state: &R::State) -> Option<Vec<u64>> {
        self.relation.encode_state(state)
    }

    fn merkle_io(&self) -> Option<MerkleIo> {
        self.relation.merkle_io()
    }
}

impl<R: CircuitEncoding> BooleanLayeredRelation for CompiledLayers<R> {
    fn id(&self) -> Vec<u8> {
        self.name().into_bytes()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        &self.layers
    }
}

/// `S_0` is the input vector and `S_L` the output vector, as `u64` words.
impl<R: CircuitEncoding> BooleanLayeredEncoding for CompiledLayers<R> {
    fn input_bits(&self, input: &R::Input) -> Vec<u64> {
        self.relation.encode_input(input)
    }

    fn output_bits(&self, output: &R::Output) -> Vec<u64> {
        self.relation.encode_output(output)
    }

    fn output_of_bits(&self, words: &[u64]) -> Option<R::Output> {
        self.relation.decode_output(words)
    }
}

/// What an anchor stands for (module docs).
enum Kind {
    /// Input bit `i` of `S_0`.
    Input,
    /// `C ⊕ (A ∧ B)`, with the nodes holding it while it is open (it can still absorb;
    /// `None` once fixed).
    And {
        gate: [AffineForm; 3],
        open: Option<Vec<u32>>,
    },
    /// A materialized linear value: one bit, the XOR of `def`'s anchors.
    Linear { def: AffineForm },
}

/// An input bit, a distinct AND gate or a materialized value (module docs).
struct Anchor {
    level: u32,
    kind: Kind,
}

/// A wire: its form over anchors, the form's level, and the open anchor it holds.
struct Node {
    form: AffineForm,
    level: u32,
    anchor: u32,
}

/// The symbolic interpreter of [`compile_layers`]: a wire is a [`Node`] index.
struct Recorder {
    alloc: Allocator,
    nodes: Vec<Node>,
    anchors: Vec<Anchor>,
    /// `(A, B)` (ordered) → the AND node, to share identical gates.
    ands: BTreeMap<(AffineForm, AffineForm), u32>,
    /// A materialized form → its node, to share identical values.
    linears: BTreeMap<AffineForm, u32>,
    inputs: usize,
    outputs: Vec<Option<AffineForm>>,
}

/// `u32` of an index that fits (the recorder's tables stay far below `u32::MAX`).
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("circuit tables fit u32 indices")
}

impl Recorder {
    fn new(layout: IoLayout) -> Self {
        let inputs = layout.vector_bits(SlotKind::Input);
        let mut outputs = vec![None; layout.vector_bits(SlotKind::Output)];
        // A region of `b` bits fills `⌈b/64⌉` words of the output vector; the bits past `b`
        // are the layout's padding, zero in every output (`IoLayout`), so constant here.
        for (id, slot) in layout.slots().iter().enumerate() {
            if slot.kind == SlotKind::Output {
                let offset = layout.vector_offset(SlotId(id));
                for bit in &mut outputs[offset + slot.bits..offset + 64 * slot.words()] {
                    *bit = Some(AffineForm::ZERO);
                }
            }
        }
        let constant = |c| Node {
            form: if c { AffineForm::ONE } else { AffineForm::ZERO },
            level: 0,
            anchor: NONE,
        };
        let mut nodes = vec![constant(false), constant(true)];
        nodes.extend((0..inputs).map(|i| Node {
            form: AffineForm::bit(i),
            level: 0,
            anchor: NONE,
        }));
        let anchors = (0..inputs)
            .map(|_| Anchor {
                level: 0,
                kind: Kind::Input,
            })
            .collect();
        Self {
            alloc: Allocator::new(layout),
            nodes,
            anchors,
            ands: BTreeMap::new(),
            linears: BTreeMap::new(),
            inputs,
            outputs,
        }
    }

    fn level(&self, form: &AffineForm) -> u32 {
        form.bits()
            .iter()
            .map(|&a| self.anchors[a as usize].level)
            .max()
            .unwrap_or(0)
    }

    fn push(&mut self, form: AffineForm, anchor: u32) -> u32 {
        let level = self.level(&form);
        self.nodes.push(Node {
            form,
            level,
            anchor,
        });
        index(self.nodes.len() - 1)
    }

    /// Node `n` is read: the anchor it holds (if open) is fixed.
    fn read(&mut self, n: u32) {
        let anchor = self.nodes[n as usize].anchor;
        if anchor != NONE
            && let Kind::And { open, .. } = &mut self.anchors[anchor as usize].kind
        {
            for m in open.take().unwrap_or_default() {
                self.nodes[m as usize].anchor = NONE;
            }
        }
    }

    /// `x ⊕ y` as anchor `a`'s value, `x` holding the open anchor `a` and `y` of lower level:
    /// `C_a` and every node holding `a` absorb `x ⊕ a ⊕ y`.
    fn absorb(&mut self, x: u32, y: u32) -> u32 {
        let a = self.nodes[x as usize].anchor;
        self.read(y);
        let shift = &(&self.nodes[x as usize].form ^ &AffineForm::bit(a as usize))
            ^ &self.nodes[y as usize].form;
        let z = index(self.nodes.len());
        let anchor = &mut self.anchors[a as usize];
        let Kind::And { gate, open } = &mut anchor.kind else {
            unreachable!("only AND anchors are open")
        };
        let members = open.as_mut().expect("an open anchor");
        for &m in members.iter() {
            let node = &mut self.nodes[m as usize];
            node.form = &node.form ^ &shift;
        }
        members.push(z);
        gate[0] = &gate[0] ^ &shift;
        let level = anchor.level;
        self.nodes.push(Node {
            form: AffineForm::bit(a as usize),
            level,
            anchor: a,
        });
        z
    }

    /// The layers (module docs, *Cutting into layers*).
    fn into_layers(self) -> Result<BooleanLayered, BooleanLayeredError> {
        let Self {
            anchors,
            inputs,
            outputs,
            ..
        } = self;
        let outputs: Vec<AffineForm> = outputs
            .into_iter()
            .map(|f| f.expect("every output bit is written"))
            .collect();
        let anchors = &anchors[..];
        let level = |a: u32| anchors[a as usize].level;
        let is_and = |a: u32| matches!(anchors[a as usize].kind, Kind::And { .. });
        let top = outputs
            .iter()
            .flat_map(AffineForm::bits)
            .map(|&a| level(a))
            .max()
            .unwrap_or(0);
        let top_ands = |f: &AffineForm| {
            let f = resolve(anchors, f, top);
            f.bits()
                .iter()
                .filter(|&&a| level(a) == top && is_and(a))
                .count()
        };
        let direct = top >= 1 && outputs.iter().all(|f| top_ands(f) <= 1);
        let last = if direct { top } else { top + 1 };
        let mut by_level: Vec<Vec<u32>> = vec![Vec::new(); top as usize + 1];
        for (a, anchor) in anchors.iter().enumerate() {
            if anchor.level <= top {
                by_level[anchor.level as usize].push(index(a));
            }
        }
        // Last uses, readers before what they read: the outputs, then level by level down,
        // a level's materialized values (latest first) before its ANDs. 0: never read.
        let mut last_use = vec![0u32; anchors.len()];
        let read = |form: &AffineForm, l: u32, last_use: &mut [u32]| {
            for &a in resolve(anchors, form, l).bits() {
                last_use[a as usize] = last_use[a as usize].max(l);
            }
        };
        for f in &outputs {
            read(f, last, &mut last_use);
        }
        for (l, bucket) in by_level.iter().enumerate().rev() {
            let l = index(l);
            for &m in bucket.iter().rev() {
                if let Kind::Linear { def } = &anchors[m as usize].kind
                    && last_use[m as usize] > l + 1
                {
                    read(def, l + 1, &mut last_use);
                }
            }
            for &b in bucket {
                if let (Kind::And { gate, .. }, true) =
                    (&anchors[b as usize].kind, last_use[b as usize] > 0)
                {
                    for form in gate {
                        read(form, l, &mut last_use);
                    }
                }
            }
        }
        // S_0 is the input vector; each later state the anchors alive across it.
        let mut current: Vec<u32> = (0..index(inputs)).collect();
        let mut position = vec![NONE; anchors.len()];
        for (p, &a) in current.iter().enumerate() {
            position[a as usize] = index(p);
        }
        // A form as a gate of layer `l` reads it: over the bits of S_{l−1}.
        let translate = |f: &AffineForm, l: u32, position: &[u32]| {
            let f = resolve(anchors, f, l);
            let bits = f.bits().iter().map(|&a| {
                let p = position[a as usize];
                assert_ne!(p, NONE, "anchor {a} read outside its life");
                p as usize
            });
            AffineForm::new(bits, f.constant())
        };
        let mut layers = Vec::with_capacity(last as usize);
        for l in 1..last {
            let carried = current
                .iter()
                .copied()
                .filter(|&a| last_use[a as usize] > l);
            let ands = by_level[l as usize].iter().copied().filter(|&a| is_and(a));
            let linears = by_level[l as usize - 1]
                .iter()
                .copied()
                .filter(|&a| matches!(anchors[a as usize].kind, Kind::Linear { .. }));
            let next: Vec<u32> = carried
                .chain(ands.chain(linears).filter(|&a| last_use[a as usize] > l))
                .collect();
            let gates = next
                .iter()
                .map(|&a| match &anchors[a as usize].kind {
                    Kind::And {
                        gate: [c, x, y], ..
                    } if level(a) == l => QuadraticGate::new(
                        translate(c, l, &position),
                        translate(x, l, &position),
                        translate(y, l, &position),
                    ),
                    Kind::Linear { def } if level(a) + 1 == l => {
                        QuadraticGate::linear(translate(def, l, &position))
                    }
                    _ => QuadraticGate::linear(AffineForm::bit(position[a as usize] as usize)),
                })
                .collect();
            layers.push(BooleanLayer::new(gates));
            for &a in &current {
                position[a as usize] = NONE;
            }
            for (p, &a) in next.iter().enumerate() {
                position[a as usize] = index(p);
            }
            current = next;
        }
        let gates = outputs
            .iter()
            .map(|f| {
                let f = resolve(anchors, f, last);
                let on_top = f
                    .bits()
                    .iter()
                    .copied()
                    .find(|&a| level(a) == top && is_and(a));
                match (direct, on_top.map(|a| (a, &anchors[a as usize].kind))) {
                    (
                        true,
                        Some((
                            a,
                            Kind::And {
                                gate: [c, x, y], ..
                            },
                        )),
                    ) => {
                        let linear = &(&f ^ &AffineForm::bit(a as usize)) ^ c;
                        QuadraticGate::new(
                            translate(&linear, last, &position),
                            translate(x, last, &position),
                            translate(y, last, &position),
                        )
                    }
                    _ => QuadraticGate::linear(translate(&f, last, &position)),
                }
            })
            .collect();
        layers.push(BooleanLayer::new(gates));
        BooleanLayered::new(inputs, layers)
    }
}

/// `form` as a gate of layer `l` reads it: every materialized value not yet in `S_{l−1}`
/// (one of level `λ` enters `S_{λ+1}`) replaced by its definition, recursively.
fn resolve(anchors: &[Anchor], form: &AffineForm, l: u32) -> AffineForm {
    let pending = |a: &u32| {
        let anchor = &anchors[*a as usize];
        matches!(anchor.kind, Kind::Linear { .. }) && anchor.level + 1 >= l
    };
    if !form.bits().iter().any(pending) {
        return form.clone();
    }
    let kept = form
        .bits()
        .iter()
        .filter(|a| !pending(a))
        .map(|&a| a as usize);
    let mut out = AffineForm::new(kept, form.constant());
    for &m in form.bits().iter().filter(|a| pending(a)) {
        if let Kind::Linear { def } = &anchors[m as usize].kind {
            out = &out ^ &resolve(anchors, def, l);
        }
    }
    out
}

impl CircuitBuilder for Recorder {
    type Wire = u32;

    fn zero(&self) -> u32 {
        ZERO
    }

    fn one(&self) -> u32 {
        ONE
    }

    fn xor(&mut self, a: u32, b: u32) -> u32 {
        if a == ZERO {
            return b;
        }
        if b == ZERO {
            return a;
        }
        for (x, y) in [(a, b), (b, a)] {
            let anchor = self.nodes[x as usize].anchor;
            if anchor != NONE && self.nodes[y as usize].level < self.anchors[anchor as usize].level
            {
                return self.absorb(x, y);
            }
        }
        self.read(a);
        self.read(b);
        let form = &self.nodes[a as usize].form ^ &self.nodes[b as usize].form;
        self.push(form, NONE)
    }

    fn and(&mut self, a: u32, b: u32) -> u32 {
        self.read(a);
        self.read(b);
        let (fa, fb) = (&self.nodes[a as usize].form, &self.nodes[b as usize].form);
        if fa.is_zero() || fb.is_zero() || *fa == !fb {
            return ZERO;
        }
        if *fa == AffineForm::ONE || fa == fb {
            return b;
        }
        if *fb == AffineForm::ONE {
            return a;
        }
        let key = if fa <= fb {
            (fa.clone(), fb.clone())
        } else {
            (fb.clone(), fa.clone())
        };
        if let Some(&t) = self.ands.get(&key) {
            return t;
        }
        let level = 1 + self.level(fa).max(self.level(fb));
        let anchor = index(self.anchors.len());
        let node = index(self.nodes.len());
        // The factors in the order the gadget wrote them.
        let gate = [AffineForm::ZERO, fa.clone(), fb.clone()];
        self.anchors.push(Anchor {
            level,
            kind: Kind::And {
                gate,
                open: Some(vec![node]),
            },
        });
        self.nodes.push(Node {
            form: AffineForm::bit(anchor as usize),
            level,
            anchor,
        });
        self.ands.insert(key, node);
        node
    }

    /// A value of two or more anchors becomes a materialized anchor: one bit, carried
    /// instead of its terms, at no extra depth (module docs).
    fn materialize(&mut self, a: u32) -> u32 {
        self.read(a);
        let form = &self.nodes[a as usize].form;
        if form.bits().len() < 2 {
            return a;
        }
        if let Some(&m) = self.linears.get(form) {
            return m;
        }
        let form = form.clone();
        let level = self.nodes[a as usize].level;
        let anchor = index(self.anchors.len());
        self.anchors.push(Anchor {
            level,
            kind: Kind::Linear { def: form.clone() },
        });
        let node = self.push(AffineForm::bit(anchor as usize), NONE);
        self.linears.insert(form, node);
        node
    }

    fn input(&mut self, slot: SlotId) -> Vec<u32> {
        let bits = self.alloc.layout.slot(slot).bits;
        let offset = self.alloc.layout.vector_offset(slot);
        self.alloc.io(slot, SlotKind::Input, bits);
        (offset..offset + bits).map(|i| index(2 + i)).collect()
    }

    fn output(&mut self, slot: SlotId, wires: &[u32]) {
        let offset = self.alloc.layout.vector_offset(slot);
        self.alloc.io(slot, SlotKind::Output, wires.len());
        for (k, &w) in wires.iter().enumerate() {
            self.read(w);
            self.outputs[offset + k] = Some(self.nodes[w as usize].form.clone());
        }
    }
}
