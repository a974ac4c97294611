//! Reed–Solomon and additive-NTT tests: round trips, agreement with the novel-basis
//! definition, and the minimum distance by brute force.

use flockwork_codes::{AdditiveNtt, NttField, ReedSolomon, SubspaceBasis};
use flockwork_field::{BinaryField, Field};
use flockwork_field_binary::{Aes8, Ghash128};
use flockwork_testkit::{random_vec, rng};
use itertools::iproduct;

fn check_naive_agreement<F: NttField>(log_len: usize, log_inv_rate: usize, width: usize) {
    let code = ReedSolomon::<F>::new(log_len, log_inv_rate);
    let message: Vec<F> = random_vec(&mut rng("rs/naive"), width << log_len);
    let codeword = code.encode(&message, width);
    let basis = code.ntt().basis();
    for j in 0..1usize << code.log_len() {
        for col in 0..width {
            let column: Vec<F> = message.iter().skip(col).step_by(width).copied().collect();
            assert_eq!(
                codeword[j * width + col],
                basis.evaluate_naive(&column, j as u64),
                "position {j}, column {col}"
            );
        }
    }
}

#[test]
fn encoding_agrees_with_naive_novel_basis_evaluation() {
    for (log_len, rate) in [(0, 1), (1, 1), (3, 2), (4, 1), (5, 3), (2, 6)] {
        check_naive_agreement::<Ghash128>(log_len, rate, 3);
    }
    check_naive_agreement::<Aes8>(4, 2, 2);
}

#[test]
fn encode_then_decode_round_trips_at_every_rate() {
    for (rate, (log_len, width)) in iproduct!(1..=6, [(0, 1), (4, 1), (7, 4), (10, 2)]) {
        let code = ReedSolomon::<Ghash128>::new(log_len, rate);
        let message: Vec<Ghash128> = random_vec(&mut rng("rs/round-trip"), width << log_len);
        let codeword = code.encode(&message, width);
        assert_eq!(codeword.len(), message.len() << rate);
        assert_eq!(code.decode(&codeword, width), Some(message));
    }
}

#[test]
fn large_interleaved_encoding_decodes() {
    // Big enough to take the parallel paths (2^13 rows × 16 columns).
    let code = ReedSolomon::<Ghash128>::new(13, 1);
    let message: Vec<Ghash128> = random_vec(&mut rng("rs/large"), 16 << 13);
    let codeword = code.encode(&message, 16);
    assert_eq!(code.decode(&codeword, 16), Some(message));
}

#[test]
fn very_wide_rows_take_the_streaming_path_at_every_layer() {
    // Each block exceeds the cache threshold down to single-row halves.
    let code = ReedSolomon::<Ghash128>::new(2, 1);
    let message: Vec<Ghash128> = random_vec(&mut rng("rs/wide"), 4 << 14);
    let codeword = code.encode(&message, 1 << 14);
    let column: Vec<Ghash128> = message.iter().skip(5).step_by(1 << 14).copied().collect();
    let basis = code.ntt().basis();
    for j in 0..8 {
        assert_eq!(
            codeword[(j << 14) + 5],
            basis.evaluate_naive(&column, j as u64)
        );
    }
    assert_eq!(code.decode(&codeword, 1 << 14), Some(message));
}

#[test]
fn decode_rejects_a_corrupted_word() {
    let code = ReedSolomon::<Ghash128>::new(5, 2);
    let message: Vec<Ghash128> = random_vec(&mut rng("rs/corrupt"), 2 << 5);
    let mut codeword = code.encode(&message, 2);
    codeword[77] += Ghash128::ONE;
    assert_eq!(code.decode(&codeword, 2), None);
}

#[test]
fn encode_then_sees_every_finished_row_once() {
    // Shapes on both sides of the in-cache threshold (2^14 elements), with odd and even
    // layer counts, rates ½ and ¼.
    for (log_len, rate, width) in [(3, 1, 5), (8, 2, 64), (9, 1, 64), (12, 1, 8), (6, 1, 1024)] {
        let code = ReedSolomon::<Ghash128>::new(log_len, rate);
        let message: Vec<Ghash128> = random_vec(&mut rng("rs/then"), width << log_len);
        let rows = 1usize << (log_len + rate);
        // Two items per row: the row's first and last element when the block was finished.
        let mut seen = vec![(Ghash128::ZERO, Ghash128::ZERO); 2 * rows];
        let codeword = code.encode_then(&message, width, &mut seen, |block, out| {
            assert_eq!(block.len() / width * 2, out.len(), "two items per row");
            for (row, o) in block.chunks_exact(width).zip(out.chunks_exact_mut(2)) {
                o[0] = (row[0], row[width - 1]);
                o[1] = (row[width - 1], row[0]);
            }
        });
        assert_eq!(
            codeword,
            code.encode(&message, width),
            "2^{log_len}, rate 2^-{rate}"
        );
        for (j, o) in seen.chunks_exact(2).enumerate() {
            let row = &codeword[j * width..(j + 1) * width];
            assert_eq!(o[0], (row[0], row[width - 1]), "row {j}");
            assert_eq!(o[1], (row[width - 1], row[0]), "row {j}");
        }
    }
}

