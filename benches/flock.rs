//! The batch-R1CS (Flock) prover and verifier on hash chains, next to native hashing.
//!
//! For each hash: native single-core throughput (portable scalar code), then the full prover
//! (witness generation included) with 1 and 2 rayon threads and the verifier, all in
//! compressions per second (criterion's `Throughput::Elements`). The ratio
//! `native / prover(1 thread)` is the overhead the Flock paper reports (170× SHA-256,
//! 245× Keccak-f, 224× BLAKE3 on its hardware).
//!
//! `cargo bench --bench flock`; `FLOCK_BENCH_LOG_K` sets `k` (default 10): each hash proves the
//! chain `flockwork prove --hash <hash> --count 2^k` proves, the same shape (SHA-256 and BLAKE3
//! one per block, 2^k of them; Keccak-f three per block, 3 · 2^(k−1) in all) through the same
//! library calls, so the two measure the same work.
//! Proof size, the prover's memory estimate and the process's peak memory so far go to
//! stderr; the phase breakdown and a per-run peak: `flockwork prove`. Like the tool and the
//! examples, the benchmark keeps freed memory mapped for reuse (`flockwork::allocator`).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use flockwork::flock::{BatchShape, HashGadget, HashKind, IoKind, flock_for};
use flockwork_boolean::io::{chain_witness, wide_chain};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, sha256_compress};
use flockwork_boolean::{Blake3Block, Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_r1cs::FlockConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn log_k() -> usize {
    std::env::var("FLOCK_BENCH_LOG_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10)
}

/// The chain `flockwork prove --hash <hash> --count <count> --reps N` proves, through the
/// library alone: the same shape ([`BatchShape::for_count`], e.g. three Keccak-f per block),
/// setup ([`flock_for`]), witness generation and prover, so the two measure the same work.
fn bench_chain<G: HashGadget + Clone + Send + Sync>(
    c: &mut Criterion,
    hash: HashKind,
    gadget: G,
    init: G::State,
    data: &[G::Data],
    mut native: impl FnMut(usize, &mut G::State),
) where
    G::State: Send + Sync,
    G::Data: Clone + Sync,
{
    let shape = BatchShape::for_count(hash, IoKind::Chain, data.len());
    let n = shape.block_instances();
    assert_eq!(n, data.len(), "one datum per instance of the shape");
    let mut group = c.benchmark_group(format!("flock/{}", hash.name()));
    group.sample_size(10);
    group.throughput(criterion::Throughput::Elements(n as u64));
    group.bench_function(BenchmarkId::new("native-1-thread", n), |b| {
        b.iter(|| {
            let mut s = init;
            for i in 0..n {
                native(i, &mut s);
            }
            black_box(s)
        });
    });
    let wide = wide_chain(gadget, shape.copies);
    let blocks: Vec<Vec<G::Data>> = data.chunks(shape.copies).map(<[_]>::to_vec).collect();
    let flock =
        flock_for(wide, shape.blocks, IoKind::Chain, FlockConfig::default()).expect("setup");
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        group.bench_function(
            BenchmarkId::new(format!("prove-{threads}-thread"), n),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        let chain = chain_witness(flock.gadget(), init, &blocks, true);
                        let statement = flock.chain_statement(&chain.witness).expect("shape");
                        black_box(
                            flock
                                .prove_witness_owned(chain.witness, &statement)
                                .expect("prove"),
                        )
                    })
                });
            },
        );
    }
    let chain = chain_witness(flock.gadget(), init, &blocks, true);
    let statement = flock.chain_statement(&chain.witness).expect("shape");
    let (proof, _) = flock
        .prove_witness(&chain.witness, &statement)
        .expect("prove");
    group.throughput(Throughput::Elements(1));
    group.bench_function(BenchmarkId::new("verify", n), |b| {
        b.iter(|| flock.verify(&statement, proof.as_bytes()).expect("verify"));
    });
    group.finish();
    eprintln!(
        "{} × {n} ({} per block, {} blocks): proof {} bytes, estimated prover peak {} MiB, \
         process peak so far {} MiB",
        hash.name(),
        shape.copies,
        shape.blocks,
        proof.len(),
        flock.estimated_prover_bytes() >> 20,
        peak_mib().map_or("?".into(), |m| m.to_string())
    );
}

/// Peak resident memory of the process so far, in whole MiB.
fn peak_mib() -> Option<u64> {
    flockwork::memory::peak_resident_mib().map(|mib| mib as u64)
}

fn benches(c: &mut Criterion) {
    // The one process setting the provers want, as the `flockwork` tool and the examples make
    // it: freed phase buffers stay mapped for the next phase (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    let count = 1usize << log_k();
    // Whole blocks: a Keccak-f chain of 2^k steps in blocks of three is the next multiple of
    // three (the tool proves the same blocks and recomputes the overhang's end natively).
    let instances = |hash| BatchShape::for_count(hash, IoKind::Chain, count).block_instances();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let blocks: Vec<[u8; 64]> = (0..instances(HashKind::Sha256))
        .map(|_| rng.random())
        .collect();
    bench_chain(
        c,
        HashKind::Sha256,
        Sha256Compress,
        [0x6a09_e667; 8],
        &blocks,
        |i, s| sha256_compress(s, &blocks[i]),
    );
    bench_chain(
        c,
        HashKind::Keccak,
        KeccakF1600::new(),
        rng.random(),
        &vec![(); instances(HashKind::Keccak)],
        |_, s| keccak_f1600(s),
    );
    let b3: Vec<Blake3Block> = (0..instances(HashKind::Blake3) as u64)
        .map(|i| Blake3Block {
            words: rng.random(),
            counter: i,
            block_len: 64,
            flags: 0,
        })
        .collect();
    bench_chain(
        c,
        HashKind::Blake3,
        Blake3Compress,
        [0x1234_5678; 8],
        &b3,
        |i, s| {
            let d = &b3[i];
            let out = blake3_compress(s, &d.words, d.counter, d.block_len, d.flags);
            s.copy_from_slice(&out[..8]);
        },
    );
}

/// The zerocheck's round-1 kernel on one 128-row group of random rows, with every kernel this
/// CPU runs (`flock-kernel/round1/<kernel>`; 128 rows per iteration).
fn kernels(c: &mut Criterion) {
    use flockwork_r1cs::kernels::{ConvertTable, GROUP_ROWS, Kernel, LdeTable, group_sums_with};
    let lde = LdeTable::new();
    let conv = ConvertTable::new();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut rows = || -> Vec<u64> { (0..GROUP_ROWS).map(|_| rng.random()).collect() };
    let (a, b, z) = (rows(), rows(), rows());
    let mut group = c.benchmark_group("flock-kernel/round1");
    group.throughput(Throughput::Elements(GROUP_ROWS as u64));
    for kernel in [Kernel::Portable, Kernel::Avx2, Kernel::Gfni] {
        if kernel.is_available() {
            group.bench_function(kernel.name(), |bench| {
                bench.iter(|| group_sums_with(kernel, &lde, &conv, black_box(&a), &b, &z));
            });
        }
    }
    group.finish();
}

criterion_group!(flock, kernels, benches);
criterion_main!(flock);
