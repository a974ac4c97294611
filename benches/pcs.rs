//! Every polynomial commitment on Boolean polynomials through ring-switching, at 100 bits:
//! Ligerito (fast preset, Johnson regime), FRI-Binius (rate ½, unique decoding) and the
//! Blaze-style RAA commitment (rate ¼ level 0). Commit,
//! open and verify with 1 and 2 threads; proof size and peak memory go to stderr.
//!
//! `cargo bench --bench pcs` runs 2^24 and 2^28 bits; `PCS_BENCH_LOG_BITS=24,27,30` picks the
//! sizes, `PCS_BENCH_PCS=ligerito,fri,blaze` the schemes, `PCS_BENCH_PRESET=slim` Ligerito's slim
//! preset. Peak memory is the process's high-water mark so far (run one scheme and size per
//! process for a per-scheme figure, or use `flockwork compare pcs`).

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use flockwork_core::{Claim, PolynomialCommitment};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::ring_switch::{RingSwitched, evaluate_packed};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind, Preset, Profile};
use flockwork_testkit::seeded_vec;
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    Transcript, VerifierTranscript,
};

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("bench/pcs", b"");

fn sizes() -> Vec<usize> {
    std::env::var("PCS_BENCH_LOG_BITS")
        .unwrap_or_else(|_| "24,28".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

fn preset() -> Preset {
    match std::env::var("PCS_BENCH_PRESET").as_deref() {
        Ok("slim") => Preset::Slim,
        _ => Preset::Fast,
    }
}

/// Peak resident memory of the process so far, in whole MiB.
fn peak_mib() -> Option<u64> {
    flockwork::memory::peak_resident_mib().map(|mib| mib as u64)
}

/// A random Boolean polynomial of 2^log_bits bits and two evaluation claims on it.
fn statement(log_bits: usize) -> (Vec<u128>, Vec<Claim<Ghash128>>) {
    let words: Vec<u128> = seeded_vec::<Ghash128>(1, 1 << (log_bits - 7))
        .into_iter()
        .map(|x| x.to_bits())
        .collect();
    let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
    let claims = (0..2)
        .map(|i| {
            let r: Vec<Ghash128> = seeded_vec(10 + i, log_bits);
            let value = evaluate_packed(&packed, &r);
            Claim::evaluation(r, value)
        })
        .collect();
    (words, claims)
}

fn prove<P: ConfiguredCommitment<Ghash128, Commitment = Vec<u8>>>(
    pcs: &RingSwitched<P>,
    words: &[u128],
    claims: &[Claim<Ghash128>],
) -> (Vec<u8>, Vec<u8>) {
    let (root, data) = pcs.commit(words);
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    transcript.public_bytes("root", &root);
    pcs.open(&data, claims, &mut transcript);
    (root, transcript.into_proof())
}

fn verify<P: ConfiguredCommitment<Ghash128, Commitment = Vec<u8>>>(
    pcs: &RingSwitched<P>,
    root: &Vec<u8>,
    claims: &[Claim<Ghash128>],
    proof: &[u8],
) {
    let mut transcript = Sha256VerifierTranscript::new(DOMAIN, proof);
    transcript.public_bytes("root", root);
    pcs.verify(root, claims, &mut transcript)
        .expect("honest proof");
    transcript.finish().expect("no trailing bytes");
}

fn schemes() -> Vec<String> {
    std::env::var("PCS_BENCH_PCS")
        .unwrap_or_else(|_| "ligerito,fri,blaze".into())
        .split(',')
        .map(|s| s.trim().to_owned())
        .collect()
}

fn bench_pcs(c: &mut Criterion) {
    for log_bits in sizes() {
        for scheme in schemes() {
            let kind: PcsKind = scheme
                .parse()
                .unwrap_or_else(|e| panic!("PCS_BENCH_PCS: {e}"));
            let profile = Profile {
                preset: preset(),
                ..Profile::default()
            };
            let pcs = Commitment::for_bits(kind, log_bits, 100, &profile).expect("parameters");
            bench_scheme(c, kind.name(), pcs, log_bits);
        }
    }
}

fn bench_scheme<P: ConfiguredCommitment<Ghash128, Commitment = Vec<u8>>>(
    c: &mut Criterion,
    name: &str,
    inner: P,
    log_bits: usize,
) {
    eprintln!("{name}, 2^{log_bits} bits:\n{}", inner.security_report());
    let pcs = RingSwitched::new(inner);
    let (words, claims) = statement(log_bits);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let mut group = c.benchmark_group(format!("pcs/ring-switched-{name}/{threads}t"));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(5));
        group.bench_function(BenchmarkId::new("commit", log_bits), |b| {
            b.iter(|| pool.install(|| pcs.commit(&words)));
        });
        let (root, data) = pool.install(|| pcs.commit(&words));
        group.bench_function(BenchmarkId::new("open", log_bits), |b| {
            b.iter(|| {
                pool.install(|| {
                    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
                    transcript.public_bytes("root", &root);
                    pcs.open(&data, &claims, &mut transcript);
                    transcript.into_proof()
                })
            });
        });
        drop(data);
        let (root, proof) = pool.install(|| prove(&pcs, &words, &claims));
        group.bench_function(BenchmarkId::new("verify", log_bits), |b| {
            b.iter(|| verify(&pcs, &root, &claims, &proof));
        });
        group.finish();
        eprintln!(
            "{name}, 2^{log_bits} bits, {threads} thread(s): proof {} bytes ({:.1} KiB), peak RSS so far {} MiB",
            proof.len(),
            proof.len() as f64 / 1024.0,
            peak_mib().map_or("?".into(), |m| m.to_string())
        );
    }
}

criterion_group!(benches, bench_pcs);
criterion_main!(benches);
