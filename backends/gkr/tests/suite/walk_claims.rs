//! The walk verifier refuses claims that do not fit the relation before it reads any proof
//! bytes: a claim with another number of values than the relation has lanes, in any region.

use flockwork_core::layered::LayeredRelation;
use flockwork_field::Field;
use flockwork_gkr::{Ghash256, GkrError, RegionClaim, verify_walk};
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_transcript::{DomainSeparator, Sha256VerifierTranscript};

fn claim(width: usize, values: usize) -> RegionClaim<Ghash256> {
    RegionClaim {
        point: vec![Ghash256::ONE; width],
        values: vec![Ghash256::ONE; values],
    }
}

#[test]
fn claims_with_another_number_of_lanes_are_refused() {
    let relation = Poseidon2bRelation::official();
    let t = relation.lanes();
    for claims in [
        vec![claim(2, t - 1)],
        vec![claim(2, t + 1)],
        vec![claim(2, 0)],
        vec![claim(3, t), claim(2, t + 1)],
        vec![claim(2, t - 1), claim(3, t)],
    ] {
        let mut transcript =
            Sha256VerifierTranscript::new(DomainSeparator::new("flockwork/test/walk", b""), &[]);
        assert!(
            matches!(
                verify_walk(&relation, claims, &mut transcript),
                Err(GkrError::Statement(_))
            ),
            "a claim with another number of lanes accepted"
        );
    }
}
