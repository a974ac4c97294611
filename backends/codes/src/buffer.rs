//! Large zero-initialised buffers: the codewords of the encoders and the prover-side copies
//! of committed data.
//!
//! A fresh buffer of `N` bytes costs `N / 4 KiB` page faults on first touch, and on a
//! virtual machine each fault is an exit to the hypervisor: at 2^28 committed bits the faults
//! of a rate-¼ codeword (128 MiB) cost as much CPU time as the encoding itself. [`zeroed`]
//! therefore
//!
//! 1. asks the kernel (Linux) to back the buffer's 2 MiB-aligned interior with transparent
//!    huge pages (`madvise(MADV_HUGEPAGE)`, effective when
//!    `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or `madvise`): 512 times fewer
//!    faults; the advice is a hint that never changes the memory's contents or validity, and
//!    where it is refused (other systems, THP disabled) the buffer is simply backed by small
//!    pages;
//! 2. writes the zeros from all threads with the `parallel` feature, so the remaining faults
//!    and the kernel's page clearing are spread over the cores.
//!
//! Below [`HUGE_PAGE_MIN_BYTES`] neither step pays and the buffer is a plain `vec!`.
//!
//! [`prefetch`] is the other memory hint of the crate: a software prefetch for loops whose
//! addresses come from a table (the RAA encoder's permutations).

use flockwork_field::par;
pub use flockwork_field::par::HUGE_PAGE_MIN_BYTES;

/// `len` copies of `zero` (an all-zero value), in a buffer advised onto huge pages when it is
/// large ([module docs](self)).
#[must_use]
pub fn zeroed<T: Copy + Send + Sync>(len: usize, zero: T) -> Vec<T> {
    if len.saturating_mul(size_of::<T>()) < HUGE_PAGE_MIN_BYTES {
        return vec![zero; len];
    }
    let mut v = Vec::with_capacity(len);
    huge_pages::advise(v.spare_capacity_mut());
    par::extend_repeated(&mut v, zero, len);
    v
}

/// As [`zeroed`], written by the calling thread only (verifiers stay on one thread).
#[must_use]
pub fn zeroed_here<T: Copy>(len: usize, zero: T) -> Vec<T> {
    if len.saturating_mul(size_of::<T>()) < HUGE_PAGE_MIN_BYTES {
        return vec![zero; len];
    }
    let mut v = Vec::with_capacity(len);
    huge_pages::advise(v.spare_capacity_mut());
    v.resize(len, zero);
    v
}

/// A copy of `values` in a buffer built as by [`zeroed`] (huge pages, written by all threads).
#[must_use]
pub fn copied<T: Copy + Send + Sync>(values: &[T]) -> Vec<T> {
    repeated(values, 1)
}

/// `times` copies of `values` one after the other (`values ‖ values ‖ …`) in a buffer built
/// as by [`zeroed`], every element written once (no zeros first): a Reed–Solomon codeword's
/// cosets before their in-place transforms.
#[must_use]
pub fn repeated<T: Copy + Send + Sync>(values: &[T], times: usize) -> Vec<T> {
    let len = values.len().saturating_mul(times);
    if len.saturating_mul(size_of::<T>()) < HUGE_PAGE_MIN_BYTES {
        return values.repeat(times);
    }
    let mut v = Vec::with_capacity(len);
    huge_pages::advise(v.spare_capacity_mut());
    for _ in 0..times {
        par::extend_mapped(&mut v, values, |x| x);
    }
    v
}

/// `f` applied to every value, collected into a buffer built as by [`zeroed`] (huge pages,
/// written by all threads).
#[must_use]
pub fn mapped<T, U, G>(values: &[T], f: G) -> Vec<U>
where
    T: Copy + Sync,
    U: Send,
    G: Fn(T) -> U + Sync + Send,
{
    if values.len().saturating_mul(size_of::<U>()) < HUGE_PAGE_MIN_BYTES {
        return values.iter().map(|&x| f(x)).collect();
    }
    let mut v = Vec::with_capacity(values.len());
    huge_pages::advise(v.spare_capacity_mut());
    par::extend_mapped(&mut v, values, f);
    v
}

/// Asks the CPU to bring the cache lines of `data` into the cache ahead of use (x86-64
/// `prefetcht0`; nothing elsewhere). A hint for loops over addresses known in advance but
/// invisible to the hardware prefetcher, such as the RAA encoder's permutations: it never
/// faults and changes no memory.
#[inline(always)]
pub fn prefetch<T>(data: &[T]) {
    prefetch_lines::prefetch(data);
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod prefetch_lines {
    /// Cache line size of x86-64.
    const LINE: usize = 64;

    #[inline(always)]
    pub(super) fn prefetch<T>(data: &[T]) {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = data.as_ptr().cast::<i8>();
        for offset in (0..size_of_val(data)).step_by(LINE) {
            // SAFETY: `_mm_prefetch` needs SSE, part of every x86-64 CPU, and is a hint: it
            // does not access memory architecturally (no fault, no data race) and
            // `start + offset` stays inside `data`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod prefetch_lines {
    /// No prefetch instruction wired up: the hardware prefetcher only.
    #[inline(always)]
    pub(super) fn prefetch<T>(_data: &[T]) {}
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[allow(unsafe_code)]
mod huge_pages {
    use core::mem::MaybeUninit;

    /// The transparent huge page size of x86-64 and of aarch64 with 4 KiB base pages.
    const HUGE_PAGE: usize = 2 << 20;

    /// Advises the 2 MiB-aligned interior of `buf` onto transparent huge pages (a hint: the
    /// result is ignored).
    pub(super) fn advise<T>(buf: &mut [MaybeUninit<T>]) {
        let start = buf.as_mut_ptr() as usize;
        let end = start + size_of_val(buf);
        let lo = start.next_multiple_of(HUGE_PAGE);
        let hi = end - end % HUGE_PAGE;
        if hi > lo {
            // SAFETY: `[lo, hi)` lies inside `buf`, an allocation borrowed mutably (nothing
            // else reads or writes it), and `lo` is page-aligned as `madvise` requires.
            // `MADV_HUGEPAGE` only changes how the kernel backs the range with physical pages:
            // the mapping, its contents and its validity are unchanged, so no Rust invariant
            // depends on whether the call succeeds.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod huge_pages {
    use core::mem::MaybeUninit;

    /// No transparent huge pages to ask for: small pages.
    pub(super) fn advise<T>(_buf: &mut [MaybeUninit<T>]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_copied_and_mapped_buffers_hold_their_values() {
        for len in [0usize, 1, 1000, (HUGE_PAGE_MIN_BYTES / 8) + 12345] {
            for z in [zeroed(len, 0u64), zeroed_here(len, 0u64)] {
                assert_eq!(z.len(), len);
                assert!(z.iter().all(|&x| x == 0));
            }
            let src: Vec<u64> = (0..len as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            assert_eq!(copied(&src), src);
            assert_eq!(repeated(&src, 3), [&src[..], &src[..], &src[..]].concat());
            assert!(repeated(&src, 0).is_empty());
            // A hint on any slice, empty or not: no fault, no change.
            prefetch(&src[..len.min(7)]);
            prefetch(&src);
            assert!(
                src.iter()
                    .enumerate()
                    .all(|(i, &x)| x == (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            );
            let doubled: Vec<u128> = src.iter().map(|&x| u128::from(x) << 1).collect();
            assert_eq!(mapped(&src, |x| u128::from(x) << 1), doubled);
        }
    }
}
