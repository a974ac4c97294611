//! Quick start: prove and verify one sumcheck statement over GF(2^128).
//!
//! Run with `cargo run --release --example quickstart`.

// ANCHOR: quickstart
use flockwork::prelude::*;

fn main() -> Result<(), VerifyError> {
    // Two multilinear polynomials in 10 variables, given by their 1024 hypercube values.
    let n: usize = 10;
    let a = MultilinearPoly::new((0..1 << n).map(Ghash128::from_index).collect());
    let b = MultilinearPoly::new(
        (0..1 << n)
            .map(|i| Ghash128::from_index(3 * i + 1))
            .collect(),
    );

    // The statement: Σ_x eq(r, x)·a(x)·b(x) = claim, for a point r both sides know.
    let r: Vec<Ghash128> = (1000..1000 + n as u64).map(Ghash128::from_index).collect();
    let claim: Ghash128 = eq_table(&r)
        .iter()
        .zip(a.evals().iter().zip(b.evals()))
        .map(|(&w, (&x, &y))| w * x * y)
        .sum();

    // The prover writes the proof into a transcript bound to this protocol and instance.
    let domain = DomainSeparator::new("quickstart/v1", b"a*b, 10 variables");
    let mut prover = Sha256ProverTranscript::new(domain);
    let output = prove(vec![a.clone(), b.clone()], Some(&r), claim, &mut prover);
    output.send_final_evals(&mut prover);
    let proof = prover.into_proof();
    println!("proof: {} bytes", proof.len());

    // The verifier replays the transcript: it rejects any altered byte.
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let reduced = verify(n, 2, claim, Some(&r), &mut verifier)?;
    let evals = reduced.recv_final_evals(&mut verifier)?;
    verifier.finish()?;

    // What is left is a claim about a and b at one random point; a polynomial commitment
    // would open it. Here we hold the polynomials, so we evaluate them.
    assert_eq!(
        evals,
        [a.evaluate(&reduced.point), b.evaluate(&reduced.point)]
    );
    println!(
        "verified: {n} rounds, {} bits of soundness",
        soundness_bits(n, 2, true, Ghash128::ORDER_BITS)
    );
    Ok(())
}
// ANCHOR_END: quickstart
