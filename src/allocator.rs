//! Allocator tuning for long proving runs.
//!
//! The provers allocate and free buffers of hundreds of MiB phase after phase (the packed
//! witness, codewords, the folded zerocheck tables, eq tables). glibc's `malloc` serves
//! every block above its mmap threshold with a fresh `mmap` and returns it to the kernel on
//! `free`, so each phase faults its memory in again, one 4 KiB page at a time, zeroed by the
//! kernel: about 171,000 page faults and a quarter of the CPU time of a 2^13 SHA-256 batch
//! proof on one thread. [`retain_freed_memory`] makes glibc serve large blocks from its heap
//! and keep freed memory in the process, so later phases reuse pages that are already
//! mapped (100,000 faults, the first touch of the peak, and 24% less CPU time on one thread;
//! the peak resident memory grows by about 9%). It also keeps every thread on that one heap
//! (`M_ARENA_MAX = 1`): a worker thread otherwise allocates from an arena of its own, whose
//! freed memory glibc hands back to the kernel whatever the trim threshold, so a prover
//! running on rayon's threads faulted its buffers in again on every proof (about 70,000
//! faults per SHA-256 2^14 proof; its allocations are few and large, so the one heap's lock
//! costs nothing measurable).
//!
//! It is a process-wide setting, so it is the program's decision, one call first thing in
//! `main`: the `flockwork` tool, the benchmarks and every example that proves make it (the
//! book's batch-proving chapter shows it); a library never does. Nothing in the library
//! depends on it: proofs are the same bytes without it, only slower.

/// Makes glibc keep freed memory in the process for reuse (module docs). Call it before the
/// first large allocation. Returns whether the setting took effect: always `false` off
/// glibc (other allocators keep their own policy).
pub fn retain_freed_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets allocator parameters; it is safe to call at any time
        // (before the first allocation of the blocks it should govern, as documented).
        // `M_MMAP_MAX = 0`: no block is served by its own mmap (large ones come from the
        // heap); `M_TRIM_THRESHOLD = i32::MAX`: freed heap memory is not returned to the
        // kernel; `M_ARENA_MAX = 1`: every thread allocates from that heap. Each call
        // returns 1 on success.
        unsafe {
            libc::mallopt(libc::M_MMAP_MAX, 0) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX) == 1
                && libc::mallopt(libc::M_ARENA_MAX, 1) == 1
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}
