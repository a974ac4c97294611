//! The fuzz targets' bodies: each verifier entry point (and the proof-file parser) fed
//! arbitrary bytes as the proof, against a fixed small honest context. A target passes when
//! the verifier returns — `Ok` or `Err` — without panicking; the honest proof of each context
//! is its seed (and must verify). Each body returns whether the input was accepted.
//!
//! This file is compiled twice: by the `cargo fuzz` targets in `fuzz/` (libFuzzer, nightly)
//! and by the workspace's `tests/fuzz_smoke.rs` (stable, a short deterministic run in CI), so
//! it only uses the `flockwork` facade.

use std::sync::OnceLock;

use flockwork::boolean::Blake3Compress;
use flockwork::circuit::{Gadget, SlotKind};
use flockwork::pcs::blaze::{BlazeConfig, DEFAULT_DISTANCE, DEFAULT_SEED, RaaLevelConfig};
use flockwork::pcs::ligerito::{LevelConfig, LigeritoConfig};
use flockwork::pcs::ring_switch::{RingSwitched, evaluate_packed};
use flockwork::pcs::{BaseFold, Blaze, FriBinius, FriConfig, Ligerito, Regime};
use flockwork::poly::{Claim, MultilinearPoly, PolynomialCommitment, VerifyError};
use flockwork::prelude::*;
use flockwork::proof_file::ProofFile;
use flockwork::r1cs::{Flock, FlockConfig, Statement};

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/fuzz", b"");

/// A target: its name, its honest seed proof, and the body run on arbitrary bytes (returns
/// whether the input was accepted).
pub type Target = (&'static str, fn() -> Vec<u8>, fn(&[u8]) -> bool);

/// Every target.
pub const TARGETS: [Target; 12] = [
    ("sumcheck", sumcheck_seed, sumcheck),
    ("ligerito", ligerito_seed, ligerito),
    ("fri_binius", fri_seed, fri_binius),
    ("basefold_bn254", basefold_seed, basefold_bn254),
    ("blaze", blaze_seed, blaze),
    ("ring_switch", ring_switch_seed, ring_switch),
    ("flock", flock_seed, flock),
    ("gkr_ragged", gkr_seed, gkr_ragged),
    ("proof_file", proof_file_seed, proof_file),
    ("proof_file_gkr", proof_file_gkr_seed, proof_file),
    (
        "proof_file_boolean_gkr",
        proof_file_boolean_gkr_seed,
        proof_file,
    ),
    ("proof_file_relation", proof_file_relation_seed, proof_file),
];

fn ghash_vec(seed: u64, n: usize) -> Vec<Ghash128> {
    (0..n as u64)
        .map(|i| {
            Ghash128::new(
                u128::from(seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15)) << 64 | u128::from(i) | 1,
            )
        })
        .collect()
}

// ---- sumcheck -------------------------------------------------------------------------

struct SumcheckContext {
    polys: Vec<MultilinearPoly<Ghash128>>,
    point: Vec<Ghash128>,
    claim: Ghash128,
}

fn sumcheck_context() -> &'static SumcheckContext {
    static CONTEXT: OnceLock<SumcheckContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let polys: Vec<MultilinearPoly<Ghash128>> = (0..3)
            .map(|j| MultilinearPoly::new(ghash_vec(j, 16)))
            .collect();
        let point = ghash_vec(9, 4);
        let claim = eq_table(&point)
            .iter()
            .enumerate()
            .map(|(x, &w)| w * polys.iter().map(|p| p.evals()[x]).product::<Ghash128>())
            .sum();
        SumcheckContext {
            polys,
            point,
            claim,
        }
    })
}

/// An honest sumcheck proof of `Σ eq(r,x)·P0·P1·P2` with the final evaluations.
pub fn sumcheck_seed() -> Vec<u8> {
    let c = sumcheck_context();
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    prove(c.polys.clone(), Some(&c.point), c.claim, &mut t).send_final_evals(&mut t);
    t.into_proof()
}

/// The sumcheck verifier on `data`, final evaluations checked against the polynomials.
pub fn sumcheck(data: &[u8]) -> bool {
    let c = sumcheck_context();
    let run = || -> Result<(), VerifyError> {
        let mut t = Sha256VerifierTranscript::new(DOMAIN, data);
        let reduced = verify(4, 3, c.claim, Some(&c.point), &mut t)?;
        let evals = reduced.recv_final_evals(&mut t)?;
        t.finish()?;
        for (p, e) in c.polys.iter().zip(&evals) {
            if p.evaluate(&reduced.point) != *e {
                return Err(VerifyError::FinalClaimMismatch);
            }
        }
        Ok(())
    };
    run().is_ok()
}

