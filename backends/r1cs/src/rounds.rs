//! The zerocheck's multilinear rounds, specialised to GF(2^128) slices.
//!
//! Statement: `c = Σ_{x ∈ {0,1}^n} eq(r, x)·a(x)·b(x)` for the folded rows `a = â(ζ, ·)`,
//! `b = b̂(ζ, ·)`. The rounds speak [`flockwork_core::sumcheck`]'s format (Gruen's
//! eq-factoring, messages `(G(1), G(∞))`, the same labels and statement), so the verifier is
//! the generic [`flockwork_core::verify`] — with one relabelling: this prover binds the **most
//! significant** variable first. Pairs are then `(x, x + half)`, two contiguous halves of each
//! table, and every step is a slice operation that runs on the SIMD GF(2^128) kernels
//! ([`flockwork_field_binary::ghash::batch`]):
//!
//! ```text
//! s_a = a_lo + a_hi,  s_b = b_lo + b_hi
//! G(1) = ⟨eq_low, a_hi ∘ b_hi⟩,  G(∞) = ⟨eq_low, s_a ∘ s_b⟩      (eq_low = eq(r_{<v}, ·))
//! a ← a_lo + ρ·s_a,  b ← b_lo + ρ·s_b
//! ```
//!
//! Round `t` binds variable `v = n − 1 − t`, so the generic verifier must be given the eq
//! point reversed, and its challenge point, reversed, is the point in the original variable
//! order. `eq_low` shrinks by summing its halves (`eq(r_{<v−1}, x) = eq(r_{<v}, x) +
//! eq(r_{<v}, x + 2^(v−1))`).

use flockwork_core::SplitEq;
use flockwork_core::sumcheck::{LABEL_CHALLENGE, LABEL_ROUND, absorb_statement};
use flockwork_field::{Field, par};
use flockwork_field_binary::Ghash128;
use flockwork_field_binary::ghash::batch::{add_mul_scalar, dot, mul_assign_scalar, mul_slices};
use flockwork_transcript::ProverTranscript;

use crate::rowmap::RowMap;

/// `log2` of the elements per chunk: the low eq table's size.
const LOG_CHUNK: usize = 10;

/// The sumcheck's output in the original variable order: the point and `(a(ρ), b(ρ))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundsOutput {
    /// `ρ`, coordinate `i` for variable `i`.
    pub point: Vec<Ghash128>,
    /// `a(ρ)`.
    pub a: Ghash128,
    /// `b(ρ)`.
    pub b: Ghash128,
}

/// One chunk of a round: returns `(⟨lo, a_hi∘b_hi⟩, ⟨lo, s_a∘s_b⟩)` and leaves
/// `s_a = a_lo + a_hi`, `s_b` in the `hi` halves.
fn chunk_message(
    a_lo: &[Ghash128],
    a_hi: &mut [Ghash128],
    b_lo: &[Ghash128],
    b_hi: &mut [Ghash128],
    lo: &[Ghash128],
) -> (Ghash128, Ghash128) {
    let n = a_lo.len();
    let mut prod = [Ghash128::ZERO; 1 << LOG_CHUNK];
    let prod = &mut prod[..n];
    let lo = &lo[..n];
    mul_slices(prod, a_hi, b_hi);
    let at_one = dot(lo, prod);
    for (h, &l) in a_hi.iter_mut().zip(a_lo) {
        *h += l;
    }
    for (h, &l) in b_hi.iter_mut().zip(b_lo) {
        *h += l;
    }
    mul_slices(prod, a_hi, b_hi);
    (at_one, dot(lo, prod))
}

/// Runs the rounds on the transcript from full tables; `eq_point` is in the original
/// (LSB-first) order. The reference the tests compare [`prove_from_rows`] with (the prover
/// never materialises the full tables).
///
/// The eq weights of a round are split (Dao–Thaler, eprint 2024/1210): `eq(r_{<v}, x) =
/// lo[x mod 2^L]·hi[x >> L]` with `L = min(v, 10)`, so a chunk's sums are inner products
/// with `lo`, scaled once by `hi`. Halves are updated in place: `s_a` overwrites `a_hi`, and
/// the bind adds `ρ·s_a` into `a_lo`.
///
/// # Panics
/// If the tables do not both have `2^n` entries for `n = eq_point.len()`.
#[cfg(test)]
pub fn prove<T: ProverTranscript>(
    a: Vec<Ghash128>,
    b: Vec<Ghash128>,
    eq_point: &[Ghash128],
    claim: Ghash128,
    transcript: &mut T,
) -> RoundsOutput {
    let n = eq_point.len();
    assert!(
        a.len() == 1 << n && b.len() == 1 << n,
        "tables must have 2^n entries"
    );
    absorb_statement(transcript, n, 2, true, claim);
    let (mut a, mut b) = (a, b);
    if n == 0 {
        return output(a, b, Vec::new());
    }
    let message = first_message(&mut a, &mut b, eq_point);
    finish(a, b, eq_point, Vec::with_capacity(n), message, transcript)
}

