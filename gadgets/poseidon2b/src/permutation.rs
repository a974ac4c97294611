//! The permutation: the const-generic [`Poseidon2b`], its cached instances and the
//! runtime-width [`DynPoseidon2b`].

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use flockwork_field_binary::{AesTower128, Ghash128};
use once_cell::race::OnceBox;

use crate::constants::{frost_gkr_round_constants, official_round_constants};
use crate::field::{Poseidon2bField, Poseidon2bLane, sbox};
use crate::matrix::{self, apply_mf, apply_mp, assert_width};
use crate::{Poseidon2bError, ROUNDS, ROUNDS_F_HALF, ROUNDS_P};

/// States per block of [`Poseidon2b::permute_many`] (the block and its scratch stay in L1).
pub const BATCH_BLOCK: usize = 128;

/// Below this many states [`Poseidon2b::permute_many`] permutes one state at a time.
pub const BATCH_MIN: usize = 4;

/// Which constant set and basis an instance uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instance {
    /// The official Poseidon2b instance: polynomial basis, TurboSHAKE256 constants.
    Official,
    /// frost-gkr's variant: tower basis, placeholder constants `0..=7`. Not Poseidon2b;
    /// only for like-for-like comparison with frost-gkr.
    FrostGkr,
}

/// Poseidon2b over the 128-bit binary field `F` with width `T ∈ {4, 6}` fixed at compile
/// time (`S-box x^7`, `R_F = 8`, `R_P = 58`).
///
/// The state is a stack array `[F; T]`; constants live inside the value as arrays, so the
/// round loops have compile-time trip counts and the linear layers unroll. Other widths are
/// rejected at compile time.
///
/// | method | use |
/// |---|---|
/// | [`Poseidon2b::permute`] | one state (latency-bound: the 58 partial rounds are a chain of S-boxes) |
/// | [`Poseidon2b::permute_interleaved`] | `N` states, scalar, interleaved round by round |
/// | [`Poseidon2b::permute_packed`] | states already in `F`'s SIMD packing |
/// | [`Poseidon2b::permute_many`] | the batch API: any number of states, slice S-box kernels |
///
/// Speed (one thread, official `t = 4`, AVX-512 + VPCLMULQDQ; `examples/throughput.rs`):
/// about 0.4 M permutations/s one at a time, about 1.6 M/s through `permute_many`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2b<F, const T: usize> {
    instance: Instance,
    /// Rounds `0..4` then `62..66`.
    full: [[F; T]; 2 * ROUNDS_F_HALF],
    /// Lane-0 constants of rounds `4..62`.
    partial: [F; ROUNDS_P],
}

impl<F: Poseidon2bField, const T: usize> Poseidon2b<F, T> {
    /// An instance from a round-major table of `66 · T` constant bit patterns
    /// (`table[r · T + lane]`, read with [`flockwork_field::BinaryField::from_bits`]); the
    /// lanes `1..T` of partial rounds are ignored.
    ///
    /// # Errors
    /// [`Poseidon2bError::ConstantCount`] if `table.len() != 66 · T`.
    pub fn from_constant_bits(instance: Instance, table: &[u128]) -> Result<Self, Poseidon2bError> {
        const { assert_width::<T>() };
        if table.len() != ROUNDS * T {
            return Err(Poseidon2bError::ConstantCount {
                expected: ROUNDS * T,
                actual: table.len(),
            });
        }
        let row = |r: usize| -> [F; T] { core::array::from_fn(|i| F::from_bits(table[r * T + i])) };
        let full = core::array::from_fn(|k| row(if k < ROUNDS_F_HALF { k } else { k + ROUNDS_P }));
        let partial = core::array::from_fn(|k| F::from_bits(table[(ROUNDS_F_HALF + k) * T]));
        Ok(Self {
            instance,
            full,
            partial,
        })
    }

    /// Which instance this is.
    #[must_use]
    pub fn instance(&self) -> Instance {
        self.instance
    }

    /// The width `T`.
    #[must_use]
    pub const fn width(&self) -> usize {
        T
    }

    /// The 66 round-constant rows `rc[r]` as used (lanes `1..T` of partial rounds zero).
    #[must_use]
    pub fn round_constants(&self) -> Vec<[F; T]> {
        (0..ROUNDS)
            .map(|r| {
                if r < ROUNDS_F_HALF {
                    self.full[r]
                } else if r >= ROUNDS_F_HALF + ROUNDS_P {
                    self.full[r - ROUNDS_P]
                } else {
                    let mut row = [F::ZERO; T];
                    row[0] = self.partial[r - ROUNDS_F_HALF];
                    row
                }
            })
            .collect()
    }

    /// `MF` as a dense matrix over `F`.
    #[must_use]
    pub fn mf_matrix(&self) -> [[F; T]; T] {
        matrix::to_field(&matrix::mf_bits::<T>())
    }

    /// `MP` as a dense matrix over `F`.
    #[must_use]
    pub fn mp_matrix(&self) -> [[F; T]; T] {
        matrix::to_field(&matrix::mp_bits::<T>())
    }

