//! One value that is a commitment: [`Commitment`], the shipped GF(2^128) schemes behind one
//! enum, chosen at run time by [`PcsKind`] and sized by one constructor.
//!
//! | [`PcsKind`] | variant | parameters ([`Commitment::select_with`]) |
//! |---|---|---|
//! | `Ligerito` | [`Ligerito`] | [`LigeritoConfig::select`](crate::LigeritoConfig::select) with the profile's preset and regime |
//! | `Fri` | [`FriBinius`] | [`FriConfig::select`](crate::FriConfig::select) at rate ½ |
//! | `Blaze` | [`Blaze`] | [`BlazeConfig::select`](crate::BlazeConfig::select) with [`BlazeOptions::default`](crate::BlazeOptions::default) |
//!
//! Every variant hashes its Merkle trees with SHA-256. The enum implements
//! [`PolynomialCommitment`] and [`ConfiguredCommitment`] by delegation, so a protocol generic
//! over the commitment (batch-R1CS through ring-switching, GKR's layer-0 opening) takes it as
//! it takes any one scheme; each call matches once and then runs the scheme's monomorphised
//! code. Its commitments, proofs, [`ConfiguredCommitment::name`] and
//! [`ConfiguredCommitment::parameter_bytes`] are exactly the wrapped scheme's: a proof made
//! through the enum is byte for byte the proof the scheme makes alone.
//!
//! ## Sizing
//!
//! [`Commitment::select`] is the one place that turns (scheme, variables, target) into
//! parameters. A commitment is one term of the union bound of the protocol that opens it, so
//! its parameters reach [`HEADROOM_BITS`] above the target: the protocol's own terms, each far
//! above the target, leave the total at or above `target_bits`. Boolean polynomials
//! committed through [`RingSwitched`](crate::ring_switch::RingSwitched) are sized by their
//! own variable count with [`Commitment::for_bits`], which packs
//! [`PACKED_VARS`] of them into each GF(2^128) element.
//!
//! ## Adding a scheme
//!
//! A fourth scheme implements [`ConfiguredCommitment`] over [`Ghash128`] in its own module,
//! then gains a [`PcsKind`] value (its name and parse string), a [`Commitment`] variant and a
//! [`CommitmentData`] variant, one arm in [`Commitment::select_with`], one line in the
//! `delegate!` macro's match and one arm in `commit_with!` (and in the two matches on
//! prover data); every protocol and command that takes a [`Commitment`] then
//! offers it. BaseFold over prime fields ([`crate::BaseFold`]) is not a variant: its field
//! differs, and it stays a typed choice.

use core::fmt;
use core::str::FromStr;

use flockwork_core::{Claim, PolynomialCommitment, VerifyError};
use flockwork_field_binary::Ghash128;
use flockwork_transcript::{ProverTranscript, VerifierTranscript};

use crate::blaze::{BlazeProverData, ConfigError as BlazeConfigError};
use crate::fri::{FriConfigError, FriProverData};
use crate::ligerito::{ConfigError as LigeritoConfigError, LigeritoProverData};
use crate::ring_switch::PACKED_VARS;
use crate::security::{ConfiguredCommitment, SecurityReport};
use crate::{Blaze, FriBinius, Ligerito, Preset, Regime};

/// The Merkle hash of every [`Commitment`].
pub type MerkleHash = sha2::Sha256;

/// Bits above the target that [`Commitment::select`] asks of a commitment (see the
/// [module docs](self), "Sizing").
pub const HEADROOM_BITS: u32 = 1;

/// The shipped commitment schemes over GF(2^128), named at run time (command lines, proof
/// files, reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PcsKind {
    /// Ligerito (the default): Reed–Solomon levels and sumcheck, fast preset.
    #[default]
    Ligerito,
    /// FRI-Binius (BaseFold over the additive NTT), rate ½, unique decoding.
    Fri,
    /// Blaze-style: interleaved RAA code (rate ¼) at level 0, Ligerito's levels below.
    Blaze,
}

impl PcsKind {
    /// Every scheme.
    pub const ALL: [Self; 3] = [Self::Ligerito, Self::Fri, Self::Blaze];

    /// `"ligerito"`, `"fri"` or `"blaze"`: the scheme's [`ConfiguredCommitment::name`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ligerito => "ligerito",
            Self::Fri => "fri",
            Self::Blaze => "blaze",
        }
    }
}

impl fmt::Display for PcsKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PcsKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown commitment {s:?} (ligerito, fri or blaze)"))
    }
}

