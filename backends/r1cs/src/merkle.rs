//! The Merkle-tree IO argument: binds a public root and public leaves to a batch of node
//! compressions with **one linear claim on the packed polynomial**, in the style of the
//! hash-chain argument ([`crate::io`]; Flock notes §3 "IO").
//!
//! ## Layout
//!
//! A tree over `L` leaves, `2 ≤ L ≤ K = 2^k`, is the **left-complete** binary tree with `L`
//! leaves (every level full except the deepest, which fills from the left), stored in **heap
//! order**: heap node `p ∈ [1, 2L)` has children `2p` and `2p + 1`, nodes `1 .. L` are the
//! `L − 1` internal nodes (the root is 1) and nodes `L .. 2L` the leaves. Instance `p ∈ [1, L)`
//! computes node `p`; instance 0 is padding (a real computation, unconstrained by the
//! argument); the blocks from `L` on are zero ([`crate::padding`]). The statement lists the
//! leaves left to right: the `2L − 2^d` leaves of the deepest level `d = ⌈log2 L⌉` are heap
//! nodes `2^d .. 2L`, the others nodes `L .. 2^d` ([`leaf_node`]). For `L = 2^k` this is the
//! complete tree with leaf `j` at node `K + j`. (The choice of shape: it is the one whose
//! wiring is the same closed form for every `L` — node `p` reads nodes `2p`, `2p + 1` — so
//! the weight below does not depend on `L`; only the public side does.) Per instance, the
//! digest region holds the node digest, the children region `left ‖ right` (two slot units)
//! the child digests, and every *fixed* region (the IV, the BLAKE3 parameters, …) a public
//! constant. Digests of any size up to a slot unit work: the argument compares whole units,
//! whose positions past a region's end are zero ([`MerkleLayout`] says what that asks of the
//! children region).
//!
//! ## The claim
//!
//! Fold every region at the packed level with `τ_pos` (as for chains), write `D(c)`, `L(p)`,
//! `R(p)`, `F_f(p)` for the folds of instance `c`'s digest, `p`'s children and fixed regions.
//! With `A(p) = eq(τ, p)·[p ≥ 1]` and random `β, α, δ_f`, the tree is consistent iff
//! (Schwartz–Zippel over `τ, τ_pos, β, α, δ_f`)
//!
//! ```text
//! Σ_p A(p)·(L(p) + β·R(p) + Σ_f δ_f F_f(p)) + Σ_c B(c)·D(c)
//!     = Σ_{c ∈ [L, 2L)} eq(τ, ⌊c/2⌋)·β^{c_0}·leaf(c) + α·root + Σ_f δ_f·const_f·Σ_{1 ≤ p < L} eq(τ, p),
//! B(c) = eq(τ, ⌊c/2⌋)·[c ≥ 2]·(1 + c_0 + β·c_0) + α·[c = 1]
//! ```
//!
//! (characteristic two: moving a term across is adding it). The blocks from `L` on are zero,
//! so their terms on the left vanish and the identity says, coefficient by coefficient of
//! `eq(τ, p)` for `1 ≤ p < L`: node `p`'s children are the digests of nodes `2p`, `2p + 1`
//! (an instance's output or a public leaf) and its fixed regions hold the constants; with
//! `α`: instance 1's digest is the root. Every weight is multilinear with a closed form
//! independent of `L`: `[p ≥ 1] = 1 − eq(0, p)`, `eq(τ, ⌊c/2⌋)` for `c < K` is
//! `(1 + τ_{k−1})·eq(τ_{<k−1}, c_{≥1})`, `[c = 1] = c_0·eq(0, c_{≥1})`, so the verifier
//! evaluates the weight in `O(n)` ([`MerkleWeight`]) and the public side in `O(K + L)` (it
//! reads the leaves anyway). A false tree survives with probability at most
//! `(k + p + 3 + #fixed)/|F|`.

use std::sync::Arc;

use flockwork_circuit::{IoLayout, SlotId, SlotKind};
use flockwork_core::pcs::{Claim, MultilinearWeight};
use flockwork_core::{eq_eval, eq_table};
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_transcript::Transcript;

