//! `flockwork prove`: prove and verify one batch — hash compressions (a chain, a Merkle tree
//! or public inputs and outputs) with batch-R1CS, Keccak-f with GKR on its Boolean layers, or
//! Poseidon2b permutations with the GKR batchers — and report the prover's phases,
//! throughput, proof size, verify time and soundness.

use std::path::PathBuf;
use std::time::Duration;

use flockwork::engines::System;
use flockwork::flock::{BatchShape, FlockWorkload, HashKind, IoKind};
use flockwork::gkr::Variant;
use flockwork::pcs::PcsKind;
use flockwork::proof_file::ProofFile;
use flockwork::r1cs::Preset;
use flockwork::transcript::TranscriptKind;
use flockwork::workload::WorkloadError;
use serde::{Deserialize, Serialize};

use super::{Choice, choice, invalid, ms, peak_mib, with_progress};

/// What `--hash` proves: a compression function or permutation of a Boolean gadget, or the
/// Poseidon2b permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proved {
    /// A Boolean hash (SHA-256, Keccak-f, BLAKE3).
    Hash(HashKind),
    /// The Poseidon2b permutation over GF(2^128), t = 4 (GKR).
    Poseidon2b,
}

impl Choice for Proved {
    const ALL: &'static [Self] = &[
        Self::Hash(HashKind::Sha256),
        Self::Hash(HashKind::Keccak),
        Self::Hash(HashKind::Blake3),
        Self::Poseidon2b,
    ];
    fn word(self) -> &'static str {
        match self {
            Self::Hash(hash) => hash.word(),
            Self::Poseidon2b => "poseidon2b",
        }
    }
}

/// The options of `flockwork prove`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("size").args(["count", "log_instances"])))]
#[command(group(clap::ArgGroup::new("io").args(["chain", "merkle", "public"])))]
pub struct Args {
    /// The compression function or permutation: sha256, keccak, blake3 or poseidon2b.
    #[arg(long, value_parser = choice::<Proved>(), default_value = "sha256")]
    pub hash: Proved,
    /// The proof system, r1cs or gkr [default: r1cs for the Boolean hashes, gkr for
    /// poseidon2b].
    #[arg(long, value_parser = choice::<System>())]
    pub system: Option<System>,
    /// Number of instances, proved exactly (any count from 1 to 2^24; a Merkle tree takes at
    /// least 2 leaves, and a Keccak-f chain's last block runs past the end, which the verifier
    /// accounts for).
    #[arg(long)]
    pub count: Option<usize>,
    /// k: 2^k instances (default 10; the alternative to --count).
    #[arg(long)]
    pub log_instances: Option<usize>,
    /// Prove a hash chain: only its two ends are public (the default).
    #[arg(long)]
    pub chain: bool,
    /// Prove a Merkle tree over one leaf per instance: the root and leaves are public
    /// (sha256, blake3).
    #[arg(long)]
    pub merkle: bool,
    /// Prove independent instances whose inputs and outputs are all public.
    #[arg(long)]
    pub public: bool,
    /// The Fiat–Shamir transcript: sha256, blake3 or poseidon2b.
    #[arg(long, value_parser = choice::<TranscriptKind>(), default_value = "sha256")]
    pub transcript: TranscriptKind,
    /// Seed of the message blocks, leaves or permutation inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ligerito profile of batch-R1CS: fast (rate 1/2, bigger proofs) or slim (rate 1/4,
    /// grinding) [default: fast].
    #[arg(long, value_parser = choice::<Preset>())]
    pub profile: Option<Preset>,
    /// The polynomial commitment (ligerito, fri, blaze): for batch-R1CS the dense commitment
    /// under ring-switching [default: ligerito]; for GKR the commitment of the inputs, whose
    /// opening then proves the layer-0 claims [default: none, the inputs are public].
    #[arg(long, value_parser = choice::<PcsKind>())]
    pub pcs: Option<PcsKind>,
    /// The GKR batcher: independent, padded or ragged [default: ragged].
    #[arg(long, value_parser = choice::<Variant>())]
    pub batcher: Option<Variant>,
    /// Security target of the commitment's parameter selection, in bits.
    #[arg(long, default_value_t = 100)]
    pub target_bits: u32,
    /// Write the proof and its statement to this file (check it with `flockwork verify`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Refuse batches whose estimated prover memory exceeds this size (512MiB, 4GiB, 1.5GB;
    /// a bare number is MiB) [default: 90% of the machine's memory].
    #[arg(long, value_parser = flockwork::memory::parse_size)]
    pub memory_limit: Option<u64>,
    /// Measured runs: with N > 1 the same statement (same seed) is proved N + 1 times in
    /// this process, the first a warm-up that is not counted. Each run proves and
    /// verifies afresh: batch-R1CS generates the witness (timed as the prover's witness
    /// phase), GKR commits its inputs when --pcs is given (timed with the prover).
    /// Setup is done once, untimed. The report is the best run (least prover time) with
    /// the median prover time and throughput beside it; the verify time is the least over
    /// the runs (each run's proof is verified); the peak memory is the process's over all
    /// runs; --out writes the best run's proof.
    #[arg(long, default_value_t = 1)]
    pub reps: usize,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
}

