//! The linear layers `MF` (external, full rounds and the initial layer) and `MP` (internal,
//! partial rounds): definitions, dense matrices generated from them, and the fast kernels.
//!
//! Entries are bit patterns read in the instance's basis ([`BinaryField::from_bits`]);
//! `x` is the pattern `2`. In the official polynomial basis the patterns are polynomials in
//! `x`; frost-gkr reads the same patterns in its tower basis.
//!
//! ## `t = 4`
//!
//! `MF` is Poseidon2's `M4` (eprint 2023/323 §5.1) with its integers read as polynomials:
//!
//! ```text
//!      ⎡ x²+1  x²+x+1  1     x+1    ⎤   ⎡5 7 1 3⎤
//! MF = ⎢ x²    x²+x    1     1      ⎥ = ⎢4 6 1 1⎥
//!      ⎢ 1     x+1     x²+1  x²+x+1 ⎥   ⎢1 3 5 7⎥
//!      ⎣ 1     1       x²    x²+x   ⎦   ⎣1 1 4 6⎦
//! ```
//!
//! Kernel (the `M4` addition chain; valid here because every coefficient it forms is a sum of
//! *distinct* powers of `x`, so integer sums and XOR sums agree — and the test against the
//! dense product checks it): `t0 = a+b`, `t1 = c+d`, `t2 = x·b + t1`, `t3 = x·d + t0`,
//! `t4 = x²·t1 + t3`, `t5 = x²·t0 + t2`, output `(t3 + t5, t5, t2 + t4, t4)`.
//!
//! `MP = J + diag(d_i)`, all off-diagonal entries 1, `d = (x^5, x^13, x^9, x^11)`.
//!
//! ## `t = 6`
//!
//! `MF = circ(x^9, 1, x, x, x^11, 1)`: row `i` is the first row rotated right by `i`, so
//! `out_i = Σ_k row_0[k] · in_{i+k}` (indices mod 6). With `S = Σ_j in_j` the kernel is
//! `out_i = S + (x^9+1)·in_i + (x+1)·(in_{i+2} + in_{i+3}) + (x^11+1)·in_{i+4}`.
//!
//! `MP = J + diag(x^8, x^10, x^3, x^2, x^11, x^14)`.
//!
//! ## `MP` kernel (any `t`)
//!
//! `out_i = S + in_i + x^{e_i}·in_i`, `S = Σ_j in_j`: `t` monomial products and `3t − 1`
//! additions. (The diagonal entries are `x^{e_i}`, not `1 + x^{e_i}`.)

use flockwork_field::{BinaryField, Field, PackedField};

use crate::field::Poseidon2bLane;

/// The exponents `e_i` of the `MP` diagonal `x^{e_i}` for `t = 4`.
pub const MP_EXPONENTS_T4: [u32; 4] = [5, 13, 9, 11];

/// The exponents `e_i` of the `MP` diagonal `x^{e_i}` for `t = 6`.
pub const MP_EXPONENTS_T6: [u32; 6] = [8, 10, 3, 2, 11, 14];

