//! chrF and chrF++ between every pair of two sets: sentences counted once into
//! [`NgramBag`]s (character orders, then word orders), then each cell's row `[hyp, ref,
//! match]` per order from lookups, equal to the row [`super::stats`] makes for that hypothesis
//! with that one reference.

use super::config::ChrfConfig;
use super::score::f_score_floats;
use crate::count::vocabulary::Vocabulary;
use crate::count::{Aggregation, BagBuilder, ExpectedCounts, NgramBag};
use crate::error::{to_i64, Error, Result};
use crate::metrics::bleu::python_float::{py_sum, FloatSemantics};
use crate::statistics::pairwise::{BagRows, MirroredRows};
use crate::tokenize::chrf::{chrf_words, push_chrf_chars};

/// Symbol spaces of a chrF bag.
const CHARS: u8 = 0;
const WORDS: u8 = 1;

/// Sentences counted into bags with shared ids, under one [`ChrfConfig`]'s orders.
#[derive(Debug, Default)]
pub struct ChrfBags {
    /// One bag per sentence, in input order.
    pub bags: Vec<NgramBag>,
    /// Every n-gram id is below this.
    pub ids: usize,
    config: ChrfConfig,
}

impl ChrfBags {
    /// Counts `lines` as sacrebleu's chrF reads them under `config`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an invalid `config`.
    pub fn from_text(lines: &[&str], config: &ChrfConfig) -> Result<Self> {
        config.validate()?;
        let mut builder = BagBuilder::default();
        let mut vocabulary = Vocabulary::default();
        let mut symbols = Vec::new();
        let bags = lines
            .iter()
            .map(|line| {
                let mut bag = NgramBag::default();
                symbols.clear();
                push_chrf_chars(line, config.whitespace, &mut symbols);
                builder.add(&mut bag, &symbols, CHARS, config.char_order);
                if config.word_order > 0 {
                    symbols.clear();
                    symbols.extend(chrf_words(line).map(|w| vocabulary.intern(w)));
                    builder.add(&mut bag, &symbols, WORDS, config.word_order);
                }
                bag
            })
            .collect();
        Ok(Self {
            bags,
            ids: builder.ids(),
            config: *config,
        })
    }

    /// The configuration the bags were counted under.
    pub fn config(&self) -> &ChrfConfig {
        &self.config
    }
}

/// chrF statistics of bags from one [`ChrfBags`]: the pairwise driver's metric.
#[derive(Debug, Clone, Copy)]
pub struct ChrfBagStats {
    orders: usize,
    ids: usize,
}

impl ChrfBagStats {
    /// The statistics of `bags`, under the configuration they were counted with.
    pub fn new(bags: &ChrfBags) -> Self {
        Self {
            orders: bags.config.order(),
            ids: bags.ids,
        }
    }
}

impl BagRows for ChrfBagStats {
    fn orders(&self) -> usize {
        self.orders
    }

    fn ids(&self) -> usize {
        self.ids
    }

    fn row_width(&self) -> usize {
        3 * self.orders
    }

    fn fill(&self, hypothesis: &NgramBag, reference: &[usize], matched: &[usize], row: &mut [i64]) {
        for (((order, cells), &ref_total), &matched) in (1..=self.orders)
            .zip(row.chunks_exact_mut(3))
            .zip(reference)
            .zip(matched)
        {
            // sacrebleu counts no hypothesis n-grams when the reference has none.
            let hyp_total = if ref_total > 0 {
                hypothesis.total(order)
            } else {
                0
            };
            cells.copy_from_slice(&[to_i64(hyp_total), to_i64(ref_total), to_i64(matched)]);
        }
    }
}

impl<'a> MirroredRows<'a, NgramBag> for ChrfBagStats {
    fn mirror(&self, row: &[i64], hypothesis: &NgramBag, reference: &NgramBag, out: &mut [i64]) {
        for ((order, cells), old) in (1..=self.orders)
            .zip(out.chunks_exact_mut(3))
            .zip(row.chunks_exact(3))
        {
            let ref_total = hypothesis.total(order);
            let hyp_total = if ref_total > 0 {
                reference.total(order)
            } else {
                0
            };
            // Clipped matches are symmetric: min(a, b) over the n-grams of both.
            let matched = old.get(2).copied().unwrap_or(0);
            cells.copy_from_slice(&[to_i64(hyp_total), to_i64(ref_total), matched]);
        }
    }
}

/// Reference aggregation for chrF and chrF++ (Vamvas & Sennrich 2024), as mbrs'
/// `expected_scores_reference_aggregation` computes it: every hypothesis' `[hyp, ref, match]`
/// per order against the references' expected n-gram counts (`log_weights[i]`: reference
/// `i`'s log weight), the reference count being Python's `sum` of the expected counts, then
/// sacrebleu's F-score on those floats. `config` must have the bags' orders.
///
/// # Errors
/// As [`ExpectedCounts::score_each`]; [`crate::ErrorKind::InvalidOption`] for a `config` whose
/// orders or whitespace rule differ from the bags'.
pub fn aggregate_scores(
    bags: &ChrfBags,
    cells: Aggregation<'_>,
    config: &ChrfConfig,
    semantics: &FloatSemantics,
    workers: i64,
) -> Result<Vec<f64>> {
    let counted = bags.config();
    if (config.char_order, config.word_order, config.whitespace)
        != (counted.char_order, counted.word_order, counted.whitespace)
    {
        return Err(Error::invalid_option(
            "score with the orders and whitespace rule the sentences were counted with",
        ));
    }
    let Aggregation {
        hypotheses,
        references,
        log_weights,
    } = cells;
    let expected = ExpectedCounts::new(references, log_weights, bags.ids);
    let orders = config.order();
    let ref_totals: Vec<f64> = (1..=orders)
        .map(|o| py_sum(expected.values(o), *semantics))
        .collect();
    expected.score_each(hypotheses, workers, |hypothesis| {
        let mut stats = Vec::with_capacity(3 * orders);
        for (order, &ref_total) in (1..=orders).zip(&ref_totals) {
            // sacrebleu: no hypothesis n-grams count when the reference has none.
            let hyp = if expected.is_empty(order) {
                0.0
            } else {
                hypothesis.total_float(order)
            };
            stats.extend([hyp, ref_total, expected.matches(hypothesis, order)]);
        }
        f_score_floats(&stats, config)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::chrf::{scores_from_rows, segment_stats};
    use crate::statistics::pairwise::testing::check_bag_cells;

    #[test]
    fn cells_equal_sentence_rows() {
        for (char_order, word_order, whitespace) in [(6, 0, false), (6, 2, false), (3, 1, true)] {
            let config = ChrfConfig {
                char_order,
                word_order,
                whitespace,
                ..ChrfConfig::default()
            };
            let count = |lines: &[&str]| {
                let bags = ChrfBags::from_text(lines, &config).unwrap();
                let metric = ChrfBagStats::new(&bags);
                (bags.bags, metric)
            };
            let score = |rows: &[i64]| Ok(scores_from_rows(rows, &config));
            check_bag_cells(count, score, |h, r| segment_stats(h, &[r], config).unwrap());
        }
    }
}