/// What [`Commitment::select_with`] takes besides the scheme, the size and the target:
/// Ligerito's schedule profile (the other schemes have one profile each).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Ligerito's preset.
    pub preset: Preset,
    /// The proximity regime of Ligerito's query counts.
    pub regime: Regime,
}

impl Default for Profile {
    /// The fast preset in the Johnson regime with the default slack.
    fn default() -> Self {
        Self {
            preset: Preset::Fast,
            regime: Regime::Johnson {
                eta: crate::ligerito::DEFAULT_ETA,
            },
        }
    }
}

/// Why [`Commitment::select`] found no parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum SelectError {
    /// A Boolean polynomial with fewer variables than one packed element holds.
    TooFewBits {
        /// The Boolean polynomial's variables.
        bit_vars: usize,
    },
    /// Ligerito's selector failed.
    Ligerito(LigeritoConfigError),
    /// FRI's selector failed.
    Fri(FriConfigError),
    /// Blaze's selector failed.
    Blaze(BlazeConfigError),
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewBits { bit_vars } => write!(
                f,
                "a Boolean polynomial in {bit_vars} variables is smaller than one packed element \
                 ({PACKED_VARS} variables)"
            ),
            Self::Ligerito(e) => write!(f, "ligerito: {e}"),
            Self::Fri(e) => write!(f, "fri: {e}"),
            Self::Blaze(e) => write!(f, "blaze: {e}"),
        }
    }
}

impl std::error::Error for SelectError {}

/// A shipped commitment over GF(2^128) with SHA-256 Merkle trees, its parameters selected
/// ([module docs](self)).
#[derive(Clone, Debug)]
pub enum Commitment {
    /// Ligerito.
    Ligerito(Ligerito<Ghash128, MerkleHash>),
    /// FRI-Binius.
    Fri(FriBinius<Ghash128, MerkleHash>),
    /// Blaze.
    Blaze(Blaze<Ghash128, MerkleHash>),
}

/// What a [`Commitment`] keeps from `commit` to `open`: the prover data of its scheme.
#[derive(Debug)]
pub enum CommitmentData {
    /// Ligerito's.
    Ligerito(LigeritoProverData<Ghash128, MerkleHash>),
    /// FRI-Binius's.
    Fri(FriProverData<Ghash128, MerkleHash>),
    /// Blaze's.
    Blaze(BlazeProverData<Ghash128, MerkleHash>),
}

/// Runs `$body` with `$p` bound to the scheme inside `$self`.
macro_rules! delegate {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            Commitment::Ligerito($p) => $body,
            Commitment::Fri($p) => $body,
            Commitment::Blaze($p) => $body,
        }
    };
}

/// Runs the commit call `$body` with `$p` bound to the scheme inside `$self` and wraps the
/// prover data in the matching [`CommitmentData`] variant.
macro_rules! commit_with {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            Commitment::Ligerito($p) => {
                let (c, d) = $body;
                (c, CommitmentData::Ligerito(d))
            }
            Commitment::Fri($p) => {
                let (c, d) = $body;
                (c, CommitmentData::Fri(d))
            }
            Commitment::Blaze($p) => {
                let (c, d) = $body;
                (c, CommitmentData::Blaze(d))
            }
        }
    };
}

impl Commitment {
    /// The commitment of `scheme` for polynomials over GF(2^128) in `num_vars` variables,
    /// reaching `target_bits` + [`HEADROOM_BITS`], with the default [`Profile`].
    ///
    /// # Errors
    /// [`SelectError`] with the scheme's reason if no schedule reaches the target at this
    /// size.
    pub fn select(scheme: PcsKind, num_vars: usize, target_bits: u32) -> Result<Self, SelectError> {
        Self::select_with(scheme, num_vars, target_bits, &Profile::default())
    }

    /// [`Commitment::select`] with Ligerito's profile given.
    ///
    /// # Errors
    /// As [`Commitment::select`].
    pub fn select_with(
        scheme: PcsKind,
        num_vars: usize,
        target_bits: u32,
        profile: &Profile,
    ) -> Result<Self, SelectError> {
        let bits = target_bits.saturating_add(HEADROOM_BITS);
        Ok(match scheme {
            PcsKind::Ligerito => Self::Ligerito(
                Ligerito::with_preset(num_vars, bits, profile.preset, profile.regime)
                    .map_err(SelectError::Ligerito)?,
            ),
            PcsKind::Fri => {
                Self::Fri(FriBinius::with_security(num_vars, bits, 1).map_err(SelectError::Fri)?)
            }
            PcsKind::Blaze => {
                Self::Blaze(Blaze::with_security(num_vars, bits).map_err(SelectError::Blaze)?)
            }
        })
    }

