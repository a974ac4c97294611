//! The shipped hashes and their batch-R1CS setups: [`HashKind`], the IO a batch proves
//! ([`IoKind`]), the [`HashGadget`] trait that sets a gadget's setup up for that IO, and
//! [`flock_for`].

use flockwork_boolean::io::{ChainStep, MerkleNode};
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
use flockwork_circuit::Wide;
use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_r1cs::{Flock, FlockConfig, SetupError};

use crate::workload::WorkloadError;

/// The hash compressions the batch prover ships with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    /// SHA-256 compression (22,696 ANDs).
    Sha256,
    /// Keccak-f\[1600\] (38,400 ANDs).
    Keccak,
    /// BLAKE3 compression (10,416 ANDs).
    Blake3,
}

impl HashKind {
    /// All shipped hashes.
    pub const ALL: [Self; 3] = [Self::Sha256, Self::Keccak, Self::Blake3];

    /// Short name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha256 => "sha256",
            Self::Keccak => "keccak-f",
            Self::Blake3 => "blake3",
        }
    }
}

/// The IO a batch proves about its instances: core's one [`IoKind`] (a chain, a Merkle tree
/// over `K` leaves in `K` instances, or public inputs and outputs; the workloads prove no
/// committed statement, which is one batcher's, [`crate::engines::compare_committed`]).
pub use flockwork_core::relation::IoKind;

impl HashKind {
    /// Whether the hash has Merkle nodes ([`MerkleNode`]): SHA-256 and BLAKE3 do; Keccak-f
    /// is a permutation without a two-to-one compression mode here.
    #[must_use]
    pub fn has_merkle_nodes(self) -> bool {
        matches!(self, Self::Sha256 | Self::Blake3)
    }
}

/// The batch-R1CS setup of [`FlockWorkload`]: exactly `blocks` instances (blocks) of
/// `gadget` ([`Flock::for_count`]) over the commitment `config.scheme`, set up for the IO
/// `io`.
///
/// # Errors
/// [`WorkloadError::InvalidParameters`] for an unusable size, an unreachable target or a
/// gadget without that IO (Merkle trees take a power-of-two number of blocks).
///
/// [`FlockWorkload`]: super::FlockWorkload
pub fn flock_for<G: HashGadget>(
    gadget: G,
    blocks: usize,
    io: IoKind,
    config: FlockConfig,
) -> Result<Flock<G>, WorkloadError> {
    G::configure(
        Flock::for_count(gadget, blocks, config).map_err(setup_error)?,
        io,
    )
}

/// The shipped hash gadgets: chain steps, and Merkle nodes where the hash has them.
pub trait HashGadget: ChainStep + Sized {
    /// Sets `flock` up for the IO `io`.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] if the gadget has no such IO (Merkle nodes) or
    /// its regions do not fit the setup.
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError>;
}

/// The workloads' refusal of a committed statement.
pub(super) fn committed() -> WorkloadError {
    WorkloadError::InvalidParameters(
        "the batch-R1CS workloads prove chains, Merkle trees and public IO; a committed \
         statement is one batcher's (flockwork::engines::compare_committed)"
            .into(),
    )
}

pub(super) fn setup_error(e: SetupError) -> WorkloadError {
    WorkloadError::InvalidParameters(e.to_string())
}

fn configure_merkle<G: ChainStep + MerkleNode, P: ConfiguredCommitment<Ghash128>>(
    flock: Flock<G, P>,
    io: IoKind,
) -> Result<Flock<G, P>, WorkloadError> {
    let flock = match io {
        IoKind::Chain => flock.chained(G::STATE_IN, G::STATE_OUT),
        IoKind::Merkle => {
            let fixed = flock.gadget().fixed_inputs();
            flock.merkle_tree(G::CHILDREN, G::DIGEST, fixed)
        }
        IoKind::Public => flock.public_io(),
        IoKind::Committed => return Err(committed()),
    };
    flock.map_err(setup_error)
}

/// Hashes with Merkle nodes: both IO kinds.
macro_rules! hash_gadget_with_merkle_nodes {
    ($($gadget:ty),*) => {$(
        impl HashGadget for $gadget {
            fn configure<P: ConfiguredCommitment<Ghash128>>(
                flock: Flock<Self, P>,
                io: IoKind,
            ) -> Result<Flock<Self, P>, WorkloadError> {
                configure_merkle(flock, io)
            }
        }
    )*};
}

hash_gadget_with_merkle_nodes!(Sha256Compress, Blake3Compress);

/// `flock` set up for a chain; `why_not_merkle` is the error for a Merkle tree.
fn chain_only<G: ChainStep, P: ConfiguredCommitment<Ghash128>>(
    flock: Flock<G, P>,
    io: IoKind,
    why_not_merkle: &str,
) -> Result<Flock<G, P>, WorkloadError> {
    match io {
        IoKind::Chain => flock
            .chained(G::STATE_IN, G::STATE_OUT)
            .map_err(setup_error),
        IoKind::Public => flock.public_io().map_err(setup_error),
        IoKind::Merkle => Err(WorkloadError::InvalidParameters(why_not_merkle.into())),
        IoKind::Committed => Err(committed()),
    }
}

impl HashGadget for KeccakF1600 {
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError> {
        chain_only(
            flock,
            io,
            "keccak-f is a permutation without Merkle nodes here; use sha256 or blake3 for \
             --merkle",
        )
    }
}

/// Blocks of chain steps ([`wide_chain`]) prove chains only.
///
/// [`wide_chain`]: flockwork_boolean::io::wide_chain
impl<G: ChainStep + Clone> HashGadget for Wide<G> {
    fn configure<P: ConfiguredCommitment<Ghash128>>(
        flock: Flock<Self, P>,
        io: IoKind,
    ) -> Result<Flock<Self, P>, WorkloadError> {
        chain_only(flock, io, "a Merkle tree takes one node per block")
    }
}
