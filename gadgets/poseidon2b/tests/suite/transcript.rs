//! The Poseidon2b duplex-sponge transcript: the generic transcript behaviour (run side by
//! side with the SHA-256 hash transcript it mirrors), the byte layout against a hand-run
//! sponge, pinned outputs, and grinding.

use flockwork_field::Field;
use flockwork_field_binary::Ghash256;
use flockwork_poseidon2b::transcript::{
    CAPACITY_IV, Poseidon2bProverTranscript, Poseidon2bVerifierTranscript, RATE_BYTES,
};
use flockwork_poseidon2b::{Ghash128, Poseidon2bSponge, official_t4};
use flockwork_transcript::{
    MAX_GRIND_BITS, ProverTranscript, Sha256, Transcript, TranscriptError, TranscriptKind,
    TranscriptScheme, VerifierTranscript,
};

const PROTOCOL: &str = "flockwork/test/v1";

fn g128(v: u128) -> Ghash128 {
    Ghash128::new(v)
}

/// Sends of every length around the block size, fields, hints, grinding and challenges of
/// every shape; the verifier reads it all back and derives the same challenges.
fn prover_and_verifier_agree<S: TranscriptScheme>() {
    let lengths = [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200];
    let data: Vec<Vec<u8>> = lengths
        .iter()
        .map(|&n| (0..n).map(|i| (i * 7 + n) as u8).collect())
        .collect();
    let fields128: Vec<Ghash128> = (0..5u128).map(|i| g128(i * 0x1234_5678_9abc)).collect();
    let fields256: Vec<Ghash256> = (0..3)
        .map(|i| Ghash256::from_uniform_bytes(&[i as u8 + 1; 32]))
        .collect();

    let mut p = S::prover(PROTOCOL, b"agree");
    let mut seen = Vec::new();
    let mut expected_proof = Vec::new();
    p.public_bytes("public", b"statement");
    for (k, d) in data.iter().enumerate() {
        p.send_bytes("msg", d);
        expected_proof.extend_from_slice(d);
        let mut out = vec![0u8; lengths[k]];
        p.challenge_bytes("bytes", &mut out);
        seen.push(out);
    }
    p.send_field("f128", &fields128);
    p.send_field("f256", &fields256);
    let c1: Ghash128 = p.challenge("c128");
    let c2: Ghash256 = p.challenge("c256");
    let cs: Vec<Ghash256> = p.challenges("many", 5);
    p.hint_bytes(b"advice");
    p.grind("pow", 5).unwrap();
    let nonce_at = expected_proof.len() + 16 * 5 + 32 * 3 + 6;
    let idx = p.challenge_index("index", 1000);
    p.public_field("pubf", &fields128);
    let last: Ghash256 = p.challenge("last");
    let proof = p.into_proof();
    assert_eq!(&proof[..expected_proof.len()], &expected_proof[..]);
    assert_eq!(proof.len(), nonce_at + 8);

    let mut v = S::verifier(PROTOCOL, b"agree", &proof);
    v.public_bytes("public", b"statement");
    for (k, d) in data.iter().enumerate() {
        assert_eq!(v.recv_bytes("msg", d.len()).unwrap(), &d[..]);
        let mut out = vec![0u8; lengths[k]];
        v.challenge_bytes("bytes", &mut out);
        assert_eq!(out, seen[k]);
    }
    assert_eq!(v.recv_field::<Ghash128>("f128", 5).unwrap(), fields128);
    assert_eq!(v.recv_field::<Ghash256>("f256", 3).unwrap(), fields256);
    assert_eq!(v.challenge::<Ghash128>("c128"), c1);
    assert_eq!(v.challenge::<Ghash256>("c256"), c2);
    assert_eq!(v.challenges::<Ghash256>("many", 5), cs);
    assert_eq!(v.hint_bytes(6).unwrap(), b"advice");
    v.check_grind("pow", 5).unwrap();
    assert_eq!(v.challenge_index("index", 1000), idx);
    v.public_field("pubf", &fields128);
    assert_eq!(v.challenge::<Ghash256>("last"), last);
    v.finish().unwrap();

    // Challenges are not constant.
    assert_ne!(c2, last);
    assert!(cs.windows(2).all(|w| w[0] != w[1]));
}

#[test]
fn sponge_prover_and_verifier_agree() {
    prover_and_verifier_agree::<Poseidon2bSponge>();
}

#[test]
fn sha256_reference_agrees_under_the_same_test() {
    prover_and_verifier_agree::<Sha256>();
}