    /// The dense commitment that [`RingSwitched`](crate::ring_switch::RingSwitched) needs
    /// for Boolean polynomials in `bit_vars` variables (`bit_vars − PACKED_VARS` packed
    /// variables), as [`Commitment::select_with`].
    ///
    /// # Errors
    /// [`SelectError::TooFewBits`] below one packed element; otherwise as
    /// [`Commitment::select`].
    pub fn for_bits(
        scheme: PcsKind,
        bit_vars: usize,
        target_bits: u32,
        profile: &Profile,
    ) -> Result<Self, SelectError> {
        let packed = bit_vars
            .checked_sub(PACKED_VARS)
            .ok_or(SelectError::TooFewBits { bit_vars })?;
        Self::select_with(scheme, packed, target_bits, profile)
    }

    /// The scheme.
    #[must_use]
    pub fn kind(&self) -> PcsKind {
        match self {
            Self::Ligerito(_) => PcsKind::Ligerito,
            Self::Fri(_) => PcsKind::Fri,
            Self::Blaze(_) => PcsKind::Blaze,
        }
    }
}

impl From<Ligerito<Ghash128, MerkleHash>> for Commitment {
    fn from(pcs: Ligerito<Ghash128, MerkleHash>) -> Self {
        Self::Ligerito(pcs)
    }
}

impl From<FriBinius<Ghash128, MerkleHash>> for Commitment {
    fn from(pcs: FriBinius<Ghash128, MerkleHash>) -> Self {
        Self::Fri(pcs)
    }
}

impl From<Blaze<Ghash128, MerkleHash>> for Commitment {
    fn from(pcs: Blaze<Ghash128, MerkleHash>) -> Self {
        Self::Blaze(pcs)
    }
}

/// Prover data from another scheme than the one opening it: a caller's bug, as for any
/// scheme given another's data.
const WRONG_DATA: &str = "prover data committed by another scheme";

impl PolynomialCommitment<Ghash128> for Commitment {
    type Evals = [Ghash128];
    type Commitment = Vec<u8>;
    type ProverData = CommitmentData;

    fn num_vars(&self) -> usize {
        delegate!(self, p => p.num_vars())
    }

    fn commitment_len(&self) -> usize {
        delegate!(self, p => p.commitment_len())
    }

    fn commitment_from_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        delegate!(self, p => p.commitment_from_bytes(bytes))
    }

    fn commit(&self, evals: &[Ghash128]) -> (Vec<u8>, CommitmentData) {
        commit_with!(self, p => p.commit(evals))
    }

    fn commit_owned(&self, evals: Box<[Ghash128]>) -> (Vec<u8>, CommitmentData) {
        commit_with!(self, p => p.commit_owned(evals))
    }

    fn keeps_evals(&self) -> bool {
        delegate!(self, p => p.keeps_evals())
    }

    fn committed_evals<'a>(&self, data: &'a CommitmentData) -> Option<&'a [Ghash128]> {
        match (self, data) {
            (Self::Ligerito(p), CommitmentData::Ligerito(d)) => p.committed_evals(d),
            (Self::Fri(p), CommitmentData::Fri(d)) => p.committed_evals(d),
            (Self::Blaze(p), CommitmentData::Blaze(d)) => p.committed_evals(d),
            _ => None,
        }
    }

    /// # Panics
    /// As the scheme's `open`, and if `data` was committed by another scheme.
    fn open<T: ProverTranscript>(
        &self,
        data: &CommitmentData,
        claims: &[Claim<Ghash128>],
        transcript: &mut T,
    ) {
        match (self, data) {
            (Self::Ligerito(p), CommitmentData::Ligerito(d)) => p.open(d, claims, transcript),
            (Self::Fri(p), CommitmentData::Fri(d)) => p.open(d, claims, transcript),
            (Self::Blaze(p), CommitmentData::Blaze(d)) => p.open(d, claims, transcript),
            _ => panic!("{WRONG_DATA}"),
        }
    }

    fn verify<T: VerifierTranscript>(
        &self,
        commitment: &Vec<u8>,
        claims: &[Claim<Ghash128>],
        transcript: &mut T,
    ) -> Result<(), VerifyError> {
        delegate!(self, p => p.verify(commitment, claims, transcript))
    }

    fn send_commitment<T: ProverTranscript>(
        &self,
        label: &str,
        commitment: &Vec<u8>,
        transcript: &mut T,
    ) {
        delegate!(self, p => p.send_commitment(label, commitment, transcript));
    }

    fn recv_commitment<T: VerifierTranscript>(
        &self,
        label: &str,
        transcript: &mut T,
    ) -> Result<Vec<u8>, VerifyError> {
        delegate!(self, p => p.recv_commitment(label, transcript))
    }
}

