//! The BLAKE3 compression function as an AND/XOR circuit.

use flockwork_circuit::{Adder, CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotr};

use crate::constants::{BLAKE3_IV, BLAKE3_MSG_PERMUTATION, BLAKE3_SCHEDULE};
use crate::words::{join_u32, split_u32};

/// A 32-bit word of wires, bit `i` of weight `2^i`.
type Word<W> = [W; 32];

/// BLAKE3 compression (BLAKE3 spec §2.2): 7 rounds of 8 G calls on
/// `v = cv ‖ IV[0..4] ‖ counter_lo ‖ counter_hi ‖ block_len ‖ flags`, output
/// `v[i] ⊕ v[i+8]` and `v[i+8] ⊕ cv[i]` (16 words).
///
/// # Encoding
///
/// * G does `a = a + b + mx`, `d = (d ⊕ a) >>> 16`, `c = c + d`, `b = (b ⊕ c) >>> 12`,
///   `a = a + b + my`, `d = (d ⊕ a) >>> 8`, `c = c + d`, `b = (b ⊕ c) >>> 7`: 6 additions of
///   31 ANDs, so `7 · 8 · 6 · 31 = 10,416` ANDs.
/// * Only the final `b` and `d` of each G are materialized (`7 · 8 · 64 = 3,584` bits); the
///   message permutation between rounds is a free relabelling.
///
/// Committed bits: 10,416 + 3,584 + 896 inputs (cv 256, message 512, counter 64, block
/// length 32, flags 32) + 512 outputs + 1 = 15,409, in `m0 = 14`, as in the reference
/// (Flock notes §2).
///
/// # IO layout (256-bit slots)
///
/// | slot | region | contents |
/// |---|---|---|
/// | 0 | [`Blake3Compress::CV_IN`] | input chaining value `cv[0..8]` |
/// | 1 | [`Blake3Compress::CV_OUT`] | output words `0..8` (the next chaining value) |
/// | 2–3 | [`Blake3Compress::MSG`] | message words `m[0..16]` (little-endian block) |
/// | 4 | [`Blake3Compress::PARAMS`] | `counter_lo, counter_hi, block_len, flags` (128 bits; the rest of the unit is unused) |
/// | 5 | [`Blake3Compress::OUT_HI`] | output words `8..16` (extended output) |
///
/// Regions are word-major with bit `i` of word `w` at offset `32w + i`.
///
/// # Adders
///
/// The additions use the gadget's [`Adder`]: ripple-carry (the default, the constant
/// [`Blake3Compress`](const@Blake3Compress), and every figure above) or a prefix adder
/// ([`Blake3Compress::with_adder`]): more ANDs for batch-R1CS, far fewer AND levels for the
/// Boolean GKR of the compiled circuit ([`flockwork_circuit::layers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake3Compress {
    adder: Adder,
}

/// The ripple-carry BLAKE3 compression, the gadget as every batch-R1CS proof has used it.
///
/// A constant of the type's name, so `Blake3Compress` still denotes the value it denoted when
/// the type was a unit struct (the type and the value live in different namespaces).
#[allow(non_upper_case_globals)]
pub const Blake3Compress: Blake3Compress = Blake3Compress {
    adder: Adder::Ripple,
};

impl Blake3Compress {
    /// The compression with its additions made by `adder`.
    #[must_use]
    pub const fn with_adder(adder: Adder) -> Self {
        Self { adder }
    }

    /// The adder of its additions.
    #[must_use]
    pub const fn adder(&self) -> Adder {
        self.adder
    }

    /// Input chaining value region.
    pub const CV_IN: SlotId = SlotId(0);
    /// Output words `0..8` (the next chaining value).
    pub const CV_OUT: SlotId = SlotId(1);
    /// Message block region.
    pub const MSG: SlotId = SlotId(2);
    /// Counter, block length and flags.
    pub const PARAMS: SlotId = SlotId(3);
    /// Output words `8..16`.
    pub const OUT_HI: SlotId = SlotId(4);

