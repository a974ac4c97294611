//! The proof files' unit tests, by room (`header`, `batch_r1cs`, `gkr`, `boolean_gkr`):
//! here one file of every kind, with every code of every header byte among them, the editors
//! that change one field of a file, and the tests of a whole file — its description and its
//! verification against its own header.

use flockwork_field_binary::Ghash128;
use flockwork_gkr::Variant;
use flockwork_pcs::PcsKind;
use flockwork_r1cs::{Preset, Statement};
use flockwork_transcript::TranscriptKind;

use super::{
    BooleanGkrFile, BooleanIo, FlockFile, GkrFile, GkrOpenedFile, ProofFile, ProofFileError,
};
use crate::flock::HashKind;

mod batch_r1cs;
mod boolean_gkr;
mod gkr;
mod header;

fn chain() -> ProofFile {
    ProofFile::Flock(FlockFile {
        hash: HashKind::Keccak,
        transcript: TranscriptKind::Sha256,
        pcs: PcsKind::Ligerito,
        preset: Preset::Slim,
        copies: 3,
        blocks: 21,
        count: 62,
        target_bits: 100,
        statement: Statement::Chain {
            start: (0..25).collect(),
            end: (100..125).collect(),
        },
        proof: (0..=255).collect(),
    })
}

fn merkle() -> ProofFile {
    ProofFile::Flock(FlockFile {
        hash: HashKind::Sha256,
        transcript: TranscriptKind::Blake3,
        pcs: PcsKind::Fri,
        preset: Preset::Fast,
        copies: 1,
        blocks: 4,
        count: 4,
        target_bits: 100,
        statement: Statement::Merkle {
            root: vec![1, 2, 3, 4],
            leaves: (0..4).map(|i| vec![i; 4]).collect(),
        },
        proof: vec![7; 40],
    })
}

fn public() -> ProofFile {
    ProofFile::Flock(FlockFile {
        hash: HashKind::Blake3,
        transcript: TranscriptKind::Poseidon2b,
        pcs: PcsKind::Blaze,
        preset: Preset::Fast,
        copies: 1,
        blocks: 2,
        count: 2,
        target_bits: 100,
        statement: Statement::Public {
            inputs: (0..28).collect(),
            outputs: (100..116).collect(),
        },
        proof: vec![5; 20],
    })
}

fn gkr() -> ProofFile {
    ProofFile::Gkr(GkrFile {
        variant: Variant::Ragged,
        transcript: TranscriptKind::Poseidon2b,
        widths: vec![1, 0],
        inputs: vec![
            (0..8).map(Ghash128::new).collect(),
            (0..4).map(Ghash128::new).collect(),
        ],
        outputs: vec![
            (100..108).map(Ghash128::new).collect(),
            (200..204).map(Ghash128::new).collect(),
        ],
        proof: vec![9; 33],
    })
}

fn gkr_opened() -> ProofFile {
    ProofFile::GkrOpened(GkrOpenedFile {
        variant: Variant::Padded,
        transcript: TranscriptKind::Blake3,
        pcs: PcsKind::Blaze,
        widths: vec![3, 0],
        commitment: (0..32).collect(),
        outputs: vec![
            (0..32).map(Ghash128::new).collect(),
            (40..44).map(Ghash128::new).collect(),
        ],
        proof: vec![5; 21],
    })
}

fn boolean_public() -> ProofFile {
    ProofFile::BooleanGkr(BooleanGkrFile {
        variant: Variant::Independent,
        transcript: TranscriptKind::Sha256,
        pcs: None,
        target_bits: 0,
        io: BooleanIo::Public {
            inputs: vec![[1; 25], [2; 25]],
            outputs: vec![[3; 25], [4; 25]],
        },
        proof: vec![6; 30],
    })
}

fn boolean_committed() -> ProofFile {
    ProofFile::BooleanGkr(BooleanGkrFile {
        variant: Variant::Ragged,
        transcript: TranscriptKind::Blake3,
        pcs: Some(PcsKind::Fri),
        target_bits: 100,
        io: BooleanIo::Committed {
            count: 5,
            commitment: (0..40).collect(),
        },
        proof: vec![8; 12],
    })
}

