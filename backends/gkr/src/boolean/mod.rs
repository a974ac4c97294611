//! GKR for Boolean layered relations ([`flockwork_core::boolean_layered`]) over GF(2^128):
//! many instances of an AND/XOR permutation (Keccak-f\[1600\]) proved layer by layer, the
//! prover working on the bit-sliced trace. Issue "Boolean hashes through GKR", item 2, first
//! increment: one region of `K = 2^k` instances, public inputs and outputs, every layer's
//! input bits evaluated at one point per layer.
//!
//! ## The relation
//!
//! Layer `l = 1, …, L` maps the state `S_{l−1}` (`w_{l−1}` bits) to `S_l` with one gate per
//! output bit, `S_l[j] = L0_j(S_{l−1}) ⊕ (L1_j(S_{l−1}) ∧ L2_j(S_{l−1}))`, the `Lk_j` affine
//! F2 forms. Embedded in `F = GF(2^128)` ([`Ghash128`]), with `S_{l,i}(x)` the multilinear
//! extension in the instance index `x ∈ {0,1}^k` (bit `t` of `x` is variable `t`) of bit `i`
//! of layer `l`, on the cube `S_{l,j}(x) = g_{l,j}(S_{l−1}(x))`, `g = L0 + L1·L2`
//! (Thaler, *Proofs, Arguments, and Zero-Knowledge*, §4.6).
//!
//! ## The protocol
//!
//! Transcript ([`TranscriptScheme`] `D`, SHA-256 by default): protocol string
//! [`PROTOCOL`], instance `id(R) ‖ u64le(k) ‖ u64le(L) ‖ u64le(w_0) ‖ u64le(w_L)`; then the
//! public inputs and outputs (their instance-major `u64` words, little-endian) are absorbed.
//!
//! 1. **Output claim.** Squeeze `z ∈ F^k` and `α`; weights `β_j = α^{j+1}` over the `w_L`
//!    output bits. Both sides compute `v = Σ_j β_j Ŝ_{L,j}(z)` from the public outputs
//!    (`Ŝ` the outputs' multilinear extensions).
//! 2. **Layer `l = L, …, 1`.** The claim `v = Σ_j β_j S_{l,j}(z)` is, by the identity above,
//!    `Σ_{x∈{0,1}^k} eq(z, x) · Σ_j β_j g_{l,j}(S_{l−1}(x))`, a sum of a polynomial of
//!    degree 3 in each variable (eq: 1, the product of two affine forms of multilinears: 2).
//!    A sumcheck over `x`, variables bound least significant first, reduces it to the
//!    point `r ∈ F^k`: round `m` sends `p_m(X)` in monomial form without `c_1`,
//!    `(c_0, c_2, c_3)` (the verifier restores `c_1 = v + c_2 + c_3` from
//!    `p_m(0) + p_m(1) = v` in characteristic 2), squeezes `r_m` and sets `v = p_m(r_m)`.
//!    The prover then sends the `w_{l−1}` values `u_i = S_{l−1,i}(r)` and the verifier
//!    checks `v = eq(z, r) · Σ_j β_j g_{l,j}(u)`
//!    ([`BooleanLayered::layer_term`](flockwork_core::boolean_layered::BooleanLayered::layer_term)).
//!    Unless `l = 1` it squeezes `α`, sets `β_i = α^{i+1}` over the `w_{l−1}` bits,
//!    `v = Σ_i β_i u_i` and `z = r`: the next layer's claim.
//! 3. **Input check.** After layer 1 the values `u` are claims `S_{0,i}(r) = u_i` on the
//!    public inputs; the verifier evaluates the inputs' multilinear extensions at `r` and
//!    compares all `w_0` values.
//!
//! Proof: [`PROOF_MAGIC`] ‖ version `u16` LE ‖ layout byte ([`LAYOUT_SINGLE`]: one region) ‖
//! the transcript bytes, `Σ_l (3k + w_{l−1})` elements of 16 bytes ([`BooleanGkr::proof_len`];
//! the verifier checks the exact length before reading).
//!
//! ## Soundness
//!
//! Challenges are uniform in `F`, `|F| = 2^128`. The output claim: if the claimed outputs
//! differ from the true ones, some `Ŝ_{L,j} − S_{L,j}` is a nonzero multilinear polynomial,
//! nonzero at `z` except with probability `≤ k/|F|`, and then `Σ_j α^{j+1}(…)` is a nonzero
//! polynomial of degree `w_L` in `α` (Schwartz–Zippel): `≤ (k + w_L)/|F|`. Each of the `k`
//! rounds of a layer: `≤ 3/|F|` (degree 3). Each batching of a layer's `w_{l−1}` values into
//! the next claim: `≤ w_{l−1}/|F|`. The final checks are exact. By the union bound
//!
//! ```text
//! ε ≤ (k + w_L + 3kL + Σ_{l=1}^{L−1} w_l) / 2^128,
//! ```
//!
//! [`BooleanGkr::soundness_bits`]: 112.7 bits for Keccak-f at `k = 14` (24 layers of 1600
//! bits), so GF(2^128) suffices and no GF(2^256) extension is needed. This is the
//! interactive (round-by-round) bound; Fiat–Shamir multiplies it by the attacker's hash
//! queries.
//!
//! ## The prover on bits
//!
//! The trace stays bit-sliced ([`BooleanLayered::trace_packed`](flockwork_core::boolean_layered::BooleanLayered::trace_packed)
//! over `u64`: instance `x = 64b + t` is bit `t` of block `b`'s word), and the forms of a
//! layer are evaluated with its compiled program ([`LayerForms`](flockwork_core::boolean_layered::LayerForms):
//! every distinct linear part once, by additions only — XOR on words, field addition on
//! folded values). With Gruen's factoring `p_m(X) = eq(z_{<m}, r_{<m}) · eq(z_m, X) · q_m(X)`
//! the prover computes the quadratic `q_m` from `q_m(0)`, its leading coefficient `q_m(∞)`
//! and the claim (`q_m(1)` directly only when `eq(z_{<m}, r_{<m})·z_m = 0`):
//!
//! * **rounds 0 … 5** (the variables inside a word) on bits, over the grid `{0,1,∞}^6`
//!   (the `ternary` module states the maths): `q_m` is a combination, with Lagrange weights in
//!   `r_{<m}`, of the grid sums `G(ρ) = Σ_x eq(z_{≥6}, x)·Σ_j β_j g_j(ρ, x)`, and on the grid
//!   a form is a bit (its value at `∞` is its slope `B(0) ⊕ B(1)`), a product an AND. The
//!   words are transposed (a word holds one position of 64 blocks), the forms evaluated by
//!   XOR, expanded to the `3^6` points, multiplied, and weighted by eq over the word's 64
//!   blocks with eight 256-entry tables of eq sums ("four Russians"), then by `β_j`: `G` is
//!   computed once per layer and serves all six rounds (`3^6 + 2^6` weighted words per gate
//!   and 64 blocks, against 31 pairs of field rows per block when the rounds are computed on
//!   folded rows, the strategy the tests compare it with);
//! * **rounds 6 … k−1**: one table of `w_{l−1}` field values per block (the words folded at
//!   `r_{<6}` with the byte tables), folded after each round, rows in parallel; per pair of
//!   rows the forms by the program, then the gates' products and their `β`-weighted sums.
//!
//! Field products in bulk (by `β_j`, the rows' products, the folds, the public IO's
//! evaluation) go through the field's batched kernels
//! ([`flockwork_field_binary::ghash::batch`], VPCLMULQDQ when the CPU has it). The public
//! inputs and outputs are evaluated bit-sliced: per word of 64 instances eight lookups in the
//! byte tables of `eq` over the word's variables, per block one multiply-add by `eq` of the
//! block. Work units run on rayon (feature `parallel`).
//!
//! ## Design note: `w_{l−1}` values per layer
//!
//! Sending every `S_{l−1,i}(r)` costs `16·w_{l−1}` bytes per layer (25.6 kB for Keccak, so
//! 630 kB for 24 layers at `k = 14`, against `3k` round elements), and the verifier's work
//! is `O(Σ_l (w_l · |form|) + 2^k (w_0 + w_L))`. It is the price of needing no wiring
//! predicate: the forms are read directly at the layer values. Fewer values need another
//! reduction: the classic GKR treats the bit index as `log w` more sumcheck variables and
//! sends two values per layer, but its verifier evaluates the multilinear extension of the
//! layer's wiring (θ's 11-term parities, ρ, π), which for Keccak costs more than reading
//! 1600 values. Hashcaster (L. Soukhanov, `hackmd.io/@levs57/SJ4fuZMD0`) packs 128 instances
//! per element (`k − 7` variables) and reduces the end-of-layer claims on the packed columns
//! (their Frobenius twists) with a further sumcheck; the packed prover of the next
//! increment should measure that trade against this one.
//!
//! ## Not yet
//!
//! One region of `2^k` instances (the three batchers of [`crate::Variant`] do not apply
//! yet); inputs and outputs public (no commitment to `S_0`).

