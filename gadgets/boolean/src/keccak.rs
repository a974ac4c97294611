//! Keccak-f\[1600\] as an AND/XOR circuit (batch-R1CS) and as Boolean layers (GKR on packed
//! bits).

use std::sync::OnceLock;

use flockwork_circuit::{CircuitBuilder, Gadget, IoLayout, SlotId, WordBuilder, rotl};
use flockwork_core::boolean_layered::{AffineForm, BooleanLayered, BooleanLayersBuilder};

use crate::constants::{KECCAK_RC, KECCAK_RHO};

/// A 64-bit lane of wires, bit `z` of weight `2^z`.
type Lane<W> = [W; 64];

/// Keccak-p\[1600, `rounds`\] (FIPS 202 §3.3; `rounds = 24` is Keccak-f\[1600\]), on lanes
/// `x + 5y` with bit `z` of lane `i` at offset `64i + z`.
///
/// # Encoding
///
/// θ, ρ, π and ι are linear and free; χ is `t[x] = (1 ⊕ B[x+1]) · B[x+2]` (one AND per bit,
/// `24 · 1600 = 38,400` ANDs), `s' = B ⊕ t`, with ι's round constant added through the
/// constant wire. Only the input state `s0`, the output state `s24` and the χ products
/// `t_r` are committed: `s_r` stays a linear expression in `s0` and `t_0..t_{r−1}`, so rows
/// grow to thousands of taps and the lincheck must walk the circuit
/// (`flockwork-r1cs`'s `R1csLowering`).
///
/// Committed bits: 1600 + 1600 + 38,400 + 1 = 41,601, as in the reference (Flock notes §2).
/// With the 2048-bit IO slots the block uses 2 · 2048 + 1 + 38,400 = 42,497 positions,
/// `m0 = 16` (63% of the block): chains of it are proved three permutations per 2^17 block
/// ([`crate::wide_chain`], [`crate::best_chain_width`]).
///
/// # IO layout (2048-bit slots)
///
/// | slot | region | contents |
/// |---|---|---|
/// | 0 | [`KeccakF1600::S_IN`] | input state (1600 bits) |
/// | 1 | [`KeccakF1600::S_OUT`] | output state (1600 bits) |
///
/// # Boolean layers
///
/// [`KeccakF1600::boolean_layers`] is the same permutation as a
/// [`BooleanLayered`] relation: one layer per round on the 1600-bit state, bit `z` of lane
/// `x + 5y` at index `64(x + 5y) + z` (the `keccak` crate's `[u64; 25]` state, each lane
/// little-endian: the state's words are the packed input as they are). The forms of a
/// round are θ, ρ and π: `B[π(x, y)][z + ρ(x, y)] = A[x, y][z] ⊕ D[x][z]`, 11 state bits
/// each; every output bit is one χ gate `B[x, y] ⊕ ((B[x + 1, y] ⊕ 1) ∧ B[x + 2, y])`, and ι
/// flips the constant of `L0` on the bits of lane 0 where the round constant is set. 1600 AND
/// gates a round (38,400 in 24), the same as the circuit.
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

    /// Keccak-f\[1600\] (24 rounds).
    #[must_use]
    pub fn new() -> Self {
        Self { rounds: 24 }
    }

    /// Keccak-p\[1600, `rounds`\]: the last `rounds` rounds (for small test circuits).
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

    /// The rounds as Boolean layers (type docs, *Boolean layers*): built once per round
    /// count and kept for the life of the process.
    #[must_use]
    pub fn boolean_layers(&self) -> &'static BooleanLayered {
        static LAYERS: [OnceLock<BooleanLayered>; 24] = [const { OnceLock::new() }; 24];
        LAYERS[self.rounds - 1].get_or_init(|| keccak_layers(self.rounds))
    }
}

