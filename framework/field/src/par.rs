//! The provers' data-parallel loops, in one place: on rayon's current pool with the
//! `parallel` feature, the same loops in order without it (same results either way; only the
//! order of independent work changes). Every crate with a `parallel` feature turns on this
//! crate's, and none writes its own `cfg(feature = "parallel")` twin of a loop found here.
//!
//! Loops over fewer items than their threshold (`min_len`, one of the constants below) stay
//! on the calling thread: handing work to another thread costs a wake-up (microseconds), more
//! than the work itself below the threshold.
//!
//! ## Tuned constants
//!
//! The grain sizes and cache blocks of the provers, with what sets them. They were tuned on
//! the project's measurement machines — AMD Zen 4 (the batch witness's zero fill) and an
//! Intel Xeon @ 2.80GHz with AVX-512 and VPCLMULQDQ (the rest), both with 2 threads — and
//! none assumes a thread count: a threshold is the least work worth one task, whatever the
//! number of threads, and loops cut their work into tasks of that size for rayon's work
//! stealing to share among however many threads the pool has.
//!
//! | constant | value | what sets it |
//! |---|---|---|
//! | [`MIN_PARALLEL_ITEMS`] | `2^12` | the polynomial core's loops (a multiply-add per item): below it, sequential; tasks of `2^10` items |
//! | [`MIN_PARALLEL_ELEMS`] | `2^13` | the codes' transforms (a butterfly or a fold per element): below it, sequential |
//! | [`EQ_CHUNK`] | `2^10` | eq tables' doubling steps: two GF(2^128) chunks (32 KiB) stay in L1 |
//! | [`SUMCHECK_CHUNK`] | `2^10` | pairs per chunk of every two-table (degree-2) sumcheck, `flockwork_core::sumcheck::product`: a chunk's rows (16 KiB each in GF(2^128)) stay in L1 |
//! | [`ROW_CHUNK`] | `2^10` | rows per task of the layered GKR prover (each row is `t` elements of GF(2^256)) |
//! | [`FOLD_CHUNK`] | `2^12` | pairs per task of a FRI fold (one multiplication each) |
//! | [`COMBINE_CHUNK`] | `2^12` | rows per task of the combination of an interleaved codeword (one inner product each) |
//! | [`PACKED_CHUNK`] | `2^8` | packed GF(2^128) words per task of the ring-switching partial evaluations (128 bits each, 32 Ki bit products) |
//! | [`BUTTERFLY_CHUNK`] | `2^8` | elements per NTT butterfly task: four rows of it (16 KiB of GF(2^128)) stay in L1 between the two layers of a pair |
//! | [`CACHE_ELEMS`] | `2^14` | NTT blocks of this many elements (256 KiB of GF(2^128), the L2 share of a core) run all their remaining layers in cache |
//! | [`LEAF_BATCH`], [`NODE_BATCH`] | 64, 512 | Merkle leaves and nodes per multi-lane hash call and per task (a multiple of the 8 or 16 SIMD lanes) |
//! | [`HUGE_PAGE_MIN_BYTES`] | 4 MiB | buffers from this size on are advised onto transparent huge pages and zeroed by all threads (two 2 MiB pages) |

use alloc::vec::Vec;

