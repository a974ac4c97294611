//! The data-parallel helpers of the prover-side transforms: rayon with the `parallel`
//! feature, plain loops without it. Work below [`MIN_PARALLEL_ELEMS`] runs sequentially.

/// Fewer field elements than this are processed on the calling thread.
pub(crate) const MIN_PARALLEL_ELEMS: usize = 1 << 13;

/// `f(index, chunk)` for the consecutive chunks of `chunk_len` elements of `data`.
pub(crate) fn for_each_chunk<T, G>(data: &mut [T], chunk_len: usize, f: G)
where
    T: Send,
    G: Fn(usize, &mut [T]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if data.len() >= MIN_PARALLEL_ELEMS && data.len() > chunk_len {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk_len)
            .enumerate()
            .for_each(|(i, c)| f(i, c));
        return;
    }
    data.chunks_mut(chunk_len)
        .enumerate()
        .for_each(|(i, c)| f(i, c));
}

/// `f(a_chunk, b_chunk)` over equally long slices cut into chunks of `chunk_len` elements.
pub(crate) fn zip_chunks<T, G>(a: &mut [T], b: &mut [T], chunk_len: usize, f: G)
where
    T: Send,
    G: Fn(&mut [T], &mut [T]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_ELEMS {
        use rayon::prelude::*;
        a.par_chunks_mut(chunk_len)
            .zip(b.par_chunks_mut(chunk_len))
            .for_each(|(x, y)| f(x, y));
        return;
    }
    a.chunks_mut(chunk_len)
        .zip(b.chunks_mut(chunk_len))
        .for_each(|(x, y)| f(x, y));
}

/// `f(index, a_chunk, b_chunk)` for the chunks of `a_len` elements of `a` paired with the
/// chunks of `b_len` elements of `b` (as many of each).
pub(crate) fn zip_chunks_of<T, U, G>(a: &mut [T], a_len: usize, b: &mut [U], b_len: usize, f: G)
where
    T: Send,
    U: Send,
    G: Fn(usize, &mut [T], &mut [U]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_ELEMS && a.len() > a_len {
        use rayon::prelude::*;
        a.par_chunks_mut(a_len)
            .zip(b.par_chunks_mut(b_len.max(1)))
            .enumerate()
            .for_each(|(i, (x, y))| f(i, x, y));
        return;
    }
    a.chunks_mut(a_len)
        .zip(b.chunks_mut(b_len.max(1)))
        .enumerate()
        .for_each(|(i, (x, y))| f(i, x, y));
}

/// `f([a_chunk, b_chunk, c_chunk, d_chunk])` over four equally long slices cut into chunks
/// of `chunk_len` elements (sequentially: one call on the whole slices).
pub(crate) fn zip4_chunks<T, G>(rows: [&mut [T]; 4], chunk_len: usize, f: G)
where
    T: Send,
    G: Fn([&mut [T]; 4]) + Sync + Send,
{
    let [a, b, c, d] = rows;
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_ELEMS {
        use rayon::prelude::*;
        a.par_chunks_mut(chunk_len)
            .zip(b.par_chunks_mut(chunk_len))
            .zip(c.par_chunks_mut(chunk_len).zip(d.par_chunks_mut(chunk_len)))
            .for_each(|((w, x), (y, z))| f([w, x, y, z]));
        return;
    }
    let _ = chunk_len;
    f([a, b, c, d]);
}

/// `f(index, a_chunk, b_chunk)` over equally long slices cut into chunks of `chunk_len`
/// elements.
pub(crate) fn zip_chunks_indexed<T, G>(a: &mut [T], b: &mut [T], chunk_len: usize, f: G)
where
    T: Send,
    G: Fn(usize, &mut [T], &mut [T]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if a.len() >= MIN_PARALLEL_ELEMS {
        use rayon::prelude::*;
        a.par_chunks_mut(chunk_len)
            .zip(b.par_chunks_mut(chunk_len))
            .enumerate()
            .for_each(|(i, (x, y))| f(i, x, y));
        return;
    }
    a.chunks_mut(chunk_len)
        .zip(b.chunks_mut(chunk_len))
        .enumerate()
        .for_each(|(i, (x, y))| f(i, x, y));
}

/// Runs `a` and `b`, in parallel when both halves are large.
pub(crate) fn join<A, B>(a: A, b: B)
where
    A: FnOnce() + Send,
    B: FnOnce() + Send,
{
    #[cfg(feature = "parallel")]
    {
        rayon::join(a, b);
    }
    #[cfg(not(feature = "parallel"))]
    {
        a();
        b();
    }
}
