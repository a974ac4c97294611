//! The Boolean hashes as [`Relation`]s with their batch-R1CS [`CircuitEncoding`]s, and
//! Keccak-f with its [`BooleanLayeredEncoding`] (one Boolean layer per round, for GKR on
//! packed bits).
//!
//! | relation | input | output | known answers |
//! |---|---|---|---|
//! | [`Sha256Compress`](struct@Sha256Compress) | [`Sha256Input`]: chaining value and a 64-byte block | the next chaining value `[u32; 8]` | SHA-256 of `""` and `"abc"` (FIPS 180-4 one-block messages; the digest is the compression of the IV) |
//! | [`Blake3Compress`](struct@Blake3Compress) | [`Blake3Input`]: chaining value and a [`Blake3Block`] | all 16 output words | BLAKE3 of `""` (one root chunk; its 64-byte extended output is the 16 words) |
//! | [`KeccakF1600`] | the state `[u64; 25]` | the state `[u64; 25]` | Keccak-f\[1600\] of the zero state (the Keccak team's intermediate values); none for reduced rounds |
//!
//! The native evaluations are the `sha2` crate's compression for SHA-256 and the portable
//! implementations of [`crate::native`] for BLAKE3 and Keccak-p.

use flockwork_circuit::{Adder, CircuitEncoding, MerkleIo, SlotId};
use flockwork_core::boolean_layered::{BooleanLayered, BooleanLayeredRelation};
use flockwork_core::relation::{BooleanLayeredEncoding, Relation};

use crate::constants::KECCAK_RC;
use crate::constants::{
    BLAKE3_CHUNK_END, BLAKE3_CHUNK_START, BLAKE3_IV, BLAKE3_PARENT, BLAKE3_ROOT, SHA256_IV,
};
use crate::io::{Blake3Block, ChainStep, MerkleNode, concat8};
use crate::native::{blake3_compress, keccak_p1600, keccak_round};
use crate::words::{join_u32, split_u32};
use crate::{Blake3Compress, KeccakF1600, Sha256Compress};

/// One SHA-256 compression's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sha256Input {
    /// The chaining value `H_in`.
    pub state: [u32; 8],
    /// The message block (FIPS 180-4 §5.2.1: sixteen big-endian words).
    pub block: [u8; 64],
}

/// One BLAKE3 compression's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blake3Input {
    /// The chaining value.
    pub cv: [u32; 8],
    /// The message words, counter, block length and flags.
    pub block: Blake3Block,
}

flockwork_core::codec!(Sha256Input { state, block });
flockwork_core::codec!(Blake3Input { cv, block });

/// `name`, or `name[adder]` for a prefix adder.
fn with_adder(name: &str, adder: Adder) -> String {
    match adder {
        Adder::Ripple => name.into(),
        prefix => format!("{name}[{}]", prefix.name()),
    }
}

/// The one-block message `message ‖ 0x80 ‖ 0… ‖ u64be(8·len)` (FIPS 180-4 §5.1.1): its
/// compression of [`SHA256_IV`] is SHA-256 of `message`.
///
/// # Panics
/// If `message` has more than 55 bytes (it would not fit one block).
#[must_use]
pub fn sha256_padded(message: &[u8]) -> [u8; 64] {
    assert!(
        message.len() <= 55,
        "a one-block message has at most 55 bytes"
    );
    let mut block = [0u8; 64];
    block[..message.len()].copy_from_slice(message);
    block[message.len()] = 0x80;
    block[56..].copy_from_slice(&(8 * message.len() as u64).to_be_bytes());
    block
}

impl Relation for Sha256Compress {
    type Input = Sha256Input;
    type Output = [u32; 8];
    /// The chaining value (Merkle–Damgård).
    type State = [u32; 8];

    /// `"sha256-compress"`, with the adder in brackets unless it is ripple-carry (another
    /// circuit of the same function).
    fn name(&self) -> String {
        with_adder("sha256-compress", self.adder())
    }

    fn evaluate(&self, input: &Sha256Input) -> [u32; 8] {
        let mut state = input.state;
        sha2::block_api::compress256(&mut state, core::slice::from_ref(&input.block));
        state
    }

    fn input_state(&self, input: &Self::Input) -> Option<[u32; 8]> {
        Some(input.state)
    }

    fn output_state(&self, output: &Self::Output) -> Option<[u32; 8]> {
        Some(*output)
    }

    /// `compress(IV, left ‖ right)`, as [`crate::io::MerkleNode`] hashes a node.
    fn merkle_node(&self, left: &[u32; 8], right: &[u32; 8]) -> Option<Sha256Input> {
        Some(Sha256Input {
            state: SHA256_IV,
            block: Self::words_block(&concat8(left, right)),
        })
    }

