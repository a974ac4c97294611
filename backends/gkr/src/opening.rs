//! The layer-0 PCS path: the walk's terminal claims on `S_0` proved by opening a polynomial
//! commitment, so the verifier never holds the committed columns (notes/poseidon2b-gkr.md
//! §(e): "or, optionally, a PCS for layer 0"). Any [`PolynomialCommitment`] over the
//! relation's base field serves (Ligerito, FRI, Blaze over `GF(2^128)`; BaseFold over a
//! prime field), while the walk keeps its challenges in the extension `E`.
//!
//! ## Layout
//!
//! Every region's `t` columns of `S_0 = input_map(input)` form one multilinear polynomial `C`
//! over `F` in `n = ⌈log2 Σ_a t·2^{w_a}⌉` variables ([`InputLayout`]). The columns are placed
//! by decreasing width (ties by region, then lane), back to back; each starts at a multiple
//! of its own length `2^{w_a}`, so column `(a, j)` is one block of the `n − w_a` high
//! variables: `C(x, b_{a,j}) = S_{0,a,j}(x)` for `x ∈ {0,1}^{w_a}`. The rest of `C` is zero.
//!
//! ## Binding
//!
//! The walk absorbs one digest per region in place of the committed columns' hash. On this
//! path region `a`'s digest is
//! `SHA-256("flockwork/gkr/layer0-commitment/v1" ‖ u64le(a) ‖ u64le(w_a) ‖ u64le(t) ‖ commitment)`
//! ([`Setup::layer0_digests`]; statements from [`Setup::committed_statement`], which adds the
//! stated outputs); the verifier recomputes the digests and rejects a statement that carries
//! others, so the commitment is fixed before the first challenge of every walk. The walk's
//! transcript absorbs these digests and the outputs' digests before it draws the output
//! points ([`crate::batchers`], "Proof format"): the statement is "the committed inputs give
//! these outputs, every instance", the outputs in the clear (the verifier evaluates their
//! multilinear extensions at the drawn points, `O(t · 2^{w_a})` per region), the inputs
//! known by the commitment only.
//!
//! ## From terminal claims to base-field claims
//!
//! Region `a` ends with `ρ` (`w_a` coordinates; `W` for [`Variant::Padded`], whose padding
//! rows hold `p_0`, the zero input's layer) and values `u_j`, claiming
//! `χ·S_{0,a,j}(ρ_{<w_a}) + (1 − χ)·p_{0,j} = u_j` with `χ = Π_{k ≥ w_a} (1 − ρ_k)` (`χ = 1`
//! unpadded). That is the linear claim `⟨C, χ·eq(ρ_{<w_a}, ·)·[x_hi = b_{a,j}]⟩ =
//! u_j − (1 − χ)·p_{0,j}` with an `E`-valued weight, which splits exactly into `[E : F]`
//! claims over `F` ([`flockwork_core::pcs::ExtensionEq`]: coordinates in the basis of `E`).
//! The commitment proves all `A·t·[E : F]` of them in one opening.
//!
//! ## Proof format and soundness
//!
//! The walk proof ([`Setup::prove`], of the length the setup fixes) followed by the opening:
//! the commitment's proof on a transcript of the setup's [`TranscriptScheme`], protocol
//! `"flockwork/gkr/layer0-opening/v1"`, instance = the walk's instance bytes ‖ the
//! commitment. The split is exact, so the error is the walk's ([`Setup::soundness_bits`])
//! plus the commitment's for `A·t·[E : F]` claims ([`Setup::layer0_claims`]).