#[test]
fn inverse_undoes_forward_on_every_coset() {
    let ntt = AdditiveNtt::<Ghash128>::new(6, 9);
    let data: Vec<Ghash128> = random_vec(&mut rng("ntt/inverse"), 5 << 6);
    for coset in 0..8 {
        let mut work = data.clone();
        ntt.forward(&mut work, 5, coset);
        assert_ne!(work, data);
        ntt.inverse(&mut work, 5, coset);
        assert_eq!(work, data, "coset {coset}");
    }
}

#[test]
fn generator_rows_reproduce_codeword_positions() {
    let code = ReedSolomon::<Ghash128>::new(4, 3);
    let message: Vec<Ghash128> = random_vec(&mut rng("rs/generator"), 1 << 4);
    let codeword = code.encode(&message, 1);
    for (j, &symbol) in codeword.iter().enumerate() {
        let row = code.generator_row(j);
        let direct: Ghash128 = row.iter().zip(&message).map(|(&g, &m)| g * m).sum();
        assert_eq!(symbol, direct);
    }
}

/// Hamming weight of a codeword (number of nonzero positions).
fn weight<F: Field>(word: &[F]) -> usize {
    word.iter().filter(|x| !x.is_zero()).count()
}

#[test]
fn minimum_distance_by_brute_force_over_gf256() {
    // Messages of 2 symbols over GF(2^8): all 65 535 nonzero messages; MDS means
    // d = n − k + 1 exactly.
    for rate in 1..=6 {
        let code = ReedSolomon::<Aes8>::new(1, rate);
        let n = 2usize << rate;
        let min = (1..1u32 << 16)
            .map(|m| {
                let message = [
                    Aes8::from_bits(u128::from(m & 0xff)),
                    Aes8::from_bits(u128::from(m >> 8)),
                ];
                weight(&code.encode(&message, 1))
            })
            .min()
            .unwrap();
        assert_eq!(min, n - 1, "rate 2^-{rate}");
    }
}

#[test]
fn binary_messages_respect_the_singleton_distance() {
    // Every nonzero F2-valued message of 8 symbols has weight ≥ n − 8 + 1.
    for rate in 1..=5 {
        let code = ReedSolomon::<Aes8>::new(3, rate);
        let n = 8usize << rate;
        for m in 1u32..256 {
            let message: Vec<Aes8> = (0..8)
                .map(|b| Aes8::from_bits(u128::from((m >> b) & 1)))
                .collect();
            assert!(
                weight(&code.encode(&message, 1)) >= n - 7,
                "rate 2^-{rate}, message {m:#x}"
            );
        }
    }
}

#[test]
fn twiddle_domain_is_the_bit_pattern_enumeration() {
    let basis = SubspaceBasis::<Ghash128>::new(8);
    assert_eq!(
        SubspaceBasis::<Ghash128>::point(0b1011),
        Ghash128::from_index(0b1011)
    );
    // Ŵ_i(β_i) = 1 and Ŵ_i vanishes on U_i.
    for i in 0..8 {
        assert_eq!(basis.w_hat(i, 1 << i), Ghash128::ONE);
        assert!((0..1u64 << i).all(|j| basis.w_hat(i, j).is_zero()));
    }
}

#[test]
fn transposed_encoding_matches_generator_rows() {
    let code = ReedSolomon::<Ghash128>::new(6, 2);
    let coeffs: Vec<Ghash128> = random_vec(&mut rng("rs/transpose"), 40);
    // Few entries take the direct path, many the transposed NTT; both must agree.
    for count in [1usize, 3, 40] {
        let entries: Vec<(usize, Ghash128)> = (0..count)
            .map(|t| ((t * 37 + 5) % 256, coeffs[t]))
            .collect();
        let mut expected = vec![Ghash128::ZERO; 64];
        for &(j, c) in &entries {
            for (e, g) in expected.iter_mut().zip(code.generator_row(j)) {
                *e += c * g;
            }
        }
        assert_eq!(
            code.transpose_encode_sparse(&entries),
            expected,
            "{count} entries"
        );
    }
}