/// Keccak-p\[1600, `rounds`\] as Boolean layers: the last `rounds` rounds, one layer each.
fn keccak_layers(rounds: usize) -> BooleanLayered {
    let mut builder = BooleanLayersBuilder::new(1600);
    for &rc in &KECCAK_RC[24 - rounds..] {
        builder.layer(|l| {
            let a = |x: usize, y: usize, z: usize| l.bit(64 * (x + 5 * y) + z);
            // θ: the column parities C[x][z] and D[x][z] = C[x − 1][z] ⊕ C[x + 1][z − 1].
            let c: Vec<Vec<AffineForm>> = (0..5)
                .map(|x| {
                    (0..64)
                        .map(|z| l.xor_all((0..5).map(|y| a(x, y, z))))
                        .collect()
                })
                .collect();
            let d: Vec<Vec<AffineForm>> = (0..5)
                .map(|x| {
                    (0..64)
                        .map(|z| &c[(x + 4) % 5][z] ^ &c[(x + 1) % 5][(z + 63) % 64])
                        .collect()
                })
                .collect();
            // ρ and π: B[y + 5((2x + 3y) mod 5)][(z + ρ) mod 64] = A[x, y][z] ⊕ D[x][z].
            let mut b = vec![AffineForm::ZERO; 1600];
            for y in 0..5 {
                for x in 0..5 {
                    let lane = y + 5 * ((2 * x + 3 * y) % 5);
                    let r = KECCAK_RHO[x + 5 * y] as usize;
                    for z in 0..64 {
                        b[64 * lane + (z + r) % 64] = &a(x, y, z) ^ &d[x][z];
                    }
                }
            }
            // χ, with ι on lane 0.
            for y in 0..5 {
                for x in 0..5 {
                    let lane = |dx: usize| 64 * ((x + dx) % 5 + 5 * y);
                    for z in 0..64 {
                        let iota = x + 5 * y == 0 && rc >> z & 1 == 1;
                        let linear = &b[lane(0) + z] ^ &l.constant(iota);
                        let product = l.and(&l.not(&b[lane(1) + z]), &b[lane(2) + z]);
                        l.output(product.xor(&linear));
                    }
                }
            }
        });
    }
    builder
        .build()
        .expect("the Keccak layers read only the 1600-bit state")
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
        let mut pi = [[b.zero(); 64]; 25];
        let mut negated = pi;
        for &rc in &KECCAK_RC[24 - self.rounds..] {
            round(b, &mut s, [&mut pi, &mut negated], rc);
        }
        b.output_words(Self::S_OUT, &s);
    }
}

/// One round `ι ∘ χ ∘ π ∘ ρ ∘ θ` on `s` in place; `pi` and `negated` are scratch space for
/// `π ∘ ρ ∘ θ` and its negation.
///
/// The state is updated through in-place lane operations rather than by returning whole
/// states by value, which keeps the bit-sliced witness evaluator from copying 25 lanes of
/// wires several times per round. The builder calls (and hence every interpreter's result)
/// are in the same order as the textbook formulation: θ's column parities `x = 0..5`, θ's
/// `D[x]`, the θ-updated lanes in `(y, x)` order, the negations `¬π[i]`, then per lane `i`
/// its 64 χ ANDs and XORs, and ι.
fn round<B: CircuitBuilder>(
    b: &mut B,
    s: &mut [Lane<B::Wire>; 25],
    [pi, negated]: [&mut [Lane<B::Wire>; 25]; 2],
    rc: u64,
) {
    theta_rho_pi(b, s, pi);
    for (n, lane) in negated.iter_mut().zip(pi.iter()) {
        for (nz, &z) in n.iter_mut().zip(lane) {
            *nz = b.not(z);
        }
    }
    for (i, out) in s.iter_mut().enumerate() {
        let (x, y) = (i % 5, i / 5);
        let (na, pb) = (&negated[(x + 1) % 5 + 5 * y], &pi[(x + 2) % 5 + 5 * y]);
        let t: Lane<B::Wire> = core::array::from_fn(|z| b.and(na[z], pb[z]));
        for (o, (&p, &tz)) in out.iter_mut().zip(pi[i].iter().zip(&t)) {
            *o = b.xor(p, tz);
        }
    }
    let rc = b.constant_word::<64>(rc);
    for (o, &r) in s[0].iter_mut().zip(&rc) {
        *o = b.xor(*o, r);
    }
}

/// θ, ρ and π: `pi[y + 5((2x + 3y) mod 5)] = rotl(s[x + 5y] ⊕ D[x], ρ[x + 5y])`.
fn theta_rho_pi<B: CircuitBuilder>(
    b: &mut B,
    s: &[Lane<B::Wire>; 25],
    pi: &mut [Lane<B::Wire>; 25],
) {
    let mut c = [[b.zero(); 64]; 5];
    for (x, acc) in c.iter_mut().enumerate() {
        *acc = s[x];
        for y in 1..5 {
            for (a, &v) in acc.iter_mut().zip(&s[x + 5 * y]) {
                *a = b.xor(*a, v);
            }
        }
    }
    let d: [Lane<B::Wire>; 5] =
        core::array::from_fn(|x| b.xor_words(&c[(x + 4) % 5], &rotl(&c[(x + 1) % 5], 1)));
    for y in 0..5 {
        for x in 0..5 {
            let lane = &mut pi[y + 5 * ((2 * x + 3 * y) % 5)];
            let r = KECCAK_RHO[x + 5 * y] as usize;
            for (z, (&v, &dz)) in s[x + 5 * y].iter().zip(&d[x]).enumerate() {
                lane[(z + r) % 64] = b.xor(v, dz);
            }
        }
    }
}
