//! The representation boundary: proofs made by the GHASH prover (CLMUL arithmetic) are
//! checked by a verifier whose every product, inverse and sum is computed in the binary
//! tower basis ([`TowerWire128`], [`TowerWire256`]), reading the same proof bytes.
//!
//! (a) the map `Φ: GHASH(256) → tower(256)` is a field isomorphism that keeps the wire
//! conventions, and the relation and the statement map through it; (b) honest proofs of all
//! three variants are accepted by the tower verifier, which draws the same output points and
//! ends on the images of the GHASH verifier's terminal claims; (c) mutated proofs and changed
//! outputs are rejected without panics; (d) controls: a wrongly mapped statement or relation is rejected, so the checks
//! can fail.

use flockwork_core::layered::LayeredRelation;
use flockwork_field::{BinaryField, ExtensionField, Field, PackedField};
use flockwork_field_binary::Tower128;
use flockwork_gkr::{
    Ghash128, Ghash256, GkrError, RegionClaim, Setup, Statement, TowerWire128, TowerWire256,
    Variant,
};
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_testkit::field::{check_extension, check_field};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::change_output;

fn random_ghash256(rng: &mut ChaCha8Rng) -> Ghash256 {
    match rng.random_range(0..8) {
        0 => Ghash256::ZERO,
        1 => Ghash256::ONE,
        2 => Ghash256::Y,
        3 => Ghash256::from(Ghash128::new(rng.random())),
        _ => Ghash256::new(Ghash128::new(rng.random()), Ghash128::new(rng.random())),
    }
}

fn random_inputs(rng: &mut ChaCha8Rng, widths: &[usize]) -> Vec<Vec<Ghash128>> {
    widths
        .iter()
        .map(|&w| {
            (0..4usize << w)
                .map(|_| Ghash128::new(rng.random()))
                .collect()
        })
        .collect()
}

/// `Φ⁻¹` on a claim.
fn claim_to_tower(c: &RegionClaim<Ghash256>) -> RegionClaim<TowerWire256> {
    RegionClaim {
        point: c
            .point
            .iter()
            .map(|&v| TowerWire256::from_ghash(v))
            .collect(),
        values: c
            .values
            .iter()
            .map(|&v| TowerWire256::from_ghash(v))
            .collect(),
    }
}

// ---------------------------------------------------------------------------------------
// (a) The isomorphism and the mapped relation and statement.

#[test]
fn tower_fields_satisfy_the_field_laws() {
    check_field::<TowerWire128>();
    check_field::<TowerWire256>();
    check_extension::<TowerWire256, TowerWire128>();
}

#[test]
fn the_256_bit_map_is_a_field_isomorphism() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..5000 {
        let (a, b) = (random_ghash256(&mut rng), random_ghash256(&mut rng));
        let (ta, tb) = (TowerWire256::from_ghash(a), TowerWire256::from_ghash(b));
        assert_eq!(ta.to_ghash(), a, "round trip");
        assert_eq!((ta * tb).to_ghash(), a * b, "φ(a·b) at {a:?}, {b:?}");
        assert_eq!((ta + tb).to_ghash(), a + b, "φ(a+b)");
        assert_eq!(PackedField::square(&ta).to_ghash(), PackedField::square(&a));
        assert_eq!(ta.inverse().map(TowerWire256::to_ghash), a.inverse());
        assert_eq!((ta * tb.hi).to_ghash(), a * b.hi, "E × B product");
        // Base-field coordinates map coefficient-wise.
        let mut coords = [TowerWire128::ZERO; 2];
        ta.to_base_coeffs(&mut coords);
        assert_eq!(coords.map(TowerWire128::to_ghash), [a.lo, a.hi]);
    }
    // Arithmetic in the tower is tower arithmetic, not a detour through GHASH.
    let (x, y) = (Tower128(rng.random()), Tower128(rng.random()));
    assert_eq!((TowerWire128::new(x) * TowerWire128::new(y)).tower(), x * y);
}

#[test]
fn wire_conventions_agree_with_ghash() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut bytes = [0u8; 32];
    for _ in 0..2000 {
        rng.fill(&mut bytes[..]);
        let g = Ghash256::from_uniform_bytes(&bytes);
        let t = TowerWire256::from_uniform_bytes(&bytes);
        assert_eq!(t.to_ghash(), g, "from_uniform_bytes");
        let (mut gb, mut tb) = ([0u8; 32], [0u8; 32]);
        g.write_bytes(&mut gb);
        t.write_bytes(&mut tb);
        assert_eq!(gb, tb, "canonical bytes");
        assert_eq!(TowerWire256::read_bytes(&gb), Some(t), "bytes round trip");
        let i: u64 = rng.random();
        assert_eq!(
            TowerWire256::from_index(i).to_ghash(),
            Ghash256::from_index(i)
        );
        assert_eq!(
            TowerWire128::from_index(i).to_ghash(),
            Ghash128::from_index(i)
        );
        let bits: u128 = rng.random();
        assert_eq!(
            TowerWire256::from_bits(bits).to_ghash(),
            Ghash256::from_bits(bits)
        );
        assert_eq!(t.low_bits(), g.low_bits());
    }
    for i in 0..300 {
        assert_eq!(
            TowerWire256::from_index(i).to_ghash(),
            Ghash256::from_index(i)
        );
    }
    assert_eq!(TowerWire256::read_bytes(&[0u8; 31]), None);
}

