//! A new polynomial commitment scheme against the `PolynomialCommitment` trait, checked by the
//! conformance suite every backend passes: the "hash everything" scheme. Its commitment is
//! the SHA-256 of the evaluations and its opening sends them all, so it is binding and sound
//! but not succinct — a baseline, and the smallest complete example of the trait.
//!
//! `cargo run --release --example custom_pcs`

use flockwork::pcs::conformance::check_pcs;
use flockwork::poly::pcs::{Claim, absorb_claims, check_claim_shapes};
use flockwork::poly::{PolynomialCommitment, VerifyError};
use flockwork::prelude::*;
use sha2::{Digest, Sha256};

// ANCHOR: scheme
/// Commits to a multilinear polynomial in `num_vars` variables by hashing its evaluations.
struct HashEverything {
    num_vars: usize,
}

/// The SHA-256 of the canonical encodings of `evals`.
fn digest<F: Field>(evals: &[F]) -> Vec<u8> {
    let mut h = Sha256::new();
    let mut bytes = vec![0u8; F::NUM_BYTES];
    for x in evals {
        x.write_bytes(&mut bytes);
        h.update(&bytes);
    }
    h.finalize().to_vec()
}

impl<F: Field> PolynomialCommitment<F> for HashEverything {
    type Evals = [F];
    type Commitment = Vec<u8>;
    type ProverData = Vec<F>;

    fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn commitment_len(&self) -> usize {
        32
    }

    fn commitment_from_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        (bytes.len() == 32).then(|| bytes.to_vec())
    }

    fn commit(&self, evals: &[F]) -> (Vec<u8>, Vec<F>) {
        assert_eq!(evals.len(), 1 << self.num_vars, "2^n evaluations");
        (digest(evals), evals.to_vec())
    }

    fn open<T: ProverTranscript>(&self, data: &Vec<F>, claims: &[Claim<F>], transcript: &mut T) {
        absorb_claims(claims, transcript);
        // The evaluations alone would prove any claim set; echoing a challenge drawn after
        // the claims binds the proof to these claims (the conformance suite checks it).
        let mut binding = [0u8; 16];
        transcript.challenge_bytes("hash-everything/binding", &mut binding);
        transcript.send_bytes("hash-everything/binding", &binding);
        transcript.send_field("hash-everything/evals", data);
    }

    fn verify<T: VerifierTranscript>(
        &self,
        commitment: &Vec<u8>,
        claims: &[Claim<F>],
        transcript: &mut T,
    ) -> Result<(), VerifyError> {
        // A verifier is a parser of hostile input: shapes first, then bounded reads.
        check_claim_shapes(claims, self.num_vars)?;
        if commitment.len() != 32 {
            return Err(VerifyError::MalformedCommitment);
        }
        absorb_claims(claims, transcript);
        let mut binding = [0u8; 16];
        transcript.challenge_bytes("hash-everything/binding", &mut binding);
        if transcript.recv_bytes("hash-everything/binding", 16)? != binding {
            return Err(VerifyError::OpeningMismatch);
        }
        let evals = transcript.recv_field::<F>("hash-everything/evals", 1 << self.num_vars)?;
        if digest(&evals) != *commitment {
            return Err(VerifyError::OpeningMismatch);
        }
        // Each claim Σ_x P(x)·W(x) = v, checked directly on the hypercube.
        for claim in claims {
            let mut weights = vec![F::ZERO; evals.len()];
            claim.weight.accumulate_table(F::ONE, &mut weights);
            if F::inner_product(&weights, &evals) != claim.value {
                return Err(VerifyError::OpeningMismatch);
            }
        }
        Ok(())
    }
}
// ANCHOR_END: scheme

fn main() {
    // ANCHOR: conformance
    // Honest batches accept; wrong values and points, flipped bytes, truncations, trailing
    // bytes, garbage and malformed claims reject — over a binary and a prime field.
    let evals: Vec<Ghash128> = (0..1u64 << 8)
        .map(|i| Ghash128::from_index(i * i + 3))
        .collect();
    check_pcs(
        &HashEverything { num_vars: 8 },
        evals.as_slice(),
        &evals,
        Some(3),
        true,
    );
    let evals: Vec<Bn254Fr> = (0..1u64 << 6)
        .map(|i| Bn254Fr::from_index(7 * i + 1))
        .collect();
    check_pcs(
        &HashEverything { num_vars: 6 },
        evals.as_slice(),
        &evals,
        Some(2),
        true,
    );
    println!("HashEverything passes the PCS conformance suite over GF(2^128) and BN254");
    // ANCHOR_END: conformance
}
