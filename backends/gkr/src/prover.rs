//! The GKR prover of one walk over regions of any widths (notes/poseidon2b-gkr.md §(b)).
//!
//! ## Layer `l` (from `L` down to 1)
//!
//! Incoming: per region `a` a point `z_a ∈ E^{w_a}` and `t` values `v_a = S_{l,a}(z_a)`.
//! Squeeze `α`, weights `w_{a,i} = α^(t·a+i+1)`, folded weights `cw_a = M_l^T w_a`. With
//! `W = max_a w_a` the prover runs one sumcheck over `W` variables for
//!
//! ```text
//! Σ_{a,i} w_{a,i} v_{a,i} = Σ_{x ∈ {0,1}^W} Σ_a eq(z_a, x_{<w_a}) · χ_a(x_{≥w_a}) · Σ_j cw_{a,j} T_{l,j}(S_{l−1,a}(x_{<w_a}))
//! ```
//!
//! with the implicit selector `χ_a(x) = Π_{j=w_a}^{W−1} (1 − x_j)` (`1 + x_j` in
//! characteristic two). Variables bind least significant first (a fold is
//! `lo + r·(hi − lo)` on the row pair `(2i, 2i+1)`), so every region's next point is the
//! prefix `ρ_{<w_a}` of the shared challenges.
//!
//! * **Round `k < w_a`.** Gruen's eq-factoring: the region contributes
//!   `eq(z_{<k}, ρ_{<k}) · eq(z_k, X) · q_a(X)` with
//!   `q_a(X) = Σ_{x'} eq(z_{>k}, x') Σ_j cw_j T_j(S(ρ_{<k}, X, x'))`, computed coefficient by
//!   coefficient ([`crate::lanes`]) in parallel over row pairs. Round 0 reads the base-field
//!   table (products `E × F`); the first fold lifts it to `E`.
//! * **Round `k ≥ w_a`.** The region's table is one row `u_a`; it adds
//!   `eq0_a · (1 − X) · rel_a` (`rel_a = Σ_j cw_j T_j(u_a)`, degree 1) and updates
//!   `eq0_a ← eq0_a · (1 − ρ_k)`. Its state is never folded again.
//!
//! A round polynomial `p(X) = Σ_a p_a(X)` of degree `D = deg_l + 1` is sent compressed as
//! `(c_0, c_2, …, c_D)` in the monomial basis; the verifier restores `c_1` from its claim.
//! After `W` rounds the prover sends `u_a = S_{l−1,a}(ρ_{<w_a})` for every region; the next
//! claims are `(ρ_{<w_a}, u_a)`.
//!
//! ## Memory: checkpoints
//!
//! Layer `l` needs the table `S_{l−1}`. The prover stores `S_c, S_2c, …` (spacing
//! [`ProverConfig::checkpoint_spacing`] `= c`, `⌊(L−1)/c⌋` copies) and recomputes `S_{l−1}`
//! from the nearest checkpoint at or below it (or from the inputs) into one working table per
//! region, at an average cost of `(c − 1)/2` native layer evaluations per layer. Add two
//! folding buffers per region (`2^w/2` and `2^w/4` rows of `E`, reused by every layer):
//! `⌊(L−1)/c⌋ + 1` base-field tables and 1.5 base-table sizes of `E` in all (Poseidon2b,
//! `c = 11`: 5 + 1 + 1.5 copies of `64 B` per row).
//!
//! ## Passes over memory
//!
//! Round 0 is accumulated chunk by chunk while `S_{l−1}` is being recomputed (in the base
//! field, with `F`'s SIMD packing and inner products); every fold
//! accumulates the next round's polynomial while the folded chunk is in cache. The later
//! rounds, whose tables are in `E`, fold and accumulate `E::Packing` row pairs at a time
//! (for GF(2^256): four lanes, each product three four-lane GHASH products; the tail pairs
//! and packings of width 1 take the scalar kernels). Rows are processed in parallel chunks
//! of 1024 (`flockwork_field::par`, on rayon with the `parallel` feature).

use flockwork_core::eq_table;
use flockwork_core::layered::LayeredRelation;
use flockwork_field::{ExtensionField, Field, PackedField};
use flockwork_transcript::ProverTranscript;

