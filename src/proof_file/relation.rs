//! System 4: a proof of **any** relation by any of its batchers — a relation of the user's
//! crate included — and its statement, written in the relation's own canonical bytes
//! ([`StatementCodec`]).
//!
//! ```text
//! after the common header (system 4):
//!     u8 n | n bytes relation name (UTF-8) | 32 bytes relation digest
//!     | u8 m | m bytes batcher name (UTF-8) | u16 target_bits
//!     | u8 IO kind (0 public, 1 committed, 2 chain, 3 Merkle) | u32 count (1 to 2^24)
//!     | u64 s | s statement bytes
//!     | u64 proof length | proof bytes
//! statement bytes, each value in its codec (`flockwork_field::codec`):
//!     public:    count inputs | count outputs
//!     committed: the commitment
//!     chain:     start state | end state
//!     Merkle:    u32 leaves (= count) | the leaves | the root
//! ```
//!
//! **The relation.** A file names its relation ([`Relation::name`]) and carries its
//! [`relation_digest`]: SHA-256 over the name and the canonical bytes of every known answer
//! ([`Relation::known_answers`]). A verifier refuses a file whose name or digest differs from
//! its own relation's, so a proof made for one version of a native function is not checked
//! against another. The engine's encoding of the relation is bound where the engine binds it
//! (batch-R1CS: the setup digest its transcript absorbs, which covers the R1CS lowering).
//!
//! **The batcher.** A file names its batcher ([`Batcher::name`]). [`RelationFile::verify`]
//! rebuilds it from the relation's listing ([`crate::engines::listing`]) for the file's count,
//! target and transcript (the listing narrowed to the systems, strategies and schemes the name
//! mentions, so that only the batcher needed is set up; a `[compiled]` batcher compiles the
//! circuit), and [`RelationFile::verify_with`] takes a batcher the caller built — one defined
//! outside the engines — whose name must match.
//!
//! **Strictness.** Every count is bounded and checked against the bytes left before anything is
//! allocated; the statement must be read to its last byte; a value that is not canonical, an
//! unknown IO kind, a statement whose count differs from the header's and trailing bytes are
//! errors. `flockwork verify` resolves the relation by name through
//! [`crate::registry::relations`].

use flockwork_core::codec::Codec;
use flockwork_core::relation::{BatchError, Batcher, Io, IoKind, Statement, StatementCodec};
use flockwork_gkr::Variant;
use flockwork_pcs::PcsKind;
use flockwork_transcript::TranscriptKind;
use sha2::{Digest, Sha256};

use super::ProofFile;
use super::error::ProofFileError;
use super::framing::{MAX_BLOCKS, Reader, push_proof};
use crate::engines::{Choices, Provable, System, listing};

/// A proof of any relation by one of its batchers, and its statement in the relation's
/// canonical bytes (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationFile {
    /// The Fiat–Shamir transcript the batcher was listed with.
    pub transcript: TranscriptKind,
    /// The relation's name ([`Relation::name`](flockwork_core::Relation::name)).
    pub relation: String,
    /// The relation's digest ([`relation_digest`]).
    pub digest: [u8; 32],
    /// The batcher's name ([`Batcher::name`]).
    pub batcher: String,
    /// The security target the batcher was listed with, which its commitment is selected
    /// for. A batcher without a commitment (public-IO GKR) does not depend on it: its proof
    /// and statement are the same whatever the field says, so a file with another target
    /// verifies as well, and what the proof is worth is the rebuilt batcher's
    /// [`Batcher::soundness_bits`].
    pub target_bits: u32,
    /// The kind of IO the statement has.
    pub kind: IoKind,
    /// The number of instances.
    pub count: usize,
    /// The statement in the relation's canonical bytes (module docs), decoded by
    /// [`RelationFile::statement`].
    pub statement: Vec<u8>,
    /// The proof.
    pub proof: Vec<u8>,
}

/// SHA-256 over the relation's name and the canonical bytes of each known answer (module
/// docs): what a file's relation must match.
#[must_use]
pub fn relation_digest<R: StatementCodec>(relation: &R) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(b"flockwork relation digest v1");
    let name = relation.name();
    hash.update((name.len() as u64).to_le_bytes());
    hash.update(name.as_bytes());
    let answers = relation.known_answers();
    hash.update((answers.len() as u64).to_le_bytes());
    for (input, output) in &answers {
        for bytes in [input.to_codec_bytes(), output.to_codec_bytes()] {
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(&bytes);
        }
    }
    hash.finalize().into()
}

