//! Every available backend against the portable twin.

use std::sync::Mutex;

use rand::{Rng, SeedableRng};

use super::*;

/// Serialises the tests that change the process-wide active backend, so each of them
/// really runs the backend it chose. (Other tests may run concurrently on whichever backend
/// is active: all backends compute the same results.)
pub(crate) static ACTIVE_LOCK: Mutex<()> = Mutex::new(());

/// Runs `f` with `backend` active, restoring the detected backend afterwards.
pub(crate) fn with_active<R>(backend: Backend, f: impl FnOnce() -> R) -> R {
    let _guard = ACTIVE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    backend.set_active();
    assert_eq!(Backend::active(), backend);
    let r = f();
    Backend::detect().set_active();
    r
}

/// The backends this CPU runs (always including `Portable`).
pub(crate) fn available() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_available())
        .collect()
}

const X127: u128 = 1 << 127;

fn edge_values() -> Vec<u128> {
    vec![
        0,
        1,
        2,
        u128::MAX,
        X127,
        X127 | 1,
        u128::from(u64::MAX),
        u128::MAX << 64,
        0x87,
        0x8000_0000_0000_0000,
    ]
}

/// Edge values crossed with each other, then `n` random pairs.
fn test_pairs(label: u64, n: usize) -> Vec<(u128, u128)> {
    let edges = edge_values();
    let mut pairs: Vec<(u128, u128)> = edges
        .iter()
        .flat_map(|&x| edges.iter().map(move |&y| (x, y)))
        .collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(label);
    pairs.extend((0..n).map(|_| (rng.random(), rng.random())));
    pairs
}

fn random_vec(rng: &mut impl Rng, n: usize) -> Vec<u128> {
    (0..n).map(|_| rng.random()).collect()
}

#[test]
fn detection_is_consistent() {
    let best = Backend::detect();
    assert!(best.is_available());
    assert!(Backend::Portable.is_available());
    #[cfg(target_arch = "x86_64")]
    {
        assert!(!Backend::Pmull.is_available());
        // `detect` prefers the widest vectors.
        for b in [Backend::Vpclmul512, Backend::Vpclmul256, Backend::Pclmul] {
            if b.is_available() {
                assert_eq!(best, b);
                break;
            }
        }
        #[cfg(feature = "std")]
        assert_eq!(
            Backend::Pclmul.is_available(),
            std::is_x86_feature_detected!("pclmulqdq")
        );
    }
    #[cfg(target_arch = "aarch64")]
    for b in [Backend::Pclmul, Backend::Vpclmul256, Backend::Vpclmul512] {
        assert!(!b.is_available());
    }
    println!(
        "available GHASH backends: {:?}, detected {best}",
        available()
    );
}

#[test]
fn unavailable_backends_are_refused() {
    for b in Backend::ALL.into_iter().filter(|b| !b.is_available()) {
        let r = std::panic::catch_unwind(|| mul_with(b, 3, 5));
        assert!(r.is_err(), "{b} ran although unavailable");
        let r = std::panic::catch_unwind(|| dot_with(b, &[3], &[5]));
        assert!(r.is_err(), "{b} dot ran although unavailable");
    }
}

#[test]
fn scalar_kernels_match_portable() {
    for b in available() {
        for (x, y) in test_pairs(1, 20_000) {
            assert_eq!(
                mul_with(b, x, y),
                portable::mul(x, y),
                "{b}: mul({x:#x}, {y:#x})"
            );
            assert_eq!(
                clmul128_with(b, x, y),
                portable::clmul128(x, y),
                "{b}: clmul128({x:#x}, {y:#x})"
            );
            assert_eq!(
                square_with(b, x),
                portable::square(x),
                "{b}: square({x:#x})"
            );
        }
    }
}

#[test]
fn x4_kernels_match_portable() {
    for b in available() {
        let pairs = test_pairs(2, 8_000);
        for chunk in pairs.chunks_exact(4) {
            let x: [u128; 4] = core::array::from_fn(|i| chunk[i].0);
            let y: [u128; 4] = core::array::from_fn(|i| chunk[i].1);
            assert_eq!(
                mul_x4_with(b, &x, &y),
                portable::mul_x4(&x, &y),
                "{b}: mul_x4"
            );
            assert_eq!(
                square_x4_with(b, &x),
                portable::square_x4(&x),
                "{b}: square_x4"
            );
        }
    }
}

