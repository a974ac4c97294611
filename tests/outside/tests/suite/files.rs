//! SHA-1's compression in proof files, from its registration line and its input's codec line
//! alone: every batch-R1CS batcher's proof of public IO, a chain's and a committed
//! statement's, saved as a file (system 4) and checked by `proof_file::verify` in this
//! binary; a changed byte anywhere in the file is refused; another relation, another batcher
//! and a relation flockwork does not ship are refused by name.

use crate::inputs;
use flockwork::engines::{Choices, System, batchers_for};
use flockwork::proof_file::{
    ProofFile, ProofFileError, relation_digest, save, verify, verify_with,
};
use flockwork_core::relation::{Batcher, IoKind, Statement};
use flockwork_outside::{IV, Sha1Compress, Sha1Input};

fn batch_r1cs() -> Choices {
    Choices {
        systems: vec![System::BatchR1cs],
        ..Choices::default()
    }
}

/// The file of `batcher`'s proof of `statement` about `inputs` (listed with [`batch_r1cs`]).
fn saved(
    batcher: &dyn Batcher<Sha1Compress>,
    inputs: &[Sha1Input],
    statement: &Statement<Sha1Compress>,
) -> Vec<u8> {
    let proof = batcher.prove(inputs, statement).unwrap();
    save(&Sha1Compress, batcher, &batch_r1cs(), statement, proof)
}

/// `inputs` chained from the IV: each input's state the previous output.
fn chained(n: usize) -> Vec<Sha1Input> {
    let mut x = inputs(n, 0xc4a1);
    let mut state = IV;
    for input in &mut x {
        input.state = state;
        state = flockwork_outside::compress(&input.state, &input.block);
    }
    x
}

#[test]
fn every_batch_r1cs_batcher_saves_a_file_that_verifies() {
    let x = inputs(3, 0xf11e);
    let statement = Statement::public(&Sha1Compress, x.clone());
    let choices = batch_r1cs();
    let batchers = batchers_for(&Sha1Compress, 3, &choices);
    assert_eq!(batchers.len(), 9);
    for b in &batchers {
        let bytes = saved(b.as_ref(), &x, &statement);
        verify(&Sha1Compress, &bytes).unwrap_or_else(|e| panic!("{}: {e}", b.name()));
        verify_with(&Sha1Compress, b.as_ref(), &bytes).unwrap();
        let ProofFile::Relation(file) = ProofFile::from_bytes(&bytes).unwrap() else {
            panic!("a relation file")
        };
        assert_eq!(file.relation, "sha1-compress");
        assert_eq!(file.batcher, b.name());
        assert_eq!(file.kind, IoKind::Public);
        assert_eq!(
            format!("{:?}", file.statement(&Sha1Compress).unwrap()),
            format!("{statement:?}")
        );
        // The other batchers are not this file's.
        for other in batchers.iter().filter(|o| o.name() != b.name()) {
            assert!(verify_with(&Sha1Compress, other.as_ref(), &bytes).is_err());
        }
    }
}

#[test]
fn chains_and_committed_statements_round_trip() {
    let choices = batch_r1cs();
    let x = chained(4);
    let chain = Statement::chain(&Sha1Compress, &x).unwrap();
    let ragged = batchers_for(&Sha1Compress, 4, &choices)
        .into_iter()
        .find(|b| b.name().starts_with("batch-R1CS ragged / fri"))
        .unwrap();
    let bytes = saved(ragged.as_ref(), &x, &chain);
    verify(&Sha1Compress, &bytes).unwrap();
    let committed = Statement::committed(4, ragged.commit(&x).unwrap());
    let bytes = saved(ragged.as_ref(), &x, &committed);
    verify(&Sha1Compress, &bytes).unwrap();
}

