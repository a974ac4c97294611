//! System 0: a batch of hash compressions (SHA-256, Keccak-f\[1600\], BLAKE3) proved with
//! batch-R1CS (Flock, [`flockwork_r1cs`]), and its statement: a chain's two end states, a
//! Merkle tree's root and leaves, or every instance's public input and output words.
//!
//! A chain of `copies · blocks` steps proves `copies` steps per block, any number of blocks
//! from 1 to 2^24 (the batch-R1CS setup's exact count, [`flockwork_r1cs::Flock::for_count`])
//! ([`flockwork_boolean::wide_chain`]); a Merkle tree over `count` leaves takes one instance
//! per leaf: its `count − 1` node compressions and instance 0, padding; public IO takes one
//! instance per block.
//!
//! Verification checks that the count is laid out in the header's blocks
//! ([`BatchShape::for_count`]) and rebuilds the setup from the header — hash, statement kind,
//! count, commitment, preset, target, transcript ([`verify_exact`]); the proof also carries
//! its setup digest and is bound to the setup by its transcript.

use flockwork_pcs::PcsKind;
use flockwork_r1cs::{FlockConfig, Preset, Statement};
use flockwork_transcript::TranscriptKind;

use super::ProofFile;
use super::codes::pcs_code;
use super::error::ProofFileError;
use super::framing::{MAX_BLOCKS, Reader, push_proof, push_words};
use crate::flock::{
    BatchShape, ExactError, FlockReport, FlockWorkload, HashKind, IoKind, MAX_COPIES, verify_exact,
};

/// The largest chain state or digest, in 64-bit words (Keccak-f\[1600\] has 25).
pub(super) const MAX_STATE_WORDS: usize = 64;
/// Words of a Merkle digest (SHA-256 and BLAKE3: 256 bits).
const MERKLE_DIGEST_WORDS: usize = 4;

/// A batch-R1CS proof and its statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlockFile {
    /// The compression function.
    pub hash: HashKind,
    /// The Fiat–Shamir transcript.
    pub transcript: TranscriptKind,
    /// The dense commitment under ring-switching.
    pub pcs: PcsKind,
    /// Ligerito's preset (ignored by other commitments).
    pub preset: Preset,
    /// Instances per block (chain steps; 1 for Merkle trees).
    pub copies: usize,
    /// The batch has `blocks` blocks (1 to 2^24), `copies · blocks` compressions.
    pub blocks: usize,
    /// The compressions the statement is about: exactly the count proved (a Keccak-f chain
    /// may run up to `copies − 1` steps past it in its last block,
    /// [`BatchShape::overhang`](crate::flock::BatchShape::overhang)); the layout
    /// `BatchShape::for_count(hash, io, count)` must be `copies × blocks`.
    pub count: usize,
    /// The security target the parameters were selected for.
    pub target_bits: u32,
    /// The chain's end points or the tree's root and leaves.
    pub statement: Statement,
    /// The batch-R1CS proof.
    pub proof: Vec<u8>,
}

impl ProofFile {
    /// The proof file of `report`, a run of `workload`: the exact statement, the shape, the
    /// commitment's scheme, preset and target and the transcript the verifier rebuilds its
    /// setup from. [`ProofFile::verify`] checks it from the file alone.
    #[must_use]
    pub fn of_flock(workload: &FlockWorkload, report: &FlockReport) -> Self {
        Self::Flock(FlockFile {
            hash: report.hash,
            transcript: workload.transcript,
            pcs: workload.config.scheme,
            preset: workload.config.preset,
            copies: report.shape.copies,
            blocks: report.shape.blocks,
            count: report.count,
            target_bits: workload.config.target_bits,
            statement: report.exact.clone(),
            proof: report.proof.clone(),
        })
    }
}

fn hash_code(hash: HashKind) -> u8 {
    match hash {
        HashKind::Sha256 => 0,
        HashKind::Keccak => 1,
        HashKind::Blake3 => 2,
    }
}

