//! `flockwork compare`: one statement, each choice, one table. `compare pcs` commits, opens
//! and verifies one Boolean polynomial with each commitment scheme; `compare batch` proves
//! one batch with each batcher — Poseidon2b over regions of given widths with the three GKR
//! batchers, or Keccak-f with every batcher of both engines on one statement. Each
//! measurement runs in a fresh worker process (this executable, `--worker`), so the peak
//! memory of its row is its own; the worker prints its row as JSON and the parent reads it
//! back ([`run_worker`]).

use flockwork::boolean::io::Blake3Block;
use flockwork::boolean::{Blake3Compress, Blake3Input, KeccakF1600, Sha256Compress, Sha256Input};
use flockwork::compare::{BatchComparison, PcsComparison};
use flockwork::engines::{Choices, Provable, listing, measure};
use flockwork::flock::HashKind;
use flockwork::gkr::Variant;
use flockwork::pcs::PcsKind;
use flockwork::poly::relation::{Batcher, IoKind, Statement};
use flockwork::transcript::TranscriptKind;
use flockwork::workload::WorkloadError;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::{Choice, choice, invalid, ms, peak_mib, print_json, run_worker, with_progress};

/// What `compare` compares.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// Commit, open (two evaluation claims) and verify one random Boolean polynomial with each
    /// polynomial commitment scheme, through ring-switching; each scheme runs in a fresh
    /// worker process so that its peak memory is its own.
    Pcs(PcsArgs),
    /// Prove one batch with each batcher: Poseidon2b output claims over regions of 2^w_a
    /// permutations with the independent, padded and ragged GKR batchers, or Keccak-f
    /// (--hash keccak --count N) with batch-R1CS and GKR on one statement; each in a fresh
    /// worker process.
    Batch(BatchArgs),
}

impl What {
    /// Whether the output is for programs (`--json` or a worker), not people.
    pub fn machine_output(&self) -> bool {
        match self {
            Self::Pcs(a) => a.json || a.worker,
            Self::Batch(a) => a.json || a.worker,
        }
    }
}

/// The options of `flockwork compare pcs`.
#[derive(clap::Args, Debug)]
pub struct PcsArgs {
    /// log2 of the committed bits (8 to 40).
    #[arg(long, default_value_t = 24)]
    pub log_bits: usize,
    /// The schemes, comma-separated (ligerito, fri, blaze).
    #[arg(long, value_parser = choice::<PcsKind>(), value_delimiter = ',', default_value = "ligerito,fri,blaze")]
    pub pcs: Vec<PcsKind>,
    /// Security target of every scheme, in bits.
    #[arg(long, default_value_t = 100)]
    pub target_bits: u32,
    /// Seed of the polynomial and the points.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Measured runs per scheme; the times printed are their medians.
    #[arg(long, default_value_t = 3)]
    pub reps: usize,
    /// Print one JSON object per scheme instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Measure every scheme in this process (peak memory is then the whole run's).
    #[arg(long)]
    pub in_process: bool,
    /// Internal: measure exactly one scheme and print its row for the parent process.
    #[arg(long, hide = true)]
    pub worker: bool,
}

/// One scheme's row of `compare pcs`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PcsRow {
    /// The scheme.
    pub pcs: String,
    /// log2 of the committed bits.
    pub log_bits: usize,
    /// Commitment (median).
    pub commit_ms: f64,
    /// Opening of two claims (median).
    pub open_ms: f64,
    /// Verification (median).
    pub verify_ms: f64,
    /// Opening proof bytes.
    pub proof_bytes: usize,
    /// Peak resident memory of the process that measured it.
    pub peak_mib: f64,
    /// The weakest soundness term of the scheme and of ring-switching.
    pub soundness_bits: f64,
}

impl PcsRow {
    pub(super) const HEADER: &str =
        "pcs        commit (ms)  open (ms)  verify (ms)  proof (KiB)  peak (MiB)  soundness (bits)";

