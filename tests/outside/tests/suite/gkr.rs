//! SHA-1's compression from its one circuit through the Boolean GKR: the gadget compiled into
//! Boolean layers (`flockwork_circuit::layers::CompiledLayers`, no hand-written layers) and
//! proved by the GKR engine's own batchers (`flockwork_gkr::BooleanBatcher`) on core's
//! `Statement`: public IO, and committed IO over FRI-Binius (ring-switched), with the ragged
//! strategy (the others walk the same layers: `flockwork-gkr`'s tests cover them). Every proof
//! verifies; an output changed in the first or the last instance, or another commitment, is
//! rejected. The compiled layers are many and each layer's proof carries its state (the
//! Boolean GKR's first form), so these proofs are tens of MB and take seconds.

use flockwork_circuit::layers::CompiledLayers;
use flockwork_core::Relation;
use flockwork_core::relation::{Batcher, Io, Statement};
use flockwork_gkr::{BooleanBatcher, Variant};
use flockwork_outside::{Sha1Compress, Sha1Input, compress};
use flockwork_pcs::{Commitment, PcsKind, Profile};
use flockwork_transcript::Sha256;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Compiled = CompiledLayers<Sha1Compress>;

fn inputs(n: usize, seed: u64) -> Vec<Sha1Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Sha1Input {
            state: rng.random(),
            block: rng.random(),
        })
        .collect()
}

#[test]
fn the_compiled_compression_proves_public_io() {
    let relation = Compiled::new(Sha1Compress).unwrap();
    let shape = relation.shape();
    assert!(shape.layers > 1 && shape.and_gates > 0, "{shape:?}");
    let inputs = inputs(2, 0x05a1);
    let statement = Statement::public(&relation, inputs.clone());
    let Io::Public { outputs, .. } = &statement.io else {
        unreachable!("a public statement")
    };
    for (x, y) in inputs.iter().zip(outputs) {
        assert_eq!(*y, compress(&x.state, &x.block));
        assert_eq!(*y, Sha1Compress.evaluate(x));
    }
    let b = BooleanBatcher::<_, Sha256, Commitment>::public(relation, 2, Variant::Ragged);
    let proof = b.prove(&inputs, &statement).unwrap();
    b.verify(&statement, &proof).unwrap();
    for i in [0, 1] {
        let mut wrong = statement.clone();
        let Io::Public { outputs, .. } = &mut wrong.io else {
            unreachable!("a public statement")
        };
        outputs[i][4] ^= 1;
        assert!(b.verify(&wrong, &proof).is_err(), "output {i}");
    }
}

#[test]
fn the_compiled_compression_proves_committed_io() {
    let relation = Compiled::new(Sha1Compress).unwrap();
    let b =
        BooleanBatcher::<_, Sha256, Commitment>::committed(relation, 2, Variant::Ragged, |vars| {
            Commitment::for_bits(PcsKind::Fri, vars, 100, &Profile::default())
        })
        .unwrap();
    assert!(b.soundness_bits() >= 100.0, "{}", b.soundness_bits());
    let (ours, theirs) = (inputs(2, 1), inputs(2, 2));
    let statement = Statement::committed(2, b.commit(&ours).unwrap());
    let proof = b.prove(&ours, &statement).unwrap();
    b.verify(&statement, &proof).unwrap();
    let other = Statement::committed(2, b.commit(&theirs).unwrap());
    assert!(b.verify(&other, &proof).is_err());
    assert!(b.prove(&theirs, &statement).is_err());
}
