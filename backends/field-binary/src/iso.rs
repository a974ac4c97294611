//! The field isomorphism between the binary tower `T_7` ([`Tower128`]) and GHASH
//! GF(2^128) ([`Ghash128`]), both ways.
//!
//! Both are GF(2^128), so an isomorphism exists; it is fixed by choosing images `Y_k` of
//! the tower generators `X_k` (`k = 0..6`) satisfying the same defining equations
//! `Y_k^2 + Y_{k-1}·Y_k + 1 = 0` (`Y_{-1} = 1`). Given `b = Y_{k-1}`, substituting
//! `Y_k = b·z` turns the equation into the Artin–Schreier equation `z^2 + z = 1/b^2`, which is
//! F2-linear in `z` and solved by Gaussian elimination on the 128 × 128 bit matrix of
//! `z ↦ z^2 + z` ([`crate::gf2`]). Its two roots `z, z + 1` give `Y_k ∈ {b z, b z + b}`;
//! **we take the one whose GHASH bit pattern is smaller as an integer.**
//!
//! The map sends the tower monomial basis (bit `i` ↔ `Π_{j : bit j of i} X_j`) to
//! `Π_{j : bit j of i} Y_j`; it is F2-linear and multiplicative, hence a field isomorphism.
//! Both directions are applied through sixteen byte-indexed tables (64 KiB each), built once
//! on first use with [`OnceLock`] (a few hundred GHASH products and two eliminations).

use std::sync::OnceLock;

use flockwork_field::Field;

use crate::gf2::{BitMatrix128, ByteTableMap};
use crate::{Ghash128, Tower128};

/// The tables of both directions and the generator images.
struct Isomorphism {
    generators: [Ghash128; 7],
    to_ghash: ByteTableMap,
    to_tower: ByteTableMap,
}

fn isomorphism() -> &'static Isomorphism {
    static ISO: OnceLock<Isomorphism> = OnceLock::new();
    ISO.get_or_init(Isomorphism::build)
}

impl Isomorphism {
    fn build() -> Self {
        let generators = generator_images();
        let forward = monomial_images(&generators);
        let backward = forward
            .inverse()
            .expect("images of the tower monomials form a basis of GF(2^128)");
        Self {
            generators,
            to_ghash: ByteTableMap::new(&forward),
            to_tower: ByteTableMap::new(&backward),
        }
    }
}

/// `Y_0, …, Y_6`: each the smaller root of `y^2 + Y_{k-1} y + 1` (with `Y_{-1} = 1`).
fn generator_images() -> [Ghash128; 7] {
    let mut images = [Ghash128::ZERO; 7];
    let mut prev = Ghash128::ONE;
    for image in &mut images {
        *image = smaller_root_of_generator_equation(prev);
        prev = *image;
    }
    images
}

/// The root with the smaller bit pattern of `y^2 + b·y + 1 = 0`, `b ≠ 0`.
///
/// # Panics
/// If the equation has no root in GF(2^128) (never for the tower's `b`, since `T_7` embeds).
fn smaller_root_of_generator_equation(b: Ghash128) -> Ghash128 {
    let b_inv = b.inverse().expect("b is nonzero");
    let z = solve_artin_schreier(b_inv * b_inv).expect("the tower embeds in GF(2^128)");
    let y = b * z;
    y.min(y + b)
}

/// Some `z` with `z^2 + z = c` (the other root is `z + 1`), `None` iff `Tr(c) = 1`.
pub(crate) fn solve_artin_schreier(c: Ghash128) -> Option<Ghash128> {
    let matrix = BitMatrix128::from_fn(|i| {
        let e = Ghash128(1 << i);
        (e * e + e).0
    });
    matrix.solve(c.0).map(Ghash128)
}

/// The bit matrix of the isomorphism: column `i` is the image of the tower monomial `i`.
fn monomial_images(generators: &[Ghash128; 7]) -> BitMatrix128 {
    let mut cols = [0u128; 128];
    cols[0] = 1;
    for i in 1..128usize {
        let low = i.trailing_zeros() as usize;
        cols[i] = (Ghash128(cols[i & (i - 1)]) * generators[low]).0;
    }
    BitMatrix128::from_columns(cols)
}

/// The image in GHASH of the tower generator `X_k` (`k < 7`), `Y_k` in the module docs.
///
/// # Panics
/// If `k >= 7`.
#[must_use]
pub fn generator_image(k: usize) -> Ghash128 {
    isomorphism().generators[k]
}

/// The isomorphism `T_7 → GHASH` (16 table lookups).
#[inline]
#[must_use]
pub fn tower_to_ghash(v: Tower128) -> Ghash128 {
    Ghash128(isomorphism().to_ghash.apply(v.0))
}

