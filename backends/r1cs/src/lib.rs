//! Batch-R1CS over F2 — the Flock construction (Bünz, Rothblum, Wang, *Flock: Fast Proving
//! for Batch Boolean Computations*, eprint 2026/1329; our implementer's notes:
//! `notes/flock.md`).
//!
//! `K = 2^k` copies of one Boolean circuit ([`Gadget`]: SHA-256, Keccak-f\[1600\], BLAKE3
//! compressions, …) form one block-diagonal R1CS `(A z) ∘ (B z) = z` over F2 with
//! `A = I_K ⊗ A0`, `B = I_K ⊗ B0`, `C = I`: every committed bit `z_j` is an AND output, a
//! materialized linear value, an IO bit or the constant wire, and its row says so. The witness
//! has `2^m` bits, `m = k + m0`. The gadget comes from `flockwork-circuit` (its builder, batch
//! witness and IO layout); [`R1csLowering`] ([`lowering`]) turns it into `A0`, `B0` as an XOR
//! graph that the prover and the verifier walk forwards and backwards, never as a matrix.
//!
//! A setup proves exactly `N` instances, any `1 ≤ N ≤ 2^k` ([`Flock::for_count`],
//! [`Flock::with_instances`]): they fill the first `N` blocks and the rest are zero blocks,
//! which the constant pin, the gadget's rows and the IO arguments keep from helping a cheating
//! prover ([`padding`] gives the argument); `N` is in the setup digest and the transcript.
//!
//! ## Protocol (transcript order, notes pitfall 9)
//!
//! 1. **Statement**: the transcript — the setup's [`TranscriptScheme`] `T` (SHA-256 by
//!    default; BLAKE3, the Poseidon2b duplex sponge or any other through
//!    [`Flock::with_transcript`]) — starts from the protocol name and the instance bytes (the
//!    R1CS digest, `m0`, `k`, the count `N` and the IO mode) and absorbs the public IO data (chain
//!    endpoints, Merkle root and leaves, or every instance's inputs and outputs).
//! 2. **Commit** `z` packed into `2^(m−7)` GF(2^128) words through the Boolean PCS
//!    (ring-switching over the configured scheme, Ligerito by default; [`flockwork_pcs::ring_switch`]).
//! 3. **Zerocheck** (`zerocheck.rs`): univariate skip over the six bit variables of a row
//!    (`skip.rs`), pinned challenges on the next seven (`pinned.rs`), `m − 6` multilinear rounds
//!    with Gruen's eq-factoring. Output: the c-claim `ẑ(ζ, r) = P^c(ζ)` and `â`, `b̂` at `(ζ, ρ)`.
//! 4. **Lincheck** (`lincheck.rs`): `α`, `β`, one degree-2 sumcheck over `m0` variables against
//!    the comb vector that both sides compute by walking the circuit backwards; the `β` term
//!    pins the constant wire to the indicator of the first `N` blocks. Output: the z-claim
//!    `ẑ(r', s_out)`.
//! 5. **IO**: one linear claim on the packed polynomial that binds the statement's public data
//!    to the committed IO regions: the hash-chain claim ([`io`]) for a chain or one chain per region
//!    ([`io::region_chains_claim`]), the Merkle claim
//!    ([`merkle`]) for a tree, the public-IO claim ([`public`]) for independent instances with
//!    public inputs and outputs; none for a plain batch.
//! 6. **Open**: the c-claim and z-claim through ring-switching, the IO claim directly on the
//!    packed polynomial, all batched into one opening of the commitment.
//!
//! The proof is the transcript behind a versioned header ([`Proof`]) whose setup digest
//! ([`Flock::setup_digest`]) also names the transcript scheme, so a proof made under another
//! transcript is refused with [`FlockError::Setup`]; [`Flock::verify`] parses it as hostile
//! input and returns [`FlockError`], never panics. [`Flock::soundness`] computes
//! every error term ([`SoundnessReport`]).

mod error;
pub mod io;
mod kernel;
mod lincheck;
pub mod lowering;
pub mod merkle;
pub mod padding;
mod pinned;
mod prover;
pub mod public;
pub mod relation_batchers;
mod rounds;
mod rowmap;
mod skip;
mod soundness;
mod verifier;
mod zerocheck;

/// The zerocheck's round-1 kernels and the tables they read: [`kernels::active`] names the
/// one this CPU runs (`flockwork info`), and [`kernels::group_sums_with`] runs one 128-row
/// group with a chosen [`kernels::Kernel`] (the `flock` bench's kernel comparison). The rest of
/// the prover's internals stay private.
pub mod kernels {
    pub use crate::kernel::{Kernel, active, group_sums_with};
    pub use crate::pinned::{ConvertTable, GROUP_ROWS};
    pub use crate::skip::LdeTable;
}

use core::marker::PhantomData;

use digest::Digest;
use flockwork_circuit::{Gadget, SlotId};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::ring_switch::RingSwitched;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{Commitment, PcsKind, Profile};
use flockwork_transcript::TranscriptScheme;
use sha2::Sha256;

pub use error::{FlockError, ProveError, SetupError};
pub use flockwork_pcs::{Preset, Regime};
pub use io::{ChainLayout, Region};
pub use lowering::{Node, NodeId, R1csLowering};
pub use merkle::MerkleLayout;
pub use prover::{ProverReport, Timings};
pub use public::PublicLayout;
pub use relation_batchers::{RaggedBatcher, RegionBatcher};
pub use soundness::{SoundnessReport, SoundnessTerm};
pub use verifier::check_proof_header;

use crate::pinned::{ConvertTable, PINNED_VARS};
use crate::skip::{LdeTable, SKIP_VARS};

