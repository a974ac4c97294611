//! A reusable conformance suite for every [`PolynomialCommitment`].
//!
//! [`check_pcs`] commits to a polynomial and checks, panicking with a description on the first
//! violation (call it from a `#[test]`):
//!
//! * honest openings verify: one claim; a batch of evaluations at several points, a quirky
//!   tensor claim and (if supported) a general linear claim;
//! * rejected: a wrong value, a wrong point, every flipped byte of the proof (every position
//!   for proofs up to [`EXHAUSTIVE_FLIP_LIMIT`] bytes, an even spread of positions beyond),
//!   truncations, trailing bytes, random garbage, malformed claims and commitments;
//! * the verifier never panics on any of these inputs (a panic fails the calling test).
//!
//! Points and values come from a SHA-256 transcript, so runs are deterministic.

use std::sync::Arc;

use flockwork_core::pcs::{Claim, MultilinearWeight, Weight};
use flockwork_core::{PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    Transcript, VerifierTranscript,
};

/// Proofs up to this many bytes have every byte flipped; longer ones a spread of positions.
pub const EXHAUSTIVE_FLIP_LIMIT: usize = 1 << 14;

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/pcs-conformance/v1", b"");
const LABEL_COMMITMENT: &str = "conformance/commitment";

/// `W(x) = Π_i (a_i + b_i·x_i)`: a verifier-evaluable weight that is neither eq nor tensor
/// (its multilinear extension is the same product with `x_i` replaced by `y_i`).
#[derive(Clone, Debug)]
pub struct ProductWeight<F> {
    /// The constant terms `a_i`.
    pub a: Vec<F>,
    /// The linear coefficients `b_i`.
    pub b: Vec<F>,
}

impl<F: Field> MultilinearWeight<F> for ProductWeight<F> {
    fn num_vars(&self) -> usize {
        self.a.len()
    }

    fn accumulate_table(&self, scale: F, out: &mut [F]) {
        let mut table = vec![scale];
        for (&a, &b) in self.a.iter().zip(&self.b) {
            let low: Vec<F> = table.iter().map(|&t| t * a).collect();
            let high: Vec<F> = table.iter().map(|&t| t * (a + b)).collect();
            table = low;
            table.extend(high);
        }
        for (o, t) in out.iter_mut().zip(table) {
            *o += t;
        }
    }

    fn evaluate(&self, point: &[F]) -> F {
        self.a
            .iter()
            .zip(&self.b)
            .zip(point)
            .map(|((&a, &b), &y)| a + b * y)
            .product()
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        let mut bytes = vec![0u8; 2 * self.a.len() * F::NUM_BYTES];
        for (x, out) in self
            .a
            .iter()
            .chain(&self.b)
            .zip(bytes.chunks_exact_mut(F::NUM_BYTES.max(1)))
        {
            x.write_bytes(out);
        }
        bytes
    }
}

/// Deterministic field elements for the suite.
struct Source(Sha256ProverTranscript);

impl Source {
    fn new(label: &str) -> Self {
        let mut t = Sha256ProverTranscript::new(DOMAIN);
        t.public_bytes("source", label.as_bytes());
        Self(t)
    }

    fn vec<F: Field>(&mut self, n: usize) -> Vec<F> {
        self.0.challenges("source/elements", n)
    }
}

/// `Σ_x P(x)·W(x)` from the dense hypercube values.
fn true_value<F: Field>(hypercube: &[F], weight: &Weight<F>) -> F {
    let mut table = vec![F::ZERO; hypercube.len()];
    weight.accumulate_table(F::ONE, &mut table);
    table.iter().zip(hypercube).map(|(&w, &p)| w * p).sum()
}

