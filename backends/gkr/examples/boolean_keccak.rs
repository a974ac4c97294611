//! Proves and verifies `2^k` Keccak-f\[1600\] permutations with the Boolean GKR walk
//! (`flockwork_gkr::boolean`) and prints the times, the proof size and the soundness.
//!
//! `cargo run --release -p flockwork-gkr --example boolean_keccak -- 10 14` (the `k`s;
//! default 10). Threads: rayon's default (`RAYON_NUM_THREADS=1` for one).

use std::time::Instant;

use flockwork_boolean::KeccakF1600;
use flockwork_gkr::BooleanGkr;

fn main() {
    let ks: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("k is a number"))
        .collect();
    let ks = if ks.is_empty() { vec![10] } else { ks };
    println!("k  count  prove_s  perms_per_s  verify_s  proof_bytes  soundness_bits");
    for k in ks {
        let setup = BooleanGkr::<_>::new(KeccakF1600::new(), k);
        let count = 1usize << k;
        // Deterministic inputs: a splitmix64 stream.
        let mut s = 0x9e37_79b9_7f4a_7c15u64 ^ k as u64;
        let inputs: Vec<u64> = (0..25 * count)
            .map(|_| {
                s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        let statement = setup.statement(inputs);
        // One warm-up proof, then the median of three.
        let mut proof = setup.prove(&statement).expect("statement fits");
        let mut times: Vec<f64> = (0..3)
            .map(|_| {
                let start = Instant::now();
                proof = setup.prove(&statement).expect("statement fits");
                start.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let start = Instant::now();
        setup
            .verify(&statement, &proof)
            .expect("honest proof verifies");
        let verify = start.elapsed().as_secs_f64();
        println!(
            "{k}  {count}  {:.3}  {:.0}  {verify:.3}  {}  {:.1}",
            times[1],
            count as f64 / times[1],
            proof.len(),
            setup.soundness_bits()
        );
    }
}