/// Every kind of file, with every code of every header byte among them.
fn all() -> [ProofFile; 7] {
    [
        chain(),
        merkle(),
        public(),
        gkr(),
        gkr_opened(),
        boolean_public(),
        boolean_committed(),
    ]
}

fn flock(file: ProofFile, edit: impl FnOnce(&mut FlockFile)) -> ProofFile {
    let ProofFile::Flock(mut f) = file else {
        unreachable!()
    };
    edit(&mut f);
    ProofFile::Flock(f)
}

fn ragged(file: ProofFile, edit: impl FnOnce(&mut GkrFile)) -> ProofFile {
    let ProofFile::Gkr(mut g) = file else {
        unreachable!()
    };
    edit(&mut g);
    ProofFile::Gkr(g)
}

fn opened(file: ProofFile, edit: impl FnOnce(&mut GkrOpenedFile)) -> ProofFile {
    let ProofFile::GkrOpened(mut g) = file else {
        unreachable!()
    };
    edit(&mut g);
    ProofFile::GkrOpened(g)
}

fn boolean(file: ProofFile, edit: impl FnOnce(&mut BooleanGkrFile)) -> ProofFile {
    let ProofFile::BooleanGkr(mut g) = file else {
        unreachable!()
    };
    edit(&mut g);
    ProofFile::BooleanGkr(g)
}

/// Whether the file's bytes parse back to it, or are refused for a header field.
fn parses(file: &ProofFile) -> bool {
    match ProofFile::from_bytes(&file.to_bytes()) {
        Ok(back) => {
            assert_eq!(&back, file);
            true
        }
        Err(ProofFileError::Header(_)) => false,
        Err(e) => panic!("{e}"),
    }
}

/// [`public`] with `a` input and `b` output words per instance.
fn vectors_file(a: usize, b: usize) -> ProofFile {
    flock(public(), |f| {
        f.statement = Statement::Public {
            inputs: vec![7; 2 * a],
            outputs: vec![9; 2 * b],
        };
    })
}

#[test]
fn descriptions_name_the_statement() {
    let cases = [
        (
            chain(),
            "a chain of 62 keccak-f compressions in 21 blocks of 3",
        ),
        (
            merkle(),
            "a Merkle tree over 4 leaves: its 3 sha256 node compressions, from the \
             stated leaves to the stated root (",
        ),
        (
            public(),
            "public inputs and outputs of 2 blake3 compressions (",
        ),
        (
            gkr(),
            "3 Poseidon2b permutations in 2 region(s), every output as stated (inputs \
             public; GKR, ragged batcher, poseidon2b transcript)",
        ),
        (
            gkr_opened(),
            "9 Poseidon2b permutations in 2 region(s), every output as stated (inputs \
             committed with blaze; GKR, padded batcher, blake3 transcript)",
        ),
        (
            boolean_public(),
            "2 Keccak-f permutations, every output as stated (public inputs and outputs)",
        ),
        (
            boolean_committed(),
            "5 Keccak-f permutations, every committed output the permutation of its \
             committed input (inputs and outputs committed with fri)",
        ),
    ];
    for (file, expected) in cases {
        let text = file.describe();
        assert!(text.contains(expected), "{text}");
    }
}

/// Garbage proofs of well-formed statements are rejected by the verifiers, and a batch
/// laid out in another shape than its count's is refused before any setup.
#[test]
fn files_verify_their_proofs_against_their_headers() {
    assert!(matches!(
        public().verify(),
        Err(ProofFileError::Rejected(_))
    ));
    assert!(matches!(
        flock(public(), |f| f.blocks = 3).verify(),
        Err(ProofFileError::Header(_))
    ));
    assert!(matches!(
        gkr().verify(),
        Err(ProofFileError::GkrRejected(_))
    ));
    assert!(matches!(
        boolean_public().verify(),
        Err(ProofFileError::BatchRejected(_))
    ));
}