/// The same rounds for the tables `a = map(a_rows)`, `b = map(b_rows)` of an `F2`-linear
/// `map` (the zerocheck's fold at `ζ`), without materialising them: the first round reads
/// the bit rows, and only the tables bound at its challenge (half the size) are built.
///
/// `map` is linear, so `s_a = a_lo + a_hi = map(a_rows_lo ⊕ a_rows_hi)`. Round 1 maps the high
/// rows and the XORed rows chunk by chunk into stack buffers for its two sums and stores
/// `s_a`, `s_b` in the output tables; after the challenge `ρ` the output becomes
/// `map(a_rows_lo) + ρ·s_a`. Three row maps per pair instead of two, and no full-size table:
/// the largest buffers of the prover are halved (they were `2^n` GF(2^128) elements, 128
/// times the bit rows).
///
/// `tables` are the buffers of the half-size tables (`2^(n−1)` entries each, any contents):
/// the caller allocates them early, while large blocks it has just freed are still whole, so
/// they reuse those pages instead of faulting in fresh ones.
///
/// The row slices may stop short of `2^n` entries (the zero blocks past the last instance,
/// [`crate::padding`]): missing high rows are zero, and a chunk of the high half past them
/// contributes nothing at `1` (its products are zero) and only its low rows at `∞`.
///
/// # Panics
/// If the row slices do not both have between `2^(n−1)` and `2^n` entries for
/// `n = eq_point.len() ≥ 1`, or a table buffer does not have `2^(n−1)`.
pub fn prove_from_rows<T: ProverTranscript>(
    a_rows: &[u64],
    b_rows: &[u64],
    map: &RowMap,
    eq_point: &[Ghash128],
    claim: Ghash128,
    tables: (Vec<Ghash128>, Vec<Ghash128>),
    transcript: &mut T,
) -> RoundsOutput {
    let n = eq_point.len();
    let rows_fit = |rows: &[u64]| (1usize << n.saturating_sub(1)..=1 << n).contains(&rows.len());
    assert!(
        n >= 1 && rows_fit(a_rows) && rows_fit(b_rows),
        "row slices must have 2^(n−1) to 2^n entries, n ≥ 1"
    );
    let (mut a, mut b) = tables;
    assert!(
        a.len() == 1 << (n - 1) && b.len() == 1 << (n - 1),
        "table buffers must have 2^(n−1) entries"
    );
    absorb_statement(transcript, n, 2, true, claim);
    let v = n - 1;
    let (eq, chunk) = split_eq(&eq_point[..v]);
    let (lo, hi) = (eq.lo(), eq.hi());
    let half = 1usize << (n - 1);
    let (a_lo, a_hi) = a_rows.split_at(half);
    let (b_lo, b_hi) = b_rows.split_at(half);
    // Round 1: the two sums of a chunk; `s_a`, `s_b` go to the output tables.
    let work = |c: usize, sa: &mut [Ghash128], sb: &mut [Ghash128]| {
        let rows = c * chunk..(c + 1) * chunk;
        let mut xor = [0u64; 1 << LOG_CHUNK];
        let xor = &mut xor[..chunk];
        let mut prod = [Ghash128::ZERO; 1 << LOG_CHUNK];
        let prod = &mut prod[..chunk];
        // The high rows of this chunk, zero past the end of the given rows.
        let mut high = [[0u64; 1 << LOG_CHUNK]; 2];
        let [ah_rows, bh_rows] = &mut high;
        let (ah_rows, bh_rows) = (&mut ah_rows[..chunk], &mut bh_rows[..chunk]);
        let live = a_hi
            .len()
            .min(b_hi.len())
            .saturating_sub(rows.start)
            .min(chunk);
        let at_one = if live == 0 {
            Ghash128::ZERO
        } else {
            ah_rows[..live].copy_from_slice(&a_hi[rows.start..][..live]);
            bh_rows[..live].copy_from_slice(&b_hi[rows.start..][..live]);
            let mut ah = [Ghash128::ZERO; 1 << LOG_CHUNK];
            let mut bh = [Ghash128::ZERO; 1 << LOG_CHUNK];
            let (ah, bh) = (&mut ah[..chunk], &mut bh[..chunk]);
            map.apply_slice(ah_rows, ah);
            map.apply_slice(bh_rows, bh);
            mul_slices(prod, ah, bh);
            dot(lo, prod)
        };
        for (x, (&l, &h)) in xor.iter_mut().zip(a_lo[rows.clone()].iter().zip(&*ah_rows)) {
            *x = l ^ h;
        }
        map.apply_slice(xor, sa);
        for (x, (&l, &h)) in xor.iter_mut().zip(b_lo[rows].iter().zip(&*bh_rows)) {
            *x = l ^ h;
        }
        map.apply_slice(xor, sb);
        mul_slices(prod, sa, sb);
        (hi[c] * at_one, hi[c] * dot(lo, prod))
    };
    let message = par::zip_chunks_reduce(
        &mut a,
        &mut b,
        chunk,
        0,
        || (Ghash128::ZERO, Ghash128::ZERO),
        work,
        add_pair,
    );
    transcript.send_field(LABEL_ROUND, &[message.0, message.1]);
    let rho = transcript.challenge::<Ghash128>(LABEL_CHALLENGE);
    let rev_point = vec![rho];
    // Bind: x ← map(x_rows_lo) + ρ·s_x, in the same pass as round 2's message.
    let bind = |out: &mut [Ghash128], rows: &[u64]| {
        let mut low = [Ghash128::ZERO; 1 << LOG_CHUNK];
        let low = &mut low[..out.len()];
        map.apply_slice(rows, low);
        mul_assign_scalar(out, rho);
        for (o, &l) in out.iter_mut().zip(low.iter()) {
            *o += l;
        }
    };
    if v == 0 {
        bind(&mut a, a_lo);
        bind(&mut b, b_lo);
        return output(a, b, rev_point);
    }
    let message = bind_then_message(&mut a, &mut b, a_lo, b_lo, &eq_point[..v - 1], bind);
    finish(a, b, &eq_point[..v], rev_point, message, transcript)
}

