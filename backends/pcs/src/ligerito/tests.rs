use flockwork_core::pcs::Claim;
use flockwork_core::{MultilinearPoly, PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_testkit::{random_vec, rng};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};
use itertools::iproduct;

use super::*;
use crate::conformance::check_pcs;
use crate::security::term;

type Sha = sha2::Sha256;

/// A small schedule with few queries, so proofs are small enough to flip every byte.
fn small_config(num_vars: usize, regime: Regime) -> LigeritoConfig {
    let ood = usize::from(matches!(regime, Regime::Johnson { .. }));
    let level = |log_cols, log_inv_rate, fold_pow_bits| LevelConfig {
        log_cols,
        log_inv_rate,
        num_queries: 3,
        fold_pow_bits,
        query_pow_bits: 1,
        ood_samples: ood,
    };
    LigeritoConfig {
        num_vars,
        levels: vec![level(3, 1, 1), level(2, 2, 0), level(2, 3, 2)],
        regime,
        field_bits: 128,
    }
}

fn poly(num_vars: usize, label: &str) -> Vec<Ghash128> {
    random_vec(&mut rng(label), 1 << num_vars)
}

#[test]
fn conformance_small_schedules_both_regimes() {
    for regime in [Regime::UniqueDecoding, Regime::Johnson { eta: 0.02 }] {
        let pcs = Ligerito::<Ghash128, Sha>::new(small_config(10, regime)).unwrap();
        let p = poly(10, "ligerito/conformance");
        check_pcs(&pcs, p.as_slice(), &p, Some(4), true);
    }
}

#[test]
fn conformance_blake3_preset() {
    let pcs = Ligerito::<Ghash128, blake3::Hasher>::with_preset(
        12,
        100,
        Preset::Slim,
        Regime::Johnson { eta: 0.02 },
    )
    .unwrap();
    let p = poly(12, "ligerito/blake3");
    check_pcs(&pcs, p.as_slice(), &p, Some(7), true);
}

