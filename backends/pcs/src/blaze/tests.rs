use flockwork_core::pcs::Claim;
use flockwork_core::{MultilinearPoly, PolynomialCommitment, VerifyError, eq_table};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_testkit::{random_vec, rng};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};
use rand::RngCore;

use super::config::{raa_fold_error_bits, raa_query_error_bits};
use super::*;
use crate::conformance::check_pcs;
use crate::ligerito::Preset;
use crate::merkle::MerkleTree;
use crate::ring_switch::{RingSwitched, evaluate_packed};
use crate::security::Regime;
use crate::security::term;

type Sha = sha2::Sha256;
type Pcs = Blaze<Ghash128, Sha>;

/// A small schedule with few queries (proofs small enough to flip every byte): level 0 folds
/// `k_0` variables with `q0` queries, then Reed–Solomon levels `(k, R)`.
fn small_config(
    num_vars: usize,
    k0: usize,
    q0: usize,
    rs: &[(usize, usize)],
    regime: Regime,
) -> BlazeConfig {
    let ood = usize::from(matches!(regime, Regime::Johnson { .. }));
    BlazeConfig {
        num_vars,
        raa: RaaLevelConfig {
            log_cols: k0,
            log_inv_rate: 2,
            num_queries: q0,
            fold_pow_bits: 1,
            query_pow_bits: 1,
            distance: DEFAULT_DISTANCE,
            seed: DEFAULT_SEED,
        },
        levels: rs
            .iter()
            .map(|&(log_cols, log_inv_rate)| LevelConfig {
                log_cols,
                log_inv_rate,
                num_queries: 3,
                fold_pow_bits: 1,
                query_pow_bits: 0,
                ood_samples: ood,
            })
            .collect(),
        regime,
        field_bits: 128,
    }
}

fn poly(num_vars: usize, label: &str) -> Vec<Ghash128> {
    random_vec(&mut rng(label), 1 << num_vars)
}

fn domain() -> DomainSeparator<'static> {
    DomainSeparator::new("blaze/test", b"")
}

/// Evaluation claims at `points` random points.
fn claims_for(p: &[Ghash128], points: usize, label: &str) -> Vec<Claim<Ghash128>> {
    let num_vars = p.len().trailing_zeros() as usize;
    let mle = MultilinearPoly::new(p.to_vec());
    (0..points)
        .map(|i| {
            let z: Vec<Ghash128> = random_vec(&mut rng(&format!("{label}/{i}")), num_vars);
            Claim::evaluation(z.clone(), mle.evaluate(&z))
        })
        .collect()
}

fn prove(pcs: &Pcs, data: &BlazeProverData<Ghash128, Sha>, claims: &[Claim<Ghash128>]) -> Vec<u8> {
    let mut prover = Sha256ProverTranscript::new(domain());
    pcs.open(data, claims, &mut prover);
    prover.into_proof()
}

fn check(
    pcs: &Pcs,
    root: &Vec<u8>,
    claims: &[Claim<Ghash128>],
    proof: &[u8],
) -> Result<(), VerifyError> {
    let mut verifier = Sha256VerifierTranscript::new(domain(), proof);
    pcs.verify(root, claims, &mut verifier)?;
    verifier.finish()?;
    Ok(())
}

#[test]
fn conformance_small_schedules() {
    // With Reed–Solomon levels in both regimes (out-of-domain samples at level 1 in the
    // Johnson one), and with level 0 alone (its fold sent in clear).
    for (num_vars, k0, rs, regime) in [
        (10, 3, &[(2, 1), (2, 2)][..], Regime::UniqueDecoding),
        (10, 3, &[(2, 1), (2, 2)][..], Regime::Johnson { eta: 0.02 }),
        (7, 3, &[][..], Regime::UniqueDecoding),
    ] {
        let pcs = Pcs::new(small_config(num_vars, k0, 3, rs, regime)).unwrap();
        let p = poly(num_vars, "blaze/conformance");
        check_pcs(&pcs, p.as_slice(), &p, Some(4), true);
    }
}

