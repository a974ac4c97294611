//! The `flockwork` command line tool.
//!
//! `flockwork` with no arguments runs a short tour of the shipped backends; `flockwork --help`
//! lists the subcommands.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use flockwork::binary::arch::Backend;
use flockwork::prelude::*;
use flockwork::workload::{SumcheckReport, SumcheckWorkload, WorkloadError};

#[derive(Parser, Debug)]
#[command(
    name = "flockwork",
    version,
    about = "Prove huge batches of one small computation, with every part swappable."
)]
struct Cli {
    /// Worker threads for the prover (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Print the prover's phases as tracing spans (with their busy and idle times) on stderr.
    #[arg(long, global = true)]
    trace: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A short tour: sumcheck over every field backend, batch-R1CS per hash, the GKR batchers
    /// and the commitments, one table each.
    Tour {
        /// Number of variables of the statement.
        #[arg(long, default_value_t = 18)]
        vars: usize,
        /// Print one JSON object per row (with its table's name) instead of the tables.
        #[arg(long)]
        json: bool,
    },
    /// The CPU features found and the GF(2^128) kernel chosen.
    Info {
        /// Print one JSON object instead of the text.
        #[arg(long)]
        json: bool,
    },
    /// Prove and verify a batch: hash compressions (a chain or a Merkle tree) with the
    /// batch-R1CS (Flock) prover, or Poseidon2b permutations with the GKR engine.
    #[command(group(clap::ArgGroup::new("size").args(["count", "log_instances"])))]
    #[command(group(clap::ArgGroup::new("io").args(["chain", "merkle", "public"])))]
    Prove {
        /// The compression function or permutation.
        #[arg(long, value_enum, default_value_t = ProveHashArg::Sha256)]
        hash: ProveHashArg,
        /// Number of instances. Batch-R1CS needs a power of two and rounds up (saying so);
        /// Poseidon2b takes any count as ragged regions of its binary digits.
        #[arg(long)]
        count: Option<usize>,
        /// k: 2^k instances (default 10; the alternative to --count).
        #[arg(long)]
        log_instances: Option<usize>,
        /// Prove a hash chain: only its two ends are public (the default).
        #[arg(long)]
        chain: bool,
        /// Prove a Merkle tree over one leaf per instance: the root and leaves are public
        /// (sha256, blake3).
        #[arg(long)]
        merkle: bool,
        /// Prove independent instances whose inputs and outputs are all public (the
        /// batch-R1CS hashes).
        #[arg(long)]
        public: bool,
        /// The Fiat–Shamir transcript [default: sha256].
        #[arg(long, value_enum)]
        transcript: Option<TranscriptArg>,
        /// Seed of the message blocks, leaves or permutation inputs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ligerito profile: fast (rate 1/2, bigger proofs) or slim (rate 1/4, grinding)
        /// [default: fast].
        #[arg(long, value_enum)]
        profile: Option<ProfileArg>,
        /// The polynomial commitment: for batch-R1CS the dense commitment under
        /// ring-switching [default: ligerito]; for poseidon2b (GKR) the commitment of the
        /// input layer, whose opening then proves the layer-0 claims [default: none, the
        /// inputs are public].
        #[arg(long, value_enum)]
        pcs: Option<PcsArg>,
        /// The GKR batcher for Poseidon2b [default: ragged].
        #[arg(long, value_enum)]
        batcher: Option<BatcherArg>,
        /// Write the proof and its statement to this file (check it with `flockwork verify`).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Refuse batches whose estimated prover memory exceeds this many MiB (default: 90%
        /// of the machine's memory).
        #[arg(long)]
        memory_limit: Option<u64>,
        /// Measured runs: with N > 1 the same statement (same seed) is proved N + 1 times in
        /// this process, the first a warm-up that is not counted. Each run proves and
        /// verifies afresh: batch-R1CS generates the witness (timed as the prover's witness
        /// phase), poseidon2b commits its inputs when --pcs is given (timed with the prover).
        /// Setup is done once, untimed. The report is the best run (least prover time) with
        /// the median prover time and throughput beside it; the verify time is the least over
        /// the runs (each run's proof is verified); the peak memory is the process's over all
        /// runs; --out writes the best run's proof.
        #[arg(long, default_value_t = 1)]
        reps: usize,
        /// Print one JSON object instead of the report.
        #[arg(long)]
        json: bool,
    },
    /// The soundness of the setup `flockwork prove` would use, term by term (no proving).
    Security {
        /// The compression function.
        #[arg(long, value_enum, default_value_t = HashArg::Sha256)]
        hash: HashArg,
        /// k: 2^k instances.
        #[arg(long, default_value_t = 14)]
        log_instances: usize,
        /// The dense polynomial commitment under ring-switching.
        #[arg(long, value_enum, default_value_t = PcsArg::Ligerito)]
        pcs: PcsArg,
        /// Ligerito profile.
        #[arg(long, value_enum, default_value_t = ProfileArg::Fast)]
        profile: ProfileArg,
        /// Security target of the parameter selection, in bits.
        #[arg(long, default_value_t = 100)]
        target: u32,
        /// Print one JSON object instead of the report.
        #[arg(long)]
        json: bool,
    },
    /// Throughput against batch size: prove chains of 2^k compressions for each k, hash and
    /// commitment; print a table and optionally save the points as JSON (for `plot`).
    Sweep {
        /// The compression functions, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![HashArg::Sha256])]
        hash: Vec<HashArg>,
        /// The commitments, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![PcsArg::Ligerito])]
        pcs: Vec<PcsArg>,
        /// The values of k, comma-separated (each at most 24).
        #[arg(long, value_delimiter = ',', default_values_t = vec![6, 8, 10])]
        log_instances: Vec<usize>,
        /// Write the points to this JSON file.
        #[arg(long)]
        json: Option<std::path::PathBuf>,
    },
    /// Draw a sweep's JSON file as an SVG chart: throughput against batch size, one line per
    /// configuration.
    Plot {
        /// The JSON file written by `flockwork sweep --json`.
        file: std::path::PathBuf,
        /// The SVG file to write.
        #[arg(long, default_value = "sweep.svg")]
        svg: std::path::PathBuf,
        /// Print one JSON object instead of the sentence.
        #[arg(long)]
        json: bool,
    },
    /// Check a proof file written by `flockwork prove --out`.
    Verify {
        /// The proof file.
        file: std::path::PathBuf,
        /// Print one JSON object instead of a sentence.
        #[arg(long)]
        json: bool,
    },
    /// Run the same statement with each choice and print one table.
    Compare {
        #[command(subcommand)]
        what: CompareWhat,
    },
    /// Prove and verify one sumcheck statement Σ_x eq(r,x)·Π_j P_j(x) over random tables.
    Sumcheck {
        /// The field of the polynomials and challenges.
        #[arg(long, value_enum, default_value_t = FieldChoice::Ghash)]
        field: FieldChoice,
        /// Number of variables n (the tables have 2^n entries).
        #[arg(long, default_value_t = 20)]
        vars: usize,
        /// Number of multilinear factors d.
        #[arg(long, default_value_t = 3)]
        degree: usize,
        /// Plain sum Σ_x Π_j P_j(x), without the eq weight.
        #[arg(long)]
        no_eq: bool,
        /// Hash of the Fiat–Shamir transcript.
        #[arg(long, value_enum, default_value_t = HashChoice::Sha256)]
        hash: HashChoice,
        /// Seed of the random tables.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
}

impl Command {
    /// Whether the output is for programs (`--json`, or a worker process), not people.
    fn machine_output(&self) -> bool {
        match self {
            Self::Tour { json, .. }
            | Self::Info { json }
            | Self::Security { json, .. }
            | Self::Plot { json, .. }
            | Self::Prove { json, .. }
            | Self::Verify { json, .. }
            | Self::Sumcheck { json, .. } => *json,
            Self::Compare {
                what:
                    CompareWhat::Pcs { json, worker, .. } | CompareWhat::Batch { json, worker, .. },
            } => *json || *worker,
            Self::Sweep { .. } => false,
        }
    }
}

/// What `compare` compares.
#[derive(Subcommand, Debug)]
enum CompareWhat {
    /// Commit, open (two evaluation claims) and verify one random Boolean polynomial with each
    /// polynomial commitment scheme, through ring-switching; each scheme runs in a fresh
    /// worker process so that its peak memory is its own.
    Pcs {
        /// log2 of the committed bits (8 to 40).
        #[arg(long, default_value_t = 24)]
        log_bits: usize,
        /// The schemes, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![PcsArg::Ligerito, PcsArg::Fri, PcsArg::Blaze])]
        pcs: Vec<PcsArg>,
        /// Security target of every scheme, in bits.
        #[arg(long, default_value_t = 100)]
        security: u32,
        /// Seed of the polynomial and the points.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Measured runs per scheme; the times printed are their medians.
        #[arg(long, default_value_t = 3)]
        reps: usize,
        /// Print one JSON object per scheme instead of the table.
        #[arg(long)]
        json: bool,
        /// Measure every scheme in this process (peak memory is then the whole run's).
        #[arg(long)]
        in_process: bool,
        /// Internal: measure exactly one scheme and print its row for the parent process.
        #[arg(long, hide = true)]
        worker: bool,
    },
    /// Prove the same Poseidon2b output claims over regions of 2^w_a permutations with the
    /// independent, padded and ragged GKR batchers; each in a fresh worker process.
    Batch {
        /// The region widths w_a, comma-separated (the published experiment:
        /// 14,15,17,16,12,15,16,12,13).
        #[arg(long, value_delimiter = ',', default_values_t = vec![8, 10, 9, 6])]
        widths: Vec<usize>,
        /// The batchers, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![BatcherArg::Independent, BatcherArg::Padded, BatcherArg::Ragged])]
        batchers: Vec<BatcherArg>,
        /// Seed of the inputs and output points.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Commit the input layer with this scheme and prove the layer-0 claims by its
        /// opening (default: the verifier holds the inputs).
        #[arg(long, value_enum)]
        pcs: Option<PcsArg>,
        /// Print one JSON object per batcher instead of the table.
        #[arg(long)]
        json: bool,
        /// Measure every batcher in this process (peak memory is then the whole run's).
        #[arg(long)]
        in_process: bool,
        /// Internal: measure exactly one batcher and print its row for the parent process.
        #[arg(long, hide = true)]
        worker: bool,
    },
}

/// GKR batchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BatcherArg {
    /// One walk per region, separate transcripts.
    Independent,
    /// One walk at the largest width, every region padded.
    Padded,
    /// One walk over native-size regions with implicit selectors.
    Ragged,
}

