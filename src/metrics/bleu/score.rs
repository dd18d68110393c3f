//! BLEU statistics to score, with every float operation in sacrebleu's order
//! (`BLEU.compute_bleu`), so results are bit-identical.

use super::config::{BleuConfig, Smoothing};
use super::penalty::sacrebleu_penalty;
use super::python_float::{my_log, py_sum};
use crate::error::{Error, Result};
use crate::resample::numpy_float::{NumpyFloat, Promotion};

pub use super::python_float::FloatSemantics;

/// A BLEU score and the parts behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    /// BLEU in 0..100.
    pub score: f64,
    /// Brevity penalty.
    pub bp: f64,
    /// Per-order precisions in percent.
    pub precisions: Vec<f64>,
    /// How many orders (from order 2 upwards) had the add-k value added to their counts and
    /// totals; sacrebleu reports the counts after that addition.
    pub smoothed_orders: usize,
}

/// Checks that `row` is a statistics row for `config`.
fn check_row(row: &[i64], config: &BleuConfig) -> Result<()> {
    if row.len() != config.width() {
        return Err(Error::invalid_input(format!(
            "a BLEU statistics row for max_ngram_order={} has {} columns, got {}",
            config.max_order,
            config.width(),
            row.len()
        )));
    }
    if let Some(bad) = row.iter().find(|&&v| v < 0) {
        return Err(Error::invalid_input(format!(
            "BLEU statistics must be non-negative, got {bad}"
        )));
    }
    Ok(())
}

/// A count as `compute_bleu` sees it: a Python int (corpus statistics) or a `numpy.float32`
/// (the bootstrap's resampled sums), which makes the precisions numpy arithmetic.
trait Count: Copy {
    fn is_zero(self) -> bool;
    fn add(self, k: f64) -> Self;
    /// `100. * correct / total`.
    fn percent(correct: Self, total: Self) -> f64;
    /// `100. / (smooth_mteval * total)`.
    fn exp_smoothed(smooth_mteval: f64, total: Self) -> f64;
    /// `100. * k / total`.
    fn floor_smoothed(k: f64, total: Self) -> f64;
}

#[allow(clippy::cast_precision_loss)] // counts stay far below 2^53
fn as_python_float(count: i64) -> f64 {
    count as f64
}

impl Count for f64 {
    fn is_zero(self) -> bool {
        self == 0.0
    }
    fn add(self, k: f64) -> Self {
        self + k
    }
    fn percent(correct: Self, total: Self) -> f64 {
        100.0 * correct / total
    }
    fn exp_smoothed(smooth_mteval: f64, total: Self) -> f64 {
        100.0 / (smooth_mteval * total)
    }
    fn floor_smoothed(k: f64, total: Self) -> f64 {
        100.0 * k / total
    }
}

/// The bootstrap's counts: elements of a float32 array, so `+= k` rounds back to float32 and
/// every ratio follows the loaded numpy's promotion.
impl Count for NumpyFloat {
    fn is_zero(self) -> bool {
        self.value() == 0.0
    }
    fn add(self, k: f64) -> Self {
        (self + NumpyFloat::Python(k)).stored_like(self)
    }
    fn percent(correct: Self, total: Self) -> f64 {
        (NumpyFloat::Python(100.0) * correct / total).value()
    }
    fn exp_smoothed(smooth_mteval: f64, total: Self) -> f64 {
        (NumpyFloat::Python(100.0) / (NumpyFloat::Python(smooth_mteval) * total)).value()
    }
    fn floor_smoothed(k: f64, total: Self) -> f64 {
        (NumpyFloat::Python(100.0 * k) / total).value()
    }
}

/// sacrebleu's `BLEU.compute_bleu`, writing the precisions into `precisions` (`max_order`
/// long). Returns `(score, bp, smoothed_orders)`.
fn compute<C: Count>(
    (sys_len, ref_len): (f64, f64),
    correct: &[C],
    total: &[C],
    config: &BleuConfig,
    semantics: FloatSemantics,
    precisions: &mut [f64],
) -> (f64, f64, usize) {
    let bp = sacrebleu_penalty(sys_len, ref_len);
    precisions.fill(0.0);
    // sacrebleu #141: no match at all scores 0 before any smoothing applies.
    if correct.iter().all(|c| c.is_zero()) {
        return (0.0, bp, 0);
    }

    let (smoothing, k) = (config.smoothing, config.smoothing.value());
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = config.max_order;
    let mut smoothed_orders = 0;
    for (i, ((&c, &t), p)) in correct
        .iter()
        .zip(total)
        .zip(precisions.iter_mut())
        .enumerate()
    {
        let (mut c, mut t) = (c, t);
        if let Smoothing::AddK(_) = smoothing {
            if i > 0 {
                c = c.add(k);
                t = t.add(k);
                smoothed_orders += 1;
            }
        }
        if t.is_zero() {
            break;
        }
        if config.effective_order {
            eff_order = i + 1;
        }
        if c.is_zero() {
            match smoothing {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    *p = C::exp_smoothed(smooth_mteval, t);
                }
                Smoothing::Floor(_) => *p = C::floor_smoothed(k, t),
                Smoothing::None | Smoothing::AddK(_) => {}
            }
        } else {
            *p = C::percent(c, t);
        }
    }
    let logs = precisions.iter().take(eff_order).map(|&p| my_log(p));
    #[allow(clippy::cast_precision_loss)] // an order count
    let score = bp * (py_sum(logs, semantics) / eff_order as f64).exp();
    (score, bp, smoothed_orders)
}