/// The first 32-byte challenge after a few operations.
fn first_challenge<S: TranscriptScheme>(
    protocol: &'static str,
    instance: &[u8],
    ops: &[(u8, &str, &[u8])],
    label: &str,
) -> [u8; 32] {
    let mut p = S::prover(protocol, instance);
    for &(kind, l, d) in ops {
        match kind {
            0 => p.public_bytes(l, d),
            1 => p.send_bytes(l, d),
            _ => p.hint_bytes(d),
        }
    }
    let mut out = [0u8; 32];
    p.challenge_bytes(label, &mut out);
    out
}

fn separation<S: TranscriptScheme>() {
    let base = first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz")], "c");
    let variants = [
        first_challenge::<S>("flockwork/test/v2", b"i", &[(1, "a", b"xyz")], "c"),
        first_challenge::<S>(PROTOCOL, b"j", &[(1, "a", b"xyz")], "c"),
        first_challenge::<S>(PROTOCOL, b"", &[(1, "a", b"xyz")], "c"),
        // The protocol / instance boundary is length-prefixed.
        first_challenge::<S>("flockwork/test/v", b"1i", &[(1, "a", b"xyz")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "b", b"xyz")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyw")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xy")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz\0")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz")], "d"),
        // Public data is not sent data.
        first_challenge::<S>(PROTOCOL, b"i", &[(0, "a", b"xyz")], "c"),
        // Label and data boundaries.
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "ax", b"yz")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"x"), (1, "a", b"yz")], "c"),
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz"), (1, "a", b"")], "c"),
        // Hints are not absorbed.
    ];
    for (k, v) in variants.iter().enumerate() {
        assert_ne!(&base, v, "variant {k} collides");
    }
    let hinted = first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz"), (2, "", b"h")], "c");
    assert_eq!(base, hinted, "hints are not absorbed");
    assert_eq!(
        base,
        first_challenge::<S>(PROTOCOL, b"i", &[(1, "a", b"xyz")], "c")
    );

    // The request length is absorbed: a shorter request is not a prefix of a longer one,
    // and two requests in a row differ.
    let mut p = S::prover(PROTOCOL, b"i");
    let mut long = [0u8; 64];
    p.challenge_bytes("c", &mut long);
    let mut again = [0u8; 64];
    p.challenge_bytes("c", &mut again);
    assert_ne!(long, again);
    let mut q = S::prover(PROTOCOL, b"i");
    let mut short = [0u8; 32];
    q.challenge_bytes("c", &mut short);
    assert_ne!(short[..], long[..32]);
}

#[test]
fn sponge_separates_labels_data_and_domains() {
    separation::<Poseidon2bSponge>();
}

#[test]
fn sha256_reference_separates_the_same_way() {
    separation::<Sha256>();
}

fn malformed_proofs<S: TranscriptScheme>() {
    let mut p = S::prover(PROTOCOL, b"m");
    p.send_bytes("a", &[1, 2, 3, 4]);
    let _: Ghash256 = p.challenge("c");
    p.hint_bytes(&[9; 5]);
    let proof = p.into_proof();

    // Reading more than present.
    let mut v = S::verifier(PROTOCOL, b"m", &proof);
    assert_eq!(
        v.recv_bytes("a", 10).unwrap_err(),
        TranscriptError::Truncated {
            expected: 10,
            remaining: 9
        }
    );
    let mut v = S::verifier(PROTOCOL, b"m", &proof);
    v.recv_bytes("a", 4).unwrap();
    let _: Ghash256 = v.challenge("c");
    assert!(matches!(
        v.hint_bytes(6),
        Err(TranscriptError::Truncated { .. })
    ));
    let mut v = S::verifier(PROTOCOL, b"m", &proof);
    assert!(matches!(
        v.recv_field::<Ghash256>("a", 1),
        Err(TranscriptError::Truncated { .. })
    ));
    let mut v = S::verifier(PROTOCOL, b"m", &proof);
    assert!(matches!(
        v.recv_field::<Ghash256>("a", usize::MAX),
        Err(TranscriptError::Truncated { .. })
    ));

    // Trailing bytes.
    let mut v = S::verifier(PROTOCOL, b"m", &proof);
    assert_eq!(v.remaining(), 9);
    v.recv_bytes("a", 4).unwrap();
    let _: Ghash256 = v.challenge("c");
    v.hint_bytes(4).unwrap();
    assert_eq!(v.remaining(), 1);
    assert_eq!(
        v.finish().unwrap_err(),
        TranscriptError::TrailingBytes { remaining: 1 }
    );
    let mut longer = proof.clone();
    longer.push(0);
    let mut v = S::verifier(PROTOCOL, b"m", &longer);
    v.recv_bytes("a", 4).unwrap();
    let _: Ghash256 = v.challenge("c");
    v.hint_bytes(5).unwrap();
    assert!(matches!(
        v.finish(),
        Err(TranscriptError::TrailingBytes { remaining: 1 })
    ));

    // A changed sent byte changes the verifier's challenge.
    let mut p = S::prover(PROTOCOL, b"m");
    p.send_bytes("a", &[1, 2, 3, 4]);
    let c: Ghash256 = p.challenge("c");
    let mut bad = proof.clone();
    bad[2] ^= 1;
    let mut v = S::verifier(PROTOCOL, b"m", &bad);
    v.recv_bytes("a", 4).unwrap();
    assert_ne!(v.challenge::<Ghash256>("c"), c);
}

