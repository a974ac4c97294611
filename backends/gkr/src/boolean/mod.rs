//! GKR for Boolean layered relations ([`flockwork_core::boolean_layered`]) over GF(2^128):
//! many instances of an AND/XOR permutation (Keccak-f\[1600\]) proved layer by layer, the
//! prover working on the bit-sliced trace. Instances come in regions of `2^{w_a}` (any count
//! as the regions of its binary digits), batched by one of the three strategies of
//! [`Variant`]; inputs and outputs are public ([`BooleanGkr::prove`]) or committed
//! ([`BooleanGkr::prove_io`]).
//!
//! ## The relation
//!
//! Layer `l = 1, …, L` maps the state `S_{l−1}` (`w_{l−1}` bits) to `S_l` with one gate per
//! output bit, `S_l[j] = L0_j(S_{l−1}) ⊕ (L1_j(S_{l−1}) ∧ L2_j(S_{l−1}))`, the `Lk_j` affine
//! F2 forms. Embedded in `F = GF(2^128)` ([`Ghash128`]), with `S_{l,a,i}(x)` the multilinear
//! extension in region `a`'s instance index `x ∈ {0,1}^{w_a}` (bit `t` of `x` is variable
//! `t`) of bit `i` of layer `l`, on the cube `S_{l,a,j}(x) = g_{l,j}(S_{l−1,a}(x))`,
//! `g = L0 + L1·L2` (Thaler, *Proofs, Arguments, and Zero-Knowledge*, §4.6).
//!
//! ## One walk
//!
//! A walk covers regions `a ∈ S` (all of them, or one for [`Variant::Independent`]) with
//! `W = max_{a∈S} w_a` rounds per layer; region `a` has `k_a` coordinates: `k_a = W` for
//! [`Variant::Padded`] (its instances padded to `2^W` with the zero input's states), `w_a`
//! otherwise. It starts from one output claim per region, `Σ_j β_{a,j} S_{L,a,j}(z_a) = v_a`
//! (`z_a` extended by zeros to `k_a` coordinates: `eq((z, 0…0), x) = eq(z, x_{<w_a})·χ(x_{≥w_a})`
//! vanishes on the padding, so the claim is unchanged).
//!
//! **Layer `l = L, …, 1`.** The claim `Σ_a v_a` is, by the identity above,
//! `Σ_a Σ_{x∈{0,1}^W} eq(z_a, x_{<k_a})·χ_a(x_{≥k_a})·Σ_j β_{a,j} g_{l,j}(S_{l−1,a}(x_{<k_a}))`
//! with the ragged selector `χ_a(y) = Π (1 + y_j)` (1 on the rows whose high bits are 0,
//! [`crate::walk::selector`]), a polynomial of degree 3 in each variable (eq: 1, the product
//! of two affine forms of multilinears: 2). A sumcheck over `x`, variables bound least
//! significant first, reduces it to the point `r ∈ F^W`: round `m` sends
//! `p_m = Σ_a p_{a,m}` in monomial form without `c_1`, `(c_0, c_2, c_3)` (the verifier
//! restores `c_1 = v + c_2 + c_3` from `p_m(0) + p_m(1) = v` in characteristic 2), squeezes
//! `r_m` and sets `v = p_m(r_m)`. Region `a`'s part `p_{a,m}` is its own sumcheck's round
//! polynomial for `m < k_a` and `v_{a,m}·(1 + X)` past it (the selector's factor, `v_{a,m}`
//! the region's running claim). The prover then sends every region's `w_{l−1}` values
//! `u_{a,i} = S_{l−1,a,i}(r_{<k_a})` and the verifier checks
//! `v = Σ_a eq(z_a, r_{<k_a})·χ_a(r_{≥k_a})·Σ_j β_{a,j} g_{l,j}(u_a)`
//! ([`BooleanLayered::layer_term`](flockwork_core::boolean_layered::BooleanLayered::layer_term)).
//! Unless `l = 1` it squeezes `α`, sets `β_{a,i} = α^{w_{l−1}·n_a + i + 1}` (`n_a` the
//! region's position in the walk), `v_a = Σ_i β_{a,i} u_{a,i}` and `z_a = r_{<k_a}`.
//! After layer 1 the values `u_a` are the terminal claims `S_{0,a,i}(r_{<k_a}) = u_{a,i}`
//! on the (padded) inputs: padded, `S_{0,a}(r) = χ(r_{≥w_a})·S_{0,a}(r_{<w_a})`, as the zero
//! input's bits are 0.
//!
//! ## The three batchers
//!
//! | [`Variant`] | walks | rows the prover touches | proof elements |
//! |---|---|---|---|
//! | `Independent` | one per region, each with its own transcript | `Σ_a 2^{w_a}` | `Σ_a Σ_l (3w_a + w_{l−1})` |
//! | `Padded` | one, every region padded to `2^W` | `A·2^W` | `Σ_l (3W + A·w_{l−1})` |
//! | `Ragged` | one, regions at native size with the selector | `Σ_a 2^{w_a}` | `Σ_l (3W + A·w_{l−1})` |
//!
//! ## Public inputs and outputs
//!
//! Transcript ([`TranscriptScheme`] `D`, SHA-256 by default) of protocol
//! `"flockwork/gkr/boolean/<variant>/v2"`, instance `id(R) ‖ variant ‖ io ‖ u64le(L) ‖
//! u64le(w_0) ‖ u64le(w_L) ‖ u64le(A) ‖ u64le(w_a)… [‖ u64le(a)]` (the region for an
//! independent walk). It absorbs the walk's regions' public inputs and outputs (their
//! instance-major `u64` words, little-endian), squeezes `z_a ∈ F^{w_a}` per region and one
//! `α`; `β_{a,j} = α^{w_L·n_a + j + 1}` and both sides compute `v_a = Σ_j β_{a,j} Ŝ_{L,a,j}(z_a)`
//! from the public outputs (`Ŝ` their multilinear extensions). After the walk the verifier
//! evaluates the inputs' extensions and checks `u_{a,i} = χ_a·Ŝ_{0,a,i}(r_{<w_a})` exactly.
//!
//! ## Committed inputs and outputs
//!
//! The statement "these committed inputs map to these committed outputs": the bits of every
//! region's `S_0` and `S_L` form one Boolean polynomial `P` ([`BooleanGkr::io_layout`]): per
//! region two slabs (inputs, outputs) of `2^{w_a + b}` bits, `b = ⌈log2 max(w_0, w_L)⌉`, bit
//! `i` of instance `x` at `x + 2^{w_a}·i`, so a slab is the multilinear `P_{a}(x, i)` over
//! instance and bit-index variables, placed as an aligned block of the high variables
//! ([`crate::InputLayout`]); bit indices past the width are 0. `P` is committed through
//! ring-switching (`flockwork_pcs::ring_switch`: 128 bits per GF(2^128) element) over any
//! dense scheme (Ligerito, FRI, Blaze). Each walk's transcript has the instance above
//! followed by the commitment, so every challenge comes after it:
//!
//! 1. **Outputs.** Per region squeeze `z_a ∈ F^{w_a}` and `s'_a ∈ F^b`; the prover sends
//!    `v_a = P_{a,out}(z_a, s'_a)`, and the walk starts from `β_{a,j} = eq(s'_a, j)`
//!    (`Σ_j eq(s'_a, j)·S_{L,a,j}(z_a) = v_a`: one value per region instead of `w_L`).
//! 2. **The walk** as above.
//! 3. **Inputs.** After the walk, per region squeeze `s_a ∈ F^b`: the `w_0` terminal claims
//!    become the one claim `χ_a·P_{a,in}(r_{<w_a}, s_a) = Σ_i eq(s_a, i)·u_{a,i}`.
//!
//! One opening (transcript protocol `"flockwork/gkr/layer0-opening/v1"`, instance = the
//! walks' ‖ the commitment) proves the `2A` evaluation claims (a scaled claim has the tensor
//! weight `χ·eq(·)` on the low variables). Proof: [`PROOF_MAGIC`] ‖ version ‖ variant ‖
//! [`IO_COMMITTED`] ‖ every walk's transcript (its elements and the `A` values `v_a`) ‖ the
//! opening ([`BooleanGkr::io_walks_len`] fixes where it starts).
//!
//! If the committed outputs of region `a` are not the relation of its committed inputs, the
//! difference of the true and committed output slabs is a nonzero multilinear polynomial in
//! `(z, s')`, nonzero at the drawn point except with probability `(w_a + b)/|F|`; then the
//! walk's start claim is false, and so is some terminal claim unless the walk fails. If some
//! `u_{a,i}` differs from `χ_a·P_{a,in,i}(r_{<w_a})`, `Σ_i eq(s, i)·(…)` is a nonzero
//! multilinear in `s`: `b/|F|`. Otherwise the opening claim is false.
//!
//! ## Proof format
//!
//! [`PROOF_MAGIC`] ‖ version `u16` LE ([`PROOF_VERSION`]; [`RETIRED_VERSIONS`] are refused
//! by name) ‖ variant byte (1 independent, 2 padded, 3 ragged) ‖ IO byte ([`IO_PUBLIC`],
//! [`IO_COMMITTED`]) ‖ the walks' transcript bytes, `Σ_walks Σ_l (3W + A·w_{l−1})` elements
//! of 16 bytes ([`BooleanGkr::proof_len`]; the verifier checks the exact length before
//! reading) ‖ (committed) the opening.
//!
//! ## Soundness
//!
//! Challenges are uniform in `F`, `|F| = 2^128`. Public output claim: if the claimed
//! outputs of region `a` differ from the true ones, some `Ŝ_{L,a,j} − S_{L,a,j}` is a nonzero
//! multilinear polynomial, nonzero at `z_a` except with probability `≤ w_a/|F|`, and then
//! `Σ_{a,j} α^{…}(…)` is a nonzero polynomial of degree `≤ A·w_L` in `α`: `≤ Σ_a (w_a + w_L)/|F|`
//! in all. Per walk, each of the `W` rounds of a layer: `≤ 3/|F|` (degree 3); each batching
//! of a layer's `A·w_{l−1}` values into the next claim: `≤ A·w_{l−1}/|F|`. The final checks
//! are exact. By the union bound
//!
//! ```text
//! ε_public ≤ (Σ_a (w_a + w_L) + Σ_walks (3WL + A·Σ_{l=1}^{L−1} w_l)) / 2^128,
//! ε_committed ≤ (Σ_a (w_a + 2b) + 7 + Σ_walks (3WL + A·Σ_{l=1}^{L−1} w_l)) / 2^128 + ε_PCS
//! ```
//!
//! (the `7` is ring-switching's mixing point, `ε_PCS` the dense commitment's error for the
//! opening's claims). [`BooleanGkr::soundness_bits`]: 112.7 bits for Keccak-f at `k = 14`
//! (24 layers of 1600 bits), so GF(2^128) suffices and no GF(2^256) extension is needed;
//! [`BooleanGkr::io_soundness_bits`] adds the commitment's. This is the interactive
//! (round-by-round) bound; Fiat–Shamir multiplies it by the attacker's hash queries.
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
//! (their Frobenius twists) with a further sumcheck, a trade this prover does not make.
//!

