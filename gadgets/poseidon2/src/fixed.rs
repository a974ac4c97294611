//! The const-generic, allocation-free permutation [`Poseidon2Fixed`].

use crate::Poseidon2Error;
use crate::field::Poseidon2Field;
use crate::params::Convention;
use crate::params::Poseidon2Params;
use crate::permutation::RoundConstants;

/// Poseidon2 with width `T`, `2 · RF_HALF` full rounds and `RP` partial rounds fixed at
/// compile time.
///
/// The state is a stack array `[F; T]`; the constants are contiguous arrays inside the
/// value, so the round loops have compile-time trip counts and the linear layers unroll
/// completely. Built from the same [`Poseidon2Params`] as the runtime [`crate::Poseidon2`]
/// and running the same round function, it gives identical output (tested).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Fixed<F, const T: usize, const RF_HALF: usize, const RP: usize> {
    convention: Convention,
    d: u64,
    full_begin: [[F; T]; RF_HALF],
    partial: [F; RP],
    full_end: [[F; T]; RF_HALF],
    diag_m1: [F; T],
}

/// Copies a flat table into an array of rows.
fn rows<F: Copy + Default, const T: usize, const R: usize>(flat: &[F]) -> [[F; T]; R] {
    let mut out = [[F::default(); T]; R];
    for (row, chunk) in out.iter_mut().zip(flat.chunks_exact(T)) {
        row.copy_from_slice(chunk);
    }
    out
}

/// Copies a slice into an array (lengths checked by the caller).
fn array<F: Copy + Default, const N: usize>(v: &[F]) -> [F; N] {
    let mut out = [F::default(); N];
    out.copy_from_slice(v);
    out
}

impl<F: Poseidon2Field, const T: usize, const RF_HALF: usize, const RP: usize>
    Poseidon2Fixed<F, T, RF_HALF, RP>
{
    /// Copies the constants of `params` into the fixed layout.
    ///
    /// # Errors
    /// [`Poseidon2Error::ShapeMismatch`] if `params` has another `(t, R_F, R_P)`.
    pub fn from_params(params: &Poseidon2Params<F>) -> Result<Self, Poseidon2Error> {
        let expected = (T, 2 * RF_HALF, RP);
        let actual = (params.t(), params.rf(), params.rp());
        if expected != actual {
            return Err(Poseidon2Error::ShapeMismatch { expected, actual });
        }
        Ok(Self {
            convention: params.convention(),
            d: params.d(),
            full_begin: rows(params.full_begin()),
            partial: array(params.partial()),
            full_end: rows(params.full_end()),
            diag_m1: array(params.diag_m1()),
        })
    }

    /// The matrix convention.
    #[must_use]
    pub fn convention(&self) -> Convention {
        self.convention
    }

    pub(crate) fn round_constants(&self) -> RoundConstants<'_, F> {
        RoundConstants {
            convention: self.convention,
            t: T,
            d: self.d,
            full_begin: self.full_begin.as_flattened(),
            partial: &self.partial,
            full_end: self.full_end.as_flattened(),
            diag_m1: &self.diag_m1,
        }
    }

    /// Permutes `state` in place.
    #[inline]
    pub fn permute(&self, state: &mut [F; T]) {
        F::permute_lanes(core::array::from_mut(state), &self.round_constants());
    }

    /// The permutation of `input`.
    #[inline]
    #[must_use]
    pub fn permutation(&self, mut input: [F; T]) -> [F; T] {
        self.permute(&mut input);
        input
    }

    /// Permutes `N` independent states in place, interleaved step by step so that the
    /// states' dependency chains overlap (a throughput API: same results as `N` calls of
    /// [`Self::permute`]). Over [`Goldilocks`](flockwork_field_prime::Goldilocks), a
    /// multiple of 8 states runs on AVX-512 where the CPU has it, 16 at a time (`N = 16` is
    /// the fastest choice there).
    #[inline]
    pub fn permute_batch<const N: usize>(&self, states: &mut [[F; T]; N]) {
        F::permute_lanes(states, &self.round_constants());
    }

    /// Permutes every state of a slice, `N` at a time through [`Self::permute_batch`] and
    /// the remainder one by one.
    pub fn permute_many<const N: usize>(&self, states: &mut [[F; T]]) {
        let mut chunks = states.chunks_exact_mut(N);
        for chunk in &mut chunks {
            let batch: &mut [[F; T]; N] = chunk.try_into().expect("chunks_exact yields N states");
            self.permute_batch(batch);
        }
        for state in chunks.into_remainder() {
            self.permute(state);
        }
    }
}
