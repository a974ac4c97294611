//! The round-number formula of eprint 2023/323 (§6, "Security"), as the reference
//! parameter script evaluates it.
//!
//! For security level `M` (bits), field bit length `n`, `log2 p`, width `t` and S-box degree
//! `α`, a pair `(R_F, R_P)` is **secure** iff `R_F >= max(R_F1, …, R_F5)` and
//! `ceil(2 · log2 C(over, under)) >= M`, where (all logarithms real, `log_α x = ln x / ln α`)
//!
//! | bound | formula |
//! |---|---|
//! | statistical | `R_F1 = 6` if `M <= floor(log2 p − (α − 1)/2) · (t + 1)`, else `10` |
//! | interpolation | `R_F2 = 1 + ceil(log_α 2 · min(M, n)) + ceil(log_α t) − R_P` |
//! | Gröbner 1 | `R_F3 = log_α 2 · min(M, log2 p) − R_P` |
//! | Gröbner 2 | `R_F4 = t − 1 + log_α 2 · min(M / (t + 1), log2(p) / 2) − R_P` |
//! | Gröbner 3 | `R_F5 = (t − 2 + M / (2 log2 α) − R_P) / (t − 1)` |
//! | eprint 2023/537 | `r = floor(t/3)`, `over = (R_F − 1)t + 2R_P + r + r·R_F/2 + α`, `under = r·R_F/2 + R_P + α` |
//!
//! (each `R_Fi` is rounded up before taking the maximum). The search scans `R_P = 1..499`
//! (outer) and even `R_F = 4..98` (inner); every secure pair gets the security margin
//! `R_F + 2`, `R_P ← ceil(1.075 · R_P)` and the one with the fewest S-boxes `t·R_F + R_P`
//! wins (ties: smaller `R_F`). As in the script, the margin's update of `R_P` persists for
//! the rest of the inner loop.

use libm::{ceil, floor, lgamma, log, log2};

/// `log2 C(n, k)` for integers `n >= k >= 0`, through `ln Γ`:
/// `(lnΓ(n+1) − lnΓ(k+1) − lnΓ(n−k+1)) / ln 2` (absolute error ~1e-12 for the sizes here).
fn log2_binomial(n: u64, k: u64) -> f64 {
    let lg = |x: u64| lgamma(x as f64 + 1.0);
    (lg(n) - lg(k) - lg(n - k)) / core::f64::consts::LN_2
}

/// `log_base(x)`.
fn log_base(x: f64, base: f64) -> f64 {
    log(x) / log(base)
}

/// The security predicate of the module docs for one candidate `(rf, rp)`.
#[must_use]
pub fn is_secure(
    field_bits: u32,
    log2_p: f64,
    t: usize,
    alpha: u64,
    security: u32,
    rf: usize,
    rp: usize,
) -> bool {
    let (m, n, tf, a) = (
        f64::from(security),
        f64::from(field_bits),
        t as f64,
        alpha as f64,
    );
    let (rff, rpf) = (rf as f64, rp as f64);
    let log_a_2 = log_base(2.0, a);
    let r_f1 = if m <= floor(log2_p - (a - 1.0) / 2.0) * (tf + 1.0) {
        6.0
    } else {
        10.0
    };
    let r_f2 = 1.0 + ceil(log_a_2 * m.min(n)) + ceil(log_base(tf, a)) - rpf;
    let r_f3 = log_a_2 * m.min(log2_p) - rpf;
    let r_f4 = tf - 1.0 + log_a_2 * (m / (tf + 1.0)).min(log2_p / 2.0) - rpf;
    let r_f5 = (tf - 2.0 + m / (2.0 * log2(a)) - rpf) / (tf - 1.0);
    let r_f_max = [r_f1, r_f2, r_f3, r_f4, r_f5]
        .into_iter()
        .map(ceil)
        .fold(f64::MIN, f64::max);

    if rff < r_f_max {
        return false;
    }
    let r = (t / 3) as u64;
    let half_rf = (rf / 2) as u64;
    let over = (rf as u64 - 1) * t as u64 + 2 * rp as u64 + r + r * half_rf + alpha;
    let under = r * half_rf + rp as u64 + alpha;
    let cost_gb4 = ceil(2.0 * log2_binomial(over, under));
    cost_gb4 >= m
}

/// `(R_F, R_P)` with the security margin for the given field and width at `security` bits
/// (module docs). `log2_p` is the real `log2 p` (see [`log2_modulus`]).
#[must_use]
pub fn round_numbers_exact(
    field_bits: u32,
    log2_p: f64,
    t: usize,
    alpha: u64,
    security: u32,
) -> (usize, usize) {
    let (mut best_rf, mut best_rp, mut min_cost) = (0, 0, usize::MAX);
    for rp_start in 1..500 {
        let mut rp = rp_start;
        for rf in (4..100).step_by(2) {
            if !is_secure(field_bits, log2_p, t, alpha, security, rf, rp) {
                continue;
            }
            let rf_margin = rf + 2;
            rp = ceil(rp as f64 * 1.075) as usize;
            let cost = t * rf_margin + rp;
            if cost < min_cost || (cost == min_cost && rf_margin < best_rf) {
                (best_rf, best_rp, min_cost) = (rf_margin, rp, cost);
            }
        }
    }
    (best_rf, best_rp)
}

