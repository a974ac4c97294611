//! Adding a batcher: a hash chain proved in segments. `2^k` chained SHA-256 compressions are
//! split into `2^s` segments of `2^(k−s)`; one batch-R1CS (Flock) setup proves every segment
//! on its own, the public boundary states glue the segments together, and the proof is the
//! segments' proofs behind a small header. The prover's peak memory is one segment's, and
//! the segments could be proved on different machines; the price is `2^s` proofs to send and
//! verify, and `s` bits of soundness (or a higher per-segment target).
//!
//! The example proves the same chain with one Flock setup and with the segmented batcher,
//! compares them, shows tampered proofs being rejected and runs the mutation harness
//! (`flockwork_testkit::mutation`) on the segmented proof. Every check is an assertion, so
//! running it is a test.
//!
//! `cargo run --release --example custom_batcher`

use std::ops::Range;
use std::time::Instant;

use flockwork::boolean::Sha256Compress;
use flockwork::boolean::constants::SHA256_IV;
use flockwork::boolean::io::ChainStep;
use flockwork::boolean::words::join_u32;
use flockwork::circuit::{Gadget, SlotId, SlotKind};
use flockwork::pcs::Commitment;
use flockwork::pcs::security::ConfiguredCommitment;
use flockwork::poly::EngineBatcher;
use flockwork::poly::soundness::union_bits;
use flockwork::prelude::*;
use flockwork::r1cs::{Flock, FlockConfig, FlockError, ProveError, Statement};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};

// ANCHOR: batcher
/// `2^s` segments of `2^(k−s)` instances, each proved by the same Flock setup.
///
/// Statement and witness are those of a single Flock setup of `2^k` instances
/// ([`Statement::Batch`] or [`Statement::Chain`]; the inputs of all instances, one after the
/// other), so the two are interchangeable behind [`EngineBatcher`].
struct Segmented<G, P = Commitment> {
    /// The setup every segment is proved with (`2^(k−s)` instances).
    segment: Flock<G, P>,
    /// `s`.
    log_segments: usize,
    /// `u64` words of one instance's input vector.
    input_words: usize,
    /// For a chain setup: the words of an input vector that hold the chained state.
    chain_state: Option<Range<usize>>,
}

/// Why a segmented proof was rejected.
#[derive(Debug, thiserror::Error)]
enum SegmentedError {
    /// The statement's kind or lengths do not fit the setup.
    #[error("statement does not match the setup: {0}")]
    Statement(&'static str),
    /// Wrong magic bytes, version or segment count.
    #[error("not a segmented proof for this setup (header)")]
    Header,
    /// The proof ends before a length prefix, a boundary state or a segment proof.
    #[error("proof is truncated")]
    Truncated,
    /// Bytes left after the last segment.
    #[error("{0} trailing bytes after the last segment")]
    TrailingBytes(usize),
    /// A segment's own verifier rejected its proof.
    #[error("segment {segment}: {error}")]
    Segment {
        /// Which segment (0-based).
        segment: usize,
        /// The segment verifier's answer.
        error: FlockError,
    },
}

/// `"FWSG"`, then the format version.
const MAGIC: [u8; 4] = *b"FWSG";
const VERSION: u16 = 1;

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>> Segmented<G, P> {
    /// `2^s` segments, each a batch of `segment` (a plain batch or a chain setup).
    fn new(segment: Flock<G, P>, log_segments: usize) -> Result<Self, &'static str> {
        if segment.merkle().is_some() {
            return Err("a Merkle tree does not split into independent equal segments");
        }
        if log_segments > 16 {
            return Err("at most 2^16 segments");
        }
        let layout = segment.gadget().layout();
        let chain_state = match segment.chain() {
            None => None,
            Some(chain) => {
                // The chain's input region, found by its slot unit.
                let id = (0..layout.slots().len())
                    .map(SlotId)
                    .find(|&id| {
                        let slot = layout.slot(id);
                        slot.kind == SlotKind::Input && slot.first_slot == chain.in_slot
                    })
                    .ok_or("the chain's input region is not in the layout")?;
                let at = layout.vector_offset(id) / 64;
                Some(at..at + chain.state_words())
            }
        };
        Ok(Self {
            input_words: layout.vector_bits(SlotKind::Input) / 64,
            segment,
            log_segments,
            chain_state,
        })
    }