// ---- commitments ----------------------------------------------------------------------

/// A commitment with its polynomial, claims and commitment bytes.
struct PcsContext<P: PolynomialCommitment<F>, F: Field> {
    pcs: P,
    claims: Vec<Claim<F>>,
    commitment: P::Commitment,
    proof: Vec<u8>,
}

fn pcs_context<F: Field, P: PolynomialCommitment<F>>(
    pcs: P,
    evals: &P::Evals,
    hypercube: &[F],
) -> PcsContext<P, F> {
    let vars = hypercube.len().trailing_zeros() as usize;
    let claims: Vec<Claim<F>> = (0..2u64)
        .map(|i| {
            let point: Vec<F> = (0..vars as u64)
                .map(|j| F::from_index(1000 * i + 7 * j + 3))
                .collect();
            let value = MultilinearPoly::new(hypercube.to_vec()).evaluate(&point);
            Claim::evaluation(point, value)
        })
        .collect();
    let (commitment, data) = pcs.commit(evals);
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    pcs.open(&data, &claims, &mut t);
    let proof = t.into_proof();
    PcsContext {
        pcs,
        claims,
        commitment,
        proof,
    }
}

fn verify_opening<F: Field, P: PolynomialCommitment<F>>(c: &PcsContext<P, F>, data: &[u8]) -> bool {
    let mut t = Sha256VerifierTranscript::new(DOMAIN, data);
    c.pcs
        .verify(&c.commitment, &c.claims, &mut t)
        .and_then(|()| t.finish().map_err(VerifyError::from))
        .is_ok()
}

fn small_ligerito(num_vars: usize) -> Ligerito<Ghash128, sha2::Sha256> {
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
    .expect("valid schedule")
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

type LigeritoContext = PcsContext<Ligerito<Ghash128, sha2::Sha256>, Ghash128>;

fn ligerito_context() -> &'static LigeritoContext {
    static CONTEXT: OnceLock<LigeritoContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let p = ghash_vec(1, 64);
        pcs_context(small_ligerito(6), p.as_slice(), &p)
    })
}

/// The honest Ligerito opening.
pub fn ligerito_seed() -> Vec<u8> {
    ligerito_context().proof.clone()
}

/// The Ligerito verifier on `data`.
pub fn ligerito(data: &[u8]) -> bool {
    verify_opening(ligerito_context(), data)
}

type FriContext = PcsContext<FriBinius<Ghash128, sha2::Sha256>, Ghash128>;

fn fri_context() -> &'static FriContext {
    static CONTEXT: OnceLock<FriContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let p = ghash_vec(2, 64);
        let pcs = FriBinius::new(small_fri(6, 128)).expect("valid schedule");
        pcs_context(pcs, p.as_slice(), &p)
    })
}

/// The honest FRI-Binius opening.
pub fn fri_seed() -> Vec<u8> {
    fri_context().proof.clone()
}

/// The FRI-Binius verifier on `data`.
pub fn fri_binius(data: &[u8]) -> bool {
    verify_opening(fri_context(), data)
}

type BaseFoldContext = PcsContext<BaseFold<Bn254Fr, sha2::Sha256>, Bn254Fr>;

fn basefold_context() -> &'static BaseFoldContext {
    static CONTEXT: OnceLock<BaseFoldContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let p: Vec<Bn254Fr> = (0..32u64).map(|i| Bn254Fr::from_index(i * i + 5)).collect();
        let pcs = BaseFold::new(small_fri(5, Bn254Fr::ORDER_BITS)).expect("valid schedule");
        pcs_context(pcs, p.as_slice(), &p)
    })
}

/// The honest BaseFold (BN254) opening.
pub fn basefold_seed() -> Vec<u8> {
    basefold_context().proof.clone()
}

/// The BaseFold (BN254) verifier on `data`.
pub fn basefold_bn254(data: &[u8]) -> bool {
    verify_opening(basefold_context(), data)
}

type BlazeContext = PcsContext<Blaze<Ghash128, sha2::Sha256>, Ghash128>;

fn blaze_context() -> &'static BlazeContext {
    static CONTEXT: OnceLock<BlazeContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let p = ghash_vec(5, 64);
        let pcs = Blaze::new(BlazeConfig {
            num_vars: 6,
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
        .expect("valid schedule");
        pcs_context(pcs, p.as_slice(), &p)
    })
}