mod prover;
mod ternary;
mod verifier;

use std::marker::PhantomData;

use flockwork_core::boolean_layered::BooleanLayeredRelation;
use flockwork_core::boolean_layered::pack_instances;
use flockwork_core::eq_table;
use flockwork_field::Field;
use flockwork_field_binary::ghash::Ghash256Unreduced;
use flockwork_field_binary::ghash::batch::add_mul_scalar;
use flockwork_transcript::{Sha256, Transcript, TranscriptScheme};

use crate::{Ghash128, GkrError, ProveError};

/// The field of every value and challenge.
pub type F = Ghash128;

/// Magic bytes that open every Boolean GKR proof.
pub const PROOF_MAGIC: [u8; 4] = *b"FWBG";
/// Proof format version.
pub const PROOF_VERSION: u16 = 1;
/// Layout byte: one region of `2^k` instances.
pub const LAYOUT_SINGLE: u8 = 1;
/// Header length: magic, version, layout.
pub const HEADER_LEN: usize = 7;
/// The largest `k` (instances `2^k`).
pub const MAX_LOG_COUNT: usize = 30;
/// The transcript's protocol string.
pub const PROTOCOL: &str = "flockwork/gkr/boolean/v1";

/// Label of the public inputs.
pub const LABEL_INPUTS: &str = "gkr/boolean/inputs";
/// Label of the public outputs.
pub const LABEL_OUTPUTS: &str = "gkr/boolean/outputs";
/// Label of the output point `z`.
pub const LABEL_POINT: &str = "gkr/boolean/point";
/// Label of a batching challenge `α`.
pub const LABEL_ALPHA: &str = "gkr/boolean/alpha";
/// Label of a round message `(c_0, c_2, c_3)`.
pub const LABEL_ROUND: &str = "gkr/boolean/round";
/// Label of a round challenge `r_m`.
pub const LABEL_CHALLENGE: &str = "gkr/boolean/challenge";
/// Label of a layer's values `S_{l−1,i}(r)`.
pub const LABEL_LAYER_VALUES: &str = "gkr/boolean/layer-values";

