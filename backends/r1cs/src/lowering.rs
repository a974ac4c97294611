//! The R1CS lowering: `A0`, `B0` as an XOR graph over committed bits, never as a dense matrix.

use flockwork_circuit::{
    Allocator, CircuitBuilder, CircuitStats, Gadget, IoLayout, SlotId, SlotKind, lanes_of_blocks,
};
use flockwork_field::Field;

/// A node of the XOR graph of an [`R1csLowering`] (see [`R1csLowering::node`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The empty XOR (value 0).
    pub const ZERO: Self = Self(0);

    /// The node's number in a lowered graph: `0` for [`NodeId::ZERO`], `1 + p` for column
    /// `p`, `1 + 2^m0 + k` for the `k`-th XOR node. Inputs of a node always have smaller
    /// numbers (creation order is topological).
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node of the XOR graph is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// The constant 0.
    Zero,
    /// The committed bit at this position of the instance block.
    Column(usize),
    /// The XOR of two earlier nodes.
    Xor(NodeId, NodeId),
}

/// Marks builder-time XOR node ids until they are renumbered.
const XOR_TAG: u32 = 1 << 31;

/// The block R1CS `(A0 z) ∘ (B0 z) = z` of one instance, lowered from a [`Gadget`].
///
/// Row `j` of `A0` (and `B0`) is a node of an XOR graph whose leaves are the committed bits
/// (columns) of the block: `(A0 z)_j` is the XOR of the leaves the node expands to. Nodes are
/// numbered in creation order, which is topological, so
///
/// * the **forward walk** evaluates every node once from `z` (or from any vector `v` over a
///   field, giving `A0 v`, `B0 v`), and
/// * the **backward walk** computes `A0ᵀ w_a + B0ᵀ w_b` by depositing row weights on the row
///   nodes and visiting the XOR nodes in reverse, adding each node's accumulated weight to
///   its two inputs (the transpose of the forward recurrence; Flock notes §3 "Lincheck with
///   circuit walking").
///
/// Both cost one pass over the graph, `O(#XOR + 2^m0)` additions, independent of the row
/// densities, which for Keccak reach thousands of taps per row after substitution.
///
/// Node numbering after lowering: `0` is [`NodeId::ZERO`], `1 + p` is column `p`
/// (`p < 2^m0`), `1 + 2^m0 + k` is the `k`-th XOR node.
#[derive(Clone, Debug)]
pub struct R1csLowering {
    layout: IoLayout,
    stats: CircuitStats,
    xors: Vec<[u32; 2]>,
    rows: Vec<[u32; 2]>,
}

impl R1csLowering {
    /// Lowers `gadget`.
    ///
    /// # Panics
    /// If the gadget misuses its IO regions or has more than 2^30 nodes.
    #[must_use]
    pub fn new<G: Gadget>(gadget: &G) -> Self {
        let mut b = LoweringBuilder::new(gadget.layout());
        gadget.synthesize(&mut b);
        b.alloc.check_complete();
        let stats = CircuitStats::from_allocator(&b.alloc, b.xor_gates);
        let columns = stats.block_bits();
        let renumber = |id: u32| {
            if id & XOR_TAG == 0 {
                id
            } else {
                1 + columns as u32 + (id & !XOR_TAG)
            }
        };
        let mut rows = b.rows;
        rows.resize(columns, [0, 0]);
        for row in &mut rows {
            *row = row.map(renumber);
        }
        let xors = b.xors.into_iter().map(|x| x.map(renumber)).collect();
        Self {
            layout: b.alloc.layout().clone(),
            stats,
            xors,
            rows,
        }
    }

    /// Statistics of the lowered gadget.
    #[must_use]
    pub fn stats(&self) -> &CircuitStats {
        &self.stats
    }

    /// The IO layout.
    #[must_use]
    pub fn layout(&self) -> &IoLayout {
        &self.layout
    }

    /// `m0`: an instance block has `2^m0` positions (rows and columns).
    #[must_use]
    pub fn log_block(&self) -> usize {
        self.stats.log_block
    }

    /// Number of XOR nodes in the graph (after dropping XORs with zero).
    #[must_use]
    pub fn xor_nodes(&self) -> usize {
        self.xors.len()
    }

