use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_field_prime::{Bn254Fr, Goldilocks};

use super::*;

/// A deterministic pseudo-random vector.
fn vector<F: Field>(len: usize, seed: u64) -> Vec<F> {
    (0..len as u64)
        .map(|i| F::from_index(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i * i + 3 * i + seed)))
        .collect()
}

/// `fold(Enc_t(a), r) = Enc_{t+1}(fold(a, r))` at every level, through both `fold_pair` and
/// the prover's whole-codeword `fold`.
fn check_fold_commutes<F: Field, C: FoldableCode<F>>(log_msg_len: usize, log_inv_rate: usize) {
    let code = C::with_shape(log_msg_len, log_inv_rate).expect("shape fits");
    let mut message: Vec<F> = vector(1 << log_msg_len, 7);
    let mut codeword = code.encode(&message, 1);
    assert_eq!(
        codeword,
        code.encode_at_level(0, &message),
        "the fast level-0 encoder equals the definition"
    );
    for level in 0..log_msg_len {
        let r = F::from_index(1000 + level as u64);
        let folded = code.fold(level, &codeword, r);
        let by_pairs: Vec<F> = codeword
            .chunks_exact(2)
            .enumerate()
            .map(|(m, p)| code.fold_pair(level, m, [p[0], p[1]], r))
            .collect();
        assert_eq!(folded, by_pairs, "fold vs fold_pair at level {level}");
        message = fold_message(&message, r);
        assert_eq!(
            folded,
            code.encode_at_level(level + 1, &message),
            "fold commutes with encoding at level {level}"
        );
        codeword = folded;
    }
    // A constant message encodes to a constant word.
    assert!(codeword.iter().all(|&c| c == message[0]));
}

/// Interleaved encoding encodes every column on its own.
fn check_interleaved<F: Field, C: FoldableCode<F>>(log_msg_len: usize, log_inv_rate: usize) {
    let code = C::with_shape(log_msg_len, log_inv_rate).expect("shape fits");
    let width = 4;
    let message: Vec<F> = vector(width << log_msg_len, 11);
    let codeword = code.encode(&message, width);
    for col in 0..width {
        let column: Vec<F> = message.iter().skip(col).step_by(width).copied().collect();
        let expected = code.encode(&column, 1);
        let got: Vec<F> = codeword.iter().skip(col).step_by(width).copied().collect();
        assert_eq!(got, expected, "column {col}");
    }
}

#[test]
fn binary_fold_commutes_with_encoding() {
    check_fold_commutes::<Ghash128, BinaryRs<Ghash128>>(6, 1);
    check_fold_commutes::<Ghash128, BinaryRs<Ghash128>>(5, 2);
    check_fold_commutes::<Ghash128, BinaryRs<Ghash128>>(13, 1);
}

#[test]
fn prime_fold_commutes_with_encoding() {
    check_fold_commutes::<Goldilocks, Radix2Rs<Goldilocks>>(6, 1);
    check_fold_commutes::<Goldilocks, Radix2Rs<Goldilocks>>(13, 2);
    check_fold_commutes::<Bn254Fr, Radix2Rs<Bn254Fr>>(5, 1);
    check_fold_commutes::<Bn254Fr, Radix2Rs<Bn254Fr>>(12, 1);
}

#[test]
fn interleaved_encoding_encodes_each_column() {
    check_interleaved::<Ghash128, BinaryRs<Ghash128>>(7, 1);
    check_interleaved::<Goldilocks, Radix2Rs<Goldilocks>>(12, 1);
    check_interleaved::<Bn254Fr, Radix2Rs<Bn254Fr>>(5, 2);
}

#[test]
fn radix2_output_is_bit_reversed_evaluation() {
    let log_len = 6;
    let ntt = Radix2Ntt::<Goldilocks>::new(log_len);
    let coeffs: Vec<Goldilocks> = vector(1 << log_len, 5);
    let mut data = coeffs.clone();
    ntt.forward_bit_reversed(&mut data, 1);
    for (j, &value) in data.iter().enumerate() {
        let x = ntt.root_power(reverse_bits(j, log_len));
        let direct = coeffs
            .iter()
            .rev()
            .fold(Goldilocks::ZERO, |acc, &a| acc * x + a);
        assert_eq!(value, direct, "position {j}");
    }
}

#[test]
fn shapes_outside_the_field_are_refused() {
    assert!(Radix2Rs::<Goldilocks>::with_shape(32, 1).is_none());
    assert!(Radix2Rs::<Goldilocks>::with_shape(10, 1).is_some());
    assert!(BinaryRs::<Ghash128>::with_shape(4, 0).is_none());
    assert!(Radix2Rs::<Bn254Fr>::with_shape(4, 0).is_none());
}