    /// `2^s`.
    fn segments(&self) -> usize {
        1 << self.log_segments
    }

    /// The chain's end states, `None` for a plain batch; an error for a statement of the
    /// wrong kind or length.
    fn ends<'a>(&self, statement: &'a Statement) -> Result<Option<[&'a [u64]; 2]>, &'static str> {
        match (statement, &self.chain_state) {
            (Statement::Batch, None) => Ok(None),
            (Statement::Chain { start, end }, Some(state)) => {
                if start.len() == state.len() && end.len() == state.len() {
                    Ok(Some([start, end]))
                } else {
                    Err("chain endpoints have the wrong length")
                }
            }
            (_, None) => Err("this setup proves plain batches (Statement::Batch)"),
            (_, Some(_)) => Err("this setup proves chains (Statement::Chain)"),
        }
    }

    /// Segment `j`'s statement: a plain batch, or the chain from boundary `j` to `j + 1`
    /// (`boundaries` holds the `2^s + 1` states, the statement's two ends included).
    fn segment_statement(boundaries: &[Vec<u64>], j: usize) -> Statement {
        if boundaries.is_empty() {
            Statement::Batch
        } else {
            Statement::Chain {
                start: boundaries[j].clone(),
                end: boundaries[j + 1].clone(),
            }
        }
    }
}
// ANCHOR_END: batcher

// ANCHOR: format
/// Reads a proof front to back; every read is bounds-checked and nothing is allocated from
/// a length the proof claims.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SegmentedError> {
        let (head, rest) = self
            .0
            .split_at_checked(n)
            .ok_or(SegmentedError::Truncated)?;
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, SegmentedError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Proof format:
/// `"FWSG" ‖ u16le(1) ‖ u8(s) ‖ boundary states 1 … 2^s − 1 (chain setups only,
/// u64le words) ‖ 2^s × (u32le(length) ‖ segment proof)`.
impl<G: Gadget, P: ConfiguredCommitment<Ghash128>> EngineBatcher for Segmented<G, P> {
    type Statement = Statement;
    type Witness = [u64];
    type ProveError = ProveError;
    type VerifyError = SegmentedError;

    fn instances(&self) -> usize {
        self.segments() * self.segment.instances()
    }

    fn prove_batch(&self, inputs: &[u64], statement: &Statement) -> Result<Vec<u8>, ProveError> {
        let ends = self.ends(statement).map_err(ProveError::Statement)?;
        let words = self.segment.instances() * self.input_words;
        if inputs.len() != self.segments() * words {
            return Err(ProveError::InputLength {
                expected: self.segments() * words,
                instances: self.instances(),
                got: inputs.len(),
            });
        }
        let mut proof = MAGIC.to_vec();
        proof.extend_from_slice(&VERSION.to_le_bytes());
        proof.push(self.log_segments as u8);
        // Boundary j is the state segment j starts from: the first instance's chained input.
        // If the inputs do not chain, some segment's proof fails verification.
        let mut boundaries = Vec::new();
        if let (Some([start, end]), Some(state)) = (ends, &self.chain_state) {
            boundaries.push(start.to_vec());
            for j in 1..self.segments() {
                let first = &inputs[j * words..][state.clone()];
                first.iter().for_each(|w| proof.extend(w.to_le_bytes()));
                boundaries.push(first.to_vec());
            }
            boundaries.push(end.to_vec());
        }
        // One segment at a time: peak memory is one segment's. (Each segment could as well
        // be proved on another machine; the proofs are independent.)
        for (j, chunk) in inputs.chunks_exact(words).enumerate() {
            let part = self
                .segment
                .prove_batch(chunk, &Self::segment_statement(&boundaries, j))?;
            let len = u32::try_from(part.len()).expect("a segment proof is below 4 GiB");
            proof.extend_from_slice(&len.to_le_bytes());
            proof.extend_from_slice(&part);
        }
        Ok(proof)
    }

