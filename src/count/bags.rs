//! Sentences counted once, for scoring every pair of two sets (MBR, pairwise matrices): each
//! sentence becomes an [`NgramBag`], its distinct n-grams per order with their counts, under
//! ids that every bag of one [`BagBuilder`] shares. Comparing two bags is then a lookup of one
//! bag's ids in the other's counts ([`DenseCounts`]), with no tokenizing or hashing per pair.
//!
//! A metric's bag scorer (BLEU's, chrF's) is a [`crate::statistics::SegmentScorer`] over
//! `NgramBag`: the pairwise driver ([`crate::statistics::pairwise`]) prepares one reference
//! bag, then scores hypothesis bags against it.

use super::ngrams::{begin_orders, extend_order, NgramIds};
use crate::error::Result;

/// One sentence's n-grams of orders `1..=orders()`, counted: per order, `(id, count)` for each
/// distinct n-gram (in order of first occurrence), and the number of n-grams (with repeats).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NgramBag {
    /// Every order's `(id, count)` pairs, order after order.
    entries: Vec<(u32, u32)>,
    /// Order `n` (1-based) is `entries[ends[n - 2]..ends[n - 1]]` (from 0 for order 1).
    ends: Vec<usize>,
    /// Per order: the n-grams counted with repeats (`symbols + 1 - n`, at least 0).
    totals: Vec<usize>,
}

impl NgramBag {
    /// Number of orders counted.
    pub fn orders(&self) -> usize {
        self.totals.len()
    }

    /// The n-grams of `order` (1-based) with repeats: `symbols + 1 - order`, at least 0.
    pub fn total(&self, order: usize) -> usize {
        order
            .checked_sub(1)
            .and_then(|o| self.totals.get(o))
            .copied()
            .unwrap_or(0)
    }

    /// [`NgramBag::total`] as a Python float (exact: counts are far below 2^53).
    #[allow(clippy::cast_precision_loss)]
    pub fn total_float(&self, order: usize) -> f64 {
        self.total(order) as f64
    }

    /// The distinct n-grams of `order` (1-based) as `(id, count)`, in order of first
    /// occurrence.
    pub fn entries(&self, order: usize) -> &[(u32, u32)] {
        let Some(o) = order.checked_sub(1) else {
            return &[];
        };
        let start = o
            .checked_sub(1)
            .map_or(0, |p| self.ends.get(p).copied().unwrap_or(0));
        let end = self.ends.get(o).copied().unwrap_or(start);
        self.entries.get(start..end).unwrap_or(&[])
    }

    /// Empties the bag, keeping its allocations for the next sentence.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.ends.clear();
        self.totals.clear();
    }

    /// Every order's pairs, order after order.
    fn all_entries(&self) -> &[(u32, u32)] {
        &self.entries
    }
}

/// Counts sentences into [`NgramBag`]s whose ids it keeps consistent: the same n-gram of the
/// same kind of symbol gets the same id in every bag it builds.
///
/// A symbol is a `u32` the caller chose (a code point, an interned word id); `kind` keeps
/// symbol spaces apart (chrF's characters and words), so that character `97` and word `97`
/// are different n-grams.
#[derive(Debug, Default)]
pub struct BagBuilder {
    /// The ids of every n-gram of every bag built.
    ids: NgramIds,
    /// Every id's n-gram as `(prefix, last symbol)`, indexed by id.
    keys: Vec<(u32, u32)>,
    /// Ids of the sequence being counted, at the current order.
    order_ids: Vec<u32>,
    /// Per id: its entry in the bag while one order is counted, else [`NO_ENTRY`].
    entry_of: Vec<u32>,
}

const NO_ENTRY: u32 = u32::MAX;

impl BagBuilder {
    /// Number of distinct n-grams seen so far: every id is below it.
    pub fn ids(&self) -> usize {
        self.ids.len()
    }

