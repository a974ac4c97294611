//! The three batchers: [`Independent`], [`Padded`] and [`Ragged`], all proving the same
//! [`Statement`] (per region a committed input layer and the stated outputs) with the same engine
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
//! `"FWGK"` ‖ version `u16` LE ([`PROOF_VERSION`]; [`RETIRED_VERSIONS`] are refused by name)
//! ‖ variant byte (1 independent, 2 padded, 3 ragged) ‖ the transcript bytes of the walk(s)
//! (independent: the regions' transcripts back to back, each of the length the statement
//! determines). A transcript starts from the domain separator `"flockwork/gkr/<variant>/v2"`
//! with instance `id(R) ‖ variant ‖ u64le(A) ‖ u64le(w_a)… [‖ u64le(a)]` (the relation, the
//! batcher, the widths; the region of an independent walk), then absorbs every region's
//! input digest (`"gkr/commitment"`) and output digest (`"gkr/outputs"`, [`OutputLayer`]),
//! and only then squeezes the output points `z_a ∈ E^{w_a}` (`"gkr/point"`), one per region
//! in order; both sides compute the claims `v_a = Ŝ_{L,a}(z_a)` from the stated outputs. The
//! padded walk extends each `z_a` with zeros. A proof carries no point and no claimed value,
//! so the only output claims it can prove are those at the points its statement determines.
//! (The committed-IO path of [`crate::opening`] fixes its output claims in a transcript of
//! its own before the walk; its walks keep protocol `"flockwork/gkr/<variant>/v1"`, which
//! absorbs per region the digest, the point and the values.)
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
//! The stated outputs: if region `a`'s differ from the relation's outputs of its inputs, the
//! difference of their multilinear extensions vanishes at the drawn `z_a` with probability
//! `≤ w_a/|E|`; otherwise the walk starts from a false claim. Per layer of a walk over `W`
//! variables with `A` regions: batching the `t·A` claims with powers of one `α` fails with
//! probability `≤ t·A/|E|`; each of the `W` sumcheck rounds with probability
//! `≤ (deg_l + 1)/|E|`; the final check and the terminal evaluation are exact. The union
//! bound over the regions' points, the layers (and the walks of [`Independent`]) gives
//! `ε ≤ (Σ_a w_a + Σ_walks Σ_l (t·A + W·(deg_l + 1))) / |E|` ([`Setup::soundness_bits`]),
//! with `|E| ≥ 2^ORDER_BITS` and challenges uniform over `E` (GF(2^256): 32 uniform bytes per
//! challenge). This is the interactive (round-by-round) bound; Fiat–Shamir over the
//! transcript (SHA-256, BLAKE3 or the Poseidon2b sponge, [`TranscriptScheme`]) multiplies it
//! by the number of hash (permutation) queries of an attacker, and the digests' binding rests
//! on SHA-256's collision resistance.

use std::marker::PhantomData;

use flockwork_core::layered::{ChangeOfBasis, LayeredRelation};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{TowerWire128, TowerWire256};
use flockwork_transcript::{
    ProverTranscript, Sha256, Transcript, TranscriptScheme, VerifierTranscript,
};

use crate::prover::{ProverConfig, RegionInput, prove_walk};
use crate::statement::{MAX_WIDTH, OutputLayer, RegionStatement, Statement, evaluate_columns};
use crate::verifier::verify_walk;
use crate::walk::{RegionClaim, selector, walk_elements};
use crate::{Ghash128, Ghash256, GkrError, ProveError};

/// Magic bytes that open every proof.
pub const PROOF_MAGIC: [u8; 4] = *b"FWGK";
/// Proof format version. Version 2: the output points are drawn in the walk's transcript
/// from the stated outputs ([module docs](self), "Proof format").
pub const PROOF_VERSION: u16 = 2;
/// Every earlier proof version, with the last commit whose verifier reads it: 1 (output
/// claims at points given by the statement). The verifier refuses them with
/// [`GkrError::Retired`].
pub const RETIRED_VERSIONS: [(u16, &str); 1] = [(1, "dd373e8")];
/// Label of a region's input digest.
pub const LABEL_COMMITMENT: &str = "gkr/commitment";
/// Label of a region's output digest.
pub const LABEL_OUTPUTS: &str = "gkr/outputs";
/// Label of a region's output point `z_a`.
pub const LABEL_POINT: &str = "gkr/point";
/// Label of a region's claimed output values (committed-IO walks only).
pub const LABEL_CLAIM: &str = "gkr/claim";
/// Header length: magic, version, variant.
pub const HEADER_LEN: usize = 7;

