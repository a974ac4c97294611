//! Committed inputs and outputs for the Boolean GKR ([module docs](super), *Committed inputs
//! and outputs*): the bits of every region's `S_0` and `S_L` in one Boolean polynomial,
//! committed through ring-switching over any dense scheme, the output claims drawn after the
//! commitment and every claim proved by one opening.

use flockwork_core::boolean_layered::{BooleanLayeredRelation, pack_instances};
use flockwork_core::pcs::{Claim, Weight};
use flockwork_core::{PolynomialCommitment, eq_table};
use flockwork_field::Field;
use flockwork_transcript::{ProverTranscript, Transcript, TranscriptScheme, VerifierTranscript};

use super::{
    BooleanGkr, F, IO_COMMITTED, LABEL_POINT, OutputClaim, Terminal, bits_of, check_proof_header,
    packed_evaluations, protocol, weighted,
};
use crate::opening::{open_claims, verify_claims};
use crate::walk::selector;
use crate::{GkrError, InputLayout, ProveError, Variant};

/// Label of a region's output bit point `s'_a`.
pub const LABEL_OUTPUT_BITS: &str = "gkr/boolean/output-bits";
/// Label of the regions' output values `v_a`.
pub const LABEL_OUTPUT_VALUES: &str = "gkr/boolean/output-values";
/// Label of a region's input bit point `s_a`.
pub const LABEL_INPUT_BITS: &str = "gkr/boolean/input-bits";
/// Variables ring-switching packs into one GF(2^128) element: the committed polynomial has
/// at least this many.
pub use flockwork_field_binary::ghash::PACKED_VARS;

/// Why a commitment scheme does not fit the setup.
const WRONG_SIZE: &str = "the commitment scheme's variable count differs from io_bit_vars";

