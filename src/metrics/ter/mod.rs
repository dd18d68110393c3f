//! TER (Snover et al. 2006) exactly as sacrebleu 2.6.0 computes it (`metrics/ter.py`,
//! `metrics/lib_ter.py`).
//!
//! - [`edit_distance`]: the beam edit distance with its trace.
//! - [`shift`]: the greedy shift search, `translation_edit_rate`.
//! - [`score`]: statistics rows to scores (`TER._compute_score_from_stats`).
//!
//! A segment's statistics are the integers `[best_edits, sum_of_ref_lengths, references]`;
//! sacrebleu's `[best_edits, sum_of_ref_lengths / references]` is one float division away.

pub mod edit_distance;
pub mod pairwise;
pub mod score;
pub mod shift;

pub use crate::tokenize::tercom::TerTokenizerConfig;
pub use score::{corpus_score, row_scores, score_from_sums, TerScore};
pub use shift::translation_edit_rate;

use crate::count::vocabulary::Vocabulary;
use crate::error::to_i64;
use crate::error::{Error, Result};
use crate::statistics::{self, SegmentScorer, StatsMetric};

pub use crate::statistics::stream_stats;
use crate::text::{py_rstrip, py_split, SingleSpace, WordRule};
use crate::tokenize::tercom::{self, TokenizerScratch};
use shift::ShiftScratch;

/// Columns of a statistics row: best edits, summed reference lengths, number of references.
pub const WIDTH: usize = 3;

/// Names of the statistics columns, in order.
pub const COLUMNS: [&str; WIDTH] = ["edits", "ref_words", "nrefs"];

/// Per-thread buffers reused across segments.
#[derive(Debug, Default)]
pub struct TerScorer {
    config: TerTokenizerConfig,
    tokenizer: TokenizerScratch,
    tokenized: String,
    retokenized: String,
    /// Word ids of the current segment's references.
    vocabulary: Vocabulary,
    /// The hypothesis' words the references lack, numbered after the references' words.
    unseen: Vocabulary,
    hypothesis: Vec<u32>,
    /// All references' ids back to back; reference `k` is `references[ends[k-1]..ends[k]]`.
    references: Vec<u32>,
    ends: Vec<usize>,
    shift: ShiftScratch,
}

impl TerScorer {
    /// Tokenizes `line` as sacrebleu's TER does for a hypothesis or a reference, and hands
    /// each word to `word`.
    fn words(&mut self, line: &str, is_hypothesis: bool, mut word: impl FnMut(&mut Self, &str)) {
        let config = self.config;
        let mut tokenized = std::mem::take(&mut self.tokenized);
        if config.is_identity() {
            py_split(py_rstrip(line)).for_each(|w| word(self, w));
        } else {
            if is_hypothesis {
                tercom::tokenize_into(line, config, &mut self.tokenizer, &mut tokenized);
            } else {
                // sacrebleu preprocesses references twice (`_cache_references`, then
                // `_extract_reference_info`), and normalizing twice is not always normalizing
                // once: "it's's" becomes "it's 's", then "it 's 's".
                let mut retokenized = std::mem::take(&mut self.retokenized);
                tercom::tokenize_into(line, config, &mut self.tokenizer, &mut retokenized);
                tercom::tokenize_into(&retokenized, config, &mut self.tokenizer, &mut tokenized);
                self.retokenized = retokenized;
            }
            SingleSpace.words(&tokenized).for_each(|w| word(self, w));
        }
        self.tokenized = tokenized;
    }

    /// The words of `line` as [`Self::words`] gives them, owned.
    fn owned_words(&mut self, line: &str, is_hypothesis: bool) -> Vec<Box<str>> {
        let mut out = Vec::new();
        self.words(line, is_hypothesis, |_, w| out.push(Box::from(w)));
        out
    }

    fn clear_references(&mut self) {
        self.vocabulary.clear();
        self.references.clear();
        self.ends.clear();
    }

    fn push_reference_word(&mut self, word: &str) {
        let id = self.vocabulary.intern(word);
        self.references.push(id);
    }

    fn end_reference(&mut self) {
        self.ends.push(self.references.len());
    }

    /// Starts a hypothesis; returns the number of reference words (unseen words are numbered
    /// after them).
    fn start_hypothesis(&mut self) -> Result<u32> {
        self.unseen.clear();
        self.hypothesis.clear();
        u32::try_from(self.vocabulary.len())
            .map_err(|_| Error::invalid_input("a TER segment has more than 2**32 distinct words"))
    }

    fn push_hypothesis_word(&mut self, known: u32, word: &str) {
        let id = match self.vocabulary.lookup(word) {
            Some(id) => id,
            None => known.saturating_add(self.unseen.intern(word)),
        };
        self.hypothesis.push(id);
    }

