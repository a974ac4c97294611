//! The batchers with each transcript scheme: SHA-256 (the default), BLAKE3 and the
//! Poseidon2b duplex sponge all give accepting proofs of the same length with identical
//! terminal claims; a proof made with one scheme is rejected by a verifier using another;
//! Poseidon2b-transcript proofs reject mutations like the others.

use flockwork_field::Field;
use flockwork_gkr::{Ghash128, Ghash256, Ragged, Setup, Statement, Variant};
use flockwork_poseidon2b::{Poseidon2bRelation, Poseidon2bSponge};
use flockwork_transcript::{Blake3, Sha256, TranscriptKind, TranscriptScheme};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const WIDTHS: [usize; 3] = [2, 0, 3];

fn instance() -> (Vec<Vec<Ghash128>>, Statement<Ghash128>) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7472);
    let inputs: Vec<Vec<Ghash128>> = WIDTHS
        .iter()
        .map(|&w| {
            (0..4usize << w)
                .map(|_| Ghash128::new(rng.random()))
                .collect()
        })
        .collect();
    let statement = Statement::of_inputs(&Poseidon2bRelation::official(), &inputs);
    (inputs, statement)
}

fn setup<D: TranscriptScheme>() -> Setup<Poseidon2bRelation, Ghash256, D> {
    Setup::new(Poseidon2bRelation::official(), WIDTHS.to_vec())
}

/// Every variant's proof under scheme `D`.
fn proofs<D: TranscriptScheme>(
    inputs: &[Vec<Ghash128>],
    statement: &Statement<Ghash128>,
) -> Vec<Vec<u8>> {
    let setup = setup::<D>();
    Variant::ALL
        .into_iter()
        .map(|variant| {
            let proof = setup.prove(variant, inputs, statement).unwrap();
            assert_eq!(proof.len(), setup.proof_len(variant));
            proof
        })
        .collect()
}

/// Whether scheme `D` accepts `proof` for `variant`.
fn accepts<D: TranscriptScheme>(
    variant: Variant,
    statement: &Statement<Ghash128>,
    proof: &[u8],
) -> bool {
    setup::<D>().verify(variant, statement, proof).is_ok()
}

#[test]
fn every_transcript_accepts_its_own_proofs_and_rejects_the_others() {
    let (inputs, statement) = instance();
    let all = [
        proofs::<Sha256>(&inputs, &statement),
        proofs::<Blake3>(&inputs, &statement),
        proofs::<Poseidon2bSponge>(&inputs, &statement),
    ];
    // The default scheme is SHA-256.
    let default = Setup::<_, Ghash256>::new(Poseidon2bRelation::official(), WIDTHS.to_vec());
    for (v, variant) in Variant::ALL.into_iter().enumerate() {
        assert_eq!(
            default.prove(variant, &inputs, &statement).unwrap(),
            all[0][v]
        );
        for (made, proofs) in TranscriptKind::ALL.into_iter().zip(&all) {
            let proof = &proofs[v];
            for checker in TranscriptKind::ALL {
                let ok = match checker {
                    TranscriptKind::Sha256 => accepts::<Sha256>(variant, &statement, proof),
                    TranscriptKind::Blake3 => accepts::<Blake3>(variant, &statement, proof),
                    TranscriptKind::Poseidon2b => {
                        accepts::<Poseidon2bSponge>(variant, &statement, proof)
                    }
                };
                assert_eq!(
                    ok,
                    made == checker,
                    "{variant:?}: made with {made}, verified with {checker}"
                );
            }
        }
        // Same length, different bytes.
        assert_eq!(all[0][v].len(), all[2][v].len());
        assert_ne!(all[0][v], all[2][v]);
        assert_ne!(all[1][v], all[2][v]);
    }
}

#[test]
fn poseidon2b_transcript_end_to_end() {
    let (inputs, statement) = instance();
    let setup = setup::<Poseidon2bSponge>();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        // The terminal claims do not depend on the transcript's bytes, only on its
        // challenges; they must pass the discharge.
        let terminal = setup.verify_walks(variant, &statement, &proof).unwrap();
        setup.discharge(&statement, &terminal).unwrap();
        for _ in 0..8 {
            let mut bad = proof.clone();
            let pos = rng.random_range(0..bad.len());
            bad[pos] ^= 1 << rng.random_range(0..8);
            assert!(setup.verify(variant, &statement, &bad).is_err(), "{pos}");
        }
        let mut longer = proof.clone();
        longer.push(0);
        assert!(setup.verify(variant, &statement, &longer).is_err());
        assert!(
            setup
                .verify(variant, &statement, &proof[..proof.len() - 1])
                .is_err()
        );
        let changed = crate::common::change_output(&statement, 2, 7, 1, Ghash128::ONE);
        assert!(setup.verify(variant, &changed, &proof).is_err());
    }
    // Through the ragged strategy type: the same proof as the setup with its variant.
    let batcher =
        Ragged::<_, Ghash256, Poseidon2bSponge>::new(Poseidon2bRelation::official(), WIDTHS.into());
    let proof = batcher.prove_batch(&inputs, &statement).unwrap();
    batcher.verify_batch(&statement, &proof).unwrap();
    assert_eq!(
        proof,
        setup.prove(Variant::Ragged, &inputs, &statement).unwrap()
    );
}
