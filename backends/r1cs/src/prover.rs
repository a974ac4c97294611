//! The prover: orchestration of commit, zerocheck, lincheck, IO and opening, with a cost
//! breakdown.

use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use std::borrow::Cow;
use std::time::{Duration, Instant};

use flockwork_circuit::{BatchWitness, Gadget, SlotKind, batch_witness};
use flockwork_core::PolynomialCommitment;
use flockwork_core::pcs::{Claim, Weight};
use flockwork_transcript::{ProverTranscript, Transcript, TranscriptScheme};

use crate::io::sets_padding;
use crate::skip::SKIP_VARS;
use crate::{
    Flock, HEADER_LEN, IoMode, PROOF_MAGIC, PROOF_VERSION, PROTOCOL, Proof, ProveError, Statement,
    io, lincheck, merkle, public, zerocheck,
};

const LABEL_STATEMENT: &str = "flock/statement";
const LABEL_COMMITMENT: &str = "flock/commitment";

/// Wall-clock time of each prover phase (the data behind the paper's cost breakdown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    /// Witness generation (zero when the caller passed a witness).
    pub witness: Duration,
    /// Packing, encoding and Merkle-committing `z`.
    pub commit: Duration,
    /// Skip round and multilinear rounds.
    pub zerocheck: Duration,
    /// Comb vector, instance fold and sumcheck.
    pub lincheck: Duration,
    /// IO claim.
    pub io: Duration,
    /// Ring-switching and the Ligerito opening.
    pub open: Duration,
}

impl Timings {
    /// Sum of all phases.
    #[must_use]
    pub fn total(&self) -> Duration {
        self.witness + self.commit + self.zerocheck + self.lincheck + self.io + self.open
    }
}

impl core::fmt::Display for Timings {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let total = self.total().as_secs_f64().max(f64::MIN_POSITIVE);
        let rows = [
            ("witness", self.witness),
            ("commit", self.commit),
            ("zerocheck", self.zerocheck),
            ("lincheck", self.lincheck),
            ("io", self.io),
            ("open", self.open),
        ];
        for (name, d) in rows {
            let s = d.as_secs_f64();
            writeln!(
                f,
                "  {name:<10} {:>10.3} ms  {:>5.1}%",
                s * 1e3,
                100.0 * s / total
            )?;
        }
        write!(f, "  {:<10} {:>10.3} ms", "total", total * 1e3)
    }
}

/// What the prover reports besides the proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProverReport {
    /// Phase timings.
    pub timings: Timings,
    /// Proof size in bytes.
    pub proof_bytes: usize,
}

