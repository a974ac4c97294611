//! Combining soundness terms.

/// `−log2 Σ_t 2^(−bits_t)`: the bits left after a union bound over independent failure
/// events of `bits_t` bits each (`+∞` for no terms).
#[must_use]
pub fn union_bits(bits: impl IntoIterator<Item = f64>) -> f64 {
    // `libm` keeps the crate `no_std` (`f64::exp2` and `log2` need `std`).
    -libm::log2(bits.into_iter().map(|b| libm::exp2(-b)).sum::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_of_equal_terms_loses_log2_of_their_count() {
        assert!((union_bits([100.0, 100.0]) - 99.0).abs() < 1e-9);
        assert!((union_bits([100.0, 100.0, 100.0, 100.0]) - 98.0).abs() < 1e-9);
        assert!((union_bits([100.0]) - 100.0).abs() < 1e-9);
        assert_eq!(union_bits([]), f64::INFINITY);
    }
}
