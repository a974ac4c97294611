//! Proves and verifies `2^k` Keccak-f\[1600\] permutations with the Boolean GKR
//! (`flockwork_gkr::boolean`, the ragged batcher) and prints the times,
//! the proof size and the soundness, with public inputs and outputs or with them committed
//! through ring-switching over a dense scheme (the commitment's time included in the rate).
//!
//! `cargo run --release -p flockwork-gkr --example boolean_keccak -- [public|ligerito|fri|blaze] 10 14`
//! (the `k`s; default `public 10`). Threads: rayon's default (`RAYON_NUM_THREADS=1` for
//! one).

use std::time::Instant;

use flockwork_boolean::KeccakF1600;
use flockwork_gkr::{BooleanGkr, Variant};
use flockwork_pcs::ring_switch::RingSwitched;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind, Profile};

/// The median of three runs of `f` after one warm-up, and its last result.
fn median<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut out = f();
    let mut times: Vec<f64> = (0..3)
        .map(|_| {
            let start = Instant::now();
            out = f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[1], out)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let scheme = match args.first().map(String::as_str) {
        Some("public") => {
            args.remove(0);
            None
        }
        Some(s) if s.parse::<PcsKind>().is_ok() => Some(args.remove(0).parse::<PcsKind>().unwrap()),
        _ => None,
    };
    let ks: Vec<usize> = args
        .iter()
        .map(|a| a.parse().expect("k is a number"))
        .collect();
    let ks = if ks.is_empty() { vec![10] } else { ks };
    let mode = scheme.map_or("public", PcsKind::name);
    println!("io  count  commit_s  prove_s  perms_per_s  verify_s  proof_bytes  soundness_bits");
    for k in ks {
        let count = 1usize << k;
        let setup = BooleanGkr::<_>::new(KeccakF1600::new(), vec![k]);
        // Deterministic inputs: a splitmix64 stream.
        let mut s = 0x9e37_79b9_7f4a_7c15u64 ^ count as u64;
        let inputs: Vec<u64> = (0..25 * count)
            .map(|_| {
                s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        let variant = Variant::Ragged;
        let (commit, prove, verify, bytes, bits) = match scheme {
            None => {
                let statement = setup.statement(inputs);
                let (prove, proof) =
                    median(|| setup.prove(variant, &statement).expect("statement fits"));
                let start = Instant::now();
                setup
                    .verify(variant, &statement, &proof)
                    .expect("honest proof verifies");
                let verify = start.elapsed().as_secs_f64();
                (
                    0.0,
                    prove,
                    verify,
                    proof.len(),
                    setup.soundness_bits(variant),
                )
            }
            Some(kind) => {
                let dense =
                    Commitment::for_bits(kind, setup.io_bit_vars(), 100, &Profile::default())
                        .expect("a commitment at this size");
                let pcs_bits = dense.security_report().bits();
                let pcs = RingSwitched::new(dense);
                let (commit, (commitment, data)) =
                    median(|| setup.commit_io(&pcs, &inputs).expect("inputs fit"));
                let (prove, proof) = median(|| {
                    setup
                        .prove_io(variant, &pcs, &commitment, &data, &inputs)
                        .expect("inputs fit")
                });
                let start = Instant::now();
                setup
                    .verify_io(variant, &pcs, &commitment, &proof)
                    .expect("honest proof verifies");
                let verify = start.elapsed().as_secs_f64();
                let bits = setup.io_soundness_bits(variant, pcs_bits);
                (commit, prove, verify, proof.len(), bits)
            }
        };
        println!(
            "{mode}  {count}  {commit:.3}  {prove:.3}  {:.0}  {verify:.4}  {bytes}  {bits:.1}",
            count as f64 / (commit + prove),
        );
    }
}