mod io;
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

use crate::{Ghash128, GkrError, ProveError, Variant};

pub use io::{LABEL_INPUT_BITS, LABEL_OUTPUT_BITS, LABEL_OUTPUT_VALUES, PACKED_VARS};

/// The field of every value and challenge.
pub type F = Ghash128;

/// Magic bytes that open every Boolean GKR proof.
pub const PROOF_MAGIC: [u8; 4] = *b"FWBG";
/// Proof format version.
pub const PROOF_VERSION: u16 = 2;
/// Every earlier proof version, with the last commit whose verifier reads it. The verifier
/// refuses them with [`GkrError::Retired`].
pub const RETIRED_VERSIONS: [(u16, &str); 1] = [(1, "40c760a")];
/// IO byte of a proof about public inputs and outputs.
pub const IO_PUBLIC: u8 = 0;
/// IO byte of a proof about committed inputs and outputs ([`BooleanGkr::prove_io`]).
pub const IO_COMMITTED: u8 = 1;

/// Checks a Boolean GKR proof's header against `variant` and `io` ([`IO_PUBLIC`] or
/// [`IO_COMMITTED`]) — its length, magic and version (a retired one named) — and returns the
/// bytes after it. Needs no setup: a caller that builds the setup from a file's header calls
/// it first, so that bytes which are not such a proof cost nothing the header sizes.
///
/// # Errors
/// [`GkrError::Header`] or [`GkrError::Retired`].
pub fn check_proof_header(proof: &[u8], variant: Variant, io: u8) -> Result<&[u8], GkrError> {
    let header = proof.get(..HEADER_LEN).ok_or(GkrError::Header)?;
    if header[..4] != PROOF_MAGIC {
        return Err(GkrError::Header);
    }
    let version = u16::from_le_bytes([header[4], header[5]]);
    if let Some(&(version, commit)) = RETIRED_VERSIONS.iter().find(|(v, _)| *v == version) {
        return Err(GkrError::Retired { version, commit });
    }
    if version != PROOF_VERSION || header[6] != variant as u8 || header[7] != io {
        return Err(GkrError::Header);
    }
    Ok(&proof[HEADER_LEN..])
}