impl BatcherArg {
    fn variant(self) -> flockwork::gkr::Variant {
        match self {
            Self::Independent => flockwork::gkr::Variant::Independent,
            Self::Padded => flockwork::gkr::Variant::Padded,
            Self::Ragged => flockwork::gkr::Variant::Ragged,
        }
    }
}

/// Fiat–Shamir transcripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TranscriptArg {
    /// The SHA-256 hash transcript.
    Sha256,
    /// The BLAKE3 hash transcript.
    Blake3,
    /// The Poseidon2b duplex sponge over GF(2^128).
    Poseidon2b,
}

impl TranscriptArg {
    fn kind(self) -> flockwork::transcript::TranscriptKind {
        use flockwork::transcript::TranscriptKind;
        match self {
            Self::Sha256 => TranscriptKind::Sha256,
            Self::Blake3 => TranscriptKind::Blake3,
            Self::Poseidon2b => TranscriptKind::Poseidon2b,
        }
    }
}

/// Polynomial commitment schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PcsArg {
    /// Ligerito (fast preset, Johnson regime).
    Ligerito,
    /// FRI-Binius (BaseFold with the additive NTT), rate 1/2.
    Fri,
    /// Blaze-style: RAA code (rate 1/4) at level 0, Ligerito below.
    Blaze,
}

impl PcsArg {
    fn kind(self) -> flockwork::pcs::PcsKind {
        match self {
            Self::Ligerito => flockwork::pcs::PcsKind::Ligerito,
            Self::Fri => flockwork::pcs::PcsKind::Fri,
            Self::Blaze => flockwork::pcs::PcsKind::Blaze,
        }
    }
}

/// The field backends the tool can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FieldChoice {
    /// GF(2^128), GHASH polynomial basis, CLMUL SIMD.
    Ghash,
    /// GF(2^128) as the binary tower (Fan–Paar).
    Tower,
    /// GF(2^256), a quadratic extension of GHASH.
    Ghash256,
    /// The BN254 scalar field (ark-ff).
    Bn254,
    /// The BLS12-381 scalar field (ark-ff).
    Bls12381,
    /// Goldilocks 2^64 − 2^32 + 1, specialised u64 backend.
    Goldilocks,
    /// Goldilocks through the ark-ff adapter (for comparison).
    GoldilocksArk,
}

/// Hash compressions of the batch prover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HashArg {
    /// SHA-256 compression.
    Sha256,
    /// Keccak-f[1600].
    Keccak,
    /// BLAKE3 compression.
    Blake3,
}

/// What `flockwork prove` proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ProveHashArg {
    /// SHA-256 compression (batch-R1CS).
    Sha256,
    /// Keccak-f[1600] (batch-R1CS).
    Keccak,
    /// BLAKE3 compression (batch-R1CS).
    Blake3,
    /// The Poseidon2b permutation over GF(2^128), t = 4 (GKR).
    Poseidon2b,
}

impl ProveHashArg {
    /// The batch-R1CS hash, `None` for the GKR permutation.
    fn flock(self) -> Option<flockwork::flock::HashKind> {
        use flockwork::flock::HashKind;
        match self {
            Self::Sha256 => Some(HashKind::Sha256),
            Self::Keccak => Some(HashKind::Keccak),
            Self::Blake3 => Some(HashKind::Blake3),
            Self::Poseidon2b => None,
        }
    }
}

/// Ligerito profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ProfileArg {
    /// Rate 1/2 at level 0, no grinding.
    Fast,
    /// Rate 1/4 at level 0, 16 bits of query grinding.
    Slim,
}

/// Transcript hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HashChoice {
    /// SHA-256 (sha2).
    Sha256,
    /// BLAKE3.
    Blake3,
}

/// Runs `$body` with the type alias `$F` bound to the chosen field.
macro_rules! with_field {
    ($choice:expr, $F:ident => $body:expr) => {
        match $choice {
            FieldChoice::Ghash => {
                type $F = Ghash128;
                $body
            }
            FieldChoice::Tower => {
                type $F = Tower128;
                $body
            }
            FieldChoice::Ghash256 => {
                type $F = Ghash256;
                $body
            }
            FieldChoice::Bn254 => {
                type $F = Bn254Fr;
                $body
            }
            FieldChoice::Bls12381 => {
                type $F = Bls12_381Fr;
                $body
            }
            FieldChoice::Goldilocks => {
                type $F = Goldilocks;
                $body
            }
            FieldChoice::GoldilocksArk => {
                type $F = GoldilocksArk;
                $body
            }
        }
    };
}

fn run_sumcheck(
    field: FieldChoice,
    hash: HashChoice,
    workload: &SumcheckWorkload,
) -> Result<SumcheckReport, WorkloadError> {
    with_field!(field, F => match hash {
        HashChoice::Sha256 => workload.run::<F, sha2::Sha256>(),
        HashChoice::Blake3 => workload.run::<F, blake3::Hasher>(),
    })
}

