use flockwork_core::MultilinearPoly;
use flockwork_field::Field;
use flockwork_testkit::{random_vec, rng};
use flockwork_transcript::{
    DomainSeparator, Sha256ProverTranscript, Sha256VerifierTranscript, VerifierTranscript,
};
use rand::RngCore;

use super::*;
use crate::conformance::check_pcs;
use crate::ligerito::{LevelConfig, Ligerito, LigeritoConfig, Preset, Regime};

type Dense = Ligerito<Ghash128, sha2::Sha256>;

fn words(n: usize, label: &str) -> Vec<u128> {
    let mut r = rng(label);
    (0..n)
        .map(|_| u128::from(r.next_u64()) | (u128::from(r.next_u64()) << 64))
        .collect()
}

/// The Boolean hypercube values `t(v + 128·y)` lifted to GF(2^128).
fn lifted(words: &[u128]) -> Vec<Ghash128> {
    words
        .iter()
        .flat_map(|&w| (0..128).map(move |v| Ghash128::from_index(((w >> v) & 1) as u64)))
        .collect()
}

/// The packed words of `t`, three random points of `num_vars` coordinates and the honest
/// evaluation claims there.
fn evaluation_claims(
    t: &[u128],
    num_vars: usize,
    label: &str,
) -> (Vec<Ghash128>, Vec<Vec<Ghash128>>, Vec<Claim<Ghash128>>) {
    let packed: Vec<Ghash128> = t.iter().map(|&w| Ghash128::new(w)).collect();
    let points: Vec<Vec<Ghash128>> = (0..3)
        .map(|i| random_vec(&mut rng(&format!("{label}{i}")), num_vars))
        .collect();
    let claims = points
        .iter()
        .map(|r| Claim::evaluation(r.clone(), evaluate_packed(&packed, r)))
        .collect();
    (packed, points, claims)
}

/// A small dense schedule (few queries keeps proofs short enough to flip every byte).
fn small_dense(num_vars: usize) -> Dense {
    let level = |log_cols, log_inv_rate| LevelConfig {
        log_cols,
        log_inv_rate,
        num_queries: 3,
        fold_pow_bits: 0,
        query_pow_bits: 0,
        ood_samples: 1,
    };
    Ligerito::new(LigeritoConfig {
        num_vars,
        levels: vec![level(2, 1), level(2, 2)],
        regime: Regime::Johnson { eta: 0.02 },
        field_bits: 128,
    })
    .unwrap()
}

#[test]
fn transpose_matches_the_definition_and_is_an_involution() {
    let rows: Vec<Ghash128> = words(128, "transpose")
        .into_iter()
        .map(Ghash128::new)
        .collect();
    let t = transpose_bits(&rows);
    for (u, column) in t.iter().enumerate() {
        for (v, row) in rows.iter().enumerate() {
            assert_eq!((column.to_bits() >> v) & 1, (row.to_bits() >> u) & 1);
        }
    }
    assert_eq!(transpose_bits(&t), rows);
}

#[test]
fn partial_evaluations_match_the_definition() {
    let packed: Vec<Ghash128> = words(1 << 15, "partials")
        .into_iter()
        .map(Ghash128::new)
        .collect();
    let high: Vec<Ghash128> = random_vec(&mut rng("partials/high"), 15);
    let eq = eq_table(&high);
    let fast = partial_evaluations(&packed, &high);
    for v in [0usize, 1, 7, 8, 63, 64, 127] {
        let direct: Ghash128 = packed
            .iter()
            .zip(&eq)
            .filter(|(w, _)| (w.to_bits() >> v) & 1 == 1)
            .map(|(_, &e)| e)
            .sum();
        assert_eq!(fast[v], direct, "bit {v}");
    }
}

