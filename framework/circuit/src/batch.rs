//! Batch witness generation: bit-sliced over `64·W` instances, parallel over groups.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::par;

use super::eval::{BATCH_LANE_WORDS, LaneEvaluator};
use super::lanes::{blocks_of_lanes, lane_groups_of_blocks};
use super::{Gadget, SlotKind, StatsCounter};

/// The committed bits of a batch, one `2^m0`-bit block per instance (see the module docs
/// for the packing), and on request the A-side and B-side bit vectors in the same layout
/// (`a ∧ b = z` bit by bit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchWitness {
    /// `m0`.
    pub log_block: usize,
    /// Number of instances `K`.
    pub instances: usize,
    /// `z`, `K · 2^m0 / 64` words.
    pub z: Vec<u64>,
    /// `(A z, B z)` when requested.
    pub sides: Option<(Vec<u64>, Vec<u64>)>,
    /// `z` transposed in groups of 64 instances, recorded with the sides: word
    /// `g·2^m0 + p` holds position `p` of instances `64g .. 64g + 63` (bit `r` ↔ instance
    /// `64g + r`; missing instances of a last partial group are zero bits), `⌈K/64⌉·2^m0`
    /// words. It is the evaluator's own bit-sliced order, so recording it costs one
    /// sequential copy, and the lincheck's fold over the instances reads it sequentially
    /// instead of transposing `z` back.
    pub lanes: Option<Vec<u64>>,
}

impl BatchWitness {
    /// Words per instance block, `2^m0 / 64`.
    #[must_use]
    pub fn block_words(&self) -> usize {
        (1 << self.log_block) / 64
    }

    /// Bit `position` of instance `instance`.
    ///
    /// # Panics
    /// If out of range.
    #[must_use]
    pub fn bit(&self, instance: usize, position: usize) -> bool {
        assert!(instance < self.instances && position < 1 << self.log_block);
        let i = (instance << self.log_block) + position;
        (self.z[i / 64] >> (i % 64)) & 1 == 1
    }
}

/// Generates the batch witness of `gadget` for `K = inputs.len() / input_words` instances,
/// where instance `k`'s input vector (see [`super::IoLayout`]) is
/// `inputs[k·input_words .. (k+1)·input_words]`.
///
/// Instances are processed `64·W` at a time (`W =` [`BATCH_LANE_WORDS`]) by the bit-sliced
/// [`LaneEvaluator`]. Inputs and outputs cross between instance-major and bit-sliced order
/// with 64×64 bit transposes of interleaved matrices (one SIMD pass each): four
/// neighbouring words of every input block at once, eight of every output block (each row
/// written is one whole cache line of a block); the all-zero padding positions past the
/// last committed bit are never transposed. With `record_sides`, the evaluator stores an
/// addition's aux bits and their sides, or a materialized word, in one step per buffer.
/// With feature `parallel` the groups run on rayon's pool, and the call itself runs on one of
/// its workers ([`par::on_worker`]).
///
/// # Panics
/// If `inputs.len()` is not a multiple of the input-vector length in words.
#[must_use]
pub fn batch_witness<G: Gadget>(gadget: &G, inputs: &[u64], record_sides: bool) -> BatchWitness {
    par::on_worker(|| batch_witness_here(gadget, inputs, record_sides))
}

/// The body of [`batch_witness`], which starts it on a worker of rayon's pool.
fn batch_witness_here<G: Gadget>(gadget: &G, inputs: &[u64], record_sides: bool) -> BatchWitness {
    let stats = StatsCounter::run(gadget);
    let input_words = gadget.layout().vector_words(SlotKind::Input);
    assert!(input_words > 0, "gadget has no inputs");
    assert_eq!(inputs.len() % input_words, 0, "ragged input vectors");
    let instances = inputs.len() / input_words;
    let block_words = stats.block_bits() / 64;
    let group_size = 64 * BATCH_LANE_WORDS;
    let group_words = group_size * block_words;
    let z_len = instances * block_words;
    // Without sides, each group gets a one-word placeholder chunk that stays unused.
    let groups = instances.div_ceil(group_size);
    let (side_len, side_chunk) = if record_sides {
        (z_len, group_words)
    } else {
        (groups, 1)
    };
    let positions = stats.block_bits();
    let (lanes_len, lanes_chunk) = if record_sides {
        (
            instances.div_ceil(64) * positions,
            BATCH_LANE_WORDS * positions,
        )
    } else {
        (groups, 1)
    };
    let [mut z, mut sa, mut sb, mut zl] = par::zeroed_words(
        [z_len, side_len, side_len, lanes_len],
        par::MIN_PARALLEL_ITEMS,
    );

    let fill = |g: usize, [zc, ac, bc, lc]: [&mut [u64]; 4]| {
        let lanes = lane_groups_of_blocks::<BATCH_LANE_WORDS>(
            inputs,
            input_words,
            group_size * g,
            instances,
        );
        let eval = LaneEvaluator::run_with_capacity(gadget, &lanes, record_sides, stats.positions);
        let live = zc.len() / block_words;
        blocks_of_lanes(eval.z(), block_words, live, zc);
        if let Some((a, b)) = eval.sides() {
            blocks_of_lanes(a, block_words, live, ac);
            blocks_of_lanes(b, block_words, live, bc);
            for (w, out) in lc.chunks_mut(positions).enumerate() {
                // Lanes past the last instance evaluated padding inputs: zero bits instead.
                let mask = match live.saturating_sub(64 * w) {
                    n if n >= 64 => u64::MAX,
                    n => (1u64 << n) - 1,
                };
                for (o, lane) in out.iter_mut().zip(eval.z()) {
                    *o = lane[w] & mask;
                }
            }
        }
    };
    par::zip4_chunks_indexed(
        [&mut z, &mut sa, &mut sb, &mut zl],
        [group_words, side_chunk, side_chunk, lanes_chunk],
        fill,
    );
    let sides = record_sides.then_some((sa, sb));
    BatchWitness {
        log_block: stats.log_block,
        instances,
        z,
        sides,
        lanes: record_sides.then_some(zl),
    }
}

/// Evaluates one instance and returns its output vector (the output regions in declaration
/// order, each as `⌈bits/64⌉` little-endian `u64` words, [`super::IoLayout`]).
///
/// # Panics
/// If `input` is not exactly one input vector.
#[must_use]
pub fn evaluate<G: Gadget>(gadget: &G, input: &[u64]) -> Vec<u64> {
    let layout = gadget.layout();
    assert_eq!(
        input.len() * 64,
        layout.vector_bits(SlotKind::Input),
        "wrong input length"
    );
    let lanes = lane_groups_of_blocks::<1>(input, input.len(), 0, 1);
    let eval = LaneEvaluator::run(gadget, &lanes, false);
    let mut out = vec![0u64; layout.vector_words(SlotKind::Output)];
    let outputs = (0..layout.slots().len())
        .map(super::SlotId)
        .filter(|&s| layout.slot(s).kind == SlotKind::Output);
    for s in outputs {
        // Each region starts at a word of its own; the high bits of its last word stay zero.
        let offset = layout.vector_offset(s);
        for (i, p) in layout.positions(s).enumerate() {
            let bit = offset + i;
            out[bit / 64] |= (eval.z()[p][0] & 1) << (bit % 64);
        }
    }
    out
}
