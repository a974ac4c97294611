//! The constraint statistics of the three hashes, pinned: the figures of the Flock paper's
//! reference encoding (their R1CS, lowered by `flockwork-r1cs`, is tested there).

use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::{CircuitStats, Gadget};

fn pinned(stats: &CircuitStats) -> (usize, usize, usize, usize) {
    (
        stats.and_gates,
        stats.committed_bits,
        stats.materialized_bits,
        stats.log_block,
    )
}

#[test]
fn statistics_are_pinned() {
    // (AND gates, committed bits, materialized non-output bits, m0)
    assert_eq!(pinned(&KeccakF1600::new().stats()), (38_400, 41_601, 0, 16));
    assert_eq!(pinned(&Sha256Compress.stats()), (22_696, 31_401, 7_680, 15));
    assert_eq!(pinned(&Blake3Compress.stats()), (10_416, 15_409, 3_584, 14));
    assert_eq!(KeccakF1600::new().stats().positions, 2 * 2048 + 1 + 38_400);
    let sha = Sha256Compress.stats();
    assert_eq!((sha.input_bits, sha.output_bits), (768, 256));
    let blake = Blake3Compress.stats();
    assert_eq!((blake.input_bits, blake.output_bits), (896, 512));
}
