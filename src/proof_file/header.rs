//! The header every file starts with — magic bytes, version, system and transcript — written
//! and read here, and the dispatch on the system byte to the room that writes and reads the
//! rest: 0 batch-R1CS ([`FlockFile`]), 1 and 2 GKR over Poseidon2b ([`GkrFile`],
//! [`GkrOpenedFile`]), 3 GKR over Keccak-f's Boolean layers ([`BooleanGkrFile`]), 4 any relation
//! ([`RelationFile`]). A retired
//! version is refused by name before anything past it is read.

use std::io::Read;

use super::codes::transcript_code;
use super::error::ProofFileError;
use super::framing::Reader;
use super::version::{MAGIC, RETIRED, VERSION};
use super::{BooleanGkrFile, FlockFile, GkrFile, GkrOpenedFile, ProofFile, RelationFile};

impl ProofFile {
    /// The file bytes.
    ///
    /// # Panics
    /// If a batch-R1CS statement is [`Statement::Batch`](flockwork_r1cs::Statement::Batch)
    /// (it binds no public data, so `flockwork prove` never writes it).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        let (system, transcript) = match self {
            Self::Flock(f) => (0, f.transcript),
            Self::Gkr(g) => (1, g.transcript),
            Self::GkrOpened(g) => (2, g.transcript),
            Self::BooleanGkr(g) => (3, g.transcript),
            Self::Relation(f) => (4, f.transcript),
        };
        out.push(system);
        out.push(transcript_code(transcript));
        match self {
            Self::Flock(f) => f.write(&mut out),
            Self::Gkr(g) => g.write(&mut out),
            Self::GkrOpened(g) => g.write(&mut out),
            Self::BooleanGkr(g) => g.write(&mut out),
            Self::Relation(f) => f.write(&mut out),
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
            4 => Ok(Self::Relation(RelationFile::read(r, transcript)?)),
            c => Err(ProofFileError::Header(format!("unknown proof system {c}"))),
        }
    }
}