    /// `[min edits over the references, sum of their lengths, number of references]` of the
    /// hypothesis and references pushed.
    fn finish_row(&mut self, row: &mut [i64]) -> Result<()> {
        let mut best_edits: Option<usize> = None;
        let mut ref_lengths = 0usize;
        let mut start = 0;
        for &end in &self.ends {
            let words = self.references.get(start..end).ok_or_else(|| {
                Error::internal("TER reference ends are increasing and within the word ids")
            })?;
            start = end;
            let (edits, ref_len) = translation_edit_rate(&self.hypothesis, words, &mut self.shift)?;
            ref_lengths += ref_len;
            best_edits = Some(best_edits.map_or(edits, |b| b.min(edits)));
        }
        row.copy_from_slice(&[
            to_i64(best_edits.ok_or_else(|| {
                Error::internal("the driver gives TER at least one reference per segment")
            })?),
            to_i64(ref_lengths),
            to_i64(self.ends.len()),
        ]);
        Ok(())
    }
}

impl<'a> SegmentScorer<'a, str> for TerScorer {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, references: I) -> Result<()> {
        self.clear_references();
        for reference in references {
            self.words(reference, false, Self::push_reference_word);
            self.end_reference();
        }
        Ok(())
    }

    /// `[min edits over the references, sum of their lengths, number of references]`. Word
    /// ids are those of interning the references, then the hypothesis, in one vocabulary.
    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        let known = self.start_hypothesis()?;
        self.words(hypothesis, true, |s, w| s.push_hypothesis_word(known, w));
        self.finish_row(row)
    }
}

/// Text and pre-tokenized sentences ([`pairwise::TerSentence`]) alike: the scorer's impls say
/// what an item is.
impl<'a, X: ?Sized + 'a> StatsMetric<'a, X> for TerTokenizerConfig
where
    TerScorer: SegmentScorer<'a, X>,
{
    type Scorer = TerScorer;

    fn width(&self) -> usize {
        WIDTH
    }

    fn scorer(&self) -> TerScorer {
        TerScorer {
            config: *self,
            ..TerScorer::default()
        }
    }
}

/// The statistics of one hypothesis against its references: `[min edits over the references,
/// sum of the reference lengths, number of references]`. Texts are lowercased already unless
/// TER is case-sensitive.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] when `references` is empty.
pub fn segment_stats(
    hypothesis: &str,
    references: &[&str],
    config: TerTokenizerConfig,
) -> Result<[i64; WIDTH]> {
    let row = statistics::segment_stats(hypothesis, references, config)?;
    <[i64; WIDTH]>::try_from(row.as_slice())
        .map_err(|_| Error::internal(format!("a TER row has {WIDTH} columns, got {}", row.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_statistics() {
        let config = TerTokenizerConfig::default();
        // sacrebleu: 'a b c' against 'a b c d e' (2 edits) and 'x' (3 edits).
        assert_eq!(
            segment_stats("a b c", &["a b c d e", "x"], config).unwrap(),
            [2, 6, 2]
        );
        assert_eq!(segment_stats("", &[""], config).unwrap(), [0, 0, 1]);
        assert_eq!(
            segment_stats("a  b \t", &["  "], config).unwrap(),
            [2, 0, 1]
        );
        assert!(segment_stats("a", &[], config).is_err());
    }

    #[test]
    fn streams_skip_missing_references_and_check_lengths() {
        let config = TerTokenizerConfig::default();
        let hyps = ["a b c", "d e f g h a b c"];
        let streams = vec![
            vec![Some("a b c d e"), Some("a b c d e f g h")],
            vec![Some("x"), None],
        ];
        for workers in [1, 2, -1] {
            assert_eq!(
                stream_stats(&hyps, &streams, config, workers).unwrap(),
                [2, 6, 2, 1, 8, 1]
            );
        }
        let ragged = vec![vec![Some("a")]];
        assert!(stream_stats(&hyps, &ragged, config, 1).is_err());
        let none = vec![vec![None, Some("a")]];
        assert!(stream_stats(&hyps, &none, config, 1).is_err());
        assert!(stream_stats(&hyps, &[], config, 1).is_err());
    }

    #[test]
    fn normalized_tokens_are_interned_per_segment() {
        let config = TerTokenizerConfig {
            normalized: true,
            ..TerTokenizerConfig::default()
        };
        // "a b (c) d." tokenizes to 6 words; the reference differs by one.
        assert_eq!(
            segment_stats("a b (c) d.", &["a b ( c ) e ."], config).unwrap(),
            [1, 7, 1]
        );
        // References are tokenized twice: "it 's 's" (3 words), the hypothesis once: "it's 's".
        assert_eq!(
            segment_stats("it's's", &["it's's"], config).unwrap(),
            [2, 3, 1]
        );
    }
}
