//! # flockwork-outside
//!
//! A relation written from outside the project, as a new user would, with only the public
//! APIs of the framework crates (`flockwork-core`'s [`Relation`], `flockwork-circuit`'s
//! [`Gadget`] and [`CircuitEncoding`]): SHA-1's compression function (FIPS 180-4 §6.1.2), whose
//! 160-bit chaining value fits no word-multiple of the slot units. The layout is
//! [`IoLayout::auto`]: the author names the regions and their sizes and marks the chained
//! state; the layout chooses 256-bit slot units and pads the 160-bit state inside them.
//!
//! ## Encoding
//!
//! * The chaining value `h_0..h_4` (`[u32; 5]`) is the 160-bit state region: bit `32j + i` is
//!   bit `i` of `h_j`; as vector words `h_0 | h_1 << 32`, `h_2 | h_3 << 32`, `h_4` (the high
//!   half of the third word zero, as every region of the automatic layout pads).
//! * The block is the 512-bit input region of the sixteen big-endian message words `W_t`,
//!   bit `32t + i` being bit `i` of `W_t`.
//! * **Merkle nodes** ([`Relation::merkle_node`]) compress `IV` with the block
//!   `left ‖ 0^96 ‖ right ‖ 0^96`: each child digest (20 bytes, big-endian words) at the start
//!   of a 32-byte half. The halves are the block's two 256-bit slot units, and the 96 zero bits
//!   are the zero padding of a 160-bit digest in its unit, which is what the batch-R1CS Merkle
//!   argument compares (`flockwork_r1cs::MerkleLayout`).

use flockwork_circuit::{
    CircuitBuilder, CircuitEncoding, Gadget, IoLayout, MerkleIo, SlotId, WordBuilder, rotl,
};
use flockwork_core::Relation;

/// SHA-1's compression: a chaining value and a 64-byte block in, the next chaining value out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sha1Compress;

/// One compression's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sha1Input {
    /// The chaining value `H_in`.
    pub state: [u32; 5],
    /// The message block (sixteen big-endian words).
    pub block: [u8; 64],
}

// Its canonical bytes, for proof files: the state, then the block.
flockwork_core::codec!(Sha1Input { state, block });

/// The initial chaining value (FIPS 180-4 §5.3.1).
pub const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];
const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

impl Sha1Compress {
    /// The chaining value in (`h_in`).
    pub const H_IN: SlotId = SlotId(0);
    /// The chaining value out (`h_out`).
    pub const H_OUT: SlotId = SlotId(1);
    /// The message block.
    pub const BLOCK: SlotId = SlotId(2);
}

/// The compression function, natively (FIPS 180-4 §6.1.2).
#[must_use]
pub fn compress(state: &[u32; 5], block: &[u8; 64]) -> [u32; 5] {
    let m = block_words(block);
    let mut w = [0u32; 80];
    for t in 0..80 {
        w[t] = match t {
            0..16 => m[t],
            _ => (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1),
        };
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    for (t, &wt) in w.iter().enumerate() {
        let f = match t / 20 {
            0 => (b & c) ^ (!b & d),
            2 => (b & c) ^ (b & d) ^ (c & d),
            _ => b ^ c ^ d,
        };
        let temp = a.rotate_left(5).wrapping_add(f).wrapping_add(e);
        let temp = temp.wrapping_add(K[t / 20]).wrapping_add(wt);
        (e, d, c, b, a) = (d, c, b.rotate_left(30), a, temp);
    }
    let out = [a, b, c, d, e];
    core::array::from_fn(|i| state[i].wrapping_add(out[i]))
}

/// 32-bit words as `u64` words, two a word (the last one alone for an odd count).
#[must_use]
pub fn pack(words: &[u32]) -> Vec<u64> {
    let pair = |p: &[u32]| p.iter().rev().fold(0, |acc, &w| acc << 32 | u64::from(w));
    words.chunks(2).map(pair).collect()
}

/// The sixteen big-endian message words of a block.
fn block_words(block: &[u8; 64]) -> [u32; 16] {
    core::array::from_fn(|t| u32::from_be_bytes(core::array::from_fn(|i| block[4 * t + i])))
}

impl Gadget for Sha1Compress {
    // ANCHOR: layout
    fn layout(&self) -> IoLayout {
        // Regions by name and size (handles 0, 1, 2 in this order); the layout places them.
        IoLayout::auto()
            .state("h_in", "h_out", 160)
            .input("block", 512)
            .build()
    }
    // ANCHOR_END: layout

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let h = b.input_words::<32>(Self::H_IN);
        let mut w = b.input_words::<32>(Self::BLOCK);
        for t in 16..80 {
            let x = b.xor_words(&w[t - 3], &w[t - 8]);
            let y = b.xor_words(&w[t - 14], &w[t - 16]);
            w.push(rotl(&b.xor_words(&x, &y), 1));
        }
        let mut v: [[B::Wire; 32]; 5] = core::array::from_fn(|i| h[i]);
        for (t, wt) in w.iter().enumerate() {
            let f = match t / 20 {
                0 => b.choose(&v[1], &v[2], &v[3]),
                2 => b.majority(&v[1], &v[2], &v[3]),
                _ => {
                    let x = b.xor_words(&v[1], &v[2]);
                    b.xor_words(&x, &v[3])
                }
            };
            let k = b.constant_word::<32>(K[t / 20].into());
            let mut temp = b.add(&rotl(&v[0], 5), &f);
            for term in [v[4], k, *wt] {
                temp = b.add(&temp, &term);
            }
            v = [temp, v[0], rotl(&v[1], 30), v[2], v[3]];
        }
        let out: Vec<_> = (0..5).map(|i| b.add(&h[i], &v[i])).collect();
        b.output_words(Self::H_OUT, &out);
    }
}

