//! The hashes' circuits compiled into Boolean layers (`flockwork_circuit::layers`): each
//! compiled SHA-256 and BLAKE3 compression (every adder) and Keccak-f\[1600\] passes
//! `check_boolean_layered_encoding` on its known answers and random inputs and agrees with
//! the `sha2`, `blake3` and `keccak` crates; the compiled Keccak-f is its hand-written
//! layers; the prefix-adder circuits are correct circuits for batch-R1CS too; and the cost
//! of each circuit to each engine (printed: the book's table) is pinned.

use std::io::Write;
use std::sync::OnceLock;

use flockwork_boolean::constants::{BLAKE3_CHUNK_END, BLAKE3_CHUNK_START, BLAKE3_ROOT, SHA256_IV};
use flockwork_boolean::relation::sha256_padded;
use flockwork_boolean::{
    Blake3Block, Blake3Compress, Blake3Input, KeccakF1600, Sha256Compress, Sha256Input,
};
use flockwork_circuit::layers::{CompiledLayers, LayersShape};
use flockwork_circuit::{Adder, Gadget, check_circuit_encoding};
use flockwork_core::boolean_layered::{BooleanLayeredRelation, pack_instances, unpack_instances};
use flockwork_core::relation::{BooleanLayeredEncoding, Relation, check_boolean_layered_encoding};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::Digest;

use crate::relation::{blake3_inputs, sha256_inputs};

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn index(adder: Adder) -> usize {
    Adder::ALL.iter().position(|&a| a == adder).unwrap()
}

/// Each compiled circuit once per test process.
fn sha256(adder: Adder) -> &'static CompiledLayers<Sha256Compress> {
    static LAYERS: [OnceLock<CompiledLayers<Sha256Compress>>; 3] = [const { OnceLock::new() }; 3];
    LAYERS[index(adder)]
        .get_or_init(|| CompiledLayers::new(Sha256Compress::with_adder(adder)).unwrap())
}

fn blake3(adder: Adder) -> &'static CompiledLayers<Blake3Compress> {
    static LAYERS: [OnceLock<CompiledLayers<Blake3Compress>>; 3] = [const { OnceLock::new() }; 3];
    LAYERS[index(adder)]
        .get_or_init(|| CompiledLayers::new(Blake3Compress::with_adder(adder)).unwrap())
}

fn keccak() -> &'static CompiledLayers<KeccakF1600> {
    static LAYERS: OnceLock<CompiledLayers<KeccakF1600>> = OnceLock::new();
    LAYERS.get_or_init(|| CompiledLayers::new(KeccakF1600::new()).unwrap())
}

/// The compiled layers' outputs on `inputs`, through the packed evaluation.
fn outputs<R: BooleanLayeredEncoding>(relation: &R, inputs: &[R::Input]) -> Vec<R::Output> {
    let layers = relation.boolean_layers();
    let words: Vec<u64> = inputs.iter().flat_map(|x| relation.input_bits(x)).collect();
    let packed = pack_instances::<u128>(layers.input_width(), &words, inputs.len());
    let out = unpack_instances(
        layers.output_width(),
        &layers.evaluate_packed(&packed),
        inputs.len(),
    );
    out.chunks(layers.output_width().div_ceil(64))
        .map(|w| relation.output_of_bits(w).expect("an output"))
        .collect()
}

#[test]
fn compiled_sha256_agrees_with_sha2() {
    let mut rng = rng(0x5348);
    let messages: Vec<Vec<u8>> = (0..8)
        .map(|_| {
            let len = rng.random_range(0..=55);
            (0..len).map(|_| rng.random()).collect()
        })
        .collect();
    let inputs: Vec<Sha256Input> = messages
        .iter()
        .map(|m| Sha256Input {
            state: SHA256_IV,
            block: sha256_padded(m),
        })
        .collect();
    // The compiled value is still the circuit encoding batch-R1CS proves (by delegation),
    // under a name of its own.
    check_circuit_encoding(sha256(Adder::Ripple), &sha256_inputs(1));
    assert_eq!(sha256(Adder::Ripple).name(), "sha256-compress/layers");
    assert_eq!(
        sha256(Adder::KoggeStone).name(),
        "sha256-compress[kogge-stone]/layers"
    );
    for adder in Adder::ALL {
        let compiled = sha256(adder);
        assert_eq!(compiled.relation().adder(), adder);
        // Known answers (SHA-256 of "" and "abc") and random inputs, against `sha2`'s
        // compression (the relation's native evaluation).
        check_boolean_layered_encoding(compiled, &sha256_inputs(4));
        for (message, digest) in messages.iter().zip(outputs(compiled, &inputs)) {
            let expected: [u8; 32] = sha2::Sha256::digest(message).into();
            let got: Vec<u8> = digest.iter().flat_map(|w| w.to_be_bytes()).collect();
            assert_eq!(got, expected, "{}: SHA-256 of {message:?}", compiled.name());
        }
    }
}

#[test]
fn compiled_blake3_agrees_with_blake3() {
    let mut rng = rng(0x424c);
    let messages: Vec<Vec<u8>> = [0, 1, 31, 63, 64]
        .iter()
        .map(|&len| (0..len).map(|_| rng.random()).collect())
        .collect();
    let inputs: Vec<Blake3Input> = messages
        .iter()
        .map(|m| {
            let mut block = [0u8; 64];
            block[..m.len()].copy_from_slice(m);
            Blake3Input {
                cv: SHA256_IV,
                block: Blake3Block {
                    words: Blake3Compress::block_words(&block),
                    counter: 0,
                    block_len: m.len() as u32,
                    flags: BLAKE3_CHUNK_START | BLAKE3_CHUNK_END | BLAKE3_ROOT,
                },
            }
        })
        .collect();
    for adder in Adder::ALL {
        let compiled = blake3(adder);
        check_boolean_layered_encoding(compiled, &blake3_inputs(4));
        // One-block messages: the 16 output words are BLAKE3's 64-byte extended output.
        for (message, words) in messages.iter().zip(outputs(compiled, &inputs)) {
            let mut xof = [0u8; 64];
            blake3::Hasher::new()
                .update(message)
                .finalize_xof()
                .fill(&mut xof);
            let got: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(
                got,
                xof,
                "{}: BLAKE3 of {} bytes",
                compiled.name(),
                message.len()
            );
        }
    }
}