    pub(super) fn measure(
        comparison: &PcsComparison,
        kind: PcsKind,
    ) -> Result<Self, WorkloadError> {
        let r = comparison.run(kind)?;
        Ok(Self {
            pcs: kind.name().to_owned(),
            log_bits: r.log_bits,
            commit_ms: ms(r.commit),
            open_ms: ms(r.open),
            verify_ms: ms(r.verify),
            proof_bytes: r.proof_bytes,
            peak_mib: peak_mib(),
            soundness_bits: r.security_bits,
        })
    }

    pub(super) fn line(&self) -> String {
        format!(
            "{:<9} {:>12.1} {:>10.1} {:>12.2} {:>12.1} {:>11.0} {:>17.1}",
            self.pcs,
            self.commit_ms,
            self.open_ms,
            self.verify_ms,
            self.proof_bytes as f64 / 1024.0,
            self.peak_mib,
            self.soundness_bits
        )
    }
}

/// `flockwork compare pcs`.
pub fn pcs(args: &PcsArgs, threads: Option<usize>) -> Result<(), WorkloadError> {
    let comparison = PcsComparison {
        log_bits: args.log_bits,
        target_bits: args.target_bits,
        seed: args.seed,
        reps: args.reps,
    };
    if args.worker {
        let [kind] = args.pcs[..] else {
            return Err(invalid("a worker measures exactly one scheme"));
        };
        print_json(&PcsRow::measure(&comparison, kind)?);
        return Ok(());
    }
    preamble(
        args.json,
        format!(
            "2^{} committed bits (2^{} GF(2^128) elements after ring-switching), two \
             evaluation claims, {} bits targeted, median of {} run(s)",
            args.log_bits,
            args.log_bits.saturating_sub(7),
            args.target_bits,
            args.reps,
        ),
        threads,
        args.in_process,
        PcsRow::HEADER,
    );
    for &kind in &args.pcs {
        let row = with_progress(
            format!("committing, opening and verifying with {}", kind.name()),
            || {
                if args.in_process {
                    PcsRow::measure(&comparison, kind)
                } else {
                    run_worker(
                        &words(&[
                            "compare",
                            "pcs",
                            "--worker",
                            "--log-bits",
                            &args.log_bits.to_string(),
                            "--target-bits",
                            &args.target_bits.to_string(),
                            "--seed",
                            &args.seed.to_string(),
                            "--reps",
                            &args.reps.to_string(),
                            "--pcs",
                            kind.name(),
                        ]),
                        threads,
                    )
                }
            },
        )?;
        emit(&row, args.json, PcsRow::line);
    }
    Ok(())
}

/// The relations `compare batch` proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proved {
    /// Poseidon2b over regions of given widths, the three GKR batchers.
    Poseidon2b,
    /// Keccak-f, every batcher of both engines.
    Keccak,
    /// The SHA-256 compression, every batcher listed for it.
    Sha256,
    /// The BLAKE3 compression, every batcher listed for it (or batch-R1CS over regions of
    /// --widths).
    Blake3,
}

impl Choice for Proved {
    const ALL: &'static [Self] = &[Self::Poseidon2b, Self::Keccak, Self::Sha256, Self::Blake3];
    fn word(self) -> &'static str {
        match self {
            Self::Poseidon2b => "poseidon2b",
            Self::Keccak => "keccak",
            Self::Sha256 => "sha256",
            Self::Blake3 => "blake3",
        }
    }
}

/// The statements `compare batch --hash keccak` proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Io(pub IoKind);

impl Choice for Io {
    const ALL: &'static [Self] = &[Self(IoKind::Committed), Self(IoKind::Public)];
    fn word(self) -> &'static str {
        match self.0 {
            IoKind::Public => "public",
            IoKind::Committed => "committed",
            IoKind::Chain => "chain",
            IoKind::Merkle => "merkle",
        }
    }
}

