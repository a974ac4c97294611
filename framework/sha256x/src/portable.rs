//! The portable twin: one message at a time through `sha2`'s block compression (which uses
//! SHA-NI or the ARMv8 SHA-2 instructions when the CPU has them).
//!
//! It shares the [`Plan`] with the SIMD backends (midstate, templates), and hands every run of
//! direct blocks to `sha2` in one call, so it is no slower than `sha2::Sha256` itself.

use core::slice::from_ref;

use sha2::block_api::compress256;

use crate::plan::{Plan, digest_bytes};

/// Hashes every message of `messages` (all of the plan's length) into `out`.
pub(crate) fn hash(plan: &Plan, messages: &[&[u8]], out: &mut [[u8; 32]]) {
    let direct = plan.direct();
    let offset = plan.direct_offset();
    let mut scratch = [0u8; 64];
    for (msg, out) in messages.iter().zip(out) {
        let mut state = plan.midstate;
        for j in 0..direct.start {
            compress256(&mut state, from_ref(plan.block(j, msg, &mut scratch)));
        }
        if !direct.is_empty() {
            let run = &msg[offset..offset + 64 * direct.len()];
            compress256(&mut state, run.as_chunks::<64>().0);
        }
        for j in direct.end..plan.blocks {
            compress256(&mut state, from_ref(plan.block(j, msg, &mut scratch)));
        }
        *out = digest_bytes(&state);
    }
}
