//! The one-byte codes of the header fields the systems share: the transcript, the
//! commitment and the batcher, written by the `*_code` functions and read back, unknown codes
//! refused by name, by [`Reader`]'s `transcript`, `pcs` and `variant`.

use flockwork_gkr::Variant;
use flockwork_pcs::PcsKind;
use flockwork_transcript::TranscriptKind;

use super::error::ProofFileError;
use super::framing::Reader;

pub(super) fn pcs_code(pcs: PcsKind) -> u8 {
    match pcs {
        PcsKind::Ligerito => 0,
        PcsKind::Fri => 1,
        PcsKind::Blaze => 2,
    }
}

pub(super) fn transcript_code(transcript: TranscriptKind) -> u8 {
    match transcript {
        TranscriptKind::Sha256 => 0,
        TranscriptKind::Blake3 => 1,
        TranscriptKind::Poseidon2b => 2,
    }
}

pub(super) fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Independent => 0,
        Variant::Padded => 1,
        Variant::Ragged => 2,
    }
}

impl Reader<'_> {
    /// A commitment code ([`pcs_code`]).
    pub(super) fn pcs(&mut self) -> Result<PcsKind, ProofFileError> {
        pcs_of_code(self.u8("header")?)
    }

    /// A transcript code ([`transcript_code`]).
    pub(super) fn transcript(&mut self) -> Result<TranscriptKind, ProofFileError> {
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
    pub(super) fn variant(&mut self) -> Result<Variant, ProofFileError> {
        match self.u8("header")? {
            0 => Ok(Variant::Independent),
            1 => Ok(Variant::Padded),
            2 => Ok(Variant::Ragged),
            c => Err(ProofFileError::Header(format!("unknown batcher code {c}"))),
        }
    }
}

/// The commitment of a code ([`pcs_code`]).
pub(super) fn pcs_of_code(code: u8) -> Result<PcsKind, ProofFileError> {
    match code {
        0 => Ok(PcsKind::Ligerito),
        1 => Ok(PcsKind::Fri),
        2 => Ok(PcsKind::Blaze),
        c => Err(ProofFileError::Header(format!(
            "unknown commitment code {c}"
        ))),
    }
}
