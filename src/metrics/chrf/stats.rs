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
use crate::error::to_i64;
use crate::error::Result;
use crate::id_table::IdTable;
use crate::statistics::{self, Grouped, SegmentScorer, StatsMetric, Streams};
use crate::text::{is_py_whitespace, py_split};
use crate::vocabulary::Vocabulary;

const ABSENT: u32 = u32::MAX;

/// Past this many ids (one very long segment) the tables are dropped rather than cleared.
const MAX_RETAINED_IDS: usize = 1 << 14;

/// sacrebleu's `_PUNCTS`: ASCII `string.punctuation`.
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation()
}

/// sacrebleu's `CHRF._remove_punctuation`: Python-whitespace words, with one ASCII punctuation
/// character split off the end, or else off the start, of every word longer than one character.
pub(crate) fn push_words<'a>(line: &'a str, out: &mut Vec<&'a str>) {
    for word in py_split(line) {
        let mut chars = word.chars();
        let (Some(first), Some(last)) = (chars.next(), chars.next_back()) else {
            out.push(word); // one character
            continue;
        };
        // The punctuation is ASCII, one byte, so the cut is a character boundary.
        let cut = if is_punct(last) {
            word.len() - 1
        } else if is_punct(first) {
            1
        } else {
            0
        };
        match word.split_at_checked(cut) {
            Some((head, tail)) if cut > 0 => out.extend([head, tail]),
            _ => out.push(word),
        }
    }
}

/// Appends the code points chrF counts: all of them with `whitespace`, else all but
/// whitespace.
pub(crate) fn push_chars(line: &str, whitespace: bool, out: &mut Vec<u32>) {
    if whitespace {
        out.extend(line.chars().map(u32::from));
    } else {
        out.extend(
            line.chars()
                .filter(|&c| !is_py_whitespace(c))
                .map(u32::from),
        );
    }
}

/// The n-grams (orders `1..=max_order`) of one segment's references, over one kind of symbol.
#[derive(Debug, Default)]
struct ReferenceNgrams {
    max_order: usize,
    /// (prefix id << 32 | symbol) -> n-gram id; order 1 uses the prefix `ABSENT`.
    ids: IdTable,
    next_id: u32,
    /// Per reference: its count of every id, and its length in symbols.
    counts: Vec<Vec<u32>>,
    lengths: Vec<usize>,
    /// Ids of the sequence being processed, at the current order.
    order_ids: Vec<u32>,
    /// Ids whose budget a hypothesis used, to give it back.
    touched: Vec<u32>,
}

/// Turns `order` from the ids of the (n-1)-grams starting at each position into those of the
/// n-grams (from the symbols themselves when `n == 1`), with `id(prefix, last)` giving each
/// n-gram's id; order 1 has the prefix `ABSENT`.
fn next_order(
    order: &mut Vec<u32>,
    symbols: &[u32],
    n: usize,
    mut id: impl FnMut(u32, u32) -> u32,
) {
    order.truncate((symbols.len() + 1).saturating_sub(n));
    if n == 1 {
        for slot in order.iter_mut() {
            *slot = id(ABSENT, *slot);
        }
    } else {
        for (slot, &last) in order.iter_mut().zip(symbols.iter().skip(n - 1)) {
            *slot = id(*slot, last);
        }
    }
}

#[inline]
fn key(prefix: u32, symbol: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(symbol)
}

impl ReferenceNgrams {
    fn new(max_order: usize) -> Self {
        Self {
            max_order,
            ..Self::default()
        }
    }

    fn clear(&mut self) {
        if self.ids.capacity() > MAX_RETAINED_IDS {
            *self = Self::new(self.max_order);
            return;
        }
        self.ids.clear();
        self.next_id = 0;
        self.lengths.clear();
        for c in &mut self.counts {
            c.clear();
        }
    }

    fn intern(&mut self, prefix: u32, symbol: u32) -> u32 {
        let next = &mut self.next_id;
        self.ids.find_or_insert(
            key(prefix, symbol),
            |_| true,
            || {
                let id = *next;
                *next += 1;
                id
            },
        )
    }

    #[inline]
    fn lookup(&self, prefix: u32, symbol: u32) -> u32 {
        if symbol == ABSENT {
            return ABSENT;
        }
        self.ids
            .find(key(prefix, symbol), |_| true)
            .unwrap_or(ABSENT)
    }

    /// Adds the next reference, given as symbols.
    fn add_reference(&mut self, symbols: &[u32]) {
        let r = self.lengths.len();
        self.lengths.push(symbols.len());
        if self.counts.len() <= r {
            self.counts.push(Vec::new());
        }
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(symbols);
        for n in 1..=self.max_order {
            next_order(&mut order, symbols, n, |prefix, last| {
                self.intern(prefix, last)
            });
            let Some(counts) = self.counts.get_mut(r) else {
                debug_assert!(false, "a count table per reference was pushed above");
                break;
            };
            counts.resize(self.next_id as usize, 0);
            for &id in &order {
                // Every id was just interned, so it is below next_id, the table's length.
                debug_assert!((id as usize) < counts.len(), "interned id {id} has a count");
                if let Some(c) = counts.get_mut(id as usize) {
                    *c += 1;
                }
            }
        }
        self.order_ids = order;
    }