fn field_name(field: FieldChoice) -> String {
    field
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

const TABLE_HEADER: &str =
    "field            vars  deg  eq   prove (ms)  verify (ms)  proof (B)  soundness (bits)";

fn table_row(field: FieldChoice, r: &SumcheckReport) -> String {
    format!(
        "{:<16} {:>4} {:>4}  {:<3} {:>11.1} {:>12.2} {:>10} {:>17}",
        field_name(field),
        r.workload.num_vars,
        r.workload.degree,
        if r.workload.with_eq { "yes" } else { "no" },
        r.prove.as_secs_f64() * 1e3,
        r.verify.as_secs_f64() * 1e3,
        r.proof_bytes,
        r.soundness_bits,
    )
}

fn json_row(field: FieldChoice, hash: HashChoice, r: &SumcheckReport) -> String {
    format!(
        "{{\"field\":\"{}\",\"hash\":\"{:?}\",\"vars\":{},\"degree\":{},\"eq\":{},\"setup_ms\":{:.3},\"prove_ms\":{:.3},\"verify_ms\":{:.3},\"proof_bytes\":{},\"soundness_bits\":{}}}",
        field_name(field),
        hash,
        r.workload.num_vars,
        r.workload.degree,
        r.workload.with_eq,
        r.setup.as_secs_f64() * 1e3,
        r.prove.as_secs_f64() * 1e3,
        r.verify.as_secs_f64() * 1e3,
        r.proof_bytes,
        r.soundness_bits,
    )
}

fn info(json: bool) {
    let round1 = flockwork::r1cs::kernels::active().name();
    let sha256 = flockwork_sha256x::Backend::detect().name();
    let available: Vec<&str> = Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .map(|b| b.name())
        .collect();
    if json {
        println!(
            "{}",
            serde_json::json!({
                "version": env!("CARGO_PKG_VERSION"),
                "threads": rayon::current_num_threads(),
                "kernel": Backend::active().name(),
                "kernels_available": available,
                "r1cs_round1_kernel": round1,
                "sha256_backend": sha256,
            })
        );
        return;
    }
    println!("flockwork {}", env!("CARGO_PKG_VERSION"));
    println!("threads: {}", rayon::current_num_threads());
    println!("GF(2^128) kernel in use: {}", Backend::active().name());
    println!("GF(2^128) kernels available: {}", available.join(" "));
    println!("batch-R1CS round-1 kernel: {round1}");
    println!(
        "multi-message SHA-256 (Merkle trees, grinding): {sha256} (portable: the sha2 crate, \
         with SHA-NI where the CPU has it)"
    );
}

/// Installs the tracing subscriber. With `progress` (stderr is a terminal and the output is
/// for people), tracing-indicatif draws every open span — the command's own and the provers'
/// phases (`flock::prove`, `commit`, `zerocheck`, …) — as a spinner with its elapsed time;
/// with `trace`, each span's busy and idle times are printed when it closes.
fn init_tracing(trace: bool, progress: bool) {
    use tracing_subscriber::Layer;
    use tracing_subscriber::fmt::writer::BoxMakeWriter;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    if !trace && !progress {
        return;
    }
    let bars = progress.then(|| {
        tracing_indicatif::IndicatifLayer::new().with_progress_style(
            indicatif::ProgressStyle::with_template(
                "{span_child_prefix}{spinner} {span_name} {msg} [{elapsed}]",
            )
            .expect("a valid template"),
        )
    });
    let writer = match &bars {
        Some(bars) => BoxMakeWriter::new(bars.get_stderr_writer()),
        None => BoxMakeWriter::new(std::io::stderr),
    };
    let spans = trace.then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_target(false)
            .with_filter(tracing_subscriber::filter::LevelFilter::INFO)
    });
    tracing_subscriber::registry().with(spans).with(bars).init();
}

/// Runs `work` inside a span that shows `message` while it runs (see [`init_tracing`]).
fn with_progress<T>(message: String, work: impl FnOnce() -> T) -> T {
    use tracing_indicatif::span_ext::IndicatifSpanExt;
    let span = tracing::info_span!("flockwork");
    span.pb_set_message(&message);
    span.in_scope(work)
}

/// Prints a line of the report while progress bars may be drawn.
fn report_line(line: &str) {
    tracing_indicatif::suspend_tracing_indicatif(|| println!("{line}"));
}

/// 90% of the machine's memory in bytes (Linux `MemTotal`), if known.
fn default_memory_limit() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024 / 10 * 9)
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The options of `flockwork prove`.
struct ProveArgs {
    memory_limit: Option<u64>,
    hash: ProveHashArg,
    count: Option<usize>,
    log_instances: Option<usize>,
    merkle: bool,
    public: bool,
    transcript: flockwork::transcript::TranscriptKind,
    seed: u64,
    profile: Option<ProfileArg>,
    pcs: Option<PcsArg>,
    batcher: Option<BatcherArg>,
    out: Option<std::path::PathBuf>,
    reps: usize,
    json: bool,
}

fn invalid(message: impl Into<String>) -> WorkloadError {
    WorkloadError::InvalidParameters(message.into())
}

fn prove(args: ProveArgs) -> Result<(), WorkloadError> {
    if args.reps == 0 {
        return Err(invalid(
            "--reps 0: at least one measured run is needed (--reps 1, the default, proves once)",
        ));
    }
    match args.hash.flock() {
        Some(hash) => prove_flock(hash, args),
        None => prove_permutations(args),
    }
}

/// The compressions a batch-R1CS run asks for: `2^k` for `--log-instances k` (default 10), or
/// `--count`.
fn batch_count(args: &ProveArgs) -> Result<usize, WorkloadError> {
    let Some(count) = args.count else {
        let k = args.log_instances.unwrap_or(10);
        if k > 24 {
            return Err(invalid(format!(
                "--log-instances {k}: at most 2^24 instances"
            )));
        }
        return Ok(1 << k);
    };
    if count == 0 || count > 1 << 24 {
        return Err(invalid(format!(
            "--count {count}: between 1 and 2^24 instances"
        )));
    }
    Ok(count)
}

/// `N`, or `n·B = N (n per block, B blocks)` for wide blocks.
fn describe_shape(shape: flockwork::flock::BatchShape) -> String {
    if shape.copies == 1 {
        shape.blocks.to_string()
    } else {
        format!(
            "{} ({} per block, {} blocks)",
            shape.instances(),
            shape.copies,
            shape.blocks
        )
    }
}

fn write_proof_file(
    path: &std::path::Path,
    file: &flockwork::proof_file::ProofFile,
    json: bool,
) -> Result<(), WorkloadError> {
    std::fs::write(path, file.to_bytes())
        .map_err(|e| WorkloadError::Failed(format!("cannot write {}: {e}", path.display())))?;
    if !json {
        eprintln!("proof written to {}", path.display());
    }
    Ok(())
}

/// The progress line's note on `reps` measured runs (none for one run).
fn runs_note(reps: usize) -> String {
    if reps > 1 {
        format!(", a warm-up and {reps} measured runs")
    } else {
        String::new()
    }
}

/// The report's line for `--reps N > 1`: the best run and the median, prover time and
/// throughput (`what` per second).
fn best_and_median(
    reps: usize,
    best: std::time::Duration,
    median: std::time::Duration,
    per_sec: (f64, f64),
    what: &str,
) -> String {
    format!(
        "best of {reps} runs: {:.1} ms, {:.0} {what}/s proved; median: {:.1} ms, {:.0} {what}/s",
        best.as_secs_f64() * 1e3,
        per_sec.0,
        median.as_secs_f64() * 1e3,
        per_sec.1,
    )
}