/// Proves and verifies evaluation claims at `points` with the given PCS.
fn round_trip(pcs: &Ligerito<Ghash128, Sha>, p: &[Ghash128], points: usize) -> usize {
    let (root, data) = pcs.commit(p);
    let mle = MultilinearPoly::new(p.to_vec());
    let claims: Vec<Claim<Ghash128>> = (0..points)
        .map(|i| {
            let z: Vec<Ghash128> = random_vec(&mut rng(&format!("pt{i}")), pcs.num_vars());
            Claim::evaluation(z.clone(), mle.evaluate(&z))
        })
        .collect();
    let domain = DomainSeparator::new("ligerito/test", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    prover.public_bytes("root", &root);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    verifier.public_bytes("root", &root);
    pcs.verify(&root, &claims, &mut verifier).unwrap();
    verifier.finish().unwrap();
    proof.len()
}

#[test]
fn presets_round_trip_at_several_sizes() {
    for (num_vars, preset) in [
        (0, Preset::Fast),
        (3, Preset::Fast),
        (8, Preset::Slim),
        (14, Preset::Fast),
        (16, Preset::Slim),
    ] {
        for regime in [Regime::UniqueDecoding, Regime::Johnson { eta: DEFAULT_ETA }] {
            let pcs =
                Ligerito::<Ghash128, Sha>::with_preset(num_vars, 100, preset, regime).unwrap();
            round_trip(&pcs, &poly(num_vars, "presets"), 2);
        }
    }
}

/// The byte offset of codeword row `j` of the prover's level-0 data inside `proof`.
fn find_row(proof: &[u8], row: &[Ghash128]) -> Option<usize> {
    let bytes: Vec<u8> = row.iter().flat_map(|x| x.0.to_le_bytes()).collect();
    proof
        .windows(bytes.len())
        .position(|w| w == bytes.as_slice())
}

#[test]
fn a_merkle_path_for_the_wrong_leaf_is_rejected() {
    let pcs = Ligerito::<Ghash128, Sha>::new(small_config(10, Regime::UniqueDecoding)).unwrap();
    let p = poly(10, "ligerito/wrong-leaf");
    let (root, data) = pcs.commit(&p);
    let z: Vec<Ghash128> = random_vec(&mut rng("wrong-leaf/z"), 10);
    let claims = vec![Claim::evaluation(
        z.clone(),
        MultilinearPoly::new(p.clone()).evaluate(&z),
    )];
    let domain = DomainSeparator::new("ligerito/test", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    // Locate two opened level-0 rows and swap them: each is a genuine leaf of the tree, now
    // presented with the other's position.
    let width = 8;
    let opened: Vec<usize> = data
        .level
        .codeword
        .chunks_exact(width)
        .filter_map(|row| find_row(&proof, row))
        .collect();
    assert!(opened.len() >= 2, "queried rows appear in the proof");
    let (a, b) = (opened[0], opened[1]);
    let mut swapped = proof.clone();
    let len = width * 16;
    swapped[a..a + len].copy_from_slice(&proof[b..b + len]);
    swapped[b..b + len].copy_from_slice(&proof[a..a + len]);
    let mut verifier = Sha256VerifierTranscript::new(domain, &swapped);
    assert_eq!(
        pcs.verify(&root, &claims, &mut verifier),
        Err(VerifyError::MerklePath)
    );
}

#[test]
fn selector_reaches_the_target_term_by_term() {
    let regimes = [Regime::UniqueDecoding, Regime::Johnson { eta: DEFAULT_ETA }];
    for (num_vars, preset, regime) in iproduct!(13..=25, [Preset::Fast, Preset::Slim], regimes) {
        let config = LigeritoConfig::select(num_vars, 100, preset, regime, 128).unwrap();
        let report = config.security_report();
        assert!(
            report.bits() >= 100.0,
            "{num_vars} vars {preset:?} {regime:?}:\n{report}"
        );
        assert!(config.final_vars() <= 5);
    }
}

#[test]
fn selector_matches_the_notes_query_counts() {
    // notes/pcs.md §1: Johnson (η = 0.02) 218/106/71/53/43 (fast), 90/60/45/36/31 with 16
    // bits of query grinding (slim); unique decoding 241/148/121/110/105.
    let counts = |preset, regime| {
        let c = LigeritoConfig::select(23, 100, preset, regime, 128).unwrap();
        c.levels.iter().map(|l| l.num_queries).collect::<Vec<_>>()
    };
    let johnson = Regime::Johnson { eta: 0.02 };
    assert_eq!(counts(Preset::Fast, johnson), vec![218, 106, 71, 53, 43]);
    assert_eq!(counts(Preset::Slim, johnson), vec![90, 60, 45, 36, 31]);
    assert_eq!(
        counts(Preset::Fast, Regime::UniqueDecoding),
        vec![241, 148, 121, 110, 105]
    );
    let fast = LigeritoConfig::select(23, 100, Preset::Fast, johnson, 128).unwrap();
    let ks: Vec<usize> = fast.levels.iter().map(|l| l.log_cols).collect();
    assert_eq!(ks, vec![6, 3, 3, 3, 3]);
    assert_eq!(fast.final_vars(), 5);
    // The fold grinding of the notes' fast profile starts at 17 bits.
    assert_eq!(fast.levels[0].fold_pow_bits, 17);
}

#[test]
fn truncated_schedules_and_bad_configs_are_rejected() {
    let mut config = small_config(10, Regime::UniqueDecoding);
    config.levels[0].log_cols = 20;
    assert_eq!(
        Ligerito::<Ghash128, Sha>::new(config).unwrap_err(),
        ConfigError::TooManyFoldedVars
    );
    let mut config = small_config(10, Regime::UniqueDecoding);
    config.levels[1].num_queries = 0;
    assert_eq!(
        Ligerito::<Ghash128, Sha>::new(config).unwrap_err(),
        ConfigError::NoQueries
    );
    let mut config = small_config(10, Regime::Johnson { eta: 0.5 });
    config.levels[0].log_inv_rate = 1;
    assert_eq!(
        Ligerito::<Ghash128, Sha>::new(config).unwrap_err(),
        ConfigError::BadEta
    );
    let _ = Ghash128::ONE;
}

#[test]
fn report_terms_match_hand_evaluated_formulas() {
    // Level 0 of the fast profile at 2^23 elements: ρ = ½, n = 2^18, k = 6, η = 0.02.
    // Johnson fold: m = max(⌈√ρ/(2η)⌉, 3) + ½ = 18.5, γ = 1 − √ρ − η,
    // a = [2m^5 + 3mγρ]/(3ρ^{3/2})·n + m/√ρ, bits = 128 − log2 a − (k − 1) = 83.04, + 17 PoW.
    // OOD: L = 1/(2η√ρ); 1·(128 − log2 23) − (2 log2 L − 1) = 114.19.
    let johnson =
        LigeritoConfig::select(23, 100, Preset::Fast, Regime::Johnson { eta: 0.02 }, 128).unwrap();
    let report = johnson.security_report();
    assert!((term(&report, "fold", 0) - (83.04 + 17.0)).abs() < 0.01);
    assert!((term(&report, "out-of-domain", 0) - 114.19).abs() < 0.01);
    // 218 queries at −log2(√½ + 0.02) = 0.4597 bits each.
    assert!((term(&report, "query", 0) - 218.0 * 0.459_76).abs() < 0.05);
    // Unique decoding fold: δ = ½, γ = δ/2 − 3/(δn), bits = 128 − log2(k·(γn + 1)) = 109.42.
    let udr = LigeritoConfig::select(23, 100, Preset::Fast, Regime::UniqueDecoding, 128).unwrap();
    assert!((term(&udr.security_report(), "fold", 0) - 109.42).abs() < 0.01);
    assert_eq!(udr.levels[0].fold_pow_bits, 0);
}

#[test]
fn security_table_for_2_pow_20_to_2_pow_32_bits() {
    // Ring-switched witnesses of 2^b bits commit 2^(b−7) GF(2^128) elements.
    for bits in 20..=32 {
        for preset in [Preset::Fast, Preset::Slim] {
            let config = LigeritoConfig::select(
                bits - 7,
                100,
                preset,
                Regime::Johnson { eta: DEFAULT_ETA },
                128,
            )
            .unwrap();
            let report = config.security_report();
            let queries: Vec<usize> = config.levels.iter().map(|l| l.num_queries).collect();
            let pow: Vec<u32> = config.levels.iter().map(|l| l.fold_pow_bits).collect();
            eprintln!(
                "2^{bits} bits {preset:?}: queries {queries:?}, fold PoW {pow:?}, weakest term {:.1} bits, union {:.1} bits",
                report.bits(),
                report.union_bits()
            );
            assert!(report.bits() >= 100.0);
            assert!(report.union_bits() >= 95.0);
        }
    }
}