    /// The nodes of row `j` of `A0` and `B0`.
    ///
    /// # Panics
    /// If `j >= 2^m0`.
    #[must_use]
    pub fn row(&self, j: usize) -> [NodeId; 2] {
        self.rows[j].map(NodeId)
    }

    /// The node numbered `index` (see [`NodeId::index`]).
    ///
    /// # Panics
    /// If `index` is not below `1 + 2^m0 + xor_nodes()`.
    #[must_use]
    pub fn node_id(&self, index: usize) -> NodeId {
        assert!(
            index < 1 + self.rows.len() + self.xors.len(),
            "no such node"
        );
        NodeId(index as u32)
    }

    /// What node `id` is.
    ///
    /// # Panics
    /// If `id` is not a node of this graph.
    #[must_use]
    pub fn node(&self, id: NodeId) -> Node {
        let columns = self.rows.len();
        let i = id.0 as usize;
        if i == 0 {
            Node::Zero
        } else if i <= columns {
            Node::Column(i - 1)
        } else {
            let [a, b] = self.xors[i - 1 - columns];
            Node::Xor(NodeId(a), NodeId(b))
        }
    }

    /// Evaluates every node from the leaf values `leaf(p)` (forward walk) and returns the
    /// per-row values of the A side and the B side.
    fn walk_forward<V: Copy>(
        &self,
        leaf: impl Fn(usize) -> V,
        zero: V,
        add: impl Fn(V, V) -> V,
    ) -> (Vec<V>, Vec<V>) {
        let columns = self.rows.len();
        let mut values = Vec::with_capacity(1 + columns + self.xors.len());
        values.push(zero);
        values.extend((0..columns).map(leaf));
        for &[a, b] in &self.xors {
            let v = add(values[a as usize], values[b as usize]);
            values.push(v);
        }
        let side = |s: usize| self.rows.iter().map(|r| values[r[s] as usize]).collect();
        (side(0), side(1))
    }

    /// `(A0 v, B0 v)` for a vector `v` of `2^m0` field elements (forward walk).
    ///
    /// # Panics
    /// If `v.len() != 2^m0`.
    #[must_use]
    pub fn mul<F: Field>(&self, v: &[F]) -> (Vec<F>, Vec<F>) {
        assert_eq!(v.len(), self.rows.len(), "vector length must be 2^m0");
        self.walk_forward(|p| v[p], F::ZERO, |x, y| x + y)
    }

    /// `A0ᵀ w_a + B0ᵀ w_b` (backward walk), for weight vectors of `2^m0` elements. With
    /// `w_a = α·e`, `w_b = e` this is the lincheck's combined vector `α A0ᵀe + B0ᵀe`.
    ///
    /// # Panics
    /// If a weight vector does not have `2^m0` elements.
    #[must_use]
    pub fn transpose_mul<F: Field>(&self, w_a: &[F], w_b: &[F]) -> Vec<F> {
        let columns = self.rows.len();
        assert_eq!(w_a.len(), columns, "weight length must be 2^m0");
        assert_eq!(w_b.len(), columns, "weight length must be 2^m0");
        let mut acc = vec![F::ZERO; 1 + columns + self.xors.len()];
        for (row, (&wa, &wb)) in self.rows.iter().zip(w_a.iter().zip(w_b)) {
            acc[row[0] as usize] += wa;
            acc[row[1] as usize] += wb;
        }
        for (k, &[a, b]) in self.xors.iter().enumerate().rev() {
            let w = acc[1 + columns + k];
            if !w.is_zero() {
                acc[a as usize] += w;
                acc[b as usize] += w;
            }
        }
        acc.drain(1..=columns).collect()
    }

    /// The A and B sides of 64 instances at once: `z_lanes[p]` holds position `p` of
    /// instance `l` in bit `l` (bit-sliced forward walk).
    ///
    /// # Panics
    /// If `z_lanes.len() != 2^m0`.
    #[must_use]
    pub fn sides_lanes(&self, z_lanes: &[u64]) -> (Vec<u64>, Vec<u64>) {
        assert_eq!(
            z_lanes.len(),
            self.rows.len(),
            "need one lane word per position"
        );
        self.walk_forward(|p| z_lanes[p], 0, |x, y| x ^ y)
    }