    fn known_answers(&self) -> Vec<(Sha256Input, [u32; 8])> {
        let answer = |message: &[u8], digest: [u32; 8]| {
            let input = Sha256Input {
                state: SHA256_IV,
                block: sha256_padded(message),
            };
            (input, digest)
        };
        vec![
            answer(
                b"",
                [
                    0xe3b0_c442,
                    0x98fc_1c14,
                    0x9afb_f4c8,
                    0x996f_b924,
                    0x27ae_41e4,
                    0x649b_934c,
                    0xa495_991b,
                    0x7852_b855,
                ],
            ),
            answer(
                b"abc",
                [
                    0xba78_16bf,
                    0x8f01_cfea,
                    0x4141_40de,
                    0x5dae_2223,
                    0xb003_61a3,
                    0x9617_7a9c,
                    0xb410_ff61,
                    0xf200_15ad,
                ],
            ),
        ]
    }
}

/// A hash gadget's chain declarations ([`CircuitEncoding::chain_regions`],
/// [`CircuitEncoding::encode_state`]) from its [`ChainStep`] regions and state words.
macro_rules! chain_io {
    ($state:ty) => {
        fn chain_regions(&self) -> Option<(SlotId, SlotId)> {
            Some((
                <Self as ChainStep>::STATE_IN,
                <Self as ChainStep>::STATE_OUT,
            ))
        }

        fn encode_state(&self, state: &$state) -> Option<Vec<u64>> {
            Some(ChainStep::state_words(self, state))
        }
    };
}

/// [`chain_io`] and the Merkle declaration ([`CircuitEncoding::merkle_io`]) from the
/// gadget's [`MerkleNode`] regions and fixed inputs.
macro_rules! chain_and_merkle_io {
    ($state:ty) => {
        chain_io!($state);

        fn merkle_io(&self) -> Option<MerkleIo> {
            Some(MerkleIo {
                children: <Self as MerkleNode>::CHILDREN,
                digest: <Self as MerkleNode>::DIGEST,
                fixed: MerkleNode::fixed_inputs(self),
            })
        }
    };
}

impl CircuitEncoding for Sha256Compress {
    fn encode_input(&self, input: &Sha256Input) -> Vec<u64> {
        Self::encode_input(&input.state, &input.block).to_vec()
    }

    fn encode_output(&self, output: &[u32; 8]) -> Vec<u64> {
        join_u32::<4>(output).to_vec()
    }

    fn decode_output(&self, words: &[u64]) -> Option<[u32; 8]> {
        (words.len() == 4).then(|| split_u32::<8>(words))
    }

    chain_and_merkle_io!([u32; 8]);
}

impl Relation for Blake3Compress {
    type Input = Blake3Input;
    type Output = [u32; 16];
    /// The chaining value: the input's `cv`, the output's first eight words.
    type State = [u32; 8];

    /// `"blake3-compress"`, with the adder in brackets unless it is ripple-carry (another
    /// circuit of the same function).
    fn name(&self) -> String {
        with_adder("blake3-compress", self.adder())
    }

    fn evaluate(&self, input: &Blake3Input) -> [u32; 16] {
        let b = &input.block;
        blake3_compress(&input.cv, &b.words, b.counter, b.block_len, b.flags)
    }

    fn input_state(&self, input: &Self::Input) -> Option<[u32; 8]> {
        Some(input.cv)
    }

    fn output_state(&self, output: &Self::Output) -> Option<[u32; 8]> {
        Some(core::array::from_fn(|i| output[i]))
    }

    /// BLAKE3's parent node: `compress(IV, left ‖ right, 0, 64, PARENT)`, as
    /// [`crate::io::MerkleNode`] hashes a node.
    fn merkle_node(&self, left: &[u32; 8], right: &[u32; 8]) -> Option<Blake3Input> {
        Some(Blake3Input {
            cv: BLAKE3_IV,
            block: Blake3Block {
                words: concat8(left, right),
                counter: 0,
                block_len: 64,
                flags: BLAKE3_PARENT,
            },
        })
    }

    fn known_answers(&self) -> Vec<(Blake3Input, [u32; 16])> {
        // BLAKE3("") with 64 bytes of extended output, as little-endian words: the root
        // chunk's one empty block, compressed with counter 0.
        let input = Blake3Input {
            cv: SHA256_IV,
            block: Blake3Block {
                words: [0; 16],
                counter: 0,
                block_len: 0,
                flags: BLAKE3_CHUNK_START | BLAKE3_CHUNK_END | BLAKE3_ROOT,
            },
        };
        let output = [
            0xb949_13af,
            0xa6a1_f9f5,
            0xea4d_40a0,
            0x49c9_dc36,
            0xc925_cb9b,
            0xb712_c1ad,
            0xca93_9acc,
            0x6232_1fe4,
            0xe703_0fe0,
            0x6bf2_9ab6,
            0x9ff0_aa7f,
            0x5030_33cd,
            0xe0df_8d33,
            0x86cc_b885,
            0x208b_a99c,
            0x3a24_086c,
        ];
        vec![(input, output)]
    }
}

