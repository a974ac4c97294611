//! Every backend available on this CPU against `sha2::Sha256`, over prefix and message
//! lengths around every padding boundary, message counts around every group size, and
//! multi-block messages; plus known answers and the panics the API promises.

use flockwork_sha256x::{Backend, sha256_prefixed_many, sha256_prefixed_many_with};
use itertools::iproduct;
use proptest::prelude::*;
use sha2::{Digest, Sha256};

/// `SHA-256(prefix ‖ msg)` by the reference crate.
fn reference(prefix: &[u8], msg: &[u8]) -> [u8; 32] {
    Sha256::new()
        .chain_update(prefix)
        .chain_update(msg)
        .finalize()
        .into()
}

fn backends() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect()
}

/// `n` pseudo-random bytes (splitmix64), different for every `seed`.
fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ n as u64;
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..n).map(|_| next() as u8).collect()
}

/// Hashes `count` distinct messages of `len` bytes after `prefix` with `backend` and
/// compares every digest with `sha2`.
fn check(backend: Backend, prefix: &[u8], len: usize, count: usize, seed: u64) {
    let data = bytes(len * count, seed);
    let messages: Vec<&[u8]> = if len == 0 {
        vec![&[]; count]
    } else {
        data.chunks_exact(len).collect()
    };
    let mut out = vec![[0u8; 32]; count];
    sha256_prefixed_many_with(backend, prefix, &messages, &mut out);
    for (i, (msg, got)) in messages.iter().zip(&out).enumerate() {
        assert_eq!(
            *got,
            reference(prefix, msg),
            "{backend:?}: prefix {} bytes, message {i} of {count}, {len} bytes",
            prefix.len()
        );
    }
}

#[test]
fn all_prefix_and_message_lengths() {
    let prefix = bytes(130, 7);
    for (backend, prefix_len, len) in iproduct!(backends(), 0..=130, 0..=300) {
        // 17 = one full AVX-512 group (two AVX2 groups) and a lone message.
        check(backend, &prefix[..prefix_len], len, 17, len as u64);
    }
}

#[test]
fn every_message_count_around_group_sizes() {
    let prefix = bytes(130, 8);
    let shapes = [(0, 0), (1, 64), (59, 8), (1, 1024), (64, 55), (130, 56)];
    for (backend, count, (prefix_len, len)) in iproduct!(backends(), 0..=40, shapes) {
        check(backend, &prefix[..prefix_len], len, count, count as u64);
    }
}

#[test]
fn long_multi_block_messages() {
    let prefix = bytes(200, 9);
    let lens = [1023, 1024, 1025, 4096 + 3];
    let prefix_lens = [0, 1, 59, 64, 65, 128, 200];
    for (backend, len, prefix_len, count) in
        iproduct!(backends(), lens, prefix_lens, [1, 15, 16, 17, 40])
    {
        check(backend, &prefix[..prefix_len], len, count, len as u64);
    }
}

#[test]
fn known_answers() {
    // FIPS 180-4 example (SHA-256 of "abc") and the empty string.
    let abc: [u8; 32] = [
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22,
        0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00,
        0x15, 0xad,
    ];
    let empty: [u8; 32] = [
        0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9,
        0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52,
        0xb8, 0x55,
    ];
    for backend in backends() {
        for (prefix, msg) in [(&b""[..], &b"abc"[..]), (b"a", b"bc"), (b"abc", b"")] {
            // 16 copies: one full group for every SIMD backend.
            let messages = [msg; 16];
            let mut out = [[0u8; 32]; 16];
            sha256_prefixed_many_with(backend, prefix, &messages, &mut out);
            assert_eq!(out, [abc; 16], "{backend:?}");
        }
        let mut out = [[0u8; 32]; 16];
        sha256_prefixed_many_with(backend, b"", &[&b""[..]; 16], &mut out);
        assert_eq!(out, [empty; 16], "{backend:?}");
    }
}

#[test]
fn detected_backend_is_the_default() {
    let backend = Backend::detect();
    assert!(backend.is_available());
    let data = bytes(64 * 40, 10);
    let messages: Vec<&[u8]> = data.chunks_exact(64).collect();
    let (mut ours, mut theirs) = (vec![[0u8; 32]; 40], vec![[0u8; 32]; 40]);
    sha256_prefixed_many(&[1], &messages, &mut ours);
    sha256_prefixed_many_with(backend, &[1], &messages, &mut theirs);
    assert_eq!(ours, theirs);
}

#[test]
#[should_panic(expected = "all messages must have the same length")]
fn mismatched_message_lengths_panic() {
    let mut out = [[0u8; 32]; 2];
    sha256_prefixed_many(b"", &[&b"abc"[..], b"abcd"], &mut out);
}

#[test]
#[should_panic(expected = "one output per message")]
fn wrong_output_length_panics() {
    let mut out = [[0u8; 32]; 1];
    sha256_prefixed_many(b"", &[&b"abc"[..], b"abd"], &mut out);
}

proptest! {
    #[test]
    fn random_inputs_match_sha2(
        prefix in prop::collection::vec(any::<u8>(), 0..=130),
        len in 0usize..=300,
        count in prop::sample::select(vec![0usize, 1, 15, 16, 17, 40]),
        seed in any::<u64>(),
    ) {
        for backend in backends() {
            check(backend, &prefix, len, count, seed);
        }
    }
}

#[test]
fn sha256_is_recognised_and_other_digests_are_not() {
    assert!(flockwork_sha256x::is_sha256::<Sha256>());
    assert!(!flockwork_sha256x::is_sha256::<sha2::Sha224>());
    assert!(!flockwork_sha256x::is_sha256::<sha2::Sha512_256>());
}