//!
//! ## Committed inputs and outputs
//!
//! [`Setup::prove_io`] proves that committed outputs are the relation of committed inputs:
//! the polynomial ([`Setup::io_layout`], [`Setup::io_polynomial`]) holds every region's
//! outputs `S_L` beside its inputs, as lanes `t … 2t − 1` of the same layout, so nothing is
//! public but the commitment. Its digests are the ones above with domain
//! `"flockwork/gkr/io-commitment/v1"` and `2t` lanes. A transcript of the setup's scheme,
//! protocol `"flockwork/gkr/committed-io/v1"`, instance = the walk's instance bytes ‖ the
//! commitment, squeezes one output point `z_a ∈ E^{w_a}` per region and receives the
//! prover's values `v_{a,j} = S_{L,a,j}(z_a)`; they are region `a`'s output claim, and the
//! walk (protocol `"flockwork/gkr/<variant>/v1"`, absorbing per region the digest, `z_a` and
//! `v_a`) reduces it to terminal claims on `S_0` as above. One opening proves both: the
//! terminal claims on lanes `j < t`, and `⟨C, eq(z_a, ·)·[x_hi = b_{a,t+j}]⟩ = v_{a,j}` on
//! the output lanes. If the committed outputs differ from the relation of the committed
//! inputs in region `a`, their multilinear extensions differ as polynomials of `w_a`
//! variables, so at the point drawn after the commitment they agree with probability at
//! most `w_a/|E|` (Schwartz–Zippel); otherwise either the walk's claim or the opening is
//! false. The error is the walk's, the commitment's and `Σ_a w_a/|E|`
//! ([`Setup::io_soundness_bits`]). Proof: that transcript's bytes (`A·t` elements of `E`,
//! [`Setup::io_values_len`]), the walk proof, the opening.

use flockwork_core::PolynomialCommitment;
use flockwork_core::layered::LayeredRelation;
use flockwork_core::pcs::{Claim, extension_claims};
use flockwork_field::par::{self, ROW_CHUNK};
use flockwork_field::{ExtensionField, Field};
use flockwork_transcript::{ProverTranscript, Transcript, TranscriptScheme, VerifierTranscript};
use sha2::{Digest, Sha256};

use crate::batchers::{Setup, Start, Variant};
use crate::statement::Statement;
use crate::walk::{RegionClaim, selector};
use crate::{GkrError, ProveError};

/// Domain separator of the opening's transcript.
const OPENING_PROTOCOL: &str = "flockwork/gkr/layer0-opening/v1";
/// Domain separator of the per-region digests.
const DIGEST_DOMAIN: &[u8] = b"flockwork/gkr/layer0-commitment/v1";
/// Domain separator of the per-region digests on the committed-IO path.
const IO_DIGEST_DOMAIN: &[u8] = b"flockwork/gkr/io-commitment/v1";
/// Domain separator of the committed-IO transcript (output points and values).
const IO_PROTOCOL: &str = "flockwork/gkr/committed-io/v1";
/// Why a commitment scheme does not fit the setup.
const WRONG_SIZE: &str = "the commitment scheme's variable count differs from the input layout";

/// Where every column of `S_0` sits in the committed polynomial ([module docs](self),
/// "Layout").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLayout {
    num_vars: usize,
    lanes: usize,
    widths: Vec<usize>,
    /// `blocks[a·t + j]`: the block index of column `(a, j)` over the `n − w_a` high variables.
    blocks: Vec<usize>,
}

impl InputLayout {
    /// The layout of `lanes` columns per region for regions of `2^widths[a]` rows.
    ///
    /// # Panics
    /// If `lanes == 0` or there is no region.
    #[must_use]
    pub fn new(lanes: usize, widths: &[usize]) -> Self {
        assert!(lanes > 0 && !widths.is_empty(), "lanes and regions");
        let mut order: Vec<(usize, usize)> = (0..widths.len())
            .flat_map(|a| (0..lanes).map(move |j| (a, j)))
            .collect();
        // Stable: ties keep region, then lane order.
        order.sort_by_key(|&(a, _)| core::cmp::Reverse(widths[a]));
        let mut blocks = vec![0; widths.len() * lanes];
        let mut offset = 0usize;
        for (a, j) in order {
            // Every earlier column is at least as long, so `offset` is a multiple of 2^{w_a}.
            blocks[a * lanes + j] = offset >> widths[a];
            offset += 1 << widths[a];
        }
        Self {
            num_vars: offset.next_power_of_two().trailing_zeros() as usize,
            lanes,
            widths: widths.to_vec(),
            blocks,
        }
    }

    /// `n`: variables of the committed polynomial.
    #[must_use]
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The block of column `(region, lane)` over the `n − w_region` high variables.
    #[must_use]
    pub fn block(&self, region: usize, lane: usize) -> usize {
        self.blocks[region * self.lanes + lane]
    }

    /// The first entry of column `(region, lane)` in the committed polynomial.
    #[must_use]
    pub fn offset(&self, region: usize, lane: usize) -> usize {
        self.block(region, lane) << self.widths[region]
    }
}

