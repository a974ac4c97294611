//! Throughput sweeps and their plots: batch proofs of `2^k` compressions for a range of `k`,
//! one series per configuration (system × hash × commitment), saved as JSON and drawn as an
//! SVG line chart (`flockwork sweep … --json out.json`, `flockwork plot out.json --svg
//! out.svg`). Batch-R1CS proves a chain; GKR (Keccak-f on its Boolean layers, the ragged
//! batcher) proves the committed statement, inputs and outputs committed with the series'
//! commitment, the commitment in the prover's time.

use std::path::Path;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engines::{Choices, System, boolean_gkr_batcher, measure};
use crate::flock::{FlockWorkload, HashKind};
use crate::workload::WorkloadError;
use flockwork_pcs::PcsKind;

/// One measured point of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The series: `"<hash>/<pcs>"`.
    pub config: String,
    /// `k`: `2^k` compressions.
    pub log_instances: usize,
    /// Prover time (witness included), milliseconds.
    pub prove_ms: f64,
    /// Proved compressions per second.
    pub per_sec: f64,
    /// Verifier time, milliseconds.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness of the setup, bits.
    pub soundness_bits: f64,
}

/// A sweep's results and the machine context they were measured in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// Prover threads.
    pub threads: usize,
    /// The points, series after series.
    pub points: Vec<SweepPoint>,
}

/// Runs every `(system, hash, pcs)` configuration for each `k` in `log_instances`, calling
/// `progress` after each point.
///
/// # Errors
/// The first configuration that cannot be set up or proved (GKR proves Keccak-f only).
pub fn run(
    systems: &[System],
    hashes: &[HashKind],
    schemes: &[PcsKind],
    log_instances: &[usize],
    mut progress: impl FnMut(&SweepPoint),
) -> Result<Sweep, WorkloadError> {
    let mut points = Vec::new();
    for &system in systems {
        for &hash in hashes {
            for &pcs in schemes {
                for &k in log_instances {
                    let point = match system {
                        System::BatchR1cs => r1cs_point(hash, pcs, k)?,
                        System::Gkr => gkr_point(hash, pcs, k)?,
                    };
                    progress(&point);
                    points.push(point);
                }
            }
        }
    }
    Ok(Sweep {
        threads: rayon::current_num_threads(),
        points,
    })
}

/// A batch-R1CS chain of `2^k` compressions.
fn r1cs_point(hash: HashKind, pcs: PcsKind, k: usize) -> Result<SweepPoint, WorkloadError> {
    let report = FlockWorkload {
        hash,
        count: 1 << k,
        seed: 1,
        io: crate::flock::IoKind::Chain,
        config: flockwork_r1cs::FlockConfig {
            scheme: pcs,
            ..flockwork_r1cs::FlockConfig::default()
        },
        transcript: flockwork_transcript::TranscriptKind::Sha256,
    }
    .run()?;
    Ok(SweepPoint {
        config: format!("{}/{}", hash.name(), pcs.name()),
        log_instances: k,
        prove_ms: report.timings.total().as_secs_f64() * 1e3,
        per_sec: report.proved_per_sec(),
        verify_ms: report.verify.as_secs_f64() * 1e3,
        proof_bytes: report.proof_bytes,
        soundness_bits: report.soundness.bits(),
    })
}

