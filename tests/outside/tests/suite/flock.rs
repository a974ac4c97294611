//! SHA-1 compressions proved by batch-R1CS (`flockwork-r1cs` directly): a hash chain through
//! the 160-bit state, public inputs and outputs, and a Merkle tree of 160-bit digests, each at
//! a count below the batch's capacity (13 of 16 blocks) and at capacity (16), over Ligerito,
//! FRI-Binius and Blaze. Every proof verifies; a flipped bit of the end state, of an output or
//! of the root is rejected, and so is a statement that sets a bit past the 160 bits.

use flockwork_circuit::{CircuitEncoding, batch_witness};
use flockwork_core::Relation;
use flockwork_outside::{IV, Sha1Compress, Sha1Input, compress, pack};
use flockwork_pcs::PcsKind;
use flockwork_r1cs::merkle::heap_tree;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The counts every test proves: below the capacity of 2^4 blocks, and at it.
const COUNTS: [usize; 2] = [13, 16];

fn setup(instances: usize, scheme: PcsKind) -> Flock<Sha1Compress> {
    let config = FlockConfig {
        scheme,
        ..FlockConfig::default()
    };
    Flock::for_count(Sha1Compress, instances, config).unwrap()
}

/// Proves `statement` from the instances' input vectors, checks that it verifies, and returns
/// the proof bytes.
fn prove(flock: &Flock<Sha1Compress>, inputs: &[u64], statement: &Statement) -> Vec<u8> {
    let (proof, _) = flock.prove(inputs, statement).unwrap();
    flock.verify(statement, proof.as_bytes()).unwrap();
    proof.into_bytes()
}

/// Verifies `proof` against `statement` after `edit`, expecting a rejection.
fn rejects(
    flock: &Flock<Sha1Compress>,
    statement: &Statement,
    proof: &[u8],
    edit: fn(&mut Statement),
) {
    let mut wrong = statement.clone();
    edit(&mut wrong);
    assert_ne!(&wrong, statement);
    assert!(flock.verify(&wrong, proof).is_err());
}

fn blocks(count: usize, seed: u64) -> Vec<[u8; 64]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| core::array::from_fn(|_| rng.random()))
        .collect()
}

#[test]
fn a_chain_through_the_160_bit_state() {
    for scheme in PcsKind::ALL {
        for n in COUNTS {
            let flock = setup(n, scheme)
                .chained(Sha1Compress::H_IN, Sha1Compress::H_OUT)
                .unwrap();
            assert_eq!(flock.chain().unwrap().state_words(), 3);
            let mut state = IV;
            let mut inputs = Vec::new();
            for block in blocks(n, n as u64) {
                inputs.extend(Sha1Compress.encode_input(&Sha1Input { state, block }));
                state = compress(&state, &block);
            }
            let statement = Statement::Chain {
                start: pack(&IV),
                end: pack(&state),
            };
            let witness = batch_witness(&Sha1Compress, &inputs, false);
            assert_eq!(flock.chain_statement(&witness), Some(statement.clone()));
            let proof = prove(&flock, &inputs, &statement);
            // A flipped bit of the end state, and a bit past its 160 bits.
            rejects(&flock, &statement, &proof, |s| {
                if let Statement::Chain { end, .. } = s {
                    end[2] ^= 1 << 31;
                }
            });
            let mut padded = statement.clone();
            if let Statement::Chain { end, .. } = &mut padded {
                end[2] ^= 1 << 32;
            }
            assert!(matches!(
                flock.verify(&padded, &proof),
                Err(FlockError::Statement(_))
            ));
        }
    }
}

#[test]
fn public_inputs_and_outputs() {
    for scheme in PcsKind::ALL {
        for n in COUNTS {
            let flock = setup(n, scheme).public_io().unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(100 + n as u64);
            let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
            for block in blocks(n, n as u64) {
                let input = Sha1Input {
                    state: rng.random(),
                    block,
                };
                inputs.extend(Sha1Compress.encode_input(&input));
                outputs.extend(Sha1Compress.encode_output(&Sha1Compress.evaluate(&input)));
            }
            let statement = Statement::Public { inputs, outputs };
            let Statement::Public { inputs, .. } = &statement else {
                unreachable!()
            };
            let witness = batch_witness(&Sha1Compress, inputs, false);
            assert_eq!(flock.public_statement(&witness), Some(statement.clone()));
            let proof = prove(&flock, inputs, &statement);
            rejects(&flock, &statement, &proof, |s| {
                if let Statement::Public { outputs, .. } = s {
                    let last = outputs.len() - 1;
                    outputs[last] ^= 1 << 7;
                }
            });
            rejects(&flock, &statement, &proof, |s| {
                if let Statement::Public { outputs, .. } = s {
                    outputs[4] ^= 1 << 40;
                }
            });
        }
    }
}

#[test]
fn a_merkle_tree_of_160_bit_digests() {
    for scheme in PcsKind::ALL {
        for n in COUNTS {
            let flock = setup(n, scheme)
                .merkle_tree(
                    Sha1Compress::BLOCK,
                    Sha1Compress::H_OUT,
                    vec![(Sha1Compress::H_IN, pack(&IV))],
                )
                .unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(200 + n as u64);
            let leaves: Vec<[u32; 5]> = (0..n).map(|_| rng.random()).collect();
            let node = |l: &[u32; 5], r: &[u32; 5]| Sha1Compress.merkle_node(l, r).unwrap();
            let (children, root) = heap_tree(&leaves, |l, r| Sha1Compress.evaluate(&node(l, r)));
            let inputs: Vec<u64> = children
                .iter()
                .flat_map(|(l, r)| Sha1Compress.encode_input(&node(l, r)))
                .collect();
            let statement = Statement::Merkle {
                root: pack(&root),
                leaves: leaves.iter().map(|l| pack(l)).collect(),
            };
            let proof = prove(&flock, &inputs, &statement);
            rejects(&flock, &statement, &proof, |s| {
                if let Statement::Merkle { root, .. } = s {
                    root[0] ^= 1;
                }
            });
            rejects(&flock, &statement, &proof, |s| {
                if let Statement::Merkle { leaves, .. } = s {
                    leaves[5][2] ^= 1 << 31;
                }
            });
        }
    }
}
