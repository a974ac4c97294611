//! Poseidon2 over a prime field (eprint 2023/323, any instance of this crate) as a layered
//! relation (feature `layered`, on by default), for layered provers such as `flockwork-gkr`:
//! the same engine as Poseidon2b's, in odd characteristic, where the ragged selector is
//! `χ_a(x) = Π_{j ≥ w_a} (1 − x_j)` and the S-box `x^d` is expanded by the binomial theorem.
//!
//! `S_0 = M_E · input`; layer `l = r + 1` is round `r`: full rounds (`r < R_F/2` or
//! `r ≥ R_F/2 + R_P`) map every lane to `(s + c_{r,j})^d` and apply `M_E`; partial rounds map
//! lane 0 to `(s + c_r)^d` and apply `M_I = J + diag(μ − 1)`.
//!
//! [`Poseidon2Relation`] is also a [`Relation`] (evaluated by the permutation it was built
//! from, [`crate::relation`]) and a [`LayeredEncoding`] (the state is the `t` lanes); the tests
//! (`tests/suite/layered.rs`) check it with [`flockwork_core::relation::check_layered_encoding`].

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use flockwork_core::layered::{LaneMap, LayeredRelation};
use flockwork_core::relation::{LayeredEncoding, Relation};
use sha2::{Digest, Sha256};

use crate::matrix::{
    external_layer, external_layer_plonky3, external_matrix_with, internal_layer, internal_matrix,
};
use crate::{Convention, Poseidon2, Poseidon2Field};

/// A Poseidon2 instance as a [`LayeredRelation`] over its prime field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Relation<F> {
    /// The permutation: the relation's native evaluation.
    native: Arc<Poseidon2<F>>,
    convention: Convention,
    t: usize,
    d: u32,
    half_full: usize,
    partial: usize,
    /// `constants[r]`: `t` values (zeros past lane 0 in partial rounds).
    constants: Vec<Vec<F>>,
    diag_m1: Vec<F>,
    external: Vec<Vec<F>>,
    internal: Vec<Vec<F>>,
    id: Vec<u8>,
}

impl<F: Poseidon2Field> Poseidon2Relation<F> {
    /// The relation of `perm`.
    ///
    /// # Panics
    /// If the S-box degree does not fit in `u32` (no instance comes close).
    #[must_use]
    pub fn new(perm: &Poseidon2<F>) -> Self {
        let p = perm.params();
        let t = p.t();
        let half_full = p.rf() / 2;
        let mut constants: Vec<Vec<F>> = p.full_begin().chunks(t).map(<[F]>::to_vec).collect();
        constants.extend(p.partial().iter().map(|&c| {
            let mut row = vec![F::ZERO; t];
            row[0] = c;
            row
        }));
        constants.extend(p.full_end().chunks(t).map(<[F]>::to_vec));
        let mut h = Sha256::new();
        // The domain string is from the relation's first home, flockwork-gkr: the id is
        // absorbed into every proof's transcript, so it stays (tests/suite/pinned.rs).
        h.update(b"flockwork/gkr/poseidon2/v1");
        h.update([u8::from(p.convention() == Convention::Plonky3)]);
        for v in [t as u64, p.d(), p.rf() as u64, p.rp() as u64] {
            h.update(v.to_le_bytes());
        }
        let mut buf = vec![0u8; F::NUM_BYTES];
        for c in constants.iter().flatten().chain(p.diag_m1()) {
            c.write_bytes(&mut buf);
            h.update(&buf);
        }
        let mut id = b"poseidon2/".to_vec();
        id.extend_from_slice(&h.finalize());
        Self {
            native: Arc::new(perm.clone()),
            convention: p.convention(),
            t,
            d: u32::try_from(p.d()).expect("S-box degree fits in u32"),
            half_full,
            partial: p.rp(),
            constants,
            diag_m1: p.diag_m1().to_vec(),
            external: external_matrix_with(p.convention(), t),
            internal: internal_matrix(p.diag_m1()),
            id,
        }
    }

    fn is_full(&self, r: usize) -> bool {
        r < self.half_full || r >= self.half_full + self.partial
    }

    fn external(&self, state: &mut [F]) {
        match self.convention {
            Convention::HorizenLabs => external_layer(state),
            Convention::Plonky3 => external_layer_plonky3(state),
        }
    }
}

/// The permutation as a [`Relation`] ([`crate::relation`]): one state of `t` elements in, one
/// out, with the permutation's known answers.
impl<F: Poseidon2Field> Relation for Poseidon2Relation<F> {
    type Input = Vec<F>;
    type Output = Vec<F>;
    /// The whole state (an iterated permutation).
    type State = Vec<F>;

    fn name(&self) -> String {
        self.native.name()
    }

    /// # Panics
    /// If `input.len()` is not the width `t`.
    fn evaluate(&self, input: &Vec<F>) -> Vec<F> {
        self.native.evaluate(input)
    }

    fn input_state(&self, input: &Vec<F>) -> Option<Vec<F>> {
        Some(input.clone())
    }

    fn output_state(&self, output: &Vec<F>) -> Option<Vec<F>> {
        Some(output.clone())
    }

    fn known_answers(&self) -> Vec<(Vec<F>, Vec<F>)> {
        self.native.known_answers()
    }
}

/// The state is the `t` lanes, before `M_E` (the input map) and after the last round.
impl<F: Poseidon2Field> LayeredEncoding for Poseidon2Relation<F> {
    fn input_lanes(&self, input: &Vec<F>) -> Vec<F> {
        input.clone()
    }

    fn output_lanes(&self, output: &Vec<F>) -> Vec<F> {
        output.clone()
    }

    fn output_of_lanes(&self, lanes: &[F]) -> Option<Vec<F>> {
        (lanes.len() == self.t).then(|| lanes.to_vec())
    }
}

impl<F: Poseidon2Field> LayeredRelation for Poseidon2Relation<F> {
    type Base = F;

    fn id(&self) -> Vec<u8> {
        self.id.clone()
    }

    fn lanes(&self) -> usize {
        self.t
    }

    fn num_layers(&self) -> usize {
        self.constants.len()
    }

    fn lane_map(&self, layer: usize, lane: usize) -> LaneMap<F> {
        let r = layer - 1;
        if lane == 0 || self.is_full(r) {
            LaneMap::Power {
                shift: self.constants[r][lane],
                exponent: self.d,
            }
        } else {
            LaneMap::Identity
        }
    }

    fn matrix_entry(&self, layer: usize, row: usize, col: usize) -> F {
        if self.is_full(layer - 1) {
            self.external[row][col]
        } else {
            self.internal[row][col]
        }
    }

    fn apply_layer(&self, layer: usize, state: &mut [F]) {
        let r = layer - 1;
        let e = [u64::from(self.d)];
        if self.is_full(r) {
            for (v, &c) in state.iter_mut().zip(&self.constants[r]) {
                *v = (*v + c).pow(&e);
            }
            self.external(state);
        } else {
            state[0] = (state[0] + self.constants[r][0]).pow(&e);
            internal_layer(state, &self.diag_m1);
        }
    }

    fn apply_input(&self, state: &mut [F]) {
        self.external(state);
    }
}
