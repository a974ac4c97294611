//! The proof file written by `flockwork prove --out` and checked by `flockwork verify`: a
//! proof with everything the verifier must know about its statement.
//!
//! ## Layout (little-endian)
//!
//! ```text
//! "FWPF" | u16 version (7) | u8 system | u8 transcript (0 SHA-256, 1 BLAKE3, 2 Poseidon2b)
//! system 0, batch-R1CS (Flock):
//!     u8 hash | u8 pcs | u8 preset | u8 copies | u32 blocks | u32 count | u16 target_bits
//!     | u8 statement kind
//!     kind 1, chain:  u32 n | n × u64 start | u32 n | n × u64 end (after `count` steps)
//!     kind 2, Merkle: u32 d | d × u64 root | count leaves × d × u64 (the left-complete tree)
//!     kind 3, public: u32 a | u32 b | blocks × a × u64 inputs | blocks × b × u64
//!                     outputs (one instance per block)
//! system 1, GKR over Poseidon2b (t = 4, official instance), inputs and outputs public:
//!     u8 batcher | u8 regions A | A × u8 width w_a
//!     per region: t·2^w_a × 16-byte inputs | t·2^w_a × 16-byte outputs (instance after
//!     instance, t lanes each)
//! system 2, GKR over Poseidon2b with the input layer committed (`flockwork_gkr::opening`),
//! outputs public:
//!     u8 batcher | u8 pcs | u8 regions A | A × u8 width w_a | u16 n | n commitment bytes
//!     per region: t·2^w_a × 16-byte outputs
//! system 3, Keccak-f[1600] with GKR on its Boolean layers (the harness's batcher,
//! `flockwork::engines`):
//!     u8 batcher | u8 pcs (255: none) | u16 target_bits (0 without pcs) | u32 N (1 to 2^24)
//!     pcs 255, public IO: N × 25 × u64 inputs | N × 25 × u64 outputs
//!     otherwise, committed IO: u16 n | n commitment bytes
//! then: u64 proof length | proof bytes
//! ```
//!
//! The version changes whenever the meaning of a file's bytes does (its layout, or the bytes
//! of a proof for the same statement); a build reads its own version only and refuses an
//! older file with an error that names the last commit reading it ([`RETIRED`]). A chain of
//! `copies · blocks` steps proves `copies` steps per block, any number of blocks from 1 to
//! 2^24 (the batch-R1CS setup's exact count, [`flockwork_r1cs::Flock::for_count`])
//! ([`flockwork_boolean::wide_chain`]); a Merkle tree over `count` leaves takes one
//! instance per leaf: its `count − 1` node compressions and instance 0, padding.
//!
//! **What a file states.** Chains: the two end states; Merkle trees: the root and the leaves;
//! batch-R1CS public IO and GKR files (systems 1 and 3): every instance's input and output,
//! or (systems 2 and 3 committed) a commitment to the inputs (and, system 3, the outputs).
//! A GKR file over Poseidon2b states "these inputs (or the inputs this commitment binds)
//! give these outputs under the permutation, every instance": it holds no output point and
//! no claimed value; the verifier draws the points from the proof's transcript after the
//! inputs (their digest, or the commitment) and the outputs are absorbed, and computes the
//! claimed values itself ([`flockwork_gkr::statement`]).
//!
//! Parsing is strict: every count is bounded, and checked against the bytes left, before
//! anything is allocated; field elements must be canonical; unknown codes and trailing bytes
//! are errors. Verification rebuilds the setup from the header (a batch-R1CS proof also
//! carries its setup digest and is bound to the setup by its transcript).

use std::io::Read;
use std::sync::Arc;

use flockwork_field::Field;
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_gkr::statement::{CommittedLayer, OutputLayer, RegionStatement};
use flockwork_gkr::{GkrError, Variant};
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_r1cs::{FlockConfig, FlockError, Preset, Statement};
use thiserror::Error;

use flockwork_core::PolynomialCommitment;
use flockwork_pcs::PcsKind;
use flockwork_transcript::{TranscriptKind, TranscriptScheme};

use crate::flock::{BatchShape, ExactError, HashKind, IoKind, MAX_COPIES, verify_exact};
use crate::permutations::{LANES, MAX_WIDTH, check_widths, layer0_commitment, setup};

/// The file's magic bytes.
pub const MAGIC: [u8; 4] = *b"FWPF";
/// The format version this build writes and reads. Version 5: batch-R1CS files record the
/// exact block count (`u32 blocks`, any count, instead of `u8 log_blocks`) and carry the
/// batch-R1CS proof version 4 (the count in the setup digest and the constant pin). Version 6:
/// batch-R1CS proof version 5 (the commitment's parameters in their fixed byte encoding), the
/// exact count (`u32 count`: Merkle trees over any number of leaves, Keccak-f chains of any
/// length), and system 3 (Keccak-f with GKR on its Boolean layers). Version 7: Poseidon2b
/// GKR files (systems 1 and 2) state every instance's outputs in place of an output point
/// and claimed values, and carry GKR proof version 2 (the points drawn in the transcript).
pub const VERSION: u16 = 7;
/// Every earlier version, with the last commit whose `flockwork verify` reads its files: 2
/// (no `copies` byte; proofs before the proof-of-work change d591d4c), 3 (the layer-0
/// commitment at its target; files written from d591d4c on, earlier ones by b2fc788), 4
/// (power-of-two block counts, batch-R1CS proof version 3), 5 (batch-R1CS proof version 4)
/// and 6 (Poseidon2b GKR files with a stated output point and claimed values).
pub const RETIRED: [(u16, &str); 5] = [
    (2, "b2fc788"),
    (3, "7e089aa"),
    (4, "21c80a4"),
    (5, "40c760a"),
    (6, "dd373e8"),
];
/// The largest chain state or digest, in 64-bit words (Keccak-f[1600] has 25).
const MAX_STATE_WORDS: usize = 64;
/// Words of a Merkle digest (SHA-256 and BLAKE3: 256 bits).
const MERKLE_DIGEST_WORDS: usize = 4;
/// The most blocks a batch-R1CS file may describe.
const MAX_BLOCKS: usize = 1 << 24;

/// A proof file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofFile {
    /// A batch of hash compressions proved with batch-R1CS.
    Flock(FlockFile),
    /// A batch of Poseidon2b permutations proved with GKR.
    Gkr(GkrFile),
    /// A batch of Poseidon2b permutations proved with GKR, the inputs committed.
    GkrOpened(GkrOpenedFile),
    /// A batch of Keccak-f permutations proved with GKR on their Boolean layers.
    BooleanGkr(BooleanGkrFile),
}

/// A GKR proof over Keccak-f\[1600\] permutations, made by the harness's Boolean GKR
/// batcher ([`crate::engines`]), and its statement: public inputs and outputs, or the
/// batcher's commitment to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanGkrFile {
    /// The batcher that wrote the proof.
    pub variant: Variant,
    /// The Fiat–Shamir transcript.
    pub transcript: TranscriptKind,
    /// The commitment of the inputs and outputs, `None` for public ones.
    pub pcs: Option<PcsKind>,
    /// The security target the commitment was selected for.
    pub target_bits: u32,
    /// The statement: [`Io::Public`](flockwork_core::relation::Io::Public) or
    /// [`Io::Committed`](flockwork_core::relation::Io::Committed).
    pub io: BooleanIo,
    /// The proof.
    pub proof: Vec<u8>,
}

/// What a [`BooleanGkrFile`] states about its instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BooleanIo {
    /// Every instance's input and output state.
    Public {
        /// The input states.
        inputs: Vec<[u64; 25]>,
        /// The output states.
        outputs: Vec<[u64; 25]>,
    },
    /// `count` instances bound by the batcher's commitment.
    Committed {
        /// The number of instances.
        count: usize,
        /// The commitment bytes.
        commitment: Vec<u8>,
    },
}

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

/// A GKR proof over Poseidon2b (t = 4) permutations and its statement: these inputs give
/// these outputs, every instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GkrFile {
    /// The batcher that wrote the proof.
    pub variant: Variant,
    /// The Fiat–Shamir transcript.
    pub transcript: TranscriptKind,
    /// The region widths `w_a` (regions of `2^w_a` permutations).
    pub widths: Vec<usize>,
    /// The permutation inputs, region by region (`t · 2^w_a` elements each, permutation after
    /// permutation).
    pub inputs: Vec<Vec<Ghash128>>,
    /// The permutation outputs, in the same layout.
    pub outputs: Vec<Vec<Ghash128>>,
    /// The GKR proof.
    pub proof: Vec<u8>,
}

/// A GKR proof over Poseidon2b (t = 4) permutations whose inputs are committed (the layer-0
/// PCS path) and its statement: the inputs the commitment binds give these outputs, every
/// instance. The verifier holds the commitment, not the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GkrOpenedFile {
    /// The batcher that wrote the proof.
    pub variant: Variant,
    /// The Fiat–Shamir transcript (of the walk and of the opening).
    pub transcript: TranscriptKind,
    /// The commitment of the input layer ([`crate::permutations::layer0_commitment`]).
    pub pcs: PcsKind,
    /// The region widths `w_a` (regions of `2^w_a` permutations).
    pub widths: Vec<usize>,
    /// The commitment's bytes.
    pub commitment: Vec<u8>,
    /// The permutation outputs, region by region (`t · 2^w_a` elements each, permutation
    /// after permutation).
    pub outputs: Vec<Vec<Ghash128>>,
    /// The GKR proof and the opening.
    pub proof: Vec<u8>,
}