use crate::SetupError;
use crate::io::{
    add_scaled_slot, bits_point, check_slot_bits, fold_words, for_each_instance_block, sets_padding,
};

const LABEL_TAU_POS: &str = "flock/merkle/tau-pos";
const LABEL_TAU: &str = "flock/merkle/tau";
const LABEL_COEFFS: &str = "flock/merkle/coefficients";

/// Where the tree's regions live in an instance block.
///
/// Digests may have any number of bits `d` up to one slot unit of `u` bits. The node digest
/// is an output region in one unit; the children region `left ‖ right` is an input region of
/// `u + d ..= 2u` bits starting at a unit: the left child is its bits `0 .. d`, the right
/// child its bits `u .. u + d` (the start of the second unit). The claim compares whole units:
/// a child's digest unit holds zeros past `d` (positions of no region, rows `0 · 0 = 0`), so
/// the proof also says that the children region is zero at `d .. u` and at `u + d ..` — the
/// node's input is `left ‖ 0^(u−d) ‖ right ‖ 0^(…)`, which is what a relation's
/// `merkle_node` must build (for `d = u`, plain `left ‖ right`). Fixed regions hold their
/// public value zero-padded to their unit in the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleLayout {
    /// `p`: a slot unit is `2^p` packed words.
    pub log_slot_words: usize,
    /// Slot unit of the node digest.
    pub digest_slot: usize,
    /// Slot unit of the left child (the right child is the next one).
    pub left_slot: usize,
    /// Bits of a digest.
    pub digest_bits: usize,
    /// Fixed input regions: slot unit and public value (`u64` words).
    pub fixed: Vec<(usize, Vec<u64>)>,
}

impl MerkleLayout {
    /// The tree through `children` (`left ‖ right`, an input region of two slot units, the
    /// right child at the second) and `digest` (an output region in one slot unit), with the
    /// given fixed input regions.
    ///
    /// # Errors
    /// [`SetupError::MerkleLayout`], naming the region and the limit, for regions of the
    /// wrong kind or size, or a fixed value of the wrong length or with bits past its region.
    pub fn new(
        layout: &IoLayout,
        children: SlotId,
        digest: SlotId,
        fixed: Vec<(SlotId, Vec<u64>)>,
    ) -> Result<Self, SetupError> {
        let bad = |why: String| Err(SetupError::MerkleLayout(why));
        let u = check_slot_bits(layout).map_err(SetupError::MerkleLayout)?;
        let (Some(c), Some(d)) = (layout.slots().get(children.0), layout.slots().get(digest.0))
        else {
            return bad(format!(
                "no IO region {} or {} (the layout has {})",
                children.0,
                digest.0,
                layout.slots().len()
            ));
        };
        if c.kind != SlotKind::Input || d.kind != SlotKind::Output {
            return bad(format!(
                "the children are an input region and the digest an output region; {} is an \
                 {:?} region and {} an {:?} region",
                c.name, c.kind, d.name, d.kind
            ));
        }
        if d.bits > u {
            return bad(format!(
                "the digest region {} has {} bits, more than one {u}-bit slot unit \
                 (IoLayout::auto with the digest as the state picks units that hold it)",
                d.name, d.bits
            ));
        }
        if c.bits < u + d.bits || c.bits > 2 * u {
            return bad(format!(
                "the children region {} has {} bits; with {}-bit digests in {u}-bit slot units \
                 it holds the left child in its first unit and the right one at the start of \
                 its second: {} to {} bits",
                c.name,
                c.bits,
                d.bits,
                u + d.bits,
                2 * u
            ));
        }
        let mut fixed_slots = Vec::with_capacity(fixed.len());
        for (id, value) in fixed {
            let Some(f) = layout.slots().get(id.0) else {
                return bad(format!("no fixed IO region {}", id.0));
            };
            if f.kind != SlotKind::Input || id == children {
                return bad(format!(
                    "the fixed region {} is not an input region other than the children",
                    f.name
                ));
            }
            if f.bits > u {
                return bad(format!(
                    "the fixed region {} has {} bits, more than one {u}-bit slot unit",
                    f.name, f.bits
                ));
            }
            if value.len() != f.words() || sets_padding(&value, f.bits) {
                return bad(format!(
                    "the value of the fixed region {} is {} words; it holds {} bits: {} words, \
                     the bits past them zero",
                    f.name,
                    value.len(),
                    f.bits,
                    f.words()
                ));
            }
            fixed_slots.push((f.first_slot, value));
        }
        Ok(Self {
            log_slot_words: (u / 128).trailing_zeros() as usize,
            digest_slot: d.first_slot,
            left_slot: c.first_slot,
            digest_bits: d.bits,
            fixed: fixed_slots,
        })
    }

