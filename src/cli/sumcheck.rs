//! `flockwork sumcheck`: one sumcheck statement `Σ_x eq(r,x)·Π_j P_j(x)` over random tables,
//! proved and verified in a chosen field with a chosen transcript hash.

use clap::ValueEnum;
use flockwork::prelude::*;
use flockwork::workload::{SumcheckReport, SumcheckWorkload, WorkloadError};
use serde::{Deserialize, Serialize};

/// The options of `flockwork sumcheck`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The field of the polynomials and challenges.
    #[arg(long, value_enum, default_value_t = FieldChoice::Ghash)]
    pub field: FieldChoice,
    /// Number of variables n (the tables have 2^n entries).
    #[arg(long, default_value_t = 20)]
    pub vars: usize,
    /// Number of multilinear factors d.
    #[arg(long, default_value_t = 3)]
    pub degree: usize,
    /// Plain sum Σ_x Π_j P_j(x), without the eq weight.
    #[arg(long)]
    pub no_eq: bool,
    /// Hash of the Fiat–Shamir transcript.
    #[arg(long, value_enum, default_value_t = HashChoice::Sha256)]
    pub transcript: HashChoice,
    /// Seed of the random tables.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The field backends the tool runs a sumcheck in (the tool's own list: the library's fields
/// are types, chosen at compile time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FieldChoice {
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

impl FieldChoice {
    /// The field's word on the command line.
    pub fn word(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// Transcript hashes of the sumcheck workload (a `digest` hash, chosen at compile time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
pub enum HashChoice {
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

/// Proves and verifies `workload` in `field` with the `hash` transcript.
pub fn run(
    field: FieldChoice,
    hash: HashChoice,
    workload: &SumcheckWorkload,
) -> Result<Row, WorkloadError> {
    let report: SumcheckReport = with_field!(field, F => match hash {
        HashChoice::Sha256 => workload.run::<F, sha2::Sha256>(),
        HashChoice::Blake3 => workload.run::<F, blake3::Hasher>(),
    })?;
    Ok(Row::new(field, hash, &report))
}

/// One sumcheck run: a row of the table or one JSON object.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The field's word.
    pub field: String,
    /// The transcript hash.
    pub transcript: HashChoice,
    /// Number of variables.
    pub vars: usize,
    /// Number of multilinear factors.
    pub degree: usize,
    /// Whether the sum is eq-weighted.
    pub eq: bool,
    /// Building the tables and the claim.
    pub setup_ms: f64,
    /// Prover time.
    pub prove_ms: f64,
    /// Verifier time.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness of the sumcheck.
    pub soundness_bits: u32,
}

impl Row {
    /// The table's header.
    pub const HEADER: &str =
        "field            vars  deg  eq   prove (ms)  verify (ms)  proof (B)  soundness (bits)";

    fn new(field: FieldChoice, hash: HashChoice, r: &SumcheckReport) -> Self {
        Self {
            field: field.word(),
            transcript: hash,
            vars: r.workload.num_vars,
            degree: r.workload.degree,
            eq: r.workload.with_eq,
            setup_ms: super::ms(r.setup),
            prove_ms: super::ms(r.prove),
            verify_ms: super::ms(r.verify),
            proof_bytes: r.proof_bytes,
            soundness_bits: r.soundness_bits,
        }
    }

    /// The row under [`Row::HEADER`].
    pub fn line(&self) -> String {
        format!(
            "{:<16} {:>4} {:>4}  {:<3} {:>11.1} {:>12.2} {:>10} {:>17}",
            self.field,
            self.vars,
            self.degree,
            if self.eq { "yes" } else { "no" },
            self.prove_ms,
            self.verify_ms,
            self.proof_bytes,
            self.soundness_bits,
        )
    }
}

/// `flockwork sumcheck`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    let workload = SumcheckWorkload {
        num_vars: args.vars,
        degree: args.degree,
        with_eq: !args.no_eq,
        seed: args.seed,
    };
    let row = run(args.field, args.transcript, &workload)?;
    if args.json {
        super::print_json(&row);
    } else {
        println!("{}", Row::HEADER);
        println!("{}", row.line());
    }
    Ok(())
}