/// Header length: magic, version, variant, IO byte.
pub const HEADER_LEN: usize = 8;
/// The largest region width `w_a` (regions of `2^{w_a}` instances).
pub const MAX_LOG_COUNT: usize = 30;

/// Label of the public inputs.
pub const LABEL_INPUTS: &str = "gkr/boolean/inputs";
/// Label of the public outputs.
pub const LABEL_OUTPUTS: &str = "gkr/boolean/outputs";
/// Label of an output point `z_a`.
pub const LABEL_POINT: &str = "gkr/boolean/point";
/// Label of a batching challenge `α`.
pub const LABEL_ALPHA: &str = "gkr/boolean/alpha";
/// Label of a round message `(c_0, c_2, c_3)`.
pub const LABEL_ROUND: &str = "gkr/boolean/round";
/// Label of a round challenge `r_m`.
pub const LABEL_CHALLENGE: &str = "gkr/boolean/challenge";
/// Label of a region's layer values `S_{l−1,a,i}(r)`.
pub const LABEL_LAYER_VALUES: &str = "gkr/boolean/layer-values";

/// The transcript's protocol string of `variant`.
const fn protocol(variant: Variant) -> &'static str {
    match variant {
        Variant::Independent => "flockwork/gkr/boolean/independent/v2",
        Variant::Padded => "flockwork/gkr/boolean/padded/v2",
        Variant::Ragged => "flockwork/gkr/boolean/ragged/v2",
    }
}

