//! Each gadget and each native baseline against its ecosystem reference.

use flockwork_boolean::constants::{
    BLAKE3_CHUNK_END, BLAKE3_CHUNK_START, BLAKE3_ROOT, KECCAK_RC, KECCAK_RHO, SHA256_IV, SHA256_K,
};
use flockwork_boolean::native::{blake3_compress, keccak_f1600, keccak_p1600, sha256_compress};
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::evaluate;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0xb001)
}

#[test]
fn constants_match_the_standards() {
    assert_eq!(SHA256_K[0], 0x428a_2f98);
    assert_eq!(SHA256_K[63], 0xc671_78f2);
    assert_eq!(SHA256_IV[0], 0x6a09_e667);
    assert_eq!(SHA256_IV[7], 0x5be0_cd19);
    assert_eq!(KECCAK_RC[0], 1);
    assert_eq!(KECCAK_RC[1], 0x8082);
    assert_eq!(KECCAK_RC[23], 0x8000_0000_8000_8008);
    assert_eq!(KECCAK_RHO[1], 1);
    assert_eq!(KECCAK_RHO[24], 14);
}

#[test]
fn native_sha256_matches_sha2() {
    let mut rng = rng();
    for _ in 0..200 {
        let mut state: [u32; 8] = rng.random();
        let block: [u8; 64] = rng.random();
        let mut expected = state;
        sha2::block_api::compress256(&mut expected, &[block]);
        sha256_compress(&mut state, &block);
        assert_eq!(state, expected);
    }
}

#[test]
fn sha256_gadget_matches_native() {
    let mut rng = rng();
    for _ in 0..4 {
        let state: [u32; 8] = rng.random();
        let block: [u8; 64] = rng.random();
        let mut expected = state;
        sha2::block_api::compress256(&mut expected, &[block]);
        let out = evaluate(
            &Sha256Compress,
            &Sha256Compress::encode_input(&state, &block),
        );
        assert_eq!(Sha256Compress::decode_output(&out), expected);
    }
}

#[test]
fn native_keccak_matches_keccak_crate() {
    let mut rng = rng();
    let backend = keccak::Keccak::new();
    for _ in 0..100 {
        let mut state: [u64; 25] = rng.random();
        let mut expected = state;
        backend.with_f1600(|f| f(&mut expected));
        keccak_f1600(&mut state);
        assert_eq!(state, expected);
    }
    let mut state: [u64; 25] = rng.random();
    let mut expected = state;
    backend.with_p1600::<3>(|f| f(&mut expected));
    keccak_p1600(&mut state, 3);
    assert_eq!(state, expected);
}

#[test]
fn keccak_gadget_matches_keccak_crate() {
    let mut rng = rng();
    for _ in 0..3 {
        let state: [u64; 25] = rng.random();
        let mut expected = state;
        keccak::Keccak::new().with_f1600(|f| f(&mut expected));
        assert_eq!(evaluate(&KeccakF1600::new(), &state), expected.to_vec());
    }
    let state: [u64; 25] = rng.random();
    let mut expected = state;
    keccak::Keccak::new().with_p1600::<2>(|f| f(&mut expected));
    assert_eq!(
        evaluate(&KeccakF1600::reduced(2), &state),
        expected.to_vec()
    );
}

/// BLAKE3 of at most 64 bytes: one compression of the zero-padded block with counter 0 and
/// flags `CHUNK_START | CHUNK_END | ROOT`; returns all 16 output words.
fn blake3_single_block(input: &[u8]) -> [u32; 16] {
    assert!(input.len() <= 64);
    let mut block = [0u8; 64];
    block[..input.len()].copy_from_slice(input);
    let flags = BLAKE3_CHUNK_START | BLAKE3_CHUNK_END | BLAKE3_ROOT;
    let words = Blake3Compress::block_words(&block);
    blake3_compress(&SHA256_IV, &words, 0, input.len() as u32, flags)
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn native_blake3_matches_blake3_hash_up_to_64_bytes() {
    let mut rng = rng();
    for len in 0..=64 {
        let input: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let out = blake3_single_block(&input);
        assert_eq!(
            le_bytes(&out[..8]),
            blake3::hash(&input).as_bytes().to_vec()
        );
        let mut xof = [0u8; 64];
        blake3::Hasher::new()
            .update(&input)
            .finalize_xof()
            .fill(&mut xof);
        assert_eq!(le_bytes(&out), xof.to_vec(), "extended output, len {len}");
    }
}

#[test]
fn native_blake3_matches_official_test_vectors() {
    let data = include_str!("../data/blake3_vectors.txt");
    let mut cases = 0;
    for line in data.lines() {
        let (len, hex) = line.split_once(' ').expect("len hex");
        let len: usize = len.parse().expect("length");
        let input: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let expected: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
            .collect();
        assert_eq!(le_bytes(&blake3_single_block(&input)), expected);
        cases += 1;
    }
    assert_eq!(cases, 2);
}

#[test]
fn blake3_gadget_matches_native() {
    let mut rng = rng();
    for _ in 0..4 {
        let cv: [u32; 8] = rng.random();
        let block: [u32; 16] = rng.random();
        let (counter, len, flags): (u64, u32, u32) = (rng.random(), rng.random(), rng.random());
        let expected = blake3_compress(&cv, &block, counter, len, flags);
        let input = Blake3Compress::encode_input(&cv, &block, counter, len, flags);
        let out = evaluate(&Blake3Compress, &input);
        assert_eq!(Blake3Compress::decode_output(&out), expected);
    }
    // and through the public hash: a 64-byte message via the gadget
    let msg: [u8; 64] = rng.random();
    let flags = BLAKE3_CHUNK_START | BLAKE3_CHUNK_END | BLAKE3_ROOT;
    let input =
        Blake3Compress::encode_input(&SHA256_IV, &Blake3Compress::block_words(&msg), 0, 64, flags);
    let out = Blake3Compress::decode_output(&evaluate(&Blake3Compress, &input));
    assert_eq!(le_bytes(&out[..8]), blake3::hash(&msg).as_bytes().to_vec());
}