/// `MF` for `t = 4` as bit patterns (the integers of Poseidon2's `M4`).
pub const MF_T4: [[u128; 4]; 4] = [[5, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];

/// The first row of the circulant `MF` for `t = 6` as exponents: `(x^9, 1, x, x, x^11, 1)`.
pub const MF_T6_FIRST_ROW_EXPONENTS: [u32; 6] = [9, 0, 1, 1, 11, 0];

/// The widths with a defined instance.
pub const SUPPORTED_WIDTHS: [usize; 2] = [4, 6];

/// Compile-time check that `T` is a supported width.
pub(crate) const fn assert_width<const T: usize>() {
    assert!(
        T == 4 || T == 6,
        "Poseidon2b is defined here for t = 4 and t = 6"
    );
}

/// The `MP` diagonal exponents for width `T`.
#[must_use]
pub const fn mp_exponents<const T: usize>() -> [u32; T] {
    assert_width::<T>();
    let src: &[u32] = if T == 4 {
        &MP_EXPONENTS_T4
    } else {
        &MP_EXPONENTS_T6
    };
    let mut out = [0u32; T];
    let mut i = 0;
    while i < T {
        out[i] = src[i];
        i += 1;
    }
    out
}

/// `MF` as bit patterns, generated from its definition (module docs).
#[must_use]
pub const fn mf_bits<const T: usize>() -> [[u128; T]; T] {
    assert_width::<T>();
    let mut out = [[0u128; T]; T];
    let mut i = 0;
    while i < T {
        let mut j = 0;
        while j < T {
            out[i][j] = if T == 4 {
                MF_T4[i][j]
            } else {
                // Row i = first row rotated right by i: M[i][j] = row0[(j − i) mod 6].
                1u128 << MF_T6_FIRST_ROW_EXPONENTS[(j + T - i) % T]
            };
            j += 1;
        }
        i += 1;
    }
    out
}

/// `MP = J + diag(x^{e_i})` as bit patterns.
#[must_use]
pub const fn mp_bits<const T: usize>() -> [[u128; T]; T] {
    let e = mp_exponents::<T>();
    let mut out = [[1u128; T]; T];
    let mut i = 0;
    while i < T {
        out[i][i] = 1u128 << e[i];
        i += 1;
    }
    out
}

/// A bit-pattern matrix read in the field `F`.
#[must_use]
pub fn to_field<F: BinaryField, const T: usize>(m: &[[u128; T]; T]) -> [[F; T]; T] {
    m.map(|row| row.map(F::from_bits))
}

/// The dense product `M · v` (the reference the kernels are tested against).
#[must_use]
pub fn dense_apply<F: Field, const T: usize>(m: &[[F; T]; T], v: &[F; T]) -> [F; T] {
    core::array::from_fn(|i| {
        m[i].iter()
            .zip(v)
            .fold(F::ZERO, |acc, (&a, &b)| acc + a * b)
    })
}

#[inline(always)]
fn sum<P: PackedField, const T: usize>(s: &[P; T]) -> P {
    let mut acc = s[0];
    for &v in &s[1..] {
        acc += v;
    }
    acc
}

/// `s ← MF · s` with the structured kernel (module docs).
#[inline(always)]
pub fn apply_mf<P: Poseidon2bLane, const T: usize>(s: &mut [P; T]) {
    const { assert_width::<T>() };
    if T == 4 {
        let (a, b, c, d) = (s[0], s[1], s[2], s[3]);
        let t0 = a + b;
        let t1 = c + d;
        let t2 = b.mul_monomial(1) + t1;
        let t3 = d.mul_monomial(1) + t0;
        let t4 = t1.mul_monomial(2) + t3;
        let t5 = t0.mul_monomial(2) + t2;
        s[0] = t3 + t5;
        s[1] = t5;
        s[2] = t2 + t4;
        s[3] = t4;
    } else {
        let total = sum(s);
        let u: [P; T] = core::array::from_fn(|i| s[i].mul_monomial(9) + s[i]);
        let w: [P; T] = core::array::from_fn(|i| s[i].mul_monomial(11) + s[i]);
        let p: [P; T] = core::array::from_fn(|i| {
            let pair = s[i] + s[(i + 1) % T];
            pair.mul_monomial(1) + pair
        });
        for i in 0..T {
            s[i] = total + u[i] + p[(i + 2) % T] + w[(i + 4) % T];
        }
    }
}

/// `s ← MP · s` with the kernel `out_i = S + in_i + x^{e_i}·in_i`.
#[inline(always)]
pub fn apply_mp<P: Poseidon2bLane, const T: usize>(s: &mut [P; T]) {
    let e = const { mp_exponents::<T>() };
    let total = sum(s);
    for i in 0..T {
        s[i] = total + s[i] + s[i].mul_monomial(e[i]);
    }
}