#[test]
fn the_relation_commutes_with_the_map() {
    let ghash = Poseidon2bRelation::official();
    let tower = ghash.to_tower();
    assert_eq!(tower.id(), ghash.id(), "same relation, same id");
    assert_eq!(tower.num_layers(), 66);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let to_t = |s: [Ghash128; 4]| s.map(TowerWire128::from_ghash);
    // The check value through the tower relation.
    let mut s = to_t([0, 1, 2, 3].map(Ghash128::new));
    tower.apply_input(&mut s);
    tower.apply_all_layers(&mut s);
    assert_eq!(
        s[0].to_ghash().to_bits(),
        0x8f76_55ab_db74_8e34_e248_218d_828e_976e
    );
    for _ in 0..4 {
        let state = [(); 4].map(|()| Ghash128::new(rng.random()));
        let (mut g, mut t) = (state, to_t(state));
        ghash.apply_input(&mut g);
        tower.apply_input(&mut t);
        assert_eq!(t, to_t(g), "input layer");
        let cw = [(); 4].map(|()| random_ghash256(&mut rng));
        let u = [(); 4].map(|()| random_ghash256(&mut rng));
        for layer in 1..=66 {
            ghash.apply_layer(layer, &mut g);
            tower.apply_layer(layer, &mut t);
            assert_eq!(t, to_t(g), "layer {layer}");
            // The verifier's per-layer computations.
            let (tcw, tu) = (
                cw.map(TowerWire256::from_ghash),
                u.map(TowerWire256::from_ghash),
            );
            assert_eq!(
                tower.layer_term(layer, &tcw, &tu).to_ghash(),
                ghash.layer_term(layer, &cw, &u),
                "layer term {layer}"
            );
            let (mut gf, mut tf) = ([Ghash256::ZERO; 4], [TowerWire256::ZERO; 4]);
            ghash.fold_weights(layer, &cw, &mut gf);
            tower.fold_weights(layer, &tcw, &mut tf);
            assert_eq!(tf.map(TowerWire256::to_ghash), gf, "folded weights {layer}");
            assert_eq!(tower.layer_degree(layer), ghash.layer_degree(layer));
        }
    }
}

#[test]
fn the_statement_maps_with_the_same_digests() {
    let relation = Poseidon2bRelation::official();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let widths = [3, 0, 5];
    let inputs = random_inputs(&mut rng, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let tower = statement.to_tower();
    assert_eq!(tower.widths(), statement.widths());
    for (g, t) in statement.regions.iter().zip(&tower.regions) {
        assert_eq!(t.committed.digest(), g.committed.digest());
        assert_eq!(t.outputs.digest(), g.outputs.digest());
        for (gc, tc) in g.committed.columns().iter().zip(t.committed.columns()) {
            assert!(gc.iter().zip(tc).all(|(&x, &y)| y.to_ghash() == x));
        }
        for (gc, tc) in g.outputs.columns().iter().zip(t.outputs.columns()) {
            assert!(gc.iter().zip(tc).all(|(&x, &y)| y.to_ghash() == x));
        }
    }
    // The statement built natively in the tower is the mapped one (the same outputs).
    let tower_inputs: Vec<Vec<TowerWire128>> = inputs
        .iter()
        .map(|r| r.iter().map(|&v| TowerWire128::from_ghash(v)).collect())
        .collect();
    let native = Statement::of_inputs(&relation.to_tower(), &tower_inputs);
    assert_eq!(native, tower);
}

// ---------------------------------------------------------------------------------------
// (b) Acceptance across the boundary, and (c) rejections.

/// Proves with the GHASH prover; checks that the tower verifier accepts, ends on the images
/// of the GHASH verifier's terminal claims, and rejects mutated proofs and claims.
fn across_the_boundary(widths: Vec<usize>, seed: u64) {
    let relation = Poseidon2bRelation::official();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inputs = random_inputs(&mut rng, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, widths.clone());
    let tower_setup = setup.to_tower();
    let tower_statement = statement.to_tower();
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        setup.verify(variant, &statement, &proof).unwrap();
        setup
            .verify_in_tower(variant, &statement, &proof)
            .unwrap_or_else(|e| panic!("{variant:?} {widths:?}: tower verifier rejects: {e}"));
        let ghash_terminal = setup.verify_walks(variant, &statement, &proof).unwrap();
        let tower_terminal = tower_setup
            .verify_walks(variant, &tower_statement, &proof)
            .unwrap();
        assert_eq!(
            tower_terminal,
            ghash_terminal
                .iter()
                .map(claim_to_tower)
                .collect::<Vec<_>>(),
            "{variant:?}: terminal claims"
        );
        tower_setup
            .discharge(&tower_statement, &tower_terminal)
            .unwrap();

        // (c) Flipped bits at the header, the ends and random positions.
        let mut positions = vec![0, 6, 7, proof.len() / 2, proof.len() - 1];
        positions.extend((0..8).map(|_| rng.random_range(0..proof.len())));
        for pos in positions {
            let mut bad = proof.clone();
            bad[pos] ^= 1 << rng.random_range(0..8);
            assert!(
                tower_setup.verify(variant, &tower_statement, &bad).is_err(),
                "{variant:?}: flipped byte {pos} accepted by the tower verifier"
            );
        }
        assert!(
            tower_setup
                .verify(variant, &tower_statement, &proof[..proof.len() - 1])
                .is_err()
        );
        // A changed output, in either representation.
        let a = rng.random_range(0..widths.len());
        let lane = rng.random_range(0..4);
        let row = rng.random_range(0..1usize << widths[a]);
        let changed = change_output(&statement, a, row, lane, Ghash128::ONE);
        assert!(setup.verify_in_tower(variant, &changed, &proof).is_err());
        let changed = change_output(&tower_statement, a, row, lane, TowerWire128::ONE);
        assert!(tower_setup.verify(variant, &changed, &proof).is_err());
        // A wrong witness row: the GHASH prover's proof fails in the tower too.
        let mut wrong = inputs.clone();
        wrong[a][4 * row + lane] += Ghash128::ONE;
        let bad_proof = setup.prove(variant, &wrong, &statement).unwrap();
        assert!(matches!(
            tower_setup.verify(variant, &tower_statement, &bad_proof),
            Err(GkrError::Terminal { .. } | GkrError::LayerCheck { .. })
        ));
    }
}

