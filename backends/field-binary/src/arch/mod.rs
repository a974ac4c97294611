//! Carry-less multiplication kernels for GF(2^128) (GHASH polynomial), one module per target,
//! behind one run-time dispatch.
//!
//! Every kernel computes the same function: the 255-bit carry-less product of two 128-bit
//! polynomials (Karatsuba over 64-bit halves, three 64 × 64 carry-less multiplications),
//! then the reduction modulo `x^128 + x^7 + x^2 + x + 1` (see [`portable::reduce`]).
//!
//! | [`Backend`] | instructions | products per instruction stream |
//! |---|---|---|
//! | [`Backend::Portable`] | integer multiplication with holes ([`portable`]) | 1 |
//! | [`Backend::Pclmul`] | x86-64 `PCLMULQDQ` on `xmm` | 1 |
//! | [`Backend::Vpclmul256`] | x86-64 `VPCLMULQDQ` on `ymm` (AVX2) | 2 |
//! | [`Backend::Vpclmul512`] | x86-64 `VPCLMULQDQ` on `zmm` (AVX-512F) | 4 |
//! | [`Backend::Pmull`] | aarch64 `PMULL` (NEON + AES) | 1 |
//!
//! The CPU is probed once ([`Backend::detect`]; with the `std` feature through
//! `is_x86_feature_detected!`/`is_aarch64_feature_detected!`, without it from the
//! compile-time `target_feature`s) and the result is cached in an atomic. Dispatched entry
//! points ([`mul`], [`square`], [`clmul128`], the packed and slice kernels of
//! [`crate::ghash`]) use [`Backend::active`], which is the detected backend unless a
//! benchmark or test chose another available one with [`Backend::set_active`]. The `*_with`
//! functions take an explicit backend so tests can run every path the CPU supports against
//! the [`portable`] twin; they panic on a backend the CPU lacks instead of executing
//! unsupported instructions.
//!
//! [`portable`] is the reference implementation, written with integer arithmetic only.

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Ghash128;

/// A family of multiplication kernels.
///
/// The discriminants order the x86-64 backends from slowest to fastest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Backend {
    /// Integer arithmetic only; available everywhere.
    Portable = 0,
    /// x86-64 `PCLMULQDQ` + SSE2, one product per 128-bit register.
    Pclmul = 1,
    /// x86-64 `VPCLMULQDQ` + AVX2, two products per 256-bit register.
    Vpclmul256 = 2,
    /// x86-64 `VPCLMULQDQ` + AVX-512F, four products per 512-bit register.
    Vpclmul512 = 3,
    /// aarch64 `PMULL` (`vmull_p64`, NEON + AES).
    Pmull = 4,
}

impl Backend {
    /// Every backend, available or not, in declaration order.
    pub const ALL: [Backend; 5] = [
        Backend::Portable,
        Backend::Pclmul,
        Backend::Vpclmul256,
        Backend::Vpclmul512,
        Backend::Pmull,
    ];