    /// Writes `[hyp, ref, match]` for every order of the hypothesis `symbols` against every
    /// reference: `rows[r]` starts at column `3 * first_order`.
    fn match_hypothesis(&mut self, symbols: &[u32], rows: &mut [Vec<i64>], first_order: usize) {
        let mut order = std::mem::take(&mut self.order_ids);
        order.clear();
        order.extend_from_slice(symbols);
        for n in 1..=self.max_order {
            next_order(&mut order, symbols, n, |prefix, last| {
                // An n-gram whose prefix no reference has cannot be in a reference either.
                if n > 1 && prefix == ABSENT {
                    ABSENT
                } else {
                    self.lookup(prefix, last)
                }
            });
            let column = 3 * (first_order + n - 1);
            for ((row, counts), &ref_len) in
                rows.iter_mut().zip(&mut self.counts).zip(&self.lengths)
            {
                let ref_total = (ref_len + 1).saturating_sub(n);
                let mut matched = 0i64;
                for &id in &order {
                    // An occurrence matches while the reference count has budget left. No
                    // count (ABSENT, or an id interned after this reference) means none.
                    if let Some(budget) = counts.get_mut(id as usize) {
                        if *budget > 0 {
                            *budget -= 1;
                            self.touched.push(id);
                            matched += 1;
                        }
                    }
                }
                for &id in &self.touched {
                    if let Some(budget) = counts.get_mut(id as usize) {
                        *budget += 1;
                    }
                }
                self.touched.clear();
                // sacrebleu counts no hypothesis n-grams when the reference has none.
                let hyp_total = if ref_total > 0 { order.len() } else { 0 };
                // Rows have 3 columns per order: the caller sized them from the config.
                debug_assert!(column + 3 <= row.len(), "a row holds every order");
                if let Some(cells) = row.get_mut(column..column + 3) {
                    cells.copy_from_slice(&[to_i64(hyp_total), to_i64(ref_total), matched]);
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
        push_chars(line, self.config.whitespace, &mut self.symbols);
    }
}

impl<'a> SegmentScorer<'a, str> for ChrfScorer {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, refs: I) -> Result<()> {
        self.chars.clear();
        self.words.clear();
        self.vocabulary.clear();
        self.references = 0;
        let mut words = Vec::new();
        for reference in refs {
            self.references += 1;
            self.char_symbols(reference);
            self.chars.add_reference(&self.symbols);
            if self.config.word_order > 0 {
                words.clear();
                push_words(reference, &mut words);
                self.word_buf.clear();
                for w in &words {
                    let id = self.vocabulary.intern(w);
                    self.word_buf.push(id);
                }
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
            let mut words = Vec::new();
            push_words(hypothesis, &mut words);
            self.word_buf.clear();
            for w in &words {
                self.word_buf
                    .push(self.vocabulary.lookup(w).unwrap_or(ABSENT));
            }
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
}

/// Statistics for hypotheses against reference streams (`streams[k][i]`, `None` drops a
/// reference). Returns a row-major `(n, config.width())` matrix.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
///   hypotheses, or a segment has no reference at all.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `config` or `workers`.
pub fn stream_stats(
    hypotheses: &[&str],
    streams: &[Vec<Option<&str>>],
    config: &ChrfConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    config.validate()?;
    statistics::rows(&Streams::new(hypotheses, streams), config, workers)
}

/// The statistics row of one hypothesis against its references.
///
/// # Errors
/// As [`stream_stats`].
pub fn segment_stats(
    hypothesis: &str,
    references: &[&str],
    config: &ChrfConfig,
) -> Result<Vec<i64>> {
    config.validate()?;
    let references = [references.to_vec()];
    statistics::rows(&Grouped::new(&[hypothesis], &references), config, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        let mut out = Vec::new();
        push_words(line, &mut out);
        out
    }

    #[test]
    fn punctuation_split_follows_sacrebleu() {
        // sacrebleu.md §3.1: one character only, the end first (#124).
        assert_eq!(
            words("(hi) word.) 'x' a , ..."),
            ["(hi", ")", "word.", ")", "'x", "'", "a", ",", "..", "."]
        );
        assert_eq!(words("¿qué? «x»"), ["¿qué", "?", "«x»"]);
    }

    #[test]
    fn chrf_plus_plus_row_matches_sacrebleu() {
        let config = ChrfConfig {
            word_order: 2,
            ..ChrfConfig::default()
        };
        let row = segment_stats("(hi) there.", &["hi there!"], &config).unwrap();
        assert_eq!(
            row,
            [10, 8, 7, 9, 7, 5, 8, 6, 3, 7, 5, 2, 6, 4, 1, 5, 3, 0, 4, 3, 1, 3, 2, 0]
        );
    }

    #[test]
    fn hypothesis_ngrams_are_not_counted_where_the_reference_has_none() {
        let row = segment_stats("abcdef", &["ab"], &ChrfConfig::default()).unwrap();
        assert_eq!(&row[..6], &[6, 2, 2, 5, 1, 1]);
        assert_eq!(&row[6..], &[0; 12]);
    }

    #[test]
    fn best_reference_wins_and_first_wins_ties() {
        let config = ChrfConfig::default();
        let a = segment_stats("the cat", &["a dog", "the cat"], &config).unwrap();
        let b = segment_stats("the cat", &["the cat"], &config).unwrap();
        assert_eq!(a, b);
        let tie = segment_stats("ab", &["ab", "ab"], &config).unwrap();
        assert_eq!(tie, segment_stats("ab", &["ab"], &config).unwrap());
    }

    #[test]
    fn repeated_ngrams_are_clipped_per_reference() {
        let row = segment_stats("aaaa", &["aa"], &ChrfConfig::default()).unwrap();
        assert_eq!(&row[..6], &[4, 2, 2, 3, 1, 1]);
    }
}
