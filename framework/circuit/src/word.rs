//! Word-level operations on `[Wire; N]` (bit `i` has weight `2^i`).

use alloc::vec::Vec;

use super::{CircuitBuilder, SlotId};

/// Rotation right by `n`: `rotr(x, n)[i] = x[(i + n) mod N]` (free relabelling).
#[must_use]
pub fn rotr<W: Copy, const N: usize>(x: &[W; N], n: usize) -> [W; N] {
    core::array::from_fn(|i| x[(i + n) % N])
}

/// Rotation left by `n`: `rotl(x, n)[i] = x[(i + N − n mod N) mod N]` (free relabelling).
#[must_use]
pub fn rotl<W: Copy, const N: usize>(x: &[W; N], n: usize) -> [W; N] {
    rotr(x, N - n % N)
}

/// Logical shift right by `n`, filling with `zero` (free relabelling).
#[must_use]
pub fn shr<W: Copy, const N: usize>(x: &[W; N], n: usize, zero: W) -> [W; N] {
    core::array::from_fn(|i| if i + n < N { x[i + n] } else { zero })
}

/// Logical shift left by `n`, filling with `zero` (free relabelling).
#[must_use]
pub fn shl<W: Copy, const N: usize>(x: &[W; N], n: usize, zero: W) -> [W; N] {
    core::array::from_fn(|i| if i >= n { x[i - n] } else { zero })
}

/// `x + y mod 2^N` with `N − 1` ANDs, gate by gate ([`WordBuilder::add`] documents the
/// encoding): the default of [`CircuitBuilder::add_mod`].
pub fn ripple_add<B: CircuitBuilder + ?Sized, const N: usize>(
    b: &mut B,
    x: &[B::Wire; N],
    y: &[B::Wire; N],
) -> [B::Wire; N] {
    let mut carry = b.zero();
    core::array::from_fn(|i| {
        let xc = b.xor(x[i], carry);
        let sum = b.xor(xc, y[i]);
        if i + 1 < N {
            let yc = b.xor(y[i], carry);
            let aux = b.and(xc, yc);
            carry = b.xor(carry, aux);
        }
        sum
    })
}

/// How a gadget adds two words mod `2^N` ([`WordBuilder::add_with`]): the same sum, at
/// different prices for the two engines.
///
/// Write `g_i = x_i ∧ y_i` (generate) and `p_i = x_i ⊕ y_i` (propagate). The carry into bit
/// `i` is `c_i = G_{i−1:0}`, the generate of the span `[0, i−1]`, and `sum_i = p_i ⊕ c_i`.
/// Spans combine associatively, `(G, P)_{hi} ∘ (G, P)_{lo} = (G_hi ⊕ P_hi·G_lo, P_hi·P_lo)`
/// (the `⊕` is an OR: `G_hi = 1` forces `P_hi = 0`), so the carries are the prefixes of
/// `(g_i, p_i)` under `∘`, and any prefix network computes them (Kogge and Stone, *IEEE
/// Trans. Computers* C-22(8), 1973; Brent and Kung, *IEEE Trans. Computers* C-31(3), 1982).
/// Batch-R1CS pays per AND gate (committed bits), GKR per AND level (layers):
///
/// | adder | AND gates, `N` = 8 / 32 / 64 | AND depth, `N` = 8 / 32 / 64 |
/// |---|---:|---:|
/// | [`Adder::Ripple`] ([`ripple_add`]) | 7 / 31 / 63 (`N − 1`) | 7 / 31 / 63 (`N − 1`) |
/// | [`Adder::KoggeStone`] ([`kogge_stone_add`]) | 29 / 249 / 631 | 4 / 6 / 7 |
/// | [`Adder::BrentKung`] ([`brent_kung_add`]) | 17 / 105 / 229 | 5 / 9 / 11 |
///
/// (the depth counts the generate level `g_i`; `flockwork-circuit`'s tests pin both.) For
/// sums of several words, [`WordBuilder::add_many`]: dependent ripple additions overlap bit
/// by bit, dependent prefix additions do not, so a prefix adder sums after carry-save
/// compression ([`WordBuilder::compress_terms`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Adder {
    /// The ripple-carry chain ([`ripple_add`], and an interpreter's
    /// [`CircuitBuilder::add_mod`]): fewest ANDs, the batch-R1CS default.
    #[default]
    Ripple,
    /// Kogge–Stone: `⌈log2(N − 1)⌉` combining levels, about `N log N` ANDs.
    KoggeStone,
    /// Brent–Kung: about `2 log2 N` levels, about `3N` ANDs.
    BrentKung,
}