/// `flockwork prove`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    if args.reps == 0 {
        return Err(invalid(
            "--reps 0: at least one measured run is needed (--reps 1, the default, proves once)",
        ));
    }
    match (args.hash, args.system) {
        (Proved::Hash(hash), None | Some(System::BatchR1cs)) => prove_flock(hash, args),
        (Proved::Hash(HashKind::Keccak), Some(System::Gkr)) => super::keccak::prove(args),
        (Proved::Hash(hash), Some(System::Gkr)) => Err(invalid(format!(
            "--system gkr proves keccak (Boolean layers: AND/XOR) and poseidon2b; {} is \
             proved with batch-R1CS (--system r1cs)",
            hash.word()
        ))),
        (Proved::Poseidon2b, None | Some(System::Gkr)) => prove_permutations(args),
        (Proved::Poseidon2b, Some(System::BatchR1cs)) => Err(invalid(
            "poseidon2b is a GF(2^128) permutation proved with GKR (--system gkr)",
        )),
    }
}

/// The instances a run asks for: `2^k` for `--log-instances k` (default 10), or `--count`.
pub fn count(args: &Args) -> Result<usize, WorkloadError> {
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
pub fn describe_shape(shape: BatchShape) -> String {
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

/// Writes `file` to `path`, saying so unless the output is JSON.
pub fn write_proof_file(
    path: &std::path::Path,
    file: &ProofFile,
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
pub fn runs_note(reps: usize) -> String {
    if reps > 1 {
        format!(", a warm-up and {reps} measured runs")
    } else {
        String::new()
    }
}

/// Prints the report's line for `--reps N > 1` (none for one run): the best run and the
/// median, prover time and throughput (`what` per second).
pub fn print_best_and_median(
    reps: usize,
    best: Duration,
    median: Duration,
    per_sec: (f64, f64),
    what: &str,
) {
    if reps > 1 {
        println!(
            "best of {reps} runs: {:.1} ms, {:.0} {what}/s proved; median: {:.1} ms, {:.0} \
             {what}/s",
            ms(best),
            per_sec.0,
            ms(median),
            per_sec.1,
        );
    }
}

/// The report of a batch-R1CS run, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FlockRow {
    /// The hash.
    pub hash: String,
    /// `chain`, `merkle` or `public`.
    pub io: String,
    /// The commitment.
    pub pcs: String,
    /// The transcript.
    pub transcript: String,
    /// The instances asked for.
    pub count: usize,
    /// The instances proved.
    pub instances: usize,
    /// Instances per block.
    pub copies: usize,
    /// Blocks.
    pub blocks: usize,
    /// `⌈log2 blocks⌉`.
    pub log_blocks: usize,
    /// Prover threads.
    pub threads: usize,
    /// Measured runs.
    pub reps: usize,
    /// Variables of the committed witness polynomial.
    pub num_vars: usize,
    /// Witness generation.
    pub witness_ms: f64,
    /// Commitment.
    pub commit_ms: f64,
    /// Zerocheck.
    pub zerocheck_ms: f64,
    /// Lincheck.
    pub lincheck_ms: f64,
    /// The IO argument.
    pub io_ms: f64,
    /// The opening.
    pub open_ms: f64,
    /// The measurement.
    #[serde(flatten)]
    pub measured: Measured,
    /// Native compressions per second, one core.
    pub native_per_sec: f64,
    /// Prover time over native time.
    pub overhead: f64,
}

/// What every proving run reports: times, size, throughput, soundness and memory.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    /// Prover time of the best run.
    pub prove_ms: f64,
    /// Median prover time.
    pub prove_ms_median: f64,
    /// Verifier time.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Instances proved per second (best run).
    pub per_sec: f64,
    /// Instances proved per second (median run).
    pub per_sec_median: f64,
    /// Soundness.
    pub soundness_bits: f64,
    /// Peak resident memory of the process.
    pub peak_mib: f64,
}

fn prove_flock(hash: HashKind, args: &Args) -> Result<(), WorkloadError> {
    if args.batcher.is_some() {
        return Err(invalid(
            "--batcher chooses a GKR batcher: it applies to --system gkr only",
        ));
    }
    let count = count(args)?;
    let io = if args.merkle {
        IoKind::Merkle
    } else if args.public {
        IoKind::Public
    } else {
        IoKind::Chain
    };
    let batch = BatchShape::for_count(hash, io, count);
    if batch.overhang() > 0 && !args.json {
        eprintln!(
            "note: batch-R1CS proves Keccak-f in blocks of {}: the last block runs {} \
             permutation(s) past the chain's end, which the verifier recomputes",
            batch.copies,
            batch.overhang()
        );
    }
    let config = flockwork::r1cs::FlockConfig {
        scheme: args.pcs.unwrap_or_default(),
        preset: args.profile.unwrap_or(Preset::Fast),
        target_bits: args.target_bits,
        memory_limit: args
            .memory_limit
            .or_else(|| flockwork::memory::total_bytes().map(|bytes| bytes / 10 * 9)),
        ..Default::default()
    };
    let what = match io {
        // Never committed here: the flags name a chain, a tree or public IO.
        IoKind::Chain | IoKind::Committed => format!(
            "a chain of {} {} compressions",
            describe_shape(batch),
            hash.name()
        ),
        IoKind::Merkle => format!(
            "a Merkle tree over {count} leaves ({} {} node compressions)",
            count.saturating_sub(1),
            hash.name()
        ),
        IoKind::Public => format!(
            "public inputs and outputs of {} {} compressions",
            describe_shape(batch),
            hash.name()
        ),
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
            "proving and verifying {what} on {} thread(s){}",
            rayon::current_num_threads(),
            runs_note(args.reps)
        ),
        || workload.run_reps(args.reps),
    )?;
    let peak = peak_mib();
    if let Some(path) = &args.out {
        let file = ProofFile::of_flock(&workload, &r);
        write_proof_file(path, &file, args.json)?;
    }
    let t = &r.timings;
    if args.json {
        super::print_json(&FlockRow {
            hash: r.hash.name().to_owned(),
            io: io.name().to_owned(),
            pcs: config.scheme.name().to_owned(),
            transcript: args.transcript.name().to_owned(),
            count: r.count,
            instances: r.instances(),
            copies: r.shape.copies,
            blocks: r.shape.blocks,
            log_blocks: r.shape.log_blocks(),
            threads: rayon::current_num_threads(),
            reps: r.reps,
            num_vars: r.num_vars,
            witness_ms: ms(t.witness),
            commit_ms: ms(t.commit),
            zerocheck_ms: ms(t.zerocheck),
            lincheck_ms: ms(t.lincheck),
            io_ms: ms(t.io),
            open_ms: ms(t.open),
            measured: Measured {
                prove_ms: ms(t.total()),
                prove_ms_median: ms(r.prove_median),
                verify_ms: ms(r.verify),
                proof_bytes: r.proof_bytes,
                per_sec: r.proved_per_sec(),
                per_sec_median: r.median_per_sec(),
                soundness_bits: r.soundness.bits(),
                peak_mib: peak,
            },
            native_per_sec: r.native_per_sec,
            overhead: r.overhead(),
        });
        return Ok(());
    }
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
    print_best_and_median(
        r.reps,
        t.total(),
        r.prove_median,
        (r.proved_per_sec(), r.median_per_sec()),
        "compressions",
    );
    println!(
        "proof: {:.1} KiB, verified in {:.2} ms; setup {:.1} ms; peak memory {peak:.0} MiB",
        r.proof_bytes as f64 / 1024.0,
        ms(r.verify),
        ms(r.setup)
    );
    println!("soundness (bits):\n{}", r.soundness);
    Ok(())
}