    /// Forgets every id, so the next bags number their n-grams from 0 again: ids local to a
    /// few sentences (one image's captions), in a table that stays small and in cache.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.keys.clear();
    }

    /// Every id's n-gram as `(prefix, last symbol)`, indexed by id: what maps ids local to
    /// some bags onto the ids of a larger table.
    pub fn keys(&self) -> &[(u32, u32)] {
        &self.keys
    }

    /// Appends orders `1..=max_order` of `symbols` (of symbol space `kind`) to `bag`, after
    /// the orders it already holds.
    pub fn add(&mut self, bag: &mut NgramBag, symbols: &[u32], kind: u8, max_order: usize) {
        let mut order = std::mem::take(&mut self.order_ids);
        begin_orders(&mut order, symbols.len(), kind);
        for n in 1..=max_order {
            let (ids, keys) = (&mut self.ids, &mut self.keys);
            extend_order(&mut order, symbols, n, |prefix, last| {
                let id = ids.intern(prefix, last);
                // A new id is the next one: its key is recorded as it is made.
                if id as usize == keys.len() {
                    keys.push((prefix, last));
                }
                id
            });
            bag.totals.push(order.len());
            // Distinct n-grams in order of first occurrence, as Python's Counter keeps them
            // (the float sums of reference aggregation follow that order).
            let start = bag.entries.len();
            let entry_of = &mut self.entry_of;
            entry_of.resize(ids.len(), NO_ENTRY);
            for &id in order.iter() {
                let Some(entry) = entry_of.get_mut(id as usize) else {
                    continue;
                };
                if *entry == NO_ENTRY {
                    *entry = u32::try_from(bag.entries.len() - start).unwrap_or(NO_ENTRY);
                    bag.entries.push((id, 1));
                } else if let Some(e) = bag.entries.get_mut(start + *entry as usize) {
                    e.1 += 1;
                }
            }
            for &(id, _) in bag.entries.get(start..).unwrap_or(&[]) {
                if let Some(entry) = entry_of.get_mut(id as usize) {
                    *entry = NO_ENTRY;
                }
            }
            bag.ends.push(bag.entries.len());
            // `order` keeps the order-n ids by position: the prefixes of order n + 1.
        }
        self.order_ids = order;
    }
}

/// The cells of a reference aggregation: each hypothesis against the expected counts of the
/// references, reference `i` weighted by `exp(log_weights[i])`.
#[derive(Debug, Clone, Copy)]
pub struct Aggregation<'a> {
    /// The hypotheses' bags.
    pub hypotheses: &'a [&'a NgramBag],
    /// The references' bags.
    pub references: &'a [&'a NgramBag],
    /// One log weight per reference.
    pub log_weights: &'a [f64],
}

/// Reference aggregation (DeNero et al. 2009; Vamvas & Sennrich 2024): every n-gram's
/// expected count over weighted references, `sum_i exp(ln(count_i) + log_weight_i)` added in
/// reference order, kept with each order's n-grams in order of first appearance, as mbrs
/// builds it with Python `Counter`s (so float sums over it follow the same order).
#[derive(Debug, Default)]
pub struct ExpectedCounts {
    /// By id; valid where `present`.
    counts: Vec<f64>,
    present: Vec<bool>,
    /// Per order (0-based): the ids in order of first appearance, reference by reference.
    by_order: Vec<Vec<u32>>,
}

impl ExpectedCounts {
    /// The expected counts of `references` (bags of one builder, `ids` its
    /// [`BagBuilder::ids`]) with `log_weights[i]` the log weight of reference `i`.
    pub fn new(references: &[&NgramBag], log_weights: &[f64], ids: usize) -> Self {
        let mut expected = Self {
            counts: vec![0.0; ids],
            present: vec![false; ids],
            by_order: Vec::new(),
        };
        for (reference, &log_weight) in references.iter().zip(log_weights) {
            // Most counts are 1 or 2: their weighted values are computed once per reference
            // (the same float operations, so the same values).
            let mut small = [None; 16];
            let mut weigh = |count: u32| -> f64 {
                // mbrs: math.exp(math.log(count) + lprob).
                let compute = || (f64::from(count).ln() + log_weight).exp();
                match small.get_mut(count as usize) {
                    Some(slot) => *slot.get_or_insert_with(compute),
                    None => compute(),
                }
            };
            let orders = reference.orders();
            if expected.by_order.len() < orders {
                expected.by_order.resize_with(orders, Vec::new);
            }
            for (order, seen) in (1..=orders).zip(expected.by_order.iter_mut()) {
                for &(id, count) in reference.entries(order) {
                    let (Some(value), Some(present)) = (
                        expected.counts.get_mut(id as usize),
                        expected.present.get_mut(id as usize),
                    ) else {
                        continue;
                    };
                    let weighted = weigh(count); // then Counter +=
                    if *present {
                        *value += weighted;
                    } else {
                        (*present, *value) = (true, weighted);
                        seen.push(id);
                    }
                }
            }
        }
        expected
    }

    /// Whether `order` (1-based) has no n-gram.
    pub fn is_empty(&self, order: usize) -> bool {
        self.values(order).next().is_none()
    }