    /// The input vector of one instance (14 `u64` words): `cv`, the 16 message words, then
    /// `counter`, `block_len | flags << 32`.
    #[must_use]
    pub fn encode_input(
        cv: &[u32; 8],
        block: &[u32; 16],
        counter: u64,
        block_len: u32,
        flags: u32,
    ) -> [u64; 14] {
        let mut out = [0u64; 14];
        out[..4].copy_from_slice(&join_u32::<4>(cv));
        out[4..12].copy_from_slice(&join_u32::<8>(block));
        out[12] = counter;
        out[13] = u64::from(block_len) | (u64::from(flags) << 32);
        out
    }

    /// The 16 output words from an output vector (8 `u64` words).
    ///
    /// # Panics
    /// If `output` has fewer than 8 words.
    #[must_use]
    pub fn decode_output(output: &[u64]) -> [u32; 16] {
        split_u32::<16>(output)
    }

    /// Little-endian message words of a 64-byte block.
    #[must_use]
    pub fn block_words(block: &[u8; 64]) -> [u32; 16] {
        core::array::from_fn(|i| {
            u32::from_le_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ])
        })
    }
}

impl Gadget for Blake3Compress {
    fn layout(&self) -> IoLayout {
        IoLayout::new(256)
            .input("cv_in", 0, 256)
            .output("cv_out", 1, 256)
            .input("msg", 2, 512)
            .input("params", 4, 128)
            .output("out_hi", 5, 256)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let cv = b.input_words::<32>(Self::CV_IN);
        let msg = b.input_words::<32>(Self::MSG);
        let params = b.input_words::<32>(Self::PARAMS);
        let mut v: [Word<B::Wire>; 16] = core::array::from_fn(|i| match i {
            0..8 => cv[i],
            8..12 => b.constant_word::<32>(u64::from(BLAKE3_IV[i - 8])),
            _ => params[i - 12],
        });
        let mut m: [Word<B::Wire>; 16] = core::array::from_fn(|i| msg[i]);
        for round in 0..7 {
            for (j, &lanes) in BLAKE3_SCHEDULE.iter().enumerate() {
                g(b, self.adder, &mut v, lanes, &m[2 * j], &m[2 * j + 1]);
            }
            if round < 6 {
                m = core::array::from_fn(|i| m[BLAKE3_MSG_PERMUTATION[i]]);
            }
        }
        let lo: [Word<B::Wire>; 8] = core::array::from_fn(|i| b.xor_words(&v[i], &v[i + 8]));
        let hi: [Word<B::Wire>; 8] = core::array::from_fn(|i| b.xor_words(&v[i + 8], &cv[i]));
        b.output_words(Self::CV_OUT, &lo);
        b.output_words(Self::OUT_HI, &hi);
    }
}

/// The G function on state words `[a, b, c, d]`; the final `d` and `b` are materialized.
fn g<B: CircuitBuilder>(
    b: &mut B,
    adder: Adder,
    v: &mut [Word<B::Wire>; 16],
    [ia, ib, ic, id]: [usize; 4],
    mx: &Word<B::Wire>,
    my: &Word<B::Wire>,
) {
    let a = b.add_many(adder, &[v[ia], v[ib], *mx]);
    let d = b.xor_words(&v[id], &a);
    let d = rotr(&d, 16);
    let c = b.add_with(adder, &v[ic], &d);
    let bb = b.xor_words(&v[ib], &c);
    let bb = rotr(&bb, 12);
    let a = b.add_many(adder, &[a, bb, *my]);
    let d = b.xor_words(&d, &a);
    let d = b.materialize_word(&rotr(&d, 8));
    let c = b.add_with(adder, &c, &d);
    let bb = b.xor_words(&bb, &c);
    let bb = b.materialize_word(&rotr(&bb, 7));
    v[ia] = a;
    v[ib] = bb;
    v[ic] = c;
    v[id] = d;
}
