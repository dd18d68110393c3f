//! Text to chrF statistics: one row `[hyp, ref, match]` per order (character orders first,
//! then word orders), for the reference with the best F-score, as sacrebleu's
//! `CHRF._compute_segment_statistics` builds it.
//!
//! Every n-gram gets a dense id from the pair (id of its `(n-1)`-gram prefix, its last symbol),
//! so no n-gram string is ever built; a symbol is a code point for character n-grams and an
//! interned word for word n-grams. References of a segment share the ids and keep their own
//! counts; the hypothesis is looked up once and matched against each reference.

use super::config::ChrfConfig;
use super::score::f_score;
use crate::count::clip::{count, Clip};
use crate::count::ngrams::{begin_orders, extend_order, NgramIds, ABSENT};
use crate::count::vocabulary::Vocabulary;
use crate::error::to_i64;
use crate::error::Result;
use crate::statistics::{SegmentScorer, StatsMetric};
use crate::tokenize::chrf::{chrf_words, push_chrf_chars};

/// The n-grams (orders `1..=max_order`) of one segment's references, over one kind of symbol.
#[derive(Debug, Default)]
struct ReferenceNgrams {
    max_order: usize,
    ids: NgramIds,
    /// Per reference: its count of every id (its budget), and its length in symbols.
    counts: Vec<Vec<u32>>,
    lengths: Vec<usize>,
    /// Ids of the sequence being processed, at the current order.
    order_ids: Vec<u32>,
    /// The budget a hypothesis took from one reference's counts.
    clip: Clip,
}

impl ReferenceNgrams {
    fn new(max_order: usize) -> Self {
        Self {
            max_order,
            ..Self::default()
        }
    }

    fn clear(&mut self) {
        self.ids.clear();
        self.lengths.clear();
        for c in &mut self.counts {
            c.clear();
        }
    }

    /// Adds the next reference, given as symbols.
    fn add_reference(&mut self, symbols: &[u32]) {
        let r = self.lengths.len();
        self.lengths.push(symbols.len());
        if self.counts.len() <= r {
            self.counts.push(Vec::new());
        }
        let (ids, mut order) = (&mut self.ids, std::mem::take(&mut self.order_ids));
        begin_orders(&mut order, symbols.len(), 0);
        for n in 1..=self.max_order {
            extend_order(&mut order, symbols, n, |prefix, last| {
                ids.intern(prefix, last)
            });
            let Some(counts) = self.counts.get_mut(r) else {
                debug_assert!(false, "a count table per reference was pushed above");
                break;
            };
            counts.resize(ids.len(), 0);
            count(counts, &order);
        }
        self.order_ids = order;
    }

    /// Writes `[hyp, ref, match]` for every order of the hypothesis `symbols` against every
    /// reference: `rows[r]` starts at column `3 * first_order`.
    fn match_hypothesis(&mut self, symbols: &[u32], rows: &mut [Vec<i64>], first_order: usize) {
        let (ids, mut order) = (&self.ids, std::mem::take(&mut self.order_ids));
        begin_orders(&mut order, symbols.len(), 0);
        for n in 1..=self.max_order {
            extend_order(&mut order, symbols, n, |prefix, last| {
                ids.lookup(prefix, last)
            });
            let column = 3 * (first_order + n - 1);
            for ((row, counts), &ref_len) in
                rows.iter_mut().zip(&mut self.counts).zip(&self.lengths)
            {
                let ref_total = (ref_len + 1).saturating_sub(n);
                // No count (ABSENT, or an id interned after this reference) matches nothing.
                let matched = self.clip.take(counts, &order);
                self.clip.give_back(counts);
                // sacrebleu counts no hypothesis n-grams when the reference has none.
                let hyp_total = if ref_total > 0 { order.len() } else { 0 };
                // Rows have 3 columns per order: the caller sized them from the config.
                debug_assert!(column + 3 <= row.len(), "a row holds every order");
                if let Some(cells) = row.get_mut(column..column + 3) {
                    cells.copy_from_slice(&[to_i64(hyp_total), to_i64(ref_total), to_i64(matched)]);
                }
            }
        }
        self.order_ids = order;
    }
}

/// Per-thread state: the prepared references of one segment and reusable buffers.
#[derive(Debug)]
pub struct ChrfScorer {
    config: ChrfConfig,
    chars: ReferenceNgrams,
    words: ReferenceNgrams,
    vocabulary: Vocabulary,
    symbols: Vec<u32>,
    word_buf: Vec<u32>,
    /// One candidate row per reference.
    rows: Vec<Vec<i64>>,
    references: usize,
}

