//! Exact instance counts: `N` real instances in a `2^k`-block witness, the blocks past them
//! zero (the ragged idea of the GKR seed: instances occupy the hypercube's low blocks, the rest
//! is a zero extension).
//!
//! ## Why zero blocks are sound
//!
//! The protocol is unchanged except in three places, all bound to `N` (the count is in the
//! instance bytes, hence in the transcript and the setup digest,
//! [`crate::Flock::setup_digest`]):
//!
//! 1. **The constant pin** (`crate::lincheck`): the lincheck's `β` term checks
//!    `ẑ(s_out, const) = ι_N(s_out)`, the multilinear extension of the indicator of the
//!    first `N` blocks, at the zerocheck's random instance point `s_out`. Both sides are
//!    multilinear in `k` variables, so a constant column that is not exactly `1` on blocks
//!    `< N` and `0` on blocks `≥ N` passes with probability `≤ k/|F|` (Schwartz–Zippel; the
//!    lincheck's term in [`crate::SoundnessReport`] covers it, as it covered the all-ones
//!    pin). A real instance therefore cannot drop its constant wire (which would turn NOT into
//!    the identity and erase round constants), and a padding block cannot raise it.
//! 2. **Padding blocks are zero.** The zerocheck covers all `2^m` rows, padding included, so
//!    every block satisfies `(A0 z)∘(B0 z) = z`. In a padding block the constant wire is 0,
//!    and [`unforced_column`] checks once per setup that the gadget's rows then leave no bit
//!    free: starting from the constant column, a column is *forced* when one side of its row
//!    is an XOR of forced columns only (that side is 0, so the bit is 0). Input bits have the
//!    row `x·1 = x`, which reads `x·0 = x` there; every other bit's row reads earlier bits. A
//!    setup below `2^k` instances is refused ([`crate::SetupError::PaddingNotForced`]) unless
//!    every column is forced, so a padding block holds only zeros — in its IO regions too.
//! 3. **The IO arguments** read the padding as zeros. The chain claim ([`crate::io`]) ends at
//!    instance `N − 1`: with `In(N) = 0` its identity
//!    `Σ_i [shift(τ, i) + α·eq(0, i)]·In(i) + eq(τ, i)·Out(i) = eq(τ, N − 1)·X_last + α·X_0`
//!    holds iff `In(0) = X_0`, `In(i + 1) = Out(i)` for `i < N − 1` and `Out(N − 1) = X_last`
//!    (blocks past `N` contribute zeros on both sides). The public-IO claim
//!    ([`crate::public`]) takes the statement's `N` vectors and zeros past them. A Merkle
//!    tree over `N` leaves ([`crate::merkle`]) has its internal nodes at instances `1 .. N`
//!    in heap order; node `p` reads nodes `2p`, `2p + 1`, which are instances below `N` or
//!    public leaves (heap nodes `N .. 2N`), never a padding block, and the public side counts
//!    the fixed regions of instances `1 .. N` only, so a zero block is neither read as a child
//!    nor asked to hold the IV.
//!
//! So a proof for `N` instances says exactly what a proof for `2^k` instances said, about the
//! first `N`; a proof for `N` is not a proof for `N ± 1` (another setup digest, another pin).
//!
//! ## Cost
//!
//! Proportional to `N`: witness generation (the prover takes the `N` instances' inputs or
//! witness; the zero blocks exist only in the packed polynomial), the zerocheck's skip round
//! (groups of rows past the live rows are skipped: their sums are zero) and the lincheck's
//! instance fold (groups of 64 instances past `N` are not read). The first multilinear round
//! skips the products of the high half's zero chunks. Still over all `2^k` blocks:
//!
//! * the other multilinear rounds of the zerocheck: they bind the highest row variable first,
//!   an instance bit, so after the first round every entry of the folded tables mixes a real
//!   block with a padding one and none is known to be zero;
//! * the commitment. Every shipped scheme encodes the packed polynomial into a codeword whose
//!   every symbol depends on the whole message, so no hashed leaf is known to be zero:
//!   Ligerito Reed–Solomon-encodes each column of its matrix (the zero blocks are a zero tail
//!   of every column's message; its non-systematic NTT output is dense), FRI-Binius encodes
//!   the whole polynomial as one codeword, and the Blaze-style RAA code repeats, permutes and
//!   accumulates, which spreads any non-zero symbol over the codeword. What a zero tail could
//!   save is part of the encoding's first butterfly layers, not the hashing;
//! * the opening (the ring-switching fold and the commitment's sumcheck over the whole
//!   packed polynomial) and the IO weights' tables, which are not zero on the padding.

use crate::lowering::{Node, R1csLowering};

/// The first block position that the gadget's rows do not force to zero when the constant
/// wire is zero (see the module docs), or `None` if every position is forced.
///
/// Iterates to the fixed point: each pass evaluates "every leaf forced" over the XOR graph
/// (creation order is topological) and marks the rows with a forced side; a pass that marks
/// nothing new ends it.
#[must_use]
pub fn unforced_column(lowering: &R1csLowering) -> Option<usize> {
    let columns = 1usize << lowering.log_block();
    let nodes = 1 + columns + lowering.xor_nodes();
    let mut forced = vec![false; columns];
    forced[lowering.layout().const_position()] = true;
    let mut node_forced = vec![false; nodes];
    loop {
        for i in 0..nodes {
            node_forced[i] = match lowering.node(lowering.node_id(i)) {
                Node::Zero => true,
                Node::Column(p) => forced[p],
                Node::Xor(a, b) => node_forced[a.index()] && node_forced[b.index()],
            };
        }
        let mut changed = false;
        for (j, f) in forced.iter_mut().enumerate() {
            if !*f && lowering.row(j).iter().any(|side| node_forced[side.index()]) {
                *f = true;
                changed = true;
            }
        }
        if !changed {
            return forced.iter().position(|&f| !f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_hashes_force_their_padding_blocks() {
        assert_eq!(
            unforced_column(&R1csLowering::new(&flockwork_boolean::Sha256Compress)),
            None
        );
        assert_eq!(
            unforced_column(&R1csLowering::new(&flockwork_boolean::Blake3Compress)),
            None
        );
        assert_eq!(
            unforced_column(&R1csLowering::new(&flockwork_boolean::KeccakF1600::new())),
            None
        );
    }
}
