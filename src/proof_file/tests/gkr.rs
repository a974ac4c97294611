//! GKR files over Poseidon2b (systems 1 and 2): inconsistent shapes and bad commitments are
//! refused, real files verify under their own header only, every single output is bound, and
//! a walk from points other than the drawn ones is rejected (the retired version-6 layout,
//! which stated them, is refused by name).

use flockwork_field::Field;
use flockwork_field_binary::Ghash256;
use flockwork_gkr::GkrError;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_transcript::TranscriptScheme;

use super::*;
use crate::permutations::LANES;
use crate::proof_file::codes::{transcript_code, variant_code};
use crate::proof_file::framing::{push_elements, push_proof};
use crate::proof_file::gkr::push_widths;
use crate::proof_file::{MAGIC, VERSION};

/// A file naming a commitment that is not a commitment of the scheme, and one whose proof
/// is garbage: errors, not panics.
#[test]
fn opened_gkr_files_with_bad_commitments_or_proofs_are_rejected() {
    assert!(gkr_opened().verify().is_err());
    assert!(matches!(
        opened(gkr_opened(), |g| g.commitment.push(0)).verify(),
        Err(ProofFileError::Header(_))
    ));
}

#[test]
fn inconsistent_gkr_files_are_refused_not_panicked_on() {
    for edit in [
        |g: &mut GkrFile| {
            g.inputs[1].pop();
        },
        |g: &mut GkrFile| {
            g.inputs.pop();
        },
        |g: &mut GkrFile| {
            g.outputs[0].pop();
        },
        |g: &mut GkrFile| {
            g.outputs.pop();
        },
        |g: &mut GkrFile| g.widths[0] = 2,
        |g: &mut GkrFile| g.widths.push(0),
    ] {
        assert!(matches!(
            ragged(gkr(), edit).verify(),
            Err(ProofFileError::Header(_))
        ));
    }
    for edit in [
        |g: &mut GkrOpenedFile| {
            g.outputs[1].pop();
        },
        |g: &mut GkrOpenedFile| {
            g.outputs.pop();
        },
        |g: &mut GkrOpenedFile| g.widths[1] = 1,
    ] {
        assert!(matches!(
            opened(gkr_opened(), edit).verify(),
            Err(ProofFileError::Header(_))
        ));
    }
}

