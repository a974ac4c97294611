//! Poseidon2b (n = 128, t = 4) over GF(2^128) as a 66-layer relation
//! (notes/poseidon2b-gkr.md §(b) "Layers"), for layered provers such as `flockwork-gkr`
//! (feature `layered`, on by default).
//!
//! `S_0 = MF · input` is the committed layer (the initial linear layer is applied outside
//! the walk, [`LayeredRelation::apply_input`]); for `l = 1..=66` and round `r = l − 1`,
//! `S_l = M_r · T_r(S_{l−1})` with `T_{r,j}(s) = (s + rc[r][j])^7` on the S-box lanes (all
//! four in full rounds `r < 4` or `r ≥ 62`, lane 0 in partial rounds) and the identity
//! elsewhere; `M_r = MF` on full rounds and `MP` on partial rounds. `S_66` is the
//! permutation's output (no feed-forward). Every layer has degree 7, so a GKR round
//! polynomial has degree 8.
//!
//! The native kernels are the gadget's ([`apply_mf`], [`apply_mp`] and the S-box); the tests
//! (`tests/suite/layered.rs`) check them against the dense description and the whole walk
//! against [`Poseidon2b::permutation`] and the official check value. The relation is also a
//! [`Relation`] (evaluated by the permutation, with its known answers) and a
//! [`LayeredEncoding`] (the state is the four lanes), checked with
//! [`flockwork_core::relation::check_layered_encoding`].
//!
//! ## The same relation in the tower basis
//!
//! `Poseidon2bRelation<F>` is generic over the field holding its constants. The prover's
//! relation is `Poseidon2bRelation<Ghash128>` (the default) with the fast GHASH kernels
//! above. [`Poseidon2bRelation::to_tower`] maps every round constant and matrix entry through
//! the isomorphism `φ⁻¹: GHASH → T_7` ([`flockwork_field_binary::iso`]) and gives
//! `Poseidon2bRelation<TowerWire128>`, whose layers are computed from the description (dense
//! `4 × 4` matrices, `x^7 = x^4·x^2·x`) in tower arithmetic. Since `φ⁻¹` is a field
//! isomorphism it commutes with every layer, `S_l^T = φ⁻¹(S_l)`, so both describe the same
//! relation and keep the same [`LayeredRelation::id`]; a GHASH proof verifies against either
//! (the [`ChangeOfBasis`] implementation is what `flockwork-gkr`'s `Setup::verify_in_tower`
//! uses).

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use flockwork_core::layered::{ChangeOfBasis, LaneMap, LayeredRelation};
use flockwork_core::relation::{LayeredEncoding, Relation};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::TowerWire128;
use sha2::{Digest, Sha256};

use crate::matrix::{MP_EXPONENTS_T4, apply_mf, apply_mp, mf_bits, mp_bits};
use crate::{
    Ghash128, Instance, Poseidon2b, Poseidon2bField, Poseidon2bLane, ROUNDS, is_full_round, sbox,
};

/// `MF` and `MP` (t = 4) as bit patterns (`x^k` = bit `k`).
const MF_BITS: [[u128; 4]; 4] = mf_bits::<4>();
const MP_BITS: [[u128; 4]; 4] = mp_bits::<4>();

/// Poseidon2b, t = 4, as a [`LayeredRelation`] over [`Ghash128`] (the default) or, through
/// [`Poseidon2bRelation::to_tower`], over [`TowerWire128`] (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2bRelation<F = Ghash128> {
    /// The permutation in the GHASH basis: the relation's native evaluation.
    native: Arc<Poseidon2b<Ghash128, 4>>,
    rc: Vec<[F; 4]>,
    mf: [[F; 4]; 4],
    mp: [[F; 4]; 4],
    id: Vec<u8>,
}

impl<F: Copy> Poseidon2bRelation<F> {
    /// The same relation with every constant (round constants, `MF`, `MP`) mapped by `f`;
    /// the [`LayeredRelation::id`] is kept. `f` must be a field isomorphism for the result to
    /// describe the same permutation ([`Poseidon2bRelation::to_tower`]); anything else gives
    /// a relation that claims the old id but computes something else (tests use one as a
    /// negative control).
    #[must_use]
    pub fn map_field<G>(&self, f: impl Fn(F) -> G) -> Poseidon2bRelation<G> {
        let map_matrix = |m: &[[F; 4]; 4]| m.map(|row| row.map(&f));
        Poseidon2bRelation {
            native: Arc::clone(&self.native),
            rc: self.rc.iter().map(|row| row.map(&f)).collect(),
            mf: map_matrix(&self.mf),
            mp: map_matrix(&self.mp),
            id: self.id.clone(),
        }
    }

