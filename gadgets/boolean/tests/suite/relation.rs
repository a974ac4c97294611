//! Each hash as a [`Relation`]: its known answers agree with the ecosystem's crates (`sha2`,
//! `blake3`, `keccak`), its native evaluation with them on random inputs, and its circuit
//! encoding with its native evaluation ([`check_circuit_encoding`]).

use flockwork_boolean::{
    Blake3Block, Blake3Compress, Blake3Input, KeccakF1600, Sha256Compress, Sha256Input,
};
use flockwork_circuit::{CircuitEncoding, check_circuit_encoding};
use flockwork_core::relation::Relation;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::Digest;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x5e1a)
}

/// `n` random SHA-256 inputs (the same `n` every call).
pub(crate) fn sha256_inputs(n: usize) -> Vec<Sha256Input> {
    let mut rng = rng();
    (0..n)
        .map(|_| Sha256Input {
            state: rng.random(),
            block: rng.random(),
        })
        .collect()
}

/// `n` random BLAKE3 inputs (the same `n` every call).
pub(crate) fn blake3_inputs(n: usize) -> Vec<Blake3Input> {
    let mut rng = rng();
    (0..n)
        .map(|_| Blake3Input {
            cv: rng.random(),
            block: Blake3Block {
                words: rng.random(),
                counter: rng.random(),
                block_len: rng.random_range(0..=64),
                flags: rng.random_range(0..16),
            },
        })
        .collect()
}

#[test]
fn sha256_relation_agrees_with_sha2() {
    let r = Sha256Compress;
    assert_eq!(r.name(), "sha256-compress");
    let answers = r.known_answers();
    assert_eq!(answers.len(), 2);
    for (message, (input, output)) in [&b""[..], b"abc"].into_iter().zip(&answers) {
        let digest: [u8; 32] = sha2::Sha256::digest(message).into();
        let words: Vec<u32> = digest
            .chunks(4)
            .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(&words[..], &output[..], "SHA-256({message:?})");
        assert_eq!(r.evaluate(input), *output);
    }
    for input in sha256_inputs(50) {
        let mut expected = input.state;
        flockwork_boolean::native::sha256_compress(&mut expected, &input.block);
        assert_eq!(r.evaluate(&input), expected);
    }
    check_circuit_encoding(&r, &sha256_inputs(3));
}

#[test]
fn blake3_relation_agrees_with_blake3() {
    let r = Blake3Compress;
    let [(input, output)] = r.known_answers().try_into().unwrap();
    let mut xof = [0u8; 64];
    blake3::Hasher::new().finalize_xof().fill(&mut xof);
    let words: Vec<u32> = xof
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(&words[..], &output[..]);
    assert_eq!(r.evaluate(&input), output);
    check_circuit_encoding(&r, &blake3_inputs(3));
}

#[test]
fn keccak_relation_agrees_with_keccak() {
    let r = KeccakF1600::new();
    assert_eq!(r.name(), "keccak-f[1600]");
    let [(input, output)] = r.known_answers().try_into().unwrap();
    let mut expected = input;
    keccak::Keccak::new().with_f1600(|f| f(&mut expected));
    assert_eq!(expected, output);
    let mut rng = rng();
    let states: Vec<[u64; 25]> = (0..2).map(|_| rng.random()).collect();
    check_circuit_encoding(&r, &states);

    let reduced = KeccakF1600::reduced(2);
    assert_eq!(reduced.name(), "keccak-p[1600,2]");
    assert!(reduced.known_answers().is_empty());
    let mut expected = states[0];
    keccak::Keccak::new().with_p1600::<2>(|f| f(&mut expected));
    assert_eq!(reduced.evaluate(&states[0]), expected);
    check_circuit_encoding(&reduced, &states);
}

/// Output vectors of the wrong length are not outputs.
#[test]
fn decoding_refuses_vectors_of_the_wrong_length() {
    assert_eq!(Sha256Compress.decode_output(&[0; 3]), None);
    assert_eq!(Blake3Compress.decode_output(&[0; 9]), None);
    assert_eq!(KeccakF1600::new().decode_output(&[0; 24]), None);
}

/// The encoding check fails on an encoding that disagrees with its relation.
#[test]
#[should_panic(expected = "disagrees with the native evaluation")]
fn a_wrong_encoding_is_caught() {
    /// Keccak-p with two rounds in the circuit but one in the native evaluation.
    struct Wrong(KeccakF1600);
    impl flockwork_circuit::Gadget for Wrong {
        fn layout(&self) -> flockwork_circuit::IoLayout {
            self.0.layout()
        }
        fn synthesize<B: flockwork_circuit::CircuitBuilder>(&self, b: &mut B) {
            self.0.synthesize(b);
        }
    }
    impl Relation for Wrong {
        type Input = [u64; 25];
        type Output = [u64; 25];
        type State = ();
        fn name(&self) -> String {
            "wrong".into()
        }
        fn evaluate(&self, input: &[u64; 25]) -> [u64; 25] {
            KeccakF1600::reduced(1).evaluate(input)
        }
        fn known_answers(&self) -> Vec<([u64; 25], [u64; 25])> {
            Vec::new()
        }
    }
    impl CircuitEncoding for Wrong {
        fn encode_input(&self, input: &[u64; 25]) -> Vec<u64> {
            CircuitEncoding::encode_input(&self.0, input)
        }
        fn encode_output(&self, output: &[u64; 25]) -> Vec<u64> {
            self.0.encode_output(output)
        }
        fn decode_output(&self, words: &[u64]) -> Option<[u64; 25]> {
            CircuitEncoding::decode_output(&self.0, words)
        }
    }
    check_circuit_encoding(&Wrong(KeccakF1600::reduced(2)), &[[7; 25]]);
}
