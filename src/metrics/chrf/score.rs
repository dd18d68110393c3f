//! A chrF statistics row to a score: sacrebleu's `CHRF._compute_f_score`, operation for
//! operation, so the float result is identical.

use super::config::ChrfConfig;
use crate::resample::numpy_float::{NumpyFloat, Promotion};

/// sacrebleu's eps for an order without hypothesis or reference n-grams.
const EPS: f64 = 1e-16;

/// The score (0..100) of one statistics row (`[hyp, ref, match]` per order).
#[allow(clippy::cast_precision_loss)] // counts are far below 2^53: exact, like int / int
pub fn f_score(stats: &[i64], config: &ChrfConfig) -> f64 {
    f_score_of(stats, |c| NumpyFloat::Python(c as f64), config).value()
}

/// The score of a row of Python floats (mbrs' reference aggregation: expected reference
/// counts), with the same operations as [`f_score`].
pub fn f_score_floats(stats: &[f64], config: &ChrfConfig) -> f64 {
    f_score_of(stats, NumpyFloat::Python, config).value()
}

/// The score of sums that sacrebleu's bootstrap holds as float32: every ratio is numpy
/// arithmetic under `promotion`, so the result is usually a numpy scalar (see [`NumpyFloat`]).
pub fn f_score_float32(stats: &[f32], config: &ChrfConfig, promotion: Promotion) -> NumpyFloat {
    f_score_of(stats, |c| NumpyFloat::Float32(c, promotion), config)
}

/// `CHRF._compute_f_score`, operation for operation, on counts of either kind.
#[allow(clippy::cast_precision_loss)] // an order count
fn f_score_of<T: Copy>(
    stats: &[T],
    as_float: impl Fn(T) -> NumpyFloat,
    config: &ChrfConfig,
) -> NumpyFloat {
    let python = NumpyFloat::Python;
    let (factor, one_plus) = (python(config.factor), python(config.one_plus_factor));
    let eps = python(EPS);
    let zero = python(0.0);
    let mut score = zero;
    let mut effective_order = 0u32;
    let (mut avg_prec, mut avg_rec) = (zero, zero);
    for order in stats.chunks_exact(3) {
        let &[n_hyp, n_ref, n_match] = order else {
            continue;
        };
        let [n_hyp, n_ref, n_match] = [n_hyp, n_ref, n_match].map(&as_float);
        let (has_hyp, has_ref) = (n_hyp.value() > 0.0, n_ref.value() > 0.0);
        let prec = if has_hyp { n_match / n_hyp } else { eps };
        let rec = if has_ref { n_match / n_ref } else { eps };
        let denom = factor * prec + rec;
        score = score
            + if denom.value() > 0.0 {
                one_plus * prec * rec / denom
            } else {
                eps
            };
        if has_hyp && has_ref {
            avg_prec = avg_prec + prec;
            avg_rec = avg_rec + rec;
            effective_order += 1;
        }
    }
    if config.eps_smoothing {
        return python(100.0) * score / python(config.order() as f64);
    }
    if effective_order == 0 {
        avg_prec = zero;
        avg_rec = zero;
    } else {
        let order = python(f64::from(effective_order));
        avg_prec = avg_prec / order;
        avg_rec = avg_rec / order;
    }
    if (avg_prec + avg_rec).value() != 0.0 {
        let score = one_plus * avg_prec * avg_rec;
        let score = score / (factor * avg_prec + avg_rec);
        python(100.0) * score
    } else {
        zero
    }
}

/// The score of every row of a row-major matrix with `config.width()` columns.
pub fn scores_from_rows(rows: &[i64], config: &ChrfConfig) -> Vec<f64> {
    rows.chunks_exact(config.width().max(1))
        .map(|row| f_score(row, config))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_hypothesis_and_reference() {
        let eps = ChrfConfig {
            eps_smoothing: true,
            ..ChrfConfig::default()
        };
        // sacrebleu.md §3.1: 100 * 6e-16 / 6.
        assert_eq!(f_score(&[0; 18], &eps), 1.0000000000000002e-14);
        assert_eq!(f_score(&[0; 18], &ChrfConfig::default()), 0.0);
    }

    #[test]
    fn perfect_match_is_100() {
        let row: Vec<i64> = (0..6).flat_map(|i| [10 - i, 10 - i, 10 - i]).collect();
        assert_eq!(f_score(&row, &ChrfConfig::default()), 100.0);
    }
}
