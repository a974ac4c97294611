//! Rayon where the `parallel` feature is on, the same loops sequentially where it is off.

/// Runs `f(chunk_index, chunk)` over `data.chunks_mut(chunk)`.
pub(crate) fn for_each_chunk_mut<T: Send>(
    data: &mut [T],
    chunk: usize,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk.max(1))
            .enumerate()
            .for_each(|(i, c)| f(i, c));
    }
    #[cfg(not(feature = "parallel"))]
    for (i, c) in data.chunks_mut(chunk.max(1)).enumerate() {
        f(i, c);
    }
}

/// `x + y` element-wise: how the parallel partial sums below are combined.
#[cfg(feature = "parallel")]
fn add_vectors<E: Copy + core::ops::AddAssign>(mut x: Vec<E>, y: Vec<E>) -> Vec<E> {
    for (p, q) in x.iter_mut().zip(y) {
        *p += q;
    }
    x
}

/// `Σ_i f(i, chunk_i)` over `data.chunks_mut(chunk)` with vector-valued partial sums of
/// length `len`, added element-wise (`f` may also rewrite its chunk).
pub(crate) fn map_reduce_chunks_mut<T: Send, E>(
    data: &mut [T],
    chunk: usize,
    len: usize,
    zero: E,
    f: impl Fn(usize, &mut [T], &mut [E]) + Sync + Send,
) -> Vec<E>
where
    E: Copy + Send + Sync + core::ops::AddAssign,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks_mut(chunk.max(1))
            .enumerate()
            .fold(
                || vec![zero; len],
                |mut acc, (i, c)| {
                    f(i, c, &mut acc);
                    acc
                },
            )
            .reduce(|| vec![zero; len], add_vectors)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut acc = vec![zero; len];
        for (i, c) in data.chunks_mut(chunk.max(1)).enumerate() {
            f(i, c, &mut acc);
        }
        acc
    }
}

/// `Σ_i f(i, out_chunk_i, in_chunk_i)` over `out.chunks_mut(out_chunk)` zipped with
/// `input.chunks(in_chunk)`, vector-valued partial sums of length `len` added element-wise.
pub(crate) fn zip_reduce_chunks_mut<T: Send, U: Sync, E>(
    out: &mut [T],
    out_chunk: usize,
    input: &[U],
    in_chunk: usize,
    len: usize,
    zero: E,
    f: impl Fn(usize, &mut [T], &[U], &mut [E]) + Sync + Send,
) -> Vec<E>
where
    E: Copy + Send + Sync + core::ops::AddAssign,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.par_chunks_mut(out_chunk.max(1))
            .zip(input.par_chunks(in_chunk.max(1)))
            .enumerate()
            .fold(
                || vec![zero; len],
                |mut acc, (i, (o, x))| {
                    f(i, o, x, &mut acc);
                    acc
                },
            )
            .reduce(|| vec![zero; len], add_vectors)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut acc = vec![zero; len];
        for (i, (o, x)) in out
            .chunks_mut(out_chunk.max(1))
            .zip(input.chunks(in_chunk.max(1)))
            .enumerate()
        {
            f(i, o, x, &mut acc);
        }
        acc
    }
}

/// `Σ_i f(i, chunk_i)` over `data.chunks(chunk)` (read-only), vector-valued partial sums of
/// length `len` added element-wise.
pub(crate) fn reduce_chunks<T: Sync, E>(
    data: &[T],
    chunk: usize,
    len: usize,
    zero: E,
    f: impl Fn(usize, &[T], &mut [E]) + Sync + Send,
) -> Vec<E>
where
    E: Copy + Send + Sync + core::ops::AddAssign,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks(chunk.max(1))
            .enumerate()
            .fold(
                || vec![zero; len],
                |mut acc, (i, c)| {
                    f(i, c, &mut acc);
                    acc
                },
            )
            .reduce(|| vec![zero; len], add_vectors)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut acc = vec![zero; len];
        for (i, c) in data.chunks(chunk.max(1)).enumerate() {
            f(i, c, &mut acc);
        }
        acc
    }
}
