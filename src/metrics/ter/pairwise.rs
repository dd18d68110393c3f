//! TER between every pair of two sets: each sentence tokenized once, as sacrebleu reads it as
//! a hypothesis and as a reference (references are normalized twice), then each cell's row
//! `[edits, ref_words, 1]` from the words, equal to the row [`super::segment_stats`] makes.

use super::{TerScorer, TerTokenizerConfig};
use crate::error::Result;
use crate::parallel;
use crate::statistics::{SegmentScorer, StatsMetric};

/// One sentence's words, as a hypothesis and as a reference.
#[derive(Debug, Clone, Default)]
pub struct TerSentence {
    hypothesis: Vec<Box<str>>,
    reference: Vec<Box<str>>,
}

/// Sentences tokenized once under one [`TerTokenizerConfig`].
#[derive(Debug, Default)]
pub struct TerSentences {
    /// One entry per sentence, in input order.
    pub sentences: Vec<TerSentence>,
    config: TerTokenizerConfig,
}

impl TerSentences {
    /// Tokenizes `lines` (lowercased already unless TER is case-sensitive) on `workers`
    /// threads.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an invalid `workers`.
    pub fn from_text(lines: &[&str], config: TerTokenizerConfig, workers: i64) -> Result<Self> {
        let sentences = parallel::map_init(
            lines,
            workers,
            || <TerTokenizerConfig as StatsMetric<'_, str>>::scorer(&config),
            |scorer: &mut TerScorer, line| TerSentence {
                hypothesis: scorer.owned_words(line, true),
                reference: scorer.owned_words(line, false),
            },
        )?;
        Ok(Self { sentences, config })
    }

    /// The configuration the sentences were tokenized with: the pairwise driver's metric.
    pub fn config(&self) -> TerTokenizerConfig {
        self.config
    }
}

impl<'a> SegmentScorer<'a, TerSentence> for TerScorer {
    fn prepare<I: Iterator<Item = &'a TerSentence>>(&mut self, references: I) -> Result<()> {
        self.clear_references();
        for reference in references {
            reference
                .reference
                .iter()
                .for_each(|w| self.push_reference_word(w));
            self.end_reference();
        }
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a TerSentence, row: &mut [i64]) -> Result<()> {
        let known = self.start_hypothesis()?;
        for w in &hypothesis.hypothesis {
            self.push_hypothesis_word(known, w);
        }
        self.finish_row(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ter::{segment_stats, WIDTH};
    use crate::statistics::pairwise;

    #[test]
    fn cells_equal_the_text_rows() {
        let lines = [
            "It's a test, isn't it?",
            "it 's a test isn't it",
            "",
            "A b c d e.",
            "a  b\tc",
            "it's's",
        ];
        for (normalized, no_punct, asian_support) in [
            (false, false, false),
            (true, false, false),
            (true, true, true),
        ] {
            let config = TerTokenizerConfig {
                normalized,
                no_punct,
                asian_support,
            };
            let counted = TerSentences::from_text(&lines, config, 2).unwrap();
            let items: Vec<&TerSentence> = counted.sentences.iter().collect();
            let rows = pairwise::rows(&items, &items, &counted.config(), 1).unwrap();
            for (i, h) in lines.iter().enumerate() {
                for (j, r) in lines.iter().enumerate() {
                    let k = (i * lines.len() + j) * WIDTH;
                    let expected = segment_stats(h, &[r], config).unwrap();
                    assert_eq!(&rows[k..k + WIDTH], &expected, "{h:?} against {r:?}");
                }
            }
        }
    }
}
