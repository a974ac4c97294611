//! Query sampling shared by the commitments.

use std::collections::BTreeSet;

use flockwork_transcript::Transcript;

/// `count` distinct indices below `bound` drawn from the transcript under `label` (rejection
/// of repeats), sorted; all indices when `count ≥ bound`. The callers keep `2·count < bound`
/// (or open everything), so the expected number of draws stays below `2·count`.
pub(crate) fn sample_distinct<T: Transcript>(
    transcript: &mut T,
    label: &str,
    bound: usize,
    count: usize,
) -> Vec<usize> {
    if count >= bound {
        return (0..bound).collect();
    }
    let mut chosen = BTreeSet::new();
    while chosen.len() < count {
        chosen.insert(transcript.challenge_index(label, bound));
    }
    chosen.into_iter().collect()
}
