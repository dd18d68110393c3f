//! BLEU between every pair of two sets: sentences counted once into [`NgramBag`]s, then each
//! cell's row `[hyp_len, ref_len, correct_1..N, total_1..N]` from lookups, equal to the row
//! [`super::stats`] makes for that hypothesis with that one reference.

use super::config::BleuConfig;
use super::python_float::{py_sum, FloatSemantics};
use super::ref_length::RefLength;
use super::score::score_from_float_counts;
use crate::count::vocabulary::Vocabulary;
use crate::count::{Aggregation, BagBuilder, ExpectedCounts, NgramBag};
use crate::statistics::pairwise::{BagRows, MirroredRows};
use std::convert::Infallible;

use crate::error::{to_i64, Error, Result};

use crate::tokenize::{Pipeline, TextScratch};

/// Sentences counted into bags with shared ids: text through a [`Pipeline`], or tokens.
#[derive(Debug, Default)]
pub struct BleuBags {
    /// One bag per sentence, in input order.
    pub bags: Vec<NgramBag>,
    /// Every n-gram id is below this.
    pub ids: usize,
    /// The orders counted.
    pub max_order: usize,
}

impl BleuBags {
    /// Counts `lines` as sacrebleu's BLEU tokenizes them (`pipeline`).
    ///
    /// # Errors
    /// As [`Pipeline::tokens`].
    pub fn from_text(lines: &[&str], pipeline: Pipeline, max_order: usize) -> Result<Self> {
        let mut text = TextScratch::default();
        Self::count(lines, max_order, |line, vocabulary, symbols| {
            let tokens = pipeline.tokens(line, &mut text)?;
            symbols.extend(tokens.map(|w| vocabulary.intern(w)));
            Ok(())
        })
    }

    /// Counts token sequences as given (tokens compare as bytes).
    pub fn from_tokens<T: AsRef<[u8]>>(sequences: &[Vec<T>], max_order: usize) -> Self {
        let counted = Self::count(sequences, max_order, |tokens, vocabulary, symbols| {
            symbols.extend(tokens.iter().map(|t| vocabulary.intern(t)));
            Ok::<(), Infallible>(())
        });
        match counted {
            Ok(bags) => bags,
            Err(never) => match never {},
        }
    }

    /// Bags of `sentences`, whose symbols `symbols_of(sentence, vocabulary, out)` appends.
    fn count<S, E>(
        sentences: &[S],
        max_order: usize,
        mut symbols_of: impl FnMut(&S, &mut Vocabulary, &mut Vec<u32>) -> std::result::Result<(), E>,
    ) -> std::result::Result<Self, E> {
        let mut vocabulary = Vocabulary::default();
        let mut builder = BagBuilder::default();
        let mut symbols = Vec::new();
        let bags = sentences
            .iter()
            .map(|sentence| {
                symbols.clear();
                symbols_of(sentence, &mut vocabulary, &mut symbols)?;
                let mut bag = NgramBag::default();
                builder.add(&mut bag, &symbols, 0, max_order);
                Ok(bag)
            })
            .collect::<std::result::Result<_, E>>()?;
        Ok(Self {
            bags,
            ids: builder.ids(),
            max_order,
        })
    }
}

/// BLEU statistics of bags from one [`BleuBags`]: the pairwise driver's metric.
#[derive(Debug, Clone, Copy)]
pub struct BleuBagStats {
    /// Orders `1..=max_order` (at most the bags' own).
    pub max_order: usize,
    /// The ids of the bags (their [`BleuBags::ids`]).
    pub ids: usize,
    /// The `ref_len` rule (with one reference, every rule gives its length but `Average`,
    /// whose column is the sum: the same).
    pub ref_length: RefLength,
}

impl BleuBagStats {
    /// The statistics of `bags` up to `max_order`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when the bags hold fewer orders.
    pub fn new(bags: &BleuBags, max_order: usize, ref_length: RefLength) -> Result<Self> {
        if max_order == 0 || max_order > bags.max_order {
            return Err(Error::invalid_option(format!(
                "max_order must be 1..={} for these counts, got {max_order}",
                bags.max_order
            )));
        }
        Ok(Self {
            max_order,
            ids: bags.ids,
            ref_length,
        })
    }
}

impl BagRows for BleuBagStats {
    fn orders(&self) -> usize {
        self.max_order
    }

    fn ids(&self) -> usize {
        self.ids
    }

    fn row_width(&self) -> usize {
        2 + 2 * self.max_order
    }

