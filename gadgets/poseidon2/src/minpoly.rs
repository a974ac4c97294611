//! The minimal-polynomial security check on the internal matrix (eprint 2023/323, §5.3 and
//! the reference parameter script): `M_I` is accepted iff for every `k = 1, …, 2t` the
//! minimal polynomial of `M_I^k` has degree `t` and is irreducible over GF(p). That rules
//! out invariant subspaces of `M_I^k`, hence infinitely long subspace trails through the
//! partial rounds.
//!
//! Since the minimal polynomial divides the characteristic polynomial `χ` and has the same
//! irreducible factors, the condition for one `k` is simply: **`χ(M_I^k)` is irreducible**.
//!
//! * `χ` is computed by reduction to upper Hessenberg form by similarity transforms and the
//!   Hessenberg recurrence (Cohen, *A Course in Computational Algebraic Number Theory*,
//!   Alg. 2.2.9), `O(t³)` field operations.
//! * Irreducibility uses Berlekamp's criterion: a monic `f` of degree `t` is irreducible iff
//!   it is square-free (`gcd(f, f′) = 1`) and the Frobenius (Berlekamp) matrix `Q`, whose row
//!   `j` is `x^{jp} mod f`, satisfies `rank(Q − I) = t − 1` (the number of irreducible
//!   factors of a square-free `f` is `t − rank(Q − I)`).

use alloc::vec;
use alloc::vec::Vec;

use flockwork_field::{Field, PrimeField};

use crate::matrix::mat_mul;

/// A polynomial, coefficients from the constant term up.
type Poly<F> = Vec<F>;

/// Drops leading zero coefficients.
fn trim<F: Field>(mut a: Poly<F>) -> Poly<F> {
    while a.last().is_some_and(Field::is_zero) {
        a.pop();
    }
    a
}

/// `a mod f` for a monic `f`.
fn rem_monic<F: Field>(mut a: Poly<F>, f: &[F]) -> Poly<F> {
    let n = f.len() - 1;
    while a.len() > n {
        let lead = a.pop().expect("a is longer than n");
        let shift = a.len() - n;
        for (ai, fi) in a[shift..].iter_mut().zip(&f[..n]) {
            *ai -= lead * *fi;
        }
    }
    a
}

/// `a · b mod f` for a monic `f`.
fn mul_mod<F: Field>(a: &[F], b: &[F], f: &[F]) -> Poly<F> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut prod = vec![F::ZERO; a.len() + b.len() - 1];
    for (i, ai) in a.iter().enumerate() {
        for (pj, bj) in prod[i..].iter_mut().zip(b) {
            *pj += *ai * *bj;
        }
    }
    rem_monic(prod, f)
}

/// `x^e mod f`, `e` given by little-endian 64-bit limbs.
fn x_pow_mod<F: Field>(e: &[u64], f: &[F]) -> Poly<F> {
    let x = rem_monic(vec![F::ZERO, F::ONE], f);
    let mut acc = rem_monic(vec![F::ONE], f);
    for limb in e.iter().rev() {
        for bit in (0..64).rev() {
            acc = mul_mod(&acc, &acc, f);
            if (limb >> bit) & 1 == 1 {
                acc = mul_mod(&acc, &x, f);
            }
        }
    }
    acc
}

/// `gcd(a, b)` up to a unit (Euclid); the result is monic unless zero.
fn gcd<F: Field>(a: Poly<F>, b: Poly<F>) -> Poly<F> {
    let (mut a, mut b) = (trim(a), trim(b));
    while !b.is_empty() {
        let inv = b
            .last()
            .expect("nonzero")
            .inverse()
            .expect("leading coefficient is nonzero");
        let monic: Poly<F> = b.iter().map(|c| *c * inv).collect();
        let r = trim(rem_monic(a, &monic));
        a = monic;
        b = r;
    }
    a
}

/// The formal derivative.
fn derivative<F: PrimeField>(a: &[F]) -> Poly<F> {
    a.iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| F::from_u64(i as u64) * *c)
        .collect()
}

