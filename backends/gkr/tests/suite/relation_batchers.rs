//! The engine's relation batchers (`flockwork_gkr::relation_batchers`) through core's
//! object-safe `Batcher<R>`, on core's `Statement<R>`: Poseidon2b over GF(2^128) (GF(2^256)
//! challenges; committed IO with FRI-Binius) and Poseidon2 over BN254 (challenges in the
//! field; committed IO with BaseFold), every strategy. Honest statements verify; an output
//! changed in the first or the last instance, another commitment and a statement of another
//! size are rejected.

use flockwork_core::relation::{Batcher, Io, IoKind, LayeredEncoding, Statement};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_prime::Bn254Fr;
use flockwork_gkr::{Ghash128, Ghash256, LayeredBatcher, Variant};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{BaseFold, FriBinius};
use flockwork_poseidon2::Poseidon2Relation;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_transcript::Blake3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const VARIANTS: [Variant; 3] = [Variant::Independent, Variant::Padded, Variant::Ragged];

fn element<F: Field>(rng: &mut ChaCha8Rng) -> F {
    let mut bytes = vec![0u8; F::UNIFORM_BYTES];
    rng.fill(&mut bytes[..]);
    F::from_uniform_bytes(&bytes)
}

/// The public statement with the output of `instance` changed in one lane.
fn changed<R: LayeredEncoding>(relation: &R, st: &Statement<R>, instance: usize) -> Statement<R> {
    let Io::Public { inputs, outputs } = &st.io else {
        unreachable!("a public statement")
    };
    let mut outputs = outputs.clone();
    let mut lanes = relation.output_lanes(&outputs[instance]);
    lanes[0] += R::Base::ONE;
    outputs[instance] = relation.output_of_lanes(&lanes).unwrap();
    Statement {
        io: Io::Public {
            inputs: inputs.clone(),
            outputs,
        },
    }
}

/// Every strategy, public and committed (with the commitment `pcs` makes for a number of
/// variables), on `inputs`.
fn exercise<R, E, P>(relation: &R, inputs: Vec<R::Input>, pcs: impl Fn(usize) -> Result<P, String>)
where
    R: LayeredEncoding + Clone + Sync + 'static,
    E: ExtensionField<R::Base> + 'static,
    P: ConfiguredCommitment<R::Base>,
{
    let n = inputs.len();
    let public = Statement::public(relation, inputs.clone());
    for variant in VARIANTS {
        let b = LayeredBatcher::<R, E, Blake3, P>::public(relation.clone(), n, variant);
        assert!(b.supports(IoKind::Public) && !b.supports(IoKind::Committed));
        assert!(!b.supports(IoKind::Chain) && !b.supports(IoKind::Merkle));
        assert_eq!(b.name(), format!("GKR {} / blake3", variant.name()));
        let proof = b.prove(&inputs, &public).unwrap();
        b.verify(&public, &proof).unwrap();
        for instance in [0, n - 1] {
            let wrong = changed(relation, &public, instance);
            assert!(b.verify(&wrong, &proof).is_err(), "{variant:?}, {instance}");
        }
        let shorter = Statement::public(relation, inputs[1..].to_vec());
        assert!(b.verify(&shorter, &proof).is_err());
        assert!(b.prove(&inputs[1..], &shorter).is_err());
        assert!(b.commit(&inputs).is_err(), "public IO has no commitment");

        let c = LayeredBatcher::<R, E, Blake3, P>::committed(relation.clone(), n, variant, &pcs)
            .unwrap();
        assert!(c.supports(IoKind::Committed) && !c.supports(IoKind::Public));
        assert!(c.name().starts_with(&format!("GKR {} / ", variant.name())));
        let commitment = c.commit(&inputs).unwrap();
        let committed = Statement::committed(n, commitment.clone());
        let proof = c.prove(&inputs, &committed).unwrap();
        c.verify(&committed, &proof).unwrap();
        assert!(c.soundness_bits() > 90.0, "{}", c.soundness_bits());
        // Another commitment (to other inputs), and inputs the commitment does not bind.
        let mut other_inputs = inputs.clone();
        other_inputs.swap(0, n - 1);
        let other = Statement::committed(n, c.commit(&other_inputs).unwrap());
        assert!(c.verify(&other, &proof).is_err());
        assert!(c.prove(&other_inputs, &committed).is_err());
        let mut garbled = commitment;
        garbled.pop();
        assert!(c.verify(&Statement::committed(n, garbled), &proof).is_err());
        assert!(c.verify(&public, &proof).is_err());
    }
}

#[test]
fn poseidon2b_every_strategy_public_and_committed() {
    let relation = Poseidon2bRelation::official();
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    let inputs: Vec<[Ghash128; 4]> = (0..5)
        .map(|_| std::array::from_fn(|_| element(&mut rng)))
        .collect();
    exercise::<_, Ghash256, FriBinius<Ghash128, sha2::Sha256>>(&relation, inputs, |vars| {
        FriBinius::with_security(vars, 100, 1).map_err(|e| e.to_string())
    });
}

#[test]
fn poseidon2_over_bn254_every_strategy_public_and_committed() {
    let relation = Poseidon2Relation::new(flockwork_poseidon2::instances::bn254_t3());
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let inputs: Vec<Vec<Bn254Fr>> = (0..3)
        .map(|_| (0..3).map(|_| element(&mut rng)).collect())
        .collect();
    exercise::<_, Bn254Fr, BaseFold<Bn254Fr, sha2::Sha256>>(&relation, inputs, |vars| {
        BaseFold::with_security(vars, 100, 1).map_err(|e| e.to_string())
    });
}

#[test]
fn a_commitment_that_cannot_be_made_is_the_reason_given() {
    let relation = Poseidon2bRelation::official();
    let refused =
        LayeredBatcher::<_, Ghash256, Blake3, FriBinius<Ghash128, sha2::Sha256>>::committed(
            relation,
            4,
            Variant::Ragged,
            |vars| Err(format!("no commitment of {vars} variables here")),
        );
    let Err(why) = refused else {
        panic!("a batcher without its commitment")
    };
    assert!(why.to_string().contains("no commitment of"), "{why}");
}
