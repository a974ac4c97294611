//! # flockwork-sha256x
//!
//! Multi-buffer SHA-256: [`sha256_prefixed_many`] computes `SHA-256(prefix ‖ messages[i])`
//! for many messages of one length at once, bit-identical to
//! `sha2::Sha256::new().chain_update(prefix).chain_update(msg).finalize()`.
//!
//! ## Why
//!
//! Merkle trees hash millions of equal-length messages: leaves (rows of 1 KiB), internal
//! nodes (`0x01 ‖ left ‖ right`, 65 bytes), proof-of-work nonces (`prefix ‖ u64le(nonce)`).
//! SHA-NI hashes one message at a time and is bound by the latency of its round
//! instructions; SHA-256 on 32-bit words vectorizes across messages instead, so an AVX-512
//! core computes 16 independent compressions with ordinary vector instructions (`vprord`
//! rotates, `vpternlogd` for `Ch`, `Maj` and the three-way XORs) at several times the
//! throughput. On an AMD EPYC (Zen 5), against `sha2` with SHA-NI one message at a time
//! (`cargo bench --bench sha256x`): 1 KiB leaves 4.8 vs 1.7 GiB/s (2.9×), 65-byte nodes (two
//! blocks each) 38 vs 10 million per second (3.7×).
//!
//! ## Lane layout
//!
//! Lane `i` of every vector belongs to message `i` of a group of [`Backend::lanes`]
//! messages. Each message's padded stream `prefix ‖ message ‖ 0x80 ‖ 0… ‖ be64(bit length)`
//! is cut into 64-byte blocks; block `j` of all lanes is loaded (one vector per lane),
//! byte-swapped and transposed, so vector `t` holds big-endian word `t` of every lane's
//! block. The compression is plain FIPS 180-4 on those vectors, the schedule in a ring of 16
//! registers; the final state is transposed back into one digest per lane.
//!
//! Because the lengths are equal, the padding layout is worked out once per call: the
//! prefix's whole blocks are compressed once (a shared midstate), blocks entirely inside a
//! message are read in place, and the blocks holding the prefix tail or the padding are
//! filled from templates.
//!
//! ## Backends
//!
//! | [`Backend`] | lanes | needs |
//! |---|---|---|
//! | [`Backend::Avx512`] | 16 | x86-64 with AVX-512F and AVX-512BW |
//! | [`Backend::Avx2`] | 8 | x86-64 with AVX2 |
//! | [`Backend::Portable`] | 1 | nothing: `sha2`'s compression per message (SHA-NI when present) |
//!
//! [`Backend::detect`] picks AVX-512 when present, else AVX2 unless the CPU has SHA-NI (which
//! beats 8 lanes), else the portable path; at run time with the `std` feature
//! (`is_x86_feature_detected!`), from the compile-time target features without it.
//! Messages go through in full groups; a partial last group is padded with copies of its
//! first message when it is large enough to beat hashing its messages one by one (at least
//! 6 of 16 for AVX-512, measured), otherwise it takes the portable path.
//!
//! The crate is `no_std` and does not allocate.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]

mod plan;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use plan::Plan;

/// A SHA-256 implementation that [`sha256_prefixed_many_with`] can be told to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// One message at a time through `sha2` (SHA-NI or ARMv8 SHA-2 when present).
    Portable,
    /// 8 messages at a time in AVX2 `ymm` registers (x86-64).
    Avx2,
    /// 16 messages at a time in AVX-512 `zmm` registers (x86-64, AVX-512F + AVX-512BW).
    Avx512,
}

impl Backend {
    /// Every backend, narrowest first; filter with [`Backend::is_available`].
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

    /// The fastest backend this CPU supports: AVX-512 if present; otherwise AVX2 unless the
    /// CPU has SHA-NI, which beats 8 AVX2 lanes (measured on Zen 5: 1.8 vs 1.6 GB/s).
    pub fn detect() -> Self {
        if Backend::Avx512.is_available() {
            Backend::Avx512
        } else if Backend::Avx2.is_available() && !has_sha_ni() {
            Backend::Avx2
        } else {
            Backend::Portable
        }
    }

    /// Whether this CPU can run the backend (at run time with `std`, else as compiled).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Avx2 => has_avx2(),
            Backend::Avx512 => has_avx512(),
        }
    }

    /// Messages hashed side by side.
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Portable => 1,
            Backend::Avx2 => 8,
            Backend::Avx512 => 16,
        }
    }

    /// The smallest partial last group worth padding to a full one; smaller ones are hashed
    /// by the portable backend. Measured on an AMD Zen 5 for 1- to 17-block messages: a
    /// padded AVX-512 group costs about as much as 5 to 6 SHA-NI hashes, a padded AVX2 group
    /// as much as 8 SHA-NI hashes (never worth it) or 3 hashes by `sha2`'s software rounds.
    fn min_padded_group(self) -> usize {
        match self {
            Backend::Portable => 1,
            Backend::Avx2 if has_sha_ni() => Backend::Avx2.lanes(),
            Backend::Avx2 => 3,
            Backend::Avx512 => 6,
        }
    }

    /// A short lowercase name (`portable`, `avx2`, `avx512`) for tables and bench ids.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn has_sha_ni() -> bool {
    std::is_x86_feature_detected!("sha")
}

#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
fn has_avx2() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "avx2"))
}

#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
fn has_avx512() -> bool {
    cfg!(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))
}

#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
fn has_sha_ni() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "sha"))
}