/// What is public about the instances of every region, regions back to back (region `a`'s
/// instances follow those of regions `0 … a−1`): their inputs and outputs as instance-major
/// `u64` words (instance `x`'s bit `i` is bit `i mod 64` of word `x·⌈w/64⌉ + i/64`, the
/// layout [`flockwork_core::boolean_layered::pack_instances`] reads; bits past the width
/// are 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanStatement {
    /// `N · ⌈w_0/64⌉` words, `N = Σ_a 2^{w_a}`.
    pub inputs: Vec<u64>,
    /// `N · ⌈w_L/64⌉` words.
    pub outputs: Vec<u64>,
}

/// GKR over GF(2^128) for regions of `2^{w_a}` instances of a Boolean layered relation
/// proved with one of the three batchers of [`Variant`] ([module docs](self)), with
/// transcript `D`.
#[derive(Clone, Debug)]
pub struct BooleanGkr<R, D = Sha256> {
    relation: R,
    widths: Vec<usize>,
    _marker: PhantomData<fn() -> D>,
}

/// The output claim a walk starts from for region `a`: `Σ_j β_j S_{L,a,j}(z) = claim`.
#[derive(Clone, Debug)]
pub(crate) struct OutputClaim {
    /// `z`, `w_a` coordinates.
    pub(crate) z: Vec<F>,
    /// `β`, `w_L` weights.
    pub(crate) beta: Vec<F>,
    /// The claimed value.
    pub(crate) claim: F,
}

