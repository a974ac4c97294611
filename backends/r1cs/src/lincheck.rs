//! The lincheck with circuit walking (Flock §5; notes §3 "Lincheck with circuit walking").
//!
//! The zerocheck leaves two claims at the quirky row point `(ζ, ρ)`:
//! `â = Σ_col Â(ζ, ρ; col)·z(col)` and `b̂` likewise. With `A = I_K ⊗ A0` and the row point
//! split as `ρ = (s_in, s_out)` (the `m0 − 6` in-instance bits, then the `k` instance bits),
//!
//! ```text
//! Â((ζ, s_in, s_out), (j, k)) = eq(s_out, k)·Â0((ζ, s_in), j),   so   â = Σ_j Â0((ζ, s_in), j)·z_vec[j]
//! ```
//!
//! with `z_vec[j] = Σ_k eq(s_out, k)·z[k, j]` (one fold of the witness over the instances; all
//! later work is independent of `K`). For random `α, β` the prover runs a degree-2 sumcheck on
//!
//! ```text
//! Σ_{j ∈ {0,1}^m0} comb[j]·z_vec[j] = α·â + b̂ + β·ι_N(s_out),    comb = α·A0ᵀ e + B0ᵀ e + β·e_const,
//! ```
//!
//! where `e[i] = L_{i mod 64}(ζ)·eq(s_in, ⌊i/64⌋)`. `A0ᵀe` and `B0ᵀe` come from the backward
//! walk of the XOR graph ([`R1csLowering::transpose_mul`]), never from a matrix. The `β` term
//! pins the constant column to the indicator of the `N` real instances:
//! `ι_N(s) = Σ_{k < N} eq(s, k)` is its multilinear extension ([`indicator_eval`], `O(k)`), and
//! `z_vec[const] = ι_N(s_out)` holds (w.h.p. over `s_out`, Schwartz–Zippel in `k` variables)
//! iff the constant wire is 1 in every real instance and 0 in every padding block
//! ([`crate::padding`]) — which the rows `1·1 = 1` alone do not force (`0·0 = 0` satisfies
//! them too). For `N = 2^k`, `ι_N ≡ 1`.
//!
//! The sumcheck ends at `r'`; the verifier recomputes `comb` by the same walk (cost
//! `O(#XOR + 2^m0)`, independent of `K`), checks the prover's `comb(r')`, and the prover's
//! `z_vec(r') = ẑ(r', s_out)` becomes the z-claim on the commitment.

use crate::lowering::R1csLowering;
use flockwork_core::{MultilinearPoly, VerifyError, eq_table};
use flockwork_field::transpose::transpose64_groups;
use flockwork_field::{Field, par};
use flockwork_field_binary::Ghash128;
use flockwork_pcs::ring_switch::PACKED_VARS;
use flockwork_transcript::{ProverTranscript, Transcript, VerifierTranscript};

use crate::rowmap::RowMap;
use crate::skip::SKIP_VARS;
use crate::zerocheck::ZerocheckClaims;

const LABEL_ALPHA: &str = "flock/lincheck/alpha";
const LABEL_BETA: &str = "flock/lincheck/beta";
const LABEL_FINAL: &str = "flock/lincheck/final";

/// The lincheck's output: the z-claim `ẑ(point) = value` (`point = r' ‖ s_out`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LincheckClaim {
    /// The evaluation point (`m` coordinates).
    pub point: Vec<Ghash128>,
    /// The claimed value.
    pub value: Ghash128,
}

/// `comb = α·A0ᵀe + B0ᵀe + β·e_const` (both sides).
#[must_use]
pub fn comb_vector(
    lowering: &R1csLowering,
    zc: &ZerocheckClaims,
    alpha: Ghash128,
    beta: Ghash128,
) -> Vec<Ghash128> {
    let m0 = lowering.log_block();
    let s_in = &zc.rho[..m0 - SKIP_VARS];
    let e: Vec<Ghash128> = eq_table(s_in)
        .iter()
        .flat_map(|&w| zc.lagrange.iter().map(move |&l| l * w))
        .collect();
    let e_a: Vec<Ghash128> = e.iter().map(|&w| alpha * w).collect();
    let mut comb = lowering.transpose_mul(&e_a, &e);
    comb[lowering.layout().const_position()] += beta;
    comb
}

