//! A new hash gadget, written once against the circuit builder and proven end to end: the
//! ChaCha20 block function (RFC 8439 §2.3) as a Boolean circuit, checked against a native
//! implementation and the RFC's test vector, then a batch of 2^6 blocks proved with the
//! batch-R1CS prover over each polynomial commitment.
//!
//! `cargo run --release --example custom_gadget`

use flockwork::circuit::{
    CircuitBuilder, Gadget, IoLayout, SlotId, SlotKind, WordBuilder, evaluate, rotl,
};
use flockwork::pcs::PcsKind;
use flockwork::r1cs::{Flock, FlockConfig, R1csLowering, Statement};

// ANCHOR: gadget
/// The ChaCha20 block function: key (256 bits), counter and nonce (128 bits) in, the 512-bit
/// keystream block out.
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

/// The native block function, for the differential check.
fn chacha20_block(key: &[u32; 8], counter: u32, nonce: &[u32; 3]) -> [u32; 16] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    s[4..12].copy_from_slice(key);
    s[12] = counter;
    s[13..].copy_from_slice(nonce);
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    // ANCHOR: check
    // RFC 8439 §2.3.2: key 00 01 .. 1f, counter 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00.
    let key: [u32; 8] =
        core::array::from_fn(|i| u32::from_le_bytes(core::array::from_fn(|j| (4 * i + j) as u8)));
    let nonce = [0x0900_0000, 0x4a00_0000, 0];
    let native = chacha20_block(&key, 1, &nonce);
    assert_eq!(
        native[0], 0xe4e7_f110,
        "the native model reproduces the RFC"
    );
    let mut input = key.to_vec();
    input.push(1);
    input.extend_from_slice(&nonce);
    assert_eq!(
        evaluate(&ChaCha20Block, &pack(&input)),
        pack(&native),
        "circuit = native"
    );
    let stats = ChaCha20Block.stats();
    println!(
        "ChaCha20 block: {} AND gates, instance block 2^{} bits",
        stats.and_gates,
        R1csLowering::new(&ChaCha20Block).log_block()
    );
    // ANCHOR_END: check

    // ANCHOR: prove
    // 2^6 blocks (one key, counters 0..63), proved over Ligerito, FRI-Binius and Blaze.
    let log_k = 6;
    let words = ChaCha20Block.layout().vector_bits(SlotKind::Input) / 64;
    let inputs: Vec<u64> = (0..1u32 << log_k)
        .flat_map(|counter| {
            let mut v = key.to_vec();
            v.push(counter);
            v.extend_from_slice(&nonce);
            pack(&v)
        })
        .collect();
    assert_eq!(inputs.len(), words << log_k);
    for scheme in PcsKind::ALL {
        let config = FlockConfig {
            scheme,
            ..FlockConfig::default()
        };
        let flock = Flock::new(ChaCha20Block, log_k, config)?;
        let (proof, _) = flock.prove(&inputs, &Statement::Batch)?;
        flock.verify(&Statement::Batch, proof.as_bytes())?;
        println!(
            "{:<9} {} KiB, {:.1} bits",
            format!("{scheme}:"),
            proof.len() / 1024,
            flock.soundness().bits()
        );
    }
    // ANCHOR_END: prove
    Ok(())
}
