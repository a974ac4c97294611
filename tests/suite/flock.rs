//! Batch workloads at exact counts (`flockwork::flock`): Merkle trees over any number of
//! leaves (the left-complete tree; roots checked against the `sha2` and `blake3` crates) and
//! Keccak-f chains of any length (the last block's overhang mapped by
//! `BatchShape::setup_statement`). Honest proofs verify through `verify_exact`; a wrong
//! statement, a bad bit in the last real instance and the counts `N ± 1` are rejected.

use flockwork::flock::{
    BatchShape, ExactError, FlockWorkload, HashKind, IoKind, flock_for, merkle_tree, verify_exact,
};
use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::words::join_u32;
use flockwork_boolean::{Blake3Compress, KeccakF1600, Sha256Compress, wide_chain};
use flockwork_r1cs::{FlockConfig, Statement};
use flockwork_transcript::TranscriptKind;

const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// `compress(IV, left ‖ right)` with the `sha2` crate.
fn sha256_node(left: &[u32; 8], right: &[u32; 8]) -> [u32; 8] {
    let mut block = [0u8; 64];
    for (i, w) in left.iter().chain(right).enumerate() {
        block[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
    }
    let mut state = SHA256_IV;
    sha2::block_api::compress256(&mut state, &[block]);
    state
}

/// A BLAKE3 parent node with the `blake3` crate (a non-root parent in hash mode).
fn blake3_node(left: &[u32; 8], right: &[u32; 8]) -> [u32; 8] {
    let bytes = |cv: &[u32; 8]| -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, w) in cv.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    };
    let cv = blake3::hazmat::merge_subtrees_non_root(
        &bytes(left),
        &bytes(right),
        blake3::hazmat::Mode::Hash,
    );
    core::array::from_fn(|i| u32::from_le_bytes(cv[4 * i..4 * i + 4].try_into().unwrap()))
}

/// The root of the left-complete tree by its recursive definition: with `d = ⌈log2 L⌉`, the
/// left subtree takes `min(2^(d−1), L − 2^(d−2))` leaves (all of the deepest level that fit
/// under it), the right subtree the rest.
fn left_complete_root(leaves: &[[u32; 8]], node: fn(&[u32; 8], &[u32; 8]) -> [u32; 8]) -> [u32; 8] {
    let l = leaves.len();
    if l == 1 {
        return leaves[0];
    }
    let full = l.next_power_of_two();
    let left = if l == 2 {
        1
    } else {
        (full / 2).min(l - full / 4)
    };
    node(
        &left_complete_root(&leaves[..left], node),
        &left_complete_root(&leaves[left..], node),
    )
}

fn leaves(n: usize, seed: u32) -> Vec<[u32; 8]> {
    (0..n as u32)
        .map(|i| core::array::from_fn(|j| (i ^ seed).wrapping_mul(0x9e37_79b9) ^ (j as u32) << 3))
        .collect()
}

#[test]
fn merkle_roots_match_the_sha2_and_blake3_crates_at_any_leaf_count() {
    for n in [2, 3, 4, 5, 6, 7, 11, 1000, 1025] {
        let l = leaves(n, 5);
        let (_, st) = merkle_tree(&Sha256Compress, &l);
        let Statement::Merkle { root, .. } = st else {
            unreachable!()
        };
        let expect = left_complete_root(&l, sha256_node);
        assert_eq!(root, join_u32::<4>(&expect).to_vec(), "sha256, {n} leaves");
        let (_, st) = merkle_tree(&Blake3Compress, &l);
        let Statement::Merkle { root, .. } = st else {
            unreachable!()
        };
        let expect = left_complete_root(&l, blake3_node);
        assert_eq!(root, join_u32::<4>(&expect).to_vec(), "blake3, {n} leaves");
    }
}

fn workload(hash: HashKind, io: IoKind, count: usize) -> FlockWorkload {
    FlockWorkload {
        hash,
        count,
        seed: count as u64,
        io,
        config: FlockConfig::default(),
        transcript: TranscriptKind::default(),
    }
}

fn verify(
    hash: HashKind,
    io: IoKind,
    count: usize,
    st: &Statement,
    proof: &[u8],
) -> Result<(), ExactError> {
    verify_with(FlockConfig::default(), hash, io, count, st, proof)
}

fn verify_with(
    config: FlockConfig,
    hash: HashKind,
    io: IoKind,
    count: usize,
    st: &Statement,
    proof: &[u8],
) -> Result<(), ExactError> {
    verify_exact(
        hash,
        io,
        count,
        config,
        TranscriptKind::default(),
        st,
        proof,
    )
}

/// Proves `count` with the workload and checks the proof against the exact statement, a
/// changed one and the neighbouring counts.
fn exact_at(hash: HashKind, io: IoKind, count: usize) -> flockwork::flock::FlockReport {
    exact_over(FlockConfig::default(), hash, io, count)
}