/// The honest Blaze-style opening.
pub fn blaze_seed() -> Vec<u8> {
    blaze_context().proof.clone()
}

/// The Blaze-style verifier on `data`.
pub fn blaze(data: &[u8]) -> bool {
    verify_opening(blaze_context(), data)
}

type RingSwitchContext = PcsContext<RingSwitched<Ligerito<Ghash128, sha2::Sha256>>, Ghash128>;

fn ring_switch_context() -> &'static RingSwitchContext {
    static CONTEXT: OnceLock<RingSwitchContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let words: Vec<u128> = ghash_vec(3, 32).iter().map(|x| x.to_bits()).collect();
        let hypercube: Vec<Ghash128> = words
            .iter()
            .flat_map(|&w| (0..128).map(move |v| Ghash128::from_index(((w >> v) & 1) as u64)))
            .collect();
        let packed: Vec<Ghash128> = words.iter().map(|&w| Ghash128::new(w)).collect();
        debug_assert_eq!(
            evaluate_packed(&packed, &ghash_vec(4, 12)),
            MultilinearPoly::new(hypercube.clone()).evaluate(&ghash_vec(4, 12))
        );
        pcs_context(
            RingSwitched::new(small_ligerito(5)),
            words.as_slice(),
            &hypercube,
        )
    })
}

/// The honest ring-switched opening.
pub fn ring_switch_seed() -> Vec<u8> {
    ring_switch_context().proof.clone()
}

/// The ring-switching verifier (over Ligerito) on `data`.
pub fn ring_switch(data: &[u8]) -> bool {
    verify_opening(ring_switch_context(), data)
}

// ---- batch-R1CS and proof files -------------------------------------------------------

fn flock_setup() -> &'static (Flock<Blake3Compress>, Vec<u8>) {
    static CONTEXT: OnceLock<(Flock<Blake3Compress>, Vec<u8>)> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).expect("setup");
        let words = Blake3Compress.layout().vector_bits(SlotKind::Input) / 64;
        let inputs: Vec<u64> = (0..2 * words as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let (proof, _) = flock.prove(&inputs, &Statement::Batch).expect("prove");
        (flock, proof.into_bytes())
    })
}

/// An honest batch-R1CS proof of two BLAKE3 compressions.
pub fn flock_seed() -> Vec<u8> {
    flock_setup().1.clone()
}

/// The batch-R1CS verifier on `data` (header, zerocheck, lincheck, opening).
pub fn flock(data: &[u8]) -> bool {
    flock_setup().0.verify(&Statement::Batch, data).is_ok()
}

type GkrContext = (
    flockwork::gkr::Setup<flockwork::gkr::Poseidon2bRelation, Ghash256>,
    flockwork::gkr::Statement<Ghash128>,
    Vec<u8>,
);

fn gkr_context() -> &'static GkrContext {
    static CONTEXT: OnceLock<GkrContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        use flockwork::gkr::{Poseidon2bRelation, Setup, Statement, Variant};
        let widths = vec![2, 0, 1];
        let inputs: Vec<Vec<Ghash128>> = widths
            .iter()
            .map(|&w| ghash_vec(w as u64 + 40, 4 << w))
            .collect();
        let relation = Poseidon2bRelation::official();
        let statement = Statement::of_inputs(&relation, &inputs);
        let setup = Setup::new(relation, widths);
        let proof = setup
            .prove(Variant::Ragged, &inputs, &statement)
            .expect("prove");
        (setup, statement, proof)
    })
}

/// An honest ragged GKR proof of Poseidon2b over regions of 4, 1 and 2 permutations.
pub fn gkr_seed() -> Vec<u8> {
    gkr_context().2.clone()
}

/// The ragged GKR verifier on `data` (walk and layer-0 discharge).
pub fn gkr_ragged(data: &[u8]) -> bool {
    let (setup, statement, _) = gkr_context();
    setup
        .verify(flockwork::gkr::Variant::Ragged, statement, data)
        .is_ok()
}

/// A proof file of a chain of two BLAKE3 compressions.
pub fn proof_file_seed() -> Vec<u8> {
    static SEED: OnceLock<Vec<u8>> = OnceLock::new();
    SEED.get_or_init(|| {
        let workload = flockwork::flock::FlockWorkload {
            hash: flockwork::flock::HashKind::Blake3,
            count: 2,
            seed: 1,
            io: flockwork::flock::IoKind::Chain,
            config: FlockConfig::default(),
            transcript: flockwork::transcript::TranscriptKind::Sha256,
        };
        let report = workload.run().expect("prove");
        ProofFile::of_flock(&workload, &report).to_bytes()
    })
    .clone()
}