/// [`compute`] on a checked integer row; `counts` is scratch space for its counts as floats.
fn compute_row(
    row: &[i64],
    config: &BleuConfig,
    semantics: FloatSemantics,
    precisions: &mut [f64],
    counts: &mut Vec<f64>,
) -> (f64, f64, usize) {
    let [sys_len, ref_len, ref counts_row @ ..] = *row else {
        return (0.0, 0.0, 0);
    };
    counts.clear();
    counts.extend(counts_row.iter().map(|&c| as_python_float(c)));
    let (correct, total) = counts.split_at(config.max_order.min(counts.len()));
    compute(
        (as_python_float(sys_len), as_python_float(ref_len)),
        correct,
        total,
        config,
        semantics,
        precisions,
    )
}

/// The score of sums that sacrebleu's bootstrap holds as float32 (it casts the statistics to
/// float32 before resampling): the precisions become numpy arithmetic under `promotion`, the
/// score stays a Python float. `row` must be `config.width()` long.
#[allow(clippy::cast_possible_truncation)] // int(np.float32): the sums are whole numbers
pub fn score_from_float32_sums(
    row: &[f32],
    config: &BleuConfig,
    semantics: &FloatSemantics,
    promotion: Promotion,
) -> f64 {
    let [sys_len, ref_len, ref counts @ ..] = *row else {
        return 0.0;
    };
    let counts: Vec<NumpyFloat> = counts
        .iter()
        .map(|&c| NumpyFloat::Float32(c, promotion))
        .collect();
    let (correct, total) = counts.split_at(config.max_order.min(counts.len()));
    let mut precisions = vec![0.0; config.max_order];
    let lengths = (
        as_python_float(sys_len as i64),
        as_python_float(ref_len as i64),
    );
    compute(lengths, correct, total, config, *semantics, &mut precisions).0
}

/// The score of float statistics, as mbrs' `_compute_bleu` (sacrebleu's `compute_bleu` on
/// Python floats) scores a hypothesis against expected reference counts (reference
/// aggregation): `correct` and `total` hold `config.max_order` values.
pub fn score_from_float_counts(
    (sys_len, ref_len): (f64, f64),
    correct: &[f64],
    total: &[f64],
    config: &BleuConfig,
    semantics: &FloatSemantics,
) -> f64 {
    let mut precisions = vec![0.0; config.max_order];
    compute(
        (sys_len, ref_len),
        correct,
        total,
        config,
        *semantics,
        &mut precisions,
    )
    .0
}

/// Scores one statistics row `[hyp_len, ref_len, correct_1..N, total_1..N]`
/// (sacrebleu `BLEU.compute_bleu`).
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] if the row is not `config.width()` long or holds a
/// negative count.
pub fn score_from_stats(
    row: &[i64],
    config: &BleuConfig,
    semantics: &FloatSemantics,
) -> Result<BleuScore> {
    config.validate()?;
    check_row(row, config)?;
    let mut precisions = vec![0.0; config.max_order];
    let (score, bp, smoothed_orders) =
        compute_row(row, config, *semantics, &mut precisions, &mut Vec::new());
    Ok(BleuScore {
        score,
        bp,
        precisions,
        smoothed_orders,
    })
}

