//! Systems 1 and 2: a batch of Poseidon2b permutations (t = 4, the official instance, over
//! GF(2^128)) proved with layered GKR ([`flockwork_gkr`]) in regions of `2^w_a` permutations,
//! the inputs public (system 1, [`GkrFile`]) or the input layer committed (system 2, the
//! layer-0 PCS path of [`flockwork_gkr::opening`], [`GkrOpenedFile`]), every output public.
//!
//! A GKR file over Poseidon2b states "these inputs (or the inputs this commitment binds) give
//! these outputs under the permutation, every instance": it holds no output point and no
//! claimed value; the verifier draws the points from the proof's transcript after the inputs
//! (their digest, or the commitment) and the outputs are absorbed, and computes the claimed
//! values itself ([`flockwork_gkr::statement`]). Verification rebuilds the setup from the
//! widths and the transcript ([`setup`]) and, for system 2, the commitment from its code and
//! the input layer's size ([`layer0_commitment`]).

use std::sync::Arc;

use flockwork_core::PolynomialCommitment;
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_gkr::Variant;
use flockwork_gkr::statement::{CommittedLayer, OutputLayer, RegionStatement};
use flockwork_pcs::PcsKind;
use flockwork_poseidon2b::Poseidon2bRelation;
use flockwork_transcript::{TranscriptKind, TranscriptScheme};

use super::ProofFile;
use super::codes::{pcs_code, variant_code};
use super::error::ProofFileError;
use super::framing::{Reader, push_commitment, push_elements, push_proof};
use crate::permutations::{
    LANES, MAX_WIDTH, PermutationReport, PermutationWorkload, check_widths, layer0_commitment,
    setup,
};

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

impl ProofFile {
    /// The proof file of `report`, a run of `workload`: its inputs in the clear
    /// ([`ProofFile::Gkr`]) or the layer-0 commitment ([`ProofFile::GkrOpened`]), with every
    /// permutation's output, the batcher and the transcript. [`ProofFile::verify`] checks it
    /// from the file alone.
    #[must_use]
    pub fn of_permutations(workload: &PermutationWorkload, report: &PermutationReport) -> Self {
        let outputs = report.statement.outputs();
        match &report.commitment {
            None => Self::Gkr(GkrFile {
                variant: workload.variant,
                transcript: workload.transcript,
                widths: workload.widths.clone(),
                inputs: report.inputs.clone(),
                outputs,
                proof: report.proof.clone(),
            }),
            Some((pcs, commitment)) => Self::GkrOpened(GkrOpenedFile {
                variant: workload.variant,
                transcript: workload.transcript,
                pcs: *pcs,
                widths: workload.widths.clone(),
                commitment: commitment.clone(),
                outputs,
                proof: report.proof.clone(),
            }),
        }
    }
}

/// The region count and widths, as [`Reader::widths`] reads them.
pub(super) fn push_widths(out: &mut Vec<u8>, widths: &[usize]) {
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

/// The Poseidon2b GKR verifier's estimated peak memory: the stated layers (`layers`, region
/// by region) held three times (as read, as the statement's columns, as the digests' and
/// evaluations' inputs), the proof twice, and 16 MiB for the relation, the walk and the
/// layer-0 commitment's verifier (its code tables are never built). Calibrated in
/// `tests/hostile_files.rs`.
pub(super) fn gkr_verifier_memory(layers: &[&Vec<Vec<Ghash128>>], proof_len: usize) -> u64 {
    let elements: usize = layers
        .iter()
        .flat_map(|regions| regions.iter().map(Vec::len))
        .sum();
    3 * 16 * elements as u64 + 2 * proof_len as u64 + (16 << 20)
}

impl GkrFile {
    /// Permutations in the batch.
    #[must_use]
    pub fn permutations(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(variant_code(self.variant));
        push_widths(out, &self.widths);
        for (inputs, outputs) in self.inputs.iter().zip(&self.outputs) {
            push_elements(out, inputs);
            push_elements(out, outputs);
        }
        push_proof(out, &self.proof);
    }

    pub(super) fn read(
        mut r: Reader<'_>,
        transcript: TranscriptKind,
    ) -> Result<Self, ProofFileError> {
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

    pub(super) fn verify(&self) -> Result<(), ProofFileError> {
        self.check_shape()?;
        let relation = Poseidon2bRelation::official();
        let statement = flockwork_gkr::Statement::public(&relation, &self.inputs, &self.outputs)?;
        self.verify_statement(self.widths.clone(), &statement)
    }

    /// [`GkrFile::verify`], consuming the file: each region's stated inputs and outputs are
    /// freed as soon as they are the statement's columns, so the statement is held once, not
    /// twice (`flockwork verify` takes this path).
    pub(super) fn verify_owned(mut self) -> Result<(), ProofFileError> {
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

    /// One sentence on what the proof is about
    /// ([`ProofFile::describe`](super::ProofFile::describe)).
    pub(super) fn describe(&self) -> String {
        format!(
            "{} Poseidon2b permutations in {} region(s), every output as stated (inputs \
             public; GKR, {} batcher, {} transcript)",
            self.permutations(),
            self.widths.len(),
            self.variant.name(),
            self.transcript
        )
    }
}

impl GkrOpenedFile {
    /// Permutations in the batch.
    #[must_use]
    pub fn permutations(&self) -> usize {
        self.widths.iter().map(|&w| 1usize << w).sum()
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(variant_code(self.variant));
        out.push(pcs_code(self.pcs));
        push_widths(out, &self.widths);
        push_commitment(out, &self.commitment);
        for outputs in &self.outputs {
            push_elements(out, outputs);
        }
        push_proof(out, &self.proof);
    }

    pub(super) fn read(
        mut r: Reader<'_>,
        transcript: TranscriptKind,
    ) -> Result<Self, ProofFileError> {
        let variant = r.variant()?;
        let pcs = r.pcs()?;
        let widths = r.widths()?;
        let commitment = r.commitment()?;
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

    pub(super) fn verify(&self) -> Result<(), ProofFileError> {
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

    /// One sentence on what the proof is about
    /// ([`ProofFile::describe`](super::ProofFile::describe)).
    pub(super) fn describe(&self) -> String {
        format!(
            "{} Poseidon2b permutations in {} region(s), every output as stated (inputs \
             committed with {}; GKR, {} batcher, {} transcript)",
            self.permutations(),
            self.widths.len(),
            self.pcs.name(),
            self.variant.name(),
            self.transcript
        )
    }
}

impl Reader<'_> {
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
}
