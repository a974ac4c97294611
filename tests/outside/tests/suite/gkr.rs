//! SHA-1's compression from its one circuit through the Boolean GKR: the gadget compiled into
//! Boolean layers (`flockwork_circuit::layers::CompiledLayers`, no hand-written layers) and
//! proved by the batchers its one registration line lists (`flockwork::provable!`, engine
//! `compiled`) on core's `Statement`: public IO, and committed IO over FRI-Binius
//! (ring-switched), with the ragged strategy (the others walk the same layers:
//! `flockwork-gkr`'s tests cover them). Every proof verifies; an output changed in the first
//! or the last instance, or another commitment, is rejected. The compiled layers are many and each layer's proof carries its state (the
//! Boolean GKR's first form), so these proofs are tens of MB and take seconds.

use crate::inputs;
use flockwork::engines::{Choices, System, batchers_for};
use flockwork_circuit::layers::CompiledLayers;
use flockwork_core::Relation;
use flockwork_core::relation::{Batcher, Io, IoKind, Statement};
use flockwork_gkr::Variant;
use flockwork_outside::{Sha1Compress, compress};
use flockwork_pcs::PcsKind;

/// The compiled Boolean GKR's ragged batcher of 2 instances for `io`, as the registration
/// lists it.
fn ragged(io: IoKind) -> Box<dyn Batcher<Sha1Compress>> {
    let choices = Choices {
        systems: vec![System::Gkr],
        schemes: vec![PcsKind::Fri],
        variants: vec![Variant::Ragged],
        compiled: true,
        ..Choices::default()
    };
    let mut listed: Vec<_> = batchers_for(&Sha1Compress, 2, &choices)
        .into_iter()
        .filter(|b| b.supports(io))
        .collect();
    assert_eq!(listed.len(), 1, "one ragged batcher for {io:?}");
    let b = listed.remove(0);
    assert!(b.name().contains("[compiled]"), "{}", b.name());
    b
}

#[test]
fn the_compiled_compression_proves_public_io() {
    let shape = CompiledLayers::new(Sha1Compress).unwrap().shape();
    assert!(shape.layers > 1 && shape.and_gates > 0, "{shape:?}");
    let inputs = inputs(2, 0x05a1);
    let statement = Statement::public(&Sha1Compress, inputs.clone());
    let Io::Public { outputs, .. } = &statement.io else {
        unreachable!("a public statement")
    };
    for (x, y) in inputs.iter().zip(outputs) {
        assert_eq!(*y, compress(&x.state, &x.block));
        assert_eq!(*y, Sha1Compress.evaluate(x));
    }
    let b = ragged(IoKind::Public);
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
    let b = ragged(IoKind::Committed);
    assert!(b.soundness_bits() >= 100.0, "{}", b.soundness_bits());
    let (ours, theirs) = (inputs(2, 1), inputs(2, 2));
    let statement = Statement::committed(2, b.commit(&ours).unwrap());
    let proof = b.prove(&ours, &statement).unwrap();
    b.verify(&statement, &proof).unwrap();
    let other = Statement::committed(2, b.commit(&theirs).unwrap());
    assert!(b.verify(&other, &proof).is_err());
    assert!(b.prove(&theirs, &statement).is_err());
}
