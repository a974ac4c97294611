//! The multi-level prover (steps in the [module docs](super)).

use digest::Digest;
use flockwork_codes::NttField;
use flockwork_core::eq_table;
use flockwork_core::pcs::{BatchedClaims, Claim, absorb_claims};
use flockwork_transcript::ProverTranscript;

use super::{
    CommittedLevel, Labels, LevelZeroCode, MultiLevel, MultiLevelProverData, Schedule,
    absorb_level, fold_row, sample_queries,
};
use crate::sumcheck::ProverState;

/// Proves `claims` (see [`flockwork_core::PolynomialCommitment::open`]).
pub(super) fn open<F: NttField, D: Digest, C: LevelZeroCode<F>, T: ProverTranscript>(
    pcs: &MultiLevel<F, D, C>,
    data: &MultiLevelProverData<F, D>,
    claims: &[Claim<F>],
    transcript: &mut T,
) {
    let config = &pcs.config;
    let labels = &C::LABELS;
    flockwork_core::pcs::check_claim_shapes(claims, config.num_vars())
        .expect("claims must be non-empty and have ℓ variables");
    C::absorb_params(config, transcript);
    absorb_claims(claims, transcript);
    let mut all_claims = claims.to_vec();
    all_claims.extend(send_ood(
        labels,
        &data.evals,
        config.level(0).ood_samples,
        transcript,
    ));
    let batched = BatchedClaims::squeeze(&all_claims, transcript);
    let mut state = ProverState::from_claims(&data.evals, &batched);
    let mut committed: Option<CommittedLevel<F, D>> = None;
    let last = config.num_levels() - 1;
    for i in 0..=last {
        let level = config.level(i);
        absorb_level::<F, C, T>(transcript, i, &level);
        let current = committed.as_ref().unwrap_or(&data.level);
        let start = state.point.len();
        for _ in 0..level.log_cols {
            state.round(labels.sumcheck(), level.fold_pow_bits, transcript);
        }
        let mut glue: Vec<Claim<F>> = Vec::new();
        let next = if i < last {
            let next = pcs.commit_level(i + 1, &state.v);
            transcript.send_bytes(labels.root, next.tree.root());
            glue.extend(send_ood(
                labels,
                &state.v,
                config.level(i + 1).ood_samples,
                transcript,
            ));
            Some(next)
        } else {
            transcript.send_field(labels.final_message, &state.v);
            None
        };
        let width = 1usize << level.log_cols;
        let (queries, rows) = send_queries(
            labels,
            current,
            width,
            config.effective_queries(i),
            level.query_pow_bits,
            transcript,
        );
        if i < last {
            let eq = eq_table(&state.point[start..]);
            let row_values: Vec<(usize, F)> = queries
                .iter()
                .zip(rows.chunks_exact(width))
                .map(|(&j, row)| (j, fold_row(row, &eq)))
                .collect();
            glue_into(pcs, i, &mut state, &glue, &row_values, transcript);
        }
        committed = next;
    }
    let tail = state.v.len().trailing_zeros() as usize;
    for _ in 0..tail {
        state.round(labels.sumcheck(), 0, transcript);
    }
}

/// The query phase of one level: grinding, `count` distinct rows drawn from the transcript,
/// the rows sent, their Merkle multi-opening hinted. Returns the row indices and the rows.
fn send_queries<F: NttField, D: Digest, T: ProverTranscript>(
    labels: &Labels,
    level: &CommittedLevel<F, D>,
    width: usize,
    count: usize,
    pow_bits: u32,
    transcript: &mut T,
) -> (Vec<usize>, Vec<F>) {
    transcript
        .grind(labels.query_pow, pow_bits)
        .expect("grinding bits validated by the configuration");
    let queries = sample_queries(labels, transcript, level.codeword.len() / width, count);
    let rows: Vec<F> = queries
        .iter()
        .flat_map(|&j| level.codeword[j * width..(j + 1) * width].iter().copied())
        .collect();
    transcript.send_field(labels.rows, &rows);
    transcript.hint_bytes(&level.tree.open(&queries));
    (queries, rows)
}

/// Out-of-domain samples of the polynomial `v`: squeezes each point, sends `v(ζ)` and returns
/// the eq claims.
fn send_ood<F: NttField, T: ProverTranscript>(
    labels: &Labels,
    v: &[F],
    samples: usize,
    transcript: &mut T,
) -> Vec<Claim<F>> {
    let num_vars = v.len().trailing_zeros() as usize;
    (0..samples)
        .map(|_| {
            let point = transcript.challenges::<F>(labels.ood_point, num_vars);
            let value = flockwork_core::eq_inner_product(v, &point);
            transcript.send_field(labels.ood_value, &[value]);
            Claim::evaluation(point, value)
        })
        .collect()
}

/// Glues the out-of-domain claims and the opened rows of level `i` into the running claim
/// with powers of one challenge `γ` (OOD claims first, then rows in query order). The rows'
/// weight is the transposed code of level `i` on the sparse vector of their coefficients.
fn glue_into<F: NttField, D: Digest, C: LevelZeroCode<F>, T: ProverTranscript>(
    pcs: &MultiLevel<F, D, C>,
    i: usize,
    state: &mut ProverState<'_, F>,
    ood: &[Claim<F>],
    rows: &[(usize, F)],
    transcript: &mut T,
) {
    let gamma = transcript.challenge::<F>(C::LABELS.glue);
    // `b` changes below: the message computed during the last fold is stale.
    state.next_message = None;
    let mut power = gamma;
    for claim in ood {
        claim.weight.accumulate_table(power, &mut state.b);
        state.claim += power * claim.value;
        power *= gamma;
    }
    let mut sparse = Vec::with_capacity(rows.len());
    for &(j, value) in rows {
        sparse.push((j, power));
        state.claim += power * value;
        power *= gamma;
    }
    let weight = pcs.transpose_encode_sparse(i, &sparse);
    F::add_rows(&mut state.b, &weight);
}
