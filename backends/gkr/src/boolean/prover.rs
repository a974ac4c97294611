//! The prover of the Boolean GKR walk ([module docs](super), *The prover on bits*).

use flockwork_core::boolean_layered::{
    BooleanLayeredRelation, LayerForms, PackedTrace, pack_instances,
};
use flockwork_core::eq_table;
use flockwork_field::{Field, par};
use flockwork_field_binary::ghash::batch::{add_mul_scalar, dot, mul_slices};
use flockwork_transcript::{ProverTranscript, TranscriptScheme};

use super::{
    BooleanGkr, BooleanStatement, F, IO_PUBLIC, LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES,
    LABEL_ROUND, OutputClaim, Terminal, byte_tables, next_layer, protocol, start_layer, table_sum,
};
use crate::Variant;
use crate::walk::{eq1, horner};

use super::ternary::Grid;

/// Variables inside a `u64` word of instances.
const WORD_VARS: usize = 6;

/// How the rounds inside a word (the first `min(k, 6)`) are computed; both give the same
/// messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Strategy {
    /// On bits over the grid `{0,1,∞}^c` ([`super::ternary`]).
    Grid,
    /// Round 0 on bits, rounds `1 … c−1` on words folded into field rows (the reference).
    #[cfg(test)]
    Fields,
}

/// The public-IO proof of a statement whose shape has been checked.
pub(super) fn prove<R, D>(
    setup: &BooleanGkr<R, D>,
    variant: Variant,
    statement: &BooleanStatement,
    strategy: Strategy,
) -> Vec<u8>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    let traces = region_traces(setup, variant, &statement.inputs);
    let mut proof = BooleanGkr::<R, D>::header(variant, IO_PUBLIC);
    for regions in setup.walks(variant) {
        let single = (variant == Variant::Independent).then_some(regions[0]);
        let instance = setup.instance_bytes(variant, IO_PUBLIC, single);
        let mut tr = D::prover(protocol(variant), &instance);
        let claims = setup.public_claims(&mut tr, statement, &regions);
        walk(setup, variant, &regions, &traces, claims, &mut tr, strategy);
        proof.extend_from_slice(&tr.into_proof());
    }
    proof
}

/// Every region's bit-sliced trace from the instance-major `inputs`: `2^{w_a}` instances,
/// or `2^W` for [`Variant::Padded`] (the padding instances' inputs 0).
pub(super) fn region_traces<R, D>(
    setup: &BooleanGkr<R, D>,
    variant: Variant,
    inputs: &[u64],
) -> Vec<PackedTrace<u64>>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    let layers = setup.relation.boolean_layers();
    let w0 = layers.input_width();
    let per = w0.div_ceil(64);
    (0..setup.widths.len())
        .map(|a| {
            let words = setup.region_words(inputs, per, a);
            let count = match variant {
                Variant::Padded => 1usize << setup.max_width(),
                _ => 1usize << setup.widths[a],
            };
            let mut padded;
            let words = if words.len() == count * per {
                words
            } else {
                padded = words.to_vec();
                padded.resize(count * per, 0);
                &padded[..]
            };
            layers.trace_packed(&pack_instances::<u64>(w0, words, count))
        })
        .collect()
}