impl Adder {
    /// Every adder, ripple first.
    pub const ALL: [Self; 3] = [Self::Ripple, Self::KoggeStone, Self::BrentKung];

    /// A short name (`"ripple"`, `"kogge-stone"`, `"brent-kung"`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Ripple => "ripple",
            Self::KoggeStone => "kogge-stone",
            Self::BrentKung => "brent-kung",
        }
    }

    /// The prefix network over `m` positions: `(hi, lo)` means `node_hi ← node_hi ∘ node_lo`,
    /// applied in order, after which node `i` holds the span `[0, i]`. `None` for ripple.
    fn network(self, m: usize) -> Option<Vec<(usize, usize)>> {
        let mut ops = Vec::new();
        match self {
            Self::Ripple => return None,
            Self::KoggeStone => {
                // Distance d: every node whose span does not reach 0 yet takes the node d
                // below (descending, so the lower node is still the previous level's).
                let mut d = 1;
                while d < m {
                    ops.extend((d..m).rev().map(|i| (i, i - d)));
                    d *= 2;
                }
            }
            Self::BrentKung => {
                let top = m.next_power_of_two();
                // Up-sweep: node i ≡ 2d − 1 (mod 2d) takes node i − d; node i then covers
                // `[i + 1 − 2d, i]`. Down-sweep: node i ≡ d − 1 (mod 2d), i ≥ 3d − 1, takes
                // the full prefix at i − d. Positions past m are dropped: nothing below
                // reads them.
                let mut d = 1;
                while d < top {
                    ops.extend((2 * d - 1..m).step_by(2 * d).map(|i| (i, i - d)));
                    d *= 2;
                }
                let mut d = top / 4;
                while d >= 1 {
                    ops.extend((3 * d - 1..m).step_by(2 * d).map(|i| (i, i - d)));
                    d /= 2;
                }
            }
        }
        Some(ops)
    }
}

/// `x + y mod 2^N` by the Kogge–Stone prefix network ([`Adder`]), through `and` and `xor`
/// only, so every interpreter evaluates it.
pub fn kogge_stone_add<B: CircuitBuilder + ?Sized, const N: usize>(
    b: &mut B,
    x: &[B::Wire; N],
    y: &[B::Wire; N],
) -> [B::Wire; N] {
    prefix_add(b, x, y, Adder::KoggeStone)
}

/// `x + y mod 2^N` by the Brent–Kung prefix network ([`Adder`]), through `and` and `xor`
/// only, so every interpreter evaluates it.
pub fn brent_kung_add<B: CircuitBuilder + ?Sized, const N: usize>(
    b: &mut B,
    x: &[B::Wire; N],
    y: &[B::Wire; N],
) -> [B::Wire; N] {
    prefix_add(b, x, y, Adder::BrentKung)
}

/// `x + y mod 2^N` through `adder`'s prefix network over the `N − 1` carries (the carry out
/// of the top bit is dropped). A span's `P` is only computed (one AND) when a later
/// combination reads it, found by one backward pass over the network, so no AND is wasted.
fn prefix_add<B: CircuitBuilder + ?Sized, const N: usize>(
    b: &mut B,
    x: &[B::Wire; N],
    y: &[B::Wire; N],
    adder: Adder,
) -> [B::Wire; N] {
    let p: [B::Wire; N] = core::array::from_fn(|i| b.xor(x[i], y[i]));
    let m = N.saturating_sub(1);
    let ops = adder.network(m).expect("a prefix adder");
    // Backward pass: whether each combination's new P is read later.
    let mut read = alloc::vec![false; m];
    let mut keep_p = alloc::vec![false; ops.len()];
    for (k, &(hi, lo)) in ops.iter().enumerate().rev() {
        keep_p[k] = read[hi];
        read[hi] = true;
        read[lo] |= keep_p[k];
    }
    let mut g: Vec<B::Wire> = (0..m).map(|i| b.and(x[i], y[i])).collect();
    let mut pp: Vec<B::Wire> = p[..m].to_vec();
    for (&(hi, lo), &keep) in ops.iter().zip(&keep_p) {
        let t = b.and(pp[hi], g[lo]);
        g[hi] = b.xor(g[hi], t);
        if keep {
            pp[hi] = b.and(pp[hi], pp[lo]);
        }
    }
    core::array::from_fn(|i| if i == 0 { p[0] } else { b.xor(p[i], g[i - 1]) })
}