#[test]
fn conformance_default_profile_at_8_11_14_vars() {
    for num_vars in [8, 11, 14] {
        let pcs = Pcs::with_security(num_vars, 100).unwrap();
        let p = poly(num_vars, "blaze/conformance/default");
        check_pcs(&pcs, p.as_slice(), &p, Some(3), true);
    }
}

#[test]
fn conformance_blake3_unique_decoding_tail() {
    let options = BlazeOptions {
        regime: Regime::UniqueDecoding,
        preset: Preset::Fast,
        query_pow_bits: 8,
        ..BlazeOptions::default()
    };
    let pcs = Blaze::<Ghash128, blake3::Hasher>::with_options(13, 100, &options).unwrap();
    assert_eq!(pcs.config().levels[0].ood_samples, 0);
    assert_eq!(pcs.config().raa.num_queries, 975);
    let p = poly(13, "blaze/blake3");
    check_pcs(&pcs, p.as_slice(), &p, Some(5), true);
}

#[test]
fn default_profile_round_trips_at_edge_sizes() {
    for num_vars in [0, 1, 3, 4, 5, 9, 10, 16] {
        let pcs = Pcs::with_security(num_vars, 100).unwrap();
        let p = poly(num_vars, "blaze/edge");
        let (root, data) = pcs.commit(&p);
        let claims = claims_for(&p, 2, "blaze/edge/claims");
        let proof = prove(&pcs, &data, &claims);
        check(&pcs, &root, &claims, &proof).unwrap_or_else(|e| panic!("{num_vars} vars: {e}"));
        let mut wrong = claims.clone();
        wrong[0].value += Ghash128::ONE;
        assert!(check(&pcs, &root, &wrong, &proof).is_err());
    }
}

/// Boolean hypercube values `t(v + 128·y)` lifted to GF(2^128).
fn lifted(words: &[u128]) -> Vec<Ghash128> {
    words
        .iter()
        .flat_map(|&w| (0..128).map(move |v| Ghash128::from_index(((w >> v) & 1) as u64)))
        .collect()
}

fn words(n: usize, label: &str) -> Vec<u128> {
    let mut r = rng(label);
    (0..n)
        .map(|_| u128::from(r.next_u64()) | (u128::from(r.next_u64()) << 64))
        .collect()
}

#[test]
fn conformance_ring_switched_blaze() {
    let pcs = RingSwitched::new(
        Pcs::new(small_config(6, 2, 3, &[(2, 1)], Regime::UniqueDecoding)).unwrap(),
    );
    let t = words(1 << 6, "blaze/rs/conformance");
    let hypercube = lifted(&t);
    check_pcs(&pcs, t.as_slice(), &hypercube, Some(7), false);
    check_pcs(&pcs, t.as_slice(), &hypercube, Some(3), false);
}

#[test]
fn default_ring_switched_round_trip_at_2_pow_20_bits() {
    let pcs = RingSwitched::new(Pcs::with_security(13, 100).unwrap());
    let t = words(1 << 13, "blaze/rs/large");
    let (root, data) = pcs.commit(&t);
    let packed: Vec<Ghash128> = t.iter().map(|&w| Ghash128::new(w)).collect();
    let claims: Vec<Claim<Ghash128>> = (0..2)
        .map(|i| {
            let r: Vec<Ghash128> = random_vec(&mut rng(&format!("blaze/rs/pt{i}")), 20);
            Claim::evaluation(r.clone(), evaluate_packed(&packed, &r))
        })
        .collect();
    let mut prover = Sha256ProverTranscript::new(domain());
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain(), &proof);
    pcs.verify(&root, &claims, &mut verifier).unwrap();
    verifier.finish().unwrap();
    let mut wrong = claims.clone();
    wrong[1].value += Ghash128::ONE;
    let mut verifier = Sha256VerifierTranscript::new(domain(), &proof);
    assert!(pcs.verify(&root, &wrong, &mut verifier).is_err());
}

