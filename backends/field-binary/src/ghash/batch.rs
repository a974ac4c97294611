//! Slice kernels over [`Ghash128`]: the entry points for hot loops.
//!
//! Each call picks the active [`Backend`](crate::arch::Backend) once and runs a loop
//! compiled for its instructions (four products per `zmm` register with AVX-512 +
//! VPCLMULQDQ), instead of dispatching per element. [`dot`] sums the unreduced 255-bit
//! Karatsuba terms and reduces once: the reduction modulo `x^128 + x^7 + x^2 + x + 1` is
//! F2-linear, so `Σ reduce(aᵢ·bᵢ) = reduce(Σ aᵢ·bᵢ)`.
//!
//! For an explicit backend use the `*_with` functions of [`crate::arch`].

use super::Ghash128;
use crate::arch::{self, Available};

/// `out[i] = a[i] · b[i]`.
///
/// # Panics
/// If the three lengths differ.
pub fn mul_slices(out: &mut [Ghash128], a: &[Ghash128], b: &[Ghash128]) {
    arch::mul_slices_on(
        Available::active(),
        arch::bits_mut(out),
        arch::bits(a),
        arch::bits(b),
    );
}

/// `v[i] = v[i] · s`.
pub fn mul_assign_scalar(v: &mut [Ghash128], s: Ghash128) {
    arch::mul_assign_scalar_on(Available::active(), arch::bits_mut(v), s.0);
}

/// `acc[i] += v[i] · s` (one pass: the products are not stored).
///
/// # Panics
/// If the lengths differ.
pub fn add_mul_scalar(acc: &mut [Ghash128], v: &[Ghash128], s: Ghash128) {
    arch::add_mul_scalar_on(Available::active(), arch::bits_mut(acc), arch::bits(v), s.0);
}

/// The forward additive-NTT butterfly in one pass: `u[i] += s·v[i]`, then `v[i] += u[i]`.
///
/// # Panics
/// If the lengths differ.
pub fn butterfly(u: &mut [Ghash128], v: &mut [Ghash128], s: Ghash128) {
    arch::butterfly_on(
        Available::active(),
        arch::bits_mut(u),
        arch::bits_mut(v),
        s.0,
    );
}

/// Two layers of forward butterflies on four rows `[a, b, c, d]` (a block of the outer layer
/// cut in quarters): [`butterfly`]`(a, c, t[0])` and `(b, d, t[0])`, then `(a, b, t[1])` and
/// `(c, d, t[2])`. The x86-64 kernels (VPCLMULQDQ, PCLMULQDQ) keep the four rows' values in
/// registers, loading and storing each element once; the portable and aarch64 (PMULL) kernels
/// run the four butterflies one after another.
///
/// # Panics
/// If the lengths differ.
pub fn butterfly4(rows: [&mut [Ghash128]; 4], t: [Ghash128; 3]) {
    arch::butterfly4_on(
        Available::active(),
        rows.map(arch::bits_mut),
        t.map(|x| x.0),
    );
}

/// The inner product `Σ a[i] · b[i]`, reduced once.
///
/// # Panics
/// If the lengths differ.
#[must_use]
pub fn dot(a: &[Ghash128], b: &[Ghash128]) -> Ghash128 {
    Ghash128(arch::dot_on(
        Available::active(),
        arch::bits(a),
        arch::bits(b),
    ))
}
