//! Batch-R1CS under each transcript scheme: SHA-256 (the default), BLAKE3 and the Poseidon2b
//! duplex sponge all prove and verify; the setup digest names the transcript, so a proof made
//! under one is refused under another with `FlockError::Setup` before anything else is read;
//! tampered bodies are rejected under every scheme.

use flockwork_boolean::Blake3Compress;
use flockwork_circuit::{Gadget, SlotKind};
use flockwork_pcs::Commitment;
use flockwork_poseidon2b::Poseidon2bSponge;
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Statement};
use flockwork_transcript::{Blake3, Sha256, TranscriptKind, TranscriptScheme};

/// Two instances: the smallest batch of the pinned proof's gadget.
const LOG_K: usize = 1;

/// Header: magic, version, setup digest.
const HEADER_LEN: usize = 6 + 32;

fn setup<T: TranscriptScheme>() -> Flock<Blake3Compress, Commitment, T> {
    Flock::new(Blake3Compress, LOG_K, FlockConfig::default())
        .unwrap()
        .with_transcript::<T>()
}

fn inputs() -> Vec<u64> {
    let words = Blake3Compress.layout().vector_bits(SlotKind::Input) / 64;
    (0..(words << LOG_K) as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x7472)
        .collect()
}

/// One setup per shipped scheme, chosen at run time.
struct Setups {
    sha256: Flock<Blake3Compress, Commitment, Sha256>,
    blake3: Flock<Blake3Compress, Commitment, Blake3>,
    poseidon2b: Flock<Blake3Compress, Commitment, Poseidon2bSponge>,
}

impl Setups {
    fn new() -> Self {
        Self {
            sha256: setup(),
            blake3: setup(),
            poseidon2b: setup(),
        }
    }

    fn prove(&self, kind: TranscriptKind, inputs: &[u64]) -> Vec<u8> {
        let proof = match kind {
            TranscriptKind::Sha256 => self.sha256.prove(inputs, &Statement::Batch),
            TranscriptKind::Blake3 => self.blake3.prove(inputs, &Statement::Batch),
            TranscriptKind::Poseidon2b => self.poseidon2b.prove(inputs, &Statement::Batch),
        };
        proof.unwrap().0.into_bytes()
    }

    fn verify(&self, kind: TranscriptKind, proof: &[u8]) -> Result<(), FlockError> {
        match kind {
            TranscriptKind::Sha256 => self.sha256.verify(&Statement::Batch, proof),
            TranscriptKind::Blake3 => self.blake3.verify(&Statement::Batch, proof),
            TranscriptKind::Poseidon2b => self.poseidon2b.verify(&Statement::Batch, proof),
        }
    }

    fn setup_digest(&self, kind: TranscriptKind) -> [u8; 32] {
        match kind {
            TranscriptKind::Sha256 => self.sha256.setup_digest(),
            TranscriptKind::Blake3 => self.blake3.setup_digest(),
            TranscriptKind::Poseidon2b => self.poseidon2b.setup_digest(),
        }
    }
}

#[test]
fn every_transcript_proves_and_refuses_the_others_with_setup() {
    let setups = Setups::new();
    let inputs = inputs();
    let proofs = TranscriptKind::ALL.map(|kind| setups.prove(kind, &inputs));
    // The default transcript is SHA-256.
    let default = Flock::new(Blake3Compress, LOG_K, FlockConfig::default()).unwrap();
    assert_eq!(
        default.setup_digest(),
        setups.setup_digest(TranscriptKind::Sha256)
    );
    assert_eq!(
        default
            .prove(&inputs, &Statement::Batch)
            .unwrap()
            .0
            .as_bytes(),
        &proofs[0][..]
    );
    for (made, proof) in TranscriptKind::ALL.into_iter().zip(&proofs) {
        assert_eq!(proof[6..HEADER_LEN], setups.setup_digest(made));
        for checker in TranscriptKind::ALL {
            let expected = if made == checker {
                Ok(())
            } else {
                Err(FlockError::Setup)
            };
            assert_eq!(
                setups.verify(checker, proof),
                expected,
                "made with {made}, verified with {checker}"
            );
        }
    }
    // The transcript changes the challenges, not the message sizes.
    assert_eq!(proofs[0].len(), proofs[1].len());
    assert_eq!(proofs[0].len(), proofs[2].len());
    assert_ne!(proofs[0][HEADER_LEN..], proofs[1][HEADER_LEN..]);
    assert_ne!(proofs[0][HEADER_LEN..], proofs[2][HEADER_LEN..]);
    assert_ne!(proofs[1][HEADER_LEN..], proofs[2][HEADER_LEN..]);
    // A body made under one transcript behind another's header fails in the protocol, not
    // at the setup check.
    let mut spliced = proofs[1].clone();
    spliced[..HEADER_LEN].copy_from_slice(&proofs[2][..HEADER_LEN]);
    let result = setups.verify(TranscriptKind::Poseidon2b, &spliced);
    assert!(
        result.is_err() && result != Err(FlockError::Setup),
        "{result:?}"
    );
}

#[test]
fn tampered_bodies_are_rejected_under_every_transcript() {
    let setups = Setups::new();
    let inputs = inputs();
    for kind in TranscriptKind::ALL {
        let proof = setups.prove(kind, &inputs);
        let body = proof.len() - HEADER_LEN;
        for offset in [0, 17, body / 3, body / 2, body - 1] {
            let mut bad = proof.clone();
            bad[HEADER_LEN + offset] ^= 0x10;
            let result = setups.verify(kind, &bad);
            assert!(
                result.is_err() && result != Err(FlockError::Setup),
                "{kind}: a flipped body byte at {offset} gave {result:?}"
            );
        }
        let mut longer = proof.clone();
        longer.push(0);
        assert_eq!(
            setups.verify(kind, &longer),
            Err(FlockError::TrailingBytes(1)),
            "{kind}"
        );
        assert!(setups.verify(kind, &proof[..proof.len() - 1]).is_err());
    }
}
