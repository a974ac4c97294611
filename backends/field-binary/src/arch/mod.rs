//! Carry-less multiplication kernels.
//!
//! [`portable`] is the reference implementation, written with integer arithmetic only; every
//! SIMD kernel has a test comparing it against the portable twin.

pub mod portable;

/// `x · y` in GF(2^128) (GHASH polynomial) with the best kernel for this CPU.
#[inline(always)]
#[must_use]
pub fn mul(x: u128, y: u128) -> u128 {
    portable::mul(x, y)
}

/// `x^2` in GF(2^128) with the best kernel for this CPU.
#[inline(always)]
#[must_use]
pub fn square(x: u128) -> u128 {
    portable::square(x)
}