/// What is public about `2^k` instances: their inputs and outputs as instance-major `u64`
/// words (instance `x`'s bit `i` is bit `i mod 64` of word `x·⌈w/64⌉ + i/64`, the layout
/// [`flockwork_core::boolean_layered::pack_instances`] reads; bits past the width are 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanStatement {
    /// `k`.
    pub log_count: usize,
    /// `2^k · ⌈w_0/64⌉` words.
    pub inputs: Vec<u64>,
    /// `2^k · ⌈w_L/64⌉` words.
    pub outputs: Vec<u64>,
}

/// GKR over GF(2^128) for `2^k` instances of a Boolean layered relation (module docs), with
/// transcript `D`.
#[derive(Clone, Debug)]
pub struct BooleanGkr<R, D = Sha256> {
    relation: R,
    log_count: usize,
    _marker: PhantomData<fn() -> D>,
}

impl<R, D> BooleanGkr<R, D>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    /// A setup for `2^log_count` instances.
    ///
    /// # Panics
    /// If `log_count > MAX_LOG_COUNT`.
    #[must_use]
    pub fn new(relation: R, log_count: usize) -> Self {
        assert!(log_count <= MAX_LOG_COUNT, "too many instances");
        Self {
            relation,
            log_count,
            _marker: PhantomData,
        }
    }

    /// The relation.
    pub fn relation(&self) -> &R {
        &self.relation
    }

    /// `k`.
    #[must_use]
    pub fn log_count(&self) -> usize {
        self.log_count
    }

    /// The honest statement about `inputs` (instance-major words, `2^k · ⌈w_0/64⌉` of them):
    /// the outputs by the packed evaluation.
    ///
    /// # Panics
    /// If `inputs` has the wrong length.
    #[must_use]
    pub fn statement(&self, inputs: Vec<u64>) -> BooleanStatement {
        let layers = self.relation.boolean_layers();
        let count = 1usize << self.log_count;
        assert_eq!(
            inputs.len(),
            count * layers.input_width().div_ceil(64),
            "input words"
        );
        let packed = flockwork_core::boolean_layered::pack_instances::<u64>(
            layers.input_width(),
            &inputs,
            count,
        );
        let outputs = flockwork_core::boolean_layered::unpack_instances(
            layers.output_width(),
            &layers.evaluate_packed(&packed),
            count,
        );
        BooleanStatement {
            log_count: self.log_count,
            inputs,
            outputs,
        }
    }

    /// Field elements in a proof: `Σ_l (3k + w_{l−1})`.
    #[must_use]
    pub fn proof_elements(&self) -> usize {
        let layers = self.relation.boolean_layers();
        (1..=layers.num_layers())
            .map(|l| 3 * self.log_count + layers.width(l - 1))
            .sum()
    }

    /// The proof length in bytes, header included.
    #[must_use]
    pub fn proof_len(&self) -> usize {
        HEADER_LEN + F::NUM_BYTES * self.proof_elements()
    }

    /// `−log2 ε` of the module docs' bound.
    #[must_use]
    pub fn soundness_bits(&self) -> f64 {
        let layers = self.relation.boolean_layers();
        let (k, l) = (self.log_count, layers.num_layers());
        let batching: usize = (1..l).map(|i| layers.width(i)).sum();
        let failures = k + layers.output_width() + 3 * k * l + batching;
        f64::from(F::ORDER_BITS) - (failures.max(1) as f64).log2()
    }

    /// The transcript's instance bytes.
    fn instance_bytes(&self) -> Vec<u8> {
        let layers = self.relation.boolean_layers();
        let mut out = self.relation.id();
        for v in [
            self.log_count,
            layers.num_layers(),
            layers.input_width(),
            layers.output_width(),
        ] {
            out.extend_from_slice(&(v as u64).to_le_bytes());
        }
        out
    }

    /// Checks the statement's shape: `k`, word counts, zero bits past the widths.
    fn check_statement(&self, statement: &BooleanStatement) -> Result<(), &'static str> {
        let layers = self.relation.boolean_layers();
        if statement.log_count != self.log_count {
            return Err("instance count differs from the setup");
        }
        let count = 1usize << self.log_count;
        for (words, width) in [
            (&statement.inputs, layers.input_width()),
            (&statement.outputs, layers.output_width()),
        ] {
            let per = width.div_ceil(64);
            if words.len() != count * per {
                return Err("public words of the wrong length");
            }
            if width % 64 != 0 {
                let mask = !0u64 << (width % 64);
                if words.chunks_exact(per).any(|w| w[per - 1] & mask != 0) {
                    return Err("bits set past the state width");
                }
            }
        }
        Ok(())
    }

    /// Proves the statement (its inputs are the witness); the proof of a false statement
    /// fails verification.
    ///
    /// # Errors
    /// [`ProveError::Statement`] if the statement does not fit the setup.
    pub fn prove(&self, statement: &BooleanStatement) -> Result<Vec<u8>, ProveError> {
        self.check_statement(statement)
            .map_err(ProveError::Statement)?;
        Ok(flockwork_core::on_worker(|| prover::prove(self, statement)))
    }

    /// Verifies `proof` for `statement`.
    ///
    /// # Errors
    /// [`GkrError::Header`], [`GkrError::ProofLength`], [`GkrError::Statement`],
    /// [`GkrError::Transcript`] for malformed input; [`GkrError::LayerCheck`] or
    /// [`GkrError::Terminal`] for a false proof.
    pub fn verify(&self, statement: &BooleanStatement, proof: &[u8]) -> Result<(), GkrError> {
        verifier::verify(self, statement, proof)
    }
}

