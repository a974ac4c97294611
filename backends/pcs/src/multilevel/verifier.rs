//! The multi-level verifier: scalar, sequential, and panic-free on any proof bytes. Every
//! allocation is bounded by the configuration or by bytes already read. The glued rows of
//! each level are evaluated together ([`LevelZeroCode::rows_weight`] at level 0: per row for
//! Reed–Solomon, densely through `RAAᵀ` for the RAA code).

use digest::Digest;
use flockwork_codes::{NttField, ReedSolomon};
use flockwork_core::pcs::{BatchedClaims, Claim, absorb_claims, check_claim_shapes};
use flockwork_core::{MultilinearPoly, VerifyError, eq_eval, eq_table};
use flockwork_transcript::VerifierTranscript;

use super::{Labels, LevelZeroCode, MultiLevel, Schedule, absorb_level, fold_row, sample_queries};
use crate::merkle::{digest_len, sibling_count, verify_rows};
use crate::sumcheck::VerifierState;

/// A weight glued into the running claim after level `level`'s queries, acting on the last
/// `vars` variables with coefficient `coeff`.
struct GlueTerm<F> {
    coeff: F,
    vars: usize,
    kind: GlueKind<F>,
}

enum GlueKind<F> {
    /// `eq(ζ, ·)` of an out-of-domain sample.
    Ood(Vec<F>),
    /// The generator row of codeword position `row` of level `level`.
    Row { level: usize, row: usize },
}

/// Verifies `claims` (see [`flockwork_core::PolynomialCommitment::verify`]).
pub(super) fn verify<F: NttField, D: Digest, C: LevelZeroCode<F>, T: VerifierTranscript>(
    pcs: &MultiLevel<F, D, C>,
    commitment: &[u8],
    claims: &[Claim<F>],
    transcript: &mut T,
) -> Result<(), VerifyError> {
    let config = &pcs.config;
    let labels = &C::LABELS;
    check_claim_shapes(claims, config.num_vars())?;
    if commitment.len() != digest_len::<D>() {
        return Err(VerifyError::MalformedCommitment);
    }
    C::absorb_params(config, transcript);
    absorb_claims(claims, transcript);
    let mut all_claims = claims.to_vec();
    let ood0 = recv_ood(
        labels,
        config.num_vars(),
        config.level(0).ood_samples,
        transcript,
    )?;
    all_claims.extend(
        ood0.into_iter()
            .map(|(point, value)| Claim::evaluation(point, value)),
    );
    let batched = BatchedClaims::squeeze(&all_claims, transcript);
    let mut state = VerifierState {
        claim: batched.value(),
        point: Vec::new(),
    };
    let mut glued: Vec<GlueTerm<F>> = Vec::new();
    let mut root = commitment.to_vec();
    let mut final_message = Vec::new();
    let last = config.num_levels() - 1;
    for i in 0..=last {
        let level = config.level(i);
        absorb_level::<F, C, T>(transcript, i, &level);
        let start = state.point.len();
        for _ in 0..level.log_cols {
            state.round(labels.sumcheck(), level.fold_pow_bits, transcript)?;
        }
        let next_vars = config.level_vars(i + 1);
        let mut ood = Vec::new();
        let next_root = if i < last {
            let next = transcript
                .recv_bytes(labels.root, digest_len::<D>())?
                .to_vec();
            ood = recv_ood(
                labels,
                next_vars,
                config.level(i + 1).ood_samples,
                transcript,
            )?;
            Some(next)
        } else {
            final_message = transcript.recv_field::<F>(labels.final_message, 1 << next_vars)?;
            None
        };
        let width = 1usize << level.log_cols;
        let (queries, rows) = recv_queries::<F, D, T>(
            labels,
            &root,
            config.level_block_log(i),
            width,
            config.effective_queries(i),
            level.query_pow_bits,
            transcript,
        )?;
        let eq = eq_table(&state.point[start..]);
        let values = rows.chunks_exact(width).map(|row| fold_row(row, &eq));
        if i < last {
            let rows = queries.iter().map(|&row| GlueKind::Row { level: i, row });
            let terms = ood
                .into_iter()
                .map(|(point, value)| (GlueKind::Ood(point), value))
                .chain(rows.zip(values));
            glue(labels, &mut state, &mut glued, next_vars, terms, transcript);
        } else {
            check_final_rows(pcs, i, &final_message, &queries, values)?;
        }
        root = next_root.unwrap_or_default();
    }
    let final_vars = config.final_vars();
    for _ in 0..final_vars {
        state.round(labels.sumcheck(), 0, transcript)?;
    }
    let point = &state.point;
    let weight = final_weight(pcs, &batched, &glued, point)?;
    let message = MultilinearPoly::new(final_message).evaluate(&point[point.len() - final_vars..]);
    if state.claim != message * weight {
        return Err(VerifyError::OpeningMismatch);
    }
    Ok(())
}