    /// Words of a digest (`u64`): `⌈digest_bits/64⌉`, the bits past `digest_bits` zero.
    #[must_use]
    pub fn digest_words(&self) -> usize {
        self.digest_bits.div_ceil(64)
    }
}

/// The challenges of the Merkle argument.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MerkleChallenges {
    tau_pos: Vec<Ghash128>,
    tau: Vec<Ghash128>,
    beta: Ghash128,
    alpha: Ghash128,
    deltas: Vec<Ghash128>,
}

/// The weight of the Merkle claim (see the module docs).
#[derive(Clone, Debug)]
pub struct MerkleWeight {
    layout: MerkleLayout,
    slot_vars: usize,
    ch: MerkleChallenges,
}

impl MerkleWeight {
    /// The per-slot-unit coefficient of `A(p)` (left, right and fixed regions).
    fn a_slots(&self) -> Vec<(usize, Ghash128)> {
        let mut out = vec![
            (self.layout.left_slot, Ghash128::ONE),
            (self.layout.left_slot + 1, self.ch.beta),
        ];
        out.extend(
            self.layout
                .fixed
                .iter()
                .zip(&self.ch.deltas)
                .map(|((slot, _), &d)| (*slot, d)),
        );
        out
    }
}

impl MultilinearWeight<Ghash128> for MerkleWeight {
    fn num_vars(&self) -> usize {
        self.layout.log_slot_words + self.slot_vars + self.ch.tau.len()
    }

    fn accumulate_table(&self, scale: Ghash128, out: &mut [Ghash128]) {
        let p = self.layout.log_slot_words;
        let eq_pos = eq_table(&self.ch.tau_pos);
        let eq_inst = eq_table(&self.ch.tau);
        let block = 1usize << (p + self.slot_vars);
        let a_slots = self.a_slots();
        for_each_instance_block(out, block, |inst, out| {
            if inst == 0 {
                return;
            }
            let mut put = |slot: usize, w: Ghash128| {
                add_scaled_slot(&mut out[slot << p..][..1 << p], scale * w, &eq_pos);
            };
            for &(slot, coeff) in &a_slots {
                put(slot, coeff * eq_inst[inst]);
            }
            let b = match inst {
                1 => self.ch.alpha,
                c if c % 2 == 0 => eq_inst[c / 2],
                c => self.ch.beta * eq_inst[c / 2],
            };
            put(self.layout.digest_slot, b);
        });
    }

    fn evaluate(&self, point: &[Ghash128]) -> Ghash128 {
        let (pos, rest) = point.split_at(self.layout.log_slot_words);
        let (slot, inst) = rest.split_at(self.slot_vars);
        let k = inst.len();
        let one = Ghash128::ONE;
        let sel = |s: usize| eq_eval(&bits_point(s, self.slot_vars), slot);
        let zeros = vec![Ghash128::ZERO; k];
        // A(p) = eq(τ, p) − eq(τ, 0)·eq(0, p).
        let a = eq_eval(&self.ch.tau, inst) - eq_eval(&self.ch.tau, &zeros) * eq_eval(&zeros, inst);
        // B(c) with c = (c_0, c_hi).
        let (c0, c_hi) = (inst[0], &inst[1..]);
        let tau_lo = &self.ch.tau[..k - 1];
        let top = one + self.ch.tau[k - 1];
        let parent =
            eq_eval(tau_lo, c_hi) - eq_eval(tau_lo, &zeros[1..]) * eq_eval(&zeros[1..], c_hi);
        let b = top * parent * (one + c0 + self.ch.beta * c0)
            + self.ch.alpha * c0 * eq_eval(&zeros[1..], c_hi);
        let a_sel: Ghash128 = self
            .a_slots()
            .iter()
            .map(|&(s, coeff)| coeff * sel(s))
            .sum();
        eq_eval(&self.ch.tau_pos, pos) * (a_sel * a + sel(self.layout.digest_slot) * b)
    }

