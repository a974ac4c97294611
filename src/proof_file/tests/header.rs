//! The header and the framing: every file round-trips, from bytes and from a stream; every
//! truncation, garbage, another magic, trailing bytes, a retired or later version and an
//! unknown code are refused by name; sections are checked whole before they are read.

use std::io::Read;

use super::*;
use crate::flock::MAX_COPIES;
use crate::proof_file::{MAGIC, RETIRED, VERSION};

#[test]
fn files_round_trip() {
    for file in all() {
        let bytes = file.to_bytes();
        assert_eq!(ProofFile::from_bytes(&bytes).unwrap(), file);
        // The proof is the file's length-prefixed tail.
        let proof = file.proof();
        let (head, tail) = bytes.split_at(bytes.len() - proof.len());
        assert!(!proof.is_empty() && tail == proof);
        assert!(head.ends_with(&(proof.len() as u64).to_le_bytes()));
    }
}

/// A source that hands out at most `chunk` bytes a call and counts what it gave, so
/// reads cannot rely on whole buffers.
struct Trickle<'a> {
    bytes: &'a [u8],
    chunk: usize,
    given: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.chunk).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.given += n;
        Ok(n)
    }
}

#[test]
fn files_parse_from_a_stream_as_from_bytes() {
    for file in all() {
        let bytes = file.to_bytes();
        for chunk in [1, 7, 4096] {
            let mut source = Trickle {
                bytes: &bytes,
                chunk,
                given: 0,
            };
            let parsed = ProofFile::read_from(&mut source, bytes.len() as u64).unwrap();
            assert_eq!(parsed, file);
            assert_eq!(source.given, bytes.len());
        }
        // A stated length past the source's end, or short of it, is refused.
        let longer = ProofFile::read_from(&bytes[..], bytes.len() as u64 + 1);
        assert!(matches!(longer, Err(ProofFileError::TrailingBytes(1))));
        let shorter = ProofFile::read_from(&bytes[..], bytes.len() as u64 - 1);
        assert!(shorter.is_err());
    }
    // A failing source is an error that says so.
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let err = ProofFile::read_from(Failing, 100).unwrap_err();
    assert!(matches!(err, ProofFileError::Read(_)));
    assert!(err.to_string().contains("disk on fire"));
}

#[test]
fn every_truncation_and_garbage_is_an_error_not_a_panic() {
    for file in all() {
        let bytes = file.to_bytes();
        for len in 0..bytes.len() {
            assert!(
                ProofFile::from_bytes(&bytes[..len]).is_err(),
                "length {len}"
            );
        }
    }
    // Oversized counts are refused before any allocation.
    let mut huge = chain().to_bytes();
    huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        ProofFile::from_bytes(&huge),
        Err(ProofFileError::Header(_))
    ));
    // A GKR region of 2^24 permutations with no bytes behind it.
    let mut wide = gkr().to_bytes();
    wide[11] = 24;
    assert!(matches!(
        ProofFile::from_bytes(&wide),
        Err(ProofFileError::Truncated("permutation inputs"))
    ));
    wide[11] = 25;
    assert!(matches!(
        ProofFile::from_bytes(&wide),
        Err(ProofFileError::Header(_))
    ));
    let mut state = 0x1234_5678_u64;
    for _ in 0..2000 {
        let len = (state % 300) as usize;
        let garbage: Vec<u8> = (0..len)
            .map(|i| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(i as u64);
                (state >> 56) as u8
            })
            .collect();
        for system in [0, 1, 2] {
            let mut prefixed = MAGIC.to_vec();
            prefixed.extend_from_slice(&VERSION.to_le_bytes());
            prefixed.push(system);
            prefixed.push(system % 3); // a valid transcript code
            prefixed.extend_from_slice(&garbage);
            let _ = ProofFile::from_bytes(&prefixed);
        }
        let _ = ProofFile::from_bytes(&garbage);
    }
}