/// Groups of 64 instances whose maps are built and held at once (64 × 32 KiB of tables).
const MAP_BATCH: usize = 64;
/// Block words per task of [`fold_instances`]: its 4096 outputs (64 KiB) stay in cache while
/// every map of a batch passes over them.
const WORD_CHUNK: usize = 64;
/// Words of one instance transposed together ([`transpose64_groups`]).
const STACK: usize = 4;

/// `z_vec[j] = Σ_k eq(s_out, k)·z[k, j]` for a batch witness of `2^k` instances of `2^m0` bits.
///
/// Instances are taken 64 at a time (a group `g`) and bit-transposed, so a position's 64 bits
/// index the eight tables of subset sums of the group's eq weights ([`RowMap`]):
/// `2^m0 · K / 8` additions in all. The loops run map by map over chunks of the block's
/// positions: one group's 32 KiB of tables and a chunk's outputs stay in cache while the
/// group's words stream past, and the memory for tables stays bounded (the maps of
/// `MAP_BATCH` groups at a time). Chunks run in parallel; positions that are zero in all of a
/// group's instances (padding) are skipped.
#[must_use]
pub fn fold_instances(
    z: &[u64],
    log_block: usize,
    s_out: &[Ghash128],
    live: usize,
) -> Vec<Ghash128> {
    let instances = 1usize << s_out.len();
    let block_words = (1usize << log_block) / 64;
    assert_eq!(z.len(), instances * block_words, "witness length");
    fold_by_groups(
        s_out,
        live,
        64 * block_words,
        64 * WORD_CHUNK,
        |c, first, maps, out| {
            fold_chunk(z, block_words, instances, c * WORD_CHUNK, maps, first, out);
        },
    )
}

/// Positions per task of [`fold_lanes`]: 4096 outputs (64 KiB) stay in cache while the
/// lane words of every group stream past (32 KiB each).
const LANE_CHUNK: usize = 1 << 12;
/// Images computed at once by [`fold_lanes`] before they are added (8 KiB on the stack).
const IMAGE_BATCH: usize = 512;

/// [`fold_instances`] from `z` in lane order ([`BatchWitness::lanes`]: word `g·2^m0 + p` is
/// position `p` of instances `64g ..`): `z_vec[p] = Σ_g map_g(lanes[g·2^m0 + p])`, where
/// `map_g` sends bit `r` to `eq(s_out, 64g + r)` ([`RowMap`]). The same sums as
/// [`fold_instances`], read sequentially and without transposes: chunks of positions run in
/// parallel, and each reads a contiguous run of every group's words.
///
/// [`BatchWitness::lanes`]: flockwork_circuit::BatchWitness::lanes
///
/// # Panics
/// If `lanes` does not hold the `⌈live / 64⌉·2^m0` words of the first `live` instances.
#[must_use]
pub fn fold_lanes(
    lanes: &[u64],
    log_block: usize,
    s_out: &[Ghash128],
    live: usize,
) -> Vec<Ghash128> {
    let positions = 1usize << log_block;
    let groups = live.min(1 << s_out.len()).div_ceil(64);
    assert!(lanes.len() >= groups * positions, "lane witness length");
    fold_by_groups(s_out, live, positions, LANE_CHUNK, |c, first, maps, out| {
        let mut images = [Ghash128::ZERO; IMAGE_BATCH];
        for (g, map) in (first..).zip(maps) {
            let rows = &lanes[g * positions + c * LANE_CHUNK..][..out.len()];
            for (out, rows) in out.chunks_mut(IMAGE_BATCH).zip(rows.chunks(IMAGE_BATCH)) {
                let images = &mut images[..rows.len()];
                map.apply_slice(rows, images);
                for (o, &v) in out.iter_mut().zip(images.iter()) {
                    *o += v;
                }
            }
        }
    })
}

