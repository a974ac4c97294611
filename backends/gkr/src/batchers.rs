//! The three batchers: [`Independent`], [`Padded`] and [`Ragged`], all proving the same
//! [`Statement`] (per region a committed layer and an output claim) with the same engine
//! ([`crate::prove_walk`] / [`crate::verify_walk`]); notes/poseidon2b-gkr.md §(b) "The three
//! variants".
//!
//! | batcher | walks | rows the prover touches | proof elements of `E` |
//! |---|---|---|---|
//! | [`Independent`] | one per region, each with a fresh transcript | `Σ_a 2^{w_a}` | `Σ_a Σ_l (w_a·D_l + t)` |
//! | [`Padded`] | one over `W = max_a w_a` variables, every region padded to `2^W` rows | `A·2^W` | `Σ_l (W·D_l + t·A)` |
//! | [`Ragged`] | one over `W` variables, regions at native size with the implicit selector `χ_a` | `Σ_a 2^{w_a}` | `Σ_l (W·D_l + t·A)` |
//!
//! (`D_l = deg_l + 1` coefficients per round: degree `deg_l + 1` with the eq factor, one
//! coefficient restored by the verifier.) The padded walk fills rows `2^{w_a}..2^W` with the
//! states of the zero input and extends each claim point with zeros, so
//! `eq((z_a, 0…0), x) = eq(z_a, x_{<w_a})·χ_a(x_{≥w_a})` and the claim values are unchanged;
//! its terminal claims sit on the padded `S_0`, whose padding rows all equal `p_0`, the
//! committed layer of the zero input: `u = χ_a(ρ_{≥w_a})·S_0,a(ρ_{<w_a}) + (1 − χ_a(ρ_{≥w_a}))·p_0`.
//!
//! ## Proof format
//!
//! `"FWGK"` ‖ version `u16` LE ‖ variant byte (1 independent, 2 padded, 3 ragged) ‖ the
//! transcript bytes of the walk(s) (independent: the regions' transcripts back to back, each
//! of the length the statement determines). A transcript starts from the domain separator
//! `"flockwork/gkr/<variant>/v1"` with instance `id(R) ‖ u64le(A) ‖ u64le(w_a)… [‖ u64le(a)]`,
//! then absorbs per region the commitment digest, the output point and the claimed values.
//! The transcript is the setup's [`TranscriptScheme`] (SHA-256 by default); the proof does not
//! name it, and a proof made with one scheme is rejected by a verifier using another.
//!
//! ## Terminal claims
//!
//! Discharged against the committed columns by direct multilinear evaluation
//! ([`crate::statement`]), in which case the proof holds no PCS opening; or, on the layer-0
//! PCS path ([`crate::opening`]), proved by an opening of a polynomial commitment to every
//! region's `S_0`, appended to the proof.
//!
//! ## Representation boundary
//!
//! The prover computes in the GHASH basis (CLMUL). [`Setup::verify_in_tower`] checks the
//! same proof bytes with a verifier that computes in the binary-tower basis:
//! [`Setup::to_tower`] (the relation's [`ChangeOfBasis`] image, e.g. Poseidon2b's constants
//! mapped by the isomorphism `φ⁻¹: GHASH → T_7`, challenges in [`TowerWire256`]) on
//! [`Statement::to_tower`]. Its fields
//! ([`flockwork_field_binary::tower_wire`]) multiply with the tower recursion but read,
//! write and sample bytes as the GHASH elements they correspond to, so the transcript, the
//! challenges and the evaluation points agree bit for bit, and an accepted proof has been
//! checked by two independent arithmetic implementations.
//!
//! ## Soundness
//!
//! Per layer of a walk over `W` variables with `A` regions: batching the `t·A` claims with
//! powers of one `α` fails with probability `≤ t·A/|E|`; each of the `W` sumcheck rounds
//! with probability `≤ (deg_l + 1)/|E|`; the final check and the terminal evaluation are
//! exact. The union bound over layers (and over the walks of [`Independent`]) gives
//! `ε ≤ Σ_walks Σ_l (t·A + W·(deg_l + 1)) / |E|` ([`Setup::soundness_bits`]), with
//! `|E| ≥ 2^ORDER_BITS` and challenges uniform over `E` (GF(2^256): 32 uniform bytes per
//! challenge). This is the interactive (round-by-round) bound; Fiat–Shamir over the
//! transcript (SHA-256, BLAKE3 or the Poseidon2b sponge, [`TranscriptScheme`]) multiplies it
//! by the number of hash (permutation) queries of an attacker.

