//! GLEU (Wu et al. 2016) statistics exactly as nltk's `corpus_gleu` computes them (Hugging Face
//! evaluate `google_bleu` calls it): one row `[n_match, n_all]` per segment, and the corpus
//! GLEU is `sum(n_match) / sum(n_all)` (0 when that is 0/0).
//!
//! Per segment, with every n-gram of lengths `min_len..=max_len` pooled in one multiset:
//! `tp` is the clipped overlap of hypothesis and reference n-grams, `n_all = max(hypothesis
//! n-grams, reference n-grams)`; references with `n_all == 0` are skipped, and the row is the
//! `(tp, n_all)` of the reference with the highest `tp / n_all` (the first on ties, as
//! Python's `max` keeps it), or `[0, 0]` when no reference is left.

use crate::count::matcher::NgramMatcher;
use crate::error::to_i64;
use crate::error::{Error, Result};
use crate::statistics::{self, Grouped, SegmentScorer, StatsMetric};
use crate::tokenize::{Pipeline, TextScratch};

/// Columns of one GLEU statistics row: `[n_match, n_all]`.
pub const WIDTH: usize = 2;

/// Names of the statistics columns, in order.
pub const COLUMNS: [&str; WIDTH] = ["n_match", "n_all"];

/// The longest accepted n-gram length (nltk's default `max_len` is 4), as for BLEU's
/// [`crate::metrics::bleu::MAX_NGRAM_ORDER`].
pub const MAX_LEN: usize = crate::metrics::bleu::MAX_NGRAM_ORDER;

/// The n-gram lengths GLEU counts (nltk `min_len`, `max_len`; defaults 1 and 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GleuConfig {
    /// Shortest n-gram length counted.
    pub min_len: usize,
    /// Longest n-gram length counted.
    pub max_len: usize,
}

impl Default for GleuConfig {
    fn default() -> Self {
        Self {
            min_len: 1,
            max_len: 4,
        }
    }
}

impl GleuConfig {
    /// Checks `1 <= min_len <= max_len <= MAX_LEN`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] otherwise.
    pub fn validate(&self) -> Result<()> {
        crate::error::check_range("max_len", self.max_len, 1, MAX_LEN)?;
        if self.min_len == 0 || self.min_len > self.max_len {
            return Err(Error::invalid_option(format!(
                "GLEU needs 1 <= min_len <= max_len, got min_len={} and max_len={}",
                self.min_len, self.max_len
            )));
        }
        Ok(())
    }

    /// The number of n-grams of the counted lengths in a sequence of `len` tokens.
    fn ngrams(&self, len: usize) -> usize {
        (self.min_len..=self.max_len)
            .map(|n| (len + 1).saturating_sub(n))
            .sum()
    }
}

/// Per-thread state: the hypothesis n-gram counts live in an [`NgramMatcher`] (added as its
/// "reference"), and each reference is matched against them, since clipping is symmetric.
struct Counter {
    config: GleuConfig,
    matcher: NgramMatcher,
    correct: Vec<i64>,
    total: Vec<i64>,
    tpfp: usize,
    /// The best `(tp, n_all, tp / n_all)` so far.
    best: Option<(i64, usize, f64)>,
}

impl Counter {
    fn new(config: GleuConfig) -> Self {
        Self {
            config,
            matcher: NgramMatcher::new(config.max_len),
            correct: vec![0; config.max_len],
            total: vec![0; config.max_len],
            tpfp: 0,
            best: None,
        }
    }

    fn begin<'t, T: AsRef<[u8]> + ?Sized + 't>(&mut self, hypothesis: impl Iterator<Item = &'t T>) {
        self.matcher.begin_segment();
        let len = self.matcher.add_reference(hypothesis);
        self.tpfp = self.config.ngrams(len);
        self.best = None;
    }

    fn add_reference<'t, T: AsRef<[u8]> + ?Sized + 't>(
        &mut self,
        reference: impl Iterator<Item = &'t T>,
    ) {
        let len = self
            .matcher
            .match_hypothesis(reference, &mut self.correct, &mut self.total);
        let tpfn = self.config.ngrams(len);
        let skip = self.config.min_len.saturating_sub(1);
        let tp: i64 = self.correct.iter().skip(skip).sum();
        let n_all = self.tpfp.max(tpfn);
        if n_all == 0 {
            return;
        }
        // Python's `tp / n_all` on ints below 2**53 is this correctly rounded division.
        #[allow(clippy::cast_precision_loss)]
        let key = tp as f64 / n_all as f64;
        // Python's `max` replaces its pick only for a strictly greater key.
        let better = match self.best {
            None => true,
            Some((_, _, best)) => key > best,
        };
        if better {
            self.best = Some((tp, n_all, key));
        }
    }