/// The options of `flockwork compare batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// The relation: poseidon2b (GKR over regions of --widths), or keccak, sha256, blake3
    /// (--count N: every batcher of both engines on one statement; --widths: batch-R1CS over
    /// regions, one hash chain each, with the independent, padded and ragged strategies).
    #[arg(long, value_parser = choice::<Proved>(), default_value = "poseidon2b")]
    pub hash: Proved,
    /// The region widths w_a, comma-separated [default for poseidon2b: 8,10,9,6; the
    /// published experiment: 14,15,17,16,12,15,16,12,13].
    #[arg(long, value_delimiter = ',', conflicts_with = "count")]
    pub widths: Option<Vec<usize>>,
    /// Keccak-f, SHA-256 and BLAKE3: the number of instances [default: 1024].
    #[arg(long)]
    pub count: Option<usize>,
    /// Keccak-f, SHA-256 and BLAKE3: the statement, committed inputs and outputs (the default: what a
    /// batch-R1CS proof binds) or public ones.
    #[arg(long, value_parser = choice::<Io>(), default_value = "committed")]
    pub io: Io,
    /// The GKR batchers, comma-separated (independent, padded, ragged).
    #[arg(long, value_parser = choice::<Variant>(), value_delimiter = ',', default_value = "independent,padded,ragged")]
    pub batchers: Vec<Variant>,
    /// Poseidon2b: commit the input layer with this scheme and prove the layer-0 claims by
    /// its opening (default: the verifier holds the inputs). Keccak-f, SHA-256: the schemes of the
    /// committed batchers, comma-separated (default: all three).
    #[arg(long, value_parser = choice::<PcsKind>(), value_delimiter = ',')]
    pub pcs: Vec<PcsKind>,
    /// The Fiat–Shamir transcript of every batcher.
    #[arg(long, value_parser = choice::<TranscriptKind>(), default_value = "sha256")]
    pub transcript: TranscriptKind,
    /// Seed of the inputs and output points.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object per batcher instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Measure every batcher in this process (peak memory is then the whole run's).
    #[arg(long)]
    pub in_process: bool,
    /// Internal: measure exactly one batcher (the index into the listing for keccak) and
    /// print its row for the parent process.
    #[arg(long, hide = true)]
    pub worker: bool,
    /// Internal: the batcher a keccak worker measures.
    #[arg(long, hide = true)]
    pub index: Option<usize>,
    /// SHA-256, BLAKE3: also the Boolean GKR on the circuit compiled into Boolean layers (slow:
    /// tens of MB per proof).
    #[arg(long)]
    pub compiled: bool,
}

/// `flockwork compare batch`.
pub fn batch(args: &BatchArgs, threads: Option<usize>) -> Result<(), WorkloadError> {
    let count = args.count.unwrap_or(1024);
    match (args.hash, &args.widths) {
        (Proved::Poseidon2b, widths) => {
            poseidon2b(args, widths.as_deref().unwrap_or(&[8, 10, 9, 6]), threads)
        }
        (Proved::Keccak, Some(widths)) => regions(HashKind::Keccak, widths, args, threads),
        (Proved::Sha256, Some(widths)) => regions(HashKind::Sha256, widths, args, threads),
        (Proved::Blake3, Some(widths)) => regions(HashKind::Blake3, widths, args, threads),
        (Proved::Blake3, None) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let inputs: Vec<Blake3Input> = (0..count)
                .map(|_| Blake3Input {
                    cv: rng.random(),
                    block: Blake3Block {
                        words: rng.random(),
                        counter: rng.random(),
                        block_len: 64,
                        flags: rng.random_range(0..16),
                    },
                })
                .collect();
            engines(&Blake3Compress::default(), &inputs, args, threads)
        }
        (Proved::Keccak, None) => {
            let inputs = super::keccak::inputs(count, args.seed);
            engines(&KeccakF1600::new(), &inputs, args, threads)
        }
        (Proved::Sha256, None) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let inputs: Vec<Sha256Input> = (0..count)
                .map(|_| Sha256Input {
                    state: rng.random(),
                    block: std::array::from_fn(|_| rng.random()),
                })
                .collect();
            engines(&Sha256Compress, &inputs, args, threads)
        }
    }
}

/// One GKR batcher's row of `compare batch` over Poseidon2b regions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RegionRow {
    /// The batcher.
    pub batcher: String,
    /// The commitment of the input layer, if any.
    pub pcs: Option<String>,
    /// The region widths.
    pub widths: Vec<usize>,
    /// Rows the prover's tables hold (the padded walk pays `A·2^W`).
    pub physical_rows: usize,
    /// Prover time.
    pub prove_ms: f64,
    /// Verifier time.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Peak resident memory of the process that measured it.
    pub peak_mib: f64,
    /// Soundness: the walk(s) and the opening, if any.
    pub soundness_bits: f64,
}