/// Another magic and bytes past the proof are refused with their own errors, in every
/// kind of file.
#[test]
fn another_magic_and_trailing_bytes_are_refused_by_name() {
    for file in all() {
        let bytes = file.to_bytes();
        let mut magic = bytes.clone();
        magic[0] ^= 1;
        assert!(matches!(
            ProofFile::from_bytes(&magic),
            Err(ProofFileError::BadMagic)
        ));
        for extra in [1usize, 7] {
            let mut long = bytes.clone();
            long.extend(core::iter::repeat_n(0u8, extra));
            assert!(
                matches!(
                    ProofFile::from_bytes(&long),
                    Err(ProofFileError::TrailingBytes(n)) if n == extra
                ),
                "{extra} trailing bytes"
            );
        }
    }
}

/// Older versions are refused with an error naming their version and the last commit
/// that reads them; 0 or more than [`MAX_COPIES`] instances per block, a wide Merkle
/// tree and an unknown later version are refused too.
#[test]
fn older_versions_are_refused_by_name_and_bad_widths_refused() {
    let file = chain().to_bytes();
    for (version, commit) in RETIRED {
        let mut old = file.clone();
        old[4..6].copy_from_slice(&version.to_le_bytes());
        let e = ProofFile::from_bytes(&old).unwrap_err();
        assert!(
            matches!(e, ProofFileError::Retired { version: v, commit: c } if v == version && c == commit),
            "{e}"
        );
        let message = e.to_string();
        assert!(message.contains(&format!("version {version}")), "{message}");
        assert!(message.contains(commit), "{message}");
    }
    for copies in [0, MAX_COPIES as u8 + 1] {
        let mut bad = file.clone();
        bad[11] = copies;
        assert!(matches!(
            ProofFile::from_bytes(&bad),
            Err(ProofFileError::Header(_))
        ));
    }
    let mut wide_tree = merkle().to_bytes();
    wide_tree[11] = 2;
    assert!(matches!(
        ProofFile::from_bytes(&wide_tree),
        Err(ProofFileError::Header(_))
    ));
    let mut later = file;
    later[4..6].copy_from_slice(&(VERSION + 1).to_le_bytes());
    assert!(matches!(
        ProofFile::from_bytes(&later),
        Err(ProofFileError::Version(v)) if v == VERSION + 1
    ));
}

/// An unknown code in any header byte is refused by name.
#[test]
fn unknown_codes_are_refused() {
    let cases: [(ProofFile, usize, u8); 9] = [
        (chain(), 6, 5),             // system
        (chain(), 7, 3),             // transcript
        (chain(), 8, 3),             // hash
        (chain(), 9, 3),             // commitment
        (chain(), 10, 2),            // preset
        (chain(), 22, 0),            // statement kind
        (chain(), 22, 4),            // statement kind
        (gkr(), 8, 3),               // batcher
        (boolean_committed(), 9, 3), // commitment
    ];
    for (file, at, code) in cases {
        let mut bytes = file.to_bytes();
        bytes[at] = code;
        let e = ProofFile::from_bytes(&bytes).unwrap_err();
        assert!(
            matches!(&e, ProofFileError::Header(m) if m.contains(&format!(" {code}"))),
            "byte {at} = {code}: {e}"
        );
    }
}

/// A file too short for the states, leaves or vectors its header counts is refused before
/// any of them is read, naming the whole section.
#[test]
fn sections_are_checked_whole_before_they_are_read() {
    let cut = |file: ProofFile, keep: usize| {
        let bytes = file.to_bytes();
        ProofFile::from_bytes(&bytes[..keep]).unwrap_err()
    };
    // Boolean public IO: the header is 16 bytes, then 2 × 3 states of 200 bytes.
    let three = boolean(boolean_public(), |g| {
        g.io = BooleanIo::Public {
            inputs: vec![[1; 25]; 3],
            outputs: vec![[2; 25]; 3],
        };
    });
    let e = cut(three, 16 + 5 * 200);
    assert!(matches!(e, ProofFileError::Truncated("states")), "{e}");
    // Public IO: the header is 31 bytes, then 2 × (1 + 1) words, of which 3 are there.
    let e = cut(vectors_file(1, 1), 31 + 24);
    assert!(
        matches!(e, ProofFileError::Truncated("public inputs and outputs")),
        "{e}"
    );
    // Merkle: the header and root are 59 bytes, then 4 leaves of 32 bytes.
    let e = cut(merkle(), 59 + 3 * 32);
    assert!(
        matches!(e, ProofFileError::Truncated("Merkle leaves")),
        "{e}"
    );
}