    fn finish(&self, row: &mut [i64]) {
        let (tp, n_all) = self.best.map_or((0, 0), |(tp, n_all, _)| (tp, n_all));
        if let [m, a] = row {
            *m = tp;
            *a = to_i64(n_all);
        }
    }
}

/// GLEU's statistics for the driver ([`statistics::rows`]): of text through `pipeline` and
/// BLEU's word split (the words `bleu_stats` counts), or of token sequences counted as given
/// (compared as bytes; `pipeline` unused). A segment without references gets `[0, 0]`.
#[derive(Debug, Clone)]
pub struct GleuStats {
    /// Normalization and tokenizer for text.
    pub pipeline: Pipeline,
    /// The n-gram lengths counted.
    pub config: GleuConfig,
}

impl GleuStats {
    /// The statistics of `config` counted under `pipeline`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an invalid `config`.
    pub fn new(pipeline: impl Into<Pipeline>, config: &GleuConfig) -> Result<Self> {
        config.validate()?;
        Ok(Self {
            pipeline: pipeline.into(),
            config: *config,
        })
    }
}

/// A segment's state: its references, each matched against the hypothesis' n-grams.
pub struct GleuScorer<'a, X: ?Sized> {
    counter: Counter,
    pipeline: Pipeline,
    references: Vec<&'a X>,
    text: TextScratch,
}

impl<'a> SegmentScorer<'a, str> for GleuScorer<'a, str> {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, references: I) -> Result<()> {
        self.references.clear();
        self.references.extend(references);
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        let (pipeline, text) = (&self.pipeline, &mut self.text);
        self.counter.begin(pipeline.tokens(hypothesis, text)?);
        for reference in &self.references {
            self.counter
                .add_reference(pipeline.tokens(reference, text)?);
        }
        self.counter.finish(row);
        Ok(())
    }
}

impl<'a, T: AsRef<[u8]> + 'a> SegmentScorer<'a, [T]> for GleuScorer<'a, [T]> {
    fn prepare<I: Iterator<Item = &'a [T]>>(&mut self, references: I) -> Result<()> {
        self.references.clear();
        self.references.extend(references);
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a [T], row: &mut [i64]) -> Result<()> {
        self.counter.begin(hypothesis.iter());
        for reference in &self.references {
            self.counter.add_reference(reference.iter());
        }
        self.counter.finish(row);
        Ok(())
    }
}

/// Text and token sequences alike: the scorer's impls say what an item is.
impl<'a, X: ?Sized + 'a> StatsMetric<'a, X> for GleuStats
where
    GleuScorer<'a, X>: SegmentScorer<'a, X>,
{
    type Scorer = GleuScorer<'a, X>;
    const NEEDS_REFERENCES: bool = false;
    const SHARES_PREPARED_REFERENCES: bool = false;

    fn width(&self) -> usize {
        WIDTH
    }

    fn scorer(&self) -> Self::Scorer {
        GleuScorer {
            counter: Counter::new(self.config),
            pipeline: self.pipeline.clone(),
            references: Vec::new(),
            text: TextScratch::default(),
        }
    }
}

/// GLEU rows of text: each line goes through `pipeline` and BLEU's word split (the same
/// words `bleu_stats` counts); `references[i]` lists the references of `hypotheses[i]` and
/// may be empty (its row is `[0, 0]`). Returns a row-major `(n, 2)` matrix.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when `references` and `hypotheses` differ in length.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `config` or `workers`.
pub fn text_stats(
    hypotheses: &[&str],
    references: &[Vec<&str>],
    pipeline: impl Into<Pipeline>,
    config: &GleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let metric = GleuStats::new(pipeline, config)?;
    statistics::rows(&Grouped::new(hypotheses, references), &metric, workers)
}

