//! Hostile proof files against the verifier's resources: each file below is built byte by byte
//! from its recipe (the format's layout in `flockwork::proof_file`), read and verified, and must
//! be refused, quickly, with an error naming the cause, while this binary's allocator never
//! holds more than [`BUDGET`] bytes at once. Then every header field of honest files is swept
//! to its extremes ([`semantic_header_sweep`]) under the same budget.
//!
//! The counting allocator is this binary's global allocator, so the tests are a binary of
//! their own, and they hold [`SERIAL`] while they run: a second test's allocations would count
//! against the case under way (the harness runs tests on several threads).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use flockwork::proof_file::{ProofFile, ProofFileError};

/// The most a case may hold at once.
const BUDGET: usize = 64 << 20;
/// The longest a case may take (the bound; the test profile is optimised).
const TIME: Duration = Duration::from_secs(1);

/// Held by each test for its whole run.
static SERIAL: Mutex<()> = Mutex::new(());

/// The system allocator, counting the bytes it holds and their peak.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Allocations that would hold more than this fail (the process then aborts, naming the
/// size): a case far over its budget stops here instead of exhausting the machine.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Counts `bytes` more, or refuses them past [`LIMIT`].
fn add(bytes: usize) -> bool {
    let now = HELD
        .fetch_add(bytes, Ordering::Relaxed)
        .saturating_add(bytes);
    if now > LIMIT.load(Ordering::Relaxed) {
        HELD.fetch_sub(bytes, Ordering::Relaxed);
        return false;
    }
    PEAK.fetch_max(now, Ordering::Relaxed);
    true
}

// SAFETY: every call forwards to `System` with the same arguments, or returns null (an
// allocation failure, which `GlobalAlloc` allows) before calling it; the counters only
// observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !add(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !add(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !add(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            HELD.fetch_sub(new_size, Ordering::Relaxed);
        } else {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Reads and verifies `bytes`; returns the error, the peak bytes held above the start, and
/// the time.
fn attempt(bytes: &[u8]) -> (Result<(), String>, usize, Duration) {
    let base = HELD.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    LIMIT.store(base + 4 * BUDGET, Ordering::Relaxed);
    let clock = Instant::now();
    let result = ProofFile::from_bytes(bytes)
        .map_err(|e| e.to_string())
        .and_then(|file| file.verify().map_err(|e| e.to_string()));
    let time = clock.elapsed();
    LIMIT.store(usize::MAX, Ordering::Relaxed);
    (result, PEAK.load(Ordering::Relaxed) - base, time)
}

/// `attempt` must refuse with an error containing `cause`, within the budget and the time.
fn refused(name: &str, bytes: &[u8], cause: &str) {
    let (result, peak, time) = attempt(bytes);
    let error = result.expect_err(name);
    let line = format!(
        "{name}: {} bytes refused in {time:.2?}, peak {:.1} KiB: {error}\n",
        bytes.len(),
        peak as f64 / 1024.0
    );
    // Past the harness's capture, as the sweep's counts.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    assert!(
        error.contains(cause),
        "{name}: {error:?} does not name {cause:?}"
    );
    assert!(peak <= BUDGET, "{name}: {peak} bytes held at once");
    assert!(time <= TIME, "{name}: {time:?}");
}

/// The common header: magic, version, system, transcript (SHA-256).
fn header(system: u8) -> Vec<u8> {
    let mut out = b"FWPF".to_vec();
    out.extend_from_slice(&flockwork::proof_file::VERSION.to_le_bytes());
    out.extend_from_slice(&[system, 0]);
    out
}

/// System 0: a SHA-256 chain of `2^24` blocks, one copy each, at 100 bits, with two ends of
/// `words` zero words and the proof `proof` (167 bytes with 8-word ends and an empty proof).
fn flock_chain(pcs: u8, words: u32, proof: &[u8]) -> Vec<u8> {
    let mut out = header(0);
    out.extend_from_slice(&[0, pcs, 0, 1]); // SHA-256, the PCS, the fast preset, 1 copy
    out.extend_from_slice(&(1u32 << 24).to_le_bytes()); // blocks
    out.extend_from_slice(&(1u32 << 24).to_le_bytes()); // count
    out.extend_from_slice(&100u16.to_le_bytes());
    out.push(1); // chain
    for _ in 0..2 {
        out.extend_from_slice(&words.to_le_bytes());
        out.resize(out.len() + 8 * words as usize, 0);
    }
    out.extend_from_slice(&(proof.len() as u64).to_le_bytes());
    out.extend_from_slice(proof);
    out
}

