//! The bit-sliced witness evaluator: `64·W` instances per lane group of `W` `u64` words.

use alloc::vec::Vec;

use super::layout::Allocator;
use super::{CircuitBuilder, Gadget, SlotId, SlotKind, ripple_add};

/// A lane group: bit `l` of word `w` is a wire's value in instance `64w + l`.
pub type Lanes<const W: usize> = [u64; W];

/// Evaluates a gadget on `64·W` instances at once: a wire is a lane group ([`Lanes`]) whose
/// bit `l` of word `w` is the wire's value in instance `64w + l` (bit-slicing), so XOR and
/// AND cost `W` word operations for `64·W` instances. The operations are written as loops
/// over `W` words with no cross-word dependencies, which the compiler maps onto SIMD
/// registers (two words per SSE2 register, four per AVX2 register).
///
/// Per-gate work outside the word operations (position bookkeeping, storing the committed
/// lane group) is the same for every `W`, so wider groups amortize it over more instances;
/// [`super::batch_witness`] uses [`BATCH_LANE_WORDS`] words.
///
/// The result is one lane group per position of the instance block
/// ([`LaneEvaluator::z`]), and on request the lane groups of the A side and B side of every
/// row (`a_j ∧ b_j = z_j`).
#[derive(Debug)]
pub struct LaneEvaluator<'a, const W: usize = 1> {
    alloc: Allocator,
    inputs: &'a [Lanes<W>],
    z: Vec<Lanes<W>>,
    sides: Option<(Vec<Lanes<W>>, Vec<Lanes<W>>)>,
}

/// Lane-group width (in `u64` words) used by [`super::batch_witness`].
///
/// Two words (128 instances per evaluation, one SSE2 register per wire) measured fastest on
/// the portable `x86-64` target (SSE2 only), once additions and materialized words store
/// their committed bits with one `extend` per word instead of one push per bit
/// ([`CircuitBuilder::add_mod`], [`CircuitBuilder::materialize_bits`]): against one word,
/// BLAKE3 witness generation is about 12% faster and Keccak about 5%. Four words are slower
/// (Keccak by about 25%): every by-value word array of a gadget grows proportionally and the
/// lane buffer of one evaluation (`2^m0` groups) leaves the L2 cache. The transposes into
/// instance-major `z` are vectorized independently of this width (four neighbouring words of
/// every block are transposed together).
pub const BATCH_LANE_WORDS: usize = 2;

/// All-ones lane group (the constant wire in every instance).
const fn ones<const W: usize>() -> Lanes<W> {
    [!0; W]
}

impl<'a, const W: usize> LaneEvaluator<'a, W> {
    /// Runs `gadget` on the input lanes `inputs` (one lane group per bit of the input vector, see
    /// [`super::IoLayout`]); records the row sides when `record_sides`.
    ///
    /// # Panics
    /// If `inputs` is shorter than the input vector, or the gadget misuses its IO regions.
    #[must_use]
    pub fn run<G: Gadget>(gadget: &G, inputs: &'a [Lanes<W>], record_sides: bool) -> Self {
        Self::run_with_capacity(gadget, inputs, record_sides, 0)
    }

    /// [`LaneEvaluator::run`] with room reserved for `positions` lane groups (avoids regrowing
    /// the buffers when the block size is known, as in [`super::batch_witness`]).
    ///
    /// # Panics
    /// As [`LaneEvaluator::run`].
    #[must_use]
    pub fn run_with_capacity<G: Gadget>(
        gadget: &G,
        inputs: &'a [Lanes<W>],
        record_sides: bool,
        positions: usize,
    ) -> Self {
        let layout = gadget.layout();
        assert!(
            inputs.len() >= layout.vector_bits(SlotKind::Input),
            "too few input lanes"
        );
        let c = layout.const_position();
        let mut z = Vec::with_capacity(positions.max(c + 1));
        z.resize(c + 1, [0; W]);
        z[c] = ones();
        let copy = |z: &Vec<Lanes<W>>| {
            let mut v = Vec::with_capacity(z.capacity());
            v.extend_from_slice(z);
            v
        };
        let sides = record_sides.then(|| (copy(&z), copy(&z)));
        let mut eval = Self {
            alloc: Allocator::new(layout),
            inputs,
            z,
            sides,
        };
        gadget.synthesize(&mut eval);
        eval.alloc.check_complete();
        eval
    }

    /// Lane groups of the committed bits, one per used position.
    #[must_use]
    pub fn z(&self) -> &[Lanes<W>] {
        &self.z
    }

    /// Lane groups of the A and B sides, when recorded.
    #[must_use]
    pub fn sides(&self) -> Option<(&[Lanes<W>], &[Lanes<W>])> {
        self.sides.as_ref().map(|(a, b)| (&a[..], &b[..]))
    }