    #[inline(always)]
    fn full_round<P: Poseidon2bLane<Scalar = F>, const N: usize>(
        states: &mut [[P; T]; N],
        rc: &[F; T],
    ) {
        for s in states.iter_mut() {
            for (v, &c) in s.iter_mut().zip(rc) {
                *v = sbox(*v + P::broadcast(c));
            }
            apply_mf(s);
        }
    }

    /// The round function on `N` independent states of lane type `P`, step by step so that
    /// the states' dependency chains overlap.
    #[inline(always)]
    fn permute_lanes<P: Poseidon2bLane<Scalar = F>, const N: usize>(
        &self,
        states: &mut [[P; T]; N],
    ) {
        for s in states.iter_mut() {
            apply_mf(s);
        }
        for rc in &self.full[..ROUNDS_F_HALF] {
            Self::full_round(states, rc);
        }
        for &c in &self.partial {
            let c = P::broadcast(c);
            for s in states.iter_mut() {
                s[0] = sbox(s[0] + c);
                apply_mp(s);
            }
        }
        for rc in &self.full[ROUNDS_F_HALF..] {
            Self::full_round(states, rc);
        }
    }

    /// Permutes `state` in place.
    #[inline]
    pub fn permute(&self, state: &mut [F; T]) {
        self.permute_lanes(core::array::from_mut(state));
    }

    /// The permutation of `input`.
    #[inline]
    #[must_use]
    pub fn permutation(&self, mut input: [F; T]) -> [F; T] {
        self.permute(&mut input);
        input
    }

    /// Permutes `N` states with scalar arithmetic, interleaved round by round (same result
    /// as `N` calls of [`Self::permute`]; the states' dependency chains overlap).
    pub fn permute_interleaved<const N: usize>(&self, states: &mut [[F; T]; N]) {
        self.permute_lanes(states);
    }

    /// Permutes `N · W` states held in the field's SIMD packing ([`flockwork_field::Field::Packing`],
    /// `W` lanes each): `states[j][i]` holds lane `i` of `W` different states. For callers
    /// that already keep states packed (e.g. a prover's witness tables).
    pub fn permute_packed<const N: usize>(&self, states: &mut [[F::Packing; T]; N]) {
        self.permute_lanes(states);
    }

    /// Permutes every state of `states` in place (the batch API; same result as calling
    /// [`Self::permute`] on each).
    ///
    /// States go in blocks of [`BATCH_BLOCK`]. Within a block every step is a slice
    /// operation: a full round adds the constants and runs [`Poseidon2bField::sbox_slice`]
    /// over the whole block at once (`T ·` block elements, contiguous in the `[[F; T]]`
    /// layout), a partial round gathers lane 0 of the block, runs the S-box slice on it and
    /// scatters it back; the linear layers run per state with the kernels of [`matrix`].
    /// For [`Ghash128`] the S-box slices are the backend's vector kernels (four products per
    /// instruction with VPCLMULQDQ-512), which turns the latency-bound chain of one
    /// permutation into a throughput-bound loop. Batches of fewer than
    /// [`BATCH_MIN`] states use [`Self::permute`].
    pub fn permute_many(&self, states: &mut [[F; T]]) {
        if states.len() < BATCH_MIN {
            for state in states {
                self.permute(state);
            }
            return;
        }
        let block = states.len().min(BATCH_BLOCK);
        let mut lane0 = vec![F::ZERO; block];
        let mut scratch = vec![F::ZERO; 2 * block * T];
        let (s2, s3) = scratch.split_at_mut(block * T);
        for chunk in states.chunks_mut(block) {
            let n = chunk.len();
            let (s2, s3) = (&mut s2[..n * T], &mut s3[..n * T]);
            for state in chunk.iter_mut() {
                apply_mf(state);
            }
            for rc in &self.full[..ROUNDS_F_HALF] {
                Self::full_round_block(chunk, rc, s2, s3);
            }
            let lane0 = &mut lane0[..n];
            for &c in &self.partial {
                for (x, state) in lane0.iter_mut().zip(chunk.iter()) {
                    *x = state[0] + c;
                }
                F::sbox_slice(lane0, &mut s2[..n], &mut s3[..n]);
                for (&x, state) in lane0.iter().zip(chunk.iter_mut()) {
                    state[0] = x;
                    apply_mp(state);
                }
            }
            for rc in &self.full[ROUNDS_F_HALF..] {
                Self::full_round_block(chunk, rc, s2, s3);
            }
        }
    }

    /// One full round on a block of states through the slice S-box.
    fn full_round_block(chunk: &mut [[F; T]], rc: &[F; T], s2: &mut [F], s3: &mut [F]) {
        for state in chunk.iter_mut() {
            for (v, &c) in state.iter_mut().zip(rc) {
                *v += c;
            }
        }
        F::sbox_slice(chunk.as_flattened_mut(), s2, s3);
        for state in chunk.iter_mut() {
            apply_mf(state);
        }
    }

    /// The sponge hash of [`crate::sponge::hash`] with this permutation.
    #[must_use]
    pub fn hash(&self, inputs: &[F], out_len: usize) -> Vec<F> {
        crate::sponge::hash(self, inputs, out_len)
    }
}