#[test]
fn sponge_rejects_truncated_and_trailing_proofs() {
    malformed_proofs::<Poseidon2bSponge>();
}

#[test]
fn sha256_reference_rejects_the_same_proofs() {
    malformed_proofs::<Sha256>();
}

fn grinding<S: TranscriptScheme>() {
    for bits in [1u32, 4, 8, 10] {
        let mut p = S::prover(PROTOCOL, b"g");
        p.send_bytes("a", b"before");
        p.grind("pow", bits).unwrap();
        let after: Ghash256 = p.challenge("after");
        let proof = p.into_proof();
        assert_eq!(proof.len(), 6 + 8);
        let nonce = u64::from_le_bytes(proof[6..].try_into().unwrap());

        let verify = |proof: &[u8], bits: u32| -> Result<Ghash256, TranscriptError> {
            let mut v = S::verifier(PROTOCOL, b"g", proof);
            v.recv_bytes("a", 6)?;
            v.check_grind("pow", bits)?;
            let c = v.challenge("after");
            v.finish()?;
            Ok(c)
        };
        assert_eq!(verify(&proof, bits).unwrap(), after);
        // The nonce is the smallest: every smaller one is rejected.
        for wrong in (0..nonce).rev().take(300) {
            let mut bad = proof.clone();
            bad[6..].copy_from_slice(&wrong.to_le_bytes());
            assert_eq!(
                verify(&bad, bits).unwrap_err(),
                TranscriptError::GrindingFailed { bits },
                "{bits} bits, nonce {wrong} < {nonce}"
            );
        }
        // A missing nonce is a truncated proof.
        assert!(matches!(
            verify(&proof[..10], bits),
            Err(TranscriptError::Truncated { .. })
        ));
    }

    // 0 bits: nothing written or checked; more than MAX_GRIND_BITS: an error on both sides.
    let mut p = S::prover(PROTOCOL, b"g");
    p.grind("pow", 0).unwrap();
    assert_eq!(
        p.grind("pow", MAX_GRIND_BITS + 1).unwrap_err(),
        TranscriptError::TooManyBits {
            bits: MAX_GRIND_BITS + 1,
            max: MAX_GRIND_BITS
        }
    );
    assert!(p.into_proof().is_empty());
    let mut v = S::verifier(PROTOCOL, b"g", &[0; 8]);
    v.check_grind("pow", 0).unwrap();
    assert!(matches!(
        v.check_grind("pow", 33),
        Err(TranscriptError::TooManyBits { .. })
    ));
}

#[test]
fn sponge_grinding_round_trips_and_rejects_wrong_nonces() {
    grinding::<Poseidon2bSponge>();
}

#[test]
fn sha256_reference_grinding() {
    grinding::<Sha256>();
}