impl ConfiguredCommitment<Ghash128> for Commitment {
    fn name(&self) -> &'static str {
        delegate!(self, p => p.name())
    }

    fn security_report(&self) -> SecurityReport {
        delegate!(self, p => p.security_report())
    }

    fn parameter_bytes(&self) -> Vec<u8> {
        delegate!(self, p => p.parameter_bytes())
    }

    fn codeword_expansion(&self) -> f64 {
        delegate!(self, p => p.codeword_expansion())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FriConfig;

    #[test]
    fn kinds_parse_and_name_their_scheme() {
        for kind in PcsKind::ALL {
            assert_eq!(kind.name().parse::<PcsKind>(), Ok(kind));
            assert_eq!(kind.to_string().to_uppercase().parse::<PcsKind>(), Ok(kind));
            let pcs = Commitment::select(kind, 10, 100).unwrap();
            assert_eq!(pcs.kind(), kind);
            assert_eq!(pcs.name(), kind.name());
        }
        assert!(
            "basefold"
                .parse::<PcsKind>()
                .unwrap_err()
                .contains("basefold")
        );
    }

    /// The enum answers with the wrapped scheme's parameters, selected one bit above the
    /// target, and reports what the scheme reports.
    #[test]
    fn selection_is_the_schemes_own_one_bit_above_the_target() {
        let l = Ligerito::<Ghash128, MerkleHash>::with_preset(
            12,
            101,
            Preset::Fast,
            Regime::Johnson {
                eta: crate::ligerito::DEFAULT_ETA,
            },
        )
        .unwrap();
        let f = FriBinius::<Ghash128, MerkleHash>::new(
            FriConfig::select(12, 101, 1, 128, 16, 32).unwrap(),
        )
        .unwrap();
        let b = Blaze::<Ghash128, MerkleHash>::with_security(12, 101).unwrap();
        let expected = [
            (
                PcsKind::Ligerito,
                l.parameter_bytes(),
                l.security_report().bits(),
            ),
            (
                PcsKind::Fri,
                f.parameter_bytes(),
                f.security_report().bits(),
            ),
            (
                PcsKind::Blaze,
                b.parameter_bytes(),
                b.security_report().bits(),
            ),
        ];
        for (kind, params, bits) in expected {
            let pcs = Commitment::select(kind, 12, 100).unwrap();
            assert_eq!(pcs.parameter_bytes(), params, "{kind}");
            assert_eq!(pcs.security_report().bits(), bits, "{kind}");
            assert!(pcs.security_report().bits() >= 101.0, "{kind}");
            assert_eq!(pcs.num_vars(), 12);
        }
        let packed = Commitment::for_bits(PcsKind::Fri, 19, 100, &Profile::default()).unwrap();
        assert_eq!(packed.num_vars(), 12);
        assert_eq!(
            Commitment::for_bits(PcsKind::Fri, 6, 100, &Profile::default()).unwrap_err(),
            SelectError::TooFewBits { bit_vars: 6 }
        );
    }

    /// Every scheme passes the conformance suite through the enum.
    #[test]
    fn every_variant_conforms() {
        for kind in PcsKind::ALL {
            let pcs = Commitment::select(kind, 8, 100).unwrap();
            let evals: Vec<Ghash128> = (0..256u128)
                .map(|i| Ghash128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i << 70)))
                .collect();
            crate::conformance::check_pcs(&pcs, evals.as_slice(), &evals, Some(4), true);
        }
    }

    #[test]
    #[should_panic(expected = "another scheme")]
    fn opening_another_schemes_data_panics() {
        let l = Commitment::select(PcsKind::Ligerito, 8, 100).unwrap();
        let f = Commitment::select(PcsKind::Fri, 8, 100).unwrap();
        let evals = vec![Ghash128::new(3); 256];
        let (_, data) = f.commit(&evals);
        let point = vec![Ghash128::new(5); 8];
        let claim = Claim::evaluation(point, Ghash128::new(3));
        let mut t = flockwork_transcript::Sha256ProverTranscript::new(
            flockwork_transcript::DomainSeparator::new("test", b""),
        );
        l.open(&data, &[claim], &mut t);
    }
}
