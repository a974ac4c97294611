//! Benchmark of the three GKR batchers on Poseidon2b: every proof in a fresh worker process,
//! the variant order rotated between repetitions.
//!
//! ```text
//! cargo run --release --features bench-bins --bin gkr_bench -- [--widths 14,15,17,16,12,15,16,12,13] [--threads 2] [--reps 3] [--transcript sha256|blake3|poseidon2b] [--pcs ligerito]
//! ```
//!
//! A worker generates the instances from a fixed seed, builds the statement (the inputs'
//! digests and the outputs, computed natively, untimed; the prover draws the output points
//! and evaluates the outputs there, timed), resets the process's peak-RSS counter, proves
//! (wall-clock and CPU time), records the peak RSS, then verifies the proof several times
//! (median), timing the walk verification and the terminal discharge (direct evaluation of
//! the committed columns, which stands in for a PCS opening) separately.
//!
//! With `--pcs ligerito` the layer-0 PCS path runs instead ([`flockwork_gkr::opening`]): the
//! prover time includes committing every region's `S_0` with Ligerito (fast preset, Johnson
//! regime, 100 bits, SHA-256 Merkle trees) and the opening, the "discharge" column is the
//! opening's verification, and the proof includes the opening.
//!
//! `--transcript` picks the Fiat–Shamir transcript ([`TranscriptKind`]: SHA-256 by default,
//! BLAKE3, or the Poseidon2b duplex sponge). The transcript's own cost is measured by a
//! **replay**: the verifier's transcript operations on the proof (the same labels, the same
//! absorbed bytes and field decoding, the same challenges), with no arithmetic; the prover
//! performs the same absorptions and squeezes, so the replay is also its transcript cost.

#![forbid(unsafe_code)]

use std::process::Command;
use std::time::Instant;

use clap::Parser;
use flockwork_core::layered::LayeredRelation;
use flockwork_gkr::batchers::{HEADER_LEN, LABEL_COMMITMENT, LABEL_OUTPUTS, LABEL_POINT};
use flockwork_gkr::statement::evaluate_outputs;
use flockwork_gkr::walk::{
    LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES, LABEL_ROUND, walk_elements,
};
use flockwork_gkr::{Ghash128, Ghash256, ProverConfig, Setup, Statement, Variant};
use flockwork_pcs::{Commitment, PcsKind};
use flockwork_poseidon2b::{Poseidon2bRelation, Poseidon2bSponge};
use flockwork_transcript::{
    Blake3, Sha256, Transcript, TranscriptKind, TranscriptScheme, VerifierTranscript,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Parser, Debug)]
#[command(about = "Independent vs padded vs ragged GKR on Poseidon2b")]
struct Args {
    /// Region widths w_a (2^w_a instances each), comma separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "14,15,17,16,12,15,16,12,13"
    )]
    widths: Vec<usize>,
    /// Rayon threads per worker.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Proofs per variant (each in a fresh worker process).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Verifications per worker (the verifier time is their median).
    #[arg(long, default_value_t = 5)]
    verifications: usize,
    /// Fiat–Shamir transcript: sha256, blake3 or poseidon2b.
    #[arg(long, default_value = "sha256")]
    transcript: TranscriptKind,
    /// Prove layer 0 with a polynomial commitment ("ligerito") instead of the verifier
    /// holding the columns ("none").
    #[arg(long, default_value = "none", value_parser = ["none", "ligerito"])]
    pcs: String,
    /// Checkpoint spacing of the prover's layer tables.
    #[arg(long, default_value_t = ProverConfig::default().checkpoint_spacing)]
    checkpoint_spacing: usize,
    /// Internal: run one worker for this variant.
    #[arg(long, hide = true)]
    worker: Option<String>,
}

/// One worker's measurements: the JSON line a worker prints and its parent reads.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Sample {
    prove_s: f64,
    prove_cpu_s: f64,
    verify_ms: f64,
    discharge_ms: f64,
    transcript_ms: f64,
    proof_bytes: usize,
    peak_mib: f64,
}

fn parse_variant(name: &str) -> Variant {
    Variant::ALL
        .into_iter()
        .find(|v| v.name() == name)
        .unwrap_or_else(|| panic!("unknown variant {name}"))
}