impl<R, D> BooleanGkr<R, D>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    /// `b = ⌈log2 max(w_0, w_L)⌉`: the bit-index variables of a slab.
    #[must_use]
    pub fn bit_vars(&self) -> usize {
        let layers = self.relation.boolean_layers();
        let w = layers.input_width().max(layers.output_width());
        w.next_power_of_two().trailing_zeros() as usize
    }

    /// Where the slabs sit in the committed polynomial: two "lanes" per region (inputs,
    /// outputs), each a slab of `2^{w_a + b}` bits (bit `i` of instance `x` at `i·2^{w_a} +
    /// x`), placed by [`InputLayout`].
    #[must_use]
    pub fn io_layout(&self) -> InputLayout {
        let b = self.bit_vars();
        let slabs: Vec<usize> = self.widths.iter().map(|&w| w + b).collect();
        InputLayout::new(2, &slabs)
    }

    /// Variables of the committed Boolean polynomial: the layout's, at least
    /// [`PACKED_VARS`]. A ring-switched scheme over a dense commitment in
    /// `io_bit_vars() − 7` variables commits it.
    #[must_use]
    pub fn io_bit_vars(&self) -> usize {
        self.io_layout().num_vars().max(PACKED_VARS)
    }

    /// The committed polynomial of the instances whose instance-major input words are
    /// `inputs` (all regions, `N·⌈w_0/64⌉` words): `2^{n−7}` words of 128 bits (bit `v` of
    /// word `y` is entry `128·y + v`), every region's input and output slab.
    ///
    /// # Errors
    /// [`ProveError::Witness`] if `inputs` has the wrong length.
    pub fn io_words(&self, inputs: &[u64]) -> Result<Vec<u128>, ProveError> {
        let layers = self.relation.boolean_layers();
        let (w0, wl) = (layers.input_width(), layers.output_width());
        if inputs.len() != self.count() * w0.div_ceil(64) {
            return Err(ProveError::Witness("input words of the wrong length"));
        }
        let layout = self.io_layout();
        let mut out = vec![0u64; 1 << (self.io_bit_vars() - 6)];
        for (a, &w) in self.widths.iter().enumerate() {
            let words = self.region_words(inputs, w0.div_ceil(64), a);
            let packed = pack_instances::<u64>(w0, words, 1 << w);
            let outputs = layers.evaluate_packed(&packed);
            write_slab(&mut out, layout.offset(a, 0), w, w0, &packed);
            write_slab(&mut out, layout.offset(a, 1), w, wl, &outputs);
        }
        Ok(out
            .chunks_exact(2)
            .map(|p| u128::from(p[0]) | u128::from(p[1]) << 64)
            .collect())
    }

    /// Commits to every region's inputs and outputs with `pcs` ([`BooleanGkr::io_words`]).
    ///
    /// # Errors
    /// [`ProveError::Witness`] if `inputs` does not fit the setup or `pcs` has another number
    /// of variables than [`BooleanGkr::io_bit_vars`].
    pub fn commit_io<P>(
        &self,
        pcs: &P,
        inputs: &[u64],
    ) -> Result<(P::Commitment, P::ProverData), ProveError>
    where
        P: PolynomialCommitment<F, Evals = [u128]>,
    {
        if pcs.num_vars() != self.io_bit_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        Ok(pcs.commit(&self.io_words(inputs)?))
    }

    /// Bytes of one committed walk's transcript over `regions`: the walk and one output
    /// value per region.
    fn io_walk_len(&self, variant: Variant, regions: &[usize]) -> usize {
        F::NUM_BYTES * (self.walk_elements(variant, regions) + regions.len())
    }

    /// Bytes of a committed-IO proof of `variant` before the opening (header included).
    #[must_use]
    pub fn io_walks_len(&self, variant: Variant) -> usize {
        super::HEADER_LEN
            + self
                .walks(variant)
                .iter()
                .map(|regions| self.io_walk_len(variant, regions))
                .sum::<usize>()
    }

    /// `−log2 ε` of committed-IO proofs of `variant` with a commitment of `pcs_bits` (module
    /// docs, "Soundness"): the walks', the output points' `Σ_a (w_a + b)`, the input bit
    /// points' `A·b` and ring-switching's 7, over `|F|`, and the commitment's.
    #[must_use]
    pub fn io_soundness_bits(&self, variant: Variant, pcs_bits: f64) -> f64 {
        let b = self.bit_vars();
        let points: usize = self.widths.iter().map(|&w| w + 2 * b).sum();
        let walk = (-bits_of(self.walk_failures(variant) + (points + PACKED_VARS) as f64)).exp2();
        -(walk + (-pcs_bits).exp2()).log2()
    }

    /// The instance bytes of the committed-IO transcripts: the walk's ‖ the commitment.
    fn io_instance(&self, variant: Variant, region: Option<usize>, commitment: &[u8]) -> Vec<u8> {
        let mut out = self.instance_bytes(variant, IO_COMMITTED, region);
        out.extend_from_slice(commitment);
        out
    }

    /// The points of the committed output claims of `regions`: `z_a` (`w_a` coordinates)
    /// and `s'_a` (`b`), both drawn after the commitment.
    fn output_points<T: Transcript>(&self, tr: &mut T, regions: &[usize]) -> Vec<(Vec<F>, Vec<F>)> {
        let b = self.bit_vars();
        regions
            .iter()
            .map(|&a| {
                let z = tr.challenges::<F>(LABEL_POINT, self.widths[a]);
                (z, tr.challenges::<F>(LABEL_OUTPUT_BITS, b))
            })
            .collect()
    }

    /// The claim `scale·P(point, block of (a, lane)) = value` on the committed polynomial
    /// (`point` the slab's coordinates: instance, then bit index; `Eq` for scale 1,
    /// otherwise the scale in the tensor's low table).
    fn slab_claim(
        &self,
        layout: &InputLayout,
        (a, lane): (usize, usize),
        mut point: Vec<F>,
        scale: F,
        value: F,
    ) -> Claim<F> {
        let n = self.io_bit_vars();
        let block = layout.block(a, lane);
        let high = n - point.len();
        point.extend((0..high).map(|j| if block >> j & 1 == 1 { F::ONE } else { F::ZERO }));
        if scale == F::ONE {
            return Claim::evaluation(point, value);
        }
        let (lo, hi) = point.split_at(PACKED_VARS);
        let low = eq_table(lo).into_iter().map(|e| e * scale).collect();
        Claim {
            weight: Weight::Tensor {
                low,
                high: hi.to_vec(),
            },
            value,
        }
    }

    /// The opening's claims of one walk over `regions`: per region the output claim
    /// `P(z_a, s'_a, out_a) = v_a` and the input claim `χ_a·P(r_{<w_a}, s_a, in_a) =
    /// Σ_i eq(s_a, i)·u_{a,i}` (`χ_a` the padded selector, 1 unpadded).
    fn walk_claims(
        &self,
        regions: &[usize],
        outputs: &[(Vec<F>, Vec<F>)],
        values: &[F],
        terminal: &[Terminal],
        input_bits: &[Vec<F>],
    ) -> Vec<Claim<F>> {
        let layout = self.io_layout();
        let w0 = self.relation.boolean_layers().input_width();
        let mut claims = Vec::with_capacity(2 * regions.len());
        for (i, &a) in regions.iter().enumerate() {
            let (z, s_out) = &outputs[i];
            let point = [&z[..], s_out].concat();
            claims.push(self.slab_claim(&layout, (a, 1), point, F::ONE, values[i]));
            let t = &terminal[i];
            let w = self.widths[a];
            let s = &input_bits[i];
            let value = weighted(&eq_table(s)[..w0], &t.values);
            let chi = selector(&t.point[w..]);
            let point = [&t.point[..w], s].concat();
            claims.push(self.slab_claim(&layout, (a, 0), point, chi, value));
        }
        claims
    }

    /// Proves that the outputs `pcs` committed as `commitment` (with prover data `data`,
    /// [`BooleanGkr::commit_io`]) are the relation of the inputs it committed, `inputs`
    /// being those inputs: the walks, then the one opening.
    ///
    /// # Errors
    /// [`ProveError`] if `inputs` or `pcs` does not fit the setup. Inputs that are not the
    /// committed ones give a proof the verifier rejects.
    pub fn prove_io<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        data: &P::ProverData,
        inputs: &[u64],
    ) -> Result<Vec<u8>, ProveError>
    where
        P: PolynomialCommitment<F, Evals = [u128]>,
    {
        let layers = self.relation.boolean_layers();
        if pcs.num_vars() != self.io_bit_vars() {
            return Err(ProveError::Witness(WRONG_SIZE));
        }
        if inputs.len() != self.count() * layers.input_width().div_ceil(64) {
            return Err(ProveError::Witness("input words of the wrong length"));
        }
        let committed: &[u8] = commitment.as_ref();
        let (mut proof, claims) = flockwork_core::on_worker(|| {
            let traces = super::prover::region_traces(self, variant, inputs);
            let wl = layers.output_width();
            let mut proof = Self::header(variant, IO_COMMITTED);
            let mut claims = Vec::new();
            for regions in self.walks(variant) {
                let single = (variant == Variant::Independent).then_some(regions[0]);
                let mut tr = D::prover(
                    protocol(variant),
                    &self.io_instance(variant, single, committed),
                );
                let points = self.output_points(&mut tr, &regions);
                let starts: Vec<OutputClaim> = regions
                    .iter()
                    .zip(&points)
                    .map(|(&a, (z, s))| {
                        let beta = eq_table(s)[..wl].to_vec();
                        let evals = packed_evaluations(wl, traces[a].output(), z);
                        OutputClaim {
                            z: z.clone(),
                            claim: weighted(&beta, &evals),
                            beta,
                        }
                    })
                    .collect();
                let values: Vec<F> = starts.iter().map(|c| c.claim).collect();
                tr.send_field(LABEL_OUTPUT_VALUES, &values);
                let terminal = super::prover::walk(
                    self,
                    variant,
                    &regions,
                    &traces,
                    starts,
                    &mut tr,
                    super::prover::Strategy::Grid,
                );
                let bits: Vec<Vec<F>> = regions
                    .iter()
                    .map(|_| tr.challenges::<F>(LABEL_INPUT_BITS, self.bit_vars()))
                    .collect();
                claims.extend(self.walk_claims(&regions, &points, &values, &terminal, &bits));
                proof.extend_from_slice(&tr.into_proof());
            }
            (proof, claims)
        });
        let instance = self.io_instance(variant, None, committed);
        proof.extend_from_slice(&open_claims::<F, P, D>(&instance, pcs, data, &claims));
        Ok(proof)
    }

    /// Verifies a proof from [`BooleanGkr::prove_io`] against `commitment`: the walks and
    /// the one opening. Never panics.
    ///
    /// # Errors
    /// [`GkrError::Statement`] if `pcs` does not fit the setup, [`GkrError::Header`],
    /// [`GkrError::Retired`], [`GkrError::ProofLength`] for a proof too short,
    /// [`GkrError::Opening`] for a rejected opening, and the walks' and the transcript's
    /// errors.
    pub fn verify_io<P>(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &P::Commitment,
        proof: &[u8],
    ) -> Result<(), GkrError>
    where
        P: PolynomialCommitment<F, Evals = [u128]>,
    {
        if pcs.num_vars() != self.io_bit_vars() {
            return Err(GkrError::Statement(WRONG_SIZE));
        }
        let mut body = check_proof_header(proof, variant, IO_COMMITTED)?;
        let walks_len = self.io_walks_len(variant);
        if proof.len() < walks_len {
            return Err(GkrError::ProofLength {
                expected: walks_len,
                got: proof.len(),
            });
        }
        let wl = self.relation.boolean_layers().output_width();
        let mut claims = Vec::new();
        for regions in self.walks(variant) {
            let (bytes, rest) = body.split_at(self.io_walk_len(variant, &regions));
            body = rest;
            let single = (variant == Variant::Independent).then_some(regions[0]);
            let mut tr = D::verifier(
                protocol(variant),
                &self.io_instance(variant, single, commitment.as_ref()),
                bytes,
            );
            let points = self.output_points(&mut tr, &regions);
            let values = tr.recv_field::<F>(LABEL_OUTPUT_VALUES, regions.len())?;
            let starts = points
                .iter()
                .zip(&values)
                .map(|((z, s), &claim)| OutputClaim {
                    z: z.clone(),
                    beta: eq_table(s)[..wl].to_vec(),
                    claim,
                })
                .collect();
            let terminal = super::verifier::walk(self, variant, &regions, starts, &mut tr)?;
            let bits: Vec<Vec<F>> = regions
                .iter()
                .map(|_| tr.challenges::<F>(LABEL_INPUT_BITS, self.bit_vars()))
                .collect();
            tr.finish()?;
            claims.extend(self.walk_claims(&regions, &points, &values, &terminal, &bits));
        }
        let instance = self.io_instance(variant, None, commitment.as_ref());
        verify_claims::<F, P, D>(&instance, pcs, commitment, &claims, body)
    }
}

