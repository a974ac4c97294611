//! Constant generation with the Grain LFSR, exactly as the reference parameter script
//! `poseidon2_rust_params.sage` (HorizenLabs; Poseidon eprint 2019/458 Appendix F, reused by
//! eprint 2023/323).
//!
//! 1. **Seed** (80 bits, each field most significant bit first): field type (2 bits, 1 =
//!    prime field), S-box type (4 bits, 0 for `x^d` in the current script), `n` = bit length
//!    of p (12 bits), `t` (12), `R_F` (10), `R_P` (10), then 30 one-bits. `d` is not seeded.
//! 2. **Clock**: `b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i`;
//!    the first 160 outputs are discarded.
//! 3. **Self-shrinking output**: clock a pair `(a, b)`; emit `b` iff `a = 1`.
//! 4. **Draws**: an `n`-bit integer from the next `n` emitted bits, first bit most
//!    significant.
//! 5. **Round constants** (`R_F·t + R_P` of them, in round order: first full rounds, one per
//!    partial round, last full rounds): a draw `>= p` is thrown away and redrawn (rejection
//!    sampling).
//! 6. **Internal diagonal** (`t >= 4`): draw `t` values and reduce each mod p (no rejection);
//!    these are `μ_i`. Keep the candidate if `M_I = J + diag(μ − 1)` passes
//!    [`passes_minpoly_check`], else draw a fresh `t`-tuple.

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::PrimeField;

use crate::Poseidon2Error;
use crate::field::Poseidon2Field;
use crate::matrix::internal_matrix;
use crate::minpoly::passes_minpoly_check;
use crate::params::{Poseidon2Params, fixed_internal_diag_m1};

/// The S-box type bits of the seed for `x^d` in the current (2023-06-23) script. Instances
/// generated before that date used 1.
pub const SBOX_TYPE_POWER: u8 = 0;

/// The 80-bit Grain LFSR in self-shrinking mode.
#[derive(Clone, Debug)]
pub struct Grain {
    /// `b_i … b_{i+79}` with `b_i` in bit 0.
    state: u128,
}

/// Mask of the 80 state bits.
const STATE_MASK: u128 = (1 << 80) - 1;

impl Grain {
    /// Seeds the LFSR (module docs, step 1) and discards the first 160 outputs.
    #[must_use]
    pub fn new(field_bits: u32, t: usize, rf: usize, rp: usize, sbox_type: u8) -> Self {
        let fields: [(u64, u32); 7] = [
            (1, 2),
            (u64::from(sbox_type), 4),
            (u64::from(field_bits), 12),
            (t as u64, 12),
            (rf as u64, 10),
            (rp as u64, 10),
            ((1 << 30) - 1, 30),
        ];
        let mut state = 0u128;
        let mut pos = 0;
        for (value, width) in fields {
            for k in (0..width).rev() {
                state |= u128::from((value >> k) & 1) << pos;
                pos += 1;
            }
        }
        let mut grain = Self { state };
        for _ in 0..160 {
            grain.clock();
        }
        grain
    }

    /// One LFSR step: computes `b_{i+80}`, shifts it in and returns it.
    fn clock(&mut self) -> bool {
        let s = self.state;
        let bit = (s ^ (s >> 13) ^ (s >> 23) ^ (s >> 38) ^ (s >> 51) ^ (s >> 62)) & 1;
        self.state = ((s >> 1) | (bit << 79)) & STATE_MASK;
        bit == 1
    }

    /// The next self-shrunk output bit (module docs, step 3).
    pub fn next_bit(&mut self) -> bool {
        loop {
            let a = self.clock();
            let b = self.clock();
            if a {
                return b;
            }
        }
    }

    /// An `n`-bit draw as little-endian bytes of length `len` (`len·8 >= n`), first emitted
    /// bit most significant.
    pub fn draw_le_bytes(&mut self, n: u32, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; len];
        for k in (0..n as usize).rev() {
            if self.next_bit() {
                bytes[k / 8] |= 1 << (k % 8);
            }
        }
        bytes
    }
}

/// Generated constants with the generator's bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated<F> {
    /// The instance.
    pub params: Poseidon2Params<F>,
    /// Round-constant draws `>= p` thrown away.
    pub rc_rejected: usize,
    /// Diagonal candidates rejected by the minimal-polynomial check (`None` for `t = 2, 3`).
    pub diag_rejected: Option<usize>,
}