use crate::lanes::{LanePlan, mersenne_expand};
use crate::walk::{
    LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES, LABEL_ROUND, RegionClaim, eq1, fold_layer,
};
use flockwork_field::par::{self, ROW_CHUNK};

/// Prover parameters that change speed and memory, never the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProverConfig {
    /// Distance between stored layer tables (`c ≥ 1`; see the module docs).
    pub checkpoint_spacing: usize,
}

impl Default for ProverConfig {
    /// Spacing 11: five stored tables for the 66 layers of Poseidon2b.
    fn default() -> Self {
        Self {
            checkpoint_spacing: 11,
        }
    }
}

/// One region's instances for the prover.
#[derive(Clone, Copy, Debug)]
pub struct RegionInput<'a, F> {
    /// `w`: the region has `2^w` rows.
    pub width: usize,
    /// The instances' inputs, row after row (`t` lanes each), at most `2^w` rows.
    pub inputs: &'a [F],
    /// The input of every row past `inputs` (`t` lanes; the padded walk's filler).
    pub padding: &'a [F],
}

/// The layer tables of one region: checkpoints and a working table.
struct RegionTrace<'a, F> {
    input: RegionInput<'a, F>,
    checkpoints: Vec<Vec<F>>,
    work: Vec<F>,
    /// Which table holds the layer of the last [`RegionTrace::visit_layer`]: `Some(k)` for
    /// `checkpoints[k]`, `None` for `work`.
    current: Option<usize>,
}

/// `chunk ← S_0` rows of chunk `ci` (inputs, then padding rows).
fn fill_chunk<F: Field>(input: &RegionInput<'_, F>, t: usize, ci: usize, chunk: &mut [F]) {
    let row0 = ci * ROW_CHUNK;
    for (r, row) in chunk.chunks_exact_mut(t).enumerate() {
        let src = input
            .inputs
            .get((row0 + r) * t..(row0 + r + 1) * t)
            .unwrap_or(input.padding);
        row.copy_from_slice(src);
    }
}

impl<'a, F: Field> RegionTrace<'a, F> {
    /// Computes the checkpoints `S_c, S_2c, … ≤ S_{L−1}`.
    fn new<R: LayeredRelation<Base = F> + Sync>(
        relation: &R,
        input: RegionInput<'a, F>,
        spacing: usize,
    ) -> Self {
        let t = relation.lanes();
        let mut trace = Self {
            input,
            checkpoints: Vec::new(),
            work: vec![F::ZERO; t << input.width],
            current: None,
        };
        let last = relation.num_layers().saturating_sub(1);
        let mut at = 0;
        par::for_each_chunk(&mut trace.work, ROW_CHUNK * t, 0, |ci, chunk| {
            fill_chunk(&input, t, ci, chunk);
            relation.apply_input_rows(chunk);
        });
        while at + spacing <= last {
            par::for_each_chunk(&mut trace.work, ROW_CHUNK * t, 0, |_, chunk| {
                for layer in at + 1..=at + spacing {
                    relation.apply_layer_rows(layer, chunk);
                }
            });
            at += spacing;
            trace.checkpoints.push(trace.work.clone());
        }
        trace
    }

    /// Makes `S_layer` the current table (recomputed from the nearest checkpoint at or below
    /// it, chunk by chunk) and returns `Σ_chunks visit(chunk index, rows of the chunk)`, run on
    /// each chunk of [`ROW_CHUNK`] rows while it is hot in cache.
    fn visit_layer<R, E>(
        &mut self,
        relation: &R,
        layer: usize,
        spacing: usize,
        len: usize,
        visit: impl Fn(usize, &[F], &mut [E]) + Sync + Send,
    ) -> Vec<E>
    where
        R: LayeredRelation<Base = F> + Sync,
        E: Field,
    {
        let t = relation.lanes();
        let k = layer / spacing;
        if k > 0 && layer == k * spacing {
            self.current = Some(k - 1);
            return par::chunk_sums(&self.checkpoints[k - 1], ROW_CHUNK * t, len, E::ZERO, visit);
        }
        self.current = None;
        if k == 0 {
            let input = self.input;
            return par::chunk_sums_mut(
                &mut self.work,
                ROW_CHUNK * t,
                len,
                E::ZERO,
                |ci, chunk, acc| {
                    fill_chunk(&input, t, ci, chunk);
                    relation.apply_input_rows(chunk);
                    for l in 1..=layer {
                        relation.apply_layer_rows(l, chunk);
                    }
                    visit(ci, chunk, acc);
                },
            );
        }
        let from = k * spacing;
        par::zip_chunk_sums(
            &mut self.work,
            ROW_CHUNK * t,
            &self.checkpoints[k - 1],
            ROW_CHUNK * t,
            len,
            E::ZERO,
            |ci, chunk, src, acc| {
                chunk.copy_from_slice(src);
                for l in from + 1..=layer {
                    relation.apply_layer_rows(l, chunk);
                }
                visit(ci, chunk, acc);
            },
        )
    }