/// The split eq weights of a round over the free variables `point`: `eq(point, x) =
/// lo[x mod chunk]·hi[x / chunk]` with `chunk = 2^min(len, LOG_CHUNK)` (a chunk's `lo` stays
/// in L1 while the round walks it).
fn split_eq(point: &[Ghash128]) -> (SplitEq<Ghash128>, usize) {
    let eq = SplitEq::with_low_vars(point, point.len().min(LOG_CHUNK));
    let chunk = 1 << eq.lo_vars();
    (eq, chunk)
}

/// The first round's message `(G(1), G(∞))` on tables `a`, `b` of `2^n` entries
/// (`n = eq_point.len() ≥ 1`); leaves `s_a`, `s_b` in their upper halves (for [`prove`]).
#[cfg(test)]
fn first_message(
    a: &mut [Ghash128],
    b: &mut [Ghash128],
    eq_point: &[Ghash128],
) -> (Ghash128, Ghash128) {
    let v = eq_point.len() - 1;
    let (eq, chunk) = split_eq(&eq_point[..v]);
    let (lo, hi) = (eq.lo(), eq.hi());
    let half = a.len() / 2;
    let (a_lo, a_hi) = a.split_at_mut(half);
    let (b_lo, b_hi) = b.split_at_mut(half);
    par::zip4_chunks_reduce(
        [a_lo, a_hi, b_lo, b_hi],
        [chunk; 4],
        0,
        || (Ghash128::ZERO, Ghash128::ZERO),
        |c, [alo, ahi, blo, bhi]| {
            let (g1, ginf) = chunk_message(alo, ahi, blo, bhi, lo);
            (hi[c] * g1, hi[c] * ginf)
        },
        add_pair,
    )
}