/// Prover data whose level-0 word is `codeword` (Merkle tree rebuilt over it), for the
/// polynomial `evals`.
fn forged_data(
    pcs: &Pcs,
    evals: &[Ghash128],
    codeword: Vec<Ghash128>,
) -> (Vec<u8>, BlazeProverData<Ghash128, Sha>) {
    let width = 1 << pcs.config().raa.log_cols;
    let tree = MerkleTree::new(&codeword, width);
    let root = tree.root().to_vec();
    let data = BlazeProverData {
        evals: evals.to_vec(),
        level: CommittedLevel { codeword, tree },
    };
    (root, data)
}

/// Whether the row appears in the proof bytes (it is sent iff it was queried).
fn contains_row(proof: &[u8], row: &[Ghash128]) -> bool {
    let bytes: Vec<u8> = row.iter().flat_map(|x| x.0.to_le_bytes()).collect();
    proof.windows(bytes.len()).any(|w| w == bytes.as_slice())
}

#[test]
fn a_corrupted_row_is_caught_exactly_when_queried() {
    // 2^10 values, k_0 = 4: 256 codeword rows, 40 queries (a given row is opened with
    // probability 40/256 per proof).
    let num_vars = 10;
    let pcs = Pcs::new(small_config(
        num_vars,
        4,
        40,
        &[(2, 1), (2, 2)],
        Regime::UniqueDecoding,
    ))
    .unwrap();
    let p = poly(num_vars, "blaze/corrupt-one");
    let (_, honest) = pcs.commit(&p);
    let width = 16;
    let target = 77;
    let mut codeword = honest.level.codeword.clone();
    let garbage: Vec<Ghash128> = random_vec(&mut rng("blaze/corrupt-one/garbage"), width);
    codeword[target * width..(target + 1) * width].copy_from_slice(&garbage);
    let (root, data) = forged_data(&pcs, &p, codeword);
    let (mut caught, mut missed) = (0, 0);
    for attempt in 0..32 {
        let claims = claims_for(&p, 1, &format!("blaze/corrupt-one/{attempt}"));
        let proof = prove(&pcs, &data, &claims);
        let queried = contains_row(&proof, &garbage);
        let result = check(&pcs, &root, &claims, &proof);
        assert_eq!(result.is_err(), queried, "attempt {attempt}: {result:?}");
        if queried {
            caught += 1;
        } else {
            missed += 1;
        }
    }
    assert!(caught > 0 && missed > 0, "caught {caught}, missed {missed}");
}

#[test]
fn a_word_far_from_the_code_is_rejected_by_the_default_queries() {
    // 2^14 values: 4096 rows, 1060 distinct queries; 2% of the rows replaced.
    let num_vars = 14;
    let pcs = Pcs::with_security(num_vars, 100).unwrap();
    assert_eq!(pcs.config().effective_queries(0), 1060);
    let p = poly(num_vars, "blaze/corrupt-many");
    let (_, honest) = pcs.commit(&p);
    let width = 16;
    let mut codeword = honest.level.codeword.clone();
    let mut r = rng("blaze/corrupt-many/rows");
    for _ in 0..82 {
        let row = (r.next_u64() % 4096) as usize;
        codeword[row * width] += Ghash128::ONE;
    }
    let (root, data) = forged_data(&pcs, &p, codeword);
    let claims = claims_for(&p, 2, "blaze/corrupt-many/claims");
    let proof = prove(&pcs, &data, &claims);
    assert!(check(&pcs, &root, &claims, &proof).is_err());
}

#[test]
fn a_commitment_to_another_polynomial_cannot_open_this_one() {
    // The level-0 codeword encodes P' while the prover runs the sumcheck on P: the glued row
    // values come from P' and contradict the fold of P.
    let num_vars = 12;
    let pcs = Pcs::with_security(num_vars, 100).unwrap();
    let p = poly(num_vars, "blaze/swap/p");
    let q = poly(num_vars, "blaze/swap/q");
    let (_, other) = pcs.commit(&q);
    let (root, data) = forged_data(&pcs, &p, other.level.codeword.clone());
    let claims = claims_for(&p, 1, "blaze/swap/claims");
    let proof = prove(&pcs, &data, &claims);
    assert_eq!(
        check(&pcs, &root, &claims, &proof),
        Err(VerifyError::OpeningMismatch)
    );
}

