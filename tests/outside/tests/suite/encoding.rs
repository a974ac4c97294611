//! SHA-1's compression against RustCrypto's `sha1`, and its circuit against the native
//! function: FIPS 180-4's known answers and random inputs.

use flockwork_circuit::{CircuitEncoding, Gadget, SlotKind, check_circuit_encoding, evaluate};
use flockwork_core::Relation;
use flockwork_outside::{IV, Sha1Compress, Sha1Input, compress, pack};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha1::Digest;

fn random_inputs(count: usize, seed: u64) -> Vec<Sha1Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| Sha1Input {
            state: rng.random(),
            block: core::array::from_fn(|_| rng.random()),
        })
        .collect()
}

#[test]
fn the_native_compression_is_sha1s() {
    for input in random_inputs(200, 1) {
        let mut state = input.state;
        sha1::block_api::compress(&mut state, core::slice::from_ref(&input.block));
        assert_eq!(compress(&input.state, &input.block), state);
    }
    // The known answers are the digests of the one-block messages "" and "abc".
    let answers = Sha1Compress.known_answers();
    for ((_, digest), message) in answers.iter().zip([&b""[..], b"abc"]) {
        let bytes: Vec<u8> = digest.iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(bytes, sha1::Sha1::digest(message).to_vec());
    }
}

#[test]
fn the_circuit_computes_the_compression() {
    check_circuit_encoding(&Sha1Compress, &random_inputs(100, 2));
    // FIPS 180-4 "abc": the circuit on the padded block gives the published digest.
    let (abc, digest) = Sha1Compress.known_answers()[1];
    assert_eq!(abc.state, IV);
    assert_eq!(
        evaluate(&Sha1Compress, &Sha1Compress.encode_input(&abc)),
        pack(&[
            0xa999_3e36,
            0x4706_816a,
            0xba3e_2571,
            0x7850_c26c,
            0x9cd0_d89d
        ])
    );
    assert_eq!(Sha1Compress.evaluate(&abc), digest);
}

#[test]
fn the_automatic_layout_pads_the_160_bit_state() {
    let layout = Sha1Compress.layout();
    assert_eq!(layout.slot_bits(), 256);
    assert_eq!(
        layout.state(),
        Some((Sha1Compress::H_IN, Sha1Compress::H_OUT))
    );
    assert_eq!(layout.positions(Sha1Compress::H_OUT), 256..416);
    assert_eq!(layout.positions(Sha1Compress::BLOCK), 512..1024);
    assert_eq!(layout.vector_words(SlotKind::Input), 3 + 8);
    assert_eq!(layout.vector_words(SlotKind::Output), 3);
    let stats = Sha1Compress.stats();
    // 80 rounds of four additions and 20·32 ANDs of Ch or Maj per 20 rounds, then the
    // feed-forward: (80·4 + 5)·31 + 40·32.
    assert_eq!(stats.and_gates, 325 * 31 + 40 * 32);
    assert_eq!(stats.log_block, 14);
    // An output vector with a bit past the 160 bits is not an output.
    assert_eq!(Sha1Compress.decode_output(&[0, 0, 1 << 32]), None);
    assert_eq!(Sha1Compress.decode_output(&[0, 0]), None);
}

#[test]
fn merkle_nodes_put_each_child_at_the_start_of_a_slot_unit() {
    let left = [1, 2, 3, 4, 5];
    let right = [6, 7, 8, 9, 10];
    let node = Sha1Compress.merkle_node(&left, &right).unwrap();
    assert_eq!(node.state, IV);
    let words = Sha1Compress.encode_input(&node);
    // h_in (3 words), then the block: left (3 words) and a zero word, right, a zero word.
    assert_eq!(
        &words[3..],
        [pack(&left), vec![0], pack(&right), vec![0]].concat()
    );
}
