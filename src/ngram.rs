//! Clipped n-gram matching over interned token ids: no `String` per n-gram.
//!
//! Within one segment every distinct token gets a dense id, and every distinct n-gram of order
//! `n >= 2` gets a dense id from the pair (id of its `(n-1)`-gram prefix, id of its last token).
//! Counts then live in plain vectors indexed by id. References are interned first; hypothesis
//! n-grams are only looked up, because an n-gram absent from every reference cannot match.

use std::hash::Hasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHasher};

const ABSENT: u32 = u32::MAX;

fn hash_token(token: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(token.as_bytes());
    h.finish()
}

/// Reusable scratch state that computes BLEU's clipped n-gram counts for one segment at a time.
#[derive(Debug, Default)]
pub struct NgramMatcher {
    max_order: usize,
    /// Token text, concatenated; `spans[slot] = (start, end, id)` locates each distinct token.
    arena: String,
    spans: Vec<(usize, usize, u32)>,
    /// Hash table of slots into `spans`.
    tokens: HashTable<u32>,
    /// (prefix id << 32 | last token id) -> n-gram id, for orders >= 2.
    ngrams: FxHashMap<u64, u32>,
    next_id: u32,
    /// Per id: the maximum count over the references seen so far.
    ref_max: Vec<u32>,
    /// Per id: the count in the sequence being processed (zeroed again after each use).
    current: Vec<u32>,
    touched: Vec<u32>,
    /// Ids of the sequence being processed: `order_ids` for the current order, `token_ids` for
    /// order 1.
    token_ids: Vec<u32>,
    order_ids: Vec<u32>,
}

impl NgramMatcher {
    /// A matcher for n-gram orders `1..=max_order`.
    pub fn new(max_order: usize) -> Self {
        Self {
            max_order,
            ngrams: FxHashMap::with_capacity_and_hasher(256, FxBuildHasher),
            ..Self::default()
        }
    }

    /// Forgets the previous segment.
    pub fn begin_segment(&mut self) {
        self.arena.clear();
        self.spans.clear();
        self.tokens.clear();
        self.ngrams.clear();
        self.next_id = 0;
        self.ref_max.clear();
        self.current.clear();
    }

    fn new_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.ref_max.push(0);
        self.current.push(0);
        id
    }

    /// The text of the token stored at `spans[slot]`.
    fn token_text(&self, slot: u32) -> Option<&str> {
        let &(start, end, _) = self.spans.get(slot as usize)?;
        self.arena.get(start..end)
    }

    fn find_token(&self, hash: u64, token: &str) -> Option<u32> {
        let slot = self
            .tokens
            .find(hash, |&slot| self.token_text(slot) == Some(token))?;
        self.spans.get(*slot as usize).map(|&(_, _, id)| id)
    }

    fn intern_token(&mut self, token: &str) -> u32 {
        let hash = hash_token(token);
        if let Some(id) = self.find_token(hash, token) {
            return id;
        }
        let id = self.new_id();
        let start = self.arena.len();
        self.arena.push_str(token);
        let slot = u32::try_from(self.spans.len()).unwrap_or(u32::MAX);
        self.spans.push((start, self.arena.len(), id));
        let (arena, spans) = (&self.arena, &self.spans);
        self.tokens.insert_unique(hash, slot, |&slot| {
            spans
                .get(slot as usize)
                .and_then(|&(s, e, _)| arena.get(s..e))
                .map_or(0, hash_token)
        });
        id
    }

    fn lookup_token(&self, token: &str) -> u32 {
        self.find_token(hash_token(token), token).unwrap_or(ABSENT)
    }

    fn bump(&mut self, id: u32) -> u32 {
        match self.current.get_mut(id as usize) {
            Some(c) => {
                if *c == 0 {
                    self.touched.push(id);
                }
                *c += 1;
                *c
            }
            None => 0,
        }
    }

    /// Adds one reference; returns its length in tokens.
    pub fn add_reference<'t>(&mut self, tokens: impl Iterator<Item = &'t str>) -> usize {
        let mut ids = std::mem::take(&mut self.token_ids);
        ids.clear();
        for token in tokens {
            let id = self.intern_token(token);
            ids.push(id);
        }
        let len = ids.len();
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(&ids);
        for n in 1..=self.max_order {
            if n > 1 {
                // order[i] held the (n-1)-gram starting at i; extend it by token i+n-1.
                let count = (len + 1).saturating_sub(n);
                order.truncate(count);
                for (i, slot) in order.iter_mut().enumerate() {
                    let last = ids.get(i + n - 1).copied().unwrap_or(ABSENT);
                    let key = (u64::from(*slot) << 32) | u64::from(last);
                    *slot = match self.ngrams.get(&key) {
                        Some(&id) => id,
                        None => {
                            let id = self.new_id();
                            self.ngrams.insert(key, id);
                            id
                        }
                    };
                }
            }
            for &id in &order {
                self.bump(id);
            }
        }
        for &id in &self.touched {
            let i = id as usize;
            if let (Some(m), Some(c)) = (self.ref_max.get_mut(i), self.current.get_mut(i)) {
                *m = (*m).max(*c);
                *c = 0;
            }
        }
        self.touched.clear();
        self.token_ids = ids;
        self.order_ids = order;
        len
    }

    /// Matches the hypothesis against the references added so far. Writes per-order clipped
    /// matches into `correct` and n-gram totals into `total` (both `max_order` long) and
    /// returns the hypothesis length in tokens.
    pub fn match_hypothesis<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t str>,
        correct: &mut [i64],
        total: &mut [i64],
    ) -> usize {
        let mut ids = std::mem::take(&mut self.token_ids);
        ids.clear();
        for token in tokens {
            ids.push(self.lookup_token(token));
        }
        let len = ids.len();
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(&ids);
        for n in 1..=self.max_order {
            if n > 1 {
                let count = (len + 1).saturating_sub(n);
                order.truncate(count);
                for (i, slot) in order.iter_mut().enumerate() {
                    let last = ids.get(i + n - 1).copied().unwrap_or(ABSENT);
                    *slot = if *slot == ABSENT || last == ABSENT {
                        ABSENT
                    } else {
                        let key = (u64::from(*slot) << 32) | u64::from(last);
                        self.ngrams.get(&key).copied().unwrap_or(ABSENT)
                    };
                }
            }
            let mut matched = 0i64;
            for &id in &order {
                if id == ABSENT {
                    continue;
                }
                let limit = self.ref_max.get(id as usize).copied().unwrap_or(0);
                // Each occurrence matches while the clip (max reference count) allows.
                if self.bump(id) <= limit {
                    matched += 1;
                }
            }
            if let Some(c) = correct.get_mut(n - 1) {
                *c = matched;
            }
            if let Some(t) = total.get_mut(n - 1) {
                *t = i64::try_from(order.len()).unwrap_or(i64::MAX);
            }
        }
        for &id in &self.touched {
            if let Some(c) = self.current.get_mut(id as usize) {
                *c = 0;
            }
        }
        self.touched.clear();
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
        }
    }
}
