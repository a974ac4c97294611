//! Rejection tests: cheating witnesses, tampered proof bytes, truncation, trailing bytes,
//! wrong statements. None may panic, all must be rejected.

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::{Blake3Compress, Sha256Compress};
use flockwork_circuit::{
    BatchWitness, CircuitBuilder, Gadget, IoLayout, SlotId, SlotKind, batch_witness,
};
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Proof, Statement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_inputs<G: Gadget>(gadget: &G, instances: usize, seed: u64) -> Vec<u64> {
    let words = gadget.layout().vector_bits(SlotKind::Input) / 64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..instances * words).map(|_| rng.random()).collect()
}

fn honest<G: Gadget>(gadget: G, log_k: usize) -> (Flock<G>, BatchWitness, Proof) {
    let inputs = random_inputs(&gadget, 1 << log_k, 11);
    let witness = batch_witness(&gadget, &inputs, true);
    let flock = Flock::new(gadget, log_k, FlockConfig::default()).unwrap();
    let (proof, _) = flock.prove_witness(&witness, &Statement::Batch).unwrap();
    flock.verify(&Statement::Batch, proof.as_bytes()).unwrap();
    (flock, witness, proof)
}

/// Recomputes the A and B sides of every instance from `z` (so the witness is internally
/// consistent and only the R1CS rows can catch a bad bit).
fn recompute_sides<G: Gadget>(flock: &Flock<G>, w: &mut BatchWitness) {
    let lowering = flock.lowering();
    let words = w.block_words();
    let (mut a, mut b) = (vec![0u64; w.z.len()], vec![0u64; w.z.len()]);
    for k in 0..w.instances {
        let v: Vec<flockwork_field_binary::Aes8> = (0..words * 64)
            .map(|p| flockwork_field_binary::Aes8(u8::from(w.bit(k, p))))
            .collect();
        let (sa, sb) = lowering.mul(&v);
        for p in 0..words * 64 {
            a[k * words + p / 64] |= u64::from(sa[p].0 & 1) << (p % 64);
            b[k * words + p / 64] |= u64::from(sb[p].0 & 1) << (p % 64);
        }
    }
    w.sides = Some((a, b));
}

#[test]
fn flipped_witness_bits_are_rejected() {
    let (flock, witness, _) = honest(Blake3Compress, 3);
    let stats = *flock.lowering().stats();
    let words = witness.block_words();
    // An AND output, a materialized bit, an input bit and the constant wire, in several
    // instances; with the sides as the honest prover had them and recomputed from the bad z.
    let const_pos = flock.lowering().layout().const_position();
    for (instance, position) in [
        (0, const_pos + 5),
        (3, 1000),
        (7, 10),
        (5, const_pos),
        (2, stats.positions - 1),
    ] {
        for recompute in [false, true] {
            let mut w = witness.clone();
            w.z[instance * words + position / 64] ^= 1 << (position % 64);
            w.lanes = None; // the lane-order copy no longer matches z
            if recompute {
                recompute_sides(&flock, &mut w);
            }
            let (proof, _) = flock.prove_witness(&w, &Statement::Batch).unwrap();
            let err = flock
                .verify(&Statement::Batch, proof.as_bytes())
                .unwrap_err();
            assert!(
                matches!(
                    err,
                    FlockError::Zerocheck(_) | FlockError::Lincheck(_) | FlockError::Opening(_)
                ),
                "instance {instance} position {position}: {err}"
            );
        }
    }
}

#[test]
fn every_part_of_the_proof_is_bound() {
    let (flock, _, proof) = honest(Sha256Compress, 3);
    let bytes = proof.as_bytes();
    let mut offsets: Vec<usize> = (0..2600.min(bytes.len())).step_by(5).collect();
    offsets.extend((2600..bytes.len()).step_by(97));
    offsets.push(bytes.len() - 1);
    for &i in &offsets {
        let mut bad = bytes.to_vec();
        bad[i] ^= 1 << (i % 8);
        assert!(
            flock.verify(&Statement::Batch, &bad).is_err(),
            "flipping bit {} of byte {i} of {} was accepted",
            i % 8,
            bytes.len()
        );
    }
}

