//! Batching strategies over regions: how `N` instances of a relation are cut and laid out for
//! the engines' batchers.
//!
//! `N` instances are the regions of `N`'s binary digits, widest first
//! ([`binary_regions`]: `1000 = 2^9 + 2^8 + 2^7 + 2^6 + 2^5 + 2^3`), region `a` holding
//! `2^{w_a}` instances, and each engine proves them with one of three strategies
//! ([`Variant`]; the ragged-GKR note's comparison, and batch-R1CS's Flock notes §3 "IO"):
//!
//! | strategy | proofs | instances proved |
//! |---|---|---|
//! | independent | one per region | `2^{w_a}` each |
//! | padded | one | `A·2^{w_1}`: region `a` at `a·2^{w_1}`, the rest padding |
//! | ragged | one | `Σ_a 2^{w_a} = N`: the regions back to back, widest first |
//!
//! [`region_layout`] is that table as offsets: the engines' batchers place each region's
//! instances where it says (every offset a multiple of its region's length, so a region is
//! an aligned block of the proof's instances).

use alloc::vec;
use alloc::vec::Vec;

/// A batching strategy (the module docs' table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// One proof per region, separate transcripts.
    Independent = 1,
    /// One proof at the largest width, regions padded.
    Padded = 2,
    /// One proof over native-size regions back to back.
    Ragged = 3,
}

impl Variant {
    /// All strategies.
    pub const ALL: [Variant; 3] = [Variant::Independent, Variant::Padded, Variant::Ragged];

    /// `"independent"`, `"padded"` or `"ragged"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Independent => "independent",
            Variant::Padded => "padded",
            Variant::Ragged => "ragged",
        }
    }
}

impl core::fmt::Display for Variant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The widths of the regions of `count` instances: `count`'s binary digits, widest first
/// (`1000 = 2^9 + 2^8 + 2^7 + 2^6 + 2^5 + 2^3` has widths `[9, 8, 7, 6, 5, 3]`); empty for 0.
#[must_use]
pub fn binary_regions(count: usize) -> Vec<usize> {
    (0..usize::BITS as usize)
        .rev()
        .filter(|&w| count >> w & 1 == 1)
        .collect()
}

/// The proofs `strategy` makes of regions of `widths` (at least one): for each, the
/// instances its setup holds and the regions `(a, offset)` it proves, region `a` holding
/// instances `offset .. offset + 2^{w_a}` (the module docs' table). Every offset is a
/// multiple of its region's length.
#[must_use]
pub fn region_layout(widths: &[usize], strategy: Variant) -> Vec<(usize, Vec<(usize, usize)>)> {
    match strategy {
        Variant::Independent => widths
            .iter()
            .enumerate()
            .map(|(a, &w)| (1 << w, vec![(a, 0)]))
            .collect(),
        Variant::Padded => {
            let top = 1usize << widths.iter().max().copied().unwrap_or(0);
            let regions = (0..widths.len()).map(|a| (a, a * top)).collect();
            vec![(widths.len() * top, regions)]
        }
        Variant::Ragged => {
            let mut order: Vec<usize> = (0..widths.len()).collect();
            order.sort_by_key(|&a| core::cmp::Reverse(widths[a]));
            let mut offset = 0;
            let regions = order
                .into_iter()
                .map(|a| {
                    let at = offset;
                    offset += 1 << widths[a];
                    (a, at)
                })
                .collect();
            vec![(offset, regions)]
        }
    }
}

/// The first instance of each region of `widths` in the statement's order (region `a` is
/// the statement's instances `first_a .. first_a + 2^{w_a}`).
#[must_use]
pub fn region_firsts(widths: &[usize]) -> Vec<usize> {
    widths
        .iter()
        .scan(0, |first, &w| {
            let at = *first;
            *first += 1usize << w;
            Some(at)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_the_binary_digits_and_layouts_are_aligned() {
        assert_eq!(binary_regions(1000), vec![9, 8, 7, 6, 5, 3]);
        assert!(binary_regions(0).is_empty());
        assert_eq!(region_firsts(&[2, 0]), vec![0, 4]);
        let widths = binary_regions(13);
        for v in Variant::ALL {
            let layout = region_layout(&widths, v);
            let mut seen = Vec::new();
            for (n, regions) in &layout {
                for &(a, offset) in regions {
                    assert_eq!(offset % (1 << widths[a]), 0, "{v}: aligned");
                    assert!(offset + (1 << widths[a]) <= *n, "{v}: inside the proof");
                    seen.push(a);
                }
            }
            seen.sort_unstable();
            assert_eq!(seen, vec![0, 1, 2], "{v}: every region once");
        }
        assert_eq!(region_layout(&widths, Variant::Ragged)[0].0, 13);
        assert_eq!(region_layout(&widths, Variant::Padded)[0].0, 24);
        assert_eq!(region_layout(&widths, Variant::Independent).len(), 3);
    }
}
