//! The sumcheck protocol for products of multilinear polynomials, optionally weighted by an
//! equality polynomial, with Gruen's eq-factoring.
//!
//! ## Statement
//!
//! For multilinear `P_0, …, P_{d−1}` in `n` variables and a claimed value `S`, either
//!
//! * plain: `S = Σ_{x ∈ {0,1}^n} Π_{j<d} P_j(x)`, or
//! * with eq: `S = Σ_{x ∈ {0,1}^n} eq(r, x) · Π_{j<d} P_j(x)` for a public point `r ∈ E^n`
//!   (zerocheck, GKR layer and evaluation claims all take this shape).
//!
//! Variables are bound least significant first (see [`crate::multilinear`]); the challenges
//! `ρ_0, …, ρ_{n−1}` come from the transcript and the protocol reduces the statement to
//! `Π_j P_j(ρ) = c_n` (Thaler, *Proofs, Arguments, and Zero-Knowledge*, §4.1).
//!
//! ## Rounds with eq-factoring (Gruen, eprint 2024/108, §3)
//!
//! Write `r_{>i} = (r_{i+1}, …, r_{n−1})`. In round `i` the prover's inner polynomial is
//!
//! ```text
//! G_i(X) = Σ_{x' ∈ {0,1}^{n−i−1}} eq(r_{>i}, x') · Π_j P_j(ρ_0, …, ρ_{i−1}, X, x')
//! ```
//!
//! (without `eq(r_{>i}, ·)` in the plain case). The classical round polynomial is
//! `eq(r_{<i}, ρ_{<i}) · eq(r_i, X) · G_i(X)`; the prover omits both eq factors, so `G_i` has
//! degree `d` instead of `d + 1`. The verifier keeps a running claim **without the eq prefix**:
//!
//! * `c_0 = S`;
//! * round `i` must satisfy `c_i = (1 − r_i)·G_i(0) + r_i·G_i(1)` (plain: `c_i = G_i(0) + G_i(1)`),
//!   so the verifier **recovers** `G_i(0) = (c_i − r_i·G_i(1)) / (1 − r_i)` instead of receiving
//!   it, and rejects with [`VerifyError::DegenerateEqPoint`] if `1 − r_i = 0`;
//! * `c_{i+1} = G_i(ρ_i)`, which by definition equals
//!   `Σ_{x'} eq(r_{>i}, x') Π_j P_j(ρ_{≤i}, x')`.
//!
//! After `n` rounds `c_n = Π_j P_j(ρ)`: no eq factor is left over, so the caller checks the
//! final evaluations against `c_n` directly ([`SumcheckClaim::check_evals`]).
//!
//! ## Messages
//!
//! A round message is `d` elements of `E`, sent with `send_field` under the label
//! `"sumcheck/round"` and followed by the challenge `ρ_i` squeezed under
//! `"sumcheck/challenge"`. With nodes `x_k = E::from_index(k)` (distinct in every
//! characteristic; see [`crate::univariate`]):
//!
//! * `d = 1`: `[G(x_1)]` (so `G` is the line through `G(0)` and `G(1)`);
//! * `d ≥ 2`: `[G(x_1), …, G(x_{d−1}), G(∞)]`, where `G(∞)` is the leading coefficient; the
//!   verifier interpolates `G` from `G(x_0..x_{d−1})` and `G(∞)`.
//!
//! `G(1)` is always sent, so the recovery works in characteristic two (where
//! `G(0) + G(1)` says nothing about `G(0)` when `G(1) = G(0) + G(∞)`). The prover obtains
//! `G(∞)` as `Σ eq · Π_j (P_j(1, x') − P_j(0, x'))`, the product of the slopes.
//!
//! Before round 0 both sides absorb the statement: `u64le(n) ‖ u64le(d) ‖ [has_eq]` under
//! `"sumcheck/statement"` and the claim under `"sumcheck/claim"`. The eq point is **not**
//! absorbed: callers either squeeze it from the same transcript or absorb it themselves.
//!
//! ## Prover cost
//!
//! Round `i` touches each of the `d·2^(n−i)` table entries once and evaluates `d` products per
//! hypercube pair; the eq weights come from a [`SplitEq`](crate::eq::SplitEq) (Dao–Thaler,
//! eprint 2024/1210): an inner sum over the low eq table, one outer multiplication per block.
//! With challenges in an extension `E ⊋ F`, round 0 multiplies in `F` and scales by `E`
//! weights; the first bind lifts the tables to `E`. Two factors in `E` go through
//! [`product`], the slice kernel that every two-table sumcheck of flockwork runs on. Rounds
//! run on rayon with the `parallel` feature; the verifier is scalar and sequential.

pub mod product;
mod prover;
mod verifier;

pub use prover::{SumcheckOutput, SumcheckProver, prove};
pub use verifier::{SumcheckClaim, verify};