/// The frame of both instance folds: `len` outputs, and for each batch of `MAP_BATCH` groups
/// of 64 instances (their [`RowMap`]s, bit `r` of group `g` ↦ `eq(s_out, 64g + r)`, built in
/// parallel) `task(c, first_group, maps, out_chunk)` adds the batch's images into every
/// `chunk`-sized chunk `c` of the outputs, chunks in parallel. Only the groups that hold the
/// first `live` instances are read: the blocks past them are zero ([`crate::padding`]), so
/// the fold costs `O(live)`, not `O(2^k)`.
fn fold_by_groups<F>(
    s_out: &[Ghash128],
    live: usize,
    len: usize,
    chunk: usize,
    task: F,
) -> Vec<Ghash128>
where
    F: Fn(usize, usize, &[RowMap], &mut [Ghash128]) + Sync + Send,
{
    let weights = eq_table(s_out);
    let groups = live.min(weights.len()).div_ceil(64);
    let mut out = vec![Ghash128::ZERO; len];
    for first in (0..groups).step_by(MAP_BATCH) {
        let batch = first..(first + MAP_BATCH).min(groups);
        let map = |g: usize| {
            let w: [Ghash128; 64] =
                core::array::from_fn(|r| weights.get(64 * g + r).copied().unwrap_or_default());
            RowMap::new(&w)
        };
        let maps: Vec<RowMap> = par::map_collect(batch.len(), 1, |i| map(batch.start + i));
        par::for_each_chunk(&mut out, chunk, 0, |c, out| task(c, first, &maps, out));
    }
    out
}

/// Adds the images of block words `word0 ..` (as many as `out` holds positions) of the
/// groups `first_group ..` (one map each) into `out`.
fn fold_chunk(
    z: &[u64],
    block_words: usize,
    instances: usize,
    word0: usize,
    maps: &[RowMap],
    first_group: usize,
    out: &mut [Ghash128],
) {
    let words = out.len() / 64;
    let mut images = [Ghash128::ZERO; 64];
    for (g, map) in (first_group..).zip(maps) {
        let live = (instances - 64 * g).min(64);
        for w in (0..words).step_by(STACK) {
            let width = STACK.min(words - w);
            let mut m = [[0u64; STACK]; 64];
            let mut any = 0;
            for (r, row) in m.iter_mut().enumerate().take(live) {
                let at = (64 * g + r) * block_words + word0 + w;
                if width == STACK {
                    // A fixed-size copy: one vector load, not a `memcpy` call per row.
                    *row = z[at..at + STACK].try_into().expect("STACK words");
                } else {
                    row[..width].copy_from_slice(&z[at..at + width]);
                }
                any |= row.iter().fold(0, |a, &x| a | x);
            }
            if any == 0 {
                continue;
            }
            transpose64_groups(&mut m);
            for t in 0..width {
                let rows: [u64; 64] = core::array::from_fn(|b| m[b][t]);
                map.apply_slice(&rows, &mut images);
                for (o, &v) in out[64 * (w + t)..][..64].iter_mut().zip(&images) {
                    *o += v;
                }
            }
        }
    }
}

/// `ι_n(s) = Σ_{k < n} eq(s, k)`: the multilinear extension of the indicator of the first
/// `n ≤ 2^len(s)` instances (bit `l` of `k` is variable `l`), in `O(len(s))`. Splitting the sum
/// at the highest bit where `k` first falls below `n`: for every set bit `l` of `n`, the
/// indices that agree with `n` above `l` and have bit `l` clear contribute
/// `Π_{j > l} eq(s_j, n_j)·(1 − s_l)` (the lower bits sum to 1).
#[must_use]
pub fn indicator_eval(s: &[Ghash128], n: usize) -> Ghash128 {
    if n >> s.len() != 0 {
        // n = 2^len(s): every index.
        return Ghash128::ONE;
    }
    let mut high = Ghash128::ONE;
    let mut sum = Ghash128::ZERO;
    for (l, &x) in s.iter().enumerate().rev() {
        if (n >> l) & 1 == 1 {
            sum += high * (Ghash128::ONE + x);
            high *= x;
        } else {
            high *= Ghash128::ONE + x;
        }
    }
    sum
}

/// Squeezes `α`, `β` and returns the sumcheck claim `α·â + b̂ + β·ι_N(s_out)` for `N =
/// instances`.
fn challenges<T: Transcript>(
    zc: &ZerocheckClaims,
    s_out: &[Ghash128],
    instances: usize,
    transcript: &mut T,
) -> (Ghash128, Ghash128, Ghash128) {
    let alpha = transcript.challenge::<Ghash128>(LABEL_ALPHA);
    let beta = transcript.challenge::<Ghash128>(LABEL_BETA);
    let pin = indicator_eval(s_out, instances);
    (alpha, beta, alpha * zc.a_value + zc.b_value + beta * pin)
}

