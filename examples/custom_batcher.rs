//! Adding a batcher: a batch proved in segments. `N` SHA-256 compressions are split into
//! `2^s` segments of `N/2^s`; one batch-R1CS (Flock) setup proves every segment on its own,
//! and the proof is the segments' proofs behind a small header. For public IO each segment
//! proves its share of the inputs and outputs; for a chain the public boundary states glue
//! the segments together. The prover's peak memory is one segment's, and the segments could
//! be proved on different machines; the price is `2^s` proofs to send and verify, and `s`
//! bits of soundness (or a higher per-segment target).
//!
//! The strategy implements the one batcher trait, `flockwork::poly::relation::Batcher<R>`,
//! for any relation with a circuit encoding and a chaining state, so the facade's harness
//! proves one statement with it beside the shipped batchers and prints one table. The
//! example also shows false statements and tampered proofs being rejected and runs the
//! mutation harness (`flockwork_testkit::mutation`) on the segmented proof. Every check is
//! an assertion, so running it is a test.
//!
//! `cargo run --release --example custom_batcher`

use flockwork::boolean::constants::SHA256_IV;
use flockwork::engines::System;
use flockwork::poly::soundness::union_bits;
use flockwork::prelude::*;
use flockwork::r1cs::{FlockError, Statement as FlockStatement};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};

// ANCHOR: batcher
/// `2^s` segments of `n` instances, each proved by a Flock setup of `n` instances: one with
/// public inputs and outputs, one proving a chain.
struct Segmented<R> {
    /// The segment setup for public IO ([`FlockStatement::Public`]).
    public: Flock<R>,
    /// The segment setup for a chain ([`FlockStatement::Chain`]).
    chain: Flock<R>,
    /// `s`.
    log_segments: usize,
    /// `u64` words of one chaining state (a boundary in the proof).
    state_words: usize,
    /// The name in tables.
    name: String,
}

impl<R: CircuitEncoding + Clone> Segmented<R> {
    /// `count` instances of `relation` in `2^s` equal segments. The union bound over the
    /// segments costs `s` bits, so each segment's commitment targets `config.target_bits + s`
    /// and the whole keeps the target.
    fn new(
        relation: &R,
        count: usize,
        log_segments: usize,
        config: FlockConfig,
    ) -> Result<Self, String> {
        if log_segments > 16 {
            return Err("at most 2^16 segments".into());
        }
        let segments = 1usize << log_segments;
        if count == 0 || !count.is_multiple_of(segments) {
            return Err(format!(
                "{count} instances do not split into {segments} equal segments"
            ));
        }
        let config = FlockConfig {
            target_bits: config.target_bits + log_segments as u32,
            ..config
        };
        let setup = || Flock::for_count(relation.clone(), count / segments, config);
        let public = setup()
            .and_then(Flock::public_io)
            .map_err(|e| e.to_string())?;
        let (state_in, state_out) = relation
            .chain_regions()
            .ok_or_else(|| format!("{} declares no chaining state", relation.name()))?;
        let chain = setup()
            .and_then(|flock| flock.chained(state_in, state_out))
            .map_err(|e| e.to_string())?;
        let state_words = chain.chain().map_or(0, |layout| layout.state_words());
        Ok(Self {
            public,
            chain,
            log_segments,
            state_words,
            name: format!(
                "segmented {segments} × batch-R1CS / {} / {}",
                config.scheme,
                TranscriptKind::default()
            ),
        })
    }

    /// A chaining state as its region's words ([`CircuitEncoding::encode_state`]).
    fn state(&self, state: &R::State) -> Result<Vec<u64>, BatchError> {
        let relation = self.chain.gadget();
        relation.encode_state(state).ok_or_else(|| {
            BatchError::Unsupported(format!("{} declares no state encoding", relation.name()))
        })
    }

    /// `2^s`.
    fn segments(&self) -> usize {
        1 << self.log_segments
    }

    /// `n`, the instances of one segment.
    fn per_segment(&self) -> usize {
        self.public.instances()
    }

    /// `2^s · n`.
    fn instances(&self) -> usize {
        self.segments() * self.per_segment()
    }

