//! Behavioural tests of the hash transcripts over SHA-256 and BLAKE3, and of their transcript
//! schemes.

use digest::Digest;
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_transcript::{
    Blake3, Blake3ProverTranscript, DomainSeparator, HashProverTranscript, HashVerifierTranscript,
    MAX_GRIND_BITS, ProverTranscript, Sha256, Sha256ProverTranscript, Transcript, TranscriptError,
    TranscriptKind, TranscriptScheme, VerifierTranscript,
};

const DOMAIN: DomainSeparator<'static> = DomainSeparator::new("flockwork/test/v1", b"instance");

/// Everything a run of the scripted protocol derives, compared between the two sides.
#[derive(Debug, PartialEq, Eq)]
struct Derived {
    challenges: Vec<Ghash128>,
    index: usize,
    bytes: [u8; 5],
}

fn values() -> Vec<Ghash128> {
    (1..=4u64)
        .map(|i| Ghash128::from_index(i * 1_000_003))
        .collect()
}

/// The prover side of a small protocol using every operation.
fn prove<D: Digest + Clone>(domain: DomainSeparator<'_>) -> (Vec<u8>, Derived) {
    let mut t = HashProverTranscript::<D>::new(domain);
    t.public_bytes("public", b"statement");
    t.public_field("public field", &[Ghash128::from_index(5)]);
    t.send_field("values", &values());
    let first: Ghash128 = t.challenge("alpha");
    t.send_bytes("bytes", &[9, 8, 7]);
    t.hint_bytes(b"merkle path");
    t.grind("pow", 8).unwrap();
    let mut challenges = vec![first];
    challenges.extend(t.challenges::<Ghash128>("betas", 3));
    let index = t.challenge_index("query", 1000);
    let mut bytes = [0u8; 5];
    t.challenge_bytes("raw", &mut bytes);
    let derived = Derived {
        challenges,
        index,
        bytes,
    };
    (t.into_proof(), derived)
}

/// The verifier side of the same protocol; returns what it derived before any error.
fn verify<D: Digest + Clone>(
    domain: DomainSeparator<'_>,
    proof: &[u8],
) -> Result<Derived, TranscriptError> {
    let mut t = HashVerifierTranscript::<D>::new(domain, proof);
    t.public_bytes("public", b"statement");
    t.public_field("public field", &[Ghash128::from_index(5)]);
    let received = t.recv_field::<Ghash128>("values", 4)?;
    assert_eq!(received.len(), 4);
    let first: Ghash128 = t.challenge("alpha");
    t.recv_bytes("bytes", 3)?;
    t.hint_bytes(b"merkle path".len())?;
    t.check_grind("pow", 8)?;
    let mut challenges = vec![first];
    challenges.extend(t.challenges::<Ghash128>("betas", 3));
    let index = t.challenge_index("query", 1000);
    let mut bytes = [0u8; 5];
    t.challenge_bytes("raw", &mut bytes);
    t.finish()?;
    Ok(Derived {
        challenges,
        index,
        bytes,
    })
}

fn agreement<D: Digest + Clone>() {
    let (proof, derived) = prove::<D>(DOMAIN);
    assert_eq!(proof.len(), 4 * 16 + 3 + 11 + 8);
    assert_eq!(verify::<D>(DOMAIN, &proof), Ok(derived));
}

#[test]
fn prover_and_verifier_agree_sha256() {
    agreement::<sha2::Sha256>();
}

#[test]
fn prover_and_verifier_agree_blake3() {
    agreement::<blake3::Hasher>();
}

#[test]
fn the_two_hashes_give_different_challenges() {
    let (_, sha) = prove::<sha2::Sha256>(DOMAIN);
    let (_, blake) = prove::<blake3::Hasher>(DOMAIN);
    assert_ne!(sha.challenges, blake.challenges);
}