/// The blocked (transpose and subset-sum) form equals the word-by-word bucket form at every
/// size, including the smallest that has a block, sizes below one block, and one of more
/// blocks than a parallel task takes (`PACKED_CHUNK`), whose tasks' sums are merged.
#[test]
fn blocked_partial_evaluations_equal_the_bucket_form() {
    const { assert!(1 << (16 - PACKED_VARS) > flockwork_field::par::PACKED_CHUNK) };
    for vars in [0usize, 3, 6, 7, 8, 11, 13, 16] {
        let packed: Vec<Ghash128> = words(1 << vars, "blocked")
            .into_iter()
            .map(Ghash128::new)
            .collect();
        let high: Vec<Ghash128> = random_vec(&mut rng("blocked/high"), vars);
        assert_eq!(
            partial_evaluations(&packed, &high),
            partial_evaluations_by_buckets(&packed, &high),
            "{vars} variables"
        );
    }
}

/// Several points in one pass give what each point gives alone.
#[test]
fn partial_evaluations_at_several_points_equal_one_at_a_time() {
    for vars in [3usize, 7, 10] {
        let packed: Vec<Ghash128> = words(1 << vars, "many")
            .into_iter()
            .map(Ghash128::new)
            .collect();
        let points: Vec<Vec<Ghash128>> = (0..3)
            .map(|i| random_vec(&mut rng(&format!("many/{i}")), vars))
            .collect();
        let highs: Vec<&[Ghash128]> = points.iter().map(Vec::as_slice).collect();
        let many = partial_evaluations_many(&packed, &highs);
        for (point, got) in points.iter().zip(&many) {
            assert_eq!(
                got,
                &partial_evaluations_by_buckets(&packed, point),
                "{vars}"
            );
        }
    }
}

/// The switched weight's transcript bytes identify it: the same parameters give the same
/// bytes, another high point or mixing point other bytes.
#[test]
fn switched_weight_bytes_name_every_parameter() {
    let (high, mix): (Vec<Ghash128>, Vec<Ghash128>) = (
        random_vec(&mut rng("rs-bytes/high"), 5),
        random_vec(&mut rng("rs-bytes/mix"), 7),
    );
    let bytes = |high: &[Ghash128], mix: &[Ghash128]| {
        RingSwitchWeight::new(high.to_vec(), mix.to_vec()).transcript_bytes()
    };
    let base = bytes(&high, &mix);
    assert_eq!(base, bytes(&high, &mix));
    assert_eq!(base.len(), 16 * (5 + 7));
    let mut other_high = high.clone();
    other_high[4] += Ghash128::ONE;
    let mut other_mix = mix.clone();
    other_mix[0] += Ghash128::ONE;
    for other in [
        bytes(&other_high, &mix),
        bytes(&high, &other_mix),
        bytes(&high[..4], &mix),
    ] {
        assert_ne!(base, other);
    }
}

#[test]
fn switched_weight_evaluation_is_the_table_extension() {
    // 14 variables: the table is filled in four chunks of 2^12.
    for vars in [0usize, 1, 5, 9, 14] {
        let weight = RingSwitchWeight::new(
            random_vec(&mut rng("rs-weight/high"), vars),
            random_vec(&mut rng("rs-weight/mix"), 7),
        );
        let mut table = vec![Ghash128::ZERO; 1 << vars];
        weight.accumulate_table(Ghash128::ONE, &mut table);
        // Entry by entry: Φ(eq(r_hi, y)), Φ(X^u) = eq(r'', u).
        let eq_high = flockwork_core::eq_table(&weight.high);
        let eq_mix = flockwork_core::eq_table(&weight.mix);
        for (y, (&got, &e)) in table.iter().zip(&eq_high).enumerate().step_by(97) {
            let bits = e.to_bits();
            let phi: Ghash128 = (0..128)
                .filter(|u| (bits >> u) & 1 == 1)
                .map(|u| eq_mix[u])
                .sum();
            assert_eq!(got, phi, "{vars} vars, entry {y}");
        }
        let q: Vec<Ghash128> = random_vec(&mut rng("rs-weight/q"), vars);
        assert_eq!(
            weight.evaluate(&q),
            MultilinearPoly::new(table).evaluate(&q),
            "{vars} vars"
        );
    }
}