    /// The table made current by the last [`RegionTrace::visit_layer`].
    fn current(&self) -> &[F] {
        match self.current {
            Some(k) => &self.checkpoints[k],
            None => &self.work,
        }
    }
}

/// Proves the output claims `claims[a]` on `S_L` of every region by one walk over all
/// layers, writing to `transcript` (which must already hold the statement), and returns the
/// terminal claims on the committed layer `S_0` (one per region, at `ρ_{<w_a}`).
///
/// # Panics
/// If the claims do not match the regions' shapes (`w_a` coordinates, `t` values), or an
/// input has more than `2^w_a` rows or is not a whole number of rows (programmer errors;
/// the batchers check their inputs first).
pub fn prove_walk<R, E, T>(
    relation: &R,
    config: &ProverConfig,
    regions: &[RegionInput<'_, R::Base>],
    claims: Vec<RegionClaim<E>>,
    transcript: &mut T,
) -> Vec<RegionClaim<E>>
where
    R: LayeredRelation + Sync,
    E: ExtensionField<R::Base>,
    T: ProverTranscript,
{
    let t = relation.lanes();
    assert_eq!(regions.len(), claims.len(), "one claim per region");
    for (region, claim) in regions.iter().zip(&claims) {
        assert_eq!(claim.point.len(), region.width, "claim point length");
        assert_eq!(claim.values.len(), t, "claim values length");
        assert!(region.inputs.len().is_multiple_of(t), "whole rows");
        assert!(region.inputs.len() <= t << region.width, "too many rows");
        assert_eq!(region.padding.len(), t, "padding row length");
    }
    let spacing = config.checkpoint_spacing.max(1);
    let mut traces: Vec<RegionTrace<'_, R::Base>> = regions
        .iter()
        .map(|&r| RegionTrace::new(relation, r, spacing))
        .collect();
    // Two folding buffers per region (`2^w/2` and `2^w/4` rows of `E`), reused by every
    // layer: the folds ping-pong between them instead of allocating.
    let mut buffers: Vec<(Vec<E>, Vec<E>)> = regions
        .iter()
        .map(|r| {
            (
                vec![E::ZERO; (t << r.width) / 2],
                vec![E::ZERO; (t << r.width) / 4],
            )
        })
        .collect();
    let mut claims = claims;
    for layer in (1..=relation.num_layers()).rev() {
        claims = prove_layer(
            relation,
            layer,
            &mut traces,
            &mut buffers,
            spacing,
            &claims,
            transcript,
        );
    }
    claims
}

/// A region's sumcheck table: the base-field layer before the first fold, `E` after.
enum Table<'a, F> {
    Base(&'a [F]),
    /// The first `len` entries of the walker's first buffer.
    A(usize),
    /// The first `len` entries of the walker's second buffer.
    B(usize),
}

/// One region's state during a layer's sumcheck.
struct Walker<'a, F, E> {
    width: usize,
    point: &'a [E],
    cw: Vec<E>,
    table: Table<'a, F>,
    /// The folding buffers (see [`prove_walk`]).
    bufs: (Vec<E>, Vec<E>),
    /// `eq(z_{>k}, ·)` for the current round `k < width`.
    eq_rest: Vec<E>,
    /// `q(X)` of the current round (computed while the table was last written).
    q: Vec<E>,
    /// `eq(z_{<k}, ρ_{<k})`; after the region's last round, `eq0 = eq(z, ρ_{<w}) · Π (1 − ρ_j)`.
    prefix: E,
    /// `u = S(ρ_{<w})` and `Σ_j cw_j T_j(u)`, once the table is down to one row.
    done: Option<(Vec<E>, E)>,
}