/// Word-level gadgets built from the [`CircuitBuilder`] primitives; implemented for every
/// builder.
pub trait WordBuilder: CircuitBuilder {
    /// Bitwise XOR (free).
    fn xor_words<const N: usize>(
        &mut self,
        a: &[Self::Wire; N],
        b: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        core::array::from_fn(|i| self.xor(a[i], b[i]))
    }

    /// Bitwise AND (`N` committed bits).
    fn and_words<const N: usize>(
        &mut self,
        a: &[Self::Wire; N],
        b: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        core::array::from_fn(|i| self.and(a[i], b[i]))
    }

    /// Bitwise NOT (free, through the constant wire).
    fn not_word<const N: usize>(&mut self, a: &[Self::Wire; N]) -> [Self::Wire; N] {
        core::array::from_fn(|i| self.not(a[i]))
    }

    /// The constant word `value mod 2^N`: bit `i` is the constant wire when set, else zero.
    fn constant_word<const N: usize>(&self, value: u64) -> [Self::Wire; N] {
        core::array::from_fn(|i| {
            if (value >> i) & 1 == 1 {
                self.one()
            } else {
                self.zero()
            }
        })
    }

    /// Commits every bit of a linear word (`N` committed bits).
    ///
    /// Forwards to [`CircuitBuilder::materialize_bits`].
    fn materialize_word<const N: usize>(&mut self, a: &[Self::Wire; N]) -> [Self::Wire; N] {
        self.materialize_bits(a)
    }

    /// `x + y mod 2^N` with `N − 1` ANDs.
    ///
    /// With carries `c_0 = 0`, `c_{i+1} = maj(x_i, y_i, c_i)`, the identity
    /// `maj(x, y, c) = c ⊕ (x ⊕ c)(y ⊕ c)` gives `c_{i+1} = c_i ⊕ aux_i` for the committed
    /// auxiliary bit `aux_i = (x_i ⊕ c_i)(y_i ⊕ c_i)`, so every carry is the prefix XOR
    /// `c_i = ⊕_{j<i} aux_j` (linear) and `sum_i = x_i ⊕ y_i ⊕ c_i`. The carry out of the top
    /// bit is dropped, so `aux_{N−1}` is never needed. The aux bits (not the carries) are
    /// committed because with `C = I` a committed bit must equal the product of its row
    /// (Flock notes §2 and pitfall 3).
    ///
    /// Forwards to [`CircuitBuilder::add_mod`], whose default is [`ripple_add`] (an
    /// interpreter may override it to batch the commitments, committing the same aux bits in
    /// the same order).
    fn add<const N: usize>(&mut self, x: &[Self::Wire; N], y: &[Self::Wire; N]) -> [Self::Wire; N] {
        self.add_mod(x, y)
    }

    /// `x + y mod 2^N` with the chosen [`Adder`]: [`Adder::Ripple`] is [`WordBuilder::add`]
    /// (so an interpreter's [`CircuitBuilder::add_mod`] applies and the committed bits are
    /// those of every ripple-adding gadget), the prefix adders go through `and` and `xor`.
    fn add_with<const N: usize>(
        &mut self,
        adder: Adder,
        x: &[Self::Wire; N],
        y: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        match adder {
            Adder::Ripple => self.add(x, y),
            prefix => prefix_add(self, x, y, prefix),
        }
    }

