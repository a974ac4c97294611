//! A circuit compiled into Boolean layers (`flockwork_circuit::layers::CompiledLayers`)
//! proved by the Boolean GKR, four instances, public IO: SHA-256 compressions with the
//! ripple-carry and the Kogge–Stone adder, their outputs `sha2`'s compressions, and BLAKE3
//! compressions, their outputs the native compression's. Each proof verifies, and a flipped
//! output bit is rejected.

use flockwork_boolean::native::blake3_compress;
use flockwork_boolean::{Blake3Block, Blake3Compress, Blake3Input, Sha256Compress, Sha256Input};
use flockwork_circuit::Adder;
use flockwork_circuit::layers::CompiledLayers;
use flockwork_core::relation::BooleanLayeredEncoding;
use flockwork_gkr::{BooleanGkr, BooleanStatement, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn compiled_sha256_proves_and_verifies() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6b72);
    for adder in [Adder::Ripple, Adder::KoggeStone] {
        let relation = CompiledLayers::new(Sha256Compress::with_adder(adder)).unwrap();
        let setup = BooleanGkr::<_>::new(relation, vec![2]);
        let inputs: Vec<Sha256Input> = (0..setup.count())
            .map(|_| Sha256Input {
                state: rng.random(),
                block: rng.random(),
            })
            .collect();
        let statement = statement_of(&setup, &inputs);
        for (input, out) in inputs.iter().zip(statement.outputs.chunks(4)) {
            let mut expected = input.state;
            sha2::block_api::compress256(&mut expected, core::slice::from_ref(&input.block));
            assert_eq!(setup.relation().output_of_bits(out), Some(expected));
        }
        proves_and_rejects_a_flipped_bit(&setup, &statement, 5, 17);
    }
}

/// BLAKE3's compression compiled into Boolean layers, four instances, public IO: the
/// statement's outputs are the native compression's (checked against the `blake3` crate in
/// `flockwork-boolean`), the proof verifies, and a flipped output bit is rejected.
#[test]
fn compiled_blake3_proves_and_verifies() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb1a3);
    let relation = CompiledLayers::new(Blake3Compress::default()).unwrap();
    let setup = BooleanGkr::<_>::new(relation, vec![2]);
    let inputs: Vec<Blake3Input> = (0..setup.count())
        .map(|i| Blake3Input {
            cv: rng.random(),
            block: Blake3Block {
                words: rng.random(),
                counter: i as u64,
                block_len: 64,
                flags: 0,
            },
        })
        .collect();
    let statement = statement_of(&setup, &inputs);
    for (input, out) in inputs.iter().zip(statement.outputs.chunks(8)) {
        let b = &input.block;
        let expected = blake3_compress(&input.cv, &b.words, b.counter, b.block_len, b.flags);
        assert_eq!(setup.relation().output_of_bits(out), Some(expected));
    }
    proves_and_rejects_a_flipped_bit(&setup, &statement, 9, 3);
}

/// The public statement of `inputs`: their input bits, the outputs evaluated.
fn statement_of<R: BooleanLayeredEncoding + Sync>(
    setup: &BooleanGkr<R>,
    inputs: &[R::Input],
) -> BooleanStatement {
    let words = inputs
        .iter()
        .flat_map(|x| setup.relation().input_bits(x))
        .collect();
    setup.statement(words)
}

/// The ragged proof of `statement` has the stated length and verifies; with bit `bit` of
/// output word `word` flipped it is rejected.
fn proves_and_rejects_a_flipped_bit<R: BooleanLayeredEncoding + Sync>(
    setup: &BooleanGkr<R>,
    statement: &BooleanStatement,
    word: usize,
    bit: u32,
) {
    let proof = setup.prove(Variant::Ragged, statement).unwrap();
    assert_eq!(proof.len(), setup.proof_len(Variant::Ragged));
    setup.verify(Variant::Ragged, statement, &proof).unwrap();
    let mut wrong = statement.clone();
    wrong.outputs[word] ^= 1 << bit;
    assert!(
        setup.verify(Variant::Ragged, &wrong, &proof).is_err(),
        "{}: a flipped output bit",
        setup.relation().name()
    );
}