/// One walk over `regions` (their traces in `traces`, indexed by region) from the output
/// claims `claims` (one per region of the walk): per layer one sumcheck over the walk's `W`
/// rounds, each region's round polynomial computed on its own trace (zero past its
/// coordinates but for the selector's linear factor), summed and sent; then every region's
/// values, and the next layer's weights. Returns every region's terminal claim.
pub(super) fn walk<R, D, T>(
    setup: &BooleanGkr<R, D>,
    variant: Variant,
    regions: &[usize],
    traces: &[PackedTrace<u64>],
    claims: Vec<OutputClaim>,
    tr: &mut T,
    strategy: Strategy,
) -> Vec<Terminal>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
    T: ProverTranscript,
{
    let layers = setup.relation.boolean_layers();
    let (big, ks) = setup.walk_shape(variant, regions);
    let (mut zs, mut betas, mut sums) = start_layer(claims, &ks);
    let mut terminal = Vec::new();
    for l in (1..=layers.num_layers()).rev() {
        let width = layers.width(l - 1);
        let mut provers: Vec<RegionLayer<'_>> = regions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let prover = LayerProver {
                    forms: layers.forms(l),
                    width,
                    words: traces[a].layer(l - 1),
                    k: ks[i],
                    z: &zs[i],
                    beta: &betas[i],
                };
                RegionLayer::new(prover, sums[i], strategy)
            })
            .collect();
        for m in 0..big {
            let mut poly = [F::ZERO; 4];
            let parts: Vec<[F; 4]> = provers.iter_mut().map(|p| p.poly(m)).collect();
            for part in &parts {
                for (c, &x) in poly.iter_mut().zip(part) {
                    *c += x;
                }
            }
            // The verifier restores c_1 from its claim: for a true statement it is this one.
            tr.send_field(LABEL_ROUND, &[poly[0], poly[2], poly[3]]);
            let r: F = tr.challenge(LABEL_CHALLENGE);
            for (p, part) in provers.iter_mut().zip(&parts) {
                p.bind(m, r, part);
            }
        }
        terminal = provers
            .into_iter()
            .map(|p| {
                let (point, values) = p.finish();
                Terminal { point, values }
            })
            .collect();
        for t in &terminal {
            tr.send_field(LABEL_LAYER_VALUES, &t.values);
        }
        if l > 1 {
            (zs, betas, sums) = next_layer(tr.challenge(LABEL_ALPHA), &terminal);
        }
    }
    terminal
}

/// One layer's sumcheck: `Σ_x eq(z, x) Σ_j β_j g_j(S(x))` with `S` the bit-sliced previous
/// state (`width` words per block of 64 instances).
struct LayerProver<'a> {
    forms: LayerForms<'a>,
    width: usize,
    words: &'a [u64],
    k: usize,
    z: &'a [F],
    beta: &'a [F],
}

/// `q(0)`, `q(1)` (zero unless asked for) and `q(∞)` of a round, summed.
type Evals = [F; 3];

fn add_evals(mut a: Evals, b: Evals) -> Evals {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// `c` if bit `k` of `constants` is set, else 0.
#[inline]
fn constant(constants: u8, k: u32, one: F) -> F {
    if constants >> k & 1 == 1 {
        one
    } else {
        F::ZERO
    }
}

/// Working space of [`PairTerms::terms`].
#[derive(Default)]
struct PairTerms {
    v0: Vec<F>,
    v1: Vec<F>,
    lhs: Vec<F>,
    rhs: Vec<F>,
    prod: Vec<F>,
    sum: Vec<F>,
}

impl PairTerms {
    /// `Σ_j β_j (g_j(0), g_j(1), (B_j(0) + B_j(1))(C_j(0) + C_j(1)))` over the gates, for
    /// the rows `row0`, `row1` of a pair (`g_j(1)` only if `need_one`): the forms by the
    /// program, then per evaluation point the products and the weighted sum with the
    /// field's batched kernels.
    fn terms(
        &mut self,
        forms: LayerForms<'_>,
        beta: &[F],
        row0: &[F],
        row1: &[F],
        need_one: bool,
    ) -> Evals {
        forms.evaluate(row0, F::ZERO, |x, y| x + y, &mut self.v0);
        forms.evaluate(row1, F::ZERO, |x, y| x + y, &mut self.v1);
        let gates = forms.gate_slots();
        let beta = &beta[..gates.len()];
        let (v0, v1) = (&self.v0, &self.v1);
        let mut out = [F::ZERO; 3];
        // Point 0, point 1, then the leading coefficient (the slopes' product, no linear part).
        for (point, o) in out.iter_mut().enumerate() {
            if point == 1 && !need_one {
                continue;
            }
            self.lhs.clear();
            self.rhs.clear();
            self.sum.clear();
            for g in gates {
                let [sa, sb, sc] = g.slots.map(|s| s as usize);
                let c = g.constants;
                match point {
                    2 => {
                        self.lhs.push(v0[sb] + v1[sb]);
                        self.rhs.push(v0[sc] + v1[sc]);
                    }
                    _ => {
                        let v = if point == 0 { v0 } else { v1 };
                        self.lhs.push(v[sb] + constant(c, 1, F::ONE));
                        self.rhs.push(v[sc] + constant(c, 2, F::ONE));
                        self.sum.push(v[sa] + constant(c, 0, F::ONE));
                    }
                }
            }
            self.prod.resize(gates.len(), F::ZERO);
            mul_slices(&mut self.prod, &self.lhs, &self.rhs);
            if point != 2 {
                for (p, &l) in self.prod.iter_mut().zip(&self.sum) {
                    *p += l;
                }
            }
            *o = dot(beta, &self.prod);
        }
        out
    }
}

/// `Σ_i f(i)` over `0..n`, each worker with its own scratch `init()`; in parallel with the
/// `parallel` feature.
fn sum_over<S: Send, I, G>(n: usize, init: I, f: G) -> Evals
where
    I: Fn() -> S + Sync + Send,
    G: Fn(&mut S, usize) -> Evals + Sync + Send,
{
    par::fold_reduce(
        n,
        1,
        0,
        || (init(), [F::ZERO; 3]),
        |(mut s, acc), i| {
            let e = f(&mut s, i);
            (s, add_evals(acc, e))
        },
        |(s, a), (_, b)| (s, add_evals(a, b)),
    )
    .1
}

/// Sumcheck bookkeeping shared by the rounds: the claim, `eq(z_{<m}, r_{<m})`, the challenges.
struct Rounds<'a> {
    z: &'a [F],
    claim: F,
    prefix: F,
    r: Vec<F>,
}

