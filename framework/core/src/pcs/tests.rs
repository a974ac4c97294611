use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::Field;
use flockwork_field_binary::Ghash128;

use super::*;
use crate::MultilinearPoly;

fn elems(seed: u64, n: usize) -> Vec<Ghash128> {
    (0..n as u64)
        .map(|i| {
            Ghash128::new(
                u128::from(seed * 1_000_003 + i)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835),
            )
        })
        .collect()
}

/// The table of `weight` on the hypercube, via `accumulate_table`.
fn table(weight: &Weight<Ghash128>, n: usize) -> Vec<Ghash128> {
    let mut t = vec![Ghash128::ZERO; 1 << n];
    weight.accumulate_table(Ghash128::ONE, &mut t);
    t
}

#[test]
fn weights_evaluate_to_the_extension_of_their_tables() {
    let n = 6;
    let point = elems(1, n);
    let weights = [
        Weight::Eq(elems(2, n)),
        Weight::Tensor {
            low: elems(3, 8),
            high: elems(4, 3),
        },
        Weight::Tensor {
            low: elems(5, 1),
            high: elems(6, 6),
        },
    ];
    for weight in &weights {
        let expected = MultilinearPoly::new(table(weight, n)).evaluate(&point);
        assert_eq!(weight.evaluate(&point), Some(expected));
        assert_eq!(weight.evaluate(&point[1..]), None);
    }
}

#[test]
fn batched_claims_combine_values_and_weights_linearly() {
    use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript};
    let n = 4;
    let claims = vec![
        Claim::evaluation(elems(7, n), Ghash128::from_index(3)),
        Claim {
            weight: Weight::Tensor {
                low: elems(8, 4),
                high: elems(9, 2),
            },
            value: Ghash128::from_index(5),
        },
    ];
    let mut transcript = Sha256ProverTranscript::new(DomainSeparator::new("pcs/test", b""));
    let batched = BatchedClaims::squeeze(&claims, &mut transcript);
    let mut combined = vec![Ghash128::ZERO; 1 << n];
    batched.accumulate_table(&mut combined);
    let point = elems(10, n);
    assert_eq!(
        batched.evaluate(&point),
        Some(MultilinearPoly::new(combined).evaluate(&point))
    );
    assert_ne!(batched.value(), Ghash128::ZERO);
}

#[test]
fn claim_shapes_are_checked() {
    let good = Claim::evaluation(elems(1, 5), Ghash128::ONE);
    assert_eq!(check_claim_shapes(core::slice::from_ref(&good), 5), Ok(()));
    assert_eq!(
        check_claim_shapes::<Ghash128>(&[], 5),
        Err(crate::VerifyError::NoClaims)
    );
    assert_eq!(
        check_claim_shapes(core::slice::from_ref(&good), 6),
        Err(crate::VerifyError::ClaimNumVars {
            expected: 6,
            got: 5
        })
    );
    let ragged = Claim {
        weight: Weight::Tensor {
            low: elems(1, 3),
            high: elems(2, 3),
        },
        value: Ghash128::ONE,
    };
    assert_eq!(
        check_claim_shapes(&[ragged], 5),
        Err(crate::VerifyError::ClaimNumVars {
            expected: 5,
            got: usize::MAX
        })
    );
}
