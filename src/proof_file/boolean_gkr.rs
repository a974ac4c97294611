//! System 3: a batch of Keccak-f\[1600\] permutations proved with GKR on their Boolean layers
//! by the harness's Boolean GKR batcher ([`crate::engines`], [`flockwork_gkr::boolean`]), and
//! its statement: every instance's input and output state in the clear, or the batcher's
//! commitment to them.
//!
//! Verification checks the proof's own header first, so nothing sized by the count is built
//! for bytes that are not a Boolean GKR proof of this version, batcher and IO mode, then
//! rebuilds the batcher from the header — count, batcher, commitment, target, transcript —
//! and verifies through it.

use flockwork_gkr::Variant;
use flockwork_pcs::PcsKind;
use flockwork_transcript::TranscriptKind;

use super::codes::{pcs_code, pcs_of_code, variant_code};
use super::error::ProofFileError;
use super::framing::{MAX_BLOCKS, Reader, push_commitment, push_proof, push_words};

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

/// The `pcs` byte of a [`BooleanGkrFile`] with public inputs and outputs.
const NO_PCS: u8 = 255;
/// Words of a Keccak-f state.
const KECCAK_WORDS: usize = 25;

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

    pub(super) fn write(&self, out: &mut Vec<u8>) {
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
                push_commitment(out, commitment);
            }
        }
        push_proof(out, &self.proof);
    }

    pub(super) fn read(
        mut r: Reader<'_>,
        transcript: TranscriptKind,
    ) -> Result<Self, ProofFileError> {
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
            BooleanIo::Committed {
                count,
                commitment: r.commitment()?,
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

    pub(super) fn verify(&self) -> Result<(), ProofFileError> {
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

    /// One sentence on what the proof is about
    /// ([`ProofFile::describe`](super::ProofFile::describe)).
    pub(super) fn describe(&self) -> String {
        format!(
            "{} Keccak-f permutations, {} (GKR on the Boolean layers, {} batcher, {} \
             transcript)",
            self.count(),
            self.pcs.map_or_else(
                || "every output as stated (public inputs and outputs)".to_owned(),
                |pcs| format!(
                    "every committed output the permutation of its committed input \
                     (inputs and outputs committed with {})",
                    pcs.name()
                )
            ),
            self.variant.name(),
            self.transcript
        )
    }
}