/// Where a walk ends for region `a`: the point `r` (the walk's coordinates for the region:
/// `w_a`, or `W` padded) and the values `u_i = S_{0,a,i}(r)` of its (padded) input layer.
#[derive(Clone, Debug)]
pub(crate) struct Terminal {
    pub(crate) point: Vec<F>,
    pub(crate) values: Vec<F>,
}

impl<R, D> BooleanGkr<R, D>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    /// A setup for regions of `2^widths[a]` instances.
    ///
    /// # Panics
    /// If there is no region or a width exceeds [`MAX_LOG_COUNT`].
    #[must_use]
    pub fn new(relation: R, widths: Vec<usize>) -> Self {
        assert!(!widths.is_empty(), "at least one region");
        assert!(
            widths.iter().all(|&w| w <= MAX_LOG_COUNT),
            "too many instances"
        );
        Self {
            relation,
            widths,
            _marker: PhantomData,
        }
    }

    /// The relation.
    pub fn relation(&self) -> &R {
        &self.relation
    }

    /// The region widths `w_a`.
    #[must_use]
    pub fn widths(&self) -> &[usize] {
        &self.widths
    }

    /// `W = max_a w_a`.
    #[must_use]
    pub fn max_width(&self) -> usize {
        self.widths.iter().copied().max().unwrap_or(0)
    }

    /// `N = Σ_a 2^{w_a}`, the number of instances.
    #[must_use]
    pub fn count(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    /// The first instance of region `a`.
    fn first_instance(&self, a: usize) -> usize {
        self.widths[..a].iter().map(|&w| 1usize << w).sum()
    }

    /// Region `a`'s words of `words` (instance-major, `per` words per instance).
    fn region_words<'w>(&self, words: &'w [u64], per: usize, a: usize) -> &'w [u64] {
        let first = self.first_instance(a);
        &words[first * per..(first + (1 << self.widths[a])) * per]
    }

    /// The regions each walk covers: one walk per region ([`Variant::Independent`]) or one
    /// over all of them.
    fn walks(&self, variant: Variant) -> Vec<Vec<usize>> {
        match variant {
            Variant::Independent => (0..self.widths.len()).map(|a| vec![a]).collect(),
            _ => vec![(0..self.widths.len()).collect()],
        }
    }

    /// The rounds of a walk over `regions` (their largest width) and the coordinates of
    /// region `a` in it: `W` when padded, `w_a` otherwise.
    fn walk_shape(&self, variant: Variant, regions: &[usize]) -> (usize, Vec<usize>) {
        let big = regions.iter().map(|&a| self.widths[a]).max().unwrap_or(0);
        let ks = regions
            .iter()
            .map(|&a| match variant {
                Variant::Padded => big,
                _ => self.widths[a],
            })
            .collect();
        (big, ks)
    }

    /// The honest statement about `inputs` (instance-major words, `N · ⌈w_0/64⌉` of them):
    /// the outputs by the packed evaluation.
    ///
    /// # Panics
    /// If `inputs` has the wrong length.
    #[must_use]
    pub fn statement(&self, inputs: Vec<u64>) -> BooleanStatement {
        let layers = self.relation.boolean_layers();
        let count = self.count();
        assert_eq!(
            inputs.len(),
            count * layers.input_width().div_ceil(64),
            "input words"
        );
        let packed = pack_instances::<u64>(layers.input_width(), &inputs, count);
        let outputs = flockwork_core::boolean_layered::unpack_instances(
            layers.output_width(),
            &layers.evaluate_packed(&packed),
            count,
        );
        BooleanStatement { inputs, outputs }
    }

    /// Field elements one walk over `regions` writes: per layer `3W` round elements and
    /// `w_{l−1}` values per region.
    fn walk_elements(&self, variant: Variant, regions: &[usize]) -> usize {
        let layers = self.relation.boolean_layers();
        let (big, _) = self.walk_shape(variant, regions);
        (1..=layers.num_layers())
            .map(|l| 3 * big + regions.len() * layers.width(l - 1))
            .sum()
    }

    /// Field elements in a public-IO proof of `variant`.
    #[must_use]
    pub fn proof_elements(&self, variant: Variant) -> usize {
        self.walks(variant)
            .iter()
            .map(|regions| self.walk_elements(variant, regions))
            .sum()
    }

    /// The length in bytes of a public-IO proof of `variant`, header included.
    #[must_use]
    pub fn proof_len(&self, variant: Variant) -> usize {
        HEADER_LEN + F::NUM_BYTES * self.proof_elements(variant)
    }

    /// The failure events of the walks of `variant` (module docs, "Soundness"): per walk
    /// `3W` per layer and `A·w_l` per batching of layer `l < L`.
    fn walk_failures(&self, variant: Variant) -> f64 {
        let layers = self.relation.boolean_layers();
        let l = layers.num_layers();
        self.walks(variant)
            .iter()
            .map(|regions| {
                let (big, _) = self.walk_shape(variant, regions);
                let batching: usize = (1..l).map(|i| layers.width(i)).sum();
                (3 * big * l + regions.len() * batching) as f64
            })
            .sum()
    }

    /// `−log2 ε` of public-IO proofs of `variant` (module docs, "Soundness").
    #[must_use]
    pub fn soundness_bits(&self, variant: Variant) -> f64 {
        let layers = self.relation.boolean_layers();
        let outputs: usize = self.widths.iter().map(|&w| w + layers.output_width()).sum();
        bits_of(self.walk_failures(variant) + outputs as f64)
    }

    /// The transcript's instance bytes of a walk: `id(R) ‖ variant ‖ io ‖ u64le(L) ‖
    /// u64le(w_0) ‖ u64le(w_L) ‖ u64le(A) ‖ u64le(w_a)… [‖ u64le(a)]`.
    fn instance_bytes(&self, variant: Variant, io: u8, region: Option<usize>) -> Vec<u8> {
        let layers = self.relation.boolean_layers();
        let mut out = self.relation.id();
        out.push(variant as u8);
        out.push(io);
        for v in [
            layers.num_layers(),
            layers.input_width(),
            layers.output_width(),
            self.widths.len(),
        ]
        .into_iter()
        .chain(self.widths.iter().copied())
        .chain(region)
        {
            out.extend_from_slice(&(v as u64).to_le_bytes());
        }
        out
    }

    /// The proof header of `variant` and `io`.
    fn header(variant: Variant, io: u8) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN);
        out.extend_from_slice(&PROOF_MAGIC);
        out.extend_from_slice(&PROOF_VERSION.to_le_bytes());
        out.push(variant as u8);
        out.push(io);
        out
    }

    /// Checks the statement's shape: word counts, zero bits past the widths.
    fn check_statement(&self, statement: &BooleanStatement) -> Result<(), &'static str> {
        let layers = self.relation.boolean_layers();
        let count = self.count();
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

    /// Proves the public-IO statement with `variant` (its inputs are the witness); the proof
    /// of a false statement fails verification.
    ///
    /// # Errors
    /// [`ProveError::Statement`] if the statement does not fit the setup.
    pub fn prove(
        &self,
        variant: Variant,
        statement: &BooleanStatement,
    ) -> Result<Vec<u8>, ProveError> {
        self.check_statement(statement)
            .map_err(ProveError::Statement)?;
        Ok(flockwork_core::on_worker(|| {
            prover::prove(self, variant, statement, prover::Strategy::Grid)
        }))
    }

    /// Verifies `proof` for the public-IO `statement` and `variant`. Never panics.
    ///
    /// # Errors
    /// [`GkrError::Header`], [`GkrError::Retired`], [`GkrError::ProofLength`],
    /// [`GkrError::Statement`], [`GkrError::Transcript`] for malformed input;
    /// [`GkrError::LayerCheck`] or [`GkrError::Terminal`] for a false proof.
    pub fn verify(
        &self,
        variant: Variant,
        statement: &BooleanStatement,
        proof: &[u8],
    ) -> Result<(), GkrError> {
        verifier::verify(self, variant, statement, proof)
    }

    /// What both sides do before a public-IO walk over `regions`: absorb their inputs and
    /// outputs, squeeze a point `z_a` per region, then one `α`; region `a` (the `i`-th of
    /// the walk) weighs output bit `j` by `α^{i·w_L + j + 1}`, and its claim is the outputs'
    /// multilinear extensions so weighted.
    fn public_claims<T: Transcript>(
        &self,
        transcript: &mut T,
        statement: &BooleanStatement,
        regions: &[usize],
    ) -> Vec<OutputClaim> {
        let layers = self.relation.boolean_layers();
        let (w0, wl) = (layers.input_width(), layers.output_width());
        let bytes = |words: &[u64]| {
            words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<_>>()
        };
        for &a in regions {
            let inputs = self.region_words(&statement.inputs, w0.div_ceil(64), a);
            let outputs = self.region_words(&statement.outputs, wl.div_ceil(64), a);
            transcript.public_bytes(LABEL_INPUTS, &bytes(inputs));
            transcript.public_bytes(LABEL_OUTPUTS, &bytes(outputs));
        }
        let points: Vec<Vec<F>> = regions
            .iter()
            .map(|&a| transcript.challenges::<F>(LABEL_POINT, self.widths[a]))
            .collect();
        let alpha: F = transcript.challenge(LABEL_ALPHA);
        let weights = powers(alpha, regions.len() * wl);
        regions
            .iter()
            .zip(points)
            .zip(weights.chunks_exact(wl.max(1)))
            .map(|((&a, z), beta)| {
                let outputs = self.region_words(&statement.outputs, wl.div_ceil(64), a);
                let claim = weighted(beta, &public_evaluations(wl, outputs, &z));
                OutputClaim {
                    z,
                    beta: beta.to_vec(),
                    claim,
                }
            })
            .collect()
    }
}