impl FlockFile {
    /// A chain, a Merkle tree or public IO (never [`IoKind::Committed`]).
    #[must_use]
    pub fn io(&self) -> IoKind {
        match self.statement {
            Statement::Merkle { .. } => IoKind::Merkle,
            Statement::Public { .. } => IoKind::Public,
            _ => IoKind::Chain,
        }
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(hash_code(self.hash));
        out.push(pcs_code(self.pcs));
        out.push(u8::from(
            self.pcs == PcsKind::Ligerito && self.preset == Preset::Slim,
        ));
        out.push(self.copies as u8);
        out.extend_from_slice(&(self.blocks as u32).to_le_bytes());
        out.extend_from_slice(&(self.count as u32).to_le_bytes());
        out.extend_from_slice(&(self.target_bits as u16).to_le_bytes());
        match &self.statement {
            Statement::Chain { start, end } => {
                out.push(1);
                for state in [start, end] {
                    out.extend_from_slice(&(state.len() as u32).to_le_bytes());
                    push_words(out, state);
                }
            }
            Statement::Merkle { root, leaves } => {
                out.push(2);
                out.extend_from_slice(&(root.len() as u32).to_le_bytes());
                push_words(out, root);
                for leaf in leaves {
                    push_words(out, leaf);
                }
            }
            Statement::Public { inputs, outputs } => {
                out.push(3);
                let instances = self.instances();
                for words in [inputs, outputs] {
                    // Words per instance (0 for a header without instances, which no reader
                    // accepts).
                    let per = words.len().checked_div(instances).unwrap_or(0);
                    out.extend_from_slice(&(per as u32).to_le_bytes());
                }
                push_words(out, inputs);
                push_words(out, outputs);
            }
            Statement::Batch => panic!("proof files hold chain, Merkle or public statements"),
        }
        push_proof(out, &self.proof);
    }

    pub(super) fn read(
        mut r: Reader<'_>,
        transcript: TranscriptKind,
    ) -> Result<Self, ProofFileError> {
        let hash = match r.u8("header")? {
            0 => HashKind::Sha256,
            1 => HashKind::Keccak,
            2 => HashKind::Blake3,
            c => return Err(ProofFileError::Header(format!("unknown hash code {c}"))),
        };
        let pcs = r.pcs()?;
        let preset = match r.u8("header")? {
            0 => Preset::Fast,
            1 => Preset::Slim,
            c => return Err(ProofFileError::Header(format!("unknown preset code {c}"))),
        };
        if pcs != PcsKind::Ligerito && preset != Preset::Fast {
            return Err(ProofFileError::Header(
                "a preset is only meaningful for Ligerito".into(),
            ));
        }
        let copies = usize::from(r.u8("header")?);
        if !(1..=MAX_COPIES).contains(&copies) {
            return Err(ProofFileError::Header(format!(
                "{copies} instances per block (1 to {MAX_COPIES})"
            )));
        }
        let blocks = r.u32("header")? as usize;
        if !(1..=MAX_BLOCKS).contains(&blocks) {
            return Err(ProofFileError::Header(format!(
                "{blocks} blocks (1 to {MAX_BLOCKS})"
            )));
        }
        let count = r.u32("header")? as usize;
        if count == 0 || count > copies * blocks {
            return Err(ProofFileError::Header(format!(
                "{count} instances in {blocks} blocks of {copies}"
            )));
        }
        let target_bits = u32::from(r.u16("header")?);
        if !(64..=256).contains(&target_bits) {
            return Err(ProofFileError::Header(format!(
                "security target {target_bits} bits (64 to 256)"
            )));
        }
        let statement = match r.u8("statement")? {
            1 => {
                let start = r.state("chain start")?;
                let end = r.state("chain end")?;
                Statement::Chain { start, end }
            }
            2 => {
                if !hash.has_merkle_nodes() || blocks < 2 || copies != 1 {
                    return Err(ProofFileError::Header(format!(
                        "no Merkle tree of {blocks} blocks of {copies} {} nodes",
                        hash.name()
                    )));
                }
                let root = r.state("Merkle root")?;
                // SHA-256 and BLAKE3 digests: 256 bits. Checked before the leaves are read,
                // so an empty digest cannot make 2^k empty leaves out of no bytes.
                if root.len() != MERKLE_DIGEST_WORDS {
                    return Err(ProofFileError::Header(format!(
                        "a Merkle root of {} words ({} digests have {MERKLE_DIGEST_WORDS})",
                        root.len(),
                        hash.name()
                    )));
                }
                let leaves = count;
                r.ensure(leaves, 8 * root.len(), "Merkle leaves")?;
                let leaves = (0..leaves)
                    .map(|_| r.words(root.len(), "Merkle leaves"))
                    .collect::<Result<_, _>>()?;
                Statement::Merkle { root, leaves }
            }
            3 => {
                if copies != 1 {
                    return Err(ProofFileError::Header(format!(
                        "public IO takes one instance per block, not {copies}"
                    )));
                }
                let instances = blocks;
                let (a, b) = (r.u32("statement")? as usize, r.u32("statement")? as usize);
                if a == 0 || b == 0 || a > MAX_STATE_WORDS || b > MAX_STATE_WORDS {
                    return Err(ProofFileError::Header(format!(
                        "{a} input and {b} output words per instance (1 to {MAX_STATE_WORDS})"
                    )));
                }
                r.ensure(instances, 8 * (a + b), "public inputs and outputs")?;
                let inputs = r.words(instances * a, "public inputs")?;
                let outputs = r.words(instances * b, "public outputs")?;
                Statement::Public { inputs, outputs }
            }
            kind => {
                return Err(ProofFileError::Header(format!(
                    "unknown statement kind {kind}"
                )));
            }
        };
        Ok(Self {
            hash,
            transcript,
            pcs,
            preset,
            copies,
            blocks,
            count,
            target_bits,
            statement,
            proof: r.proof()?,
        })
    }