    /// The expected counts of `order` (1-based), in order of first appearance.
    pub fn values(&self, order: usize) -> impl Iterator<Item = f64> + '_ {
        let ids = order
            .checked_sub(1)
            .and_then(|o| self.by_order.get(o))
            .map_or(&[][..], Vec::as_slice);
        ids.iter()
            .map(|&id| self.counts.get(id as usize).copied().unwrap_or(0.0))
    }

    /// `score(hypothesis)` of every hypothesis, in order, on `workers` threads.
    ///
    /// # Errors
    /// As [`crate::parallel::map_range`].
    pub fn score_each<F>(
        &self,
        hypotheses: &[&NgramBag],
        workers: i64,
        score: F,
    ) -> Result<Vec<f64>>
    where
        F: Fn(&NgramBag) -> f64 + Sync + Send,
    {
        crate::parallel::map_range(hypotheses.len(), workers, |i| {
            hypotheses.get(i).map_or(0.0, |h| score(h))
        })
    }

    /// `sum(min(count, expected count))` over `hypothesis`' n-grams of `order` that the
    /// references have, added in the hypothesis' order of first occurrence.
    pub fn matches(&self, hypothesis: &NgramBag, order: usize) -> f64 {
        let mut sum = 0.0;
        for &(id, count) in hypothesis.entries(order) {
            if self.present.get(id as usize) == Some(&true) {
                let expected = self.counts.get(id as usize).copied().unwrap_or(0.0);
                sum += f64::from(count).min(expected);
            }
        }
        sum
    }
}

/// A count of this or more is kept in [`DenseCounts::large`]; the dense table holds one byte
/// per id, so that it stays in cache for many thousands of sentences.
const LARGE: u8 = u8::MAX;

/// Per-thread scratch: one reference bag's counts spread over every id, so a hypothesis bag's
/// clipped matches are one lookup per distinct n-gram.
#[derive(Debug, Default)]
pub struct DenseCounts {
    /// Per id: the loaded bag's count, or [`LARGE`] for a count of 255 or more.
    counts: Vec<u8>,
    /// The exact counts of 255 or more, by id.
    large: Vec<(u32, u32)>,
    /// The bag whose counts `counts` holds (to clear exactly those).
    loaded: Vec<u32>,
}

impl DenseCounts {
    /// Holds `bag`'s counts (and no other bag's). `ids` is the builder's [`BagBuilder::ids`].
    pub fn load(&mut self, bag: &NgramBag, ids: usize) {
        for &id in &self.loaded {
            if let Some(c) = self.counts.get_mut(id as usize) {
                *c = 0;
            }
        }
        self.loaded.clear();
        self.large.clear();
        if self.counts.len() < ids {
            self.counts.resize(ids, 0);
        }
        for &(id, count) in bag.all_entries() {
            if let Some(c) = self.counts.get_mut(id as usize) {
                *c = u8::try_from(count).unwrap_or(LARGE);
                if *c == LARGE {
                    self.large.push((id, count));
                }
                self.loaded.push(id);
            }
        }
    }

    /// The clipped matches of `hypothesis`' n-grams of every order against the loaded bag,
    /// `sum(min(count, loaded count))` per order, into `matched` (one value per order).
    pub fn match_orders(&self, hypothesis: &NgramBag, matched: &mut Vec<usize>) {
        matched.clear();
        let mut start = 0;
        for &end in &hypothesis.ends {
            let entries = hypothesis.entries.get(start..end).unwrap_or(&[]);
            // Branch-free on the common path: every lookup is independent of the others.
            let sum = entries
                .iter()
                .map(|&(id, count)| {
                    let r = match self.counts.get(id as usize) {
                        Some(&LARGE) => self.large_count(id),
                        Some(&c) => u32::from(c),
                        None => 0,
                    };
                    r.min(count) as usize
                })
                .sum();
            matched.push(sum);
            start = end;
        }
    }

