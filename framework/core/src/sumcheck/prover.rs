//! The sumcheck prover: a round engine ([`SumcheckProver`]) and the driver [`prove`].

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::{ExtensionField, Field};
use flockwork_transcript::ProverTranscript;

use super::{
    LABEL_CHALLENGE, LABEL_FINAL_EVALS, LABEL_ROUND, absorb_statement, decode_round_message,
    product,
};
use crate::eq::SplitEq;
use crate::multilinear::MultilinearPoly;
use flockwork_field::par::{self, MIN_PARALLEL_ITEMS};

/// What the prover holds after the last round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumcheckOutput<E> {
    /// The challenges `ρ_0, …, ρ_{n−1}` (the point of the reduced claim).
    pub point: Vec<E>,
    /// `P_j(ρ)` for every factor, in input order; their product is the final claim.
    pub final_evals: Vec<E>,
}

impl<E: Field> SumcheckOutput<E> {
    /// Sends the final evaluations (for protocols where the verifier reads them from the proof
    /// and checks them later, e.g. against a commitment); the verifier reads them with
    /// [`SumcheckClaim::recv_final_evals`](super::SumcheckClaim::recv_final_evals).
    pub fn send_final_evals<T: ProverTranscript>(&self, transcript: &mut T) {
        transcript.send_field(LABEL_FINAL_EVALS, &self.final_evals);
    }
}

/// Runs the whole sumcheck for `claim = Σ_x [eq(eq_point, x)·] Π_j polys[j](x)` on the
/// transcript: absorbs the statement, then per round sends the message and squeezes the
/// challenge. The degree is `polys.len()`. Final evaluations are returned, not sent.
///
/// Polynomials have coefficients in `F`; the eq point, claim and challenges live in
/// `E ⊇ F` (`E = F` is the common case).
///
/// # Panics
/// As [`SumcheckProver::new`].
pub fn prove<F, E, T>(
    polys: Vec<MultilinearPoly<F>>,
    eq_point: Option<&[E]>,
    claim: E,
    transcript: &mut T,
) -> SumcheckOutput<E>
where
    F: Field,
    E: ExtensionField<F>,
    T: ProverTranscript,
{
    let mut prover = SumcheckProver::new(polys, eq_point, claim);
    absorb_statement(
        transcript,
        prover.num_vars(),
        prover.degree(),
        eq_point.is_some(),
        claim,
    );
    for _ in 0..prover.num_vars() {
        let message = prover.round_message();
        transcript.send_field(LABEL_ROUND, &message);
        let challenge = transcript.challenge::<E>(LABEL_CHALLENGE);
        prover.bind(&message, challenge);
    }
    prover.into_output()
}

/// The tables of the factors: in the base field until the first bind, in `E` afterwards.
#[derive(Clone, Debug)]
enum Tables<F, E> {
    Base(Vec<MultilinearPoly<F>>),
    Ext(Vec<MultilinearPoly<E>>),
}

/// The round engine of the sumcheck prover, for callers that interleave several protocols
/// or want to inspect rounds. [`prove`] drives it on a transcript.
///
/// Per round: [`SumcheckProver::round_message`], send it, obtain a challenge, then
/// [`SumcheckProver::bind`].
#[derive(Clone, Debug)]
pub struct SumcheckProver<F, E> {
    tables: Tables<F, E>,
    eq_point: Option<Vec<E>>,
    /// `eq(r_{>i}, ·)` for the current round `i`.
    eq_rest: Option<SplitEq<E>>,
    degree: usize,
    num_vars: usize,
    claim: E,
    point: Vec<E>,
}

