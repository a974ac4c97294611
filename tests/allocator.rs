//! The allocator setting in a process of its own: `retain_freed_memory` changes glibc's
//! policy for every thread of the process, so this test is its own binary rather than a
//! module of `tests/suite`, whose other tests must run under the default policy a library
//! caller gets.

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_accepts_the_setting_and_large_blocks_still_work() {
    assert!(flockwork::allocator::retain_freed_memory());
    // A block far above the default mmap threshold, now from the heap, then freed and taken
    // again.
    for _ in 0..2 {
        let v = vec![7u8; 64 << 20];
        assert_eq!(v.iter().map(|&b| u64::from(b)).sum::<u64>(), 7 << 26);
    }
}