/// System 3: Keccak-f with GKR on its Boolean layers, committed IO, padded, FRI at 100 bits,
/// `2^24` permutations, a 32-byte zero commitment and the proof `proof` (58 bytes with an
/// empty one).
fn boolean_gkr_committed(proof: &[u8]) -> Vec<u8> {
    boolean_gkr_committed_n(1 << 24, proof)
}

/// [`boolean_gkr_committed`] with `n` permutations.
fn boolean_gkr_committed_n(n: u32, proof: &[u8]) -> Vec<u8> {
    let mut out = header(3);
    out.extend_from_slice(&[1, 1]); // padded, FRI
    out.extend_from_slice(&100u16.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&[0; 32]);
    out.extend_from_slice(&(proof.len() as u64).to_le_bytes());
    out.extend_from_slice(proof);
    out
}

/// System 2: GKR over Poseidon2b with committed inputs, independent batcher, FRI, 64 regions
/// of width 24, a 32-byte zero commitment, then `tail` zero bytes where the stated outputs
/// (`64·4·2^24` elements) should be.
fn gkr_committed_wide(tail: usize) -> Vec<u8> {
    let mut out = header(2);
    out.extend_from_slice(&[0, 1, 64]); // independent, FRI, 64 regions
    out.extend_from_slice(&[24; 64]);
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&[0; 32]);
    out.resize(out.len() + tail, 0);
    out
}

/// A batch-R1CS proof header of this version (a zero setup digest), then 4 KiB of zeros: its
/// framing passes, so the verifier builds the 2^24-block setup before it refuses the digest.
fn flock_framed() -> Vec<u8> {
    let mut proof = flockwork::r1cs::PROOF_MAGIC.to_vec();
    proof.extend_from_slice(&flockwork::r1cs::PROOF_VERSION.to_le_bytes());
    proof.resize(proof.len() + 32 + 4096, 0);
    proof
}

/// A Boolean GKR proof header of this version for the padded batcher and committed IO, then
/// 4 KiB of zeros: the verifier builds the 2^24-permutation setup and its commitment, then
/// reads the proof.
fn boolean_framed() -> Vec<u8> {
    let mut proof = flockwork::gkr::boolean::PROOF_MAGIC.to_vec();
    proof.extend_from_slice(&flockwork::gkr::boolean::PROOF_VERSION.to_le_bytes());
    proof.extend_from_slice(&[
        flockwork::gkr::Variant::Padded as u8,
        flockwork::gkr::boolean::IO_COMMITTED,
    ]);
    proof.resize(proof.len() + 4096, 0);
    proof
}

#[test]
fn hostile_files_are_refused_within_the_budget() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // The recipes: empty proofs.
    let fri = flock_chain(1, 8, &[]);
    assert_eq!(fri.len(), 167);
    refused(
        "batch-R1CS, FRI, 2^24 blocks",
        &fri,
        "shorter than its header",
    );
    let blaze = flock_chain(2, 8, &[]);
    refused(
        "batch-R1CS, Blaze, 2^24 blocks",
        &blaze,
        "shorter than its header",
    );
    let boolean = boolean_gkr_committed(&[]);
    assert_eq!(boolean.len(), 58);
    refused("Boolean GKR, committed, 2^24", &boolean, "bad proof header");
    let wide = gkr_committed_wide(57 << 10);
    refused(
        "GKR, committed inputs, 64 regions of 2^24",
        &wide,
        "truncated",
    );
    // Proofs whose framing passes, for a statement of the right shape (SHA-256's 256-bit
    // chaining value is 4 words): the setups are built, and must be succinct.
    for (pcs, name) in [(0, "Ligerito"), (1, "FRI"), (2, "Blaze")] {
        let file = flock_chain(pcs, 4, &flock_framed());
        refused(
            &format!("batch-R1CS, {name}, 2^24 blocks, framed"),
            &file,
            "made for another setup",
        );
    }
    for log in [10, 16, 20, 24] {
        let file = boolean_gkr_committed_n(1 << log, &boolean_framed());
        refused(
            &format!("Boolean GKR, committed, 2^{log}, framed"),
            &file,
            "proof",
        );
    }
}

