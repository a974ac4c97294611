//! The GKR verifier of one walk: scalar, sequential, and panic-free on any proof bytes.
//!
//! Per layer `l = L, …, 1`: squeeze `α`, fold the claims into
//! `claim = Σ_{a,i} α^(t·a+i+1) v_{a,i}` and the weights into `cw_a = M_l^T w_a`; for
//! `k < W` read `(c_0, c_2, …, c_D)`, restore `c_1 = claim − 2c_0 − Σ_{k≥2} c_k`, squeeze
//! `ρ_k` and set `claim = p(ρ_k)`; read `u_a` (`t` values per region) and check
//!
//! ```text
//! claim = Σ_a eq(z_a, ρ_{<w_a}) · Π_{j=w_a}^{W−1} (1 − ρ_j) · Σ_j cw_{a,j} T_{l,j}(u_a).
//! ```
//!
//! The next claims are `(ρ_{<w_a}, u_a)`. Every read has a length fixed by the statement and
//! the relation (never by proof bytes), and the transcript checks it against the bytes left
//! before allocating. Work: `O(L · (W·D + A·(t² + w_a)))` field operations, independent of
//! the number of rows.

use flockwork_core::layered::LayeredRelation;
use flockwork_field::ExtensionField;
use flockwork_transcript::VerifierTranscript;

use crate::GkrError;
use crate::walk::{
    LABEL_ALPHA, LABEL_CHALLENGE, LABEL_LAYER_VALUES, LABEL_ROUND, RegionClaim, eq_point, eq1,
    fold_layer, horner, restore_round_poly,
};

/// Verifies one walk for the output claims `claims` (one per region; region `a` has
/// `claims[a].point.len()` variables) against the proof in `transcript` (which must already
/// hold the statement), and returns the terminal claims on the committed layer `S_0`; the
/// caller must check them against the commitment.
///
/// # Errors
/// [`GkrError::Statement`] if a claim has the wrong number of values, transcript errors for
/// a malformed proof, [`GkrError::LayerCheck`] for a false one.
pub fn verify_walk<R, E, T>(
    relation: &R,
    claims: Vec<RegionClaim<E>>,
    transcript: &mut T,
) -> Result<Vec<RegionClaim<E>>, GkrError>
where
    R: LayeredRelation + ?Sized,
    E: ExtensionField<R::Base>,
    T: VerifierTranscript,
{
    let t = relation.lanes();
    if t == 0 || claims.iter().any(|c| c.values.len() != t) {
        return Err(GkrError::Statement(
            "claim values per region differ from the lanes",
        ));
    }
    let max_width = claims.iter().map(|c| c.point.len()).max().unwrap_or(0);
    let mut claims = claims;
    // Below the first layer every point is a prefix of the previous layer's challenges, so
    // `eq(z_a, ρ_{<w_a})` is a prefix product shared by all regions.
    let mut previous: Option<Vec<E>> = None;
    for layer in (1..=relation.num_layers()).rev() {
        let d = relation.layer_degree(layer);
        let alpha: E = transcript.challenge(LABEL_ALPHA);
        let (folded, mut claim) = fold_layer(relation, layer, alpha, &claims);
        let mut rho = Vec::with_capacity(max_width);
        for _ in 0..max_width {
            let message = transcript.recv_field::<E>(LABEL_ROUND, d + 1)?;
            let poly = restore_round_poly(claim, &message);
            let r: E = transcript.challenge(LABEL_CHALLENGE);
            claim = horner(&poly, r);
            rho.push(r);
        }
        let values = transcript.recv_field::<E>(LABEL_LAYER_VALUES, t * claims.len())?;
        // eq_prefix[w] = eq(ρ'_{<w}, ρ_{<w}) (ρ' = previous challenges), chi_suffix[w] = χ
        // over the coordinates w..W.
        let eq_prefix: Option<Vec<E>> = previous.as_ref().map(|prev| {
            let mut out = Vec::with_capacity(max_width + 1);
            let mut acc = E::ONE;
            out.push(acc);
            for (&z, &r) in prev.iter().zip(&rho) {
                acc *= eq1(z, r);
                out.push(acc);
            }
            out
        });
        let mut chi_suffix = vec![E::ONE; max_width + 1];
        for k in (0..max_width).rev() {
            chi_suffix[k] = chi_suffix[k + 1] * (E::ONE - rho[k]);
        }
        let mut expected = E::ZERO;
        let mut next = Vec::with_capacity(claims.len());
        for ((c, cw), u) in claims.iter().zip(&folded).zip(values.chunks_exact(t)) {
            let w = c.point.len();
            let eq = match &eq_prefix {
                Some(p) => p[w],
                None => eq_point(&c.point, &rho[..w]),
            };
            expected += eq * chi_suffix[w] * relation.layer_term(layer, cw, u);
            next.push(RegionClaim {
                point: rho[..w].to_vec(),
                values: u.to_vec(),
            });
        }
        if expected != claim {
            return Err(GkrError::LayerCheck { layer });
        }
        claims = next;
        previous = Some(rho);
    }
    Ok(claims)
}