use std::marker::PhantomData;

use flockwork_core::EngineBatcher;
use flockwork_core::layered::{ChangeOfBasis, LayeredRelation};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{TowerWire128, TowerWire256};
use flockwork_transcript::{
    ProverTranscript, Sha256, Transcript, TranscriptScheme, VerifierTranscript,
};

use crate::prover::{ProverConfig, RegionInput, prove_walk};
use crate::statement::{MAX_WIDTH, Statement, evaluate_columns};
use crate::verifier::verify_walk;
use crate::walk::{RegionClaim, selector, walk_elements};
use crate::{Ghash128, Ghash256, GkrError, ProveError};

/// Magic bytes that open every proof.
pub const PROOF_MAGIC: [u8; 4] = *b"FWGK";
/// Proof format version.
pub const PROOF_VERSION: u16 = 1;
/// Header length: magic, version, variant.
pub const HEADER_LEN: usize = 7;

/// Which batching strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// One walk per region, separate transcripts.
    Independent = 1,
    /// One walk at the largest width, regions padded.
    Padded = 2,
    /// One walk over native-size regions with implicit selectors.
    Ragged = 3,
}

impl Variant {
    /// All variants.
    pub const ALL: [Variant; 3] = [Variant::Independent, Variant::Padded, Variant::Ragged];

    /// `"independent"`, `"padded"` or `"ragged"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Independent => "independent",
            Variant::Padded => "padded",
            Variant::Ragged => "ragged",
        }
    }

    /// The transcript's protocol string of the Poseidon2b walks.
    pub(crate) const fn protocol(self) -> &'static str {
        match self {
            Variant::Independent => "flockwork/gkr/independent/v1",
            Variant::Padded => "flockwork/gkr/padded/v1",
            Variant::Ragged => "flockwork/gkr/ragged/v1",
        }
    }
}

/// What the three batchers share: the relation, the region widths and the prover settings.
/// `E` is the challenge field, `D` the transcript ([`TranscriptScheme`]: the default
/// [`Sha256`], [`flockwork_transcript::Blake3`] or the Poseidon2b duplex sponge,
/// `flockwork_poseidon2b::Poseidon2bSponge`).
#[derive(Clone, Debug)]
pub struct Setup<R, E, D = Sha256> {
    relation: R,
    widths: Vec<usize>,
    config: ProverConfig,
    _marker: PhantomData<fn() -> (E, D)>,
}