/// Honest files of every system whose header a sweep rewrites: batch-R1CS chains over each
/// commitment, a Merkle tree and public IO; Keccak-f through the Boolean GKR with public and
/// committed IO; relation files (system 4) of shipped relations through both engines, their
/// batcher rebuilt from the listing by name.
fn honest_files() -> Vec<(String, ProofFile)> {
    use flockwork::engines::{Choices, boolean_gkr_batcher};
    use flockwork::flock::{FlockWorkload, HashKind, IoKind};
    use flockwork::gkr::Variant::Ragged;
    use flockwork::pcs::PcsKind;
    use flockwork::poly::relation::{Io, Statement};
    use flockwork::proof_file::{BooleanGkrFile, BooleanIo};
    use flockwork::r1cs::FlockConfig;
    use flockwork::transcript::TranscriptKind;

    let mut files = Vec::new();
    for (hash, io, count, pcs) in [
        (HashKind::Sha256, IoKind::Chain, 3, PcsKind::Ligerito),
        (HashKind::Sha256, IoKind::Chain, 3, PcsKind::Fri),
        (HashKind::Sha256, IoKind::Chain, 3, PcsKind::Blaze),
        (HashKind::Blake3, IoKind::Merkle, 3, PcsKind::Fri),
        (HashKind::Blake3, IoKind::Public, 2, PcsKind::Ligerito),
        (HashKind::Keccak, IoKind::Chain, 5, PcsKind::Fri),
    ] {
        let workload = FlockWorkload {
            hash,
            count,
            seed: 7,
            io,
            config: FlockConfig {
                scheme: pcs,
                ..FlockConfig::default()
            },
            transcript: TranscriptKind::Sha256,
        };
        let file = ProofFile::of_flock(&workload, &workload.run().expect("an honest run"));
        files.push((format!("batch-R1CS {} {io:?} {pcs:?}", hash.name()), file));
    }
    for (count, pcs) in [
        (300, None),
        (300, Some(PcsKind::Fri)),
        (40, Some(PcsKind::Blaze)),
    ] {
        let workload = flockwork::permutations::PermutationWorkload::for_count(count, 3, Ragged)
            .expect("a ragged workload")
            .with_pcs(pcs);
        let file = ProofFile::of_permutations(&workload, &workload.run().expect("an honest run"));
        files.push((format!("GKR Poseidon2b {count} {pcs:?}"), file));
    }
    let relation = flockwork_boolean::KeccakF1600::new();
    let choices = Choices::default();
    let inputs = vec![[3u64; 25], [4u64; 25], [5u64; 25]];
    for pcs in [None, Some(PcsKind::Fri)] {
        let variant = Ragged;
        let batcher = boolean_gkr_batcher(&relation, inputs.len(), variant, pcs, &choices)
            .expect("a Boolean GKR batcher");
        let (statement, io) = match pcs {
            None => {
                let statement = Statement::public(&relation, inputs.clone());
                let Io::Public { outputs, .. } = statement.io.clone() else {
                    unreachable!()
                };
                let io = BooleanIo::Public {
                    inputs: inputs.clone(),
                    outputs,
                };
                (statement, io)
            }
            Some(_) => {
                let statement =
                    Statement::committed(inputs.len(), batcher.commit(&inputs).unwrap());
                let Io::Committed { count, commitment } = statement.io.clone() else {
                    unreachable!()
                };
                (statement, BooleanIo::Committed { count, commitment })
            }
        };
        let proof = batcher.prove(&inputs, &statement).expect("an honest proof");
        let file = ProofFile::BooleanGkr(BooleanGkrFile {
            variant,
            transcript: choices.transcript,
            pcs,
            target_bits: choices.target_bits,
            io,
            proof,
        });
        files.push((format!("Boolean GKR {pcs:?}"), file));
    }
    // Relation files (system 4): a batch-R1CS chain and committed statement of SHA-256, the
    // Boolean GKR on Keccak-f and the GKR over BN254's Poseidon2, each batcher rebuilt from
    // its relation's listing.
    let sha256 = flockwork_boolean::Sha256Compress::default();
    let mut x: Vec<_> = (0..3u8)
        .map(|i| flockwork_boolean::Sha256Input {
            state: [u32::from(i); 8],
            block: [i; 64],
        })
        .collect();
    for i in 1..x.len() {
        x[i].state = flockwork::poly::Relation::evaluate(&sha256, &x[i - 1]);
    }
    let chain = Statement::chain(&sha256, &x).expect("a chain");
    files.push(relation_file(
        &sha256,
        &x,
        &chain,
        "batch-R1CS ragged / fri / sha256",
    ));
    let ragged = flockwork::engines::listing(&sha256, 3, &choices)
        .into_iter()
        .find(|b| b.name() == "batch-R1CS ragged / ligerito / sha256")
        .expect("listed");
    let committed = Statement::committed(3, ragged.commit(&x).expect("a commitment"));
    files.push(relation_file(
        &sha256,
        &x,
        &committed,
        "batch-R1CS ragged / ligerito / sha256",
    ));
    let public = Statement::public(&relation, inputs.clone());
    files.push(relation_file(
        &relation,
        &inputs,
        &public,
        "GKR boolean ragged / sha256",
    ));
    let poseidon2 =
        flockwork::gkr::Poseidon2Relation::new(flockwork::poseidon2::instances::bn254_t3());
    let p: Vec<Vec<flockwork::prime::Bn254Fr>> = (0..5u64)
        .map(|i| {
            (0..3)
                .map(|j| {
                    <flockwork::prime::Bn254Fr as flockwork::field::PrimeField>::from_u64(i * 3 + j)
                })
                .collect()
        })
        .collect();
    let public = Statement::public(&poseidon2, p.clone());
    files.push(relation_file(
        &poseidon2,
        &p,
        &public,
        "GKR padded / sha256",
    ));
    files
}

