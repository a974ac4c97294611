//! Known-answer proofs of both level-0 codes: the SHA-256 of honest proofs for fixed
//! schedules, polynomials and claims, so that any change of the engine's transcript (labels,
//! message order, parameter absorption, out-of-domain samples, glue order) fails here.

use digest::Digest;
use flockwork_core::pcs::Claim;
use flockwork_core::{MultilinearPoly, PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_testkit::{random_vec, rng};
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};

use crate::blaze::{BlazeConfig, DEFAULT_DISTANCE, DEFAULT_SEED, RaaLevelConfig};
use crate::ligerito::{LevelConfig, LigeritoConfig, Preset};
use crate::merkle::MerkleTree;
use crate::security::Regime;
use crate::{Blaze, Ligerito};

use super::{LevelZeroCode, MultiLevel};

type Sha = sha2::Sha256;

const JOHNSON: Regime = Regime::Johnson { eta: 0.02 };

fn rs_level(log_cols: usize, log_inv_rate: usize, ood_samples: usize) -> LevelConfig {
    LevelConfig {
        log_cols,
        log_inv_rate,
        num_queries: 5,
        fold_pow_bits: 1,
        query_pow_bits: 1,
        ood_samples,
    }
}

fn blaze_config(num_vars: usize, rs: &[(usize, usize)], regime: Regime) -> BlazeConfig {
    let ood = usize::from(matches!(regime, Regime::Johnson { .. }));
    BlazeConfig {
        num_vars,
        raa: RaaLevelConfig {
            log_cols: 3,
            log_inv_rate: 2,
            num_queries: 20,
            fold_pow_bits: 1,
            query_pow_bits: 1,
            distance: DEFAULT_DISTANCE,
            seed: DEFAULT_SEED,
        },
        levels: rs.iter().map(|&(k, r)| rs_level(k, r, ood)).collect(),
        regime,
        field_bits: 128,
    }
}