impl<const T: usize> Poseidon2b<Ghash128, T> {
    /// The official instance of width `T`, generating its round constants with
    /// TurboSHAKE256 (prefer the cached [`official_t4`] / [`official_t6`]).
    #[must_use]
    pub fn official() -> Self {
        Self::from_constant_bits(Instance::Official, &official_round_constants(T))
            .expect("the generator draws 66·T constants")
    }
}

impl Poseidon2b<AesTower128, 4> {
    /// frost-gkr's variant (not Poseidon2b; prefer the cached [`frost_gkr_t4`]).
    #[must_use]
    pub fn frost_gkr() -> Self {
        Self::from_constant_bits(Instance::FrostGkr, &frost_gkr_round_constants())
            .expect("the table has 66·4 constants")
    }
}

/// The official Poseidon2b, n = 128, t = 4 (constants generated once, then cached).
#[must_use]
pub fn official_t4() -> &'static Poseidon2b<Ghash128, 4> {
    static CELL: OnceBox<Poseidon2b<Ghash128, 4>> = OnceBox::new();
    CELL.get_or_init(|| Box::new(Poseidon2b::official()))
}

/// The official Poseidon2b, n = 128, t = 6 (constants generated once, then cached).
#[must_use]
pub fn official_t6() -> &'static Poseidon2b<Ghash128, 6> {
    static CELL: OnceBox<Poseidon2b<Ghash128, 6>> = OnceBox::new();
    CELL.get_or_init(|| Box::new(Poseidon2b::official()))
}

/// frost-gkr's tower-basis variant, t = 4 (cached). Not Poseidon2b: use it only to compare
/// like-for-like with frost-gkr.
#[must_use]
pub fn frost_gkr_t4() -> &'static Poseidon2b<AesTower128, 4> {
    static CELL: OnceBox<Poseidon2b<AesTower128, 4>> = OnceBox::new();
    CELL.get_or_init(|| Box::new(Poseidon2b::frost_gkr()))
}

/// A Poseidon2b permutation whose width is chosen at run time: a borrowed [`Poseidon2b`] of
/// width 4 or 6, with slice-based methods.
#[derive(Clone, Copy, Debug)]
pub enum DynPoseidon2b<'a, F> {
    /// Width 4.
    T4(&'a Poseidon2b<F, 4>),
    /// Width 6.
    T6(&'a Poseidon2b<F, 6>),
}

impl DynPoseidon2b<'static, Ghash128> {
    /// The cached official instance of width `t`.
    ///
    /// # Errors
    /// [`Poseidon2bError::UnsupportedWidth`] unless `t ∈ {4, 6}`.
    pub fn official(t: usize) -> Result<Self, Poseidon2bError> {
        match t {
            4 => Ok(Self::T4(official_t4())),
            6 => Ok(Self::T6(official_t6())),
            _ => Err(Poseidon2bError::UnsupportedWidth { t }),
        }
    }
}

impl<F: Poseidon2bField> DynPoseidon2b<'_, F> {
    /// The width `t`.
    #[must_use]
    pub fn width(&self) -> usize {
        match self {
            Self::T4(_) => 4,
            Self::T6(_) => 6,
        }
    }

    fn check(&self, len: usize) -> Result<(), Poseidon2bError> {
        if len == self.width() {
            Ok(())
        } else {
            Err(Poseidon2bError::WrongLength {
                expected: self.width(),
                actual: len,
            })
        }
    }

    /// Permutes a state of length [`DynPoseidon2b::width`] in place.
    ///
    /// # Errors
    /// [`Poseidon2bError::WrongLength`] for any other length (the state is left unchanged).
    pub fn permute(&self, state: &mut [F]) -> Result<(), Poseidon2bError> {
        self.check(state.len())?;
        match self {
            Self::T4(p) => p.permute(state.try_into().expect("length checked")),
            Self::T6(p) => p.permute(state.try_into().expect("length checked")),
        }
        Ok(())
    }

    /// Permutes `states.len() / t` states stored back to back (the batch API).
    ///
    /// # Errors
    /// [`Poseidon2bError::WrongLength`] if `states.len()` is not a multiple of `t` (nothing
    /// is permuted).
    pub fn permute_many(&self, states: &mut [F]) -> Result<(), Poseidon2bError> {
        let t = self.width();
        if !states.len().is_multiple_of(t) {
            return Err(Poseidon2bError::WrongLength {
                expected: states.len().next_multiple_of(t),
                actual: states.len(),
            });
        }
        match self {
            Self::T4(p) => p.permute_many(states.as_chunks_mut::<4>().0),
            Self::T6(p) => p.permute_many(states.as_chunks_mut::<6>().0),
        }
        Ok(())
    }

    /// The sponge hash ([`crate::sponge::hash`]).
    #[must_use]
    pub fn hash(&self, inputs: &[F], out_len: usize) -> Vec<F> {
        match self {
            Self::T4(p) => p.hash(inputs, out_len),
            Self::T6(p) => p.hash(inputs, out_len),
        }
    }
}