/// SHA-256 of `prefix ‖ messages[i]` for every `i`, into `out[i]`, with the fastest
/// backend this CPU has ([`Backend::detect`]).
///
/// # Panics
///
/// If the messages do not all have the same length, or `out.len() != messages.len()`.
///
/// ```
/// use flockwork_sha256x::sha256_prefixed_many;
///
/// let (left, right) = ([1u8; 32], [2u8; 32]);
/// let node: Vec<u8> = [left, right].concat();
/// let mut out = [[0u8; 32]; 2];
/// sha256_prefixed_many(&[0x01], &[&node, &node], &mut out);
/// assert_eq!(out[0], out[1]);
/// ```
pub fn sha256_prefixed_many(prefix: &[u8], messages: &[&[u8]], out: &mut [[u8; 32]]) {
    sha256_prefixed_many_with(Backend::detect(), prefix, messages, out);
}

/// Whether the digest `D` computes SHA-256, judged by its output on a fixed probe input
/// (two hashes). Generic code over any [`digest::Digest`] (Merkle trees, transcripts) uses
/// it to send SHA-256 work through [`sha256_prefixed_many`] without requiring `D: 'static`
/// for a type comparison; any other digest keeps its own path.
#[must_use]
pub fn is_sha256<D: digest::Digest>() -> bool {
    const PROBE: &[u8] = b"flockwork-sha256x/is-sha256";
    <D as digest::Digest>::output_size() == 32
        && D::digest(PROBE).as_slice() == <sha2::Sha256 as digest::Digest>::digest(PROBE).as_slice()
}

/// [`sha256_prefixed_many`] with a chosen backend (for tests and benchmarks).
///
/// # Panics
///
/// As [`sha256_prefixed_many`], and if the backend is not available on this CPU.
pub fn sha256_prefixed_many_with(
    backend: Backend,
    prefix: &[u8],
    messages: &[&[u8]],
    out: &mut [[u8; 32]],
) {
    hash(backend, backend.min_padded_group(), prefix, messages, out);
}

/// [`sha256_prefixed_many_with`], padding partial last groups of at least `min_padded`
/// messages (tests force both remainder paths through this).
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn hash(
    backend: Backend,
    min_padded: usize,
    prefix: &[u8],
    messages: &[&[u8]],
    out: &mut [[u8; 32]],
) {
    assert!(
        backend.is_available(),
        "sha256_prefixed_many: the {} backend is not available on this CPU",
        backend.name()
    );
    assert_eq!(
        out.len(),
        messages.len(),
        "sha256_prefixed_many: one output per message"
    );
    let Some(first) = messages.first() else {
        return;
    };
    let len = first.len();
    assert!(
        messages.iter().all(|m| m.len() == len),
        "sha256_prefixed_many: all messages must have the same length"
    );
    let plan = Plan::new(prefix, len);
    match backend {
        Backend::Portable => portable::hash(&plan, messages, out),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => in_groups::<{ Backend::Avx2.lanes() }>(
            min_padded,
            &plan,
            messages,
            out,
            // SAFETY: `backend.is_available()` was asserted: the CPU has AVX2.
            |plan, messages, out| unsafe { x86_64::avx2::hash(plan, messages, out) },
        ),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => in_groups::<{ Backend::Avx512.lanes() }>(
            min_padded,
            &plan,
            messages,
            out,
            // SAFETY: `backend.is_available()` was asserted: the CPU has AVX-512F and BW.
            |plan, messages, out| unsafe { x86_64::avx512::hash(plan, messages, out) },
        ),
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Avx2 | Backend::Avx512 => unreachable!("x86-64 backends are never available"),
    }
}

/// Runs `kernel` (which takes whole groups of `L` messages) over `messages`; the partial
/// last group is padded with its first message if it has at least `min_padded` messages,
/// otherwise hashed portably.
#[cfg(target_arch = "x86_64")]
fn in_groups<const L: usize>(
    min_padded: usize,
    plan: &Plan,
    messages: &[&[u8]],
    out: &mut [[u8; 32]],
    kernel: impl Fn(&Plan, &[&[u8]], &mut [[u8; 32]]),
) {
    let full = messages.len() / L * L;
    let (messages, rest) = messages.split_at(full);
    let (out, rest_out) = out.split_at_mut(full);
    kernel(plan, messages, out);
    if rest.is_empty() {
        return;
    }
    if rest.len() >= min_padded {
        let padded: [&[u8]; L] = core::array::from_fn(|i| *rest.get(i).unwrap_or(&rest[0]));
        let mut digests = [[0u8; 32]; L];
        kernel(plan, &padded, &mut digests);
        rest_out.copy_from_slice(&digests[..rest.len()]);
    } else {
        portable::hash(plan, rest, rest_out);
    }
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::{Backend, hash};

    /// Both ways of finishing a partial group (padded, portable), for every remainder size,
    /// whatever the measured thresholds pick on this CPU.
    #[test]
    fn padded_and_portable_remainders_match_sha2() {
        let data: [u8; 4000] = core::array::from_fn(|i| (i * 31 + i / 7) as u8);
        let messages: [&[u8]; 40] = core::array::from_fn(|i| &data[100 * i..100 * (i + 1)]);
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            for min_padded in [1, backend.lanes()] {
                for count in 0..=2 * backend.lanes() {
                    let mut out = [[0u8; 32]; 40];
                    hash(
                        backend,
                        min_padded,
                        b"pre",
                        &messages[..count],
                        &mut out[..count],
                    );
                    for (msg, got) in messages.iter().zip(&out[..count]) {
                        let want: [u8; 32] = Sha256::new()
                            .chain_update(b"pre")
                            .chain_update(msg)
                            .finalize()
                            .into();
                        assert_eq!(*got, want, "{backend:?}, {count} messages, {min_padded}");
                    }
                }
            }
        }
    }
}