impl RegionRow {
    pub(super) const HEADER: &str =
        "batcher      rows   prove (ms)  verify (ms)  proof (KiB)  peak (MiB)  soundness (bits)";

    pub(super) fn measure(
        comparison: &BatchComparison,
        variant: Variant,
    ) -> Result<Self, WorkloadError> {
        let r = comparison.run(variant)?;
        Ok(Self {
            batcher: variant.name().to_owned(),
            pcs: comparison.pcs.map(|k| k.name().to_owned()),
            widths: comparison.widths.clone(),
            physical_rows: r.physical_rows,
            prove_ms: ms(r.prove),
            verify_ms: ms(r.verify),
            proof_bytes: r.proof_bytes,
            peak_mib: peak_mib(),
            soundness_bits: r.security_bits,
        })
    }

    pub(super) fn line(&self) -> String {
        format!(
            "{:<11} {:>6} {:>12.1} {:>12.2} {:>12.1} {:>11.0} {:>17.1}",
            self.batcher,
            self.physical_rows,
            self.prove_ms,
            self.verify_ms,
            self.proof_bytes as f64 / 1024.0,
            self.peak_mib,
            self.soundness_bits
        )
    }
}

fn poseidon2b(
    args: &BatchArgs,
    widths: &[usize],
    threads: Option<usize>,
) -> Result<(), WorkloadError> {
    flockwork::permutations::check_widths(widths)?;
    let pcs = match args.pcs[..] {
        [] => None,
        [kind] => Some(kind),
        _ => return Err(invalid("poseidon2b commits its input layer with one --pcs")),
    };
    let comparison = BatchComparison {
        widths: widths.to_vec(),
        seed: args.seed,
        pcs,
    };
    if args.worker {
        let [variant] = args.batchers[..] else {
            return Err(invalid("a worker measures exactly one batcher"));
        };
        print_json(&RegionRow::measure(&comparison, variant)?);
        return Ok(());
    }
    let widths: Vec<String> = widths.iter().map(ToString::to_string).collect();
    preamble(
        args.json,
        format!(
            "Poseidon2b (t = 4, 66 layers) over regions of widths [{}], GKR with GF(2^256) \
             challenges, layer 0 {}",
            widths.join(","),
            pcs.map_or_else(
                || "checked against the public inputs".to_owned(),
                |k| format!("committed with {} (opened)", k.name())
            ),
        ),
        threads,
        args.in_process,
        RegionRow::HEADER,
    );
    for &variant in &args.batchers {
        let row = with_progress(
            format!("proving with the {} batcher", variant.name()),
            || {
                if args.in_process {
                    return RegionRow::measure(&comparison, variant);
                }
                let mut argv = words(&[
                    "compare",
                    "batch",
                    "--worker",
                    "--widths",
                    &widths.join(","),
                    "--seed",
                    &args.seed.to_string(),
                    "--batchers",
                    variant.name(),
                ]);
                if let Some(kind) = pcs {
                    argv.extend(words(&["--pcs", kind.name()]));
                }
                run_worker(&argv, threads)
            },
        )?;
        emit(&row, args.json, RegionRow::line);
    }
    Ok(())
}

/// One batcher's row of `compare batch` over one statement of a relation both engines prove.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineRow {
    /// The batcher: engine, strategy, commitment, transcript.
    pub batcher: String,
    /// The statement's IO.
    pub io: String,
    /// The instances.
    pub instances: usize,
    /// Prover time (the commitment of the inputs and outputs included for committed IO).
    pub prove_ms: f64,
    /// Instances proved per second.
    pub per_sec: f64,
    /// Verifier time.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Peak resident memory of the process that measured it.
    pub peak_mib: f64,
    /// The setup's soundness.
    pub soundness_bits: f64,
}

impl EngineRow {
    pub(super) const HEADER: &str = "batcher                                       prove (ms)   per second  \
                          verify (ms)  proof (KiB)  peak (MiB)  soundness (bits)";