/// The lincheck prover; `z` is the packed batch witness and `lanes`, if the witness
/// recorded it, the same bits in lane order ([`BatchWitness::lanes`], folded by
/// [`fold_lanes`] instead of [`fold_instances`]).
///
/// [`BatchWitness::lanes`]: flockwork_circuit::BatchWitness::lanes
///
/// Also returns the z-claim's ring-switching partial evaluations when the block has at least
/// 128 bits ([`claim_partials`]: from `z_vec`, so the opening need not read the witness for
/// this claim).
pub fn prove<T: ProverTranscript>(
    lowering: &R1csLowering,
    z: &[u64],
    lanes: Option<&[u64]>,
    zc: &ZerocheckClaims,
    instances: usize,
    transcript: &mut T,
) -> (LincheckClaim, Option<Vec<Ghash128>>) {
    let m0 = lowering.log_block();
    let s_out = &zc.rho[m0 - SKIP_VARS..];
    let (alpha, beta, claim) = challenges(zc, s_out, instances, transcript);
    let comb = comb_vector(lowering, zc, alpha, beta);
    let z_vec = match lanes {
        Some(lanes) => fold_lanes(lanes, m0, s_out, instances),
        None => fold_instances(z, m0, s_out, instances),
    };
    let polys = vec![
        MultilinearPoly::new(comb),
        MultilinearPoly::new(z_vec.clone()),
    ];
    let out = flockwork_core::prove(polys, None, claim, transcript);
    transcript.send_field(LABEL_FINAL, &out.final_evals);
    let partials = claim_partials(&z_vec, &out.point);
    let mut point = out.point;
    point.extend_from_slice(s_out);
    let claim = LincheckClaim {
        point,
        value: out.final_evals[1],
    };
    (claim, partials)
}

/// The ring-switching partial evaluations ([`flockwork_pcs::ring_switch`]: [`PACKED_VARS`]
/// bit variables packed per GF(2^128) word) of the z-claim `ẑ(r' ‖ s_out)`, from the instance fold `z_vec`
/// alone: bit `v` of word `y` is witness bit `128·y + v`, so with `y = (p_hi, k)` (the block
/// position above its low 7 bits, then the instance)
///
/// ```text
/// ŝ_v = Σ_{p_hi, k} z[k, v + 128·p_hi]·eq(r'_{≥7}, p_hi)·eq(s_out, k) = Σ_{p_hi} eq(r'_{≥7}, p_hi)·z_vec[v + 128·p_hi]
/// ```
///
/// — `2^m0` products instead of a pass over the `2^m` committed bits. `None` for blocks of
/// fewer than 128 bits (the opening then computes them from the commitment).
#[must_use]
pub fn claim_partials(z_vec: &[Ghash128], r_prime: &[Ghash128]) -> Option<Vec<Ghash128>> {
    if r_prime.len() < PACKED_VARS || z_vec.len() != 1 << r_prime.len() {
        return None;
    }
    let eq = eq_table(&r_prime[PACKED_VARS..]);
    let mut acc = vec![Ghash128::ZERO; 1 << PACKED_VARS];
    for (words, &w) in z_vec.chunks_exact(1 << PACKED_VARS).zip(&eq) {
        flockwork_field_binary::ghash::batch::add_mul_scalar(&mut acc, words, w);
    }
    Some(acc)
}