#[test]
fn ghash_proofs_verify_in_the_tower_random_widths() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for seed in 0..4 {
        let a = rng.random_range(1..=4);
        let widths: Vec<usize> = (0..a).map(|_| rng.random_range(0..=5)).collect();
        across_the_boundary(widths, 100 + seed);
    }
}

#[test]
fn ghash_proofs_verify_in_the_tower_edge_shapes() {
    across_the_boundary(vec![4], 20); // one region
    across_the_boundary(vec![0], 21); // one instance
    across_the_boundary(vec![2, 2, 2], 22); // equal widths
    across_the_boundary(vec![0, 3, 1], 23);
}

/// The mutation harness on the tower verifier: sampled single-byte changes, truncations and
/// appended bytes are all rejected, and the verifier never panics.
#[test]
fn tower_verifier_rejects_sampled_mutations() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![1, 0, 2];
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let inputs = random_inputs(&mut rng, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation, widths);
    let (tower_setup, tower_statement) = (setup.to_tower(), statement.to_tower());
    let budget = MutationBudget {
        exhaustive_limit: 400,
        truncation_limit: 60,
        ..MutationBudget::default()
    };
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        let name = format!("gkr-tower/{}", variant.name());
        check_mutations(&name, &proof, budget, |bytes| {
            tower_setup.verify(variant, &tower_statement, bytes)
        });
    }
}

// ---------------------------------------------------------------------------------------
// (d) Controls: the boundary check can fail.

#[test]
fn wrong_maps_are_rejected() {
    let relation = Poseidon2bRelation::official();
    let widths = vec![2, 1];
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let inputs = random_inputs(&mut rng, &widths);
    let statement = Statement::of_inputs(&relation, &inputs);
    let setup = Setup::<_, Ghash256>::new(relation.clone(), widths.clone());
    let tower_setup = setup.to_tower();
    // The identity on bit patterns: a bijection and additive, but not multiplicative.
    let reinterpret = |g: Ghash128| TowerWire128::new(Tower128(g.to_bits()));
    let wrong_statement = statement.map_field(reinterpret);
    // The wrongly mapped statement encodes other elements: other digests.
    assert_ne!(
        wrong_statement.regions[0].committed.digest(),
        statement.regions[0].committed.digest()
    );
    // A relation with reinterpreted constants claims the same id, so the transcript agrees
    // with the prover's and only the tower arithmetic can catch it.
    let wrong_relation = relation.map_field(reinterpret);
    assert_eq!(wrong_relation.id(), relation.id());
    let wrong_setup = Setup::<_, TowerWire256>::new(wrong_relation, widths);
    let tower_statement = statement.to_tower();
    for variant in Variant::ALL {
        let proof = setup.prove(variant, &inputs, &statement).unwrap();
        tower_setup
            .verify(variant, &tower_statement, &proof)
            .unwrap();
        assert!(
            tower_setup
                .verify(variant, &wrong_statement, &proof)
                .is_err(),
            "{variant:?}: reinterpreted statement accepted"
        );
        assert!(
            matches!(
                wrong_setup.verify(variant, &tower_statement, &proof),
                Err(GkrError::LayerCheck { layer: 66 })
            ),
            "{variant:?}: reinterpreted relation constants accepted"
        );
        // The GHASH statement read bit for bit as tower elements is not the mapped one.
        assert_ne!(wrong_statement, tower_statement);
    }
}