/// The Boolean commitment of [`Flock::new`]: ring-switching over the shipped scheme that
/// [`FlockConfig::scheme`] names.
pub type BooleanPcs = RingSwitched<Commitment>;

/// Proof format version (first bytes after the magic). Version 2 added the setup digest;
/// version 3: the setup digest covers the transcript ([`TranscriptScheme::NAME`]); version 4:
/// exact instance counts (the count `N` in the instance bytes and the setup digest, the
/// constant pin against the indicator of the first `N` instances, the chain's end at
/// instance `N − 1`); version 5: the commitment's parameters enter the setup digest in their
/// fixed byte encoding ([`flockwork_pcs::params`]).
pub const PROOF_VERSION: u16 = 5;
/// Every earlier proof version, with the last commit whose verifier reads it: version 1 up to
/// e2d2023; version 2 up to 800fc91 for proofs made from d591d4c on (its proof-of-work
/// hashes), up to b2fc788 for earlier ones; version 3 up to 21c80a4; version 4 up to 40c760a.
/// [`Flock::verify`] refuses them with [`FlockError::Retired`].
pub const RETIRED_VERSIONS: [(u16, &str); 4] = [
    (1, "e2d2023"),
    (2, "800fc91 (b2fc788 for proofs made before d591d4c)"),
    (3, "21c80a4"),
    (4, "40c760a"),
];
/// Magic bytes that open every proof.
pub const PROOF_MAGIC: [u8; 4] = *b"FLKR";
/// Header length: magic, version and the 32-byte setup digest ([`Flock::setup_digest`]).
const HEADER_LEN: usize = 6 + 32;

/// Parameters of a [`Flock`] instance besides the circuit and the batch size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockConfig {
    /// The dense commitment under ring-switching ([`Flock::new`]; [`Flock::with_pcs`] takes
    /// any other).
    pub scheme: PcsKind,
    /// Ligerito profile.
    pub preset: Preset,
    /// Proximity regime of the PCS query counts.
    pub regime: Regime,
    /// Security target in bits for the PCS parameter selection.
    pub target_bits: u32,
    /// Refuse to prove when [`Flock::estimated_prover_bytes`] exceeds this many bytes
    /// (`None`: no limit).
    pub memory_limit: Option<u64>,
}

impl Default for FlockConfig {
    /// Ligerito's fast profile in the Johnson regime (η = 0.02) at 100 bits.
    fn default() -> Self {
        Self {
            scheme: PcsKind::Ligerito,
            preset: Preset::Fast,
            regime: Regime::Johnson {
                eta: flockwork_pcs::ligerito::DEFAULT_ETA,
            },
            target_bits: 100,
            memory_limit: None,
        }
    }
}

impl FlockConfig {
    /// The configuration of each of `proofs` proofs whose union must reach this one's
    /// target: the target raised by `⌈log2 proofs⌉` bits (the union bound over independent
    /// proofs).
    #[must_use]
    pub fn per_proof(self, proofs: usize) -> Self {
        Self {
            target_bits: self.target_bits + proofs.next_power_of_two().trailing_zeros(),
            ..self
        }
    }
}

/// The public statement a proof is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `N` satisfying instances exist (no public data: useful for benchmarks, says nothing
    /// about any particular input).
    Batch,
    /// The instances form a chain from `start` to `end` (state vectors as `u64` words, see
    /// [`ChainLayout`]): instance 0 reads `start`, instance `i + 1` reads what instance `i`
    /// wrote, the last instance writes `end`. For a region-chains setup
    /// ([`Flock::region_chains`]) `start` and `end` hold every region's start and end state,
    /// region after region.
    Chain {
        /// The initial state.
        start: Vec<u64>,
        /// The final state.
        end: Vec<u64>,
    },
    /// The instances compute the Merkle tree with this root over these `N ≥ 2` leaves, left
    /// to right (digests as `u64` words, see [`MerkleLayout`]): the left-complete tree in heap
    /// order ([`merkle`]), instance `p ∈ [1, N)` is heap node `p`, instance 0 is padding.
    Merkle {
        /// The root digest.
        root: Vec<u64>,
        /// The leaf digests, left to right.
        leaves: Vec<Vec<u64>>,
    },
    /// `N` independent instances with these input and output vectors, all public (`u64`
    /// words, flat: instance `i`'s input vector is `inputs[i·n_in .. (i + 1)·n_in]` and its
    /// output vector `outputs[i·n_out .. (i + 1)·n_out]`, with `n_in`, `n_out` the words of
    /// the gadget's input and output vectors, [`PublicLayout`]).
    Public {
        /// Every instance's input vector, instance after instance.
        inputs: Vec<u64>,
        /// Every instance's output vector, instance after instance.
        outputs: Vec<u64>,
    },
}

/// A serialized proof: `"FLKR" ‖ u16le(version) ‖ setup digest ‖ transcript bytes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof(Vec<u8>);

