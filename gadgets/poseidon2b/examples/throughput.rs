//! Single-thread throughput of the official permutations (a quick `--release` measurement,
//! not a benchmark harness):
//!
//! ```text
//! cargo run --release -p flockwork-poseidon2b --example throughput
//! ```
//!
//! Rates are per second of this thread's CPU time (Linux `/proc/thread-self/schedstat`) when
//! available, so a busy machine does not distort them, and per wall-clock second otherwise.

use std::hint::black_box;
use std::time::{Duration, Instant};

use flockwork_field_binary::arch::Backend;
use flockwork_poseidon2b::{Ghash128, Poseidon2b, Poseidon2bField, official_t4, official_t6};

/// Nanoseconds this thread has spent on a CPU, if the kernel reports it.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` (which permutes `per_call` states) for about `budget`, returns (permutations per
/// CPU second or wall second, whether CPU time was used).
fn rate(per_call: usize, budget: Duration, mut f: impl FnMut()) -> (f64, bool) {
    f(); // warm up (and build the cached constants)
    let (start, cpu_start) = (Instant::now(), cpu_ns());
    let mut calls = 0u64;
    while start.elapsed() < budget {
        for _ in 0..16 {
            f();
        }
        calls += 16;
    }
    let wall = start.elapsed().as_secs_f64();
    let perms = calls as f64 * per_call as f64;
    match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) if b > a => (perms / ((b - a) as f64 * 1e-9), true),
        _ => (perms / wall, false),
    }
}

fn report<F: Poseidon2bField, const T: usize>(perm: &Poseidon2b<F, T>, seed: impl Fn(usize) -> F) {
    let budget = Duration::from_millis(1000);
    let mut state: [F; T] = core::array::from_fn(&seed);
    let (single, cpu) = rate(1, budget, || perm.permute(black_box(&mut state)));
    let mut batch: Vec<[F; T]> = (0..1024)
        .map(|i| core::array::from_fn(|j| seed(i * T + j)))
        .collect();
    let (many, _) = rate(batch.len(), budget, || {
        perm.permute_many(black_box(&mut batch))
    });
    let mut four: [[F; T]; 4] = core::array::from_fn(|i| batch[i]);
    let (inter, _) = rate(4, budget, || perm.permute_interleaved(black_box(&mut four)));
    println!(
        "t = {T} ({}): permute {:>9.0}/s ({:.2} µs)  permute_interleaved::<4> {:>9.0}/s  permute_many(1024) {:>9.0}/s ({:.2} µs)",
        if cpu {
            "per CPU second"
        } else {
            "per wall second"
        },
        single,
        1e6 / single,
        inter,
        many,
        1e6 / many
    );
}

fn main() {
    println!("GHASH backend: {}", Backend::active());
    let seed = |i: usize| Ghash128::new(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834 ^ i as u128);
    report(official_t4(), seed);
    report(official_t6(), seed);
}
