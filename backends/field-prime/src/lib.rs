//! # flockwork-field-prime
//!
//! Prime fields GF(p) for flockwork, in two shapes:
//!
//! * [`Ark<F>`]: **one** generic adapter turning any `ark_ff::PrimeField` into a
//!   [`flockwork_field::PrimeField`]. Arithmetic is ark's Montgomery arithmetic (elements are
//!   stored as `a·R mod p` with `R = 2^(64·N)`, products reduced by CIOS Montgomery
//!   reduction), forwarded unchanged; bytes go through `ark-serialize` with strict
//!   validation. The instances are the aliases [`Bn254Fr`], [`Bls12_381Fr`] and
//!   [`GoldilocksArk`].
//! * [`Goldilocks`]: a specialised backend for p = 2^64 − 2^32 + 1 holding the canonical
//!   `u64` and reducing 128-bit products with the special form of p (see
//!   [`goldilocks`](crate::Goldilocks) for the derivation). It is tested
//!   element-for-element against [`GoldilocksArk`]. On x86-64, [`avx512`] adds eight-lane
//!   Goldilocks arithmetic behind a run-time-detected token (the batch kernel of the
//!   Poseidon2 gadget runs on it).
//!
//! | type | p | `MODULUS_BITS` | `TWO_ADICITY` | `NUM_BYTES` | `UNIFORM_BYTES` |
//! |---|---|---|---|---|---|
//! | [`Bn254Fr`] | BN254 scalar field | 254 | 28 | 32 | 48 |
//! | [`Bls12_381Fr`] | BLS12-381 scalar field | 255 | 32 | 32 | 48 |
//! | [`GoldilocksArk`], [`Goldilocks`] | 2^64 − 2^32 + 1 | 64 | 32 | 8 | 24 |
//! | [`PallasFp`] | Pallas base field (= Vesta scalar field) | 255 | 32 | 32 | 48 |
//! | [`VestaFp`] | Vesta base field (= Pallas scalar field) | 255 | 32 | 32 | 48 |
//! | [`BabyBearArk`] | 15 · 2^27 + 1 | 31 | 27 | 4 | 20 |
//!
//! ## Conventions shared by both shapes
//!
//! * Canonical bytes: the integer in `[0, p)`, little-endian, `ceil(MODULUS_BITS / 8)` bytes.
//!   Decoding rejects a wrong length and any integer ≥ p (including set high "flag" bits).
//! * Uniform sampling reads `NUM_BYTES + 16` bytes and reduces the integer mod p; for
//!   `n = 8·UNIFORM_BYTES` the statistical distance to uniform is at most `p / 2^n < 2^-128`.
//! * `ORDER_BITS = MODULUS_BITS − 1 = floor(log2 p)` (p is not a power of two).
#![cfg_attr(not(any(feature = "std", test)), no_std)]
// `unsafe` is confined to the AVX-512 module (its intrinsics), where each block is justified.
#![deny(unsafe_code)]

mod ark;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
mod goldilocks;

pub use ark::Ark;
pub use goldilocks::Goldilocks;

use ark_ff::fields::{Fp64, Fp256, MontBackend, MontConfig};

/// The BN254 scalar field (the order of the BN254 G1 group), through the ark adapter.
pub type Bn254Fr = Ark<ark_bn254::Fr>;

/// The BLS12-381 scalar field (the order of the BLS12-381 G1 group), through the ark adapter.
pub type Bls12_381Fr = Ark<ark_bls12_381::Fr>;

/// The Goldilocks field p = 2^64 − 2^32 + 1 in ark's one-limb Montgomery form, through the
/// ark adapter. Slower than [`Goldilocks`]; it is the reference the specialised backend is
/// tested against.
pub type GoldilocksArk = Ark<GoldilocksFp>;

/// The ark-ff Montgomery configuration of the Goldilocks prime p = 2^64 − 2^32 + 1.
///
/// `p − 1 = 2^32 · 3 · 5 · 17 · 257 · 65537`; the generator 7 has full multiplicative order
/// `p − 1` (checked in the tests), so ark's two-adic root of unity is `7^((p − 1) / 2^32)`.
#[derive(MontConfig)]
#[modulus = "18446744069414584321"]
#[generator = "7"]
pub struct GoldilocksConfig;

/// The raw ark-ff Goldilocks field element (one 64-bit limb, Montgomery form).
pub type GoldilocksFp = Fp64<MontBackend<GoldilocksConfig, 1>>;

/// The Pallas base field p = 2^254 + 45560315531419706090280762371685220353 (the scalar
/// field of Vesta), through the ark adapter. Used by Poseidon2 instances of the Pasta cycle.
pub type PallasFp = Ark<PallasFpInner>;

/// The ark-ff Montgomery configuration of the Pallas base field.
///
/// 5 is a quadratic non-residue mod p (checked in the tests), so ark's two-adic root of
/// unity `5^((p − 1) / 2^32)` has exact order `2^32`.
#[derive(MontConfig)]
#[modulus = "28948022309329048855892746252171976963363056481941560715954676764349967630337"]
#[generator = "5"]
pub struct PallasConfig;

/// The raw ark-ff Pallas base-field element (four 64-bit limbs, Montgomery form).
pub type PallasFpInner = Fp256<MontBackend<PallasConfig, 4>>;

/// The Vesta base field q = 2^254 + 45560315531506369815346746415080538113 (the scalar
/// field of Pallas), through the ark adapter.
pub type VestaFp = Ark<VestaFpInner>;

/// The ark-ff Montgomery configuration of the Vesta base field.
///
/// 5 is a quadratic non-residue mod q (checked in the tests), so ark's two-adic root of
/// unity has exact order `2^32`.
#[derive(MontConfig)]
#[modulus = "28948022309329048855892746252171976963363056481941647379679742748393362948097"]
#[generator = "5"]
pub struct VestaConfig;

/// The raw ark-ff Vesta base-field element (four 64-bit limbs, Montgomery form).
pub type VestaFpInner = Fp256<MontBackend<VestaConfig, 4>>;

/// The BabyBear field p = 15 · 2^27 + 1 = 2013265921, through the ark adapter (one 64-bit
/// Montgomery limb).
pub type BabyBearArk = Ark<BabyBearFp>;

/// The ark-ff Montgomery configuration of the BabyBear prime p = 15 · 2^27 + 1.
///
/// 31 is a quadratic non-residue mod p (checked in the tests), so ark's two-adic root of
/// unity `31^((p − 1) / 2^27)` has exact order `2^27`.
#[derive(MontConfig)]
#[modulus = "2013265921"]
#[generator = "31"]
pub struct BabyBearConfig;

/// The raw ark-ff BabyBear field element (one 64-bit limb, Montgomery form).
pub type BabyBearFp = Fp64<MontBackend<BabyBearConfig, 1>>;

flockwork_field::field_codec!(Goldilocks);

/// Canonical bytes ([`Field::write_bytes`](flockwork_field::Field::write_bytes)), a value at
/// or past the modulus refused.
impl<F: ark_ff::PrimeField> flockwork_field::Codec for Ark<F> {
    fn write(&self, out: &mut flockwork_field::codec::Bytes) {
        let start = out.len();
        out.resize(start + <Self as flockwork_field::Field>::NUM_BYTES, 0);
        flockwork_field::Field::write_bytes(self, &mut out[start..]);
    }

    fn read(input: &mut &[u8]) -> Option<Self> {
        let bytes =
            flockwork_field::codec::take(input, <Self as flockwork_field::Field>::NUM_BYTES)?;
        <Self as flockwork_field::Field>::read_bytes(bytes)
    }
}
