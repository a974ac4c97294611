//! The SHA-256 compression function as an AND/XOR circuit.

use flockwork_circuit::{Adder, CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotr, shr};

use crate::constants::SHA256_K;
use crate::words::{join_u32, split_u32};

/// A 32-bit word of wires, bit `i` of weight `2^i`.
type Word<W> = [W; 32];

/// SHA-256 compression `H_out = H_in + F(H_in, M)` (FIPS 180-4 §6.2.2) over one 64-byte
/// block.
///
/// # Encoding
///
/// * `Ch(e, f, g) = g ⊕ e(f ⊕ g)` and `Maj(a, b, c) = a ⊕ (a ⊕ b)(a ⊕ c)`: one AND per bit,
///   `2 · 32 · 64 = 4,096` ANDs.
/// * Additions mod 2^32 cost 31 ANDs ([`WordBuilder::add`]): per round
///   `T1 = h + Σ1(e) + Ch + K_t + W_t` (4, with `K_t` through the constant wire),
///   `T2 = Σ0(a) + Maj` (1), `e' = d + T1` (1), `a' = T1 + T2` (1); the schedule
///   `W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}` (3 × 48) and the feed-forward
///   (8): 600 additions, 18,600 ANDs; 22,696 ANDs in all.
/// * Materialized linear slots (caps the row density): `W_16..63`, `T1`, `e'`, `a'`
///   (7,680 bits) and `H_out` (256 output bits).
///
/// Committed bits: 22,696 + 7,680 + 256 (`H_out`) + 768 (`H_in`, `M`) + 1 = 31,401, in a
/// block of 2^15 positions (`m0 = 15`), as in the reference (Flock notes §2).
///
/// # IO layout (256-bit slots)
///
/// | slot | region | contents |
/// |---|---|---|
/// | 0 | [`Sha256Compress::H_IN`] | input chaining value, words `H_0..H_7` |
/// | 1 | [`Sha256Compress::H_OUT`] | output chaining value |
/// | 2–3 | [`Sha256Compress::MSG`] | message words `W_0..W_15` (big-endian parsed block) |
///
/// Each region is word-major with bit `i` of word `w` at offset `32w + i`, i.e. the
/// little-endian bytes of the words. `H_out` of a parent in a Merkle tree is read back as
/// half of its parent's `M` unchanged, and `H_in`/`H_out` sit one selector bit apart for the
/// hash chain.
///
/// # Adders
///
/// The additions use the gadget's [`Adder`]: ripple-carry (the default, the constant
/// [`Sha256Compress`](const@Sha256Compress), and every figure above) or a prefix adder
/// ([`Sha256Compress::with_adder`]), which costs more ANDs (batch-R1CS pays per AND) and far
/// fewer AND levels (the Boolean GKR of the compiled circuit pays per level,
/// [`flockwork_circuit::layers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sha256Compress {
    adder: Adder,
}

/// The ripple-carry SHA-256 compression, the gadget as every batch-R1CS proof has used it.
///
/// A constant of the type's name, so `Sha256Compress` still denotes the value it denoted when
/// the type was a unit struct (the type and the value live in different namespaces).
#[allow(non_upper_case_globals)]
pub const Sha256Compress: Sha256Compress = Sha256Compress {
    adder: Adder::Ripple,
};

impl Sha256Compress {
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
    pub const H_IN: SlotId = SlotId(0);
    /// Output chaining value region.
    pub const H_OUT: SlotId = SlotId(1);
    /// Message block region.
    pub const MSG: SlotId = SlotId(2);

    /// The input vector of one instance: `H_in` then the 16 message words parsed
    /// big-endian from `block` (12 `u64` words).
    #[must_use]
    pub fn encode_input(state: &[u32; 8], block: &[u8; 64]) -> [u64; 12] {
        Self::encode_words(state, &Self::block_words(block))
    }

    /// The input vector of one instance from `H_in` and the message words `W_0..W_15`.
    #[must_use]
    pub fn encode_words(state: &[u32; 8], words: &[u32; 16]) -> [u64; 12] {
        let mut out = [0u64; 12];
        out[..4].copy_from_slice(&join_u32::<4>(state));
        out[4..].copy_from_slice(&join_u32::<8>(words));
        out
    }

    /// Message words of a block, parsed big-endian (FIPS 180-4 §5.2.1).
    #[must_use]
    pub fn block_words(block: &[u8; 64]) -> [u32; 16] {
        core::array::from_fn(|t| {
            u32::from_be_bytes([
                block[4 * t],
                block[4 * t + 1],
                block[4 * t + 2],
                block[4 * t + 3],
            ])
        })
    }

    /// The message block whose words are `words` (inverse of [`Sha256Compress::block_words`]).
    #[must_use]
    pub fn words_block(words: &[u32; 16]) -> [u8; 64] {
        core::array::from_fn(|i| words[i / 4].to_be_bytes()[i % 4])
    }

