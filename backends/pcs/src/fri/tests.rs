use flockwork_core::pcs::Claim;
use flockwork_core::{MultilinearPoly, PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_field_prime::{Bn254Fr, Goldilocks};
use flockwork_testkit::{random_vec, rng};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
};

use super::*;
use crate::conformance::check_pcs;
use crate::ring_switch::RingSwitched;

type Sha = sha2::Sha256;

/// A hand-written schedule with few queries, so proofs are short enough to flip every byte.
fn small(num_vars: usize, log_inv_rate: usize, log_batch: usize, arities: &[usize]) -> FriConfig {
    FriConfig {
        num_vars,
        log_inv_rate,
        log_batch,
        arities: arities.to_vec(),
        num_queries: 3,
        query_pow_bits: 1,
        fold_pow_bits: 1,
        field_bits: 128,
    }
}

fn poly<F: Field>(num_vars: usize, label: &str) -> Vec<F> {
    random_vec(&mut rng(label), 1 << num_vars)
}

#[test]
fn conformance_binary_small_schedules() {
    for (n, rate, batch, arities) in [
        (10, 1, 2, &[2, 2, 2][..]),
        (9, 2, 0, &[3, 3, 3][..]),
        (8, 1, 3, &[0][..]),
        (7, 3, 1, &[1, 1, 1, 1, 1, 1][..]),
    ] {
        let pcs = FriBinius::<Ghash128, Sha>::new(small(n, rate, batch, arities)).unwrap();
        let p = poly::<Ghash128>(n, "fri/binary");
        check_pcs(&pcs, p.as_slice(), &p, Some(3), true);
    }
}

#[test]
fn conformance_binary_at_100_bits() {
    let pcs = FriBinius::<Ghash128, blake3::Hasher>::with_security(12, 100, 1).unwrap();
    assert!(pcs.config().security_report().bits() >= 100.0);
    let p = poly::<Ghash128>(12, "fri/binary-100");
    check_pcs(&pcs, p.as_slice(), &p, Some(4), true);
}

#[test]
fn conformance_bn254() {
    let mut config = small(8, 1, 1, &[2, 2]);
    config.field_bits = Bn254Fr::ORDER_BITS;
    let pcs = BaseFold::<Bn254Fr, Sha>::new(config).unwrap();
    let p = poly::<Bn254Fr>(8, "fri/bn254");
    check_pcs(&pcs, p.as_slice(), &p, Some(2), true);

    let pcs = BaseFold::<Bn254Fr, Sha>::with_security(10, 100, 1).unwrap();
    assert!(pcs.config().security_report().bits() >= 100.0);
    let p = poly::<Bn254Fr>(10, "fri/bn254-100");
    check_pcs(&pcs, p.as_slice(), &p, Some(3), true);
}

#[test]
fn goldilocks_is_too_small_for_100_bits_but_runs_at_its_own_level() {
    assert_eq!(
        BaseFold::<Goldilocks, Sha>::with_security(12, 100, 1).unwrap_err(),
        FriConfigError::TooMuchGrinding
    );
    let pcs = BaseFold::<Goldilocks, Sha>::with_security(12, 40, 1).unwrap();
    let report = pcs.config().security_report();
    assert!(report.bits() >= 40.0 && report.bits() < 64.0, "{report}");
    let p = poly::<Goldilocks>(12, "fri/goldilocks");
    check_pcs(&pcs, p.as_slice(), &p, Some(3), true);
}

#[test]
fn selected_schedules_reach_the_target_with_the_textbook_query_counts() {
    // −log2((1 + ρ)/2) = 0.415 (ρ = ½) and 0.678 (ρ = ¼): 241 and 148 queries for 100 bits.
    for (rate, queries) in [(1, 241), (2, 148)] {
        for n in [10, 17, 21] {
            let config = FriConfig::select(n, 100, rate, 128, 16, 32).unwrap();
            assert_eq!(config.num_queries, queries);
            let report = config.security_report();
            assert!(report.bits() >= 100.0, "ℓ = {n}, R = {rate}:\n{report}");
            assert_eq!(
                config.log_batch + config.arities.iter().sum::<usize>() + config.final_vars(),
                n
            );
        }
    }
    // The query term by hand: 241 · log2(4/3).
    let config = FriConfig::select(17, 100, 1, 128, 16, 32).unwrap();
    let query = config
        .security_report()
        .terms
        .iter()
        .find(|t| t.name == "query")
        .unwrap()
        .bits;
    assert!((query - 241.0 * (4.0f64 / 3.0).log2()).abs() < 1e-9);
}

#[test]
fn invalid_schedules_are_refused() {
    let bad = |c: FriConfig| FriBinius::<Ghash128, Sha>::new(c).unwrap_err();
    assert_eq!(bad(small(6, 1, 0, &[])), FriConfigError::BadArities);
    assert_eq!(bad(small(6, 1, 0, &[2, 0])), FriConfigError::BadArities);
    assert_eq!(
        bad(small(6, 1, 4, &[2, 2])),
        FriConfigError::TooManyFoldedVars
    );
    assert_eq!(bad(small(6, 0, 0, &[2])), FriConfigError::BadRate);
    let mut c = small(6, 1, 0, &[2]);
    c.num_queries = 0;
    assert_eq!(bad(c), FriConfigError::NoQueries);
}

