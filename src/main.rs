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
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A short tour: the same sumcheck statement over every field backend, in one table.
    Tour {
        /// Number of variables of the statement.
        #[arg(long, default_value_t = 18)]
        vars: usize,
    },
    /// The CPU features found and the GF(2^128) kernel chosen.
    Info,
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

fn info() {
    println!("flockwork {}", env!("CARGO_PKG_VERSION"));
    println!("threads: {}", rayon::current_num_threads());
    println!("GF(2^128) kernel in use: {}", Backend::active().name());
    print!("GF(2^128) kernels available:");
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        print!(" {}", backend.name());
    }
    println!();
}

fn tour(vars: usize) -> Result<(), WorkloadError> {
    println!(
        "flockwork tour: Σ_x eq(r,x)·P0(x)·P1(x)·P2(x) over 2^{vars} points, proved and \
         verified with a SHA-256 transcript in each field."
    );
    println!("GF(2^128) kernel: {}\n", Backend::active().name());
    println!("{TABLE_HEADER}");
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
        println!("{}", table_row(field, &report));
    }
    println!(
        "\nSoundness is −log2 of the sumcheck's error n·(d+1)/|F|. Goldilocks alone is below \
         100 bits: it needs challenges from an extension field.\nMore: flockwork --help"
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(threads) = cli.threads {
        if threads == 0 {
            eprintln!("error: --threads must be at least 1");
            return ExitCode::FAILURE;
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
        {
            eprintln!("error: cannot start {threads} threads: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command.unwrap_or(Command::Tour { vars: 18 }) {
        Command::Tour { vars } => tour(vars),
        Command::Info => {
            info();
            Ok(())
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
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