fn add_pair(x: (Ghash128, Ghash128), y: (Ghash128, Ghash128)) -> (Ghash128, Ghash128) {
    (x.0 + y.0, x.1 + y.1)
}

/// Binds the current round and computes the next round's message in one pass over the
/// tables (half the memory traffic of a bind pass followed by a message pass).
///
/// `a`, `b` (`2Q` entries each) receive the bound tables: `bind(out, src)` turns a chunk of
/// `a` into its bound values given the matching chunk of `a_src` (for the GF(2^128) rounds
/// `out += ρ·src`, `src` the slopes; for round 1 `out ← map(src) + ρ·out`, `src` the low bit
/// rows). Chunk `c` of the lower half `a[..Q]` and chunk `c` of the upper half `a[Q..]` are
/// bound together, so the next round's pairs `(x, x + Q)` are in hand: their contribution to
/// `(G(1), G(∞))` is summed ([`chunk_message`], eq weights over `next_point`, `Q = 2^len`)
/// and the upper half keeps the slopes, as [`first_message`] leaves it.
fn bind_then_message<S: Sync>(
    a: &mut [Ghash128],
    b: &mut [Ghash128],
    a_src: &[S],
    b_src: &[S],
    next_point: &[Ghash128],
    bind: impl Fn(&mut [Ghash128], &[S]) + Sync,
) -> (Ghash128, Ghash128) {
    let q = a.len() / 2;
    assert!(
        q == 1 << next_point.len()
            && b.len() == 2 * q
            && a_src.len() == 2 * q
            && b_src.len() == 2 * q,
        "tables of 2^(len + 1) entries"
    );
    let (eq, chunk) = split_eq(next_point);
    let (lo, hi) = (eq.lo(), eq.hi());
    let (a_lo, a_hi) = a.split_at_mut(q);
    let (b_lo, b_hi) = b.split_at_mut(q);
    let (as_lo, as_hi) = a_src.split_at(q);
    let (bs_lo, bs_hi) = b_src.split_at(q);
    let work = |c: usize, [alo, ahi, blo, bhi]: [&mut [Ghash128]; 4]| {
        let rows = c * chunk..(c + 1) * chunk;
        bind(alo, &as_lo[rows.clone()]);
        bind(ahi, &as_hi[rows.clone()]);
        bind(blo, &bs_lo[rows.clone()]);
        bind(bhi, &bs_hi[rows]);
        let (g1, ginf) = chunk_message(alo, ahi, blo, bhi, lo);
        (hi[c] * g1, hi[c] * ginf)
    };
    par::zip4_chunks_reduce(
        [a_lo, a_hi, b_lo, b_hi],
        [chunk; 4],
        0,
        || (Ghash128::ZERO, Ghash128::ZERO),
        work,
        add_pair,
    )
}

/// The remaining rounds on tables of `2^(eq_point.len())` entries holding `(x_lo, s_x)`,
/// whose round message is `message` (not sent yet), after the challenges already in
/// `rev_point` (most significant variable first); `eq_point` lists the variables still free.
fn finish<T: ProverTranscript>(
    mut a: Vec<Ghash128>,
    mut b: Vec<Ghash128>,
    eq_point: &[Ghash128],
    mut rev_point: Vec<Ghash128>,
    mut message: (Ghash128, Ghash128),
    transcript: &mut T,
) -> RoundsOutput {
    for v in (0..eq_point.len()).rev() {
        transcript.send_field(LABEL_ROUND, &[message.0, message.1]);
        let rho = transcript.challenge::<Ghash128>(LABEL_CHALLENGE);
        rev_point.push(rho);
        let half = a.len() / 2;
        let (a_lo, a_hi) = a.split_at_mut(half);
        let (b_lo, b_hi) = b.split_at_mut(half);
        if v == 0 {
            add_mul_scalar(a_lo, a_hi, rho);
            add_mul_scalar(b_lo, b_hi, rho);
        } else {
            // Bind: x ← x_lo + ρ·s_x, with the next round's message.
            let bind = |out: &mut [Ghash128], s: &[Ghash128]| add_mul_scalar(out, s, rho);
            message = bind_then_message(a_lo, b_lo, a_hi, b_hi, &eq_point[..v - 1], bind);
        }
        a.truncate(half);
        b.truncate(half);
    }
    output(a, b, rev_point)
}