/// [`exact_at`] over the commitment `config` names.
fn exact_over(
    config: FlockConfig,
    hash: HashKind,
    io: IoKind,
    count: usize,
) -> flockwork::flock::FlockReport {
    let verify = |hash, io, count, st: &Statement, proof: &[u8]| {
        verify_with(config, hash, io, count, st, proof)
    };
    let r = FlockWorkload {
        config,
        ..workload(hash, io, count)
    }
    .run()
    .unwrap();
    assert_eq!(r.instances(), count);
    assert_eq!(r.shape.instances(), count);
    assert_eq!(
        r.shape.setup_statement(hash, &r.exact).unwrap(),
        r.statement
    );
    verify(hash, io, count, &r.exact, &r.proof).unwrap();
    let mut wrong = r.exact.clone();
    match &mut wrong {
        Statement::Chain { end, .. } => end[0] ^= 1,
        Statement::Merkle { leaves, .. } => {
            let last = leaves.len() - 1;
            leaves[last][2] ^= 1 << 33;
        }
        _ => unreachable!(),
    }
    assert!(
        matches!(
            verify(hash, io, count, &wrong, &r.proof),
            Err(ExactError::Rejected(_))
        ),
        "a wrong statement at {count}"
    );
    for other in [count - 1, count + 1] {
        if other == 0 || (io == IoKind::Merkle && other < 2) {
            continue;
        }
        assert!(
            verify(hash, io, other, &r.exact, &r.proof).is_err(),
            "the proof for {count} accepted for {other}"
        );
    }
    r
}

/// The matrix: chains of every hash at `N = 1, 2, 3, 1000, 1025, 2^12 − 1` and
/// Merkle trees of SHA-256 and BLAKE3 at every such `N ≥ 2`, the commitment scheme cycling
/// over the three so that each hash meets each scheme at small and large counts. Each proof
/// verifies, a changed end or last leaf is rejected, and so is the proof as one for `N ± 1`.
#[test]
fn every_hash_at_the_exact_counts_over_every_commitment() {
    use flockwork::pcs::PcsKind;
    let counts = [1, 2, 3, 1000, 1025, (1 << 12) - 1];
    for (h, hash) in [HashKind::Sha256, HashKind::Blake3, HashKind::Keccak]
        .into_iter()
        .enumerate()
    {
        for (i, &n) in counts.iter().enumerate() {
            let scheme = PcsKind::ALL[(h + i) % PcsKind::ALL.len()];
            let config = FlockConfig {
                scheme,
                ..FlockConfig::default()
            };
            exact_over(config, hash, IoKind::Chain, n);
            if hash != HashKind::Keccak && n >= 2 {
                let scheme = PcsKind::ALL[(h + i + 1) % PcsKind::ALL.len()];
                let config = FlockConfig {
                    scheme,
                    ..FlockConfig::default()
                };
                exact_over(config, hash, IoKind::Merkle, n);
            }
        }
    }
}

#[test]
fn merkle_workloads_prove_exact_leaf_counts() {
    for n in [2, 3, 1000] {
        let r = exact_at(HashKind::Sha256, IoKind::Merkle, n);
        assert_eq!((r.shape.copies, r.shape.blocks), (1, n));
    }
    for n in [5, 1025] {
        exact_at(HashKind::Blake3, IoKind::Merkle, n);
    }
    assert!(workload(HashKind::Sha256, IoKind::Merkle, 1).run().is_err());
}

#[test]
fn keccak_chains_prove_exact_lengths() {
    for (n, overhang) in [(1, 2), (2, 1), (3, 0), (4, 2), (1000, 2)] {
        let r = exact_at(HashKind::Keccak, IoKind::Chain, n);
        assert_eq!(r.shape.copies, 3);
        assert_eq!(r.shape.overhang(), overhang, "{n} steps");
        // The exact end is the native chain's.
        let Statement::Chain { start, end } = &r.exact else {
            unreachable!()
        };
        let mut state: [u64; 25] = core::array::from_fn(|i| start[i]);
        for _ in 0..n {
            flockwork_boolean::native::keccak_f1600(&mut state);
        }
        assert_eq!(end, &state.to_vec(), "{n} steps");
    }
}