    pub(super) fn verify(&self, memory_limit: Option<u64>) -> Result<(), ProofFileError> {
        let shape = BatchShape::for_count(self.hash, self.io(), self.count);
        if (shape.copies, shape.blocks) != (self.copies, self.blocks) {
            return Err(ProofFileError::Header(format!(
                "{} {} instances are laid out in {} blocks of {}, not {} of {}",
                self.count,
                self.hash.name(),
                shape.blocks,
                shape.copies,
                self.blocks,
                self.copies
            )));
        }
        let config = FlockConfig {
            scheme: self.pcs,
            preset: self.preset,
            target_bits: self.target_bits,
            memory_limit,
            ..FlockConfig::default()
        };
        verify_exact(
            self.hash,
            self.io(),
            self.count,
            config,
            self.transcript,
            &self.statement,
            &self.proof,
        )
        .map_err(|e| match e {
            ExactError::Setup(e) => ProofFileError::Setup(e.to_string()),
            ExactError::Rejected(e) => ProofFileError::Rejected(e),
            ExactError::MemoryLimit { estimate, limit } => {
                ProofFileError::MemoryLimit { estimate, limit }
            }
        })
    }

    /// Compressions the statement is about.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.count
    }

    /// One sentence on what the proof is about
    /// ([`ProofFile::describe`](super::ProofFile::describe)).
    pub(super) fn describe(&self) -> String {
        let hash = self.hash.name();
        let count = self.instances();
        let what = match self.io() {
            // `io` names no committed statement (a file states its IO).
            IoKind::Chain | IoKind::Committed => format!("a chain of {count} {hash} compressions"),
            IoKind::Merkle => format!(
                "a Merkle tree over {count} leaves: its {} {hash} node compressions, \
                 from the stated leaves to the stated root",
                count.saturating_sub(1)
            ),
            IoKind::Public => {
                format!("public inputs and outputs of {count} {hash} compressions")
            }
        };
        let blocks = if self.copies > 1 {
            format!(" in {} blocks of {}", self.blocks, self.copies)
        } else {
            String::new()
        };
        format!(
            "{what}{blocks} ({} over ring-switching, {} bits targeted, {} transcript)",
            self.pcs.name(),
            self.target_bits,
            self.transcript
        )
    }
}

impl Reader<'_> {
    /// A length-prefixed state of at most [`MAX_STATE_WORDS`] words.
    fn state(&mut self, what: &'static str) -> Result<Vec<u64>, ProofFileError> {
        let n = self.u32(what)? as usize;
        if n > MAX_STATE_WORDS {
            return Err(ProofFileError::Header(format!(
                "{what} has {n} words (at most {MAX_STATE_WORDS})"
            )));
        }
        self.words(n, what)
    }
}