/// Real Poseidon2b files, with the inputs in the clear and with a committed input layer
/// (BLAKE3 transcripts, the ragged batcher), verify, and fail once the batcher, the
/// transcript, the scheme, the commitment or an input is changed.
#[test]
fn real_gkr_files_verify_under_their_own_header_only() {
    let file = real_gkr(3, None);
    assert!(
        file.describe()
            .contains("3 Poseidon2b permutations in 2 region(s), every output as stated")
    );
    file.verify().unwrap();
    for changed in [
        ragged(file.clone(), |g| g.variant = Variant::Independent),
        ragged(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
        ragged(file.clone(), |g| g.inputs[1][0] += Ghash128::ONE),
    ] {
        assert!(changed.verify().is_err(), "{}", changed.describe());
    }

    let file = real_gkr(300, Some(PcsKind::Fri));
    assert!(file.describe().contains(
        "300 Poseidon2b permutations in 4 region(s), every output as stated (inputs \
         committed with fri"
    ));
    file.verify().unwrap();
    for changed in [
        opened(file.clone(), |g| g.variant = Variant::Padded),
        opened(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
        opened(file.clone(), |g| g.pcs = PcsKind::Ligerito),
        opened(file.clone(), |g| g.commitment[0] ^= 1),
    ] {
        assert!(changed.verify().is_err(), "{}", changed.describe());
    }
}

/// A verified Poseidon2b file of `count` permutations (4 regions at most; BLAKE3, the
/// ragged batcher), its inputs public or committed with `pcs`.
fn real_gkr(count: usize, pcs: Option<PcsKind>) -> ProofFile {
    use crate::permutations::PermutationWorkload;
    let workload = PermutationWorkload::for_count(count, 4, Variant::Ragged)
        .unwrap()
        .with_pcs(pcs)
        .with_transcript(TranscriptKind::Blake3);
    ProofFile::of_permutations(&workload, &workload.run().unwrap())
}

/// Changing any single output — of the first, a middle or the last permutation, of the
/// first or the last region, in any lane — makes a public-IO file and a committed-input
/// file fail: the proof covers every instance's output.
#[test]
fn every_single_output_of_a_gkr_file_is_bound() {
    // 300 = 256 + 32 + 8 + 4: regions of widths 8, 5, 3, 2.
    for pcs in [None, Some(PcsKind::Fri)] {
        let file = real_gkr(300, pcs);
        let widths = match &file {
            ProofFile::Gkr(g) => g.widths.clone(),
            ProofFile::GkrOpened(g) => g.widths.clone(),
            _ => unreachable!(),
        };
        assert_eq!(widths, vec![8, 5, 3, 2]);
        for (a, row, lane) in [(0, 0, 0), (0, 128, 1), (0, 255, 3), (3, 0, 2), (3, 3, 3)] {
            let at = LANES * row + lane;
            let changed = match file.clone() {
                ProofFile::Gkr(mut g) => {
                    g.outputs[a][at] += Ghash128::ONE;
                    ProofFile::Gkr(g)
                }
                ProofFile::GkrOpened(mut g) => {
                    g.outputs[a][at] += Ghash128::ONE;
                    ProofFile::GkrOpened(g)
                }
                _ => unreachable!(),
            };
            assert!(
                matches!(changed.verify(), Err(ProofFileError::GkrRejected(_))),
                "{pcs:?}: region {a}, permutation {row}, lane {lane} changed, accepted"
            );
            // The same through the file bytes.
            let back = ProofFile::from_bytes(&changed.to_bytes()).unwrap();
            assert!(back.verify().is_err());
        }
    }
}

/// The version-6 layout (a stated output point and claimed values per region, no
/// outputs) is refused by name; its bytes under version 7 do not parse; and a proof whose
/// walk starts at a point other than the one the transcript draws — `0…0`, which covers
/// instance 0 alone, with the true values there — is rejected in a version-7 file, while
/// the same forger at the drawn points makes a file that verifies.
#[test]
fn gkr_files_at_points_other_than_the_drawn_ones_are_rejected() {
    let ProofFile::Gkr(g) = real_gkr(3, None) else {
        unreachable!()
    };
    // The old layout: per region inputs | w_a × 32-byte point | t × 32-byte values.
    let mut old = MAGIC.to_vec();
    old.extend_from_slice(&6u16.to_le_bytes());
    old.extend([1, transcript_code(g.transcript), variant_code(g.variant)]);
    push_widths(&mut old, &g.widths);
    for (inputs, &w) in g.inputs.iter().zip(&g.widths) {
        push_elements(&mut old, inputs);
        push_elements(&mut old, &vec![Ghash256::ZERO; w]);
        push_elements(&mut old, &[Ghash256::ONE; LANES]);
    }
    push_proof(&mut old, &g.proof);
    let e = ProofFile::from_bytes(&old).unwrap_err();
    assert!(
        matches!(
            e,
            ProofFileError::Retired {
                version: 6,
                commit: "dd373e8"
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("version 6") && e.to_string().contains("dd373e8"));
    old[4..6].copy_from_slice(&VERSION.to_le_bytes());
    assert!(ProofFile::from_bytes(&old).is_err());

    // A forger with the honest transcript, starting the walk where it likes.
    let forged = |choose: &dyn Fn(&[Ghash256]) -> Vec<Ghash256>| {
        ProofFile::Gkr(GkrFile {
            proof: walk_at_points(&g, choose),
            ..g.clone()
        })
    };
    forged(&|z| z.to_vec()).verify().unwrap();
    let at_zero = forged(&|z| vec![Ghash256::ZERO; z.len()]);
    assert!(matches!(
        at_zero.verify(),
        Err(ProofFileError::GkrRejected(GkrError::LayerCheck { .. }))
    ));
    let moved = forged(&|z| z.iter().map(|&c| c + Ghash256::ONE).collect());
    assert!(moved.verify().is_err());
}

/// A ragged walk over `file`'s statement whose transcript absorbs the statement as the
/// honest prover's does (`flockwork_gkr::batchers`, "Proof format") and draws the points,
/// but which starts from claims at `choose(drawn point)`, with the stated outputs'
/// values there.
fn walk_at_points(file: &GkrFile, choose: &dyn Fn(&[Ghash256]) -> Vec<Ghash256>) -> Vec<u8> {
    use flockwork_core::layered::LayeredRelation;
    use flockwork_gkr::batchers::{
        HEADER_LEN, LABEL_COMMITMENT, LABEL_OUTPUTS, LABEL_POINT, PROOF_MAGIC, PROOF_VERSION,
    };
    use flockwork_gkr::{ProverConfig, RegionClaim, RegionInput, prove_walk};
    use flockwork_transcript::{ProverTranscript, Transcript};
    assert_eq!(
        (file.variant, file.transcript),
        (Variant::Ragged, TranscriptKind::Blake3)
    );
    let relation = Poseidon2bRelation::official();
    let statement =
        flockwork_gkr::Statement::public(&relation, &file.inputs, &file.outputs).unwrap();
    let mut instance = relation.id();
    instance.push(Variant::Ragged as u8);
    for v in std::iter::once(file.widths.len()).chain(file.widths.iter().copied()) {
        instance.extend_from_slice(&(v as u64).to_le_bytes());
    }
    let mut tr = flockwork_transcript::Blake3::prover("flockwork/gkr/ragged/v2", &instance);
    for region in &statement.regions {
        tr.public_bytes(LABEL_COMMITMENT, region.committed.digest());
        tr.public_bytes(LABEL_OUTPUTS, region.outputs.digest());
    }
    let claims: Vec<RegionClaim<Ghash256>> = statement
        .regions
        .iter()
        .map(|region| {
            let drawn: Vec<Ghash256> = tr.challenges(LABEL_POINT, region.outputs.width());
            let point = choose(&drawn);
            let values = region.outputs.evaluate(&point).unwrap();
            RegionClaim { point, values }
        })
        .collect();
    let zero = [Ghash128::ZERO; LANES];
    let inputs: Vec<RegionInput<'_, Ghash128>> = file
        .inputs
        .iter()
        .zip(&file.widths)
        .map(|(inputs, &width)| RegionInput {
            width,
            inputs,
            padding: &zero,
        })
        .collect();
    prove_walk(
        &relation,
        &ProverConfig::default(),
        &inputs,
        claims,
        &mut tr,
    );
    let mut proof = PROOF_MAGIC.to_vec();
    proof.extend_from_slice(&PROOF_VERSION.to_le_bytes());
    proof.push(Variant::Ragged as u8);
    assert_eq!(proof.len(), HEADER_LEN);
    proof.extend_from_slice(&tr.into_proof());
    proof
}
