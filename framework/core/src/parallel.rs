//! The few data-parallel patterns the prover needs, on rayon with the `parallel` feature and
//! as plain loops without it. Work below [`MIN_PARALLEL_LEN`] items always runs sequentially.

use alloc::vec::Vec;

/// Inputs shorter than this are processed sequentially (thread hand-off costs more).
pub(crate) const MIN_PARALLEL_LEN: usize = 1 << 12;

/// `(0..n).map(f).collect()`.
pub(crate) fn map_collect<T, G>(n: usize, f: G) -> Vec<T>
where
    T: Send,
    G: Fn(usize) -> T + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n >= MIN_PARALLEL_LEN {
        use rayon::prelude::*;
        return (0..n)
            .into_par_iter()
            .with_min_len(MIN_PARALLEL_LEN / 4)
            .map(f)
            .collect();
    }
    (0..n).map(f).collect()
}

/// Four zero-filled word buffers of the given lengths, allocated by two threads with the
/// `parallel` feature: each allocation clears its memory (a `memset` when the allocator
/// reuses freed pages), so the clearing of the four is split between the threads.
pub(crate) fn zeroed_words4(lens: [usize; 4]) -> [Vec<u64>; 4] {
    let pair = |a: usize, b: usize| (alloc::vec![0u64; a], alloc::vec![0u64; b]);
    #[cfg(feature = "parallel")]
    if lens.iter().sum::<usize>() >= MIN_PARALLEL_LEN {
        let ((w, x), (y, z)) = rayon::join(|| pair(lens[0], lens[2]), || pair(lens[1], lens[3]));
        return [w, y, x, z];
    }
    let ((w, x), (y, z)) = (pair(lens[0], lens[2]), pair(lens[1], lens[3]));
    [w, y, x, z]
}

/// `f(a_chunk, b_chunk)` over matching chunks of `chunk` elements of two equally long
/// slices (the last chunk may be shorter), in parallel for long slices.
pub(crate) fn chunks_for_each<T, G>(a: &mut [T], b: &mut [T], chunk: usize, f: G)
where
    T: Send,
    G: Fn(&mut [T], &mut [T]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_LEN {
        use rayon::prelude::*;
        a.par_chunks_mut(chunk)
            .zip(b.par_chunks_mut(chunk))
            .for_each(|(x, y)| f(x, y));
        return;
    }
    a.chunks_mut(chunk)
        .zip(b.chunks_mut(chunk))
        .for_each(|(x, y)| f(x, y));
}

/// Folds the indices `0..n` into accumulators (one per chunk, each started by `identity`)
/// and merges them with `reduce`. `cost` is the work per index in elementary steps; chunks
/// hold at least `MIN_PARALLEL_LEN / 4` steps.
pub(crate) fn fold_reduce<A, I, G, R>(n: usize, cost: usize, identity: I, fold: G, reduce: R) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    G: Fn(A, usize) -> A + Sync + Send,
    R: Fn(A, A) -> A + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if n.saturating_mul(cost) >= MIN_PARALLEL_LEN && n > 1 {
        use rayon::prelude::*;
        let min_len = (MIN_PARALLEL_LEN / 4 / cost.max(1)).max(1);
        return (0..n)
            .into_par_iter()
            .with_min_len(min_len)
            .fold(&identity, &fold)
            .reduce(&identity, &reduce);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = (cost, &reduce);
    (0..n).fold(identity(), fold)
}

/// `f(start, chunk)` over the aligned chunks of `len` elements of `out` (`start` the index of
/// the chunk's first element), the results merged with `merge`; in parallel when there is
/// more than one chunk.
///
/// # Panics
/// If `out` is empty.
pub(crate) fn map_chunks<T, R, G, M>(out: &mut [T], len: usize, f: G, merge: M) -> R
where
    T: Send,
    R: Send,
    G: Fn(usize, &mut [T]) -> R + Sync + Send,
    M: Fn(R, R) -> R + Sync + Send,
{
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

/// Runs `op` on a thread of rayon's current pool (the global one unless the caller is inside
/// [`rayon::ThreadPool::install`]) and returns its result; on a worker already, or without
/// the `parallel` feature, it runs `op` in place.
///
/// The provers' entry points run through it, so their parallel loops fork from a worker,
/// which takes its share of the work, instead of being injected one by one from the
/// caller's thread, which sleeps until each is done: with two threads the short parallel
/// sections (a grinding window, a late sumcheck round, a small fold) otherwise paid a
/// cross-thread wake-up each. A caller gets this without doing anything.
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

/// `f(&mut scratch, item)` for every item, in parallel with the `parallel` feature when there
/// is more than one; `init` makes the scratch space, once per rayon job (once in all without
/// the feature). For items that are each a large piece of work (a block of instances).
pub(crate) fn for_each_init<I, S, N, G>(items: Vec<I>, init: N, f: G)
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