/// The relation file of `statement` about `inputs`, proved by the batcher `name` of
/// `relation`'s listing.
fn relation_file<R>(
    relation: &R,
    inputs: &[R::Input],
    statement: &flockwork::poly::relation::Statement<R>,
    name: &str,
) -> (String, ProofFile)
where
    R: flockwork::engines::Provable + flockwork::poly::StatementCodec,
{
    let choices = flockwork::engines::Choices::default();
    let batcher = flockwork::engines::listing(relation, statement.count(), &choices)
        .into_iter()
        .find(|b| b.name() == name)
        .unwrap_or_else(|| panic!("{name} listed"));
    let proof = batcher.prove(inputs, statement).expect("an honest proof");
    let bytes = flockwork::proof_file::save(relation, batcher.as_ref(), &choices, statement, proof);
    (
        format!("relation {} {name}", relation.name()),
        ProofFile::from_bytes(&bytes).expect("a relation file"),
    )
}

/// Extreme values of a count field: the ends of its range and one past them, and the
/// extremes of the integer the file stores it in.
fn extremes(max: u64, store_max: u64) -> Vec<u64> {
    let mut values = vec![0, 1, 2, max - 1, max, max + 1, store_max / 2, store_max];
    values.retain(|&v| v <= store_max);
    values.sort_unstable();
    values.dedup();
    values
}