    pub(super) fn line(&self) -> String {
        format!(
            "{:<44} {:>12.1} {:>12.0} {:>12.2} {:>12.1} {:>11.0} {:>17.1}",
            self.batcher,
            self.prove_ms,
            self.per_sec,
            self.verify_ms,
            self.proof_bytes as f64 / 1024.0,
            self.peak_mib,
            self.soundness_bits
        )
    }
}

/// Proves the statement of `args.io` about `inputs` with one batcher, timed; for committed
/// IO the batcher's commitment is part of the prover's time.
fn engine_row<R: Provable>(
    relation: &R,
    batcher: &dyn Batcher<R>,
    inputs: &[R::Input],
    io: IoKind,
) -> Result<EngineRow, WorkloadError> {
    let fail = |e: flockwork::poly::relation::BatchError| WorkloadError::Failed(e.to_string());
    let clock = std::time::Instant::now();
    let statement = match io {
        IoKind::Committed => {
            Statement::committed(inputs.len(), batcher.commit(inputs).map_err(fail)?)
        }
        _ => Statement::public(relation, inputs.to_vec()),
    };
    let commit = if io == IoKind::Committed {
        clock.elapsed()
    } else {
        std::time::Duration::ZERO
    };
    let m = measure(batcher, inputs, &statement, 1).map_err(fail)?;
    let prove = commit + m.prove;
    Ok(EngineRow {
        batcher: batcher.name(),
        io: Io(io).word().to_owned(),
        instances: inputs.len(),
        prove_ms: ms(prove),
        per_sec: inputs.len() as f64 / prove.as_secs_f64(),
        verify_ms: ms(m.verify),
        proof_bytes: m.proof.len(),
        peak_mib: peak_mib(),
        soundness_bits: batcher.soundness_bits(),
    })
}

fn engines<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    args: &BatchArgs,
    threads: Option<usize>,
) -> Result<(), WorkloadError> {
    let choices = Choices {
        variants: args.batchers.clone(),
        schemes: if args.pcs.is_empty() {
            PcsKind::ALL.to_vec()
        } else {
            args.pcs.clone()
        },
        transcript: args.transcript,
        compiled: args.compiled,
        ..Choices::default()
    };
    let io = args.io.0;
    let batchers: Vec<_> = listing(relation, inputs.len(), &choices)
        .into_iter()
        .filter(|b| b.supports(io))
        .collect();
    if batchers.is_empty() {
        return Err(invalid(format!(
            "no batcher proves {} {} instances with {} IO",
            inputs.len(),
            relation.name(),
            args.io.word()
        )));
    }
    if args.worker {
        let batcher = args
            .index
            .and_then(|i| batchers.get(i))
            .ok_or_else(|| invalid("a worker measures one listed batcher (--index)"))?;
        print_json(&engine_row(relation, batcher.as_ref(), inputs, io)?);
        return Ok(());
    }
    preamble(
        args.json,
        format!(
            "{} × {}, {} inputs and outputs, every batcher of both engines",
            relation.name(),
            inputs.len(),
            args.io.word(),
        ),
        threads,
        args.in_process,
        EngineRow::HEADER,
    );
    for (index, batcher) in batchers.iter().enumerate() {
        if let Some(reason) = batcher.unavailable() {
            if !args.json {
                println!("{:<44} unavailable: {reason}", batcher.name());
            }
            continue;
        }
        let row = with_progress(format!("proving with {}", batcher.name()), || {
            if args.in_process {
                return engine_row(relation, batcher.as_ref(), inputs, io);
            }
            let mut argv = words(&[
                "compare",
                "batch",
                "--worker",
                "--hash",
                args.hash.word(),
                "--count",
                &inputs.len().to_string(),
                "--io",
                args.io.word(),
                "--transcript",
                args.transcript.name(),
                "--seed",
                &args.seed.to_string(),
                "--index",
                &index.to_string(),
                "--batchers",
            ]);
            if args.compiled {
                argv.insert(2, "--compiled".to_owned());
            }
            argv.push(
                args.batchers
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(","),
            );
            if !args.pcs.is_empty() {
                argv.push("--pcs".to_owned());
                argv.push(
                    args.pcs
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(","),
                );
            }
            run_worker(&argv, threads)
        })?;
        emit(&row, args.json, EngineRow::line);
    }
    Ok(())
}