fn prove_flock(hash: flockwork::flock::HashKind, args: ProveArgs) -> Result<(), WorkloadError> {
    use flockwork::flock::{FlockWorkload, IoKind};
    if args.batcher.is_some() {
        return Err(invalid(
            "--batcher chooses a GKR batcher: it applies to --hash poseidon2b only",
        ));
    }
    let count = batch_count(&args)?;
    let io = if args.merkle {
        IoKind::Merkle
    } else if args.public {
        IoKind::Public
    } else {
        IoKind::Chain
    };
    let batch = flockwork::flock::BatchShape::for_count(hash, io, count);
    if batch.instances() != count && args.count.is_some() {
        let why = if io == IoKind::Merkle {
            "a Merkle tree takes a power-of-two number of leaves".to_string()
        } else {
            format!(
                "batch-R1CS proves whole blocks of {} instances",
                batch.copies
            )
        };
        eprintln!(
            "note: {why}: --count {count} is rounded up to {}",
            describe_shape(batch)
        );
    }
    let config = flockwork::r1cs::FlockConfig {
        scheme: args.pcs.unwrap_or(PcsArg::Ligerito).kind(),
        preset: match args.profile.unwrap_or(ProfileArg::Fast) {
            ProfileArg::Fast => flockwork::r1cs::Preset::Fast,
            ProfileArg::Slim => flockwork::r1cs::Preset::Slim,
        },
        memory_limit: args
            .memory_limit
            .map(|mib| mib << 20)
            .or_else(default_memory_limit),
        ..Default::default()
    };
    let shape = match io {
        IoKind::Chain => "a chain of",
        IoKind::Merkle => "a Merkle tree over",
        IoKind::Public => "public inputs and outputs of",
    };
    let workload = FlockWorkload {
        hash,
        count,
        seed: args.seed,
        io,
        config,
        transcript: args.transcript,
    };
    let r = with_progress(
        format!(
            "proving and verifying {shape} {} {} compressions on {} thread(s){}",
            describe_shape(batch),
            hash.name(),
            rayon::current_num_threads(),
            runs_note(args.reps)
        ),
        || workload.run_reps(args.reps),
    )?;
    let peak = peak_memory_mib().unwrap_or(f64::NAN);
    if let Some(path) = &args.out {
        let file = flockwork::proof_file::ProofFile::Flock(flockwork::proof_file::FlockFile {
            hash: r.hash,
            transcript: args.transcript,
            pcs: config.scheme,
            preset: config.preset,
            copies: r.shape.copies,
            blocks: r.shape.blocks,
            target_bits: config.target_bits,
            statement: r.statement.clone(),
            proof: r.proof.clone(),
        });
        write_proof_file(path, &file, args.json)?;
    }
    let t = &r.timings;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    if args.json {
        println!(
            "{{\"hash\":\"{}\",\"io\":\"{}\",\"pcs\":\"{}\",\"transcript\":\"{}\",\"count\":{},\"instances\":{},\"copies\":{},\"blocks\":{},\"log_blocks\":{},\"threads\":{},\"reps\":{},\"num_vars\":{},\"witness_ms\":{:.3},\"commit_ms\":{:.3},\"zerocheck_ms\":{:.3},\"lincheck_ms\":{:.3},\"io_ms\":{:.3},\"open_ms\":{:.3},\"prove_ms\":{:.3},\"prove_ms_median\":{:.3},\"verify_ms\":{:.3},\"proof_bytes\":{},\"per_sec\":{:.1},\"per_sec_median\":{:.1},\"native_per_sec\":{:.1},\"overhead\":{:.1},\"soundness_bits\":{:.2},\"peak_mib\":{:.1}}}",
            r.hash.name(),
            io.name(),
            config.scheme.name(),
            args.transcript,
            r.count,
            r.instances(),
            r.shape.copies,
            r.shape.blocks,
            r.shape.log_blocks(),
            rayon::current_num_threads(),
            r.reps,
            r.num_vars,
            ms(t.witness),
            ms(t.commit),
            ms(t.zerocheck),
            ms(t.lincheck),
            ms(t.io),
            ms(t.open),
            ms(t.total()),
            ms(r.prove_median),
            ms(r.verify),
            r.proof_bytes,
            r.proved_per_sec(),
            r.median_per_sec(),
            r.native_per_sec,
            r.overhead(),
            r.soundness.bits(),
            peak,
        );
    } else {
        println!(
            "{} × {} as a {} (m = {}), {} over ring-switching, {} thread(s)",
            r.hash.name(),
            describe_shape(r.shape),
            io.name(),
            r.num_vars,
            config.scheme.name(),
            rayon::current_num_threads()
        );
        if r.reps > 1 {
            println!(
                "prover breakdown (the best of {} runs):\n{}",
                r.reps, r.timings
            );
        } else {
            println!("prover breakdown:\n{}", r.timings);
        }
        println!(
            "throughput: {:.0} compressions/s proved, {:.0}/s native (1 core) → {:.1}× overhead",
            r.proved_per_sec(),
            r.native_per_sec,
            r.overhead()
        );
        if r.reps > 1 {
            println!(
                "{}",
                best_and_median(
                    r.reps,
                    t.total(),
                    r.prove_median,
                    (r.proved_per_sec(), r.median_per_sec()),
                    "compressions"
                )
            );
        }
        println!(
            "proof: {:.1} KiB, verified in {:.2} ms; setup {:.1} ms; peak memory {peak:.0} MiB",
            r.proof_bytes as f64 / 1024.0,
            r.verify.as_secs_f64() * 1e3,
            r.setup.as_secs_f64() * 1e3
        );
        println!("soundness:\n{}", r.soundness);
    }
    Ok(())
}