/// Items of the polynomial core's loops (eq tables, folds, sumcheck sums) below which they
/// run sequentially; parallel tasks hold at least a quarter of it.
pub const MIN_PARALLEL_ITEMS: usize = 1 << 12;
/// Field elements of the codes' transforms (NTT layers, folds, encodings) below which they run
/// sequentially.
pub const MIN_PARALLEL_ELEMS: usize = 1 << 13;
/// Elements per chunk of an eq table's doubling step.
pub const EQ_CHUNK: usize = 1 << 10;
/// Pairs per chunk of the two-table (degree-2) sumcheck kernel.
pub const SUMCHECK_CHUNK: usize = 1 << 10;
/// Rows per parallel task of the layered GKR prover.
pub const ROW_CHUNK: usize = 1 << 10;
/// Pairs folded per parallel task of a FRI fold.
pub const FOLD_CHUNK: usize = 1 << 12;
/// Rows per parallel task when an interleaved codeword is combined into one word.
pub const COMBINE_CHUNK: usize = 1 << 12;
/// Packed words per parallel task of the ring-switching partial evaluations.
pub const PACKED_CHUNK: usize = 1 << 8;
/// Elements per NTT butterfly task: `u` stays in L1 between its two passes.
pub const BUTTERFLY_CHUNK: usize = 1 << 8;
/// NTT blocks of at most this many elements run all their remaining layers while resident in
/// cache.
pub const CACHE_ELEMS: usize = 1 << 14;
/// Merkle leaves hashed per multi-lane call (and per parallel task).
pub const LEAF_BATCH: usize = 64;
/// Merkle internal nodes hashed per multi-lane call (and per parallel task).
pub const NODE_BATCH: usize = 512;
/// Buffers from this size on (in bytes) are advised onto huge pages and zeroed in parallel.
pub const HUGE_PAGE_MIN_BYTES: usize = 4 << 20;

/// Runs `op` on a thread of rayon's current pool (the global one unless the caller is inside
/// `rayon::ThreadPool::install`) and returns its result; on a worker already, or without
/// the `parallel` feature, it runs `op` in place.
///
/// The provers' entry points run through it, so their parallel loops fork from a worker,
/// which takes its share of the work, instead of being injected one by one from the
/// caller's thread, which sleeps until each is done: the short parallel sections (a grinding
/// window, a late sumcheck round, a small fold) otherwise pay a cross-thread wake-up each.
pub fn on_worker<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    {
        // `scope` runs its closure on a worker (injecting it when called from outside the
        // pool); `in_place_scope` would stay on the caller's thread.
        rayon::scope(|_| op())
    }
    #[cfg(not(feature = "parallel"))]
    {
        op()
    }
}

/// `(a(), b())`, the two in parallel with the `parallel` feature.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "parallel")]
    {
        rayon::join(a, b)
    }
    #[cfg(not(feature = "parallel"))]
    {
        (a(), b())
    }
}

/// `(0..n).map(f).collect()`, in tasks of at least `min_len / 4` indices from `n ≥ min_len`.
pub fn map_collect<T, G>(n: usize, min_len: usize, f: G) -> Vec<T>
where
    T: Send,
    G: Fn(usize) -> T + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n >= min_len {
        use rayon::prelude::*;
        return (0..n)
            .into_par_iter()
            .with_min_len((min_len / 4).max(1))
            .map(f)
            .collect();
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    (0..n).map(f).collect()
}