impl<R, E, D> Setup<R, E, D>
where
    R: LayeredRelation + Sync,
    E: ExtensionField<R::Base>,
    D: TranscriptScheme,
{
    /// A setup for regions of `2^widths[a]` instances.
    ///
    /// # Panics
    /// If there is no region or a width exceeds [`MAX_WIDTH`].
    #[must_use]
    pub fn new(relation: R, widths: Vec<usize>) -> Self {
        assert!(!widths.is_empty(), "at least one region");
        assert!(widths.iter().all(|&w| w <= MAX_WIDTH), "region too wide");
        Self {
            relation,
            widths,
            config: ProverConfig::default(),
            _marker: PhantomData,
        }
    }

    /// The same setup with other prover settings (speed and memory only).
    #[must_use]
    pub fn with_config(mut self, config: ProverConfig) -> Self {
        self.config = config;
        self
    }

    /// The relation.
    pub fn relation(&self) -> &R {
        &self.relation
    }

    /// The region widths `w_a`.
    #[must_use]
    pub fn widths(&self) -> &[usize] {
        &self.widths
    }

    /// `W = max_a w_a`.
    #[must_use]
    pub fn max_width(&self) -> usize {
        self.widths.iter().copied().max().unwrap_or(0)
    }

    /// Rows the prover's tables hold for `variant` (`A·2^W` padded, `Σ_a 2^{w_a}` otherwise).
    #[must_use]
    pub fn physical_rows(&self, variant: Variant) -> usize {
        match variant {
            Variant::Padded => self.widths.len() << self.max_width(),
            _ => self.widths.iter().map(|&w| 1usize << w).sum(),
        }
    }

    /// The proof length in bytes for `variant` (header included).
    #[must_use]
    pub fn proof_len(&self, variant: Variant) -> usize {
        HEADER_LEN + E::NUM_BYTES * self.proof_elements(variant)
    }

    fn proof_elements(&self, variant: Variant) -> usize {
        match variant {
            Variant::Independent => self
                .widths
                .iter()
                .map(|&w| walk_elements(&self.relation, w, 1))
                .sum(),
            _ => walk_elements(&self.relation, self.max_width(), self.widths.len()),
        }
    }

    /// `−log2 ε` for `variant` (module docs, "Soundness").
    #[must_use]
    pub fn soundness_bits(&self, variant: Variant) -> f64 {
        let t = self.relation.lanes() as f64;
        let walk = |width: usize, regions: usize| -> f64 {
            (1..=self.relation.num_layers())
                .map(|l| t * regions as f64 + (width * (self.relation.layer_degree(l) + 1)) as f64)
                .sum()
        };
        let failures = match variant {
            Variant::Independent => self.widths.iter().map(|&w| walk(w, 1)).sum(),
            _ => walk(self.max_width(), self.widths.len()),
        };
        f64::from(E::ORDER_BITS) - failures.max(1.0).log2()
    }

    pub(crate) fn instance_bytes(&self, variant: Variant, region: Option<usize>) -> Vec<u8> {
        let mut out = self.relation.id();
        out.push(variant as u8);
        out.extend_from_slice(&(self.widths.len() as u64).to_le_bytes());
        for &w in &self.widths {
            out.extend_from_slice(&(w as u64).to_le_bytes());
        }
        if let Some(a) = region {
            out.extend_from_slice(&(a as u64).to_le_bytes());
        }
        out
    }

    /// Checks the statement's shape against the setup.
    fn check_statement(&self, statement: &Statement<R::Base, E>) -> Result<(), &'static str> {
        let t = self.relation.lanes();
        if statement.regions.len() != self.widths.len() {
            return Err("region count differs from the setup");
        }
        for (region, &w) in statement.regions.iter().zip(&self.widths) {
            if region.committed.width() != w {
                return Err("committed width differs from the setup");
            }
            // A layer known by its commitment only holds no columns (`crate::opening`).
            if region.committed.holds_columns() && region.committed.columns().len() != t {
                return Err("committed layer has the wrong number of columns");
            }
            if region.claim.point.len() != w {
                return Err("output point length differs from the width");
            }
            if region.claim.values.len() != t {
                return Err("output claim has the wrong number of values");
            }
        }
        Ok(())
    }

    /// Proves `statement` about the instances `witness[a]` (region `a`: `t · 2^{w_a}` input
    /// values, row after row) with `variant`; returns the proof bytes.
    ///
    /// # Errors
    /// [`ProveError`] if the statement or the witness does not fit the setup.
    pub fn prove(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        statement: &Statement<R::Base, E>,
    ) -> Result<Vec<u8>, ProveError> {
        self.prove_with_terminal(variant, witness, statement)
            .map(|(proof, _)| proof)
    }

    /// [`Setup::prove`], also returning the terminal claims on `S_0` (one per region, as
    /// [`Setup::verify_walks`] returns them). It runs on a worker of rayon's pool
    /// ([`flockwork_core::on_worker`]), whichever thread calls it.
    pub(crate) fn prove_with_terminal(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        statement: &Statement<R::Base, E>,
    ) -> Result<(Vec<u8>, Vec<RegionClaim<E>>), ProveError> {
        flockwork_core::on_worker(|| self.prove_with_terminal_here(variant, witness, statement))
    }

    /// The body of [`Setup::prove_with_terminal`], which starts it on a worker of rayon's
    /// pool.
    fn prove_with_terminal_here(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        statement: &Statement<R::Base, E>,
    ) -> Result<(Vec<u8>, Vec<RegionClaim<E>>), ProveError> {
        self.check_statement(statement)
            .map_err(ProveError::Statement)?;
        let t = self.relation.lanes();
        if witness.len() != self.widths.len() {
            return Err(ProveError::Witness("region count differs from the setup"));
        }
        if witness
            .iter()
            .zip(&self.widths)
            .any(|(rows, &w)| rows.len() != t << w)
        {
            return Err(ProveError::Witness("a region does not have t · 2^w values"));
        }
        let mut proof = Vec::with_capacity(self.proof_len(variant));
        proof.extend_from_slice(&PROOF_MAGIC);
        proof.extend_from_slice(&PROOF_VERSION.to_le_bytes());
        proof.push(variant as u8);
        let zero = vec![R::Base::ZERO; t];
        let mut terminal = Vec::with_capacity(statement.regions.len());
        match variant {
            Variant::Independent => {
                for (a, (rows, region)) in witness.iter().zip(&statement.regions).enumerate() {
                    let instance = self.instance_bytes(variant, Some(a));
                    let mut tr = D::prover(variant.protocol(), &instance);
                    absorb_region(&mut tr, region);
                    let input = RegionInput {
                        width: region.claim.point.len(),
                        inputs: rows,
                        padding: &zero,
                    };
                    terminal.extend(prove_walk(
                        &self.relation,
                        &self.config,
                        &[input],
                        vec![region.claim.clone()],
                        &mut tr,
                    ));
                    proof.extend_from_slice(&tr.into_proof());
                }
            }
            Variant::Padded | Variant::Ragged => {
                let instance = self.instance_bytes(variant, None);
                let mut tr = D::prover(variant.protocol(), &instance);
                for region in &statement.regions {
                    absorb_region(&mut tr, region);
                }
                let big = self.max_width();
                let (inputs, claims): (Vec<_>, Vec<_>) = witness
                    .iter()
                    .zip(&statement.regions)
                    .map(|(rows, region)| {
                        let mut claim = region.claim.clone();
                        let width = if variant == Variant::Padded {
                            claim.point.resize(big, E::ZERO);
                            big
                        } else {
                            claim.point.len()
                        };
                        let input = RegionInput {
                            width,
                            inputs: rows.as_slice(),
                            padding: zero.as_slice(),
                        };
                        (input, claim)
                    })
                    .unzip();
                terminal = prove_walk(&self.relation, &self.config, &inputs, claims, &mut tr);
                proof.extend_from_slice(&tr.into_proof());
            }
        }
        Ok((proof, terminal))
    }

    /// Verifies `proof` for `statement` with `variant`: the walk(s)
    /// ([`Self::verify_walks`]), then the terminal claims against the committed columns
    /// ([`Self::discharge`]). Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check.
    pub fn verify(
        &self,
        variant: Variant,
        statement: &Statement<R::Base, E>,
        proof: &[u8],
    ) -> Result<(), GkrError> {
        let terminal = self.verify_walks(variant, statement, proof)?;
        self.discharge(statement, &terminal)
    }

    /// Verifies the GKR walk(s) of `proof` and returns the terminal claims on every region's
    /// committed layer `S_0`, which the caller must still check (with [`Self::discharge`],
    /// or against a commitment opening). For [`Variant::Padded`] the points have `W`
    /// coordinates (padded layer), otherwise `w_a`. Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check.
    pub fn verify_walks(
        &self,
        variant: Variant,
        statement: &Statement<R::Base, E>,
        proof: &[u8],
    ) -> Result<Vec<RegionClaim<E>>, GkrError> {
        self.check_statement(statement)
            .map_err(GkrError::Statement)?;
        let (header, body) = proof.split_at_checked(HEADER_LEN).ok_or(GkrError::Header)?;
        if header[..4] != PROOF_MAGIC
            || header[4..6] != PROOF_VERSION.to_le_bytes()
            || header[6] != variant as u8
        {
            return Err(GkrError::Header);
        }
        let expected = self.proof_len(variant);
        if proof.len() != expected {
            return Err(GkrError::ProofLength {
                expected,
                got: proof.len(),
            });
        }
        match variant {
            Variant::Independent => {
                let mut rest = body;
                let mut terminal = Vec::with_capacity(statement.regions.len());
                for (a, region) in statement.regions.iter().enumerate() {
                    let len = E::NUM_BYTES * walk_elements(&self.relation, self.widths[a], 1);
                    let (mine, tail) = rest.split_at_checked(len).ok_or(GkrError::ProofLength {
                        expected,
                        got: proof.len(),
                    })?;
                    rest = tail;
                    let instance = self.instance_bytes(variant, Some(a));
                    let mut tr = D::verifier(variant.protocol(), &instance, mine);
                    absorb_region(&mut tr, region);
                    terminal.extend(verify_walk(
                        &self.relation,
                        vec![region.claim.clone()],
                        &mut tr,
                    )?);
                    tr.finish()?;
                }
                Ok(terminal)
            }
            Variant::Padded | Variant::Ragged => {
                let instance = self.instance_bytes(variant, None);
                let mut tr = D::verifier(variant.protocol(), &instance, body);
                for region in &statement.regions {
                    absorb_region(&mut tr, region);
                }
                let big = self.max_width();
                let claims = statement
                    .regions
                    .iter()
                    .map(|region| {
                        let mut claim = region.claim.clone();
                        if variant == Variant::Padded {
                            claim.point.resize(big, E::ZERO);
                        }
                        claim
                    })
                    .collect();
                let terminal = verify_walk(&self.relation, claims, &mut tr)?;
                tr.finish()?;
                Ok(terminal)
            }
        }
    }

    /// Checks terminal claims on `S_0` (one per region) against the committed columns by
    /// direct multilinear evaluation (module docs, "Terminal claims"; padded points use
    /// `u = χ·S_0(ρ_{<w}) + (1 − χ)·p_0`).
    ///
    /// # Errors
    /// [`GkrError::Statement`] for a statement that does not fit the setup or a wrong
    /// number of claims, [`GkrError::Terminal`] for a false claim.
    pub fn discharge(
        &self,
        statement: &Statement<R::Base, E>,
        terminal: &[RegionClaim<E>],
    ) -> Result<(), GkrError> {
        self.check_statement(statement)
            .map_err(GkrError::Statement)?;
        if terminal.len() != statement.regions.len() {
            return Err(GkrError::Statement("one terminal claim per region"));
        }
        for (a, (region, claim)) in statement.regions.iter().zip(terminal).enumerate() {
            self.discharge_region(a, region, claim)?;
        }
        Ok(())
    }

    /// Checks a terminal claim on `S_0` against the committed columns (module docs); a
    /// point longer than the region's width is a padded point.
    fn discharge_region(
        &self,
        a: usize,
        region: &crate::statement::RegionStatement<R::Base, E>,
        claim: &RegionClaim<E>,
    ) -> Result<(), GkrError> {
        let w = region.committed.width();
        if !region.committed.holds_columns() {
            return Err(GkrError::Statement(
                "the committed layer holds no columns: check it with the PCS opening (crate::opening)",
            ));
        }
        if claim.point.len() < w || claim.values.len() != self.relation.lanes() {
            return Err(GkrError::Terminal { region: a });
        }
        let (native, tail) = claim.point.split_at(w);
        let evals: Vec<E> = evaluate_columns(region.committed.columns(), native);
        let chi = selector(tail);
        let mut p0 = vec![R::Base::ZERO; self.relation.lanes()];
        self.relation.apply_input(&mut p0);
        let ok = evals
            .iter()
            .zip(&p0)
            .zip(&claim.values)
            .all(|((&e, &p), &u)| chi * e + (E::ONE - chi) * p == u);
        if ok {
            Ok(())
        } else {
            Err(GkrError::Terminal { region: a })
        }
    }
}

