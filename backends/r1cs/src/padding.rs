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
//!    Every gadget written against the circuit builder passes: its input bits are forced, and
//!    every other bit's row has the constant as a side (a materialized or output bit) or reads
//!    bits committed before it (an AND), so by induction on the order of creation every bit is
//!    forced. The positions of an IO slot unit past its region's end (regions of any bit
//!    count, `flockwork_circuit::IoLayout`) have the empty row `0 · 0 = 0`, both sides the
//!    zero node, so they are forced in every block, real or padding. NOT is an XOR with the
//!    constant column, so in a padding block `¬0 = 0`; a
//!    constant is that column or the empty XOR. The check stands for lowerings that could
//!    leave a bit free (an interpreter with unconstrained advice bits); its tests edit rows of
//!    a lowering to do so.
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
    use crate::lowering::NodeId;
    use flockwork_circuit::SlotId;
    use flockwork_testkit::circuit::{AddMaterialize, Adder, PaddingShapes, Step};

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

    /// Every builder gadget forces its padding: NOT is an XOR with the constant column (0 in a
    /// padding block), constants are that column or zero, and every committed bit's row reads
    /// earlier bits or the constant. [`PaddingShapes`] holds NOT of the constant, of zero and
    /// of an input, constant outputs and 28 AND layers (29 passes to the fixed point).
    #[test]
    fn builder_gadgets_force_their_padding_blocks() {
        assert_eq!(unforced_column(&R1csLowering::new(&Adder::<32>)), None);
        assert_eq!(unforced_column(&R1csLowering::new(&AddMaterialize)), None);
        assert_eq!(unforced_column(&R1csLowering::new(&Step)), None);
        assert_eq!(unforced_column(&R1csLowering::new(&PaddingShapes)), None);
    }

    /// A gadget with regions that fill no slot unit: a 100-bit state, 70 key bits, 5 bits out.
    struct Odd;

    impl flockwork_circuit::Gadget for Odd {
        fn layout(&self) -> flockwork_circuit::IoLayout {
            flockwork_circuit::IoLayout::auto()
                .state("x", "y", 100)
                .input("k", 70)
                .output("p", 5)
                .build()
        }

        fn synthesize<B: flockwork_circuit::CircuitBuilder>(&self, b: &mut B) {
            let (x, k) = (b.input(SlotId(0)), b.input(SlotId(2)));
            let y: Vec<B::Wire> = (0..100).map(|i| b.and(x[i], k[i % 70])).collect();
            b.output(SlotId(1), &y);
            let p: Vec<B::Wire> = (0..5).map(|i| b.not(y[i])).collect();
            b.output(SlotId(3), &p);
        }
    }

    /// The unused positions of the slot units (past each region's end) have the row `0 · 0`
    /// and are forced, like every other bit of a builder gadget.
    #[test]
    fn the_padding_of_slot_units_is_forced() {
        let lowering = R1csLowering::new(&Odd);
        let layout = lowering.layout();
        assert_eq!(layout.slot_bits(), 128);
        for (id, slot) in layout.slots().iter().enumerate() {
            let end = (slot.first_slot + slot.bits.div_ceil(128)) * 128;
            for p in layout.positions(SlotId(id)).end..end {
                assert_eq!(
                    lowering.row(p),
                    [NodeId::ZERO, NodeId::ZERO],
                    "position {p}"
                );
            }
        }
        assert_eq!(unforced_column(&lowering), None);
    }

    /// Column `p`'s node.
    fn column(lowering: &R1csLowering, p: usize) -> NodeId {
        lowering.node_id(1 + p)
    }

    /// [`Step`]'s lowering and its first AND column (the first aux bit of its addition; the
    /// other 30 follow it, each reading the ones before through the carry).
    fn step() -> (R1csLowering, usize) {
        let lowering = R1csLowering::new(&Step);
        let first_and = lowering.layout().const_position() + 1;
        assert!(matches!(lowering.row(first_and), [a, b] if a != b));
        (lowering, first_and)
    }

    /// A row `z·z = z` holds for every bit, so honest witnesses satisfy it, but it leaves the
    /// bit free in a padding block: an input, an output and an AND bit are each named.
    #[test]
    fn a_bit_whose_row_is_its_own_square_is_free() {
        let (base, first_and) = step();
        let x = base.layout().positions(SlotId(0));
        let y = base.layout().positions(SlotId(1));
        let k = base.layout().positions(SlotId(2));
        for p in [x.start, x.start + 37, y.start + 5, k.end - 1, first_and] {
            let mut lowering = base.clone();
            let z = column(&lowering, p);
            lowering.set_row(p, [z, z]);
            assert_eq!(unforced_column(&lowering), Some(p), "row {p}");
        }
        // The first of two free bits is named.
        let mut lowering = base.clone();
        for p in [y.start + 9, x.start + 3] {
            let z = column(&lowering, p);
            lowering.set_row(p, [z, z]);
        }
        assert_eq!(unforced_column(&lowering), Some(x.start + 3));
    }

    /// Two bits that each force the other only: `u = v·v`, `v = u·u` has the solution
    /// `u = v = 1` in a padding block. With one forced side on `u`'s row (an input bit) both
    /// are forced, `v` one pass after `u`.
    #[test]
    fn a_cycle_is_forced_only_through_a_forced_side() {
        let (base, u) = step();
        let v = u + 20;
        let mut lowering = base.clone();
        let (zu, zv) = (column(&lowering, u), column(&lowering, v));
        lowering.set_row(u, [zv, zv]);
        lowering.set_row(v, [zu, zu]);
        assert_eq!(unforced_column(&lowering), Some(u));
        let x = column(&lowering, 7);
        lowering.set_row(u, [zv, x]);
        assert_eq!(unforced_column(&lowering), None);
    }

    /// A side is forced when it is an XOR of forced nodes only: `x0 ⊕ x1` of two input bits
    /// forces an AND bit whose other side is the bit itself, while `1 ⊕ f` of the (forced)
    /// constant and a free bit `f` does not — the bit reading it is named, not `f`.
    #[test]
    fn an_xor_is_forced_when_both_its_nodes_are() {
        let (base, q) = step();
        let mut lowering = base.clone();
        let both = lowering.push_xor(column(&base, 0), column(&base, 1));
        let zq = column(&lowering, q);
        lowering.set_row(q, [both, zq]);
        assert_eq!(unforced_column(&lowering), None);

        let mut lowering = base.clone();
        let f = q + 30; // the last aux bit: only the top output bit reads it
        let zf = column(&lowering, f);
        lowering.set_row(f, [zf, zf]);
        assert_eq!(unforced_column(&lowering), Some(f));
        let one = column(&lowering, lowering.layout().const_position());
        let one_f = lowering.push_xor(one, zf);
        lowering.set_row(q, [one_f, one_f]);
        assert_eq!(unforced_column(&lowering), Some(q));
        // An XOR of an XOR: `(x0 ⊕ x1) ⊕ f`.
        let mut lowering = base.clone();
        lowering.set_row(f, [zf, zf]);
        let both = lowering.push_xor(column(&base, 0), column(&base, 1));
        let deep = lowering.push_xor(both, zf);
        lowering.set_row(q, [deep, deep]);
        assert_eq!(unforced_column(&lowering), Some(q));
    }

    /// Forcing that runs against the column order, one bit a pass: AND bits
    /// `a_0 < a_1 < … < a_20`, row `a_i = a_{i+1}·a_{i+1}` and `a_20 = x0·x0` (an input bit),
    /// are all forced after 22 passes; with `a_20 = a_20·a_20` instead none is, and `a_0` is
    /// named.
    #[test]
    fn forcing_reaches_its_fixed_point_against_the_column_order() {
        let (base, first_and) = step();
        let chain: Vec<usize> = (first_and..=first_and + 20).collect();
        let mut lowering = base.clone();
        for w in chain.windows(2) {
            let next = column(&lowering, w[1]);
            lowering.set_row(w[0], [next, next]);
        }
        let last = *chain.last().unwrap();
        let x0 = column(&lowering, 0);
        lowering.set_row(last, [x0, x0]);
        assert_eq!(unforced_column(&lowering), None);
        let z = column(&lowering, last);
        lowering.set_row(last, [z, z]);
        assert_eq!(unforced_column(&lowering), Some(first_and));
    }

    /// The constant column is forced by the padding's pin, not by its row `1·1 = 1`, which
    /// reads `c·c = c` (free) in a padding block.
    #[test]
    fn the_constant_column_is_forced_from_the_start() {
        let (base, _) = step();
        let c = base.layout().const_position();
        let one = column(&base, c);
        assert_eq!(base.row(c), [one, one]);
        assert_eq!(unforced_column(&base), None);
    }
}