impl<F: Field, E: ExtensionField<F>> SumcheckProver<F, E> {
    /// A prover for `claim = Σ_x [eq(eq_point, x)·] Π_j polys[j](x)`.
    ///
    /// # Panics
    /// If `polys` is empty, the polynomials have different numbers of variables, the eq point
    /// has the wrong length, or a coordinate `r_i` of the eq point has `1 − r_i = 0` (the
    /// verifier would reject that instance with
    /// [`VerifyError::DegenerateEqPoint`](crate::VerifyError::DegenerateEqPoint)).
    #[must_use]
    pub fn new(polys: Vec<MultilinearPoly<F>>, eq_point: Option<&[E]>, claim: E) -> Self {
        let num_vars = polys
            .first()
            .expect("sumcheck needs at least one polynomial")
            .num_vars();
        assert!(
            polys.iter().all(|p| p.num_vars() == num_vars),
            "all sumcheck polynomials need the same number of variables"
        );
        if let Some(r) = eq_point {
            assert_eq!(
                r.len(),
                num_vars,
                "eq point has the wrong number of coordinates"
            );
            assert!(
                r.iter().all(|&ri| !(E::ONE - ri).is_zero()),
                "eq point has a coordinate equal to 1"
            );
        }
        Self {
            degree: polys.len(),
            tables: Tables::Base(polys),
            eq_point: eq_point.map(<[E]>::to_vec),
            eq_rest: eq_point.map(|r| SplitEq::new(r.get(1..).unwrap_or(&[]))),
            num_vars,
            claim,
            point: Vec::new(),
        }
    }

    /// The number of variables (rounds).
    #[must_use]
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The degree `d` (number of factors).
    #[must_use]
    pub fn degree(&self) -> usize {
        self.degree
    }

    /// The current round (number of variables bound so far).
    #[must_use]
    pub fn round(&self) -> usize {
        self.point.len()
    }

    /// The running claim `c_i` (without the eq prefix; see the [module docs](super)).
    #[must_use]
    pub fn claim(&self) -> E {
        self.claim
    }

    /// The message of the current round: `d` evaluations of the inner polynomial `G_i`
    /// (layout in the [module docs](super)).
    ///
    /// # Panics
    /// If all rounds are done.
    #[must_use]
    pub fn round_message(&self) -> Vec<E> {
        assert!(self.round() < self.num_vars, "all sumcheck rounds are done");
        let eq = self.eq_rest.as_ref();
        match &self.tables {
            Tables::Base(tables) => round_evals(tables, eq, self.degree),
            // Two factors in `E`: the slice kernel of every two-table sumcheck.
            Tables::Ext(tables) if self.degree == 2 => {
                product::pairs_message(tables[0].evals(), tables[1].evals(), eq).to_vec()
            }
            Tables::Ext(tables) => round_evals(tables, eq, self.degree),
        }
    }

    /// Binds the current variable to `challenge`, given this round's `message`: updates the
    /// claim to `G_i(challenge)`, folds every table and drops the variable from the eq factor.
    ///
    /// # Panics
    /// If all rounds are done or `message` does not have `d` values.
    pub fn bind(&mut self, message: &[E], challenge: E) {
        let round = self.round();
        assert!(round < self.num_vars, "all sumcheck rounds are done");
        let eq_coord = self.eq_point.as_ref().map(|r| r[round]);
        self.claim = decode_round_message(round, self.claim, eq_coord, self.degree, message)
            .expect("round message of the wrong length (eq point checked in new)")
            .evaluate(challenge);
        self.tables = match core::mem::replace(&mut self.tables, Tables::Ext(Vec::new())) {
            Tables::Base(tables) => Tables::Ext(tables.iter().map(|p| p.fold(challenge)).collect()),
            Tables::Ext(mut tables) => {
                tables.iter_mut().for_each(|p| p.fold_in_place(challenge));
                Tables::Ext(tables)
            }
        };
        if let Some(eq) = self.eq_rest.as_mut().filter(|eq| eq.num_vars() > 0) {
            eq.sum_out_first_var();
        }
        self.point.push(challenge);
    }

    /// `P_j(ρ)` for every factor, once all rounds are done.
    ///
    /// # Panics
    /// If rounds remain.
    #[must_use]
    pub fn final_evals(&self) -> Vec<E> {
        assert_eq!(self.round(), self.num_vars, "sumcheck rounds remain");
        match &self.tables {
            Tables::Base(tables) => tables.iter().map(|p| E::from(p.evals()[0])).collect(),
            Tables::Ext(tables) => tables.iter().map(|p| p.evals()[0]).collect(),
        }
    }

    /// The challenges and final evaluations, once all rounds are done.
    ///
    /// # Panics
    /// If rounds remain.
    #[must_use]
    pub fn into_output(self) -> SumcheckOutput<E> {
        SumcheckOutput {
            final_evals: self.final_evals(),
            point: self.point,
        }
    }
}

