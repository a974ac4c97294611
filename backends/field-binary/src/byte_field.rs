//! Compile-time log/exp tables for GF(2^8) in an arbitrary F2-basis.
//!
//! A representation of GF(2^8) is fixed by the products of its basis vectors,
//! `basis_products[i][j] = e_i · e_j` (the multiplication is F2-bilinear). From those 64 bytes
//! [`LogExpTables::new`] finds the smallest multiplicative generator `g` and tabulates
//! `exp[i] = g^i` and `log[g^i] = i`, all in `const` context, so both the AES field
//! ([`crate::aes`]) and the tower field GF(2^8) ([`crate::tower`]) get their tables at
//! compile time from one routine.
//!
//! The tables are laid out for a branch-free product: `log[0]` is a sentinel so large that
//! `log[a] + log[b]` lands in the zero-filled tail of `exp` whenever `a` or `b` is zero.

/// `log[0]`; any index `>= ZERO_LOG` in `exp` holds 0.
const ZERO_LOG: u16 = 511;
/// `exp` covers every sum of two logs, sentinel included (`2 · 511 < 1024`).
const EXP_LEN: usize = 1024;

/// Products of basis vectors, `[i][j] = e_i · e_j`, defining a GF(2^8) representation.
pub(crate) type BasisProducts = [[u8; 8]; 8];

/// `a · b` by bilinearity from the basis products (slow; for building tables).
pub(crate) const fn bilinear_mul(a: u8, b: u8, products: &BasisProducts) -> u8 {
    let mut acc = 0u8;
    let mut i = 0;
    while i < 8 {
        if (a >> i) & 1 == 1 {
            let mut j = 0;
            while j < 8 {
                if (b >> j) & 1 == 1 {
                    acc ^= products[i][j];
                }
                j += 1;
            }
        }
        i += 1;
    }
    acc
}

/// Multiplicative order of `g != 0`, or 256 if the powers never return to 1 within 255 steps
/// (only possible if `products` does not describe a field).
const fn order(g: u8, products: &BasisProducts) -> u16 {
    let mut power = g;
    let mut k = 1u16;
    while power != 1 && k < 256 {
        power = bilinear_mul(power, g, products);
        k += 1;
    }
    k
}

/// Discrete log and exponential tables of GF(2^8) for its smallest generator.
pub(crate) struct LogExpTables {
    log: [u16; 256],
    exp: [u8; EXP_LEN],
    generator: u8,
}

impl LogExpTables {
    /// Tables for the field whose basis products are `products`.
    ///
    /// # Panics
    /// At compile time, if no element of order 255 exists (the products do not define a field).
    pub(crate) const fn new(products: &BasisProducts) -> Self {
        let mut g = 2u16;
        while g < 256 && order(g as u8, products) != 255 {
            g += 1;
        }
        assert!(g < 256, "basis products do not define GF(2^8)");
        let generator = g as u8;
        let mut log = [0u16; 256];
        let mut exp = [0u8; EXP_LEN];
        log[0] = ZERO_LOG;
        let mut power = 1u8;
        let mut i = 0usize;
        while i < 255 {
            exp[i] = power;
            exp[i + 255] = power;
            log[power as usize] = i as u16;
            power = bilinear_mul(power, generator, products);
            i += 1;
        }
        Self {
            log,
            exp,
            generator,
        }
    }

    /// The generator the tables are built on.
    pub(crate) const fn generator(&self) -> u8 {
        self.generator
    }

    /// `a · b`, branch-free: three lookups in 1.5 KiB.
    #[inline(always)]
    pub(crate) fn mul(&self, a: u8, b: u8) -> u8 {
        self.exp[usize::from(self.log[usize::from(a)] + self.log[usize::from(b)])]
    }

    /// `a^-1`, and 0 for 0.
    #[inline]
    pub(crate) fn inverse_or_zero(&self, a: u8) -> u8 {
        if a == 0 {
            0
        } else {
            self.exp[255 - usize::from(self.log[usize::from(a)])]
        }
    }
}