/// The file of `proof`, made by `batcher` (listed with `choices`) for `statement` about
/// `relation`.
///
/// # Panics
/// If the relation's or the batcher's name is longer than 255 bytes, or the statement has no
/// instance or more than 2^24.
#[must_use]
pub fn save<R: StatementCodec>(
    relation: &R,
    batcher: &dyn Batcher<R>,
    choices: &Choices,
    statement: &Statement<R>,
    proof: Vec<u8>,
) -> Vec<u8> {
    ProofFile::Relation(RelationFile::new(
        relation, batcher, choices, statement, proof,
    ))
    .to_bytes()
}

/// Parses `bytes` as a file of `relation` and verifies its proof with the batcher it names,
/// rebuilt from the relation's listing ([`RelationFile::verify`]).
///
/// # Errors
/// A [`ProofFileError`]: the framing, another system or relation, a batcher the listing does
/// not have, or the batcher's rejection.
pub fn verify<R: Provable + StatementCodec>(
    relation: &R,
    bytes: &[u8],
) -> Result<(), ProofFileError> {
    relation_file(bytes)?.verify(relation)
}

/// Parses `bytes` as a file of `relation` and verifies its proof with `batcher` (one built by
/// the caller, defined anywhere), whose name must be the file's.
///
/// # Errors
/// As [`verify`].
pub fn verify_with<R: StatementCodec>(
    relation: &R,
    batcher: &dyn Batcher<R>,
    bytes: &[u8],
) -> Result<(), ProofFileError> {
    relation_file(bytes)?.verify_with(relation, batcher)
}

/// The system-4 file `bytes` hold.
fn relation_file(bytes: &[u8]) -> Result<RelationFile, ProofFileError> {
    match ProofFile::from_bytes(bytes)? {
        ProofFile::Relation(file) => Ok(file),
        other => Err(ProofFileError::Header(format!(
            "not a relation file (system 4): {}",
            other.describe()
        ))),
    }
}

/// The file's code of an IO kind.
const fn kind_code(kind: IoKind) -> u8 {
    match kind {
        IoKind::Public => 0,
        IoKind::Committed => 1,
        IoKind::Chain => 2,
        IoKind::Merkle => 3,
    }
}

impl RelationFile {
    /// The file of `proof`, made by `batcher` (listed with `choices`) for `statement`.
    ///
    /// # Panics
    /// As [`save`].
    #[must_use]
    pub fn new<R: StatementCodec>(
        relation: &R,
        batcher: &dyn Batcher<R>,
        choices: &Choices,
        statement: &Statement<R>,
        proof: Vec<u8>,
    ) -> Self {
        let count = statement.count();
        assert!(
            (1..=MAX_BLOCKS).contains(&count),
            "a relation file states 1 to 2^24 instances, not {count}"
        );
        let mut bytes = Vec::new();
        match &statement.io {
            Io::Public { inputs, outputs } => {
                inputs.iter().for_each(|x| x.write(&mut bytes));
                outputs.iter().for_each(|y| y.write(&mut bytes));
            }
            Io::Committed { commitment, .. } => bytes.extend_from_slice(commitment),
            Io::Chain { start, end, .. } => {
                start.write(&mut bytes);
                end.write(&mut bytes);
            }
            Io::Merkle { leaves, root } => {
                leaves.write(&mut bytes);
                root.write(&mut bytes);
            }
        }
        Self {
            transcript: choices.transcript,
            relation: relation.name(),
            digest: relation_digest(relation),
            batcher: batcher.name(),
            target_bits: choices.target_bits,
            kind: statement.kind(),
            count,
            statement: bytes,
            proof,
        }
    }

