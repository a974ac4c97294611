//! Arbitrary bytes as a ragged GKR proof of a fixed Poseidon2b statement
//! (`flockwork_fuzz::targets::gkr_ragged`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    flockwork_fuzz::targets::gkr_ragged(data);
});
