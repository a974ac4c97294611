//! Mutation testing of commitment openings — Ligerito, FRI-Binius, BaseFold over BN254, the
//! Blaze-style commitment, and ring-switching over them (the harness is
//! `flockwork_testkit::mutation`): every single-byte change (exhaustive for small proofs, a seeded sample otherwise), every
//! truncation and appended bytes are rejected, and no verifier panics. The harness prints
//! the counts of every sweep.

use flockwork_core::{Claim, MultilinearPoly, PolynomialCommitment, VerifyError};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_field_prime::Bn254Fr;
use flockwork_pcs::blaze::{BlazeConfig, DEFAULT_DISTANCE, DEFAULT_SEED, RaaLevelConfig};
use flockwork_pcs::ligerito::{LevelConfig, LigeritoConfig};
use flockwork_pcs::ring_switch::{RingSwitched, evaluate_packed};
use flockwork_pcs::{BaseFold, Blaze, FriBinius, FriConfig, Ligerito, Regime};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use flockwork_testkit::seeded_vec;
use flockwork_transcript::{
    DomainSeparator, ProverTranscript, Sha256ProverTranscript, Sha256VerifierTranscript,
    VerifierTranscript,
};

type Sha = sha2::Sha256;

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/tests/pcs-mutation", b"");

/// Exhaustive single-byte changes for proofs up to 1254 bytes, a sample of 320,000 beyond;
/// a few seconds per proof.
fn budget() -> MutationBudget {
    MutationBudget {
        exhaustive_limit: 320_000,
        truncation_limit: 2048,
        ..MutationBudget::default()
    }
}

/// Commits, opens two evaluation claims (commitment sent first), and mutation-tests the
/// verifier on the whole proof.
fn mutate<F: Field, P>(name: &str, pcs: &P, evals: &P::Evals, hypercube: &[F])
where
    P: PolynomialCommitment<F>,
{
    let n = pcs.num_vars();
    let claims: Vec<Claim<F>> = (0..2u64)
        .map(|i| {
            let point: Vec<F> = seeded_vec(50 + i, hypercube.len().trailing_zeros() as usize);
            let value = MultilinearPoly::new(hypercube.to_vec()).evaluate(&point);
            Claim::evaluation(point, value)
        })
        .collect();
    let (commitment, data) = pcs.commit(evals);
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    pcs.send_commitment("commitment", &commitment, &mut transcript);
    pcs.open(&data, &claims, &mut transcript);
    let proof = transcript.into_proof();
    let verifier = |bytes: &[u8]| -> Result<(), VerifyError> {
        let mut t = Sha256VerifierTranscript::new(DOMAIN, bytes);
        let received = pcs.recv_commitment("commitment", &mut t)?;
        pcs.verify(&received, &claims, &mut t)?;
        t.finish()?;
        Ok(())
    };
    assert!(
        budget().is_exhaustive_for(proof.len()) || proof.len() > 1254,
        "{name}: small proofs are meant to be exhaustive under the full budget"
    );
    check_mutations(&format!("pcs/{name} (ℓ = {n})"), &proof, budget(), verifier);
}

fn small_ligerito(num_vars: usize) -> Ligerito<Ghash128, Sha> {
    let level = |log_cols, log_inv_rate| LevelConfig {
        log_cols,
        log_inv_rate,
        num_queries: 2,
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

fn small_fri(num_vars: usize, field_bits: u32) -> FriConfig {
    FriConfig {
        num_vars,
        log_inv_rate: 1,
        log_batch: 1,
        arities: vec![1, 2],
        num_queries: 2,
        query_pow_bits: 0,
        fold_pow_bits: 0,
        field_bits,
    }
}

#[test]
fn ligerito_rejects_every_mutation() {
    let p: Vec<Ghash128> = seeded_vec(1, 1 << 6);
    mutate("ligerito", &small_ligerito(6), p.as_slice(), &p);
}

#[test]
fn fri_binius_rejects_every_mutation() {
    let pcs = FriBinius::<Ghash128, Sha>::new(small_fri(6, 128)).unwrap();
    let p: Vec<Ghash128> = seeded_vec(2, 1 << 6);
    mutate("fri-binius", &pcs, p.as_slice(), &p);
}

#[test]
fn basefold_bn254_rejects_every_mutation() {
    let pcs = BaseFold::<Bn254Fr, Sha>::new(small_fri(5, Bn254Fr::ORDER_BITS)).unwrap();
    let p: Vec<Bn254Fr> = seeded_vec(3, 1 << 5);
    mutate("basefold-bn254", &pcs, p.as_slice(), &p);
}

fn small_blaze(num_vars: usize) -> Blaze<Ghash128, Sha> {
    Blaze::new(BlazeConfig {
        num_vars,
        raa: RaaLevelConfig {
            log_cols: 2,
            log_inv_rate: 2,
            num_queries: 2,
            fold_pow_bits: 0,
            query_pow_bits: 0,
            distance: DEFAULT_DISTANCE,
            seed: DEFAULT_SEED,
        },
        levels: vec![LevelConfig {
            log_cols: 2,
            log_inv_rate: 2,
            num_queries: 2,
            fold_pow_bits: 0,
            query_pow_bits: 0,
            ood_samples: 1,
        }],
        regime: Regime::Johnson { eta: 0.02 },
        field_bits: 128,
    })
    .unwrap()
}

#[test]
fn blaze_rejects_every_mutation() {
    let p: Vec<Ghash128> = seeded_vec(5, 1 << 6);
    mutate("blaze", &small_blaze(6), p.as_slice(), &p);
}

#[test]
fn ring_switched_commitments_reject_every_mutation() {
    let words: Vec<u128> = seeded_vec::<Ghash128>(4, 1 << 5)
        .iter()
        .map(|x| x.to_bits())
        .collect();
    let hypercube: Vec<Ghash128> = words
        .iter()
        .flat_map(|&w| (0..128).map(move |v| Ghash128::from_index(((w >> v) & 1) as u64)))
        .collect();
    let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
    // The hypercube evaluation equals the packed evaluation (a check of the test itself).
    let point: Vec<Ghash128> = seeded_vec(9, 12);
    assert_eq!(
        MultilinearPoly::new(hypercube.clone()).evaluate(&point),
        evaluate_packed(&packed, &point)
    );
    let ligerito = RingSwitched::new(small_ligerito(5));
    mutate(
        "ring-switched-ligerito",
        &ligerito,
        words.as_slice(),
        &hypercube,
    );
    let fri = RingSwitched::new(FriBinius::<Ghash128, Sha>::new(small_fri(5, 128)).unwrap());
    mutate("ring-switched-fri", &fri, words.as_slice(), &hypercube);
    let blaze = RingSwitched::new(small_blaze(5));
    mutate("ring-switched-blaze", &blaze, words.as_slice(), &hypercube);
}
