//! GF(2^128) (GHASH polynomial) multiplication throughput, per kernel and backend.
//!
//! Every benchmark multiplies `N = 4096` independent pairs per iteration (throughput, not
//! latency) and reports products per second:
//!
//! * `scalar/portable` — `arch::portable::mul`, the integer-only twin;
//! * `scalar/dispatched` — `Ghash128 * Ghash128` (PCLMULQDQ/PMULL when present);
//! * `packed/<backend>` — `PackedGhash128x4 * PackedGhash128x4` with that backend active;
//! * `slice/<backend>` — `arch::mul_slices_with` over the whole vector;
//! * `scale/<backend>` — `arch::mul_assign_scalar_with` (one fixed factor);
//! * `dot/<backend>` — `arch::dot_with`, unreduced accumulation and one reduction.
//!
//! ```text
//! cargo bench --bench ghash -- --warm-up-time 1 --measurement-time 2
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flockwork_field_binary::arch::{self, Backend};
use flockwork_field_binary::ghash::PackedGhash128x4;
use flockwork_field_binary::{Ghash128, arch::portable};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Products per iteration.
const N: usize = 4096;

fn random_bits(n: usize, seed: u64) -> Vec<u128> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.random()).collect()
}

fn backends() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect()
}

fn bench_ghash(c: &mut Criterion) {
    let x = random_bits(N, 1);
    let y = random_bits(N, 2);
    let xg: Vec<Ghash128> = x.iter().map(|&v| Ghash128(v)).collect();
    let yg: Vec<Ghash128> = y.iter().map(|&v| Ghash128(v)).collect();
    let xp: Vec<PackedGhash128x4> = x
        .chunks_exact(4)
        .map(|c| PackedGhash128x4([c[0], c[1], c[2], c[3]]))
        .collect();
    let yp: Vec<PackedGhash128x4> = y
        .chunks_exact(4)
        .map(|c| PackedGhash128x4([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = vec![0u128; N];
    let mut outg = vec![Ghash128(0); N];
    let mut outp = vec![PackedGhash128x4::default(); N / 4];

    let mut g = c.benchmark_group("ghash");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(N as u64));

    g.bench_function("scalar/portable", |b| {
        b.iter(|| {
            for ((o, &a), &c) in out.iter_mut().zip(&x).zip(&y) {
                *o = portable::mul(a, c);
            }
            black_box(&mut out);
        });
    });
    println!("detected backend: {}", Backend::detect());
    g.bench_function("scalar/dispatched", |b| {
        b.iter(|| {
            for ((o, &a), &c) in outg.iter_mut().zip(&xg).zip(&yg) {
                *o = a * c;
            }
            black_box(&mut outg);
        });
    });

    for backend in backends() {
        backend.set_active();
        g.bench_function(format!("packed/{backend}"), |b| {
            b.iter(|| {
                for ((o, &a), &c) in outp.iter_mut().zip(&xp).zip(&yp) {
                    *o = a * c;
                }
                black_box(&mut outp);
            });
        });
    }
    Backend::detect().set_active();

    for backend in backends() {
        g.bench_function(format!("slice/{backend}"), |b| {
            b.iter(|| {
                arch::mul_slices_with(backend, &mut out, black_box(&x), black_box(&y));
                black_box(&mut out);
            });
        });
    }
    for backend in backends() {
        let mut v = x.clone();
        g.bench_function(format!("scale/{backend}"), |b| {
            b.iter(|| {
                arch::mul_assign_scalar_with(backend, &mut v, black_box(y[0]));
                black_box(&mut v);
            });
        });
    }
    for backend in backends() {
        g.bench_function(format!("dot/{backend}"), |b| {
            b.iter(|| black_box(arch::dot_with(backend, black_box(&x), black_box(&y))));
        });
    }
    g.finish();
}

criterion_group!(benches, bench_ghash);
criterion_main!(benches);