impl<R, D> Setup<R, Ghash256, D>
where
    R: LayeredRelation<Base = Ghash128> + ChangeOfBasis<TowerWire128> + Sync,
    R::Image: Sync,
    D: TranscriptScheme,
{
    /// The same setup in the binary-tower basis (module docs, "Representation boundary"):
    /// the relation's constants mapped by `φ⁻¹` ([`ChangeOfBasis::change_basis`], e.g.
    /// `Poseidon2bRelation::to_tower`), challenges in [`TowerWire256`], the same widths and
    /// transcript.
    #[must_use]
    pub fn to_tower(&self) -> Setup<R::Image, TowerWire256, D> {
        Setup {
            relation: self.relation.change_basis(),
            widths: self.widths.clone(),
            config: self.config,
            _marker: PhantomData,
        }
    }

    /// Verifies a proof of this (GHASH) setup with every operation of the verifier in tower
    /// arithmetic: maps the statement ([`Statement::to_tower`], digests recomputed) and runs
    /// [`Self::to_tower`]'s [`Setup::verify`] on the same proof bytes. Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check, as [`Self::verify`].
    pub fn verify_in_tower(
        &self,
        variant: Variant,
        statement: &Statement<Ghash128, Ghash256>,
        proof: &[u8],
    ) -> Result<(), GkrError> {
        self.to_tower()
            .verify(variant, &statement.to_tower(), proof)
    }
}