/// One layer's sumcheck (module docs); returns the claims on `S_{l−1}`.
///
/// Memory passes are fused: round 0 is accumulated chunk by chunk while `S_{l−1}` is
/// recomputed, and each fold accumulates the next round while the folded chunk is in cache.
fn prove_layer<R, E, T>(
    relation: &R,
    layer: usize,
    traces: &mut [RegionTrace<'_, R::Base>],
    buffers: &mut [(Vec<E>, Vec<E>)],
    spacing: usize,
    claims: &[RegionClaim<E>],
    transcript: &mut T,
) -> Vec<RegionClaim<E>>
where
    R: LayeredRelation + Sync,
    E: ExtensionField<R::Base>,
    T: ProverTranscript,
{
    let t = relation.lanes();
    let d = relation.layer_degree(layer);
    let width_q = d + 1;
    let plans: Vec<LanePlan<R::Base>> = (0..t)
        .map(|j| LanePlan::new(relation.lane_map(layer, j)))
        .collect();
    let alpha: E = transcript.challenge(LABEL_ALPHA);
    // The prover never checks claims: a false statement gives a proof that fails to verify.
    let (folded, _) = fold_layer(relation, layer, alpha, claims);
    let max_width = claims.iter().map(|c| c.point.len()).max().unwrap_or(0);

    // Recompute S_{l−1} region by region, accumulating round 0 on the fly.
    let mut first: Vec<(Vec<E>, Vec<E>)> = Vec::with_capacity(claims.len());
    for ((trace, claim), cw) in traces.iter_mut().zip(claims).zip(&folded) {
        let width = claim.point.len();
        let eq_rest = if width > 0 {
            eq_table(&claim.point[1..])
        } else {
            Vec::new()
        };
        let acc = trace.visit_layer(
            relation,
            layer - 1,
            spacing,
            t * width_q,
            |ci, rows, acc| {
                if width > 0 {
                    let off = ci * ROW_CHUNK / 2;
                    let pairs = rows.len() / (2 * t);
                    round0_chunk(&plans, rows, &eq_rest[off..off + pairs], t, width_q, acc);
                }
            },
        );
        first.push((eq_rest, combine_q(&acc, cw, t, width_q)));
    }
    let mut walkers: Vec<Walker<'_, R::Base, E>> = traces
        .iter()
        .zip(claims)
        .zip(folded)
        .zip(first)
        .zip(buffers.iter_mut())
        .map(|((((trace, claim), cw), (eq_rest, q)), bufs)| {
            let table = trace.current();
            let width = claim.point.len();
            let done = (width == 0).then(|| {
                let u: Vec<E> = table[..t].iter().map(|&x| E::from(x)).collect();
                let rel = relation.layer_term(layer, &cw, &u);
                (u, rel)
            });
            Walker {
                width,
                point: &claim.point,
                cw,
                table: Table::Base(table),
                bufs: core::mem::take(bufs),
                eq_rest,
                q,
                prefix: E::ONE,
                done,
            }
        })
        .collect();

    let mut rho = Vec::with_capacity(max_width);
    for k in 0..max_width {
        let mut poly = vec![E::ZERO; d + 2];
        for w in &walkers {
            if let Some((_, rel)) = &w.done {
                let s = w.prefix * *rel;
                poly[0] += s;
                poly[1] -= s;
                continue;
            }
            let z = w.point[k];
            let s0 = w.prefix * (E::ONE - z);
            let s1 = w.prefix * (z.double() - E::ONE);
            for (m, &c) in w.q.iter().enumerate() {
                poly[m] += s0 * c;
                poly[m + 1] += s1 * c;
            }
        }
        let mut message = Vec::with_capacity(d + 1);
        message.push(poly[0]);
        message.extend_from_slice(&poly[2..]);
        transcript.send_field(LABEL_ROUND, &message);
        let r: E = transcript.challenge(LABEL_CHALLENGE);
        rho.push(r);
        // Fold in the opposite order of the previous pass over the tables (round 0 visited
        // them in order), so the tables touched last, still in cache, are read first.
        let order: Vec<usize> = if k % 2 == 0 {
            (0..walkers.len()).rev().collect()
        } else {
            (0..walkers.len()).collect()
        };
        for &i in &order {
            let w = &mut walkers[i];
            if w.done.is_some() {
                w.prefix *= E::ONE - r;
                continue;
            }
            w.prefix *= eq1(w.point[k], r);
            if k + 1 == w.width {
                let mut u = vec![E::ZERO; t];
                match w.table {
                    Table::Base(rows) => fold_round(rows, r, t, None, &mut u, fold_chunk),
                    Table::A(len) => {
                        fold_round(&w.bufs.0[..len], r, t, None, &mut u, fold_chunk_packed)
                    }
                    Table::B(len) => {
                        fold_round(&w.bufs.1[..len], r, t, None, &mut u, fold_chunk_packed)
                    }
                };
                let rel = relation.layer_term(layer, &w.cw, &u);
                w.done = Some((u, rel));
                w.eq_rest = Vec::new();
            } else {
                sum_adjacent_pairs(&mut w.eq_rest);
                let next = Some(NextRound {
                    plans: &plans,
                    eq: &w.eq_rest,
                    width: width_q,
                });
                let (acc, table) = match w.table {
                    Table::Base(rows) => {
                        let half = rows.len() / 2;
                        let acc = fold_round(rows, r, t, next, &mut w.bufs.0[..half], fold_chunk);
                        (acc, Table::A(half))
                    }
                    Table::A(len) => {
                        let (a, b) = (&w.bufs.0[..len], &mut w.bufs.1[..len / 2]);
                        (
                            fold_round(a, r, t, next, b, fold_chunk_packed),
                            Table::B(len / 2),
                        )
                    }
                    Table::B(len) => {
                        let (b, a) = (&w.bufs.1[..len], &mut w.bufs.0[..len / 2]);
                        (
                            fold_round(b, r, t, next, a, fold_chunk_packed),
                            Table::A(len / 2),
                        )
                    }
                };
                w.q = combine_q(&acc, &w.cw, t, width_q);
                w.table = table;
            }
        }
    }

    let mut values = Vec::with_capacity(t * walkers.len());
    let mut next = Vec::with_capacity(walkers.len());
    for (w, bufs) in walkers.into_iter().zip(buffers.iter_mut()) {
        *bufs = w.bufs;
        let (u, _) = w.done.expect("every region finishes within W rounds");
        values.extend_from_slice(&u);
        next.push(RegionClaim {
            point: rho[..w.width].to_vec(),
            values: u,
        });
    }
    transcript.send_field(LABEL_LAYER_VALUES, &values);
    next
}

/// Adds, for every row pair `(lo, hi)` of `rows` (`t` lanes per row) with eq weight `e`,
/// the coefficients of `e · T_j(lo_j + X (hi_j − lo_j))` to `acc[j·width..(j+1)·width]`.
fn round_chunk<F, V, E>(
    plans: &[LanePlan<F>],
    rows: &[V],
    eq: &[E],
    t: usize,
    width: usize,
    acc: &mut [E],
) where
    F: Field,
    V: ExtensionField<F>,
    E: ExtensionField<V>,
{
    let mut scratch = vec![E::ZERO; width];
    for (pair, &e) in rows.chunks_exact(2 * t).zip(eq) {
        let (lo, hi) = pair.split_at(t);
        for (j, plan) in plans.iter().enumerate() {
            plan.accumulate::<V, E>(
                e,
                lo[j],
                hi[j],
                &mut acc[j * width..(j + 1) * width],
                &mut scratch,
            );
        }
    }
}

/// [`round_chunk`] on extension-field rows, [`Field::Packing`] row pairs at a time (four
/// GF(2^256) lanes: every product a three-product Karatsuba of four-lane GHASH products);
/// the pairs past the last full group go through [`round_chunk`]. Same result (tested).
fn round_chunk_packed<F, E>(
    plans: &[LanePlan<F>],
    rows: &[E],
    eq: &[E],
    t: usize,
    width: usize,
    acc: &mut [E],
) where
    F: Field,
    E: ExtensionField<F>,
{
    let w = <E::Packing as PackedField>::WIDTH;
    let pairs = eq.len().min(rows.len() / (2 * t));
    let groups = if w > 1 { pairs / w } else { 0 };
    if groups > 0 {
        let shifts: Vec<E::Packing> = plans
            .iter()
            .map(|p| E::Packing::broadcast(E::from(p.shift())))
            .collect();
        let mut packed_acc = vec![E::Packing::default(); acc.len()];
        let mut scratch = vec![E::Packing::default(); width];
        for g in 0..groups {
            let first = g * w;
            let e = E::Packing::from_fn(|i| eq[first + i]);
            for (j, plan) in plans.iter().enumerate() {
                let lo = E::Packing::from_fn(|i| rows[(first + i) * 2 * t + j]);
                let hi = E::Packing::from_fn(|i| rows[(first + i) * 2 * t + t + j]);
                plan.accumulate_packed(
                    shifts[j],
                    e,
                    lo,
                    hi,
                    &mut packed_acc[j * width..(j + 1) * width],
                    &mut scratch,
                );
            }
        }
        for (a, p) in acc.iter_mut().zip(&packed_acc) {
            *a += (0..w).map(|i| p.get(i)).sum::<E>();
        }
    }
    let done = groups * w;
    round_chunk::<F, E, E>(
        plans,
        &rows[done * 2 * t..pairs * 2 * t],
        &eq[done..pairs],
        t,
        width,
        acc,
    );
}

/// [`round_chunk`] for round 0, where the rows are in the base field `F`: the lane
/// polynomials' coefficients are computed in `F` with `F`'s SIMD packing
/// ([`Field::Packing`], four GF(2^128) products per instruction), and the eq weights enter
/// through inner products over `F`: writing `e = Σ_c e_c·basis_c` in `F`-coordinates,
/// `Σ_p e_p·c_{k,p} = Σ_c basis_c · ⟨e_c, c_k⟩` ([`Field::inner_product`], SIMD and reduced
/// once for GF(2^128)). Same result as [`round_chunk`] (tested).
fn round0_chunk<F, E>(
    plans: &[LanePlan<F>],
    rows: &[F],
    eq: &[E],
    t: usize,
    width: usize,
    acc: &mut [E],
) where
    F: Field,
    E: ExtensionField<F>,
{
    let pairs = eq.len().min(rows.len() / (2 * t));
    let deg = <E as ExtensionField<F>>::DEGREE;
    let basis: Vec<E> = (0..deg).map(<E as ExtensionField<F>>::basis).collect();
    let mut ec = vec![vec![F::ZERO; pairs]; deg];
    let mut tmp = vec![F::ZERO; deg];
    for (p, e) in eq[..pairs].iter().enumerate() {
        e.to_base_coeffs(&mut tmp);
        for (c, &v) in ec.iter_mut().zip(&tmp) {
            c[p] = v;
        }
    }
    let esum: Vec<F> = ec.iter().map(|c| c.iter().copied().sum()).collect();
    // Σ_p e_p · v_p as an element of E.
    let weigh = |v: &[F]| -> E {
        ec.iter()
            .zip(&basis)
            .map(|(c, &b)| b * F::inner_product(c, v))
            .sum()
    };
    let mut lo = vec![F::ZERO; pairs];
    let mut hi = vec![F::ZERO; pairs];
    let mut coeffs: Vec<Vec<F>> = Vec::new();
    let mut scratch = vec![E::ZERO; width];
    for (j, plan) in plans.iter().enumerate() {
        for (p, pair) in rows.chunks_exact(2 * t).take(pairs).enumerate() {
            lo[p] = pair[j];
            hi[p] = pair[t + j];
        }
        let out = &mut acc[j * width..(j + 1) * width];
        match plan {
            LanePlan::Linear { shift } => {
                let dot_lo: Vec<F> = ec.iter().map(|c| F::inner_product(c, &lo)).collect();
                let dot_hi: Vec<F> = ec.iter().map(|c| F::inner_product(c, &hi)).collect();
                for c in 0..deg {
                    out[0] += basis[c] * (dot_lo[c] + *shift * esum[c]);
                    out[1] += basis[c] * (dot_hi[c] - dot_lo[c]);
                }
            }
            LanePlan::Mersenne { shift, m } => {
                let len = 1usize << m;
                coeffs.resize_with(len, Vec::new);
                for c in &mut coeffs {
                    c.resize(pairs, F::ZERO);
                }
                let w = <F::Packing as PackedField>::WIDTH;
                let groups = pairs / w;
                let mut packed = vec![F::Packing::default(); len];
                for g in 0..groups {
                    let a = F::Packing::from_fn(|i| lo[g * w + i] + *shift);
                    let b = F::Packing::from_fn(|i| hi[g * w + i] - lo[g * w + i]);
                    mersenne_expand([a, b], a, b, *m, &mut packed);
                    for (k, pk) in packed.iter().enumerate() {
                        for i in 0..w {
                            coeffs[k][g * w + i] = pk.get(i);
                        }
                    }
                }
                let mut single = vec![F::ZERO; len];
                for p in groups * w..pairs {
                    let (a, b) = (lo[p] + *shift, hi[p] - lo[p]);
                    mersenne_expand([a, b], a, b, *m, &mut single);
                    for (k, &v) in single.iter().enumerate() {
                        coeffs[k][p] = v;
                    }
                }
                for (o, c) in out.iter_mut().zip(&coeffs[..len]) {
                    *o += weigh(c);
                }
            }
            LanePlan::Binomial { .. } => {
                for p in 0..pairs {
                    plan.accumulate::<F, E>(eq[p], lo[p], hi[p], out, &mut scratch);
                }
            }
        }
    }
}

/// `q_m = Σ_j cw_j · acc[j·width + m]`.
fn combine_q<E: Field>(acc: &[E], cw: &[E], t: usize, width: usize) -> Vec<E> {
    (0..width)
        .map(|m| (0..t).map(|j| cw[j] * acc[j * width + m]).sum())
        .collect()
}

/// What [`fold_round`] needs to accumulate the next round: the lane plans, the eq table of
/// the next round and the number of coefficients per lane.
#[derive(Clone, Copy)]
struct NextRound<'a, F, E> {
    plans: &'a [LanePlan<F>],
    eq: &'a [E],
    width: usize,
}

