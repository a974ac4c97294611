//! Keccak-f[1600] as an AND/XOR circuit.

use flockwork_core::circuit::{CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotl};

use crate::constants::{KECCAK_RC, KECCAK_RHO};

/// A 64-bit lane of wires, bit `z` of weight `2^z`.
type Lane<W> = [W; 64];

/// Keccak-p[1600, `rounds`] (FIPS 202 §3.3; `rounds = 24` is Keccak-f[1600]), on lanes
/// `x + 5y` with bit `z` of lane `i` at offset `64i + z`.
///
/// # Encoding
///
/// θ, ρ, π and ι are linear and free; χ is `t[x] = (1 ⊕ B[x+1]) · B[x+2]` (one AND per bit,
/// `24 · 1600 = 38,400` ANDs), `s' = B ⊕ t`, with ι's round constant added through the
/// constant wire. Only the input state `s0`, the output state `s24` and the χ products
/// `t_r` are committed: `s_r` stays a linear expression in `s0` and `t_0..t_{r−1}`, so rows
/// grow to thousands of taps and the lincheck must walk the circuit
/// ([`flockwork_core::circuit::R1csLowering`]).
///
/// Committed bits: 1600 + 1600 + 38,400 + 1 = 41,601, as in the reference (Flock notes §2).
/// With the 2048-bit IO slots the block uses 2 · 2048 + 1 + 38,400 = 42,497 positions,
/// `m0 = 16`.
///
/// # IO layout (2048-bit slots)
///
/// | slot | region | contents |
/// |---|---|---|
/// | 0 | [`KeccakF1600::S_IN`] | input state (1600 bits) |
/// | 1 | [`KeccakF1600::S_OUT`] | output state (1600 bits) |
#[derive(Clone, Copy, Debug)]
pub struct KeccakF1600 {
    rounds: usize,
}

impl Default for KeccakF1600 {
    fn default() -> Self {
        Self::new()
    }
}

impl KeccakF1600 {
    /// Input state region.
    pub const S_IN: SlotId = SlotId(0);
    /// Output state region.
    pub const S_OUT: SlotId = SlotId(1);

    /// Keccak-f[1600] (24 rounds).
    #[must_use]
    pub fn new() -> Self {
        Self { rounds: 24 }
    }

    /// Keccak-p[1600, `rounds`]: the last `rounds` rounds (for small test circuits).
    ///
    /// # Panics
    /// If `rounds` is 0 or more than 24.
    #[must_use]
    pub fn reduced(rounds: usize) -> Self {
        assert!((1..=24).contains(&rounds), "1 to 24 rounds");
        Self { rounds }
    }

    /// Number of rounds.
    #[must_use]
    pub fn rounds(&self) -> usize {
        self.rounds
    }
}

impl Gadget for KeccakF1600 {
    fn layout(&self) -> IoLayout {
        IoLayout::new(2048)
            .input("s_in", 0, 1600)
            .output("s_out", 1, 1600)
    }

    fn synthesize<B: CircuitBuilder>(&self, b: &mut B) {
        let lanes = b.input_words::<64>(Self::S_IN);
        let mut s: [Lane<B::Wire>; 25] = core::array::from_fn(|i| lanes[i]);
        for &rc in &KECCAK_RC[24 - self.rounds..] {
            s = round(b, &s, rc);
        }
        b.output_words(Self::S_OUT, &s);
    }
}

/// One round `ι ∘ χ ∘ π ∘ ρ ∘ θ`.
fn round<B: CircuitBuilder>(b: &mut B, s: &[Lane<B::Wire>; 25], rc: u64) -> [Lane<B::Wire>; 25] {
    let c: [Lane<B::Wire>; 5] = core::array::from_fn(|x| {
        let mut acc = s[x];
        for y in 1..5 {
            acc = b.xor_words(&acc, &s[x + 5 * y]);
        }
        acc
    });
    let d: [Lane<B::Wire>; 5] =
        core::array::from_fn(|x| b.xor_words(&c[(x + 4) % 5], &rotl(&c[(x + 1) % 5], 1)));
    let mut pi = [[b.zero(); 64]; 25];
    for y in 0..5 {
        for x in 0..5 {
            let a = b.xor_words(&s[x + 5 * y], &d[x]);
            pi[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(&a, KECCAK_RHO[x + 5 * y] as usize);
        }
    }
    let negated: [Lane<B::Wire>; 25] = core::array::from_fn(|i| b.not_word(&pi[i]));
    let mut out: [Lane<B::Wire>; 25] = core::array::from_fn(|i| {
        let (x, y) = (i % 5, i / 5);
        let t = b.and_words(&negated[(x + 1) % 5 + 5 * y], &pi[(x + 2) % 5 + 5 * y]);
        b.xor_words(&pi[i], &t)
    });
    let rc = b.constant_word::<64>(rc);
    out[0] = b.xor_words(&out[0], &rc);
    out
}