impl<R, E, D> Setup<R, E, D>
where
    R: LayeredRelation + Sync,
    R::Base: 'static,
    E: ExtensionField<R::Base> + 'static,
    D: TranscriptScheme,
{
    /// The layout of the committed polynomial for this setup.
    #[must_use]
    pub fn input_layout(&self) -> InputLayout {
        InputLayout::new(self.relation().lanes(), self.widths())
    }

    /// The polynomial `C` of the [module docs](self) for the instances `witness[a]` (region
    /// `a`: `t · 2^{w_a}` input values, row after row): the input map applied to every row,
    /// each lane written to its column's block.
    ///
    /// # Errors
    /// [`ProveError::Witness`] if the witness does not fit the setup.
    pub fn layer0_polynomial(&self, witness: &[Vec<R::Base>]) -> Result<Vec<R::Base>, ProveError> {
        self.committed_polynomial(witness, false)
    }

    /// The layout of the committed polynomial on the committed-IO path: `2t` lanes per
    /// region, `S_0` in lanes `j < t` and `S_L` in lanes `t + j` ([module docs](self),
    /// "Committed inputs and outputs").
    #[must_use]
    pub fn io_layout(&self) -> InputLayout {
        InputLayout::new(2 * self.relation().lanes(), self.widths())
    }

    /// The committed-IO polynomial ([`Setup::io_layout`]) for the instances `witness[a]`:
    /// every row's `S_0` and, beside it, its outputs `S_L` (every layer applied).
    ///
    /// # Errors
    /// [`ProveError::Witness`] if the witness does not fit the setup.
    pub fn io_polynomial(&self, witness: &[Vec<R::Base>]) -> Result<Vec<R::Base>, ProveError> {
        self.committed_polynomial(witness, true)
    }

    /// [`Setup::layer0_polynomial`], or with the outputs [`Setup::io_polynomial`].
    fn committed_polynomial(
        &self,
        witness: &[Vec<R::Base>],
        with_outputs: bool,
    ) -> Result<Vec<R::Base>, ProveError> {
        let relation = self.relation();
        let t = relation.lanes();
        if witness.len() != self.widths().len()
            || witness
                .iter()
                .zip(self.widths())
                .any(|(rows, &w)| rows.len() != t << w)
        {
            return Err(ProveError::Witness("a region does not have t · 2^w values"));
        }
        let (layout, lanes) = if with_outputs {
            (self.io_layout(), 2 * t)
        } else {
            (self.input_layout(), t)
        };
        let mut poly = vec![R::Base::ZERO; 1 << layout.num_vars()];
        for (a, rows) in witness.iter().enumerate() {
            // Rows of `lanes` values: `S_0`, then (with outputs) `S_L`.
            let mut table = vec![R::Base::ZERO; lanes << self.widths()[a]];
            par::for_each_chunk(&mut table, lanes * ROW_CHUNK, 0, |c, chunk| {
                let first = c * ROW_CHUNK;
                for (i, row) in chunk.chunks_exact_mut(lanes).enumerate() {
                    let (s0, sl) = row.split_at_mut(t);
                    s0.copy_from_slice(&rows[(first + i) * t..(first + i + 1) * t]);
                    relation.apply_input(s0);
                    if with_outputs {
                        sl.copy_from_slice(s0);
                        for layer in 1..=relation.num_layers() {
                            relation.apply_layer(layer, sl);
                        }
                    }
                }
            });
            for j in 0..lanes {
                let o = layout.offset(a, j);
                for (p, row) in poly[o..o + (1 << self.widths()[a])]
                    .iter_mut()
                    .zip(table.chunks_exact(lanes))
                {
                    *p = row[j];
                }
            }
        }
        Ok(poly)
    }

    /// Commits to every region's `S_0` with `pcs` ([`Setup::layer0_polynomial`]).
    ///
    /// # Errors
    /// [`ProveError::Witness`] if the witness does not fit the setup or `pcs` has another
    /// number of variables than [`InputLayout::num_vars`].
    pub fn commit_inputs<P>(
        &self,
        pcs: &P,
        witness: &[Vec<R::Base>],
    ) -> Result<(P::Commitment, P::ProverData), ProveError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        if pcs.num_vars() != self.input_layout().num_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        let poly = self.layer0_polynomial(witness)?;
        Ok(pcs.commit(&poly))
    }

    /// Commits to every region's inputs and outputs with `pcs` ([`Setup::io_polynomial`]).
    ///
    /// # Errors
    /// [`ProveError::Witness`] if the witness does not fit the setup or `pcs` has another
    /// number of variables than [`Setup::io_layout`].
    pub fn commit_io<P>(
        &self,
        pcs: &P,
        witness: &[Vec<R::Base>],
    ) -> Result<(P::Commitment, P::ProverData), ProveError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        if pcs.num_vars() != self.io_layout().num_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        let poly = self.io_polynomial(witness)?;
        Ok(pcs.commit(&poly))
    }

    /// The digest of every region's committed layer on this path ([module docs](self),
    /// "Binding").
    #[must_use]
    pub fn layer0_digests(&self, commitment: &[u8]) -> Vec<[u8; 32]> {
        self.digests(DIGEST_DOMAIN, self.relation().lanes(), commitment)
    }

    /// Per-region digests under `domain` of a commitment with `lanes` columns per region.
    fn digests(&self, domain: &[u8], lanes: usize, commitment: &[u8]) -> Vec<[u8; 32]> {
        region_digests(domain, self.widths(), lanes, commitment)
    }

    /// The statement "the inputs `commitment` commits to ([`Setup::commit_inputs`]) give the
    /// outputs `outputs[a]`" (region `a`: `t · 2^{w_a}` values, row after row), every region's
    /// layer known by its digest ([`Setup::layer0_digests`], [`Statement::committed`]). The
    /// output points are drawn in the walk's transcript after the digests and the outputs
    /// ([`crate::batchers`], "Proof format").
    ///
    /// # Errors
    /// [`GkrError::Statement`] if the outputs do not fit the setup's widths.
    pub fn committed_statement(
        &self,
        commitment: &[u8],
        outputs: &[Vec<R::Base>],
    ) -> Result<Statement<R::Base>, GkrError> {
        let t = self.relation().lanes();
        if outputs.len() != self.widths().len()
            || outputs
                .iter()
                .zip(self.widths())
                .any(|(rows, &w)| rows.len() != t << w)
        {
            return Err(GkrError::Statement(
                "outputs must have t · 2^w values per region of the setup",
            ));
        }
        Statement::committed(t, &self.layer0_digests(commitment), outputs)
    }

    /// The base-field claims on the committed polynomial equivalent to the terminal claims
    /// `terminal` (one per region; [module docs](self), "From terminal claims").
    ///
    /// # Errors
    /// [`GkrError::Statement`] if there is not one claim per region with `t` values at a
    /// point of the variant's length.
    pub fn layer0_claims(
        &self,
        variant: Variant,
        terminal: &[RegionClaim<E>],
    ) -> Result<Vec<Claim<R::Base>>, GkrError> {
        self.terminal_claims(variant, terminal, &self.input_layout())
    }

    /// [`Setup::layer0_claims`] on the inputs' lanes of `layout`.
    fn terminal_claims(
        &self,
        variant: Variant,
        terminal: &[RegionClaim<E>],
        layout: &InputLayout,
    ) -> Result<Vec<Claim<R::Base>>, GkrError> {
        let relation = self.relation();
        let t = relation.lanes();
        if terminal.len() != self.widths().len() {
            return Err(GkrError::Statement("one terminal claim per region"));
        }
        let mut p0 = vec![R::Base::ZERO; t];
        relation.apply_input(&mut p0);
        let mut claims = Vec::with_capacity(terminal.len() * t * E::DEGREE);
        for (a, (claim, &w)) in terminal.iter().zip(self.widths()).enumerate() {
            let expected = match variant {
                Variant::Padded => self.max_width(),
                _ => w,
            };
            if claim.point.len() != expected || claim.values.len() != t {
                return Err(GkrError::Statement("terminal claim of the wrong shape"));
            }
            let (low, tail) = claim.point.split_at(w);
            let chi = selector(tail);
            for (j, (&u, &p)) in claim.values.iter().zip(&p0).enumerate() {
                let value = u - (E::ONE - chi) * p;
                claims.extend(extension_claims::<R::Base, E>(
                    low,
                    chi,
                    layout.num_vars() - w,
                    layout.block(a, j),
                    value,
                ));
            }
        }
        Ok(claims)
    }

    /// Proves `statement` (from [`Setup::committed_statement`]) about `witness`, whose layers
    /// `pcs` committed to as `commitment` with prover data `data`
    /// ([`Setup::commit_inputs`]): the walk proof followed by the opening ([module
    /// docs](self), "Proof format").
    ///
    /// # Errors
    /// [`ProveError`] if the statement, the witness or `pcs` does not fit the setup, or the
    /// statement is not bound to `commitment`.
    pub fn prove_opened<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        data: &P::ProverData,
        witness: &[Vec<R::Base>],
        statement: &Statement<R::Base>,
    ) -> Result<Vec<u8>, ProveError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        if pcs.num_vars() != self.input_layout().num_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        if !self.is_bound(statement, commitment.as_ref()) {
            return Err(ProveError::Statement(
                "the statement's layer digests are not those of the commitment",
            ));
        }
        let (mut proof, terminal) =
            self.prove_with_terminal(variant, witness, Start::Outputs(statement))?;
        let claims = self
            .layer0_claims(variant, &terminal)
            .map_err(|_| ProveError::Statement("terminal claims of the wrong shape"))?;
        proof.extend_from_slice(&self.open(variant, pcs, commitment, data, &claims));
        Ok(proof)
    }

    /// Verifies a proof from [`Setup::prove_opened`]: the statement's binding to
    /// `commitment`, the walk(s) ([`Setup::verify_walks`]) and the opening of the terminal
    /// claims. Never panics.
    ///
    /// # Errors
    /// [`GkrError::Statement`] for a statement that is not bound to `commitment` or does not
    /// fit the setup, [`GkrError::Opening`] for a rejected opening, and the walk's errors.
    pub fn verify_opened<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        statement: &Statement<R::Base>,
        proof: &[u8],
    ) -> Result<(), GkrError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        if pcs.num_vars() != self.input_layout().num_vars() {
            return Err(GkrError::Statement(WRONG_SIZE));
        }
        if !self.is_bound(statement, commitment.as_ref()) {
            return Err(GkrError::Statement(
                "the statement's layer digests are not those of the commitment",
            ));
        }
        let walk_len = self.proof_len(variant);
        let (walk, opening) = proof
            .split_at_checked(walk_len)
            .ok_or(GkrError::ProofLength {
                expected: walk_len,
                got: proof.len(),
            })?;
        let terminal = self.verify_walks(variant, statement, walk)?;
        let claims = self.layer0_claims(variant, &terminal)?;
        self.verify_opening(variant, pcs, commitment, &claims, opening)
    }

    /// The committed-IO path's per-region digests of `commitment` ([module docs](self),
    /// "Committed inputs and outputs").
    fn io_digests(&self, commitment: &[u8]) -> Vec<[u8; 32]> {
        self.digests(IO_DIGEST_DOMAIN, 2 * self.relation().lanes(), commitment)
    }

    /// Elements of `E` the committed-IO transcript carries: `t` output values per region.
    #[must_use]
    pub fn io_values_len(&self) -> usize {
        self.relation().lanes() * self.widths().len()
    }

    /// Bits of soundness of the committed-IO path with a commitment of `pcs_bits`: the
    /// walk's with the output points' `Σ_a w_a / |E|` ([`Setup::soundness_bits`]) and the
    /// commitment's ([module docs](self), "Committed inputs and outputs").
    #[must_use]
    pub fn io_soundness_bits(&self, variant: Variant, pcs_bits: f64) -> f64 {
        -((-self.soundness_bits(variant)).exp2() + (-pcs_bits).exp2()).log2()
    }

    /// Proves that the outputs `pcs` committed as `commitment` (with prover data `data`,
    /// [`Setup::commit_io`]) are the relation of the inputs it committed, `witness` being
    /// those inputs ([module docs](self), "Committed inputs and outputs").
    ///
    /// # Errors
    /// [`ProveError`] if the witness or `pcs` does not fit the setup. Inputs that are not the
    /// committed ones give a proof the verifier rejects.
    pub fn prove_io<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        data: &P::ProverData,
        witness: &[Vec<R::Base>],
    ) -> Result<Vec<u8>, ProveError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        let layout = self.io_layout();
        if pcs.num_vars() != layout.num_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        // The outputs' values come from the committed polynomial itself: the evaluations the
        // commitment kept, or (for a scheme that keeps none) the polynomial built again.
        let rebuilt;
        let poly = match pcs.committed_evals(data) {
            Some(evals) => evals,
            None => {
                rebuilt = self.io_polynomial(witness)?;
                &rebuilt[..]
            }
        };
        let t = self.relation().lanes();
        let mut tr = D::prover(
            IO_PROTOCOL,
            &self.opening_instance(variant, commitment.as_ref()),
        );
        let claims: Vec<RegionClaim<E>> = self
            .widths()
            .iter()
            .enumerate()
            .map(|(a, &w)| {
                let point: Vec<E> = tr.challenges("gkr/io/point", w);
                let columns: Vec<Vec<R::Base>> = (t..2 * t)
                    .map(|j| {
                        let o = layout.offset(a, j);
                        poly[o..o + (1 << w)].to_vec()
                    })
                    .collect();
                let values = crate::statement::evaluate_columns(&columns, &point);
                RegionClaim { point, values }
            })
            .collect();
        for claim in &claims {
            tr.send_field("gkr/io/outputs", &claim.values);
        }
        let mut proof = tr.into_proof();
        let digests = self.io_digests(commitment.as_ref());
        let start = Start::Claims {
            digests: &digests,
            claims: &claims,
        };
        let (walk, terminal) = self.prove_with_terminal(variant, witness, start)?;
        proof.extend_from_slice(&walk);
        let claims = self
            .io_claims(variant, &claims, &terminal, &layout)
            .map_err(|_| ProveError::Statement("terminal claims of the wrong shape"))?;
        proof.extend_from_slice(&self.open(variant, pcs, commitment, data, &claims));
        Ok(proof)
    }

    /// Verifies a proof from [`Setup::prove_io`] against `commitment`: the output values,
    /// the walk(s) and the one opening. Never panics.
    ///
    /// # Errors
    /// [`GkrError::Statement`] if `pcs` does not fit the setup, [`GkrError::ProofLength`] for
    /// a proof too short, [`GkrError::Opening`] for a rejected opening, and the walk's and
    /// the transcript's errors.
    pub fn verify_io<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        proof: &[u8],
    ) -> Result<(), GkrError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        let layout = self.io_layout();
        if pcs.num_vars() != layout.num_vars() {
            return Err(GkrError::Statement(WRONG_SIZE));
        }
        let t = self.relation().lanes();
        let io_len = E::NUM_BYTES * self.io_values_len();
        let walk_len = self.proof_len(variant);
        let too_short = GkrError::ProofLength {
            expected: io_len + walk_len,
            got: proof.len(),
        };
        let (io, rest) = proof.split_at_checked(io_len).ok_or(too_short.clone())?;
        let (walk, opening) = rest.split_at_checked(walk_len).ok_or(too_short)?;
        let mut tr = D::verifier(
            IO_PROTOCOL,
            &self.opening_instance(variant, commitment.as_ref()),
            io,
        );
        // Every point is drawn before the values are read, as the prover drew them.
        let mut points = Vec::with_capacity(self.widths().len());
        for &w in self.widths() {
            points.push(tr.challenges::<E>("gkr/io/point", w));
        }
        let mut values = Vec::with_capacity(points.len());
        for _ in &points {
            values.push(tr.recv_field::<E>("gkr/io/outputs", t)?);
        }
        tr.finish()?;
        let claims: Vec<RegionClaim<E>> = points
            .into_iter()
            .zip(values)
            .map(|(point, values)| RegionClaim { point, values })
            .collect();
        let digests = self.io_digests(commitment.as_ref());
        let start = Start::Claims {
            digests: &digests,
            claims: &claims,
        };
        let terminal = self.verify_walks_from(variant, start, walk)?;
        let claims = self.io_claims(variant, &claims, &terminal, &layout)?;
        self.verify_opening(variant, pcs, commitment, &claims, opening)
    }

    /// The opening's claims on the committed-IO polynomial: the terminal claims on the input
    /// lanes and the output claims `outputs` on the output lanes.
    fn io_claims(
        &self,
        variant: Variant,
        outputs: &[RegionClaim<E>],
        terminal: &[RegionClaim<E>],
        layout: &InputLayout,
    ) -> Result<Vec<Claim<R::Base>>, GkrError> {
        let t = self.relation().lanes();
        let mut claims = self.terminal_claims(variant, terminal, layout)?;
        for (a, claim) in outputs.iter().enumerate() {
            for (j, &v) in claim.values.iter().enumerate() {
                claims.extend(extension_claims::<R::Base, E>(
                    &claim.point,
                    E::ONE,
                    layout.num_vars() - claim.point.len(),
                    layout.block(a, t + j),
                    v,
                ));
            }
        }
        Ok(claims)
    }

    /// The opening of `claims` on the transcript of this setup's openings.
    fn open<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        data: &P::ProverData,
        claims: &[Claim<R::Base>],
    ) -> Vec<u8>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        let instance = self.opening_instance(variant, commitment.as_ref());
        open_claims::<_, _, D>(&instance, pcs, data, claims)
    }

    /// Verifies [`Setup::open`]'s bytes `opening` for `claims`, every byte read.
    fn verify_opening<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        claims: &[Claim<R::Base>],
        opening: &[u8],
    ) -> Result<(), GkrError>
    where
        P: PolynomialCommitment<R::Base, Evals = [R::Base]>,
    {
        let instance = self.opening_instance(variant, commitment.as_ref());
        verify_claims::<_, _, D>(&instance, pcs, commitment, claims, opening)
    }

    /// Whether every region's digest is the one [`Setup::layer0_digests`] derives.
    fn is_bound(&self, statement: &Statement<R::Base>, commitment: &[u8]) -> bool {
        statement.regions.len() == self.widths().len()
            && statement
                .regions
                .iter()
                .zip(self.layer0_digests(commitment))
                .all(|(r, d)| *r.committed.digest() == d)
    }

    fn opening_instance(&self, variant: Variant, commitment: &[u8]) -> Vec<u8> {
        let mut instance = self.instance_bytes(variant, None);
        instance.extend_from_slice(commitment);
        instance
    }
}