/// A chunk fold: `out` (`t` lanes per row) from the row pairs of `rows` and the challenge.
type FoldChunk<V, E> = fn(&mut [E], &[V], E, usize);

/// `out[p·t + j] = lo_j + r·(hi_j − lo_j)` for the row pairs `(lo, hi)` of `rows`.
fn fold_chunk<V: Field, E: ExtensionField<V>>(out: &mut [E], rows: &[V], r: E, t: usize) {
    for (o, pair) in out.chunks_exact_mut(t).zip(rows.chunks_exact(2 * t)) {
        let (lo, hi) = pair.split_at(t);
        for ((o, &l), &h) in o.iter_mut().zip(lo).zip(hi) {
            *o = E::from(l) + r * (h - l);
        }
    }
}

/// [`fold_chunk`] on extension-field rows, [`Field::Packing`] row pairs at a time per lane;
/// the rest through [`fold_chunk`]. Same result (tested).
fn fold_chunk_packed<E: Field>(out: &mut [E], rows: &[E], r: E, t: usize) {
    let w = <E::Packing as PackedField>::WIDTH;
    let pairs = out.len() / t;
    let groups = if w > 1 { pairs / w } else { 0 };
    let rp = E::Packing::broadcast(r);
    for g in 0..groups {
        let first = g * w;
        for j in 0..t {
            let lo = E::Packing::from_fn(|i| rows[(first + i) * 2 * t + j]);
            let hi = E::Packing::from_fn(|i| rows[(first + i) * 2 * t + t + j]);
            let folded = lo + rp * (hi - lo);
            for i in 0..w {
                out[(first + i) * t + j] = folded.get(i);
            }
        }
    }
    let done = groups * w;
    fold_chunk::<E, E>(&mut out[done * t..], &rows[done * 2 * t..], r, t);
}