impl Rounds<'_> {
    /// Whether round `m` must compute `q(1)` (it cannot be solved from the claim).
    fn needs_one(&self, m: usize) -> bool {
        (self.prefix * self.z[m]).inverse().is_none()
    }

    /// Round `m`'s polynomial `p_m = e·eq(z_m, X)·q_m` (four coefficients, lowest first)
    /// from `q(0)`, `q(1)` (if computed) and `q(∞)`.
    fn poly(&self, m: usize, evals: Evals) -> [F; 4] {
        let (zm, e) = (self.z[m], self.prefix);
        let [q0, mut q1, qinf] = evals;
        // p(0) + p(1) = e(1 + z)q(0) + e·z·q(1) = claim.
        if let Some(inv) = (e * zm).inverse() {
            q1 = (self.claim + e * (F::ONE + zm) * q0) * inv;
        }
        // q(X) = a + bX + cX², p(X) = e·((1 + z) + X)·q(X).
        let (a, b, c) = (q0, q0 + q1 + qinf, qinf);
        let one_z = F::ONE + zm;
        [
            e * one_z * a,
            e * (one_z * b + a),
            e * (one_z * c + b),
            e * c,
        ]
    }

    /// Binds round `m`'s variable to `r` after its polynomial `poly`.
    fn bind(&mut self, m: usize, poly: &[F; 4], r: F) {
        self.claim = horner(poly, r);
        self.prefix *= eq1(self.z[m], r);
        self.r.push(r);
    }
}

/// One region's side of a layer's sumcheck, round by round: the grid rounds inside a word,
/// then the rounds on the folded rows; past its `k` coordinates the region's polynomial is
/// `claim·(1 + X)` (the selector's factor `1 − x_m`).
struct RegionLayer<'a> {
    prover: LayerProver<'a>,
    rounds: Rounds<'a>,
    strategy: Strategy,
    grid: Option<Grid>,
    table: Vec<F>,
}

impl<'a> RegionLayer<'a> {
    fn new(prover: LayerProver<'a>, claim: F, strategy: Strategy) -> Self {
        let grid = (strategy == Strategy::Grid).then(|| {
            Grid::new(
                prover.forms,
                prover.words,
                prover.width,
                prover.z,
                prover.beta,
            )
        });
        Self {
            rounds: Rounds {
                z: prover.z,
                claim,
                prefix: F::ONE,
                r: Vec::with_capacity(prover.k),
            },
            prover,
            strategy,
            grid,
            table: Vec::new(),
        }
    }