/// Per-region digests under `domain` of a commitment with `lanes` columns per region of
/// `2^{widths[a]}` rows ([module docs](self), "Binding"): `SHA-256(domain ‖ u64le(a) ‖
/// u64le(w_a) ‖ u64le(lanes) ‖ commitment)`.
pub(crate) fn region_digests(
    domain: &[u8],
    widths: &[usize],
    lanes: usize,
    commitment: &[u8],
) -> Vec<[u8; 32]> {
    let t = lanes as u64;
    widths
        .iter()
        .enumerate()
        .map(|(a, &w)| {
            let mut h = Sha256::new();
            h.update(domain);
            for v in [a as u64, w as u64, t] {
                h.update(v.to_le_bytes());
            }
            h.update(commitment);
            h.finalize().into()
        })
        .collect()
}

/// The opening of `claims` by `pcs` on a transcript of scheme `D`, protocol
/// [`OPENING_PROTOCOL`] and `instance` (which ends with the commitment): the opening bytes.
/// Any scheme over any field, dense or ring-switched (Boolean evaluations).
pub(crate) fn open_claims<F, P, D>(
    instance: &[u8],
    pcs: &P,
    data: &P::ProverData,
    claims: &[Claim<F>],
) -> Vec<u8>
where
    F: Field,
    P: PolynomialCommitment<F>,
    D: TranscriptScheme,
{
    let mut tr = D::prover(OPENING_PROTOCOL, instance);
    pcs.open(data, claims, &mut tr);
    tr.into_proof()
}

