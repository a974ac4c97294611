//! Arbitrary bytes as a proof file, seeded with a Keccak-f GKR (Boolean layers) file
//! (`flockwork_fuzz::targets::proof_file`, seed `proof_file_boolean_gkr_seed`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    flockwork_fuzz::targets::proof_file(data);
});