/// Zero-filled `u64` buffers of the given lengths, each allocated (and so cleared: a `memset`
/// when the allocator reuses freed pages) by its own task once their total reaches `min_len`
/// words, so the clearing is spread over the pool's threads.
pub fn zeroed_words<const N: usize>(lens: [usize; N], min_len: usize) -> [Vec<u64>; N] {
    #[cfg(feature = "parallel")]
    if lens.iter().sum::<usize>() >= min_len {
        use rayon::prelude::*;
        let mut out: [Vec<u64>; N] = core::array::from_fn(|_| Vec::new());
        out.par_iter_mut()
            .with_max_len(1)
            .zip(lens)
            .for_each(|(v, len)| *v = alloc::vec![0u64; len]);
        return out;
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    lens.map(|len| alloc::vec![0u64; len])
}

/// `f(index, chunk)` for the chunks of `chunk` elements of `data` (the last may be shorter),
/// in parallel when `data` has at least `min_len` elements and more than one chunk.
pub fn for_each_chunk<T, G>(data: &mut [T], chunk: usize, min_len: usize, f: G)
where
    T: Send,
    G: Fn(usize, &mut [T]) + Sync + Send,
{
    let chunk = chunk.max(1);
    #[cfg(feature = "parallel")]
    if data.len() >= min_len && data.len() > chunk {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk)
            .enumerate()
            .for_each(|(i, c)| f(i, c));
        return;
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    data.chunks_mut(chunk)
        .enumerate()
        .for_each(|(i, c)| f(i, c));
}

/// `f(index, a_chunk, b_chunk)` for the chunks of `a_chunk` elements of `a` paired with the
/// chunks of `b_chunk` elements of `b` (as many of each), in parallel when `a` has at least
/// `min_len` elements and more than one chunk.
pub fn zip_chunks<T, U, G>(
    a: &mut [T],
    a_chunk: usize,
    b: &mut [U],
    b_chunk: usize,
    min_len: usize,
    f: G,
) where
    T: Send,
    U: Send,
    G: Fn(usize, &mut [T], &mut [U]) + Sync + Send,
{
    let (a_chunk, b_chunk) = (a_chunk.max(1), b_chunk.max(1));
    #[cfg(feature = "parallel")]
    if a.len() >= min_len && a.len() > a_chunk {
        use rayon::prelude::*;
        a.par_chunks_mut(a_chunk)
            .zip(b.par_chunks_mut(b_chunk))
            .enumerate()
            .for_each(|(i, (x, y))| f(i, x, y));
        return;
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    a.chunks_mut(a_chunk)
        .zip(b.chunks_mut(b_chunk))
        .enumerate()
        .for_each(|(i, (x, y))| f(i, x, y));
}

/// `f(index, out_chunk, in_chunk)` for the chunks of `out_chunk` elements of `out` paired
/// with the chunks of `in_chunk` elements of the read-only `input` (as many of each; the last
/// may be shorter), in parallel when `out` has at least `min_len` elements and more than one
/// chunk: [`for_each_chunk`] over `out`, each task slicing its piece of `input`.
pub fn zip_chunks_read<T, U, G>(
    out: &mut [T],
    out_chunk: usize,
    input: &[U],
    in_chunk: usize,
    min_len: usize,
    f: G,
) where
    T: Send,
    U: Sync,
    G: Fn(usize, &mut [T], &[U]) + Sync + Send,
{
    let in_chunk = in_chunk.max(1);
    for_each_chunk(out, out_chunk, min_len, |i, o| {
        let start = (i * in_chunk).min(input.len());
        f(i, o, &input[start..(start + in_chunk).min(input.len())]);
    });
}

/// `reduce` over `f(index, a_chunk, b_chunk)` for the chunks of `chunk` elements of two
/// equally long slices (`reduce` associative with `identity()` neutral), in parallel when `a`
/// has at least `min_len` elements and more than one chunk.
pub fn zip_chunks_reduce<T, A, I, G, R>(
    a: &mut [T],
    b: &mut [T],
    chunk: usize,
    min_len: usize,
    identity: I,
    f: G,
    reduce: R,
) -> A
where
    T: Send,
    A: Send,
    I: Fn() -> A + Sync + Send,
    G: Fn(usize, &mut [T], &mut [T]) -> A + Sync + Send,
    R: Fn(A, A) -> A + Sync + Send,
{
    let chunk = chunk.max(1);
    #[cfg(feature = "parallel")]
    if a.len() >= min_len && a.len() > chunk {
        use rayon::prelude::*;
        return a
            .par_chunks_mut(chunk)
            .zip(b.par_chunks_mut(chunk))
            .enumerate()
            .map(|(i, (x, y))| f(i, x, y))
            .reduce(identity, reduce);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    a.chunks_mut(chunk)
        .zip(b.chunks_mut(chunk))
        .enumerate()
        .map(|(i, (x, y))| f(i, x, y))
        .fold(identity(), reduce)
}

/// `reduce` over `f(g, [a_g, b_g, c_g, d_g])` for every group `g`, where `x_g` is the `g`-th
/// chunk of `chunks[i]` elements of the `i`-th slice (the slice with the fewest chunks decides
/// how many groups there are; `reduce` associative with `identity()` neutral), in parallel
/// when `a` has at least `min_len` elements and more than one chunk.
///
/// # Panics
/// If a chunk length is zero.
pub fn zip4_chunks_reduce<T, A, I, G, R>(
    rows: [&mut [T]; 4],
    chunks: [usize; 4],
    min_len: usize,
    identity: I,
    f: G,
    reduce: R,
) -> A
where
    T: Send,
    A: Send,
    I: Fn() -> A + Sync + Send,
    G: Fn(usize, [&mut [T]; 4]) -> A + Sync + Send,
    R: Fn(A, A) -> A + Sync + Send,
{
    let [a, b, c, d] = rows;
    #[cfg(feature = "parallel")]
    if a.len() >= min_len && a.len() > chunks[0] {
        use rayon::prelude::*;
        return a
            .par_chunks_mut(chunks[0])
            .zip(b.par_chunks_mut(chunks[1]))
            .zip(c.par_chunks_mut(chunks[2]))
            .zip(d.par_chunks_mut(chunks[3]))
            .enumerate()
            .map(|(g, (((w, x), y), z))| f(g, [w, x, y, z]))
            .reduce(identity, reduce);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = min_len;
    a.chunks_mut(chunks[0])
        .zip(b.chunks_mut(chunks[1]))
        .zip(c.chunks_mut(chunks[2]))
        .zip(d.chunks_mut(chunks[3]))
        .enumerate()
        .map(|(g, (((w, x), y), z))| f(g, [w, x, y, z]))
        .fold(identity(), reduce)
}

/// `f([a, b, c, d])` over matching chunks of `chunk` elements of four equally long slices
/// when they have at least `min_len` elements (in parallel); one call on the whole slices
/// otherwise.
pub fn zip4_chunks<T, G>(rows: [&mut [T]; 4], chunk: usize, min_len: usize, f: G)
where
    T: Send,
    G: Fn([&mut [T]; 4]) + Sync + Send,
{
    let [a, b, c, d] = rows;
    #[cfg(feature = "parallel")]
    if a.len() >= min_len {
        use rayon::prelude::*;
        let chunk = chunk.max(1);
        a.par_chunks_mut(chunk)
            .zip(b.par_chunks_mut(chunk))
            .zip(c.par_chunks_mut(chunk).zip(d.par_chunks_mut(chunk)))
            .for_each(|((w, x), (y, z))| f([w, x, y, z]));
        return;
    }
    #[cfg(not(feature = "parallel"))]
    let _ = (chunk, min_len);
    f([a, b, c, d]);
}

/// `f(g, [a_g, b_g, c_g, d_g])` for every group `g` ([`zip4_chunks_reduce`] without a
/// result), one task per group with the `parallel` feature whatever the length: every group
/// is a large piece of work (the batch witness's groups of `64·W` instances).
///
/// # Panics
/// If a chunk length is zero.
pub fn zip4_chunks_indexed<T, G>(rows: [&mut [T]; 4], chunks: [usize; 4], f: G)
where
    T: Send,
    G: Fn(usize, [&mut [T]; 4]) + Sync + Send,
{
    zip4_chunks_reduce(rows, chunks, 0, || (), f, |(), ()| ());
}

/// `reduce(map(0), reduce(map(1), …))` in some bracketing (`reduce` must be associative with
/// `identity()` neutral), in parallel from `n ≥ min_n` with tasks of at least `min_len`
/// indices.
pub fn map_reduce<A, I, M, R>(
    n: usize,
    min_n: usize,
    min_len: usize,
    identity: I,
    map: M,
    reduce: R,
) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    M: Fn(usize) -> A + Sync + Send,
    R: Fn(A, A) -> A + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n >= min_n && n > 1 {
        use rayon::prelude::*;
        return (0..n)
            .into_par_iter()
            .with_min_len(min_len.max(1))
            .map(map)
            .reduce(identity, reduce);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = (min_n, min_len);
    (0..n).map(map).fold(identity(), reduce)
}

/// Folds the indices `0..n` into accumulators (one per task, each started by `identity`) and
/// merges them with `reduce`. `cost` is the work per index in elementary steps; parallel from
/// `n·cost ≥ min_len` steps, with tasks of at least `min_len / 4` steps.
pub fn fold_reduce<A, I, G, R>(
    n: usize,
    cost: usize,
    min_len: usize,
    identity: I,
    fold: G,
    reduce: R,
) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    G: Fn(A, usize) -> A + Sync + Send,
    R: Fn(A, A) -> A + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n.saturating_mul(cost) >= min_len && n > 1 {
        use rayon::prelude::*;
        let task = (min_len / 4 / cost.max(1)).max(1);
        return (0..n)
            .into_par_iter()
            .with_min_len(task)
            .fold(&identity, &fold)
            .reduce(&identity, &reduce);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = (cost, min_len, &reduce);
    (0..n).fold(identity(), fold)
}

/// `f(start, chunk)` over the chunks of `len` elements of `out` (`start` the index of the
/// chunk's first element), the results merged with `merge`; in parallel when there is more
/// than one chunk.
///
/// # Panics
/// If `out` is empty.
pub fn map_chunks<T, R, G, M>(out: &mut [T], len: usize, f: G, merge: M) -> R
where
    T: Send,
    R: Send,
    G: Fn(usize, &mut [T]) -> R + Sync + Send,
    M: Fn(R, R) -> R + Sync + Send,
{
    let len = len.max(1);
    #[cfg(feature = "parallel")]
    if out.len() > len {
        use rayon::prelude::*;
        return out
            .par_chunks_mut(len)
            .enumerate()
            .map(|(i, chunk)| f(i * len, chunk))
            .reduce_with(merge)
            .expect("at least one chunk");
    }
    out.chunks_mut(len)
        .enumerate()
        .map(|(i, chunk)| f(i * len, chunk))
        .reduce(merge)
        .expect("at least one chunk")
}

/// `fold(range)` over the ranges of `chunk` consecutive indices of `0..n` (the last may be
/// shorter), the results merged with `merge`; in parallel when there is more than one range,
/// one `fold(0..n)` otherwise.
pub fn reduce_ranges<A, G, M>(n: usize, chunk: usize, fold: G, merge: M) -> A
where
    A: Send,
    G: Fn(core::ops::Range<usize>) -> A + Sync + Send,
    M: Fn(A, A) -> A + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n > chunk.max(1) {
        use rayon::prelude::*;
        let chunk = chunk.max(1);
        return (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|c| fold(c * chunk..((c + 1) * chunk).min(n)))
            .reduce_with(merge)
            .expect("at least one range");
    }
    #[cfg(not(feature = "parallel"))]
    let _ = (chunk, &merge);
    fold(0..n)
}

/// `x + y` element-wise: how vector-valued partial sums are combined.
#[cfg(feature = "parallel")]
fn add_vectors<E: Copy + core::ops::AddAssign>(mut x: Vec<E>, y: Vec<E>) -> Vec<E> {
    for (p, q) in x.iter_mut().zip(y) {
        *p += q;
    }
    x
}

/// `Σ_i f(i, out_chunk_i, in_chunk_i)` over the chunks of `out_chunk` elements of `out`
/// paired with the chunks of `in_chunk` elements of `input`: `f` adds its chunk's part into
/// a vector of `len` partial sums (and may rewrite its output chunk); the vectors of the
/// tasks are added element-wise. Every chunk is a task (with the `parallel` feature).
pub fn zip_chunk_sums<T, U, E, G>(
    out: &mut [T],
    out_chunk: usize,
    input: &[U],
    in_chunk: usize,
    len: usize,
    zero: E,
    f: G,
) -> Vec<E>
where
    T: Send,
    U: Sync,
    E: Copy + Send + Sync + core::ops::AddAssign,
    G: Fn(usize, &mut [T], &[U], &mut [E]) + Sync + Send,
{
    let (out_chunk, in_chunk) = (out_chunk.max(1), in_chunk.max(1));
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.par_chunks_mut(out_chunk)
            .zip(input.par_chunks(in_chunk))
            .enumerate()
            .fold(
                || alloc::vec![zero; len],
                |mut acc, (i, (o, x))| {
                    f(i, o, x, &mut acc);
                    acc
                },
            )
            .reduce(|| alloc::vec![zero; len], add_vectors)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut acc = alloc::vec![zero; len];
        for (i, (o, x)) in out
            .chunks_mut(out_chunk)
            .zip(input.chunks(in_chunk))
            .enumerate()
        {
            f(i, o, x, &mut acc);
        }
        acc
    }
}

/// [`zip_chunk_sums`] over `data`'s chunks alone (`f` may rewrite its chunk).
pub fn chunk_sums_mut<T, E, G>(data: &mut [T], chunk: usize, len: usize, zero: E, f: G) -> Vec<E>
where
    T: Send,
    E: Copy + Send + Sync + core::ops::AddAssign,
    G: Fn(usize, &mut [T], &mut [E]) + Sync + Send,
{
    let blanks = alloc::vec![(); data.len().div_ceil(chunk.max(1))];
    zip_chunk_sums(data, chunk, &blanks, 1, len, zero, |i, c, _, acc| {
        f(i, c, acc)
    })
}

/// [`zip_chunk_sums`] over the read-only `data`'s chunks.
pub fn chunk_sums<T, E, G>(data: &[T], chunk: usize, len: usize, zero: E, f: G) -> Vec<E>
where
    T: Sync,
    E: Copy + Send + Sync + core::ops::AddAssign,
    G: Fn(usize, &[T], &mut [E]) + Sync + Send,
{
    let mut blanks = alloc::vec![(); data.len().div_ceil(chunk.max(1))];
    zip_chunk_sums(&mut blanks, 1, data, chunk, len, zero, |i, _, c, acc| {
        f(i, c, acc)
    })
}

/// `f(&mut scratch, item)` for every item, in parallel when there is more than one; `init`
/// makes the scratch space, once per task (once in all without the feature). For items that
/// are each a large piece of work (a block of instances, a stripe of a codeword).
pub fn for_each_init<I, S, N, G>(items: Vec<I>, init: N, f: G)
where
    I: Send,
    N: Fn() -> S + Sync + Send,
    G: Fn(&mut S, I) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if items.len() > 1 {
        use rayon::prelude::*;
        items.into_par_iter().for_each_init(init, f);
        return;
    }
    let mut scratch = init();
    for item in items {
        f(&mut scratch, item);
    }
}

/// Appends `f(x)` for every `x` of `values` to `out`, written by all threads.
pub fn extend_mapped<T, U, G>(out: &mut Vec<U>, values: &[T], f: G)
where
    T: Copy + Sync,
    U: Send,
    G: Fn(T) -> U + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.par_extend(values.par_iter().map(|&x| f(x)));
    }
    #[cfg(not(feature = "parallel"))]
    out.extend(values.iter().map(|&x| f(x)));
}

/// Appends `len` copies of `value` to `out`, written by all threads.
pub fn extend_repeated<T: Copy + Send + Sync>(out: &mut Vec<T>, value: T, len: usize) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.par_extend(rayon::iter::repeat_n(value, len));
    }
    #[cfg(not(feature = "parallel"))]
    out.resize(out.len() + len, value);
}

/// The number of threads loops here may use (rayon's current pool; 1 without the feature).
#[must_use]
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}