/// Why a proof file is unreadable or its proof is rejected.
#[derive(Debug, Error)]
pub enum ProofFileError {
    /// The file ends early.
    #[error("the proof file is truncated (it ends inside its {0})")]
    Truncated(&'static str),
    /// Not a flockwork proof file.
    #[error("not a flockwork proof file (bad magic bytes)")]
    BadMagic,
    /// The file's source failed.
    #[error("cannot read the proof file: {0}")]
    Read(#[source] std::io::Error),
    /// An earlier format version, and the last commit that reads it.
    #[error(
        "proof file version {version} is not read by this build (it reads version {VERSION}); \
         flockwork at commit {commit} reads version {version}"
    )]
    Retired {
        /// The file's version.
        version: u16,
        /// The last commit that reads it.
        commit: &'static str,
    },
    /// An unknown format version (written by a later build).
    #[error("proof file version {0} is unknown to this build (it reads version {VERSION})")]
    Version(u16),
    /// A header field out of range.
    #[error("invalid proof file header: {0}")]
    Header(String),
    /// Bytes after the proof.
    #[error("{0} unexpected bytes after the proof")]
    TrailingBytes(usize),
    /// The setup the header describes cannot be built.
    #[error("cannot set up the verifier: {0}")]
    Setup(String),
    /// The batch-R1CS proof does not verify for this statement.
    #[error("the proof is rejected: {0}")]
    Rejected(#[from] FlockError),
    /// The GKR proof does not verify for this statement.
    #[error("the proof is rejected: {0}")]
    GkrRejected(#[from] GkrError),
    /// A harness batcher rejects the proof for this statement (its message names the check).
    #[error("{0}")]
    BatchRejected(String),
    /// The verifier's estimated memory exceeds the limit ([`ProofFile::verify_within`]).
    #[error(
        "the verifier would need about {} MiB, over the memory limit of {} MiB",
        estimate.div_ceil(1 << 20),
        limit >> 20
    )]
    MemoryLimit {
        /// The estimate in bytes.
        estimate: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

fn hash_code(hash: HashKind) -> u8 {
    match hash {
        HashKind::Sha256 => 0,
        HashKind::Keccak => 1,
        HashKind::Blake3 => 2,
    }
}

fn pcs_code(pcs: PcsKind) -> u8 {
    match pcs {
        PcsKind::Ligerito => 0,
        PcsKind::Fri => 1,
        PcsKind::Blaze => 2,
    }
}

fn transcript_code(transcript: TranscriptKind) -> u8 {
    match transcript {
        TranscriptKind::Sha256 => 0,
        TranscriptKind::Blake3 => 1,
        TranscriptKind::Poseidon2b => 2,
    }
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Independent => 0,
        Variant::Padded => 1,
        Variant::Ragged => 2,
    }
}

/// A cursor over the file's bytes, read from any source as they are needed (the file's bytes
/// are never held whole beside what is parsed from them), that names what it was reading when
/// they ran out. `left` is the number of bytes the file has after the cursor: every count is
/// checked against it before anything is allocated for it.
struct Reader<'a> {
    source: &'a mut dyn Read,
    left: usize,
    scratch: Vec<u8>,
}

impl<'a> Reader<'a> {
    fn new(source: &'a mut dyn Read, len: usize) -> Self {
        Self {
            source,
            left: len,
            scratch: Vec::new(),
        }
    }

    /// Reads exactly `buf.len()` bytes, which the file is known to have.
    fn fill(&mut self, buf: &mut [u8], what: &'static str) -> Result<(), ProofFileError> {
        if self.left < buf.len() {
            return Err(ProofFileError::Truncated(what));
        }
        self.source.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => ProofFileError::Truncated(what),
            _ => ProofFileError::Read(e),
        })?;
        self.left -= buf.len();
        Ok(())
    }

    /// The next `n` bytes (a header field's: `n` is small or checked against `left`).
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], ProofFileError> {
        if self.left < n {
            return Err(ProofFileError::Truncated(what));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(n, 0);
        let filled = self.fill(&mut scratch, what);
        self.scratch = scratch;
        filled?;
        Ok(&self.scratch[..n])
    }

    /// The next `n` bytes as a vector of their own.
    fn take_vec(&mut self, n: usize, what: &'static str) -> Result<Vec<u8>, ProofFileError> {
        if self.left < n {
            return Err(ProofFileError::Truncated(what));
        }
        let mut bytes = vec![0; n];
        self.fill(&mut bytes, what)?;
        Ok(bytes)
    }

    /// Fails unless `n` items of `size` bytes are left (before allocating for them).
    fn ensure(&self, n: usize, size: usize, what: &'static str) -> Result<(), ProofFileError> {
        match n.checked_mul(size) {
            Some(bytes) if bytes <= self.left => Ok(()),
            _ => Err(ProofFileError::Truncated(what)),
        }
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, ProofFileError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, ProofFileError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, ProofFileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, ProofFileError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    fn words(&mut self, n: usize, what: &'static str) -> Result<Vec<u64>, ProofFileError> {
        self.ensure(n, 8, what)?;
        (0..n).map(|_| self.u64(what)).collect()
    }

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

    /// `n` canonical field elements.
    fn elements<F: Field>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<F>, ProofFileError> {
        self.ensure(n, F::NUM_BYTES, what)?;
        // Pushed into exact room: collecting `Result`s would grow the vector by doubling.
        let mut elements = Vec::with_capacity(n);
        for _ in 0..n {
            let element = F::read_bytes(self.take(F::NUM_BYTES, what)?).ok_or_else(|| {
                ProofFileError::Header(format!("a non-canonical field element in the {what}"))
            })?;
            elements.push(element);
        }
        Ok(elements)
    }

    /// A commitment code ([`pcs_code`]).
    fn pcs(&mut self) -> Result<PcsKind, ProofFileError> {
        pcs_of_code(self.u8("header")?)
    }

    /// A transcript code ([`transcript_code`]).
    fn transcript(&mut self) -> Result<TranscriptKind, ProofFileError> {
        match self.u8("header")? {
            0 => Ok(TranscriptKind::Sha256),
            1 => Ok(TranscriptKind::Blake3),
            2 => Ok(TranscriptKind::Poseidon2b),
            c => Err(ProofFileError::Header(format!(
                "unknown transcript code {c}"
            ))),
        }
    }

    /// A batcher code ([`variant_code`]).
    fn variant(&mut self) -> Result<Variant, ProofFileError> {
        match self.u8("header")? {
            0 => Ok(Variant::Independent),
            1 => Ok(Variant::Padded),
            2 => Ok(Variant::Ragged),
            c => Err(ProofFileError::Header(format!("unknown batcher code {c}"))),
        }
    }

    /// A region count and the regions' widths, within the workload's limits.
    fn widths(&mut self) -> Result<Vec<usize>, ProofFileError> {
        let regions = self.u8("header")? as usize;
        let widths: Vec<usize> = self
            .take(regions, "region widths")?
            .iter()
            .map(|&w| usize::from(w))
            .collect();
        check_widths(&widths).map_err(|e| ProofFileError::Header(e.to_string()))?;
        Ok(widths)
    }

    /// The length-prefixed proof, then the end of the file.
    fn proof(mut self) -> Result<Vec<u8>, ProofFileError> {
        let len = self.u64("proof length")?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= self.left)
            .ok_or(ProofFileError::Truncated("proof"))?;
        let proof = self.take_vec(len, "proof")?;
        if self.left != 0 {
            return Err(ProofFileError::TrailingBytes(self.left));
        }
        Ok(proof)
    }
}

/// The commitment of a code ([`pcs_code`]).
fn pcs_of_code(code: u8) -> Result<PcsKind, ProofFileError> {
    match code {
        0 => Ok(PcsKind::Ligerito),
        1 => Ok(PcsKind::Fri),
        2 => Ok(PcsKind::Blaze),
        c => Err(ProofFileError::Header(format!(
            "unknown commitment code {c}"
        ))),
    }
}

/// The region count and widths, as [`Reader::widths`] reads them.
fn push_widths(out: &mut Vec<u8>, widths: &[usize]) {
    out.push(widths.len() as u8);
    out.extend(widths.iter().map(|&w| w as u8));
}

/// Fails unless every region of `widths` has `t · 2^w` elements in `regions`.
fn check_regions(
    widths: &[usize],
    regions: &[Vec<Ghash128>],
    what: &str,
) -> Result<(), ProofFileError> {
    if regions.len() != widths.len()
        || regions
            .iter()
            .zip(widths)
            .any(|(r, &w)| r.len() != LANES << w)
    {
        return Err(ProofFileError::Header(format!(
            "every region of 2^w permutations needs t·2^w {what}"
        )));
    }
    Ok(())
}

