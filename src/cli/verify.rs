//! `flockwork verify`: check a proof file written by `flockwork prove --out`, or a proof of
//! a shipped relation by any batcher (`flockwork::proof_file::save`).

use std::path::PathBuf;

use flockwork::proof_file::{ProofFile, ProofFileError};
use flockwork::workload::WorkloadError;
use serde::{Deserialize, Serialize};

/// The options of `flockwork verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The proof file.
    pub file: PathBuf,
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    pub json: bool,
    /// Refuse a file whose verifier would need more memory than this (512MiB, 4GiB, 1.5GB;
    /// a bare number is MiB), before reading its proof [default: 90% of the machine's
    /// memory].
    #[arg(long, value_parser = flockwork::memory::parse_size)]
    pub memory_limit: Option<u64>,
}

/// What a verified file holds, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// Always true: an invalid file is an error.
    pub valid: bool,
    /// `batch-r1cs` or `gkr`.
    pub system: String,
    /// The hash or permutation.
    pub hash: String,
    /// Batch-R1CS and relation files: `chain`, `merkle`, `public` (or `committed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io: Option<String>,
    /// GKR and relation files: the batcher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batcher: Option<String>,
    /// The commitment, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcs: Option<String>,
    /// Instances proved.
    pub instances: usize,
    /// Batch-R1CS: instances per block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<usize>,
    /// Batch-R1CS: blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<usize>,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Verifier time.
    pub verify_ms: f64,
}

/// `flockwork verify`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    let path = &args.file;
    let unreadable =
        |e: std::io::Error| WorkloadError::Failed(format!("cannot read {}: {e}", path.display()));
    let reject = |e: ProofFileError| WorkloadError::Failed(format!("{}: {e}", path.display()));
    // Parsed as it is read: the file's bytes would double the statement's memory.
    let source = std::fs::File::open(path).map_err(unreadable)?;
    let len = source.metadata().map_err(unreadable)?.len();
    let file = ProofFile::read_from(std::io::BufReader::new(source), len).map_err(reject)?;
    // What the file states, read before the verifier takes the file over.
    let description = file.describe();
    let proof_bytes = file.proof().len();
    let gkr = |hash: &str, batcher: flockwork::gkr::Variant, pcs: Option<String>, instances| Row {
        valid: true,
        system: "gkr".to_owned(),
        hash: hash.to_owned(),
        io: None,
        batcher: Some(batcher.name().to_owned()),
        pcs,
        instances,
        copies: None,
        blocks: None,
        proof_bytes,
        verify_ms: 0.0,
    };
    let mut row = match &file {
        ProofFile::Flock(f) => Row {
            valid: true,
            system: "batch-r1cs".to_owned(),
            hash: f.hash.name().to_owned(),
            io: Some(f.io().name().to_owned()),
            batcher: None,
            pcs: Some(f.pcs.name().to_owned()),
            instances: f.instances(),
            copies: Some(f.copies),
            blocks: Some(f.blocks),
            proof_bytes,
            verify_ms: 0.0,
        },
        ProofFile::Gkr(g) => gkr("poseidon2b", g.variant, None, g.permutations()),
        ProofFile::GkrOpened(g) => gkr(
            "poseidon2b",
            g.variant,
            Some(g.pcs.name().to_owned()),
            g.permutations(),
        ),
        ProofFile::BooleanGkr(g) => gkr(
            "keccak-f",
            g.variant,
            g.pcs.map(|k| k.name().to_owned()),
            g.count(),
        ),
        ProofFile::Relation(f) => Row {
            valid: true,
            system: if f.batcher.starts_with("batch-R1CS") {
                "batch-r1cs"
            } else if f.batcher.starts_with("GKR") {
                "gkr"
            } else {
                "other"
            }
            .to_owned(),
            hash: f.relation.clone(),
            io: Some(format!("{:?}", f.kind).to_lowercase()),
            batcher: Some(f.batcher.clone()),
            pcs: None,
            instances: f.count,
            copies: None,
            blocks: None,
            proof_bytes,
            verify_ms: 0.0,
        },
    };
    let clock = std::time::Instant::now();
    let limit = args
        .memory_limit
        .or_else(|| flockwork::memory::total_bytes().map(|bytes| bytes / 10 * 9));
    file.into_verified(limit).map_err(reject)?;
    let verify_ms = super::ms(clock.elapsed());
    if !args.json {
        println!(
            "valid: {description}, {:.1} KiB, verified in {verify_ms:.2} ms",
            proof_bytes as f64 / 1024.0,
        );
        return Ok(());
    }
    row.verify_ms = verify_ms;
    super::print_json(&row);
    Ok(())
}