/// Rank of a dense matrix by Gaussian elimination.
fn rank<F: Field>(mut m: Vec<Vec<F>>) -> usize {
    let cols = m.first().map_or(0, Vec::len);
    let mut rank = 0;
    for col in 0..cols {
        let Some(pivot) = (rank..m.len()).find(|&r| !m[r][col].is_zero()) else {
            continue;
        };
        m.swap(rank, pivot);
        let inv = m[rank][col].inverse().expect("pivot is nonzero");
        for r in 0..m.len() {
            if r != rank && !m[r][col].is_zero() {
                let factor = m[r][col] * inv;
                let (pivot_row, row) = if r < rank {
                    let (lo, hi) = m.split_at_mut(rank);
                    (&hi[0], &mut lo[r])
                } else {
                    let (lo, hi) = m.split_at_mut(r);
                    (&lo[rank], &mut hi[0])
                };
                for (x, y) in row.iter_mut().zip(pivot_row) {
                    *x -= factor * *y;
                }
            }
        }
        rank += 1;
    }
    rank
}

/// `p` as little-endian limbs (`(p − 1) + 1`; `p − 1` is even, so no carry leaves limb 0).
fn modulus_limbs<F: PrimeField>() -> Vec<u64> {
    let mut limbs = (-F::ONE).to_canonical_limbs().as_ref().to_vec();
    limbs[0] += 1;
    limbs
}

/// The Berlekamp matrix of a monic `f` of degree `n`: row `j` is `x^{jp} mod f` (padded to
/// `n` coefficients), i.e. the matrix of the Frobenius map `g ↦ g^p` on `F[x]/f`.
fn berlekamp_matrix<F: PrimeField>(f: &[F]) -> Vec<Vec<F>> {
    let n = f.len() - 1;
    let xp = x_pow_mod(&modulus_limbs::<F>(), f);
    let mut rows = Vec::with_capacity(n);
    let mut row = rem_monic(vec![F::ONE], f);
    for _ in 0..n {
        let mut dense = row.clone();
        dense.resize(n, F::ZERO);
        rows.push(dense);
        row = mul_mod(&row, &xp, f);
    }
    rows
}

/// The Berlekamp matrix of `f` if `f` (monic, degree ≥ 1) is irreducible (module docs).
fn frobenius_if_irreducible<F: PrimeField>(f: &[F]) -> Option<Vec<Vec<F>>> {
    let n = f.len() - 1;
    if n > 1 && gcd(f.to_vec(), derivative(f)).len() != 1 {
        return None;
    }
    let q = berlekamp_matrix(f);
    let mut q_minus_i = q.clone();
    for (j, row) in q_minus_i.iter_mut().enumerate() {
        row[j] -= F::ONE;
    }
    (rank(q_minus_i) == n - 1).then_some(q)
}

/// `true` iff the monic polynomial `f` (degree ≥ 1) is irreducible over GF(p)
/// (Berlekamp's criterion, module docs).
#[must_use]
pub fn is_irreducible<F: PrimeField>(f: &[F]) -> bool {
    frobenius_if_irreducible(f).is_some()
}

/// The characteristic polynomial `det(x·I − M)` (monic, constant term first) via Hessenberg
/// reduction (module docs).
#[must_use]
pub fn charpoly<F: Field>(m: &[Vec<F>]) -> Vec<F> {
    let n = m.len();
    let mut h: Vec<Vec<F>> = m.to_vec();
    // Similarity transforms to upper Hessenberg form.
    for j in 0..n.saturating_sub(2) {
        let Some(i) = (j + 1..n).find(|&i| !h[i][j].is_zero()) else {
            continue;
        };
        if i != j + 1 {
            h.swap(i, j + 1);
            for row in h.iter_mut() {
                row.swap(i, j + 1);
            }
        }
        let inv = h[j + 1][j].inverse().expect("pivot is nonzero");
        for k in j + 2..n {
            let u = h[k][j] * inv;
            if u.is_zero() {
                continue;
            }
            let pivot_row = h[j + 1].clone();
            for (x, v) in h[k].iter_mut().zip(&pivot_row) {
                *x -= u * *v;
            }
            for row in h.iter_mut() {
                let v = row[k];
                row[j + 1] += u * v;
            }
        }
    }
    // p_0 = 1; p_m = (x − h_mm) p_{m−1} − Σ_{i=1}^{m−1} h_{m−i,m} (Π_{j=m−i+1}^{m} h_{j,j−1}) p_{m−i−1}
    // (1-indexed); below 0-indexed with polys[m] = p_m.
    let mut polys: Vec<Poly<F>> = vec![vec![F::ONE]];
    for m in 1..=n {
        let prev = &polys[m - 1];
        let mut p = vec![F::ZERO; m + 1];
        for (k, c) in prev.iter().enumerate() {
            p[k + 1] += *c;
            p[k] -= h[m - 1][m - 1] * *c;
        }
        let mut sub_diag_product = F::ONE;
        for i in 1..m {
            sub_diag_product *= h[m - i][m - i - 1];
            let coeff = h[m - i - 1][m - 1] * sub_diag_product;
            for (k, c) in polys[m - i - 1].iter().enumerate() {
                p[k] -= coeff * *c;
            }
        }
        polys.push(p);
    }
    polys.pop().expect("p_n exists")
}