/// The length-prefixed proof, as [`Reader::proof`] reads it.
fn push_proof(out: &mut Vec<u8>, proof: &[u8]) {
    out.extend_from_slice(&(proof.len() as u64).to_le_bytes());
    out.extend_from_slice(proof);
}

fn push_words(out: &mut Vec<u8>, words: &[u64]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn push_elements<F: Field>(out: &mut Vec<u8>, elements: &[F]) {
    let mut buf = vec![0u8; F::NUM_BYTES];
    for e in elements {
        e.write_bytes(&mut buf);
        out.extend_from_slice(&buf);
    }
}

impl ProofFile {
    /// The file bytes.
    ///
    /// # Panics
    /// If a batch-R1CS statement is [`Statement::Batch`] (it binds no public data, so
    /// `flockwork prove` never writes it).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        match self {
            Self::Flock(f) => f.write(&mut out),
            Self::Gkr(g) => g.write(&mut out),
            Self::GkrOpened(g) => g.write(&mut out),
            Self::BooleanGkr(g) => g.write(&mut out),
        }
        out
    }

    /// Parses file bytes.
    ///
    /// # Errors
    /// A [`ProofFileError`] naming the first problem.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ProofFileError> {
        Self::read_from(&mut &bytes[..], bytes.len() as u64)
    }

    /// Parses a file of `len` bytes from `source`, reading it as it goes: the bytes are never
    /// held whole beside what is parsed from them (for a GKR file stating every input and
    /// output, they would double the verifier's memory). Every count in the file is checked
    /// against `len` before anything is allocated for it, as in [`ProofFile::from_bytes`].
    ///
    /// # Errors
    /// A [`ProofFileError`] naming the first problem; [`ProofFileError::Read`] if `source`
    /// fails, [`ProofFileError::Truncated`] if it ends before `len` bytes.
    pub fn read_from(mut source: impl Read, len: u64) -> Result<Self, ProofFileError> {
        let len = usize::try_from(len)
            .map_err(|_| ProofFileError::Header(format!("a file of {len} bytes")))?;
        let mut r = Reader::new(&mut source, len);
        if r.take(4, "magic bytes")? != MAGIC {
            return Err(ProofFileError::BadMagic);
        }
        let version = r.u16("version")?;
        if let Some(&(version, commit)) = RETIRED.iter().find(|(v, _)| *v == version) {
            return Err(ProofFileError::Retired { version, commit });
        }
        if version != VERSION {
            return Err(ProofFileError::Version(version));
        }
        let system = r.u8("header")?;
        let transcript = r.transcript()?;
        match system {
            0 => Ok(Self::Flock(FlockFile::read(r, transcript)?)),
            1 => Ok(Self::Gkr(GkrFile::read(r, transcript)?)),
            2 => Ok(Self::GkrOpened(GkrOpenedFile::read(r, transcript)?)),
            3 => Ok(Self::BooleanGkr(BooleanGkrFile::read(r, transcript)?)),
            c => Err(ProofFileError::Header(format!("unknown proof system {c}"))),
        }
    }

    /// Rebuilds the setup the header describes and verifies the proof of the statement.
    ///
    /// # Errors
    /// [`ProofFileError::Setup`], [`ProofFileError::Rejected`] or
    /// [`ProofFileError::GkrRejected`].
    pub fn verify(&self) -> Result<(), ProofFileError> {
        self.verify_within(None)
    }

    /// [`ProofFile::verify`], refusing first — before reading any proof byte — a file whose
    /// verifier's estimated memory exceeds `limit` bytes: the setup's tables (for batch-R1CS
    /// [`flockwork_r1cs::Flock::estimated_verifier_bytes`], from the setup, which costs the
    /// circuit's size only), the statement and the proof held twice, and the commitment's
    /// working set. `flockwork verify` passes its `--memory-limit` (90% of the machine's
    /// memory by default).
    ///
    /// # Errors
    /// [`ProofFileError::MemoryLimit`] over the limit; otherwise as [`ProofFile::verify`].
    pub fn verify_within(&self, limit: Option<u64>) -> Result<(), ProofFileError> {
        self.check_memory(limit)?;
        match self {
            Self::Flock(f) => f.verify(limit),
            Self::Gkr(g) => g.verify(),
            Self::GkrOpened(g) => g.verify(),
            Self::BooleanGkr(g) => g.verify(),
        }
    }

    /// [`ProofFile::verify_within`], consuming the file: a statement stated in the clear is
    /// freed region by region as the verifier takes it over, so it is held once (what
    /// `flockwork verify` runs).
    ///
    /// # Errors
    /// As [`ProofFile::verify_within`].
    pub fn into_verified(self, limit: Option<u64>) -> Result<(), ProofFileError> {
        match self {
            Self::Gkr(g) => {
                within_limit(
                    gkr_verifier_memory(&[&g.inputs, &g.outputs], g.proof.len()),
                    limit,
                )?;
                g.verify_owned()
            }
            other => other.verify_within(limit),
        }
    }

    /// Refuses a file whose verifier's estimated memory exceeds `limit` (batch-R1CS files are
    /// checked by [`verify_exact`] once their setup, which costs the circuit only, is built).
    fn check_memory(&self, limit: Option<u64>) -> Result<(), ProofFileError> {
        let estimate = match self {
            Self::Flock(_) => return Ok(()),
            Self::Gkr(g) => gkr_verifier_memory(&[&g.inputs, &g.outputs], g.proof.len()),
            Self::GkrOpened(g) => gkr_verifier_memory(&[&g.outputs], g.proof.len()),
            Self::BooleanGkr(g) => g.verifier_memory_estimate(),
        };
        within_limit(estimate, limit)
    }

    /// The proof bytes.
    #[must_use]
    pub fn proof(&self) -> &[u8] {
        match self {
            Self::Flock(f) => &f.proof,
            Self::Gkr(g) => &g.proof,
            Self::GkrOpened(g) => &g.proof,
            Self::BooleanGkr(g) => &g.proof,
        }
    }

    /// One sentence on what the proof is about.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Flock(f) => {
                let hash = f.hash.name();
                let count = f.instances();
                let what = match f.io() {
                    IoKind::Chain => format!("a chain of {count} {hash} compressions"),
                    IoKind::Merkle => format!(
                        "a Merkle tree over {count} leaves: its {} {hash} node compressions, \
                         from the stated leaves to the stated root",
                        count.saturating_sub(1)
                    ),
                    IoKind::Public => {
                        format!("public inputs and outputs of {count} {hash} compressions")
                    }
                };
                let blocks = if f.copies > 1 {
                    format!(" in {} blocks of {}", f.blocks, f.copies)
                } else {
                    String::new()
                };
                format!(
                    "{what}{blocks} ({} over ring-switching, {} bits targeted, {} transcript)",
                    f.pcs.name(),
                    f.target_bits,
                    f.transcript
                )
            }
            Self::Gkr(g) => format!(
                "{} Poseidon2b permutations in {} region(s), every output as stated (inputs \
                 public; GKR, {} batcher, {} transcript)",
                g.permutations(),
                g.widths.len(),
                g.variant.name(),
                g.transcript
            ),
            Self::GkrOpened(g) => format!(
                "{} Poseidon2b permutations in {} region(s), every output as stated (inputs \
                 committed with {}; GKR, {} batcher, {} transcript)",
                g.permutations(),
                g.widths.len(),
                g.pcs.name(),
                g.variant.name(),
                g.transcript
            ),
            Self::BooleanGkr(g) => format!(
                "{} Keccak-f permutations, {} (GKR on the Boolean layers, {} batcher, {} \
                 transcript)",
                g.count(),
                g.pcs.map_or_else(
                    || "every output as stated (public inputs and outputs)".to_owned(),
                    |pcs| format!(
                        "every committed output the permutation of its committed input \
                         (inputs and outputs committed with {})",
                        pcs.name()
                    )
                ),
                g.variant.name(),
                g.transcript
            ),
        }
    }
}