    /// Rounds inside a word.
    fn word_vars(&self) -> usize {
        self.prover.k.min(WORD_VARS)
    }

    /// Every block's words folded at `r_{<c}`: one row of `width` values per block.
    fn fold_words(&self) -> Vec<F> {
        let tables = byte_tables(&eq_table(&self.rounds.r));
        let words = self.prover.words;
        par::map_collect(words.len(), 1 << 12, |i| table_sum(&tables, words[i]))
    }

    /// The region's polynomial of round `m`.
    fn poly(&mut self, m: usize) -> [F; 4] {
        let p = &self.prover;
        if m >= p.k {
            let c = self.rounds.claim;
            return [c, c, F::ZERO, F::ZERO];
        }
        let c = self.word_vars();
        let evals = if m < c {
            match self.strategy {
                Strategy::Grid => self
                    .grid
                    .as_ref()
                    .expect("the grid strategy builds its grid")
                    .round(m, p.z, &self.rounds.r),
                #[cfg(test)]
                Strategy::Fields => {
                    let eq_hi = eq_table(&p.z[c..]);
                    if m == 0 {
                        p.bit_round(c, &eq_hi, self.rounds.needs_one(0))
                    } else {
                        p.word_round(m, c, &eq_hi, &self.rounds.r, self.rounds.needs_one(m))
                    }
                }
            }
        } else {
            if m == c {
                self.table = self.fold_words();
            }
            p.table_round(m, &self.table, self.rounds.needs_one(m))
        };
        self.rounds.poly(m, evals)
    }

    /// Binds round `m` to `r` after the region's polynomial `poly`.
    fn bind(&mut self, m: usize, r: F, poly: &[F; 4]) {
        if m >= self.prover.k {
            self.rounds.claim *= F::ONE + r;
            return;
        }
        self.rounds.bind(m, poly, r);
        if m >= self.word_vars() {
            self.table = fold_rows(&self.table, self.prover.width, r);
        }
    }

    /// The region's point `r_{<k}` and values `S_{l−1}(r_{<k})`.
    fn finish(mut self) -> (Vec<F>, Vec<F>) {
        if self.prover.k == self.word_vars() {
            self.table = self.fold_words();
        }
        debug_assert_eq!(self.table.len(), self.prover.width);
        (self.rounds.r, self.table)
    }
}

