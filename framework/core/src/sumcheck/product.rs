//! The degree-2 product rounds `Σ_x [eq(r, x)·] a(x)·b(x)` on slices: the one kernel behind
//! every two-table sumcheck of flockwork — the engine's degree-2 rounds
//! ([`SumcheckProver`](super::SumcheckProver)), the commitments' running sumcheck
//! (`flockwork_pcs`) and batch-R1CS's zerocheck rounds (`flockwork_r1cs`). Messages are the
//! [module's format](super) for `d = 2`: `[G(1), G(∞)]`.
//!
//! A round binds one variable; the table entries that differ only in it form pairs
//! `(t_0, t_1)`. With the eq weights `w` of the free variables (`w = 1` in the plain case),
//!
//! ```text
//! G(1) = Σ w·a_1·b_1,    G(∞) = Σ w·(a_1 − a_0)·(b_1 − b_0),    t ← t_0 + ρ·(t_1 − t_0)
//! ```
//!
//! (Thaler, *Proofs, Arguments, and Zero-Knowledge*, §4.1; Gruen, eprint 2024/108, §3 for
//! the point at infinity). Two layouts of the pairs:
//!
//! * **Pairs** ([`pairs_message`], [`pairs_fold_with_message`]): the first variable is bound
//!   and the pairs are `(t[2j], t[2j + 1])`, the crate's order (least significant first). A
//!   chunk's pairs are split into two contiguous rows on the stack.
//! * **Halves** ([`halves_message`], [`halves_bind_then_message`], [`halves_rounds`],
//!   [`prove_halves`]): the last variable is bound and the pairs are `(t[j], t[j + half])`,
//!   two contiguous halves, so every step works on the tables in place. The verifier is the
//!   generic one, given the eq point reversed; the challenges, reversed, are the point in the
//!   original order.
//!
//! Either way the work is cut into chunks of at most [`SUMCHECK_CHUNK`] pairs, and each step
//! of a chunk ([`chunk_message`]) is one of the field's slice kernels ([`Field::mul_slices`],
//! [`Field::inner_product`], [`Field::add_scaled_slice`]: SIMD for GF(2^128)). With eq
//! weights in split form `w[j] = lo[j mod L]·hi[⌊j / L⌋]` (Dao–Thaler, eprint 2024/1210, §3),
//! a chunk lies in one block of `lo`, so its sums are inner products with a piece of `lo`,
//! scaled once by its `hi` weight ([`chunked_eq`] splits a point that way).
//!
//! Binding and the next round's message share one pass over the tables
//! ([`pairs_fold_with_message`], [`halves_bind_then_message`]): half the memory traffic of a
//! bind pass followed by a message pass.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;
use flockwork_field::par::{self, SUMCHECK_CHUNK};
use flockwork_transcript::ProverTranscript;

use super::{LABEL_CHALLENGE, LABEL_ROUND, SumcheckOutput, absorb_statement};
use crate::eq::SplitEq;

/// `log2` of [`SUMCHECK_CHUNK`].
const LOG_CHUNK: usize = SUMCHECK_CHUNK.trailing_zeros() as usize;

/// `eq(point, ·)` split for the chunks of this module: the low table covers the first
/// `min(len, log2 SUMCHECK_CHUNK)` variables, so a chunk is one block of it (and stays in L1
/// while the chunk is walked).
#[must_use]
pub fn chunked_eq<F: Field>(point: &[F]) -> SplitEq<F> {
    SplitEq::with_low_vars(point, point.len().min(LOG_CHUNK))
}

/// `[Σ w·a_hi·b_hi, Σ w·(a_hi − a_lo)·(b_hi − b_lo)]` over one chunk of pairs (`w = 1`
/// without weights), leaving the slopes `a_hi − a_lo` and `b_hi − b_lo` in `a_hi` and `b_hi`.
///
/// # Panics
/// If the four rows (and the weights) do not have one length, or weights are given for more
/// than [`SUMCHECK_CHUNK`] pairs.
pub fn chunk_message<F: Field>(
    a_lo: &[F],
    a_hi: &mut [F],
    b_lo: &[F],
    b_hi: &mut [F],
    weights: Option<&[F]>,
) -> [F; 2] {
    let n = a_lo.len();
    assert!(
        a_hi.len() == n && b_lo.len() == n && b_hi.len() == n,
        "the rows of a chunk have one length"
    );
    let at_one = weighted_products(a_hi, b_hi, weights);
    sub_assign(a_hi, a_lo);
    sub_assign(b_hi, b_lo);
    [at_one, weighted_products(a_hi, b_hi, weights)]
}