/// Prints the table's introduction (`what`, the thread count, where it is measured) and its
/// header, unless the output is JSON.
fn preamble(json: bool, what: String, threads: Option<usize>, in_process: bool, header: &str) {
    if json {
        return;
    }
    println!(
        "{what}, {} thread(s){}\n",
        threads.unwrap_or_else(rayon::current_num_threads),
        if in_process {
            ""
        } else {
            ", one worker process per measurement"
        }
    );
    println!("{header}");
}

/// One strategy's row of `compare batch --hash H --widths …`: batch-R1CS over regions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChainRegionsRow {
    /// The library's row.
    #[serde(flatten)]
    pub row: flockwork::flock::BatchRow,
    /// Peak resident memory of the process that measured it.
    pub peak_mib: f64,
}

impl ChainRegionsRow {
    const HEADER: &str = "batcher      instances  proved  proofs  prove (ms)  verify (ms)  \
                          proof (KiB)  peak (MiB)  soundness (bits)";

    fn line(&self) -> String {
        let r = &self.row;
        format!(
            "{:<11} {:>10} {:>7} {:>7} {:>11.1} {:>12.2} {:>12.1} {:>11.0} {:>17.1}",
            r.batcher,
            r.instances,
            r.proved_instances,
            r.proofs,
            r.prove_ms,
            r.verify_ms,
            r.proof_bytes as f64 / 1024.0,
            self.peak_mib,
            r.soundness_bits
        )
    }
}

/// `compare batch --hash H --widths …`: regions of hash chains with batch-R1CS's three
/// strategies, each in its own worker.
fn regions(
    hash: HashKind,
    widths: &[usize],
    args: &BatchArgs,
    threads: Option<usize>,
) -> Result<(), WorkloadError> {
    let pcs = match args.pcs[..] {
        [] => PcsKind::default(),
        [kind] => kind,
        _ => return Err(invalid("batch-R1CS regions take one --pcs")),
    };
    let comparison = |strategies: Vec<Variant>| flockwork::flock::BatchComparison {
        hash,
        widths: widths.to_vec(),
        strategies,
        config: flockwork::r1cs::FlockConfig {
            scheme: pcs,
            ..Default::default()
        },
        transcript: args.transcript,
        seed: args.seed,
    };
    let measure = |variant: Variant| -> Result<ChainRegionsRow, WorkloadError> {
        let row = comparison(vec![variant])
            .run()?
            .pop()
            .ok_or_else(|| WorkloadError::Failed("no row".into()))?;
        Ok(ChainRegionsRow {
            row,
            peak_mib: peak_mib(),
        })
    };
    if args.worker {
        let [variant] = args.batchers[..] else {
            return Err(invalid("a worker measures exactly one batcher"));
        };
        print_json(&measure(variant)?);
        return Ok(());
    }
    let list: Vec<String> = widths.iter().map(ToString::to_string).collect();
    preamble(
        args.json,
        format!(
            "{} chains over regions of widths [{}], batch-R1CS over {} (ring-switched)",
            hash.name(),
            list.join(","),
            pcs.name()
        ),
        threads,
        args.in_process,
        ChainRegionsRow::HEADER,
    );
    for &variant in &args.batchers {
        let row = with_progress(
            format!("proving with the {} strategy", variant.name()),
            || {
                if args.in_process {
                    return measure(variant);
                }
                run_worker(
                    &words(&[
                        "compare",
                        "batch",
                        "--worker",
                        "--hash",
                        args.hash.word(),
                        "--widths",
                        &list.join(","),
                        "--pcs",
                        pcs.name(),
                        "--transcript",
                        args.transcript.name(),
                        "--seed",
                        &args.seed.to_string(),
                        "--batchers",
                        variant.name(),
                    ]),
                    threads,
                )
            },
        )?;
        emit(&row, args.json, ChainRegionsRow::line);
    }
    Ok(())
}

/// Owned command-line words.
fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|&w| w.to_owned()).collect()
}

/// Prints `row` as JSON or as its table line.
fn emit<T: Serialize>(row: &T, json: bool, line: impl Fn(&T) -> String) {
    if json {
        print_json(row);
    } else {
        println!("{}", line(row));
    }
}