/// Draws one field element by rejection sampling, counting rejected draws.
fn draw_canonical<F: PrimeField>(grain: &mut Grain, rejected: &mut usize) -> F {
    loop {
        let bytes = grain.draw_le_bytes(F::MODULUS_BITS, F::NUM_BYTES);
        if let Some(x) = F::read_bytes(&bytes) {
            return x;
        }
        *rejected += 1;
    }
}

/// Draws one element reduced mod p (the diagonal candidates are not rejection-sampled).
fn draw_reduced<F: PrimeField>(grain: &mut Grain) -> F {
    F::from_le_bytes_mod_order(&grain.draw_le_bytes(F::MODULUS_BITS, F::NUM_BYTES))
}

/// Draws `count` round constants.
fn draw_constants<F: PrimeField>(grain: &mut Grain, count: usize, rejected: &mut usize) -> Vec<F> {
    (0..count)
        .map(|_| draw_canonical(grain, rejected))
        .collect()
}

/// Draws diagonal candidates until one passes the minimal-polynomial check; returns
/// `(μ − 1, rejected candidates)`.
fn draw_internal_diag<F: PrimeField>(grain: &mut Grain, t: usize) -> (Vec<F>, usize) {
    let mut rejected = 0;
    loop {
        let diag_m1: Vec<F> = (0..t).map(|_| draw_reduced::<F>(grain) - F::ONE).collect();
        if passes_minpoly_check(&internal_matrix(&diag_m1)) {
            return (diag_m1, rejected);
        }
        rejected += 1;
    }
}

/// Generates the constants of the instance `(F, t, d, R_F, R_P)` with the current script's
/// seed (S-box type 0).
///
/// # Errors
/// As [`Poseidon2Params::new`] (unsupported width, invalid `d`, odd `R_F`).
pub fn generate<F: Poseidon2Field>(
    t: usize,
    d: u64,
    rf: usize,
    rp: usize,
) -> Result<Generated<F>, Poseidon2Error> {
    generate_with_sbox_type(t, d, rf, rp, SBOX_TYPE_POWER)
}

/// [`generate`] with an explicit S-box type in the seed (1 reproduces pre-2023-06-23
/// instances).
///
/// # Errors
/// As [`generate`].
pub fn generate_with_sbox_type<F: Poseidon2Field>(
    t: usize,
    d: u64,
    rf: usize,
    rp: usize,
    sbox_type: u8,
) -> Result<Generated<F>, Poseidon2Error> {
    if !rf.is_multiple_of(2) {
        return Err(Poseidon2Error::OddFullRounds { rf });
    }
    let mut grain = Grain::new(F::MODULUS_BITS, t, rf, rp, sbox_type);
    let mut rc_rejected = 0;
    let full_begin = draw_constants(&mut grain, rf / 2 * t, &mut rc_rejected);
    let partial = draw_constants(&mut grain, rp, &mut rc_rejected);
    let full_end = draw_constants(&mut grain, rf / 2 * t, &mut rc_rejected);
    let (diag_m1, diag_rejected) = match fixed_internal_diag_m1::<F>(t) {
        Some(fixed) => (fixed, None),
        None if t >= 4 => {
            let (diag, rejected) = draw_internal_diag(&mut grain, t);
            (diag, Some(rejected))
        }
        None => return Err(Poseidon2Error::UnsupportedWidth { t }),
    };
    let params = Poseidon2Params::new(t, d, rf, rp, full_begin, partial, full_end, diag_m1)?;
    Ok(Generated {
        params,
        rc_rejected,
        diag_rejected,
    })
}

/// The reference's full instance for `(F, t)`: the smallest valid `d`, the round numbers of
/// [`crate::rounds::round_numbers`] at 128-bit security, and [`generate`].
///
/// # Errors
/// As [`generate`].
pub fn generate_instance<F: Poseidon2Field>(t: usize) -> Result<Generated<F>, Poseidon2Error> {
    let d = crate::params::smallest_sbox_degree::<F>();
    let (rf, rp) = crate::rounds::round_numbers::<F>(t, d, 128);
    generate(t, d, rf, rp)
}
