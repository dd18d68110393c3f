//! Clipped n-gram counts against several references, as BLEU counts them: per n-gram, the
//! hypothesis occurrences clipped to the maximum count in any one reference.
//!
//! Tokens get dense ids from a [`Vocabulary`] and n-grams of order `n >= 2` from
//! [`NgramIds`], in one id space (a token's id is its unigram's). References are interned
//! first, keeping per id the maximum count over references; hypothesis n-grams are only looked
//! up, and each occurrence matches while that maximum has budget left ([`Clip`]), which sums
//! to the clipped counts.

use super::clip::{count, Clip};
use super::ngrams::{extend_order, NgramIds, ABSENT};
use super::vocabulary::Vocabulary;
use crate::error::to_i64;

/// Reusable scratch state that computes BLEU's clipped n-gram counts for one segment at a time.
#[derive(Debug, Default)]
pub struct NgramMatcher {
    max_order: usize,
    /// Token text -> id; ids come from `ngrams`, so tokens and n-grams share one id space.
    tokens: Vocabulary,
    /// (prefix id, last token id) -> n-gram id, for orders >= 2.
    ngrams: NgramIds,
    /// Per id: the maximum count over the references.
    ref_max: Vec<u32>,
    /// Per id: counts in the reference being added, for second and later references.
    current: Vec<u32>,
    /// Ids whose `current` count changed.
    touched: Vec<u32>,
    /// The budget a hypothesis took from `ref_max`.
    clip: Clip,
    references: usize,
    /// Ids of the sequence being processed: tokens, then n-grams of the current order.
    token_ids: Vec<u32>,
    order_ids: Vec<u32>,
}

impl NgramMatcher {
    /// A matcher for n-gram orders `1..=max_order`.
    pub fn new(max_order: usize) -> Self {
        Self {
            max_order,
            ..Self::default()
        }
    }

    /// Forgets the previous segment.
    pub fn begin_segment(&mut self) {
        self.tokens.clear();
        self.ngrams.clear();
        self.ref_max.clear();
        self.current.clear();
        self.references = 0;
    }

    /// Adds one reference; returns its length in tokens. Tokens are `&str` or `&[u8]`
    /// (compared as bytes).
    pub fn add_reference<'t, T: AsRef<[u8]> + ?Sized + 't>(
        &mut self,
        tokens: impl Iterator<Item = &'t T>,
    ) -> usize {
        let mut ids = std::mem::take(&mut self.token_ids);
        ids.clear();
        let ngrams = &mut self.ngrams;
        for token in tokens {
            ids.push(self.tokens.intern_with(token, || ngrams.new_id()));
        }
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(&ids);
        let first = self.references == 0;
        self.references += 1;
        for n in 1..=self.max_order {
            if n > 1 {
                extend_order(&mut order, &ids, n, |prefix, last| {
                    ngrams.intern(prefix, last)
                });
            }
            if first {
                // The maximum over one reference is its count.
                self.ref_max.resize(ngrams.len(), 0);
                count(&mut self.ref_max, &order);
            } else {
                self.current.resize(ngrams.len(), 0);
                for &id in &order {
                    debug_assert!((id as usize) < self.current.len(), "id {id} has a count");
                    if let Some(c) = self.current.get_mut(id as usize) {
                        if *c == 0 {
                            self.touched.push(id);
                        }
                        *c += 1;
                    }
                }
            }
        }
        self.ref_max.resize(ngrams.len(), 0);
        for &id in &self.touched {
            let i = id as usize;
            if let (Some(m), Some(c)) = (self.ref_max.get_mut(i), self.current.get_mut(i)) {
                *m = (*m).max(*c);
                *c = 0;
            }
        }
        self.touched.clear();
        let len = ids.len();
        self.token_ids = ids;
        self.order_ids = order;
        len
    }