/// Every header field of the honest files rewritten to its extremes — counts, blocks, copies,
/// targets, statement lengths, the commitment, the batcher — read and verified under the
/// budget: each rewritten file is refused (or, where the rewrite changed nothing, is the
/// honest file), and none costs more than [`BUDGET`] or [`TIME`].
#[test]
fn semantic_header_sweep() {
    use flockwork::proof_file::{BooleanIo, FlockFile};
    use flockwork::r1cs::Statement;

    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let files = honest_files();
    let mut tried = 0;
    let mut refused_count = 0;
    let mut worst = (0usize, Duration::ZERO);
    let mut check = |name: &str, honest: &ProofFile, edited: ProofFile| {
        tried += 1;
        let bytes = edited.to_bytes();
        let (result, peak, time) = attempt(&bytes);
        assert!(peak <= BUDGET, "{name}: {peak} bytes held at once");
        assert!(time <= TIME, "{name}: {time:?}");
        worst = (worst.0.max(peak), worst.1.max(time));
        match result {
            Err(_) => refused_count += 1,
            // Only a rewrite that wrote the same bytes (a field the format does not store for
            // this file, such as the target of a file without a commitment) may verify.
            Ok(()) => assert!(
                bytes == honest.to_bytes(),
                "{name}: a rewritten header verified"
            ),
        }
    };
    for (name, honest) in &files {
        let (result, peak, time) = attempt(&honest.to_bytes());
        assert_eq!(result, Ok(()), "{name}");
        // The estimate a memory limit is checked against bounds the measured peak; a limit
        // below it refuses the file by name.
        let Err(ProofFileError::MemoryLimit { estimate, limit }) = honest.verify_within(Some(1))
        else {
            panic!("{name}: a one-byte limit did not refuse the file");
        };
        assert_eq!(limit, 1);
        eprintln!(
            "{name}: honest file verified in {time:.2?}, peak {:.1} KiB, estimate {:.1} KiB",
            peak as f64 / 1024.0,
            estimate as f64 / 1024.0
        );
        assert!(
            peak as u64 <= estimate,
            "{name}: the estimate is below the peak"
        );
        assert_eq!(
            honest.verify_within(Some(estimate)).ok(),
            Some(()),
            "{name}"
        );
        match honest {
            ProofFile::Flock(f) => {
                let edit = |g: &dyn Fn(&mut FlockFile)| {
                    let mut e = f.clone();
                    g(&mut e);
                    ProofFile::Flock(e)
                };
                for v in extremes(1 << 24, u64::from(u32::MAX)) {
                    check(name, honest, edit(&|e| e.blocks = v as usize));
                    check(name, honest, edit(&|e| e.count = v as usize));
                }
                for v in extremes(8, 255) {
                    check(name, honest, edit(&|e| e.copies = v as usize));
                }
                for v in extremes(256, u64::from(u16::MAX)) {
                    check(name, honest, edit(&|e| e.target_bits = v as u32));
                }
                for words in [0usize, 1, 3, 5, 64, 65] {
                    check(
                        name,
                        honest,
                        edit(&|e| match &mut e.statement {
                            Statement::Chain { start, end } => {
                                start.resize(words, 0);
                                end.resize(words, 0);
                            }
                            Statement::Merkle { root, leaves } => {
                                root.resize(words, 0);
                                leaves.truncate(words);
                            }
                            Statement::Public { inputs, outputs } => {
                                inputs.resize(words, 0);
                                outputs.truncate(words);
                            }
                            Statement::Batch => {}
                        }),
                    );
                }
            }
            ProofFile::BooleanGkr(f) => {
                use flockwork::proof_file::BooleanGkrFile;
                let edit = |g: &dyn Fn(&mut BooleanGkrFile)| {
                    let mut e = f.clone();
                    g(&mut e);
                    ProofFile::BooleanGkr(e)
                };
                for v in extremes(256, u64::from(u16::MAX)) {
                    check(name, honest, edit(&|e| e.target_bits = v as u32));
                }
                for variant in flockwork::gkr::Variant::ALL {
                    check(name, honest, edit(&|e| e.variant = variant));
                }
                for v in extremes(1 << 24, u64::from(u32::MAX)) {
                    check(
                        name,
                        honest,
                        edit(&|e| match &mut e.io {
                            BooleanIo::Committed { count, .. } => *count = v as usize,
                            BooleanIo::Public { inputs, outputs } => {
                                let n = (v as usize).min(4);
                                inputs.resize(n, [1; 25]);
                                outputs.resize(n.saturating_sub(1), [2; 25]);
                            }
                        }),
                    );
                }
                for len in [0usize, 1, 31, 33, 4096] {
                    check(
                        name,
                        honest,
                        edit(&|e| {
                            if let BooleanIo::Committed { commitment, .. } = &mut e.io {
                                commitment.resize(len, 0);
                            }
                        }),
                    );
                }
            }
            ProofFile::Relation(f) => {
                use flockwork::poly::relation::IoKind;
                use flockwork::proof_file::RelationFile;
                let edit = |g: &dyn Fn(&mut RelationFile)| {
                    let mut e = f.clone();
                    g(&mut e);
                    ProofFile::Relation(e)
                };
                for v in extremes(1 << 24, u64::from(u32::MAX)) {
                    check(name, honest, edit(&|e| e.count = v as usize));
                }
                for kind in [
                    IoKind::Public,
                    IoKind::Committed,
                    IoKind::Chain,
                    IoKind::Merkle,
                ] {
                    check(name, honest, edit(&|e| e.kind = kind));
                    check(
                        name,
                        honest,
                        edit(&|e| {
                            e.kind = kind;
                            e.count = 1 << 24;
                        }),
                    );
                }
                // A batcher without a commitment does not depend on the target (module docs
                // of `proof_file::relation`): the same proof of the same statement.
                if ["ligerito", "fri", "blaze"]
                    .iter()
                    .any(|s| f.batcher.contains(&format!("/ {s} /")))
                {
                    for v in extremes(256, u64::from(u16::MAX)) {
                        check(name, honest, edit(&|e| e.target_bits = v as u32));
                    }
                }
                for len in [0usize, 1, 31, 33, 4096] {
                    check(name, honest, edit(&|e| e.statement.resize(len, 0)));
                }
                // Every batcher of every shipped relation's listing, at the honest count and
                // at 2^24 instances.
                let mut names = vec![String::new(), "x".repeat(255)];
                for v in ["independent", "padded", "ragged"] {
                    for s in ["ligerito", "fri", "blaze"] {
                        names.push(format!("batch-R1CS {v} / {s} / sha256"));
                        names.push(format!("GKR boolean {v} / {s} / sha256"));
                        names.push(format!("GKR boolean {v} / {s} / sha256 [compiled]"));
                        names.push(format!("GKR {v} / {s} / sha256"));
                    }
                    names.push(format!("GKR boolean {v} / sha256"));
                    names.push(format!("GKR boolean {v} / sha256 [compiled]"));
                    names.push(format!("GKR {v} / sha256"));
                }
                for batcher in &names {
                    check(name, honest, edit(&|e| e.batcher.clone_from(batcher)));
                    check(
                        name,
                        honest,
                        edit(&|e| {
                            e.batcher.clone_from(batcher);
                            e.count = 1 << 24;
                        }),
                    );
                }
                for relation in flockwork::registry::relations() {
                    check(name, honest, edit(&|e| e.relation = relation.name()));
                }
                check(name, honest, edit(&|e| e.digest[31] ^= 1));
            }
            ProofFile::Gkr(f) => {
                use flockwork::proof_file::GkrFile;
                let edit = |g: &dyn Fn(&mut GkrFile)| {
                    let mut e = f.clone();
                    g(&mut e);
                    ProofFile::Gkr(e)
                };
                for variant in flockwork::gkr::Variant::ALL {
                    check(name, honest, edit(&|e| e.variant = variant));
                }
                for w in extremes(24, 255) {
                    check(name, honest, edit(&|e| e.widths[0] = w as usize));
                    check(name, honest, edit(&|e| e.widths = vec![w as usize; 64]));
                }
                check(name, honest, edit(&|e| e.widths.clear()));
                check(name, honest, edit(&|e| e.widths.resize(255, 24)));
                check(
                    name,
                    honest,
                    edit(&|e| e.outputs[0].pop().map(drop).unwrap_or(())),
                );
                check(
                    name,
                    honest,
                    edit(&|e| e.outputs.last_mut().unwrap().push(Default::default())),
                );
                check(name, honest, edit(&|e| e.inputs.truncate(1)));
            }
            ProofFile::GkrOpened(f) => {
                use flockwork::proof_file::GkrOpenedFile;
                let edit = |g: &dyn Fn(&mut GkrOpenedFile)| {
                    let mut e = f.clone();
                    g(&mut e);
                    ProofFile::GkrOpened(e)
                };
                for variant in flockwork::gkr::Variant::ALL {
                    check(name, honest, edit(&|e| e.variant = variant));
                }
                for pcs in [
                    flockwork::pcs::PcsKind::Ligerito,
                    flockwork::pcs::PcsKind::Fri,
                    flockwork::pcs::PcsKind::Blaze,
                ] {
                    check(name, honest, edit(&|e| e.pcs = pcs));
                }
                for w in extremes(24, 255) {
                    check(name, honest, edit(&|e| e.widths[0] = w as usize));
                    check(name, honest, edit(&|e| e.widths = vec![w as usize; 64]));
                }
                check(name, honest, edit(&|e| e.widths.clear()));
                for len in [0usize, 1, 31, 33, 4096] {
                    check(name, honest, edit(&|e| e.commitment.resize(len, 0)));
                }
                check(name, honest, edit(&|e| e.outputs[0].truncate(1)));
            }
        }
    }
    // Past the harness's capture (it captures `eprint!`, not writes to the handle), so every
    // `cargo test` log shows the sweep's counts.
    let line = format!(
        "semantic header sweep: {} honest files, {tried} rewritten headers, {refused_count} \
         refused, the rest unchanged; worst peak {:.1} KiB, worst time {:.2?}\n",
        files.len(),
        worst.0 as f64 / 1024.0,
        worst.1
    );
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    assert!(
        refused_count * 10 >= tried * 9,
        "most rewrites change something"
    );
}