pub use flockwork_core::regions::Variant;

/// The transcript's protocol strings of each strategy's walks.
pub(crate) trait Protocols {
    /// Walks from stated outputs (points drawn in the transcript).
    fn protocol(self) -> &'static str;
    /// Walks from output claims fixed before the walk (the committed-IO path,
    /// [`crate::opening`]).
    fn claimed_protocol(self) -> &'static str;
}

impl Protocols for Variant {
    fn protocol(self) -> &'static str {
        match self {
            Variant::Independent => "flockwork/gkr/independent/v2",
            Variant::Padded => "flockwork/gkr/padded/v2",
            Variant::Ragged => "flockwork/gkr/ragged/v2",
        }
    }

    fn claimed_protocol(self) -> &'static str {
        match self {
            Variant::Independent => "flockwork/gkr/independent/v1",
            Variant::Padded => "flockwork/gkr/padded/v1",
            Variant::Ragged => "flockwork/gkr/ragged/v1",
        }
    }
}

/// What a walk's transcript absorbs before its first challenge, and where its output claims
/// come from ([module docs](self), "Proof format").
#[derive(Clone, Copy, Debug)]
pub(crate) enum Start<'a, F, E> {
    /// Stated outputs: every region's input and output digests absorbed, then the points
    /// squeezed and the values computed from the outputs.
    Outputs(&'a Statement<F>),
    /// Output claims fixed before the walk (the committed-IO path): every region's digest,
    /// point and values absorbed.
    Claims {
        /// The regions' input digests.
        digests: &'a [[u8; 32]],
        /// The regions' output claims.
        claims: &'a [RegionClaim<E>],
    },
}

