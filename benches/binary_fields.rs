//! Binary-field arithmetic throughput outside the GHASH SIMD kernels: the Wiedemann /
//! Fan–Paar tower (`Tower8`, `Tower128`), AES GF(2^8), GHASH × embedded byte (`phi8` lookup
//! then a product, and the `ByteMulTable` single-lookup path), the tower ↔ GHASH
//! isomorphism, and GF(2^256) = GHASH[Y]/(Y^2 + Y + x^121).
//!
//! Every benchmark maps a vector of `N = 1024` independent inputs per iteration
//! (throughput, not latency), reported per element.
//!
//! ```text
//! cargo bench --bench binary_fields -- --warm-up-time 1 --measurement-time 2
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flockwork_field::Field;
use flockwork_field_binary::iso::{ghash_to_tower, tower_mul_via_ghash, tower_to_ghash};
use flockwork_field_binary::{
    Aes8, AesTower128, ByteMulTable, Ghash128, Ghash256, Tower8, Tower128, phi8,
};
use flockwork_testkit::seeded_vec;

/// Elements per iteration.
const N: usize = 1024;

/// Benchmarks `out[i] = op(x[i], y[i])` over `N` random pairs as `group/name`.
fn bench_binary<X: Field, Y: Field, O: Copy + Default>(
    c: &mut Criterion,
    name: &str,
    op: impl Fn(X, Y) -> O,
) {
    let (xs, ys) = (seeded_vec::<X>(1, N), seeded_vec::<Y>(2, N));
    let mut out = vec![O::default(); N];
    let mut group = c.benchmark_group("binary_fields");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(N as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            for ((o, x), y) in out.iter_mut().zip(black_box(&xs)).zip(black_box(&ys)) {
                *o = op(*x, *y);
            }
            black_box(&out);
        });
    });
    group.finish();
}

fn multiplications(c: &mut Criterion) {
    bench_binary(c, "tower8_mul", |x: Tower8, y: Tower8| x * y);
    bench_binary(c, "aes8_mul", |x: Aes8, y: Aes8| x * y);
    bench_binary(c, "tower128_mul", |x: Tower128, y: Tower128| x * y);
    bench_binary(c, "tower128_x_tower8", |x: Tower128, y: Tower8| x * y);
    bench_binary(c, "aes_tower128_mul", |x: AesTower128, y: AesTower128| {
        x * y
    });
    bench_binary(c, "ghash128_mul", |x: Ghash128, y: Ghash128| x * y);
    bench_binary(c, "ghash256_mul", |x: Ghash256, y: Ghash256| x * y);
    bench_binary(c, "ghash256_x_ghash128", |x: Ghash256, y: Ghash128| x * y);
    bench_binary(c, "tower128_inverse", |x: Tower128, _: Tower8| {
        x.invert_or_zero()
    });
}

fn embedded_bytes(c: &mut Criterion) {
    bench_binary(c, "ghash_x_byte_phi8_then_mul", |x: Ghash128, b: Aes8| {
        x * b
    });
    bench_binary(c, "phi8", |_: Tower8, b: Aes8| phi8(b));
    // The hot-loop shape: one fixed GHASH factor times many bytes.
    let table = ByteMulTable::new(Ghash128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210));
    bench_binary(c, "ghash_x_byte_table", |_: Tower8, b: Aes8| table.mul(b));
    bench_binary(c, "byte_mul_table_build", |g: Ghash128, _: Aes8| {
        ByteMulTable::new(g).mul(Aes8(0x53))
    });
}

fn isomorphism(c: &mut Criterion) {
    bench_binary(c, "iso_tower_to_ghash", |t: Tower128, _: Tower8| {
        tower_to_ghash(t)
    });
    bench_binary(c, "iso_ghash_to_tower", |g: Ghash128, _: Tower8| {
        ghash_to_tower(g)
    });
    bench_binary(c, "tower128_mul_via_ghash", |x: Tower128, y: Tower128| {
        tower_mul_via_ghash(x, y)
    });
}

criterion_group!(benches, multiplications, embedded_bytes, isomorphism);
criterion_main!(benches);
