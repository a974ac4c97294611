//! Sumcheck prover throughput per field: Σ_x eq(r, x)·P0(x)·P1(x)·P2(x) over 2^16 points.
//!
//! `cargo bench --bench sumcheck`; `SUMCHECK_VARS=20 cargo bench --bench sumcheck` for a
//! larger statement.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use flockwork::prelude::*;
use flockwork_testkit::seeded_vec;

fn num_vars() -> usize {
    std::env::var("SUMCHECK_VARS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

fn bench_field<F: Field>(c: &mut Criterion, name: &str) {
    let n = num_vars();
    let polys: Vec<MultilinearPoly<F>> = (0..3)
        .map(|j| MultilinearPoly::new(seeded_vec(j, 1 << n)))
        .collect();
    let r: Vec<F> = seeded_vec(99, n);
    let claim: F = eq_table(&r)
        .iter()
        .enumerate()
        .map(|(x, &w)| w * polys.iter().map(|p| p.evals()[x]).product::<F>())
        .sum();
    let mut group = c.benchmark_group("sumcheck/prove");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(1 << n));
    group.bench_function(BenchmarkId::new(name, n), |b| {
        b.iter(|| {
            let mut transcript =
                Sha256ProverTranscript::new(DomainSeparator::new("bench/sumcheck", b""));
            prove(polys.clone(), Some(&r), claim, &mut transcript)
        });
    });
    group.finish();
}

fn bench_sumcheck(c: &mut Criterion) {
    bench_field::<Ghash128>(c, "ghash");
    bench_field::<Tower128>(c, "tower");
    bench_field::<Ghash256>(c, "ghash256");
    bench_field::<Goldilocks>(c, "goldilocks");
    bench_field::<Bn254Fr>(c, "bn254");
}

criterion_group!(benches, bench_sumcheck);
criterion_main!(benches);
