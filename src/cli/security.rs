//! `flockwork security`: the soundness of the batch-R1CS setup `flockwork prove` would use,
//! term by term, without proving.

use flockwork::flock::HashKind;
use flockwork::pcs::PcsKind;
use flockwork::r1cs::Preset;
use flockwork::workload::WorkloadError;
use serde::{Deserialize, Serialize};

use super::choice;
use super::prove::describe_shape;

/// The options of `flockwork security`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The compression function: sha256, keccak or blake3.
    #[arg(long, value_parser = choice::<HashKind>(), default_value = "sha256")]
    pub hash: HashKind,
    /// k: 2^k instances.
    #[arg(long, default_value_t = 14)]
    pub log_instances: usize,
    /// The dense polynomial commitment under ring-switching: ligerito, fri or blaze.
    #[arg(long, value_parser = choice::<PcsKind>(), default_value = "ligerito")]
    pub pcs: PcsKind,
    /// Ligerito profile: fast or slim.
    #[arg(long, value_parser = choice::<Preset>(), default_value = "fast")]
    pub profile: Preset,
    /// Security target of the parameter selection, in bits.
    #[arg(long, default_value_t = 100)]
    pub target_bits: u32,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
}

/// One term of a soundness report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Term {
    /// What the term bounds.
    pub term: String,
    /// The commitment's level, if the term belongs to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<usize>,
    /// `−log2` of its error (null when the error is zero).
    pub bits: f64,
}

/// The report, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The hash.
    pub hash: String,
    /// The commitment.
    pub pcs: String,
    /// `k`.
    pub log_instances: usize,
    /// The instances of the setup.
    pub instances: usize,
    /// Instances per block.
    pub copies: usize,
    /// Blocks.
    pub blocks: usize,
    /// `⌈log2 blocks⌉`.
    pub log_blocks: usize,
    /// Variables of the committed polynomial.
    pub num_vars: usize,
    /// The target.
    pub target_bits: u32,
    /// The batch-R1CS terms.
    pub protocol_terms: Vec<Term>,
    /// The weakest of them.
    pub protocol_bits: f64,
    /// The commitment's terms.
    pub pcs_terms: Vec<Term>,
    /// The weakest of them.
    pub pcs_bits: f64,
}

/// `flockwork security`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    let config = flockwork::r1cs::FlockConfig {
        scheme: args.pcs,
        preset: args.profile,
        target_bits: args.target_bits,
        ..Default::default()
    };
    let s = flockwork::flock::security_summary(args.hash, args.log_instances, config)?;
    if args.json {
        super::print_json(&Report {
            hash: args.hash.name().to_owned(),
            pcs: args.pcs.name().to_owned(),
            log_instances: args.log_instances,
            instances: s.shape.instances(),
            copies: s.shape.copies,
            blocks: s.shape.blocks,
            log_blocks: s.shape.log_blocks(),
            num_vars: s.num_vars,
            target_bits: args.target_bits,
            protocol_terms: s
                .protocol
                .terms
                .iter()
                .map(|t| Term {
                    term: t.name.to_string(),
                    level: None,
                    bits: t.bits,
                })
                .collect(),
            protocol_bits: s.protocol.bits(),
            pcs_terms: s
                .pcs
                .terms
                .iter()
                .map(|t| Term {
                    term: t.name.to_owned(),
                    level: t.level,
                    bits: t.bits,
                })
                .collect(),
            pcs_bits: s.pcs.bits(),
        });
        return Ok(());
    }
    println!(
        "batch-R1CS over {} (ring-switched), {} × {}, m = {}, target {} bits\n",
        args.pcs.name(),
        args.hash.name(),
        describe_shape(s.shape),
        s.num_vars,
        args.target_bits
    );
    println!("protocol terms, soundness (bits):\n{}\n", s.protocol);
    println!(
        "{} terms (round-by-round), soundness (bits):\n{}",
        args.pcs.name(),
        s.pcs
    );
    Ok(())
}
