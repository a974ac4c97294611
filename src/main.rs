//! The `flockwork` command line tool.
//!
//! `flockwork` with no arguments runs a short tour of the shipped backends; `flockwork --help`
//! lists the subcommands. Each subcommand is a module of [`cli`].

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    Tour(cli::tour::Args),
    /// The CPU features found and the GF(2^128) kernel chosen.
    Info(cli::info::Args),
    /// Prove and verify a batch: hash compressions (a chain, a Merkle tree or public IO) with
    /// batch-R1CS, Keccak-f with GKR on its Boolean layers, or Poseidon2b permutations with
    /// the GKR batchers.
    Prove(cli::prove::Args),
    /// The soundness of the setup `flockwork prove` would use, term by term (no proving).
    Security(cli::security::Args),
    /// Throughput against batch size: prove chains of 2^k compressions for each k, hash and
    /// commitment; print a table and optionally save the points as JSON (for `plot`).
    Sweep(cli::sweep::Args),
    /// Draw a sweep's JSON file as an SVG chart: throughput against batch size, one line per
    /// configuration.
    Plot(cli::sweep::PlotArgs),
    /// Check a proof file written by `flockwork prove --out`.
    Verify(cli::verify::Args),
    /// Run the same statement with each choice and print one table.
    Compare {
        #[command(subcommand)]
        what: cli::compare::What,
    },
    /// Prove and verify one sumcheck statement Σ_x eq(r,x)·Π_j P_j(x) over random tables.
    Sumcheck(cli::sumcheck::Args),
}

impl Command {
    /// Whether the output is for programs (`--json`, or a worker process), not people.
    fn machine_output(&self) -> bool {
        match self {
            Self::Tour(a) => a.json,
            Self::Info(a) => a.json,
            Self::Prove(a) => a.json,
            Self::Security(a) => a.json,
            Self::Plot(a) => a.json,
            Self::Verify(a) => a.json,
            Self::Sumcheck(a) => a.json,
            Self::Compare { what } => what.machine_output(),
            Self::Sweep(_) => false,
        }
    }

    /// Runs the command; `threads` is the `--threads` given, for worker processes.
    fn run(self, threads: Option<usize>) -> Result<(), flockwork::workload::WorkloadError> {
        match self {
            Self::Tour(a) => cli::tour::main(&a),
            Self::Info(a) => {
                cli::info::main(&a);
                Ok(())
            }
            Self::Prove(a) => cli::prove::main(&a),
            Self::Security(a) => cli::security::main(&a),
            Self::Sweep(a) => cli::sweep::main(&a),
            Self::Plot(a) => cli::sweep::plot(&a),
            Self::Verify(a) => cli::verify::main(&a),
            Self::Compare {
                what: cli::compare::What::Pcs(a),
            } => cli::compare::pcs(&a, threads),
            Self::Compare {
                what: cli::compare::What::Batch(a),
            } => cli::compare::batch(&a, threads),
            Self::Sumcheck(a) => cli::sumcheck::main(&a),
        }
    }
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
    exit_quietly_on_broken_pipe();
    let cli = Cli::parse();
    // Provers' phases free and reallocate hundreds of MiB: keep freed memory mapped for
    // reuse (`flockwork::allocator`). A verifier allocates a few tables once, and its peak is
    // what `--memory-limit` bounds: it keeps glibc's default, which returns freed blocks.
    if !matches!(cli.command, Some(Command::Verify(_))) {
        flockwork::allocator::retain_freed_memory();
    }
    let for_people = !cli.command.as_ref().is_some_and(Command::machine_output);
    cli::init_tracing(
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
    let threads = cli.threads;
    let command = cli
        .command
        .unwrap_or_else(|| Command::Tour(cli::tour::Args::default()));
    match flockwork::poly::on_worker(move || command.run(threads)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