/// Pins the documented byte-level construction against an independent computation with
/// Python's `hashlib.sha256` (script in the test body).
#[test]
fn sha256_construction_matches_the_documentation() {
    // import hashlib, struct
    // lp = lambda x: struct.pack('<Q', len(x)) + x
    // st = b"flockwork-transcript/v1/init" + lp(b"test/v1") + lp(b"inst")
    // st += bytes([1]) + lp(b"a") + lp(b"xyz") + bytes([2]) + lp(b"s") + lp(b"\x01\x02")
    // st += bytes([3]) + lp(b"c") + lp(struct.pack('<Q', 40))
    // seed = hashlib.sha256(st).digest()
    // sq = lambda s, k: hashlib.sha256(b"flockwork-transcript/v1/squeeze" + s + struct.pack('<Q', k)).digest()
    // (sq(seed, 0) + sq(seed, 1))[:40].hex()
    // st2 = b"flockwork-transcript/v1/chain" + seed + bytes([3]) + lp(b"d") + lp(struct.pack('<Q', 8))
    // sq(hashlib.sha256(st2).digest(), 0)[:8].hex()
    let mut t = Sha256ProverTranscript::new(DomainSeparator::new("test/v1", b"inst"));
    t.public_bytes("a", b"xyz");
    t.send_bytes("s", &[1, 2]);
    let mut out = [0u8; 40];
    t.challenge_bytes("c", &mut out);
    assert_eq!(
        hex(&out),
        "05debad05e122eebdd83a92b44868fb737cd42f3bb5b84903a7ace217183d16acfc8a743aeb57284"
    );
    let mut next = [0u8; 8];
    t.challenge_bytes("d", &mut next);
    assert_eq!(hex(&next), "9adfdb78cbcab461");
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn first_challenge(domain: DomainSeparator<'_>, label: &str) -> Ghash128 {
    let mut t = Sha256ProverTranscript::new(domain);
    t.public_bytes("data", b"abc");
    t.challenge(label)
}

#[test]
fn labels_separate_challenges() {
    assert_ne!(first_challenge(DOMAIN, "a"), first_challenge(DOMAIN, "b"));
    // Moving a byte between label and data changes the challenge (length prefixes).
    let mut x = Sha256ProverTranscript::new(DOMAIN);
    x.public_bytes("ab", b"c");
    let mut y = Sha256ProverTranscript::new(DOMAIN);
    y.public_bytes("a", b"bc");
    assert_ne!(x.challenge::<Ghash128>("c"), y.challenge::<Ghash128>("c"));
    // Public and sent data with the same bytes are distinct operations.
    let mut p = Sha256ProverTranscript::new(DOMAIN);
    p.public_bytes("m", b"xyz");
    let mut s = Sha256ProverTranscript::new(DOMAIN);
    s.send_bytes("m", b"xyz");
    assert_ne!(p.challenge::<Ghash128>("c"), s.challenge::<Ghash128>("c"));
}

#[test]
fn domain_separators_separate_challenges() {
    let base = first_challenge(DOMAIN, "c");
    let other_protocol = DomainSeparator::new("flockwork/test/v2", b"instance");
    let other_instance = DomainSeparator::new("flockwork/test/v1", b"instancf");
    // Same concatenation protocol ‖ instance, different split.
    let shifted = DomainSeparator::new("flockwork/test/v1i", b"nstance");
    for domain in [other_protocol, other_instance, shifted] {
        assert_ne!(first_challenge(domain, "c"), base);
    }
}

#[test]
fn repeated_challenges_differ() {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    let a: Ghash128 = t.challenge("same");
    let b: Ghash128 = t.challenge("same");
    assert_ne!(a, b);
    let many = t.challenges::<Ghash128>("many", 8);
    for (i, x) in many.iter().enumerate() {
        assert!(many[i + 1..].iter().all(|y| y != x));
    }
}

#[test]
fn trailing_bytes_are_rejected() {
    let (mut proof, _) = prove::<sha2::Sha256>(DOMAIN);
    proof.push(0);
    assert_eq!(
        verify::<sha2::Sha256>(DOMAIN, &proof),
        Err(TranscriptError::TrailingBytes { remaining: 1 })
    );
}

#[test]
fn every_truncation_is_an_error() {
    let (proof, _) = prove::<blake3::Hasher>(DOMAIN);
    for len in 0..proof.len() {
        let result = verify::<blake3::Hasher>(DOMAIN, &proof[..len]);
        assert!(
            matches!(result, Err(TranscriptError::Truncated { .. })),
            "length {len}: {result:?}"
        );
    }
}

#[test]
fn truncated_read_reports_sizes() {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    t.send_field("v", &[Ghash128::ONE]);
    let proof = t.into_proof();
    let mut v = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, &proof[..10]);
    assert_eq!(
        v.recv_field::<Ghash128>("v", 1),
        Err(TranscriptError::Truncated {
            expected: 16,
            remaining: 10
        })
    );
    // A huge element count is refused before anything is allocated.
    assert!(matches!(
        v.recv_field::<Ghash128>("v", usize::MAX / 2),
        Err(TranscriptError::Truncated { .. })
    ));
}