    fn verify_batch(&self, statement: &Statement, proof: &[u8]) -> Result<(), SegmentedError> {
        let ends = self.ends(statement).map_err(SegmentedError::Statement)?;
        let mut r = Reader(proof);
        if r.take(4)? != MAGIC
            || r.take(2)? != VERSION.to_le_bytes()
            || r.take(1)? != [self.log_segments as u8]
        {
            return Err(SegmentedError::Header);
        }
        // Parse everything before verifying anything: a malformed proof costs no segment
        // verification. Allocations are bounded by the setup (2^s + 1 states, 2^s slices).
        let mut boundaries = Vec::new();
        if let (Some([start, end]), Some(state)) = (ends, &self.chain_state) {
            boundaries.push(start.to_vec());
            for _ in 1..self.segments() {
                let bytes = r.take(8 * state.len())?;
                boundaries.push(
                    bytes
                        .chunks_exact(8)
                        .map(|b| u64::from_le_bytes(std::array::from_fn(|i| b[i])))
                        .collect(),
                );
            }
            boundaries.push(end.to_vec());
        }
        let mut parts = Vec::with_capacity(self.segments());
        for _ in 0..self.segments() {
            let len = r.u32()? as usize;
            parts.push(r.take(len)?);
        }
        if !r.0.is_empty() {
            return Err(SegmentedError::TrailingBytes(r.0.len()));
        }
        // Every segment must hold; together they chain from `start` to `end`.
        for (j, part) in parts.into_iter().enumerate() {
            self.segment
                .verify_batch(&Self::segment_statement(&boundaries, j), part)
                .map_err(|error| SegmentedError::Segment { segment: j, error })?;
        }
        Ok(())
    }

    /// A false statement makes at least one segment statement false; the union bound over
    /// the `2^s` segments charges each of them: `s` bits below one segment.
    fn soundness_bits(&self) -> f64 {
        union_bits(std::iter::repeat_n(
            self.segment.soundness_bits(),
            self.segments(),
        ))
    }
}
// ANCHOR_END: format

