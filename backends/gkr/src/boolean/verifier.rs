//! The verifier of the Boolean GKR walks ([module docs](super), *The protocol*): scalar,
//! sequential, and panic-free on any proof bytes. Every read has a length fixed by the
//! setup (the proof's total length is checked first), and the only allocations sized by the
//! statement are the eq tables of `2^{w_a}` entries and one value per state bit and region.

use flockwork_core::boolean_layered::BooleanLayeredRelation;
use flockwork_field::Field;
use flockwork_transcript::{TranscriptScheme, VerifierTranscript};

use super::{
    BooleanGkr, BooleanStatement, F, IO_PUBLIC, LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES,
    LABEL_ROUND, OutputClaim, Terminal, check_proof_header, next_layer, protocol,
    public_evaluations, start_layer,
};
use crate::walk::{eq_point, horner, restore_round_poly, selector};
use crate::{GkrError, Variant};

/// Verifies the public-IO `proof` for `statement` under `setup`.
pub(super) fn verify<R, D>(
    setup: &BooleanGkr<R, D>,
    variant: Variant,
    statement: &BooleanStatement,
    proof: &[u8],
) -> Result<(), GkrError>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
{
    setup
        .check_statement(statement)
        .map_err(GkrError::Statement)?;
    let mut body = check_proof_header(proof, variant, IO_PUBLIC)?;
    let expected = setup.proof_len(variant);
    if proof.len() != expected {
        return Err(GkrError::ProofLength {
            expected,
            got: proof.len(),
        });
    }
    let layers = setup.relation.boolean_layers();
    let w0 = layers.input_width();
    for regions in setup.walks(variant) {
        let len = F::NUM_BYTES * setup.walk_elements(variant, &regions);
        let (bytes, rest) = body.split_at(len);
        body = rest;
        let single = (variant == Variant::Independent).then_some(regions[0]);
        let instance = setup.instance_bytes(variant, IO_PUBLIC, single);
        let mut tr = D::verifier(protocol(variant), &instance, bytes);
        let claims = setup.public_claims(&mut tr, statement, &regions);
        let terminal = walk(setup, variant, &regions, claims, &mut tr)?;
        tr.finish()?;
        for (&a, t) in regions.iter().zip(&terminal) {
            let w = setup.widths[a];
            let inputs = setup.region_words(&statement.inputs, w0.div_ceil(64), a);
            let chi = selector(&t.point[w..]);
            let expected = public_evaluations(w0, inputs, &t.point[..w]);
            if expected.iter().zip(&t.values).any(|(&e, &u)| chi * e != u) {
                return Err(GkrError::Terminal { region: a });
            }
        }
    }
    Ok(())
}

/// The verifier's side of [`super::prover::walk`]: returns every region's terminal claim.
pub(super) fn walk<R, D, T>(
    setup: &BooleanGkr<R, D>,
    variant: Variant,
    regions: &[usize],
    claims: Vec<OutputClaim>,
    tr: &mut T,
) -> Result<Vec<Terminal>, GkrError>
where
    R: BooleanLayeredRelation + Sync,
    D: TranscriptScheme,
    T: VerifierTranscript,
{
    let layers = setup.relation.boolean_layers();
    let (big, ks) = setup.walk_shape(variant, regions);
    let (mut zs, mut betas, sums) = start_layer(claims, &ks);
    let mut claim: F = sums.into_iter().sum();
    let mut terminal = Vec::new();
    for l in (1..=layers.num_layers()).rev() {
        let width = layers.width(l - 1);
        let mut r = Vec::with_capacity(big);
        for _ in 0..big {
            let message = tr.recv_field::<F>(LABEL_ROUND, 3)?;
            let poly = restore_round_poly(claim, &message);
            let challenge: F = tr.challenge(LABEL_CHALLENGE);
            claim = horner(&poly, challenge);
            r.push(challenge);
        }
        terminal = Vec::with_capacity(regions.len());
        let mut expected = F::ZERO;
        for ((&k, z), beta) in ks.iter().zip(&zs).zip(&betas) {
            let values = tr.recv_field::<F>(LABEL_LAYER_VALUES, width)?;
            expected +=
                eq_point(z, &r[..k]) * selector(&r[k..]) * layers.layer_term(l, beta, &values);
            terminal.push(Terminal {
                point: r[..k].to_vec(),
                values,
            });
        }
        if claim != expected {
            return Err(GkrError::LayerCheck { layer: l });
        }
        if l > 1 {
            let sums;
            (zs, betas, sums) = next_layer(tr.challenge(LABEL_ALPHA), &terminal);
            claim = sums.into_iter().sum();
        }
    }
    Ok(terminal)
}