    /// [`LayeredRelation::lane_map`], in any basis: `(x + c)^7` on the S-box lanes (all of
    /// them in full rounds, lane 0 in partial rounds), the identity elsewhere.
    fn lane_map_in_basis(&self, layer: usize, lane: usize) -> LaneMap<F> {
        let r = layer - 1;
        if lane == 0 || is_full_round(r) {
            LaneMap::Power {
                shift: self.rc[r][lane],
                exponent: 7,
            }
        } else {
            LaneMap::Identity
        }
    }

    /// [`LayeredRelation::matrix_entry`], in any basis: `MF` in full rounds, `MP` in partial.
    fn matrix_entry_in_basis(&self, layer: usize, row: usize, col: usize) -> F {
        if is_full_round(layer - 1) {
            self.mf[row][col]
        } else {
            self.mp[row][col]
        }
    }
}

impl<F: Field> Poseidon2bRelation<F> {
    /// [`LayeredRelation::layer_term`], in any basis: `Σ_j cw_j (u_j + c_j)^7` on the S-box
    /// lanes, `cw_j u_j` elsewhere, with `x^7 = x^4 · x^2 · x` (two squarings, two products).
    #[inline]
    fn layer_term_in_basis<E: ExtensionField<F>>(&self, layer: usize, cw: &[E], state: &[E]) -> E {
        let r = layer - 1;
        let mut acc = cw[0] * sbox7(state[0] + self.rc[r][0]);
        for j in 1..4 {
            acc += cw[j]
                * if is_full_round(r) {
                    sbox7(state[j] + self.rc[r][j])
                } else {
                    state[j]
                };
        }
        acc
    }
}

impl Poseidon2bRelation<Ghash128> {
    /// The relation in the tower basis: every constant mapped through `φ⁻¹: GHASH → T_7`
    /// ([`TowerWire128::from_ghash`]), the same id (module docs).
    #[must_use]
    pub fn to_tower(&self) -> Poseidon2bRelation<TowerWire128> {
        self.map_field(TowerWire128::from_ghash)
    }

    /// The relation of a permutation instance.
    #[must_use]
    pub fn new(perm: &Poseidon2b<Ghash128, 4>) -> Self {
        let rc = perm.round_constants();
        let mut h = Sha256::new();
        // The domain string is from the relation's first home, flockwork-gkr: the id is
        // absorbed into every proof's transcript, so it stays (tests/suite/pinned.rs).
        h.update(b"flockwork/gkr/poseidon2b-t4/v1");
        h.update([u8::from(perm.instance() == Instance::Official)]);
        for row in &rc {
            for c in row {
                h.update(c.to_bits().to_le_bytes());
            }
        }
        let mut id = b"poseidon2b/t4/".to_vec();
        id.extend_from_slice(&h.finalize());
        Self {
            native: Arc::new(perm.clone()),
            rc,
            mf: perm.mf_matrix(),
            mp: perm.mp_matrix(),
            id,
        }
    }

    /// The official instance ([`crate::official_t4`]).
    #[must_use]
    pub fn official() -> Self {
        Self::new(crate::official_t4())
    }
}

/// The tower-basis image ([`Poseidon2bRelation::to_tower`]).
impl ChangeOfBasis<TowerWire128> for Poseidon2bRelation<Ghash128> {
    type Image = Poseidon2bRelation<TowerWire128>;

    fn change_basis(&self) -> Poseidon2bRelation<TowerWire128> {
        self.to_tower()
    }
}

/// The permutation as a [`Relation`]: one state of four elements in, one out, evaluated by
/// the gadget's permutation ([`Poseidon2b::permutation`], [`Poseidon2b::permute_many`] for a
/// batch), with its known answers.
impl Relation for Poseidon2bRelation<Ghash128> {
    type Input = [Ghash128; 4];
    type Output = [Ghash128; 4];
    /// The whole state (an iterated permutation).
    type State = [Ghash128; 4];

    fn name(&self) -> String {
        self.native.name()
    }

    fn evaluate(&self, input: &[Ghash128; 4]) -> [Ghash128; 4] {
        self.native.evaluate(input)
    }