    fn fill(&self, hypothesis: &NgramBag, reference: &[usize], matched: &[usize], row: &mut [i64]) {
        let n = self.max_order;
        let hyp_len = hypothesis.total(1);
        let ref_len = reference.first().copied().unwrap_or(0);
        if let [h, r, counts @ ..] = row {
            *h = to_i64(hyp_len);
            *r = to_i64(self.ref_length.pick(hyp_len, &[ref_len]));
            let (correct, total) = counts.split_at_mut(n.min(counts.len()));
            for (c, &m) in correct.iter_mut().zip(matched) {
                *c = to_i64(m);
            }
            for (order, t) in (1..=n).zip(total.iter_mut()) {
                *t = to_i64(hypothesis.total(order));
            }
        }
    }
}

impl<'a> MirroredRows<'a, NgramBag> for BleuBagStats {
    fn mirror(&self, row: &[i64], hypothesis: &NgramBag, reference: &NgramBag, out: &mut [i64]) {
        let n = self.max_order;
        let (len, other) = (reference.total(1), hypothesis.total(1));
        if let [h, r, counts @ ..] = out {
            *h = to_i64(len);
            *r = to_i64(self.ref_length.pick(len, &[other]));
            let (correct, total) = counts.split_at_mut(n.min(counts.len()));
            // Clipped matches are symmetric: min(a, b) over the n-grams of both.
            for (c, &m) in correct.iter_mut().zip(row.iter().skip(2)) {
                *c = m;
            }
            for (order, t) in (1..=n).zip(total.iter_mut()) {
                *t = to_i64(reference.total(order));
            }
        }
    }
}

/// Reference aggregation for BLEU (DeNero et al. 2009), as mbrs'
/// `expected_scores_reference_aggregation` computes it: every hypothesis scored against the
/// references' expected n-gram counts and expected length (`log_weights[i]`: reference `i`'s
/// log weight, `-ln(R)` each for uniform weights), with sacrebleu's arithmetic on floats.
///
/// # Errors
/// As [`ExpectedCounts::score_each`], or [`crate::ErrorKind::InvalidOption`] for a `config`
/// of more orders than the bags hold.
pub fn aggregate_scores(
    bags: &BleuBags,
    cells: Aggregation<'_>,
    config: &BleuConfig,
    semantics: &FloatSemantics,
    workers: i64,
) -> Result<Vec<f64>> {
    BleuBagStats::new(bags, config.max_order, RefLength::Closest)?;
    let Aggregation {
        hypotheses,
        references,
        log_weights,
    } = cells;
    let expected = ExpectedCounts::new(references, log_weights, bags.ids);
    // sum([exp(log(len) + lprob) if len > 0 else 0.0 for ...]): Python's sum of floats.
    let lengths = references.iter().zip(log_weights).map(|(r, &w)| {
        if r.total(1) > 0 {
            (r.total_float(1).ln() + w).exp()
        } else {
            0.0
        }
    });
    let ref_len = py_sum(lengths, *semantics);
    let n = config.max_order;
    expected.score_each(hypotheses, workers, |hypothesis| {
        let correct: Vec<f64> = (1..=n).map(|o| expected.matches(hypothesis, o)).collect();
        let total: Vec<f64> = (1..=n).map(|o| hypothesis.total_float(o)).collect();
        let lengths = (hypothesis.total_float(1), ref_len);
        score_from_float_counts(lengths, &correct, &total, config, semantics)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{grouped_stats, scores_from_rows, BleuConfig};
    use crate::statistics::pairwise::testing::check_bag_cells;
    use crate::tokenize::Tokenizer;

    #[test]
    fn cells_equal_sentence_rows() {
        let (config, semantics) = (BleuConfig::default(), FloatSemantics::default());
        for tokenizer in [Tokenizer::V13a, Tokenizer::Char, Tokenizer::None] {
            let pipeline = Pipeline::from(tokenizer);
            let count = |lines: &[&str]| {
                let bags = BleuBags::from_text(lines, pipeline.clone(), 4).unwrap();
                let metric = BleuBagStats::new(&bags, 4, RefLength::Closest).unwrap();
                (bags.bags, metric)
            };
            let score = |rows: &[i64]| scores_from_rows(rows, &config, &semantics);
            check_bag_cells(count, score, |h, r| {
                grouped_stats(&[h], &[vec![r]], pipeline.clone(), &config, 1).unwrap()
            });
        }
        let tokens = BleuBags::from_tokens(&[vec!["a", "b"], vec!["b", "a", "b"]], 2);
        assert_eq!(tokens.bags[1].total(2), 2);
        assert!(BleuBagStats::new(&tokens, 3, RefLength::Closest).is_err());
    }
}
