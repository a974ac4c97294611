//! Multi-buffer SHA-256 (`flockwork-sha256x`) against `sha2` one message at a time.
//!
//! Three Merkle-tree workloads, each hashed per iteration by every available backend and by
//! `sha2::Sha256` (SHA-NI when present) in a plain loop:
//!
//! * `leaves` — 2^12 leaves, prefix `0x00` + 1024-byte rows (1025 bytes, 17 blocks each);
//!   throughput in bytes;
//! * `nodes` — 2^14 internal nodes, prefix `0x01` + `left32 ‖ right32` (65 bytes, 2 blocks);
//!   throughput in hashes;
//! * `grind` — 2^14 proof-of-work candidates, the transcript's 47-byte prefix (tag and seed)
//!   + `u64le(nonce)` (55 bytes, 1 block); throughput in hashes.
//!
//! ```text
//! cargo bench --bench sha256x -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flockwork_sha256x::{Backend, sha256_prefixed_many_with};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// One workload: a prefix and `count` messages of `len` bytes.
struct Workload {
    name: &'static str,
    prefix: Vec<u8>,
    data: Vec<u8>,
    len: usize,
    bytes_throughput: bool,
}

impl Workload {
    fn messages(&self) -> Vec<&[u8]> {
        self.data.chunks_exact(self.len).collect()
    }
}

fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; n];
    StdRng::seed_from_u64(seed).fill_bytes(&mut bytes);
    bytes
}

fn workloads() -> Vec<Workload> {
    let nonces: Vec<u8> = (0..1u64 << 14).flat_map(u64::to_le_bytes).collect();
    vec![
        Workload {
            name: "leaves_1025B_x4096",
            prefix: vec![0x00],
            data: random_bytes(1024 << 12, 1),
            len: 1024,
            bytes_throughput: true,
        },
        Workload {
            name: "nodes_65B_x16384",
            prefix: vec![0x01],
            data: random_bytes(64 << 14, 2),
            len: 64,
            bytes_throughput: false,
        },
        Workload {
            name: "grind_55B_x16384",
            prefix: random_bytes(47, 3),
            data: nonces,
            len: 8,
            bytes_throughput: false,
        },
    ]
}

fn bench_sha256x(c: &mut Criterion) {
    for w in workloads() {
        let messages = w.messages();
        let mut out = vec![[0u8; 32]; messages.len()];
        let mut g = c.benchmark_group(format!("sha256x/{}", w.name));
        g.throughput(if w.bytes_throughput {
            Throughput::Bytes((messages.len() * (w.prefix.len() + w.len)) as u64)
        } else {
            Throughput::Elements(messages.len() as u64)
        });
        g.bench_function("sha2_one_at_a_time", |b| {
            b.iter(|| {
                for (msg, out) in messages.iter().zip(out.iter_mut()) {
                    let digest = Sha256::new()
                        .chain_update(&w.prefix)
                        .chain_update(msg)
                        .finalize();
                    out.copy_from_slice(&digest);
                }
                black_box(&mut out);
            })
        });
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            g.bench_function(backend.name(), |b| {
                b.iter(|| {
                    sha256_prefixed_many_with(backend, &w.prefix, black_box(&messages), &mut out);
                    black_box(&mut out);
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench_sha256x);
criterion_main!(benches);