// ANCHOR: harness
/// Proves and verifies with any batcher over Flock's statement and witness, printing one row.
fn run<B, G, P>(
    name: &str,
    batcher: &B,
    inputs: &[u64],
    statement: &Statement,
    memory_of: &Flock<G, P>,
) -> Vec<u8>
where
    B: EngineBatcher<Statement = Statement, Witness = [u64]>,
    G: Gadget,
    P: ConfiguredCommitment<Ghash128>,
{
    let clock = Instant::now();
    let proof = batcher
        .prove_batch(inputs, statement)
        .expect("the inputs fit the setup");
    let prove_ms = clock.elapsed().as_secs_f64() * 1e3;
    let clock = Instant::now();
    let verified = batcher.verify_batch(statement, &proof);
    let verify_ms = clock.elapsed().as_secs_f64() * 1e3;
    assert!(verified.is_ok(), "{name}: the honest proof verifies");
    println!(
        "{name:<14} {prove_ms:>11.1} {verify_ms:>12.2} {:>12.1} {:>20.1} {:>5.1}",
        proof.len() as f64 / 1024.0,
        memory_of.estimated_prover_bytes() as f64 / f64::from(1 << 20),
        batcher.soundness_bits()
    );
    proof
}
// ANCHOR_END: harness

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    // ANCHOR: setup
    // 2^6 SHA-256 compressions chained from the IV, in 2^2 segments of 2^4.
    let (log_k, log_s) = (6, 2);
    let whole = Flock::with_chain(
        Sha256Compress,
        log_k,
        Sha256Compress::STATE_IN,
        Sha256Compress::STATE_OUT,
        FlockConfig::default(),
    )?;
    // The union bound costs s bits: ask each segment for s more, so the whole stays at 100.
    let segment_config = FlockConfig {
        target_bits: 100 + log_s as u32,
        ..FlockConfig::default()
    };
    let segment = Flock::with_chain(
        Sha256Compress,
        log_k - log_s,
        Sha256Compress::STATE_IN,
        Sha256Compress::STATE_OUT,
        segment_config,
    )?;
    let split = Segmented::new(segment, log_s)?;
    assert_eq!(split.instances(), whole.instances());
    // ANCHOR_END: setup

    // ANCHOR: prove
    // The witness: every instance's input vector (state ‖ message block), chained natively.
    let mut state = SHA256_IV;
    let mut inputs = Vec::new();
    for i in 0..1u8 << log_k {
        let block = [i; 64];
        inputs.extend(Sha256Compress.chain_input(&state, &block));
        state = Sha256Compress.chain_next(&state, &block);
    }
    let statement = Statement::Chain {
        start: join_u32::<4>(&SHA256_IV).to_vec(),
        end: join_u32::<4>(&state).to_vec(),
    };

    // One harness for both strategies: that is what the `EngineBatcher` trait is for.
    println!("strategy       prove (ms)  verify (ms)  proof (KiB)  prover memory (MiB)  bits");
    let whole_proof = run("one Flock", &whole, &inputs, &statement, &whole);
    let proof = run("4 segments", &split, &inputs, &statement, &split.segment);
    // Four proofs of 2^4 instances outweigh one of 2^6: proof size grows slowly with k.
    assert!(proof.len() > 2 * whole_proof.len());
    assert!(split.soundness_bits() >= 100.0);
    let expected = split.segment.soundness_bits() - log_s as f64;
    assert!((split.soundness_bits() - expected).abs() < 1e-9);
    // ANCHOR_END: prove

    // ANCHOR: tamper
    // A changed boundary state: segment 0 no longer ends where segment 1 starts.
    let mut bad = proof.clone();
    bad[7] ^= 1;
    let err = split.verify_batch(&statement, &bad).unwrap_err();
    println!("boundary state changed: {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 0, .. }));

    // Two segment proofs swapped: each is checked against the other's boundaries.
    // (Header 7 bytes, then 3 boundary states of 4 words; the segment proofs are all of one
    // length here.)
    let first = 7 + 3 * 8 * 4;
    let unit = 4 + u32::from_le_bytes(proof[first..first + 4].try_into()?) as usize;
    let mut swapped = proof.clone();
    swapped[first..first + 2 * unit].rotate_left(unit);
    let err = split.verify_batch(&statement, &swapped).unwrap_err();
    println!("segments 0 and 1 swapped: {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 0, .. }));

    // A wrong end state in the statement: the last segment fails.
    let Statement::Chain { start, end } = &statement else {
        unreachable!()
    };
    let mut wrong_end = end.clone();
    wrong_end[0] ^= 1;
    let lie = Statement::Chain {
        start: start.clone(),
        end: wrong_end,
    };
    let err = split.verify_batch(&lie, &proof).unwrap_err();
    println!("wrong end state:        {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 3, .. }));

    // A length prefix pointing past the end.
    let mut long = proof.clone();
    long[first + 3] = 0xff;
    assert!(matches!(
        split.verify_batch(&statement, &long),
        Err(SegmentedError::Truncated)
    ));
    // ANCHOR_END: tamper

    // ANCHOR: mutations
    // The harness every shipped verifier runs: a seeded sample of single-byte changes, of
    // truncations, and appended bytes; all must be rejected without a panic.
    let budget = MutationBudget {
        exhaustive_limit: 500,
        truncation_limit: 150,
        ..MutationBudget::default()
    };
    let report = check_mutations("segmented", &proof, budget, |bytes| {
        split.verify_batch(&statement, bytes)
    });
    println!("mutation harness: {report}");
    // ANCHOR_END: mutations
    Ok(())
}