impl<F: Field, E: ExtensionField<F>> Start<'_, F, E> {
    /// The walk transcript's protocol string.
    fn protocol(&self, variant: Variant) -> &'static str {
        match self {
            Start::Outputs(_) => variant.protocol(),
            Start::Claims { .. } => variant.claimed_protocol(),
        }
    }

    /// Absorbs the regions `regions` of one walk into `transcript` and returns their output
    /// claims (prover and verifier alike). The shapes have been checked
    /// ([`Setup::check_start`]).
    fn begin<T: Transcript>(&self, transcript: &mut T, regions: &[usize]) -> Vec<RegionClaim<E>> {
        match self {
            Start::Outputs(statement) => {
                for &a in regions {
                    let region = &statement.regions[a];
                    transcript.public_bytes(LABEL_COMMITMENT, region.committed.digest());
                    transcript.public_bytes(LABEL_OUTPUTS, region.outputs.digest());
                }
                regions
                    .iter()
                    .map(|&a| {
                        let outputs: &OutputLayer<F> = &statement.regions[a].outputs;
                        let point: Vec<E> = transcript.challenges(LABEL_POINT, outputs.width());
                        let values = evaluate_columns(outputs.columns(), &point);
                        RegionClaim { point, values }
                    })
                    .collect()
            }
            Start::Claims { digests, claims } => regions
                .iter()
                .map(|&a| {
                    transcript.public_bytes(LABEL_COMMITMENT, &digests[a]);
                    transcript.public_field(LABEL_POINT, &claims[a].point);
                    transcript.public_field(LABEL_CLAIM, &claims[a].values);
                    claims[a].clone()
                })
                .collect(),
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

    /// The failure events of the walk(s) of `variant`, in units of `1/|E|` (module docs,
    /// "Soundness"): per walk and layer `t·A + W·(deg_l + 1)`.
    fn walk_failures(&self, variant: Variant) -> f64 {
        let t = self.relation.lanes() as f64;
        let walk = |width: usize, regions: usize| -> f64 {
            (1..=self.relation.num_layers())
                .map(|l| t * regions as f64 + (width * (self.relation.layer_degree(l) + 1)) as f64)
                .sum()
        };
        match variant {
            Variant::Independent => self.widths.iter().map(|&w| walk(w, 1)).sum(),
            _ => walk(self.max_width(), self.widths.len()),
        }
    }

    /// `−log2 ε` for `variant` (module docs, "Soundness"): the output points' `Σ_a w_a` and
    /// the walks' failure events over `|E|`.
    #[must_use]
    pub fn soundness_bits(&self, variant: Variant) -> f64 {
        let points: usize = self.widths.iter().sum();
        let failures = self.walk_failures(variant) + points as f64;
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
    fn check_statement(&self, statement: &Statement<R::Base>) -> Result<(), &'static str> {
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
            if region.outputs.width() != w {
                return Err("output width differs from the setup");
            }
            if region.outputs.columns().len() != t {
                return Err("outputs have the wrong number of lanes");
            }
        }
        Ok(())
    }

    /// Checks the shape of a walk's start against the setup.
    fn check_start(&self, start: &Start<'_, R::Base, E>) -> Result<(), &'static str> {
        match start {
            Start::Outputs(statement) => self.check_statement(statement),
            Start::Claims { digests, claims } => {
                let t = self.relation.lanes();
                if digests.len() != self.widths.len() || claims.len() != self.widths.len() {
                    return Err("region count differs from the setup");
                }
                for (claim, &w) in claims.iter().zip(&self.widths) {
                    if claim.point.len() != w {
                        return Err("output point length differs from the width");
                    }
                    if claim.values.len() != t {
                        return Err("output claim has the wrong number of values");
                    }
                }
                Ok(())
            }
        }
    }

    /// The regions each walk of `variant` covers: one walk per region, or one over all.
    fn walks(&self, variant: Variant) -> Vec<Vec<usize>> {
        match variant {
            Variant::Independent => (0..self.widths.len()).map(|a| vec![a]).collect(),
            _ => vec![(0..self.widths.len()).collect()],
        }
    }

    /// The instance bytes of the walk over `regions` (its region for an independent walk).
    fn walk_instance(&self, variant: Variant, regions: &[usize]) -> Vec<u8> {
        let region = match variant {
            Variant::Independent => regions.first().copied(),
            _ => None,
        };
        self.instance_bytes(variant, region)
    }

    /// The output claims of the walk over `regions` as the walk starts from them: the padded
    /// walk's points extended with zeros to `W` coordinates.
    fn walk_claims(&self, variant: Variant, claims: Vec<RegionClaim<E>>) -> Vec<RegionClaim<E>> {
        let big = self.max_width();
        claims
            .into_iter()
            .map(|mut claim| {
                if variant == Variant::Padded {
                    claim.point.resize(big, E::ZERO);
                }
                claim
            })
            .collect()
    }

    /// Proves `statement` — the instances `witness[a]` of region `a` (`t · 2^{w_a}` input
    /// values, row after row) give the stated outputs — with `variant`; returns the proof
    /// bytes. The output points are drawn in the transcript ([module docs](self), "Proof
    /// format"); a witness or outputs that do not satisfy the relation give a proof the
    /// verifier rejects.
    ///
    /// # Errors
    /// [`ProveError`] if the statement or the witness does not fit the setup.
    pub fn prove(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        statement: &Statement<R::Base>,
    ) -> Result<Vec<u8>, ProveError> {
        self.prove_with_terminal(variant, witness, Start::Outputs(statement))
            .map(|(proof, _)| proof)
    }

    /// [`Setup::prove`] from `start`, also returning the terminal claims on `S_0` (one per
    /// region, as [`Setup::verify_walks`] returns them). It runs on a worker of rayon's pool
    /// ([`flockwork_core::on_worker`]), whichever thread calls it.
    pub(crate) fn prove_with_terminal(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        start: Start<'_, R::Base, E>,
    ) -> Result<(Vec<u8>, Vec<RegionClaim<E>>), ProveError> {
        flockwork_core::on_worker(|| self.prove_with_terminal_here(variant, witness, start))
    }

    /// The body of [`Setup::prove_with_terminal`], which starts it on a worker of rayon's
    /// pool.
    fn prove_with_terminal_here(
        &self,
        variant: Variant,
        witness: &[Vec<R::Base>],
        start: Start<'_, R::Base, E>,
    ) -> Result<(Vec<u8>, Vec<RegionClaim<E>>), ProveError> {
        self.check_start(&start).map_err(ProveError::Statement)?;
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
        let mut terminal = Vec::with_capacity(self.widths.len());
        for regions in self.walks(variant) {
            let instance = self.walk_instance(variant, &regions);
            let mut tr = D::prover(start.protocol(variant), &instance);
            let claims = self.walk_claims(variant, start.begin(&mut tr, &regions));
            let inputs: Vec<RegionInput<'_, R::Base>> = regions
                .iter()
                .zip(&claims)
                .map(|(&a, claim)| RegionInput {
                    width: claim.point.len(),
                    inputs: &witness[a],
                    padding: &zero,
                })
                .collect();
            terminal.extend(prove_walk(
                &self.relation,
                &self.config,
                &inputs,
                claims,
                &mut tr,
            ));
            proof.extend_from_slice(&tr.into_proof());
        }
        Ok((proof, terminal))
    }

    /// Verifies `proof` for `statement` with `variant`: the walk(s) from the output claims
    /// the transcript draws from the stated outputs ([`Self::verify_walks`]), then the
    /// terminal claims against the committed columns ([`Self::discharge`]). Accepts only if
    /// the stated inputs give the stated outputs, every instance (up to the soundness error,
    /// [`Setup::soundness_bits`]). Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check.
    pub fn verify(
        &self,
        variant: Variant,
        statement: &Statement<R::Base>,
        proof: &[u8],
    ) -> Result<(), GkrError> {
        let terminal = self.verify_walks(variant, statement, proof)?;
        self.discharge(statement, &terminal)
    }

    /// Verifies the GKR walk(s) of `proof`, started from the output claims the transcript
    /// draws from `statement`'s outputs, and returns the terminal claims on every region's
    /// committed layer `S_0`, which the caller must still check (with [`Self::discharge`],
    /// or against a commitment opening). For [`Variant::Padded`] the points have `W`
    /// coordinates (padded layer), otherwise `w_a`. Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check.
    pub fn verify_walks(
        &self,
        variant: Variant,
        statement: &Statement<R::Base>,
        proof: &[u8],
    ) -> Result<Vec<RegionClaim<E>>, GkrError> {
        self.verify_walks_from(variant, Start::Outputs(statement), proof)
    }

    /// [`Setup::verify_walks`] from `start`.
    pub(crate) fn verify_walks_from(
        &self,
        variant: Variant,
        start: Start<'_, R::Base, E>,
        proof: &[u8],
    ) -> Result<Vec<RegionClaim<E>>, GkrError> {
        self.check_start(&start).map_err(GkrError::Statement)?;
        let (header, body) = proof.split_at_checked(HEADER_LEN).ok_or(GkrError::Header)?;
        if header[..4] != PROOF_MAGIC {
            return Err(GkrError::Header);
        }
        let version = u16::from_le_bytes([header[4], header[5]]);
        if let Some(&(version, commit)) = RETIRED_VERSIONS.iter().find(|(v, _)| *v == version) {
            return Err(GkrError::Retired { version, commit });
        }
        if version != PROOF_VERSION || header[6] != variant as u8 {
            return Err(GkrError::Header);
        }
        let expected = self.proof_len(variant);
        if proof.len() != expected {
            return Err(GkrError::ProofLength {
                expected,
                got: proof.len(),
            });
        }
        let mut rest = body;
        let mut terminal = Vec::with_capacity(self.widths.len());
        for regions in self.walks(variant) {
            let width = match variant {
                Variant::Independent => self.widths[regions[0]],
                _ => self.max_width(),
            };
            let len = E::NUM_BYTES * walk_elements(&self.relation, width, regions.len());
            let (mine, tail) = rest.split_at_checked(len).ok_or(GkrError::ProofLength {
                expected,
                got: proof.len(),
            })?;
            rest = tail;
            let instance = self.walk_instance(variant, &regions);
            let mut tr = D::verifier(start.protocol(variant), &instance, mine);
            let claims = self.walk_claims(variant, start.begin(&mut tr, &regions));
            terminal.extend(verify_walk(&self.relation, claims, &mut tr)?);
            tr.finish()?;
        }
        Ok(terminal)
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
        statement: &Statement<R::Base>,
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
        region: &RegionStatement<R::Base>,
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
    /// [`Self::to_tower`]'s [`Setup::verify`] on the same proof bytes; the tower verifier
    /// draws the same output points (as tower elements) and evaluates the mapped outputs
    /// there. Never panics.
    ///
    /// # Errors
    /// [`GkrError`] naming the failed check, as [`Self::verify`].
    pub fn verify_in_tower(
        &self,
        variant: Variant,
        statement: &Statement<Ghash128>,
        proof: &[u8],
    ) -> Result<(), GkrError> {
        self.to_tower()
            .verify(variant, &statement.to_tower(), proof)
    }
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

            /// The number of instances: `Σ_a 2^{w_a}`.
            #[must_use]
            pub fn instances(&self) -> usize {
                self.0.widths().iter().map(|&w| 1usize << w).sum()
            }

            /// Proves `statement` about the regions' inputs `witness` with this strategy
            /// ([`Setup::prove`]); returns the proof bytes. A false statement is not an
            /// error: its proof fails verification.
            ///
            /// # Errors
            /// [`ProveError`] when the inputs do not fit the setup.
            pub fn prove_batch(
                &self,
                witness: &[Vec<R::Base>],
                statement: &Statement<R::Base>,
            ) -> Result<Vec<u8>, ProveError> {
                self.0.prove($variant, witness, statement)
            }

            /// Verifies proof bytes for `statement` with this strategy ([`Setup::verify`]);
            /// never panics, whatever the bytes.
            ///
            /// # Errors
            /// [`GkrError`] naming the failed check.
            pub fn verify_batch(
                &self,
                statement: &Statement<R::Base>,
                proof: &[u8],
            ) -> Result<(), GkrError> {
                self.0.verify($variant, statement, proof)
            }

            /// Bits of soundness of this strategy ([`Setup::soundness_bits`]).
            #[must_use]
            pub fn soundness_bits(&self) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use flockwork_poseidon2b::Poseidon2bRelation;

    type P2bSetup = Setup<Poseidon2bRelation, Ghash256>;

    /// A dishonest prover: it absorbs the statement as the honest one does, then starts the
    /// walk from claims at the points `choose(a, drawn point)` (with the true values of the
    /// stated outputs there) instead of the drawn ones.
    fn prove_at(
        setup: &P2bSetup,
        variant: Variant,
        inputs: &[Vec<Ghash128>],
        statement: &Statement<Ghash128>,
        choose: impl Fn(usize, &[Ghash256]) -> Vec<Ghash256>,
    ) -> Vec<u8> {
        let t = setup.relation.lanes();
        let zero = vec![Ghash128::ZERO; t];
        let mut proof = PROOF_MAGIC.to_vec();
        proof.extend_from_slice(&PROOF_VERSION.to_le_bytes());
        proof.push(variant as u8);
        let start = Start::<Ghash128, Ghash256>::Outputs(statement);
        for regions in setup.walks(variant) {
            let mut tr =
                Sha256::prover(variant.protocol(), &setup.walk_instance(variant, &regions));
            let drawn = start.begin(&mut tr, &regions);
            let chosen = regions
                .iter()
                .zip(drawn)
                .map(|(&a, claim)| {
                    let point = choose(a, &claim.point);
                    let values = statement.regions[a].outputs.evaluate(&point).unwrap();
                    RegionClaim { point, values }
                })
                .collect();
            let claims = setup.walk_claims(variant, chosen);
            let regions: Vec<RegionInput<'_, Ghash128>> = regions
                .iter()
                .zip(&claims)
                .map(|(&a, claim)| RegionInput {
                    width: claim.point.len(),
                    inputs: &inputs[a],
                    padding: &zero,
                })
                .collect();
            prove_walk(&setup.relation, &setup.config, &regions, claims, &mut tr);
            proof.extend_from_slice(&tr.into_proof());
        }
        proof
    }

    /// Inputs of every region: `4 · 2^w` elements from `seed`.
    fn inputs(widths: &[usize], seed: u128) -> Vec<Vec<Ghash128>> {
        widths
            .iter()
            .enumerate()
            .map(|(a, &w)| {
                (0..4u128 << w)
                    .map(|i| Ghash128::new(seed ^ (i * 0x9e37_79b9 + a as u128)))
                    .collect()
            })
            .collect()
    }

    /// A walk from claims at points other than the drawn ones is rejected, even with the
    /// true values of the stated outputs there: the point `0…0` (which covers instance 0
    /// alone) and the drawn point with one coordinate moved. The same dishonest prover at the
    /// drawn points makes the honest proof, so the harness can succeed.
    #[test]
    fn a_walk_at_points_of_the_provers_choice_is_rejected() {
        let widths = vec![2, 0, 3];
        let setup = P2bSetup::new(Poseidon2bRelation::official(), widths.clone());
        let inputs = inputs(&widths, 7);
        let statement = Statement::of_inputs(setup.relation(), &inputs);
        for variant in Variant::ALL {
            let honest = setup.prove(variant, &inputs, &statement).unwrap();
            let same = prove_at(&setup, variant, &inputs, &statement, |_, z| z.to_vec());
            assert_eq!(same, honest, "{variant:?}");
            setup.verify(variant, &statement, &same).unwrap();
            let zeros = prove_at(&setup, variant, &inputs, &statement, |_, z| {
                vec![Ghash256::ZERO; z.len()]
            });
            assert!(
                setup.verify(variant, &statement, &zeros).is_err(),
                "{variant:?}: a walk at 0…0 accepted"
            );
            let moved = prove_at(&setup, variant, &inputs, &statement, |a, z| {
                let mut z = z.to_vec();
                if a == 2 {
                    z[1] += Ghash256::ONE;
                }
                z
            });
            assert!(
                setup.verify(variant, &statement, &moved).is_err(),
                "{variant:?}: a walk at a moved point accepted"
            );
        }
    }

    /// A statement whose outputs are true for instance 0 only, proved at `0…0` (the claim a
    /// point-taking verifier would have accepted), is rejected; so is the honest prover's
    /// proof of it.
    #[test]
    fn outputs_true_for_instance_zero_only_are_rejected() {
        let widths = vec![3];
        let setup = P2bSetup::new(Poseidon2bRelation::official(), widths.clone());
        let inputs = inputs(&widths, 11);
        let honest = Statement::of_inputs(setup.relation(), &inputs);
        let mut outputs = honest.outputs();
        for v in &mut outputs[0][4..] {
            *v += Ghash128::ONE;
        }
        let statement = Statement::public(setup.relation(), &inputs, &outputs).unwrap();
        for variant in Variant::ALL {
            let at_zero = prove_at(&setup, variant, &inputs, &statement, |_, z| {
                vec![Ghash256::ZERO; z.len()]
            });
            assert!(setup.verify(variant, &statement, &at_zero).is_err());
            let proof = setup.prove(variant, &inputs, &statement).unwrap();
            assert!(setup.verify(variant, &statement, &proof).is_err());
        }
    }

    /// The points are drawn after every region's digests: another output of any region
    /// moves every point of a shared walk.
    #[test]
    fn every_point_depends_on_every_regions_outputs() {
        let widths = vec![2, 1];
        let setup = P2bSetup::new(Poseidon2bRelation::official(), widths.clone());
        let inputs = inputs(&widths, 13);
        let statement = Statement::of_inputs(setup.relation(), &inputs);
        let mut outputs = statement.outputs();
        outputs[1][7] += Ghash128::ONE;
        let changed = Statement::public(setup.relation(), &inputs, &outputs).unwrap();
        let points = |s: &Statement<Ghash128>| {
            let mut tr = Sha256::prover(Variant::Ragged.protocol(), b"");
            Start::<Ghash128, Ghash256>::Outputs(s)
                .begin(&mut tr, &[0, 1])
                .into_iter()
                .map(|c| c.point)
                .collect::<Vec<_>>()
        };
        let (before, after) = (points(&statement), points(&changed));
        assert_ne!(before[0], after[0]);
        assert_ne!(before[1], after[1]);
    }

    /// The protocol strings of both kinds of walk are distinct, and version the change.
    #[test]
    fn protocol_strings_are_distinct_and_versioned() {
        let mut all: Vec<&str> = Variant::ALL
            .iter()
            .flat_map(|v| [v.protocol(), v.claimed_protocol()])
            .collect();
        assert!(all.iter().all(|p| p.ends_with("/v2") || p.ends_with("/v1")));
        assert!(Variant::ALL.iter().all(|v| v.protocol().ends_with("/v2")));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 6);
    }
}