    fn evaluate_batch(&self, inputs: &[[Ghash128; 4]]) -> Vec<[Ghash128; 4]> {
        self.native.evaluate_batch(inputs)
    }

    fn input_state(&self, input: &Self::Input) -> Option<[Ghash128; 4]> {
        Some(*input)
    }

    fn output_state(&self, output: &Self::Output) -> Option<[Ghash128; 4]> {
        Some(*output)
    }

    fn known_answers(&self) -> Vec<([Ghash128; 4], [Ghash128; 4])> {
        self.native.known_answers()
    }
}

/// The state is the four lanes, before `MF` (the input map) and after the last round.
impl LayeredEncoding for Poseidon2bRelation<Ghash128> {
    fn input_lanes(&self, input: &[Ghash128; 4]) -> Vec<Ghash128> {
        input.to_vec()
    }

    fn output_lanes(&self, output: &[Ghash128; 4]) -> Vec<Ghash128> {
        output.to_vec()
    }

    fn output_of_lanes(&self, lanes: &[Ghash128]) -> Option<[Ghash128; 4]> {
        lanes.try_into().ok()
    }
}

/// `v · x^k` ([`crate::ghash_mul_monomial`]).
#[inline(always)]
fn mulx(v: Ghash128, k: u32) -> Ghash128 {
    Ghash128::new(crate::ghash_mul_monomial(v.to_bits(), k))
}

/// `s ← MF · s` (the gadget's addition chain, `matrix::apply_mf`).
#[inline(always)]
fn mf(s: &mut [Ghash128]) {
    let (a, b, c, d) = (s[0], s[1], s[2], s[3]);
    let t0 = a + b;
    let t1 = c + d;
    let t2 = mulx(b, 1) + t1;
    let t3 = mulx(d, 1) + t0;
    let t4 = mulx(t1, 2) + t3;
    let t5 = mulx(t0, 2) + t2;
    s[0] = t3 + t5;
    s[1] = t5;
    s[2] = t2 + t4;
    s[3] = t4;
}

/// `s ← MP · s`: `out_i = Σ_j s_j + s_i + x^{e_i}·s_i`.
#[inline(always)]
fn mp(s: &mut [Ghash128]) {
    let total = s[0] + s[1] + s[2] + s[3];
    for (v, &e) in s.iter_mut().zip(&MP_EXPONENTS_T4) {
        *v = total + *v + mulx(*v, e);
    }
}

/// Rows per block of [`Poseidon2bRelation::apply_layer_rows`]'s slice S-boxes.
const SBOX_BLOCK: usize = 256;

/// The state of one row as an array (`t = 4`).
fn state4(state: &mut [Ghash128]) -> &mut [Ghash128; 4] {
    state.try_into().expect("Poseidon2b states have 4 lanes")
}

/// The methods both bases share: the description, read from the constants in the basis `$F`,
/// and the verifier's final check ([`Poseidon2bRelation::layer_term_in_basis`]).
macro_rules! description {
    ($F:ty) => {
        type Base = $F;

        fn id(&self) -> Vec<u8> {
            self.id.clone()
        }

        fn lanes(&self) -> usize {
            4
        }

        fn num_layers(&self) -> usize {
            ROUNDS
        }

        fn lane_map(&self, layer: usize, lane: usize) -> LaneMap<$F> {
            self.lane_map_in_basis(layer, lane)
        }

        fn matrix_entry(&self, layer: usize, row: usize, col: usize) -> $F {
            self.matrix_entry_in_basis(layer, row, col)
        }

        fn layer_degree(&self, _layer: usize) -> usize {
            7
        }

        fn max_degree(&self) -> usize {
            7
        }

        fn layer_term<E: ExtensionField<$F>>(&self, layer: usize, cw: &[E], state: &[E]) -> E {
            self.layer_term_in_basis(layer, cw, state)
        }
    };
}

impl LayeredRelation for Poseidon2bRelation<Ghash128> {
    description!(Ghash128);

    #[inline]
    fn apply_layer(&self, layer: usize, state: &mut [Ghash128]) {
        let r = layer - 1;
        let s = state4(state);
        let rc = &self.rc[r];
        if is_full_round(r) {
            for (v, &c) in s.iter_mut().zip(rc) {
                *v = sbox(*v + c);
            }
            apply_mf(s);
        } else {
            s[0] = sbox(s[0] + rc[0]);
            apply_mp(s);
        }
    }

    fn apply_input(&self, state: &mut [Ghash128]) {
        apply_mf(state4(state));
    }