    #[cold]
    fn large_count(&self, id: u32) -> u32 {
        self.large
            .iter()
            .find(|&&(large, _)| large == id)
            .map_or(0, |&(_, count)| count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::ngrams::{empty, prefix_id};

    fn matches(dense: &mut DenseCounts, bag: &NgramBag, order: usize) -> usize {
        let mut matched = Vec::new();
        dense.match_orders(bag, &mut matched);
        matched.get(order - 1).copied().unwrap_or(0)
    }

    fn bag(builder: &mut BagBuilder, symbols: &[u32], max_order: usize) -> NgramBag {
        let mut bag = NgramBag::default();
        builder.add(&mut bag, symbols, 0, max_order);
        bag
    }

    #[test]
    fn counts_every_order_with_shared_ids() {
        let mut builder = BagBuilder::default();
        let a = bag(&mut builder, &[1, 2, 1, 2], 3);
        let b = bag(&mut builder, &[2, 1, 2], 3);
        assert_eq!(
            (a.orders(), a.total(1), a.total(2), a.total(3)),
            (3, 4, 3, 2)
        );
        assert_eq!(a.entries(1).iter().map(|e| e.1).collect::<Vec<_>>(), [2, 2]);
        // "1 2" twice, "2 1" once.
        assert_eq!(a.entries(2).iter().map(|e| e.1).sum::<u32>(), 3);
        assert_eq!(a.entries(2).len(), 2);
        // b's n-grams all occur in a, so no new id was made for them.
        let before = builder.ids();
        let _ = bag(&mut builder, &[2, 1, 2], 3);
        assert_eq!(builder.ids(), before);
        let mut dense = DenseCounts::default();
        dense.load(&a, builder.ids());
        assert_eq!(matches(&mut dense, &b, 1), 3);
        assert_eq!(matches(&mut dense, &b, 2), 2);
        assert_eq!(matches(&mut dense, &b, 3), 1); // "2 1 2" once
        dense.load(&b, builder.ids());
        assert_eq!(matches(&mut dense, &a, 1), 3); // a's two 1s clip to b's one
        assert_eq!(matches(&mut dense, &a, 4), 0);
        // Cleared, the builder numbers from 0 again; a cleared bag counts afresh.
        builder.clear();
        let mut again = a.clone();
        again.clear();
        builder.add(&mut again, &[2, 1, 2], 0, 3);
        assert_eq!(again.entries(1), [(0, 2), (1, 1)]);
        assert_eq!(
            (again.orders(), builder.ids(), builder.keys().len()),
            (3, 5, 5)
        );
    }

    #[test]
    fn keys_give_each_id_its_prefix_and_last_symbol() {
        let mut builder = BagBuilder::default();
        let mut bag = NgramBag::default();
        builder.add(&mut bag, &[7, 8, 7], 0, 2);
        // Unigrams 7 and 8, then bigrams "7 8" and "8 7", each first made by its own prefix.
        assert_eq!(
            builder.keys(),
            [(empty(0), 7), (empty(0), 8), (0, 8), (1, 7)]
        );
        let prefixes: Vec<_> = builder.keys().iter().map(|k| prefix_id(k.0)).collect();
        assert_eq!(prefixes, [None, None, Some(0), Some(1)]);
        builder.clear();
        assert!(builder.keys().is_empty());
    }

    #[test]
    fn counts_of_255_and_more_are_exact() {
        let mut builder = BagBuilder::default();
        let many = bag(&mut builder, &[5; 300], 2);
        let some = bag(&mut builder, &[5; 260], 1);
        let mut dense = DenseCounts::default();
        dense.load(&many, builder.ids());
        assert_eq!(
            (matches(&mut dense, &some, 1), matches(&mut dense, &many, 2)),
            (260, 299)
        );
        dense.load(&some, builder.ids());
        assert_eq!(matches(&mut dense, &many, 1), 260);
        assert_eq!(matches(&mut dense, &many, 2), 0);
    }

    #[test]
    fn expected_counts_follow_the_references() {
        let mut builder = BagBuilder::default();
        let a = bag(&mut builder, &[1, 2, 1], 2);
        let b = bag(&mut builder, &[3, 1], 2);
        let half = 0.5f64.ln();
        let expected = ExpectedCounts::new(&[&a, &b], &[half, half], builder.ids());
        // Unigrams in order of first appearance: 1 (2 in a, 1 in b), 2, then 3.
        let ones: Vec<f64> = expected.values(1).collect();
        assert_eq!(
            ones,
            [
                (2f64.ln() + half).exp() + half.exp(),
                half.exp(),
                half.exp()
            ]
        );
        assert_eq!(expected.values(2).count(), 3); // "1 2", "2 1", "3 1"
        let hyp = bag(&mut builder, &[1, 1, 1, 4], 2);
        assert_eq!(expected.matches(&hyp, 1), ones[0]); // min(3, 1.5); 4 is absent
        assert!(!expected.is_empty(2));
        assert!(expected.is_empty(3));
    }

    #[test]
    fn kinds_and_short_sequences() {
        let mut builder = BagBuilder::default();
        let mut mixed = NgramBag::default();
        builder.add(&mut mixed, &[7], 0, 2);
        builder.add(&mut mixed, &[7], 1, 1);
        assert_eq!(
            (
                mixed.orders(),
                mixed.total(1),
                mixed.total(2),
                mixed.total(3)
            ),
            (3, 1, 0, 1)
        );
        // Symbol 7 as a character and as a word: two ids.
        assert_ne!(mixed.entries(1), mixed.entries(3));
        let empty = bag(&mut builder, &[], 2);
        assert_eq!((empty.total(1), empty.entries(1).len()), (0, 0));
        assert!(empty.entries(0).is_empty());
    }
}