/// Glues new claims `(weight, value)` on the last `vars` variables into the running claim
/// with the powers `γ, γ², …` of one challenge.
fn glue<F: NttField, T: VerifierTranscript>(
    labels: &Labels,
    state: &mut VerifierState<F>,
    glued: &mut Vec<GlueTerm<F>>,
    vars: usize,
    terms: impl Iterator<Item = (GlueKind<F>, F)>,
    transcript: &mut T,
) {
    let gamma = transcript.challenge::<F>(labels.glue);
    let mut power = gamma;
    for (kind, value) in terms {
        state.claim += power * value;
        glued.push(GlueTerm {
            coeff: power,
            vars,
            kind,
        });
        power *= gamma;
    }
}

/// The last level's proximity test: each folded opened row must equal the encoding of the
/// clear final message at its position.
fn check_final_rows<F: NttField, D: Digest, C: LevelZeroCode<F>>(
    pcs: &MultiLevel<F, D, C>,
    level: usize,
    final_message: &[F],
    queries: &[usize],
    values: impl Iterator<Item = F>,
) -> Result<(), VerifyError> {
    let encoded = if level == 0 {
        // The whole polynomial folded once: the message is as long as the proof bytes read.
        pcs.encode_level(0, final_message, 1)
    } else {
        // A Reed–Solomon code of its own for the short message: its twiddles are a prefix of
        // the shared tables' (same basis, same cosets), so the codeword is the same, and the
        // verifier never builds the tables of the longer levels.
        let rate = pcs.config.level(level).log_inv_rate;
        ReedSolomon::new(final_message.len().trailing_zeros() as usize, rate)
            .encode(final_message, 1)
    };
    for (&row, value) in queries.iter().zip(values) {
        if encoded.get(row) != Some(&value) {
            return Err(VerifyError::RowCheck { level, row });
        }
    }
    Ok(())
}

/// `B(r*)`: the batched claim weights at the full point plus every glued term at its suffix.
/// The glued rows of each level are collected into one sparse combination and evaluated
/// together by that level's code.
fn final_weight<F: NttField, D: Digest, C: LevelZeroCode<F>>(
    pcs: &MultiLevel<F, D, C>,
    batched: &BatchedClaims<'_, F>,
    glued: &[GlueTerm<F>],
    point: &[F],
) -> Result<F, VerifyError> {
    let mut weight = batched
        .evaluate(point)
        .ok_or(VerifyError::OpeningMismatch)?;
    // Per level: its glued rows and the variables they act on.
    let mut rows: Vec<(Vec<(usize, F)>, usize)> = Vec::new();
    for term in glued {
        match &term.kind {
            GlueKind::Ood(z) => {
                weight += term.coeff * eq_eval(z, &point[point.len() - term.vars..]);
            }
            GlueKind::Row { level, row } => {
                if rows.len() <= *level {
                    rows.resize_with(level + 1, || (Vec::new(), 0));
                }
                rows[*level].0.push((*row, term.coeff));
                rows[*level].1 = term.vars;
            }
        }
    }
    for (level, (entries, vars)) in rows.iter().enumerate() {
        if !entries.is_empty() {
            weight += pcs.rows_weight(level, entries, &point[point.len() - vars..]);
        }
    }
    Ok(weight)
}

/// The query phase of one level: checks the grinding, draws `count` distinct rows, reads them
/// and checks their Merkle multi-opening against `root`. Returns the indices and the rows.
fn recv_queries<F: NttField, D: Digest, T: VerifierTranscript>(
    labels: &Labels,
    root: &[u8],
    block_log: usize,
    width: usize,
    count: usize,
    pow_bits: u32,
    transcript: &mut T,
) -> Result<(Vec<usize>, Vec<F>), VerifyError> {
    transcript.check_grind(labels.query_pow, pow_bits)?;
    let queries = sample_queries(labels, transcript, 1 << block_log, count);
    let rows = transcript.recv_field::<F>(labels.rows, queries.len() * width)?;
    check_merkle::<F, D, T>(root, block_log, &queries, &rows, width, transcript)?;
    Ok((queries, rows))
}

/// Reads `samples` out-of-domain values of a polynomial in `vars` variables: the
/// `(point, value)` pairs.
fn recv_ood<F: NttField, T: VerifierTranscript>(
    labels: &Labels,
    vars: usize,
    samples: usize,
    transcript: &mut T,
) -> Result<Vec<(Vec<F>, F)>, VerifyError> {
    (0..samples)
        .map(|_| {
            let point = transcript.challenges::<F>(labels.ood_point, vars);
            let value = transcript.recv_field::<F>(labels.ood_value, 1)?;
            let value = value.first().copied().ok_or(VerifyError::OpeningMismatch)?;
            Ok((point, value))
        })
        .collect()
}

/// Reads the multi-opening of the queried rows and checks it against `root`.
fn check_merkle<F: NttField, D: Digest, T: VerifierTranscript>(
    root: &[u8],
    depth: usize,
    queries: &[usize],
    rows: &[F],
    width: usize,
    transcript: &mut T,
) -> Result<(), VerifyError> {
    let count = sibling_count(depth, queries).ok_or(VerifyError::MerklePath)?;
    let siblings = transcript.hint_bytes(count * digest_len::<D>())?;
    verify_rows::<D, F>(root, depth, queries, rows, width, siblings)
}
