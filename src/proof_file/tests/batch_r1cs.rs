//! Batch-R1CS files (system 0): the header fields at their bounds, Merkle and public-IO
//! statements checked before their words are read, and real files that verify under their
//! own header only.

use flockwork_r1cs::FlockConfig;

use super::*;
use crate::flock::{IoKind, MAX_COPIES};
use crate::proof_file::VERSION;
use crate::proof_file::batch_r1cs::MAX_STATE_WORDS;
use crate::proof_file::framing::MAX_BLOCKS;

/// Found by `cargo fuzz run proof_file_gkr` (in the version-2 layout, here in the
/// current one): a Merkle header with an empty digest and 2^23 leaves took 10 s and
/// 192 MiB to parse; digests must have their 4 words.
#[test]
fn empty_merkle_digests_are_refused_before_the_leaves() {
    let [v0, v1] = VERSION.to_le_bytes();
    let bytes = [
        0x46, 0x57, 0x50, 0x46, v0, v1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x17, 0xe9, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
    ];
    assert!(matches!(
        ProofFile::from_bytes(&bytes),
        Err(ProofFileError::Header(_))
    ));
}

/// Each bounded header field of a batch-R1CS file is accepted at both ends of its range
/// and refused just outside it, the other fields in range.
#[test]
fn batch_r1cs_header_fields_are_checked_at_their_bounds() {
    // chain(): 62 steps in 21 blocks of 3.
    let set = |copies, blocks, count| {
        flock(chain(), |f| {
            (f.copies, f.blocks, f.count) = (copies, blocks, count)
        })
    };
    assert!(parses(&set(3, 21, 63)));
    assert!(!parses(&set(3, 21, 64)));
    assert!(!parses(&set(3, 21, 0)));
    assert!(parses(&set(3, 1, 1)));
    assert!(parses(&set(1, MAX_BLOCKS, 62)));
    assert!(!parses(&set(1, MAX_BLOCKS + 1, 62)));
    assert!(parses(&set(MAX_COPIES, 1, MAX_COPIES)));
    let target = |bits| flock(chain(), |f| f.target_bits = bits);
    assert!(parses(&target(64)) && parses(&target(256)));
    assert!(!parses(&target(63)) && !parses(&target(257)));
    // Only Ligerito has presets (a writer records Slim for Ligerito only).
    let mut slim_fri = merkle().to_bytes();
    slim_fri[10] = 1;
    assert!(matches!(
        ProofFile::from_bytes(&slim_fri),
        Err(ProofFileError::Header(_))
    ));
    assert!(parses(&flock(chain(), |f| f.preset = Preset::Fast)));
    // Chain states of at most 64 words.
    let states = |n: u64| {
        flock(chain(), |f| {
            f.statement = Statement::Chain {
                start: (0..n).collect(),
                end: vec![1],
            };
        })
    };
    assert!(parses(&states(MAX_STATE_WORDS as u64)));
    assert!(!parses(&states(MAX_STATE_WORDS as u64 + 1)));
}

/// Merkle trees need a hash with Merkle nodes, 2 or more blocks of one node, and 4-word
/// digests; public IO one instance per block and 1 to 64 words per vector.
#[test]
fn merkle_and_public_statements_are_checked_before_their_words_are_read() {
    let tree = |leaves: u64| {
        flock(merkle(), |f| {
            (f.blocks, f.count) = (leaves as usize, leaves as usize);
            f.statement = Statement::Merkle {
                root: vec![1, 2, 3, 4],
                leaves: (0..leaves).map(|i| vec![i; 4]).collect(),
            };
        })
    };
    assert!(parses(&tree(2)));
    assert!(!parses(&tree(1)));
    assert!(!parses(&flock(merkle(), |f| f.hash = HashKind::Keccak)));
    assert!(parses(&flock(merkle(), |f| f.hash = HashKind::Blake3)));
    for words in [3, 5] {
        let file = flock(merkle(), |f| {
            f.statement = Statement::Merkle {
                root: vec![1; words],
                leaves: (0..4).map(|i| vec![i; words]).collect(),
            };
        });
        assert!(!parses(&file), "{words}-word digests");
    }
    assert!(parses(&vectors_file(1, 1)));
    assert!(parses(&vectors_file(MAX_STATE_WORDS, MAX_STATE_WORDS)));
    assert!(!parses(&vectors_file(MAX_STATE_WORDS + 1, 1)));
    assert!(!parses(&vectors_file(1, MAX_STATE_WORDS + 1)));
    assert!(!parses(&flock(public(), |f| f.copies = 2)));
    // Zero words per instance: the vectors are empty, the counts 0.
    let bytes = vectors_file(1, 1).to_bytes();
    for at in [23, 27] {
        let mut zero = bytes.clone();
        zero[at..at + 4].copy_from_slice(&0u32.to_le_bytes());
        assert!(
            matches!(ProofFile::from_bytes(&zero), Err(ProofFileError::Header(_))),
            "a zero count at byte {at}"
        );
    }
}

/// A real batch-R1CS file verifies, and fails once any header field its verifier rebuilds
/// the setup from is changed: the commitment, Ligerito's preset, the target, the
/// transcript. The proofs use non-default choices (FRI at 128 bits; Ligerito's slim preset).
#[test]
fn real_batch_r1cs_files_verify_under_their_own_header_only() {
    use crate::flock::FlockWorkload;
    for (pcs, preset, target_bits) in [
        (PcsKind::Fri, Preset::Fast, 128),
        (PcsKind::Ligerito, Preset::Slim, 100),
    ] {
        let workload = FlockWorkload {
            hash: HashKind::Blake3,
            count: 2,
            seed: 5,
            io: IoKind::Public,
            config: FlockConfig {
                scheme: pcs,
                preset,
                target_bits,
                ..FlockConfig::default()
            },
            transcript: TranscriptKind::Blake3,
        };
        let file = ProofFile::of_flock(&workload, &workload.run().unwrap());
        file.verify().unwrap();
        let other_preset = match preset {
            Preset::Fast => Preset::Slim,
            Preset::Slim => Preset::Fast,
        };
        let other_pcs = match pcs {
            PcsKind::Fri => PcsKind::Ligerito,
            _ => PcsKind::Fri,
        };
        for changed in [
            flock(file.clone(), |f| f.pcs = other_pcs),
            flock(file.clone(), |f| f.target_bits += 8),
            flock(file.clone(), |f| f.transcript = TranscriptKind::Sha256),
        ] {
            assert!(changed.verify().is_err(), "{}", changed.describe());
        }
        if pcs == PcsKind::Ligerito {
            assert!(flock(file, |f| f.preset = other_preset).verify().is_err());
        }
    }
}
