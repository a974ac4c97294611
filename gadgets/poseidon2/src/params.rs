//! Instance parameters and the runtime-configured permutation [`Poseidon2`].

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::{Field, PrimeField};

use crate::Poseidon2Error;
use crate::field::Poseidon2Field;
use crate::permutation::RoundConstants;

/// Which matrix convention an instance follows. The round structure, the S-box and the
/// internal layer form `M_I = J + diag(μ − 1)` are common; they differ in `M_E` and in where
/// the constants come from.
///
/// | | HorizenLabs (eprint 2023/323, `zkhash`) | Plonky3 (`p3-poseidon2`) |
/// |---|---|---|
/// | 4 × 4 block of `M_E` | `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]` | `M4' = circ(2,3,1,1)` |
/// | `M_E` at `t = 4` | `M4` | `2·M4'` (same block formula as wider states) |
/// | `M_E` for `t = 4k`, `k >= 2` | `2·M4` on diagonal blocks, `M4` elsewhere | the same with `M4'` |
/// | widths | 2, 3, `4k` | `4k` only |
/// | `μ − 1` (`t >= 4`) | Grain-drawn, minimal-polynomial checked | small fixed values (±2^k, ±3, …) chosen for cheap products |
///
/// Both run the same Grain-LFSR round constants in the shipped instances
/// ([`crate::plonky3`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The reference of the paper (`HorizenLabs/poseidon2`, crate `zkhash`).
    #[default]
    HorizenLabs,
    /// The convention of Plonky3's `p3-poseidon2` with its field crates' internal diagonals.
    Plonky3,
}

/// The complete description of one Poseidon2 instance over `F` (eprint 2023/323, §3):
/// width `t`, S-box degree `d`, `R_F` full and `R_P` partial rounds, the round constants in
/// round order and the internal diagonal `μ − 1`.
///
/// Round constants are stored as the reference generates them: `R_F/2 · t` for the first
/// full rounds, **one** per partial round (added to `x_0`; the reference pads these rows
/// with `t − 1` zeros, which are not stored), `R_F/2 · t` for the last full rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Params<F> {
    convention: Convention,
    t: usize,
    d: u64,
    rf: usize,
    rp: usize,
    full_begin: Vec<F>,
    partial: Vec<F>,
    full_end: Vec<F>,
    diag_m1: Vec<F>,
}

/// `(p − 1) mod d`, from the canonical limbs of `p − 1`.
fn p_minus_one_mod<F: PrimeField>(d: u64) -> u64 {
    let minus_one = -F::ONE;
    let limbs = minus_one.to_canonical_limbs();
    limbs.as_ref().iter().rev().fold(0u64, |r, &limb| {
        ((u128::from(r) << 64 | u128::from(limb)) % u128::from(d)) as u64
    })
}

/// Euclid's gcd.
const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `true` iff `x ↦ x^d` permutes GF(p): `d >= 3` and `gcd(d, p − 1) = 1`.
#[must_use]
pub fn is_valid_sbox_degree<F: PrimeField>(d: u64) -> bool {
    d >= 3 && gcd(d, p_minus_one_mod::<F>(d)) == 1
}

/// The smallest valid S-box degree of `F` (5 for BN254, 7 for Goldilocks; eprint 2023/323,
/// §2).
#[must_use]
pub fn smallest_sbox_degree<F: PrimeField>() -> u64 {
    (3..)
        .find(|&d| is_valid_sbox_degree::<F>(d))
        .expect("p − 1 has finitely many divisors")
}

/// The fixed `μ − 1` of the reference's internal matrices for `t = 2, 3`
/// (`[[2,1],[1,3]]` and `[[2,1,1],[1,2,1],[1,1,3]]`), `None` for wider states.
#[must_use]
pub fn fixed_internal_diag_m1<F: Field>(t: usize) -> Option<Vec<F>> {
    let one = F::ONE;
    match t {
        2 => Some(vec![one, one.double()]),
        3 => Some(vec![one, one, one.double()]),
        _ => None,
    }
}

/// Checks one table's length.
fn check_count<F>(table: &'static str, v: &[F], expected: usize) -> Result<(), Poseidon2Error> {
    if v.len() == expected {
        Ok(())
    } else {
        Err(Poseidon2Error::ConstantCount {
            table,
            expected,
            actual: v.len(),
        })
    }
}

