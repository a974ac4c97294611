//! The zerocheck's multilinear rounds, on GF(2^128) slices.
//!
//! Statement: `c = Σ_{x ∈ {0,1}^n} eq(r, x)·a(x)·b(x)` for the folded rows `a = â(ζ, ·)`,
//! `b = b̂(ζ, ·)`. The rounds speak [`flockwork_core::sumcheck`]'s format (Gruen's
//! eq-factoring, messages `(G(1), G(∞))`, the same labels and statement), so the verifier is
//! the generic [`flockwork_core::verify`] — with one relabelling: this prover binds the **most
//! significant** variable first, the Halves layout of the core's two-table kernel
//! ([`product`]). Pairs are then `(x, x + half)`, two contiguous halves of each table, and
//! every step is a slice operation on the SIMD GF(2^128) kernels:
//!
//! ```text
//! s_a = a_lo + a_hi,  s_b = b_lo + b_hi
//! G(1) = ⟨eq_low, a_hi ∘ b_hi⟩,  G(∞) = ⟨eq_low, s_a ∘ s_b⟩      (eq_low = eq(r_{<v}, ·))
//! a ← a_lo + ρ·s_a,  b ← b_lo + ρ·s_b
//! ```
//!
//! Round `t` binds variable `v = n − 1 − t`, so the generic verifier must be given the eq
//! point reversed, and its challenge point, reversed, is the point in the original variable
//! order. This module adds the first round, which reads the bit rows instead of the tables
//! ([`prove_from_rows`]); the kernel runs the rest ([`product::halves_bind_then_message`],
//! [`product::halves_rounds`]).

use flockwork_core::sumcheck::product::{self, chunked_eq};
use flockwork_core::sumcheck::{LABEL_CHALLENGE, LABEL_ROUND, SumcheckOutput, absorb_statement};
use flockwork_field::Field;
use flockwork_field::par::{self, SUMCHECK_CHUNK};
use flockwork_field_binary::Ghash128;
use flockwork_transcript::ProverTranscript;

use crate::rowmap::RowMap;

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

/// The rounds of [`product::prove_halves`] for the tables `a = map(a_rows)`,
/// `b = map(b_rows)` of an `F2`-linear `map` (the zerocheck's fold at `ζ`), without
/// materialising them: the first round reads the bit rows, and only the tables bound at its
/// challenge (half the size) are built.
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
    let eq = chunked_eq(&eq_point[..v]);
    let (lo, hi) = (eq.lo(), eq.hi());
    let chunk = lo.len();
    let half = 1usize << (n - 1);
    let (a_lo, a_hi) = a_rows.split_at(half);
    let (b_lo, b_hi) = b_rows.split_at(half);
    // Round 1: the two sums of a chunk; `s_a`, `s_b` go to the output tables.
    let work = |c: usize, sa: &mut [Ghash128], sb: &mut [Ghash128]| {
        let rows = c * chunk..(c + 1) * chunk;
        let mut xor = [0u64; SUMCHECK_CHUNK];
        let xor = &mut xor[..chunk];
        let mut prod = [Ghash128::ZERO; SUMCHECK_CHUNK];
        let prod = &mut prod[..chunk];
        // The high rows of this chunk, zero past the end of the given rows.
        let mut high = [[0u64; SUMCHECK_CHUNK]; 2];
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
            let mut ah = [Ghash128::ZERO; SUMCHECK_CHUNK];
            let mut bh = [Ghash128::ZERO; SUMCHECK_CHUNK];
            let (ah, bh) = (&mut ah[..chunk], &mut bh[..chunk]);
            map.apply_slice(ah_rows, ah);
            map.apply_slice(bh_rows, bh);
            Ghash128::mul_slices(prod, ah, bh);
            Ghash128::inner_product(lo, prod)
        };
        for (x, (&l, &h)) in xor.iter_mut().zip(a_lo[rows.clone()].iter().zip(&*ah_rows)) {
            *x = l ^ h;
        }
        map.apply_slice(xor, sa);
        for (x, (&l, &h)) in xor.iter_mut().zip(b_lo[rows].iter().zip(&*bh_rows)) {
            *x = l ^ h;
        }
        map.apply_slice(xor, sb);
        Ghash128::mul_slices(prod, sa, sb);
        [hi[c] * at_one, hi[c] * Ghash128::inner_product(lo, prod)]
    };
    let message = par::zip_chunks_reduce(
        &mut a,
        &mut b,
        chunk,
        0,
        || [Ghash128::ZERO; 2],
        work,
        |x, y| [x[0] + y[0], x[1] + y[1]],
    );
    transcript.send_field(LABEL_ROUND, &message);
    let rho = transcript.challenge::<Ghash128>(LABEL_CHALLENGE);
    let rev_point = vec![rho];
    // Bind: x ← map(x_rows_lo) + ρ·s_x, in the same pass as round 2's message.
    let bind = |out: &mut [Ghash128], rows: &[u64]| {
        let mut low = [Ghash128::ZERO; SUMCHECK_CHUNK];
        let low = &mut low[..out.len()];
        map.apply_slice(rows, low);
        Ghash128::scale_slice(out, rho);
        for (o, &l) in out.iter_mut().zip(low.iter()) {
            *o += l;
        }
    };
    if v == 0 {
        bind(&mut a, a_lo);
        bind(&mut b, b_lo);
        return product::halves_rounds(a, b, &[], rev_point, [Ghash128::ZERO; 2], transcript)
            .into();
    }
    let message =
        product::halves_bind_then_message(&mut a, &mut b, a_lo, b_lo, &eq_point[..v - 1], bind);
    product::halves_rounds(a, b, &eq_point[..v], rev_point, message, transcript).into()
}

impl From<SumcheckOutput<Ghash128>> for RoundsOutput {
    fn from(out: SumcheckOutput<Ghash128>) -> Self {
        Self {
            point: out.point,
            a: out.final_evals[0],
            b: out.final_evals[1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_core::eq_table;
    use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript};

    fn g(i: u64) -> Ghash128 {
        Ghash128::new(
            u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) ^ 0x1234,
        )
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
                let want: RoundsOutput =
                    product::prove_halves(a, b, &r, claim, &mut expected).into();
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
