//! Batch hashing workloads: any number of compressions of one hash, chained, arranged as a
//! Merkle tree or with public IO, proved with the Flock batch-R1CS prover over any of the
//! shipped commitments and verified, against the native single-core hash as the baseline.
//!
//! Every count is proved exactly ([`BatchShape`]): a Merkle tree over any number of leaves
//! (the left-complete tree, [`merkle_tree`]), a Keccak-f chain of any length in blocks of
//! three (the last block's extra permutations mapped onto the statement's end,
//! [`BatchShape::setup_statement`]); [`verify_exact`] checks a proof against the exact
//! statement. [`RegionBatch`] and [`BatchComparison`] prove batches of regions, each its own
//! chain, with the three batching strategies of [`Variant`](flockwork_core::regions::Variant).
//!
//! | module | concept |
//! |---|---|
//! | `hash` | the shipped hashes ([`HashKind`]), the IO a batch proves ([`IoKind`]), [`HashGadget`] and [`flock_for`] |
//! | `shape` | how a batch lays out its instances in blocks ([`BatchShape`]) |
//! | `jobs` | the seeded witnesses and statements a run proves ([`merkle_tree`]) |
//! | `workload` | the timed, verified run ([`FlockWorkload`]) and its report ([`FlockReport`]) |
//! | `exact` | verification against the exact statement ([`verify_exact`], [`ExactError`]) |
//! | `security` | the setup's soundness without proving ([`security_summary`]) |
//! | `regions` | batches of regions, each its own chain, by strategy ([`RegionBatch`], [`BatchComparison`]) |

mod exact;
mod hash;
mod jobs;
mod regions;
mod security;
mod shape;
mod workload;

pub use exact::{ExactError, verify_exact};
pub use hash::{HashGadget, HashKind, IoKind, flock_for};
pub use jobs::merkle_tree;
pub use regions::{
    BatchComparison, BatchRow, MAX_REGION_WIDTH, RegionBatch, RegionChains, RegionHash,
    region_chain_setup,
};
pub use security::{SecuritySummary, security_summary};
pub use shape::{BatchShape, MAX_COPIES};
pub use workload::{FlockReport, FlockWorkload};
