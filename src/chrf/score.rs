//! A chrF statistics row to a score: sacrebleu's `CHRF._compute_f_score`, operation for
//! operation, so the float result is identical.

use super::config::ChrfConfig;

/// sacrebleu's eps for an order without hypothesis or reference n-grams.
const EPS: f64 = 1e-16;

/// The score (0..100) of one statistics row (`[hyp, ref, match]` per order).
pub fn f_score(stats: &[i64], config: &ChrfConfig) -> f64 {
    let (factor, one_plus) = (config.factor, config.one_plus_factor);
    let mut score = 0.0;
    let mut effective_order = 0u32;
    let (mut avg_prec, mut avg_rec) = (0.0, 0.0);
    for order in stats.chunks_exact(3) {
        let &[n_hyp, n_ref, n_match] = order else {
            continue;
        };
        // Counts are far below 2^53, so these conversions are exact, like Python's int / int.
        let prec = if n_hyp > 0 {
            n_match as f64 / n_hyp as f64
        } else {
            EPS
        };
        let rec = if n_ref > 0 {
            n_match as f64 / n_ref as f64
        } else {
            EPS
        };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            one_plus * prec * rec / denom
        } else {
            EPS
        };
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if config.eps_smoothing {
        return 100.0 * score / config.order() as f64;
    }
    if effective_order == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= f64::from(effective_order);
        avg_rec /= f64::from(effective_order);
    }
    if avg_prec + avg_rec != 0.0 {
        let mut score = one_plus * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        100.0 * score
    } else {
        0.0
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
