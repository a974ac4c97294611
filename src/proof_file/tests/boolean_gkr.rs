//! Boolean GKR files over Keccak-f (system 3): the header at its bounds, and a real file that
//! verifies under its own header only.

use super::*;
use crate::proof_file::framing::MAX_BLOCKS;

/// Boolean GKR files: a target only with a commitment, and then 64 to 256 bits; 1 to
/// 2^24 permutations.
#[test]
fn boolean_gkr_headers_are_checked_at_their_bounds() {
    let target = |bits| boolean(boolean_committed(), |g| g.target_bits = bits);
    assert!(parses(&target(64)) && parses(&target(256)));
    assert!(!parses(&target(63)) && !parses(&target(257)));
    let count = |n| {
        boolean(boolean_committed(), |g| {
            g.io = BooleanIo::Committed {
                count: n,
                commitment: vec![1, 2],
            };
        })
    };
    assert!(parses(&count(1)) && parses(&count(MAX_BLOCKS)));
    assert!(!parses(&count(0)) && !parses(&count(MAX_BLOCKS + 1)));
    let none = boolean(boolean_public(), |g| {
        g.io = BooleanIo::Public {
            inputs: vec![],
            outputs: vec![],
        };
    });
    assert!(!parses(&none));
    // Public IO writes a zero target; any other is refused.
    let mut bytes = boolean_public().to_bytes();
    bytes[10..12].copy_from_slice(&100u16.to_le_bytes());
    assert!(matches!(
        ProofFile::from_bytes(&bytes),
        Err(ProofFileError::Header(_))
    ));
}

/// A real Boolean GKR file (Keccak-f, committed IO, BLAKE3 at 128 bits) verifies, and
/// fails under another transcript or target.
#[test]
fn real_boolean_gkr_files_verify_under_their_own_header_only() {
    use flockwork_core::relation::{Io, Statement};
    let relation = flockwork_boolean::KeccakF1600::new();
    let choices = crate::engines::Choices {
        target_bits: 128,
        transcript: TranscriptKind::Blake3,
        ..crate::engines::Choices::default()
    };
    let batcher = crate::engines::boolean_gkr_batcher(
        &relation,
        2,
        Variant::Independent,
        Some(PcsKind::Fri),
        &choices,
    )
    .unwrap();
    let inputs = vec![[3u64; 25], [4u64; 25]];
    let statement = Statement::committed(2, batcher.commit(&inputs).unwrap());
    let proof = batcher.prove(&inputs, &statement).unwrap();
    let Io::Committed { count, commitment } = statement.io else {
        unreachable!()
    };
    let file = ProofFile::BooleanGkr(BooleanGkrFile {
        variant: Variant::Independent,
        transcript: TranscriptKind::Blake3,
        pcs: Some(PcsKind::Fri),
        target_bits: 128,
        io: BooleanIo::Committed { count, commitment },
        proof,
    });
    file.verify().unwrap();
    for changed in [
        boolean(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
        boolean(file.clone(), |g| g.target_bits = 100),
    ] {
        assert!(changed.verify().is_err(), "{}", changed.describe());
    }
}