    /// A short lower-case name (`"portable"`, `"pclmul"`, `"vpclmul256"`, `"vpclmul512"`,
    /// `"pmull"`), used in benchmark ids.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Pclmul => "pclmul",
            Backend::Vpclmul256 => "vpclmul256",
            Backend::Vpclmul512 => "vpclmul512",
            Backend::Pmull => "pmull",
        }
    }

    /// The fastest backend this CPU supports (probed once, then cached).
    #[must_use]
    pub fn detect() -> Backend {
        let mask = available_mask();
        [
            Backend::Vpclmul512,
            Backend::Vpclmul256,
            Backend::Pclmul,
            Backend::Pmull,
        ]
        .into_iter()
        .find(|b| mask & b.bit() != 0)
        .unwrap_or(Backend::Portable)
    }

    /// `true` iff this CPU (and target) can run the backend's instructions.
    #[must_use]
    pub fn is_available(self) -> bool {
        available_mask() & self.bit() != 0
    }

    /// The backend the dispatched entry points use: [`Backend::detect`] unless
    /// [`Backend::set_active`] chose another one.
    #[must_use]
    pub fn active() -> Backend {
        let v = ACTIVE.load(Ordering::Relaxed);
        if v != UNSET {
            return Backend::from_u8(v);
        }
        let detected = Backend::detect();
        match ACTIVE.compare_exchange(UNSET, detected as u8, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => detected,
            Err(current) => Backend::from_u8(current),
        }
    }

    /// Makes `self` the backend of every dispatched entry point in the process (for
    /// benchmarks and tests comparing backends; all backends compute identical results, so
    /// this changes speed only).
    ///
    /// # Panics
    /// If `self` is not available on this CPU.
    pub fn set_active(self) {
        assert!(
            self.is_available(),
            "GHASH backend {} is not available on this CPU",
            self.name()
        );
        ACTIVE.store(self as u8, Ordering::Relaxed);
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    fn from_u8(v: u8) -> Backend {
        Backend::ALL[usize::from(v)]
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Marks the availability mask as computed (so a computed mask is never 0).
const PROBED: u8 = 0x80;
/// `ACTIVE` before the first dispatch.
const UNSET: u8 = 0xff;

/// `PROBED | (1 << backend)` for every available backend, or 0 before the first probe.
static AVAILABLE: AtomicU8 = AtomicU8::new(0);
/// The active backend's discriminant, or `UNSET`. Only ever holds available backends.
static ACTIVE: AtomicU8 = AtomicU8::new(UNSET);

fn available_mask() -> u8 {
    let m = AVAILABLE.load(Ordering::Relaxed);
    if m != 0 {
        return m;
    }
    // Racing threads compute the same value; storing it twice is harmless.
    let m = PROBED | probe();
    AVAILABLE.store(m, Ordering::Relaxed);
    m
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! cpu_has {
    ($f:tt) => {
        std::is_x86_feature_detected!($f)
    };
}
#[cfg(all(target_arch = "aarch64", feature = "std"))]
macro_rules! cpu_has {
    ($f:tt) => {
        std::arch::is_aarch64_feature_detected!($f)
    };
}
#[cfg(not(feature = "std"))]
macro_rules! cpu_has {
    ($f:tt) => {
        cfg!(target_feature = $f)
    };
}

/// The availability bits of the CPU we run on.
// Without `std`, `cpu_has!` expands to constants, which clippy would fold.
#[allow(clippy::nonminimal_bool, clippy::eq_op)]
fn probe() -> u8 {
    #[allow(unused_mut)]
    let mut mask = Backend::Portable.bit();
    #[cfg(target_arch = "x86_64")]
    if cpu_has!("pclmulqdq") && cpu_has!("sse2") {
        mask |= Backend::Pclmul.bit();
        if cpu_has!("avx2") && cpu_has!("vpclmulqdq") {
            mask |= Backend::Vpclmul256.bit();
        }
        if cpu_has!("avx512f") && cpu_has!("vpclmulqdq") {
            mask |= Backend::Vpclmul512.bit();
        }
    }
    #[cfg(all(target_arch = "aarch64", feature = "std"))]
    if cpu_has!("neon") && cpu_has!("pmull") {
        mask |= Backend::Pmull.bit();
    }
    // Rust folds PMULL into the `aes` target feature.
    #[cfg(all(target_arch = "aarch64", not(feature = "std")))]
    if cpu_has!("neon") && cpu_has!("aes") {
        mask |= Backend::Pmull.bit();
    }
    mask
}

/// Whether the CPU has AVX-512F/BW/VBMI and GFNI (the byte-matrix kernels of
/// [`crate::gf2::ByteTableMap`]); probed once.
#[must_use]
pub fn has_gfni_avx512() -> bool {
    static GFNI: AtomicU8 = AtomicU8::new(0);
    match GFNI.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let has = gfni_probe();
            GFNI.store(if has { 2 } else { 1 }, Ordering::Relaxed);
            has
        }
    }
}

// Without `std`, `cpu_has!` expands to constants, which clippy would fold.
#[allow(clippy::nonminimal_bool, clippy::eq_op)]
fn gfni_probe() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cpu_has!("avx512f") && cpu_has!("avx512bw") && cpu_has!("avx512vbmi") && cpu_has!("gfni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A backend that has been checked to be available on this CPU; the unsafe calls into the
/// SIMD modules rely on this invariant, which is why the type cannot be built elsewhere.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Available(Backend);

impl Available {
    /// The active backend (`ACTIVE` only ever holds available backends).
    #[inline]
    pub(crate) fn active() -> Self {
        Self(Backend::active())
    }

    /// `backend`, after checking that the CPU supports it.
    ///
    /// # Panics
    /// If it does not.
    pub(crate) fn check(backend: Backend) -> Self {
        assert!(
            backend.is_available(),
            "GHASH backend {} is not available on this CPU",
            backend.name()
        );
        Self(backend)
    }
}

/// The bit patterns of a slice of field elements (`Ghash128` is `repr(transparent)`).
#[inline(always)]
pub(crate) fn bits(s: &[Ghash128]) -> &[u128] {
    // SAFETY: `Ghash128` is `#[repr(transparent)]` over `u128`, so both slices have the same
    // layout, alignment and validity; the borrow is carried over unchanged.
    unsafe { core::slice::from_raw_parts(s.as_ptr().cast::<u128>(), s.len()) }
}

/// Mutable form of [`bits`].
#[inline(always)]
pub(crate) fn bits_mut(s: &mut [Ghash128]) -> &mut [u128] {
    // SAFETY: as in `bits`; every `u128` is a valid `Ghash128`, so writes keep validity, and
    // the unique borrow is carried over unchanged.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u128>(), s.len()) }
}

// ---------------------------------------------------------------------------------------
// Dispatch on a checked backend. The `SAFETY` argument is the same everywhere: `Available`
// only wraps backends whose CPU features were detected, and each x86 SIMD backend requires
// PCLMULQDQ + SSE2 in `probe` in addition to its own features.
// ---------------------------------------------------------------------------------------

#[inline]
pub(crate) fn mul_on(b: Available, x: u128, y: u128) -> u128 {
    match b.0 {
        #[cfg(target_arch = "x86_64")]
        Backend::Pclmul | Backend::Vpclmul256 | Backend::Vpclmul512 => {
            // SAFETY: see the section comment: PCLMULQDQ + SSE2 are present.
            unsafe { x86_64::pclmul::mul(x, y) }
        }
        #[cfg(target_arch = "aarch64")]
        Backend::Pmull => {
            // SAFETY: see the section comment: NEON + PMULL are present.
            unsafe { aarch64::mul(x, y) }
        }
        _ => portable::mul(x, y),
    }
}

#[inline]
pub(crate) fn square_on(b: Available, x: u128) -> u128 {
    match b.0 {
        #[cfg(target_arch = "x86_64")]
        Backend::Pclmul | Backend::Vpclmul256 | Backend::Vpclmul512 => {
            // SAFETY: see the section comment: PCLMULQDQ + SSE2 are present.
            unsafe { x86_64::pclmul::square(x) }
        }
        #[cfg(target_arch = "aarch64")]
        Backend::Pmull => {
            // SAFETY: see the section comment: NEON + PMULL are present.
            unsafe { aarch64::square(x) }
        }
        _ => portable::square(x),
    }
}

#[inline]
pub(crate) fn clmul128_on(b: Available, x: u128, y: u128) -> (u128, u128) {
    match b.0 {
        #[cfg(target_arch = "x86_64")]
        Backend::Pclmul | Backend::Vpclmul256 | Backend::Vpclmul512 => {
            // SAFETY: see the section comment: PCLMULQDQ + SSE2 are present.
            unsafe { x86_64::pclmul::clmul128(x, y) }
        }
        #[cfg(target_arch = "aarch64")]
        Backend::Pmull => {
            // SAFETY: see the section comment: NEON + PMULL are present.
            unsafe { aarch64::clmul128(x, y) }
        }
        _ => portable::clmul128(x, y),
    }
}

/// Dispatches one slice-kernel call `$f($args…)` to the module of backend `$b`.
macro_rules! dispatch_kernel {
    ($b:expr, $f:ident($($arg:expr),*)) => {
        match $b.0 {
            #[cfg(target_arch = "x86_64")]
            Backend::Pclmul => {
                // SAFETY: see the section comment: PCLMULQDQ + SSE2 are present.
                unsafe { x86_64::pclmul::$f($($arg),*) }
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Vpclmul256 => {
                // SAFETY: see the section comment: AVX2 + VPCLMULQDQ + PCLMULQDQ are present.
                unsafe { x86_64::vpclmul256::$f($($arg),*) }
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Vpclmul512 => {
                // SAFETY: see the section comment: AVX-512F + VPCLMULQDQ + PCLMULQDQ are
                // present.
                unsafe { x86_64::vpclmul512::$f($($arg),*) }
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Pmull => {
                // SAFETY: see the section comment: NEON + PMULL are present.
                unsafe { aarch64::$f($($arg),*) }
            }
            _ => portable::$f($($arg),*),
        }
    };
}

#[inline]
pub(crate) fn mul_x4_on(b: Available, x: &[u128; 4], y: &[u128; 4]) -> [u128; 4] {
    dispatch_kernel!(b, mul_x4(x, y))
}

#[inline]
pub(crate) fn square_x4_on(b: Available, x: &[u128; 4]) -> [u128; 4] {
    dispatch_kernel!(b, square_x4(x))
}

pub(crate) fn mul_slices_on(b: Available, out: &mut [u128], x: &[u128], y: &[u128]) {
    assert!(
        out.len() == x.len() && x.len() == y.len(),
        "mul_slices: lengths differ ({}, {}, {})",
        out.len(),
        x.len(),
        y.len()
    );
    dispatch_kernel!(b, mul_slices(out, x, y));
}

pub(crate) fn mul_assign_scalar_on(b: Available, v: &mut [u128], s: u128) {
    dispatch_kernel!(b, mul_assign_scalar(v, s));
}

pub(crate) fn add_mul_scalar_on(b: Available, acc: &mut [u128], v: &[u128], s: u128) {
    assert_eq!(acc.len(), v.len(), "add_mul_scalar: lengths differ");
    dispatch_kernel!(b, add_mul_scalar(acc, v, s));
}

pub(crate) fn butterfly_on(b: Available, u: &mut [u128], v: &mut [u128], s: u128) {
    assert_eq!(u.len(), v.len(), "butterfly: lengths differ");
    dispatch_kernel!(b, butterfly(u, v, s));
}

pub(crate) fn butterfly4_on(b: Available, rows: [&mut [u128]; 4], t: [u128; 3]) {
    let n = rows[0].len();
    assert!(
        rows.iter().all(|r| r.len() == n),
        "butterfly4: lengths differ"
    );
    dispatch_kernel!(b, butterfly4(rows, t));
}

pub(crate) fn dot_on(b: Available, x: &[u128], y: &[u128]) -> u128 {
    assert_eq!(x.len(), y.len(), "dot: lengths differ");
    dispatch_kernel!(b, dot(x, y))
}

// ---------------------------------------------------------------------------------------
// Public entry points.
// ---------------------------------------------------------------------------------------

/// `x · y` in GF(2^128) (GHASH polynomial) with the active backend.
#[inline]
#[must_use]
pub fn mul(x: u128, y: u128) -> u128 {
    mul_on(Available::active(), x, y)
}

/// `x^2` in GF(2^128) with the active backend.
#[inline]
#[must_use]
pub fn square(x: u128) -> u128 {
    square_on(Available::active(), x)
}

/// The unreduced 255-bit carry-less product `x · y` as `(lo, hi)` 128-bit halves, with the
/// active backend.
#[inline]
#[must_use]
pub fn clmul128(x: u128, y: u128) -> (u128, u128) {
    clmul128_on(Available::active(), x, y)
}

/// [`mul`] on an explicit backend.
///
/// # Panics
/// If `backend` is not available on this CPU.
#[must_use]
pub fn mul_with(backend: Backend, x: u128, y: u128) -> u128 {
    mul_on(Available::check(backend), x, y)
}

/// [`square`] on an explicit backend.
///
/// # Panics
/// If `backend` is not available on this CPU.
#[must_use]
pub fn square_with(backend: Backend, x: u128) -> u128 {
    square_on(Available::check(backend), x)
}

/// [`clmul128`] on an explicit backend.
///
/// # Panics
/// If `backend` is not available on this CPU.
#[must_use]
pub fn clmul128_with(backend: Backend, x: u128, y: u128) -> (u128, u128) {
    clmul128_on(Available::check(backend), x, y)
}

/// Four independent products `x[i] · y[i]` on an explicit backend (the kernel of
/// [`crate::ghash::PackedGhash128x4`]).
///
/// # Panics
/// If `backend` is not available on this CPU.
#[must_use]
pub fn mul_x4_with(backend: Backend, x: &[u128; 4], y: &[u128; 4]) -> [u128; 4] {
    mul_x4_on(Available::check(backend), x, y)
}

/// Four independent squares `x[i]^2` on an explicit backend.
///
/// # Panics
/// If `backend` is not available on this CPU.
#[must_use]
pub fn square_x4_with(backend: Backend, x: &[u128; 4]) -> [u128; 4] {
    square_x4_on(Available::check(backend), x)
}

/// `out[i] = x[i] · y[i]` on an explicit backend (see [`crate::ghash::batch::mul_slices`]).
///
/// # Panics
/// If `backend` is not available on this CPU or the lengths differ.
pub fn mul_slices_with(backend: Backend, out: &mut [u128], x: &[u128], y: &[u128]) {
    mul_slices_on(Available::check(backend), out, x, y);
}

/// `v[i] = v[i] · s` on an explicit backend (see
/// [`crate::ghash::batch::mul_assign_scalar`]).
///
/// # Panics
/// If `backend` is not available on this CPU.
pub fn mul_assign_scalar_with(backend: Backend, v: &mut [u128], s: u128) {
    mul_assign_scalar_on(Available::check(backend), v, s);
}

/// `acc[i] += v[i] · s` on an explicit backend (see
/// [`crate::ghash::batch::add_mul_scalar`]).
///
/// # Panics
/// If `backend` is not available on this CPU or the lengths differ.
pub fn add_mul_scalar_with(backend: Backend, acc: &mut [u128], v: &[u128], s: u128) {
    add_mul_scalar_on(Available::check(backend), acc, v, s);
}

/// The forward NTT butterfly `u[i] += s·v[i]; v[i] += u[i]` on an explicit backend (see
/// [`crate::ghash::batch::butterfly`]).
///
/// # Panics
/// If `backend` is not available on this CPU or the lengths differ.
pub fn butterfly_with(backend: Backend, u: &mut [u128], v: &mut [u128], s: u128) {
    butterfly_on(Available::check(backend), u, v, s);
}

/// Two layers of forward NTT butterflies on four rows on an explicit backend (see
/// [`crate::ghash::batch::butterfly4`]).
///
/// # Panics
/// If `backend` is not available on this CPU or the lengths differ.
pub fn butterfly4_with(backend: Backend, rows: [&mut [u128]; 4], t: [u128; 3]) {
    butterfly4_on(Available::check(backend), rows, t);
}

/// `Σ x[i] · y[i]` on an explicit backend (see [`crate::ghash::batch::dot`]).
///
/// # Panics
/// If `backend` is not available on this CPU or the lengths differ.
#[must_use]
pub fn dot_with(backend: Backend, x: &[u128], y: &[u128]) -> u128 {
    dot_on(Available::check(backend), x, y)
}

#[cfg(test)]
pub(crate) mod tests;
