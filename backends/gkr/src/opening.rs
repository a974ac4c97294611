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
//! ([`Setup::layer0_digests`]; statements from [`Setup::committed_statement`]); the verifier
//! recomputes the digests and rejects a statement that carries others, so the commitment is
//! fixed before the first challenge of every walk.
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

use flockwork_core::PolynomialCommitment;
use flockwork_core::layered::LayeredRelation;
use flockwork_core::pcs::{Claim, extension_claims};
use flockwork_field::{ExtensionField, Field};
use flockwork_transcript::{ProverTranscript, TranscriptScheme, VerifierTranscript};
use sha2::{Digest, Sha256};

use crate::batchers::{Setup, Variant};
use crate::statement::Statement;
use crate::walk::{RegionClaim, selector};
use crate::{GkrError, ProveError};

/// Domain separator of the opening's transcript.
const OPENING_PROTOCOL: &str = "flockwork/gkr/layer0-opening/v1";
/// Domain separator of the per-region digests.
const DIGEST_DOMAIN: &[u8] = b"flockwork/gkr/layer0-commitment/v1";
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
        let layout = self.input_layout();
        let mut poly = vec![R::Base::ZERO; 1 << layout.num_vars()];
        let mut row = vec![R::Base::ZERO; t];
        for (a, rows) in witness.iter().enumerate() {
            let offsets: Vec<usize> = (0..t).map(|j| layout.offset(a, j)).collect();
            for (i, input) in rows.chunks_exact(t).enumerate() {
                row.copy_from_slice(input);
                relation.apply_input(&mut row);
                for (&o, &v) in offsets.iter().zip(&row) {
                    poly[o + i] = v;
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

    /// The digest of every region's committed layer on this path ([module docs](self),
    /// "Binding").
    #[must_use]
    pub fn layer0_digests(&self, commitment: &[u8]) -> Vec<[u8; 32]> {
        let t = self.relation().lanes() as u64;
        self.widths()
            .iter()
            .enumerate()
            .map(|(a, &w)| {
                let mut h = Sha256::new();
                h.update(DIGEST_DOMAIN);
                for v in [a as u64, w as u64, t] {
                    h.update(v.to_le_bytes());
                }
                h.update(commitment);
                h.finalize().into()
            })
            .collect()
    }

    /// A true statement about `witness` whose layers are known by `commitment` only
    /// ([`Statement::honest_committed`] with [`Setup::layer0_digests`]).
    ///
    /// # Panics
    /// If the witness does not fit the setup.
    #[must_use]
    pub fn committed_statement(
        &self,
        commitment: &[u8],
        witness: &[Vec<R::Base>],
        seed: &[u8],
    ) -> Statement<R::Base, E> {
        Statement::honest_committed(
            self.relation(),
            witness,
            &self.layer0_digests(commitment),
            seed,
        )
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
        let relation = self.relation();
        let t = relation.lanes();
        let layout = self.input_layout();
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
        statement: &Statement<R::Base, E>,
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
        let (mut proof, terminal) = self.prove_with_terminal(variant, witness, statement)?;
        let claims = self
            .layer0_claims(variant, &terminal)
            .map_err(|_| ProveError::Statement("terminal claims of the wrong shape"))?;
        let mut tr = D::prover(
            OPENING_PROTOCOL,
            &self.opening_instance(variant, commitment.as_ref()),
        );
        pcs.open(data, &claims, &mut tr);
        proof.extend_from_slice(&tr.into_proof());
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
        statement: &Statement<R::Base, E>,
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
        let mut tr = D::verifier(
            OPENING_PROTOCOL,
            &self.opening_instance(variant, commitment.as_ref()),
            opening,
        );
        pcs.verify(commitment, &claims, &mut tr)
            .map_err(GkrError::Opening)?;
        tr.finish()?;
        Ok(())
    }

    /// Whether every region's digest is the one [`Setup::layer0_digests`] derives.
    fn is_bound(&self, statement: &Statement<R::Base, E>, commitment: &[u8]) -> bool {
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