    /// The statement, decoded in `relation`'s canonical bytes after checking that the file is
    /// `relation`'s (its name and digest).
    ///
    /// # Errors
    /// [`ProofFileError::Header`] for another relation, bytes that are not the statement's
    /// canonical encoding, or a statement whose count is not the header's.
    pub fn statement<R: StatementCodec>(
        &self,
        relation: &R,
    ) -> Result<Statement<R>, ProofFileError> {
        let name = relation.name();
        if self.relation != name {
            return Err(ProofFileError::Header(format!(
                "the file proves relation {:?}, not {name:?}",
                self.relation
            )));
        }
        if self.digest != relation_digest(relation) {
            return Err(ProofFileError::Header(format!(
                "the file's digest of relation {name:?} differs from this build's (another \
                 version of its native function or its encodings)"
            )));
        }
        let bad = |what: &str| {
            ProofFileError::Header(format!(
                "the statement's {what} are not {name}'s canonical bytes"
            ))
        };
        let mut bytes = &self.statement[..];
        let io = match self.kind {
            IoKind::Public => {
                // Each value takes at least a byte or is of a zero-sized type, so `count` values
                // fit the bytes the statement has before room is made for them.
                let mut inputs = Vec::with_capacity(self.count.min(bytes.len()));
                for _ in 0..self.count {
                    inputs.push(R::Input::read(&mut bytes).ok_or_else(|| bad("inputs"))?);
                }
                let mut outputs = Vec::with_capacity(self.count.min(bytes.len()));
                for _ in 0..self.count {
                    outputs.push(R::Output::read(&mut bytes).ok_or_else(|| bad("outputs"))?);
                }
                Io::Public { inputs, outputs }
            }
            IoKind::Committed => Io::Committed {
                count: self.count,
                commitment: std::mem::take(&mut bytes).to_vec(),
            },
            IoKind::Chain => Io::Chain {
                count: self.count,
                start: R::State::read(&mut bytes).ok_or_else(|| bad("chain's start"))?,
                end: R::State::read(&mut bytes).ok_or_else(|| bad("chain's end"))?,
            },
            IoKind::Merkle => Io::Merkle {
                leaves: Vec::<R::State>::read(&mut bytes).ok_or_else(|| bad("tree's leaves"))?,
                root: R::State::read(&mut bytes).ok_or_else(|| bad("tree's root"))?,
            },
        };
        if !bytes.is_empty() {
            return Err(ProofFileError::Header(format!(
                "{} bytes after the statement",
                bytes.len()
            )));
        }
        let statement = Statement { io };
        if statement.count() != self.count {
            return Err(ProofFileError::Header(format!(
                "the statement has {} instances, the header {}",
                statement.count(),
                self.count
            )));
        }
        Ok(statement)
    }

    /// Verifies the proof with `batcher` (built by the caller), whose name must be the
    /// file's.
    ///
    /// # Errors
    /// [`ProofFileError::Header`] for another batcher or relation, as
    /// [`RelationFile::statement`]; [`ProofFileError::Setup`] for a statement the batcher does
    /// not prove or a setup it cannot build; [`ProofFileError::BatchRejected`] with the
    /// batcher's reason.
    pub fn verify_with<R: StatementCodec>(
        &self,
        relation: &R,
        batcher: &dyn Batcher<R>,
    ) -> Result<(), ProofFileError> {
        if batcher.name() != self.batcher {
            return Err(ProofFileError::Header(format!(
                "the file's proof is the batcher {:?}'s, not {:?}'s",
                self.batcher,
                batcher.name()
            )));
        }
        self.check(&self.statement(relation)?, batcher)
    }

    /// Verifies the proof of the decoded `statement` with `batcher`.
    fn check<R: StatementCodec>(
        &self,
        statement: &Statement<R>,
        batcher: &dyn Batcher<R>,
    ) -> Result<(), ProofFileError> {
        batcher.verify(statement, &self.proof).map_err(|e| match e {
            BatchError::Unsupported(reason) => {
                ProofFileError::Setup(format!("{}: {reason}", self.batcher))
            }
            e => ProofFileError::BatchRejected(format!("{}: {e}", self.batcher)),
        })
    }

    /// Verifies the proof with the batcher the file names, rebuilt from `relation`'s listing
    /// for the file's count, target and transcript (module docs).
    ///
    /// # Errors
    /// [`ProofFileError::Setup`] if the listing has no such batcher or cannot set it up; as
    /// [`RelationFile::verify_with`] otherwise.
    pub fn verify<R: Provable + StatementCodec>(&self, relation: &R) -> Result<(), ProofFileError> {
        // The statement first: nothing sized by the count is set up for another relation's
        // file or bytes that are not a statement.
        let statement = self.statement(relation)?;
        let batcher = listing(relation, self.count, &self.choices())
            .into_iter()
            .find(|b| b.name() == self.batcher)
            .ok_or_else(|| {
                ProofFileError::Setup(format!(
                    "{} lists no batcher {:?} for {} instances",
                    self.relation, self.batcher, self.count
                ))
            })?;
        // Neither `unavailable` nor anything else that builds the setup is asked here: the
        // batcher's `verify` refuses a statement of another kind, or bytes that are not its
        // proof, before a costly setup where it can (a compiled circuit's).
        self.check(&statement, batcher.as_ref())
    }

