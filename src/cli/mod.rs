//! The `flockwork` command line: one module per command, each a thin shell over the
//! library's workloads and reports. A command's arguments are a `#[derive(Args)]` struct
//! beside its code; every table row is a `#[derive(Serialize, Deserialize)]` struct, printed
//! as a table line for people or as one JSON object per line with `--json`, and read back
//! with `serde_json` when a worker process measured it ([`run_worker`]). The library's own
//! enums (commitment, batcher, transcript, hash) are parsed by their names ([`choice`]), so
//! no command keeps a mirror of them.

pub mod compare;
pub mod info;
pub mod keccak;
pub mod prove;
pub mod security;
pub mod sumcheck;
pub mod sweep;
pub mod tour;
pub mod verify;

use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use flockwork::workload::WorkloadError;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A library enum the command line names by one word per value.
pub trait Choice: Copy + Send + Sync + 'static {
    /// Every value, in the order `--help` lists them.
    const ALL: &'static [Self];

    /// The value's word on the command line.
    fn word(self) -> &'static str;
}

/// The parser of a [`Choice`]: clap lists the words in `--help` and refuses any other with
/// the list of the valid ones.
pub fn choice<T: Choice>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|t| t.word())).map(|word| {
        *T::ALL
            .iter()
            .find(|t| t.word() == word)
            .expect("clap accepted only these words")
    })
}

impl Choice for flockwork::pcs::PcsKind {
    const ALL: &'static [Self] = &Self::ALL;
    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for flockwork::gkr::Variant {
    const ALL: &'static [Self] = &Self::ALL;
    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for flockwork::transcript::TranscriptKind {
    const ALL: &'static [Self] = &Self::ALL;
    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for flockwork::flock::HashKind {
    const ALL: &'static [Self] = &Self::ALL;
    /// `sha256`, `keccak`, `blake3` (the tables print Keccak-f as `keccak-f`).
    fn word(self) -> &'static str {
        match self {
            Self::Keccak => "keccak",
            other => other.name(),
        }
    }
}

impl Choice for flockwork::engines::System {
    const ALL: &'static [Self] = &Self::ALL;
    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for flockwork::r1cs::Preset {
    const ALL: &'static [Self] = &[Self::Fast, Self::Slim];
    /// `fast` (rate 1/2 at level 0, no grinding) or `slim` (rate 1/4, 16 bits of grinding).
    fn word(self) -> &'static str {
        match self {
            Self::Fast => "fast",
            Self::Slim => "slim",
        }
    }
}

/// Milliseconds, the unit of every table and JSON row.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The error of arguments that do not fit together.
pub fn invalid(message: impl Into<String>) -> WorkloadError {
    WorkloadError::InvalidParameters(message.into())
}

/// Peak resident memory of this process in MiB (NaN where unknown), for the tables.
pub fn peak_mib() -> f64 {
    flockwork::memory::peak_resident_mib().unwrap_or(f64::NAN)
}

/// Prints `row` as one line of JSON.
pub fn print_json<T: Serialize>(row: &T) {
    println!(
        "{}",
        serde_json::to_string(row).expect("report rows serialize")
    );
}

/// Installs the tracing subscriber. With `progress` (stderr is a terminal and the output is
/// for people), tracing-indicatif draws every open span — the command's own and the provers'
/// phases (`flock::prove`, `commit`, `zerocheck`, …) — as a spinner with its elapsed time;
/// with `trace`, each span's busy and idle times are printed when it closes.
pub fn init_tracing(trace: bool, progress: bool) {
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
pub fn with_progress<T>(message: String, work: impl FnOnce() -> T) -> T {
    use tracing_indicatif::span_ext::IndicatifSpanExt;
    let span = tracing::info_span!("flockwork");
    span.pb_set_message(&message);
    span.in_scope(work)
}

/// Prints a line of the report while progress bars may be drawn.
pub fn report_line(line: &str) {
    tracing_indicatif::suspend_tracing_indicatif(|| println!("{line}"));
}

/// Runs this executable with `args` (and `--threads`) as a worker process, so that the
/// peak memory it reports is one measurement's own, and reads the row it prints: the last
/// line of its standard output, one JSON object. A worker that fails passes its error on.
pub fn run_worker<T: DeserializeOwned>(
    args: &[String],
    threads: Option<usize>,
) -> Result<T, WorkloadError> {
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
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).map_err(|e| {
        WorkloadError::Failed(format!("the worker's row {line:?} does not parse: {e}"))
    })
}