    /// Blocks of rows with the S-boxes as slice kernels (`Poseidon2bField::sbox_slice`:
    /// four products per instruction with VPCLMULQDQ-512), then the linear layer per row.
    fn apply_layer_rows(&self, layer: usize, rows: &mut [Ghash128]) {
        let r = layer - 1;
        let rc = &self.rc[r];
        let mut lane0 = [Ghash128::ZERO; SBOX_BLOCK];
        let mut s2 = [Ghash128::ZERO; 4 * SBOX_BLOCK];
        let mut s3 = [Ghash128::ZERO; 4 * SBOX_BLOCK];
        for block in rows.chunks_mut(4 * SBOX_BLOCK) {
            if is_full_round(r) {
                for state in block.chunks_exact_mut(4) {
                    for (v, &c) in state.iter_mut().zip(rc) {
                        *v += c;
                    }
                }
                Ghash128::sbox_slice(block, &mut s2, &mut s3);
                for state in block.chunks_exact_mut(4) {
                    mf(state);
                }
            } else {
                let n = block.len() / 4;
                for (x, state) in lane0.iter_mut().zip(block.chunks_exact(4)) {
                    *x = state[0] + rc[0];
                }
                Ghash128::sbox_slice(&mut lane0[..n], &mut s2, &mut s3);
                for (&x, state) in lane0.iter().zip(block.chunks_exact_mut(4)) {
                    state[0] = x;
                    mp(state);
                }
            }
        }
    }

    fn apply_input_rows(&self, rows: &mut [Ghash128]) {
        for state in rows.chunks_exact_mut(4) {
            mf(state);
        }
    }

    /// `cw = M^T w` with the matrix entries as sums of monomials `x^k` (bit patterns of
    /// `MF`/`MP`): shifts on the `GF(2^128)` coordinates of `w`, no products.
    fn fold_weights<E: ExtensionField<Ghash128>>(
        &self,
        layer: usize,
        weights: &[E],
        out: &mut [E],
    ) {
        let bits = if is_full_round(layer - 1) {
            MF_BITS
        } else {
            MP_BITS
        };
        let deg = E::DEGREE;
        let mut coords = vec![Ghash128::ZERO; 4 * deg];
        for (w, c) in weights.iter().zip(coords.chunks_exact_mut(deg)) {
            w.to_base_coeffs(c);
        }
        let mut acc = vec![Ghash128::ZERO; deg];
        for (j, o) in out.iter_mut().enumerate().take(4) {
            acc.fill(Ghash128::ZERO);
            for (i, c) in coords.chunks_exact(deg).enumerate() {
                let mut b = bits[i][j];
                while b != 0 {
                    let k = b.trailing_zeros();
                    for (a, &v) in acc.iter_mut().zip(c) {
                        *a += v.mul_monomial(k);
                    }
                    b &= b - 1;
                }
            }
            *o = E::from_base_coeffs(&acc);
        }
    }
}

/// `x^7 = x^4 · x^2 · x` (two squarings, two products) in any field.
#[inline(always)]
fn sbox7<E: Field>(x: E) -> E {
    let x2 = x.square();
    x2.square() * x2 * x
}

/// `s ← M · s` for a dense `4 × 4` matrix over the base field.
fn dense_matrix<B: Field, E: ExtensionField<B>>(m: &[[B; 4]; 4], s: &mut [E]) {
    let v = [s[0], s[1], s[2], s[3]];
    for (out, row) in s.iter_mut().zip(m) {
        *out = v.iter().zip(row).map(|(&x, &c)| x * c).sum();
    }
}

/// Poseidon2b in the tower basis, from its description: dense matrices and `x^7` in tower
/// arithmetic ([`TowerWire128`]), for verifiers (and tests). No GHASH kernel is used.
impl LayeredRelation for Poseidon2bRelation<TowerWire128> {
    description!(TowerWire128);

    fn apply_layer(&self, layer: usize, state: &mut [TowerWire128]) {
        let r = layer - 1;
        let rc = &self.rc[r];
        if is_full_round(r) {
            for (v, &c) in state.iter_mut().zip(rc) {
                *v = sbox7(*v + c);
            }
            dense_matrix(&self.mf, state);
        } else {
            state[0] = sbox7(state[0] + rc[0]);
            dense_matrix(&self.mp, state);
        }
    }

    fn apply_input(&self, state: &mut [TowerWire128]) {
        dense_matrix(&self.mf, state);
    }
}
