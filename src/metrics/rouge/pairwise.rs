//! ROUGE between every pair of two sets: each sentence read once into ids a whole set shares
//! ([`RougeSentences`]), then each cell's row from the ids, equal to the row
//! [`crate::statistics::segment_stats`] makes for that pair.

use super::{Matcher, RougeConfig, RougeText, TextIds};
use crate::error::Result;
use crate::statistics::{SegmentScorer, StatsMetric};

/// Sentences read once under one [`RougeConfig`], with ids shared by all of them.
#[derive(Debug)]
pub struct RougeSentences {
    /// One entry per sentence, in input order.
    pub sentences: Vec<RougeText>,
    config: RougeConfig,
}

impl RougeSentences {
    /// Reads `lines` (in order: the ids are handed out as tokens first appear).
    ///
    /// # Errors
    /// The tokenizer's.
    pub fn from_text(lines: &[&str], config: &RougeConfig) -> Result<Self> {
        config.validate()?;
        let mut ids = TextIds::default();
        let mut sentences = Vec::with_capacity(lines.len());
        for line in lines {
            let mut text = RougeText::default();
            ids.read(config, line, true, &mut text)?;
            sentences.push(text);
        }
        Ok(Self {
            sentences,
            config: config.clone(),
        })
    }

    /// The settings they were read with: the pairwise driver's metric.
    pub fn config(&self) -> &RougeConfig {
        &self.config
    }
}

/// The scorer of pairs of read sentences.
#[derive(Debug)]
pub struct SentenceScorer<'c, 'a> {
    config: &'c RougeConfig,
    references: Vec<&'a RougeText>,
    matcher: Matcher,
}

impl<'a> SegmentScorer<'a, RougeText> for SentenceScorer<'_, 'a> {
    fn prepare<I: Iterator<Item = &'a RougeText>>(&mut self, references: I) -> Result<()> {
        self.references.clear();
        self.references.extend(references);
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a RougeText, row: &mut [i64]) -> Result<()> {
        let references = self.references.iter().copied();
        self.matcher.row(self.config, hypothesis, references, row)
    }
}

impl<'a, 'c> StatsMetric<'a, RougeText> for &'c RougeConfig {
    type Scorer = SentenceScorer<'c, 'a>;

    const SHARES_PREPARED_REFERENCES: bool = false;

    fn width(&self) -> usize {
        RougeConfig::width(self)
    }

    fn scorer(&self) -> SentenceScorer<'c, 'a> {
        SentenceScorer {
            config: self,
            references: Vec::new(),
            matcher: Matcher::default(),
        }
    }

    fn validate(&self) -> Result<()> {
        RougeConfig::validate(self)
    }
}
