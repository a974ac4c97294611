//! The verifier of the Boolean GKR walk ([module docs](super), *The protocol*): scalar,
//! sequential, and panic-free on any proof bytes. Every read has a length fixed by the
//! setup (the proof's total length is checked first), and the only allocations sized by the
//! statement are the eq tables of `2^k` entries and one value per state bit.

use flockwork_core::boolean_layered::BooleanLayeredRelation;
use flockwork_transcript::{Transcript, TranscriptScheme, VerifierTranscript};

use super::{
    BooleanGkr, BooleanStatement, F, HEADER_LEN, LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES,
    LABEL_ROUND, LAYOUT_SINGLE, PROOF_MAGIC, PROOF_VERSION, PROTOCOL, powers, public_evaluations,
    start_transcript, weighted,
};
use crate::GkrError;
use crate::walk::{eq_point, horner, restore_round_poly};

/// Verifies `proof` for `statement` under `setup`.
pub(super) fn verify<R, D>(
    setup: &BooleanGkr<R, D>,
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
    let header = proof.get(..HEADER_LEN).ok_or(GkrError::Header)?;
    if header[..4] != PROOF_MAGIC
        || header[4..6] != PROOF_VERSION.to_le_bytes()
        || header[6] != LAYOUT_SINGLE
    {
        return Err(GkrError::Header);
    }
    let expected = setup.proof_len();
    if proof.len() != expected {
        return Err(GkrError::ProofLength {
            expected,
            got: proof.len(),
        });
    }
    let layers = setup.relation.boolean_layers();
    let mut tr = D::verifier(PROTOCOL, &setup.instance_bytes(), &proof[HEADER_LEN..]);
    let (mut z, mut beta) = start_transcript(&mut tr, statement, layers.output_width());
    let outputs = public_evaluations(layers.output_width(), &statement.outputs, &z);
    let mut claim = weighted(&beta, &outputs);
    let mut values = Vec::new();
    for l in (1..=layers.num_layers()).rev() {
        let mut r = Vec::with_capacity(setup.log_count);
        for _ in 0..setup.log_count {
            let message = tr.recv_field::<F>(LABEL_ROUND, 3)?;
            let poly = restore_round_poly(claim, &message);
            let challenge: F = tr.challenge(LABEL_CHALLENGE);
            claim = horner(&poly, challenge);
            r.push(challenge);
        }
        values = tr.recv_field::<F>(LABEL_LAYER_VALUES, layers.width(l - 1))?;
        if claim != eq_point(&z, &r) * layers.layer_term(l, &beta, &values) {
            return Err(GkrError::LayerCheck { layer: l });
        }
        z = r;
        if l > 1 {
            let alpha: F = tr.challenge(LABEL_ALPHA);
            beta = powers(alpha, values.len());
            claim = weighted(&beta, &values);
        }
    }
    let inputs = public_evaluations(layers.input_width(), &statement.inputs, &z);
    if inputs != values {
        return Err(GkrError::Terminal { region: 0 });
    }
    tr.finish()?;
    Ok(())
}