    /// Stores the committed lane group `z` of row `a ∧ b = z` at the next internal position.
    ///
    /// Internal positions are handed out sequentially after the constant wire, so the next
    /// one is `self.z.len()`; the hot path therefore skips the [`Allocator`]'s counters
    /// (which only the statistics need) and is a single `Vec` push.
    #[inline(always)]
    fn push(&mut self, z: Lanes<W>, a: Lanes<W>, b: Lanes<W>) -> Lanes<W> {
        self.z.push(z);
        if let Some((sa, sb)) = &mut self.sides {
            sa.push(a);
            sb.push(b);
        }
        z
    }

    fn write_region(&mut self, start: usize, wires: &[Lanes<W>]) {
        self.z[start..start + wires.len()].copy_from_slice(wires);
        if let Some((sa, sb)) = &mut self.sides {
            sa[start..start + wires.len()].copy_from_slice(wires);
            sb[start..start + wires.len()].fill(ones());
        }
    }
}

impl<const W: usize> CircuitBuilder for LaneEvaluator<'_, W> {
    type Wire = Lanes<W>;

    #[inline(always)]
    fn zero(&self) -> Lanes<W> {
        [0; W]
    }

    #[inline(always)]
    fn one(&self) -> Lanes<W> {
        ones()
    }

    #[inline(always)]
    fn xor(&mut self, a: Lanes<W>, b: Lanes<W>) -> Lanes<W> {
        core::array::from_fn(|w| a[w] ^ b[w])
    }

    #[inline(always)]
    fn and(&mut self, a: Lanes<W>, b: Lanes<W>) -> Lanes<W> {
        self.push(core::array::from_fn(|w| a[w] & b[w]), a, b)
    }

    #[inline(always)]
    fn materialize(&mut self, a: Lanes<W>) -> Lanes<W> {
        self.push(a, a, ones())
    }

    #[inline(always)]
    fn not(&mut self, a: Lanes<W>) -> Lanes<W> {
        core::array::from_fn(|w| !a[w])
    }

    /// Runs the carry chain in registers and stores the `N − 1` aux bits (and, when
    /// recorded, their A and B sides `x_i ⊕ c_i`, `y_i ⊕ c_i`) with one `extend` per buffer
    /// instead of one `Vec` push per AND. The committed bits and sides are those of
    /// [`ripple_add`], gate for gate.
    #[inline(always)]
    fn add_mod<const N: usize>(&mut self, x: &[Lanes<W>; N], y: &[Lanes<W>; N]) -> [Lanes<W>; N] {
        if N == 0 {
            return ripple_add(self, x, y);
        }
        let mut sum = [[0u64; W]; N];
        let mut carry = [0u64; W];
        let mut step = |i: usize| {
            let xc: Lanes<W> = core::array::from_fn(|w| x[i][w] ^ carry[w]);
            let yc: Lanes<W> = core::array::from_fn(|w| y[i][w] ^ carry[w]);
            let t: Lanes<W> = core::array::from_fn(|w| xc[w] & yc[w]);
            sum[i] = core::array::from_fn(|w| xc[w] ^ y[i][w]);
            carry = core::array::from_fn(|w| carry[w] ^ t[w]);
            (t, xc, yc)
        };
        match &mut self.sides {
            // The aux bits go straight into `z` (no staging array copied afterwards).
            None => self.z.extend((0..N - 1).map(|i| step(i).0)),
            Some((sa, sb)) => {
                let start = self.z.len();
                let zero = [0u64; W];
                self.z.resize(start + N - 1, zero);
                sa.resize(start + N - 1, zero);
                sb.resize(start + N - 1, zero);
                for (i, ((z, a), b)) in self.z[start..]
                    .iter_mut()
                    .zip(&mut sa[start..])
                    .zip(&mut sb[start..])
                    .enumerate()
                {
                    (*z, *a, *b) = step(i);
                }
            }
        }
        sum[N - 1] = core::array::from_fn(|w| x[N - 1][w] ^ y[N - 1][w] ^ carry[w]);
        sum
    }

    /// Appends the `N` bits to `z` (and, when recorded, to the A side, with all-ones B
    /// sides) with one `extend` per buffer.
    #[inline(always)]
    fn materialize_bits<const N: usize>(&mut self, a: &[Lanes<W>; N]) -> [Lanes<W>; N] {
        self.z.extend_from_slice(a);
        if let Some((sa, sb)) = &mut self.sides {
            sa.extend_from_slice(a);
            sb.extend(core::iter::repeat_n(ones::<W>(), N));
        }
        *a
    }

    fn input(&mut self, slot: SlotId) -> Vec<Lanes<W>> {
        let bits = self.alloc.layout.slot(slot).bits;
        let offset = self.alloc.layout.vector_offset(slot);
        let range = self.alloc.io(slot, SlotKind::Input, bits);
        let wires = self.inputs[offset..offset + bits].to_vec();
        self.write_region(range.start, &wires);
        wires
    }

    fn output(&mut self, slot: SlotId, wires: &[Lanes<W>]) {
        let range = self.alloc.io(slot, SlotKind::Output, wires.len());
        self.write_region(range.start, wires);
    }
}
