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
fn chunked_accumulation_is_the_sum_of_the_whole_tables() {
    use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript};
    // 14 variables: four chunks of 2^12; 3 variables: one chunk smaller than CHUNK_VARS.
    for n in [3usize, 14] {
        let claims = vec![
            Claim::evaluation(elems(11, n), Ghash128::from_index(3)),
            Claim {
                weight: Weight::Tensor {
                    low: elems(12, 4),
                    high: elems(13, n - 2),
                },
                value: Ghash128::from_index(5),
            },
            Claim::evaluation(elems(14, n), Ghash128::from_index(7)),
        ];
        let mut transcript = Sha256ProverTranscript::new(DomainSeparator::new("pcs/test", b""));
        let batched = BatchedClaims::squeeze(&claims, &mut transcript);
        // Entry by entry: Σ_j α_j W_j(x) from each weight's whole table.
        let mut expected = vec![Ghash128::ZERO; 1 << n];
        for (claim, &a) in claims.iter().zip(batched.coeffs()) {
            let mut t = vec![Ghash128::ZERO; 1 << n];
            claim.weight.accumulate_table(a, &mut t);
            expected.iter_mut().zip(&t).for_each(|(e, &x)| *e += x);
        }
        // The visits see finished chunks: their sums are the sum of the finished table, and
        // every entry is visited once.
        let start = elems(15, 1 << n);
        let mut table = start.clone();
        let (sum, visited) = batched.accumulate_table_then(
            &mut table,
            |at, chunk| (chunk.iter().copied().sum::<Ghash128>(), (at, chunk.len())),
            |(s, (a, l)), (t, (b, m))| {
                assert_eq!(a + l, b, "chunks are merged in order");
                (s + t, (a, l + m))
            },
        );
        for ((got, &e), &s0) in table.iter().zip(&expected).zip(&start) {
            assert_eq!(*got, e + s0, "{n} variables");
        }
        assert_eq!(sum, table.iter().copied().sum::<Ghash128>());
        assert_eq!(visited, (0, 1 << n));
    }
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

mod extension_claims {
    use alloc::vec;
    use alloc::vec::Vec;

    use flockwork_field::{ExtensionField, Field};
    use flockwork_field_binary::{Ghash128, Ghash256};

    use super::super::*;
    use super::{elems, table};
    use crate::MultilinearPoly;

    fn ext(seed: u64, n: usize) -> Vec<Ghash256> {
        elems(seed, 2 * n)
            .chunks_exact(2)
            .map(<Ghash256 as ExtensionField<Ghash128>>::from_base_coeffs)
            .collect()
    }

    fn lift(v: &[Ghash128]) -> Vec<Ghash256> {
        v.iter().map(|&x| Ghash256::from(x)).collect()
    }

    /// `⟨P, W⟩` over the hypercube.
    fn pair(p: &[Ghash128], weight: &Weight<Ghash128>, n: usize) -> Ghash128 {
        p.iter().zip(table(weight, n)).map(|(&a, b)| a * b).sum()
    }

    #[test]
    fn coordinate_claims_hold_exactly_for_the_true_value() {
        // m = 4 low variables, h = 2 block variables, block 2; the scale is not 1.
        let (m, h, block) = (4, 2, 2);
        let p = elems(10, 1 << (m + h));
        let z = ext(11, m);
        let scale = ext(12, 1)[0];
        let block_values = lift(&p[block << m..(block + 1) << m]);
        let value = scale * MultilinearPoly::new(block_values).evaluate(&z);
        let claims = extension_claims::<Ghash128, Ghash256>(&z, scale, h, block, value);
        assert_eq!(claims.len(), 2);
        let mut sum = Ghash256::ZERO;
        for (k, claim) in claims.iter().enumerate() {
            let inner = pair(&p, &claim.weight, m + h);
            assert_eq!(inner, claim.value, "coordinate {k}");
            sum += <Ghash256 as ExtensionField<Ghash128>>::basis(k) * inner;
        }
        assert_eq!(sum, value);
        // A different value changes some coordinate claim, which then fails.
        let wrong = extension_claims::<Ghash128, Ghash256>(
            &z,
            scale,
            h,
            block,
            value + <Ghash256 as ExtensionField<Ghash128>>::basis(1),
        );
        assert!(wrong.iter().any(|c| pair(&p, &c.weight, m + h) != c.value));
    }

    #[test]
    fn the_weight_evaluates_to_the_extension_of_its_table() {
        for (m, h, block) in [(0, 3, 5), (3, 0, 0), (3, 2, 1), (5, 1, 1)] {
            let z = ext(20 + m as u64, m);
            let scale = ext(30, 1)[0];
            for coord in 0..2 {
                let weight = Weight::Linear(alloc::sync::Arc::new(
                    ExtensionEq::<Ghash128, Ghash256>::new(z.clone(), scale, h, block, coord),
                ));
                assert_eq!(weight.num_vars(), Some(m + h));
                let t = table(&weight, m + h);
                // Zero outside the block.
                assert!(
                    t.iter()
                        .enumerate()
                        .all(|(i, &v)| i >> m == block || v == Ghash128::ZERO)
                );
                let s = elems(40 + coord as u64, m + h);
                assert_eq!(
                    weight.evaluate(&s),
                    Some(MultilinearPoly::new(t).evaluate(&s)),
                    "m = {m}, h = {h}, coordinate {coord}"
                );
            }
        }
    }