impl Proof {
    /// The proof bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Consumes the proof into its bytes.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// Byte length.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the proof is empty (never, for a produced proof).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Prover and verifier of `N` instances (in `2^k ≥ N` blocks) of one gadget, committing through ring-switching
/// over the dense GF(2^128) commitment `P` — by default [`Commitment`], any shipped scheme
/// chosen at run time by [`FlockConfig::scheme`] ([`Flock::new`]); any other
/// [`ConfiguredCommitment`] through [`Flock::with_pcs`] — with the Fiat–Shamir transcript
/// `T` (SHA-256 by default; any [`TranscriptScheme`], e.g. BLAKE3 or the Poseidon2b sponge,
/// through [`Flock::with_transcript`]).
///
/// Setup lowers the gadget once (the XOR graph both walks use), digests it, builds the
/// skip tables and selects the PCS parameters for `m − 7` packed variables.
#[derive(Debug)]
pub struct Flock<G, P = Commitment, T = flockwork_transcript::Sha256> {
    gadget: G,
    lowering: R1csLowering,
    log_instances: usize,
    instances: usize,
    io: IoMode,
    pcs: RingSwitched<P>,
    config: FlockConfig,
    r1cs_digest: [u8; 32],
    lde: LdeTable,
    tconv: ConvertTable,
    transcript: PhantomData<fn() -> T>,
}

impl<G: Gadget> Flock<G> {
    /// Sets up `2^log_instances` instances of `gadget` proving [`Statement::Batch`], over
    /// the commitment `config.scheme` selected for the `2^m`-bit witness at
    /// `config.target_bits` ([`Commitment::for_bits`]: the one place that sizes it, with the
    /// bit of headroom that leaves the union with this protocol's terms, each above 120 bits,
    /// at the target).
    ///
    /// # Errors
    /// [`SetupError`] if the instance block is too small for the pinned challenges
    /// (`m0 < 13`) or the PCS cannot reach the target for this size.
    pub fn new(gadget: G, log_instances: usize, config: FlockConfig) -> Result<Self, SetupError> {
        let m = check_shape(&gadget, log_instances)?;
        let profile = Profile {
            preset: config.preset,
            regime: config.regime,
        };
        let inner = Commitment::for_bits(config.scheme, m, config.target_bits, &profile)
            .map_err(SetupError::Pcs)?;
        Self::with_pcs(gadget, log_instances, inner, config)
    }

    /// Sets up a hash chain through the regions `input` → `output` ([`Statement::Chain`]).
    ///
    /// # Errors
    /// As [`Flock::new`], and [`SetupError::ChainLayout`] for unusable regions.
    pub fn with_chain(
        gadget: G,
        log_instances: usize,
        input: SlotId,
        output: SlotId,
        config: FlockConfig,
    ) -> Result<Self, SetupError> {
        Self::new(gadget, log_instances, config)?.chained(input, output)
    }

    /// Sets up a Merkle tree over `2^log_instances` leaves ([`Statement::Merkle`]; at least 2
    /// leaves; any other count through [`Flock::with_instances`]): `children` is the `left ‖ right` input region, `digest` the output region,
    /// and `fixed` lists the other input regions with their public constant values (the IV,
    /// parameters).
    ///
    /// # Errors
    /// As [`Flock::new`], and [`SetupError::MerkleLayout`] for unusable regions or a single
    /// leaf.
    pub fn with_merkle(
        gadget: G,
        log_instances: usize,
        children: SlotId,
        digest: SlotId,
        fixed: Vec<(SlotId, Vec<u64>)>,
        config: FlockConfig,
    ) -> Result<Self, SetupError> {
        Self::new(gadget, log_instances, config)?.merkle_tree(children, digest, fixed)
    }