/// `log2 p` from the canonical limbs of `p − 1` (exact to `f64` precision; `p − 1` and `p`
/// agree to far more digits than an `f64` holds, except for tiny p, where the `+1` is kept).
#[must_use]
pub fn log2_modulus<F: flockwork_field::PrimeField>() -> f64 {
    let minus_one = -F::ONE;
    let limbs = minus_one.to_canonical_limbs();
    let limbs = limbs.as_ref();
    let top = limbs.iter().rposition(|&l| l != 0).unwrap_or(0);
    let mut value = 0.0f64;
    for &limb in limbs[..=top].iter().rev().take(2) {
        value = value * 18_446_744_073_709_551_616.0 + limb as f64;
    }
    if top == 0 {
        value += 1.0;
    }
    let shift = 64 * top.saturating_sub(1) as u32;
    log2(value) + f64::from(shift)
}

/// The round numbers `(R_F, R_P)` of the reference script for a prime field `F`, width `t`,
/// S-box degree `alpha` and `security` bits (module docs).
#[must_use]
pub fn round_numbers<F: flockwork_field::PrimeField>(
    t: usize,
    alpha: u64,
    security: u32,
) -> (usize, usize) {
    round_numbers_exact(F::MODULUS_BITS, log2_modulus::<F>(), t, alpha, security)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `log2 p` to `f64` precision: BabyBear's `p = 15·2^27 + 1` (where `p − 1` and `p`
    /// differ in an `f64`), Goldilocks' `2^64 − 2^32 + 1` and BN254's 254-bit `r` (from its
    /// top two limbs); the expected values are `math.log2` of the integers (Python).
    #[test]
    fn log2_modulus_is_log2_p() {
        use flockwork_field_prime::{BabyBearArk, Bn254Fr, Goldilocks};
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(log2_modulus::<BabyBearArk>(), 30.906_890_596_325_113));
        assert!(!close(log2_modulus::<BabyBearArk>(), 30.906_890_595_608_52));
        assert!(close(log2_modulus::<Goldilocks>(), 63.999_999_999_664_1));
        assert!(close(log2_modulus::<Bn254Fr>(), 253.596_691_355_002_15));
    }

    /// `log2 C(n, k)` through `ln Γ` agrees with the exact binomial coefficient.
    #[test]
    fn log2_binomial_matches_the_exact_binomial() {
        for n in [0u64, 1, 5, 17, 60, 100] {
            let mut exact: u128 = 1;
            for k in 0..=n {
                let got = log2_binomial(n, k);
                let want = (exact as f64).log2();
                assert!((got - want).abs() < 1e-8, "C({n}, {k}): {got} vs {want}");
                exact = exact * u128::from(n - k) / u128::from(k + 1);
            }
        }
    }

    /// Every bound of the table in the module docs decides some case: for inputs where it is
    /// the largest (and the eprint 2023/537 bound holds either way), the predicate holds at
    /// its `R_F` and fails one round below. A 31-bit field with `log2 p = 30.3`.
    #[test]
    fn every_bound_decides_some_case() {
        // (t, α, M, R_P, the bound's R_F, which bound)
        let cases = [
            // ⌊30.3 − (7 − 1)/2⌋ · (2 + 1) = 81: M = 81 needs 6 full rounds, M = 82 needs 10.
            (2, 7, 81, 50, 6, "statistical"),
            (2, 7, 82, 50, 10, "statistical, one bit of security more"),
            (2, 3, 40, 2, 20, "interpolation"),
            (12, 7, 172, 1, 15, "Gröbner 2, M / (t + 1) the smaller"),
            (12, 5, 212, 1, 17, "Gröbner 2, log2(p) / 2 the smaller"),
            (2, 3, 80, 13, 13, "Gröbner 3"),
        ];
        for (t, alpha, m, rp, rf, bound) in cases {
            assert!(
                is_secure(31, 30.3, t, alpha, m, rf, rp),
                "{bound}: R_F = {rf}"
            );
            assert!(
                !is_secure(31, 30.3, t, alpha, m, rf - 1, rp),
                "{bound}: R_F = {}",
                rf - 1
            );
        }
        // The eprint 2023/537 bound alone (the five above hold either way): (t, α, M, R_F)
        // = (3, 5, 82, 6) needs R_P = 11 and (6, 3, 148, 8) needs R_P = 16.
        for (t, alpha, m, rf, rp) in [(3, 5, 82, 6, 11), (6, 3, 148, 8, 16)] {
            assert!(is_secure(31, 30.3, t, alpha, m, rf, rp), "t = {t}");
            assert!(!is_secure(31, 30.3, t, alpha, m, rf, rp - 1), "t = {t}");
        }
    }
}