/// Runs the whole suite on `pcs` with the committed input `evals`, whose hypercube values
/// (lifted to `F`) are `hypercube`. `tensor_low_vars` is the number of low variables of the
/// quirky tensor claim (`None` skips it); `linear` enables general linear claims.
///
/// # Panics
/// On the first violated property (that is the point).
pub fn check_pcs<F, P>(
    pcs: &P,
    evals: &P::Evals,
    hypercube: &[F],
    tensor_low_vars: Option<usize>,
    linear: bool,
) where
    F: Field,
    P: PolynomialCommitment<F>,
{
    let n = pcs.num_vars();
    assert_eq!(
        hypercube.len(),
        1 << n,
        "hypercube values of the wrong size"
    );
    let (commitment, data) = pcs.commit(evals);
    assert_eq!(commitment.as_ref().len(), pcs.commitment_len());
    assert_eq!(
        pcs.commitment_from_bytes(commitment.as_ref()).as_ref(),
        Some(&commitment)
    );

    let mut source = Source::new("claims");
    let eval_claim = |point: Vec<F>| {
        let weight = Weight::Eq(point);
        let value = true_value(hypercube, &weight);
        Claim { weight, value }
    };
    let single = vec![eval_claim(source.vec(n))];
    let mut batch = vec![
        eval_claim(source.vec(n)),
        eval_claim(source.vec(n)),
        eval_claim(source.vec(n)),
    ];
    if let Some(low_vars) = tensor_low_vars {
        let weight = Weight::Tensor {
            low: source.vec(1 << low_vars),
            high: source.vec(n - low_vars),
        };
        batch.push(Claim {
            value: true_value(hypercube, &weight),
            weight,
        });
    }
    if linear {
        let weight = Weight::Linear(Arc::new(ProductWeight {
            a: source.vec(n),
            b: source.vec(n),
        }));
        batch.push(Claim {
            value: true_value(hypercube, &weight),
            weight,
        });
    }

    for claims in [&single, &batch] {
        let proof = prove(pcs, &data, &commitment, claims);
        run(pcs, &commitment, claims, &proof).expect("an honest opening must verify");
    }
    let proof = prove(pcs, &data, &commitment, &batch);
    check_tampered_claims(pcs, &commitment, &batch, &proof, &mut source);
    check_tampered_proofs(pcs, &commitment, &batch, &proof);

    // A prover opening a false claim is caught.
    let mut false_claims = batch.clone();
    false_claims[1].value += F::ONE;
    let false_proof = prove(pcs, &data, &commitment, &false_claims);
    assert!(
        run(pcs, &commitment, &false_claims, &false_proof).is_err(),
        "false claim accepted"
    );
}

/// The proof of `claims` with the commitment sent first.
fn prove<F: Field, P: PolynomialCommitment<F>>(
    pcs: &P,
    data: &P::ProverData,
    commitment: &P::Commitment,
    claims: &[Claim<F>],
) -> Vec<u8> {
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    pcs.send_commitment(LABEL_COMMITMENT, commitment, &mut transcript);
    pcs.open(data, claims, &mut transcript);
    transcript.into_proof()
}

/// Verifies a proof made by [`prove`], including the end-of-proof check.
fn run<F: Field, P: PolynomialCommitment<F>>(
    pcs: &P,
    commitment: &P::Commitment,
    claims: &[Claim<F>],
    proof: &[u8],
) -> Result<(), VerifyError> {
    let mut transcript = Sha256VerifierTranscript::new(DOMAIN, proof);
    let received = pcs.recv_commitment(LABEL_COMMITMENT, &mut transcript)?;
    if &received != commitment {
        return Err(VerifyError::MalformedCommitment);
    }
    pcs.verify(commitment, claims, &mut transcript)?;
    transcript.finish()?;
    Ok(())
}