    /// The output chaining value from an output vector (4 `u64` words).
    ///
    /// # Panics
    /// If `output` has fewer than 4 words.
    #[must_use]
    pub fn decode_output(output: &[u64]) -> [u32; 8] {
        split_u32::<8>(output)
    }
}

impl Gadget for Sha256Compress {
    fn layout(&self) -> IoLayout {
        IoLayout::new(256)
            .input("h_in", 0, 256)
            .output("h_out", 1, 256)
            .input("msg", 2, 512)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let h_in: [Word<B::Wire>; 8] = to_array(b.input_words::<32>(Self::H_IN));
        let msg: [Word<B::Wire>; 16] = to_array(b.input_words::<32>(Self::MSG));
        let adder = self.adder;
        let schedule = message_schedule(b, adder, &msg);
        let mut state = h_in;
        for (t, w) in schedule.iter().enumerate() {
            state = round(b, adder, &state, SHA256_K[t], w);
        }
        let out: [Word<B::Wire>; 8] =
            core::array::from_fn(|i| b.add_with(adder, &h_in[i], &state[i]));
        b.output_words(Self::H_OUT, &out);
    }
}

/// `Vec` of exactly `N` words to an array.
fn to_array<T, const N: usize>(v: Vec<T>) -> [T; N] {
    v.try_into()
        .unwrap_or_else(|_| panic!("expected {N} words"))
}

/// `x >>> r1 ⊕ x >>> r2 ⊕ (x >>> r3 or x >> r3)` (free).
fn sigma<B: CircuitBuilder>(
    b: &mut B,
    x: &Word<B::Wire>,
    r: [usize; 3],
    shift: bool,
) -> Word<B::Wire> {
    let third = if shift {
        shr(x, r[2], b.zero())
    } else {
        rotr(x, r[2])
    };
    let t = b.xor_words(&rotr(x, r[0]), &rotr(x, r[1]));
    b.xor_words(&t, &third)
}

/// `W_0..W_63`: `W_t` for `t ≥ 16` materialized after its 3 additions.
fn message_schedule<B: CircuitBuilder>(
    b: &mut B,
    adder: Adder,
    msg: &[Word<B::Wire>; 16],
) -> Vec<Word<B::Wire>> {
    let mut w: Vec<Word<B::Wire>> = msg.to_vec();
    for t in 16..64 {
        let s0 = sigma(b, &w[t - 15], [7, 18, 3], true);
        let s1 = sigma(b, &w[t - 2], [17, 19, 10], true);
        let sum = b.add_many(adder, &[s1, w[t - 7], s0, w[t - 16]]);
        let wt = b.materialize_word(&sum);
        w.push(wt);
    }
    w
}

/// One round on `state = [a, b, c, d, e, f, g, h]`; `e'` and `a'` are materialized, and
/// with ripple-carry additions `T1` too.
///
/// With a prefix adder `T1 = h + K_t + W_t + Σ1(e) + Ch(e, f, g)` stays two carry-save
/// rows (three 3→2 levels, the late terms `Σ1` and `Ch` last), and `e' = d + T1`,
/// `a' = T1 + Σ0(a) + Maj(a, b, c)` are each one more compression and one prefix addition
/// ([`WordBuilder::add_many`]): about 8 AND levels a round instead of 25.
fn round<B: CircuitBuilder>(
    b: &mut B,
    adder: Adder,
    state: &[Word<B::Wire>; 8],
    k: u32,
    w: &Word<B::Wire>,
) -> [Word<B::Wire>; 8] {
    let [a, bb, c, d, e, f, g, h] = state;
    let big_s1 = sigma(b, e, [6, 11, 25], false);
    let ch = b.choose(e, f, g);
    let k = b.constant_word::<32>(u64::from(k));
    if adder != Adder::Ripple {
        let t1 = b.compress_terms(&[*h, k, *w, big_s1, ch]);
        let big_s0 = sigma(b, a, [2, 13, 22], false);
        let maj = b.majority(a, bb, c);
        let new_e = b.add_many(adder, &[*d, t1[0], t1[1]]);
        let new_e = b.materialize_word(&new_e);
        let new_a = b.add_many(adder, &[t1[0], t1[1], big_s0, maj]);
        let new_a = b.materialize_word(&new_a);
        return [new_a, *a, *bb, *c, new_e, *e, *f, *g];
    }
    let t1 = b.add(h, &big_s1);
    let t1 = b.add(&t1, &ch);
    let t1 = b.add(&t1, &k);
    let t1 = b.add(&t1, w);
    let t1 = b.materialize_word(&t1);
    let big_s0 = sigma(b, a, [2, 13, 22], false);
    let maj = b.majority(a, bb, c);
    let t2 = b.add(&big_s0, &maj);
    let new_e = b.add(d, &t1);
    let new_e = b.materialize_word(&new_e);
    let new_a = b.add(&t1, &t2);
    let new_a = b.materialize_word(&new_a);
    [new_a, *a, *bb, *c, new_e, *e, *f, *g]
}