/// The documented layout, run by hand with the permutation: `lp("p") ‖ lp("") ‖ 3 ‖ lp("c")
/// ‖ lp(u64le(40))` is 43 bytes: one full block, then 11 bytes + `01` + zeros; the output
/// is the rate, then the rate after one more permutation (8 bytes of it).
#[test]
fn sponge_matches_a_hand_run_duplex() {
    let mut stream = Vec::new();
    stream.extend_from_slice(&1u64.to_le_bytes());
    stream.extend_from_slice(b"p");
    stream.extend_from_slice(&0u64.to_le_bytes());
    stream.push(3);
    stream.extend_from_slice(&1u64.to_le_bytes());
    stream.extend_from_slice(b"c");
    stream.extend_from_slice(&8u64.to_le_bytes());
    stream.extend_from_slice(&40u64.to_le_bytes());
    assert_eq!(stream.len(), 43);
    stream.push(0x01);
    stream.resize(64, 0);

    let perm = official_t4();
    let word = |b: &[u8]| u128::from_le_bytes(b.try_into().unwrap());
    let mut s = [g128(0), g128(0), g128(CAPACITY_IV[0]), g128(CAPACITY_IV[1])];
    for block in stream.chunks_exact(RATE_BYTES) {
        s[0] += g128(word(&block[..16]));
        s[1] += g128(word(&block[16..]));
        perm.permute(&mut s);
    }
    let mut expected = Vec::new();
    for k in 0..2 {
        if k > 0 {
            perm.permute(&mut s);
        }
        expected.extend_from_slice(&s[0].to_bits().to_le_bytes());
        expected.extend_from_slice(&s[1].to_bits().to_le_bytes());
    }
    expected.truncate(40);

    let mut p = Poseidon2bProverTranscript::new("p", b"");
    let mut out = [0u8; 40];
    p.challenge_bytes("c", &mut out);
    assert_eq!(out[..], expected[..]);
    assert_eq!(p.permutations(), 3);
    assert!(format!("{p:?}").len() < 1000, "Debug stays short");

    // A record ending exactly on a block boundary is sealed with a whole padding block:
    // `lp("p") ‖ lp("")` (17 bytes) + `3 ‖ lp("") ‖ lp(u64le(0))` (25 bytes) = 42; add a
    // public record to reach 64 and check 2 + 1 permutations.
    let mut q = Poseidon2bProverTranscript::new("p", b"");
    q.public_bytes("", &[7; 5]); // 1 + 8 + 8 + 5 = 22 bytes: 17 + 22 = 39
    q.challenge_bytes("", &mut []); // 39 + 25 = 64: two full blocks, then `01 00 …`
    assert_eq!(q.permutations(), 3);
}

/// Pinned outputs (computed once with this implementation): any change to the construction
/// shows up here.
#[test]
fn sponge_outputs_are_pinned() {
    let mut p = Poseidon2bProverTranscript::new("flockwork/test/v1", b"pinned");
    p.send_bytes("msg", b"hello, transcript");
    let mut first = [0u8; 32];
    p.challenge_bytes("first", &mut first);
    let c: Ghash256 = p.challenge("field");
    let mut c_bytes = [0u8; 32];
    c.write_bytes(&mut c_bytes);
    p.grind("pow", 8).unwrap();
    let proof = p.into_proof();
    assert_eq!(hex(&first), PINNED_FIRST);
    assert_eq!(hex(&c_bytes), PINNED_FIELD);
    assert_eq!(hex(&proof[17..]), PINNED_NONCE);
}

const PINNED_FIRST: &str = "992b6f8e83651abd5cee8b8a9de1c7ed82d585d0521a2355dc6f90b274db06be";
const PINNED_FIELD: &str = "3a3fa09d59a73cbf18f9c48e94bd9bbab9eeef7f7e11457d5712b1c06810c20f";
/// The smallest 8-bit nonce, 296, as `u64le`.
const PINNED_NONCE: &str = "2801000000000000";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn sponge_differs_from_the_hash_transcript() {
    let ops: &[(u8, &str, &[u8])] = &[(1, "a", b"xyz")];
    assert_ne!(
        first_challenge::<Poseidon2bSponge>(PROTOCOL, b"i", ops, "c"),
        first_challenge::<Sha256>(PROTOCOL, b"i", ops, "c")
    );
}

#[test]
fn sponge_scheme_is_the_named_sponge_transcript() {
    assert_eq!(Poseidon2bSponge::NAME, TranscriptKind::Poseidon2b.name());
    assert_eq!(
        Poseidon2bSponge::NAME.parse::<TranscriptKind>().unwrap(),
        TranscriptKind::Poseidon2b
    );
    let mut by_scheme = Poseidon2bSponge::prover(PROTOCOL, b"s");
    let mut direct = Poseidon2bProverTranscript::new(PROTOCOL, b"s");
    by_scheme.send_bytes("a", b"xyz");
    direct.send_bytes("a", b"xyz");
    let c: Ghash256 = by_scheme.challenge("c");
    assert_eq!(direct.challenge::<Ghash256>("c"), c);
    let proof = by_scheme.into_proof();
    assert_eq!(proof, direct.into_proof());
    let mut v = Poseidon2bVerifierTranscript::new(PROTOCOL, b"s", &proof);
    v.recv_bytes("a", 3).unwrap();
    assert_eq!(v.challenge::<Ghash256>("c"), c);
    v.finish().unwrap();
}
