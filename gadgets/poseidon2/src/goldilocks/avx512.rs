//! The batch permutation on AVX-512: eight states per register lane set, through
//! [`flockwork_field_prime::avx512`] (this crate stays free of `unsafe`).
//!
//! The `8·V` states are transposed so that vector `s[v][i]` holds element `i` of states
//! `8v … 8v + 7`; every round is then the scalar round written on [`PackedGoldilocks`]:
//!
//! * full round: `x_i ← (x_i + c_i)^7` for every `i`, then `x ← M_E·x` (the block's addition
//!   chain through [`LinearOps`], then the column sums);
//! * partial round: `x_0 ← (x_0 + c)^7`, then `x ← M_I·x`, i.e. `x_i ← (μ_i − 1)·x_i + Σ_j x_j`.
//!
//! Lanes stay canonical (module docs of `flockwork_field_prime::avx512`), so no lazy
//! bookkeeping crosses a round. `V > 1` interleaves independent register sets so that the
//! partial rounds' S-box chains overlap. The scalar kernel is the portable twin; the crate's
//! tests compare the two.

use core::array;
use core::marker::PhantomData;

use flockwork_field_prime::Goldilocks;
use flockwork_field_prime::avx512::{Avx512, Avx512Kernel, PackedGoldilocks};

use crate::matrix::{ExternalMatrix, LinearOps, adds_column_sums};
use crate::permutation::RoundConstants;

/// Lanes per register.
pub(super) const LANES: usize = 8;

/// [`LinearOps`] of eight lanes.
struct PackedOps;

impl LinearOps<PackedGoldilocks> for PackedOps {
    #[inline(always)]
    fn add(a: PackedGoldilocks, b: PackedGoldilocks) -> PackedGoldilocks {
        a + b
    }

    #[inline(always)]
    fn double(a: PackedGoldilocks) -> PackedGoldilocks {
        a.double()
    }
}

/// The permutation of `8·V` states (`states.len() == 8·V`), as an [`Avx512Kernel`].
pub(super) struct Batch<'a, 'c, M, const T: usize, const V: usize> {
    states: &'a mut [[Goldilocks; T]],
    constants: &'a RoundConstants<'c, Goldilocks>,
    matrix: PhantomData<M>,
}

impl<'a, 'c, M: ExternalMatrix, const T: usize, const V: usize> Batch<'a, 'c, M, T, V> {
    /// # Panics
    /// If `states` does not hold `8·V` states.
    pub(super) fn new(
        states: &'a mut [[Goldilocks; T]],
        constants: &'a RoundConstants<'c, Goldilocks>,
    ) -> Self {
        assert_eq!(states.len(), LANES * V, "one state per lane");
        Self {
            states,
            constants,
            matrix: PhantomData,
        }
    }
}

type Registers<const T: usize, const V: usize> = [[PackedGoldilocks; T]; V];

/// `x^7 = (x·x²)·(x²)²`: 4 multiplications, depth 3.
#[inline(always)]
fn sbox7(x: PackedGoldilocks) -> PackedGoldilocks {
    let x2 = x.square();
    (x2 * x) * x2.square()
}

/// `x ← M_E·x` on every register set.
#[inline(always)]
fn external<M: ExternalMatrix, const T: usize, const V: usize>(s: &mut Registers<T, V>) {
    for x in s.iter_mut() {
        for chunk in x.as_chunks_mut::<4>().0 {
            *chunk = M::chain::<PackedGoldilocks, PackedOps>(*chunk);
        }
        if adds_column_sums(M::CONVENTION, T) {
            let chunks = x.as_chunks::<4>().0;
            let mut sums = chunks[0];
            for chunk in &chunks[1..] {
                for (sum, &y) in sums.iter_mut().zip(chunk) {
                    *sum = *sum + y;
                }
            }
            for (i, y) in x.iter_mut().enumerate() {
                *y = *y + sums[i % 4];
            }
        }
    }
}

/// A full round with constants `row`.
#[inline(always)]
fn full_round<M: ExternalMatrix, const T: usize, const V: usize>(
    simd: Avx512,
    s: &mut Registers<T, V>,
    row: &[Goldilocks; T],
) {
    let c: [PackedGoldilocks; T] = array::from_fn(|i| PackedGoldilocks::splat(simd, row[i]));
    for x in s.iter_mut() {
        for (y, &k) in x.iter_mut().zip(&c) {
            *y = sbox7(*y + k);
        }
    }
    external::<M, T, V>(s);
}

