//! ROUGE rows to scores, in rouge-score's float operations: per type, precision
//! `match / max(hyp, 1)`, recall `match / max(ref, 1)` and F-measure `2 * p * r / (p + r)`
//! (0 when both are 0); with pycocoevalcap's settings, precision and recall from their own
//! columns and `((1 + beta**2) * p * r) / (r + beta**2 * p)` (0 when either is 0), which is
//! rouge-score's expression, operation for operation, when beta is 1. rouge-score has no
//! corpus score; bleuprint's is the mean of the sentence scores (`math.fsum(values) / n`, so
//! any order and any sharding give the same float), and the micro-average (the scores of the
//! summed rows) is the form that merges.

use super::MultiReference;
use crate::metrics::bleu::python_float::ExactSum;

/// Precision, recall and F-measure of one type.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    /// `match / max(hyp, 1)`.
    pub precision: f64,
    /// `match / max(ref, 1)`.
    pub recall: f64,
    /// rouge-score's `scoring.fmeasure` (beta 1), or pycocoevalcap's beta's.
    pub fmeasure: f64,
}

/// How a row scores: its types, its columns per type and the F-measure's beta.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scoring {
    /// Types per row.
    pub types: usize,
    /// How the row's references were combined (its columns per type).
    pub references: MultiReference,
    /// The F-measure's beta.
    pub beta: f64,
}

impl Scoring {
    /// rouge-score's scoring of `types` types.
    pub fn rouge_score(types: usize) -> Self {
        Self {
            types,
            references: MultiReference::BestF,
            beta: 1.0,
        }
    }

    /// Columns per type.
    pub fn columns(&self) -> usize {
        self.references.columns()
    }

    /// Columns per row.
    pub fn width(&self) -> usize {
        self.columns() * self.types
    }

    /// The scores of one type's columns (`[match, hyp, ref]`, or `[p_match, hyp, r_match,
    /// ref]`).
    pub fn cells(&self, cells: &[i64]) -> Prf {
        match (self.references, cells) {
            (MultiReference::BestF, &[matched, hyp, reference]) => {
                prf(ratio(matched, hyp), ratio(matched, reference), self.beta)
            }
            (MultiReference::MaxPrecisionRecall, &[p_match, hyp, r_match, reference]) => {
                prf(ratio(p_match, hyp), ratio(r_match, reference), self.beta)
            }
            _ => Prf::default(),
        }
    }
}

/// `matched / max(length, 1)` as a float.
#[allow(clippy::cast_precision_loss)] // counts below 2^53
pub fn ratio(matched: i64, length: i64) -> f64 {
    matched as f64 / (length as f64).max(1.0)
}

/// Precision, recall and their F-measure: `((1 + beta**2) * p * r) / (r + beta**2 * p)`
/// (pycocoevalcap's order; with beta 1 it is rouge-score's `2 * p * r / (p + r)` exactly), 0
/// when either is 0.
fn prf(precision: f64, recall: f64, beta: f64) -> Prf {
    let beta2 = beta * beta;
    let fmeasure = if precision != 0.0 && recall != 0.0 {
        (1.0 + beta2) * precision * recall / (recall + beta2 * precision)
    } else {
        0.0
    };
    Prf {
        precision,
        recall,
        fmeasure,
    }
}

/// The scores of one `[match, hyp, ref]` triple (rouge-score's).
pub fn triple_scores(triple: [i64; 3]) -> Prf {
    Scoring::rouge_score(1).cells(&triple)
}

/// Every row's scores, row-major: `scoring.types` values per row.
pub fn row_scores(rows: &[i64], scoring: &Scoring) -> Vec<Prf> {
    let columns = scoring.columns();
    rows.chunks_exact(columns)
        .take(rows.len() / scoring.width().max(1) * scoring.types)
        .map(|cells| scoring.cells(cells))
        .collect()
}