#[test]
fn conformance_ring_switched_fri_binius() {
    let pcs = RingSwitched::new(FriBinius::<Ghash128, Sha>::new(small(6, 1, 1, &[2, 2])).unwrap());
    let words: Vec<u128> = poly::<Ghash128>(6, "fri/rs")
        .iter()
        .map(|g| g.to_bits())
        .collect();
    let hypercube: Vec<Ghash128> = words
        .iter()
        .flat_map(|&w| (0..128).map(move |v| Ghash128::from_index(((w >> v) & 1) as u64)))
        .collect();
    check_pcs(&pcs, words.as_slice(), &hypercube, Some(7), false);
}

/// The smallest ring switch: one 128-bit word (`ℓ = 7`) over a dense polynomial in no
/// variables, whose FRI code is one codeword of two entries. Every query set is then the
/// whole codeword, so a grinding nonce changed into another that passes would open the same
/// leaves and be accepted as it should; this schedule grinds no bits, so every flipped byte
/// is one the verifier checks.
#[test]
fn conformance_ring_switched_fri_binius_on_one_word() {
    let config = FriConfig {
        query_pow_bits: 0,
        fold_pow_bits: 0,
        ..small(0, 1, 0, &[0])
    };
    let pcs = RingSwitched::new(FriBinius::<Ghash128, Sha>::new(config).unwrap());
    let words = [poly::<Ghash128>(0, "fri/rs/one word")[0].to_bits()];
    let hypercube: Vec<Ghash128> = (0..128)
        .map(|v| Ghash128::from_index(((words[0] >> v) & 1) as u64))
        .collect();
    check_pcs(&pcs, words.as_slice(), &hypercube, Some(7), false);
}

/// A prover that commits to a word far from the code (a third of its rows replaced) and then
/// follows the protocol honestly for the true polynomial is caught by the queries.
#[test]
fn a_commitment_far_from_the_code_is_rejected() {
    let pcs = FriBinius::<Ghash128, Sha>::with_security(10, 100, 1).unwrap();
    let p = poly::<Ghash128>(10, "fri/far");
    let (_, mut data) = pcs.commit(&p);
    let width = pcs.config().leaf_width(0);
    for (j, x) in data.codeword.iter_mut().enumerate() {
        if (j / width).is_multiple_of(3) {
            *x += Ghash128::ONE;
        }
    }
    data.tree = crate::merkle::MerkleTree::new(&data.codeword, width);
    let root = data.tree.root().to_vec();
    let point: Vec<Ghash128> = random_vec(&mut rng("fri/far/pt"), 10);
    let value = MultilinearPoly::new(p.clone()).evaluate(&point);
    let claims = [Claim::evaluation(point, value)];
    let domain = DomainSeparator::new("fri/far", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    assert!(matches!(
        pcs.verify(&root, &claims, &mut verifier),
        Err(VerifyError::RowCheck { .. })
    ));
}

/// A commitment of another length than the digest is refused before any proof byte is read.
#[test]
fn a_commitment_of_the_wrong_length_is_rejected() {
    let pcs = FriBinius::<Ghash128, Sha>::new(small(6, 1, 1, &[2, 2])).unwrap();
    let p = poly::<Ghash128>(6, "fri/short");
    let (root, _) = pcs.commit(&p);
    let point: Vec<Ghash128> = random_vec(&mut rng("fri/short/pt"), 6);
    let value = MultilinearPoly::new(p).evaluate(&point);
    let claims = [Claim::evaluation(point, value)];
    crate::conformance::check_commitment_lengths(&pcs, &root, &claims);
}

/// A verifier never builds the encoder's twiddle tables: a fresh instance of the schedule
/// accepts the honest proof and rejects a flipped byte with none built, and a schedule of
/// 2^32 elements is built without allocating them.
#[test]
fn a_fresh_verifier_builds_no_code_tables() {
    let config = small(10, 1, 2, &[2, 2, 2]);
    let prover = FriBinius::<Ghash128, Sha>::new(config.clone()).unwrap();
    let verifier = FriBinius::<Ghash128, Sha>::new(config).unwrap();
    let p = poly::<Ghash128>(10, "fri/fresh");
    let z: Vec<Ghash128> = random_vec(&mut rng("fri/fresh/z"), 10);
    let claims = [Claim::evaluation(
        z.clone(),
        MultilinearPoly::new(p.clone()).evaluate(&z),
    )];
    let (commitment, data) = prover.commit(&p);
    let domain = DomainSeparator::new("fri/fresh", b"");
    let mut transcript = Sha256ProverTranscript::new(domain);
    prover.open(&data, &claims, &mut transcript);
    let proof = transcript.into_proof();
    let check = |proof: &[u8]| {
        let mut t = Sha256VerifierTranscript::new(domain, proof);
        verifier.verify(&commitment, &claims, &mut t).is_ok() && t.finish().is_ok()
    };
    assert!(check(&proof));
    let mut bad = proof.clone();
    bad[proof.len() / 2] ^= 1;
    assert!(!check(&bad));
    assert!(prover.code().has_tables());
    assert!(!verifier.code().has_tables());
    let huge = FriBinius::<Ghash128, Sha>::with_security(32, 100, 1).unwrap();
    assert!(!huge.code().has_tables());
}