/// Commits a fixed polynomial, opens it at two fixed points, checks that the proof verifies
/// and returns the hex SHA-256 of the proof.
fn proof_digest<P>(pcs: &P, label: &str) -> String
where
    P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>,
{
    let num_vars = pcs.num_vars();
    let p: Vec<Ghash128> = random_vec(&mut rng(label), 1 << num_vars);
    let mle = MultilinearPoly::new(p.clone());
    let claims: Vec<Claim<Ghash128>> = (0..2)
        .map(|i| {
            let z: Vec<Ghash128> = random_vec(&mut rng(&format!("{label}/{i}")), num_vars);
            Claim::evaluation(z.clone(), mle.evaluate(&z))
        })
        .collect();
    let (commitment, data) = pcs.commit(&p);
    let domain = DomainSeparator::new("multilevel/pinned", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.send_commitment("commitment", &commitment, &mut prover);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let received = pcs.recv_commitment("commitment", &mut verifier).unwrap();
    pcs.verify(&received, &claims, &mut verifier).unwrap();
    verifier.finish().unwrap();
    Sha::digest(&proof)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks each `(commitment, label, expected digest)`; prints every digest first, so that all
/// of them can be read off one failing run.
fn check_pinned<P>(scheme: &str, cases: &[(P, &str, &str)])
where
    P: PolynomialCommitment<Ghash128, Evals = [Ghash128]>,
{
    let got: Vec<String> = cases
        .iter()
        .map(|(pcs, label, _)| {
            let digest = proof_digest(pcs, &format!("{scheme}/pinned/{label}"));
            println!("{scheme} {label}: {digest}");
            digest
        })
        .collect();
    for ((_, label, expected), digest) in cases.iter().zip(got) {
        assert_eq!(digest, *expected, "{scheme} {label}");
    }
}

fn ligerito(config: LigeritoConfig) -> Ligerito<Ghash128, Sha> {
    Ligerito::new(config).unwrap()
}

fn blaze(config: BlazeConfig) -> Blaze<Ghash128, Sha> {
    Blaze::new(config).unwrap()
}

#[test]
fn ligerito_proofs_are_pinned() {
    let johnson = LigeritoConfig {
        num_vars: 11,
        levels: vec![rs_level(3, 1, 1), rs_level(2, 2, 2), rs_level(2, 3, 1)],
        regime: JOHNSON,
        field_bits: 128,
    };
    let unique = LigeritoConfig {
        num_vars: 10,
        levels: vec![rs_level(4, 2, 0), rs_level(3, 2, 0)],
        regime: Regime::UniqueDecoding,
        field_bits: 128,
    };
    let one_level = LigeritoConfig {
        num_vars: 8,
        levels: vec![rs_level(4, 1, 1)],
        regime: JOHNSON,
        field_bits: 128,
    };
    let cases = [
        (
            ligerito(johnson),
            "johnson",
            "dc86e46d80fd6e08fa3496ebc57fba72273f92fe1bbc3cdce649812cfb935b08",
        ),
        (
            ligerito(unique),
            "unique",
            "33e58e98eec1222a52bd1260607ee1b3c8b3b06198f896ce1d98ae0107c80448",
        ),
        (
            ligerito(one_level),
            "one-level",
            "35c4a20ab6a050daa564dda2675835ac941c60866802107044cb71d8da8527e8",
        ),
        (
            Ligerito::with_preset(12, 100, Preset::Fast, JOHNSON).unwrap(),
            "preset",
            "ee4dda219c18c9340ad0959f700fd0b27b5d6113fe33571bc4e916485a4f1375",
        ),
    ];
    check_pinned("ligerito", &cases);
}

#[test]
fn blaze_proofs_are_pinned() {
    let cases = [
        (
            blaze(blaze_config(11, &[(2, 1), (2, 2)], JOHNSON)),
            "johnson",
            "368e54d1f4ae4394ed7e91811b446d065779a7370bfcfd55ec476156be4d7061",
        ),
        (
            blaze(blaze_config(10, &[(3, 2)], Regime::UniqueDecoding)),
            "unique",
            "b8f61c8f6f610d423abac154e9bb41b04017e84c0ffcf635fbd74dc1f961b031",
        ),
        (
            blaze(blaze_config(7, &[], Regime::UniqueDecoding)),
            "raa-only",
            "2be1507ccfe7fa914aa6257499be373561c2d54efdaf5fad293bfaa613fa6c75",
        ),
        (
            Blaze::with_security(12, 100).unwrap(),
            "default",
            "ee9a0664080b213e52e58215071717582615a5cc0a9b7fb13cea434cf28e55ad",
        ),
    ];
    check_pinned("blaze", &cases);
}

/// A prover that commits to a word far from the code (a third of its rows changed) and then
/// follows the protocol honestly for the true polynomial. With one level, the committed word
/// is the last level's: the folded opened rows are compared with the encoding of the final
/// message, and a changed row fails that check.
fn check_far_commitment_rejected<C: LevelZeroCode<Ghash128>>(
    pcs: &MultiLevel<Ghash128, Sha, C>,
    label: &str,
) {
    use super::Schedule;
    let num_vars = pcs.num_vars();
    assert_eq!(
        pcs.config().num_levels(),
        1,
        "{label}: a one-level schedule"
    );
    let p: Vec<Ghash128> = random_vec(&mut rng(label), 1 << num_vars);
    let (_, mut data) = pcs.commit(&p);
    let width = 1 << pcs.config().level(0).log_cols;
    for (j, x) in data.level.codeword.iter_mut().enumerate() {
        if (j / width).is_multiple_of(3) {
            *x += Ghash128::ONE;
        }
    }
    data.level.tree = MerkleTree::new(&data.level.codeword, width);
    let root = data.level.tree.root().to_vec();
    let z: Vec<Ghash128> = random_vec(&mut rng(&format!("{label}/z")), num_vars);
    let claims = [Claim::evaluation(
        z.clone(),
        MultilinearPoly::new(p.clone()).evaluate(&z),
    )];
    let domain = DomainSeparator::new("multilevel/far", b"");
    let mut prover = Sha256ProverTranscript::new(domain);
    pcs.open(&data, &claims, &mut prover);
    let proof = prover.into_proof();
    let mut verifier = Sha256VerifierTranscript::new(domain, &proof);
    let result = pcs.verify(&root, &claims, &mut verifier);
    assert!(
        matches!(result, Err(VerifyError::RowCheck { level: 0, .. })),
        "{label}: {result:?}"
    );
}

#[test]
fn a_commitment_far_from_the_code_is_rejected_at_the_last_level() {
    let mut level = rs_level(4, 1, 1);
    level.num_queries = 30;
    check_far_commitment_rejected(
        &ligerito(LigeritoConfig {
            num_vars: 8,
            levels: vec![level],
            regime: JOHNSON,
            field_bits: 128,
        }),
        "ligerito/far",
    );
    check_far_commitment_rejected(
        &blaze(blaze_config(7, &[], Regime::UniqueDecoding)),
        "blaze/far",
    );
}

/// A commitment of another length than the digest is refused before any proof byte is read.
fn check_wrong_length_commitment_rejected<C: LevelZeroCode<Ghash128>>(
    pcs: &MultiLevel<Ghash128, Sha, C>,
) {
    let num_vars = pcs.num_vars();
    let p: Vec<Ghash128> = random_vec(&mut rng("multilevel/short"), 1 << num_vars);
    let (root, _) = pcs.commit(&p);
    let z: Vec<Ghash128> = random_vec(&mut rng("multilevel/short/z"), num_vars);
    let claims = [Claim::evaluation(
        z.clone(),
        MultilinearPoly::new(p).evaluate(&z),
    )];
    crate::conformance::check_commitment_lengths(pcs, &root, &claims);
}

#[test]
fn a_commitment_of_the_wrong_length_is_rejected() {
    check_wrong_length_commitment_rejected(&blaze(blaze_config(7, &[], Regime::UniqueDecoding)));
    check_wrong_length_commitment_rejected(&ligerito(LigeritoConfig {
        num_vars: 8,
        levels: vec![rs_level(4, 1, 1)],
        regime: JOHNSON,
        field_bits: 128,
    }));
}

/// Commits and opens with `prover`, then verifies with `verifier` (the same schedule built
/// afresh): `Ok` for the honest proof, an error for a flipped byte in the middle and at the end.
fn prove_and_verify_fresh<C: LevelZeroCode<Ghash128>>(
    prover: &MultiLevel<Ghash128, Sha, C>,
    verifier: &MultiLevel<Ghash128, Sha, C>,
) {
    let num_vars = prover.num_vars();
    let p: Vec<Ghash128> = random_vec(&mut rng("multilevel/fresh"), 1 << num_vars);
    let z: Vec<Ghash128> = random_vec(&mut rng("multilevel/fresh/z"), num_vars);
    let claims = [Claim::evaluation(
        z.clone(),
        MultilinearPoly::new(p.clone()).evaluate(&z),
    )];
    let (commitment, data) = prover.commit(&p);
    let domain = DomainSeparator::new("multilevel/fresh", b"");
    let mut transcript = Sha256ProverTranscript::new(domain);
    prover.open(&data, &claims, &mut transcript);
    let proof = transcript.into_proof();
    let check = |proof: &[u8]| {
        let mut t = Sha256VerifierTranscript::new(domain, proof);
        let verified = verifier.verify(&commitment, &claims, &mut t);
        verified.is_ok() && t.finish().is_ok()
    };
    assert!(check(&proof));
    for at in [proof.len() / 2, proof.len() - 1] {
        let mut bad = proof.clone();
        bad[at] ^= 1;
        assert!(!check(&bad), "byte {at} flipped");
    }
}

/// A verifier never builds the prover's code tables — the additive NTT's twiddles of every
/// Reed–Solomon level, the RAA permutations — so its memory does not grow with the codeword;
/// it evaluates them at the queried points and accepts exactly what the prover's instance
/// (whose tables are built) accepts.
#[test]
fn a_fresh_verifier_builds_no_code_tables() {
    let config = LigeritoConfig {
        num_vars: 11,
        levels: vec![rs_level(3, 1, 1), rs_level(2, 2, 2), rs_level(2, 3, 1)],
        regime: JOHNSON,
        field_bits: 128,
    };
    let (prover, verifier) = (ligerito(config.clone()), ligerito(config));
    prove_and_verify_fresh(&prover, &verifier);
    assert!(prover.level0().ntt().has_tables());
    assert!(!verifier.level0().ntt().has_tables());
    assert!(verifier.codes.iter().all(|code| !code.ntt().has_tables()));

    let config = blaze_config(11, &[(2, 1), (2, 2)], JOHNSON);
    let (prover, verifier) = (blaze(config.clone()), blaze(config));
    prove_and_verify_fresh(&prover, &verifier);
    assert!(prover.level0().has_tables());
    assert!(!verifier.level0().has_tables());
    assert!(verifier.codes.iter().all(|code| !code.ntt().has_tables()));
    // With no level after the RAA one, the final message is the whole level-0 message, sent
    // in clear, and the verifier encodes it: tables as long as the proof it has read.
    let config = blaze_config(7, &[], Regime::UniqueDecoding);
    prove_and_verify_fresh(&blaze(config.clone()), &blaze(config));
}

/// The schedule of a committed polynomial of 2^32 elements (2^39 bits) is held
/// by a verifier at once: building the commitment allocates no code table.
#[test]
fn a_verifier_holds_a_huge_schedule() {
    let blaze = Blaze::<Ghash128, Sha>::with_security(32, 100).unwrap();
    assert!(!blaze.level0().has_tables());
    let ligerito = Ligerito::<Ghash128, Sha>::with_preset(32, 100, Preset::Fast, JOHNSON).unwrap();
    assert!(!ligerito.level0().ntt().has_tables());
}