impl CircuitEncoding for Blake3Compress {
    fn encode_input(&self, input: &Blake3Input) -> Vec<u64> {
        let b = &input.block;
        Self::encode_input(&input.cv, &b.words, b.counter, b.block_len, b.flags).to_vec()
    }

    fn encode_output(&self, output: &[u32; 16]) -> Vec<u64> {
        join_u32::<8>(output).to_vec()
    }

    fn decode_output(&self, words: &[u64]) -> Option<[u32; 16]> {
        (words.len() == 8).then(|| split_u32::<16>(words))
    }

    chain_and_merkle_io!([u32; 8]);
}

impl Relation for KeccakF1600 {
    type Input = [u64; 25];
    type Output = [u64; 25];
    /// The whole state (an iterated permutation).
    type State = [u64; 25];

    fn name(&self) -> String {
        match self.rounds() {
            24 => "keccak-f[1600]".into(),
            r => format!("keccak-p[1600,{r}]"),
        }
    }

    fn evaluate(&self, input: &[u64; 25]) -> [u64; 25] {
        let mut state = *input;
        keccak_p1600(&mut state, self.rounds());
        state
    }

    fn input_state(&self, input: &Self::Input) -> Option<[u64; 25]> {
        Some(*input)
    }

    fn output_state(&self, output: &Self::Output) -> Option<[u64; 25]> {
        Some(*output)
    }

    fn known_answers(&self) -> Vec<([u64; 25], [u64; 25])> {
        if self.rounds() != 24 {
            return Vec::new();
        }
        let zero_state = [
            0xf125_8f79_40e1_dde7,
            0x84d5_ccf9_33c0_478a,
            0xd598_261e_a65a_a9ee,
            0xbd15_4730_6f80_494d,
            0x8b28_4e05_6253_d057,
            0xff97_a42d_7f8e_6fd4,
            0x90fe_e5a0_a446_47c4,
            0x8c5b_da0c_d619_2e76,
            0xad30_a6f7_1b19_059c,
            0x3093_5ab7_d08f_fc64,
            0xeb5a_a93f_2317_d635,
            0xa9a6_e626_0d71_2103,
            0x81a5_7c16_dbcf_555f,
            0x43b8_31cd_0347_c826,
            0x01f2_2f1a_11a5_569f,
            0x05e5_635a_21d9_ae61,
            0x64be_fef2_8cc9_70f2,
            0x6136_7095_7bc4_6611,
            0xb87c_5a55_4fd0_0ecb,
            0x8c3e_e88a_1ccf_32c8,
            0x940c_7922_ae3a_2614,
            0x1841_f924_a2c5_09e4,
            0x16f5_3526_e704_65c2,
            0x75f6_44e9_7f30_a13b,
            0xeaf1_ff7b_5cec_a249,
        ];
        vec![([0; 25], zero_state)]
    }
}

impl CircuitEncoding for KeccakF1600 {
    fn encode_input(&self, input: &[u64; 25]) -> Vec<u64> {
        input.to_vec()
    }

    fn encode_output(&self, output: &[u64; 25]) -> Vec<u64> {
        output.to_vec()
    }

    fn decode_output(&self, words: &[u64]) -> Option<[u64; 25]> {
        words.try_into().ok()
    }

    chain_io!([u64; 25]);
}

/// Keccak-p\[1600, `rounds`\] as Boolean layers, one per round
/// ([`KeccakF1600::boolean_layers`]); the native layer is [`keccak_round`].
impl BooleanLayeredRelation for KeccakF1600 {
    fn id(&self) -> Vec<u8> {
        self.name().into_bytes()
    }

    fn boolean_layers(&self) -> &BooleanLayered {
        KeccakF1600::boolean_layers(self)
    }

    fn apply_layer_native(&self, layer: usize, state: &[u64]) -> Vec<u64> {
        assert!(
            (1..=self.rounds()).contains(&layer),
            "layers 1 to {}",
            self.rounds()
        );
        let mut lanes: [u64; 25] = state.try_into().expect("25 lanes");
        keccak_round(&mut lanes, KECCAK_RC[24 - self.rounds() + layer - 1]);
        lanes.to_vec()
    }
}

/// The state's lanes are the layers' words (bit `z` of lane `x + 5y` is state bit
/// `64(x + 5y) + z`), the circuit's input and output vectors too.
impl BooleanLayeredEncoding for KeccakF1600 {
    fn input_bits(&self, input: &[u64; 25]) -> Vec<u64> {
        self.encode_input(input)
    }

    fn output_bits(&self, output: &[u64; 25]) -> Vec<u64> {
        self.encode_output(output)
    }

    fn output_of_bits(&self, words: &[u64]) -> Option<[u64; 25]> {
        self.decode_output(words)
    }
}
