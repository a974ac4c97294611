//! The builder a gadget author describes layers with.

use alloc::vec::Vec;

use super::{AffineForm, BooleanLayer, BooleanLayered, BooleanLayeredError, QuadraticGate};

/// Describes the layers of a [`BooleanLayered`] relation (module docs), one closure per
/// layer, and checks the result.
///
/// ```
/// use flockwork_core::boolean_layered::BooleanLayersBuilder;
///
/// // out = (s0 ⊕ s1) ∧ s2, and a copy of s2.
/// let mut b = BooleanLayersBuilder::new(3);
/// b.layer(|l| {
///     l.output(l.and(&l.xor(&l.bit(0), &l.bit(1)), &l.bit(2)));
///     l.output(l.bit(2));
/// });
/// let relation = b.build().unwrap();
/// assert_eq!(relation.evaluate_reference(&[true, false, true]), [true, true]);
/// ```
#[derive(Clone, Debug)]
pub struct BooleanLayersBuilder {
    input_width: usize,
    layers: Vec<BooleanLayer>,
}

impl BooleanLayersBuilder {
    /// A relation on inputs of `input_width` bits, no layers yet.
    #[must_use]
    pub fn new(input_width: usize) -> Self {
        Self {
            input_width,
            layers: Vec::new(),
        }
    }

    /// The width of the state the next layer reads (the last layer's output width).
    #[must_use]
    pub fn width(&self) -> usize {
        self.layers
            .last()
            .map_or(self.input_width, BooleanLayer::width)
    }

    /// Adds a layer: `describe` receives a [`LayerBuilder`] over the current state and adds
    /// one gate per output bit.
    pub fn layer(&mut self, describe: impl FnOnce(&mut LayerBuilder)) -> &mut Self {
        let mut layer = LayerBuilder {
            input_width: self.width(),
            gates: Vec::new(),
        };
        describe(&mut layer);
        self.layers.push(BooleanLayer::new(layer.gates));
        self
    }

    /// The checked, compiled description.
    ///
    /// # Errors
    /// As [`BooleanLayered::new`].
    pub fn build(self) -> Result<BooleanLayered, BooleanLayeredError> {
        BooleanLayered::new(self.input_width, self.layers)
    }
}

/// One layer under construction ([`BooleanLayersBuilder::layer`]): forms of the previous
/// state and the gates that produce the next one, in output order.
#[derive(Clone, Debug)]
pub struct LayerBuilder {
    input_width: usize,
    gates: Vec<QuadraticGate>,
}

impl LayerBuilder {
    /// The width of the state this layer reads.
    #[must_use]
    pub fn input_width(&self) -> usize {
        self.input_width
    }

    /// The previous state's bit `index` (checked against [`Self::input_width`] when the
    /// description is built).
    #[must_use]
    pub fn bit(&self, index: usize) -> AffineForm {
        AffineForm::bit(index)
    }

    /// The constant `value`.
    #[must_use]
    pub fn constant(&self, value: bool) -> AffineForm {
        if value {
            AffineForm::ONE
        } else {
            AffineForm::ZERO
        }
    }

    /// `a ⊕ b`.
    #[must_use]
    pub fn xor(&self, a: &AffineForm, b: &AffineForm) -> AffineForm {
        a ^ b
    }

    /// The XOR of all `forms` (0 for none).
    #[must_use]
    pub fn xor_all(&self, forms: impl IntoIterator<Item = AffineForm>) -> AffineForm {
        forms.into_iter().fold(AffineForm::ZERO, |acc, f| acc ^ f)
    }

    /// `¬a = a ⊕ 1`.
    #[must_use]
    pub fn not(&self, a: &AffineForm) -> AffineForm {
        !a
    }

    /// `a ∧ b`, a gate (add a linear part with [`QuadraticGate::xor`]).
    #[must_use]
    pub fn and(&self, a: &AffineForm, b: &AffineForm) -> QuadraticGate {
        a & b
    }

    /// Appends an output bit computed by `gate` (an [`AffineForm`] for a linear one);
    /// returns its index in the next state.
    pub fn output(&mut self, gate: impl Into<QuadraticGate>) -> usize {
        self.gates.push(gate.into());
        self.gates.len() - 1
    }

    /// The number of output bits so far.
    #[must_use]
    pub fn outputs(&self) -> usize {
        self.gates.len()
    }
}
