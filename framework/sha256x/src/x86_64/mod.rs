//! x86-64 lane kernels: AVX-512 ([`avx512`], 16 lanes of `zmm`) and AVX2 ([`avx2`], 8 lanes
//! of `ymm`).
//!
//! Both are generated from one template (`lane_engine!`): a backend module defines the
//! vector type `V`, its lane count, the six SHA-256 bit functions (`ch`, `maj`, `Σ0`, `Σ1`,
//! `σ0`, `σ1`) plus `add`, `sub` and `splat`, and the two transposes — `load_words` (one 64-byte
//! block per lane → the 16 big-endian message words, word `t` of every lane in one vector)
//! and `store_digests` (the 8 state vectors → one 32-byte digest per lane). The template adds
//! the FIPS 180-4 compression, with the message schedule kept in a 16-vector ring, and the
//! loop over groups of messages.
//!
//! Safety model: every function carries `#[target_feature]` and is safe to call from the
//! others; only the entry point `hash` needs `unsafe` at its call site, where the dispatch
//! has detected the features. The only other `unsafe` are the unaligned vector loads and
//! stores in each backend, from and to references of exactly the vector's size.

/// SHA-256 round constants (FIPS 180-4, 4.2.2).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// One SHA-256 round on the working variables `a..h` (in that role order), with `kw = K[t] +
/// W[t]`. The caller renames instead of moving: the next round passes `h, a, b, …, g`.
///
/// Written for latency as well as op count: with 2-cycle vector ops (AMD Zen 5) the chain
/// from one round's `e` and `a` to the next bounds the loop, so `d` is folded into the early
/// sum (`e' = (h + kw + d + Ch) + Σ1`) and `T1` is recovered as `e' - d` for the new
/// `a = T1 + Maj + Σ0` — one more op than the textbook order, 8% faster there.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {
        let hkd = add(add($h, $kw), $d);
        let new_e = add(add(hkd, ch($e, $f, $g)), big_sigma1($e));
        let t1 = sub(new_e, $d);
        $h = add(add(t1, maj($a, $b, $c)), big_sigma0($a));
        $d = new_e;
    };
}

/// Sixteen rounds, `t0..t0 + 16`: the ring `w` holds `W[t0..t0 + 16]` and `k` the matching
/// round constants.
macro_rules! rounds16 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $w:ident, $k:ident) => {
        round!($a, $b, $c, $d, $e, $f, $g, $h, add($w[0], splat($k[0])));
        round!($h, $a, $b, $c, $d, $e, $f, $g, add($w[1], splat($k[1])));
        round!($g, $h, $a, $b, $c, $d, $e, $f, add($w[2], splat($k[2])));
        round!($f, $g, $h, $a, $b, $c, $d, $e, add($w[3], splat($k[3])));
        round!($e, $f, $g, $h, $a, $b, $c, $d, add($w[4], splat($k[4])));
        round!($d, $e, $f, $g, $h, $a, $b, $c, add($w[5], splat($k[5])));
        round!($c, $d, $e, $f, $g, $h, $a, $b, add($w[6], splat($k[6])));
        round!($b, $c, $d, $e, $f, $g, $h, $a, add($w[7], splat($k[7])));
        round!($a, $b, $c, $d, $e, $f, $g, $h, add($w[8], splat($k[8])));
        round!($h, $a, $b, $c, $d, $e, $f, $g, add($w[9], splat($k[9])));
        round!($g, $h, $a, $b, $c, $d, $e, $f, add($w[10], splat($k[10])));
        round!($f, $g, $h, $a, $b, $c, $d, $e, add($w[11], splat($k[11])));
        round!($e, $f, $g, $h, $a, $b, $c, $d, add($w[12], splat($k[12])));
        round!($d, $e, $f, $g, $h, $a, $b, $c, add($w[13], splat($k[13])));
        round!($c, $d, $e, $f, $g, $h, $a, $b, add($w[14], splat($k[14])));
        round!($b, $c, $d, $e, $f, $g, $h, $a, add($w[15], splat($k[15])));
    };
}

/// The next 16 schedule words in the ring `w`, in place (`j` runs over the literals):
/// `W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]`.
macro_rules! schedule {
    ($w:ident, $($j:literal),*) => {
        $(
            $w[$j] = add(
                add($w[$j], small_sigma0($w[($j + 1) % 16])),
                add($w[($j + 9) % 16], small_sigma1($w[($j + 14) % 16])),
            );
        )*
    };
}

/// Generates `compress`, `hash_group` and the entry point `hash` in the calling backend
/// module, from its primitives (see the module docs).
macro_rules! lane_engine {
    ($features:literal) => {
        use crate::plan::Plan;
        use crate::x86_64::K;

        /// Compresses one block per lane into `state`; `w` holds the block's 16 words.
        #[target_feature(enable = $features)]
        #[inline]
        fn compress(state: &mut [V; 8], mut w: [V; 16]) {
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
            // Literal indices into `w` keep it in registers. (Unrolling `r` as well makes the
            // `K[t]` constants, which LLVM then adds last, lengthening the chain: 10% slower.)
            for r in 0..4 {
                if r > 0 {
                    schedule!(w, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
                }
                let k = &K[16 * r..16 * r + 16];
                rounds16!(a, b, c, d, e, f, g, h, w, k);
            }
            for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *s = add(*s, v);
            }
        }

        /// Hashes `LANES` messages of the plan's length, one per lane.
        #[target_feature(enable = $features)]
        fn hash_group(plan: &Plan, msgs: &[&[u8]; LANES], out: &mut [[u8; 32]; LANES]) {
            let mut state = [splat(0); 8];
            for (s, &word) in state.iter_mut().zip(&plan.midstate) {
                *s = splat(word);
            }
            let mut scratch = [[0u8; 64]; LANES];
            for j in 0..plan.blocks {
                let mut blocks = [&[0u8; 64]; LANES];
                for ((block, scratch), msg) in blocks.iter_mut().zip(&mut scratch).zip(msgs) {
                    *block = plan.block(j, msg, scratch);
                }
                compress(&mut state, load_words(&blocks));
            }
            store_digests(&state, out);
        }

        /// Hashes `messages` (a multiple of `LANES` of them, all of the plan's length) into
        /// `out`, `LANES` at a time.
        #[target_feature(enable = $features)]
        pub(crate) fn hash(plan: &Plan, messages: &[&[u8]], out: &mut [[u8; 32]]) {
            debug_assert_eq!(messages.len() % LANES, 0);
            let groups = messages
                .chunks_exact(LANES)
                .zip(out.chunks_exact_mut(LANES));
            for (msgs, out) in groups {
                let msgs = msgs.try_into().expect("a full group");
                hash_group(plan, msgs, out.try_into().expect("a full group"));
            }
        }
    };
}

// After the macros: they are in scope textually.
pub(crate) mod avx2;
pub(crate) mod avx512;