/// The fewest rows per task of [`mean_scores`].
const MEAN_CHUNK: usize = 256;
/// Tasks enough for the parallel loop to use every core (its minimum batch).
const MEAN_TASKS: usize = 64;

/// The mean over rows of each type's sentence scores: `types` values, each `math.fsum` of the
/// rows' values over their number. Chunks of rows are summed exactly ([`ExactSum`]) on every
/// core and merged, which gives `fsum` of all the values.
#[allow(clippy::cast_precision_loss)] // a row count below 2^53
pub fn mean_scores(rows: &[i64], scoring: &Scoring) -> Vec<Prf> {
    let types = scoring.types;
    let columns = scoring.columns();
    let width = columns * types.max(1);
    let n = rows.len() / width;
    if n == 0 || types == 0 {
        return vec![Prf::default(); types];
    }
    // Per chunk, one sum per type and part.
    let per_task = n.div_ceil(MEAN_TASKS).max(MEAN_CHUNK);
    let chunks = n.div_ceil(per_task);
    let sums = crate::parallel::map_range(chunks, -1, |c| {
        let mut sums = vec![ExactSum::new(); 3 * types];
        let chunk = rows
            .get(c * per_task * width..((c + 1) * per_task * width).min(rows.len()))
            .unwrap_or_default();
        for row in chunk.chunks_exact(width) {
            for (cells, sums) in row.chunks_exact(columns).zip(sums.chunks_exact_mut(3)) {
                let s = scoring.cells(cells);
                for (sum, value) in sums.iter_mut().zip([s.precision, s.recall, s.fmeasure]) {
                    sum.add(value);
                }
            }
        }
        sums
    });
    let mut total = vec![ExactSum::new(); 3 * types];
    for chunk in sums.unwrap_or_default() {
        for (t, c) in total.iter_mut().zip(&chunk) {
            t.merge(c);
        }
    }
    let n = n as f64;
    let mean = |k: usize| {
        total
            .get(k)
            .and_then(|s| s.total().ok())
            .map_or(f64::NAN, |s| s / n)
    };
    (0..types)
        .map(|t| Prf {
            precision: mean(3 * t),
            recall: mean(3 * t + 1),
            fmeasure: mean(3 * t + 2),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::python_float::Fsum;

    #[test]
    fn rouge_score_floats() {
        let s = triple_scores([2, 3, 4]);
        assert_eq!((s.precision, s.recall), (2.0 / 3.0, 0.5));
        assert_eq!(s.fmeasure, 2.0 * (2.0 / 3.0) * 0.5 / (2.0 / 3.0 + 0.5));
        assert_eq!(triple_scores([0, 0, 0]), Prf::default());
        let rows = [1, 2, 2, 0, 0, 1];
        let mean = mean_scores(&rows, &Scoring::rouge_score(1));
        assert_eq!(mean[0].precision, 0.25);
        let two = Scoring::rouge_score(2);
        assert!(mean_scores(&[], &two).iter().all(|s| *s == Prf::default()));
    }

    #[test]
    fn chunked_mean_is_fsum_of_all_rows() {
        // Enough rows for several chunks, with values whose naive sum rounds differently.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut rows = Vec::new();
        for _ in 0..(70 * MEAN_CHUNK + 17) {
            for _ in 0..2 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let hyp = (state % 97) as i64 + 1;
                let reference = (state / 97 % 89) as i64 + 1;
                rows.extend([
                    (state / 9000 % 50) as i64 % hyp.min(reference),
                    hyp,
                    reference,
                ]);
            }
        }
        let scoring = Scoring::rouge_score(2);
        let scores = row_scores(&rows, &scoring);
        let means = mean_scores(&rows, &scoring);
        for (t, mean) in means.iter().enumerate() {
            let values = scores.iter().skip(t).step_by(2);
            let mut sum = Fsum::new();
            values.clone().for_each(|s| sum.add(s.fmeasure).unwrap());
            let n = values.count() as f64;
            assert_eq!(mean.fmeasure, sum.total().unwrap() / n);
        }
    }
}