#[test]
fn the_permutation_seed_is_part_of_the_statement() {
    // The codes crate's low-weight distance test runs on this seed too.
    assert_eq!(&DEFAULT_SEED, b"flockwork/blaze/raa-level-0/v1..");
    let num_vars = 11;
    let mut options = BlazeOptions::default();
    let pcs = Pcs::with_options(num_vars, 100, &options).unwrap();
    options.seed[0] ^= 1;
    let other = Pcs::with_options(num_vars, 100, &options).unwrap();
    assert_ne!(pcs.raa().permutations(), other.raa().permutations());
    let p = poly(num_vars, "blaze/seed");
    let (root, data) = pcs.commit(&p);
    let (other_root, _) = other.commit(&p);
    assert_ne!(root, other_root);
    let claims = claims_for(&p, 1, "blaze/seed/claims");
    let proof = prove(&pcs, &data, &claims);
    check(&pcs, &root, &claims, &proof).unwrap();
    assert!(check(&other, &root, &claims, &proof).is_err());
}

#[test]
fn glued_weight_is_the_transposed_raa_of_the_query_vector() {
    // The level-0 glue relation: for every opened row j, ⟨X_0[j, :], eq(r)⟩ = ⟨g_j, v_1⟩,
    // and Σ_t c_t·⟨g_{j_t}, v_1⟩ = ⟨RAAᵀ c, v_1⟩.
    let num_vars = 9;
    let pcs = Pcs::with_security(num_vars, 100).unwrap();
    let k0 = pcs.config().raa.log_cols;
    let p = poly(num_vars, "blaze/glue");
    let (_, data) = pcs.commit(&p);
    let r: Vec<Ghash128> = random_vec(&mut rng("blaze/glue/r"), k0);
    let eq = eq_table(&r);
    let width = 1 << k0;
    let v1: Vec<Ghash128> = p
        .chunks_exact(width)
        .map(|row| fold_row(row, &eq))
        .collect();
    let coeffs: Vec<Ghash128> = random_vec(&mut rng("blaze/glue/c"), 5);
    let n = pcs.raa().len();
    let rows = [0usize, 3, n / 3, n / 2, n - 1];
    let sparse: Vec<(usize, Ghash128)> = rows.iter().copied().zip(coeffs.iter().copied()).collect();
    let lhs: Ghash128 = sparse
        .iter()
        .map(|&(j, c)| c * fold_row(&data.level.codeword[j * width..(j + 1) * width], &eq))
        .sum();
    let b = pcs.raa().transpose_encode_sparse(&sparse);
    let rhs: Ghash128 = b.iter().zip(&v1).map(|(&x, &y)| x * y).sum();
    assert_eq!(lhs, rhs);
}

#[test]
fn level_zero_query_count_and_terms_match_hand_computation() {
    // −log2(1 − 0.19/3) = 0.094392 bits per query; 100/0.094392 = 1059.41 → 1060 queries.
    assert!((raa_query_error_bits(0.19) - 0.094_392).abs() < 1e-6);
    for num_vars in [17, 21] {
        let config = BlazeConfig::select(num_vars, 100, 128, &BlazeOptions::default()).unwrap();
        assert_eq!(config.raa.num_queries, 1060);
        assert_eq!(config.raa.log_cols, 4);
        assert_eq!(config.level_block_log(0), num_vars - 2);
        let report = config.security_report();
        assert!((term(&report, "query", 0) - 1060.0 * 0.094_392_37).abs() < 1e-3);
        eprintln!("Blaze default, 2^{num_vars} elements:\n{report}");
        assert!(report.bits() >= 100.0, "{report}");
    }
    // Fold at ℓ = 21: n = 2^19, 128 − log2(2·4·(0.19·2^19/3 + 1)) = 109.98 (no grinding);
    // at ℓ = 17: 113.98.
    let at = |num_vars| {
        let config = BlazeConfig::select(num_vars, 100, 128, &BlazeOptions::default()).unwrap();
        term(&config.security_report(), "fold", 0)
    };
    assert!((at(21) - 109.98).abs() < 0.01);
    assert!((at(17) - 113.98).abs() < 0.01);
    assert!((raa_fold_error_bits(4, 0.19, 19, 128) - 109.98).abs() < 0.01);
    // 16 bits of query grinding: ⌈84/0.094392⌉ = 890 queries.
    let options = BlazeOptions {
        query_pow_bits: 16,
        ..BlazeOptions::default()
    };
    let ground = BlazeConfig::select(21, 100, 128, &options).unwrap();
    assert_eq!(ground.raa.num_queries, 890);
    // A smaller assumed distance needs more queries: δ = 0.1 → ⌈100/−log2(1 − 1/30)⌉ = 2045.
    let options = BlazeOptions {
        distance: 0.1,
        ..BlazeOptions::default()
    };
    assert_eq!(
        BlazeConfig::select(21, 100, 128, &options)
            .unwrap()
            .raa
            .num_queries,
        2045
    );
}

