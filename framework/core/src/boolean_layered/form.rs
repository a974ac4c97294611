//! Affine forms over F2, quadratic gates and layers: the description a gadget author writes.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::{BitAnd, BitXor, Not};

use flockwork_field::Field;

/// An affine form over F2: `c ⊕ s_{i_1} ⊕ … ⊕ s_{i_m}` on a state `s` of bits.
///
/// Stored sparsely and canonically: the bit indices sorted and distinct (a bit XORed twice
/// cancels), so two forms are equal as functions iff they are equal as values.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AffineForm {
    pub(super) bits: Vec<u32>,
    pub(super) constant: bool,
}

impl AffineForm {
    /// The constant 0.
    pub const ZERO: Self = Self {
        bits: Vec::new(),
        constant: false,
    };

    /// The constant 1.
    pub const ONE: Self = Self {
        bits: Vec::new(),
        constant: true,
    };

    /// The state bit `index`.
    ///
    /// # Panics
    /// If `index` does not fit in a `u32`.
    #[must_use]
    pub fn bit(index: usize) -> Self {
        Self {
            bits: vec![u32::try_from(index).expect("bit index fits in u32")],
            constant: false,
        }
    }

    /// `constant ⊕ ⨁ bits`; indices that appear an even number of times cancel.
    ///
    /// # Panics
    /// If an index does not fit in a `u32`.
    #[must_use]
    pub fn new(bits: impl IntoIterator<Item = usize>, constant: bool) -> Self {
        let mut sorted: Vec<u32> = bits
            .into_iter()
            .map(|i| u32::try_from(i).expect("bit index fits in u32"))
            .collect();
        sorted.sort_unstable();
        let mut canonical: Vec<u32> = Vec::with_capacity(sorted.len());
        for b in sorted {
            if canonical.last() == Some(&b) {
                canonical.pop();
            } else {
                canonical.push(b);
            }
        }
        Self {
            bits: canonical,
            constant,
        }
    }

    /// The state bits the form XORs, sorted and distinct.
    #[must_use]
    pub fn bits(&self) -> &[u32] {
        &self.bits
    }

    /// The constant term.
    #[must_use]
    pub fn constant(&self) -> bool {
        self.constant
    }

    /// Whether the form is the constant 0.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.bits.is_empty() && !self.constant
    }

    /// The form's value on one state.
    ///
    /// # Panics
    /// If the form reads a bit past the end of `state`.
    #[must_use]
    pub fn eval(&self, state: &[bool]) -> bool {
        self.bits
            .iter()
            .fold(self.constant, |acc, &i| acc ^ state[i as usize])
    }

    /// The form on a state embedded in a field of characteristic 2 (XOR is `+`, the constant
    /// is `1`): the affine function every extension of the bits evaluates.
    pub(super) fn eval_field<F: Field>(&self, state: &[F]) -> F {
        let start = if self.constant { F::ONE } else { F::ZERO };
        self.bits
            .iter()
            .fold(start, |acc, &i| acc + state[i as usize])
    }

    /// `self ⊕ other` (the symmetric difference of the bits, the XOR of the constants).
    fn xor_form(&self, other: &Self) -> Self {
        Self {
            bits: symmetric_difference(&self.bits, &other.bits),
            constant: self.constant ^ other.constant,
        }
    }
}

/// `a Δ b`, sorted, for sorted and distinct `a` and `b` (a merge that drops common bits).
pub(super) fn symmetric_difference(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            core::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            core::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            core::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

impl BitXor for &AffineForm {
    type Output = AffineForm;

    fn bitxor(self, other: &AffineForm) -> AffineForm {
        self.xor_form(other)
    }
}

impl BitXor for AffineForm {
    type Output = AffineForm;

    fn bitxor(self, other: AffineForm) -> AffineForm {
        self.xor_form(&other)
    }
}

impl Not for &AffineForm {
    type Output = AffineForm;

    fn not(self) -> AffineForm {
        AffineForm {
            bits: self.bits.clone(),
            constant: !self.constant,
        }
    }
}

impl Not for AffineForm {
    type Output = AffineForm;

    fn not(mut self) -> AffineForm {
        self.constant = !self.constant;
        self
    }
}

impl BitAnd for &AffineForm {
    type Output = QuadraticGate;

    fn bitand(self, other: &AffineForm) -> QuadraticGate {
        QuadraticGate::new(AffineForm::ZERO, self.clone(), other.clone())
    }
}

impl BitXor<QuadraticGate> for &AffineForm {
    type Output = QuadraticGate;

    fn bitxor(self, gate: QuadraticGate) -> QuadraticGate {
        gate.xor(self)
    }
}

/// One output bit of a layer: `linear ⊕ (left ∧ right)`, three [`AffineForm`]s of the
/// previous state.
///
/// Canonical: a product that is constant 0 (a zero factor) is stored as `0 ∧ 0`, and a
/// factor that is constant 1 moves the other factor into the linear part, so
/// [`QuadraticGate::is_linear`] is exact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuadraticGate {
    pub(super) linear: AffineForm,
    pub(super) left: AffineForm,
    pub(super) right: AffineForm,
}

