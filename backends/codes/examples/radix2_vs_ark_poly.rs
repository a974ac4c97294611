//! `Radix2Ntt::forward_bit_reversed` against ark-poly's `Radix2EvaluationDomain::fft_in_place`
//! on one column (BN254 Fr and Goldilocks through ark-ff), interleaved over several rounds;
//! prints the median time of each. ark-poly is built without its `parallel` feature, so run
//! with `RAYON_NUM_THREADS=1` for a like-for-like single-thread comparison. ark's transform
//! also permutes its output to natural order; flockwork's stays bit-reversed.
//!
//! `cargo run --release -p flockwork-codes --example radix2_vs_ark_poly [log_len …]`

use std::time::{Duration, Instant};

use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use flockwork_codes::Radix2Ntt;
use flockwork_field_prime::{Ark, GoldilocksFp};

const ROUNDS: usize = 7;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn compare<F: ark_ff::PrimeField>(name: &str, log_len: usize) {
    let n = 1usize << log_len;
    let ntt = Radix2Ntt::<Ark<F>>::new(log_len);
    let domain = Radix2EvaluationDomain::<F>::new(n).expect("subgroup");
    let input: Vec<Ark<F>> = flockwork_testkit::seeded_vec(log_len as u64, n);
    let ark_input: Vec<F> = input.iter().map(|x| x.0).collect();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let mut data = input.clone();
        let start = Instant::now();
        ntt.forward_bit_reversed(&mut data, 1);
        ours.push(start.elapsed());
        std::hint::black_box(&data);

        let mut data = ark_input.clone();
        let start = Instant::now();
        domain.fft_in_place(&mut data);
        theirs.push(start.elapsed());
        std::hint::black_box(&data);
    }
    let (a, b) = (median(ours), median(theirs));
    println!(
        "{name:<10} 2^{log_len:<2}  Radix2Ntt {a:>10.2?}  ark-poly {b:>10.2?}  ratio ark/ours {:.2}",
        b.as_secs_f64() / a.as_secs_f64()
    );
}

fn main() {
    let logs: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("log_len"))
        .collect();
    let logs = if logs.is_empty() {
        vec![12, 16, 20]
    } else {
        logs
    };
    for &log_len in &logs {
        compare::<ark_bn254::Fr>("BN254", log_len);
        compare::<GoldilocksFp>("Goldilocks", log_len);
    }
}