    /// The segment setup for `statement`'s IO, after checking its count.
    fn setup_for(&self, statement: &Statement<R>) -> Result<&Flock<R>, BatchError> {
        if statement.count() != self.instances() || !statement.is_consistent() {
            return Err(BatchError::Unsupported(format!(
                "{} instances; this setup proves {}",
                statement.count(),
                self.instances()
            )));
        }
        match statement.io {
            Io::Public { .. } => Ok(&self.public),
            Io::Chain { .. } => Ok(&self.chain),
            Io::Committed { .. } | Io::Merkle { .. } => Err(BatchError::Unsupported(format!(
                "{} proves public IO and chains",
                self.name
            ))),
        }
    }

    /// Segment `j`'s Flock statement: its instances' public input and output vectors, or
    /// (for a chain, the one other kind [`Self::setup_for`] admits) the chain from boundary
    /// `j` to `j + 1`, where `boundaries` holds the `2^s + 1` states as words, the statement's
    /// two ends included.
    fn segment_statement(&self, io: &Io<R>, boundaries: &[Vec<u64>], j: usize) -> FlockStatement {
        let relation = self.public.gadget();
        let span = j * self.per_segment()..(j + 1) * self.per_segment();
        match io {
            Io::Public { inputs, outputs } => FlockStatement::Public {
                inputs: inputs[span.clone()]
                    .iter()
                    .flat_map(|x| relation.encode_input(x))
                    .collect(),
                outputs: outputs[span]
                    .iter()
                    .flat_map(|y| relation.encode_output(y))
                    .collect(),
            },
            _ => FlockStatement::Chain {
                start: boundaries[j].clone(),
                end: boundaries[j + 1].clone(),
            },
        }
    }
}
// ANCHOR_END: batcher

