//! Operation counts of the permutation, measured by an instrumented field and pinned.
//!
//! `Counted` wraps a field and counts, per thread, every addition or subtraction, doubling,
//! squaring and general multiplication the permutation performs. What counts as what:
//!
//! * **S-box**: one `x^d`; not an operation of its own, derived from the squarings (each
//!   `x^5` does 2 squarings and 1 multiplication, each `x^7` 2 squarings and 2
//!   multiplications, and nothing else squares).
//! * **field multiplications** = squarings + general multiplications (BN254 t = 3: 160 + 80 =
//!   240). Products by the small constants 1, 2, 4 of `M4` and the fixed `t = 2, 3` internal
//!   matrices are additions/doublings, not multiplications.
//! * **additions**: additions and subtractions, including round-constant additions;
//!   **doublings** are `x.double()`.

use std::cell::Cell;

use flockwork_field::{Field, PrimeField, derive_field_ops, impl_scalar_packed};
use flockwork_field_prime::{Bn254Fr, GoldilocksArk};
use flockwork_poseidon2::{Poseidon2, Poseidon2Field, Poseidon2Params};

use crate::common;

thread_local! {
    static COUNTS: Cell<Counts> = const { Cell::new(Counts { add: 0, double: 0, square: 0, mul: 0 }) };
}

/// Operation counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    add: u64,
    double: u64,
    square: u64,
    mul: u64,
}

