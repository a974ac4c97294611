//! Conformance suite for the sumcheck engine of `flockwork-core` over a field `F` with
//! challenges in an extension `E ⊇ F`.
//!
//! For degrees 1–4, with and without the eq factor, and several sizes it checks: honest
//! proofs verify and reduce to the true evaluations; every changed round message, flipped
//! proof byte, false claim and changed final claim is rejected; every truncation and any
//! trailing byte is an error (never a panic); malformed statements and degenerate eq points
//! are errors.

use flockwork_core::{
    MultilinearPoly, SumcheckClaim, SumcheckOutput, SumcheckProver, VerifyError, eq_eval, prove,
    verify,
};
use flockwork_field::{ExtensionField, Field};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    TranscriptError, VerifierTranscript,
};
use itertools::iproduct;
use rand::RngCore;

use crate::{random, random_vec, rng};

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/testkit/sumcheck", b"");

/// [`check_sumcheck_ext`] with challenges in `F` itself.
///
/// # Panics
/// On the first violated property.
pub fn check_sumcheck<F: Field>() {
    check_sumcheck_ext::<F, F>();
}

/// The whole suite for polynomials over `F` and eq points, claims and challenges over `E`.
///
/// # Panics
/// On the first violated property, naming the case.
pub fn check_sumcheck_ext<F: Field, E: ExtensionField<F>>() {
    let mut rng = rng("sumcheck suite");
    for (degree, with_eq, num_vars) in iproduct!(1..=4, [false, true], [0, 1, 2, 5]) {
        let case = Case::<F, E>::random(&mut rng, num_vars, degree, with_eq);
        case.check_honest();
        case.check_rejections();
    }
    let large = Case::<F, E>::random(&mut rng, 13, 3, true);
    large.check_honest();
    check_malformed_statements::<E>();
    check_degenerate_eq_point::<E>(&mut rng);
}

/// One sumcheck instance with its honest proof (rounds, then the final evaluations).
struct Case<F, E> {
    polys: Vec<MultilinearPoly<F>>,
    eq_point: Option<Vec<E>>,
    claim: E,
    output: SumcheckOutput<E>,
    proof: Vec<u8>,
}

impl<F: Field, E: ExtensionField<F>> Case<F, E> {
    fn random(rng: &mut impl RngCore, num_vars: usize, degree: usize, with_eq: bool) -> Self {
        let polys: Vec<_> = (0..degree)
            .map(|_| MultilinearPoly::new(random_vec::<F>(rng, 1 << num_vars)))
            .collect();
        let eq_point = with_eq.then(|| random_vec::<E>(rng, num_vars));
        let claim = naive_sum(&polys, eq_point.as_deref());
        let (output, proof) = honest_proof(&polys, eq_point.as_deref(), claim);
        Self {
            polys,
            eq_point,
            claim,
            output,
            proof,
        }
    }

    fn name(&self) -> String {
        format!(
            "n = {}, d = {}, eq = {}",
            self.num_vars(),
            self.polys.len(),
            self.eq_point.is_some()
        )
    }

    fn num_vars(&self) -> usize {
        self.polys[0].num_vars()
    }

    /// The full verifier: sumcheck rounds, final evaluations from the proof, an oracle check
    /// of each evaluation (standing in for a commitment opening), end of proof.
    fn verify(&self, proof: &[u8], claim: E) -> Result<SumcheckClaim<E>, VerifyError> {
        let mut t = Sha256VerifierTranscript::new(DOMAIN, proof);
        let degree = self.polys.len();
        let reduced = verify(
            self.num_vars(),
            degree,
            claim,
            self.eq_point.as_deref(),
            &mut t,
        )?;
        let evals = reduced.recv_final_evals(&mut t)?;
        for (poly, eval) in self.polys.iter().zip(&evals) {
            if poly.evaluate(&reduced.point) != *eval {
                return Err(VerifyError::FinalClaimMismatch);
            }
        }
        t.finish()?;
        Ok(reduced)
    }

    fn check_honest(&self) {
        let name = self.name();
        let reduced = self
            .verify(&self.proof, self.claim)
            .unwrap_or_else(|e| panic!("{name}: honest proof rejected: {e}"));
        assert_eq!(reduced.point, self.output.point, "{name}: points differ");
        for (poly, eval) in self.polys.iter().zip(&self.output.final_evals) {
            assert_eq!(
                poly.evaluate(&reduced.point),
                *eval,
                "{name}: wrong final evaluation"
            );
        }
        assert_eq!(
            reduced.check_evals(&self.output.final_evals),
            Ok(()),
            "{name}: final claim"
        );
        let expected_len = (self.num_vars() + 1) * self.polys.len() * E::NUM_BYTES;
        assert_eq!(self.proof.len(), expected_len, "{name}: proof length");
    }

