//! Pinned proofs: small honest proofs checked in under `tests/pinned/`. Each test proves the
//! same statement again and requires the same bytes, and verifies the stored file, so an
//! accidental change of any protocol (transcript labels, message order, parameter selection,
//! encodings) fails here first.
//!
//! After an intended protocol change, regenerate the files with
//! `FLOCKWORK_REGENERATE_PINNED=1 cargo test -p flockwork --test suite pinned` and commit them.

use std::path::PathBuf;

use flockwork::boolean::Blake3Compress;
use flockwork::circuit::{Gadget, SlotKind};
use flockwork::pcs::ring_switch::RingSwitched;
use flockwork::pcs::{FriBinius, Ligerito, Preset, Regime};
use flockwork::poly::{Claim, PolynomialCommitment};
use flockwork::prelude::*;
use flockwork::r1cs::{Flock, FlockConfig, Statement};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pinned")
        .join(name)
}

/// Compares `proof` with the stored file (or rewrites it when regenerating) and returns the
/// stored bytes for verification.
fn pinned(name: &str, proof: &[u8]) -> Vec<u8> {
    let path = fixture(name);
    if std::env::var_os("FLOCKWORK_REGENERATE_PINNED").is_some() {
        std::fs::write(&path, proof).expect("write the pinned proof");
    }
    let stored = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; regenerate with FLOCKWORK_REGENERATE_PINNED=1",
            path.display()
        )
    });
    assert!(
        stored == proof,
        "{name}: the prover no longer reproduces the pinned proof ({} bytes stored, {} now, \
         first difference at byte {:?}); if the protocol change is intended, regenerate with \
         FLOCKWORK_REGENERATE_PINNED=1",
        stored.len(),
        proof.len(),
        stored.iter().zip(proof).position(|(a, b)| a != b)
    );
    stored
}

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/tests/pinned", b"");

fn ghash_vec(seed: u64, n: usize) -> Vec<Ghash128> {
    (0..n as u64)
        .map(|i| {
            Ghash128::new(
                u128::from(seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15)) << 64 | u128::from(i),
            )
        })
        .collect()
}

#[test]
fn sumcheck_proof_is_pinned() {
    let n = 6;
    let polys: Vec<MultilinearPoly<Ghash128>> = (0..3)
        .map(|j| MultilinearPoly::new(ghash_vec(j, 1 << n)))
        .collect();
    let r = ghash_vec(99, n);
    let claim: Ghash128 = eq_table(&r)
        .iter()
        .enumerate()
        .map(|(x, &w)| w * polys.iter().map(|p| p.evals()[x]).product::<Ghash128>())
        .sum();
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    prove(polys, Some(&r), claim, &mut transcript).send_final_evals(&mut transcript);
    let stored = pinned("sumcheck-ghash.bin", &transcript.into_proof());
    let mut t = Sha256VerifierTranscript::new(DOMAIN, &stored);
    let reduced = verify(n, 3, claim, Some(&r), &mut t).unwrap();
    reduced.recv_final_evals(&mut t).unwrap();
    t.finish().unwrap();
}

/// Commits, opens two evaluation claims and pins the opening.
fn pin_opening<P: PolynomialCommitment<Ghash128, Evals = [u128]>>(
    name: &str,
    pcs: &P,
    log_bits: usize,
) {
    let words: Vec<u128> = ghash_vec(7, 1 << (log_bits - 7))
        .iter()
        .map(|x| x.to_bits())
        .collect();
    let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
    let claims: Vec<Claim<Ghash128>> = (0..2)
        .map(|i| {
            let point = ghash_vec(20 + i, log_bits);
            let value = flockwork::pcs::ring_switch::evaluate_packed(&packed, &point);
            Claim::evaluation(point, value)
        })
        .collect();
    let (commitment, data) = pcs.commit(&words);
    let mut transcript = Sha256ProverTranscript::new(DOMAIN);
    pcs.send_commitment("commitment", &commitment, &mut transcript);
    pcs.open(&data, &claims, &mut transcript);
    let stored = pinned(name, &transcript.into_proof());
    let mut t = Sha256VerifierTranscript::new(DOMAIN, &stored);
    let received = pcs.recv_commitment("commitment", &mut t).unwrap();
    pcs.verify(&received, &claims, &mut t).unwrap();
    t.finish().unwrap();
}

#[test]
fn ring_switched_ligerito_opening_is_pinned() {
    let pcs = RingSwitched::new(
        Ligerito::<Ghash128, sha2::Sha256>::with_preset(
            8,
            100,
            Preset::Fast,
            Regime::Johnson { eta: 0.02 },
        )
        .unwrap(),
    );
    pin_opening("ligerito-2^15-bits.bin", &pcs, 15);
}

#[test]
fn ring_switched_fri_opening_is_pinned() {
    let pcs =
        RingSwitched::new(FriBinius::<Ghash128, sha2::Sha256>::with_security(8, 100, 1).unwrap());
    pin_opening("fri-2^15-bits.bin", &pcs, 15);
}

#[test]
fn batch_r1cs_proof_is_pinned() {
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).unwrap();
    let words = Blake3Compress.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..2 * words as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let (proof, _) = flock.prove(&inputs, &Statement::Batch).unwrap();
    let stored = pinned("flock-blake3-x2.bin", proof.as_bytes());
    flock.verify(&Statement::Batch, &stored).unwrap();
}

#[test]
fn ragged_gkr_proof_is_pinned() {
    use flockwork::gkr::{Ghash256, Poseidon2bRelation, Setup, Statement, Variant};
    let widths = vec![2, 0, 1];
    let inputs: Vec<Vec<Ghash128>> = widths
        .iter()
        .map(|&w| ghash_vec(w as u64 + 60, 4 << w))
        .collect();
    let relation = Poseidon2bRelation::official();
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, widths);
    let proof = setup.prove(Variant::Ragged, &inputs, &statement).unwrap();
    let stored = pinned("gkr-ragged-poseidon2b.bin", &proof);
    setup.verify(Variant::Ragged, &statement, &stored).unwrap();
}