impl QuadraticGate {
    /// `linear ⊕ (left ∧ right)`.
    #[must_use]
    pub fn new(linear: AffineForm, left: AffineForm, right: AffineForm) -> Self {
        if left.is_zero() || right.is_zero() {
            Self::linear(linear)
        } else if left == AffineForm::ONE {
            Self::linear(&linear ^ &right)
        } else if right == AffineForm::ONE {
            Self::linear(&linear ^ &left)
        } else {
            Self {
                linear,
                left,
                right,
            }
        }
    }

    /// The linear gate `form` (no product).
    #[must_use]
    pub fn linear(form: AffineForm) -> Self {
        Self {
            linear: form,
            left: AffineForm::ZERO,
            right: AffineForm::ZERO,
        }
    }

    /// `self ⊕ form` (added to the linear part).
    #[must_use]
    pub fn xor(mut self, form: &AffineForm) -> Self {
        self.linear = &self.linear ^ form;
        self
    }

    /// The linear part `L0`.
    #[must_use]
    pub fn linear_part(&self) -> &AffineForm {
        &self.linear
    }

    /// The factors `(L1, L2)` of the product (both zero for a linear gate).
    #[must_use]
    pub fn factors(&self) -> (&AffineForm, &AffineForm) {
        (&self.left, &self.right)
    }

    /// Whether the gate has no product (degree 1).
    #[must_use]
    pub fn is_linear(&self) -> bool {
        self.left.is_zero()
    }

    /// The gate's degree in the previous state: 1 for a linear gate, 2 for a product.
    #[must_use]
    pub fn degree(&self) -> usize {
        if self.is_linear() { 1 } else { 2 }
    }

    /// The gate's value on one state.
    ///
    /// # Panics
    /// If a form reads a bit past the end of `state`.
    #[must_use]
    pub fn eval(&self, state: &[bool]) -> bool {
        self.linear.eval(state) ^ (self.left.eval(state) & self.right.eval(state))
    }

    /// The gate on a state embedded in a field of characteristic 2: `L0 + L1·L2`.
    pub(super) fn eval_field<F: Field>(&self, state: &[F]) -> F {
        let linear = self.linear.eval_field(state);
        if self.is_linear() {
            linear
        } else {
            linear + self.left.eval_field(state) * self.right.eval_field(state)
        }
    }

    /// The largest bit index any form reads.
    pub(super) fn max_bit(&self) -> Option<u32> {
        [&self.linear, &self.left, &self.right]
            .iter()
            .filter_map(|f| f.bits.last().copied())
            .max()
    }
}

impl From<AffineForm> for QuadraticGate {
    fn from(form: AffineForm) -> Self {
        Self::linear(form)
    }
}

/// One layer: a [`QuadraticGate`] per output bit, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanLayer {
    pub(super) gates: Vec<QuadraticGate>,
}

impl BooleanLayer {
    /// The layer of these gates (output bit `j` is `gates[j]`).
    #[must_use]
    pub fn new(gates: Vec<QuadraticGate>) -> Self {
        Self { gates }
    }

    /// The gates, one per output bit.
    #[must_use]
    pub fn gates(&self) -> &[QuadraticGate] {
        &self.gates
    }

    /// The number of output bits.
    #[must_use]
    pub fn width(&self) -> usize {
        self.gates.len()
    }

    /// The number of gates with a product.
    #[must_use]
    pub fn and_gates(&self) -> usize {
        self.gates.iter().filter(|g| !g.is_linear()).count()
    }

    /// The layer's degree in the previous state: 2 if any gate has a product, else 1.
    #[must_use]
    pub fn degree(&self) -> usize {
        self.gates
            .iter()
            .map(QuadraticGate::degree)
            .max()
            .unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_forms_are_canonical() {
        let f = AffineForm::new([3, 1, 3, 2, 3], true);
        assert_eq!(f.bits(), [1, 2, 3]);
        assert!(f.constant());
        let g = AffineForm::new([2, 5], false);
        let h = &f ^ &g;
        assert_eq!((h.bits(), h.constant()), (&[1, 3, 5][..], true));
        assert_eq!(&h ^ &g, f);
        assert!((&f ^ &f).is_zero());
        assert_eq!(!!f.clone(), f);
        assert_eq!(symmetric_difference(f.bits(), g.bits()), [1, 3, 5]);
    }

    #[test]
    fn gates_normalise_constant_factors() {
        let (a, b) = (AffineForm::bit(0), AffineForm::bit(1));
        assert!((&a & &AffineForm::ZERO).is_linear());
        let g = &a & &AffineForm::ONE;
        assert!(g.is_linear());
        assert_eq!(g.linear_part(), &a);
        let q = &b ^ (&a & &b);
        assert_eq!((q.degree(), q.linear_part()), (2, &b));
        for bits in 0..4u8 {
            let s = [bits & 1 == 1, bits & 2 == 2];
            assert_eq!(q.eval(&s), s[1] ^ (s[0] & s[1]));
        }
    }
}
