//! `MultilinearPoly::evaluate` and `eq_inner_product` against ark-poly's
//! `DenseMultilinearExtension::evaluate` over BN254 Fr, interleaved over several rounds; prints
//! the median time of each. ark-poly is built without its `parallel` feature, so run with
//! `RAYON_NUM_THREADS=1` for a like-for-like single-thread comparison.
//!
//! `cargo run --release -p flockwork-core --example multilinear_vs_ark_poly [num_vars …]`

use std::time::{Duration, Instant};

use ark_poly::{DenseMultilinearExtension, Polynomial};
use flockwork_core::{MultilinearPoly, eq_inner_product};
use flockwork_field_prime::Bn254Fr;

const ROUNDS: usize = 7;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    std::hint::black_box(f());
    start.elapsed()
}

fn main() {
    let vars: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("num_vars"))
        .collect();
    let vars = if vars.is_empty() {
        vec![12, 16, 20]
    } else {
        vars
    };
    for &num_vars in &vars {
        let evals: Vec<Bn254Fr> = flockwork_testkit::seeded_vec(1, 1 << num_vars);
        let point: Vec<Bn254Fr> = flockwork_testkit::seeded_vec(2, num_vars);
        let poly = MultilinearPoly::new(evals.clone());
        let reference = DenseMultilinearExtension::from_evaluations_vec(
            num_vars,
            evals.iter().map(|x| x.0).collect(),
        );
        let ark_point: Vec<_> = point.iter().map(|x| x.0).collect();
        let (mut fold, mut eq, mut ark) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            fold.push(time(|| poly.evaluate(&point)));
            eq.push(time(|| eq_inner_product(&evals, &point)));
            ark.push(time(|| reference.evaluate(&ark_point)));
        }
        let (f, e, a) = (median(fold), median(eq), median(ark));
        println!(
            "BN254 {num_vars:>2} vars  evaluate {f:>10.2?}  eq_inner_product {e:>10.2?}  ark-poly {a:>10.2?}  ratio ark/evaluate {:.2}",
            a.as_secs_f64() / f.as_secs_f64()
        );
    }
}