#[test]
fn conformance_ring_switched_ligerito() {
    let pcs = RingSwitched::new(small_dense(6));
    let t = words(1 << 6, "rs/conformance");
    let hypercube = lifted(&t);
    // Quirky claims over the 7 packed variables and over 3 of them.
    check_pcs(&pcs, t.as_slice(), &hypercube, Some(7), false);
    check_pcs(&pcs, t.as_slice(), &hypercube, Some(3), false);
}

#[test]
fn preset_ring_switched_round_trip_at_2_pow_22_bits() {
    let pcs = RingSwitched::new(
        Dense::with_preset(15, 100, Preset::Fast, Regime::Johnson { eta: 0.02 }).unwrap(),
    );
    let t = words(1 << 15, "rs/large");
    let (root, data) = pcs.commit(&t);
    let (_, _, claims) = evaluation_claims(&t, 22, "rs/pt");
    let domain = DomainSeparator::new("ring-switch/test", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    pcs.verify(&root, &claims, &mut verifier).unwrap();
    verifier.finish().unwrap();
}

#[test]
fn known_partials_give_the_same_proof_and_wrong_ones_are_rejected() {
    let pcs = RingSwitched::new(small_dense(6));
    let t = words(1 << 6, "rs/known");
    let (root, data) = pcs.commit(&t);
    let (packed, points, claims) = evaluation_claims(&t, 13, "rs/known");
    let honest: Vec<Vec<Ghash128>> = points
        .iter()
        .map(|r| partial_evaluations(&packed, &r[PACKED_VARS..]))
        .collect();
    let domain = DomainSeparator::new("ring-switch/test", b"");
    let prove = |known: &[Option<&[Ghash128]>]| {
        let mut prover = Sha256ProverTranscript::new(domain);
        pcs.open_with_known_partials(&data, &claims, known, &[], &mut prover);
        prover.into_proof()
    };
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let reference = prover.into_proof();
    // Every subset of known claims, and a list shorter than the claims.
    assert_eq!(prove(&[None, Some(&honest[1])]), reference);
    assert_eq!(
        prove(&[Some(&honest[0]), Some(&honest[1]), Some(&honest[2])]),
        reference
    );
    // A wrong known value is sent as given, and the verifier rejects it.
    let mut wrong = honest[2].clone();
    wrong[5] += Ghash128::ONE;
    let proof = prove(&[None, None, Some(&wrong)]);
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    assert_eq!(
        pcs.verify(&root, &claims, &mut verifier),
        Err(VerifyError::RingSwitchMismatch { claim: 2 })
    );
}

#[test]
fn unsupported_and_malformed_claims_are_rejected() {
    let pcs = RingSwitched::new(small_dense(6));
    let t = words(1 << 6, "rs/unsupported");
    let (root, data) = pcs.commit(&t);
    let claims = vec![Claim::evaluation(
        random_vec(&mut rng("rs/u"), 13),
        Ghash128::ONE,
    )];
    let domain = DomainSeparator::new("ring-switch/test", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let linear = vec![Claim::linear(
        Arc::new(RingSwitchWeight::new(
            random_vec(&mut rng("rs/l"), 6),
            random_vec(&mut rng("rs/m"), 7),
        )),
        Ghash128::ONE,
    )];
    // The weight above has 6 variables: wrong arity first, then a well-shaped linear weight.
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    assert!(pcs.verify(&root, &linear, &mut verifier).is_err());
    let linear13 = vec![Claim::linear(
        Arc::new(RingSwitchWeight::new(
            random_vec(&mut rng("rs/l"), 13),
            random_vec(&mut rng("rs/m"), 7),
        )),
        Ghash128::ONE,
    )];
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    assert_eq!(
        pcs.verify(&root, &linear13, &mut verifier),
        Err(VerifyError::UnsupportedClaim { claim: 0 })
    );
    let tensor = vec![Claim {
        weight: Weight::Tensor {
            low: random_vec(&mut rng("rs/t"), 256),
            high: random_vec(&mut rng("rs/t"), 5),
        },
        value: Ghash128::ONE,
    }];
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    assert_eq!(
        pcs.verify(&root, &tensor, &mut verifier),
        Err(VerifyError::UnsupportedClaim { claim: 0 })
    );
}

/// The attack on naive recombination: shift the partial evaluations by `δ` in the kernel of
/// `ŝ ↦ Σ_v X^v·ŝ_v` so that the bit-weighted sum `Σ_v w(v)·ŝ_v` moves by one.
fn kernel_shift(w: &[Ghash128]) -> (Ghash128, Ghash128) {
    // δ_0 = X·δ_1 makes δ_0 + X·δ_1 = 0; then Σ w δ = δ_1·(w_0·X + w_1) = 1.
    let d1 = (w[0] * Ghash128::X + w[1]).inverse().unwrap();
    (Ghash128::X * d1, d1)
}

#[test]
fn naive_recombination_is_exploitable_and_the_transpose_catches_it() {
    let pcs = RingSwitched::new(small_dense(6));
    let t = words(1 << 6, "rs/attack");
    let (root, data) = pcs.commit(&t);
    let r: Vec<Ghash128> = random_vec(&mut rng("rs/attack/r"), 13);
    let w = eq_table(&r[..7]);
    let honest = partial_evaluations(pcs.packed(&data), &r[7..]);
    let true_value: Ghash128 = w.iter().zip(&honest).map(|(&a, &b)| a * b).sum();
    let false_claims = vec![Claim::evaluation(r.clone(), true_value + Ghash128::ONE)];
    let (d0, d1) = kernel_shift(&w);
    let tamper = |_: usize, s: &mut [Ghash128]| {
        s[0] += d0;
        s[1] += d1;
    };
    let domain = DomainSeparator::new("ring-switch/attack", b"");

    // The naive protocol: send ŝ, then open t' at r_hi with value Σ_v X^v·ŝ_v.
    let naive_dense = |s_hat: &[Ghash128]| {
        let value = s_hat
            .iter()
            .enumerate()
            .map(|(v, &s)| Ghash128::new(1u128 << v) * s)
            .sum();
        vec![Claim::evaluation(r[7..].to_vec(), value)]
    };
    let mut s_hat = honest.clone();
    tamper(0, &mut s_hat);
    let mut prover = Sha256ProverTranscript::new(domain);
    prover.send_field("naive/partials", &s_hat);
    pcs.inner()
        .open(&data.inner, &naive_dense(&s_hat), &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let received = verifier
        .recv_field::<Ghash128>("naive/partials", 128)
        .unwrap();
    let combined: Ghash128 = received.iter().zip(&w).map(|(&s, &x)| s * x).sum();
    assert_eq!(
        combined, false_claims[0].value,
        "the bit check passes for the false value"
    );
    pcs.inner()
        .verify(&root, &naive_dense(&received), &mut verifier)
        .unwrap();
    verifier.finish().unwrap();

    // The same cheat against the real protocol: the bit check passes, the switched claim fails.
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open_inner(&data, &false_claims, &[], &[], &mut prover, tamper);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let result = pcs.verify(&root, &false_claims, &mut verifier);
    assert!(result.is_err());
    assert!(!matches!(
        result,
        Err(VerifyError::RingSwitchMismatch { .. })
    ));
}

/// The ring switch's soundness: a false claim survives the 7-coordinate mixing point `r''`
/// with probability at most `7/|F|` (Schwartz–Zippel on a multilinear polynomial in 7
/// variables), which is `b − log2 7` bits over a field of `b` bits.
#[test]
fn soundness_is_the_mixing_points_error_in_bits() {
    for b in [64u32, 128] {
        let error = 7.0 / 2f64.powi(b as i32);
        assert!(
            (soundness_bits(b) + error.log2()).abs() < 1e-9,
            "{b}-bit field"
        );
    }
    assert!(soundness_bits(128) > 125.0 && soundness_bits(128) < 125.2);
}
