//! The FRI prover (steps in the [module docs](super)).

use digest::Digest;
use flockwork_codes::FoldableCode;
use flockwork_core::eq_table;
use flockwork_core::pcs::{BatchedClaims, Claim, absorb_claims, check_claim_shapes};
use flockwork_field::Field;
use flockwork_transcript::ProverTranscript;

use super::{
    Fri, FriProverData, LABEL_FINAL, LABEL_LEAVES, LABEL_QUERY, LABEL_QUERY_POW, LABEL_ROOT,
    LABELS, absorb_params, leaf_of,
};
use crate::merkle::MerkleTree;
use crate::queries::sample_distinct;
use crate::sumcheck::ProverState;

/// An oracle committed during the opening: a folded codeword and its Merkle tree.
struct Oracle<F, D> {
    codeword: Vec<F>,
    tree: MerkleTree<D>,
}

/// Proves `claims` (see [`flockwork_core::PolynomialCommitment::open`]).
pub(super) fn open<F: Field, C: FoldableCode<F>, D: Digest, T: ProverTranscript>(
    pcs: &Fri<F, C, D>,
    data: &FriProverData<F, D>,
    claims: &[Claim<F>],
    transcript: &mut T,
) {
    let config = &pcs.config;
    check_claim_shapes(claims, config.num_vars)
        .expect("claims must be non-empty and have ℓ variables");
    absorb_claims(claims, transcript);
    absorb_params(transcript, config);
    let batched = BatchedClaims::squeeze(claims, transcript);
    let mut state = ProverState::from_claims(&data.evals, &batched);

    // The interleaved variables: one row combination of the level-0 codeword.
    for _ in 0..config.log_batch {
        state.round(LABELS, config.fold_pow_bits, transcript);
    }
    let width = 1usize << config.log_batch;
    let mut codeword = if width == 1 {
        data.codeword.clone()
    } else {
        combine_rows(&data.codeword, &eq_table(&state.point))
    };

    // FRI folds, committing each oracle after the first.
    let mut oracles: Vec<Oracle<F, D>> = Vec::new();
    let mut level = 0;
    let last = config.arities.len() - 1;
    for (i, &arity) in config.arities.iter().enumerate() {
        for _ in 0..arity {
            let r = state.round(LABELS, config.fold_pow_bits, transcript);
            if i < last {
                // The word to fold: the last committed oracle right after a commitment.
                let source = match oracles.last() {
                    Some(oracle) if codeword.is_empty() => &oracle.codeword,
                    _ => &codeword,
                };
                codeword = pcs.code.fold(level, source, r);
            }
            level += 1;
        }
        if i < last {
            let tree = MerkleTree::new(&codeword, config.leaf_width(i + 1));
            transcript.send_bytes(LABEL_ROOT, tree.root());
            oracles.push(Oracle {
                codeword: core::mem::take(&mut codeword),
                tree,
            });
        }
    }
    transcript.send_field(LABEL_FINAL, &state.v);

    // Queries: the leaves of every oracle on each query's fold chain.
    transcript
        .grind(LABEL_QUERY_POW, config.query_pow_bits)
        .expect("grinding bits validated by the configuration");
    let queries = sample_distinct(
        transcript,
        LABEL_QUERY,
        1 << config.oracle_leaves_log(0),
        config.effective_queries(),
    );
    send_leaves(
        &data.codeword,
        &data.tree,
        config.leaf_width(0),
        &queries,
        transcript,
    );
    for (i, oracle) in oracles.iter().enumerate() {
        let mut leaves: Vec<usize> = queries
            .iter()
            .map(|&q| leaf_of(config, i + 1, q).0)
            .collect();
        leaves.dedup();
        send_leaves(
            &oracle.codeword,
            &oracle.tree,
            config.leaf_width(i + 1),
            &leaves,
            transcript,
        );
    }

    for _ in 0..config.final_vars() {
        state.round(LABELS, 0, transcript);
    }
}

/// `out[j] = Σ_k eq[k]·rows[j][k]`: the interleaved codeword combined into one word.
fn combine_rows<F: Field>(rows: &[F], eq: &[F]) -> Vec<F> {
    let width = eq.len();
    let mut out = vec![F::ZERO; rows.len() / width];
    let chunk = flockwork_field::par::COMBINE_CHUNK;
    let combine = |_, o: &mut [F], r: &[F]| {
        for (x, row) in o.iter_mut().zip(r.chunks_exact(width)) {
            *x = F::inner_product(row, eq);
        }
    };
    flockwork_field::par::zip_chunks_read(&mut out, chunk, rows, chunk * width, 0, combine);
    out
}

/// Sends the sorted, distinct `leaves` of one oracle and hints their Merkle multi-opening.
fn send_leaves<F: Field, D: Digest, T: ProverTranscript>(
    codeword: &[F],
    tree: &MerkleTree<D>,
    width: usize,
    leaves: &[usize],
    transcript: &mut T,
) {
    let values: Vec<F> = leaves
        .iter()
        .flat_map(|&j| codeword[j * width..(j + 1) * width].iter().copied())
        .collect();
    transcript.send_field(LABEL_LEAVES, &values);
    transcript.hint_bytes(&tree.open(leaves));
}