/// `(utime + stime)` of this process in seconds, from `/proc/self/stat` (clock ticks of 10 ms).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, s)| s);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of stat (1-based), i.e. 11 and 12 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

/// Peak resident memory in MiB (NaN where unknown).
fn peak_mib() -> f64 {
    flockwork::memory::peak_resident_mib().unwrap_or(f64::NAN)
}

fn inputs(widths: &[usize]) -> Vec<Vec<Ghash128>> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b72);
    widths
        .iter()
        .map(|&w| {
            (0..4usize << w)
                .map(|_| Ghash128::new(rng.random()))
                .collect()
        })
        .collect()
}

/// The verifier's transcript operations on `proof` for `variant` (module docs), without
/// the arithmetic: statement absorption and the output points, per layer `α`, per round a
/// compressed round polynomial and a challenge, the layer values.
fn replay_transcript<D: TranscriptScheme>(
    setup: &Setup<Poseidon2bRelation, Ghash256, D>,
    variant: Variant,
    statement: &Statement<Ghash128>,
    proof: &[u8],
) {
    let relation = setup.relation();
    let regions: Vec<_> = statement.regions.iter().collect();
    let walks: Vec<(&[_], usize)> = match variant {
        Variant::Independent => regions
            .chunks(1)
            .zip(setup.widths())
            .map(|(r, &w)| (r, w))
            .collect(),
        _ => vec![(&regions[..], setup.max_width())],
    };
    let mut rest = &proof[HEADER_LEN..];
    for (regions, width) in walks {
        let len = 32 * walk_elements(relation, width, regions.len());
        let (mine, tail) = rest.split_at(len);
        rest = tail;
        let mut tr = D::verifier("flockwork/gkr/replay/v2", b"", mine);
        for region in regions {
            tr.public_bytes(LABEL_COMMITMENT, region.committed.digest());
            tr.public_bytes(LABEL_OUTPUTS, region.outputs.digest());
        }
        for region in regions {
            let point: Vec<Ghash256> = tr.challenges(LABEL_POINT, region.outputs.width());
            std::hint::black_box(point);
        }
        for layer in (1..=relation.num_layers()).rev() {
            std::hint::black_box(tr.challenge::<Ghash256>(LABEL_ALPHA));
            let d = relation.layer_degree(layer);
            for _ in 0..width {
                std::hint::black_box(
                    tr.recv_field::<Ghash256>(LABEL_ROUND, d + 1)
                        .expect("honest"),
                );
                std::hint::black_box(tr.challenge::<Ghash256>(LABEL_CHALLENGE));
            }
            let n = relation.lanes() * regions.len();
            std::hint::black_box(
                tr.recv_field::<Ghash256>(LABEL_LAYER_VALUES, n)
                    .expect("honest"),
            );
        }
        tr.finish().expect("the replay reads the whole walk");
    }
}

fn worker(args: &Args, variant: Variant) -> Sample {
    match args.transcript {
        TranscriptKind::Sha256 => worker_with::<Sha256>(args, variant),
        TranscriptKind::Blake3 => worker_with::<Blake3>(args, variant),
        TranscriptKind::Poseidon2b => worker_with::<Poseidon2bSponge>(args, variant),
    }
}

