//! A circuit compiled into Boolean layers (`flockwork_circuit::layers::CompiledLayers`)
//! proved by the Boolean GKR: SHA-256 compressions with the ripple-carry and the
//! Kogge–Stone adder, four instances, public IO. The statement's outputs are `sha2`'s
//! compressions, the proof verifies, and a flipped output bit is rejected.

use flockwork_boolean::{Sha256Compress, Sha256Input};
use flockwork_circuit::Adder;
use flockwork_circuit::layers::CompiledLayers;
use flockwork_core::relation::BooleanLayeredEncoding;
use flockwork_gkr::{BooleanGkr, Variant};
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
        let words = inputs
            .iter()
            .flat_map(|x| setup.relation().input_bits(x))
            .collect();
        let statement = setup.statement(words);
        for (input, out) in inputs.iter().zip(statement.outputs.chunks(4)) {
            let mut expected = input.state;
            sha2::block_api::compress256(&mut expected, core::slice::from_ref(&input.block));
            assert_eq!(setup.relation().output_of_bits(out), Some(expected));
        }
        let proof = setup.prove(Variant::Ragged, &statement).unwrap();
        assert_eq!(proof.len(), setup.proof_len(Variant::Ragged));
        setup.verify(Variant::Ragged, &statement, &proof).unwrap();
        let mut wrong = statement.clone();
        wrong.outputs[5] ^= 1 << 17;
        assert!(
            setup.verify(Variant::Ragged, &wrong, &proof).is_err(),
            "{adder:?}: a flipped output bit"
        );
    }
}