    #[test]
    fn a_degree_one_extension_is_an_ordinary_scaled_evaluation() {
        let p = elems(50, 1 << 5);
        let z = elems(51, 5);
        let scale = elems(52, 1)[0];
        let value = scale * MultilinearPoly::new(p.clone()).evaluate(&z);
        let claims = extension_claims::<Ghash128, Ghash128>(&z, scale, 0, 0, value);
        assert_eq!(claims.len(), 1);
        assert_eq!(pair(&p, &claims[0].weight, 5), value);
        assert_eq!(claims[0].value, value);
    }

    #[test]
    fn the_transcript_bytes_name_every_parameter() {
        let z = ext(60, 3);
        let s = ext(61, 2);
        let bytes = |point: &[Ghash256], scale, h, block, coord| {
            ExtensionEq::<Ghash128, Ghash256>::new(point.to_vec(), scale, h, block, coord)
                .transcript_bytes()
        };
        let base = bytes(&z, s[0], 2, 1, 0);
        for other in [
            bytes(&z, s[1], 2, 1, 0),
            bytes(&z, s[0], 3, 1, 0),
            bytes(&z, s[0], 2, 2, 0),
            bytes(&z, s[0], 2, 1, 1),
            bytes(&z[..2], s[0], 2, 1, 0),
            bytes(&s, s[0], 2, 1, 0),
        ] {
            assert_ne!(base, other);
        }
    }

    /// A claim of each kind: an evaluation, a tensor weight and a linear weight.
    fn one_of_each(n: usize) -> Vec<Claim<Ghash128>> {
        let linear = ExtensionEq::<Ghash128, Ghash256>::new(ext(70, n - 2), ext(71, 1)[0], 2, 1, 1);
        vec![
            Claim::evaluation(elems(72, n), Ghash128::from_index(3)),
            Claim {
                weight: Weight::Tensor {
                    low: elems(73, 4),
                    high: elems(74, n - 2),
                },
                value: Ghash128::from_index(5),
            },
            Claim {
                weight: Weight::Linear(alloc::sync::Arc::new(linear)),
                value: Ghash128::from_index(7),
            },
        ]
    }

    #[test]
    fn absorbing_claims_binds_every_part_of_every_claim() {
        use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript, Transcript};
        let challenge = |claims: &[Claim<Ghash128>]| -> Ghash128 {
            let mut t = Sha256ProverTranscript::new(DomainSeparator::new("pcs/test", b""));
            absorb_claims(claims, &mut t);
            t.challenge("c")
        };
        let n = 5;
        let base = one_of_each(n);
        assert_eq!(challenge(&base), challenge(&one_of_each(n)));
        let mut variants: Vec<Vec<Claim<Ghash128>>> = Vec::new();
        for k in 0..3 {
            let mut v = base.clone();
            v[k].value += Ghash128::ONE;
            variants.push(v);
        }
        let mut v = base.clone();
        v[0].weight = Weight::Eq(elems(75, n));
        variants.push(v);
        for (low, high) in [
            (elems(76, 4), elems(74, n - 2)),
            (elems(73, 4), elems(77, n - 2)),
        ] {
            let mut v = base.clone();
            v[1].weight = Weight::Tensor { low, high };
            variants.push(v);
        }
        let mut v = base.clone();
        let other = ExtensionEq::<Ghash128, Ghash256>::new(ext(70, n - 2), ext(71, 1)[0], 2, 1, 0);
        v[2].weight = Weight::Linear(alloc::sync::Arc::new(other));
        variants.push(v);
        // The same numbers as an evaluation and as a tensor with an empty low table.
        let mut v = base.clone();
        v[0].weight = Weight::Tensor {
            low: Vec::new(),
            high: elems(72, n),
        };
        variants.push(v);
        variants.push(base[..2].to_vec());
        variants.push(vec![base[1].clone(), base[0].clone(), base[2].clone()]);
        let mut seen = vec![challenge(&base)];
        for (i, v) in variants.iter().enumerate() {
            let c = challenge(v);
            assert!(
                !seen.contains(&c),
                "variant {i} absorbs as another claim list"
            );
            seen.push(c);
        }
    }

    #[test]
    fn chunk_fillers_fill_the_weight_table() {
        let n = 5;
        let scale = Ghash128::from_index(9);
        for claim in one_of_each(n) {
            let mut whole = elems(78, 1 << n);
            let mut chunked = whole.clone();
            claim.weight.accumulate_table(scale, &mut whole);
            match claim.weight.chunk_filler(scale, 2) {
                Some(filler) => accumulate_by_chunks(&mut chunked, 2, &filler),
                // Tensor and (without an override) linear weights are accumulated whole.
                None => {
                    assert!(!matches!(claim.weight, Weight::Eq(_)));
                    claim.weight.accumulate_table(scale, &mut chunked);
                }
            }
            assert_eq!(whole, chunked);
        }
        assert!(one_of_each(n)[0].weight.chunk_filler(scale, 2).is_some());
    }
}