#[test]
fn truncated_and_extended_proofs_are_rejected() {
    let (flock, _, proof) = honest(Blake3Compress, 3);
    let bytes = proof.as_bytes();
    for len in (0..bytes.len())
        .step_by(331)
        .chain([1, 5, 6, 7, bytes.len() - 1])
    {
        assert!(
            flock.verify(&Statement::Batch, &bytes[..len]).is_err(),
            "length {len}"
        );
    }
    let mut long = bytes.to_vec();
    long.push(0);
    assert_eq!(
        flock.verify(&Statement::Batch, &long),
        Err(FlockError::TrailingBytes(1))
    );
    let mut magic = bytes.to_vec();
    magic[0] = b'X';
    assert_eq!(
        flock.verify(&Statement::Batch, &magic),
        Err(FlockError::BadMagic)
    );
    let mut version = bytes.to_vec();
    version[4] = 9;
    assert_eq!(
        flock.verify(&Statement::Batch, &version),
        Err(FlockError::Version(9))
    );
    // Earlier versions: refused by name, with the last commit that reads them.
    for (old, commit) in flockwork_r1cs::RETIRED_VERSIONS {
        let mut retired = bytes.to_vec();
        retired[4..6].copy_from_slice(&old.to_le_bytes());
        let err = flock.verify(&Statement::Batch, &retired).unwrap_err();
        assert_eq!(
            err,
            FlockError::Retired {
                version: old,
                commit
            }
        );
        let message = err.to_string();
        assert!(
            message.contains(&format!("proof version {old}")) && message.contains(commit),
            "{message}"
        );
    }
    assert!(
        flockwork_r1cs::RETIRED_VERSIONS
            .iter()
            .all(|&(v, _)| v < flockwork_r1cs::PROOF_VERSION)
    );
}

#[test]
fn proofs_do_not_transfer_between_setups() {
    let (_, _, proof) = honest(Blake3Compress, 3);
    // Another batch size, another preset, another commitment: refused by the setup digest.
    let other = Flock::new(Blake3Compress, 4, FlockConfig::default()).unwrap();
    assert_eq!(
        other.verify(&Statement::Batch, proof.as_bytes()),
        Err(FlockError::Setup)
    );
    let slim = FlockConfig {
        preset: flockwork_r1cs::Preset::Slim,
        ..FlockConfig::default()
    };
    let other = Flock::new(Blake3Compress, 3, slim).unwrap();
    assert_eq!(
        other.verify(&Statement::Batch, proof.as_bytes()),
        Err(FlockError::Setup)
    );
    let fri = FlockConfig {
        scheme: flockwork_pcs::PcsKind::Fri,
        ..FlockConfig::default()
    };
    let other = Flock::new(Blake3Compress, 3, fri).unwrap();
    assert_eq!(
        other.verify(&Statement::Batch, proof.as_bytes()),
        Err(FlockError::Setup)
    );
    let chain = Flock::with_chain(
        Blake3Compress,
        3,
        Blake3Compress::STATE_IN,
        Blake3Compress::STATE_OUT,
        FlockConfig::default(),
    )
    .unwrap();
    let statement = Statement::Chain {
        start: vec![0; 4],
        end: vec![0; 4],
    };
    assert!(chain.verify(&statement, proof.as_bytes()).is_err());
    assert!(matches!(
        chain.verify(&Statement::Batch, proof.as_bytes()),
        Err(FlockError::Statement(_))
    ));
}