/// Writes the bit-sliced `packed` (`width` words per block of 64 instances, `2^w`
/// instances) as the slab at bit `base` of `out`: bit `i` of instance `x` at
/// `base + i·2^w + x`. The slab is aligned to its size, so a region inside one word
/// (`w < 6`) never straddles two.
fn write_slab(out: &mut [u64], base: usize, w: usize, width: usize, packed: &[u64]) {
    let mask = if w >= 6 {
        !0u64
    } else {
        (1u64 << (1 << w)) - 1
    };
    for (block, words) in packed.chunks_exact(width).enumerate() {
        for (i, &word) in words.iter().enumerate() {
            let pos = base + (i << w) + 64 * block;
            out[pos / 64] |= (word & mask) << (pos % 64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed-IO transcripts start from the committed-IO walk's instance bytes (which
    /// bind the setup, `super::tests::instance_bytes_bind_the_setup`) followed by the
    /// commitment: another commitment, region or batcher gives other bytes.
    #[test]
    fn io_instance_binds_the_walk_and_the_commitment() {
        let setup = BooleanGkr::<_>::new(flockwork_boolean::KeccakF1600::new(), vec![2, 0]);
        let commitment = [7u8; 32];
        let bytes = setup.io_instance(Variant::Ragged, None, &commitment);
        let walk = setup.instance_bytes(Variant::Ragged, IO_COMMITTED, None);
        assert!(bytes.starts_with(&walk) && bytes.ends_with(&commitment));
        assert_eq!(bytes.len(), walk.len() + commitment.len());
        for other in [
            setup.io_instance(Variant::Ragged, None, &[8u8; 32]),
            setup.io_instance(Variant::Padded, None, &commitment),
            setup.io_instance(Variant::Independent, Some(1), &commitment),
        ] {
            assert_ne!(bytes, other);
        }
    }
}