/// The evaluation points of a round message: `x_1 = 1`, the nodes `x_2, …, x_{d−1}` of `E`,
/// and `∞` last when `d ≥ 2`.
///
/// The nodes are `E::from_index(k)`, which need not be the images of `P::from_index(k)` (an
/// embedding `GF(2^8) → GF(2^128)` moves the bit pattern 2), so the line values at the middle
/// nodes are computed in `E`; the values at 1 and ∞ stay in the coefficient field `P`.
struct MessagePoints<E> {
    middle: Vec<E>,
}

impl<E: Field> MessagePoints<E> {
    fn new(degree: usize) -> Self {
        Self {
            middle: (2..degree.max(2) as u64).map(E::from_index).collect(),
        }
    }

    /// `out[t] = Π_j P_j(point_t, x')`, where `P_j(X, x')` is the line through the table
    /// entries `2x'` and `2x' + 1`; `out.len() = d`.
    fn products<P: Field>(&self, tables: &[MultilinearPoly<P>], x: usize, out: &mut [E])
    where
        E: ExtensionField<P>,
    {
        let (first, rest) = out.split_first_mut().expect("degree is at least 1");
        let middle = &mut rest[..self.middle.len()];
        middle.fill(E::ONE);
        let mut at_one = P::ONE;
        let mut at_infinity = P::ONE;
        for table in tables {
            let lo = table.evals()[2 * x];
            let hi = table.evals()[2 * x + 1];
            let slope = hi - lo;
            at_one *= hi;
            at_infinity *= slope;
            for (o, &node) in middle.iter_mut().zip(&self.middle) {
                *o *= node * slope + lo;
            }
        }
        *first = E::from(at_one);
        // `∞` follows the middle nodes iff d ≥ 2.
        if let Some(last) = rest.get_mut(self.middle.len()) {
            *last = E::from(at_infinity);
        }
    }
}

/// The round message `[G(x_1), …, G(∞)]` for tables over `P` and eq weights over `E`.
fn round_evals<P: Field, E: ExtensionField<P>>(
    tables: &[MultilinearPoly<P>],
    eq: Option<&SplitEq<E>>,
    degree: usize,
) -> Vec<E> {
    let points = MessagePoints::<E>::new(degree);
    let half = tables[0].evals().len() / 2;
    let cost = degree * tables.len();
    let zeros = || vec![E::ZERO; degree];
    match eq {
        None => {
            let (sums, _) = par::fold_reduce(
                half,
                cost,
                MIN_PARALLEL_ITEMS,
                || (zeros(), zeros()),
                |(mut acc, mut products), x| {
                    points.products(tables, x, &mut products);
                    add_assign(&mut acc, &products);
                    (acc, products)
                },
                |(mut a, scratch), (b, _)| {
                    add_assign(&mut a, &b);
                    (a, scratch)
                },
            );
            sums
        }
        Some(eq) => {
            let (lo, hi) = (eq.lo(), eq.hi());
            assert_eq!(lo.len() * hi.len(), half, "eq factor and tables disagree");
            let (sums, _, _) = par::fold_reduce(
                hi.len(),
                cost * lo.len(),
                MIN_PARALLEL_ITEMS,
                || (zeros(), zeros(), zeros()),
                |(mut acc, mut inner, mut products), h| {
                    inner.fill(E::ZERO);
                    for (l, &weight) in lo.iter().enumerate() {
                        points.products(tables, h * lo.len() + l, &mut products);
                        for (i, &p) in inner.iter_mut().zip(&products) {
                            *i += weight * p;
                        }
                    }
                    let outer = hi[h];
                    for (a, &i) in acc.iter_mut().zip(&inner) {
                        *a += outer * i;
                    }
                    (acc, inner, products)
                },
                |(mut a, inner, products), (b, _, _)| {
                    add_assign(&mut a, &b);
                    (a, inner, products)
                },
            );
            sums
        }
    }
}

/// `a[t] += b[t]`.
fn add_assign<F: Field>(a: &mut [F], b: &[F]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x += y;
    }
}
