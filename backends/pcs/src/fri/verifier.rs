//! The FRI verifier: sequential and panic-free on any proof bytes. Every allocation is bounded
//! by the configuration (at most `Q` leaves per oracle) or by bytes already read.

use digest::Digest;
use flockwork_codes::FoldableCode;
use flockwork_core::pcs::{BatchedClaims, Claim, absorb_claims, check_claim_shapes};
use flockwork_core::{MultilinearPoly, VerifyError, eq_table};
use flockwork_field::Field;
use flockwork_transcript::VerifierTranscript;

use super::{
    Fri, LABEL_FINAL, LABEL_LEAVES, LABEL_QUERY, LABEL_QUERY_POW, LABEL_ROOT, LABELS,
    absorb_params, fold_leaf, leaf_of,
};
use crate::merkle::{digest_len, sibling_count, verify_rows};
use crate::queries::sample_distinct;
use crate::sumcheck::VerifierState;

/// Verifies `claims` (see [`flockwork_core::PolynomialCommitment::verify`]).
pub(super) fn verify<F: Field, C: FoldableCode<F>, D: Digest, T: VerifierTranscript>(
    pcs: &Fri<F, C, D>,
    commitment: &[u8],
    claims: &[Claim<F>],
    transcript: &mut T,
) -> Result<(), VerifyError> {
    let config = &pcs.config;
    check_claim_shapes(claims, config.num_vars)?;
    if commitment.len() != digest_len::<D>() {
        return Err(VerifyError::MalformedCommitment);
    }
    absorb_claims(claims, transcript);
    absorb_params(transcript, config);
    let batched = BatchedClaims::squeeze(claims, transcript);
    let mut state = VerifierState {
        claim: batched.value(),
        point: Vec::new(),
    };
    for _ in 0..config.log_batch {
        state.round(LABELS, config.fold_pow_bits, transcript)?;
    }
    let mut roots = vec![commitment.to_vec()];
    // challenges[i]: the FRI fold challenges after oracle i.
    let mut challenges: Vec<Vec<F>> = Vec::with_capacity(config.arities.len());
    let last = config.arities.len() - 1;
    for (i, &arity) in config.arities.iter().enumerate() {
        let mut rs = Vec::with_capacity(arity);
        for _ in 0..arity {
            rs.push(state.round(LABELS, config.fold_pow_bits, transcript)?);
        }
        challenges.push(rs);
        if i < last {
            roots.push(
                transcript
                    .recv_bytes(LABEL_ROOT, digest_len::<D>())?
                    .to_vec(),
            );
        }
    }
    let final_message = transcript.recv_field::<F>(LABEL_FINAL, 1 << config.final_vars())?;
    let final_level = config.oracle_level(config.arities.len());
    let final_codeword = pcs.code.encode_at_level(final_level, &final_message);

    transcript.check_grind(LABEL_QUERY_POW, config.query_pow_bits)?;
    let queries = sample_distinct(
        transcript,
        LABEL_QUERY,
        1 << config.oracle_leaves_log(0),
        config.effective_queries(),
    );
    // expected[k]: the value query k's chain carries into the next oracle.
    let eq = eq_table(&state.point[..config.log_batch]);
    let mut expected: Vec<F> = Vec::with_capacity(queries.len());
    for (i, root) in roots.iter().enumerate() {
        let width = config.leaf_width(i);
        let mut leaves: Vec<usize> = queries.iter().map(|&q| leaf_of(config, i, q).0).collect();
        leaves.dedup();
        let values = recv_leaves::<F, D, T>(
            root,
            config.oracle_leaves_log(i),
            &leaves,
            width,
            transcript,
        )?;
        let level = config.oracle_level(i);
        let mut folded = Vec::with_capacity(queries.len());
        for (k, &q) in queries.iter().enumerate() {
            let (leaf, offset) = leaf_of(config, i, q);
            let slot = leaves
                .binary_search(&leaf)
                .map_err(|_| VerifyError::MerklePath)?;
            let leaf_values = &values[slot * width..(slot + 1) * width];
            let words: Vec<F> = if i == 0 {
                leaf_values
                    .chunks_exact(eq.len())
                    .map(|row| F::inner_product(row, &eq))
                    .collect()
            } else {
                if leaf_values[offset] != expected[k] {
                    return Err(VerifyError::RowCheck {
                        level: i,
                        row: leaf,
                    });
                }
                leaf_values.to_vec()
            };
            folded.push(fold_leaf(&pcs.code, level, leaf, &words, &challenges[i]));
        }
        expected = folded;
    }
    let shift: usize = config.arities[1..].iter().sum();
    for (&q, &value) in queries.iter().zip(&expected) {
        if final_codeword.get(q >> shift) != Some(&value) {
            return Err(VerifyError::RowCheck {
                level: roots.len(),
                row: q >> shift,
            });
        }
    }

    for _ in 0..config.final_vars() {
        state.round(LABELS, 0, transcript)?;
    }
    let point = &state.point;
    let weight = batched
        .evaluate(point)
        .ok_or(VerifyError::OpeningMismatch)?;
    let tail = &point[point.len() - config.final_vars()..];
    let message = MultilinearPoly::new(final_message).evaluate(tail);
    if state.claim != message * weight {
        return Err(VerifyError::OpeningMismatch);
    }
    Ok(())
}

/// Reads the opened `leaves` of one oracle (`width` elements each) and checks their Merkle
/// multi-opening against `root`.
fn recv_leaves<F: Field, D: Digest, T: VerifierTranscript>(
    root: &[u8],
    depth: usize,
    leaves: &[usize],
    width: usize,
    transcript: &mut T,
) -> Result<Vec<F>, VerifyError> {
    let values = transcript.recv_field::<F>(LABEL_LEAVES, leaves.len() * width)?;
    let count = sibling_count(depth, leaves).ok_or(VerifyError::MerklePath)?;
    let siblings = transcript.hint_bytes(count * digest_len::<D>())?;
    verify_rows::<D, F>(root, depth, leaves, &values, width, siblings)?;
    Ok(values)
}