/// Verifies [`open_claims`]'s bytes `opening` for `claims`, every byte read.
pub(crate) fn verify_claims<F, P, D>(
    instance: &[u8],
    pcs: &P,
    commitment: &P::Commitment,
    claims: &[Claim<F>],
    opening: &[u8],
) -> Result<(), GkrError>
where
    F: Field,
    P: PolynomialCommitment<F>,
    D: TranscriptScheme,
{
    let mut tr = D::verifier(OPENING_PROTOCOL, instance, opening);
    pcs.verify(commitment, claims, &mut tr)
        .map_err(GkrError::Opening)?;
    tr.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_sit_in_aligned_disjoint_blocks() {
        for (lanes, widths) in [
            (4, vec![2, 0, 3]),
            (1, vec![5]),
            (3, vec![1, 1, 4, 0, 2]),
            (6, vec![0, 0]),
        ] {
            let layout = InputLayout::new(lanes, &widths);
            let total: usize = widths.iter().map(|&w| lanes << w).sum();
            assert_eq!(1 << layout.num_vars(), total.next_power_of_two());
            let mut used = vec![false; 1 << layout.num_vars()];
            for (a, &w) in widths.iter().enumerate() {
                for j in 0..lanes {
                    let o = layout.offset(a, j);
                    assert_eq!(o % (1 << w), 0, "aligned");
                    assert!(layout.block(a, j) < 1 << (layout.num_vars() - w));
                    for u in &mut used[o..o + (1 << w)] {
                        assert!(!*u, "overlap");
                        *u = true;
                    }
                }
            }
            assert_eq!(used.iter().filter(|&&u| u).count(), total);
        }
    }
}