impl LayerProver<'_> {
    /// Round 0 on bits (reference strategy): per block the gates' forms as words, `g(0)`, `g(1)` and the `∞`
    /// product as words (even positions), weighted by eq through byte tables.
    #[cfg(test)]
    fn bit_round(&self, c: usize, eq_hi: &[F], need_one: bool) -> Evals {
        let eq_lo = eq_table(&self.z[1..c]);
        // Weight of position t = 2t'' (variable 0 is 0): eq(z_{1..c}, t''); odd positions
        // and positions past 2^c (absent instances) weigh 0.
        let weights: Vec<F> = (0..64usize)
            .map(|t| {
                if t % 2 == 0 && t < 1 << c {
                    eq_lo[t / 2]
                } else {
                    F::ZERO
                }
            })
            .collect();
        let tables = byte_tables(&weights);
        let gates = self.forms.gate_slots();
        sum_over(eq_hi.len(), Vec::new, |values: &mut Vec<u64>, b| {
            let state = &self.words[b * self.width..(b + 1) * self.width];
            self.forms.evaluate(state, 0u64, |x, y| x ^ y, values);
            use flockwork_field_binary::ghash::Ghash256Unreduced;
            let mut acc = [Ghash256Unreduced::ZERO; 3];
            for (g, &beta) in gates.iter().zip(self.beta) {
                let ones = |k: u32| if g.constants >> k & 1 == 1 { !0u64 } else { 0 };
                let [a, bb, cc] = g.slots.map(|s| values[s as usize]);
                let (a, bb, cc) = (a ^ ones(0), bb ^ ones(1), cc ^ ones(2));
                let out = a ^ (bb & cc);
                let inf = (bb ^ (bb >> 1)) & (cc ^ (cc >> 1));
                acc[0] ^= beta.mul_unreduced(table_sum(&tables, out));
                acc[2] ^= beta.mul_unreduced(table_sum(&tables, inf));
                if need_one {
                    acc[1] ^= beta.mul_unreduced(table_sum(&tables, out >> 1));
                }
            }
            acc.map(|a| a.reduce() * eq_hi[b])
        })
    }

    /// Round `m ∈ 1..c`: each block's words folded at `r_{<m}` into `2^{c−m}` rows, the
    /// forms evaluated in the field, pairs of rows `(2t'', 2t''+1)` weighted by
    /// `eq(z_{m+1..c}, t'')·eq(z_{≥c}, b)`.
    #[cfg(test)]
    fn word_round(&self, m: usize, c: usize, eq_hi: &[F], r: &[F], need_one: bool) -> Evals {
        let eq_r = eq_table(&r[..m]);
        let eq_lo = eq_table(&self.z[m + 1..c]);
        let rows = 1usize << (c - m);
        let width = self.width;
        let init = || (vec![F::ZERO; rows * width], PairTerms::default());
        sum_over(eq_hi.len(), init, |(folded, pt), b| {
            folded.fill(F::ZERO);
            let state = &self.words[b * width..(b + 1) * width];
            let valid = if c == WORD_VARS {
                !0u64
            } else {
                (1u64 << (1 << c)) - 1
            };
            for (i, &word) in state.iter().enumerate() {
                let mut bits = word & valid;
                while bits != 0 {
                    let t = bits.trailing_zeros() as usize;
                    folded[(t >> m) * width + i] += eq_r[t & ((1 << m) - 1)];
                    bits &= bits - 1;
                }
            }
            let mut acc = [F::ZERO; 3];
            for (pair, &e) in folded.chunks_exact(2 * width).zip(&eq_lo) {
                let (row0, row1) = pair.split_at(width);
                let t = pt.terms(self.forms, self.beta, row0, row1, need_one);
                acc = add_evals(acc, t.map(|x| x * e));
            }
            acc.map(|a| a * eq_hi[b])
        })
    }

    /// Round `m ≥ c` on the table of folded rows (`width` values each): pairs of rows
    /// `(2y, 2y+1)` weighted by `eq(z_{m+1..k}, y)`.
    fn table_round(&self, m: usize, table: &[F], need_one: bool) -> Evals {
        let eq_rest = eq_table(&self.z[m + 1..]);
        let width = self.width;
        sum_over(eq_rest.len(), PairTerms::default, |pt, y| {
            let pair = &table[2 * y * width..(2 * y + 2) * width];
            let (row0, row1) = pair.split_at(width);
            pt.terms(self.forms, self.beta, row0, row1, need_one)
                .map(|x| x * eq_rest[y])
        })
    }
}

/// Binds the lowest row variable to `r`: row `y` of the result is
/// `row_{2y} + r·(row_{2y} + row_{2y+1})`, rows of `width` values (the field's batched
/// multiply-add per row).
fn fold_rows(table: &[F], width: usize, r: F) -> Vec<F> {
    let mut out = vec![F::ZERO; table.len() / 2];
    let fold = |(row, pair): (&mut [F], &[F])| {
        let (lo, hi) = pair.split_at(width);
        let diff: Vec<F> = lo.iter().zip(hi).map(|(&a, &b)| a + b).collect();
        row.copy_from_slice(lo);
        add_mul_scalar(row, &diff, r);
    };
    par::zip_chunks_read(&mut out, width, table, 2 * width, 0, |_, row, pair| {
        fold((row, pair));
    });
    out
}

#[cfg(test)]
mod tests {
    use flockwork_boolean::KeccakF1600;
    use flockwork_core::boolean_layered::{BooleanLayersBuilder, pack_instances};

    use super::super::{powers, public_evaluations, weighted};
    use super::*;