    fn transcript_bytes(&self) -> Vec<u8> {
        let mut out = b"flock/merkle".to_vec();
        for v in [
            self.layout.log_slot_words,
            self.slot_vars,
            self.layout.digest_slot,
            self.layout.left_slot,
            self.layout.fixed.len(),
        ] {
            out.extend_from_slice(&(v as u64).to_le_bytes());
        }
        for (slot, _) in &self.layout.fixed {
            out.extend_from_slice(&(*slot as u64).to_le_bytes());
        }
        let ch = &self.ch;
        for x in ch
            .tau_pos
            .iter()
            .chain(&ch.tau)
            .chain([&ch.beta, &ch.alpha])
            .chain(&ch.deltas)
        {
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        out
    }
}

pub use flockwork_core::merkle::leaf_node;

/// The left-complete tree over `leaves` (left to right, at least 2;
/// [`flockwork_core::merkle::heap_tree`]) with the node function `node(left, right)`: the
/// children each instance hashes (`children[p]` for instance `p < L`; instance 0, the padding
/// instance, hashes two default digests) and the root.
///
/// # Panics
/// If there are fewer than 2 leaves.
#[must_use]
pub fn heap_tree<D: Copy + Default>(leaves: &[D], node: impl Fn(&D, &D) -> D) -> (Vec<(D, D)>, D) {
    let Ok((nodes, root)) = flockwork_core::merkle::heap_tree(leaves, |l, r| {
        Ok::<_, core::convert::Infallible>(node(l, r))
    });
    let mut children = Vec::with_capacity(leaves.len());
    children.push((D::default(), D::default()));
    children.extend(nodes);
    (children, root)
}

/// Squeezes the challenges and returns the packed claim for the tree with `root` over
/// `leaves` (`L` of them, `2 ≤ L ≤ 2^log_instances`, left to right; instances `1 .. L` are
/// the internal nodes in heap order, the blocks from `L` on zero; prover and verifier).
///
/// # Panics
/// If there are fewer than 2 leaves or more than `2^log_instances` (the caller checks the
/// statement first).
#[must_use]
pub fn merkle_claim<T: Transcript>(
    layout: &MerkleLayout,
    log_block: usize,
    log_instances: usize,
    root: &[u64],
    leaves: &[Vec<u64>],
    transcript: &mut T,
) -> Claim<Ghash128> {
    let l = leaves.len();
    assert!(l >= 2 && l <= 1 << log_instances);
    let p = layout.log_slot_words;
    let ch = MerkleChallenges {
        tau_pos: transcript.challenges(LABEL_TAU_POS, p),
        tau: transcript.challenges(LABEL_TAU, log_instances),
        beta: transcript.challenge(LABEL_COEFFS),
        alpha: transcript.challenge(LABEL_COEFFS),
        deltas: transcript.challenges(LABEL_COEFFS, layout.fixed.len()),
    };
    let eq_inst = eq_table(&ch.tau);
    let eq_pos = eq_table(&ch.tau_pos);
    let leaf_side: Ghash128 = leaves
        .iter()
        .enumerate()
        .map(|(j, leaf)| {
            let c = leaf_node(j, l);
            let side = if c % 2 == 1 { ch.beta } else { Ghash128::ONE };
            eq_inst[c / 2] * side * fold_words(leaf, &eq_pos)
        })
        .sum();
    // The fixed regions of the internal nodes `1 .. L` (instance 0 is unconstrained, the
    // blocks past `L` are zero).
    let internal: Ghash128 = eq_inst[1..l].iter().copied().sum();
    let fixed_side: Ghash128 = layout
        .fixed
        .iter()
        .zip(&ch.deltas)
        .map(|((_, value), &d)| d * fold_words(value, &eq_pos))
        .sum::<Ghash128>()
        * internal;
    let value = leaf_side + ch.alpha * fold_words(root, &eq_pos) + fixed_side;
    let weight = MerkleWeight {
        layout: layout.clone(),
        slot_vars: log_block - 7 - p,
        ch,
    };
    Claim::linear(Arc::new(weight), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(i: u128) -> Ghash128 {
        Ghash128::new(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834 ^ (i * 0x1234_5677))
    }

    /// A weight over `2^log_k` instances: slot units of 2 words, 4 per instance.
    fn weight(log_k: u128) -> MerkleWeight {
        MerkleWeight {
            layout: MerkleLayout {
                log_slot_words: 1,
                digest_slot: 1,
                left_slot: 2,
                digest_bits: 256,
                fixed: vec![(0, vec![1, 2, 3, 4])],
            },
            slot_vars: 2,
            ch: MerkleChallenges {
                tau_pos: vec![g(1)],
                tau: (0..log_k).map(|i| g(2 + i)).collect(),
                beta: g(20),
                alpha: g(21),
                deltas: vec![g(22)],
            },
        }
    }

    #[test]
    fn digests_of_any_size_within_a_slot_unit() {
        let sha1 = crate::io::sha1_layout();
        let iv = vec![1, 2, 3];
        let m = MerkleLayout::new(&sha1, SlotId(2), SlotId(1), vec![(SlotId(0), iv)]).unwrap();
        assert_eq!(
            (m.log_slot_words, m.digest_slot, m.left_slot, m.digest_bits),
            (1, 1, 2, 160)
        );
        assert_eq!(m.digest_words(), 3);
        let err = |layout: &IoLayout, fixed| {
            MerkleLayout::new(layout, SlotId(2), SlotId(1), fixed)
                .unwrap_err()
                .to_string()
        };
        let says = |message: String, parts: &[&str]| crate::io::assert_says(&message, parts);
        says(
            err(&sha1, vec![(SlotId(0), vec![1, 2])]),
            &["fixed region h_in is 2 words", "160 bits: 3 words"],
        );
        says(
            err(&sha1, vec![(SlotId(0), vec![1, 2, 1 << 32])]),
            &["fixed region h_in", "bits past them zero"],
        );
        // The right child must fit at the start of the second unit.
        let short = IoLayout::new(256)
            .input("h_in", 0, 160)
            .output("h_out", 1, 160)
            .input("block", 2, 400);
        says(
            err(&short, vec![]),
            &["children region block has 400 bits", "416 to 512 bits"],
        );
        let small_units = IoLayout::new(128)
            .input("h_in", 0, 128)
            .output("h_out", 1, 160)
            .input("block", 3, 256);
        says(
            err(&small_units, vec![]),
            &["digest region h_out has 160 bits", "128-bit slot unit"],
        );
        says(
            MerkleLayout::new(&sha1, SlotId(1), SlotId(2), vec![])
                .unwrap_err()
                .to_string(),
            &["h_out is an Output region", "block an Input region"],
        );
    }

    #[test]
    fn merkle_weight_table_is_its_multilinear_extension() {
        // 8 instances (one thread fills the table) and 512 (the parallel fill).
        for log_k in [3, 9] {
            crate::io::check_weight_is_its_mle(&weight(log_k));
        }
    }

    #[test]
    fn merkle_weight_bytes_bind_every_parameter() {
        crate::io::check_bytes_bind_every_parameter(
            &weight(3),
            &[
                |w| w.layout.log_slot_words = 2,
                |w| w.slot_vars = 3,
                |w| w.layout.digest_slot = 3,
                |w| w.layout.left_slot = 0,
                |w| w.layout.fixed[0].0 = 3,
                |w| w.layout.fixed.clear(),
                |w| w.ch.tau_pos[0] += Ghash128::ONE,
                |w| w.ch.tau[1] += Ghash128::ONE,
                |w| w.ch.beta += Ghash128::ONE,
                |w| w.ch.alpha += Ghash128::ONE,
                |w| w.ch.deltas[0] += Ghash128::ONE,
            ],
        );
    }
}