fn worker_with<D: TranscriptScheme>(args: &Args, variant: Variant) -> Sample {
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .expect("one global pool");
    let relation = Poseidon2bRelation::official();
    let inputs = inputs(&args.widths);
    let setup =
        Setup::<_, Ghash256, D>::new(relation, args.widths.clone()).with_config(ProverConfig {
            checkpoint_spacing: args.checkpoint_spacing,
        });
    if args.pcs == "ligerito" {
        return worker_opened(&setup, &inputs, args.verifications, variant);
    }
    let statement = Statement::of_inputs(setup.relation(), &inputs);
    // Reset the peak-RSS counter (Linux: "5" to clear_refs), so the peak is the prover's.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let proof = setup
        .prove(variant, &inputs, &statement)
        .expect("the statement fits the setup");
    let prove_s = start.elapsed().as_secs_f64();
    let prove_cpu_s = cpu_seconds() - cpu0;
    let peak = peak_mib();
    let mut walk_times = Vec::new();
    let mut discharge_times = Vec::new();
    let mut transcript_times = Vec::new();
    for _ in 0..args.verifications.max(1) {
        let start = Instant::now();
        let terminal = setup
            .verify_walks(variant, &statement, &proof)
            .expect("honest proofs verify");
        let mid = Instant::now();
        setup
            .discharge(&statement, &terminal)
            .expect("honest terminal claims hold");
        walk_times.push((mid - start).as_secs_f64() * 1e3);
        discharge_times.push(mid.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        replay_transcript(&setup, variant, &statement, &proof);
        transcript_times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    Sample {
        prove_s,
        prove_cpu_s,
        verify_ms: median(&mut walk_times),
        discharge_ms: median(&mut discharge_times),
        transcript_ms: median(&mut transcript_times),
        proof_bytes: proof.len(),
        peak_mib: peak,
    }
}

/// The commitment of the `--pcs ligerito` path: Ligerito (fast preset, Johnson regime) at
/// 100 bits over the setup's input layout ([`Commitment::select`]).
fn layer0_pcs<D: TranscriptScheme>(setup: &Setup<Poseidon2bRelation, Ghash256, D>) -> Commitment {
    Commitment::select(PcsKind::Ligerito, setup.input_layout().num_vars(), 100)
        .expect("Ligerito parameters for the input layer")
}

/// The layer-0 PCS path (module docs): commit + walk + opening timed as the prover, the walk
/// and the opening's verification timed separately.
fn worker_opened<D: TranscriptScheme>(
    setup: &Setup<Poseidon2bRelation, Ghash256, D>,
    inputs: &[Vec<Ghash128>],
    verifications: usize,
    variant: Variant,
) -> Sample {
    let pcs = layer0_pcs(setup);
    // The statement needs the commitment; its outputs are computed natively, untimed.
    let (commitment, _) = setup.commit_inputs(&pcs, inputs).expect("inputs fit");
    let outputs = evaluate_outputs(setup.relation(), inputs);
    let statement = setup
        .committed_statement(commitment.as_ref(), &outputs)
        .expect("outputs fit");
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let (commitment, data) = setup.commit_inputs(&pcs, inputs).expect("inputs fit");
    let proof = setup
        .prove_opened(variant, &pcs, &commitment, &data, inputs, &statement)
        .expect("the statement fits the setup");
    let prove_s = start.elapsed().as_secs_f64();
    let prove_cpu_s = cpu_seconds() - cpu0;
    let peak = peak_mib();
    drop(data);
    let walk_len = setup.proof_len(variant);
    let mut walk_times = Vec::new();
    let mut totals = Vec::new();
    let mut transcript_times = Vec::new();
    for _ in 0..verifications.max(1) {
        let start = Instant::now();
        setup
            .verify_walks(variant, &statement, &proof[..walk_len])
            .expect("honest proofs verify");
        walk_times.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        setup
            .verify_opened(variant, &pcs, &commitment, &statement, &proof)
            .expect("honest proofs verify");
        totals.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        replay_transcript(setup, variant, &statement, &proof[..walk_len]);
        transcript_times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let walk = median(&mut walk_times);
    Sample {
        prove_s,
        prove_cpu_s,
        verify_ms: walk,
        discharge_ms: median(&mut totals) - walk,
        transcript_ms: median(&mut transcript_times),
        proof_bytes: proof.len(),
        peak_mib: peak,
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args = Args::parse();
    if let Some(name) = &args.worker {
        let s = worker(&args, parse_variant(name));
        println!(
            "{}",
            serde_json::to_string(&s).expect("a sample serializes")
        );
        return;
    }
    let exe = std::env::current_exe().expect("own path");
    let widths: Vec<String> = args.widths.iter().map(ToString::to_string).collect();
    let widths = widths.join(",");
    println!(
        "Poseidon2b GKR batchers: widths [{widths}], {} threads, {} proofs per variant, checkpoint spacing {}, transcript {}, layer-0 PCS {}",
        args.threads, args.reps, args.checkpoint_spacing, args.transcript, args.pcs
    );
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); 3];
    for rep in 0..args.reps {
        for k in 0..3 {
            let variant = Variant::ALL[(k + rep) % 3];
            let out = Command::new(&exe)
                .args([
                    "--widths",
                    &widths,
                    "--threads",
                    &args.threads.to_string(),
                    "--verifications",
                    &args.verifications.to_string(),
                    "--checkpoint-spacing",
                    &args.checkpoint_spacing.to_string(),
                    "--transcript",
                    args.transcript.name(),
                    "--pcs",
                    &args.pcs,
                    "--worker",
                    variant.name(),
                ])
                .output()
                .expect("worker runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let s: Sample = stdout
                .lines()
                .last()
                .and_then(|line| serde_json::from_str(line).ok())
                .unwrap_or_else(|| {
                    panic!(
                        "worker {} failed: {}",
                        variant.name(),
                        String::from_utf8_lossy(&out.stderr)
                    )
                });
            eprintln!(
                "rep {rep} {:<11} prove {:.2} s (cpu {:.1} s), verify {:.2} ms, transcript replay {:.2} ms, peak {:.0} MiB",
                variant.name(),
                s.prove_s,
                s.prove_cpu_s,
                s.verify_ms,
                s.transcript_ms,
                s.peak_mib
            );
            samples[variant as usize - 1].push(s);
        }
    }
    // Sizes and soundness do not depend on the transcript.
    let setup = Setup::<_, Ghash256>::new(Poseidon2bRelation::official(), args.widths.clone());
    println!();
    let (terminal, pcs_bits) = if args.pcs == "ligerito" {
        let bits =
            flockwork_pcs::security::ConfiguredCommitment::security_report(&layer0_pcs(&setup))
                .bits();
        ("S_0 opening", bits)
    } else {
        ("S_0 discharge", f64::INFINITY)
    };
    println!(
        "| variant | transcript | physical rows | prover median (s) | prover range (s) | prover CPU median (s) | verifier: walk median (ms) | verifier: {terminal} median (ms) | verifier total (ms) | transcript replay median (ms) | proof bytes | peak RSS (MiB) | soundness (bits) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut summary = Vec::new();
    for variant in Variant::ALL {
        let s = &samples[variant as usize - 1];
        let mut p: Vec<f64> = s.iter().map(|x| x.prove_s).collect();
        let mut c: Vec<f64> = s.iter().map(|x| x.prove_cpu_s).collect();
        let mut v: Vec<f64> = s.iter().map(|x| x.verify_ms).collect();
        let mut d: Vec<f64> = s.iter().map(|x| x.discharge_ms).collect();
        let mut m: Vec<f64> = s.iter().map(|x| x.peak_mib).collect();
        let mut tr: Vec<f64> = s.iter().map(|x| x.transcript_ms).collect();
        let (lo, hi) = p.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
        let row = (
            median(&mut p),
            median(&mut v),
            s[0].proof_bytes,
            median(&mut m),
            median(&mut c),
            median(&mut d),
        );
        println!(
            "| {} | {} | {} | {:.2} | {:.2}–{:.2} | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {:.0} | {:.1} |",
            variant.name(),
            args.transcript,
            setup.physical_rows(variant),
            row.0,
            lo,
            hi,
            row.4,
            row.1,
            row.5,
            row.1 + row.5,
            median(&mut tr),
            row.2,
            row.3,
            setup.soundness_bits(variant).min(pcs_bits)
        );
        summary.push(row);
    }
    let (ind, pad, rag) = (summary[0], summary[1], summary[2]);
    println!();
    println!("goals (2 threads):");
    println!(
        "  ragged prover vs independent: {:.2}x faster (goal >= 1)",
        ind.0 / rag.0
    );
    println!(
        "  ragged prover vs padded: {:.2}x faster (goal >= 3)",
        pad.0 / rag.0
    );
    println!(
        "  ragged verifier vs independent: walk {:.2}x, walk + {terminal} {:.2}x faster (goal >= 5)",
        ind.1 / rag.1,
        (ind.1 + ind.5) / (rag.1 + rag.5)
    );
    println!(
        "  proof size independent / ragged: {:.2}x (goal >= 6)",
        ind.2 as f64 / rag.2 as f64
    );
    println!("  ragged peak RSS: {:.0} MiB (goal <= 250)", rag.3);
    println!("  ragged prover CPU: {:.1} s (goal <= 60)", rag.4);
}