/// The report of a GKR run over permutations, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GkrRow {
    /// The permutation.
    pub hash: String,
    /// The batcher.
    pub batcher: String,
    /// The commitment of the inputs, if any.
    pub pcs: Option<String>,
    /// The permutations proved.
    pub instances: usize,
    /// The region widths.
    pub widths: Vec<usize>,
    /// Prover threads.
    pub threads: usize,
    /// Measured runs.
    pub reps: usize,
    /// Rows the prover's tables hold.
    pub physical_rows: usize,
    /// The measurement.
    #[serde(flatten)]
    pub measured: Measured,
    /// Native permutations per second, one core.
    pub native_per_sec: f64,
    /// Prover time over native time.
    pub overhead: f64,
}

/// Refuses the batch-R1CS options on a GKR run of `what` (`--public` too where the
/// inputs and outputs are public unless `--pcs` commits them anyway).
pub fn refuse_r1cs_options(args: &Args, what: &str, public: bool) -> Result<(), WorkloadError> {
    if args.profile.is_some() {
        return Err(invalid(format!(
            "{what} is proved with the GKR engine: --profile (Ligerito's batch-R1CS preset) \
             does not apply; --pcs commits the input layer"
        )));
    }
    if args.merkle || (args.public && !public) || args.memory_limit.is_some() {
        return Err(invalid(format!(
            "{what} batches are independent permutations (their inputs are public, or \
             committed with --pcs): --merkle, --public and --memory-limit apply to the \
             batch-R1CS hashes only"
        )));
    }
    Ok(())
}