    /// Matches the hypothesis against the references added so far. Writes per-order clipped
    /// matches into `correct` and n-gram totals into `total` (both `max_order` long) and
    /// returns the hypothesis length in tokens.
    pub fn match_hypothesis<'t, T: AsRef<[u8]> + ?Sized + 't>(
        &mut self,
        tokens: impl Iterator<Item = &'t T>,
        correct: &mut [i64],
        total: &mut [i64],
    ) -> usize {
        let mut ids = std::mem::take(&mut self.token_ids);
        ids.clear();
        for token in tokens {
            // A hypothesis token the references lack: no id, so it matches nothing.
            ids.push(self.tokens.lookup(token).unwrap_or(ABSENT));
        }
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(&ids);
        let ngrams = &self.ngrams;
        for n in 1..=self.max_order {
            if n > 1 {
                extend_order(&mut order, &ids, n, |prefix, last| {
                    ngrams.lookup(prefix, last)
                });
            }
            // ABSENT (no reference has the n-gram) is beyond ref_max and never matches.
            let matched = self.clip.take(&mut self.ref_max, &order);
            // Both are max_order long (the row's layout); a short one is a caller's bug.
            debug_assert!(correct.len() >= n && total.len() >= n, "room for order {n}");
            if let Some(c) = correct.get_mut(n - 1) {
                *c = to_i64(matched);
            }
            if let Some(t) = total.get_mut(n - 1) {
                *t = to_i64(order.len());
            }
        }
        // Give the budget back, so the references can be matched again.
        self.clip.give_back(&mut self.ref_max);
        let len = ids.len();
        self.token_ids = ids;
        self.order_ids = order;
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clipped(hyp: &str, refs: &[&str], max_order: usize) -> (Vec<i64>, Vec<i64>) {
        let mut m = NgramMatcher::new(max_order);
        m.begin_segment();
        for r in refs {
            m.add_reference(r.split_whitespace());
        }
        let mut correct = vec![0; max_order];
        let mut total = vec![0; max_order];
        m.match_hypothesis(hyp.split_whitespace(), &mut correct, &mut total);
        (correct, total)
    }

    #[test]
    fn clips_by_max_reference_count() {
        let refs = ["the cat is on the mat", "there is a cat on the mat"];
        let cases: &[(&str, &[i64], &[i64])] = &[
            ("the the the the the the the", &[2, 0, 0, 0], &[7, 6, 5, 4]),
            ("the cat the cat on the mat", &[5, 4, 2, 1], &[7, 6, 5, 4]),
            ("", &[0, 0, 0, 0], &[0, 0, 0, 0]),
        ];
        for (hyp, correct, total) in cases {
            let (c, t) = clipped(hyp, &refs, 4);
            assert_eq!((c.as_slice(), t.as_slice()), (*correct, *total), "{hyp}");
        }
    }

    #[test]
    fn sacrebleu_statistics_vector() {
        // sacrebleu test_bleu.py: counts [4,2,1,0], totals [6,5,4,3].
        let (c, t) = clipped(
            "am I am a character sequence",
            &["I am a symbol string sequence a a"],
            4,
        );
        assert_eq!(c, vec![4, 2, 1, 0]);
        assert_eq!(t, vec![6, 5, 4, 3]);
    }

    #[test]
    fn tokens_first_seen_in_a_later_reference() {
        // Ids are shared by tokens and n-grams, so later tokens get ids past earlier n-grams.
        let refs = ["The man bit him first.", "The man had bitten the dog."];
        let (c, _) = clipped("The man had just bitten him.", &refs, 4);
        assert_eq!(c, vec![4, 2, 1, 0]);
    }

    #[test]
    fn reuse_across_segments_and_orders() {
        let mut m = NgramMatcher::new(6);
        for _ in 0..3 {
            m.begin_segment();
            assert_eq!(m.add_reference("a b c a b c".split(' ')), 6);
            let mut c = vec![0; 6];
            let mut t = vec![0; 6];
            assert_eq!(
                m.match_hypothesis("a b c a b c a".split(' '), &mut c, &mut t),
                7
            );
            assert_eq!(c, vec![6, 5, 4, 3, 2, 1]);
            assert_eq!(t, vec![7, 6, 5, 4, 3, 2]);
            // Matching again sees the same references (the budget is given back).
            m.match_hypothesis("a b c".split(' '), &mut c, &mut t);
            assert_eq!(c[..3], [3, 2, 1]);
        }
    }

    #[test]
    fn byte_tokens_count_like_text_tokens() {
        let mut m = NgramMatcher::new(2);
        m.begin_segment();
        let reference: [&[u8]; 3] = [b"a b", b"c", &[0xED, 0xA0, 0x80]];
        assert_eq!(m.add_reference(reference.iter().copied()), 3);
        let (mut c, mut t) = (vec![0; 2], vec![0; 2]);
        let hypothesis: [&[u8]; 4] = [b"a", b"b", b"c", &[0xED, 0xA0, 0x80]];
        m.match_hypothesis(hypothesis.iter().copied(), &mut c, &mut t);
        // "a b" is one token: it matches neither "a" nor "b".
        assert_eq!((c, t), (vec![2, 1], vec![4, 3]));
    }

    #[test]
    fn a_huge_segment_does_not_slow_later_ones() {
        let mut m = NgramMatcher::new(4);
        let long: Vec<String> = (0..50_000).map(|i| format!("w{i}")).collect();
        m.begin_segment();
        m.add_reference(long.iter().map(String::as_str));
        m.begin_segment();
        assert!(m.ngrams.capacity() <= crate::count::id_table::MAX_RETAINED_SLOTS);
        m.add_reference("a b".split(' '));
        let (mut c, mut t) = (vec![0; 4], vec![0; 4]);
        m.match_hypothesis("a b".split(' '), &mut c, &mut t);
        assert_eq!(c, vec![2, 1, 0, 0]);
    }
}