#[test]
fn a_flipped_sent_byte_changes_later_challenges() {
    let (proof, honest) = prove::<sha2::Sha256>(DOMAIN);
    for position in [0, 17, 63, 64, 66] {
        let mut tampered = proof.clone();
        tampered[position] ^= 0x10;
        match verify::<sha2::Sha256>(DOMAIN, &tampered) {
            // The grind of 8 bits may still pass by chance (2^-8): then every later
            // challenge must differ.
            Ok(derived) => assert!(
                derived
                    .challenges
                    .iter()
                    .zip(&honest.challenges)
                    .all(|(a, b)| a != b)
            ),
            Err(e) => assert_eq!(e, TranscriptError::GrindingFailed { bits: 8 }),
        }
    }
}

#[test]
fn a_flipped_hint_byte_changes_no_challenge() {
    let (mut proof, honest) = prove::<sha2::Sha256>(DOMAIN);
    proof[4 * 16 + 3] ^= 1; // first hint byte
    assert_eq!(verify::<sha2::Sha256>(DOMAIN, &proof), Ok(honest));
}

fn grind_proof(bits: u32) -> Vec<u8> {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    t.send_bytes("x", b"data");
    t.grind("pow", bits).unwrap();
    t.into_proof()
}

fn check_grind_proof(proof: &[u8], bits: u32) -> Result<(), TranscriptError> {
    let mut t = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, proof);
    t.recv_bytes("x", 4)?;
    t.check_grind("pow", bits)?;
    t.finish()
}

#[test]
fn grinding_is_accepted_and_checked() {
    for bits in [1, 8, 12] {
        let proof = grind_proof(bits);
        assert_eq!(proof.len(), 4 + 8);
        assert_eq!(check_grind_proof(&proof, bits), Ok(()));
    }
    // A nonce for 8 bits, checked at a difficulty it was not ground for, fails unless it
    // happens to satisfy it; the smallest valid nonce is searched, so nonce - 1 fails.
    let proof = grind_proof(8);
    let nonce = u64::from_le_bytes(proof[4..12].try_into().unwrap());
    if nonce > 0 {
        let mut bad = proof.clone();
        bad[4..12].copy_from_slice(&(nonce - 1).to_le_bytes());
        assert_eq!(
            check_grind_proof(&bad, 8),
            Err(TranscriptError::GrindingFailed { bits: 8 })
        );
    }
    // Zero bits is a no-op on both sides.
    assert_eq!(grind_proof(0).len(), 4);
    assert_eq!(check_grind_proof(&grind_proof(0), 0), Ok(()));
}

#[test]
fn grinding_rejects_too_many_bits() {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    assert_eq!(
        t.grind("pow", MAX_GRIND_BITS + 1),
        Err(TranscriptError::TooManyBits { bits: 33, max: 32 })
    );
    let mut proof = grind_proof(1);
    proof.extend_from_slice(&[0; 8]);
    assert_eq!(
        check_grind_proof(&proof, 40),
        Err(TranscriptError::TooManyBits { bits: 40, max: 32 })
    );
}

#[test]
fn challenge_index_is_in_range_and_unbiased() {
    let mut t = Sha256ProverTranscript::new(DOMAIN);
    const BOUND: usize = 6;
    const DRAWS: usize = 6000;
    let mut counts = [0usize; BOUND];
    for _ in 0..DRAWS {
        counts[t.challenge_index("i", BOUND)] += 1;
    }
    // Chi-square with 5 degrees of freedom: 20.5 is the 0.999 quantile.
    let expected = (DRAWS / BOUND) as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 20.5, "counts {counts:?}, chi2 {chi2}");
    // A bound just above 2^63 rejects about half of the draws and must stay in range.
    let big = (1usize << 63) + 1;
    for _ in 0..200 {
        assert!(t.challenge_index("big", big) < big);
    }
    assert_eq!(t.challenge_index("one", 1), 0);
    assert!(t.challenge_index("max", usize::MAX) < usize::MAX);
}

#[test]
fn challenge_index_agrees_between_sides() {
    let mut p = Sha256ProverTranscript::new(DOMAIN);
    let mut v = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, &[]);
    let big = (1usize << 63) + 1;
    for _ in 0..50 {
        assert_eq!(p.challenge_index("big", big), v.challenge_index("big", big));
    }
}