/// Scores every row of a row-major statistics matrix (sentence-level BLEU in one call).
///
/// # Errors
/// As [`score_from_stats`].
pub fn scores_from_rows(
    rows: &[i64],
    config: &BleuConfig,
    semantics: &FloatSemantics,
) -> Result<Vec<f64>> {
    config.validate()?;
    let mut precisions = vec![0.0; config.max_order];
    let mut counts = Vec::with_capacity(config.width());
    rows.chunks(config.width())
        .map(|row| {
            check_row(row, config)?;
            Ok(compute_row(row, config, *semantics, &mut precisions, &mut counts).0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(correct: &[i64], total: &[i64], sys_len: i64, ref_len: i64) -> Vec<i64> {
        [&[sys_len, ref_len][..], correct, total].concat()
    }

    fn cfg(smoothing: Smoothing, effective_order: bool) -> BleuConfig {
        BleuConfig {
            max_order: 4,
            smoothing,
            effective_order,
        }
    }

    #[test]
    fn sacrebleu_compute_bleu_vectors() {
        let plain = FloatSemantics::default();
        // sacrebleu.md §7.1: BLEU.compute_bleu([9,7,5,3],[10,8,6,4],11,11).score/100
        let s = score_from_stats(
            &row(&[9, 7, 5, 3], &[10, 8, 6, 4], 11, 11),
            &cfg(Smoothing::None, false),
            &plain,
        )
        .unwrap();
        assert!((s.score / 100.0 - 0.837_592_239_7).abs() < 1e-10);
        // Degenerate inputs with floor smoothing give exactly 0.
        let floor = cfg(Smoothing::Floor(0.1), false);
        for r in [
            row(&[0; 4], &[4, 4, 2, 1], 0, 1),
            row(&[0; 4], &[10, 11, 12, 0], 14, 10),
            row(&[0; 4], &[0; 4], 0, 0),
        ] {
            assert_eq!(score_from_stats(&r, &floor, &plain).unwrap().score, 0.0);
        }
        let floor0 = cfg(Smoothing::Floor(0.0), false);
        assert_eq!(
            score_from_stats(&row(&[6, 5, 4, 0], &[6, 5, 4, 3], 6, 6), &floor0, &plain)
                .unwrap()
                .score,
            0.0
        );
    }

    #[test]
    fn smoothing_methods_on_the_cat_sentence() {
        // "the cat sat on the mat" vs "the cat is on the mat": counts [5,3,1,0], totals [6,5,4,3].
        let r = row(&[5, 3, 1, 0], &[6, 5, 4, 3], 6, 6);
        let plain = FloatSemantics::default();
        let expect = [
            (Smoothing::Exp, 37.99),
            (Smoothing::None, 0.0),
            (Smoothing::Floor(0.1), 25.41),
            (Smoothing::AddK(1.0), 48.55),
        ];
        for (smoothing, score) in expect {
            let s = score_from_stats(&r, &cfg(smoothing, false), &plain).unwrap();
            assert!(
                (s.score - score).abs() < 0.005,
                "{smoothing:?}: {}",
                s.score
            );
        }
        let addk = score_from_stats(&r, &cfg(Smoothing::AddK(1.0), false), &plain).unwrap();
        assert_eq!(addk.smoothed_orders, 3);
    }

    #[test]
    fn perfect_match_is_not_exactly_100() {
        let r = row(&[6, 5, 4, 3], &[6, 5, 4, 3], 6, 6);
        let s =
            score_from_stats(&r, &cfg(Smoothing::Exp, false), &FloatSemantics::default()).unwrap();
        assert_eq!(s.score, 100.000_000_000_000_04);
    }

    #[test]
    fn effective_order_and_short_hypotheses() {
        // ['test'] vs [['a test']]: 0.0 without effective order, 36.79 with it.
        let r = row(&[1, 0, 0, 0], &[1, 0, 0, 0], 1, 2);
        let plain = FloatSemantics::default();
        assert_eq!(
            score_from_stats(&r, &cfg(Smoothing::Exp, false), &plain)
                .unwrap()
                .score,
            0.0
        );
        let eff = score_from_stats(&r, &cfg(Smoothing::Exp, true), &plain).unwrap();
        assert!((eff.score - 36.79).abs() < 0.005);
    }

    #[test]
    fn neumaier_sum_matches_cpython_312() {
        let values = [1e16, 1.0, -1e16];
        assert_eq!(
            py_sum(
                values,
                FloatSemantics {
                    compensated_sum: false
                }
            ),
            0.0
        );
        assert_eq!(
            py_sum(
                values,
                FloatSemantics {
                    compensated_sum: true
                }
            ),
            1.0
        );
    }

    #[test]
    fn bad_rows_are_errors() {
        let c = cfg(Smoothing::Exp, false);
        assert!(score_from_stats(&[1, 2, 3], &c, &FloatSemantics::default()).is_err());
        assert!(score_from_stats(
            &row(&[-1, 0, 0, 0], &[1, 0, 0, 0], 1, 1),
            &c,
            &FloatSemantics::default()
        )
        .is_err());
    }
}