/// The lincheck verifier.
///
/// # Errors
/// Transcript and sumcheck errors; [`VerifyError::FinalClaimMismatch`] if the prover's
/// `comb(r')` is not the verifier's or the product misses the reduced claim.
pub fn verify<T: VerifierTranscript>(
    lowering: &R1csLowering,
    zc: &ZerocheckClaims,
    instances: usize,
    transcript: &mut T,
) -> Result<LincheckClaim, VerifyError> {
    let m0 = lowering.log_block();
    let (alpha, beta, claim) = challenges(zc, &zc.rho[m0 - SKIP_VARS..], instances, transcript);
    let reduced = flockwork_core::verify(m0, 2, claim, None, transcript)?;
    let evals = transcript.recv_field::<Ghash128>(LABEL_FINAL, 2)?;
    let comb = MultilinearPoly::new(comb_vector(lowering, zc, alpha, beta));
    if evals[0] != comb.evaluate(&reduced.point) || evals[0] * evals[1] != reduced.value {
        return Err(VerifyError::FinalClaimMismatch);
    }
    let mut point = reduced.point;
    point.extend_from_slice(&zc.rho[m0 - SKIP_VARS..]);
    Ok(LincheckClaim {
        point,
        value: evals[1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `Σ_k eq(s_out, k)·z[k, j]` bit by bit.
    fn naive(z: &[u64], log_block: usize, s_out: &[Ghash128]) -> Vec<Ghash128> {
        let weights = eq_table(s_out);
        let words = (1usize << log_block) / 64;
        (0..1usize << log_block)
            .map(|j| {
                weights
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| (z[k * words + j / 64] >> (j % 64)) & 1 == 1)
                    .map(|(_, &w)| w)
                    .sum()
            })
            .collect()
    }

    #[test]
    fn indicator_is_the_prefix_sum_of_eq() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for k in 0..6 {
            let s: Vec<Ghash128> = (0..k).map(|_| Ghash128::new(rng.random())).collect();
            let table = eq_table(&s);
            for n in 0..=1usize << k {
                let want: Ghash128 = table[..n].iter().copied().sum();
                assert_eq!(indicator_eval(&s, n), want, "k = {k}, n = {n}");
            }
        }
    }

    #[test]
    fn instance_fold_matches_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        // Fewer than 64 instances, a word count that is not a multiple of the stack, two
        // word chunks, and two batches of maps.
        for (log_block, log_instances) in [(6, 0), (7, 3), (8, 7), (13, 7), (6, 13)] {
            let words = (1usize << log_block) / 64;
            let mut z: Vec<u64> = (0..words << log_instances).map(|_| rng.random()).collect();
            // A position that is zero in every instance of the first group.
            for k in 0..(1usize << log_instances).min(64) {
                z[k * words] &= !1;
            }
            let s_out: Vec<Ghash128> = (0..log_instances)
                .map(|_| Ghash128::new(rng.random()))
                .collect();
            // Every block live, then only the first `live` (the rest zeroed, as padding is).
            let all = 1usize << log_instances;
            for live in [all, all / 2 + 1, 1] {
                z[live * words..].iter_mut().for_each(|w| *w = 0);
                let expected = naive(&z, log_block, &s_out);
                assert_eq!(
                    fold_instances(&z, log_block, &s_out, live),
                    expected,
                    "m0 = {log_block}, k = {log_instances}, live = {live}"
                );
                assert_eq!(
                    fold_lanes(
                        &lanes_of(&z, log_block, log_instances),
                        log_block,
                        &s_out,
                        live
                    ),
                    expected,
                    "lanes, m0 = {log_block}, k = {log_instances}, live = {live}"
                );
            }
        }
    }

    #[test]
    fn claim_partials_equal_the_ring_switch_partials_of_the_commitment() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for (log_block, log_instances) in [(7, 0), (7, 4), (9, 3), (12, 1)] {
            let words = (1usize << log_block) / 64;
            let z: Vec<u64> = (0..words << log_instances).map(|_| rng.random()).collect();
            let mut point = |n: usize| -> Vec<Ghash128> {
                (0..n).map(|_| Ghash128::new(rng.random())).collect()
            };
            let (s_out, r_prime) = (point(log_instances), point(log_block));
            let z_vec = naive(&z, log_block, &s_out);
            let got = claim_partials(&z_vec, &r_prime).expect("a block of at least 128 bits");
            // The committed words: two witness words per GF(2^128) element.
            let packed: Vec<Ghash128> = z
                .chunks_exact(2)
                .map(|w| Ghash128::new(u128::from(w[0]) | (u128::from(w[1]) << 64)))
                .collect();
            let high: Vec<Ghash128> = r_prime[7..].iter().chain(&s_out).copied().collect();
            let want = flockwork_pcs::ring_switch::partial_evaluations(&packed, &high);
            assert_eq!(got, want, "m0 = {log_block}, k = {log_instances}");
        }
        // Blocks below 128 bits are left to the opening.
        assert_eq!(
            claim_partials(&[Ghash128::ONE; 64], &[Ghash128::ONE; 6]),
            None
        );
    }

    /// `z` in lane order, bit by bit (`BatchWitness::lanes`).
    fn lanes_of(z: &[u64], log_block: usize, log_instances: usize) -> Vec<u64> {
        let (positions, instances) = (1usize << log_block, 1usize << log_instances);
        let mut lanes = vec![0u64; instances.div_ceil(64) * positions];
        for k in 0..instances {
            for p in 0..positions {
                let bit = (z[(k * positions + p) / 64] >> (p % 64)) & 1;
                lanes[(k / 64) * positions + p] |= bit << (k % 64);
            }
        }
        lanes
    }
}