/// A layer's points, weights and claims per region: `(z_a, β_a, v_a)`.
type LayerClaims = (Vec<Vec<F>>, Vec<Vec<F>>, Vec<F>);

/// The first layer's claims of a walk from its output claims, `z_a` extended by zeros to
/// the region's `k_a` coordinates.
fn start_layer(claims: Vec<OutputClaim>, ks: &[usize]) -> LayerClaims {
    let mut out: LayerClaims = (Vec::new(), Vec::new(), Vec::new());
    for (c, &k) in claims.into_iter().zip(ks) {
        let mut z = c.z;
        z.resize(k, F::ZERO);
        out.0.push(z);
        out.1.push(c.beta);
        out.2.push(c.claim);
    }
    out
}

/// The next layer's claims from the terminal claims of this one and the challenge `α`:
/// `z_a = r_a`, `β_{a,i} = α^{w·n_a + i + 1}`, `v_a = Σ_i β_{a,i} u_{a,i}`.
fn next_layer(alpha: F, terminal: &[Terminal]) -> LayerClaims {
    let width = terminal.first().map_or(0, |t| t.values.len());
    let all = powers(alpha, terminal.len() * width);
    let betas: Vec<Vec<F>> = all.chunks_exact(width.max(1)).map(<[F]>::to_vec).collect();
    let sums = betas
        .iter()
        .zip(terminal)
        .map(|(b, t)| weighted(b, &t.values))
        .collect();
    let zs = terminal.iter().map(|t| t.point.clone()).collect();
    (zs, betas, sums)
}