use flockwork_field::Field;
use flockwork_transcript::Transcript;

use crate::VerifyError;
use crate::univariate::UnivariatePoly;

/// Label of the round messages.
pub const LABEL_ROUND: &str = "sumcheck/round";
/// Label of the round challenges.
pub const LABEL_CHALLENGE: &str = "sumcheck/challenge";
/// Label of the final evaluations ([`SumcheckOutput::send_final_evals`]).
pub const LABEL_FINAL_EVALS: &str = "sumcheck/final-evals";
const LABEL_STATEMENT: &str = "sumcheck/statement";
const LABEL_CLAIM: &str = "sumcheck/claim";

/// Bits of soundness of one sumcheck run: `−log2` of the probability that a false claim
/// survives all rounds.
///
/// Round `i` fails only if the prover's false round polynomial agrees with the true one at the
/// random `ρ_i`; both have degree at most `d + 1` with the eq factor (`d` without), so by
/// Schwartz–Zippel this happens with probability `≤ deg/|E|`. A union bound over the `n`
/// rounds gives `ε ≤ n·deg/|E|` (Thaler, *Proofs, Arguments, and Zero-Knowledge*, §4.1), and
/// `|E| ≥ 2^order_bits` with `order_bits = E::ORDER_BITS`. The result is rounded down:
/// `order_bits − ⌈log2(n·deg)⌉` (and `order_bits` for zero rounds).
#[must_use]
pub fn soundness_bits(num_vars: usize, degree: usize, has_eq: bool, order_bits: u32) -> u32 {
    let failures = (num_vars * (degree + usize::from(has_eq))).max(1);
    order_bits.saturating_sub(failures.next_power_of_two().trailing_zeros())
}

/// Absorbs the public statement (both sides, before round 0).
///
/// Public for specialised provers that speak this module's message format (a field-specific
/// round engine, another variable order) and are checked by [`verify`]: they absorb the
/// statement with this function, then per round send the message under [`LABEL_ROUND`] and
/// squeeze the challenge under [`LABEL_CHALLENGE`].
pub fn absorb_statement<E: Field, T: Transcript>(
    transcript: &mut T,
    num_vars: usize,
    degree: usize,
    has_eq: bool,
    claim: E,
) {
    let mut statement = [0u8; 17];
    statement[..8].copy_from_slice(&(num_vars as u64).to_le_bytes());
    statement[8..16].copy_from_slice(&(degree as u64).to_le_bytes());
    statement[16] = u8::from(has_eq);
    transcript.public_bytes(LABEL_STATEMENT, &statement);
    transcript.public_field(LABEL_CLAIM, &[claim]);
}

/// Reconstructs the inner round polynomial `G_i` (degree `degree`) from the running claim
/// `c_i`, the eq coordinate `r_i` (`None` for the plain sumcheck) and the round message (see
/// the [module docs](self) for the layout).
///
/// Reusable by provers and verifiers of composite protocols that speak the same message
/// format.
///
/// # Errors
/// [`VerifyError::MessageLength`] if `message.len() != degree` or `degree == 0`;
/// [`VerifyError::DegenerateEqPoint`] if `1 − r_i = 0`.
pub fn decode_round_message<E: Field>(
    round: usize,
    claim: E,
    eq_coord: Option<E>,
    degree: usize,
    message: &[E],
) -> Result<UnivariatePoly<E>, VerifyError> {
    let (&at_one, rest) = message
        .split_first()
        .filter(|_| message.len() == degree)
        .ok_or(VerifyError::MessageLength {
            round,
            expected: degree,
            got: message.len(),
        })?;
    let at_zero = match eq_coord {
        None => claim - at_one,
        Some(r) => {
            let inverse = (E::ONE - r)
                .inverse()
                .ok_or(VerifyError::DegenerateEqPoint { round })?;
            (claim - r * at_one) * inverse
        }
    };
    Ok(match rest.split_last() {
        None => UnivariatePoly::interpolate(&[at_zero, at_one]),
        Some((&at_infinity, middle)) => {
            let mut finite = alloc::vec![at_zero, at_one];
            finite.extend_from_slice(middle);
            UnivariatePoly::interpolate_with_infinity(&finite, at_infinity)
        }
    })
}

#[cfg(test)]
mod soundness_tests {
    use super::soundness_bits;

    #[test]
    fn hand_computed_soundness() {
        // 20 rounds of degree 3 + eq over GF(2^128): 128 - ceil(log2 80) = 121.
        assert_eq!(soundness_bits(20, 3, true, 128), 121);
        // 16 rounds of degree 2 without eq over a 63-bit field: 63 - 5 = 58.
        assert_eq!(soundness_bits(16, 2, false, 63), 58);
        assert_eq!(soundness_bits(0, 3, true, 128), 128);
    }
}