impl<F: Poseidon2Field> Poseidon2Params<F> {
    /// Validates and assembles an instance.
    ///
    /// # Errors
    /// [`Poseidon2Error::UnsupportedWidth`], [`Poseidon2Error::InvalidSboxDegree`],
    /// [`Poseidon2Error::OddFullRounds`], [`Poseidon2Error::ConstantCount`] for a table of
    /// the wrong length, [`Poseidon2Error::FixedInternalMatrix`] if `t = 2, 3` and `diag_m1`
    /// is not the reference's fixed diagonal.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        t: usize,
        d: u64,
        rf: usize,
        rp: usize,
        full_begin: Vec<F>,
        partial: Vec<F>,
        full_end: Vec<F>,
        diag_m1: Vec<F>,
    ) -> Result<Self, Poseidon2Error> {
        Self::new_with_convention(
            Convention::HorizenLabs,
            t,
            d,
            rf,
            rp,
            full_begin,
            partial,
            full_end,
            diag_m1,
        )
    }

    /// Validates and assembles an instance of the given [`Convention`]; `diag_m1` is the
    /// internal diagonal minus one in either case (Plonky3 calls it `V` in `M_I = J + diag(V)`).
    ///
    /// # Errors
    /// As [`Self::new`], and [`Poseidon2Error::UnsupportedWidth`] for a Plonky3 width that
    /// is not a multiple of 4.
    #[allow(clippy::too_many_arguments)]
    pub fn new_with_convention(
        convention: Convention,
        t: usize,
        d: u64,
        rf: usize,
        rp: usize,
        full_begin: Vec<F>,
        partial: Vec<F>,
        full_end: Vec<F>,
        diag_m1: Vec<F>,
    ) -> Result<Self, Poseidon2Error> {
        let width_ok = match convention {
            Convention::HorizenLabs => t == 2 || t == 3 || (t >= 4 && t.is_multiple_of(4)),
            Convention::Plonky3 => t >= 4 && t.is_multiple_of(4),
        };
        if !width_ok {
            return Err(Poseidon2Error::UnsupportedWidth { t });
        }
        if !is_valid_sbox_degree::<F>(d) {
            return Err(Poseidon2Error::InvalidSboxDegree { d });
        }
        if !rf.is_multiple_of(2) {
            return Err(Poseidon2Error::OddFullRounds { rf });
        }
        check_count("full_begin", &full_begin, rf / 2 * t)?;
        check_count("partial", &partial, rp)?;
        check_count("full_end", &full_end, rf / 2 * t)?;
        check_count("diag_m1", &diag_m1, t)?;
        if fixed_internal_diag_m1::<F>(t).is_some_and(|fixed| fixed != diag_m1) {
            return Err(Poseidon2Error::FixedInternalMatrix { t });
        }
        Ok(Self {
            convention,
            t,
            d,
            rf,
            rp,
            full_begin,
            partial,
            full_end,
            diag_m1,
        })
    }

    /// The matrix convention.
    #[must_use]
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// Width `t`.
    #[must_use]
    pub fn t(&self) -> usize {
        self.t
    }

    /// S-box degree `d`.
    #[must_use]
    pub fn d(&self) -> u64 {
        self.d
    }

    /// Number of full rounds `R_F`.
    #[must_use]
    pub fn rf(&self) -> usize {
        self.rf
    }

    /// Number of partial rounds `R_P`.
    #[must_use]
    pub fn rp(&self) -> usize {
        self.rp
    }

    /// Round constants of the first `R_F/2` full rounds, row by row.
    #[must_use]
    pub fn full_begin(&self) -> &[F] {
        &self.full_begin
    }

    /// One round constant per partial round.
    #[must_use]
    pub fn partial(&self) -> &[F] {
        &self.partial
    }

    /// Round constants of the last `R_F/2` full rounds, row by row.
    #[must_use]
    pub fn full_end(&self) -> &[F] {
        &self.full_end
    }

    /// `μ_i − 1`, the internal matrix diagonal minus one (as the reference stores it).
    #[must_use]
    pub fn diag_m1(&self) -> &[F] {
        &self.diag_m1
    }

    /// The constants borrowed for the round function.
    pub(crate) fn round_constants(&self) -> RoundConstants<'_, F> {
        RoundConstants {
            convention: self.convention,
            t: self.t,
            d: self.d,
            full_begin: &self.full_begin,
            partial: &self.partial,
            full_end: &self.full_end,
            diag_m1: &self.diag_m1,
        }
    }
}

/// The runtime-configured Poseidon2 permutation: one type for every width and every
/// instance, loaded or generated ([`crate::grain::generate`]).
///
/// It shares its round function with [`crate::Poseidon2Fixed`]; the two give identical
/// output (tested).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2<F> {
    params: Poseidon2Params<F>,
}

impl<F: Poseidon2Field> Poseidon2<F> {
    /// The permutation of the given instance.
    #[must_use]
    pub fn new(params: Poseidon2Params<F>) -> Self {
        Self { params }
    }

    /// The instance parameters.
    #[must_use]
    pub fn params(&self) -> &Poseidon2Params<F> {
        &self.params
    }

    /// Width `t`.
    #[must_use]
    pub fn width(&self) -> usize {
        self.params.t
    }

    /// Permutes `state` in place.
    ///
    /// # Panics
    /// If `state.len() != t`.
    pub fn permute(&self, state: &mut [F]) {
        assert_eq!(
            state.len(),
            self.params.t,
            "state width differs from the instance's t"
        );
        F::permute_slice(state, &self.params.round_constants());
    }

    /// The permutation of `input` as a new vector.
    ///
    /// # Panics
    /// If `input.len() != t`.
    #[must_use]
    pub fn permutation(&self, input: &[F]) -> Vec<F> {
        let mut state = input.to_vec();
        self.permute(&mut state);
        state
    }
}