/// Absorbs the statement (both sides).
pub(crate) fn absorb_statement<T: Transcript>(statement: &Statement, transcript: &mut T) {
    let mut bytes = Vec::new();
    match statement {
        Statement::Batch => bytes.push(0),
        Statement::Chain { start, end } => {
            bytes.push(1);
            for w in start.iter().chain(end) {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        Statement::Merkle { root, leaves } => {
            bytes.push(2);
            for w in root.iter().chain(leaves.iter().flatten()) {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        Statement::Public { inputs, outputs } => {
            bytes.reserve_exact(8 * (inputs.len() + outputs.len()));
            bytes.push(3);
            for w in inputs.iter().chain(outputs) {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    transcript.public_bytes(LABEL_STATEMENT, &bytes);
}

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>, T: TranscriptScheme> Flock<G, P, T> {
    /// Checks [`Flock::estimated_prover_bytes`] against the configured memory limit; the
    /// provers call it first, and callers that build a witness themselves can call it before.
    ///
    /// # Errors
    /// [`ProveError::MemoryLimit`] if the estimate exceeds the limit.
    pub fn check_memory(&self) -> Result<(), ProveError> {
        match self.config.memory_limit {
            Some(limit) if self.estimated_prover_bytes() > limit => Err(ProveError::MemoryLimit {
                needed_mib: self.estimated_prover_bytes() >> 20,
                limit_mib: limit >> 20,
            }),
            _ => Ok(()),
        }
    }

    /// Generates the batch witness from the instances' input vectors
    /// (`N · input_words` words for the setup's `N` instances, [`Flock::instances`], instance
    /// after instance; see
    /// [`flockwork_circuit::IoLayout`]) and proves `statement`.
    ///
    /// # Errors
    /// [`ProveError`] for inputs or a statement that do not fit the setup, or a batch over the
    /// memory limit ([`Flock::check_memory`]). A statement that is false for these inputs (a wrong chain endpoint) gives a proof the verifier rejects.
    pub fn prove(
        &self,
        inputs: &[u64],
        statement: &Statement,
    ) -> Result<(Proof, ProverReport), ProveError> {
        self.check_inputs(inputs)?;
        let start = Instant::now();
        let witness = batch_witness(&self.gadget, inputs, true);
        let elapsed = start.elapsed();
        let (proof, mut report) = self.prove_witness_owned(witness, statement)?;
        report.timings.witness = elapsed;
        Ok((proof, report))
    }

    /// Checks the memory estimate and the length of the instances' input vectors.
    fn check_inputs(&self, inputs: &[u64]) -> Result<(), ProveError> {
        self.check_memory()?;
        let instances = self.instances;
        let input_words = self.gadget.layout().vector_words(SlotKind::Input);
        if inputs.len() == instances * input_words {
            Ok(())
        } else {
            Err(ProveError::InputLength {
                expected: instances * input_words,
                instances,
                got: inputs.len(),
            })
        }
    }

    /// The commitment that a proof about these instances carries: the batch witness of
    /// `inputs` (as [`Flock::prove`] generates it) committed as the prover commits it. The
    /// witness holds every instance's input and output vector, so the commitment binds them
    /// (and the circuit's internal wires); a caller fixes it before proving and checks a
    /// proof of [`Statement::Batch`] against it with [`Flock::verify_committed`]. Commitments
    /// are deterministic: the proof of these inputs carries exactly these bytes.
    ///
    /// # Errors
    /// As [`Flock::prove`], for inputs that do not fit the setup or a batch over the memory
    /// limit.
    pub fn commit(&self, inputs: &[u64]) -> Result<Vec<u8>, ProveError> {
        self.check_inputs(inputs)?;
        let witness = batch_witness(&self.gadget, inputs, false);
        let m0 = self.lowering.log_block();
        if witness.log_block != m0 || witness.z.len() != self.instances << (m0 - 6) {
            return Err(ProveError::WitnessShape);
        }
        // The zero blocks past the last instance, as the prover commits them.
        let elements = 1usize << (self.num_vars() - 7);
        Ok(flockwork_core::on_worker(|| {
            let packed = pack(&witness.z, elements);
            self.pcs.commit_packed(packed).0.as_ref().to_vec()
        }))
    }

    /// As [`Flock::prove_witness`], taking the witness: its rows are freed as soon as the
    /// prover no longer needs them, so later phases reuse their pages (a lower peak and, on
    /// machines where first-touch page faults are expensive, a faster proof).
    ///
    /// # Errors
    /// As [`Flock::prove_witness`].
    pub fn prove_witness_owned(
        &self,
        mut witness: BatchWitness,
        statement: &Statement,
    ) -> Result<(Proof, ProverReport), ProveError> {
        self.check_witness(&witness)?;
        let (a, b) = witness.sides.take().ok_or(ProveError::WitnessShape)?;
        let z = Cow::Owned(core::mem::take(&mut witness.z));
        let lanes = witness.lanes.take().map(Cow::Owned);
        flockwork_core::on_worker(|| {
            self.prove_rows(z, Cow::Owned(a), Cow::Owned(b), lanes, statement)
        })
    }

    /// Checks the witness's shape against the setup (sides recorded): `N` blocks
    /// ([`batch_witness`] of the real instances' inputs) or all `2^k`.
    fn check_witness(&self, witness: &BatchWitness) -> Result<(), ProveError> {
        let m0 = self.lowering.log_block();
        let instances = witness.instances;
        if !self.fits_witness(instances) {
            return Err(ProveError::WitnessShape);
        }
        let words = instances << (m0 - 6);
        match &witness.sides {
            Some((a, b))
                if witness.log_block == m0
                    && witness.instances == instances
                    && witness.z.len() == words
                    && a.len() == words
                    && b.len() == words
                    && witness
                        .lanes
                        .as_ref()
                        .is_none_or(|l| l.len() == instances.div_ceil(64) << m0) =>
            {
                Ok(())
            }
            _ => Err(ProveError::WitnessShape),
        }
    }

    /// Proves `statement` for a batch witness with recorded sides
    /// ([`batch_witness`] with `record_sides`) of the setup's `N` instances (or of all `2^k`
    /// blocks, the ones past `N` zero). The witness is not checked: an unsatisfying
    /// one gives a proof the verifier rejects (the tests use this to play a cheating prover).
    /// The lincheck folds the recorded lane-order copy [`BatchWitness::lanes`] when the
    /// witness has one (as [`batch_witness`] records it with the sides), and `z` itself
    /// otherwise; a caller that edits `z` clears `lanes` (or records the witness again). The
    /// proof is the same bytes as [`Flock::prove_witness_owned`]'s.
    ///
    /// # Errors
    /// [`ProveError::WitnessShape`] if the witness has the wrong size or no sides;
    /// [`ProveError::Statement`] for a statement that does not fit the setup.
    pub fn prove_witness(
        &self,
        witness: &BatchWitness,
        statement: &Statement,
    ) -> Result<(Proof, ProverReport), ProveError> {
        self.check_witness(witness)?;
        let (a, b) = witness.sides.as_ref().ok_or(ProveError::WitnessShape)?;
        let z = Cow::Borrowed(&witness.z[..]);
        let lanes = witness.lanes.as_deref().map(Cow::Borrowed);
        flockwork_core::on_worker(|| {
            self.prove_rows(z, Cow::Borrowed(a), Cow::Borrowed(b), lanes, statement)
        })
    }

    /// The proof from checked bit rows `z`, `a = A z`, `b = B z` and, if recorded, `z` in
    /// lane order ([`BatchWitness::lanes`], for the lincheck). Owned rows are freed as soon as
    /// they are no longer needed (`z` after the commitment, which keeps it packed; `a`, `b`
    /// after the zerocheck; the lanes after the lincheck), so later phases reuse their pages.
    /// Its callers start it on a worker of rayon's pool ([`flockwork_core::on_worker`]),
    /// whichever thread calls them. Rows of fewer than `2^k` blocks are extended with zero
    /// blocks.
    fn prove_rows(
        &self,
        z: Cow<'_, [u64]>,
        a: Cow<'_, [u64]>,
        b: Cow<'_, [u64]>,
        lanes: Option<Cow<'_, [u64]>>,
        statement: &Statement,
    ) -> Result<(Proof, ProverReport), ProveError> {
        self.check_memory()?;
        self.check_statement(statement)
            .map_err(ProveError::Statement)?;
        let _prove = tracing::info_span!(
            "flock::prove",
            m = self.num_vars(),
            k = self.log_instances,
            pcs = self.pcs.inner().name(),
            transcript = T::NAME
        )
        .entered();
        let mut timings = Timings::default();
        let mut t = T::prover(PROTOCOL, &self.instance_bytes());
        absorb_statement(statement, &mut t);

        let clock = Instant::now();
        let span = tracing::info_span!("commit").entered();
        // The zero blocks past the last instance: the packed polynomial holds them; the sides
        // and the lane copy are read only up to the last instance (or, for fewer than half the
        // blocks, extended with zeros for the multilinear rounds).
        let m0 = self.lowering.log_block();
        let words = 1usize << (self.num_vars() - 6);
        let live_rows = self.instances << (m0 - 6);
        let (a, b) = if a.len() < words / 2 {
            (zero_extend(a, words), zero_extend(b, words))
        } else {
            (a, b)
        };
        let packed = pack(&z, words / 2);
        #[cfg(not(target_endian = "little"))]
        let z = zero_extend(z, words);
        let (commitment, data) = self.pcs.commit_packed(packed);
        self.pcs
            .send_commitment(LABEL_COMMITMENT, &commitment, &mut t);
        #[cfg(target_endian = "little")]
        let z: &[u64] = {
            drop(z);
            Ghash128::slice_as_words(self.pcs.packed(&data))
        };
        #[cfg(not(target_endian = "little"))]
        let z: &[u64] = &z;
        timings.commit = clock.elapsed();
        drop(span);

        let clock = Instant::now();
        let span = tracing::info_span!("zerocheck").entered();
        let zc = zerocheck::prove(&a, &b, z, live_rows, &self.lde, &self.tconv, &mut t);
        drop((a, b));
        timings.zerocheck = clock.elapsed();
        drop(span);

        let clock = Instant::now();
        let span = tracing::info_span!("lincheck").entered();
        let (lc, lc_partials) = lincheck::prove(
            &self.lowering,
            z,
            lanes.as_deref(),
            &zc,
            self.instances,
            &mut t,
        );
        drop(lanes);
        timings.lincheck = clock.elapsed();
        drop(span);

        let clock = Instant::now();
        let span = tracing::info_span!("io").entered();
        let packed_claims = self.io_claims(statement, &mut t);
        timings.io = clock.elapsed();
        drop(span);

        let clock = Instant::now();
        let span = tracing::info_span!("open").entered();
        let claims = opening_claims(&zc, &lc);
        // The z-claim's partial evaluations come from the lincheck's instance fold.
        let known = [None, lc_partials.as_deref()];
        self.pcs
            .open_with_known_partials(&data, &claims, &known, &packed_claims, &mut t);
        timings.open = clock.elapsed();
        drop(span);

        let body = t.into_proof();
        let mut bytes = Vec::with_capacity(HEADER_LEN + body.len());
        bytes.extend_from_slice(&PROOF_MAGIC);
        bytes.extend_from_slice(&PROOF_VERSION.to_le_bytes());
        bytes.extend_from_slice(&self.setup_digest());
        bytes.extend_from_slice(&body);
        let report = ProverReport {
            timings,
            proof_bytes: bytes.len(),
        };
        Ok((Proof(bytes), report))
    }

    /// Checks that the statement's kind and sizes fit the setup.
    pub(crate) fn check_statement(&self, statement: &Statement) -> Result<(), &'static str> {
        match (statement, &self.io) {
            (Statement::Batch, IoMode::None) => Ok(()),
            (Statement::Chain { start, end }, IoMode::Chain(layout)) => {
                if start.len() != layout.state_words() || end.len() != layout.state_words() {
                    Err("chain endpoints have the wrong length")
                } else if [start, end]
                    .iter()
                    .any(|s| sets_padding(s, layout.state_bits))
                {
                    Err("a chain endpoint sets bits past the state's bits")
                } else {
                    Ok(())
                }
            }
            (Statement::Chain { start, end }, IoMode::Regions(layout, regions)) => {
                let n = layout.state_words();
                if start.len() != regions.len() * n || end.len() != regions.len() * n {
                    Err("region chains: one start and one end state per region")
                } else if start
                    .chunks_exact(n)
                    .chain(end.chunks_exact(n))
                    .any(|s| sets_padding(s, layout.state_bits))
                {
                    Err("a chain endpoint sets bits past the state's bits")
                } else {
                    Ok(())
                }
            }
            (Statement::Merkle { root, leaves }, IoMode::Merkle(layout)) => {
                let n = layout.digest_words();
                if leaves.len() != self.instances {
                    Err("a tree over N instances has N leaves")
                } else if root.len() != n || leaves.iter().any(|l| l.len() != n) {
                    Err("a digest has the wrong length")
                } else if core::iter::once(root)
                    .chain(leaves)
                    .any(|d| sets_padding(d, layout.digest_bits))
                {
                    Err("a digest sets bits past the digest's bits")
                } else {
                    Ok(())
                }
            }
            (Statement::Public { inputs, outputs }, IoMode::Public(layout)) => {
                let n = self.instances;
                let fits = |data: &[u64], words: usize| Some(data.len()) == n.checked_mul(words);
                if !fits(inputs, layout.input_words) {
                    Err("public inputs: not N instances × the gadget's input words")
                } else if !fits(outputs, layout.output_words) {
                    Err("public outputs: not N instances × the gadget's output words")
                } else if layout.sets_padding(inputs, outputs) {
                    Err("a public input or output sets bits past the end of its region")
                } else {
                    Ok(())
                }
            }
            (_, IoMode::None) => Err("this setup proves plain batches (Statement::Batch)"),
            (_, IoMode::Chain(_) | IoMode::Regions(..)) => {
                Err("this setup proves chains (Statement::Chain)")
            }
            (_, IoMode::Merkle(_)) => Err("this setup proves Merkle trees (Statement::Merkle)"),
            (_, IoMode::Public(_)) => {
                Err("this setup proves public inputs and outputs (Statement::Public)")
            }
        }
    }

    /// The IO claims on the packed polynomial (prover and verifier; the statement was
    /// checked).
    pub(crate) fn io_claims<Tr: Transcript>(
        &self,
        statement: &Statement,
        transcript: &mut Tr,
    ) -> Vec<Claim<flockwork_field_binary::Ghash128>> {
        let (m0, k) = (self.lowering.log_block(), self.log_instances);
        match (statement, &self.io) {
            (Statement::Chain { start, end }, IoMode::Chain(layout)) => {
                vec![io::chain_claim(
                    layout,
                    m0,
                    k,
                    self.instances,
                    start,
                    end,
                    transcript,
                )]
            }
            (Statement::Chain { start, end }, IoMode::Regions(layout, regions)) => {
                vec![io::region_chains_claim(
                    layout, m0, k, regions, start, end, transcript,
                )]
            }
            (Statement::Merkle { root, leaves }, IoMode::Merkle(layout)) => {
                vec![merkle::merkle_claim(
                    layout, m0, k, root, leaves, transcript,
                )]
            }
            (Statement::Public { inputs, outputs }, IoMode::Public(layout)) => {
                vec![public::public_claim(
                    layout,
                    m0,
                    k,
                    self.instances,
                    inputs,
                    outputs,
                    transcript,
                )]
            }
            _ => Vec::new(),
        }
    }
}

/// `z` packed two words per GF(2^128) element into `len ≥ z.len()/2` elements (zero past
/// `z`), on huge pages and by all threads.
fn pack(z: &[u64], len: usize) -> Vec<Ghash128> {
    let element = |w: [u64; 2]| Ghash128::new(u128::from(w[0]) | (u128::from(w[1]) << 64));
    let pairs = z.as_chunks::<2>().0;
    if pairs.len() == len {
        return flockwork_codes::buffer::mapped(pairs, element);
    }
    let mut packed = flockwork_codes::buffer::zeroed(len, Ghash128::new(0));
    for (p, w) in packed.iter_mut().zip(pairs) {
        *p = element(*w);
    }
    packed
}

/// `rows` extended with zero words to `len` words (the zero blocks past the last instance), in
/// a buffer on huge pages zeroed by all threads ([`flockwork_codes::buffer::zeroed`]) like the
/// witness generator's.
fn zero_extend(rows: Cow<'_, [u64]>, len: usize) -> Cow<'_, [u64]> {
    if rows.len() >= len {
        return rows;
    }
    let mut out = flockwork_codes::buffer::zeroed(len, 0u64);
    out[..rows.len()].copy_from_slice(&rows);
    Cow::Owned(out)
}

/// The Boolean claims: the c-claim at `(ζ, r)` and the lincheck's z-claim.
pub(crate) fn opening_claims(
    zc: &zerocheck::ZerocheckClaims,
    lc: &lincheck::LincheckClaim,
) -> Vec<Claim<flockwork_field_binary::Ghash128>> {
    debug_assert_eq!(zc.lagrange.len(), 1 << SKIP_VARS);
    vec![
        Claim {
            weight: Weight::Tensor {
                low: zc.lagrange.to_vec(),
                high: zc.row_point.clone(),
            },
            value: zc.c_value,
        },
        Claim::evaluation(lc.point.clone(), lc.value),
    ]
}