fn prove_permutations(args: ProveArgs) -> Result<(), WorkloadError> {
    use flockwork::permutations::PermutationWorkload;
    if args.profile.is_some() {
        return Err(invalid(
            "poseidon2b is proved with the GKR engine: --profile (Ligerito's batch-R1CS \
             preset) does not apply; --pcs commits the input layer",
        ));
    }
    if args.merkle || args.public || args.memory_limit.is_some() {
        return Err(invalid(
            "poseidon2b batches are independent permutations (their inputs are public, or \
             committed with --pcs): --merkle, --public and --memory-limit apply to the \
             batch-R1CS hashes only",
        ));
    }
    let count = match (args.count, args.log_instances) {
        (Some(count), _) => count,
        (None, Some(k)) if k <= 24 => 1 << k,
        (None, Some(k)) => return Err(invalid(format!("2^{k} permutations: at most 2^24"))),
        (None, None) => 1 << 10,
    };
    let variant = args.batcher.unwrap_or(BatcherArg::Ragged).variant();
    let pcs = args.pcs.map(PcsArg::kind);
    let workload = PermutationWorkload::for_count(count, args.seed, variant)?
        .with_pcs(pcs)
        .with_transcript(args.transcript);
    let regions = workload
        .widths
        .iter()
        .map(|w| format!("2^{w}"))
        .collect::<Vec<_>>()
        .join(" + ");
    let r = with_progress(
        format!(
            "proving and verifying {count} Poseidon2b permutations ({regions}) with the {} \
             batcher on {} thread(s){}",
            variant.name(),
            rayon::current_num_threads(),
            runs_note(args.reps)
        ),
        || workload.run_reps(args.reps),
    )?;
    let peak = peak_memory_mib().unwrap_or(f64::NAN);
    if let Some(path) = &args.out {
        use flockwork::proof_file::{GkrFile, GkrOpenedFile, ProofFile};
        let claims = r
            .statement
            .regions
            .iter()
            .map(|region| region.claim.clone())
            .collect();
        let file = match &r.commitment {
            None => ProofFile::Gkr(GkrFile {
                variant,
                transcript: args.transcript,
                inputs: r.inputs.clone(),
                claims,
                proof: r.proof.clone(),
            }),
            Some((pcs, commitment)) => ProofFile::GkrOpened(GkrOpenedFile {
                variant,
                transcript: args.transcript,
                pcs: *pcs,
                commitment: commitment.clone(),
                claims,
                proof: r.proof.clone(),
            }),
        };
        write_proof_file(path, &file, args.json)?;
    }
    let layer0 = r.commitment.as_ref().map_or_else(
        || "the layer-0 check against the inputs, which are public".to_owned(),
        |(pcs, _)| format!("the opening of the inputs' {} commitment", pcs.name()),
    );
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    if args.json {
        println!(
            "{{\"hash\":\"poseidon2b\",\"batcher\":\"{}\",\"pcs\":{},\"instances\":{},\"widths\":{:?},\"threads\":{},\"reps\":{},\"physical_rows\":{},\"prove_ms\":{:.3},\"prove_ms_median\":{:.3},\"verify_ms\":{:.3},\"proof_bytes\":{},\"per_sec\":{:.1},\"per_sec_median\":{:.1},\"native_per_sec\":{:.1},\"overhead\":{:.1},\"soundness_bits\":{:.2},\"peak_mib\":{:.1}}}",
            variant.name(),
            r.commitment
                .as_ref()
                .map_or("null".to_owned(), |(pcs, _)| format!("\"{}\"", pcs.name())),
            r.permutations(),
            workload.widths,
            rayon::current_num_threads(),
            r.reps,
            r.physical_rows,
            ms(r.prove),
            ms(r.prove_median),
            ms(r.verify),
            r.proof.len(),
            r.proved_per_sec(),
            r.median_per_sec(),
            r.native_per_sec,
            r.overhead(),
            r.soundness_bits,
            peak,
        );
    } else {
        println!(
            "poseidon2b (t = 4) × {} in regions {regions}, GKR {} batcher ({} prover rows), {} \
             thread(s)",
            r.permutations(),
            variant.name(),
            r.physical_rows,
            rayon::current_num_threads()
        );
        println!(
            "prover {:.1} ms: {:.0} permutations/s proved, {:.0}/s native (1 core) → {:.1}× \
             overhead",
            ms(r.prove),
            r.proved_per_sec(),
            r.native_per_sec,
            r.overhead()
        );
        if r.reps > 1 {
            println!(
                "{}",
                best_and_median(
                    r.reps,
                    r.prove,
                    r.prove_median,
                    (r.proved_per_sec(), r.median_per_sec()),
                    "permutations"
                )
            );
        }
        println!(
            "proof: {:.1} KiB, verified in {:.2} ms (the walk and {layer0}); peak memory \
             {peak:.0} MiB",
            r.proof.len() as f64 / 1024.0,
            ms(r.verify)
        );
        println!(
            "soundness: {:.1} bits (GF(2^256) challenges{})",
            r.soundness_bits,
            if r.commitment.is_some() {
                format!(
                    "; the commitment selected for {} bits",
                    flockwork::permutations::LAYER0_TARGET_BITS
                )
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// One measured scheme: the library's row and the peak memory of the process that ran it.
struct MeasuredPcs {
    row: flockwork::compare::PcsRow,
    peak_mib: f64,
}

/// The worker's line: `row <name> <commit s> <open s> <verify s> <bytes> <bits> <peak MiB>`.
fn worker_line(m: &MeasuredPcs) -> String {
    let r = &m.row;
    format!(
        "row {} {} {} {} {} {} {}",
        r.kind.name(),
        r.commit.as_secs_f64(),
        r.open.as_secs_f64(),
        r.verify.as_secs_f64(),
        r.proof_bytes,
        r.security_bits,
        m.peak_mib
    )
}

fn parse_worker_line(
    line: &str,
    kind: flockwork::pcs::PcsKind,
    log_bits: usize,
) -> Option<MeasuredPcs> {
    let mut f = line.strip_prefix("row ")?.split_whitespace();
    if f.next()? != kind.name() {
        return None;
    }
    let secs = |x: Option<&str>| -> Option<std::time::Duration> {
        x?.parse::<f64>()
            .ok()
            .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
    };
    let commit = secs(f.next())?;
    let open = secs(f.next())?;
    let verify = secs(f.next())?;
    let proof_bytes = f.next()?.parse().ok()?;
    let security_bits = f.next()?.parse().ok()?;
    let peak_mib = f.next()?.parse().ok()?;
    Some(MeasuredPcs {
        row: flockwork::compare::PcsRow {
            kind,
            log_bits,
            commit,
            open,
            verify,
            proof_bytes,
            security_bits,
        },
        peak_mib,
    })
}

/// Runs one scheme in a fresh copy of this executable.
fn measure_in_worker(
    pcs: PcsArg,
    comparison: &flockwork::compare::PcsComparison,
    threads: Option<usize>,
) -> Result<MeasuredPcs, WorkloadError> {
    let stdout = run_worker(
        &[
            "compare",
            "pcs",
            "--worker",
            "--log-bits",
            &comparison.log_bits.to_string(),
            "--security",
            &comparison.target_bits.to_string(),
            "--seed",
            &comparison.seed.to_string(),
            "--reps",
            &comparison.reps.to_string(),
            "--pcs",
            pcs.kind().name(),
        ],
        threads,
    )?;
    stdout
        .lines()
        .find_map(|l| parse_worker_line(l, pcs.kind(), comparison.log_bits))
        .ok_or_else(|| WorkloadError::Failed("the worker printed no result".into()))
}

/// One measured batcher and the peak memory of the process that ran it.
struct MeasuredBatch {
    row: flockwork::compare::BatchRow,
    peak_mib: f64,
}

fn parse_batch_line(line: &str, variant: flockwork::gkr::Variant) -> Option<MeasuredBatch> {
    let mut f = line.strip_prefix("batch ")?.split_whitespace();
    if f.next()? != variant.name() {
        return None;
    }
    let physical_rows = f.next()?.parse().ok()?;
    let secs = |x: Option<&str>| -> Option<std::time::Duration> {
        std::time::Duration::try_from_secs_f64(x?.parse::<f64>().ok()?).ok()
    };
    let prove = secs(f.next())?;
    let verify = secs(f.next())?;
    Some(MeasuredBatch {
        row: flockwork::compare::BatchRow {
            variant,
            physical_rows,
            prove,
            verify,
            proof_bytes: f.next()?.parse().ok()?,
            security_bits: f.next()?.parse().ok()?,
        },
        peak_mib: f.next()?.parse().ok()?,
    })
}

fn compare_batch(
    comparison: &flockwork::compare::BatchComparison,
    batchers: &[BatcherArg],
    threads: Option<usize>,
    json: bool,
    in_process: bool,
    worker: bool,
) -> Result<(), WorkloadError> {
    flockwork::permutations::check_widths(&comparison.widths)?;
    if worker {
        let [batcher] = batchers else {
            return Err(WorkloadError::InvalidParameters(
                "a worker measures exactly one batcher".into(),
            ));
        };
        let r = comparison.run(batcher.variant())?;
        println!(
            "batch {} {} {} {} {} {} {}",
            r.variant.name(),
            r.physical_rows,
            r.prove.as_secs_f64(),
            r.verify.as_secs_f64(),
            r.proof_bytes,
            r.security_bits,
            peak_memory_mib().unwrap_or(f64::NAN)
        );
        return Ok(());
    }
    let widths: Vec<String> = comparison.widths.iter().map(ToString::to_string).collect();
    if !json {
        println!(
            "Poseidon2b (t = 4, 66 layers) over regions of widths [{}], GKR with GF(2^256) \
             challenges, layer 0 {}, {} thread(s){}\n",
            widths.join(","),
            comparison.pcs.map_or_else(
                || "checked against the public inputs".to_owned(),
                |k| format!("committed with {} (opened)", k.name())
            ),
            threads.unwrap_or_else(rayon::current_num_threads),
            if in_process {
                ""
            } else {
                ", one worker process per batcher"
            }
        );
        println!(
            "batcher      rows   prove (ms)  verify (ms)  proof (KiB)  peak (MiB)  security (bits)"
        );
    }
    for &batcher in batchers {
        let variant = batcher.variant();
        let m = with_progress(
            format!("proving with the {} batcher", variant.name()),
            || {
                if in_process {
                    comparison.run(variant).map(|row| MeasuredBatch {
                        row,
                        peak_mib: peak_memory_mib().unwrap_or(f64::NAN),
                    })
                } else {
                    let mut args = vec![
                        "compare".to_owned(),
                        "batch".to_owned(),
                        "--worker".to_owned(),
                        "--widths".to_owned(),
                        widths.join(","),
                        "--seed".to_owned(),
                        comparison.seed.to_string(),
                        "--batchers".to_owned(),
                        variant.name().to_owned(),
                    ];
                    if let Some(kind) = comparison.pcs {
                        args.extend(["--pcs".to_owned(), kind.name().to_owned()]);
                    }
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    run_worker(&args, threads).and_then(|stdout| {
                        stdout
                            .lines()
                            .find_map(|l| parse_batch_line(l, variant))
                            .ok_or_else(|| {
                                WorkloadError::Failed("the worker printed no result".into())
                            })
                    })
                }
            },
        )?;
        let r = &m.row;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        if json {
            println!(
                "{{\"batcher\":\"{}\",\"pcs\":{},\"widths\":[{}],\"physical_rows\":{},\"prove_ms\":{:.3},\"verify_ms\":{:.3},\"proof_bytes\":{},\"peak_mib\":{:.1},\"security_bits\":{:.2}}}",
                variant.name(),
                comparison
                    .pcs
                    .map_or("null".to_owned(), |k| format!("\"{}\"", k.name())),
                widths.join(","),
                r.physical_rows,
                ms(r.prove),
                ms(r.verify),
                r.proof_bytes,
                m.peak_mib,
                r.security_bits
            );
        } else {
            println!(
                "{:<11} {:>6} {:>12.1} {:>12.2} {:>12.1} {:>11.0} {:>16.1}",
                variant.name(),
                r.physical_rows,
                ms(r.prove),
                ms(r.verify),
                r.proof_bytes as f64 / 1024.0,
                m.peak_mib,
                r.security_bits
            );
        }
    }
    Ok(())
}

/// Runs this executable with `args` (and `--threads`), returning its standard output, or its
/// error message if it failed.
fn run_worker(args: &[&str], threads: Option<usize>) -> Result<String, WorkloadError> {
    let exe = std::env::current_exe()
        .map_err(|e| WorkloadError::Failed(format!("cannot find this executable: {e}")))?;
    let mut command = std::process::Command::new(exe);
    if let Some(t) = threads {
        command.arg("--threads").arg(t.to_string());
    }
    let output = command
        .args(args)
        .output()
        .map_err(|e| WorkloadError::Failed(format!("cannot start a worker: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(WorkloadError::Failed(
            stderr.trim().trim_start_matches("error: ").to_owned(),
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn compare_pcs(
    comparison: &flockwork::compare::PcsComparison,
    schemes: &[PcsArg],
    threads: Option<usize>,
    json: bool,
    in_process: bool,
    worker: bool,
) -> Result<(), WorkloadError> {
    if worker {
        let [pcs] = schemes else {
            return Err(WorkloadError::InvalidParameters(
                "a worker measures exactly one scheme".into(),
            ));
        };
        let row = comparison.run(pcs.kind())?;
        let peak_mib = peak_memory_mib().unwrap_or(f64::NAN);
        println!("{}", worker_line(&MeasuredPcs { row, peak_mib }));
        return Ok(());
    }
    if !json {
        println!(
            "2^{} committed bits (2^{} GF(2^128) elements after ring-switching), two evaluation \
             claims, {} bits targeted, {} thread(s), median of {} run(s){}\n",
            comparison.log_bits,
            comparison.log_bits.saturating_sub(7),
            comparison.target_bits,
            threads.unwrap_or_else(rayon::current_num_threads),
            comparison.reps,
            if in_process {
                ""
            } else {
                ", one worker process per scheme"
            }
        );
        println!(
            "pcs        commit (ms)  open (ms)  verify (ms)  proof (KiB)  peak (MiB)  security (bits)"
        );
    }
    for &pcs in schemes {
        let m = with_progress(
            format!(
                "committing, opening and verifying with {}",
                pcs.kind().name()
            ),
            || -> Result<MeasuredPcs, WorkloadError> {
                Ok(if in_process {
                    MeasuredPcs {
                        row: comparison.run(pcs.kind())?,
                        peak_mib: peak_memory_mib().unwrap_or(f64::NAN),
                    }
                } else {
                    measure_in_worker(pcs, comparison, threads)?
                })
            },
        )?;
        let r = &m.row;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        if json {
            println!(
                "{{\"pcs\":\"{}\",\"log_bits\":{},\"commit_ms\":{:.3},\"open_ms\":{:.3},\"verify_ms\":{:.3},\"proof_bytes\":{},\"peak_mib\":{:.1},\"security_bits\":{:.2}}}",
                r.kind.name(),
                r.log_bits,
                ms(r.commit),
                ms(r.open),
                ms(r.verify),
                r.proof_bytes,
                m.peak_mib,
                r.security_bits
            );
        } else {
            println!(
                "{:<9} {:>12.1} {:>10.1} {:>12.2} {:>12.1} {:>11.0} {:>16.1}",
                r.kind.name(),
                ms(r.commit),
                ms(r.open),
                ms(r.verify),
                r.proof_bytes as f64 / 1024.0,
                m.peak_mib,
                r.security_bits
            );
        }
    }
    Ok(())
}

fn sweep(
    hashes: &[HashArg],
    schemes: &[PcsArg],
    log_instances: &[usize],
    json: Option<&std::path::Path>,
) -> Result<(), WorkloadError> {
    if let Some(&k) = log_instances.iter().find(|&&k| k > 24) {
        return Err(WorkloadError::InvalidParameters(format!(
            "--log-instances {k}: at most 24"
        )));
    }
    let hashes: Vec<_> = hashes.iter().map(|&h| hash_kind(h)).collect();
    let schemes: Vec<_> = schemes.iter().map(|p| p.kind()).collect();
    println!("config              k   prove (ms)   per second  verify (ms)  proof (KiB)");
    let total = hashes.len() * schemes.len() * log_instances.len();
    let span = tracing::info_span!("sweep");
    {
        use tracing_indicatif::span_ext::IndicatifSpanExt;
        span.pb_set_style(
            &indicatif::ProgressStyle::with_template(
                "{span_child_prefix}{bar:30} {pos}/{len} proofs [{elapsed}]",
            )
            .expect("a valid template"),
        );
        span.pb_set_length(total as u64);
    }
    let sweep = span.in_scope(|| {
        flockwork::sweep::run(&hashes, &schemes, log_instances, |p| {
            tracing_indicatif::span_ext::IndicatifSpanExt::pb_inc(&span, 1);
            report_line(&format!(
                "{:<18} {:>2} {:>12.1} {:>12.0} {:>12.2} {:>12.1}",
                p.config,
                p.log_instances,
                p.prove_ms,
                p.per_sec,
                p.verify_ms,
                p.proof_bytes as f64 / 1024.0
            ));
        })
    });
    let sweep = sweep?;
    if let Some(path) = json {
        std::fs::write(path, sweep.to_json())
            .map_err(|e| WorkloadError::Failed(format!("cannot write {}: {e}", path.display())))?;
        eprintln!(
            "points written to {} (draw them: flockwork plot {} --svg sweep.svg)",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

fn plot(file: &std::path::Path, svg: &std::path::Path, json: bool) -> Result<(), WorkloadError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| WorkloadError::Failed(format!("cannot read {}: {e}", file.display())))?;
    let sweep = flockwork::sweep::Sweep::from_json(&text)
        .map_err(|e| WorkloadError::Failed(format!("{}: {e}", file.display())))?;
    sweep.plot_svg(svg)?;
    if json {
        println!(
            "{}",
            serde_json::json!({
                "svg": svg.display().to_string(),
                "series": sweep.series(),
                "points": sweep.points.len(),
            })
        );
        return Ok(());
    }
    println!(
        "{} series, {} points drawn to {}",
        sweep.series().len(),
        sweep.points.len(),
        svg.display()
    );
    Ok(())
}

fn hash_kind(hash: HashArg) -> flockwork::flock::HashKind {
    use flockwork::flock::HashKind;
    match hash {
        HashArg::Sha256 => HashKind::Sha256,
        HashArg::Keccak => HashKind::Keccak,
        HashArg::Blake3 => HashKind::Blake3,
    }
}

fn security(
    hash: HashArg,
    log_instances: usize,
    pcs: PcsArg,
    profile: ProfileArg,
    target: u32,
    json: bool,
) -> Result<(), WorkloadError> {
    let config = flockwork::r1cs::FlockConfig {
        scheme: pcs.kind(),
        preset: match profile {
            ProfileArg::Fast => flockwork::r1cs::Preset::Fast,
            ProfileArg::Slim => flockwork::r1cs::Preset::Slim,
        },
        target_bits: target,
        ..Default::default()
    };
    let hash = hash_kind(hash);
    let s = flockwork::flock::security_summary(hash, log_instances, config)?;
    if json {
        let protocol: Vec<_> = s
            .protocol
            .terms
            .iter()
            .map(|t| serde_json::json!({ "term": t.name, "bits": t.bits }))
            .collect();
        let commitment: Vec<_> = s
            .pcs
            .terms
            .iter()
            .map(|t| serde_json::json!({ "term": t.name, "level": t.level, "bits": t.bits }))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "hash": hash.name(),
                "pcs": pcs.kind().name(),
                "log_instances": log_instances,
                "instances": s.shape.instances(),
                "copies": s.shape.copies,
                "blocks": s.shape.blocks,
                "log_blocks": s.shape.log_blocks(),
                "num_vars": s.num_vars,
                "target_bits": target,
                "protocol_terms": protocol,
                "protocol_bits": s.protocol.bits(),
                "pcs_terms": commitment,
                "pcs_bits": s.pcs.bits(),
            })
        );
        return Ok(());
    }
    println!(
        "batch-R1CS over {} (ring-switched), {} × {}, m = {}, target {target} bits\n",
        pcs.kind().name(),
        hash.name(),
        describe_shape(s.shape),
        s.num_vars
    );
    println!("protocol terms:\n{}\n", s.protocol);
    println!("{} terms (round-by-round):\n{}", pcs.kind().name(), s.pcs);
    Ok(())
}

fn verify_file(path: &std::path::Path, json: bool) -> Result<(), WorkloadError> {
    use flockwork::proof_file::ProofFile;
    let bytes = std::fs::read(path)
        .map_err(|e| WorkloadError::Failed(format!("cannot read {}: {e}", path.display())))?;
    let reject = |e: flockwork::proof_file::ProofFileError| {
        WorkloadError::Failed(format!("{}: {e}", path.display()))
    };
    let file = ProofFile::from_bytes(&bytes).map_err(reject)?;
    let clock = std::time::Instant::now();
    file.verify().map_err(reject)?;
    let elapsed = clock.elapsed().as_secs_f64() * 1e3;
    let bytes = file.proof().len();
    if json {
        use flockwork::proof_file::ProofFile;
        let fields = match &file {
            ProofFile::Flock(f) => format!(
                "\"system\":\"batch-r1cs\",\"hash\":\"{}\",\"io\":\"{}\",\"pcs\":\"{}\",\"instances\":{},\"copies\":{},\"blocks\":{}",
                f.hash.name(),
                f.io().name(),
                f.pcs.name(),
                f.instances(),
                f.copies,
                f.blocks
            ),
            ProofFile::Gkr(g) => format!(
                "\"system\":\"gkr\",\"hash\":\"poseidon2b\",\"batcher\":\"{}\",\"instances\":{}",
                g.variant.name(),
                g.permutations()
            ),
            ProofFile::GkrOpened(g) => format!(
                "\"system\":\"gkr\",\"hash\":\"poseidon2b\",\"batcher\":\"{}\",\"pcs\":\"{}\",\"instances\":{}",
                g.variant.name(),
                g.pcs.name(),
                g.permutations()
            ),
        };
        println!("{{\"valid\":true,{fields},\"proof_bytes\":{bytes},\"verify_ms\":{elapsed:.3}}}");
    } else {
        println!(
            "valid: {}, {:.1} KiB, verified in {elapsed:.2} ms",
            file.describe(),
            bytes as f64 / 1024.0
        );
    }
    Ok(())
}

fn tour(vars: usize, json: bool) -> Result<(), WorkloadError> {
    // The prose and the tables for people; one JSON object per row with `--json`.
    let text = |line: String| {
        if !json {
            println!("{line}");
        }
    };
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    text(format!(
        "flockwork tour: Σ_x eq(r,x)·P0(x)·P1(x)·P2(x) over 2^{vars} points, proved and \
         verified with a SHA-256 transcript in each field."
    ));
    text(format!("GF(2^128) kernel: {}\n", Backend::active().name()));
    text(TABLE_HEADER.to_owned());
    let workload = SumcheckWorkload {
        num_vars: vars,
        degree: 3,
        with_eq: true,
        seed: 1,
    };
    for field in [
        FieldChoice::Ghash,
        FieldChoice::Tower,
        FieldChoice::Ghash256,
        FieldChoice::Goldilocks,
        FieldChoice::Bn254,
    ] {
        let report = run_sumcheck(field, HashChoice::Sha256, &workload)?;
        if json {
            let row = json_row(field, HashChoice::Sha256, &report);
            println!("{{\"table\":\"sumcheck\",{}", &row[1..]);
        } else {
            println!("{}", table_row(field, &report));
        }
    }
    text(
        "\nSoundness is −log2 of the sumcheck's error n·(d+1)/|F|. Goldilocks alone is below \
         100 bits: it needs challenges from an extension field."
            .to_owned(),
    );
    let k = 10;
    text(format!(
        "\nBatch-R1CS (Flock): a chain of 2^{k} compressions per hash, proved, verified, and \
         compared with native hashing on one core ({} prover thread(s)).\n",
        rayon::current_num_threads()
    ));
    text(
        "hash        prove (ms)  per second  × native  verify (ms)  proof (KiB)  soundness (bits)"
            .to_owned(),
    );
    for hash in flockwork::flock::HashKind::ALL {
        let r = flockwork::flock::FlockWorkload {
            hash,
            count: 1 << k,
            seed: 1,
            io: flockwork::flock::IoKind::Chain,
            config: flockwork::r1cs::FlockConfig::default(),
            transcript: flockwork::transcript::TranscriptKind::Sha256,
        }
        .run()?;
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "table": "batch-r1cs",
                    "hash": hash.name(),
                    "log_instances": k,
                    "prove_ms": ms(r.timings.total()),
                    "per_sec": r.proved_per_sec(),
                    "overhead": r.overhead(),
                    "verify_ms": ms(r.verify),
                    "proof_bytes": r.proof_bytes,
                    "soundness_bits": r.soundness.bits(),
                })
            );
        } else {
            println!(
                "{:<10} {:>11.1} {:>11.0} {:>9.0} {:>12.2} {:>12.1} {:>17.1}",
                hash.name(),
                ms(r.timings.total()),
                r.proved_per_sec(),
                r.overhead(),
                ms(r.verify),
                r.proof_bytes as f64 / 1024.0,
                r.soundness.bits()
            );
        }
    }
    let widths = vec![10, 8, 9, 6];
    text(format!(
        "\nLayered GKR: Poseidon2b output claims over regions of {} permutations, proved with \
         each batcher (the ragged walk pays only the regions' own rows).\n",
        widths
            .iter()
            .map(|w| format!("2^{w}"))
            .collect::<Vec<_>>()
            .join(" + ")
    ));
    text("batcher      rows   prove (ms)  verify (ms)  proof (KiB)  soundness (bits)".to_owned());
    let batch = flockwork::compare::BatchComparison {
        widths,
        seed: 1,
        pcs: None,
    };
    for variant in flockwork::gkr::Variant::ALL {
        let r = batch.run(variant)?;
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "table": "gkr",
                    "batcher": variant.name(),
                    "widths": batch.widths,
                    "physical_rows": r.physical_rows,
                    "prove_ms": ms(r.prove),
                    "verify_ms": ms(r.verify),
                    "proof_bytes": r.proof_bytes,
                    "soundness_bits": r.security_bits,
                })
            );
        } else {
            println!(
                "{:<11} {:>6} {:>12.1} {:>12.2} {:>12.1} {:>17.1}",
                variant.name(),
                r.physical_rows,
                ms(r.prove),
                ms(r.verify),
                r.proof_bytes as f64 / 1024.0,
                r.security_bits
            );
        }
    }
    let log_bits = 22;
    text(format!(
        "\nPolynomial commitments: a random Boolean polynomial of 2^{log_bits} bits, committed, \
         opened at two points and verified with each scheme (ring-switching, 100 bits).\n"
    ));
    text("pcs        commit (ms)  open (ms)  verify (ms)  proof (KiB)  security (bits)".to_owned());
    let comparison = flockwork::compare::PcsComparison {
        log_bits,
        target_bits: 100,
        seed: 1,
        reps: 1,
    };
    for kind in flockwork::pcs::PcsKind::ALL {
        let r = comparison.run(kind)?;
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "table": "pcs",
                    "pcs": kind.name(),
                    "log_bits": log_bits,
                    "commit_ms": ms(r.commit),
                    "open_ms": ms(r.open),
                    "verify_ms": ms(r.verify),
                    "proof_bytes": r.proof_bytes,
                    "security_bits": r.security_bits,
                })
            );
        } else {
            println!(
                "{:<9} {:>12.1} {:>10.1} {:>12.2} {:>12.1} {:>16.1}",
                kind.name(),
                ms(r.commit),
                ms(r.open),
                ms(r.verify),
                r.proof_bytes as f64 / 1024.0,
                r.security_bits
            );
        }
    }
    text(
        "\nMore: flockwork --help; a phase breakdown: flockwork prove --hash keccak; \
         commitments side by side with peak memory: flockwork compare pcs --log-bits 28"
            .to_owned(),
    );
    Ok(())
}