/// `α, α², …, α^n`.
fn powers(alpha: F, n: usize) -> Vec<F> {
    let mut out = Vec::with_capacity(n);
    let mut p = alpha;
    for _ in 0..n {
        out.push(p);
        p *= alpha;
    }
    out
}

/// Eight tables of 256 entries: `tables[p][v] = Σ_{s : bit s of v} weights[8p + s]` (weights
/// past the end are 0), so `Σ_t weights[t]·bit_t(word)` is eight lookups ("four Russians").
type ByteTables = [[u128; 256]; 8];

/// The [`ByteTables`] of `weights` (at most 64).
fn byte_tables(weights: &[F]) -> Box<ByteTables> {
    let mut tables = Box::new([[0u128; 256]; 8]);
    for (p, table) in tables.iter_mut().enumerate() {
        for v in 1..256usize {
            let s = v.trailing_zeros() as usize;
            let w = weights.get(8 * p + s).copied().unwrap_or(F::ZERO);
            table[v] = table[v & (v - 1)] ^ w.to_bits();
        }
    }
    tables
}

/// `Σ_t weights[t]·bit_t(word)` by [`byte_tables`].
#[inline]
fn table_sum(tables: &ByteTables, word: u64) -> F {
    let b = word.to_le_bytes();
    let even = tables[0][b[0] as usize] ^ tables[2][b[2] as usize];
    let odd = tables[1][b[1] as usize] ^ tables[3][b[3] as usize];
    let even = even ^ tables[4][b[4] as usize] ^ tables[6][b[6] as usize];
    let odd = odd ^ tables[5][b[5] as usize] ^ tables[7][b[7] as usize];
    F::new(even ^ odd)
}