/// A bad bit in the last block, the one that holds the last real step and the overhang, is
/// rejected; so is the rounded-up chain's statement checked as the exact one.
#[test]
fn keccak_overhang_cannot_hide_a_bad_step() {
    let n = 4;
    let shape = BatchShape::for_count(HashKind::Keccak, IoKind::Chain, n);
    let wide = wide_chain(KeccakF1600::new(), shape.copies);
    let init = [3u64; 25];
    let data = vec![vec![(); 3]; shape.blocks];
    let chain = chain_witness(&wide, init, &data, true);
    let flock = flock_for(
        wide.clone(),
        shape.blocks,
        IoKind::Chain,
        FlockConfig::default(),
    )
    .unwrap();
    let rounded = Statement::Chain {
        start: wide.state_words(&init),
        end: wide.state_words(chain.states.last().unwrap()),
    };
    let (proof, _) = flock.prove_witness(&chain.witness, &rounded).unwrap();
    flock.verify(&rounded, proof.as_bytes()).unwrap();
    // The rounded chain's end is not the end of 4 steps.
    assert!(
        verify(
            HashKind::Keccak,
            IoKind::Chain,
            n,
            &rounded,
            proof.as_bytes()
        )
        .is_err()
    );
    let mut bad = chain.witness.clone();
    let words = bad.block_words();
    bad.z[(shape.blocks - 1) * words + words / 2] ^= 1 << 5;
    bad.lanes = None;
    let (cheat, _) = flock.prove_witness(&bad, &rounded).unwrap();
    assert!(flock.verify(&rounded, cheat.as_bytes()).is_err());
}

/// Every region strategy proves the same regions (widths 2, 3, 0, 1 of BLAKE3 chains) and
/// verifies; a changed end of any region, a changed proof byte and proofs swapped between
/// strategies are rejected; the rows report what each strategy proved.
#[test]
fn region_strategies_prove_and_reject_changes() {
    use flockwork::flock::{BatchComparison, MAX_REGION_WIDTH, RegionBatch, RegionChains};
    let widths = [2, 3, 0, 1];
    let chains = RegionChains::<Blake3Compress>::random(&widths, 9);
    let mut all = Vec::new();
    for strategy in flockwork::gkr::Variant::ALL {
        let batch: RegionBatch<Blake3Compress> =
            RegionBatch::new(Blake3Compress, &widths, strategy, FlockConfig::default()).unwrap();
        let statements = batch.statements(&chains);
        let proofs = batch.prove(&chains, &statements).unwrap();
        batch.verify(&statements, &proofs).unwrap();
        let expect = match strategy {
            flockwork::gkr::Variant::Independent => (4, 15),
            flockwork::gkr::Variant::Padded => (1, 32),
            flockwork::gkr::Variant::Ragged => (1, 15),
        };
        assert_eq!(
            (proofs.len(), batch.proved_instances()),
            expect,
            "{strategy:?}"
        );
        for (p, st) in statements.iter().enumerate() {
            let Statement::Chain { start, end } = st else {
                unreachable!()
            };
            for word in (0..end.len()).step_by(4) {
                let mut wrong = statements.clone();
                wrong[p] = Statement::Chain {
                    start: start.clone(),
                    end: end
                        .iter()
                        .enumerate()
                        .map(|(i, &w)| w ^ u64::from(i == word))
                        .collect(),
                };
                assert!(
                    batch.verify(&wrong, &proofs).is_err(),
                    "{strategy:?}: end word {word}"
                );
            }
        }
        let mut bad = proofs.clone();
        let last = bad.len() - 1;
        let at = bad[last].len() / 2;
        bad[last][at] ^= 0x10;
        assert!(
            batch.verify(&statements, &bad).is_err(),
            "{strategy:?}: a changed byte"
        );
        all.push((batch, statements, proofs));
    }
    // The padded and the ragged proofs are not each other's.
    assert!(all[1].0.verify(&all[1].1, &all[2].2).is_err());
    assert!(all[2].0.verify(&all[2].1, &all[1].2).is_err());

    let mut comparison = BatchComparison {
        hash: HashKind::Blake3,
        widths: widths.to_vec(),
        strategies: flockwork::gkr::Variant::ALL.to_vec(),
        config: FlockConfig::default(),
        transcript: TranscriptKind::default(),
        seed: 3,
    };
    let rows = comparison.run().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.batcher.as_str()).collect();
    assert_eq!(names, ["independent", "padded", "ragged"]);
    for r in &rows {
        assert_eq!((r.instances, r.hash.as_str()), (15, "blake3"));
        assert!(r.soundness_bits > 95.0 && r.proof_bytes > 0, "{r:?}");
    }
    assert_eq!(rows[1].proved_instances, 32);
    comparison.widths.clear();
    assert!(comparison.run().is_err());
    comparison.widths = vec![MAX_REGION_WIDTH + 1];
    assert!(comparison.run().is_err());
}

/// One `IoKind` (core's): the workloads refuse a committed statement, which is one batcher's,
/// by name.
#[test]
fn workloads_refuse_committed_statements() {
    // The workloads' `IoKind` is core's.
    let core: flockwork::poly::relation::IoKind = IoKind::Committed;
    let workload = FlockWorkload {
        hash: HashKind::Sha256,
        count: 4,
        seed: 1,
        io: core,
        config: FlockConfig::default(),
        transcript: TranscriptKind::Sha256,
    };
    let err = workload.run().unwrap_err().to_string();
    assert!(err.contains("compare_committed"), "{err}");
    assert_eq!(
        IoKind::ALL.map(IoKind::name),
        ["public", "committed", "chain", "merkle"]
    );
}