    fn check_rejections(&self) {
        let name = self.name();
        let degree = self.polys.len();
        // A changed value of any round message (element + 1, re-encoded).
        for index in 0..self.num_vars() * degree {
            let proof = add_one_to_element::<E>(&self.proof, index);
            assert!(
                self.verify(&proof, self.claim).is_err(),
                "{name}: changed message value {index} accepted"
            );
        }
        // Any flipped bit, in messages or final evaluations.
        for byte in 0..self.proof.len() {
            let mut proof = self.proof.clone();
            proof[byte] ^= 1;
            assert!(
                self.verify(&proof, self.claim).is_err(),
                "{name}: flipped byte {byte} accepted"
            );
        }
        // A false claim, with the honest proof and with a proof made for the false claim.
        let false_claim = self.claim + E::ONE;
        assert!(
            self.verify(&self.proof, false_claim).is_err(),
            "{name}: false claim accepted"
        );
        let (_, lying) = honest_proof(&self.polys, self.eq_point.as_deref(), false_claim);
        assert!(
            self.verify(&lying, false_claim).is_err(),
            "{name}: lying prover accepted"
        );
        // A changed final claim or changed final evaluations.
        let reduced = self.verify(&self.proof, self.claim).expect("honest proof");
        let changed = SumcheckClaim {
            value: reduced.value + E::ONE,
            ..reduced.clone()
        };
        assert_eq!(
            changed.check_evals(&self.output.final_evals),
            Err(VerifyError::FinalClaimMismatch),
            "{name}: changed final claim accepted"
        );
        let mut evals = self.output.final_evals.clone();
        evals[0] += E::ONE;
        assert!(
            reduced.check_evals(&evals).is_err(),
            "{name}: changed evaluation accepted"
        );
        assert_eq!(
            reduced.check_evals(&evals[1..]),
            Err(VerifyError::FinalEvalCount {
                expected: degree,
                got: degree - 1
            })
        );
        // Truncations and trailing bytes.
        for len in 0..self.proof.len() {
            assert!(
                matches!(
                    self.verify(&self.proof[..len], self.claim),
                    Err(VerifyError::Transcript(TranscriptError::Truncated { .. }))
                ),
                "{name}: truncation to {len} bytes not reported"
            );
        }
        let mut long = self.proof.clone();
        long.push(0);
        assert_eq!(
            self.verify(&long, self.claim),
            Err(VerifyError::Transcript(TranscriptError::TrailingBytes {
                remaining: 1
            })),
            "{name}: trailing byte"
        );
    }
}

/// `Σ_x [eq(r, x)·] Π_j P_j(x)`, straight from the definition.
fn naive_sum<F: Field, E: ExtensionField<F>>(
    polys: &[MultilinearPoly<F>],
    eq_point: Option<&[E]>,
) -> E {
    let num_vars = polys[0].num_vars();
    (0..1usize << num_vars)
        .map(|x| {
            let product: F = polys.iter().map(|p| p.evals()[x]).product();
            let weight =
                eq_point.map_or(E::ONE, |r| eq_eval(r, &hypercube_point::<E>(x, num_vars)));
            weight * product
        })
        .sum()
}

/// The hypercube point with index `x` (bit `i` = coordinate `i`).
fn hypercube_point<E: Field>(x: usize, num_vars: usize) -> Vec<E> {
    (0..num_vars)
        .map(|i| if (x >> i) & 1 == 1 { E::ONE } else { E::ZERO })
        .collect()
}

/// Proves `claim` (true or not) and appends the final evaluations.
fn honest_proof<F: Field, E: ExtensionField<F>>(
    polys: &[MultilinearPoly<F>],
    eq_point: Option<&[E]>,
    claim: E,
) -> (SumcheckOutput<E>, Vec<u8>) {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    let output = prove(polys.to_vec(), eq_point, claim, &mut t);
    output.send_final_evals(&mut t);
    (output, t.into_proof())
}

/// The proof with field element number `index` replaced by itself plus one.
fn add_one_to_element<E: Field>(proof: &[u8], index: usize) -> Vec<u8> {
    let mut proof = proof.to_vec();
    let bytes = &mut proof[index * E::NUM_BYTES..(index + 1) * E::NUM_BYTES];
    let value = E::read_bytes(bytes).expect("honest proofs are canonical") + E::ONE;
    value.write_bytes(bytes);
    proof
}

fn check_malformed_statements<E: Field>() {
    let mut t = Sha256VerifierTranscript::new(DOMAIN, &[]);
    assert_eq!(
        verify::<E, _>(3, 0, E::ZERO, None, &mut t),
        Err(VerifyError::ZeroDegree)
    );
    let point = [E::ZERO; 2];
    assert_eq!(
        verify(3, 2, E::ZERO, Some(&point[..]), &mut t),
        Err(VerifyError::EqPointLength {
            expected: 3,
            got: 2
        })
    );
}

fn check_degenerate_eq_point<E: Field>(rng: &mut impl RngCore) {
    let r: E = random(rng);
    let zeros = vec![0u8; 2 * 2 * E::NUM_BYTES];
    for (point, round) in [([E::ONE, r], 0), ([r, E::ONE], 1)] {
        let mut t = Sha256VerifierTranscript::new(DOMAIN, &zeros);
        assert_eq!(
            verify(2, 2, E::ONE, Some(&point[..]), &mut t),
            Err(VerifyError::DegenerateEqPoint { round })
        );
    }
    // The prover engine agrees with the definition round by round.
    let poly = MultilinearPoly::new(random_vec::<E>(rng, 4));
    let eq = [r, r + E::ONE + E::ONE];
    if eq.iter().all(|&c| !(E::ONE - c).is_zero()) {
        let claim = naive_sum(std::slice::from_ref(&poly), Some(&eq[..]));
        let mut prover = SumcheckProver::new(vec![poly.clone()], Some(&eq[..]), claim);
        let message = prover.round_message();
        prover.bind(&message, r);
        let folded = poly.partial_evaluate(&[r]);
        let expected = naive_sum(std::slice::from_ref(&folded), Some(&eq[1..]));
        assert_eq!(prover.claim(), expected, "running claim after one round");
    }
}
