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
