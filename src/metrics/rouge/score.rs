//! ROUGE rows to scores, in rouge-score's float operations: per type, precision
//! `match / max(hyp, 1)`, recall `match / max(ref, 1)` and F-measure `2 * p * r / (p + r)`
//! (0 when both are 0). rouge-score has no corpus score; bleuprint's is the mean of the
//! sentence scores (`math.fsum(values) / n`, so any order and any sharding give the same
//! float), and the micro-average (the scores of the summed rows) is the form that merges.

use crate::metrics::bleu::python_float::fsum;

/// Precision, recall and F-measure of one type.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    /// `match / max(hyp, 1)`.
    pub precision: f64,
    /// `match / max(ref, 1)`.
    pub recall: f64,
    /// rouge-score's `scoring.fmeasure`.
    pub fmeasure: f64,
}

/// The scores of one `[match, hyp, ref]` triple.
#[allow(clippy::cast_precision_loss)] // counts below 2^53
pub fn triple_scores(triple: [i64; 3]) -> Prf {
    let [matched, hyp, reference] = triple.map(|c| c as f64);
    let precision = matched / hyp.max(1.0);
    let recall = matched / reference.max(1.0);
    let fmeasure = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Prf {
        precision,
        recall,
        fmeasure,
    }
}

/// Every row's scores, row-major: `types` values per row.
pub fn row_scores(rows: &[i64], types: usize) -> Vec<Prf> {
    rows.chunks_exact(3)
        .take(rows.len() / 3 / types.max(1) * types)
        .filter_map(|t| <[i64; 3]>::try_from(t).ok())
        .map(triple_scores)
        .collect()
}

/// The mean over rows of each type's sentence scores: `types` values.
#[allow(clippy::cast_precision_loss)] // a row count below 2^53
pub fn mean_scores(rows: &[i64], types: usize) -> Vec<Prf> {
    let scores = row_scores(rows, types);
    let n = (scores.len() / types.max(1)) as f64;
    let mean = |k: usize, part: fn(&Prf) -> f64| -> f64 {
        if n == 0.0 {
            return 0.0;
        }
        let values = scores.iter().skip(k).step_by(types.max(1)).map(part);
        fsum(values).unwrap_or(f64::NAN) / n
    };
    (0..types)
        .map(|k| Prf {
            precision: mean(k, |s| s.precision),
            recall: mean(k, |s| s.recall),
            fmeasure: mean(k, |s| s.fmeasure),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_score_floats() {
        let s = triple_scores([2, 3, 4]);
        assert_eq!((s.precision, s.recall), (2.0 / 3.0, 0.5));
        assert_eq!(s.fmeasure, 2.0 * (2.0 / 3.0) * 0.5 / (2.0 / 3.0 + 0.5));
        assert_eq!(triple_scores([0, 0, 0]), Prf::default());
        let rows = [1, 2, 2, 0, 0, 1];
        let mean = mean_scores(&rows, 1);
        assert_eq!(mean[0].precision, 0.25);
        assert!(mean_scores(&[], 2).iter().all(|s| *s == Prf::default()));
    }
}