/// The multilinear extensions of the `width` bits of `count = 2^k` instances (instance-major
/// words, statement layout) at `point` (`k` coordinates): `Σ_x eq(point, x) · bit_i(x)` for
/// every bit `i`. The words are bit-sliced (64 instances per word), each word weighted by
/// `eq` of its 64 instances with byte tables, then by `eq` of its block with the field's
/// batched multiply-add.
fn public_evaluations(width: usize, words: &[u64], point: &[F]) -> Vec<F> {
    let count = 1usize << point.len();
    let c = point.len().min(6);
    let tables = byte_tables(&eq_table(&point[..c]));
    let eq_hi = eq_table(&point[c..]);
    let packed = pack_instances::<u64>(width, words, count);
    let mut acc = vec![F::ZERO; width];
    let mut sums = vec![F::ZERO; width];
    for (block, &e) in packed.chunks_exact(width.max(1)).zip(&eq_hi) {
        for (s, &word) in sums.iter_mut().zip(block) {
            *s = table_sum(&tables, word);
        }
        add_mul_scalar(&mut acc, &sums, e);
    }
    acc
}

/// `Σ_i β_i v_i`.
fn weighted(beta: &[F], values: &[F]) -> F {
    beta.iter()
        .zip(values)
        .fold(Ghash256Unreduced::ZERO, |acc, (&b, &v)| {
            acc ^ b.mul_unreduced(v)
        })
        .reduce()
}

/// What both sides do before the layers: absorb the public IO, squeeze `z` and the output
/// weights; returns `(z, β)`.
fn start_transcript<T: Transcript>(
    transcript: &mut T,
    statement: &BooleanStatement,
    output_width: usize,
) -> (Vec<F>, Vec<F>) {
    let bytes = |words: &[u64]| {
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<_>>()
    };
    transcript.public_bytes(LABEL_INPUTS, &bytes(&statement.inputs));
    transcript.public_bytes(LABEL_OUTPUTS, &bytes(&statement.outputs));
    let z = transcript.challenges::<F>(LABEL_POINT, statement.log_count);
    let alpha: F = transcript.challenge(LABEL_ALPHA);
    (z, powers(alpha, output_width))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit-sliced evaluation of the public words agrees with the definition
    /// `Σ_x eq(point, x)·bit_i(x)`, for counts inside one word, one word and several, and
    /// widths that are not multiples of 64.
    #[test]
    fn public_evaluations_match_definition() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for (k, width) in [(0usize, 3usize), (3, 70), (6, 64), (8, 130)] {
            let per = width.div_ceil(64);
            let count = 1usize << k;
            let words: Vec<u64> = (0..count * per)
                .map(|i| {
                    let bits = width - 64 * (i % per);
                    let w = next();
                    if bits >= 64 {
                        w
                    } else {
                        w & ((1u64 << bits) - 1)
                    }
                })
                .collect();
            let point: Vec<F> = (0..k)
                .map(|_| F::new(u128::from(next()) << 64 | u128::from(next())))
                .collect();
            let eq = eq_table(&point);
            let want: Vec<F> = (0..width)
                .map(|i| {
                    (0..count)
                        .filter(|&x| words[x * per + i / 64] >> (i % 64) & 1 == 1)
                        .map(|x| eq[x])
                        .sum()
                })
                .collect();
            assert_eq!(public_evaluations(width, &words, &point), want, "k = {k}");
        }
    }
}