/// A closed stdout (`flockwork tour --json | head -1`) ends the process quietly, as SIGPIPE
/// ends a C tool (exit status 141), instead of printing a panic from `println!`.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Stack size of the pool's threads: the 8 MiB of a Linux main thread, since the commands run
/// on the pool.
const MAIN_STACK_BYTES: usize = 8 << 20;

fn main() -> ExitCode {
    // Phases free and reallocate hundreds of MiB: keep freed memory mapped for reuse
    // (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    exit_quietly_on_broken_pipe();
    let cli = Cli::parse();
    let for_people = !cli.command.as_ref().is_some_and(Command::machine_output);
    init_tracing(
        cli.trace,
        for_people && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    );
    if cli.threads == Some(0) {
        eprintln!("error: --threads must be at least 1");
        return ExitCode::FAILURE;
    }
    // `num_threads(0)` is rayon's default count; the stacks are those of a main thread,
    // since the command itself runs on the pool: the provers start themselves on a worker
    // (`flockwork::poly::on_worker`), and so does every command, for the library calls
    // (commitments, native hashing) that are not provers.
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads.unwrap_or(0))
        .stack_size(MAIN_STACK_BYTES)
        .build_global()
    {
        eprintln!("error: cannot start the worker threads: {e}");
        return ExitCode::FAILURE;
    }
    let result = flockwork::poly::on_worker(move || {
        match cli.command.unwrap_or(Command::Tour {
            vars: 18,
            json: false,
        }) {
            Command::Tour { vars, json } => tour(vars, json),
            Command::Info { json } => {
                info(json);
                Ok(())
            }
            Command::Prove {
                hash,
                count,
                log_instances,
                chain: _,
                merkle,
                public,
                transcript,
                seed,
                profile,
                pcs,
                batcher,
                out,
                memory_limit,
                reps,
                json,
            } => prove(ProveArgs {
                memory_limit,
                hash,
                count,
                log_instances,
                merkle,
                public,
                transcript: transcript.map_or_else(Default::default, TranscriptArg::kind),
                seed,
                profile,
                pcs,
                batcher,
                out,
                reps,
                json,
            }),
            Command::Verify { file, json } => verify_file(&file, json),
            Command::Sweep {
                hash,
                pcs,
                log_instances,
                json,
            } => sweep(&hash, &pcs, &log_instances, json.as_deref()),
            Command::Plot { file, svg, json } => plot(&file, &svg, json),
            Command::Security {
                hash,
                log_instances,
                pcs,
                profile,
                target,
                json,
            } => security(hash, log_instances, pcs, profile, target, json),
            Command::Compare {
                what:
                    CompareWhat::Pcs {
                        log_bits,
                        pcs,
                        security,
                        seed,
                        reps,
                        json,
                        in_process,
                        worker,
                    },
            } => {
                let comparison = flockwork::compare::PcsComparison {
                    log_bits,
                    target_bits: security,
                    seed,
                    reps,
                };
                compare_pcs(&comparison, &pcs, cli.threads, json, in_process, worker)
            }
            Command::Compare {
                what:
                    CompareWhat::Batch {
                        widths,
                        batchers,
                        seed,
                        pcs,
                        json,
                        in_process,
                        worker,
                    },
            } => {
                let comparison = flockwork::compare::BatchComparison {
                    widths,
                    seed,
                    pcs: pcs.map(PcsArg::kind),
                };
                compare_batch(
                    &comparison,
                    &batchers,
                    cli.threads,
                    json,
                    in_process,
                    worker,
                )
            }
            Command::Sumcheck {
                field,
                vars,
                degree,
                no_eq,
                hash,
                seed,
                json,
            } => {
                let workload = SumcheckWorkload {
                    num_vars: vars,
                    degree,
                    with_eq: !no_eq,
                    seed,
                };
                run_sumcheck(field, hash, &workload).map(|report| {
                    if json {
                        println!("{}", json_row(field, hash, &report));
                    } else {
                        println!("{TABLE_HEADER}");
                        println!("{}", table_row(field, &report));
                    }
                })
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