// ANCHOR: format
/// Why a segmented proof was rejected.
#[derive(Debug, thiserror::Error)]
enum SegmentedError {
    /// A statement the setup does not prove (its IO kind or its count).
    #[error("{0}")]
    Statement(BatchError),
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

impl<R: CircuitEncoding + Clone> Segmented<R> {
    /// Verifies `proof` for `statement`, naming the failed check; never panics.
    fn check(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), SegmentedError> {
        let flock = self
            .setup_for(statement)
            .map_err(SegmentedError::Statement)?;
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
        if let Io::Chain { start, end, .. } = &statement.io {
            boundaries.push(self.state(start).map_err(SegmentedError::Statement)?);
            for _ in 1..self.segments() {
                let bytes = r.take(8 * self.state_words)?;
                boundaries.push(
                    bytes
                        .chunks_exact(8)
                        .map(|b| u64::from_le_bytes(std::array::from_fn(|i| b[i])))
                        .collect(),
                );
            }
            boundaries.push(self.state(end).map_err(SegmentedError::Statement)?);
        }
        let mut parts = Vec::with_capacity(self.segments());
        for _ in 0..self.segments() {
            let len = r.u32()? as usize;
            parts.push(r.take(len)?);
        }
        if !r.0.is_empty() {
            return Err(SegmentedError::TrailingBytes(r.0.len()));
        }
        // Every segment must hold; together they prove every instance (public IO) or chain
        // from `start` to `end`.
        for (j, part) in parts.into_iter().enumerate() {
            let segment = self.segment_statement(&statement.io, &boundaries, j);
            flock
                .verify(&segment, part)
                .map_err(|error| SegmentedError::Segment { segment: j, error })?;
        }
        Ok(())
    }
}

/// Proof format:
/// `"FWSG" ‖ u16le(1) ‖ u8(s) ‖ boundary states 1 … 2^s − 1 (chains only, u64le words)
/// ‖ 2^s × (u32le(length) ‖ segment proof)`.
impl<R: CircuitEncoding + Clone> Batcher<R> for Segmented<R> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        matches!(io, IoKind::Public | IoKind::Chain)
    }

    /// A false statement makes at least one segment statement false; the union bound over
    /// the `2^s` segments charges each of them: `s` bits below one segment.
    fn soundness_bits(&self) -> f64 {
        let segment = self
            .public
            .soundness()
            .bits()
            .min(self.chain.soundness().bits());
        union_bits(std::iter::repeat_n(segment, self.segments()))
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        let flock = self.setup_for(statement)?;
        if inputs.len() != self.instances() {
            return Err(BatchError::Prove(format!(
                "{} inputs for {} instances",
                inputs.len(),
                self.instances()
            )));
        }
        let relation = flock.gadget();
        let mut proof = MAGIC.to_vec();
        proof.extend_from_slice(&VERSION.to_le_bytes());
        proof.push(self.log_segments as u8);
        // Boundary j is the state segment j starts from: its first instance's chaining
        // input. If the inputs do not chain, some segment's proof fails verification.
        let mut boundaries = Vec::new();
        if let Io::Chain { start, end, .. } = &statement.io {
            boundaries.push(self.state(start)?);
            for first in inputs.iter().step_by(self.per_segment()).skip(1) {
                let state = relation.input_state(first).ok_or_else(|| {
                    BatchError::Prove(format!("{} does not chain", relation.name()))
                })?;
                let words = self.state(&state)?;
                words.iter().for_each(|w| proof.extend(w.to_le_bytes()));
                boundaries.push(words);
            }
            boundaries.push(self.state(end)?);
        }
        // One segment at a time: peak memory is one segment's. (Each segment could as well
        // be proved on another machine; the proofs are independent.)
        for (j, chunk) in inputs.chunks_exact(self.per_segment()).enumerate() {
            let words: Vec<u64> = chunk
                .iter()
                .flat_map(|x| relation.encode_input(x))
                .collect();
            let segment = self.segment_statement(&statement.io, &boundaries, j);
            let (part, _) = flock
                .prove(&words, &segment)
                .map_err(|e| BatchError::Prove(format!("segment {j}: {e}")))?;
            let len = u32::try_from(part.len()).expect("a segment proof is below 4 GiB");
            proof.extend_from_slice(&len.to_le_bytes());
            proof.extend_from_slice(part.as_bytes());
        }
        Ok(proof)
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        self.check(statement, proof).map_err(|e| match e {
            SegmentedError::Statement(refusal) => refusal,
            rejected => BatchError::Rejected(rejected.to_string()),
        })
    }
}
// ANCHOR_END: format

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one process setting the provers want (`flockwork::allocator`).
    flockwork::allocator::retain_freed_memory();
    // ANCHOR: setup
    // 2^6 SHA-256 compressions in 2^2 segments of 2^4.
    let relation = Sha256Compress;
    let (count, log_s) = (1usize << 6, 2);
    let split = Segmented::new(&relation, count, log_s, FlockConfig::default())?;
    assert_eq!(split.instances(), count);
    // The segments' 102 bits each, less the union bound's 2, keep the target.
    assert!(split.soundness_bits() >= 100.0);
    let segment_bits = split.public.soundness().bits();
    let segment_bits = segment_bits.min(split.chain.soundness().bits());
    assert!((split.soundness_bits() - (segment_bits - log_s as f64)).abs() < 1e-9);
    println!(
        "{}: {:.1} bits; prover memory {:.1} MiB (one segment's, Flock::estimated_prover_bytes)",
        split.name(),
        split.soundness_bits(),
        split.chain.estimated_prover_bytes() as f64 / f64::from(1 << 20)
    );
    // ANCHOR_END: setup

    // ANCHOR: prove
    // A chain from the IV: instance i compresses the block [i; 64].
    let mut state = SHA256_IV;
    let inputs: Vec<Sha256Input> = (0..count)
        .map(|i| {
            let input = Sha256Input {
                state,
                block: [i as u8; 64],
            };
            state = relation.evaluate(&input);
            input
        })
        .collect();
    // Its two ends public, the message blocks private.
    let chain = Statement::chain(&relation, &inputs)?;
    let proof = split.prove(&inputs, &chain)?;
    split.verify(&chain, &proof)?;

    // Every input and output public: each segment proves its share.
    let public = Statement::public(&relation, inputs.clone());
    let public_proof = split.prove(&inputs, &public)?;
    split.verify(&public, &public_proof)?;
    // A false output, the last instance's: the last segment's statement is false.
    let mut outputs = relation.evaluate_batch(&inputs);
    outputs[count - 1][7] ^= 1;
    let lie = Statement {
        io: Io::Public {
            inputs: inputs.clone(),
            outputs,
        },
    };
    let err = split.check(&lie, &public_proof).unwrap_err();
    println!("false output:           {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 3, .. }));
    // The batcher's trait answers the same: rejected, not refused.
    assert!(matches!(
        split.verify(&lie, &public_proof),
        Err(BatchError::Rejected(_))
    ));
    // A proof of one kind of IO is no proof of the other, and no statement it does not
    // prove (a Merkle tree) is accepted.
    assert!(split.verify(&chain, &public_proof).is_err());
    assert!(!split.supports(IoKind::Merkle) && !split.supports(IoKind::Committed));
    // ANCHOR_END: prove

    // ANCHOR: tamper
    // A changed boundary state: segment 0 no longer ends where segment 1 starts.
    let mut bad = proof.clone();
    bad[7] ^= 1;
    let err = split.check(&chain, &bad).unwrap_err();
    println!("boundary state changed: {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 0, .. }));

    // Two segment proofs swapped: each is checked against the other's boundaries.
    // (Header 7 bytes, then 2^s − 1 boundary states; the segment proofs are all of one
    // length here.)
    let first = 7 + (split.segments() - 1) * 8 * split.state_words;
    let unit = 4 + u32::from_le_bytes(proof[first..first + 4].try_into()?) as usize;
    let mut swapped = proof.clone();
    swapped[first..first + 2 * unit].rotate_left(unit);
    let err = split.check(&chain, &swapped).unwrap_err();
    println!("segments 0 and 1 swapped: {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 0, .. }));

    // A wrong end state in the statement: the last segment fails.
    let mut wrong_end = state;
    wrong_end[0] ^= 1;
    let lie = Statement {
        io: Io::Chain {
            count,
            start: SHA256_IV,
            end: wrong_end,
        },
    };
    let err = split.check(&lie, &proof).unwrap_err();
    println!("wrong end state:        {err}");
    assert!(matches!(err, SegmentedError::Segment { segment: 3, .. }));

    // A length prefix pointing past the end.
    let mut long = proof.clone();
    long[first + 3] = 0xff;
    assert!(matches!(
        split.check(&chain, &long),
        Err(SegmentedError::Truncated)
    ));
    // ANCHOR_END: tamper

    // ANCHOR: file
    // A proof file of the chain, checked with this batcher (`verify_with`: a batcher the
    // engines do not list is built by its caller); another batcher is refused by name.
    let choices = Choices::default();
    let bytes = flockwork::proof_file::save(&relation, &split, &choices, &chain, proof.clone());
    flockwork::proof_file::verify_with(&relation, &split, &bytes)?;
    assert!(flockwork::proof_file::verify(&relation, &bytes).is_err());
    println!("proof file:             {} bytes, verified", bytes.len());
    // ANCHOR_END: file

    // ANCHOR: mutations
    // The harness every shipped verifier runs: a seeded sample of single-byte changes, of
    // truncations, and appended bytes; all must be rejected without a panic.
    let budget = MutationBudget {
        exhaustive_limit: 500,
        truncation_limit: 150,
        ..MutationBudget::default()
    };
    let report = check_mutations("segmented", &proof, budget, |bytes| {
        split.check(&chain, bytes)
    });
    println!("mutation harness: {report}");
    // ANCHOR_END: mutations

    // ANCHOR: compare
    // One table: the batch-R1CS batchers the engines list for 64 SHA-256 compressions (the
    // ragged strategy over each commitment) and the segmented one, each proving and
    // verifying the same chain statement.
    let choices = Choices {
        systems: vec![System::BatchR1cs],
        variants: vec![Variant::Ragged],
        ..Choices::default()
    };
    let ours = split.name();
    let rows = compare_statement_with(&relation, &inputs, &chain, &choices, vec![Box::new(split)])?;
    println!(
        "\n{:<44} {:>10} {:>10} {:>10} {:>6}",
        "batcher", "prove", "verify", "KiB", "bits"
    );
    for row in &rows {
        println!(
            "{:<44} {:>10.1?} {:>10.1?} {:>10.1} {:>6.1}",
            row.name,
            row.prove,
            row.verify,
            row.proof_bytes as f64 / 1024.0,
            row.soundness_bits
        );
        assert!(row.failure.is_none(), "{}: {:?}", row.name, row.failure);
    }
    // One row per commitment scheme, then ours, every one a verified proof of `chain`.
    assert_eq!(rows.len(), PcsKind::ALL.len() + 1);
    assert_eq!(
        rows.last().map(|row| row.name.as_str()),
        Some(ours.as_str())
    );
    // ANCHOR_END: compare
    Ok(())
}
