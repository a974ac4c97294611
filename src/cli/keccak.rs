//! `flockwork prove --hash keccak --system gkr`: Keccak-f\[1600\] proved with GKR on its
//! Boolean layers through the library's batcher listing ([`flockwork::engines`]): public
//! inputs and outputs, or (with `--pcs`) inputs and outputs committed by the batcher and
//! opened with the walk's terminal claims.

use flockwork::boolean::KeccakF1600;
use flockwork::engines::{Choices, System, boolean_gkr_batcher, measure};
use flockwork::gkr::Variant;
use flockwork::poly::relation::{Io, IoKind, Relation, Statement};
use flockwork::proof_file::{BooleanGkrFile, BooleanIo, ProofFile};
use flockwork::workload::WorkloadError;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::prove::{
    Args, Measured, count, print_best_and_median, refuse_r1cs_options, runs_note, write_proof_file,
};
use super::{invalid, ms, peak_mib, with_progress};

/// The report of a GKR Keccak-f run, as `--json` prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The permutation.
    pub hash: String,
    /// The proof system, `gkr`.
    pub system: String,
    /// The batcher's name.
    pub batcher: String,
    /// `public` or `committed`.
    pub io: String,
    /// The permutations proved.
    pub instances: usize,
    /// Prover threads.
    pub threads: usize,
    /// Measured runs.
    pub reps: usize,
    /// The measurement (the commitment in the prover's time for committed IO).
    #[serde(flatten)]
    pub measured: Measured,
}

/// Random Keccak-f states from `seed`.
pub fn inputs(count: usize, seed: u64) -> Vec<[u64; 25]> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| std::array::from_fn(|_| rng.random()))
        .collect()
}

/// `flockwork prove --hash keccak --system gkr`.
pub fn prove(args: &Args) -> Result<(), WorkloadError> {
    refuse_r1cs_options(args, "keccak (--system gkr)", true)?;
    let count = count(args)?;
    let relation = KeccakF1600::new();
    let variant = args.batcher.unwrap_or(Variant::Ragged);
    let io = if args.pcs.is_some() {
        IoKind::Committed
    } else {
        IoKind::Public
    };
    let choices = Choices {
        target_bits: args.target_bits,
        transcript: args.transcript,
        ..Choices::default()
    };
    let batcher =
        boolean_gkr_batcher(&relation, count, variant, args.pcs, &choices).ok_or_else(|| {
            invalid(format!(
                "no GKR batcher proves {count} Keccak-f instances with the {} batcher and {} \
                 inputs and outputs",
                variant.name(),
                if io == IoKind::Committed {
                    "committed"
                } else {
                    "public"
                }
            ))
        })?;
    let inputs = inputs(count, args.seed);
    let fail = |e: flockwork::poly::relation::BatchError| WorkloadError::Failed(e.to_string());
    let m = with_progress(
        format!(
            "proving and verifying {count} Keccak-f permutations with {} on {} thread(s){}",
            batcher.name(),
            rayon::current_num_threads(),
            runs_note(args.reps)
        ),
        || {
            // The commitment to the inputs and outputs is the prover's work too: it is timed
            // once and added to every run's prover time.
            let clock = std::time::Instant::now();
            let statement = match io {
                IoKind::Committed => {
                    Statement::committed(count, batcher.commit(&inputs).map_err(fail)?)
                }
                _ => Statement::public(&relation, inputs.clone()),
            };
            let commit = if io == IoKind::Committed {
                clock.elapsed()
            } else {
                std::time::Duration::ZERO
            };
            let mut m = measure(batcher.as_ref(), &inputs, &statement, args.reps).map_err(fail)?;
            m.prove += commit;
            m.prove_median += commit;
            Ok::<_, WorkloadError>((statement, m))
        },
    )?;
    let (statement, m) = m;
    if let Some(path) = &args.out {
        let io = match statement.io {
            Io::Public { inputs, outputs } => BooleanIo::Public { inputs, outputs },
            Io::Committed { count, commitment } => BooleanIo::Committed { count, commitment },
            Io::Chain { .. } | Io::Merkle { .. } => unreachable!("a public or committed statement"),
        };
        let file = ProofFile::BooleanGkr(BooleanGkrFile {
            variant,
            transcript: args.transcript,
            pcs: args.pcs,
            target_bits: args.target_bits,
            io,
            proof: m.proof.clone(),
        });
        write_proof_file(path, &file, args.json)?;
    }
    let per_sec = |d: std::time::Duration| count as f64 / d.as_secs_f64();
    let row = Row {
        hash: relation.name(),
        system: System::Gkr.name().to_owned(),
        batcher: batcher.name(),
        io: if io == IoKind::Committed {
            "committed"
        } else {
            "public"
        }
        .to_owned(),
        instances: count,
        threads: rayon::current_num_threads(),
        reps: args.reps,
        measured: Measured {
            prove_ms: ms(m.prove),
            prove_ms_median: ms(m.prove_median),
            verify_ms: ms(m.verify),
            proof_bytes: m.proof.len(),
            per_sec: per_sec(m.prove),
            per_sec_median: per_sec(m.prove_median),
            soundness_bits: batcher.soundness_bits(),
            peak_mib: peak_mib(),
        },
    };
    if args.json {
        super::print_json(&row);
        return Ok(());
    }
    println!(
        "{} × {count} with {}, {} inputs and outputs, {} thread(s)",
        row.hash, row.batcher, row.io, row.threads
    );
    let r = &row.measured;
    println!(
        "prover {:.1} ms: {:.0} permutations/s proved",
        r.prove_ms, r.per_sec
    );
    print_best_and_median(
        args.reps,
        m.prove,
        m.prove_median,
        (r.per_sec, r.per_sec_median),
        "permutations",
    );
    println!(
        "proof: {:.1} KiB, verified in {:.2} ms; peak memory {:.0} MiB",
        r.proof_bytes as f64 / 1024.0,
        r.verify_ms,
        r.peak_mib
    );
    println!("soundness (bits): {:.1}", r.soundness_bits);
    Ok(())
}
