//! Clipped matches: how many n-gram occurrences per-id budgets allow, the clipping of BLEU's
//! and chrF's matches by the reference counts. Each match takes one unit of its id's budget,
//! and every unit taken is given back afterwards, so one set of reference counts can be
//! matched against any number of hypotheses.
//!
//! ```
//! use bleuprint::count::clip::{count, Clip};
//!
//! let mut budget = vec![0; 3];
//! count(&mut budget, &[0, 0, 1]); // the reference: id 0 twice, id 1 once
//! let mut clip = Clip::default();
//! assert_eq!(clip.take(&mut budget, &[0, 0, 0, 2]), 2); // min(3, 2) + min(1, 0)
//! clip.give_back(&mut budget);
//! assert_eq!(budget, [2, 1, 0]);
//! ```

/// Adds one to `counts[id]` for every occurrence in `ids` (a budget is a count). Every id must
/// have an entry.
#[inline]
pub fn count(counts: &mut [u32], ids: &[u32]) {
    for &id in ids {
        debug_assert!((id as usize) < counts.len(), "id {id} has a count");
        if let Some(c) = counts.get_mut(id as usize) {
            *c += 1;
        }
    }
}

/// The budget units taken since they were last given back.
#[derive(Debug, Clone, Default)]
pub struct Clip {
    taken: Vec<u32>,
    /// Per id, occurrences seen so far by [`Clip::within`] (all zero between calls).
    seen: Vec<u32>,
}

impl Clip {
    /// The occurrences in `ids` that find budget left in `budget` (indexed by id), each
    /// taking one unit: the sum over distinct ids of `min(occurrences, budget)`. An id without
    /// an entry ([`super::ABSENT`], or one interned after the budget was counted) matches
    /// nothing.
    #[inline]
    pub fn take(&mut self, budget: &mut [u32], ids: &[u32]) -> usize {
        // A local vector: its length and capacity stay in registers through the loop.
        let mut taken = std::mem::take(&mut self.taken);
        let before = taken.len();
        for &id in ids {
            if let Some(left) = budget.get_mut(id as usize) {
                if *left > 0 {
                    *left -= 1;
                    taken.push(id);
                }
            }
        }
        let matched = taken.len() - before;
        self.taken = taken;
        matched
    }

    /// The occurrences in `ids` within `counts` (indexed by id, left as they are): the sum
    /// over distinct ids of `min(occurrences, counts[id])`, as [`Clip::take`] gives it. Reads
    /// `ids` twice and never `counts` as a whole, so one side's counts made once serve every
    /// text matched against it.
    #[inline]
    pub fn within(&mut self, counts: &[u32], ids: &[u32]) -> usize {
        if self.seen.len() < counts.len() {
            self.seen.resize(counts.len(), 0);
        }
        let mut matched = 0;
        for &id in ids {
            let k = id as usize;
            if let (Some(&limit), Some(seen)) = (counts.get(k), self.seen.get_mut(k)) {
                *seen += 1;
                matched += usize::from(*seen <= limit);
            }
        }
        for &id in ids {
            if let Some(seen) = self.seen.get_mut(id as usize) {
                *seen = 0;
            }
        }
        matched
    }

    /// Gives every unit taken back to `budget`, the one [`Clip::take`] took them from.
    #[inline]
    pub fn give_back(&mut self, budget: &mut [u32]) {
        for &id in &self.taken {
            if let Some(left) = budget.get_mut(id as usize) {
                *left += 1;
            }
        }
        self.taken.clear();
    }
}