/// `−log2` of `failures / 2^128`.
fn bits_of(failures: f64) -> f64 {
    f64::from(F::ORDER_BITS) - failures.max(1.0).log2()
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
    let packed = pack_instances::<u64>(width, words, 1usize << point.len());
    packed_evaluations(width, &packed, point)
}

/// [`public_evaluations`] of bit-sliced words (`width` words per block of 64 instances;
/// blocks past the `2^k` instances, and bits past them in a block, are ignored).
fn packed_evaluations(width: usize, packed: &[u64], point: &[F]) -> Vec<F> {
    let c = point.len().min(6);
    let tables = byte_tables(&eq_table(&point[..c]));
    let eq_hi = eq_table(&point[c..]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batchers::Protocols;

    /// The Fiat–Shamir protocol strings separate the three batchers' Boolean walks from
    /// each other and from the Poseidon2b walks, name their batcher and carry the proof
    /// version (a proof of one can never be replayed as a proof of another).
    #[test]
    fn protocol_strings_are_distinct_and_versioned() {
        let version = format!("/v{PROOF_VERSION}");
        for a in Variant::ALL {
            let name = protocol(a);
            assert!(name.starts_with("flockwork/gkr/boolean/"), "{name}");
            assert!(
                name.contains(a.name()) && name.ends_with(&version),
                "{name}"
            );
            for b in Variant::ALL {
                assert_ne!(name, b.protocol());
                assert_eq!(name == protocol(b), a == b);
            }
        }
    }

    /// The instance bytes the walks' transcripts start from bind the relation and its
    /// layers, the batcher, the IO mode, the region widths and the region an independent walk
    /// proves: changing any one changes the bytes.
    #[test]
    fn instance_bytes_bind_the_setup() {
        use flockwork_boolean::KeccakF1600;
        let keccak = |widths: Vec<usize>| BooleanGkr::<_>::new(KeccakF1600::new(), widths);
        let base = keccak(vec![2, 0]);
        let bytes = |setup: &BooleanGkr<KeccakF1600>, variant, io, region| {
            setup.instance_bytes(variant, io, region)
        };
        let all = [
            bytes(&base, Variant::Ragged, IO_PUBLIC, None),
            bytes(&base, Variant::Padded, IO_PUBLIC, None),
            bytes(&base, Variant::Ragged, IO_COMMITTED, None),
            bytes(&base, Variant::Independent, IO_PUBLIC, Some(0)),
            bytes(&base, Variant::Independent, IO_PUBLIC, Some(1)),
            bytes(&keccak(vec![2, 1]), Variant::Ragged, IO_PUBLIC, None),
            bytes(&keccak(vec![2]), Variant::Ragged, IO_PUBLIC, None),
            bytes(
                &BooleanGkr::<_>::new(KeccakF1600::reduced(2), vec![2, 0]),
                Variant::Ragged,
                IO_PUBLIC,
                None,
            ),
        ];
        assert_eq!(all[0], bytes(&base, Variant::Ragged, IO_PUBLIC, None));
        assert!(all[0].starts_with(&base.relation().id()));
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

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