fn prove_permutations(args: &Args) -> Result<(), WorkloadError> {
    use flockwork::permutations::PermutationWorkload;
    refuse_r1cs_options(args, "poseidon2b", false)?;
    let count = match (args.count, args.log_instances) {
        (Some(count), _) => count,
        (None, Some(k)) if k <= 24 => 1 << k,
        (None, Some(k)) => return Err(invalid(format!("2^{k} permutations: at most 2^24"))),
        (None, None) => 1 << 10,
    };
    let variant = args.batcher.unwrap_or(Variant::Ragged);
    let workload = PermutationWorkload::for_count(count, args.seed, variant)?
        .with_pcs(args.pcs)
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
    let peak = peak_mib();
    if let Some(path) = &args.out {
        let file = ProofFile::of_permutations(&workload, &r);
        write_proof_file(path, &file, args.json)?;
    }
    if args.json {
        super::print_json(&GkrRow {
            hash: "poseidon2b".to_owned(),
            batcher: variant.name().to_owned(),
            pcs: r.commitment.as_ref().map(|(pcs, _)| pcs.name().to_owned()),
            instances: r.permutations(),
            widths: workload.widths.clone(),
            threads: rayon::current_num_threads(),
            reps: r.reps,
            physical_rows: r.physical_rows,
            measured: Measured {
                prove_ms: ms(r.prove),
                prove_ms_median: ms(r.prove_median),
                verify_ms: ms(r.verify),
                proof_bytes: r.proof.len(),
                per_sec: r.proved_per_sec(),
                per_sec_median: r.median_per_sec(),
                soundness_bits: r.soundness_bits,
                peak_mib: peak,
            },
            native_per_sec: r.native_per_sec,
            overhead: r.overhead(),
        });
        return Ok(());
    }
    let layer0 = r.commitment.as_ref().map_or_else(
        || "the layer-0 check against the inputs, which are public".to_owned(),
        |(pcs, _)| format!("the opening of the inputs' {} commitment", pcs.name()),
    );
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
    print_best_and_median(
        r.reps,
        r.prove,
        r.prove_median,
        (r.proved_per_sec(), r.median_per_sec()),
        "permutations",
    );
    println!(
        "proof: {:.1} KiB, verified in {:.2} ms (the walk and {layer0}); peak memory \
         {peak:.0} MiB",
        r.proof.len() as f64 / 1024.0,
        ms(r.verify)
    );
    println!(
        "soundness (bits): {:.1} (GF(2^256) challenges{})",
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
    Ok(())
}