fn bump(f: impl FnOnce(&mut Counts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

macro_rules! counted_field {
    ($Name:ident, $Inner:ty) => {
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
        struct $Name($Inner);

        impl core::ops::Add for $Name {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                bump(|c| c.add += 1);
                Self(self.0 + rhs.0)
            }
        }
        impl core::ops::Sub for $Name {
            type Output = Self;
            fn sub(self, rhs: Self) -> Self {
                bump(|c| c.add += 1);
                Self(self.0 - rhs.0)
            }
        }
        impl core::ops::Mul for $Name {
            type Output = Self;
            fn mul(self, rhs: Self) -> Self {
                bump(|c| c.mul += 1);
                Self(self.0 * rhs.0)
            }
        }
        impl core::ops::Neg for $Name {
            type Output = Self;
            fn neg(self) -> Self {
                Self(-self.0)
            }
        }
        derive_field_ops!(
            $Name,
            zero = $Name(<$Inner>::ZERO),
            one = $Name(<$Inner>::ONE)
        );
        impl_scalar_packed!($Name, |x: &$Name| {
            bump(|c| c.square += 1);
            $Name(flockwork_field::PackedField::square(&x.0))
        });

        impl Field for $Name {
            const ZERO: Self = Self(<$Inner>::ZERO);
            const ONE: Self = Self(<$Inner>::ONE);
            const CHARACTERISTIC_TWO: bool = false;
            const NUM_BYTES: usize = <$Inner>::NUM_BYTES;
            const UNIFORM_BYTES: usize = <$Inner>::UNIFORM_BYTES;
            const ORDER_BITS: u32 = <$Inner>::ORDER_BITS;
            type Packing = Self;
            fn inverse(&self) -> Option<Self> {
                self.0.inverse().map(Self)
            }
            fn double(&self) -> Self {
                bump(|c| c.double += 1);
                Self(self.0.double())
            }
            fn write_bytes(&self, out: &mut [u8]) {
                self.0.write_bytes(out);
            }
            fn read_bytes(bytes: &[u8]) -> Option<Self> {
                <$Inner>::read_bytes(bytes).map(Self)
            }
            fn from_uniform_bytes(bytes: &[u8]) -> Self {
                Self(<$Inner>::from_uniform_bytes(bytes))
            }
            fn from_index(i: u64) -> Self {
                Self(<$Inner>::from_index(i))
            }
        }

        impl PrimeField for $Name {
            const MODULUS_BITS: u32 = <$Inner>::MODULUS_BITS;
            const TWO_ADICITY: u32 = <$Inner>::TWO_ADICITY;
            fn from_u64(v: u64) -> Self {
                Self(<$Inner>::from_u64(v))
            }
            fn from_le_bytes_mod_order(bytes: &[u8]) -> Self {
                Self(<$Inner>::from_le_bytes_mod_order(bytes))
            }
            fn to_canonical_limbs(&self) -> impl AsRef<[u64]> {
                self.0.to_canonical_limbs().as_ref().to_vec()
            }
            fn two_adic_root_of_unity(log_n: u32) -> Self {
                Self(<$Inner>::two_adic_root_of_unity(log_n))
            }
        }

        impl Poseidon2Field for $Name {}
    };
}

counted_field!(CountedBn254, Bn254Fr);
counted_field!(CountedGoldilocks, GoldilocksArk);

/// The instance `name` over the counted field.
fn counted<F: Poseidon2Field, G: Poseidon2Field>(name: &str, wrap: fn(F) -> G) -> Poseidon2<G> {
    let p = common::constants::<F>(name).params;
    let map = |v: &[F]| v.iter().copied().map(wrap).collect::<Vec<G>>();
    Poseidon2::new(
        Poseidon2Params::new(
            p.t(),
            p.d(),
            p.rf(),
            p.rp(),
            map(p.full_begin()),
            map(p.partial()),
            map(p.full_end()),
            map(p.diag_m1()),
        )
        .unwrap(),
    )
}

/// Counts of one permutation of a nonzero state.
fn measure<G: Poseidon2Field>(perm: &Poseidon2<G>) -> Counts {
    let input: Vec<G> = (0..perm.width())
        .map(|i| G::from_u64(i as u64 + 1))
        .collect();
    COUNTS.with(|c| c.set(Counts::default()));
    let _ = perm.permutation(&input);
    COUNTS.with(Cell::get)
}

/// Expected counts from the structure: `S = R_F·t + R_P` S-boxes; additions are the
/// round constants plus `(R_F + 1)` external layers and `R_P` internal layers.
fn expected(t: u64, d: u64, rf: u64, rp: u64) -> Counts {
    let sboxes = rf * t + rp;
    let (sbox_mul, sbox_sq) = match d {
        5 => (1, 2),
        7 => (2, 2),
        _ => unreachable!(),
    };
    // External layer: t = 2, 3: (t − 1) + t additions. t = 4k: k M4 (8 additions,
    // 6 doublings each), 4(k − 1) additions for the column sums and t to add them back
    // (none for t = 4).
    let (ext_add, ext_double) = match t {
        2 | 3 => (2 * t - 1, 0),
        4 => (8, 6),
        _ => (8 * t / 4 + 4 * (t / 4 - 1) + t, 6 * t / 4),
    };
    // Internal layer: sum (t − 1 additions), then t = 2, 3: t additions and one doubling;
    // t >= 4: t multiplications and t additions.
    let (int_add, int_double, int_mul) = match t {
        2 | 3 => (2 * t - 1, 1, 0),
        _ => (2 * t - 1, 0, t),
    };
    Counts {
        add: sboxes + (rf + 1) * ext_add + rp * int_add,
        double: (rf + 1) * ext_double + rp * int_double,
        square: sbox_sq * sboxes,
        mul: sbox_mul * sboxes + rp * int_mul,
    }
}

#[test]
fn bn254_t3_counts_are_pinned() {
    let c = measure(&counted::<Bn254Fr, _>("bn254_t3", CountedBn254));
    assert_eq!(c.square / 2, 80, "S-boxes");
    assert_eq!(c.square + c.mul, 240, "field multiplications");
    assert_eq!(
        c,
        Counts {
            add: 80 + 9 * 5 + 56 * 5,
            double: 56,
            square: 160,
            mul: 80
        }
    );
    assert_eq!(c, expected(3, 5, 8, 56));
}

#[test]
fn counts_of_every_bn254_and_goldilocks_instance() {
    for t in [2u64, 3, 4, 8, 12, 16] {
        let perm = counted::<Bn254Fr, _>(&format!("bn254_t{t}"), CountedBn254);
        let rp = perm.params().rp() as u64;
        assert_eq!(measure(&perm), expected(t, 5, 8, rp), "bn254 t = {t}");
    }
    for t in [8u64, 12, 16, 20] {
        let perm = counted::<GoldilocksArk, _>(&format!("goldilocks_t{t}"), CountedGoldilocks);
        assert_eq!(measure(&perm), expected(t, 7, 8, 22), "goldilocks t = {t}");
    }
    // Two reference points written out: BN254 t = 4 has 88 S-boxes and 264 + 224
    // multiplications; Goldilocks t = 12 has 118 S-boxes and 472 + 264 multiplications.
    let c = measure(&counted::<Bn254Fr, _>("bn254_t4", CountedBn254));
    assert_eq!((c.square / 2, c.square + c.mul), (88, 264 + 224));
    let c = measure(&counted::<GoldilocksArk, _>(
        "goldilocks_t12",
        CountedGoldilocks,
    ));
    assert_eq!((c.square / 2, c.square + c.mul), (118, 472 + 264));
}
