//! `flockwork tour` (the default command): a sumcheck in every field, batch-R1CS per hash,
//! the GKR batchers and the commitments, one short table each.

use flockwork::binary::arch::Backend;
use flockwork::compare::{BatchComparison, PcsComparison};
use flockwork::workload::{SumcheckWorkload, WorkloadError};
use serde::{Deserialize, Serialize};

use super::compare::{PcsRow, RegionRow};
use super::sumcheck::{self, FieldChoice, HashChoice};
use super::{ms, print_json};

/// The options of `flockwork tour`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of variables of the sumcheck statement.
    #[arg(long, default_value_t = 18)]
    pub vars: usize,
    /// Print one JSON object per row (with its table's name) instead of the tables.
    #[arg(long)]
    pub json: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            vars: 18,
            json: false,
        }
    }
}

/// A row of one of the tour's tables, tagged with the table's name in JSON.
#[derive(Serialize)]
struct Tagged<'a, T> {
    table: &'static str,
    #[serde(flatten)]
    row: &'a T,
}

/// A batch-R1CS row of the tour.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct R1csRow {
    /// The hash.
    pub hash: String,
    /// `k`: a chain of `2^k` compressions.
    pub log_instances: usize,
    /// Prover time.
    pub prove_ms: f64,
    /// Compressions proved per second.
    pub per_sec: f64,
    /// Prover time over native hashing on one core.
    pub overhead: f64,
    /// Verifier time.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Soundness.
    pub soundness_bits: f64,
}

/// `flockwork tour`.
pub fn main(args: &Args) -> Result<(), WorkloadError> {
    let json = args.json;
    // The prose and the tables for people; one JSON object per row with `--json`.
    let text = |line: String| {
        if !json {
            println!("{line}");
        }
    };
    let show = |table: &'static str, line: String, row: &dyn erased::Row| {
        if json {
            row.print_tagged(table);
        } else {
            println!("{line}");
        }
    };
    let vars = args.vars;
    text(format!(
        "flockwork tour: Σ_x eq(r,x)·P0(x)·P1(x)·P2(x) over 2^{vars} points, proved and \
         verified with a SHA-256 transcript in each field."
    ));
    text(format!("GF(2^128) kernel: {}\n", Backend::active().name()));
    text(sumcheck::Row::HEADER.to_owned());
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
        let row = sumcheck::run(field, HashChoice::Sha256, &workload)?;
        show("sumcheck", row.line(), &row);
    }
    text(
        "\nSoundness is −log2 of the sumcheck's error n·(d+1)/|F|. Goldilocks alone is below \
         100 bits: it needs challenges from an extension field."
            .to_owned(),
    );
    let k = 10;
    text(format!(
        "\nBatch-R1CS (Flock): a chain of 2^{k} compressions per hash, proved, verified, and \
         compared with native hashing on one core ({} prover thread(s)).\n",
        rayon::current_num_threads()
    ));
    text(
        "hash        prove (ms)  per second  × native  verify (ms)  proof (KiB)  soundness (bits)"
            .to_owned(),
    );
    for hash in flockwork::flock::HashKind::ALL {
        let r = flockwork::flock::FlockWorkload {
            hash,
            count: 1 << k,
            seed: 1,
            io: flockwork::flock::IoKind::Chain,
            config: flockwork::r1cs::FlockConfig::default(),
            transcript: flockwork::transcript::TranscriptKind::Sha256,
        }
        .run()?;
        let row = R1csRow {
            hash: hash.name().to_owned(),
            log_instances: k,
            prove_ms: ms(r.timings.total()),
            per_sec: r.proved_per_sec(),
            overhead: r.overhead(),
            verify_ms: ms(r.verify),
            proof_bytes: r.proof_bytes,
            soundness_bits: r.soundness.bits(),
        };
        let line = format!(
            "{:<10} {:>11.1} {:>11.0} {:>9.0} {:>12.2} {:>12.1} {:>17.1}",
            row.hash,
            row.prove_ms,
            row.per_sec,
            row.overhead,
            row.verify_ms,
            row.proof_bytes as f64 / 1024.0,
            row.soundness_bits
        );
        show("batch-r1cs", line, &row);
    }
    let widths = vec![10, 8, 9, 6];
    text(format!(
        "\nLayered GKR: Poseidon2b output claims over regions of {} permutations, proved with \
         each batcher (the ragged walk pays only the regions' own rows).\n",
        widths
            .iter()
            .map(|w| format!("2^{w}"))
            .collect::<Vec<_>>()
            .join(" + ")
    ));
    text(RegionRow::HEADER.to_owned());
    let batch = BatchComparison {
        widths,
        seed: 1,
        pcs: None,
    };
    for variant in flockwork::gkr::Variant::ALL {
        let row = RegionRow::measure(&batch, variant)?;
        show("gkr", row.line(), &row);
    }
    let log_bits = 22;
    text(format!(
        "\nPolynomial commitments: a random Boolean polynomial of 2^{log_bits} bits, committed, \
         opened at two points and verified with each scheme (ring-switching, 100 bits).\n"
    ));
    text(PcsRow::HEADER.to_owned());
    let comparison = PcsComparison {
        log_bits,
        target_bits: 100,
        seed: 1,
        reps: 1,
    };
    for kind in flockwork::pcs::PcsKind::ALL {
        let row = PcsRow::measure(&comparison, kind)?;
        show("pcs", row.line(), &row);
    }
    text(
        "\nMore: flockwork --help; a phase breakdown: flockwork prove --hash keccak; \
         commitments side by side with peak memory: flockwork compare pcs --log-bits 28"
            .to_owned(),
    );
    Ok(())
}

/// Rows of different types printed through one closure.
mod erased {
    use serde::Serialize;

    /// A row that prints itself as JSON with its table's name.
    pub trait Row {
        fn print_tagged(&self, table: &'static str);
    }

    impl<T: Serialize> Row for T {
        fn print_tagged(&self, table: &'static str) {
            super::print_json(&super::Tagged { table, row: self });
        }
    }
}
