//! Commit one Boolean polynomial with each polynomial commitment scheme and compare them, in
//! the library (`flockwork compare pcs` does the same with one worker process per scheme).
//!
//! `cargo run --release --example compare_pcs [log_bits]` (default 2^20 bits).

use flockwork::compare::PcsComparison;
use flockwork::pcs::PcsKind;
use flockwork::pcs::ring_switch::RingSwitched;
use flockwork::pcs::security::ConfiguredCommitment;
use flockwork::pcs::{FriBinius, FriConfig};
use flockwork::poly::{Claim, PolynomialCommitment};
use flockwork::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    let log_bits: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(20);

    // ANCHOR: compare
    // The same random polynomial of 2^log_bits bits, two evaluation claims, 100 bits.
    let comparison = PcsComparison {
        log_bits,
        target_bits: 100,
        seed: 1,
        reps: 1,
    };
    println!("pcs        commit (ms)  open (ms)  verify (ms)  proof (KiB)  bits");
    for kind in PcsKind::ALL {
        let row = comparison.run(kind)?;
        println!(
            "{:<9} {:>12.2} {:>10.2} {:>12.2} {:>12.1} {:>5.1}",
            kind.name(),
            row.commit.as_secs_f64() * 1e3,
            row.open.as_secs_f64() * 1e3,
            row.verify.as_secs_f64() * 1e3,
            row.proof_bytes as f64 / 1024.0,
            row.security_bits
        );
    }
    // ANCHOR_END: compare

    // ANCHOR: by_hand
    // Any scheme behind the trait, by hand: FRI-Binius for 2^13 packed elements (2^20 bits)
    // at rate 1/4, its schedule chosen for the smallest proof at 100 bits.
    let config = FriConfig::select(13, 100, 2, 128, 16, 32)?;
    let fri = FriBinius::<Ghash128, sha2::Sha256>::new(config)?;
    println!("\nFRI-Binius at rate 1/4:\n{}", fri.security_report());
    let pcs = RingSwitched::new(fri);
    let words: Vec<u128> = (0..1u128 << 13).map(|i| i * 0x9e37_79b9 + 1).collect();
    let (commitment, data) = pcs.commit(&words);
    let point: Vec<Ghash128> = (0..20).map(|i| Ghash128::new(i * i + 7)).collect();
    let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
    let value = flockwork::pcs::ring_switch::evaluate_packed(&packed, &point);
    let claims = [Claim::evaluation(point, value)];

    let domain = DomainSeparator::new("example/compare-pcs", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.send_commitment("commitment", &commitment, &mut prover);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let received = pcs.recv_commitment("commitment", &mut verifier)?;
    pcs.verify(&received, &claims, &mut verifier)?;
    verifier.finish()?;
    println!("verified a {} KiB opening", proof.len() / 1024);
    // ANCHOR_END: by_hand

    // ANCHOR: sweep
    // The same comparison inside a batch proof: SHA-256 chains of 2^4 and 2^6 compressions
    // proved over each scheme, throughput against batch size, drawn as one line per scheme.
    let sweep = flockwork::sweep::run(
        &[flockwork::engines::System::BatchR1cs],
        &[flockwork::flock::HashKind::Sha256],
        &PcsKind::ALL,
        &[4, 6],
        |point| {
            println!(
                "{:<18} 2^{}: {:>8.0} compressions/s, proof {:.0} KiB",
                point.config,
                point.log_instances,
                point.per_sec,
                point.proof_bytes as f64 / 1024.0
            )
        },
    )?;
    let svg = std::env::temp_dir().join("flockwork-compare-pcs.svg");
    sweep.plot_svg(&svg)?;
    assert_eq!(sweep.series().len(), PcsKind::ALL.len());
    println!("{} drawn to {}", sweep.series().join(", "), svg.display());
    // ANCHOR_END: sweep
    Ok(())
}
