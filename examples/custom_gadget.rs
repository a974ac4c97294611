//! A new hash gadget, written once against the circuit builder and proven end to end: the
//! ChaCha20 block function (RFC 8439 §2.3) as a Boolean circuit and a relation, checked
//! against a native implementation and the RFC's test vector, registered with the engines by
//! one line, then a batch of 2^6 blocks proved and verified by every batcher the comparison
//! lists (batch-R1CS's three strategies over each commitment; with `--compiled`, the Boolean
//! GKR's too, on the circuit compiled into Boolean layers: slow, tens of MB per proof); then
//! one proof saved as a proof file and verified from its bytes.
//!
//! `cargo run --release --example custom_gadget [-- --compiled] [--log-count K]`

use flockwork::circuit::layers::CompiledLayers;
use flockwork::circuit::{
    CircuitBuilder, CircuitEncoding, Gadget, IoLayout, SlotId, WordBuilder, check_circuit_encoding,
    rotl,
};
use flockwork::engines::{Choices, batchers_for, compare};
use flockwork::poly::Relation;
use flockwork::poly::relation::Statement;
use flockwork::proof_file;
use flockwork::r1cs::R1csLowering;

// ANCHOR: gadget
/// The ChaCha20 block function: key (256 bits), counter and nonce (128 bits) in, the 512-bit
/// keystream block out.
#[derive(Clone, Copy, Debug)]
struct ChaCha20Block;

impl ChaCha20Block {
    const KEY: SlotId = SlotId(0);
    const COUNTER_NONCE: SlotId = SlotId(1);
    const BLOCK: SlotId = SlotId(2);
}

type Word<W> = [W; 32];

// ANCHOR: quarter_round
/// The quarter round on state words `a, b, c, d`: four additions (31 AND gates each), XORs
/// and rotations (free).
fn quarter_round<B: CircuitBuilder>(
    b: &mut B,
    s: &mut [Word<B::Wire>; 16],
    [i, j, k, l]: [usize; 4],
) {
    s[i] = b.add(&s[i], &s[j]);
    s[l] = rotl(&b.xor_words(&s[l], &s[i]), 16);
    s[k] = b.add(&s[k], &s[l]);
    s[j] = rotl(&b.xor_words(&s[j], &s[k]), 12);
    s[i] = b.add(&s[i], &s[j]);
    s[l] = rotl(&b.xor_words(&s[l], &s[i]), 8);
    s[k] = b.add(&s[k], &s[l]);
    s[j] = rotl(&b.xor_words(&s[j], &s[k]), 7);
}
// ANCHOR_END: quarter_round

impl Gadget for ChaCha20Block {
    fn layout(&self) -> IoLayout {
        // Slot units of 128 bits: key in units 0–1, counter ‖ nonce in 2, the block in 4–7.
        IoLayout::new(128)
            .input("key", 0, 256)
            .input("counter_nonce", 2, 128)
            .output("block", 4, 512)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let key = b.input_words::<32>(Self::KEY);
        let counter_nonce = b.input_words::<32>(Self::COUNTER_NONCE);
        let constants = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];
        let initial: [Word<B::Wire>; 16] = core::array::from_fn(|i| match i {
            0..4 => b.constant_word::<32>(constants[i]),
            4..12 => key[i - 4],
            _ => counter_nonce[i - 12],
        });
        let mut s = initial;
        for _ in 0..10 {
            for column in [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]] {
                quarter_round(b, &mut s, column);
            }
            for diagonal in [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]] {
                quarter_round(b, &mut s, diagonal);
            }
        }
        let out: Vec<Word<B::Wire>> = (0..16).map(|i| b.add(&s[i], &initial[i])).collect();
        b.output_words(Self::BLOCK, &out);
    }
}
// ANCHOR_END: gadget

// ANCHOR: relation
/// One block's input: the key, the block counter and the nonce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChaChaInput {
    key: [u32; 8],
    counter: u32,
    nonce: [u32; 3],
}

// Its canonical bytes, for proof files: the fields in this order.
flockwork::field::codec!(ChaChaInput {
    key,
    counter,
    nonce
});

/// The native block function (RFC 8439 §2.3).
fn chacha20_block(x: &ChaChaInput) -> [u32; 16] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    s[4..12].copy_from_slice(&x.key);
    s[12] = x.counter;
    s[13..].copy_from_slice(&x.nonce);
    let initial = s;
    let qr = |s: &mut [u32; 16], [a, b, c, d]: [usize; 4]| {
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(16);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(12);
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(8);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(7);
    };
    for _ in 0..10 {
        for q in [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]] {
            qr(&mut s, q);
        }
        for q in [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]] {
            qr(&mut s, q);
        }
    }
    core::array::from_fn(|i| s[i].wrapping_add(initial[i]))
}