/// GLEU rows of already-split tokens (`&str` or `&[u8]`, compared as bytes), counted as given.
///
/// # Errors
/// As [`text_stats`].
pub fn token_stats<T: AsRef<[u8]> + Sync>(
    hypotheses: &[Vec<T>],
    references: &[Vec<Vec<T>>],
    config: &GleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let metric = GleuStats::new(crate::tokenize::Tokenizer::None, config)?;
    statistics::rows(&Grouped::new(hypotheses, references), &metric, workers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::Tokenizer;

    fn tokens(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    fn row(hyp: &str, refs: &[&str], config: GleuConfig) -> [i64; 2] {
        let hyps = vec![tokens(hyp)];
        let refs = vec![refs.iter().map(|r| tokens(r)).collect()];
        let rows = token_stats(&hyps, &refs, &config, 1).unwrap();
        [rows[0], rows[1]]
    }

    #[test]
    fn nltk_sentence_gleu_example() {
        // sentence_gleu([ref], hyp) == 0.5
        let r = row(
            "the cat sat on the mat",
            &["the cat is on the mat"],
            GleuConfig::default(),
        );
        assert_eq!(r, [9, 18]);
    }

    #[test]
    fn symmetric_in_hypothesis_and_reference() {
        let config = GleuConfig::default();
        // [a b c] has 6 n-grams, [a b] 3; overlap a, b, "a b".
        assert_eq!(row("a b c", &["a b"], config), [3, 6]);
        assert_eq!(row("a b", &["a b c"], config), [3, 6]);
    }

    #[test]
    fn best_reference_and_ties() {
        let config = GleuConfig::default();
        // Ratios 3/6 and 1/2 are equal: the first reference wins.
        assert_eq!(row("a b c", &["a b", "a x"], config), [3, 6]);
        assert_eq!(row("a b", &["x y z w", "a b c"], config), [3, 6]);
        // Equal keys from different pairs (1/3 and 2/6): the first listed wins.
        assert_eq!(row("a b", &["a c", "b x a"], config), [1, 3]);
        assert_eq!(row("a b", &["b x a", "a c"], config), [2, 6]);
    }

    #[test]
    fn empty_sequences_and_lengths() {
        let config = GleuConfig::default();
        assert_eq!(row("", &["", ""], config), [0, 0]);
        assert_eq!(row("", &[], config), [0, 0]);
        assert_eq!(row("", &["", "a"], config), [0, 1]);
        assert_eq!(row("a a a", &["a"], config), [1, 6]);
        let bigrams = GleuConfig {
            min_len: 2,
            max_len: 2,
        };
        assert_eq!(row("a b c", &["a b d"], bigrams), [1, 2]);
        assert_eq!(row("a", &["a"], bigrams), [0, 0]);
    }

    #[test]
    fn text_equals_tokens() {
        let hyps = ["The cat, sat.", "a b c", ""];
        let refs = vec![vec!["The cat sat.", "the cat"], vec![], vec!["x"]];
        let config = GleuConfig::default();
        let text = text_stats(&hyps, &refs, Tokenizer::V13a, &config, 1).unwrap();
        assert_eq!(text, [6, 14, 0, 0, 0, 1]);
        let split = text_stats(&hyps, &refs, Tokenizer::None, &config, 1).unwrap();
        let hyp_tokens: Vec<Vec<&str>> = hyps.iter().map(|h| tokens(h)).collect();
        let ref_tokens: Vec<Vec<Vec<&str>>> = refs
            .iter()
            .map(|r| r.iter().map(|t| tokens(t)).collect())
            .collect();
        assert_eq!(
            split,
            token_stats(&hyp_tokens, &ref_tokens, &config, 2).unwrap()
        );
    }

    #[test]
    fn invalid_lengths_and_shapes() {
        for (min_len, max_len) in [(0, 4), (3, 2)] {
            let config = GleuConfig { min_len, max_len };
            let err = token_stats::<&str>(&[], &[], &config, 1).unwrap_err();
            assert!(err.message().contains("1 <= min_len <= max_len"), "{err}");
        }
        let err = text_stats(&["a"], &[], Tokenizer::None, &GleuConfig::default(), 1).unwrap_err();
        assert!(
            err.message()
                .starts_with("hypotheses has 1 items but references has 0"),
            "{err}"
        );
    }

    #[test]
    fn mecab_in_the_pipeline_counts_mecabs_tokens() {
        let Some(model) = crate::tokenize::mecab::testing::ipadic() else {
            return;
        };
        let model = std::sync::Arc::new(model);
        let hyps = ["猫がマットの上に座った。", "犬が吠えた。"];
        let refs = vec![vec!["猫はマットの上に座った。", "猫が座った。"], vec![]];
        let pipeline = Pipeline::mecab(None, std::sync::Arc::clone(&model));
        let config = GleuConfig::default();
        let rows = text_stats(&hyps, &refs, pipeline, &config, 1).unwrap();
        let split = |line: &str| -> Vec<String> {
            let parsed = model.tokenize_batch(&[line], 1).unwrap();
            parsed[0].split_whitespace().map(str::to_owned).collect()
        };
        let hyp_tokens: Vec<Vec<String>> = hyps.iter().map(|h| split(h)).collect();
        let ref_tokens: Vec<Vec<Vec<String>>> = refs
            .iter()
            .map(|r| r.iter().map(|t| split(t)).collect())
            .collect();
        let expected = token_stats(&hyp_tokens, &ref_tokens, &config, 1).unwrap();
        assert_eq!(rows, expected);
        assert!(rows[0] > 0, "{rows:?}");
    }
}
