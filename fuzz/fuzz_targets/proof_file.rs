//! Arbitrary bytes as the proof of a fixed honest statement (`flockwork_fuzz::targets::proof_file`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    flockwork_fuzz::targets::proof_file(data);
});