/// 32-bit words as the little-endian `u64` words of an input or output vector.
fn pack(words: &[u32]) -> Vec<u64> {
    words
        .chunks_exact(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect()
}

/// RFC 8439 §2.3.2's key (00 01 .. 1f), counter 1 and nonce 00:00:00:09:00:00:00:4a:00:00:00:00.
fn rfc_input() -> ChaChaInput {
    ChaChaInput {
        key: core::array::from_fn(|i| {
            u32::from_le_bytes(core::array::from_fn(|j| (4 * i + j) as u8))
        }),
        counter: 1,
        nonce: [0x0900_0000, 0x4a00_0000, 0],
    }
}

impl Relation for ChaCha20Block {
    type Input = ChaChaInput;
    type Output = [u32; 16];
    /// Blocks do not chain.
    type State = ();

    fn name(&self) -> String {
        "chacha20-block".into()
    }

    fn evaluate(&self, input: &ChaChaInput) -> [u32; 16] {
        chacha20_block(input)
    }

    /// RFC 8439 §2.3.2: the state at the end of the ChaCha20 block function.
    fn known_answers(&self) -> Vec<(ChaChaInput, [u32; 16])> {
        #[rustfmt::skip]
        let block = [
            0xe4e7_f110, 0x1559_3bd1, 0x1fdd_0f50, 0xc471_20a3, 0xc7f4_d1c7, 0x0368_c033,
            0x9aaa_2204, 0x4e6c_d4c3, 0x4664_82d2, 0x09aa_9f07, 0x05d7_c214, 0xa202_8bd9,
            0xd19c_12b5, 0xb94e_16de, 0xe883_d0cb, 0x4e3c_50a2,
        ];
        vec![(rfc_input(), block)]
    }
}

impl CircuitEncoding for ChaCha20Block {
    fn encode_input(&self, x: &ChaChaInput) -> Vec<u64> {
        let mut words = x.key.to_vec();
        words.push(x.counter);
        words.extend_from_slice(&x.nonce);
        pack(&words)
    }

    fn encode_output(&self, block: &[u32; 16]) -> Vec<u64> {
        pack(block)
    }

    fn decode_output(&self, words: &[u64]) -> Option<[u32; 16]> {
        (words.len() == 8)
            .then(|| core::array::from_fn(|i| (words[i / 2] >> (32 * (i % 2))) as u32))
    }
}

// The one registration line: batch-R1CS from the circuit, and the Boolean GKR from the same
// circuit compiled into Boolean layers.
flockwork::provable!(ChaCha20Block: circuit, compiled);
// ANCHOR_END: relation

/// `--log-count K`: prove `2^K` blocks (default 6; the book's benchmark table runs 12 and 14).
fn log_count() -> u32 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--log-count")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(6)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    // ANCHOR: check
    // The circuit against the native function on the RFC's vector and on other inputs, the
    // native function against the RFC.
    let inputs: Vec<ChaChaInput> = (0..1u32 << log_count())
        .map(|counter| ChaChaInput {
            counter,
            ..rfc_input()
        })
        .collect();
    check_circuit_encoding(&ChaCha20Block, &inputs[..inputs.len().min(4)]);
    let stats = ChaCha20Block.stats();
    println!(
        "ChaCha20 block: {} AND gates, instance block 2^{} bits",
        stats.and_gates,
        R1csLowering::new(&ChaCha20Block).log_block()
    );
    if std::env::args().any(|a| a == "--compiled") {
        // What the Boolean GKR walks: the circuit cut at AND depth one.
        let shape = CompiledLayers::new(ChaCha20Block)?.shape();
        println!(
            "compiled: {} layers, widest {} bits, mean {:.0}, {} AND gates",
            shape.layers, shape.max_width, shape.mean_width, shape.and_gates
        );
    }
    // ANCHOR_END: check

    // ANCHOR: prove
    // 2^6 blocks (one key, counters 0..63; `--log-count`): one public statement, every
    // batcher listed.
    let choices = Choices {
        compiled: std::env::args().any(|a| a == "--compiled"),
        ..Choices::default()
    };
    let rows = compare(&ChaCha20Block, inputs.clone(), &choices)?;
    println!(
        "{:<44} {:>10} {:>10} {:>10} {:>6}",
        "batcher", "prove", "verify", "bytes", "bits"
    );
    for row in &rows {
        match &row.failure {
            None => println!(
                "{:<44} {:>8.1?} {:>8.1?} {:>10} {:>6.1}",
                row.name, row.prove, row.verify, row.proof_bytes, row.soundness_bits
            ),
            Some(why) => println!("{:<44} {why}", row.name),
        }
    }
    assert!(
        rows.iter().all(|r| r.failure.is_none()),
        "every batcher verifies"
    );
    assert!(
        rows.len() >= 9,
        "batch-R1CS: three strategies × three commitments"
    );
    // ANCHOR_END: prove

    // ANCHOR: file
    // One proof saved as a file (any relation, any batcher) and checked as a verifier would:
    // from the bytes alone, the batcher rebuilt from the listing by the name the file holds.
    let batcher = batchers_for(&ChaCha20Block, inputs.len(), &choices)
        .into_iter()
        .find(|b| b.name().starts_with("batch-R1CS ragged / fri"))
        .expect("listed");
    let statement = Statement::public(&ChaCha20Block, inputs.clone());
    let proof = batcher.prove(&inputs, &statement)?;
    let bytes = proof_file::save(
        &ChaCha20Block,
        batcher.as_ref(),
        &choices,
        &statement,
        proof,
    );
    let path = std::env::temp_dir().join("chacha20.fwpf");
    std::fs::write(&path, &bytes)?;
    proof_file::verify(&ChaCha20Block, &std::fs::read(&path)?)?;
    println!("{}: {} bytes, verified", path.display(), bytes.len());
    // A changed byte is refused.
    let mut changed = bytes;
    *changed.last_mut().expect("a proof") ^= 1;
    assert!(proof_file::verify(&ChaCha20Block, &changed).is_err());
    // ANCHOR_END: file
    Ok(())
}
