//! Arbitrary bytes as a proof file, seeded with a relation file (system 4: Poseidon2 over
//! BN254 by the ragged GKR batcher) (`flockwork_fuzz::targets::proof_file`, seed
//! `proof_file_relation_seed`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    flockwork_fuzz::targets::proof_file(data);
});