    /// The choices that list the file's batcher: its target and transcript, narrowed to the
    /// systems, strategies and schemes its name mentions.
    fn choices(&self) -> Choices {
        let name = &self.batcher;
        let mut choices = Choices {
            target_bits: self.target_bits,
            transcript: self.transcript,
            compiled: name.contains("[compiled]"),
            ..Choices::default()
        };
        choices.systems = if name.starts_with("batch-R1CS") {
            vec![System::BatchR1cs]
        } else if name.starts_with("GKR") {
            vec![System::Gkr]
        } else {
            System::ALL.to_vec()
        };
        let variants: Vec<Variant> = choices
            .variants
            .iter()
            .copied()
            .filter(|v| name.contains(v.name()))
            .collect();
        if !variants.is_empty() {
            choices.variants = variants;
        }
        choices.schemes = PcsKind::ALL
            .into_iter()
            .filter(|s| name.contains(&format!("/ {s} ")))
            .collect();
        choices
    }

    /// The verifier's estimated peak memory before its setup: the statement held as bytes and
    /// as values (four times its bytes, for values with their vectors' headers), the proof
    /// twice, and 64 MiB for the setup and the walk's working set. A batcher whose setup grows
    /// with the count is checked by its own bounds as it is built.
    #[must_use]
    pub fn verifier_memory_estimate(&self) -> u64 {
        (4 * self.statement.len() + 2 * self.proof.len()) as u64 + (64 << 20)
    }

    /// One sentence on what the proof is about
    /// ([`ProofFile::describe`](super::ProofFile::describe)).
    pub(super) fn describe(&self) -> String {
        let io = match self.kind {
            IoKind::Public => "public inputs and outputs",
            IoKind::Committed => "committed inputs and outputs",
            IoKind::Chain => "a chain with public ends",
            IoKind::Merkle => "a Merkle tree with public leaves and root",
        };
        format!(
            "{} instances of {}, {io}, proved by {}",
            self.count, self.relation, self.batcher
        )
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        push_name(out, &self.relation);
        out.extend_from_slice(&self.digest);
        push_name(out, &self.batcher);
        let target = u16::try_from(self.target_bits).expect("a target of at most 65535 bits");
        out.extend_from_slice(&target.to_le_bytes());
        out.push(kind_code(self.kind));
        let count = u32::try_from(self.count).expect("at most 2^24 instances");
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&(self.statement.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.statement);
        push_proof(out, &self.proof);
    }

    pub(super) fn read(
        mut r: Reader<'_>,
        transcript: TranscriptKind,
    ) -> Result<Self, ProofFileError> {
        let relation = name(&mut r, "relation name")?;
        let digest = r.take(32, "relation digest")?.try_into().expect("32 bytes");
        let batcher = name(&mut r, "batcher name")?;
        let target_bits = u32::from(r.u16("header")?);
        let kind = match r.u8("header")? {
            0 => IoKind::Public,
            1 => IoKind::Committed,
            2 => IoKind::Chain,
            3 => IoKind::Merkle,
            c => return Err(ProofFileError::Header(format!("unknown IO kind {c}"))),
        };
        let count = r.u32("header")? as usize;
        if !(1..=MAX_BLOCKS).contains(&count) {
            return Err(ProofFileError::Header(format!(
                "{count} instances (a file states 1 to 2^24)"
            )));
        }
        let len = r.u64("statement length")?;
        let len = usize::try_from(len).map_err(|_| ProofFileError::Truncated("statement"))?;
        let statement = r.take_vec(len, "statement")?;
        Ok(Self {
            transcript,
            relation,
            digest,
            batcher,
            target_bits,
            kind,
            count,
            statement,
            proof: r.proof()?,
        })
    }
}

/// A name after its `u8` length, as [`name`] reads it.
fn push_name(out: &mut Vec<u8>, name: &str) {
    out.push(u8::try_from(name.len()).expect("a name of at most 255 bytes"));
    out.extend_from_slice(name.as_bytes());
}

/// A `u8`-length-prefixed UTF-8 name.
fn name(r: &mut Reader<'_>, what: &'static str) -> Result<String, ProofFileError> {
    let len = usize::from(r.u8(what)?);
    let bytes = r.take_vec(len, what)?;
    String::from_utf8(bytes).map_err(|_| ProofFileError::Header(format!("the {what} is not UTF-8")))
}