#[test]
fn wrong_chain_endpoints_are_rejected() {
    let log_k = 3;
    let blocks: Vec<[u8; 64]> = (0..1u8 << log_k).map(|i| [i ^ 0x5a; 64]).collect();
    let chain = chain_witness(&Sha256Compress, [0x1234_5678; 8], &blocks, true);
    let flock = Flock::with_chain(
        Sha256Compress,
        log_k,
        Sha256Compress::STATE_IN,
        Sha256Compress::STATE_OUT,
        FlockConfig::default(),
    )
    .unwrap();
    let layout = flock.chain().unwrap().clone();
    let slot_words = 2 << layout.log_slot_words;
    let n = layout.state_words();
    let last = (chain.witness.instances - 1) * chain.witness.block_words();
    let z = &chain.witness.z;
    let start = z[layout.in_slot * slot_words..][..n].to_vec();
    let end = z[last + layout.out_slot * slot_words..][..n].to_vec();
    let statement = Statement::Chain {
        start: start.clone(),
        end: end.clone(),
    };
    let (proof, _) = flock.prove_witness(&chain.witness, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    for word in 0..n {
        for (s, e) in [(true, false), (false, true)] {
            let mut bad_start = start.clone();
            let mut bad_end = end.clone();
            if s {
                bad_start[word] ^= 1 << word;
            }
            if e {
                bad_end[word] ^= 1 << (63 - word);
            }
            let bad = Statement::Chain {
                start: bad_start,
                end: bad_end,
            };
            // Verifying the honest proof against the wrong endpoints, and a proof made for them.
            assert!(flock.verify(&bad, proof.as_bytes()).is_err());
            let (cheat, _) = flock.prove_witness(&chain.witness, &bad).unwrap();
            assert!(matches!(
                flock.verify(&bad, cheat.as_bytes()),
                Err(FlockError::Opening(_))
            ));
        }
    }
    // A broken link in the middle: instance 4 reads a state that instance 3 did not write.
    let mut inputs = chain.inputs.clone();
    let words = Sha256Compress.layout().vector_bits(SlotKind::Input) / 64;
    inputs[4 * words] ^= 1;
    let broken = batch_witness(&Sha256Compress, &inputs, true);
    let (cheat, _) = flock.prove_witness(&broken, &statement).unwrap();
    assert!(matches!(
        flock.verify(&statement, cheat.as_bytes()),
        Err(FlockError::Opening(_))
    ));
}

/// A gadget that never uses the constant wire: 8192 ANDs of neighbouring input bits. The
/// all-zero witness satisfies every row except the constant wire's `1·1 = 1` — which the
/// all-zero assignment `0·0 = 0` satisfies too. Only the lincheck's pin can reject it.
struct AndChain;

impl Gadget for AndChain {
    fn layout(&self) -> IoLayout {
        IoLayout::new(256).input("x", 0, 256)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let x = b.input(SlotId(0));
        let mut acc = x.clone();
        for round in 0..32 {
            acc = (0..256)
                .map(|i| b.and(acc[i], x[(i + round + 1) % 256]))
                .collect();
        }
    }
}

#[test]
fn the_constant_wire_is_pinned() {
    let (flock, witness, _) = honest(AndChain, 3);
    let mut zero = witness.clone();
    zero.z.iter_mut().for_each(|w| *w = 0);
    zero.sides = Some((vec![0; witness.z.len()], vec![0; witness.z.len()]));
    zero.lanes = None;
    assert!(
        flock
            .lowering()
            .first_violation(&zero.z, zero.instances)
            .is_none()
    );
    let (proof, _) = flock.prove_witness(&zero, &Statement::Batch).unwrap();
    assert!(matches!(
        flock.verify(&Statement::Batch, proof.as_bytes()),
        Err(FlockError::Lincheck(_))
    ));
}

/// A committed statement: the proof verifies against the commitment made of its own
/// instances ([`Flock::commit`]) and is refused with [`FlockError::Commitment`] against the
/// commitment of other instances or any other bytes.
#[test]
fn committed_proofs_bind_their_commitment() {
    let flock = Flock::new(Blake3Compress, 1, FlockConfig::default()).unwrap();
    let inputs = random_inputs(&Blake3Compress, 2, 5);
    let mut other = inputs.clone();
    other[0] ^= 1;
    let commitment = flock.commit(&inputs).unwrap();
    let theirs = flock.commit(&other).unwrap();
    assert_ne!(commitment, theirs);
    let (proof, _) = flock.prove(&inputs, &Statement::Batch).unwrap();
    flock
        .verify_committed(&commitment, proof.as_bytes())
        .unwrap();
    for wrong in [theirs, Vec::new(), commitment[1..].to_vec()] {
        assert!(matches!(
            flock.verify_committed(&wrong, proof.as_bytes()),
            Err(FlockError::Commitment)
        ));
    }
}