impl ChrfScorer {
    fn new(config: ChrfConfig) -> Self {
        Self {
            config,
            chars: ReferenceNgrams::new(config.char_order),
            words: ReferenceNgrams::new(config.word_order),
            vocabulary: Vocabulary::default(),
            symbols: Vec::new(),
            word_buf: Vec::new(),
            rows: Vec::new(),
            references: 0,
        }
    }

    fn char_symbols(&mut self, line: &str) {
        self.symbols.clear();
        push_chrf_chars(line, self.config.whitespace, &mut self.symbols);
    }
}

impl<'a> SegmentScorer<'a, str> for ChrfScorer {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, refs: I) -> Result<()> {
        self.chars.clear();
        self.words.clear();
        self.vocabulary.clear();
        self.references = 0;
        for reference in refs {
            self.references += 1;
            self.char_symbols(reference);
            self.chars.add_reference(&self.symbols);
            if self.config.word_order > 0 {
                let vocabulary = &mut self.vocabulary;
                self.word_buf.clear();
                self.word_buf
                    .extend(chrf_words(reference).map(|w| vocabulary.intern(w)));
                self.words.add_reference(&self.word_buf);
            }
        }
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        let width = self.config.width();
        self.rows.resize_with(self.references, Vec::new);
        for r in &mut self.rows {
            r.clear();
            r.resize(width, 0);
        }
        self.char_symbols(hypothesis);
        self.chars
            .match_hypothesis(&self.symbols, &mut self.rows, 0);
        if self.config.word_order > 0 {
            let vocabulary = &self.vocabulary;
            self.word_buf.clear();
            self.word_buf
                .extend(chrf_words(hypothesis).map(|w| vocabulary.lookup(w).unwrap_or(ABSENT)));
            self.words
                .match_hypothesis(&self.word_buf, &mut self.rows, self.config.char_order);
        }
        // The reference with the best F-score; the first one wins ties.
        let mut best_f = -1.0;
        let mut best = None;
        for candidate in self.rows.iter().take(self.references) {
            let f = f_score(candidate, &self.config);
            if f > best_f {
                best_f = f;
                best = Some(candidate);
            }
        }
        if let Some(best) = best {
            row.copy_from_slice(best);
        }
        Ok(())
    }
}

impl<'a> StatsMetric<'a, str> for ChrfConfig {
    type Scorer = ChrfScorer;

    fn width(&self) -> usize {
        ChrfConfig::width(self)
    }

    fn scorer(&self) -> ChrfScorer {
        ChrfScorer::new(*self)
    }

    fn validate(&self) -> Result<()> {
        ChrfConfig::validate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::segment_stats;

    #[test]
    fn chrf_plus_plus_row_matches_sacrebleu() {
        let config = ChrfConfig {
            word_order: 2,
            ..ChrfConfig::default()
        };
        let row = segment_stats("(hi) there.", &["hi there!"], config).unwrap();
        assert_eq!(
            row,
            [10, 8, 7, 9, 7, 5, 8, 6, 3, 7, 5, 2, 6, 4, 1, 5, 3, 0, 4, 3, 1, 3, 2, 0]
        );
    }

    #[test]
    fn hypothesis_ngrams_are_not_counted_where_the_reference_has_none() {
        let row = segment_stats("abcdef", &["ab"], ChrfConfig::default()).unwrap();
        assert_eq!(&row[..6], &[6, 2, 2, 5, 1, 1]);
        assert_eq!(&row[6..], &[0; 12]);
    }

    #[test]
    fn best_reference_wins_and_first_wins_ties() {
        let config = ChrfConfig::default();
        let a = segment_stats("the cat", &["a dog", "the cat"], config).unwrap();
        let b = segment_stats("the cat", &["the cat"], config).unwrap();
        assert_eq!(a, b);
        let tie = segment_stats("ab", &["ab", "ab"], config).unwrap();
        assert_eq!(tie, segment_stats("ab", &["ab"], config).unwrap());
    }

    #[test]
    fn repeated_ngrams_are_clipped_per_reference() {
        let row = segment_stats("aaaa", &["aa"], ChrfConfig::default()).unwrap();
        assert_eq!(&row[..6], &[4, 2, 2, 3, 1, 1]);
    }
}
