//! The `flockwork` binary as a user meets it: every field runs, bad input gets a clear error.

use std::process::{Command, Output};

fn flockwork(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flockwork"))
        .args(args)
        .output()
        .expect("the flockwork binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn sumcheck_runs_over_every_field_and_hash() {
    for field in [
        "ghash",
        "tower",
        "ghash256",
        "bn254",
        "bls12381",
        "goldilocks",
        "goldilocks-ark",
    ] {
        for hash in ["sha256", "blake3"] {
            let out = flockwork(&[
                "sumcheck",
                "--field",
                field,
                "--transcript",
                hash,
                "--vars",
                "6",
                "--json",
            ]);
            assert!(out.status.success(), "{field}/{hash}: {}", stderr(&out));
            let line = stdout(&out);
            assert!(line.contains(&format!("\"field\":\"{field}\"")), "{line}");
            assert!(line.contains("\"vars\":6"), "{line}");
        }
    }
}

#[test]
fn tour_prints_one_row_per_field() {
    let out = flockwork(&["tour", "--vars", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for field in [
        "ghash ",
        "tower ",
        "ghash256 ",
        "goldilocks ",
        "bn254 ",
        "independent ",
        "padded ",
        "ragged ",
        "ligerito ",
        "fri ",
        "blaze ",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(field)),
            "no row for {field}:\n{text}"
        );
    }
}

#[test]
fn info_names_the_active_kernel() {
    let out = flockwork(&["info"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("kernel in use: "));
}

#[test]
fn bad_input_gets_a_clear_error() {
    let out = flockwork(&["sumcheck", "--field", "nope"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));

    let out = flockwork(&["sumcheck", "--vars", "41"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("at most 40"), "{}", stderr(&out));

    let out = flockwork(&["sumcheck", "--vars", "34", "--field", "bn254"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("MiB"), "{}", stderr(&out));

    let out = flockwork(&["sumcheck", "--degree", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("at least 1"), "{}", stderr(&out));

    let out = flockwork(&["--threads", "0", "info"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--threads"), "{}", stderr(&out));
}

#[test]
fn compare_pcs_prints_one_row_per_scheme_from_worker_processes() {
    let out = flockwork(&["compare", "pcs", "--log-bits", "12"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for pcs in ["ligerito ", "fri ", "blaze "] {
        let row = text
            .lines()
            .find(|l| l.starts_with(pcs))
            .unwrap_or_else(|| panic!("no row for {pcs}:\n{text}"));
        // The last column is the security level.
        let bits: f64 = row.split_whitespace().last().unwrap().parse().unwrap();
        assert!(bits >= 100.0, "{row}");
    }
    let out = flockwork(&[
        "--threads",
        "1",
        "compare",
        "pcs",
        "--log-bits",
        "10",
        "--pcs",
        "fri",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(
        line.starts_with("{\"pcs\":\"fri\",\"log_bits\":10,"),
        "{line}"
    );
    assert!(line.contains("\"peak_mib\":"), "{line}");
}

#[test]
fn compare_pcs_rejects_bad_input_clearly() {
    let out = flockwork(&["compare", "pcs", "--pcs", "nonsense"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("ligerito") && err.contains("fri") && err.contains("blaze"),
        "{err}"
    );
    for size in ["3", "41"] {
        let out = flockwork(&["compare", "pcs", "--log-bits", size]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains("2^8 to 2^40 bits"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = flockwork(&["compare", "pcs", "--log-bits", "10", "--reps", "0"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("at least one measured run"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn prove_out_and_verify_round_trip_and_bad_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("flockwork-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for pcs in ["ligerito", "fri", "blaze"] {
        let path = dir.join(format!("{pcs}.bin"));
        let p = path.to_str().unwrap();
        let out = flockwork(&[
            "prove", "--hash", "blake3", "--count", "5", "--pcs", pcs, "--out", p, "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains(&format!("\"pcs\":\"{pcs}\"")));
        assert!(stdout(&out).contains("\"instances\":5"), "{}", stdout(&out));
        assert!(!stderr(&out).contains("rounded up"), "{}", stderr(&out));
        let out = flockwork(&["verify", p]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with("valid: a chain of 5 blake3 compressions"),
            "{}",
            stdout(&out)
        );

        let bytes = std::fs::read(&path).unwrap();
        let bad = |name: &str, bytes: &[u8], message: &str| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let out = flockwork(&["verify", path.to_str().unwrap()]);
            assert!(!out.status.success(), "{name} accepted");
            let err = stderr(&out);
            assert!(err.contains(message), "{name}: {err}");
            assert!(!err.contains("panicked"), "{name}: {err}");
        };
        bad("truncated.bin", &bytes[..bytes.len() - 1], "truncated");
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        bad("flipped.bin", &flipped, "rejected");
        let mut version = bytes.clone();
        version[4] = 9;
        bad("version.bin", &version, "version 9 is unknown");
        let mut retired = bytes.clone();
        retired[4] = 3;
        bad(
            "retired.bin",
            &retired,
            "flockwork at commit 7e089aa reads version 3",
        );
        let mut statement = bytes.clone();
        statement[27] ^= 1; // a word of the chain's start state
        bad("statement.bin", &statement, "rejected");
        let mut longer = bytes.clone();
        longer.push(0);
        bad("longer.bin", &longer, "unexpected bytes after the proof");
        bad("magic.bin", b"not a proof", "bad magic");
        // A memory limit below the verifier's estimate refuses the file by name; the
        // default limit (90% of the machine) and a generous one accept it.
        let out = flockwork(&["verify", p, "--memory-limit", "1MiB"]);
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains("over the memory limit of 1 MiB"),
            "{}",
            stderr(&out)
        );
        let out = flockwork(&["verify", p, "--memory-limit", "1GiB"]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = flockwork(&["verify", dir.join("missing.bin").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot read"));
    let out = flockwork(&["prove", "--pcs", "nonsense"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("possible values"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The security report of Keccak-f × 2^14 over FRI, checked against values computed by hand:
/// three permutations per block (m0 = 17), 2^13 blocks (k = 13), m = 30, |F| = 2^128.
#[test]
fn security_report_matches_hand_computed_terms() {
    let out = flockwork(&[
        "security",
        "--hash",
        "keccak",
        "--log-instances",
        "14",
        "--pcs",
        "fri",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let bits = |name: &str| -> f64 {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} line:\n{text}"));
        line.split_whitespace()
            .rev()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    let hand = [
        // 128 − log2(m − 13) = 128 − log2 17
        ("zerocheck row point", 128.0 - 17f64.log2()),
        // 128 − log2(2·64 − 1)
        ("zerocheck univariate skip", 128.0 - 127f64.log2()),
        // 128 − log2(3·(m − 6)) = 128 − log2 72
        ("zerocheck multilinear rounds", 128.0 - 72f64.log2()),
        // 128 − log2(2 + k) = 128 − log2 15
        ("lincheck batching", 128.0 - 15f64.log2()),
        // 128 − log2(2·m0) = 128 − log2 34
        ("lincheck sumcheck rounds", 128.0 - 34f64.log2()),
        // 128 − log2 7
        ("ring switching", 128.0 - 7f64.log2()),
        // FRI at rate ½ selected for 101 bits: ⌈101 / log2(4/3)⌉ = 244 queries.
        ("query", 244.0 * (4.0f64 / 3.0).log2()),
    ];
    for (name, expected) in hand {
        let got = bits(name);
        // Protocol terms print two decimals, the PCS terms one.
        assert!(
            (got - expected).abs() < 0.051,
            "{name}: {got} vs {expected}"
        );
    }
    assert!(bits("total (union bound)") >= 100.0);
}

#[test]
fn a_batch_over_the_memory_limit_fails_early_with_a_clear_error() {
    let out = flockwork(&[
        "prove",
        "--hash",
        "keccak",
        "--log-instances",
        "20",
        "--memory-limit",
        "100",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("MiB, more than the 100 MiB limit"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn sweep_writes_json_and_plot_draws_one_series_per_configuration() {
    let dir = std::env::temp_dir().join(format!("flockwork-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("sweep.json");
    let svg = dir.join("sweep.svg");
    let out = flockwork(&[
        "sweep",
        "--hash",
        "blake3",
        "--pcs",
        "ligerito,fri",
        "--log-instances",
        "0,1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out)
            .lines()
            .filter(|l| l.starts_with("blake3/"))
            .count(),
        4
    );
    let out = flockwork(&[
        "plot",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    for label in [
        "batch size (log2 of the compressions proved)",
        "compressions proved per second",
    ] {
        assert!(text.contains(label), "no axis label {label}");
    }
    for series in ["blake3/ligerito", "blake3/fri"] {
        assert_eq!(text.matches(series).count(), 1, "legend entry {series}");
    }
    let out = flockwork(&[
        "plot",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let drawn: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(drawn["points"], 4);
    assert_eq!(drawn["series"].as_array().unwrap().len(), 2);
    // A file that is not a sweep gets a clear error.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"threads\": 1}").unwrap();
    let out = flockwork(&["plot", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a sweep file"),
        "{}",
        stderr(&out)
    );
    let out = flockwork(&["sweep", "--log-instances", "30"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("at most 24"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compare_batch_runs_every_batcher_on_the_same_statement() {
    let out = flockwork(&["compare", "batch", "--widths", "3,1,2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, name) in lines.iter().zip(["independent", "padded", "ragged"]) {
        assert!(
            line.starts_with(&format!(
                "{{\"batcher\":\"{name}\",\"pcs\":null,\"widths\":[3,1,2],"
            )),
            "{line}"
        );
    }
    // Padded rows: 3 regions · 2^3; ragged: 2^3 + 2^1 + 2^2.
    assert!(lines[1].contains("\"physical_rows\":24"), "{}", lines[1]);
    assert!(lines[2].contains("\"physical_rows\":14"), "{}", lines[2]);
    // The same statement with the input layer committed with Blaze (the layer-0 PCS path).
    let out = flockwork(&[
        "compare",
        "batch",
        "--widths",
        "3,1,2",
        "--batchers",
        "ragged",
        "--pcs",
        "blaze",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(
        line.starts_with("{\"batcher\":\"ragged\",\"pcs\":\"blaze\",\"widths\":[3,1,2],"),
        "{line}"
    );
    let out = flockwork(&["compare", "batch", "--widths", "30"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("a region of 2^30 permutations: each region has at most 2^24"),
        "{}",
        stderr(&out)
    );
    let out = flockwork(&["compare", "batch", "--batchers", "nonsense"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("ragged"), "{}", stderr(&out));
}

#[test]
fn trace_prints_the_prover_phases_as_spans() {
    let out = flockwork(&[
        "--trace",
        "prove",
        "--hash",
        "blake3",
        "--log-instances",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    for phase in ["commit", "zerocheck", "lincheck", "open"] {
        assert!(
            err.lines()
                .any(|l| l.contains(&format!("{phase}: close")) && l.contains("time.busy")),
            "no {phase} span:\n{err}"
        );
    }
}

#[test]
fn counts_round_up_merkle_trees_and_poseidon2b_batches_prove_and_verify() {
    let dir = std::env::temp_dir().join(format!("flockwork-cli-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // A Merkle tree over 5 leaves: exactly 5 instances, nothing rounded.
    let out = flockwork(&[
        "prove", "--hash", "blake3", "--merkle", "--count", "5", "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("rounded up"), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(line.contains("\"io\":\"merkle\""), "{line}");
    assert!(line.contains("\"instances\":5"), "{line}");
    // A tree over 8 leaves through a proof file (files of other leaf counts wait for the
    // file format to take them).
    let tree = dir.join("tree.bin");
    let out = flockwork(&[
        "prove",
        "--hash",
        "blake3",
        "--merkle",
        "--count",
        "8",
        "--out",
        tree.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = flockwork(&["verify", tree.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "valid: a Merkle tree over 8 leaves: its 7 blake3 node compressions, from the \
             stated leaves to the stated root"
        ),
        "{}",
        stdout(&out)
    );

    // Poseidon2b: any count, as ragged regions of its binary digits (no padding).
    let batch = dir.join("poseidon2b.bin");
    let out = flockwork(&[
        "prove",
        "--hash",
        "poseidon2b",
        "--count",
        "13",
        "--out",
        batch.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(line.contains("\"widths\":[3,2,0]"), "{line}");
    assert!(line.contains("\"physical_rows\":13"), "{line}");
    let out = flockwork(&["verify", batch.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"instances\":13"),
        "{}",
        stdout(&out)
    );

    // Poseidon2b with the inputs committed (FRI-Binius): the file holds the commitment, not
    // the inputs.
    let opened = dir.join("poseidon2b-fri.bin");
    let out = flockwork(&[
        "prove",
        "--hash",
        "poseidon2b",
        "--count",
        "300",
        "--pcs",
        "fri",
        "--out",
        opened.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"pcs\":\"fri\""), "{}", stdout(&out));
    let out = flockwork(&["verify", opened.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "valid: 300 Poseidon2b permutations in 4 region(s), every output as stated (inputs \
             committed with fri; GKR, ragged batcher, sha256 transcript)"
        ),
        "{}",
        stdout(&out)
    );

    // Tampered files: a statement byte (the root, an input, the commitment) and a proof byte
    // are rejected.
    for (name, path, at) in [
        ("tree", &tree, 40),
        ("poseidon2b", &batch, 20),
        ("poseidon2b-fri", &opened, 20),
    ] {
        let bytes = std::fs::read(path).unwrap();
        for index in [at, bytes.len() - 40] {
            let mut bad = bytes.clone();
            bad[index] ^= 4;
            let file = dir.join(format!("bad-{name}-{index}.bin"));
            std::fs::write(&file, &bad).unwrap();
            let out = flockwork(&["verify", file.to_str().unwrap()]);
            assert!(
                !out.status.success(),
                "{name}: byte {index} flipped, accepted"
            );
            let err = stderr(&out);
            assert!(err.contains("rejected"), "{name} {index}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    // A stated output flipped — of the first permutation, and of the last one of the first
    // region — is rejected: the files state every output and the proofs cover each.
    for (name, path) in [("poseidon2b", &batch), ("poseidon2b-fri", &opened)] {
        let bytes = std::fs::read(path).unwrap();
        // Public inputs: the header (13 bytes: 3 regions), then region 0's 8 inputs of
        // 4 × 16 bytes before its outputs. Committed: the header (15 bytes: 4 regions), the
        // commitment's length and bytes, then the outputs.
        let outputs = if name == "poseidon2b" {
            13 + 8 * 64
        } else {
            17 + usize::from(u16::from_le_bytes([bytes[15], bytes[16]]))
        };
        let first_region = if name == "poseidon2b" { 8 } else { 256 };
        for index in [outputs, outputs + 64 * (first_region - 1) + 48] {
            let mut bad = bytes.clone();
            bad[index] ^= 1;
            let file = dir.join(format!("bad-output-{name}-{index}.bin"));
            std::fs::write(&file, &bad).unwrap();
            let out = flockwork(&["verify", file.to_str().unwrap()]);
            assert!(
                !out.status.success(),
                "{name}: output byte {index} flipped, accepted"
            );
            assert!(stderr(&out).contains("rejected"), "{}", stderr(&out));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The one JSON line of a successful `flockwork ARGS --json`.
fn json_report(args: &[&str]) -> serde_json::Value {
    let out = flockwork(&[args, &["--json"]].concat());
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let line = stdout(&out);
    serde_json::from_str(line.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {line}"))
}

/// `--reps N`: a warm-up and N measured runs of one statement; the report is the best run,
/// with the median beside it, and `--out` writes a proof that verifies.
#[test]
fn prove_reps_reports_the_best_and_the_median_run() {
    let path = std::env::temp_dir().join(format!("flockwork-reps-{}.bin", std::process::id()));
    let p = path.to_str().unwrap();
    let r = json_report(&[
        "prove",
        "--hash",
        "sha256",
        "--log-instances",
        "3",
        "--reps",
        "2",
        "--out",
        p,
    ]);
    let number = |field: &str| {
        r[field]
            .as_f64()
            .unwrap_or_else(|| panic!("no {field}: {r}"))
    };
    assert_eq!(r["reps"], 2, "{r}");
    assert!(number("per_sec_median") > 0.0, "{r}");
    assert!(number("per_sec") >= number("per_sec_median"), "{r}");
    assert!(number("prove_ms") <= number("prove_ms_median"), "{r}");
    for phase in [
        "witness",
        "commit",
        "zerocheck",
        "lincheck",
        "io",
        "open",
        "verify",
    ] {
        assert!(number(&format!("{phase}_ms")) >= 0.0, "{phase}: {r}");
    }
    let out = flockwork(&["verify", p]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(&path).ok();

    // One run (the default): the median is that run.
    let r = json_report(&["prove", "--hash", "blake3", "--log-instances", "2"]);
    assert_eq!(r["reps"], 1, "{r}");
    assert_eq!(r["prove_ms"], r["prove_ms_median"], "{r}");
    assert_eq!(r["per_sec"], r["per_sec_median"], "{r}");

    // Poseidon2b (GKR) measures the same way.
    let r = json_report(&[
        "prove",
        "--hash",
        "poseidon2b",
        "--count",
        "5",
        "--reps",
        "2",
    ]);
    assert_eq!(r["reps"], 2, "{r}");
    assert!(r["per_sec"].as_f64().unwrap() >= r["per_sec_median"].as_f64().unwrap());

    // The text report adds a line with the best and the median run.
    let out = flockwork(&[
        "prove",
        "--hash",
        "blake3",
        "--log-instances",
        "2",
        "--reps",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("prover breakdown (the best of 2 runs):"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("best of 2 runs: ") && l.contains("; median: ")),
        "{text}"
    );
}

#[test]
fn prove_options_that_do_not_fit_are_refused_clearly() {
    for (args, message) in [
        (
            &["prove", "--hash", "keccak", "--merkle", "--count", "8"][..],
            "keccak-f has no Merkle nodes",
        ),
        (
            &["prove", "--hash", "poseidon2b", "--profile", "slim"][..],
            "--profile (Ligerito's batch-R1CS preset) does not apply",
        ),
        (
            &["prove", "--hash", "poseidon2b", "--merkle"][..],
            "--merkle, --public and --memory-limit",
        ),
        (
            &["prove", "--hash", "poseidon2b", "--public"][..],
            "--merkle, --public and --memory-limit",
        ),
        (
            &["prove", "--public", "--merkle"][..],
            "cannot be used with",
        ),
        (&["prove", "--transcript", "md5"][..], "possible values"),
        (
            &["prove", "--hash", "sha256", "--batcher", "padded"][..],
            "--system gkr only",
        ),
        (&["prove", "--count", "0"][..], "between 1 and 2^24"),
        (
            &["prove", "--count", "4", "--log-instances", "2"][..],
            "cannot be used with",
        ),
        (&["prove", "--chain", "--merkle"][..], "cannot be used with"),
        (
            &["prove", "--hash", "poseidon2b", "--count", "99999999"][..],
            "between 1 and 2^24",
        ),
        (&["prove", "--hash", "md5"][..], "possible values"),
        (
            &["prove", "--reps", "0"][..],
            "--reps 0: at least one measured run",
        ),
        (
            &["prove", "--hash", "poseidon2b", "--reps", "0"][..],
            "--reps 0: at least one measured run",
        ),
    ] {
        let out = flockwork(args);
        assert!(!out.status.success(), "{args:?} accepted");
        let err = stderr(&out);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Every subcommand that prints a report can print it as JSON instead (`sweep` writes its
/// JSON to a file, tested above); each line parses and carries the expected fields.
#[test]
fn every_report_is_available_as_json() {
    let parse = |line: &str| -> serde_json::Value {
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let out = flockwork(&["info", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info = parse(stdout(&out).trim());
    assert!(
        info["kernels_available"]
            .as_array()
            .is_some_and(|k| !k.is_empty())
    );

    let out = flockwork(&["tour", "--vars", "6", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out).lines().map(parse).collect();
    for (table, count) in [("sumcheck", 5), ("batch-r1cs", 3), ("gkr", 3), ("pcs", 3)] {
        assert_eq!(
            rows.iter().filter(|r| r["table"] == table).count(),
            count,
            "{table}"
        );
    }

    let out = flockwork(&[
        "security",
        "--hash",
        "blake3",
        "--log-instances",
        "10",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = parse(stdout(&out).trim());
    assert!(report["protocol_bits"].as_f64().unwrap() >= 100.0);
    assert!(report["pcs_bits"].as_f64().unwrap() >= 100.0);
    assert!(report["pcs_terms"].as_array().unwrap().len() > 3);
}

/// A reader that stops early (`| head -1`) ends the tool quietly, without a panic message.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_flockwork"))
        .args(["tour", "--vars", "6", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the flockwork binary runs");
    let mut first = [0u8; 1];
    child
        .stdout
        .take()
        .expect("piped")
        .read_exact(&mut first)
        .expect("the tour prints");
    // stdout is closed here: the next line the tool prints hits a broken pipe.
    let out = child.wait_with_output().expect("the tool ends");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}

/// Keccak-f chains are proved three permutations per block: 4 asked for, proved in 2 blocks
/// (the last block's two further permutations are mapped onto the statement's end,
/// `BatchShape::setup_statement`); the proof file holds the blocks' statement and verifies.
#[test]
fn keccak_chains_take_three_permutations_per_block() {
    let dir = std::env::temp_dir().join(format!("flockwork-cli-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("keccak.bin");
    let out = flockwork(&[
        "prove",
        "--hash",
        "keccak",
        "--count",
        "4",
        "--out",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    for field in [
        "\"count\":4",
        "\"instances\":4",
        "\"copies\":3",
        "\"blocks\":2",
    ] {
        assert!(line.contains(field), "{field}: {line}");
    }
    assert!(!stderr(&out).contains("rounded up"), "{}", stderr(&out));
    let out = flockwork(&["verify", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("valid: a chain of 4 keccak-f compressions in 2 blocks of 3"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--public` proves independent compressions with public inputs and outputs; the file
/// records them, and a changed input or output word of the first or last instance, or
/// another transcript named in the header, is rejected.
#[test]
fn public_io_files_round_trip_and_changed_io_is_rejected() {
    let dir = std::env::temp_dir().join(format!("flockwork-cli-public-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("public.bin");
    let p = path.to_str().unwrap();
    let out = flockwork(&[
        "prove",
        "--hash",
        "sha256",
        "--public",
        "--log-instances",
        "2",
        "--transcript",
        "blake3",
        "--out",
        p,
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"io\":\"public\""),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("\"transcript\":\"blake3\""));
    let out = flockwork(&["verify", p]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("public inputs and outputs of 4 sha256"));
    assert!(stdout(&out).contains("blake3 transcript"));

    let bytes = std::fs::read(&path).unwrap();
    // magic 4 | version 2 | system | transcript | hash | pcs | preset | copies | u32 blocks |
    // u32 count | target 2 | kind | u32 a | u32 b: the inputs start at byte 31, 4 × 12 words,
    // then the outputs, 4 × 4 words.
    let inputs = 31;
    let outputs = inputs + 8 * 4 * 12;
    for (name, at) in [
        ("first-input", inputs),
        ("last-input", outputs - 8),
        ("first-output", outputs),
        ("last-output", outputs + 8 * 4 * 4 - 8),
    ] {
        let mut changed = bytes.clone();
        changed[at] ^= 1;
        let file = dir.join(format!("{name}.bin"));
        std::fs::write(&file, &changed).unwrap();
        let out = flockwork(&["verify", file.to_str().unwrap()]);
        assert!(!out.status.success(), "{name} accepted");
        assert!(
            stderr(&out).contains("rejected"),
            "{name}: {}",
            stderr(&out)
        );
    }
    let mut other = bytes;
    other[7] = 0; // the SHA-256 transcript
    let file = dir.join("other-transcript.bin");
    std::fs::write(&file, &other).unwrap();
    let out = flockwork(&["verify", file.to_str().unwrap()]);
    assert!(!out.status.success(), "another transcript accepted");
    assert!(stderr(&out).contains("another setup"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--transcript` proves both engines over each transcript, and the file says which.
#[test]
fn every_transcript_proves_both_engines_through_files() {
    let dir = std::env::temp_dir().join(format!("flockwork-cli-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for transcript in ["sha256", "blake3", "poseidon2b"] {
        for args in [
            &["--hash", "blake3", "--log-instances", "1"][..],
            &["--hash", "poseidon2b", "--count", "3"],
            &["--hash", "poseidon2b", "--count", "3", "--pcs", "fri"],
        ] {
            let path = dir.join(format!("{transcript}-{}.bin", args.len()));
            let p = path.to_str().unwrap();
            let mut full = vec!["prove", "--transcript", transcript, "--out", p];
            full.extend_from_slice(args);
            let out = flockwork(&full);
            assert!(out.status.success(), "{full:?}: {}", stderr(&out));
            let out = flockwork(&["verify", p]);
            assert!(out.status.success(), "{full:?}: {}", stderr(&out));
            assert!(
                stdout(&out).contains(&format!("{transcript} transcript")),
                "{}",
                stdout(&out)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Keccak-f through GKR on its Boolean layers: the proof file round-trips through
/// `flockwork verify`, a changed byte is rejected, and `compare batch --hash keccak` puts
/// both engines in one table.
#[test]
fn keccak_through_gkr_round_trips_and_compares_with_batch_r1cs() {
    let dir = std::env::temp_dir().join(format!("flockwork-keccak-gkr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("keccak.bin");
    let r = json_report(&[
        "prove",
        "--hash",
        "keccak",
        "--system",
        "gkr",
        "--log-instances",
        "3",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r["system"], "gkr", "{r}");
    assert_eq!(r["instances"], 8, "{r}");
    assert!(r["soundness_bits"].as_f64().unwrap() >= 100.0, "{r}");
    let out = flockwork(&["verify", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["hash"], "keccak-f", "{v}");
    assert_eq!(v["instances"], 8, "{v}");
    let mut bytes = std::fs::read(&file).unwrap();
    for at in [40, bytes.len() / 2, bytes.len() - 3] {
        bytes[at] ^= 4;
        let bad = dir.join(format!("bad-{at}.bin"));
        std::fs::write(&bad, &bytes).unwrap();
        bytes[at] ^= 4;
        let out = flockwork(&["verify", bad.to_str().unwrap()]);
        assert!(!out.status.success(), "byte {at} changed and accepted");
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    let out = flockwork(&[
        "compare", "batch", "--hash", "keccak", "--count", "8", "--io", "public", "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for engine in ["batch-R1CS", "GKR"] {
        assert!(
            rows.iter()
                .any(|r| r["batcher"].as_str().unwrap().starts_with(engine)),
            "no {engine} row: {rows:?}"
        );
    }
    for (args, message) in [
        (
            &["prove", "--hash", "sha256", "--system", "gkr"][..],
            "batch-R1CS (--system r1cs)",
        ),
        (
            &["prove", "--hash", "poseidon2b", "--system", "r1cs"][..],
            "--system gkr",
        ),
        (
            &["prove", "--memory-limit", "4 parsecs"][..],
            "unknown unit",
        ),
    ] {
        let out = flockwork(args);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `flockwork verify` checks a proof of a shipped relation by any of its batchers (a relation
/// file, `flockwork::proof_file::save`), resolving the relation through the registry by name;
/// a relation it does not ship is refused by name.
#[test]
fn relation_files_verify_by_the_relations_name() {
    use flockwork::engines::{Choices, listing};
    use flockwork::field::PrimeField;
    use flockwork::poly::relation::Statement;
    use flockwork::proof_file::{ProofFile, save};
    use flockwork::registry::relations;

    fn file<R: flockwork::engines::Provable + flockwork::poly::StatementCodec>(
        relation: &R,
        inputs: &[R::Input],
        batcher: &str,
    ) -> Vec<u8> {
        let choices = Choices::default();
        let b = listing(relation, inputs.len(), &choices)
            .into_iter()
            .find(|b| b.name() == batcher)
            .unwrap_or_else(|| panic!("{batcher} listed"));
        let statement = if batcher.starts_with("GKR") && batcher.matches(" / ").count() == 2 {
            Statement::committed(inputs.len(), b.commit(inputs).unwrap())
        } else {
            Statement::public(relation, inputs.to_vec())
        };
        let proof = b.prove(inputs, &statement).unwrap();
        save(relation, b.as_ref(), &choices, &statement, proof)
    }

    let dir = std::env::temp_dir().join(format!("flockwork-cli-relation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sha = flockwork::boolean::Sha256Compress::with_adder(flockwork::circuit::Adder::KoggeStone);
    let x: Vec<_> = (0..3u8)
        .map(|i| flockwork::boolean::Sha256Input {
            state: [u32::from(i); 8],
            block: [i; 64],
        })
        .collect();
    let poseidon2 =
        flockwork::gkr::Poseidon2Relation::new(flockwork::poseidon2::instances::bn254_t2());
    let p: Vec<Vec<flockwork::prime::Bn254Fr>> = (0..3u64)
        .map(|i| vec![PrimeField::from_u64(i), PrimeField::from_u64(i + 7)])
        .collect();
    for (name, bytes, system) in [
        (
            "sha256",
            file(&sha, &x, "batch-R1CS padded / blaze / sha256"),
            "batch-r1cs",
        ),
        (
            "poseidon2",
            file(&poseidon2, &p, "GKR ragged / fri / sha256"),
            "gkr",
        ),
    ] {
        let path = dir.join(format!("{name}.fwpf"));
        std::fs::write(&path, &bytes).unwrap();
        let out = flockwork(&["verify", path.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["system"], system, "{json}");
        assert_eq!(json["instances"], 3, "{json}");
        let ProofFile::Relation(f) = ProofFile::from_bytes(&bytes).unwrap() else {
            panic!("a relation file")
        };
        assert_eq!(json["hash"], f.relation.as_str());
        assert!(relations().iter().any(|r| r.name() == f.relation));
        // A relation flockwork does not ship, named.
        let mut unknown = f.clone();
        unknown.relation = "sha1-compress".into();
        std::fs::write(&path, ProofFile::Relation(unknown).to_bytes()).unwrap();
        let out = flockwork(&["verify", path.to_str().unwrap()]);
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains("ships no relation \"sha1-compress\""),
            "{}",
            stderr(&out)
        );
        // A changed proof byte.
        let mut changed = bytes.clone();
        *changed.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &changed).unwrap();
        let out = flockwork(&["verify", path.to_str().unwrap()]);
        assert!(!out.status.success(), "{name}: a changed byte verified");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `compare batch --hash blake3 --count N` lists BLAKE3's batchers of both engines (the
/// compiled circuit's with `--compiled`), each in a worker process, on one statement.
#[test]
fn compare_batch_takes_blake3_at_any_count() {
    let out = flockwork(&[
        "compare",
        "batch",
        "--hash",
        "blake3",
        "--count",
        "3",
        "--io",
        "public",
        "--batchers",
        "ragged",
        "--pcs",
        "fri",
        "--compiled",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["batcher"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "batch-R1CS ragged / fri / sha256",
            "GKR boolean ragged / sha256 [compiled]"
        ]
    );
    for row in &rows {
        assert_eq!(row["instances"], 3, "{row}");
        assert!(row["soundness_bits"].as_f64().unwrap() >= 100.0, "{row}");
    }
}