/// The fold `new[i] = lo_i + r·(hi_i − lo_i)` lane by lane over the row pairs of `rows`, and,
/// with `next`, the next round's per-lane accumulators over the folded
/// table (computed chunk by chunk right after folding it).
fn fold_round<F, V, E>(
    rows: &[V],
    r: E,
    t: usize,
    next: Option<NextRound<'_, F, E>>,
    out: &mut [E],
    fold: FoldChunk<V, E>,
) -> Vec<E>
where
    F: Field,
    V: ExtensionField<F>,
    E: ExtensionField<V> + ExtensionField<F>,
{
    debug_assert_eq!(out.len(), rows.len() / 2);
    let len = next.map_or(0, |n| t * n.width);
    par::zip_chunk_sums(
        out,
        t * ROW_CHUNK,
        rows,
        2 * t * ROW_CHUNK,
        len,
        E::ZERO,
        |ci, out, rows, acc| {
            fold(out, rows, r, t);
            if let Some(n) = next {
                let off = ci * ROW_CHUNK / 2;
                let pairs = out.len() / (2 * t);
                round_chunk_packed::<F, E>(n.plans, out, &n.eq[off..off + pairs], t, n.width, acc);
            }
        },
    )
}

/// `v[j] ← v[j·2] + v[j·2 + 1]`, halving the length (sums out the first eq variable).
fn sum_adjacent_pairs<E: Field>(v: &mut Vec<E>) {
    let half = v.len() / 2;
    for j in 0..half {
        v[j] = v[2 * j] + v[2 * j + 1];
    }
    v.truncate(half);
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_core::layered::LaneMap;
    use flockwork_field_binary::{Ghash128, Ghash256};
    use flockwork_field_prime::Bn254Fr;

    fn check<F: Field, E: ExtensionField<F>>(maps: &[LaneMap<F>], pairs: usize) {
        let t = maps.len();
        let plans: Vec<LanePlan<F>> = maps.iter().map(|&m| LanePlan::new(m)).collect();
        let width = plans.iter().map(LanePlan::degree).max().unwrap() + 1;
        let rows: Vec<F> = (0..2 * t * pairs)
            .map(|i| F::from_index(3 + 7 * i as u64) * F::from_index(1 + i as u64 % 5))
            .collect();
        let eq: Vec<E> = (0..pairs)
            .map(|i| {
                E::from_index(11 + i as u64) + E::basis(E::DEGREE - 1) * F::from_index(i as u64)
            })
            .collect();
        let mut fast = vec![E::ZERO; t * width];
        let mut slow = vec![E::ZERO; t * width];
        round0_chunk(&plans, &rows, &eq, t, width, &mut fast);
        round_chunk::<F, F, E>(&plans, &rows, &eq, t, width, &mut slow);
        assert_eq!(fast, slow);
        // The packed kernel of the later rounds on the same rows lifted to E.
        let lifted: Vec<E> = rows.iter().map(|&x| E::from(x) * eq[0]).collect();
        let mut packed = vec![E::ZERO; t * width];
        let mut scalar = vec![E::ZERO; t * width];
        round_chunk_packed::<F, E>(&plans, &lifted, &eq, t, width, &mut packed);
        round_chunk::<F, E, E>(&plans, &lifted, &eq, t, width, &mut scalar);
        assert_eq!(packed, scalar);
        // The packed fold of the later rounds.
        let r = eq[pairs - 1] + E::basis(E::DEGREE - 1);
        let mut packed = vec![E::ZERO; t * pairs];
        let mut scalar = vec![E::ZERO; t * pairs];
        fold_chunk_packed(&mut packed, &lifted, r, t);
        fold_chunk::<E, E>(&mut scalar, &lifted, r, t);
        assert_eq!(packed, scalar);
    }

    #[test]
    fn round_kernels_match_the_scalar_kernel() {
        let g = |shift, exponent| LaneMap::Power {
            shift: Ghash128::new(shift),
            exponent,
        };
        for pairs in [1, 3, 4, 13, 64] {
            check::<Ghash128, Ghash256>(
                &[g(5, 7), LaneMap::Identity, g(9, 1), g(0, 3), g(2, 5)],
                pairs,
            );
            let b = |shift, exponent| LaneMap::Power {
                shift: Bn254Fr::from_index(shift),
                exponent,
            };
            check::<Bn254Fr, Bn254Fr>(&[b(5, 5), LaneMap::Identity, b(3, 1)], pairs);
        }
    }
}
