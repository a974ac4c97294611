//! The batch witness's zero fill: the one loop of the crate still called through here (from
//! `circuit`); every other loop calls [`flockwork_field::par`], the home of the provers'
//! parallel loops and of their tuned constants.

use alloc::vec::Vec;

/// Four zero-filled word buffers of the given lengths, cleared by the pool's threads
/// ([`flockwork_field::par::zeroed_words`]).
pub(crate) fn zeroed_words4(lens: [usize; 4]) -> [Vec<u64>; 4] {
    flockwork_field::par::zeroed_words(lens, flockwork_field::par::MIN_PARALLEL_ITEMS)
}