#[test]
fn non_canonical_field_elements_are_rejected() {
    use flockwork_field_prime::{Bn254Fr, Goldilocks};
    // p_Goldilocks = 2^64 - 2^32 + 1; all-ones bytes encode 2^64 - 1 >= p.
    let mut v = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, &[0xff; 8]);
    assert_eq!(
        v.recv_field::<Goldilocks>("g", 1),
        Err(TranscriptError::NonCanonical { index: 0 })
    );
    // The second of two BN254 elements is 2^256 - 1.
    let mut bytes = vec![0u8; 32];
    bytes.extend_from_slice(&[0xff; 32]);
    let mut v = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, &bytes);
    assert_eq!(
        v.recv_field::<Bn254Fr>("b", 2),
        Err(TranscriptError::NonCanonical { index: 1 })
    );
}

#[test]
fn prime_field_values_round_trip_and_challenges_agree() {
    use flockwork_field_prime::{Bn254Fr, Goldilocks};
    let big: Vec<Bn254Fr> = (0..3u64).map(|i| -Bn254Fr::from_index(i + 1)).collect();
    let small: Vec<Goldilocks> = (0..3u64).map(|i| -Goldilocks::from_index(i + 7)).collect();
    let mut p = Sha256ProverTranscript::new(DOMAIN);
    p.send_field("big", &big);
    p.send_field("small", &small);
    let c1: Bn254Fr = p.challenge("c1");
    let c2: Vec<Goldilocks> = p.challenges("c2", 5);
    let proof = p.into_proof();
    assert_eq!(proof.len(), 3 * 32 + 3 * 8);
    let mut v = flockwork_transcript::Sha256VerifierTranscript::new(DOMAIN, &proof);
    assert_eq!(v.recv_field::<Bn254Fr>("big", 3).unwrap(), big);
    assert_eq!(v.recv_field::<Goldilocks>("small", 3).unwrap(), small);
    assert_eq!(v.challenge::<Bn254Fr>("c1"), c1);
    assert_eq!(v.challenges::<Goldilocks>("c2", 5), c2);
    v.finish().unwrap();
}

/// Both sides of the scripted protocol, started through the scheme `S`.
fn scheme_agreement<S: TranscriptScheme>() -> Vec<u8> {
    let mut p = S::prover("flockwork/test/v1", b"instance");
    p.send_bytes("a", b"xyz");
    let c: Ghash128 = p.challenge("c");
    p.hint_bytes(&[7; 3]);
    let proof = p.into_proof();
    let mut v = S::verifier("flockwork/test/v1", b"instance", &proof);
    assert_eq!(v.remaining(), 6);
    assert_eq!(v.recv_bytes("a", 3).unwrap(), b"xyz");
    assert_eq!(v.challenge::<Ghash128>("c"), c);
    assert_eq!(v.remaining(), 3);
    v.hint_bytes(3).unwrap();
    assert_eq!(v.remaining(), 0);
    v.finish().unwrap();
    proof
}

#[test]
fn hash_schemes_start_the_hash_transcripts_from_their_domain() {
    scheme_agreement::<Sha256>();
    scheme_agreement::<Blake3>();
    let mut by_scheme = Sha256::prover("flockwork/test/v1", b"instance");
    let mut direct = Sha256ProverTranscript::new(DOMAIN);
    assert_eq!(
        by_scheme.challenge::<Ghash128>("c"),
        direct.challenge::<Ghash128>("c")
    );
    let mut blake = Blake3::prover("flockwork/test/v1", b"instance");
    let mut direct = Blake3ProverTranscript::new(DOMAIN);
    assert_eq!(
        blake.challenge::<Ghash128>("c"),
        direct.challenge::<Ghash128>("c")
    );
}

#[test]
fn transcript_kind_names_round_trip() {
    for kind in TranscriptKind::ALL {
        assert_eq!(kind.name().parse::<TranscriptKind>().unwrap(), kind);
        assert_eq!(kind.to_string(), kind.name());
    }
    assert_eq!(TranscriptKind::Sha256.name(), Sha256::NAME);
    assert_eq!(TranscriptKind::Blake3.name(), Blake3::NAME);
    assert_eq!(
        "BLAKE3".parse::<TranscriptKind>().unwrap(),
        TranscriptKind::Blake3
    );
    assert!("keccak".parse::<TranscriptKind>().is_err());
    assert_eq!(TranscriptKind::default(), TranscriptKind::Sha256);
}
