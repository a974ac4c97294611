//! Prime-field arithmetic throughput: the specialised Goldilocks `u64` backend, the ark
//! adapter over Goldilocks / BN254 / BLS12-381, and plain `ark_bn254::Fr` as the peer
//! baseline that shows the adapter adds no overhead.
//!
//! Multiplication is measured on a **vector of independent products** `out[i] = x[i] · y[i]`
//! (`N = 1024` pairs per iteration), i.e. throughput, not latency: the CPU may overlap
//! consecutive products. Inversion is measured the same way on 64 independent inputs.
//!
//! ```text
//! cargo bench --bench prime_fields -- --warm-up-time 1 --measurement-time 2
//! ```

use std::hint::black_box;
use std::ops::Mul;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use flockwork_field::Field;
use flockwork_field_prime::{Bls12_381Fr, Bn254Fr, Goldilocks, GoldilocksArk};
use flockwork_testkit::seeded_vec;

/// Products per multiplication iteration.
const MUL_BATCH: usize = 1024;
/// Inversions per inversion iteration.
const INV_BATCH: usize = 64;

/// Throughput of `out[i] = xs[i] * ys[i]` for any multiplicable `Copy` type.
fn mul_throughput<T: Copy + Mul<Output = T>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    xs: &[T],
    ys: &[T],
) {
    let mut out = xs.to_vec();
    group.bench_function(name, |b| {
        b.iter(|| {
            let (xs, ys) = black_box((xs, ys));
            for ((o, &x), &y) in out.iter_mut().zip(xs).zip(ys) {
                *o = x * y;
            }
            black_box(&mut out);
        });
    });
}

fn multiply(c: &mut Criterion) {
    let mut group = c.benchmark_group("prime_fields/mul");
    group.throughput(Throughput::Elements(MUL_BATCH as u64));

    let (x, y) = (
        seeded_vec::<Goldilocks>(1, MUL_BATCH),
        seeded_vec::<Goldilocks>(2, MUL_BATCH),
    );
    mul_throughput(&mut group, "goldilocks_u64", &x, &y);

    let (x, y) = (
        seeded_vec::<GoldilocksArk>(1, MUL_BATCH),
        seeded_vec::<GoldilocksArk>(2, MUL_BATCH),
    );
    mul_throughput(&mut group, "goldilocks_ark", &x, &y);

    let (x, y) = (
        seeded_vec::<Bn254Fr>(1, MUL_BATCH),
        seeded_vec::<Bn254Fr>(2, MUL_BATCH),
    );
    mul_throughput(&mut group, "bn254_fr_adapter", &x, &y);
    // The same values as raw `ark_bn254::Fr`: the peer baseline.
    let raw_x: Vec<_> = x.iter().map(|v| v.into_inner()).collect();
    let raw_y: Vec<_> = y.iter().map(|v| v.into_inner()).collect();
    mul_throughput(&mut group, "bn254_fr_plain_ark", &raw_x, &raw_y);

    let (x, y) = (
        seeded_vec::<Bls12_381Fr>(1, MUL_BATCH),
        seeded_vec::<Bls12_381Fr>(2, MUL_BATCH),
    );
    mul_throughput(&mut group, "bls12_381_fr_adapter", &x, &y);
    group.finish();
}

/// Throughput of `Field::inverse` over `INV_BATCH` independent nonzero inputs.
fn inverse_throughput<F: Field>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
    let xs = seeded_vec::<F>(3, INV_BATCH);
    let mut out = xs.clone();
    group.bench_function(name, |b| {
        b.iter(|| {
            for (o, x) in out.iter_mut().zip(black_box(&xs)) {
                *o = x.inverse().unwrap_or(F::ZERO);
            }
            black_box(&mut out);
        });
    });
}

fn invert(c: &mut Criterion) {
    let mut group = c.benchmark_group("prime_fields/inverse");
    group.throughput(Throughput::Elements(INV_BATCH as u64));
    inverse_throughput::<Goldilocks>(&mut group, "goldilocks_u64");
    inverse_throughput::<GoldilocksArk>(&mut group, "goldilocks_ark");
    inverse_throughput::<Bn254Fr>(&mut group, "bn254_fr_adapter");
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    targets = multiply, invert
}
criterion_main!(benches);