/// `Σ w[i]·a[i]·b[i]`, or `Σ a[i]·b[i]` without weights.
fn weighted_products<F: Field>(a: &[F], b: &[F], weights: Option<&[F]>) -> F {
    match weights {
        None => F::inner_product(a, b),
        Some(w) => {
            assert_eq!(w.len(), a.len(), "one weight per pair");
            let mut prod = [F::ZERO; SUMCHECK_CHUNK];
            let prod = &mut prod[..a.len()];
            F::mul_slices(prod, a, b);
            F::inner_product(w, prod)
        }
    }
}

/// `hi[i] −= lo[i]`.
fn sub_assign<F: Field>(hi: &mut [F], lo: &[F]) {
    for (h, &l) in hi.iter_mut().zip(lo) {
        *h -= l;
    }
}

fn add<F: Field>(x: [F; 2], y: [F; 2]) -> [F; 2] {
    [x[0] + y[0], x[1] + y[1]]
}

fn scale<F: Field>(x: [F; 2], s: F) -> [F; 2] {
    [x[0] * s, x[1] * s]
}

/// Splits the pairs `(t[2j], t[2j + 1])` into `lo[j]` and `hi[j]`.
fn split_pairs<F: Field>(t: &[F], lo: &mut [F], hi: &mut [F]) {
    for ((pair, l), h) in t.chunks_exact(2).zip(lo.iter_mut()).zip(hi.iter_mut()) {
        *l = pair[0];
        *h = pair[1];
    }
}

/// The message of the pairs of a chunk in the Pairs layout (at most `2·SUMCHECK_CHUNK`
/// entries of each table).
fn pairs_chunk<F: Field>(a: &[F], b: &[F], weights: Option<&[F]>) -> [F; 2] {
    let n = a.len() / 2;
    let mut scratch = [[F::ZERO; SUMCHECK_CHUNK]; 4];
    let [a0, a1, b0, b1] = &mut scratch;
    split_pairs(a, &mut a0[..n], &mut a1[..n]);
    split_pairs(b, &mut b0[..n], &mut b1[..n]);
    chunk_message(&a0[..n], &mut a1[..n], &b0[..n], &mut b1[..n], weights)
}

/// `[G(1), G(∞)]` for the tables `a`, `b` (equal power-of-two lengths ≥ 2) in the Pairs
/// layout: the first variable is bound, and `eq`, when given, weighs pair `j` (it has
/// `len/2` entries).
///
/// # Panics
/// If the tables' lengths differ or `eq` does not have one weight per pair.
#[must_use]
pub fn pairs_message<F: Field>(a: &[F], b: &[F], eq: Option<&SplitEq<F>>) -> [F; 2] {
    assert_eq!(a.len(), b.len(), "tables of one length");
    let pairs = a.len() / 2;
    let chunks = pairs.div_ceil(SUMCHECK_CHUNK);
    let chunk = |c: usize| {
        let start = c * SUMCHECK_CHUNK;
        let range = 2 * start..(2 * (start + SUMCHECK_CHUNK)).min(a.len());
        let (a, b) = (&a[range.clone()], &b[range]);
        match eq {
            None => pairs_chunk(a, b, None),
            Some(eq) => {
                let lo = eq.lo();
                if lo.len() >= SUMCHECK_CHUNK {
                    // The chunk lies in one block of `lo`: one `hi` weight.
                    let weights = &lo[start % lo.len()..][..a.len() / 2];
                    scale(pairs_chunk(a, b, Some(weights)), eq.hi()[start / lo.len()])
                } else {
                    // Blocks shorter than a chunk: the weights of each pair.
                    let mut weights = [F::ZERO; SUMCHECK_CHUNK];
                    let weights = &mut weights[..a.len() / 2];
                    for (i, w) in weights.iter_mut().enumerate() {
                        *w = eq.get(start + i);
                    }
                    pairs_chunk(a, b, Some(weights))
                }
            }
        }
    };
    if let Some(eq) = eq {
        assert_eq!(
            eq.lo().len() * eq.hi().len(),
            pairs,
            "one eq weight per pair"
        );
    }
    par::map_reduce(chunks, 4, 1, || [F::ZERO; 2], chunk, add)
}