/// `2^k` Keccak-f permutations with GKR on their Boolean layers (the ragged batcher), inputs
/// and outputs committed with `pcs`.
fn gkr_point(hash: HashKind, pcs: PcsKind, k: usize) -> Result<SweepPoint, WorkloadError> {
    use flockwork_core::relation::Statement;
    if hash != HashKind::Keccak {
        return Err(WorkloadError::InvalidParameters(format!(
            "GKR proves keccak (Boolean layers) here, not {}",
            hash.name()
        )));
    }
    let relation = flockwork_boolean::KeccakF1600::new();
    let count = 1usize << k;
    let batcher = boolean_gkr_batcher(
        &relation,
        count,
        flockwork_gkr::Variant::Ragged,
        Some(pcs),
        &Choices::default(),
    )
    .ok_or_else(|| {
        WorkloadError::InvalidParameters(format!(
            "no GKR batcher commits {count} Keccak-f instances with {}",
            pcs.name()
        ))
    })?;
    let fail = |e: flockwork_core::relation::BatchError| WorkloadError::Failed(e.to_string());
    let inputs: Vec<[u64; 25]> = (0..count as u64)
        .map(|i| std::array::from_fn(|j| (i * 25 + j as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .collect();
    let clock = std::time::Instant::now();
    let statement = Statement::committed(count, batcher.commit(&inputs).map_err(fail)?);
    let commit = clock.elapsed();
    let m = measure(batcher.as_ref(), &inputs, &statement, 1).map_err(fail)?;
    let prove = commit + m.prove;
    Ok(SweepPoint {
        config: format!("{}/gkr/{}", hash.name(), pcs.name()),
        log_instances: k,
        prove_ms: prove.as_secs_f64() * 1e3,
        per_sec: count as f64 / prove.as_secs_f64(),
        verify_ms: m.verify.as_secs_f64() * 1e3,
        proof_bytes: m.proof.len(),
        soundness_bits: batcher.soundness_bits(),
    })
}

impl Sweep {
    /// The JSON text of the sweep.
    ///
    /// # Panics
    /// Never: the types serialize infallibly.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serializes")
    }

    /// Parses a sweep written by [`Sweep::to_json`].
    ///
    /// # Errors
    /// [`WorkloadError::Failed`] naming what is wrong with the text.
    pub fn from_json(text: &str) -> Result<Self, WorkloadError> {
        let sweep: Self = serde_json::from_str(text)
            .map_err(|e| WorkloadError::Failed(format!("not a sweep file: {e}")))?;
        if sweep.points.is_empty() {
            return Err(WorkloadError::Failed("the sweep has no points".into()));
        }
        if sweep
            .points
            .iter()
            .any(|p| !(p.per_sec.is_finite() && p.per_sec > 0.0) || p.log_instances > 40)
        {
            return Err(WorkloadError::Failed(
                "the sweep has a point with an invalid throughput or size".into(),
            ));
        }
        Ok(sweep)
    }

    /// The series names in first-appearance order.
    #[must_use]
    pub fn series(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for p in &self.points {
            if !names.contains(&p.config) {
                names.push(p.config.clone());
            }
        }
        names
    }

    /// Draws throughput (compressions proved per second, log scale) against the batch size
    /// (`log2` instances), one line per series, with axis labels and a legend, as SVG.
    ///
    /// # Errors
    /// [`WorkloadError::Failed`] if the file cannot be written.
    pub fn plot_svg(&self, path: &Path) -> Result<(), WorkloadError> {
        let failed = |e: &dyn std::fmt::Display| {
            WorkloadError::Failed(format!("cannot draw {}: {e}", path.display()))
        };
        let (k_min, k_max) = self.points.iter().fold((usize::MAX, 0), |(lo, hi), p| {
            (lo.min(p.log_instances), hi.max(p.log_instances))
        });
        let (y_min, y_max) = self.points.iter().fold((f64::MAX, 0.0f64), |(lo, hi), p| {
            (lo.min(p.per_sec), hi.max(p.per_sec))
        });
        let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "flockwork batch-R1CS throughput ({} thread(s))",
                    self.threads
                ),
                ("sans-serif", 22),
            )
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (k_min as f64 - 0.25)..(k_max as f64 + 0.25),
                (y_min / 1.5..y_max * 1.5).log_scale(),
            )
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .x_desc("batch size (log2 of the compressions proved)")
            .y_desc("compressions proved per second")
            .x_label_formatter(&|x| format!("2^{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| failed(&e))?;
        for (i, name) in self.series().iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let line: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter(|p| &p.config == name)
                .map(|p| (p.log_instances as f64, p.per_sec))
                .collect();
            chart
                .draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
                .map_err(|e| failed(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    line.iter()
                        .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
                )
                .map_err(|e| failed(&e))?;
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.9))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
        Ok(())
    }
}