/// Absorbs one region of the statement: commitment digest, output point, claimed values.
fn absorb_region<F: Field, E: ExtensionField<F>, T: Transcript>(
    transcript: &mut T,
    region: &crate::statement::RegionStatement<F, E>,
) {
    transcript.public_bytes("gkr/commitment", region.committed.digest());
    transcript.public_field("gkr/point", &region.claim.point);
    transcript.public_field("gkr/claim", &region.claim.values);
}

macro_rules! batcher {
    ($(#[$doc:meta])* $name:ident, $variant:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name<R, E, D = Sha256>(pub Setup<R, E, D>);

        impl<R, E, D> $name<R, E, D>
        where
            R: LayeredRelation + Sync,
            E: ExtensionField<R::Base>,
            D: TranscriptScheme,
        {
            /// The batcher for regions of `2^widths[a]` instances (see [`Setup::new`]).
            ///
            /// # Panics
            /// If there is no region or a width exceeds [`MAX_WIDTH`].
            #[must_use]
            pub fn new(relation: R, widths: Vec<usize>) -> Self {
                Self(Setup::new(relation, widths))
            }

            /// The strategy.
            pub const VARIANT: Variant = $variant;
        }

        impl<R, E, D> EngineBatcher for $name<R, E, D>
        where
            R: LayeredRelation + Sync,
            E: ExtensionField<R::Base>,
            D: TranscriptScheme,
        {
            type Statement = Statement<R::Base, E>;
            type Witness = [Vec<R::Base>];
            type ProveError = ProveError;
            type VerifyError = GkrError;

            fn instances(&self) -> usize {
                self.0.widths().iter().map(|&w| 1usize << w).sum()
            }

            fn prove_batch(
                &self,
                witness: &[Vec<R::Base>],
                statement: &Self::Statement,
            ) -> Result<Vec<u8>, ProveError> {
                self.0.prove($variant, witness, statement)
            }

            fn verify_batch(&self, statement: &Self::Statement, proof: &[u8]) -> Result<(), GkrError> {
                self.0.verify($variant, statement, proof)
            }

            fn soundness_bits(&self) -> f64 {
                self.0.soundness_bits($variant)
            }
        }
    };
}

batcher!(
    /// One walk per region with its own transcript: `Σ_a 2^{w_a}` rows of work, `A` proofs.
    Independent,
    Variant::Independent
);
batcher!(
    /// One walk at `W = max_a w_a` over regions padded to `2^W` rows: `A·2^W` rows of work.
    Padded,
    Variant::Padded
);
batcher!(
    /// One walk over the native-size regions with the implicit selector
    /// `χ_a(x) = Π_{j=w_a}^{W−1} (1 − x_j)`: `Σ_a 2^{w_a}` rows of work, one proof.
    Ragged,
    Variant::Ragged
);
