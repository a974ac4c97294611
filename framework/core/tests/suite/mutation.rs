//! Mutation testing of sumcheck proofs (the harness is `flockwork_testkit::mutation`): every
//! single-byte change, truncation and extension of an honest proof is rejected and the
//! verifier never panics. The harness prints the counts of every sweep.

use flockwork_core::{MultilinearPoly, VerifyError, eq_table, prove, verify};
use flockwork_field::Field;
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_field_prime::{Bn254Fr, Goldilocks};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use flockwork_testkit::seeded_vec;
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/tests/mutation", b"");

/// Proves Σ eq(r,x)·Π P_j(x) with the final evaluations in the proof, then mutation-tests
/// the verifier, which checks the final evaluations against the polynomials (the job of a
/// commitment opening).
fn mutate_sumcheck<F: Field>(name: &str, num_vars: usize, degree: usize) {
    let polys: Vec<MultilinearPoly<F>> = (0..degree as u64)
        .map(|j| MultilinearPoly::new(seeded_vec(j, 1 << num_vars)))
        .collect();
    let r: Vec<F> = seeded_vec(100, num_vars);
    let claim: F = eq_table(&r)
        .iter()
        .enumerate()
        .map(|(x, &w)| w * polys.iter().map(|p| p.evals()[x]).product::<F>())
        .sum();
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    prove(polys.clone(), Some(&r), claim, &mut transcript).send_final_evals(&mut transcript);
    let proof = transcript.into_proof();

    let verifier = |bytes: &[u8]| -> Result<(), VerifyError> {
        let mut t = Sha256VerifierTranscript::new(DOMAIN, bytes);
        let reduced = verify(num_vars, degree, claim, Some(&r), &mut t)?;
        let evals = reduced.recv_final_evals(&mut t)?;
        t.finish()?;
        for (poly, eval) in polys.iter().zip(&evals) {
            if poly.evaluate(&reduced.point) != *eval {
                return Err(VerifyError::FinalClaimMismatch);
            }
        }
        Ok(())
    };
    let budget = MutationBudget::default();
    assert!(
        budget.is_exhaustive_for(proof.len()),
        "{name}: the test sizes are meant to be exhaustive under the full budget"
    );
    check_mutations(&format!("sumcheck/{name}"), &proof, budget, verifier);
}

#[test]
fn sumcheck_ghash_rejects_every_mutation() {
    mutate_sumcheck::<Ghash128>("ghash", 4, 3);
}

#[test]
fn sumcheck_ghash256_rejects_every_mutation() {
    mutate_sumcheck::<Ghash256>("ghash256", 2, 2);
}

#[test]
fn sumcheck_bn254_rejects_every_mutation() {
    mutate_sumcheck::<Bn254Fr>("bn254", 3, 2);
}

#[test]
fn sumcheck_goldilocks_rejects_every_mutation() {
    mutate_sumcheck::<Goldilocks>("goldilocks", 5, 3);
}
