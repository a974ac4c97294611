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
                "sumcheck", "--field", field, "--hash", hash, "--vars", "6", "--json",
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
    for field in ["ghash ", "tower ", "ghash256 ", "goldilocks ", "bn254 "] {
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
