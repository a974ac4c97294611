//! Hashing on top of the permutation: a sponge, the reference's 2-to-1 compression and an
//! endianness-aware byte API.
//!
//! The HorizenLabs reference defines no Poseidon2 sponge; its only mode is the Merkle
//! compression `compress(l, r) = P([l, r, 0])[0]` ([`compress_2to1`], tested against the
//! reference's vectors). The sponge below is this crate's own construction (a standard
//! duplex-free sponge, eprint 2023/323 §2 / Bertoni et al.); its padding and domain
//! separation are documented on [`hash`].

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::{Field, PrimeField};

use crate::Poseidon2Error;
use crate::field::Poseidon2Field;
use crate::fixed::Poseidon2Fixed;
use crate::params::Poseidon2;

/// A Poseidon2 permutation seen through a slice, so the modes work with both APIs.
pub trait Permutation<F> {
    /// Width `t`.
    fn width(&self) -> usize;

    /// Permutes a state of length [`Permutation::width`] in place.
    ///
    /// # Panics
    /// If `state.len() != self.width()`.
    fn permute_slice(&self, state: &mut [F]);
}

impl<F: Poseidon2Field> Permutation<F> for Poseidon2<F> {
    fn width(&self) -> usize {
        Poseidon2::width(self)
    }

    fn permute_slice(&self, state: &mut [F]) {
        self.permute(state);
    }
}

impl<F: Poseidon2Field, const T: usize, const RF_HALF: usize, const RP: usize> Permutation<F>
    for Poseidon2Fixed<F, T, RF_HALF, RP>
{
    fn width(&self) -> usize {
        T
    }

    fn permute_slice(&self, state: &mut [F]) {
        let state: &mut [F; T] = state.try_into().expect("state width differs from T");
        self.permute(state);
    }
}

/// Byte order of an encoded field element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Least significant byte first (flockwork's canonical encoding).
    Little,
    /// Most significant byte first (the vector files' hex, and most EVM tooling).
    Big,
}

/// The 2-to-1 compression of the HorizenLabs reference (`MerkleTreeHash::compress`):
/// `P([left, right, 0, …, 0])[0]`, truncation without feed-forward. The reference uses
/// `t = 3`; wider instances pad with zeros.
///
/// # Panics
/// If the permutation is narrower than 2.
#[must_use]
pub fn compress_2to1<F: Field, P: Permutation<F> + ?Sized>(perm: &P, left: F, right: F) -> F {
    let mut state = vec![F::ZERO; perm.width()];
    state[0] = left;
    state[1] = right;
    perm.permute_slice(&mut state);
    state[0]
}

/// The capacity tag: `out_len + 2^32 · rate` as a field element.
fn domain_tag<F: PrimeField>(rate: usize, out_len: usize) -> F {
    F::from_u64(((rate as u64) << 32) | out_len as u64)
}

/// Sponge hash of `inputs` to `out_len` field elements with `rate` elements per block.
///
/// * State: `t` elements, all zero except the first capacity element
///   `x_rate = out_len + 2^32 · rate` (domain separation by output length and rate; an
///   injective tag when `p > 2^64` and both are `< 2^32`, reduced mod p in smaller fields).
/// * Padding `10*`: append `1`, then zeros up to a multiple of `rate` (always at least one
///   element), which makes the map from inputs to padded blocks injective.
/// * Absorb: for each block, add it into `x_0..x_rate` and permute.
/// * Squeeze: output `x_0..x_rate`, permuting between blocks, until `out_len` elements.
///
/// # Errors
/// [`Poseidon2Error::InvalidRate`] unless `1 <= rate < t`.
pub fn hash<F: Poseidon2Field, P: Permutation<F> + ?Sized>(
    perm: &P,
    inputs: &[F],
    rate: usize,
    out_len: usize,
) -> Result<Vec<F>, Poseidon2Error> {
    let t = perm.width();
    if rate == 0 || rate >= t {
        return Err(Poseidon2Error::InvalidRate { rate, t });
    }
    let mut state = vec![F::ZERO; t];
    state[rate] = domain_tag(rate, out_len);
    let mut padded = inputs.to_vec();
    padded.push(F::ONE);
    padded.resize(padded.len().div_ceil(rate) * rate, F::ZERO);
    for block in padded.chunks_exact(rate) {
        for (x, m) in state.iter_mut().zip(block) {
            *x += *m;
        }
        perm.permute_slice(&mut state);
    }
    let mut out = Vec::with_capacity(out_len);
    loop {
        let take = rate.min(out_len - out.len());
        out.extend_from_slice(&state[..take]);
        if out.len() == out_len {
            return Ok(out);
        }
        perm.permute_slice(&mut state);
    }
}

/// Decodes one field element of exactly `NUM_BYTES` bytes in the given byte order,
/// rejecting a wrong length and any integer `>= p`.
///
/// # Errors
/// [`Poseidon2Error::WrongLength`] or [`Poseidon2Error::NonCanonical`], with `index` as the
/// reported position.
pub fn decode_element<F: Field>(
    bytes: &[u8],
    endianness: Endianness,
    index: usize,
) -> Result<F, Poseidon2Error> {
    if bytes.len() != F::NUM_BYTES {
        return Err(Poseidon2Error::WrongLength {
            index,
            expected: F::NUM_BYTES,
            actual: bytes.len(),
        });
    }
    let decoded = match endianness {
        Endianness::Little => F::read_bytes(bytes),
        Endianness::Big => {
            let le: Vec<u8> = bytes.iter().rev().copied().collect();
            F::read_bytes(&le)
        }
    };
    decoded.ok_or(Poseidon2Error::NonCanonical { index })
}

/// The canonical encodings of `elements`, `NUM_BYTES` each, concatenated.
#[must_use]
pub fn encode_elements<F: Field>(elements: &[F], endianness: Endianness) -> Vec<u8> {
    let mut out = vec![0u8; elements.len() * F::NUM_BYTES];
    for (x, chunk) in elements.iter().zip(out.chunks_exact_mut(F::NUM_BYTES)) {
        x.write_bytes(chunk);
        if endianness == Endianness::Big {
            chunk.reverse();
        }
    }
    out
}

/// [`hash`] over byte-encoded field elements: each input slice is one canonical element of
/// exactly `NUM_BYTES` bytes in the given byte order; the digest is returned encoded the
/// same way (`out_len · NUM_BYTES` bytes).
///
/// # Errors
/// [`Poseidon2Error::WrongLength`] / [`Poseidon2Error::NonCanonical`] naming the first bad
/// input, or [`Poseidon2Error::InvalidRate`].
pub fn hash_bytes<F: Poseidon2Field, P: Permutation<F> + ?Sized>(
    perm: &P,
    endianness: Endianness,
    inputs: &[&[u8]],
    rate: usize,
    out_len: usize,
) -> Result<Vec<u8>, Poseidon2Error> {
    let elements = inputs
        .iter()
        .enumerate()
        .map(|(index, bytes)| decode_element(bytes, endianness, index))
        .collect::<Result<Vec<F>, _>>()?;
    let digest = hash(perm, &elements, rate, out_len)?;
    Ok(encode_elements(&digest, endianness))
}
