//! `flockwork info`: the CPU features found and the kernels chosen.

use flockwork::binary::arch::Backend;
use serde::{Deserialize, Serialize};

/// The options of `flockwork info`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object instead of the text.
    #[arg(long)]
    pub json: bool,
}

/// What `info` reports.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The tool's version.
    pub version: String,
    /// Threads of the prover pool.
    pub threads: usize,
    /// The GF(2^128) kernel in use.
    pub kernel: String,
    /// The GF(2^128) kernels this CPU can run.
    pub kernels_available: Vec<String>,
    /// The batch-R1CS first-round kernel.
    pub r1cs_round1_kernel: String,
    /// The multi-message SHA-256 backend (Merkle trees, grinding).
    pub sha256_backend: String,
}

/// `flockwork info`.
pub fn main(args: &Args) {
    let report = Report {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        threads: rayon::current_num_threads(),
        kernel: Backend::active().name().to_owned(),
        kernels_available: Backend::ALL
            .into_iter()
            .filter(|b| b.is_available())
            .map(|b| b.name().to_owned())
            .collect(),
        r1cs_round1_kernel: flockwork::r1cs::kernels::active().name().to_owned(),
        sha256_backend: flockwork_sha256x::Backend::detect().name().to_owned(),
    };
    if args.json {
        super::print_json(&report);
        return;
    }
    println!("flockwork {}", report.version);
    println!("threads: {}", report.threads);
    println!("GF(2^128) kernel in use: {}", report.kernel);
    println!(
        "GF(2^128) kernels available: {}",
        report.kernels_available.join(" ")
    );
    println!("batch-R1CS round-1 kernel: {}", report.r1cs_round1_kernel);
    println!(
        "multi-message SHA-256 (Merkle trees, grinding): {} (portable: the sha2 crate, with \
         SHA-NI where the CPU has it)",
        report.sha256_backend
    );
}
