//! Interleaved Reed–Solomon encoding over GF(2^128) with the additive NTT: Ligerito's level-0
//! shapes (`2^rows` message rows of `2^log_cols` columns, rate ½ and ¼), 1 and 2 threads.
//!
//! `cargo bench --bench ntt`; `NTT_BENCH_LOG_ELEMS=23` for the 2^30-bit witness size.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use flockwork_codes::ReedSolomon;
use flockwork_field_binary::Ghash128;
use flockwork_testkit::seeded_vec;

fn log_elems() -> usize {
    std::env::var("NTT_BENCH_LOG_ELEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

fn bench_encode(c: &mut Criterion) {
    let log_elems = log_elems();
    let log_cols = 6;
    let message: Vec<Ghash128> = seeded_vec(7, 1 << log_elems);
    for log_inv_rate in [1usize, 2] {
        let code = ReedSolomon::<Ghash128>::new(log_elems - log_cols, log_inv_rate);
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool");
            let mut group =
                c.benchmark_group(format!("ntt/rs-encode/rate-2^-{log_inv_rate}/{threads}t"));
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(3));
            group.throughput(Throughput::Elements(1 << log_elems));
            group.bench_function(BenchmarkId::new("ghash", log_elems), |b| {
                b.iter(|| pool.install(|| code.encode(&message, 1 << log_cols)));
            });
            group.finish();
        }
    }
}

criterion_group!(benches, bench_encode);
criterion_main!(benches);