    /// Deterministic instance-major input words (a splitmix64 stream), bits past `width` 0.
    fn inputs(width: usize, count: usize, seed: u64) -> Vec<u64> {
        let per = width.div_ceil(64);
        let mut s = seed;
        (0..count * per)
            .map(|i| {
                s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                let bits = width - 64 * (i % per);
                let z = z ^ (z >> 31);
                if bits >= 64 {
                    z
                } else {
                    z & ((1u64 << bits) - 1)
                }
            })
            .collect()
    }

    /// The grid strategy gives byte-identical proofs to the reference (field rows) strategy
    /// for Keccak-f inside one word, one word, several words and several groups of 64 blocks
    /// (the integration tests prove toy relations with unequal widths by the grid strategy).
    #[test]
    fn grid_rounds_match_the_reference() {
        // Full rounds inside one word, one word, several words; reduced rounds (to keep the
        // reference fast) at several groups of 64 blocks (k = 13: two).
        for (rounds, k) in [(24, 0), (24, 2), (24, 6), (24, 8), (2, 12), (2, 13)] {
            let setup = BooleanGkr::<_>::new(KeccakF1600::reduced(rounds), vec![k]);
            let statement = setup.statement(inputs(1600, 1 << k, k as u64));
            let proof = prove(&setup, Variant::Ragged, &statement, Strategy::Grid);
            assert_eq!(
                proof,
                prove(&setup, Variant::Ragged, &statement, Strategy::Fields),
                "keccak-{rounds} k = {k}"
            );
            setup.verify(Variant::Ragged, &statement, &proof).unwrap();
        }
    }

    /// Round 0 and a table round with `q(1)` computed directly satisfy
    /// `(1 + z_m)·q(0) + z_m·q(1) = claim` (prefix 1), the identity the prover otherwise
    /// solves for `q(1)`: the direct path (taken when `z_m = 0`) is tested.
    #[test]
    fn direct_q1_matches_the_claim() {
        let mut builder = BooleanLayersBuilder::new(4);
        builder.layer(|l| {
            for i in 0..5 {
                let a = l.xor(&l.bit(i % 4), &l.bit((i + 1) % 4));
                let g = l.and(&l.not(&l.bit((i + 2) % 4)), &a);
                l.output(g.xor(&l.bit((i + 3) % 4)));
            }
        });
        let layers = builder.build().unwrap();
        for k in [1, 3, 6, 8] {
            let count = 1usize << k;
            let inputs: Vec<u64> = (0..count as u64).map(|x| (x * 7 + 3) % 16).collect();
            let trace = layers.trace_packed(&pack_instances::<u64>(4, &inputs, count));
            let z: Vec<F> = (0..k)
                .map(|i| F::new(0x1234_5678 + 97 * i as u128))
                .collect();
            let beta = powers(F::new(0xabcdef), 5);
            let outputs: Vec<u64> = inputs
                .iter()
                .map(|&x| {
                    let bits: Vec<bool> = (0..4).map(|i| x >> i & 1 == 1).collect();
                    let out = layers.evaluate_reference(&bits);
                    (0..5).map(|i| u64::from(out[i]) << i).sum()
                })
                .collect();
            let claim = weighted(&beta, &public_evaluations(5, &outputs, &z));
            let prover = LayerProver {
                forms: layers.forms(1),
                width: 4,
                words: trace.layer(0),
                k,
                z: &z,
                beta: &beta,
            };
            let c = k.min(WORD_VARS);
            let eq_hi = eq_table(&z[c..]);
            let [q0, q1, _] = prover.bit_round(c, &eq_hi, true);
            assert_eq!((F::ONE + z[0]) * q0 + z[0] * q1, claim, "k = {k}, round 0");
            if k == 8 {
                // A table round at m = 0 on the unfolded rows (one instance per row).
                let table: Vec<F> = inputs
                    .iter()
                    .flat_map(|&x| (0..4).map(move |i| F::new(u128::from(x >> i & 1))))
                    .collect();
                let [q0, q1, _] = prover.table_round(0, &table, true);
                assert_eq!((F::ONE + z[0]) * q0 + z[0] * q1, claim, "table round");
            }
        }
    }
}