    /// Sets up exactly `instances` instances of `gadget` (any count from 1 to 2^40) proving
    /// [`Statement::Batch`]: [`Flock::new`] for the `k = ⌈log2 instances⌉` that holds them,
    /// then [`Flock::with_instances`]. The IO modes follow as for any setup
    /// ([`Flock::chained`], [`Flock::public_io`], [`Flock::merkle_tree`]).
    ///
    /// # Errors
    /// As [`Flock::new`] and [`Flock::with_instances`]; [`SetupError::TooManyInstances`] for
    /// zero instances.
    pub fn for_count(gadget: G, instances: usize, config: FlockConfig) -> Result<Self, SetupError> {
        if instances == 0 {
            return Err(SetupError::TooManyInstances { log_instances: 0 });
        }
        let log_instances = instances.next_power_of_two().trailing_zeros() as usize;
        Self::new(gadget, log_instances, config)?.with_instances(instances)
    }
}

/// `m = m0 + k` after checking that the shape is supported.
fn check_shape<G: Gadget>(gadget: &G, log_instances: usize) -> Result<usize, SetupError> {
    let m0 = R1csLowering::new(gadget).log_block();
    if m0 < SKIP_VARS + PINNED_VARS {
        return Err(SetupError::BlockTooSmall { log_block: m0 });
    }
    if log_instances > 40 {
        return Err(SetupError::TooManyInstances { log_instances });
    }
    Ok(m0 + log_instances)
}

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>> Flock<G, P> {
    /// Sets up `2^log_instances` instances of `gadget` proving [`Statement::Batch`], over
    /// the dense commitment `dense` for `m − 7` packed variables (the batch has `2^m` witness
    /// bits). `config.target_bits` is the target the soundness report is held to; its
    /// Ligerito fields are unused.
    ///
    /// # Errors
    /// As [`Flock::new`], and [`SetupError::PcsVars`] if `dense` has the wrong size.
    pub fn with_pcs(
        gadget: G,
        log_instances: usize,
        dense: P,
        config: FlockConfig,
    ) -> Result<Self, SetupError> {
        let m = check_shape(&gadget, log_instances)?;
        if dense.num_vars() != m - 7 {
            return Err(SetupError::PcsVars {
                expected: m - 7,
                found: dense.num_vars(),
            });
        }
        let lowering = R1csLowering::new(&gadget);
        Ok(Self {
            r1cs_digest: digest_lowering(&lowering),
            gadget,
            lowering,
            log_instances,
            instances: 1 << log_instances,
            io: IoMode::None,
            pcs: RingSwitched::new(dense),
            config,
            lde: LdeTable::new(),
            tconv: ConvertTable::new(),
            transcript: PhantomData,
        })
    }
}

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>, T: TranscriptScheme> Flock<G, P, T> {
    /// The same setup under the Fiat–Shamir transcript `U` (every constructor starts with
    /// SHA-256). The setup digest names the transcript, so the two setups refuse each other's
    /// proofs with [`FlockError::Setup`].
    #[must_use]
    pub fn with_transcript<U: TranscriptScheme>(self) -> Flock<G, P, U> {
        Flock {
            gadget: self.gadget,
            lowering: self.lowering,
            log_instances: self.log_instances,
            instances: self.instances,
            io: self.io,
            pcs: self.pcs,
            config: self.config,
            r1cs_digest: self.r1cs_digest,
            lde: self.lde,
            tconv: self.tconv,
            transcript: PhantomData,
        }
    }

    /// The same setup for exactly `instances` real instances, `1 ≤ instances ≤ 2^k`: they
    /// occupy the first blocks of the `2^k`-block witness and the blocks past them are zero
    /// (see [`padding`] for why that is sound). The count is part of the statement: it is in
    /// the setup digest and the transcript, so a proof for `N` instances is refused for any
    /// other count.
    ///
    /// # Errors
    /// [`SetupError::InstanceCount`] for a count outside `1..=2^k`;
    /// [`SetupError::PaddingNotForced`] below `2^k` if the constant wire at zero does not force
    /// every bit of the gadget's block to zero; [`SetupError::MerkleLayout`] for a Merkle
    /// setup of fewer than 2 instances (a tree over `N` leaves takes `N` instances).
    pub fn with_instances(mut self, instances: usize) -> Result<Self, SetupError> {
        let capacity = 1usize << self.log_instances;
        if !(1..=capacity).contains(&instances) {
            return Err(SetupError::InstanceCount {
                instances,
                log_instances: self.log_instances,
            });
        }
        if instances < capacity
            && let Some(column) = padding::unforced_column(&self.lowering)
        {
            return Err(SetupError::PaddingNotForced { column });
        }
        self.instances = instances;
        self.check_io_count()?;
        Ok(self)
    }

    /// A tree needs at least 2 leaves and region chains end by the last instance: refuses a
    /// Merkle setup with fewer instances, or regions past them.
    fn check_io_count(&self) -> Result<(), SetupError> {
        match &self.io {
            IoMode::Merkle(_) if self.instances < 2 => Err(SetupError::MerkleLayout(
                "a tree needs at least 2 leaves".into(),
            )),
            IoMode::Regions(_, regions)
                if regions
                    .last()
                    .is_some_and(|r| r.offset + r.len() > self.instances) =>
            {
                Err(SetupError::ChainLayout(format!(
                    "a region past the setup's {} instances",
                    self.instances
                )))
            }
            _ => Ok(()),
        }
    }

    /// The same setup proving a hash chain through the regions `input` → `output`
    /// ([`Statement::Chain`]).
    ///
    /// # Errors
    /// [`SetupError::ChainLayout`] for unusable regions.
    pub fn chained(mut self, input: SlotId, output: SlotId) -> Result<Self, SetupError> {
        self.io = IoMode::Chain(ChainLayout::new(&self.gadget.layout(), input, output)?);
        Ok(self)
    }

    /// The same setup proving one chain per region through the regions `input` → `output`
    /// ([`Statement::Chain`] with every region's start and end state, region after region,
    /// in `start` and `end`): region `a` holds the instances `offset .. offset + 2^log_len`
    /// ([`Region`]), its instance 0 reads its start, each later instance its predecessor's
    /// output, and its last instance writes its end ([`io::region_chains_claim`]). Instances
    /// outside every region are real instances whose IO is unconstrained.
    ///
    /// # Errors
    /// [`SetupError::ChainLayout`] for unusable IO regions, no regions, a region not aligned
    /// to its size, regions out of order or overlapping, or past the setup's instances.
    pub fn region_chains(
        mut self,
        input: SlotId,
        output: SlotId,
        regions: Vec<Region>,
    ) -> Result<Self, SetupError> {
        let layout = ChainLayout::new(&self.gadget.layout(), input, output)?;
        let bad = |why: &str| Err(SetupError::ChainLayout(why.into()));
        if regions.is_empty() {
            return bad("no regions");
        }
        let mut next = 0;
        for r in &regions {
            // Checked before `len`, which shifts by `log_len`.
            if r.log_len > self.log_instances || !r.offset.is_multiple_of(r.len()) {
                return bad("a region is a block of 2^w instances at a multiple of 2^w");
            }
            if r.offset < next {
                return bad("regions in increasing order without overlap");
            }
            next = r.offset + r.len();
        }
        self.io = IoMode::Regions(layout, regions);
        self.check_io_count()?;
        Ok(self)
    }

    /// The same setup proving each of `regions` (`(a, offset)`: region `a` of
    /// `2^{widths[a]}` instances at `offset`) as its own chain through `input` → `output`
    /// ([`Flock::region_chains`]), or the chained setup ([`Flock::chained`]) when one region
    /// at offset 0 fills the setup.
    ///
    /// # Errors
    /// As [`Flock::region_chains`].
    pub fn chained_regions(
        self,
        input: SlotId,
        output: SlotId,
        widths: &[usize],
        regions: &[(usize, usize)],
    ) -> Result<Self, SetupError> {
        if let [(a, 0)] = regions
            && widths
                .get(*a)
                .is_some_and(|&w| 1usize << w == self.instances)
        {
            return self.chained(input, output);
        }
        let layout = regions
            .iter()
            .map(|&(a, offset)| Region {
                offset,
                log_len: widths.get(a).copied().unwrap_or(usize::MAX),
            })
            .collect();
        self.region_chains(input, output, layout)
    }

    /// The same setup proving a Merkle tree ([`Statement::Merkle`], see
    /// [`Flock::with_merkle`]).
    ///
    /// # Errors
    /// [`SetupError::MerkleLayout`] for unusable regions or a single leaf.
    pub fn merkle_tree(
        mut self,
        children: SlotId,
        digest: SlotId,
        fixed: Vec<(SlotId, Vec<u64>)>,
    ) -> Result<Self, SetupError> {
        if self.log_instances == 0 {
            return Err(SetupError::MerkleLayout(
                "a tree needs at least 2 leaves".into(),
            ));
        }
        let layout = MerkleLayout::new(&self.gadget.layout(), children, digest, fixed)?;
        self.io = IoMode::Merkle(layout);
        self.check_io_count()?;
        Ok(self)
    }

    /// The same setup proving independent instances whose inputs and outputs are all public
    /// ([`Statement::Public`]; [`Flock::public_statement`] reads them from a witness).
    ///
    /// # Errors
    /// [`SetupError::PublicLayout`] if the gadget's slot units are not a power of two of at
    /// least 128 bits or it has no IO regions.
    pub fn public_io(mut self) -> Result<Self, SetupError> {
        self.io = IoMode::Public(PublicLayout::new(&self.gadget.layout())?);
        Ok(self)
    }

    /// The gadget.
    #[must_use]
    pub fn gadget(&self) -> &G {
        &self.gadget
    }

    /// The lowered circuit.
    #[must_use]
    pub fn lowering(&self) -> &R1csLowering {
        &self.lowering
    }

    /// `k`: the witness holds `2^k` instance blocks (the first [`Flock::instances`] of them
    /// real, the rest zero).
    #[must_use]
    pub fn log_instances(&self) -> usize {
        self.log_instances
    }

    /// `N`: the instances the statement is about, `2^(k−1) < N ≤ 2^k` for
    /// [`Flock::for_count`] (any `1 ≤ N ≤ 2^k` through [`Flock::with_instances`]).
    #[must_use]
    pub fn instances(&self) -> usize {
        self.instances
    }

    /// `m = m0 + k`: the witness has `2^m` bits.
    #[must_use]
    pub fn num_vars(&self) -> usize {
        self.lowering.log_block() + self.log_instances
    }

    /// The chain layout, for a chain setup.
    #[must_use]
    pub fn chain(&self) -> Option<&ChainLayout> {
        match &self.io {
            IoMode::Chain(c) => Some(c),
            _ => None,
        }
    }

    /// The Merkle layout, for a Merkle setup.
    #[must_use]
    pub fn merkle(&self) -> Option<&MerkleLayout> {
        match &self.io {
            IoMode::Merkle(m) => Some(m),
            _ => None,
        }
    }

    /// The chain layout and the regions, for a region-chains setup
    /// ([`Flock::region_chains`]).
    #[must_use]
    pub fn regions(&self) -> Option<(&ChainLayout, &[Region])> {
        match &self.io {
            IoMode::Regions(c, r) => Some((c, r)),
            _ => None,
        }
    }

    /// The public-IO layout, for a public-IO setup.
    #[must_use]
    pub fn public(&self) -> Option<&PublicLayout> {
        match &self.io {
            IoMode::Public(p) => Some(p),
            _ => None,
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &FlockConfig {
        &self.config
    }

    /// The prover's estimated peak memory in bytes: `(10.5 + e)·2^m/8 + 16 MiB` for a
    /// witness of `2^m` bits and a commitment whose codeword is `e` times the packed witness
    /// ([`ConfiguredCommitment::codeword_expansion`]). The witness, its two sides and its
    /// lane-order copy for the lincheck, the packed polynomial, the zerocheck and lincheck
    /// tables and the commitment's tree account for the rest. Calibrated against measured peaks (SHA-256 and Keccak-f at
    /// 2^10–2^14 instances: 11.3–13.5 × the witness bytes with Ligerito, 12.2–12.6 with FRI,
    /// 14.4–14.8 with Blaze; `flockwork prove --json` reports `peak_mib`).
    #[must_use]
    pub fn estimated_prover_bytes(&self) -> u64 {
        let witness_bytes = (1u64 << self.num_vars()) / 8;
        let factor = 10.5 + self.pcs.inner().codeword_expansion();
        (factor * witness_bytes as f64) as u64 + (16 << 20)
    }

    /// The verifier's estimated peak memory in bytes for `statement` and a proof of
    /// `proof_len` bytes: 192 bytes per block position for the lowered circuit it walks, the
    /// statement's words and the proof twice each (read, then held as field elements), and
    /// `2·2^⌈(m−7)/2⌉` GF(2^128) elements for the commitment's split `eq` tables (Blaze's
    /// level-0 weight; every other term is a number of opened rows, part of the proof), plus
    /// 4 MiB. Nothing grows with the codeword: the commitments' verifiers evaluate their codes
    /// at the queried points. Calibrated against measured peaks (SHA-256, BLAKE3 and Keccak-f
    /// at 2–2^18 instances over every commitment: 150–170 bytes per position;
    /// `tests/hostile_files.rs` checks that the estimate bounds them).
    #[must_use]
    pub fn estimated_verifier_bytes(&self, statement: &Statement, proof_len: usize) -> u64 {
        let circuit = 192u64 << self.lowering.log_block();
        let words = match statement {
            Statement::Batch => 0,
            Statement::Chain { start, end } => start.len() + end.len(),
            Statement::Merkle { root, leaves } => {
                root.len() + leaves.iter().map(Vec::len).sum::<usize>()
            }
            Statement::Public { inputs, outputs } => inputs.len() + outputs.len(),
        } as u64;
        let packed_vars = self.num_vars().saturating_sub(7) as u32;
        let eq_tables = 32u64 << packed_vars.div_ceil(2);
        circuit + 2 * (8 * words + proof_len as u64) + eq_tables + (4 << 20)
    }

    /// The Boolean PCS.
    #[must_use]
    pub fn pcs(&self) -> &RingSwitched<P> {
        &self.pcs
    }

    /// SHA-256 of the lowered R1CS (absorbed first into every transcript).
    #[must_use]
    pub fn r1cs_digest(&self) -> &[u8; 32] {
        &self.r1cs_digest
    }

    /// The chain statement a witness proves: instance 0's input region and the last
    /// instance's output region. `None` without a chain layout or for a witness of another
    /// shape.
    #[must_use]
    pub fn chain_statement(&self, witness: &flockwork_circuit::BatchWitness) -> Option<Statement> {
        let layout = self.chain()?;
        if witness.log_block != self.lowering.log_block() || !self.fits_witness(witness.instances) {
            return None;
        }
        let slot_words = 2 << layout.log_slot_words;
        let n = layout.state_words();
        let last = (self.instances - 1) * witness.block_words();
        Some(Statement::Chain {
            start: witness
                .z
                .get(layout.in_slot * slot_words..)?
                .get(..n)?
                .to_vec(),
            end: witness
                .z
                .get(last + layout.out_slot * slot_words..)?
                .get(..n)?
                .to_vec(),
        })
    }

    /// The public-IO statement a witness proves: every instance's input and output vectors.
    /// `None` without a public-IO layout ([`Flock::public_io`]) or for a witness of another
    /// shape.
    #[must_use]
    pub fn public_statement(&self, witness: &flockwork_circuit::BatchWitness) -> Option<Statement> {
        if !self.fits_witness(witness.instances) {
            return None;
        }
        let m0 = self.lowering.log_block();
        let (inputs, outputs) = self.public()?.read(witness, m0, self.instances)?;
        Some(Statement::Public { inputs, outputs })
    }

    /// Whether a witness of `blocks` instance blocks fits the setup: the `N` real instances
    /// alone ([`batch_witness`](flockwork_circuit::batch_witness) of their inputs) or
    /// all `2^k` blocks.
    fn fits_witness(&self, blocks: usize) -> bool {
        blocks == self.instances || blocks == 1 << self.log_instances
    }

    /// SHA-256 of everything the verifier must agree with: the lowered circuit, the batch
    /// size and instance count, the IO mode and layout (the transcript's instance bytes), the commitment scheme
    /// and its parameters ([`ConfiguredCommitment::parameter_bytes`]), and the transcript
    /// scheme ([`TranscriptScheme::NAME`]). Proofs carry it after the version, and the
    /// verifier refuses another setup's proof with [`FlockError::Setup`] before reading
    /// anything else.
    #[must_use]
    pub fn setup_digest(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"flockwork/flock-setup/v1");
        let instance = self.instance_bytes();
        h.update((instance.len() as u64).to_le_bytes());
        h.update(&instance);
        let params = self.pcs.inner().parameter_bytes();
        h.update((params.len() as u64).to_le_bytes());
        h.update(&params);
        h.update((T::NAME.len() as u64).to_le_bytes());
        h.update(T::NAME.as_bytes());
        h.finalize().into()
    }

    /// The domain-separation instance bytes: digest, `m0`, `k`, `N`, IO mode and its layout.
    fn instance_bytes(&self) -> Vec<u8> {
        let mut out = self.r1cs_digest.to_vec();
        out.extend_from_slice(self.pcs.inner().name().as_bytes());
        out.extend_from_slice(&(self.lowering.log_block() as u64).to_le_bytes());
        out.extend_from_slice(&(self.log_instances as u64).to_le_bytes());
        out.extend_from_slice(&(self.instances as u64).to_le_bytes());
        match &self.io {
            IoMode::None => out.push(0),
            IoMode::Chain(c) => {
                out.push(1);
                for v in [c.log_slot_words, c.in_slot, c.out_slot, c.state_bits] {
                    out.extend_from_slice(&(v as u64).to_le_bytes());
                }
            }
            IoMode::Merkle(m) => {
                out.push(2);
                for v in [m.log_slot_words, m.digest_slot, m.left_slot, m.digest_bits] {
                    out.extend_from_slice(&(v as u64).to_le_bytes());
                }
                out.extend_from_slice(&(m.fixed.len() as u64).to_le_bytes());
                for (slot, value) in &m.fixed {
                    out.extend_from_slice(&(*slot as u64).to_le_bytes());
                    out.extend_from_slice(&(value.len() as u64).to_le_bytes());
                    for w in value {
                        out.extend_from_slice(&w.to_le_bytes());
                    }
                }
            }
            IoMode::Regions(c, regions) => {
                out.push(4);
                for v in [c.log_slot_words, c.in_slot, c.out_slot, c.state_bits] {
                    out.extend_from_slice(&(v as u64).to_le_bytes());
                }
                out.extend_from_slice(&(regions.len() as u64).to_le_bytes());
                for r in regions {
                    out.extend_from_slice(&(r.offset as u64).to_le_bytes());
                    out.extend_from_slice(&(r.log_len as u64).to_le_bytes());
                }
            }
            IoMode::Public(p) => {
                out.push(3);
                for v in [p.log_slot_words, p.regions.len()] {
                    out.extend_from_slice(&(v as u64).to_le_bytes());
                }
                for r in &p.regions {
                    let kind = usize::from(r.kind == flockwork_circuit::SlotKind::Output);
                    for v in [kind, r.first_slot, r.bits] {
                        out.extend_from_slice(&(v as u64).to_le_bytes());
                    }
                }
            }
        }
        out
    }
}

/// Which IO argument a setup runs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum IoMode {
    /// None ([`Statement::Batch`]).
    None,
    /// Hash chain ([`Statement::Chain`]).
    Chain(ChainLayout),
    /// Merkle tree ([`Statement::Merkle`]).
    Merkle(MerkleLayout),
    /// Public inputs and outputs ([`Statement::Public`]).
    Public(PublicLayout),
    /// One chain per region ([`Statement::Chain`] with every region's ends).
    Regions(ChainLayout, Vec<Region>),
}

/// Protocol name of the domain separator.
const PROTOCOL: &str = "flockwork/flock-batch-r1cs/v1";

/// SHA-256 over the lowered graph: layout, rows and XOR nodes in canonical order.
fn digest_lowering(lowering: &R1csLowering) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"flockwork/r1cs-lowering/v1");
    h.update((lowering.log_block() as u64).to_le_bytes());
    h.update((lowering.xor_nodes() as u64).to_le_bytes());
    for slot in lowering.layout().slots() {
        h.update((slot.first_slot as u64).to_le_bytes());
        h.update((slot.bits as u64).to_le_bytes());
        h.update([u8::from(slot.kind == flockwork_circuit::SlotKind::Input)]);
    }
    h.update((lowering.layout().slot_bits() as u64).to_le_bytes());
    let nodes = 1 + (1usize << lowering.log_block()) + lowering.xor_nodes();
    let columns = 1usize << lowering.log_block();
    let mut buf = Vec::with_capacity(8 * 4096);
    for i in 1 + columns..nodes {
        if let Node::Xor(a, b) = lowering.node(lowering.node_id(i)) {
            buf.extend_from_slice(&(a.index() as u32).to_le_bytes());
            buf.extend_from_slice(&(b.index() as u32).to_le_bytes());
        }
        if buf.len() >= 8 * 4096 {
            h.update(&buf);
            buf.clear();
        }
    }
    for j in 0..columns {
        for side in lowering.row(j) {
            buf.extend_from_slice(&(side.index() as u32).to_le_bytes());
        }
        if buf.len() >= 8 * 4096 {
            h.update(&buf);
            buf.clear();
        }
    }
    h.update(&buf);
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_circuit::{SlotKind, batch_witness};
    use flockwork_testkit::circuit::{PaddingShapes, Step};
    use rand::{Rng, SeedableRng};

    /// The block must hold the pinned challenges' 13 bits and the batch at most 2^40 blocks:
    /// `m = m0 + k` at both bounds, refused one past them.
    #[test]
    fn shapes_are_checked_at_their_bounds() {
        assert_eq!(R1csLowering::new(&PaddingShapes).log_block(), 13);
        assert_eq!(check_shape(&PaddingShapes, 0).unwrap(), 13);
        assert_eq!(check_shape(&PaddingShapes, 40).unwrap(), 53);
        assert!(matches!(
            check_shape(&PaddingShapes, 41),
            Err(SetupError::TooManyInstances { log_instances: 41 })
        ));
        assert!(matches!(
            check_shape(&Step, 2),
            Err(SetupError::BlockTooSmall { log_block: 8 })
        ));
        assert!(matches!(
            Flock::new(Step, 0, FlockConfig::default()),
            Err(SetupError::BlockTooSmall { log_block: 8 })
        ));
        assert!(matches!(
            Flock::new(PaddingShapes, 41, FlockConfig::default()),
            Err(SetupError::TooManyInstances { log_instances: 41 })
        ));
        let flock = Flock::new(PaddingShapes, 0, FlockConfig::default()).unwrap();
        assert_eq!((flock.num_vars(), flock.instances()), (13, 1));
    }

    /// A dense commitment must have `m − 7` variables; the error names both counts.
    #[test]
    fn a_dense_commitment_of_another_size_is_refused() {
        let m = 13 + 3;
        for vars in [m - 8, m - 6] {
            let dense =
                flockwork_pcs::FriBinius::<Ghash128, Sha256>::with_security(vars, 100, 1).unwrap();
            assert!(matches!(
                Flock::with_pcs(PaddingShapes, 3, dense, FlockConfig::default()),
                Err(SetupError::PcsVars { expected: 9, found }) if found == vars
            ));
        }
        let dense =
            flockwork_pcs::FriBinius::<Ghash128, Sha256>::with_security(m - 7, 100, 1).unwrap();
        let flock = Flock::with_pcs(PaddingShapes, 3, dense, FlockConfig::default()).unwrap();
        assert_eq!((flock.num_vars(), flock.instances()), (m, 8));
    }

    /// `for_count` takes the least `k` that holds the count; zero instances are refused.
    #[test]
    fn counts_take_the_least_batch_that_holds_them() {
        for (n, k) in [(1, 0), (2, 1), (5, 3), (8, 3), (9, 4)] {
            let flock = Flock::for_count(PaddingShapes, n, FlockConfig::default()).unwrap();
            assert_eq!((flock.instances(), flock.log_instances()), (n, k));
        }
        assert!(matches!(
            Flock::for_count(PaddingShapes, 0, FlockConfig::default()),
            Err(SetupError::TooManyInstances { log_instances: 0 })
        ));
    }

    /// Region chains: blocks of `2^w` instances at multiples of `2^w`, in order, without
    /// overlap, ending by the last instance — also when the count is set after the regions.
    #[test]
    fn regions_are_checked_at_setup() {
        use flockwork_boolean::{Blake3Compress, io::ChainStep};
        let setup = |n: usize, regions: &[(usize, usize)]| {
            Flock::for_count(Blake3Compress, n, FlockConfig::default())
                .unwrap()
                .region_chains(
                    Blake3Compress::STATE_IN,
                    Blake3Compress::STATE_OUT,
                    regions
                        .iter()
                        .map(|&(offset, log_len)| Region { offset, log_len })
                        .collect(),
                )
        };
        for (n, regions) in [
            (7, &[(0, 2), (4, 1), (6, 0)][..]),
            (8, &[(0, 1), (4, 2)][..]),
            (8, &[(0, 2), (4, 2)][..]),
            (8, &[(0, 3)][..]),
            (6, &[(4, 1)][..]),
        ] {
            let flock = setup(n, regions).unwrap();
            let (_, set) = flock.regions().unwrap();
            assert_eq!(set.len(), regions.len(), "{regions:?} in {n}");
        }
        for (n, regions) in [
            (8, &[][..]),
            (8, &[(2, 2)][..]),
            (8, &[(4, 1), (0, 1)][..]),
            (8, &[(0, 2), (2, 1)][..]),
            (8, &[(0, 2), (3, 0)][..]),
            (6, &[(0, 2), (4, 2)][..]),
            (5, &[(4, 1)][..]),
            (8, &[(0, 4)][..]),
            (8, &[(0, 64)][..]),
        ] {
            assert!(
                matches!(setup(n, regions), Err(SetupError::ChainLayout(_))),
                "{regions:?} in {n}"
            );
        }
        let regions = &[(0, 2), (4, 1)][..];
        for (n, fits) in [(8, true), (6, true), (5, false), (1, false)] {
            let flock = setup(8, regions).unwrap().with_instances(n);
            assert_eq!(flock.is_ok(), fits, "{n}");
            if !fits {
                assert!(matches!(flock, Err(SetupError::ChainLayout(_))));
            }
        }
    }

    /// A Merkle setup keeps at least 2 leaves when its count is set after its layout.
    #[test]
    fn a_tree_keeps_two_leaves_when_its_count_changes() {
        use flockwork_boolean::{Blake3Compress, io::MerkleNode};
        let tree = || {
            Flock::new(Blake3Compress, 2, FlockConfig::default())
                .unwrap()
                .merkle_tree(
                    Blake3Compress::CHILDREN,
                    Blake3Compress::DIGEST,
                    Blake3Compress.fixed_inputs(),
                )
                .unwrap()
        };
        assert!(matches!(
            tree().with_instances(1),
            Err(SetupError::MerkleLayout(_))
        ));
        for n in 2..=4 {
            assert_eq!(tree().with_instances(n).unwrap().instances(), n);
        }
    }

    /// Eight blocks of [`PaddingShapes`] whose row `p` is edited to `z·z = z`: true of every
    /// bit, so an honest witness satisfies it, but it leaves bit `p` free in a padding block.
    /// No builder gadget has such a row (every one forces its padding); the edit stands for one
    /// that would.
    fn unforced(p: usize) -> Flock<PaddingShapes> {
        let mut flock = Flock::new(PaddingShapes, 3, FlockConfig::default()).unwrap();
        let z = flock.lowering.node_id(1 + p);
        flock.lowering.set_row(p, [z, z]);
        flock.r1cs_digest = digest_lowering(&flock.lowering);
        flock
    }

    /// The edited rows: an input bit, the output bit `¬1` (a constant) and an AND bit in the
    /// middle of the chain (the chain's later layers read it, so they are free too; the first
    /// free bit is named).
    fn edited_rows() -> [usize; 3] {
        let layout = PaddingShapes.layout();
        let first_and = layout.const_position() + 2; // after the materialized `¬1`
        [
            layout.positions(SlotId(0)).start + 77,
            layout.positions(SlotId(1)).start,
            first_and + 256 * 13 + 100,
        ]
    }

    #[test]
    fn padding_that_leaves_a_bit_free_is_refused_below_capacity() {
        for p in edited_rows() {
            assert_eq!(padding::unforced_column(&unforced(p).lowering), Some(p));
            for n in [1, 5, 7] {
                assert!(
                    matches!(
                        unforced(p).with_instances(n),
                        Err(SetupError::PaddingNotForced { column }) if column == p
                    ),
                    "row {p} at {n} instances"
                );
            }
        }
        // The gadget itself pads at every count.
        for n in 1..8 {
            let flock = Flock::new(PaddingShapes, 3, FlockConfig::default()).unwrap();
            assert_eq!(flock.with_instances(n).unwrap().instances(), n);
        }
    }

    /// At capacity there is no padding: the edited setups are accepted, and prove and verify
    /// all eight instances (the sides of row `p` are now `z_p`, `z_p`).
    #[test]
    fn padding_that_leaves_a_bit_free_proves_at_capacity() {
        let words = PaddingShapes.layout().vector_bits(SlotKind::Input) / 64;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(56);
        let inputs: Vec<u64> = (0..8 * words).map(|_| rng.random()).collect();
        for p in edited_rows() {
            let flock = unforced(p).with_instances(8).unwrap();
            assert_eq!(flock.instances(), 8);
            let mut witness = batch_witness(&PaddingShapes, &inputs, true);
            let block = witness.block_words();
            let bits: Vec<u64> = (0..8).map(|k| u64::from(witness.bit(k, p))).collect();
            let (a, b) = witness.sides.as_mut().unwrap();
            for (k, bit) in bits.into_iter().enumerate() {
                for side in [&mut *a, &mut *b] {
                    let word = &mut side[k * block + p / 64];
                    *word = (*word & !(1 << (p % 64))) | bit << (p % 64);
                }
            }
            assert_eq!(flock.lowering.first_violation(&witness.z, 8), None);
            let (proof, _) = flock.prove_witness(&witness, &Statement::Batch).unwrap();
            flock.verify(&Statement::Batch, proof.as_bytes()).unwrap();
        }
    }
}
