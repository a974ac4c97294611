//! The padded block layout shared by every message of one call.
//!
//! All messages of a call have the same length, so the padded stream
//! `prefix ‖ message ‖ 0x80 ‖ zeros ‖ be64(bit length)` has the same shape for each: the same
//! number of blocks, the prefix bytes and padding at the same places. A [`Plan`] works that
//! shape out once:
//!
//! * the prefix's whole 64-byte blocks are compressed once, into [`Plan::midstate`]; only the
//!   rest of the prefix (the *tail*, under 64 bytes) is hashed per message;
//! * blocks that lie entirely inside the message are *direct*: read in place, no copy;
//! * the other blocks (at most three: the one holding the tail, the last one or two holding
//!   the padding) get a template with the tail, `0x80` and the length already in place, so a
//!   message only has to copy its own bytes into a copy of it.

use core::ops::Range;

use sha2::block_api::compress256;

/// SHA-256 initial hash value (FIPS 180-4, 5.3.3).
const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// One non-direct block: its template and where the message bytes go in it.
#[derive(Clone, Copy)]
struct Template {
    /// Tail, padding and length in place; zeros where the message goes.
    bytes: [u8; 64],
    /// Offset in the block of the first message byte.
    at: usize,
    /// The first message byte this block holds.
    from: usize,
    /// How many message bytes it holds.
    len: usize,
}

const EMPTY: Template = Template {
    bytes: [0; 64],
    at: 0,
    from: 0,
    len: 0,
};

/// The block layout of `prefix ‖ message` for every message of length `msg_len`.
pub(crate) struct Plan {
    /// Chaining value after the prefix's whole blocks (the IV if it has none).
    pub(crate) midstate: [u32; 8],
    /// Blocks each message still needs after the midstate.
    pub(crate) blocks: usize,
    /// Offset of message byte 0 in the per-message stream (the tail length, < 64).
    tail_len: usize,
    /// Blocks read straight from the message.
    direct: Range<usize>,
    /// Templates for block 0 (if not direct) and for the blocks from `direct.end` on.
    templates: [Template; 3],
}

impl Plan {
    /// The layout of `prefix ‖ m` for messages `m` of `msg_len` bytes.
    pub(crate) fn new(prefix: &[u8], msg_len: usize) -> Self {
        let (whole, tail) = prefix.as_chunks::<64>();
        let mut midstate = IV;
        compress256(&mut midstate, whole);

        let bit_len = ((prefix.len() as u64) + (msg_len as u64)) * 8;
        let stream = tail.len() + msg_len; // per-message bytes before padding
        let blocks = (stream + 8) / 64 + 1; // room for 0x80 and the 64-bit length
        let first_direct = usize::from(!tail.is_empty());
        let direct = first_direct..(stream / 64).max(first_direct);

        // At most three: block 0 if the tail is in it, and the last block or two (the message
        // end plus `0x80 ‖ be64` need 9 bytes, which can spill into one more block).
        debug_assert!(direct.start + (blocks - direct.end) <= 3);
        let mut templates = [EMPTY; 3];
        let non_direct = (0..direct.start).chain(direct.end..blocks);
        for (slot, j) in templates.iter_mut().zip(non_direct) {
            let start = 64 * j;
            let mut bytes = [0u8; 64];
            for (i, b) in bytes.iter_mut().enumerate() {
                let p = start + i;
                if p < tail.len() {
                    *b = tail[p];
                } else if p == stream {
                    *b = 0x80;
                }
            }
            if j == blocks - 1 {
                bytes[56..].copy_from_slice(&bit_len.to_be_bytes());
            }
            // Message bytes in this block: stream positions lo..hi, maybe none.
            let lo = start.max(tail.len());
            let hi = (start + 64).min(stream);
            let (at, from, len) = if lo < hi {
                (lo - start, lo - tail.len(), hi - lo)
            } else {
                (0, 0, 0)
            };
            *slot = Template {
                bytes,
                at,
                from,
                len,
            };
        }
        Self {
            midstate,
            blocks,
            tail_len: tail.len(),
            direct,
            templates,
        }
    }

    /// The blocks read straight from the message.
    pub(crate) fn direct(&self) -> Range<usize> {
        self.direct.clone()
    }

    /// Where the direct blocks start in the message.
    pub(crate) fn direct_offset(&self) -> usize {
        64 * self.direct.start - self.tail_len
    }

    /// Block `j` of the padded stream of `msg`: a view into `msg` if the block is direct,
    /// otherwise assembled in `scratch`.
    #[inline(always)]
    pub(crate) fn block<'a>(
        &self,
        j: usize,
        msg: &'a [u8],
        scratch: &'a mut [u8; 64],
    ) -> &'a [u8; 64] {
        if self.direct.contains(&j) {
            let at = 64 * j - self.tail_len;
            return msg[at..at + 64].try_into().expect("64-byte block");
        }
        let slot = if j < self.direct.start {
            0
        } else {
            j - self.direct.end + self.direct.start
        };
        let t = &self.templates[slot];
        *scratch = t.bytes;
        scratch[t.at..t.at + t.len].copy_from_slice(&msg[t.from..t.from + t.len]);
        scratch
    }
}

/// The big-endian bytes of a chaining value.
pub(crate) fn digest_bytes(state: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    out
}
