//! `flockwork sweep` (throughput against batch size, saved as JSON) and `flockwork plot`
//! (that JSON drawn as an SVG chart).

use std::path::PathBuf;

use flockwork::engines::System;
use flockwork::flock::HashKind;
use flockwork::pcs::PcsKind;
use flockwork::workload::WorkloadError;
use serde::{Deserialize, Serialize};

use super::{choice, report_line};

/// The options of `flockwork sweep`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The proof systems, comma-separated: r1cs (a chain), gkr (Keccak-f with its inputs and
    /// outputs committed).
    #[arg(long, value_parser = choice::<System>(), value_delimiter = ',', default_value = "r1cs")]
    pub system: Vec<System>,
    /// The compression functions, comma-separated (sha256, keccak, blake3).
    #[arg(long, value_parser = choice::<HashKind>(), value_delimiter = ',', default_value = "sha256")]
    pub hash: Vec<HashKind>,
    /// The commitments, comma-separated (ligerito, fri, blaze).
    #[arg(long, value_parser = choice::<PcsKind>(), value_delimiter = ',', default_value = "ligerito")]
    pub pcs: Vec<PcsKind>,
    /// The values of k, comma-separated (each at most 24).
    #[arg(long, value_delimiter = ',', default_values_t = vec![6, 8, 10])]
    pub log_instances: Vec<usize>,
    /// Write the points to this JSON file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// The options of `flockwork plot`.
#[derive(clap::Args, Debug)]
pub struct PlotArgs {
    /// The JSON file written by `flockwork sweep --json`.
    pub file: PathBuf,
    /// The SVG file to write.
    #[arg(long, default_value = "sweep.svg")]
    pub svg: PathBuf,
    /// Print one JSON object instead of the sentence.
    #[arg(long)]
    pub json: bool,
}

/// `flockwork sweep`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    if let Some(&k) = args.log_instances.iter().find(|&&k| k > 24) {
        return Err(WorkloadError::InvalidParameters(format!(
            "--log-instances {k}: at most 24"
        )));
    }
    println!("config              k   prove (ms)   per second  verify (ms)  proof (KiB)");
    let total = args.system.len() * args.hash.len() * args.pcs.len() * args.log_instances.len();
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
        flockwork::sweep::run(
            &args.system,
            &args.hash,
            &args.pcs,
            &args.log_instances,
            |p| {
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
            },
        )
    })?;
    if let Some(path) = &args.json {
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

/// What `plot` drew, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlotRow {
    /// The SVG file.
    pub svg: String,
    /// One name per line of the chart.
    pub series: Vec<String>,
    /// Points drawn.
    pub points: usize,
}

/// `flockwork plot`.
pub fn plot(args: &PlotArgs) -> Result<(), WorkloadError> {
    let (file, svg) = (&args.file, &args.svg);
    let text = std::fs::read_to_string(file)
        .map_err(|e| WorkloadError::Failed(format!("cannot read {}: {e}", file.display())))?;
    let sweep = flockwork::sweep::Sweep::from_json(&text)
        .map_err(|e| WorkloadError::Failed(format!("{}: {e}", file.display())))?;
    sweep.plot_svg(svg)?;
    let row = PlotRow {
        svg: svg.display().to_string(),
        series: sweep.series(),
        points: sweep.points.len(),
    };
    if args.json {
        super::print_json(&row);
    } else {
        println!(
            "{} series, {} points drawn to {}",
            row.series.len(),
            row.points,
            row.svg
        );
    }
    Ok(())
}