/// The reference's security condition, evaluated literally: for every `k = 1, …, 2t`,
/// `χ(M^k)` is irreducible (one charpoly and one Berlekamp test per `k`). This is the
/// definition; [`passes_minpoly_check`] is the fast equivalent the generator uses.
#[must_use]
pub fn passes_minpoly_check_direct<F: PrimeField>(m: &[Vec<F>]) -> bool {
    let t = m.len();
    let mut power = m.to_vec();
    for k in 1..=2 * t {
        if !is_irreducible(&charpoly(&power)) {
            return false;
        }
        if k < 2 * t {
            power = mat_mul(m, &power);
        }
    }
    true
}

/// The distinct prime factors of `n`.
fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut primes = Vec::new();
    let mut q = 2;
    while q * q <= n {
        if n.is_multiple_of(q) {
            primes.push(q);
            while n.is_multiple_of(q) {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        primes.push(n);
    }
    primes
}

/// `g ↦ g^p` on `F[x]/f` through the Berlekamp matrix: `Σ_j g_j · (x^{jp} mod f)`.
fn frobenius<F: Field>(g: &[F], q: &[Vec<F>]) -> Vec<F> {
    let mut out = vec![F::ZERO; q.len()];
    for (gj, row) in g.iter().zip(q) {
        for (o, r) in out.iter_mut().zip(row) {
            *o += *gj * *r;
        }
    }
    out
}

/// `true` iff `g ∈ F[x]/f ≅ GF(p^t)` lies in a maximal proper subfield `GF(p^{t/q})`, i.e.
/// `g^{p^{t/q}} = g` for some prime `q | t`.
fn in_proper_subfield<F: Field>(g: &[F], q: &[Vec<F>], primes: &[usize]) -> bool {
    let t = q.len();
    primes.iter().any(|&prime| {
        let mut h = g.to_vec();
        for _ in 0..t / prime {
            h = frobenius(&h, q);
        }
        h == g
    })
}

/// The reference's security condition on an internal matrix `M` of size `t` (module docs):
/// for every `k = 1, …, 2t`, `χ(M^k)` is irreducible.
///
/// Evaluated without forming `M^k`: if `f = χ(M)` is irreducible, `M` is diagonalisable over
/// `GF(p^t) ≅ F[x]/f` with eigenvalues the conjugates of `λ = x mod f`, so `χ(M^k)` is the
/// `t/deg(λ^k)`-th power of the minimal polynomial of `λ^k`; it is irreducible iff `λ^k`
/// lies in no maximal proper subfield `GF(p^{t/q})`, `q | t` prime. One charpoly, one
/// Berlekamp matrix, then `O(t³)` per `k`. Tested equal to [`passes_minpoly_check_direct`].
#[must_use]
pub fn passes_minpoly_check<F: PrimeField>(m: &[Vec<F>]) -> bool {
    let t = m.len();
    let f = charpoly(m);
    let Some(q) = frobenius_if_irreducible(&f) else {
        return false;
    };
    let primes = prime_factors(t);
    let x = {
        let mut x = rem_monic(vec![F::ZERO, F::ONE], &f);
        x.resize(t, F::ZERO);
        x
    };
    let mut lambda_k = x.clone();
    for _ in 2..=2 * t {
        lambda_k = mul_mod(&lambda_k, &x, &f);
        lambda_k.resize(t, F::ZERO);
        if in_proper_subfield(&lambda_k, &q, &primes) {
            return false;
        }
    }
    true
}
