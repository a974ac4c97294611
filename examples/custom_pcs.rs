//! A new polynomial commitment scheme against the `PolynomialCommitment` trait, checked by the
//! conformance suite every backend passes: the "hash everything" scheme. Its commitment is
//! the SHA-256 of the evaluations and its opening sends them all, so it is binding and sound
//! but not succinct — a baseline, and the smallest complete example of the trait. With its
//! `ConfiguredCommitment` (name, soundness, parameter bytes) it commits GKR's inputs and
//! outputs and batch-R1CS's batch witness, each time in one comparison table beside the
//! shipped schemes.
//!
//! `cargo run --release --example custom_pcs`

use flockwork::engines::Choices;
use flockwork::gkr::LayeredBatcher;
use flockwork::pcs::conformance::check_pcs;
use flockwork::pcs::params::ParameterBytes;
use flockwork::pcs::security::{ConfiguredCommitment, SecurityReport, Term};
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

// ANCHOR: configured
/// What a protocol that takes a commitment as a parameter asks of it: a name, its soundness,
/// the bytes of its parameters (bound into setup digests) and its codeword expansion.
impl<F: Field> ConfiguredCommitment<F> for HashEverything {
    fn name(&self) -> &'static str {
        "hash-everything"
    }

    /// A false claim passes only with a SHA-256 collision (128 bits); the claims themselves
    /// are checked exactly.
    fn security_report(&self) -> SecurityReport {
        SecurityReport {
            terms: vec![Term::new("sha256 collision", None, 128.0)],
        }
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        let mut bytes = ParameterBytes::new("hash-everything");
        bytes.size(self.num_vars);
        bytes.into_bytes()
    }

    fn codeword_expansion(&self) -> f64 {
        1.0
    }
}
// ANCHOR_END: configured

/// One comparison table.
fn print_rows(rows: &[Row]) {
    println!(
        "\n{:<44} {:>10} {:>10} {:>10} {:>6}",
        "batcher", "prove", "verify", "bytes", "bits"
    );
    for row in rows {
        println!(
            "{:<44} {:>8.1?} {:>8.1?} {:>10} {:>6.1}",
            row.name, row.prove, row.verify, row.proof_bytes, row.soundness_bits
        );
    }
}

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

    // ANCHOR: compare
    // GKR's committed IO over the new scheme, beside the shipped ones: one table, one
    // statement per batcher (each commits the same inputs with its own scheme).
    let relation = Poseidon2bRelation::official();
    let inputs: Vec<[Ghash128; 4]> = (0..6u64)
        .map(|i| [0, 1, 2, 3].map(|j| Ghash128::from_index(4 * i + j)))
        .collect();
    let choices = Choices {
        systems: vec![flockwork::engines::System::Gkr],
        variants: vec![Variant::Ragged],
        ..Choices::default()
    };
    type Ours =
        LayeredBatcher<Poseidon2bRelation, Ghash256, flockwork::transcript::Sha256, HashEverything>;
    let ours = Ours::committed(
        relation.clone(),
        inputs.len(),
        Variant::Ragged,
        |num_vars| Ok::<_, String>(HashEverything { num_vars }),
    )
    .expect("the scheme commits any size");
    let rows = compare_committed_with(&relation, &inputs, &choices, vec![Box::new(ours)])
        .expect("every batcher proves and verifies");
    print_rows(&rows);
    assert_eq!(rows.len(), PcsKind::ALL.len() + 1);
    assert!(rows.last().unwrap().name.contains("hash-everything"));
    // ANCHOR_END: compare

    // ANCHOR: compare_r1cs
    // Batch-R1CS's committed IO over the new scheme (ring-switched: the dense scheme has
    // m − 7 variables for a 2^m-bit witness), beside the shipped ones, on SHA-256.
    let relation = Sha256Compress::default();
    let inputs: Vec<Sha256Input> = (0..6u8)
        .map(|i| Sha256Input {
            state: [u32::from(i); 8],
            block: [i; 64],
        })
        .collect();
    let choices = Choices {
        systems: vec![flockwork::engines::System::BatchR1cs],
        variants: vec![Variant::Ragged],
        ..Choices::default()
    };
    let ours = flockwork::r1cs::relation_batchers::batcher::<_, _, flockwork::transcript::Sha256>(
        &relation,
        inputs.len(),
        Variant::Ragged,
        FlockConfig::default(),
        |m: usize, _target: u32| Ok(HashEverything { num_vars: m - 7 }),
    )
    .expect("the scheme commits any size");
    let rows = compare_committed_with(&relation, &inputs, &choices, vec![ours])
        .expect("every batcher proves and verifies");
    print_rows(&rows);
    assert_eq!(rows.len(), PcsKind::ALL.len() + 1);
    assert!(rows.iter().all(|r| r.failure.is_none()));
    assert!(rows.last().unwrap().name.contains("hash-everything"));
    // ANCHOR_END: compare_r1cs
}