#[test]
fn slice_kernels_match_portable_at_every_tail_length() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut lengths: Vec<usize> = (0..=17).collect();
    lengths.extend([63, 64, 65, 1000, 4099]);
    for b in available() {
        for &n in &lengths {
            let mut x = random_vec(&mut rng, n);
            let y = random_vec(&mut rng, n);
            // Put edge values where the tails are.
            for (slot, e) in x.iter_mut().rev().zip(edge_values()) {
                *slot = e;
            }
            let s: u128 = rng.random();

            let mut want = vec![0; n];
            portable::mul_slices(&mut want, &x, &y);
            let naive: Vec<u128> = x
                .iter()
                .zip(&y)
                .map(|(&a, &c)| portable::mul(a, c))
                .collect();
            assert_eq!(want, naive, "portable mul_slices, n = {n}");
            let mut got = vec![0; n];
            mul_slices_with(b, &mut got, &x, &y);
            assert_eq!(got, want, "{b}: mul_slices, n = {n}");

            let mut got = x.clone();
            mul_assign_scalar_with(b, &mut got, s);
            let want: Vec<u128> = x.iter().map(|&a| portable::mul(a, s)).collect();
            assert_eq!(got, want, "{b}: mul_assign_scalar, n = {n}");

            let mut got = y.clone();
            add_mul_scalar_with(b, &mut got, &x, s);
            let want: Vec<u128> = x
                .iter()
                .zip(&y)
                .map(|(&a, &c)| c ^ portable::mul(a, s))
                .collect();
            assert_eq!(got, want, "{b}: add_mul_scalar, n = {n}");

            let want = x
                .iter()
                .zip(&y)
                .fold(0, |acc, (&a, &c)| acc ^ portable::mul(a, c));
            assert_eq!(portable::dot(&x, &y), want, "portable dot, n = {n}");
            assert_eq!(dot_with(b, &x, &y), want, "{b}: dot, n = {n}");

            // The butterflies against their definitions in plain products.
            let (mut u, mut v) = (y.clone(), x.clone());
            butterfly_with(b, &mut u, &mut v, s);
            let want_u: Vec<u128> = y
                .iter()
                .zip(&x)
                .map(|(&c, &a)| c ^ portable::mul(a, s))
                .collect();
            let want_v: Vec<u128> = x.iter().zip(&want_u).map(|(&a, &c)| a ^ c).collect();
            assert_eq!((u, v), (want_u, want_v), "{b}: butterfly, n = {n}");

            let t: [u128; 3] = [rng.random(), rng.random(), s];
            let mut rows = [
                x.clone(),
                y.clone(),
                random_vec(&mut rng, n),
                random_vec(&mut rng, n),
            ];
            let mut want = rows.clone();
            for (i, j, k) in [(0, 2, 0), (1, 3, 0), (0, 1, 1), (2, 3, 2)] {
                let (lo, hi) = want.split_at_mut(j);
                for (u, v) in lo[i].iter_mut().zip(hi[0].iter_mut()) {
                    *u ^= portable::mul(*v, t[k]);
                    *v ^= *u;
                }
            }
            let [r0, r1, r2, r3] = &mut rows;
            butterfly4_with(b, [r0, r1, r2, r3], t);
            assert_eq!(rows, want, "{b}: butterfly4, n = {n}");
        }
    }
}

#[test]
fn dot_of_all_ones_exercises_every_accumulator_bit() {
    // Many maximal unreduced terms: the sums must stay exact (no carries in XOR).
    for b in available() {
        for n in [1, 4, 5, 8, 33] {
            let v = vec![u128::MAX; n];
            let want = if n % 2 == 1 {
                portable::mul(u128::MAX, u128::MAX)
            } else {
                0
            };
            assert_eq!(dot_with(b, &v, &v), want, "{b}: n = {n}");
        }
    }
}

#[test]
#[should_panic(expected = "lengths differ")]
fn mul_slices_rejects_mismatched_lengths() {
    let mut out = [0u128; 3];
    mul_slices_with(Backend::detect(), &mut out, &[1, 2, 3], &[1, 2]);
}

#[test]
fn set_active_switches_dispatch() {
    for b in available() {
        let (p, s) = with_active(b, || (mul(3, 7), square(X127)));
        assert_eq!(p, portable::mul(3, 7));
        assert_eq!(s, portable::square(X127));
    }
    assert!(Backend::active().is_available());
}
