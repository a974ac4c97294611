//! The verifier: parses the header, replays the transcript, checks every step.

use flockwork_circuit::Gadget;
use flockwork_core::PolynomialCommitment;
use flockwork_field_binary::Ghash128;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_transcript::{TranscriptScheme, VerifierTranscript};

use crate::prover::{absorb_statement, opening_claims};
use crate::skip::SKIP_VARS;
use crate::{
    Flock, FlockError, HEADER_LEN, PROOF_MAGIC, PROOF_VERSION, PROTOCOL, RETIRED_VERSIONS,
    Statement, lincheck, zerocheck,
};

/// Checks the framing of a batch-R1CS proof that needs no setup — its length covers the
/// header, the magic, the version (a retired one named) — and splits it into the header
/// (magic, version, setup digest) and the transcript. [`Flock::verify`] starts with it; a
/// caller that builds the setup from a file's header calls it first, so that bytes which
/// are not a proof cost nothing the header sizes.
///
/// # Errors
/// [`FlockError::Truncated`], [`FlockError::BadMagic`], [`FlockError::Retired`] or
/// [`FlockError::Version`].
pub fn check_proof_header(proof: &[u8]) -> Result<(&[u8], &[u8]), FlockError> {
    let Some((header, body)) = proof.split_at_checked(HEADER_LEN) else {
        return Err(FlockError::Truncated);
    };
    if header[..4] != PROOF_MAGIC {
        return Err(FlockError::BadMagic);
    }
    let version = u16::from_le_bytes([header[4], header[5]]);
    if let Some(&(version, commit)) = RETIRED_VERSIONS.iter().find(|(v, _)| *v == version) {
        return Err(FlockError::Retired { version, commit });
    }
    if version != PROOF_VERSION {
        return Err(FlockError::Version(version));
    }
    Ok((header, body))
}

impl<G: Gadget, P: ConfiguredCommitment<Ghash128>, T: TranscriptScheme> Flock<G, P, T> {
    /// Verifies `proof` for `statement`.
    ///
    /// The verifier's work is independent of the batch size except for the PCS (logarithmic)
    /// and the `O(m)` claim evaluations; the lincheck walk costs one pass over the circuit.
    ///
    /// # Errors
    /// A [`FlockError`] naming the failed step; never panics, whatever the bytes.
    pub fn verify(&self, statement: &Statement, proof: &[u8]) -> Result<(), FlockError> {
        self.verify_with_commitment(statement, proof).map(drop)
    }

    /// Verifies `proof` for [`Statement::Batch`] made with the instances that `commitment`
    /// ([`Flock::commit`]) binds: a committed-IO statement, the commitment fixed before the
    /// proof. The proof's own commitment must be these bytes.
    ///
    /// # Errors
    /// [`FlockError::Commitment`] if the proof carries another commitment, and every error of
    /// [`Flock::verify`]; never panics, whatever the bytes.
    pub fn verify_committed(&self, commitment: &[u8], proof: &[u8]) -> Result<(), FlockError> {
        let carried = self.verify_with_commitment(&Statement::Batch, proof)?;
        if carried.as_ref() == commitment {
            Ok(())
        } else {
            Err(FlockError::Commitment)
        }
    }

    /// [`Flock::verify`], returning the commitment the proof carries.
    fn verify_with_commitment(
        &self,
        statement: &Statement,
        proof: &[u8],
    ) -> Result<P::Commitment, FlockError> {
        let (header, body) = check_proof_header(proof)?;
        self.check_statement(statement)
            .map_err(FlockError::Statement)?;
        if header[6..] != self.setup_digest() {
            return Err(FlockError::Setup);
        }
        let mut t = T::verifier(PROTOCOL, &self.instance_bytes(), body);
        absorb_statement(statement, &mut t);
        let commitment = self
            .pcs
            .recv_commitment("flock/commitment", &mut t)
            .map_err(FlockError::Opening)?;
        let zc = zerocheck::verify(self.num_vars() - SKIP_VARS, &mut t)
            .map_err(FlockError::Zerocheck)?;
        let lc = lincheck::verify(&self.lowering, &zc, self.instances, &mut t)
            .map_err(FlockError::Lincheck)?;
        let packed_claims = self.io_claims(statement, &mut t);
        let claims = opening_claims(&zc, &lc);
        self.pcs
            .verify_with_packed(&commitment, &claims, &packed_claims, &mut t)
            .map_err(FlockError::Opening)?;
        match t.remaining() {
            0 => Ok(commitment),
            n => Err(FlockError::TrailingBytes(n)),
        }
    }
}