/// The isomorphism `GHASH → T_7`, inverse of [`tower_to_ghash`] (16 table lookups).
#[inline]
#[must_use]
pub fn ghash_to_tower(v: Ghash128) -> Tower128 {
    Tower128(isomorphism().to_tower.apply(v.0))
}

/// `a · b` in `T_7` computed in GHASH: `ghash_to_tower(tower_to_ghash(a) · tower_to_ghash(b))`.
/// Equal to the tower's own Karatsuba product; three table conversions and one CLMUL
/// product, which beats the 81 byte products of the recursion when converting is acceptable.
#[inline]
#[must_use]
pub fn tower_mul_via_ghash(a: Tower128, b: Tower128) -> Tower128 {
    ghash_to_tower(tower_to_ghash(a) * tower_to_ghash(b))
}

impl From<Tower128> for Ghash128 {
    /// [`tower_to_ghash`].
    fn from(v: Tower128) -> Self {
        tower_to_ghash(v)
    }
}

impl From<Ghash128> for Tower128 {
    /// [`ghash_to_tower`].
    fn from(v: Ghash128) -> Self {
        ghash_to_tower(v)
    }
}

#[cfg(test)]
mod tests {
    use flockwork_field::Field;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::gf2::absolute_trace;

    fn edge_cases() -> Vec<Tower128> {
        let mut v = vec![Tower128::ZERO, Tower128::ONE, Tower128(u128::MAX)];
        v.extend((0..7).map(Tower128::generator));
        v
    }

    #[test]
    fn generator_images_satisfy_the_tower_equations() {
        let mut prev = Ghash128::ONE;
        for k in 0..7 {
            let y = generator_image(k);
            assert_eq!(y * y + prev * y + Ghash128::ONE, Ghash128::ZERO, "Y_{k}");
            // The other root is y + prev; we kept the smaller bit pattern.
            assert!(y.0 < (y + prev).0, "Y_{k} is the smaller root");
            assert_eq!(tower_to_ghash(Tower128::generator(k)), y);
            prev = y;
        }
    }

    #[test]
    fn artin_schreier_solvability_is_the_trace() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20 {
            let c = Ghash128(rng.random());
            match solve_artin_schreier(c) {
                Some(z) => {
                    assert_eq!(z * z + z, c);
                    assert_eq!(absolute_trace(c), Ghash128::ZERO);
                }
                None => assert_eq!(absolute_trace(c), Ghash128::ONE),
            }
        }
    }

    #[test]
    fn directions_are_mutually_inverse() {
        let mut rng = StdRng::seed_from_u64(1);
        for t in edge_cases() {
            assert_eq!(ghash_to_tower(tower_to_ghash(t)), t);
        }
        for _ in 0..10_000 {
            let (t, g) = (Tower128(rng.random()), Ghash128(rng.random()));
            assert_eq!(ghash_to_tower(tower_to_ghash(t)), t);
            assert_eq!(tower_to_ghash(ghash_to_tower(g)), g);
        }
        assert_eq!(Ghash128::from(Tower128::ONE), Ghash128::ONE);
        assert_eq!(Tower128::from(Ghash128::ZERO), Tower128::ZERO);
    }

    #[test]
    fn preserves_addition_and_multiplication() {
        let mut rng = StdRng::seed_from_u64(2);
        let mut values = edge_cases();
        values.extend((0..10_000).map(|_| Tower128(rng.random())));
        for pair in values.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ga, gb) = (tower_to_ghash(a), tower_to_ghash(b));
            assert_eq!(tower_to_ghash(a + b), ga + gb, "+ at {a:?}, {b:?}");
            assert_eq!(tower_to_ghash(a * b), ga * gb, "x at {a:?}, {b:?}");
            assert_eq!(ghash_to_tower(ga * gb), a * b);
            assert_eq!(tower_mul_via_ghash(a, b), a * b);
        }
        for a in edge_cases() {
            for b in edge_cases() {
                assert_eq!(tower_to_ghash(a * b), tower_to_ghash(a) * tower_to_ghash(b));
            }
            assert_eq!(
                a.inverse().map(tower_to_ghash),
                tower_to_ghash(a).inverse(),
                "inverse at {a:?}"
            );
        }
    }

    #[test]
    fn subfields_map_to_subfields() {
        // T_3 = GF(2^8) lands in the unique subfield of order 256: fixed by x ↦ x^256.
        for b in 0..=255u8 {
            let g = tower_to_ghash(Tower128(b.into()));
            assert_eq!(g.pow(&[256]), g);
        }
    }
}
