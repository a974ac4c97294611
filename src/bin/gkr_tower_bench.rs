//! The verifier on both sides of the representation boundary: the same Poseidon2b GKR proofs
//! (made by the GHASH prover) verified in the GHASH basis ([`Setup::verify`]) and in the
//! binary-tower basis ([`Setup::to_tower`] on [`Statement::to_tower`], the computation
//! behind [`Setup::verify_in_tower`]).
//!
//! ```text
//! cargo run --release --features bench-bins --bin gkr_tower_bench -- [--widths 12,10] [--verifications 21]
//! ```
//!
//! One process: for every variant the proof is made once (untimed), then the two verifiers
//! alternate `--verifications` times and the medians are printed: walk and `S_0` discharge
//! for each, and for the tower the statement mapping (GHASH → tower elements, commitment
//! digests recomputed) separately. SHA-256 transcript. A separate binary from `gkr_bench`
//! so that the tower verifier's code does not change the prover benchmark's binary.

#![forbid(unsafe_code)]

use std::time::Instant;

use clap::Parser;
use flockwork_gkr::{Ghash128, Ghash256, Setup, Statement, Variant};
use flockwork_poseidon2b::Poseidon2bRelation;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Parser, Debug)]
#[command(about = "Poseidon2b GKR verifier: GHASH basis vs binary-tower basis, same proofs")]
struct Args {
    /// Region widths w_a (2^w_a instances each), comma separated.
    #[arg(long, value_delimiter = ',', default_value = "12,10")]
    widths: Vec<usize>,
    /// Verifications per verifier and variant (the times are their medians).
    #[arg(long, default_value_t = 21)]
    verifications: usize,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let args = Args::parse();
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b72);
    let inputs: Vec<Vec<Ghash128>> = args
        .widths
        .iter()
        .map(|&w| {
            (0..4usize << w)
                .map(|_| Ghash128::new(rng.random()))
                .collect()
        })
        .collect();
    let relation = Poseidon2bRelation::official();
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, args.widths.clone());
    // Builds the isomorphism tables once, outside the timings.
    let _ = setup.to_tower();
    let widths: Vec<String> = args.widths.iter().map(ToString::to_string).collect();
    println!(
        "Poseidon2b GKR verifier, GHASH vs tower basis: widths [{}], {} verifications each, transcript sha256",
        widths.join(","),
        args.verifications
    );
    println!();
    println!(
        "| variant | proof bytes | GHASH: walk (ms) | GHASH: S_0 discharge (ms) | GHASH total (ms) | tower: statement mapping (ms) | tower: walk (ms) | tower: S_0 discharge (ms) | tower total (ms) | tower / GHASH (walk + discharge) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for variant in Variant::ALL {
        let proof = setup
            .prove(variant, &inputs, &statement)
            .expect("the statement fits the setup");
        let mut t: [Vec<f64>; 5] = Default::default();
        for _ in 0..args.verifications.max(1) {
            let start = Instant::now();
            let terminal = setup
                .verify_walks(variant, &statement, &proof)
                .expect("honest proofs verify");
            t[0].push(ms(start));
            let start = Instant::now();
            setup
                .discharge(&statement, &terminal)
                .expect("honest terminal claims hold");
            t[1].push(ms(start));

            let start = Instant::now();
            let tower_setup = setup.to_tower();
            let tower_statement = statement.to_tower();
            t[2].push(ms(start));
            let start = Instant::now();
            let terminal = tower_setup
                .verify_walks(variant, &tower_statement, &proof)
                .expect("honest proofs verify in the tower");
            t[3].push(ms(start));
            let start = Instant::now();
            tower_setup
                .discharge(&tower_statement, &terminal)
                .expect("honest terminal claims hold in the tower");
            t[4].push(ms(start));
        }
        let [gw, gd, tm, tw, td] = t.map(|mut v| median(&mut v));
        println!(
            "| {} | {} | {gw:.2} | {gd:.2} | {:.2} | {tm:.2} | {tw:.2} | {td:.2} | {:.2} | {:.1}x |",
            variant.name(),
            proof.len(),
            gw + gd,
            tw + td,
            (tw + td) / (gw + gd)
        );
    }
}