#[test]
fn selector_reaches_the_target_term_by_term() {
    for num_vars in 0..=33 {
        let config = BlazeConfig::select(num_vars, 100, 128, &BlazeOptions::default()).unwrap();
        let report = config.security_report();
        assert!(report.bits() >= 100.0, "{num_vars} vars:\n{report}");
        assert!(config.final_vars() <= 5);
        if num_vars >= 31 {
            // n = 2^(ℓ−2) ≥ 2^29: the fold term needs grinding.
            assert!(config.raa.fold_pow_bits > 0, "{num_vars} vars");
        }
    }
    assert_eq!(
        BlazeConfig::select(34, 100, 128, &BlazeOptions::default()),
        Err(ConfigError::BadRate)
    );
}

#[test]
fn bad_configurations_are_rejected() {
    let base = || small_config(10, 3, 3, &[(2, 1), (2, 2)], Regime::UniqueDecoding);
    let mut c = base();
    c.raa.log_cols = 11;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::TooManyFoldedVars);
    let mut c = base();
    c.levels[1].log_cols = 6;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::TooManyFoldedVars);
    let mut c = base();
    c.raa.num_queries = 0;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::NoQueries);
    let mut c = base();
    c.raa.distance = 1.5;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::BadDistance);
    let mut c = base();
    c.raa.distance = f64::NAN;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::BadDistance);
    let mut c = base();
    c.raa.log_inv_rate = 0;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::BadRate);
    let mut c = base();
    c.raa.query_pow_bits = 40;
    assert_eq!(Pcs::new(c).unwrap_err(), ConfigError::TooMuchGrinding);
    let options = BlazeOptions {
        distance: 0.0,
        ..BlazeOptions::default()
    };
    assert_eq!(
        BlazeConfig::select(10, 100, 128, &options),
        Err(ConfigError::BadDistance)
    );
}

#[test]
fn proofs_are_larger_than_ligerito_but_bounded() {
    // The level-0 openings dominate: at 2^14, 1060 rows of 16 elements (≈ 270 KB) plus paths.
    let pcs = Pcs::with_security(14, 100).unwrap();
    let p = poly(14, "blaze/size");
    let (_, data) = pcs.commit(&p);
    let claims = claims_for(&p, 1, "blaze/size/claims");
    let proof = prove(&pcs, &data, &claims);
    let rows = 1060 * 16 * 16;
    assert!(proof.len() > rows, "{} bytes", proof.len());
    assert!(proof.len() < 2 * rows, "{} bytes", proof.len());
}

/// The commit hashes the Merkle leaves inside the RAA encoder, stripe by stripe; the
/// codeword and root must be those of encoding first and building the tree afterwards.
#[test]
fn fused_commit_equals_encoding_then_merkle_tree() {
    for num_vars in [4, 12, 16] {
        let pcs = Pcs::with_security(num_vars, 100).unwrap();
        let p = poly(num_vars, "blaze/fused");
        let width = 1 << pcs.config().raa.log_cols;
        let codeword = pcs.raa().encode(&p, width);
        let tree = MerkleTree::<Sha>::new(&codeword, width);
        let (root, data) = pcs.commit(&p);
        assert_eq!(root, tree.root(), "{num_vars} vars");
        assert_eq!(data.level.codeword, codeword, "{num_vars} vars");
    }
}
