//! The soundness of the setup a batch would use, computed without proving
//! ([`security_summary`]).

use flockwork_boolean::io::wide_chain;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::Gadget;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_r1cs::{Flock, FlockConfig, SoundnessReport};

use super::hash::{HashKind, IoKind, setup_error};
use super::shape::BatchShape;
use crate::workload::WorkloadError;

/// The soundness of a batch-R1CS setup, without proving: the protocol's terms (the PCS's
/// round-by-round level among them) and the commitment's own term-by-term report.
#[derive(Clone, Debug)]
pub struct SecuritySummary {
    /// The batch-R1CS terms.
    pub protocol: SoundnessReport,
    /// The dense commitment's terms.
    pub pcs: flockwork_pcs::security::SecurityReport,
    /// The layout of the instances.
    pub shape: BatchShape,
    /// `m = m0 + ⌈log2 blocks⌉`.
    pub num_vars: usize,
}

/// The [`SecuritySummary`] of the setup `flockwork prove` would use for a chain of at least
/// `2^log_instances` compressions.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for an unusable size or an unreachable target.
pub fn security_summary(
    hash: HashKind,
    log_instances: usize,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    if log_instances > 40 {
        return Err(WorkloadError::InvalidParameters(
            "at most 2^40 instances".into(),
        ));
    }
    let shape = BatchShape::for_count(hash, IoKind::Chain, 1 << log_instances);
    match hash {
        HashKind::Sha256 => summary_of(wide_chain(Sha256Compress, shape.copies), shape, config),
        HashKind::Keccak => summary_of(wide_chain(KeccakF1600::new(), shape.copies), shape, config),
        HashKind::Blake3 => summary_of(wide_chain(Blake3Compress, shape.copies), shape, config),
    }
}

fn summary_of<G: Gadget>(
    gadget: G,
    shape: BatchShape,
    config: FlockConfig,
) -> Result<SecuritySummary, WorkloadError> {
    let flock = Flock::for_count(gadget, shape.blocks, config).map_err(setup_error)?;
    Ok(SecuritySummary {
        protocol: flock.soundness(),
        pcs: flock.pcs().inner().security_report(),
        shape,
        num_vars: flock.num_vars(),
    })
}
