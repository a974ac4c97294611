//! How a batch lays out its instances in blocks ([`BatchShape`]): exactly the count asked
//! for, and the statement the setup proves for a Keccak-f chain that runs past it.

use flockwork_boolean::io::best_chain_width;
use flockwork_boolean::native::keccak_f1600;
use flockwork_r1cs::Statement;

use super::hash::{HashKind, IoKind};
use crate::workload::WorkloadError;

/// How a batch lays out its instances: `copies` instances in each of `blocks` blocks
/// (several chain steps per block where that fills blocks better, [`best_chain_width`]), of
/// which the first `count` are the statement's. The batch-R1CS setup proves exactly `blocks`
/// blocks in a witness of `2^log_blocks()` blocks, the rest zero ([`flockwork_r1cs::padding`]).
///
/// A Keccak-f chain of `count` steps that is not a multiple of `copies` runs
/// [`BatchShape::overhang`] more permutations in its last block: Keccak-f is a permutation
/// without per-step data, so "`count` steps from `start` end at `end`" holds exactly when
/// "`copies · blocks` steps from `start` end at `f^e(end)`" does (`e` the overhang; `f` is a
/// bijection), and the setup's statement is the latter ([`BatchShape::setup_statement`], which
/// the verifier computes from the exact statement with `e ≤ copies − 1` native permutations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BatchShape {
    /// Instances per block.
    pub copies: usize,
    /// Blocks: the batch-R1CS setup's instance count `N`.
    pub blocks: usize,
    /// The instances the statement is about (`copies · blocks − overhang`).
    pub count: usize,
}

/// The widest block [`BatchShape::for_count`] considers.
pub const MAX_COPIES: usize = 8;

impl BatchShape {
    /// Instances the statement is about: exactly the count asked for.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.count
    }

    /// Instances the blocks hold (`copies · blocks`): the count and the overhang.
    #[must_use]
    pub fn block_instances(&self) -> usize {
        self.copies * self.blocks
    }

    /// Steps a Keccak-f chain's last block runs past the statement's end (0 for every other
    /// batch; see the type's docs).
    #[must_use]
    pub fn overhang(&self) -> usize {
        self.block_instances() - self.count
    }

    /// `k = ⌈log2 blocks⌉`: the witness holds `2^k` blocks.
    #[must_use]
    pub fn log_blocks(&self) -> usize {
        self.blocks.next_power_of_two().trailing_zeros() as usize
    }

    /// The shape `flockwork prove` uses for `count ≥ 1` instances, always exactly `count`:
    /// one per block, `count` blocks, for public IO and Merkle trees (a tree over `count`
    /// leaves, [`flockwork_r1cs::merkle`]); for chains the width that commits the fewest
    /// positions per instance (3 for Keccak-f, 1 for SHA-256 and BLAKE3) and the fewest blocks
    /// that hold the request, the last block's extra steps an [overhang](Self::overhang) for
    /// Keccak-f (a chain step with per-step data takes one step per block unless the width
    /// divides the count).
    #[must_use]
    pub fn for_count(hash: HashKind, io: IoKind, count: usize) -> Self {
        use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress};
        let count = count.max(1);
        let copies = match (io, hash) {
            (IoKind::Merkle | IoKind::Public | IoKind::Committed, _) => 1,
            (IoKind::Chain, HashKind::Sha256) => best_chain_width(&Sha256Compress, MAX_COPIES),
            (IoKind::Chain, HashKind::Keccak) => best_chain_width(&KeccakF1600::new(), MAX_COPIES),
            (IoKind::Chain, HashKind::Blake3) => best_chain_width(&Blake3Compress, MAX_COPIES),
        };
        let copies = if hash == HashKind::Keccak || count.is_multiple_of(copies) {
            copies
        } else {
            1
        };
        Self {
            copies,
            blocks: count.div_ceil(copies),
            count,
        }
    }

    /// The statement the batch-R1CS setup of this shape proves for the exact `statement`
    /// about [`BatchShape::instances`] instances: the same statement, except for a Keccak-f
    /// chain with an [overhang](Self::overhang) `e`, whose end becomes `f^e(end)` (the type's
    /// docs). Prover and verifier both call it.
    ///
    /// # Errors
    /// [`WorkloadError::InvalidParameters`] for an overhang on anything but a Keccak-f chain
    /// statement with 25-word states.
    pub fn setup_statement(
        &self,
        hash: HashKind,
        statement: &Statement,
    ) -> Result<Statement, WorkloadError> {
        let e = self.overhang();
        if e == 0 {
            return Ok(statement.clone());
        }
        match (hash, statement) {
            (HashKind::Keccak, Statement::Chain { start, end }) if end.len() == 25 => {
                let mut state: [u64; 25] = core::array::from_fn(|i| end[i]);
                for _ in 0..e {
                    keccak_f1600(&mut state);
                }
                Ok(Statement::Chain {
                    start: start.clone(),
                    end: state.to_vec(),
                })
            }
            _ => Err(WorkloadError::InvalidParameters(format!(
                "{e} steps past the count: only a Keccak-f chain of 25-word states runs past it"
            ))),
        }
    }
}