/// The output from the fully bound tables and the challenges, most significant first.
fn output(a: Vec<Ghash128>, b: Vec<Ghash128>, mut rev_point: Vec<Ghash128>) -> RoundsOutput {
    rev_point.reverse();
    RoundsOutput {
        point: rev_point,
        a: a[0],
        b: b[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_core::{MultilinearPoly, eq_table};
    use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript, Sha256VerifierTranscript};

    fn g(i: u64) -> Ghash128 {
        Ghash128::new(
            u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) ^ 0x1234,
        )
    }

    #[test]
    fn the_generic_verifier_accepts_and_the_point_is_in_original_order() {
        for n in [1usize, 2, 5, 14] {
            let a: Vec<Ghash128> = (0..1u64 << n).map(|i| g(3 * i + 1)).collect();
            let b: Vec<Ghash128> = (0..1u64 << n).map(|i| g(7 * i + 2)).collect();
            let r: Vec<Ghash128> = (0..n as u64).map(|i| g(1000 + i)).collect();
            let eq = eq_table(&r);
            let claim: Ghash128 = (0..1 << n).map(|x| eq[x] * a[x] * b[x]).sum();
            let ds = DomainSeparator::new("test", b"rounds");
            let mut pt = Sha256ProverTranscript::new(ds);
            let out = prove(a.clone(), b.clone(), &r, claim, &mut pt);
            assert_eq!(out.a, MultilinearPoly::new(a).evaluate(&out.point));
            assert_eq!(out.b, MultilinearPoly::new(b).evaluate(&out.point));
            let proof = pt.into_proof();
            let mut vt = Sha256VerifierTranscript::new(ds, &proof);
            let rev: Vec<Ghash128> = r.iter().rev().copied().collect();
            let reduced = flockwork_core::verify(n, 2, claim, Some(&rev), &mut vt).unwrap();
            let mut point = reduced.point;
            point.reverse();
            assert_eq!(point, out.point);
            assert_eq!(reduced.value, out.a * out.b);
            // A wrong claim is caught.
            let mut vt = Sha256VerifierTranscript::new(ds, &proof);
            let bad = flockwork_core::verify(n, 2, claim + Ghash128::ONE, Some(&rev), &mut vt);
            assert!(bad.is_err() || bad.unwrap().value != out.a * out.b);
        }
    }
    #[test]
    fn rounds_from_rows_equal_rounds_on_the_mapped_tables() {
        let images: [Ghash128; 64] = core::array::from_fn(|s| g(500 + s as u64));
        let map = RowMap::new(&images);
        for n in [1usize, 2, 5, 11, 13] {
            let rows = |seed: u64| -> Vec<u64> {
                (0..1u64 << n)
                    .map(|i| {
                        (i ^ seed)
                            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                            .rotate_left(17)
                    })
                    .collect()
            };
            let half = 1usize << (n - 1);
            // All rows, then rows that stop early (zero past the end, as the zero blocks past
            // the last instance are): the full half, a few more, all but one.
            for live in [1 << n, half, (half + 3).min(1 << n), (1 << n) - 1] {
                let (mut ra, mut rb) = (rows(3), rows(11));
                ra[live..].iter_mut().for_each(|x| *x = 0);
                rb[live..].iter_mut().for_each(|x| *x = 0);
                let table =
                    |r: &[u64]| -> Vec<Ghash128> { r.iter().map(|&x| map.apply(x)).collect() };
                let (a, b) = (table(&ra), table(&rb));
                let r: Vec<Ghash128> = (0..n as u64).map(|i| g(1000 + i)).collect();
                let eq = eq_table(&r);
                let claim: Ghash128 = (0..1 << n).map(|x| eq[x] * a[x] * b[x]).sum();
                let ds = DomainSeparator::new("test", b"rounds");
                let mut expected = Sha256ProverTranscript::new(ds);
                let want = prove(a, b, &r, claim, &mut expected);
                let mut got = Sha256ProverTranscript::new(ds);
                let tables = (vec![Ghash128::ZERO; half], vec![Ghash128::ZERO; half]);
                let (ra, rb) = (&ra[..live], &rb[..live]);
                let out = prove_from_rows(ra, rb, &map, &r, claim, tables, &mut got);
                assert_eq!(out, want, "n = {n}, live = {live}");
                assert_eq!(got.into_proof(), expected.into_proof(), "n = {n}");
            }
        }
    }
}