#[test]
fn every_changed_byte_is_refused() {
    let x = inputs(2, 0xbad);
    let statement = Statement::public(&Sha1Compress, x.clone());
    let choices = batch_r1cs();
    let b = batchers_for(&Sha1Compress, 2, &choices)
        .into_iter()
        .find(|b| b.name().starts_with("batch-R1CS ragged / ligerito"))
        .unwrap();
    let bytes = saved(b.as_ref(), &x, &statement);
    verify(&Sha1Compress, &bytes).unwrap();
    // Every byte of the header and the statement, and proof bytes spread over the proof.
    let ProofFile::Relation(file) = ProofFile::from_bytes(&bytes).unwrap() else {
        panic!("a relation file")
    };
    let proof_start = bytes.len() - file.proof.len();
    let positions = (0..proof_start).chain((proof_start..bytes.len()).step_by(97));
    for at in positions {
        let mut changed = bytes.clone();
        changed[at] ^= 0x10;
        assert!(
            verify(&Sha1Compress, &changed).is_err(),
            "byte {at} of {} changed",
            bytes.len()
        );
    }
    assert!(verify(&Sha1Compress, &bytes[..bytes.len() - 1]).is_err());
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        verify(&Sha1Compress, &longer),
        Err(ProofFileError::TrailingBytes(1))
    ));
}

#[test]
fn a_file_names_its_relation_and_batcher() {
    let x = inputs(2, 7);
    let statement = Statement::public(&Sha1Compress, x.clone());
    let choices = batch_r1cs();
    let b = &batchers_for(&Sha1Compress, 2, &choices)[0];
    let bytes = saved(b.as_ref(), &x, &statement);
    let ProofFile::Relation(file) = ProofFile::from_bytes(&bytes).unwrap() else {
        panic!("a relation file")
    };
    assert_eq!(file.digest, relation_digest(&Sha1Compress));
    // Another digest (another version of the relation) is refused by name.
    let mut other = file.clone();
    other.digest[0] ^= 1;
    let err = other.verify(&Sha1Compress).unwrap_err().to_string();
    assert!(err.contains("digest"), "{err}");
    // A batcher the listing does not have.
    let mut unknown = file.clone();
    unknown.batcher = "batch-R1CS sideways / fri / sha256".into();
    let err = unknown.verify(&Sha1Compress).unwrap_err().to_string();
    assert!(err.contains("lists no batcher"), "{err}");
    // flockwork itself does not ship SHA-1: its registry refuses the file by name.
    let err = ProofFile::Relation(file).verify().unwrap_err().to_string();
    assert!(err.contains("ships no relation \"sha1-compress\""), "{err}");
    // Another relation's file is refused before anything is set up.
    let keccak = flockwork::boolean::KeccakF1600::new();
    let k = flockwork::engines::batchers_for(&keccak, 1, &choices);
    let kx = vec![[3u64; 25]];
    let ks = Statement::public(&keccak, kx.clone());
    let kbytes = save(
        &keccak,
        k[0].as_ref(),
        &choices,
        &ks,
        k[0].prove(&kx, &ks).unwrap(),
    );
    ProofFile::from_bytes(&kbytes).unwrap().verify().unwrap();
    let err = verify(&Sha1Compress, &kbytes).unwrap_err().to_string();
    assert!(err.contains("not \"sha1-compress\""), "{err}");
}

#[test]
fn a_hostile_count_is_refused_before_the_setup() {
    // A file claiming 2^24 committed instances with a proof of a few bytes: parsed, then
    // refused by the batcher without a proof-sized allocation.
    let x = inputs(2, 1);
    let statement = Statement::public(&Sha1Compress, x.clone());
    let choices = batch_r1cs();
    let b = &batchers_for(&Sha1Compress, 2, &choices)[0];
    let bytes = saved(b.as_ref(), &x, &statement);
    let ProofFile::Relation(mut file) = ProofFile::from_bytes(&bytes).unwrap() else {
        panic!("a relation file")
    };
    file.kind = IoKind::Committed;
    file.count = 1 << 24;
    file.statement = vec![0; 40];
    file.proof = vec![0; 8];
    let hostile = ProofFile::Relation(file).to_bytes();
    assert!(hostile.len() < 200, "{}", hostile.len());
    assert!(verify(&Sha1Compress, &hostile).is_err());
    // A count past 2^24 is a header error.
    let ProofFile::Relation(mut file) = ProofFile::from_bytes(&bytes).unwrap() else {
        panic!("a relation file")
    };
    file.count = (1 << 24) + 1;
    let mut too_many = ProofFile::Relation(file).to_bytes();
    assert!(matches!(
        ProofFile::from_bytes(&too_many),
        Err(ProofFileError::Header(_))
    ));
    too_many.truncate(10);
    assert!(ProofFile::from_bytes(&too_many).is_err());
}