/// Binds the first variable of `a` and `b` at `r` into `a_out` and `b_out` (half their
/// length): `t'[j] = t[2j] + r·(t[2j+1] − t[2j])`; in the same pass, the next round's
/// message on the bound tables ([`pairs_message`] without eq), `None` when they have a
/// single entry. One read of `a` and `b` instead of two.
///
/// # Panics
/// If the lengths do not fit.
pub fn pairs_fold_with_message<F: Field>(
    a: &[F],
    b: &[F],
    r: F,
    a_out: &mut [F],
    b_out: &mut [F],
) -> Option<[F; 2]> {
    let half = a.len() / 2;
    assert!(
        b.len() == a.len() && a_out.len() == half && b_out.len() == half,
        "tables of one length, outputs of half of it"
    );
    let fold = |t: &[F], o: &mut [F]| {
        let mut slope = [F::ZERO; SUMCHECK_CHUNK];
        let slope = &mut slope[..o.len()];
        split_pairs(t, o, slope);
        sub_assign(slope, o);
        F::add_scaled_slice(o, slope, r);
    };
    let chunk = |c: usize, oa: &mut [F], ob: &mut [F]| {
        let range = 2 * c * SUMCHECK_CHUNK..2 * c * SUMCHECK_CHUNK + 2 * oa.len();
        fold(&a[range.clone()], oa);
        fold(&b[range], ob);
        if oa.len() < 2 {
            return [F::ZERO; 2];
        }
        pairs_chunk(oa, ob, None)
    };
    let message = par::zip_chunks_reduce(
        a_out,
        b_out,
        SUMCHECK_CHUNK,
        4 * SUMCHECK_CHUNK,
        || [F::ZERO; 2],
        chunk,
        add,
    );
    (half >= 2).then_some(message)
}

/// `[G(1), G(∞)]` for the tables `a`, `b` of `2^n` entries (`n ≥ 1`) in the Halves layout:
/// the last variable is bound, with the weights `eq` over the first `n − 1` variables
/// ([`chunked_eq`]). Leaves the slopes in the upper halves, as [`halves_rounds`] takes them.
///
/// # Panics
/// If the lengths do not fit.
pub fn halves_message<F: Field>(a: &mut [F], b: &mut [F], eq: &SplitEq<F>) -> [F; 2] {
    let half = a.len() / 2;
    assert!(
        b.len() == a.len() && eq.lo().len() * eq.hi().len() == half,
        "tables of 2^n entries, eq weights over n − 1 variables"
    );
    let (lo, hi) = (eq.lo(), eq.hi());
    let chunk = lo.len();
    let (a_lo, a_hi) = a.split_at_mut(half);
    let (b_lo, b_hi) = b.split_at_mut(half);
    par::zip4_chunks_reduce(
        [a_lo, a_hi, b_lo, b_hi],
        [chunk; 4],
        0,
        || [F::ZERO; 2],
        |c, [alo, ahi, blo, bhi]| scale(chunk_message(alo, ahi, blo, bhi, Some(lo)), hi[c]),
        add,
    )
}

/// Binds the current round of the Halves layout and computes the next round's message in one
/// pass over the tables.
///
/// `a`, `b` (`2Q` entries each) receive the bound tables: `bind(out, src)` turns a chunk of
/// `a` into its bound values given the matching chunk of `a_src` (for tables holding the
/// slopes, `out += ρ·src`; a caller may bind from another representation, as batch-R1CS's
/// first round binds from bit rows). Chunk `c` of the lower half `a[..Q]` and chunk `c` of
/// the upper half `a[Q..]` are bound together, so the next round's pairs `(x, x + Q)` are in
/// hand: their contribution to `[G(1), G(∞)]` is summed ([`chunk_message`], eq weights over
/// `next_point`, `Q = 2^len`) and the upper half keeps the slopes, as [`halves_message`]
/// leaves it.
///
/// # Panics
/// If the lengths do not fit.
pub fn halves_bind_then_message<F: Field, S: Sync>(
    a: &mut [F],
    b: &mut [F],
    a_src: &[S],
    b_src: &[S],
    next_point: &[F],
    bind: impl Fn(&mut [F], &[S]) + Sync,
) -> [F; 2] {
    let q = a.len() / 2;
    assert!(
        q == 1 << next_point.len()
            && b.len() == 2 * q
            && a_src.len() == 2 * q
            && b_src.len() == 2 * q,
        "tables of 2^(len + 1) entries"
    );
    let eq = chunked_eq(next_point);
    let (lo, hi) = (eq.lo(), eq.hi());
    let chunk = lo.len();
    let (a_lo, a_hi) = a.split_at_mut(q);
    let (b_lo, b_hi) = b.split_at_mut(q);
    let (as_lo, as_hi) = a_src.split_at(q);
    let (bs_lo, bs_hi) = b_src.split_at(q);
    let work = |c: usize, [alo, ahi, blo, bhi]: [&mut [F]; 4]| {
        let rows = c * chunk..(c + 1) * chunk;
        bind(alo, &as_lo[rows.clone()]);
        bind(ahi, &as_hi[rows.clone()]);
        bind(blo, &bs_lo[rows.clone()]);
        bind(bhi, &bs_hi[rows]);
        scale(chunk_message(alo, ahi, blo, bhi, Some(lo)), hi[c])
    };
    par::zip4_chunks_reduce(
        [a_lo, a_hi, b_lo, b_hi],
        [chunk; 4],
        0,
        || [F::ZERO; 2],
        work,
        add,
    )
}

