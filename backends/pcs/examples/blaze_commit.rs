//! Commit / open / verify timings of the Blaze-style commitment against Ligerito at one
//! size, with proof sizes and the Blaze security report.
//!
//! ```text
//! cargo run --release -p flockwork-pcs --example blaze_commit -- [num_vars] [reps]
//! ```
//!
//! `num_vars` defaults to 21, `reps` to 1. A measurement tool, not a benchmark suite:
//! wall-clock times, the minimum over `reps` runs for the commits, encoders and verifications
//! (one run for opening).

use std::time::{Duration, Instant};

use flockwork_codes::{Raa, ReedSolomon};
use flockwork_core::{Claim, MultilinearPoly, PolynomialCommitment};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::blaze::DEFAULT_SEED;
use flockwork_pcs::merkle::MerkleTree;
use flockwork_pcs::{Blaze, Ligerito, Preset, Regime};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};

type Sha = sha2::Sha256;

/// Commits, opens one evaluation claim and verifies; prints the times and the proof size.
fn run<P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>>(
    name: &str,
    reps: usize,
    pcs: &P,
    evals: &[Ghash128],
    point: &[Ghash128],
    value: Ghash128,
) {
    let domain = DomainSeparator::new("example/blaze-commit", b"");
    let (commit, (commitment, data)) = fastest(reps, || pcs.commit(evals));
    let claims = [Claim::evaluation(point.to_vec(), value)];
    let start = Instant::now();
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let open = start.elapsed();
    let (verify, ()) = fastest(reps, || {
        let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
        pcs.verify(&commitment, &claims, &mut verifier)
            .expect("honest proof");
        verifier.finish().expect("no trailing bytes");
    });
    println!(
        "{name:<28} commit {:>8.1} ms   open {:>8.1} ms   verify {:>7.2} ms   proof {:>8} B",
        ms(commit),
        open.as_secs_f64() * 1e3,
        ms(verify),
        proof.len()
    );
}

fn main() {
    let num_vars: usize = std::env::args()
        .nth(1)
        .map_or(21, |a| a.parse().expect("num_vars"));
    let reps: usize = std::env::args()
        .nth(2)
        .map_or(1, |a| a.parse().expect("reps"));
    let evals = flockwork_testkit::seeded_vec::<Ghash128>(1, 1 << num_vars);
    let point = flockwork_testkit::seeded_vec::<Ghash128>(2, num_vars);
    let value = MultilinearPoly::new(evals.clone()).evaluate(&point);
    println!(
        "2^{num_vars} GF(2^128) elements ({} MiB), {} hardware threads",
        (16usize << num_vars) >> 20,
        rayon_threads()
    );

    let start = Instant::now();
    let blaze = Blaze::<Ghash128, Sha>::with_security(num_vars, 100).expect("parameters");
    println!(
        "Blaze setup (permutations) {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let raa_config = &blaze.config().raa;
    println!(
        "level 0: k0 = {}, rate 2^-{}, {} queries, assumed distance {}",
        raa_config.log_cols, raa_config.log_inv_rate, raa_config.num_queries, raa_config.distance
    );
    println!("{}", blaze.security_report());
    // The parts of the Blaze commit, unfused: the XOR-only encoding alone and a Merkle tree
    // over the finished codeword (the commit hashes the leaves inside the encoder instead).
    let width = 1 << blaze.config().raa.log_cols;
    let (encode, codeword) = fastest(reps, || blaze.raa().encode(&evals, width));
    let (merkle, _) = fastest(reps, || MerkleTree::<Sha>::new(&codeword, width));
    drop(codeword);
    println!(
        "Blaze parts: RAA encode {:.1} ms, Merkle tree on the codeword {:.1} ms",
        ms(encode),
        ms(merkle)
    );
    // The encoders alone, at Ligerito's level-0 shape (2^6 columns).
    for log_inv_rate in [1, 2] {
        let rs = ReedSolomon::<Ghash128>::new(num_vars - 6, log_inv_rate);
        let (time, _) = fastest(reps, || rs.encode(&evals, 64));
        println!(
            "Reed–Solomon encode, rate 2^-{log_inv_rate}, 64 columns: {:.1} ms",
            ms(time)
        );
    }
    let raa = Raa::new(num_vars - 6, 2, DEFAULT_SEED);
    let (time, _) = fastest(reps, || raa.encode(&evals, 64));
    println!("RAA encode, rate 2^-2, 64 columns: {:.1} ms", ms(time));

    run(
        "Blaze (default profile)",
        reps,
        &blaze,
        &evals,
        &point,
        value,
    );
    for (name, preset, regime) in [
        (
            "Ligerito fast, Johnson",
            Preset::Fast,
            Regime::Johnson { eta: 0.02 },
        ),
        ("Ligerito fast, UDR", Preset::Fast, Regime::UniqueDecoding),
        (
            "Ligerito slim, Johnson",
            Preset::Slim,
            Regime::Johnson { eta: 0.02 },
        ),
    ] {
        let ligerito = Ligerito::<Ghash128, Sha>::with_preset(num_vars, 100, preset, regime)
            .expect("parameters");
        run(name, reps, &ligerito, &evals, &point, value);
    }
}

/// The hardware threads (the default size of the rayon pool).
fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The shortest of `reps` runs of `f` (at least one) and the result of the last.
fn fastest<T>(reps: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..reps.max(1) {
        // The previous result is dropped before the next run allocates.
        drop(result.take());
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        result = Some(value);
    }
    (best, result.expect("at least one run"))
}

/// Milliseconds.
fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