/// Wrong values, wrong points, malformed claims, a wrong commitment.
fn check_tampered_claims<F: Field, P: PolynomialCommitment<F>>(
    pcs: &P,
    commitment: &P::Commitment,
    claims: &[Claim<F>],
    proof: &[u8],
    source: &mut Source,
) {
    let n = pcs.num_vars();
    for i in 0..claims.len() {
        let mut wrong = claims.to_vec();
        wrong[i].value += F::ONE;
        assert!(
            run(pcs, commitment, &wrong, proof).is_err(),
            "wrong value of claim {i} accepted"
        );
    }
    let mut wrong_point = claims.to_vec();
    wrong_point[0].weight = Weight::Eq(source.vec(n));
    assert!(
        run(pcs, commitment, &wrong_point, proof).is_err(),
        "wrong point accepted"
    );
    assert!(
        run(pcs, commitment, &claims[..claims.len() - 1], proof).is_err(),
        "dropped claim accepted"
    );
    assert!(
        run(pcs, commitment, &[], proof).is_err(),
        "empty claim list accepted"
    );
    let mut short = claims.to_vec();
    short[0].weight = Weight::Eq(source.vec(n + 1));
    assert!(
        run(pcs, commitment, &short, proof).is_err(),
        "claim of the wrong arity accepted"
    );
    let mut bad_tensor = claims.to_vec();
    bad_tensor[0].weight = Weight::Tensor {
        low: source.vec(3),
        high: source.vec(n.saturating_sub(1)),
    };
    assert!(
        run(pcs, commitment, &bad_tensor, proof).is_err(),
        "malformed tensor accepted"
    );
    let mut other = commitment.as_ref().to_vec();
    other[0] ^= 1;
    if let Some(other) = pcs.commitment_from_bytes(&other) {
        let mut transcript = Sha256VerifierTranscript::new(DOMAIN, proof);
        let _ = transcript.recv_bytes(LABEL_COMMITMENT, pcs.commitment_len());
        assert!(
            pcs.verify(&other, claims, &mut transcript).is_err(),
            "wrong commitment accepted"
        );
    }
    assert!(
        pcs.commitment_from_bytes(&[0u8; 3]).is_none(),
        "short commitment parsed"
    );
}

/// Flipped bytes, truncations, trailing bytes, garbage.
fn check_tampered_proofs<F: Field, P: PolynomialCommitment<F>>(
    pcs: &P,
    commitment: &P::Commitment,
    claims: &[Claim<F>],
    proof: &[u8],
) {
    let positions: Vec<usize> = if proof.len() <= EXHAUSTIVE_FLIP_LIMIT {
        (0..proof.len()).collect()
    } else {
        let step = proof.len() / 2048 + 1;
        (0..proof.len())
            .step_by(step)
            .chain([proof.len() - 1])
            .collect()
    };
    for &i in &positions {
        let mut bad = proof.to_vec();
        bad[i] ^= 1 << (i % 8);
        assert!(
            run(pcs, commitment, claims, &bad).is_err(),
            "flipped byte {i} of {} accepted",
            proof.len()
        );
    }
    for cut in [0, 1, proof.len() / 3, proof.len() / 2, proof.len() - 1] {
        assert!(
            run(pcs, commitment, claims, &proof[..cut]).is_err(),
            "truncation to {cut} bytes accepted"
        );
    }
    for extra in [&[0u8][..], &[1, 2, 3]] {
        let mut longer = proof.to_vec();
        longer.extend_from_slice(extra);
        assert!(
            run(pcs, commitment, claims, &longer).is_err(),
            "trailing bytes accepted"
        );
    }
    let mut source = Source::new("garbage");
    for len in [0usize, 31, 32, 100, proof.len()] {
        let garbage: Vec<u8> = source
            .vec::<F>(len / F::NUM_BYTES.max(1) + 1)
            .iter()
            .flat_map(|x| {
                let mut b = vec![0u8; F::NUM_BYTES];
                x.write_bytes(&mut b);
                b
            })
            .take(len)
            .collect();
        assert!(
            run(pcs, commitment, claims, &garbage).is_err(),
            "garbage of {len} bytes accepted"
        );
    }
}

/// Checks that `pcs` refuses, with [`VerifyError::MalformedCommitment`] and before reading any
/// proof byte, byte-string commitments one byte shorter or longer than `commitment`, or empty.
///
/// # Panics
/// If a commitment of another length is not refused with that error.
pub fn check_commitment_lengths<F, P>(pcs: &P, commitment: &[u8], claims: &[Claim<F>])
where
    F: Field,
    P: PolynomialCommitment<F, Commitment = Vec<u8>>,
{
    let domain = DomainSeparator::new("conformance/commitment-length", b"");
    for bad in [
        commitment[..commitment.len().saturating_sub(1)].to_vec(),
        [commitment, &[0]].concat(),
        Vec::new(),
    ] {
        let mut transcript = Sha256VerifierTranscript::new(domain, &[]);
        assert_eq!(
            pcs.verify(&bad, claims, &mut transcript),
            Err(VerifyError::MalformedCommitment),
            "a commitment of {} bytes",
            bad.len()
        );
    }
}
