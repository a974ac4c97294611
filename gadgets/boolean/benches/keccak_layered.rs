//! Keccak-f\[1600\] through its Boolean layers (bit-sliced, the witness generation of a GKR
//! prover on packed bits) against the `keccak` crate, in permutations per second.
//!
//! * `keccak_crate`: `keccak::Keccak::with_f1600` on each state, one thread;
//! * `evaluate_u64` / `evaluate_u128`: [`BooleanLayered::evaluate_packed`] on packed states
//!   (64 or 128 instances a word), the output only, with 1 and 2 rayon threads;
//! * `trace_u128`: [`BooleanLayered::trace_packed`], all 25 states, with 1 and 2 threads;
//! * `pack_evaluate_unpack`: from `[u64; 25]` states to `[u64; 25]` states (the bit-slicing
//!   transposes included), 128 a word, one thread.
//!
//! `cargo bench -p flockwork-boolean --bench keccak_layered`; `KECCAK_LAYERED_LOG_N` sets the
//! batch, `2^14` permutations by default.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use flockwork_boolean::KeccakF1600;
use flockwork_core::boolean_layered::{
    BooleanLayered, PackedBits, pack_instances, unpack_instances,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn log_n() -> usize {
    std::env::var("KECCAK_LAYERED_LOG_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(14)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

fn packed_group<T: PackedBits>(
    c: &mut Criterion,
    layers: &BooleanLayered,
    words: &[u64],
    n: usize,
    name: &str,
) {
    let packed = pack_instances::<T>(1600, words, n);
    let mut group = c.benchmark_group("keccak_layered");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    for threads in [1, 2] {
        let pool = pool(threads);
        group.bench_with_input(
            BenchmarkId::new(format!("evaluate_{name}"), threads),
            &threads,
            |b, _| b.iter(|| pool.install(|| black_box(layers.evaluate_packed(&packed)))),
        );
        if T::INSTANCES == 128 {
            group.bench_with_input(
                BenchmarkId::new(format!("trace_{name}"), threads),
                &threads,
                |b, _| b.iter(|| pool.install(|| black_box(layers.trace_packed(&packed)))),
            );
        }
    }
    group.finish();
}

fn keccak_layered(c: &mut Criterion) {
    let n = 1usize << log_n();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let states: Vec<[u64; 25]> = (0..n).map(|_| rng.random()).collect();
    let words = states.concat();
    let layers = KeccakF1600::new().boolean_layers();

    let mut group = c.benchmark_group("keccak_layered");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    let backend = keccak::Keccak::new();
    let mut work = states.clone();
    group.bench_function("keccak_crate", |b| {
        b.iter(|| {
            backend.with_f1600(|f| work.iter_mut().for_each(|s| f(black_box(s))));
        });
    });
    let single = pool(1);
    group.bench_function("pack_evaluate_unpack", |b| {
        b.iter(|| {
            single.install(|| {
                let packed = pack_instances::<u128>(1600, &words, n);
                black_box(unpack_instances(1600, &layers.evaluate_packed(&packed), n))
            })
        });
    });
    group.finish();

    packed_group::<u64>(c, layers, &words, n, "u64");
    packed_group::<u128>(c, layers, &words, n, "u128");
}

criterion_group!(benches, keccak_layered);
criterion_main!(benches);