impl FlockFile {
    /// Chain or Merkle tree.
    #[must_use]
    pub fn io(&self) -> IoKind {
        match self.statement {
            Statement::Merkle { .. } => IoKind::Merkle,
            Statement::Public { .. } => IoKind::Public,
            _ => IoKind::Chain,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.push(0);
        out.push(transcript_code(self.transcript));
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

    fn read(mut r: Reader<'_>, transcript: TranscriptKind) -> Result<Self, ProofFileError> {
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

    fn verify(&self, memory_limit: Option<u64>) -> Result<(), ProofFileError> {
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
}

impl GkrFile {
    /// Permutations in the batch.
    #[must_use]
    pub fn permutations(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.push(1);
        out.push(transcript_code(self.transcript));
        out.push(variant_code(self.variant));
        push_widths(out, &self.widths);
        for (inputs, outputs) in self.inputs.iter().zip(&self.outputs) {
            push_elements(out, inputs);
            push_elements(out, outputs);
        }
        push_proof(out, &self.proof);
    }

    fn read(mut r: Reader<'_>, transcript: TranscriptKind) -> Result<Self, ProofFileError> {
        let variant = r.variant()?;
        let widths = r.widths()?;
        let mut inputs = Vec::with_capacity(widths.len());
        let mut outputs = Vec::with_capacity(widths.len());
        for &w in &widths {
            debug_assert!(w <= MAX_WIDTH);
            inputs.push(r.elements::<Ghash128>(LANES << w, "permutation inputs")?);
            outputs.push(r.elements::<Ghash128>(LANES << w, "permutation outputs")?);
        }
        Ok(Self {
            variant,
            transcript,
            widths,
            inputs,
            outputs,
            proof: r.proof()?,
        })
    }

    fn verify(&self) -> Result<(), ProofFileError> {
        self.check_shape()?;
        let relation = Poseidon2bRelation::official();
        let statement = flockwork_gkr::Statement::public(&relation, &self.inputs, &self.outputs)?;
        self.verify_statement(self.widths.clone(), &statement)
    }

    /// [`GkrFile::verify`], consuming the file: each region's stated inputs and outputs are
    /// freed as soon as they are the statement's columns, so the statement is held once, not
    /// twice (`flockwork verify` takes this path).
    fn verify_owned(mut self) -> Result<(), ProofFileError> {
        self.check_shape()?;
        let relation = Poseidon2bRelation::official();
        let (inputs, outputs) = (
            std::mem::take(&mut self.inputs),
            std::mem::take(&mut self.outputs),
        );
        // Each table is freed once it is a column table: at most one region's inputs or
        // outputs are held twice.
        let mut regions = Vec::with_capacity(inputs.len());
        for ((inputs, outputs), &width) in inputs.into_iter().zip(outputs).zip(&self.widths) {
            let committed = CommittedLayer::from_inputs(&relation, width, &inputs);
            drop(inputs);
            let outputs = OutputLayer::from_rows(LANES, width, &outputs)?;
            regions.push(RegionStatement {
                committed: Arc::new(committed),
                outputs: Arc::new(outputs),
            });
        }
        let widths = std::mem::take(&mut self.widths);
        self.verify_statement(widths, &flockwork_gkr::Statement { regions })
    }

    /// The widths are in range and every region holds `t·2^w_a` inputs and outputs.
    fn check_shape(&self) -> Result<(), ProofFileError> {
        check_widths(&self.widths).map_err(|e| ProofFileError::Header(e.to_string()))?;
        check_regions(&self.widths, &self.inputs, "inputs")?;
        check_regions(&self.widths, &self.outputs, "outputs")
    }

    /// Verifies the proof for `statement` with the setup of regions of `widths`.
    fn verify_statement(
        &self,
        widths: Vec<usize>,
        statement: &flockwork_gkr::Statement<Ghash128>,
    ) -> Result<(), ProofFileError> {
        with_transcript!(self.transcript, D => {
            setup::<D>(widths).verify(self.variant, statement, &self.proof)
        })?;
        Ok(())
    }
}

impl GkrOpenedFile {
    /// Permutations in the batch.
    #[must_use]
    pub fn permutations(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.push(2);
        out.push(transcript_code(self.transcript));
        out.push(variant_code(self.variant));
        out.push(pcs_code(self.pcs));
        push_widths(out, &self.widths);
        out.extend_from_slice(&(self.commitment.len() as u16).to_le_bytes());
        out.extend_from_slice(&self.commitment);
        for outputs in &self.outputs {
            push_elements(out, outputs);
        }
        push_proof(out, &self.proof);
    }

    fn read(mut r: Reader<'_>, transcript: TranscriptKind) -> Result<Self, ProofFileError> {
        let variant = r.variant()?;
        let pcs = r.pcs()?;
        let widths = r.widths()?;
        let len = usize::from(r.u16("commitment")?);
        let commitment = r.take_vec(len, "commitment")?;
        let mut outputs = Vec::with_capacity(widths.len());
        for &w in &widths {
            debug_assert!(w <= MAX_WIDTH);
            outputs.push(r.elements::<Ghash128>(LANES << w, "permutation outputs")?);
        }
        Ok(Self {
            variant,
            transcript,
            pcs,
            widths,
            commitment,
            outputs,
            proof: r.proof()?,
        })
    }

    fn verify(&self) -> Result<(), ProofFileError> {
        check_widths(&self.widths).map_err(|e| ProofFileError::Header(e.to_string()))?;
        check_regions(&self.widths, &self.outputs, "outputs")?;
        with_transcript!(self.transcript, D => self.verify_over(setup::<D>(self.widths.clone())))
    }

    fn verify_over<D: TranscriptScheme>(
        &self,
        setup: flockwork_gkr::Setup<Poseidon2bRelation, Ghash256, D>,
    ) -> Result<(), ProofFileError> {
        let pcs = layer0_commitment(self.pcs, setup.input_layout().num_vars())
            .map_err(ProofFileError::Setup)?;
        let commitment = pcs.commitment_from_bytes(&self.commitment).ok_or_else(|| {
            ProofFileError::Header("the commitment has the wrong length or form".into())
        })?;
        let statement = setup.committed_statement(&self.commitment, &self.outputs)?;
        setup.verify_opened(self.variant, &pcs, &commitment, &statement, &self.proof)?;
        Ok(())
    }
}

/// The `pcs` byte of a [`BooleanGkrFile`] with public inputs and outputs.
const NO_PCS: u8 = 255;
/// Words of a Keccak-f state.
const KECCAK_WORDS: usize = 25;

/// [`ProofFileError::MemoryLimit`] if `estimate` exceeds `limit`.
fn within_limit(estimate: u64, limit: Option<u64>) -> Result<(), ProofFileError> {
    match limit {
        Some(limit) if estimate > limit => Err(ProofFileError::MemoryLimit { estimate, limit }),
        _ => Ok(()),
    }
}

/// The Poseidon2b GKR verifier's estimated peak memory: the stated layers (`layers`, region
/// by region) held three times (as read, as the statement's columns, as the digests' and
/// evaluations' inputs), the proof twice, and 16 MiB for the relation, the walk and the
/// layer-0 commitment's verifier (its code tables are never built). Calibrated in
/// `tests/hostile_files.rs`.
fn gkr_verifier_memory(layers: &[&Vec<Vec<Ghash128>>], proof_len: usize) -> u64 {
    let elements: usize = layers
        .iter()
        .flat_map(|regions| regions.iter().map(Vec::len))
        .sum();
    3 * 16 * elements as u64 + 2 * proof_len as u64 + (16 << 20)
}

impl BooleanGkrFile {
    /// The verifier's estimated peak memory: the statement and the proof twice each, and
    /// 24 MiB for the relation's compiled layers (built once per process) and the walk's
    /// working set, which do not grow with the count. Calibrated in `tests/hostile_files.rs`.
    #[must_use]
    pub fn verifier_memory_estimate(&self) -> u64 {
        let statement = match &self.io {
            BooleanIo::Public { inputs, outputs } => 200 * (inputs.len() + outputs.len()),
            BooleanIo::Committed { commitment, .. } => commitment.len(),
        };
        2 * (statement + self.proof.len()) as u64 + (24 << 20)
    }

    /// Permutations in the batch.
    #[must_use]
    pub fn count(&self) -> usize {
        match &self.io {
            BooleanIo::Public { inputs, .. } => inputs.len(),
            BooleanIo::Committed { count, .. } => *count,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.push(3);
        out.push(transcript_code(self.transcript));
        out.push(variant_code(self.variant));
        out.push(self.pcs.map_or(NO_PCS, pcs_code));
        let target_bits = if self.pcs.is_some() {
            self.target_bits as u16
        } else {
            0
        };
        out.extend_from_slice(&target_bits.to_le_bytes());
        out.extend_from_slice(&(self.count() as u32).to_le_bytes());
        match &self.io {
            BooleanIo::Public { inputs, outputs } => {
                for state in inputs.iter().chain(outputs) {
                    push_words(out, state);
                }
            }
            BooleanIo::Committed { commitment, .. } => {
                out.extend_from_slice(&(commitment.len() as u16).to_le_bytes());
                out.extend_from_slice(commitment);
            }
        }
        push_proof(out, &self.proof);
    }

    fn read(mut r: Reader<'_>, transcript: TranscriptKind) -> Result<Self, ProofFileError> {
        let variant = r.variant()?;
        let pcs = match r.u8("header")? {
            NO_PCS => None,
            code => Some(pcs_of_code(code)?),
        };
        let target_bits = u32::from(r.u16("header")?);
        match pcs {
            None if target_bits != 0 => {
                return Err(ProofFileError::Header(
                    "a security target without a commitment".into(),
                ));
            }
            Some(_) if !(64..=256).contains(&target_bits) => {
                return Err(ProofFileError::Header(format!(
                    "security target {target_bits} bits (64 to 256)"
                )));
            }
            _ => {}
        }
        let count = r.u32("header")? as usize;
        if count == 0 || count > MAX_BLOCKS {
            return Err(ProofFileError::Header(format!(
                "{count} permutations (1 to 2^24)"
            )));
        }
        let io = if pcs.is_some() {
            let len = usize::from(r.u16("commitment")?);
            BooleanIo::Committed {
                count,
                commitment: r.take_vec(len, "commitment")?,
            }
        } else {
            r.ensure(2 * count, KECCAK_WORDS * 8, "states")?;
            let mut states = |what| -> Result<Vec<[u64; 25]>, ProofFileError> {
                (0..count)
                    .map(|_| {
                        let words = r.words(KECCAK_WORDS, what)?;
                        Ok(words.try_into().expect("25 words"))
                    })
                    .collect()
            };
            let inputs = states("input states")?;
            let outputs = states("output states")?;
            BooleanIo::Public { inputs, outputs }
        };
        Ok(Self {
            variant,
            transcript,
            pcs,
            target_bits,
            io,
            proof: r.proof()?,
        })
    }

    fn verify(&self) -> Result<(), ProofFileError> {
        use flockwork_core::relation::{Io, Statement};
        let relation = flockwork_boolean::KeccakF1600::new();
        let choices = crate::engines::Choices {
            target_bits: self.target_bits,
            transcript: self.transcript,
            ..crate::engines::Choices::default()
        };
        let io = match &self.io {
            BooleanIo::Public { inputs, outputs } => Io::Public {
                inputs: inputs.clone(),
                outputs: outputs.clone(),
            },
            BooleanIo::Committed { count, commitment } => Io::Committed {
                count: *count,
                commitment: commitment.clone(),
            },
        };
        // The proof's own header first: nothing sized by the count is built for bytes that
        // are not a Boolean GKR proof of this version, batcher and IO mode.
        let io_code = match self.io {
            BooleanIo::Public { .. } => flockwork_gkr::boolean::IO_PUBLIC,
            BooleanIo::Committed { .. } => flockwork_gkr::boolean::IO_COMMITTED,
        };
        flockwork_gkr::boolean::check_proof_header(&self.proof, self.variant, io_code)
            .map_err(|e| ProofFileError::BatchRejected(e.to_string()))?;
        let batcher = crate::engines::boolean_gkr_batcher(
            &relation,
            self.count(),
            self.variant,
            self.pcs,
            &choices,
        )
        .ok_or_else(|| {
            ProofFileError::Setup(format!(
                "no Boolean GKR batcher proves {} Keccak-f permutations with the {} \
                     batcher",
                self.count(),
                self.variant.name()
            ))
        })?;
        batcher
            .verify(&Statement { io }, &self.proof)
            .map_err(|e| ProofFileError::BatchRejected(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain() -> ProofFile {
        ProofFile::Flock(FlockFile {
            hash: HashKind::Keccak,
            transcript: TranscriptKind::Sha256,
            pcs: PcsKind::Ligerito,
            preset: Preset::Slim,
            copies: 3,
            blocks: 21,
            count: 62,
            target_bits: 100,
            statement: Statement::Chain {
                start: (0..25).collect(),
                end: (100..125).collect(),
            },
            proof: (0..=255).collect(),
        })
    }

    fn merkle() -> ProofFile {
        ProofFile::Flock(FlockFile {
            hash: HashKind::Sha256,
            transcript: TranscriptKind::Blake3,
            pcs: PcsKind::Fri,
            preset: Preset::Fast,
            copies: 1,
            blocks: 4,
            count: 4,
            target_bits: 100,
            statement: Statement::Merkle {
                root: vec![1, 2, 3, 4],
                leaves: (0..4).map(|i| vec![i; 4]).collect(),
            },
            proof: vec![7; 40],
        })
    }

    fn public() -> ProofFile {
        ProofFile::Flock(FlockFile {
            hash: HashKind::Blake3,
            transcript: TranscriptKind::Poseidon2b,
            pcs: PcsKind::Blaze,
            preset: Preset::Fast,
            copies: 1,
            blocks: 2,
            count: 2,
            target_bits: 100,
            statement: Statement::Public {
                inputs: (0..28).collect(),
                outputs: (100..116).collect(),
            },
            proof: vec![5; 20],
        })
    }

    fn gkr() -> ProofFile {
        ProofFile::Gkr(GkrFile {
            variant: Variant::Ragged,
            transcript: TranscriptKind::Poseidon2b,
            widths: vec![1, 0],
            inputs: vec![
                (0..8).map(Ghash128::new).collect(),
                (0..4).map(Ghash128::new).collect(),
            ],
            outputs: vec![
                (100..108).map(Ghash128::new).collect(),
                (200..204).map(Ghash128::new).collect(),
            ],
            proof: vec![9; 33],
        })
    }

    fn gkr_opened() -> ProofFile {
        ProofFile::GkrOpened(GkrOpenedFile {
            variant: Variant::Padded,
            transcript: TranscriptKind::Blake3,
            pcs: PcsKind::Blaze,
            widths: vec![3, 0],
            commitment: (0..32).collect(),
            outputs: vec![
                (0..32).map(Ghash128::new).collect(),
                (40..44).map(Ghash128::new).collect(),
            ],
            proof: vec![5; 21],
        })
    }

    fn boolean_public() -> ProofFile {
        ProofFile::BooleanGkr(BooleanGkrFile {
            variant: Variant::Independent,
            transcript: TranscriptKind::Sha256,
            pcs: None,
            target_bits: 0,
            io: BooleanIo::Public {
                inputs: vec![[1; 25], [2; 25]],
                outputs: vec![[3; 25], [4; 25]],
            },
            proof: vec![6; 30],
        })
    }

    fn boolean_committed() -> ProofFile {
        ProofFile::BooleanGkr(BooleanGkrFile {
            variant: Variant::Ragged,
            transcript: TranscriptKind::Blake3,
            pcs: Some(PcsKind::Fri),
            target_bits: 100,
            io: BooleanIo::Committed {
                count: 5,
                commitment: (0..40).collect(),
            },
            proof: vec![8; 12],
        })
    }

    /// Every kind of file, with every code of every header byte among them.
    fn all() -> [ProofFile; 7] {
        [
            chain(),
            merkle(),
            public(),
            gkr(),
            gkr_opened(),
            boolean_public(),
            boolean_committed(),
        ]
    }

    #[test]
    fn files_round_trip() {
        for file in all() {
            let bytes = file.to_bytes();
            assert_eq!(ProofFile::from_bytes(&bytes).unwrap(), file);
            // The proof is the file's length-prefixed tail.
            let proof = file.proof();
            let (head, tail) = bytes.split_at(bytes.len() - proof.len());
            assert!(!proof.is_empty() && tail == proof);
            assert!(head.ends_with(&(proof.len() as u64).to_le_bytes()));
        }
    }

    /// A source that hands out at most `chunk` bytes a call and counts what it gave, so
    /// reads cannot rely on whole buffers.
    struct Trickle<'a> {
        bytes: &'a [u8],
        chunk: usize,
        given: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.chunk).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            self.given += n;
            Ok(n)
        }
    }

    #[test]
    fn files_parse_from_a_stream_as_from_bytes() {
        for file in all() {
            let bytes = file.to_bytes();
            for chunk in [1, 7, 4096] {
                let mut source = Trickle {
                    bytes: &bytes,
                    chunk,
                    given: 0,
                };
                let parsed = ProofFile::read_from(&mut source, bytes.len() as u64).unwrap();
                assert_eq!(parsed, file);
                assert_eq!(source.given, bytes.len());
            }
            // A stated length past the source's end, or short of it, is refused.
            let longer = ProofFile::read_from(&bytes[..], bytes.len() as u64 + 1);
            assert!(matches!(longer, Err(ProofFileError::TrailingBytes(1))));
            let shorter = ProofFile::read_from(&bytes[..], bytes.len() as u64 - 1);
            assert!(shorter.is_err());
        }
        // A failing source is an error that says so.
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let err = ProofFile::read_from(Failing, 100).unwrap_err();
        assert!(matches!(err, ProofFileError::Read(_)));
        assert!(err.to_string().contains("disk on fire"));
    }

    #[test]
    fn every_truncation_and_garbage_is_an_error_not_a_panic() {
        for file in all() {
            let bytes = file.to_bytes();
            for len in 0..bytes.len() {
                assert!(
                    ProofFile::from_bytes(&bytes[..len]).is_err(),
                    "length {len}"
                );
            }
        }
        // Oversized counts are refused before any allocation.
        let mut huge = chain().to_bytes();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            ProofFile::from_bytes(&huge),
            Err(ProofFileError::Header(_))
        ));
        // A GKR region of 2^24 permutations with no bytes behind it.
        let mut wide = gkr().to_bytes();
        wide[11] = 24;
        assert!(matches!(
            ProofFile::from_bytes(&wide),
            Err(ProofFileError::Truncated("permutation inputs"))
        ));
        wide[11] = 25;
        assert!(matches!(
            ProofFile::from_bytes(&wide),
            Err(ProofFileError::Header(_))
        ));
        let mut state = 0x1234_5678_u64;
        for _ in 0..2000 {
            let len = (state % 300) as usize;
            let garbage: Vec<u8> = (0..len)
                .map(|i| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(i as u64);
                    (state >> 56) as u8
                })
                .collect();
            for system in [0, 1, 2] {
                let mut prefixed = MAGIC.to_vec();
                prefixed.extend_from_slice(&VERSION.to_le_bytes());
                prefixed.push(system);
                prefixed.push(system % 3); // a valid transcript code
                prefixed.extend_from_slice(&garbage);
                let _ = ProofFile::from_bytes(&prefixed);
            }
            let _ = ProofFile::from_bytes(&garbage);
        }
    }

    /// Another magic and bytes past the proof are refused with their own errors, in every
    /// kind of file.
    #[test]
    fn another_magic_and_trailing_bytes_are_refused_by_name() {
        for file in all() {
            let bytes = file.to_bytes();
            let mut magic = bytes.clone();
            magic[0] ^= 1;
            assert!(matches!(
                ProofFile::from_bytes(&magic),
                Err(ProofFileError::BadMagic)
            ));
            for extra in [1usize, 7] {
                let mut long = bytes.clone();
                long.extend(core::iter::repeat_n(0u8, extra));
                assert!(
                    matches!(
                        ProofFile::from_bytes(&long),
                        Err(ProofFileError::TrailingBytes(n)) if n == extra
                    ),
                    "{extra} trailing bytes"
                );
            }
        }
    }

    /// Older versions are refused with an error naming their version and the last commit
    /// that reads them; 0 or more than [`MAX_COPIES`] instances per block, a wide Merkle
    /// tree and an unknown later version are refused too.
    #[test]
    fn older_versions_are_refused_by_name_and_bad_widths_refused() {
        let file = chain().to_bytes();
        for (version, commit) in RETIRED {
            let mut old = file.clone();
            old[4..6].copy_from_slice(&version.to_le_bytes());
            let e = ProofFile::from_bytes(&old).unwrap_err();
            assert!(
                matches!(e, ProofFileError::Retired { version: v, commit: c } if v == version && c == commit),
                "{e}"
            );
            let message = e.to_string();
            assert!(message.contains(&format!("version {version}")), "{message}");
            assert!(message.contains(commit), "{message}");
        }
        for copies in [0, MAX_COPIES as u8 + 1] {
            let mut bad = file.clone();
            bad[11] = copies;
            assert!(matches!(
                ProofFile::from_bytes(&bad),
                Err(ProofFileError::Header(_))
            ));
        }
        let mut wide_tree = merkle().to_bytes();
        wide_tree[11] = 2;
        assert!(matches!(
            ProofFile::from_bytes(&wide_tree),
            Err(ProofFileError::Header(_))
        ));
        let mut later = file;
        later[4..6].copy_from_slice(&(VERSION + 1).to_le_bytes());
        assert!(matches!(
            ProofFile::from_bytes(&later),
            Err(ProofFileError::Version(v)) if v == VERSION + 1
        ));
    }

    /// Found by `cargo fuzz run proof_file_gkr` (in the version-2 layout, here in the
    /// current one): a Merkle header with an empty digest and 2^23 leaves took 10 s and
    /// 192 MiB to parse; digests must have their 4 words.
    #[test]
    fn empty_merkle_digests_are_refused_before_the_leaves() {
        let [v0, v1] = VERSION.to_le_bytes();
        let bytes = [
            0x46, 0x57, 0x50, 0x46, v0, v1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x17, 0xe9, 0x00,
            0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
            0x00,
        ];
        assert!(matches!(
            ProofFile::from_bytes(&bytes),
            Err(ProofFileError::Header(_))
        ));
    }

    /// A file naming a commitment that is not a commitment of the scheme, and one whose proof
    /// is garbage: errors, not panics.
    #[test]
    fn opened_gkr_files_with_bad_commitments_or_proofs_are_rejected() {
        assert!(gkr_opened().verify().is_err());
        assert!(matches!(
            opened(gkr_opened(), |g| g.commitment.push(0)).verify(),
            Err(ProofFileError::Header(_))
        ));
    }

    #[test]
    fn inconsistent_gkr_files_are_refused_not_panicked_on() {
        for edit in [
            |g: &mut GkrFile| {
                g.inputs[1].pop();
            },
            |g: &mut GkrFile| {
                g.inputs.pop();
            },
            |g: &mut GkrFile| {
                g.outputs[0].pop();
            },
            |g: &mut GkrFile| {
                g.outputs.pop();
            },
            |g: &mut GkrFile| g.widths[0] = 2,
            |g: &mut GkrFile| g.widths.push(0),
        ] {
            assert!(matches!(
                ragged(gkr(), edit).verify(),
                Err(ProofFileError::Header(_))
            ));
        }
        for edit in [
            |g: &mut GkrOpenedFile| {
                g.outputs[1].pop();
            },
            |g: &mut GkrOpenedFile| {
                g.outputs.pop();
            },
            |g: &mut GkrOpenedFile| g.widths[1] = 1,
        ] {
            assert!(matches!(
                opened(gkr_opened(), edit).verify(),
                Err(ProofFileError::Header(_))
            ));
        }
    }

    fn flock(file: ProofFile, edit: impl FnOnce(&mut FlockFile)) -> ProofFile {
        let ProofFile::Flock(mut f) = file else {
            unreachable!()
        };
        edit(&mut f);
        ProofFile::Flock(f)
    }

    fn ragged(file: ProofFile, edit: impl FnOnce(&mut GkrFile)) -> ProofFile {
        let ProofFile::Gkr(mut g) = file else {
            unreachable!()
        };
        edit(&mut g);
        ProofFile::Gkr(g)
    }

    fn opened(file: ProofFile, edit: impl FnOnce(&mut GkrOpenedFile)) -> ProofFile {
        let ProofFile::GkrOpened(mut g) = file else {
            unreachable!()
        };
        edit(&mut g);
        ProofFile::GkrOpened(g)
    }

    fn boolean(file: ProofFile, edit: impl FnOnce(&mut BooleanGkrFile)) -> ProofFile {
        let ProofFile::BooleanGkr(mut g) = file else {
            unreachable!()
        };
        edit(&mut g);
        ProofFile::BooleanGkr(g)
    }

    /// Whether the file's bytes parse back to it, or are refused for a header field.
    fn parses(file: &ProofFile) -> bool {
        match ProofFile::from_bytes(&file.to_bytes()) {
            Ok(back) => {
                assert_eq!(&back, file);
                true
            }
            Err(ProofFileError::Header(_)) => false,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`public`] with `a` input and `b` output words per instance.
    fn vectors_file(a: usize, b: usize) -> ProofFile {
        flock(public(), |f| {
            f.statement = Statement::Public {
                inputs: vec![7; 2 * a],
                outputs: vec![9; 2 * b],
            };
        })
    }

    /// Each bounded header field of a batch-R1CS file is accepted at both ends of its range
    /// and refused just outside it, the other fields in range.
    #[test]
    fn batch_r1cs_header_fields_are_checked_at_their_bounds() {
        // chain(): 62 steps in 21 blocks of 3.
        let set = |copies, blocks, count| {
            flock(chain(), |f| {
                (f.copies, f.blocks, f.count) = (copies, blocks, count)
            })
        };
        assert!(parses(&set(3, 21, 63)));
        assert!(!parses(&set(3, 21, 64)));
        assert!(!parses(&set(3, 21, 0)));
        assert!(parses(&set(3, 1, 1)));
        assert!(parses(&set(1, MAX_BLOCKS, 62)));
        assert!(!parses(&set(1, MAX_BLOCKS + 1, 62)));
        assert!(parses(&set(MAX_COPIES, 1, MAX_COPIES)));
        let target = |bits| flock(chain(), |f| f.target_bits = bits);
        assert!(parses(&target(64)) && parses(&target(256)));
        assert!(!parses(&target(63)) && !parses(&target(257)));
        // Only Ligerito has presets (a writer records Slim for Ligerito only).
        let mut slim_fri = merkle().to_bytes();
        slim_fri[10] = 1;
        assert!(matches!(
            ProofFile::from_bytes(&slim_fri),
            Err(ProofFileError::Header(_))
        ));
        assert!(parses(&flock(chain(), |f| f.preset = Preset::Fast)));
        // Chain states of at most 64 words.
        let states = |n: u64| {
            flock(chain(), |f| {
                f.statement = Statement::Chain {
                    start: (0..n).collect(),
                    end: vec![1],
                };
            })
        };
        assert!(parses(&states(MAX_STATE_WORDS as u64)));
        assert!(!parses(&states(MAX_STATE_WORDS as u64 + 1)));
    }

    /// Merkle trees need a hash with Merkle nodes, 2 or more blocks of one node, and 4-word
    /// digests; public IO one instance per block and 1 to 64 words per vector.
    #[test]
    fn merkle_and_public_statements_are_checked_before_their_words_are_read() {
        let tree = |leaves: u64| {
            flock(merkle(), |f| {
                (f.blocks, f.count) = (leaves as usize, leaves as usize);
                f.statement = Statement::Merkle {
                    root: vec![1, 2, 3, 4],
                    leaves: (0..leaves).map(|i| vec![i; 4]).collect(),
                };
            })
        };
        assert!(parses(&tree(2)));
        assert!(!parses(&tree(1)));
        assert!(!parses(&flock(merkle(), |f| f.hash = HashKind::Keccak)));
        assert!(parses(&flock(merkle(), |f| f.hash = HashKind::Blake3)));
        for words in [3, 5] {
            let file = flock(merkle(), |f| {
                f.statement = Statement::Merkle {
                    root: vec![1; words],
                    leaves: (0..4).map(|i| vec![i; words]).collect(),
                };
            });
            assert!(!parses(&file), "{words}-word digests");
        }
        assert!(parses(&vectors_file(1, 1)));
        assert!(parses(&vectors_file(MAX_STATE_WORDS, MAX_STATE_WORDS)));
        assert!(!parses(&vectors_file(MAX_STATE_WORDS + 1, 1)));
        assert!(!parses(&vectors_file(1, MAX_STATE_WORDS + 1)));
        assert!(!parses(&flock(public(), |f| f.copies = 2)));
        // Zero words per instance: the vectors are empty, the counts 0.
        let bytes = vectors_file(1, 1).to_bytes();
        for at in [23, 27] {
            let mut zero = bytes.clone();
            zero[at..at + 4].copy_from_slice(&0u32.to_le_bytes());
            assert!(
                matches!(ProofFile::from_bytes(&zero), Err(ProofFileError::Header(_))),
                "a zero count at byte {at}"
            );
        }
    }

    /// An unknown code in any header byte is refused by name.
    #[test]
    fn unknown_codes_are_refused() {
        let cases: [(ProofFile, usize, u8); 9] = [
            (chain(), 6, 4),             // system
            (chain(), 7, 3),             // transcript
            (chain(), 8, 3),             // hash
            (chain(), 9, 3),             // commitment
            (chain(), 10, 2),            // preset
            (chain(), 22, 0),            // statement kind
            (chain(), 22, 4),            // statement kind
            (gkr(), 8, 3),               // batcher
            (boolean_committed(), 9, 3), // commitment
        ];
        for (file, at, code) in cases {
            let mut bytes = file.to_bytes();
            bytes[at] = code;
            let e = ProofFile::from_bytes(&bytes).unwrap_err();
            assert!(
                matches!(&e, ProofFileError::Header(m) if m.contains(&format!(" {code}"))),
                "byte {at} = {code}: {e}"
            );
        }
    }

    /// Boolean GKR files: a target only with a commitment, and then 64 to 256 bits; 1 to
    /// 2^24 permutations.
    #[test]
    fn boolean_gkr_headers_are_checked_at_their_bounds() {
        let target = |bits| boolean(boolean_committed(), |g| g.target_bits = bits);
        assert!(parses(&target(64)) && parses(&target(256)));
        assert!(!parses(&target(63)) && !parses(&target(257)));
        let count = |n| {
            boolean(boolean_committed(), |g| {
                g.io = BooleanIo::Committed {
                    count: n,
                    commitment: vec![1, 2],
                };
            })
        };
        assert!(parses(&count(1)) && parses(&count(MAX_BLOCKS)));
        assert!(!parses(&count(0)) && !parses(&count(MAX_BLOCKS + 1)));
        let none = boolean(boolean_public(), |g| {
            g.io = BooleanIo::Public {
                inputs: vec![],
                outputs: vec![],
            };
        });
        assert!(!parses(&none));
        // Public IO writes a zero target; any other is refused.
        let mut bytes = boolean_public().to_bytes();
        bytes[10..12].copy_from_slice(&100u16.to_le_bytes());
        assert!(matches!(
            ProofFile::from_bytes(&bytes),
            Err(ProofFileError::Header(_))
        ));
    }

    #[test]
    fn descriptions_name_the_statement() {
        let cases = [
            (
                chain(),
                "a chain of 62 keccak-f compressions in 21 blocks of 3",
            ),
            (
                merkle(),
                "a Merkle tree over 4 leaves: its 3 sha256 node compressions, from the \
                 stated leaves to the stated root (",
            ),
            (
                public(),
                "public inputs and outputs of 2 blake3 compressions (",
            ),
            (
                gkr(),
                "3 Poseidon2b permutations in 2 region(s), every output as stated (inputs \
                 public; GKR, ragged batcher, poseidon2b transcript)",
            ),
            (
                gkr_opened(),
                "9 Poseidon2b permutations in 2 region(s), every output as stated (inputs \
                 committed with blaze; GKR, padded batcher, blake3 transcript)",
            ),
            (
                boolean_public(),
                "2 Keccak-f permutations, every output as stated (public inputs and outputs)",
            ),
            (
                boolean_committed(),
                "5 Keccak-f permutations, every committed output the permutation of its \
                 committed input (inputs and outputs committed with fri)",
            ),
        ];
        for (file, expected) in cases {
            let text = file.describe();
            assert!(text.contains(expected), "{text}");
        }
    }

    /// Garbage proofs of well-formed statements are rejected by the verifiers, and a batch
    /// laid out in another shape than its count's is refused before any setup.
    #[test]
    fn files_verify_their_proofs_against_their_headers() {
        assert!(matches!(
            public().verify(),
            Err(ProofFileError::Rejected(_))
        ));
        assert!(matches!(
            flock(public(), |f| f.blocks = 3).verify(),
            Err(ProofFileError::Header(_))
        ));
        assert!(matches!(
            gkr().verify(),
            Err(ProofFileError::GkrRejected(_))
        ));
        assert!(matches!(
            boolean_public().verify(),
            Err(ProofFileError::BatchRejected(_))
        ));
    }

    /// A file too short for the states, leaves or vectors its header counts is refused before
    /// any of them is read, naming the whole section.
    #[test]
    fn sections_are_checked_whole_before_they_are_read() {
        let cut = |file: ProofFile, keep: usize| {
            let bytes = file.to_bytes();
            ProofFile::from_bytes(&bytes[..keep]).unwrap_err()
        };
        // Boolean public IO: the header is 16 bytes, then 2 × 3 states of 200 bytes.
        let three = boolean(boolean_public(), |g| {
            g.io = BooleanIo::Public {
                inputs: vec![[1; 25]; 3],
                outputs: vec![[2; 25]; 3],
            };
        });
        let e = cut(three, 16 + 5 * 200);
        assert!(matches!(e, ProofFileError::Truncated("states")), "{e}");
        // Public IO: the header is 31 bytes, then 2 × (1 + 1) words, of which 3 are there.
        let e = cut(vectors_file(1, 1), 31 + 24);
        assert!(
            matches!(e, ProofFileError::Truncated("public inputs and outputs")),
            "{e}"
        );
        // Merkle: the header and root are 59 bytes, then 4 leaves of 32 bytes.
        let e = cut(merkle(), 59 + 3 * 32);
        assert!(
            matches!(e, ProofFileError::Truncated("Merkle leaves")),
            "{e}"
        );
    }

    /// A real batch-R1CS file verifies, and fails once any header field its verifier rebuilds
    /// the setup from is changed: the commitment, Ligerito's preset, the target, the
    /// transcript. The proofs use non-default choices (FRI at 128 bits; Ligerito's slim preset).
    #[test]
    fn real_batch_r1cs_files_verify_under_their_own_header_only() {
        use crate::flock::FlockWorkload;
        for (pcs, preset, target_bits) in [
            (PcsKind::Fri, Preset::Fast, 128),
            (PcsKind::Ligerito, Preset::Slim, 100),
        ] {
            let workload = FlockWorkload {
                hash: HashKind::Blake3,
                count: 2,
                seed: 5,
                io: IoKind::Public,
                config: FlockConfig {
                    scheme: pcs,
                    preset,
                    target_bits,
                    ..FlockConfig::default()
                },
                transcript: TranscriptKind::Blake3,
            };
            let file = workload.proof_file(&workload.run().unwrap());
            file.verify().unwrap();
            let other_preset = match preset {
                Preset::Fast => Preset::Slim,
                Preset::Slim => Preset::Fast,
            };
            let other_pcs = match pcs {
                PcsKind::Fri => PcsKind::Ligerito,
                _ => PcsKind::Fri,
            };
            for changed in [
                flock(file.clone(), |f| f.pcs = other_pcs),
                flock(file.clone(), |f| f.target_bits += 8),
                flock(file.clone(), |f| f.transcript = TranscriptKind::Sha256),
            ] {
                assert!(changed.verify().is_err(), "{}", changed.describe());
            }
            if pcs == PcsKind::Ligerito {
                assert!(flock(file, |f| f.preset = other_preset).verify().is_err());
            }
        }
    }

    /// A real Boolean GKR file (Keccak-f, committed IO, BLAKE3 at 128 bits) verifies, and
    /// fails under another transcript or target.
    #[test]
    fn real_boolean_gkr_files_verify_under_their_own_header_only() {
        use flockwork_core::relation::{Io, Statement};
        let relation = flockwork_boolean::KeccakF1600::new();
        let choices = crate::engines::Choices {
            target_bits: 128,
            transcript: TranscriptKind::Blake3,
            ..crate::engines::Choices::default()
        };
        let batcher = crate::engines::boolean_gkr_batcher(
            &relation,
            2,
            Variant::Independent,
            Some(PcsKind::Fri),
            &choices,
        )
        .unwrap();
        let inputs = vec![[3u64; 25], [4u64; 25]];
        let statement = Statement::committed(2, batcher.commit(&inputs).unwrap());
        let proof = batcher.prove(&inputs, &statement).unwrap();
        let Io::Committed { count, commitment } = statement.io else {
            unreachable!()
        };
        let file = ProofFile::BooleanGkr(BooleanGkrFile {
            variant: Variant::Independent,
            transcript: TranscriptKind::Blake3,
            pcs: Some(PcsKind::Fri),
            target_bits: 128,
            io: BooleanIo::Committed { count, commitment },
            proof,
        });
        file.verify().unwrap();
        for changed in [
            boolean(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
            boolean(file.clone(), |g| g.target_bits = 100),
        ] {
            assert!(changed.verify().is_err(), "{}", changed.describe());
        }
    }

    /// Real Poseidon2b files, with the inputs in the clear and with a committed input layer
    /// (BLAKE3 transcripts, the ragged batcher), verify, and fail once the batcher, the
    /// transcript, the scheme, the commitment or an input is changed.
    #[test]
    fn real_gkr_files_verify_under_their_own_header_only() {
        let file = real_gkr(3, None);
        assert!(
            file.describe()
                .contains("3 Poseidon2b permutations in 2 region(s), every output as stated")
        );
        file.verify().unwrap();
        for changed in [
            ragged(file.clone(), |g| g.variant = Variant::Independent),
            ragged(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
            ragged(file.clone(), |g| g.inputs[1][0] += Ghash128::ONE),
        ] {
            assert!(changed.verify().is_err(), "{}", changed.describe());
        }

        let file = real_gkr(300, Some(PcsKind::Fri));
        assert!(file.describe().contains(
            "300 Poseidon2b permutations in 4 region(s), every output as stated (inputs \
             committed with fri"
        ));
        file.verify().unwrap();
        for changed in [
            opened(file.clone(), |g| g.variant = Variant::Padded),
            opened(file.clone(), |g| g.transcript = TranscriptKind::Sha256),
            opened(file.clone(), |g| g.pcs = PcsKind::Ligerito),
            opened(file.clone(), |g| g.commitment[0] ^= 1),
        ] {
            assert!(changed.verify().is_err(), "{}", changed.describe());
        }
    }

    /// A verified Poseidon2b file of `count` permutations (4 regions at most; BLAKE3, the
    /// ragged batcher), its inputs public or committed with `pcs`.
    fn real_gkr(count: usize, pcs: Option<PcsKind>) -> ProofFile {
        use crate::permutations::PermutationWorkload;
        let workload = PermutationWorkload::for_count(count, 4, Variant::Ragged)
            .unwrap()
            .with_pcs(pcs)
            .with_transcript(TranscriptKind::Blake3);
        workload.proof_file(&workload.run().unwrap())
    }

    /// Changing any single output — of the first, a middle or the last permutation, of the
    /// first or the last region, in any lane — makes a public-IO file and a committed-input
    /// file fail: the proof covers every instance's output.
    #[test]
    fn every_single_output_of_a_gkr_file_is_bound() {
        // 300 = 256 + 32 + 8 + 4: regions of widths 8, 5, 3, 2.
        for pcs in [None, Some(PcsKind::Fri)] {
            let file = real_gkr(300, pcs);
            let widths = match &file {
                ProofFile::Gkr(g) => g.widths.clone(),
                ProofFile::GkrOpened(g) => g.widths.clone(),
                _ => unreachable!(),
            };
            assert_eq!(widths, vec![8, 5, 3, 2]);
            for (a, row, lane) in [(0, 0, 0), (0, 128, 1), (0, 255, 3), (3, 0, 2), (3, 3, 3)] {
                let at = LANES * row + lane;
                let changed = match file.clone() {
                    ProofFile::Gkr(mut g) => {
                        g.outputs[a][at] += Ghash128::ONE;
                        ProofFile::Gkr(g)
                    }
                    ProofFile::GkrOpened(mut g) => {
                        g.outputs[a][at] += Ghash128::ONE;
                        ProofFile::GkrOpened(g)
                    }
                    _ => unreachable!(),
                };
                assert!(
                    matches!(changed.verify(), Err(ProofFileError::GkrRejected(_))),
                    "{pcs:?}: region {a}, permutation {row}, lane {lane} changed, accepted"
                );
                // The same through the file bytes.
                let back = ProofFile::from_bytes(&changed.to_bytes()).unwrap();
                assert!(back.verify().is_err());
            }
        }
    }

    /// The version-6 layout (a stated output point and claimed values per region, no
    /// outputs) is refused by name; its bytes under version 7 do not parse; and a proof whose
    /// walk starts at a point other than the one the transcript draws — `0…0`, which covers
    /// instance 0 alone, with the true values there — is rejected in a version-7 file, while
    /// the same forger at the drawn points makes a file that verifies.
    #[test]
    fn gkr_files_at_points_other_than_the_drawn_ones_are_rejected() {
        let ProofFile::Gkr(g) = real_gkr(3, None) else {
            unreachable!()
        };
        // The old layout: per region inputs | w_a × 32-byte point | t × 32-byte values.
        let mut old = MAGIC.to_vec();
        old.extend_from_slice(&6u16.to_le_bytes());
        old.extend([1, transcript_code(g.transcript), variant_code(g.variant)]);
        push_widths(&mut old, &g.widths);
        for (inputs, &w) in g.inputs.iter().zip(&g.widths) {
            push_elements(&mut old, inputs);
            push_elements(&mut old, &vec![Ghash256::ZERO; w]);
            push_elements(&mut old, &[Ghash256::ONE; LANES]);
        }
        push_proof(&mut old, &g.proof);
        let e = ProofFile::from_bytes(&old).unwrap_err();
        assert!(
            matches!(
                e,
                ProofFileError::Retired {
                    version: 6,
                    commit: "dd373e8"
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("version 6") && e.to_string().contains("dd373e8"));
        old[4..6].copy_from_slice(&VERSION.to_le_bytes());
        assert!(ProofFile::from_bytes(&old).is_err());

        // A forger with the honest transcript, starting the walk where it likes.
        let forged = |choose: &dyn Fn(&[Ghash256]) -> Vec<Ghash256>| {
            ProofFile::Gkr(GkrFile {
                proof: walk_at_points(&g, choose),
                ..g.clone()
            })
        };
        forged(&|z| z.to_vec()).verify().unwrap();
        let at_zero = forged(&|z| vec![Ghash256::ZERO; z.len()]);
        assert!(matches!(
            at_zero.verify(),
            Err(ProofFileError::GkrRejected(GkrError::LayerCheck { .. }))
        ));
        let moved = forged(&|z| z.iter().map(|&c| c + Ghash256::ONE).collect());
        assert!(moved.verify().is_err());
    }

    /// A ragged walk over `file`'s statement whose transcript absorbs the statement as the
    /// honest prover's does (`flockwork_gkr::batchers`, "Proof format") and draws the points,
    /// but which starts from claims at `choose(drawn point)`, with the stated outputs'
    /// values there.
    fn walk_at_points(file: &GkrFile, choose: &dyn Fn(&[Ghash256]) -> Vec<Ghash256>) -> Vec<u8> {
        use flockwork_core::layered::LayeredRelation;
        use flockwork_gkr::batchers::{
            HEADER_LEN, LABEL_COMMITMENT, LABEL_OUTPUTS, LABEL_POINT, PROOF_MAGIC, PROOF_VERSION,
        };
        use flockwork_gkr::{ProverConfig, RegionClaim, RegionInput, prove_walk};
        use flockwork_transcript::{ProverTranscript, Transcript};
        assert_eq!(
            (file.variant, file.transcript),
            (Variant::Ragged, TranscriptKind::Blake3)
        );
        let relation = Poseidon2bRelation::official();
        let statement =
            flockwork_gkr::Statement::public(&relation, &file.inputs, &file.outputs).unwrap();
        let mut instance = relation.id();
        instance.push(Variant::Ragged as u8);
        for v in std::iter::once(file.widths.len()).chain(file.widths.iter().copied()) {
            instance.extend_from_slice(&(v as u64).to_le_bytes());
        }
        let mut tr = flockwork_transcript::Blake3::prover("flockwork/gkr/ragged/v2", &instance);
        for region in &statement.regions {
            tr.public_bytes(LABEL_COMMITMENT, region.committed.digest());
            tr.public_bytes(LABEL_OUTPUTS, region.outputs.digest());
        }
        let claims: Vec<RegionClaim<Ghash256>> = statement
            .regions
            .iter()
            .map(|region| {
                let drawn: Vec<Ghash256> = tr.challenges(LABEL_POINT, region.outputs.width());
                let point = choose(&drawn);
                let values = region.outputs.evaluate(&point).unwrap();
                RegionClaim { point, values }
            })
            .collect();
        let zero = [Ghash128::ZERO; LANES];
        let inputs: Vec<RegionInput<'_, Ghash128>> = file
            .inputs
            .iter()
            .zip(&file.widths)
            .map(|(inputs, &width)| RegionInput {
                width,
                inputs,
                padding: &zero,
            })
            .collect();
        prove_walk(
            &relation,
            &ProverConfig::default(),
            &inputs,
            claims,
            &mut tr,
        );
        let mut proof = PROOF_MAGIC.to_vec();
        proof.extend_from_slice(&PROOF_VERSION.to_le_bytes());
        proof.push(Variant::Ragged as u8);
        assert_eq!(proof.len(), HEADER_LEN);
        proof.extend_from_slice(&tr.into_proof());
        proof
    }
}