/// The remaining rounds of the Halves layout on tables of `2^(eq_point.len())` entries
/// holding `(t_lo, slopes)`, whose round message is `message` (not sent yet), after the
/// challenges already in `rev_point` (last variable first); `eq_point` lists the variables
/// still free. Returns the point in the original order and `[a(ρ), b(ρ)]`.
///
/// # Panics
/// If the tables do not have `2^(eq_point.len())` entries.
pub fn halves_rounds<F: Field, T: ProverTranscript>(
    mut a: Vec<F>,
    mut b: Vec<F>,
    eq_point: &[F],
    mut rev_point: Vec<F>,
    mut message: [F; 2],
    transcript: &mut T,
) -> SumcheckOutput<F> {
    assert!(
        a.len() == 1 << eq_point.len() && b.len() == a.len(),
        "tables of 2^n entries"
    );
    for v in (0..eq_point.len()).rev() {
        transcript.send_field(LABEL_ROUND, &message);
        let rho = transcript.challenge::<F>(LABEL_CHALLENGE);
        rev_point.push(rho);
        let half = a.len() / 2;
        let (a_lo, a_hi) = a.split_at_mut(half);
        let (b_lo, b_hi) = b.split_at_mut(half);
        if v == 0 {
            F::add_scaled_slice(a_lo, a_hi, rho);
            F::add_scaled_slice(b_lo, b_hi, rho);
        } else {
            // Bind: t ← t_lo + ρ·slope, with the next round's message.
            let bind = |out: &mut [F], s: &[F]| F::add_scaled_slice(out, s, rho);
            message = halves_bind_then_message(a_lo, b_lo, a_hi, b_hi, &eq_point[..v - 1], bind);
        }
        a.truncate(half);
        b.truncate(half);
    }
    rev_point.reverse();
    SumcheckOutput {
        point: rev_point,
        final_evals: vec![a[0], b[0]],
    }
}