    /// `Σ terms mod 2^N` with the chosen [`Adder`] (the zero word for no terms).
    ///
    /// Ripple: the left fold of [`WordBuilder::add`], `((t_0 + t_1) + t_2) + …`, whose
    /// chained ripple additions overlap bit by bit (sum bit `i` of one is ready at level
    /// `i + 1`, when the next needs it), so `k` terms cost `k − 1` additions and about
    /// `N + k` AND levels. A prefix adder's sum bits all wait its whole depth, so the terms
    /// are first compressed to two ([`WordBuilder::compress_terms`], one AND level per
    /// 3→2 step) and added once.
    fn add_many<const N: usize>(
        &mut self,
        adder: Adder,
        terms: &[[Self::Wire; N]],
    ) -> [Self::Wire; N] {
        let rows = match adder {
            Adder::Ripple => terms.to_vec(),
            _ => self.compress_terms(terms),
        };
        match rows.split_first() {
            None => self.constant_word(0),
            Some((first, rest)) => rest
                .iter()
                .fold(*first, |acc, t| self.add_with(adder, &acc, t)),
        }
    }

    /// Carry-save compression: words with the same sum mod `2^N`, at most two of them.
    /// Each step replaces three words `a, b, c` by `a ⊕ b ⊕ c` and the carries
    /// `maj(a, b, c) << 1` (`maj = a ⊕ (a ⊕ b)(a ⊕ c)`, `N − 1` ANDs: the top carry leaves
    /// the word), since `a + b + c = (a ⊕ b ⊕ c) + 2·maj(a, b, c)`; a round compresses every
    /// whole group of three, so `k` words need about `log_{3/2}(k/2)` AND levels.
    fn compress_terms<const N: usize>(
        &mut self,
        terms: &[[Self::Wire; N]],
    ) -> Vec<[Self::Wire; N]> {
        let mut rows = terms.to_vec();
        while rows.len() > 2 {
            let mut next = Vec::with_capacity(rows.len());
            for group in rows.chunks(3) {
                let [a, b, c] = group else {
                    next.extend_from_slice(group);
                    continue;
                };
                let zero = self.zero();
                let sum = core::array::from_fn(|i| {
                    let ab = self.xor(a[i], b[i]);
                    self.xor(ab, c[i])
                });
                let mut carry = [zero; N];
                for i in 0..N.saturating_sub(1) {
                    let ab = self.xor(a[i], b[i]);
                    let ac = self.xor(a[i], c[i]);
                    let t = self.and(ab, ac);
                    carry[i + 1] = self.xor(a[i], t);
                }
                next.push(sum);
                next.push(carry);
            }
            rows = next;
        }
        rows
    }

    /// `Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g) = g ⊕ e(f ⊕ g)`: one AND per bit.
    fn choose<const N: usize>(
        &mut self,
        e: &[Self::Wire; N],
        f: &[Self::Wire; N],
        g: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        core::array::from_fn(|i| {
            let fg = self.xor(f[i], g[i]);
            let t = self.and(e[i], fg);
            self.xor(g[i], t)
        })
    }

    /// `Maj(a, b, c) = a ⊕ (a ⊕ b)(a ⊕ c)`: one AND per bit.
    fn majority<const N: usize>(
        &mut self,
        a: &[Self::Wire; N],
        b: &[Self::Wire; N],
        c: &[Self::Wire; N],
    ) -> [Self::Wire; N] {
        core::array::from_fn(|i| {
            let ab = self.xor(a[i], b[i]);
            let ac = self.xor(a[i], c[i]);
            let t = self.and(ab, ac);
            self.xor(a[i], t)
        })
    }

    /// Input region `slot` as `N`-bit words (word `w` is bits `N·w .. N·w + N`).
    ///
    /// # Panics
    /// As [`CircuitBuilder::input`]; also if the region length is not a multiple of `N`.
    fn input_words<const N: usize>(&mut self, slot: SlotId) -> Vec<[Self::Wire; N]> {
        let bits = self.input(slot);
        assert_eq!(bits.len() % N, 0, "region length is not a multiple of {N}");
        bits.chunks_exact(N)
            .map(|c| core::array::from_fn(|i| c[i]))
            .collect()
    }

    /// Writes `N`-bit words to output region `slot` (word `w` to bits `N·w .. N·w + N`).
    ///
    /// # Panics
    /// As [`CircuitBuilder::output`].
    fn output_words<const N: usize>(&mut self, slot: SlotId, words: &[[Self::Wire; N]]) {
        let bits: Vec<Self::Wire> = words.iter().flatten().copied().collect();
        self.output(slot, &bits);
    }
}

impl<B: CircuitBuilder + ?Sized> WordBuilder for B {}