    /// Checks `(A0 z_k) ∘ (B0 z_k) = z_k` for every instance block of a batch witness `z`
    /// (packed as in [`BatchWitness::z`](flockwork_circuit::BatchWitness::z)). Returns the first violated
    /// `(instance, position)`, or `None` when all rows hold.
    ///
    /// # Panics
    /// If `z.len()` is not `instances · 2^m0 / 64`.
    #[must_use]
    pub fn first_violation(&self, z: &[u64], instances: usize) -> Option<(usize, usize)> {
        let words = self.rows.len() / 64;
        assert_eq!(
            z.len(),
            instances * words,
            "batch witness has the wrong length"
        );
        for group in 0..instances.div_ceil(64) {
            let lanes = lanes_of_blocks(z, words, group * 64, instances);
            let (a, b) = self.sides_lanes(&lanes);
            let live = live_mask(instances - group * 64);
            for (p, ((&zp, &ap), &bp)) in lanes.iter().zip(&a).zip(&b).enumerate() {
                let bad = ((ap & bp) ^ zp) & live;
                if bad != 0 {
                    return Some((group * 64 + bad.trailing_zeros() as usize, p));
                }
            }
        }
        None
    }
}

/// Edits for the tests of the padding check ([`crate::padding`]): rows that no builder emits.
#[cfg(test)]
impl R1csLowering {
    /// Replaces row `j`.
    pub(crate) fn set_row(&mut self, j: usize, row: [NodeId; 2]) {
        self.rows[j] = row.map(|n| n.0);
    }

    /// Appends the XOR node `a ⊕ b` (of earlier nodes) and returns it.
    pub(crate) fn push_xor(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.xors.push([a.0, b.0]);
        self.node_id(self.rows.len() + self.xors.len())
    }
}

/// The lanes `0..min(n, 64)` set.
fn live_mask(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1u64 << n) - 1 }
}

/// The builder behind [`R1csLowering::new`]: wires are graph nodes, leaves are `1 + p`,
/// XOR nodes carry [`XOR_TAG`] until renumbering.
struct LoweringBuilder {
    alloc: Allocator,
    xors: Vec<[u32; 2]>,
    rows: Vec<[u32; 2]>,
    xor_gates: usize,
    one: u32,
}

impl LoweringBuilder {
    fn new(layout: IoLayout) -> Self {
        let c = layout.const_position();
        let one = leaf(c);
        let mut rows = vec![[0, 0]; c + 1];
        rows[c] = [one, one];
        Self {
            alloc: Allocator::new(layout),
            xors: Vec::new(),
            rows,
            xor_gates: 0,
            one,
        }
    }

    fn push_row(&mut self, position: usize, row: [u32; 2]) -> NodeId {
        debug_assert_eq!(position, self.rows.len());
        self.rows.push(row);
        NodeId(leaf(position))
    }
}

fn leaf(position: usize) -> u32 {
    let id = u32::try_from(position + 1).expect("too many positions");
    assert!(id < XOR_TAG, "too many positions");
    id
}

impl CircuitBuilder for LoweringBuilder {
    type Wire = NodeId;

    fn zero(&self) -> NodeId {
        NodeId::ZERO
    }

    fn one(&self) -> NodeId {
        NodeId(self.one)
    }

    fn xor(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.xor_gates += 1;
        if a == NodeId::ZERO {
            return b;
        }
        if b == NodeId::ZERO {
            return a;
        }
        let k = u32::try_from(self.xors.len()).expect("too many XOR nodes");
        assert!(k < XOR_TAG, "too many XOR nodes");
        self.xors.push([a.0, b.0]);
        NodeId(k | XOR_TAG)
    }

    fn and(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let p = self.alloc.and_gate();
        self.push_row(p, [a.0, b.0])
    }

    fn materialize(&mut self, a: NodeId) -> NodeId {
        let p = self.alloc.materialized();
        self.push_row(p, [a.0, self.one])
    }

    fn input(&mut self, slot: SlotId) -> Vec<NodeId> {
        let bits = self.alloc.layout().slot(slot).bits;
        let range = self.alloc.io(slot, SlotKind::Input, bits);
        range
            .map(|p| {
                self.rows[p] = [leaf(p), self.one];
                NodeId(leaf(p))
            })
            .collect()
    }

    fn output(&mut self, slot: SlotId, wires: &[NodeId]) {
        let range = self.alloc.io(slot, SlotKind::Output, wires.len());
        for (p, w) in range.zip(wires) {
            self.rows[p] = [w.0, self.one];
        }
    }
}
