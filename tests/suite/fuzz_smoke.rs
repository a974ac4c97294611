//! A short, deterministic, stable-toolchain run of the verifier fuzz targets
//! (`fuzz/src/targets.rs`, the bodies `cargo fuzz` drives on nightly): each honest seed is
//! accepted; seeded random byte changes, truncations, extensions and splices are rejected
//! without a panic; random garbage never panics. Long runs: see `fuzz/README.md`.

use crate::targets;

use rand::{Rng, SeedableRng};

/// Mutated inputs per target (each one verification).
const RUNS: usize = 1500;

#[test]
fn every_fuzz_target_survives_a_smoke_run() {
    for (name, seed, target) in targets::TARGETS {
        let honest = seed();
        assert!(target(&honest), "{name}: the honest seed is rejected");
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(0x66757a7a);
        let mut rejected = 0;
        for run in 0..RUNS {
            let mut input = honest.clone();
            match run % 4 {
                0 => {
                    let i = rng.random_range(0..input.len());
                    input[i] ^= rng.random_range(1..=255u8);
                }
                1 => input.truncate(rng.random_range(0..input.len())),
                2 => input.extend((0..rng.random_range(1..64)).map(|_| rng.random::<u8>())),
                _ => {
                    // Splice: a random run of bytes copied over another position.
                    let len = rng.random_range(1..=input.len().min(64));
                    let from = rng.random_range(0..=input.len() - len);
                    let to = rng.random_range(0..=input.len() - len);
                    let chunk = input[from..from + len].to_vec();
                    input[to..to + len].copy_from_slice(&chunk);
                    if input == honest {
                        continue;
                    }
                }
            }
            let accepted = target(&input);
            // A proof file's header has fields the verifier may not need (a target that
            // selects the same parameters); every other target must reject every change.
            assert!(
                !accepted || name == "proof_file",
                "{name}: accepted a mutated proof (run {run})"
            );
            rejected += usize::from(!accepted);
        }
        for len in [0usize, 1, 7, 64, 1000] {
            let garbage: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            assert!(!target(&garbage), "{name}: accepted {len} random bytes");
        }
        println!("fuzz smoke {name}: {RUNS} mutated inputs, {rejected} rejected, no panic");
    }
}
