//! The soundness error of a configuration, term by term (notes pitfall 16).
//!
//! Every term is `ε = (failure degree)/|F|` from Schwartz–Zippel over GF(2^128), except the
//! commitment's, which its own parameter selector reports. The protocol's bits are
//! `−log2 Σ ε` over all terms (a union bound; the PCS enters with its round-by-round
//! level).

use core::fmt;
use flockwork_pcs::security::ConfiguredCommitment;

use flockwork_circuit::Gadget;
use flockwork_field::Field;
use flockwork_field_binary::Ghash128;
use flockwork_transcript::TranscriptScheme;

use crate::Flock;
use crate::pinned::PINNED_VARS;
use crate::skip::{SKIP_SIZE, SKIP_VARS};

/// One soundness term.
#[derive(Clone, Debug, PartialEq)]
pub struct SoundnessTerm {
    /// What fails.
    pub name: &'static str,
    /// `−log2 ε`.
    pub bits: f64,
}

/// All terms of a configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct SoundnessReport {
    /// The terms, in protocol order.
    pub terms: Vec<SoundnessTerm>,
}

impl SoundnessReport {
    /// `−log2 Σ ε`: the bits of the whole protocol.
    #[must_use]
    pub fn bits(&self) -> f64 {
        flockwork_core::soundness::union_bits(self.terms.iter().map(|t| t.bits))
    }
}

impl fmt::Display for SoundnessReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.terms {
            writeln!(f, "  {:<44} {:>7.2} bits", t.name, t.bits)?;
        }
        write!(
            f,
            "  {:<44} {:>7.2} bits",
            "total (union bound)",
            self.bits()
        )
    }
}

/// `−log2(count/|F|)`.
fn term(name: &'static str, count: usize) -> SoundnessTerm {
    SoundnessTerm {
        name,
        bits: f64::from(Ghash128::ORDER_BITS) - (count.max(1) as f64).log2(),
    }
}

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>, T: TranscriptScheme> Flock<G, P, T> {
    /// The soundness error of this setup, term by term.
    #[must_use]
    pub fn soundness(&self) -> SoundnessReport {
        let m = self.num_vars();
        let m0 = self.lowering.log_block();
        let k = self.log_instances;
        let mut terms = vec![
            // Σ_x eq(r, x)·e(s, x) vanishing for a nonzero error e: multilinear in the
            // m − 13 random coordinates (the pinned ones are an F2 basis, no loss).
            term(
                "zerocheck row point (random part)",
                m - SKIP_VARS - PINNED_VARS,
            ),
            // P^ab − P^c − Z_S·Q of degree ≤ 127 vanishing at ζ.
            term("zerocheck univariate skip (at ζ)", 2 * SKIP_SIZE - 1),
            // m − 6 rounds, round polynomial of degree 3 with the eq factor.
            term("zerocheck multilinear rounds", 3 * (m - SKIP_VARS)),
            // α batching â and b̂, β pinning z_vec[const], and z_vec[const] = 1 for a constant
            // column that is not all ones (multilinear in the k instance coordinates).
            term("lincheck batching and constant pin", 2 + k),
            term("lincheck sumcheck rounds", 2 * m0),
        ];
        if let Some(c) = self.chain() {
            terms.push(term("hash-chain claim", k + c.log_slot_words + 1));
        }
        if let Some((c, _)) = self.regions() {
            terms.push(term("region-chains claim", k + c.log_slot_words + 1));
        }
        if let Some(t) = self.merkle() {
            terms.push(term(
                "Merkle-tree claim",
                k + t.log_slot_words + 3 + t.fixed.len(),
            ));
        }
        if let Some(p) = self.public() {
            terms.push(term("public-IO claim", k + p.log_slot_words + 1));
        }
        terms.push(SoundnessTerm {
            name: "ring switching (mixing point r'')",
            bits: flockwork_pcs::ring_switch::soundness_bits(Ghash128::ORDER_BITS),
        });
        terms.push(SoundnessTerm {
            name: "PCS opening (round-by-round)",
            bits: self.pcs.inner().security_report().bits(),
        });
        SoundnessReport { terms }
    }
}