impl Relation for Sha1Compress {
    type Input = Sha1Input;
    type Output = [u32; 5];
    type State = [u32; 5];

    fn name(&self) -> String {
        "sha1-compress".into()
    }

    fn evaluate(&self, input: &Sha1Input) -> [u32; 5] {
        compress(&input.state, &input.block)
    }

    /// The one-block messages `""` and `"abc"` (FIPS 180-4 §5.1.1 padding; the digest is the
    /// compression of the IV), digests in FIPS 180-4's hex.
    fn known_answers(&self) -> Vec<(Sha1Input, [u32; 5])> {
        let answer = |message: &[u8], digest: &str| {
            let mut block = [0u8; 64];
            block[..message.len()].copy_from_slice(message);
            block[message.len()] = 0x80;
            block[56..].copy_from_slice(&(8 * message.len() as u64).to_be_bytes());
            let word = |i: usize| u32::from_str_radix(&digest[8 * i..][..8], 16).unwrap();
            (Sha1Input { state: IV, block }, core::array::from_fn(word))
        };
        vec![
            answer(b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            answer(b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ]
    }

    fn input_state(&self, input: &Sha1Input) -> Option<[u32; 5]> {
        Some(input.state)
    }

    fn output_state(&self, output: &[u32; 5]) -> Option<[u32; 5]> {
        Some(*output)
    }

    /// `compress(IV, left ‖ 0^96 ‖ right ‖ 0^96)` (see the crate docs).
    fn merkle_node(&self, left: &[u32; 5], right: &[u32; 5]) -> Option<Sha1Input> {
        let mut block = [0u8; 64];
        for (half, digest) in [left, right].into_iter().enumerate() {
            for (j, w) in digest.iter().enumerate() {
                block[32 * half + 4 * j..][..4].copy_from_slice(&w.to_be_bytes());
            }
        }
        Some(Sha1Input { state: IV, block })
    }
}

impl CircuitEncoding for Sha1Compress {
    fn encode_input(&self, input: &Sha1Input) -> Vec<u64> {
        let mut words = pack(&input.state);
        words.extend(pack(&block_words(&input.block)));
        words
    }

    fn encode_output(&self, output: &[u32; 5]) -> Vec<u64> {
        pack(output)
    }

    fn decode_output(&self, words: &[u64]) -> Option<[u32; 5]> {
        let h: Vec<u32> = words
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        (words.len() == 3 && h[5] == 0).then(|| core::array::from_fn(|i| h[i]))
    }
    fn encode_state(&self, state: &[u32; 5]) -> Option<Vec<u64>> {
        Some(pack(state))
    }

    fn merkle_io(&self) -> Option<MerkleIo> {
        let node = self.merkle_node(&IV, &IV)?;
        Some(MerkleIo::of_node(self, Self::BLOCK, Self::H_OUT, &node))
    }
}

// The relation's one registration line: batch-R1CS from its circuit, and the Boolean GKR
// from the same circuit compiled into Boolean layers.
flockwork::provable!(Sha1Compress: circuit, compiled);