/// A partial round with constant `c` and `diag_m1[i] = μ_i − 1`.
#[inline(always)]
fn partial_round<const T: usize, const V: usize>(
    s: &mut Registers<T, V>,
    c: PackedGoldilocks,
    diag_m1: &[PackedGoldilocks; T],
) {
    for x in s.iter_mut() {
        x[0] = sbox7(x[0] + c);
    }
    for x in s.iter_mut() {
        let sum = x[1..].iter().fold(x[0], |acc, &y| acc + y);
        for (y, &m) in x.iter_mut().zip(diag_m1) {
            *y = *y * m + sum;
        }
    }
}

impl<M: ExternalMatrix, const T: usize, const V: usize> Avx512Kernel for Batch<'_, '_, M, T, V> {
    type Output = ();

    #[inline(always)]
    fn run(self, simd: Avx512) {
        let Self {
            states, constants, ..
        } = self;
        let c = constants;
        let mut s: Registers<T, V> = array::from_fn(|v| {
            array::from_fn(|i| {
                PackedGoldilocks::from_array(simd, array::from_fn(|l| states[LANES * v + l][i]))
            })
        });
        let diag_m1: [PackedGoldilocks; T] =
            array::from_fn(|i| PackedGoldilocks::splat(simd, c.diag_m1[i]));

        external::<M, T, V>(&mut s);
        for row in c.full_begin.as_chunks::<T>().0 {
            full_round::<M, T, V>(simd, &mut s, row);
        }
        for &k in c.partial {
            partial_round(&mut s, PackedGoldilocks::splat(simd, k), &diag_m1);
        }
        for row in c.full_end.as_chunks::<T>().0 {
            full_round::<M, T, V>(simd, &mut s, row);
        }

        for (v, x) in s.iter().enumerate() {
            let lanes: [[Goldilocks; LANES]; T] = array::from_fn(|i| x[i].to_array());
            for (l, state) in states[LANES * v..LANES * (v + 1)].iter_mut().enumerate() {
                *state = array::from_fn(|i| lanes[i][l]);
            }
        }
    }
}

/// Permutes `states` with the AVX-512 kernel if the CPU has it, `16` or `8` at a time
/// (`states.len()` must be a multiple of 8). Returns `false`, untouched, without AVX-512.
#[inline]
pub(super) fn permute<M: ExternalMatrix, const T: usize>(
    states: &mut [[Goldilocks; T]],
    constants: &RoundConstants<'_, Goldilocks>,
) -> bool {
    debug_assert!(states.len().is_multiple_of(LANES));
    let Some(simd) = Avx512::detect() else {
        return false;
    };
    let mut pairs = states.chunks_exact_mut(2 * LANES);
    for chunk in &mut pairs {
        simd.vectorize(Batch::<M, T, 2>::new(chunk, constants));
    }
    for chunk in pairs.into_remainder().chunks_exact_mut(LANES) {
        simd.vectorize(Batch::<M, T, 1>::new(chunk, constants));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{HorizenLabsM4, Plonky3M4};
    use crate::{Poseidon2Fixed, instances, plonky3};
    use flockwork_testkit::{random_vec, rng};

    /// The AVX-512 kernel against the scalar kernel (its portable twin), 16 + 8 states.
    fn check<M: ExternalMatrix, const T: usize, const RP: usize>(
        fixed: &Poseidon2Fixed<Goldilocks, T, 4, RP>,
    ) {
        let c = fixed.round_constants();
        let mut r = rng("poseidon2/avx512");
        let states: Vec<[Goldilocks; T]> = (0..3 * LANES)
            .map(|_| random_vec(&mut r, T).try_into().expect("T elements"))
            .collect();
        let mut expected = states.clone();
        for state in &mut expected {
            super::super::kernel::<M, T, 1>(core::array::from_mut(state), &c);
        }
        let mut got = states;
        let ran = permute::<M, T>(&mut got, &c);
        assert_eq!(ran, Avx512::detect().is_some());
        if ran {
            assert_eq!(got, expected, "t = {T}");
        }
    }

    #[test]
    fn avx512_kernel_matches_the_scalar_kernel() {
        check::<HorizenLabsM4, 8, 22>(instances::goldilocks_t8_fixed());
        check::<HorizenLabsM4, 12, 22>(instances::goldilocks_t12_fixed());
        check::<HorizenLabsM4, 16, 22>(instances::goldilocks_t16_fixed());
        check::<HorizenLabsM4, 20, 22>(instances::goldilocks_t20_fixed());
        check::<Plonky3M4, 8, 22>(plonky3::goldilocks_t8_fixed());
        check::<Plonky3M4, 12, 22>(plonky3::goldilocks_t12_fixed());
    }
}