/// A proof file of 5 Poseidon2b permutations (regions of 4 and 1) proved with the ragged
/// GKR batcher.
pub fn proof_file_gkr_seed() -> Vec<u8> {
    static SEED: OnceLock<Vec<u8>> = OnceLock::new();
    SEED.get_or_init(|| {
        let variant = flockwork::gkr::Variant::Ragged;
        let workload = flockwork::permutations::PermutationWorkload::for_count(5, 1, variant)
            .expect("5 permutations");
        let report = workload.run().expect("prove");
        ProofFile::of_permutations(&workload, &report).to_bytes()
    })
    .clone()
}

/// A proof file of 3 Keccak-f permutations (regions of 2 and 1) proved with GKR on their
/// Boolean layers by the ragged batcher, inputs and outputs public.
pub fn proof_file_boolean_gkr_seed() -> Vec<u8> {
    use flockwork::engines::{Choices, System, batchers_for};
    use flockwork::poly::relation::{Io, IoKind, Statement};
    use flockwork::proof_file::{BooleanGkrFile, BooleanIo};
    static SEED: OnceLock<Vec<u8>> = OnceLock::new();
    SEED.get_or_init(|| {
        let relation = flockwork::boolean::KeccakF1600::new();
        let choices = Choices {
            systems: vec![System::Gkr],
            variants: vec![flockwork::gkr::Variant::Ragged],
            schemes: Vec::new(),
            ..Choices::default()
        };
        let batcher = batchers_for(&relation, 3, &choices)
            .into_iter()
            .find(|b| b.supports(IoKind::Public))
            .expect("a public-IO Boolean GKR batcher");
        let inputs: Vec<[u64; 25]> = (0..3u64).map(|i| [i * 0x9e37_79b9 + 1; 25]).collect();
        let statement = Statement::public(&relation, inputs.clone());
        let proof = batcher.prove(&inputs, &statement).expect("prove");
        let Io::Public { inputs, outputs } = statement.io else {
            unreachable!("a public statement")
        };
        ProofFile::BooleanGkr(BooleanGkrFile {
            variant: flockwork::gkr::Variant::Ragged,
            transcript: flockwork::transcript::TranscriptKind::Sha256,
            pcs: None,
            target_bits: 0,
            io: BooleanIo::Public { inputs, outputs },
            proof,
        })
        .to_bytes()
    })
    .clone()
}

/// A relation file (system 4) of 4 Poseidon2 permutations over BN254 (t = 3) proved by the
/// ragged GKR batcher, inputs and outputs public, in the relation's canonical bytes; verified
/// through the registry by the relation's name.
pub fn proof_file_relation_seed() -> Vec<u8> {
    use flockwork::engines::{Choices, listing};
    use flockwork::field::PrimeField;
    use flockwork::poly::relation::Statement;
    static SEED: OnceLock<Vec<u8>> = OnceLock::new();
    SEED.get_or_init(|| {
        let relation =
            flockwork::gkr::Poseidon2Relation::new(flockwork::poseidon2::instances::bn254_t3());
        let choices = Choices::default();
        let batcher = listing(&relation, 4, &choices)
            .into_iter()
            .find(|b| b.name() == "GKR ragged / sha256")
            .expect("the ragged public-IO GKR batcher");
        let inputs: Vec<Vec<flockwork::prime::Bn254Fr>> = (0..4u64)
            .map(|i| {
                (0..3)
                    .map(|j| PrimeField::from_u64(3 * i + j + 1))
                    .collect()
            })
            .collect();
        let statement = Statement::public(&relation, inputs.clone());
        let proof = batcher.prove(&inputs, &statement).expect("prove");
        flockwork::proof_file::save(&relation, batcher.as_ref(), &choices, &statement, proof)
    })
    .clone()
}

/// The proof-file parser, and the verifier of whatever it accepts.
pub fn proof_file(data: &[u8]) -> bool {
    // Every parsed file is verified, whatever its counts: a setup costs the relation's size,
    // not the header's (the verifiers build no code tables), and the memory limit refuses a
    // file whose statement would need more than the fuzzer's RSS limit (`fuzz/README.md`).
    ProofFile::from_bytes(data)
        .is_ok_and(|file| file.verify_within(Some(FUZZ_MEMORY_LIMIT)).is_ok())
}

/// The memory limit the proof-file targets verify under: half of the RSS limit the fuzz runs
/// take (`-rss_limit_mb=512`).
pub const FUZZ_MEMORY_LIMIT: u64 = 256 << 20;
