//! Batch witness generation of the Boolean hash circuits vs portable native hashing.
//!
//! For each hash: native single-core throughput (our portable scalar code, no SHA-NI), and
//! bit-sliced batch witness generation (`z` only) with 1 and 2 rayon threads, all in
//! instances per second (criterion's `Throughput::Elements`). The ratio
//! `native / witness(1 thread)` is the overhead the issue bounds at 10x.
//!
//! `cargo bench --bench boolean`; `BOOLEAN_BENCH_K` sets the batch size (default 1024).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{Gadget, SlotKind, batch_witness};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn batch_size() -> usize {
    std::env::var("BOOLEAN_BENCH_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024)
}

fn random_words(n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..n).map(|_| rng.random()).collect()
}

/// Witness generation with 1 and 2 threads for `k` random instances.
fn bench_witness<G: Gadget>(c: &mut Criterion, name: &str, gadget: &G, k: usize) {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let inputs = random_words(k * words);
    let mut group = c.benchmark_group(format!("boolean/{name}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(k as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        group.bench_with_input(
            BenchmarkId::new("witness_threads", threads),
            &threads,
            |b, _| {
                b.iter(|| pool.install(|| black_box(batch_witness(gadget, &inputs, false))));
            },
        );
    }
    group.finish();
}

/// Native single-core hashing of `k` instances.
fn bench_native(c: &mut Criterion, name: &str, k: usize, mut hash: impl FnMut(usize)) {
    let mut group = c.benchmark_group(format!("boolean/{name}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(k as u64));
    group.bench_function("native", |b| b.iter(|| (0..k).for_each(&mut hash)));
    group.finish();
}

fn sha256(c: &mut Criterion) {
    let k = batch_size();
    let blocks: Vec<[u8; 64]> = (0..k).map(|i| [i as u8; 64]).collect();
    let mut state = [0u32; 8];
    bench_native(c, "sha256", k, |i| {
        sha256_compress(black_box(&mut state), &blocks[i])
    });
    bench_witness(c, "sha256", &Sha256Compress, k);
}

fn blake3(c: &mut Criterion) {
    let k = batch_size();
    let cv = [1u32; 8];
    let block = [2u32; 16];
    bench_native(c, "blake3", k, |i| {
        black_box(blake3_compress(black_box(&cv), &block, i as u64, 64, 0));
    });
    bench_witness(c, "blake3", &Blake3Compress, k);
}

fn keccak(c: &mut Criterion) {
    let k = batch_size();
    let mut state = [3u64; 25];
    bench_native(c, "keccak", k, |_| keccak_f1600(black_box(&mut state)));
    bench_witness(c, "keccak", &KeccakF1600::new(), k);
}

criterion_group!(benches, sha256, blake3, keccak);
criterion_main!(benches);