/// The whole sumcheck `claim = Σ_x eq(eq_point, x)·a(x)·b(x)` in the Halves layout (the last
/// variable bound first), on the transcript in the [module's format](super); the generic
/// verifier checks it given `eq_point` reversed, and its point, reversed, is the returned
/// point (in the original order).
///
/// # Panics
/// If the tables do not both have `2^n` entries for `n = eq_point.len()`.
pub fn prove_halves<F: Field, T: ProverTranscript>(
    mut a: Vec<F>,
    mut b: Vec<F>,
    eq_point: &[F],
    claim: F,
    transcript: &mut T,
) -> SumcheckOutput<F> {
    let n = eq_point.len();
    assert!(
        a.len() == 1 << n && b.len() == 1 << n,
        "tables must have 2^n entries"
    );
    absorb_statement(transcript, n, 2, true, claim);
    if n == 0 {
        return SumcheckOutput {
            point: Vec::new(),
            final_evals: vec![a[0], b[0]],
        };
    }
    let message = halves_message(&mut a, &mut b, &chunked_eq(&eq_point[..n - 1]));
    halves_rounds(a, b, eq_point, Vec::with_capacity(n), message, transcript)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eq::eq_table;
    use crate::multilinear::MultilinearPoly;
    use crate::sumcheck::{SumcheckProver, verify};
    use flockwork_field_binary::Ghash128;
    use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript, Sha256VerifierTranscript};

    fn g(i: u64) -> Ghash128 {
        Ghash128::new(u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) ^ 7)
    }

    fn table(n: usize, seed: u64) -> Vec<Ghash128> {
        (0..1u64 << n).map(|i| g(seed * i + seed + 1)).collect()
    }

    /// `[G(1), G(∞)]` from the definition, pair by pair, in the Pairs layout.
    fn naive_pairs(a: &[Ghash128], b: &[Ghash128], w: &[Ghash128]) -> [Ghash128; 2] {
        let mut m = [Ghash128::ZERO; 2];
        for j in 0..a.len() / 2 {
            let (a0, a1, b0, b1) = (a[2 * j], a[2 * j + 1], b[2 * j], b[2 * j + 1]);
            m[0] += w[j] * a1 * b1;
            m[1] += w[j] * (a1 - a0) * (b1 - b0);
        }
        m
    }

    #[test]
    fn pairs_messages_match_the_definition_with_and_without_eq() {
        for n in [1usize, 2, 5, 11, 12, 14] {
            let (a, b) = (table(n, 3), table(n, 5));
            let ones = vec![Ghash128::ONE; a.len() / 2];
            assert_eq!(
                pairs_message(&a, &b, None),
                naive_pairs(&a, &b, &ones),
                "2^{n}"
            );
            let r: Vec<Ghash128> = (0..n as u64 - 1).map(|i| g(900 + i)).collect();
            // Both kinds of split: blocks of `lo` longer and shorter than a chunk.
            for eq in [
                SplitEq::new(&r),
                chunked_eq(&r),
                SplitEq::with_low_vars(&r, 0),
            ] {
                let want = naive_pairs(&a, &b, &eq_table(&r));
                assert_eq!(pairs_message(&a, &b, Some(&eq)), want, "2^{n} eq");
            }
        }
    }

    #[test]
    fn the_fused_fold_equals_a_fold_then_a_message() {
        for n in [1usize, 2, 3, 11, 13] {
            let (a, b) = (table(n, 3), table(n, 7));
            let r = g(99);
            let half = a.len() / 2;
            let (mut fa, mut fb) = (vec![Ghash128::ZERO; half], vec![Ghash128::ZERO; half]);
            let message = pairs_fold_with_message(&a, &b, r, &mut fa, &mut fb);
            let fold = |t: &[Ghash128]| MultilinearPoly::new(t.to_vec()).fold(r);
            assert_eq!(fa, fold(&a).evals());
            assert_eq!(fb, fold(&b).evals());
            let want = (half >= 2).then(|| pairs_message(&fa, &fb, None));
            assert_eq!(message, want, "2^{n}");
        }
    }

    #[test]
    fn the_halves_prover_is_accepted_and_its_point_is_in_the_original_order() {
        for n in [0usize, 1, 2, 5, 12, 14] {
            let (a, b) = (table(n, 3), table(n, 7));
            let r: Vec<Ghash128> = (0..n as u64).map(|i| g(1000 + i)).collect();
            let eq = eq_table(&r);
            let claim: Ghash128 = (0..1 << n).map(|x| eq[x] * a[x] * b[x]).sum();
            let ds = DomainSeparator::new("test", b"product");
            let mut pt = Sha256ProverTranscript::new(ds);
            let out = prove_halves(a.clone(), b.clone(), &r, claim, &mut pt);
            assert_eq!(
                out.final_evals[0],
                MultilinearPoly::new(a).evaluate(&out.point)
            );
            assert_eq!(
                out.final_evals[1],
                MultilinearPoly::new(b).evaluate(&out.point)
            );
            let proof = pt.into_proof();
            let rev: Vec<Ghash128> = r.iter().rev().copied().collect();
            let mut vt = Sha256VerifierTranscript::new(ds, &proof);
            let reduced = verify(n, 2, claim, Some(&rev), &mut vt).unwrap();
            let mut point = reduced.point;
            point.reverse();
            assert_eq!(point, out.point);
            assert_eq!(reduced.value, out.final_evals[0] * out.final_evals[1]);
            if n > 0 {
                let mut vt = Sha256VerifierTranscript::new(ds, &proof);
                let bad = verify(n, 2, claim + Ghash128::ONE, Some(&rev), &mut vt).unwrap();
                assert_ne!(bad.value, out.final_evals[0] * out.final_evals[1], "2^{n}");
            }
        }
    }

    #[test]
    fn the_engine_sends_the_kernels_messages_for_two_factors() {
        // The engine's degree-2 rounds after the first are this kernel's; its generic path
        // (every degree, and the first round, on tables in the base field) must agree.
        for n in [1usize, 4, 12] {
            let (a, b) = (table(n, 3), table(n, 11));
            let r: Vec<Ghash128> = (0..n as u64).map(|i| g(50 + i)).collect();
            let polys = vec![
                MultilinearPoly::new(a.clone()),
                MultilinearPoly::new(b.clone()),
            ];
            let prover = SumcheckProver::new(polys, Some(&r[..]), Ghash128::ZERO);
            let eq = SplitEq::new(&r[1..]);
            assert_eq!(
                prover.round_message(),
                pairs_message(&a, &b, Some(&eq)).to_vec()
            );
        }
    }
}
