//! The proof file written by `flockwork prove --out` and checked by `flockwork verify`: a
//! batch-R1CS hash-chain proof with everything the verifier must know about its statement.
//!
//! ## Layout (little-endian)
//!
//! ```text
//! "FWPF" | u16 version (1) | u8 hash | u8 pcs | u8 preset | u8 log_instances | u16 target_bits
//!        | u8 statement kind (1 = chain) | u32 n | n × u64 start | u32 n | n × u64 end
//!        | u64 proof length | proof bytes
//! ```
//!
//! Parsing is strict: every count is bounded before anything is allocated, unknown codes and
//! trailing bytes are errors, and verification rebuilds the setup from the header (the proof
//! itself carries the batch-R1CS header and is bound to the setup by its transcript).

use flockwork_boolean::io::ChainStep;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Preset, Statement};
use thiserror::Error;

use crate::compare::PcsKind;
use crate::flock::{HashKind, blaze_for, fri_for};

/// The file's magic bytes.
pub const MAGIC: [u8; 4] = *b"FWPF";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// The largest chain state, in 64-bit words (Keccak-f[1600] has 25).
const MAX_STATE_WORDS: usize = 64;
/// The largest batch a file may describe.
const MAX_LOG_INSTANCES: usize = 24;

/// A proof file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFile {
    /// The compression function.
    pub hash: HashKind,
    /// The dense commitment under ring-switching.
    pub pcs: PcsKind,
    /// Ligerito's preset (ignored by other commitments).
    pub preset: Preset,
    /// `k`: the chain has `2^k` compressions.
    pub log_instances: usize,
    /// The security target the parameters were selected for.
    pub target_bits: u32,
    /// The chain's end points.
    pub statement: Statement,
    /// The batch-R1CS proof.
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
    /// Another format version.
    #[error("proof file version {0} is not supported (this build reads version {VERSION})")]
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
    /// The proof does not verify for this statement.
    #[error("the proof is rejected: {0}")]
    Rejected(#[from] FlockError),
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

/// A cursor over the file bytes that names what it was reading when they ran out.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ProofFileError> {
        if self.bytes.len() < n {
            return Err(ProofFileError::Truncated(what));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
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

    /// A length-prefixed state of at most [`MAX_STATE_WORDS`] words.
    fn state(&mut self, what: &'static str) -> Result<Vec<u64>, ProofFileError> {
        let n = self.u32(what)? as usize;
        if n > MAX_STATE_WORDS {
            return Err(ProofFileError::Header(format!(
                "{what} has {n} words (at most {MAX_STATE_WORDS})"
            )));
        }
        (0..n).map(|_| self.u64(what)).collect()
    }
}

impl ProofFile {
    /// The file bytes.
    ///
    /// # Panics
    /// If the statement is not a chain (the only kind `flockwork prove` writes).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let Statement::Chain { start, end } = &self.statement else {
            panic!("proof files hold chain statements");
        };
        let mut out = Vec::with_capacity(64 + self.proof.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(hash_code(self.hash));
        out.push(pcs_code(self.pcs));
        out.push(u8::from(
            self.pcs == PcsKind::Ligerito && self.preset == Preset::Slim,
        ));
        out.push(self.log_instances as u8);
        out.extend_from_slice(&(self.target_bits as u16).to_le_bytes());
        out.push(1);
        for state in [start, end] {
            out.extend_from_slice(&(state.len() as u32).to_le_bytes());
            for w in state {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.proof.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.proof);
        out
    }

    /// Parses file bytes.
    ///
    /// # Errors
    /// A [`ProofFileError`] naming the first problem.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ProofFileError> {
        let mut r = Reader { bytes };
        if r.take(4, "magic bytes")? != MAGIC {
            return Err(ProofFileError::BadMagic);
        }
        let version = r.u16("version")?;
        if version != VERSION {
            return Err(ProofFileError::Version(version));
        }
        let hash = match r.u8("header")? {
            0 => HashKind::Sha256,
            1 => HashKind::Keccak,
            2 => HashKind::Blake3,
            c => return Err(ProofFileError::Header(format!("unknown hash code {c}"))),
        };
        let pcs = match r.u8("header")? {
            0 => PcsKind::Ligerito,
            1 => PcsKind::Fri,
            2 => PcsKind::Blaze,
            c => {
                return Err(ProofFileError::Header(format!(
                    "unknown commitment code {c}"
                )));
            }
        };
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
        let log_instances = r.u8("header")? as usize;
        if log_instances > MAX_LOG_INSTANCES {
            return Err(ProofFileError::Header(format!(
                "2^{log_instances} instances (at most 2^{MAX_LOG_INSTANCES})"
            )));
        }
        let target_bits = u32::from(r.u16("header")?);
        if !(64..=256).contains(&target_bits) {
            return Err(ProofFileError::Header(format!(
                "security target {target_bits} bits (64 to 256)"
            )));
        }
        let kind = r.u8("statement")?;
        if kind != 1 {
            return Err(ProofFileError::Header(format!(
                "unknown statement kind {kind}"
            )));
        }
        let start = r.state("chain start")?;
        let end = r.state("chain end")?;
        let len = r.u64("proof length")?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= r.bytes.len())
            .ok_or(ProofFileError::Truncated("proof"))?;
        let proof = r.take(len, "proof")?.to_vec();
        if !r.bytes.is_empty() {
            return Err(ProofFileError::TrailingBytes(r.bytes.len()));
        }
        Ok(Self {
            hash,
            pcs,
            preset,
            log_instances,
            target_bits,
            statement: Statement::Chain { start, end },
            proof,
        })
    }

    /// Rebuilds the setup the header describes and verifies the proof of the statement.
    ///
    /// # Errors
    /// [`ProofFileError::Setup`] or [`ProofFileError::Rejected`].
    pub fn verify(&self) -> Result<(), ProofFileError> {
        match self.hash {
            HashKind::Sha256 => self.verify_with(Sha256Compress),
            HashKind::Keccak => self.verify_with(KeccakF1600::new()),
            HashKind::Blake3 => self.verify_with(Blake3Compress),
        }
    }

    fn config(&self) -> FlockConfig {
        FlockConfig {
            preset: self.preset,
            target_bits: self.target_bits,
            ..FlockConfig::default()
        }
    }

    fn verify_with<G: ChainStep>(&self, gadget: G) -> Result<(), ProofFileError> {
        let setup = |e: &dyn std::fmt::Display| ProofFileError::Setup(e.to_string());
        match self.pcs {
            PcsKind::Ligerito => {
                let flock =
                    Flock::new(gadget, self.log_instances, self.config()).map_err(|e| setup(&e))?;
                self.check(flock)
            }
            PcsKind::Fri => {
                let dense = fri_for(&gadget, self.log_instances, self.target_bits)
                    .map_err(|e| setup(&e))?;
                let flock = Flock::with_pcs(gadget, self.log_instances, dense, self.config())
                    .map_err(|e| setup(&e))?;
                self.check(flock)
            }
            PcsKind::Blaze => {
                let dense = blaze_for(&gadget, self.log_instances, self.target_bits)
                    .map_err(|e| setup(&e))?;
                let flock = Flock::with_pcs(gadget, self.log_instances, dense, self.config())
                    .map_err(|e| setup(&e))?;
                self.check(flock)
            }
        }
    }

    fn check<G: ChainStep, P: ConfiguredCommitment<Ghash128>>(
        &self,
        flock: Flock<G, P>,
    ) -> Result<(), ProofFileError> {
        let flock = flock
            .chained(G::STATE_IN, G::STATE_OUT)
            .map_err(|e| ProofFileError::Setup(e.to_string()))?;
        flock.verify(&self.statement, &self.proof)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ProofFile {
        ProofFile {
            hash: HashKind::Keccak,
            pcs: PcsKind::Ligerito,
            preset: Preset::Slim,
            log_instances: 5,
            target_bits: 100,
            statement: Statement::Chain {
                start: (0..25).collect(),
                end: (100..125).collect(),
            },
            proof: (0..=255).collect(),
        }
    }

    #[test]
    fn files_round_trip() {
        let file = sample();
        assert_eq!(ProofFile::from_bytes(&file.to_bytes()).unwrap(), file);
    }

    #[test]
    fn every_truncation_and_garbage_is_an_error_not_a_panic() {
        let bytes = sample().to_bytes();
        for len in 0..bytes.len() {
            assert!(
                ProofFile::from_bytes(&bytes[..len]).is_err(),
                "length {len}"
            );
        }
        // Oversized counts are refused before any allocation.
        let mut huge = bytes.clone();
        huge[13..17].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            ProofFile::from_bytes(&huge),
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
            let mut prefixed = MAGIC.to_vec();
            prefixed.extend_from_slice(&VERSION.to_le_bytes());
            prefixed.extend_from_slice(&garbage);
            let _ = ProofFile::from_bytes(&garbage);
            let _ = ProofFile::from_bytes(&prefixed);
        }
    }
}
