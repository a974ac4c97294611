//! Every loop of `flockwork_field::par` against its sequential definition, at lengths around
//! its thresholds (below them the loops run in order, above them on rayon with the
//! `parallel` feature: `cargo test -p flockwork-field --features parallel`), with chunk
//! lengths that do and do not divide the data.

use flockwork_field::par;

/// A deterministic, position-dependent value.
fn value(i: usize) -> u64 {
    (i as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(17)
        ^ 0x5555
}

const LENS: [usize; 6] = [0, 1, 1000, 4095, 4096, 20_001];
const CHUNKS: [usize; 4] = [1, 7, 256, 5000];
const THRESHOLDS: [usize; 3] = [0, 4096, usize::MAX];

#[test]
fn for_each_chunk_sees_every_chunk_once_with_its_index() {
    for (&len, &chunk, &min_len) in itertools::iproduct!(&LENS, &CHUNKS, &THRESHOLDS) {
        let mut data = vec![0u64; len];
        par::for_each_chunk(&mut data, chunk, min_len, |i, c| {
            let n = c.len() as u64;
            for (j, x) in c.iter_mut().enumerate() {
                *x = value(i * chunk + j) + n;
            }
        });
        let want: Vec<u64> = (0..len)
            .map(|k| value(k) + (chunk.min(len - k / chunk * chunk)) as u64)
            .collect();
        assert_eq!(data, want, "len {len}, chunk {chunk}, min_len {min_len}");
    }
}

#[test]
fn zipped_chunks_pair_up_in_order() {
    for (&len, &chunk, &min_len) in itertools::iproduct!(&LENS, &CHUNKS, &THRESHOLDS) {
        let input: Vec<u64> = (0..2 * len).map(value).collect();
        let mut a = vec![0u64; len];
        let mut b: Vec<u64> = (0..2 * len).map(|i| i as u64).collect();
        par::zip_chunks(&mut a, chunk, &mut b, 2 * chunk, min_len, |i, x, y| {
            for (j, (o, pair)) in x.iter_mut().zip(y.chunks_mut(2)).enumerate() {
                *o = pair[0] + pair[1] + (i * chunk + j) as u64;
                pair[0] = 0;
            }
        });
        let want: Vec<u64> = (0..len).map(|k| (4 * k + 1 + k) as u64).collect();
        assert_eq!(a, want);
        assert!(b.iter().step_by(2).all(|&x| x == 0));
        let mut out = vec![0u64; len];
        par::zip_chunks_read(&mut out, chunk, &input, 2 * chunk, min_len, |_, o, x| {
            for (o, pair) in o.iter_mut().zip(x.chunks(2)) {
                *o = pair[0] ^ pair[1];
            }
        });
        let want: Vec<u64> = (0..len).map(|k| value(2 * k) ^ value(2 * k + 1)).collect();
        assert_eq!(out, want);
        let (mut x, mut y) = (want.clone(), vec![0u64; len]);
        let sum = par::zip_chunks_reduce(
            &mut x,
            &mut y,
            chunk,
            min_len,
            || 0u64,
            |i, x, y| {
                y.copy_from_slice(x);
                x.iter().fold(i as u64, |a, &b| a.wrapping_add(b))
            },
            u64::wrapping_add,
        );
        let chunks = len.div_ceil(chunk) as u64;
        let indices = chunks * chunks.saturating_sub(1) / 2;
        let total = want.iter().fold(indices, |a, &b| a.wrapping_add(b));
        assert_eq!((sum, &y), (total, &want));
    }
}

#[test]
fn four_rows_are_chunked_alike() {
    for (&len, &min_len) in itertools::iproduct!(&LENS, &THRESHOLDS) {
        let mut rows: [Vec<u64>; 4] =
            core::array::from_fn(|r| (0..len).map(|i| value(i + r)).collect());
        let want: Vec<u64> = (0..len).map(|i| value(i) ^ value(i + 3)).collect();
        let [a, b, c, d] = &mut rows;
        par::zip4_chunks([a, b, c, d], 256, min_len, |[a, _, _, d]| {
            for (x, &y) in a.iter_mut().zip(d.iter()) {
                *x ^= y;
            }
        });
        assert_eq!(rows[0], want);
    }
}

#[test]
fn four_rows_of_different_chunk_lengths_are_grouped_by_index() {
    for groups in [0, 1, 3, 17] {
        let chunks = [5, 1, 2, 7];
        let mut rows: [Vec<u64>; 4] = core::array::from_fn(|r| vec![0; groups * chunks[r]]);
        // A longer last row: its extra chunk has no partners and is left alone.
        rows[3].extend([9; 7]);
        let [a, b, c, d] = &mut rows;
        par::zip4_chunks_indexed([a, b, c, d], chunks, |g, parts| {
            for (r, part) in parts.into_iter().enumerate() {
                assert_eq!(part.len(), chunks[r]);
                part.fill(value(g) + r as u64);
            }
        });
        for (r, row) in rows.iter().enumerate() {
            let want: Vec<u64> = (0..groups)
                .flat_map(|g| core::iter::repeat_n(value(g) + r as u64, chunks[r]))
                .chain(core::iter::repeat_n(9, if r == 3 { 7 } else { 0 }))
                .collect();
            assert_eq!(*row, want, "row {r}, {groups} groups");
        }
    }
}

#[test]
fn reductions_equal_the_sequential_sums() {
    for (&n, &min_len) in itertools::iproduct!(&LENS, &THRESHOLDS) {
        let total: u64 = (0..n).map(value).fold(0, u64::wrapping_add);
        let add = |x: u64, y: u64| x.wrapping_add(y);
        assert_eq!(par::map_reduce(n, min_len, 16, || 0, value, add), total);
        assert_eq!(
            par::fold_reduce(n, 3, min_len, || 0, |acc, i| add(acc, value(i)), add),
            total
        );
        for chunk in CHUNKS {
            let ranges = par::reduce_ranges(n, chunk, |r| r.map(value).fold(0, add), add);
            assert_eq!(ranges, total);
            let collected = par::map_collect(n, min_len, value);
            assert_eq!(collected, (0..n).map(value).collect::<Vec<_>>());
        }
        if n > 0 {
            let mut out = vec![0u64; n];
            let sum = par::map_chunks(
                &mut out,
                333,
                |start, c| {
                    c.iter_mut()
                        .enumerate()
                        .for_each(|(j, x)| *x = value(start + j));
                    c.iter().fold(0, |a, &b| add(a, b))
                },
                add,
            );
            assert_eq!(sum, total);
            assert_eq!(out, (0..n).map(value).collect::<Vec<_>>());
        }
    }
}

#[test]
fn chunk_sums_add_the_partial_vectors() {
    for (&n, &chunk) in itertools::iproduct!(&LENS, &CHUNKS) {
        let data: Vec<u64> = (0..n).map(value).collect();
        let want = [data.iter().fold(0u64, |a, &b| a.wrapping_add(b)), n as u64];
        let sums = |c: &[u64], acc: &mut [W]| {
            acc[0] += W(c.iter().fold(0u64, |a, &b| a.wrapping_add(b)));
            acc[1] += W(c.len() as u64);
        };
        let got = par::chunk_sums(&data, chunk, 2, W(0), |_, c, acc| sums(c, acc));
        assert_eq!(got, want.map(W));
        let mut copy = data.clone();
        let got = par::chunk_sums_mut(&mut copy, chunk, 2, W(0), |_, c, acc| {
            sums(c, acc);
            c.fill(1);
        });
        assert_eq!(got, want.map(W));
        assert!(copy.iter().all(|&x| x == 1));
        let mut out = vec![0u64; n.div_ceil(2)];
        let got = par::zip_chunk_sums(
            &mut out,
            chunk,
            &data,
            2 * chunk,
            2,
            W(0),
            |_, o, x, acc| {
                sums(x, acc);
                o.fill(2);
            },
        );
        assert_eq!(got, want.map(W));
        assert!(out.iter().all(|&x| x == 2));
    }
}

/// A wrapping sum (the partial sums' element type must be `AddAssign`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct W(u64);

impl core::ops::AddAssign for W {
    fn add_assign(&mut self, other: Self) {
        self.0 = self.0.wrapping_add(other.0);
    }
}

#[test]
fn buffers_items_and_workers() {
    let [a, b, c] = par::zeroed_words([5, 0, 1 << 14], 1 << 12);
    assert_eq!((a, b, c.len()), (vec![0; 5], vec![], 1 << 14));
    assert!(c.iter().all(|&x| x == 0));
    let items: Vec<usize> = (0..100).collect();
    let seen = std::sync::Mutex::new(vec![false; 100]);
    par::for_each_init(items, Vec::<u8>::new, |scratch, i| {
        scratch.push(0);
        seen.lock().unwrap()[i] = true;
    });
    assert!(seen.into_inner().unwrap().iter().all(|&s| s));
    let mut v = vec![7u64];
    par::extend_mapped(&mut v, &[1u64, 2, 3], |x| 10 * x);
    par::extend_repeated(&mut v, 4, 3);
    assert_eq!(v, [7, 10, 20, 30, 4, 4, 4]);
    assert_eq!(par::join(|| 1, || 2), (1, 2));
    assert_eq!(par::on_worker(|| 3), 3);
    assert!(par::threads() >= 1);
}