#[test]
fn compiled_keccak_is_the_hand_written_layers() {
    let compiled = keccak();
    let hand = KeccakF1600::new();
    let mut rng = rng(0x4b45);
    let states: Vec<[u64; 25]> = (0..200).map(|_| rng.random()).collect();
    check_boolean_layered_encoding(compiled, &states[..6]);
    let got = outputs(compiled, &states);
    assert_eq!(
        got,
        outputs(&hand, &states),
        "compiled against hand-written layers"
    );
    for (state, out) in states.iter().zip(&got) {
        let mut expected = *state;
        keccak::Keccak::new().with_f1600(|f| f(&mut expected));
        assert_eq!(*out, expected);
    }
    // Not only the same function: the same 24 layers of 1600 χ gates, form for form.
    assert_eq!(compiled.boolean_layers(), hand.boolean_layers());
    assert_eq!(compiled.name(), "keccak-f[1600]/layers");
    assert_eq!(
        BooleanLayeredRelation::id(compiled),
        b"keccak-f[1600]/layers"
    );
    for rounds in [1, 2, 5] {
        let reduced = CompiledLayers::new(KeccakF1600::reduced(rounds)).unwrap();
        assert_eq!(
            reduced.boolean_layers(),
            KeccakF1600::reduced(rounds).boolean_layers()
        );
    }
}

/// The prefix-adder circuits are circuits of the same relations for batch-R1CS (the lane
/// evaluator against the native evaluation), and the default is still ripple.
#[test]
fn prefix_adder_circuits_are_correct_circuits() {
    assert_eq!(Sha256Compress, Sha256Compress::default());
    assert_eq!(Sha256Compress.adder(), Adder::Ripple);
    assert_eq!(Blake3Compress.adder(), Adder::Ripple);
    assert_eq!(Sha256Compress.name(), "sha256-compress");
    for adder in [Adder::KoggeStone, Adder::BrentKung] {
        let sha = Sha256Compress::with_adder(adder);
        assert_eq!(sha.name(), format!("sha256-compress[{}]", adder.name()));
        check_circuit_encoding(&sha, &sha256_inputs(2));
        let blake = Blake3Compress::with_adder(adder);
        assert_eq!(blake.name(), format!("blake3-compress[{}]", adder.name()));
        check_circuit_encoding(&blake, &blake3_inputs(2));
    }
}

/// One row of the book's table: committed bits (batch-R1CS) and the compiled layers' shape.
fn row<R: Gadget>(name: &str, circuit: &R, layers: LayersShape) -> (String, [usize; 5], f64) {
    let stats = circuit.stats();
    let figures = [
        stats.and_gates,
        stats.committed_bits,
        layers.layers,
        layers.max_width,
        layers.and_gates,
    ];
    (name.to_owned(), figures, layers.mean_width)
}

/// Prints the table of `book/src/custom-gadget.md` ("Compiling a circuit into Boolean
/// layers") past the harness's capture, and pins it:
/// `cargo test -p flockwork-boolean --test suite -- compiled::cost_table`.
#[test]
fn cost_table() {
    let mut rows = Vec::new();
    for adder in Adder::ALL {
        rows.push(row(
            &format!("SHA-256, {}", adder.name()),
            sha256(adder).relation(),
            sha256(adder).shape(),
        ));
    }
    for adder in Adder::ALL {
        rows.push(row(
            &format!("BLAKE3, {}", adder.name()),
            blake3(adder).relation(),
            blake3(adder).shape(),
        ));
    }
    rows.push(row(
        "Keccak-f[1600], compiled",
        keccak().relation(),
        keccak().shape(),
    ));
    let hand = KeccakF1600::new();
    rows.push(row(
        "Keccak-f[1600], hand-written",
        &hand,
        LayersShape::of(hand.boolean_layers()),
    ));
    let mut table = String::from(
        "| circuit | ANDs | committed bits (batch-R1CS) | layers (GKR) | max width | mean width | AND gates (GKR) |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, [ands, bits, layers, max, gkr_ands], mean) in &rows {
        table +=
            &format!("| {name} | {ands} | {bits} | {layers} | {max} | {mean:.0} | {gkr_ands} |\n");
    }
    let _ = std::io::stderr().lock().write_all(table.as_bytes());
    let figures: Vec<[usize; 5]> = rows.iter().map(|r| r.1).collect();
    // [ANDs, committed bits, layers, max width, AND gates of the layers]
    let expected = [
        [22_696, 31_401, 1_608, 2_044, 22_573],
        [64_792, 71_449, 519, 2_305, 63_032],
        [38_296, 44_953, 712, 2_232, 37_944],
        [10_416, 15_409, 626, 3_988, 10_418],
        [59_248, 64_241, 309, 6_590, 57_916],
        [26_992, 31_985, 422, 8_972, 26_621],
        [38_400, 41_601, 24, 1_600, 38_400],
        [38_400, 41_601, 24, 1_600, 38_400],
    ];
    assert_eq!(figures, expected);
}
