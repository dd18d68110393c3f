//! The combine step of every emulated upstream BLEU: per-order precisions, weights and lengths
//! to a score, brevity penalty and length ratio, with each upstream's float operations in its
//! own order, so a preset's score is bit-identical to its upstream.
//!
//! [`Arithmetic`] names the upstream; the smaller knobs are [`Precisions`] (the precisions the
//! arithmetic computes from the counts itself, or ones the caller smoothed, as nltk's
//! `Fraction`-based smoothing is done in Python), the weight sets, effective order,
//! `auto_reweigh`, multi-prediction item lengths and the scale ([`Combine`]).
//!
//! What each upstream computes (the Python it reproduces):
//!
//! - `sacrebleu`: `BLEU.compute_bleu`, by [`super::score::score_from_stats`].
//! - `nltk`: `corpus_bleu` after the sums: `bp * exp(fsum(w * log(p) for p > 0))`, int `0`
//!   without unigram matches; [`fsum`] is CPython's correctly rounded `math.fsum`.
//! - `nmt`: tensorflow/nmt's `compute_bleu` (HF evaluate): `exp(sum(w * log p)) * bp`, 0 if
//!   any precision is 0, the penalty from the length ratio.
//! - `torch`: torchmetrics' `_bleu_score_compute` in float32; `log`/`exp` come from a
//!   [`Float32Math`] (numpy's own float32 functions in the Python binding).
//! - `moses`: multi-bleu.perl's last lines, `log(0)` floored at `-9999999999`.
//! - `fairseq`: fairseq's `Scorer.score` (token-ID BLEU): `bp * exp(sum(log p) / N)` with
//!   `log(0) = -inf` and Python's `sum`.
//! - `mteval`: mteval-v13a.pl's cumulative `bleu_score` (and `--no-smoothing`).
//! - `coco`: pycocoevalcap 1.2's `BleuScorer.compute_score`: the cumulative products of
//!   `(matches + 1e-15) / (total + 1e-9)`, each order's root, times `exp(1 - 1/ratio)` when the
//!   ratio `(c + 1e-15) / (r + 1e-9)` is below 1; one score per order (Bleu_1 .. Bleu_N).
//!
//! Where the upstream's Python raises (`math.exp` overflow, a division by zero), the result is
//! a [`PythonError`] naming that exception, for the binding to raise as the upstream would.

use super::config::{BleuConfig, Smoothing};
use super::penalty::{length_ratio, mteval_log_penalty, ratio_penalty};
use super::python_float::{
    float_div, int_div, log_or_floor, py_exp, py_log, py_sum, FloatSemantics,
};
use super::score::score_from_stats;

pub use super::penalty::{brevity_penalty, Penalty};
pub use super::python_float::{fsum, ExactSum, Fsum, PythonError};
use crate::error::{Error, Result};

/// Whose float operations, in whose order, turn per-order precisions into a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arithmetic {
    /// sacrebleu 2.6.0 `BLEU.compute_bleu` (percent precisions).
    Sacrebleu,
    /// nltk 3.10.4 `corpus_bleu` (`math.fsum` of the logs of positive precisions).
    Nltk,
    /// tensorflow/nmt `compute_bleu` (HF evaluate `bleu`, nlg-metricverse).
    Nmt,
    /// torchmetrics `_bleu_score_compute`, in float32.
    Torch,
    /// Moses `multi-bleu.perl`.
    Moses,
    /// fairseq `scoring.bleu.Scorer` (token IDs, libbleu).
    Fairseq,
    /// NIST `mteval-v13a.pl` `bleu_score`.
    Mteval,
    /// pycocoevalcap 1.2 `bleu_scorer.py` (the COCO caption evaluation).
    Coco,
}

crate::enums::name_table!(Arithmetic, "arithmetic", {
    Sacrebleu => "sacrebleu",
    Nltk => "nltk",
    Nmt => "nmt",
    Torch => "torch",
    Moses => "moses",
    Fairseq => "fairseq",
    Mteval => "mteval",
    Coco => "coco",
});

impl Arithmetic {
    /// The smoothing methods whose precisions this arithmetic computes from the counts itself
    /// ([`Precisions::Own`]); any other smoothing's precisions come from the caller
    /// ([`Precisions::Given`]).
    pub fn own_smoothings(self) -> &'static [&'static str] {
        match self {
            Self::Sacrebleu => &Smoothing::NAMES,
            Self::Nltk => &[],
            Self::Nmt => &["none", "lin-och"],
            Self::Torch => &["none", "add-k"],
            // coco: "none" is its own 1e-15 / 1e-9 guard against zero counts.
            Self::Moses | Self::Fairseq | Self::Coco => &["none"],
            Self::Mteval => &["none", "exp"],
        }
    }
}

/// A smoothing an arithmetic applies to the counts itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CountSmoothing {
    /// `matches / total` (0 without hypothesis n-grams).
    None,
    /// sacrebleu's floor: a zero match count becomes the value.
    Floor(f64),
    /// The value added to matches and totals of orders >= 2 (sacrebleu, torchmetrics).
    AddK(f64),
    /// NIST geometric: the k-th zero precision becomes `1 / (2^k total)` (sacrebleu, mteval).
    Exp,
    /// Lin & Och: `(matches + 1) / (total + 1)` on every order (tensorflow/nmt `smooth=True`).
    LinOch,
}

impl CountSmoothing {
    /// Parses a smoothing name; `value` is `floor`'s and `add-k`'s value (`None`: sacrebleu's
    /// default). Unlike [`Smoothing::from_name`] the value is not range-checked: the
    /// non-sacrebleu arithmetics take whatever the caller's knobs hold, as their upstreams do.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for a name that is none of these.
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self> {
        let value = value.or(Smoothing::default_value(name)).unwrap_or(0.0);
        match name {
            "none" => Ok(Self::None),
            "floor" => Ok(Self::Floor(value)),
            "add-k" => Ok(Self::AddK(value)),
            "exp" => Ok(Self::Exp),
            "lin-och" => Ok(Self::LinOch),
            other => Err(Error::invalid_option(format!(
                "unknown count smoothing {other:?}; expected one of none, floor, add-k, exp, \
                 lin-och"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Floor(_) => "floor",
            Self::AddK(_) => "add-k",
            Self::Exp => "exp",
            Self::LinOch => "lin-och",
        }
    }
}

/// Where the per-order precisions come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Precisions<'a> {
    /// Computed by the arithmetic from the counts (one of [`Arithmetic::own_smoothings`]).
    Own(CountSmoothing),
    /// Smoothed by the caller (nltk's methods on `Fraction`s), as floats, with whether each
    /// is `> 0` as the caller compared it (nltk leaves the others out). An order without
    /// hypothesis n-grams holds 0 (1 under Lin-Och), as the caller's smoothing leaves it.
    Given {
        /// `float(p)` of each precision.
        values: &'a [f64],
        /// `p > 0` of each precision (nltk only; other arithmetics compare the floats).
        positive: &'a [bool],
    },
    /// Not smoothed: the caller knows the arithmetic stops before reading them (nltk without
    /// unigram matches, torchmetrics with a zero match count). An internal error otherwise.
    Skipped,
}

/// Corpus lengths and counts, as the upstream holds them (integers, an average reference
/// length, or float32 sums; each exact in `f64`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counts<'a> {
    /// Hypothesis length.
    pub hyp_len: f64,
    /// Effective reference length.
    pub ref_len: f64,
    /// Clipped n-gram matches per order.
    pub correct: &'a [f64],
    /// Hypothesis n-grams per order (as long as `correct`).
    pub total: &'a [f64],
}

/// Every knob of the combine step besides the counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Combine<'a> {
    /// Whose arithmetic.
    pub arithmetic: Arithmetic,
    /// Where the precisions come from.
    pub precisions: Precisions<'a>,
    /// The weight sets in use (uniform `1/max_order` when none were given), at least one.
    pub weights: &'a [Vec<f64>],
    /// Whether no weights were given (Moses then sums the logs and divides by N).
    pub uniform_weights: bool,
    /// Average only over the orders before the first without hypothesis n-grams.
    pub effective_order: bool,
    /// nltk's uniform re-weighting of hypotheses shorter than 4 tokens.
    pub auto_reweigh: bool,
    /// nlg-metricverse's multi-prediction rescaling: the summed per-item longest prediction
    /// and shortest reference lengths.
    pub item_lengths: Option<(f64, f64)>,
    /// 1 (0..1) or 100 (0..100).
    pub scale: u32,
    /// How the running Python's `sum()` adds floats.
    pub semantics: FloatSemantics,
}

/// The natural log and exponential in float32, which torchmetrics takes from torch and the
/// Python binding from numpy: neither is `logf`/`expf`, and numpy's vary with the CPU.
pub trait Float32Math {
    /// Elementwise `log` of a float32 array (numpy: `np.log(array)`).
    fn ln(&mut self, values: &[f32]) -> Vec<f32>;
    /// `exp` of a float32 scalar (numpy: `np.exp(np.float32(x))`).
    fn exp(&mut self, x: f32) -> f32;
}

/// [`Float32Math`] by the C library's `logf`/`expf`: deterministic, but not always
/// bit-identical to numpy's or torch's float32 functions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Libm;

impl Float32Math for Libm {
    fn ln(&mut self, values: &[f32]) -> Vec<f32> {
        values.iter().map(|v| v.ln()).collect()
    }
    fn exp(&mut self, x: f32) -> f32 {
        x.exp()
    }
}

/// Why a combine step has no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArithmeticError {
    /// A bleuprint error: bad knobs, or input the upstream refuses (tensorflow/nmt's and
    /// multi-bleu.perl's divisions by zero, as `InvalidInput`).
    Core(Error),
    /// The exception the upstream's Python raises.
    Python(PythonError),
}

crate::enums::wrap_from!(ArithmeticError {
    Core(Error),
    Python(PythonError),
});

/// Which values the upstream returns as Python ints (all others are floats).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PythonInts {
    /// nltk's int `0` scores (no unigram match).
    pub scores: bool,
    /// nltk's int brevity penalty (`1` when longer, `0` when empty).
    pub bp: bool,
    /// sacrebleu's ratio `0` without reference tokens.
    pub ratio: bool,
    /// Moses' precision `0` of an order without hypothesis n-grams.
    pub precisions: Vec<bool>,
}

/// A combine step's result. Under the torch arithmetic the score, penalty and precisions are
/// float32 values (widened exactly).
#[derive(Debug, Clone, PartialEq)]
pub struct ArithmeticScore {
    /// One score per weight set (nltk, nmt, Moses; one for the others), scaled.
    pub scores: Vec<f64>,
    /// The brevity penalty.
    pub bp: f64,
    /// Hypothesis over reference length (multi-prediction: of the item lengths).
    pub ratio: f64,
    /// The precisions as the upstream reports them (percent under sacrebleu; empty when
    /// torchmetrics stops at a zero match count).
    pub precisions: Vec<f64>,
    /// sacrebleu's add-k: how many orders had the value added to their counts and totals.
    pub smoothed_orders: usize,
    /// Which of the values are Python ints.
    pub ints: PythonInts,
}

#[allow(clippy::cast_precision_loss)] // an order count
fn as_float(n: usize) -> f64 {
    n as f64
}

/// `1.0 / orders`, `orders` times.
fn uniform(orders: usize) -> Vec<f64> {
    vec![1.0 / as_float(orders); orders]
}

/// Orders that take part: with effective order, those before the first without hypothesis
/// n-grams (at least one).
fn orders_in_use(counts: &Counts<'_>, effective_order: bool) -> usize {
    let n = counts.total.len();
    if !effective_order {
        return n;
    }
    counts
        .total
        .iter()
        .position(|&t| t == 0.0)
        .map_or(n, |i| i.max(1))
}

/// The weight sets scored: uniform over the orders in use without weights or with effective
/// order, else every given set.
fn weight_sets(combine: &Combine<'_>, orders: usize) -> Vec<Vec<f64>> {
    if combine.uniform_weights || combine.effective_order {
        vec![uniform(orders)]
    } else {
        combine.weights.to_vec()
    }
}

/// Precisions smoothed by the caller, or an internal error where the caller skipped them.
fn given<'a>(combine: &Combine<'a>) -> Result<(&'a [f64], &'a [bool])> {
    match combine.precisions {
        Precisions::Given { values, positive } => Ok((values, positive)),
        Precisions::Own(s) => Err(Error::internal(format!(
            "the {} arithmetic does not compute {:?} smoothing itself",
            combine.arithmetic.name(),
            s.name()
        ))),
        Precisions::Skipped => Err(Error::internal(format!(
            "the {} arithmetic needs the smoothed precisions here",
            combine.arithmetic.name()
        ))),
    }
}

/// The precisions: the arithmetic's own smoothing of the counts (`own` computes one order's
/// precision, or `None` for a smoothing it lacks), else the caller's.
fn precisions(
    combine: &Combine<'_>,
    counts: &Counts<'_>,
    own: impl Fn(CountSmoothing, usize, f64, f64) -> Option<f64>,
) -> Result<Vec<f64>> {
    if let Precisions::Own(smoothing) = combine.precisions {
        return counts
            .correct
            .iter()
            .zip(counts.total)
            .enumerate()
            .map(|(i, (&m, &t))| {
                own(smoothing, i, m, t).ok_or_else(|| {
                    Error::invalid_option(format!(
                        "the {} arithmetic computes no {:?} smoothing itself; pass the \
                         smoothed precisions",
                        combine.arithmetic.name(),
                        smoothing.name()
                    ))
                })
            })
            .collect();
    }
    Ok(given(combine)?.0.to_vec())
}

type Step<T> = std::result::Result<T, ArithmeticError>;

/// The unscaled result of one arithmetic, before multi-prediction rescaling.
struct Raw {
    scores: Vec<f64>,
    bp: f64,
    ratio: f64,
    precisions: Vec<f64>,
    smoothed_orders: usize,
    ints: PythonInts,
    /// The hypothesis and reference length as the upstream's result holds them (torchmetrics:
    /// float32).
    float32: bool,
}

impl Raw {
    /// Every score times `factor`, in float32 where the upstream's scores are float32.
    #[allow(clippy::cast_possible_truncation)] // float32 arithmetic: rounding is the point
    fn scale(&mut self, factor: f64) {
        for s in &mut self.scores {
            *s = if self.float32 {
                f64::from(*s as f32 * factor as f32)
            } else {
                *s * factor
            };
        }
    }

    /// A float64 result with nothing smoothed in the counts and no int fields.
    fn floats(scores: Vec<f64>, bp: f64, ratio: f64, precisions: Vec<f64>) -> Self {
        Self {
            scores,
            bp,
            ratio,
            precisions,
            smoothed_orders: 0,
            ints: PythonInts::default(),
            float32: false,
        }
    }
}

fn sacrebleu(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    let Precisions::Own(smoothing) = combine.precisions else {
        given(combine)?;
        return Err(Error::internal("sacrebleu smooths its own counts").into());
    };
    let smoothing = match smoothing {
        CountSmoothing::None => Smoothing::None,
        CountSmoothing::Floor(v) => Smoothing::Floor(v),
        CountSmoothing::AddK(v) => Smoothing::AddK(v),
        CountSmoothing::Exp => Smoothing::Exp,
        CountSmoothing::LinOch => {
            return Err(Error::invalid_option(
                "the sacrebleu arithmetic takes smoothing none, floor, add-k or exp",
            )
            .into())
        }
    };
    let config = BleuConfig {
        max_order: counts.correct.len(),
        smoothing,
        effective_order: combine.effective_order,
    };
    // sacrebleu's statistics are ints (numpy's int64 cast truncates float32 sums).
    #[allow(clippy::cast_possible_truncation)]
    let row: Vec<i64> = [counts.hyp_len, counts.ref_len]
        .iter()
        .chain(counts.correct)
        .chain(counts.total)
        .map(|&v| v as i64)
        .collect();
    let s = score_from_stats(&row, &config, &combine.semantics)?;
    let (sys_len, ref_len) = (row.first().copied(), row.get(1).copied());
    let (sys_len, ref_len) = (sys_len.unwrap_or(0), ref_len.unwrap_or(0));
    #[allow(clippy::cast_precision_loss)] // counts stay far below 2^53
    let ratio = if ref_len == 0 {
        0.0
    } else {
        sys_len as f64 / ref_len as f64
    };
    Ok(Raw {
        smoothed_orders: s.smoothed_orders,
        ints: PythonInts {
            ratio: ref_len == 0,
            ..PythonInts::default()
        },
        ..Raw::floats(vec![s.score], s.bp, ratio, s.precisions)
    })
}

fn nltk(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    let (c, r) = (counts.hyp_len, counts.ref_len);
    let Penalty {
        value: bp,
        int: bp_int,
    } = brevity_penalty(Arithmetic::Nltk, c, r, &mut Libm)?;
    let ratio = length_ratio(c, r);
    if counts.correct.first().is_none_or(|&m| m == 0.0) {
        // nltk returns 0 before smoothing: the precisions are the plain fractions.
        let precisions = counts
            .correct
            .iter()
            .zip(counts.total)
            .map(|(&m, &t)| if t == 0.0 { 0.0 } else { m / t })
            .collect();
        return Ok(Raw {
            ints: PythonInts {
                scores: true,
                bp: bp_int,
                ..PythonInts::default()
            },
            ..Raw::floats(vec![0.0; combine.weights.len()], bp, ratio, precisions)
        });
    }
    let (values, positive) = given(combine)?;
    let orders = orders_in_use(counts, combine.effective_order);
    let sets = if combine.effective_order {
        vec![uniform(orders)]
    } else {
        combine.weights.to_vec()
    };
    let mut scores = Vec::with_capacity(sets.len());
    for weight in sets {
        let weight = if combine.auto_reweigh && c < 4.0 && weight == [0.25; 4] {
            // nltk: uniform over the hypothesis' length.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // c in 0..4
            let len = c as usize;
            vec![int_div(1.0, c)?; len]
        } else {
            weight
        };
        let mut sum = Fsum::new();
        for ((&w, &p), _) in weight
            .iter()
            .zip(values)
            .zip(positive)
            .filter(|(_, &ok)| ok)
        {
            sum.add(w * py_log(p)?)?;
        }
        scores.push(bp * py_exp(sum.total()?)?);
    }
    Ok(Raw {
        ints: PythonInts {
            bp: bp_int,
            ..PythonInts::default()
        },
        ..Raw::floats(scores, bp, ratio, values.to_vec())
    })
}

fn nmt(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    let precisions = precisions(combine, counts, |s, _, m, p| match s {
        CountSmoothing::LinOch => Some((m + 1.0) / (p + 1.0)),
        CountSmoothing::None => Some(if p > 0.0 { m / p } else { 0.0 }),
        _ => None,
    })?;
    let orders = orders_in_use(counts, combine.effective_order);
    let used = precisions.get(..orders).unwrap_or(&precisions);
    let all_positive = used.iter().copied().fold(f64::INFINITY, f64::min) > 0.0;
    let mut geo_means = Vec::new();
    for weight in weight_sets(combine, orders) {
        geo_means.push(if all_positive {
            let logs: Vec<f64> = weight
                .iter()
                .zip(used)
                .map(|(&w, &p)| py_log(p).map(|l| w * l))
                .collect::<std::result::Result<_, _>>()?;
            py_exp(py_sum(logs, combine.semantics))?
        } else {
            0.0
        });
    }
    let (c, r) = (counts.hyp_len, counts.ref_len);
    if c == 0.0 || r == 0.0 {
        return Err(Error::invalid_input(format!(
            "BLEU with the nmt arithmetic (HF evaluate 'bleu') divides by zero: {} have no \
             tokens at all",
            if c == 0.0 {
                "the predictions"
            } else {
                "the references"
            }
        ))
        .into());
    }
    let ratio = length_ratio(c, r);
    let bp = brevity_penalty(Arithmetic::Nmt, c, r, &mut Libm)?.value;
    let scores = geo_means.iter().map(|g| g * bp).collect();
    Ok(Raw::floats(scores, bp, ratio, precisions))
}

#[allow(clippy::cast_possible_truncation)] // float32 arithmetic: rounding is the point
fn torch(combine: &Combine<'_>, counts: &Counts<'_>, math: &mut dyn Float32Math) -> Step<Raw> {
    let numerator: Vec<f32> = counts.correct.iter().map(|&v| v as f32).collect();
    let denominator: Vec<f32> = counts.total.iter().map(|&v| v as f32).collect();
    let (c, r) = (counts.hyp_len as f32, counts.ref_len as f32);
    let ratio = length_ratio(f64::from(c), f64::from(r));
    let mut raw = Raw {
        float32: true,
        ..Raw::floats(vec![0.0], 1.0, ratio, Vec::new())
    };
    if numerator.iter().copied().fold(f32::INFINITY, f32::min) == 0.0 {
        return Ok(raw);
    }
    let precision: Vec<f32> = match combine.precisions {
        Precisions::Own(CountSmoothing::AddK(k)) => {
            let k = k as f32;
            numerator
                .iter()
                .zip(&denominator)
                .enumerate()
                .map(|(i, (&m, &t))| if i == 0 { m / t } else { (m + k) / (t + k) })
                .collect()
        }
        Precisions::Own(CountSmoothing::None) => numerator
            .iter()
            .zip(&denominator)
            .map(|(m, t)| m / t)
            .collect(),
        _ => precisions(combine, counts, |_, _, _, _| None)?
            .iter()
            .map(|&p| p as f32)
            .collect(),
    };
    let orders = orders_in_use(counts, combine.effective_order);
    let weights = weight_sets(combine, orders);
    let weights: Vec<f32> = weights
        .first()
        .map(|w| w.iter().map(|&w| w as f32).collect())
        .unwrap_or_default();
    let logs = math.ln(precision.get(..weights.len()).unwrap_or(&precision));
    let log_sum = weights
        .iter()
        .zip(&logs)
        .fold(0.0f32, |acc, (&w, &l)| acc + w * l);
    let geometric_mean = math.exp(log_sum);
    let bp = brevity_penalty(Arithmetic::Torch, counts.hyp_len, counts.ref_len, math)?.value as f32;
    raw.scores = vec![f64::from(bp * geometric_mean)];
    raw.bp = f64::from(bp);
    raw.precisions = precision.iter().map(|&p| f64::from(p)).collect();
    Ok(raw)
}

/// Moses `multi-bleu.perl` and fairseq `Scorer.score`: `bp * exp((log p1 + ... + log pN) / N)`.
/// Moses floors `log(0)` at -9999999999 and adds left to right; fairseq takes `-inf` and the
/// running Python's `sum()`. Both give 0.0 when a precision is 0.
fn log_mean(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    let fairseq = combine.arithmetic == Arithmetic::Fairseq;
    let precisions = precisions(combine, counts, |s, _, m, t| match s {
        CountSmoothing::None => Some(if t == 0.0 { 0.0 } else { m / t }),
        _ => None,
    })?;
    let int_zeros = if let Precisions::Own(_) = combine.precisions {
        counts.total.iter().map(|&t| t == 0.0).collect()
    } else {
        vec![false; precisions.len()]
    };
    let (c, r) = (counts.hyp_len, counts.ref_len);
    if c == 0.0 && (r > 0.0 || fairseq) {
        let upstream = if fairseq {
            "fairseq's Scorer raises ZeroDivisionError"
        } else {
            "multi-bleu.perl dies"
        };
        return Err(Error::invalid_input(format!(
            "{upstream} on this input (division by zero): the hypotheses have no tokens at all"
        ))
        .into());
    }
    let bp = brevity_penalty(combine.arithmetic, c, r, &mut Libm)?.value;
    let log = |p: f64| match (fairseq, p == 0.0) {
        (true, true) => Ok(f64::NEG_INFINITY),
        (true, false) => py_log(p),
        (false, _) => log_or_floor(p),
    };
    let semantics = if fairseq {
        combine.semantics
    } else {
        FloatSemantics::default() // Perl adds left to right
    };
    let orders = orders_in_use(counts, combine.effective_order);
    let mut scores = Vec::new();
    for weight in weight_sets(combine, orders) {
        let exponent = if combine.uniform_weights || combine.effective_order {
            let logs: Vec<f64> = precisions
                .get(..orders)
                .unwrap_or(&precisions)
                .iter()
                .map(|&p| log(p))
                .collect::<std::result::Result<_, _>>()?;
            py_sum(logs, semantics) / as_float(orders)
        } else {
            let logs: Vec<f64> = weight
                .iter()
                .zip(&precisions)
                .map(|(&w, &p)| log(p).map(|l| w * l))
                .collect::<std::result::Result<_, _>>()?;
            py_sum(logs, combine.semantics)
        };
        scores.push(bp * py_exp(exponent)?);
    }
    Ok(Raw {
        ints: PythonInts {
            precisions: int_zeros,
            ..PythonInts::default()
        },
        ..Raw::floats(scores, bp, length_ratio(c, r), precisions)
    })
}

fn mteval(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    let (c, r) = (counts.hyp_len, counts.ref_len);
    let ratio = length_ratio(c, r);
    let bp = |c: f64, r: f64| brevity_penalty(Arithmetic::Mteval, c, r, &mut Libm).map(|p| p.value);
    let pairs = counts
        .correct
        .iter()
        .copied()
        .zip(counts.total.iter().copied());
    let mut precisions = Vec::with_capacity(counts.correct.len());
    let mut log_sum = 0.0;
    let mut score = 0.0;
    let (score, bp) = match combine.precisions {
        Precisions::Own(CountSmoothing::None) => {
            // --no-smoothing: the length penalty goes inside the exponent.
            for (j, (m, t)) in (1..).zip(pairs) {
                if m == 0.0 {
                    score = 0.0;
                    precisions.push(0.0);
                    continue;
                }
                let len_score = mteval_log_penalty(c, r)?;
                let p = int_div(m, t)?;
                log_sum += py_log(p)?;
                score = py_exp(log_sum / as_float(j) + len_score)?;
                precisions.push(p);
            }
            (score, bp(c, r)?)
        }
        Precisions::Own(CountSmoothing::Exp) => {
            let bp = bp(c, r)?;
            let mut smooth_factor = 1.0;
            for (j, (m, t)) in (1..).zip(pairs) {
                let iscore = if t == 0.0 {
                    0.0
                } else if m == 0.0 {
                    smooth_factor *= 2.0;
                    py_log(int_div(1.0, smooth_factor * t)?)?
                } else {
                    py_log(int_div(m, t)?)?
                };
                precisions.push(py_exp(iscore)?);
                log_sum += iscore;
                score = py_exp(log_sum / as_float(j))? * bp;
            }
            (score, bp)
        }
        _ => {
            let bp = bp(c, r)?;
            let values = precisions_or_given(combine, counts)?;
            for (j, (&p, &t)) in (1..).zip(values.iter().zip(counts.total)) {
                log_sum += if t == 0.0 { 0.0 } else { log_or_floor(p)? };
                precisions.push(if t == 0.0 { 1.0 } else { p });
                score = py_exp(log_sum / as_float(j))? * bp;
            }
            (score, bp)
        }
    };
    Ok(Raw::floats(vec![score], bp, ratio, precisions))
}

/// pycocoevalcap's guards: `tiny` added to matches and lengths, `small` to totals and
/// reference lengths, "so that if guess is 0 still return 0".
const COCO_TINY: f64 = 1e-15;
const COCO_SMALL: f64 = 1e-9;

/// pycocoevalcap's length ratio `(c + tiny) / (r + small)`, never a division by zero.
pub(super) fn coco_ratio(c: f64, r: f64) -> f64 {
    (c + COCO_TINY) / (r + COCO_SMALL)
}

/// pycocoevalcap 1.2's `BleuScorer.compute_score` on one image's counts or the corpus sums
/// (the same operations for both): every order's cumulative score, Bleu_1 .. Bleu_N.
fn coco(combine: &Combine<'_>, counts: &Counts<'_>) -> Step<Raw> {
    if !combine.uniform_weights || combine.effective_order || combine.auto_reweigh {
        return Err(Error::invalid_option(
            "the coco arithmetic scores every order's cumulative BLEU (Bleu_1 .. Bleu_N): it \
             takes no weights, effective_order or auto_reweigh",
        )
        .into());
    }
    let (c, r) = (counts.hyp_len, counts.ref_len);
    let ratio = coco_ratio(c, r);
    let bp = brevity_penalty(Arithmetic::Coco, c, r, &mut Libm)?.value;
    let mut product = 1.0;
    let mut scores = Vec::with_capacity(counts.correct.len());
    let mut precisions = Vec::with_capacity(counts.correct.len());
    for (k, (&m, &t)) in (1..).zip(counts.correct.iter().zip(counts.total)) {
        let p = (m + COCO_TINY) / (t + COCO_SMALL);
        product *= p;
        let root = product.powf(1.0 / as_float(k));
        // Multiplied only when shorter, as upstream (a product with 1.0 changes nothing).
        scores.push(if ratio < 1.0 { root * bp } else { root });
        precisions.push(p);
    }
    Ok(Raw::floats(scores, bp, ratio, precisions))
}

/// The caller's precisions (an arithmetic's own smoothing it lacks is an option error).
fn precisions_or_given(combine: &Combine<'_>, counts: &Counts<'_>) -> Result<Vec<f64>> {
    precisions(combine, counts, |_, _, _, _| None)
}

/// nlg-metricverse's `_compute_multi_pred_multi_ref` after the flattened corpus score: the
/// penalty of the summed per-item lengths replaces the corpus one.
#[allow(clippy::cast_possible_truncation)] // float32 arithmetic
fn rescale(raw: &mut Raw, counts: &Counts<'_>, (item_hyp, item_ref): (f64, f64)) -> Step<()> {
    let (c, r) = (counts.hyp_len, counts.ref_len);
    // The result's lengths: float32 under torchmetrics (numpy divides without raising).
    let ratio_f32 = raw.float32.then(|| c as f32 / r as f32);
    let ratio = match ratio_f32 {
        Some(ratio) => f64::from(ratio),
        None => int_div(c.trunc(), r.trunc())?,
    };
    let adjusted_ratio = int_div(item_hyp, item_ref)?;
    if ratio > 1.0 {
        raw.bp = 1.0;
    } else {
        let adjusted = ratio_penalty(adjusted_ratio)?;
        let corpus = match ratio_f32 {
            // numpy 2: `1.0 / float32` and `1 - float32` stay float32; `math.exp` widens.
            Some(ratio) => py_exp(f64::from(1.0 - 1.0 / ratio))?,
            None => ratio_penalty(ratio)?,
        };
        let factor = float_div(adjusted, corpus)?;
        if raw.scores.len() > 1 {
            return Err(PythonError::SequenceTimesFloat.into());
        }
        raw.scale(factor);
        raw.ints.scores = false;
        raw.bp = adjusted;
    }
    raw.ratio = adjusted_ratio;
    raw.ints.ratio = false;
    raw.ints.bp = false;
    Ok(())
}

/// The score of summed counts in `combine.arithmetic`'s float operations, rescaled for
/// multi-prediction and scaled; `math` supplies the torch arithmetic's float32 `log`/`exp`.
///
/// # Errors
/// [`ArithmeticError::Core`]: an arithmetic asked for a smoothing it does not compute,
/// `correct` and `total` of different lengths or empty, no weight set, a scale other than 1
/// or 100, tensorflow/nmt's or multi-bleu.perl's division by zero (`InvalidInput`);
/// [`ArithmeticError::Python`]: the exception the upstream's Python raises on these numbers.
pub fn combine(
    combine: &Combine<'_>,
    counts: &Counts<'_>,
    math: &mut dyn Float32Math,
) -> std::result::Result<ArithmeticScore, ArithmeticError> {
    check(combine, counts)?;
    let mut raw = match combine.arithmetic {
        Arithmetic::Sacrebleu => sacrebleu(combine, counts)?,
        Arithmetic::Nltk => nltk(combine, counts)?,
        Arithmetic::Nmt => nmt(combine, counts)?,
        Arithmetic::Torch => torch(combine, counts, math)?,
        Arithmetic::Moses | Arithmetic::Fairseq => log_mean(combine, counts)?,
        Arithmetic::Mteval => mteval(combine, counts)?,
        Arithmetic::Coco => coco(combine, counts)?,
    };
    if let Some(items) = combine.item_lengths {
        rescale(&mut raw, counts, items)?;
    }
    let factor = match (combine.arithmetic, combine.scale) {
        (Arithmetic::Sacrebleu, 1) => Some(0.01),
        (Arithmetic::Sacrebleu, _) | (_, 1) => None,
        _ => Some(100.0),
    };
    if let Some(factor) = factor {
        raw.scale(factor);
    }
    Ok(ArithmeticScore {
        scores: raw.scores,
        bp: raw.bp,
        ratio: raw.ratio,
        precisions: raw.precisions,
        smoothed_orders: raw.smoothed_orders,
        ints: raw.ints,
    })
}

fn check(combine: &Combine<'_>, counts: &Counts<'_>) -> Result<()> {
    let n = counts.correct.len();
    if n == 0 || n != counts.total.len() || n > super::MAX_NGRAM_ORDER {
        return Err(Error::invalid_input(format!(
            "correct and total must hold the same number of orders, 1 to {}, got {} and {}",
            super::MAX_NGRAM_ORDER,
            n,
            counts.total.len()
        )));
    }
    if combine.weights.is_empty() || combine.weights.iter().any(Vec::is_empty) {
        return Err(Error::invalid_option(
            "weights must hold at least one non-empty weight set",
        ));
    }
    if combine.weights.iter().any(|w| w.len() > n) {
        return Err(Error::invalid_input(format!(
            "a weight set is longer than the {n} orders counted"
        )));
    }
    if combine.scale != 1 && combine.scale != 100 {
        return Err(Error::invalid_option(format!(
            "scale must be 1 or 100, got {}",
            combine.scale
        )));
    }
    if let Precisions::Own(s) = combine.precisions {
        if !combine.arithmetic.own_smoothings().contains(&s.name()) {
            return Err(Error::invalid_option(format!(
                "the {} arithmetic computes no {:?} smoothing itself; pass the smoothed \
                 precisions",
                combine.arithmetic.name(),
                s.name()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Expected values: bleuprint's Python arithmetic (`variants/scoring.py` before the move to
    //! Rust, which the presets' golden tests tie to each upstream), run on the same counts.
    use super::*;

    const COUNTS: ([f64; 4], [f64; 4]) = ([15.0, 9.0, 5.0, 2.0], [19.0, 18.0, 17.0, 16.0]);

    fn knobs<'a>(
        arithmetic: Arithmetic,
        precisions: Precisions<'a>,
        weights: &'a [Vec<f64>],
    ) -> Combine<'a> {
        Combine {
            arithmetic,
            precisions,
            weights,
            uniform_weights: true,
            effective_order: false,
            auto_reweigh: false,
            item_lengths: None,
            scale: 1,
            semantics: FloatSemantics::default(),
        }
    }

    /// The combine step on `correct` and `total` with hypothesis length `c` and reference
    /// length `r`.
    fn try_run(
        combine: &Combine<'_>,
        correct: &[f64],
        total: &[f64],
        c: f64,
        r: f64,
    ) -> std::result::Result<ArithmeticScore, ArithmeticError> {
        let counts = Counts {
            hyp_len: c,
            ref_len: r,
            correct,
            total,
        };
        super::combine(combine, &counts, &mut Libm)
    }

    fn run(
        combine: &Combine<'_>,
        correct: &[f64],
        total: &[f64],
        c: f64,
        r: f64,
    ) -> ArithmeticScore {
        try_run(combine, correct, total, c, r).unwrap()
    }

    fn uniform4() -> Vec<Vec<f64>> {
        vec![vec![0.25; 4]]
    }

    /// Uniform weights over 4 orders, for the knobs of [`own`].
    static UNIFORM4: std::sync::LazyLock<Vec<Vec<f64>>> = std::sync::LazyLock::new(uniform4);

    /// The knobs of `arithmetic` smoothing its own counts with `smoothing`, uniform weights
    /// over 4 orders, scale `scale`.
    fn own(arithmetic: Arithmetic, smoothing: CountSmoothing, scale: u32) -> Combine<'static> {
        Combine {
            scale,
            ..knobs(arithmetic, Precisions::Own(smoothing), &UNIFORM4)
        }
    }

    fn fractions(correct: &[f64], total: &[f64]) -> Vec<f64> {
        correct.iter().zip(total).map(|(m, t)| m / t).collect()
    }

    #[test]
    fn fsum_is_cpythons() {
        assert_eq!(
            fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Ok(1e-100)
        );
        assert_eq!(fsum([0.1; 10]), Ok(1.0));
        // The half-even correction across partials.
        assert_eq!(
            fsum([1e-16, 1.0, 1e16]),
            Ok(f64::from_bits(0x4341_c379_37e0_8001))
        );
        assert_eq!(fsum([1.0, 1e-16, 1e-16]), Ok(1.000_000_000_000_000_2));
        assert_eq!(fsum([]), Ok(0.0));
        assert_eq!(fsum([f64::MAX, f64::MAX]), Err(PythonError::FsumOverflow));
        assert_eq!(
            fsum([f64::INFINITY, f64::NEG_INFINITY]),
            Err(PythonError::FsumInfMinusInf)
        );
        assert_eq!(fsum([f64::INFINITY, 1.0]), Ok(f64::INFINITY));
        assert!(fsum([f64::NAN, 1.0]).unwrap().is_nan());
    }

    /// `ExactSum` of `values`, added one by one and also as two merged halves.
    fn exact_sums(values: &[f64]) -> [super::super::python_float::PyResult<f64>; 2] {
        let mut whole = ExactSum::new();
        values.iter().for_each(|&v| whole.add(v));
        let (a, b) = values.split_at(values.len() / 2);
        let (mut left, mut right) = (ExactSum::new(), ExactSum::new());
        a.iter().for_each(|&v| left.add(v));
        b.iter().for_each(|&v| right.add(v));
        left.merge(&right);
        [whole.total(), left.total()]
    }

    #[test]
    fn exact_sum_is_fsum() {
        let cases: &[&[f64]] = &[
            &[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50],
            &[0.1; 10],
            &[1e-16, 1.0, 1e16],
            &[1.0, 1e-16, 1e-16],
            &[],
            &[-0.0],
            &[5e-324, 5e-324, -1e-310, 2.2250738585072014e-308],
            &[-1.0, 1e-300, -5e-324],
            &[f64::MAX, -f64::MAX, 1.0],
            &[f64::INFINITY, 1.0],
            &[-3.5, 2.25, -7e22, 7e22, 1e-5],
        ];
        for &values in cases {
            let expected = fsum(values.iter().copied());
            for got in exact_sums(values) {
                assert_eq!(
                    got.map(f64::to_bits),
                    expected.map(f64::to_bits),
                    "{values:?}"
                );
            }
        }
        assert_eq!(
            exact_sums(&[f64::MAX, f64::MAX])[0],
            Err(PythonError::FsumOverflow)
        );
        assert_eq!(
            exact_sums(&[f64::INFINITY, f64::NEG_INFINITY])[1],
            Err(PythonError::FsumInfMinusInf)
        );
        assert!(exact_sums(&[f64::NAN, 1.0])[1].unwrap().is_nan());
        // Random values of every magnitude and sign, and scores in [0, 1].
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..300 {
            let values: Vec<f64> = (0..(1 + next() % 400))
                .map(|_| {
                    let x = f64::from_bits(next() >> 2 | (next() & 1) << 63);
                    if round % 2 == 0 {
                        (next() % 1000) as f64 / (1 + next() % 977) as f64 / 1.03
                    } else if x.is_finite() && x.abs() < 1e300 {
                        x
                    } else {
                        1.0
                    }
                })
                .collect();
            let expected = fsum(values.iter().copied());
            for got in exact_sums(&values) {
                assert_eq!(
                    got.map(f64::to_bits),
                    expected.map(f64::to_bits),
                    "{values:?}"
                );
            }
        }
    }

    #[test]
    fn arithmetic_names() {
        assert_eq!(Arithmetic::from_name("mteval"), Ok(Arithmetic::Mteval));
        assert_eq!(Arithmetic::Torch.name(), "torch");
        assert!(Arithmetic::from_name("perl").is_err());
        // Every listed name parses back to the arithmetic that prints it.
        for name in Arithmetic::NAMES {
            assert_eq!(Arithmetic::from_name(name).unwrap().name(), name);
        }
        assert!(Arithmetic::NAMES.contains(&"coco"));
    }

    #[test]
    fn sacrebleu_vectors() {
        let k = own(Arithmetic::Sacrebleu, CountSmoothing::Exp, 100);
        let s = run(
            &k,
            &[9.0, 7.0, 5.0, 3.0],
            &[10.0, 8.0, 6.0, 4.0],
            11.0,
            11.0,
        );
        assert_eq!(s.scores, [83.759_223_970_862_69]);
        assert_eq!(s.precisions[0], 90.0);
        let k = own(Arithmetic::Sacrebleu, CountSmoothing::AddK(1.0), 1);
        let s = run(&k, &[5.0, 3.0, 1.0, 0.0], &[6.0, 5.0, 4.0, 3.0], 6.0, 6.0);
        assert_eq!(s.scores, [0.485_491_771_707_323_55]);
        assert_eq!(s.smoothed_orders, 3);
        // sacrebleu's ratio is the int 0 without reference tokens.
        let s = run(&k, &[0.0; 4], &[0.0; 4], 0.0, 0.0);
        assert!(s.ints.ratio);
    }

    #[test]
    fn nltk_vectors() {
        let (m, t) = COUNTS;
        let values = fractions(&m, &t);
        let positive = [true; 4];
        let given = Precisions::Given {
            values: &values,
            positive: &positive,
        };
        let w = uniform4();
        let s = run(&knobs(Arithmetic::Nltk, given, &w), &m, &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.312_406_082_531_055_06]);
        assert_eq!(s.bp, 0.900_087_626_252_259_1);
        assert!(!s.ints.bp);
        let two = vec![vec![0.25; 4], vec![0.5, 0.5]];
        let k = Combine {
            uniform_weights: false,
            ..knobs(Arithmetic::Nltk, given, &two)
        };
        let s = run(&k, &m, &t, 19.0, 21.0);
        assert_eq!(
            s.scores,
            [0.312_406_082_531_055_06, 0.565_507_830_091_130_5]
        );
        // auto_reweigh: a 3-token hypothesis weighs its orders 1/3 each.
        let (m, t) = ([2.0, 1.0, 0.0, 0.0], [3.0, 2.0, 1.0, 1.0]);
        let values = [2.0 / 3.0, 0.5, 0.1, 0.1];
        let k = Combine {
            auto_reweigh: true,
            ..knobs(
                Arithmetic::Nltk,
                Precisions::Given {
                    values: &values,
                    positive: &positive,
                },
                &w,
            )
        };
        let s = run(&k, &m, &t, 3.0, 5.0);
        assert_eq!(s.scores, [0.165_232_926_100_257_58]);
        // No unigram match: the int 0, before any smoothing, and the int penalty 1.
        let s = run(
            &knobs(Arithmetic::Nltk, Precisions::Skipped, &w),
            &[0.0; 4],
            &[4.0, 3.0, 2.0, 1.0],
            4.0,
            3.0,
        );
        assert_eq!((s.scores, s.bp), (vec![0.0], 1.0));
        assert!(s.ints.scores && s.ints.bp);
    }

    #[test]
    fn nmt_vectors() {
        let (m, t) = COUNTS;
        let k = own(Arithmetic::Nmt, CountSmoothing::None, 1);
        let s = run(&k, &m, &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.312_406_082_531_055_1]);
        assert_eq!(s.bp, 0.900_087_626_252_259_4);
        let lin = own(Arithmetic::Nmt, CountSmoothing::LinOch, 1);
        let s = run(&lin, &[15.0, 9.0, 5.0, 0.0], &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.271_316_586_125_853_63]);
        // nlg-metricverse's multi-prediction rescaling.
        let multi = Combine {
            item_lengths: Some((12.0, 14.0)),
            ..k
        };
        let s = run(&multi, &m, &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.293_800_327_761_747_47]);
        assert_eq!((s.bp, s.ratio), (0.846_481_724_890_614, 12.0 / 14.0));
        // tensorflow/nmt divides by the lengths.
        let e = try_run(&k, &[0.0; 4], &[0.0; 4], 0.0, 3.0).unwrap_err();
        assert!(matches!(e, ArithmeticError::Core(e) if e.message().contains("predictions")));
    }

    #[test]
    fn torch_vectors() {
        let (m, t) = COUNTS;
        let k = own(Arithmetic::Torch, CountSmoothing::None, 1);
        let s = run(&k, &m, &t, 19.0, 21.0);
        // numpy's float32 log/exp (the expected values) and libm's may differ in the last bit.
        #[allow(clippy::cast_possible_truncation)]
        let score = s.scores[0] as f32;
        assert!((score - 0.312_406_12_f32).abs() <= 2.0 * f32::EPSILON * 0.32);
        assert_eq!(s.precisions[0], f64::from(15.0_f32 / 19.0_f32));
        // A zero match count: 0 with no precisions, before smoothing.
        let s = run(&k, &[15.0, 0.0, 0.0, 0.0], &t, 19.0, 21.0);
        assert_eq!((s.scores, s.bp, s.precisions.len()), (vec![0.0], 1.0, 0));
    }

    #[test]
    fn moses_vectors() {
        let (m, t) = COUNTS;
        let k = own(Arithmetic::Moses, CountSmoothing::None, 100);
        let s = run(&k, &[15.0, 9.0, 5.0, 0.0], &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.0]);
        let weighted = vec![vec![0.4, 0.3, 0.2, 0.1]];
        let k = Combine {
            uniform_weights: false,
            weights: &weighted,
            ..k
        };
        let s = run(&k, &m, &t, 19.0, 21.0);
        assert_eq!(s.scores, [42.296_659_961_231_065]);
        // An order without hypothesis n-grams has the int precision 0.
        let s = run(&k, &[1.0, 0.0, 0.0, 0.0], &[1.0, 0.0, 0.0, 0.0], 1.0, 1.0);
        assert_eq!(s.ints.precisions, [false, true, true, true]);
        assert!(try_run(&k, &[0.0; 4], &[0.0; 4], 0.0, 3.0).is_err());
    }

    #[test]
    fn fairseq_vectors() {
        // fairseq/scoring/bleu.py `Scorer.score()` on these sums, run in Python.
        let (m, t) = COUNTS;
        let k = own(Arithmetic::Fairseq, CountSmoothing::None, 100);
        assert_eq!(run(&k, &m, &t, 19.0, 21.0).scores, [31.240_608_253_105_506]);
        let longer = run(&k, &m, &t, 22.0, 21.0);
        assert_eq!((longer.scores[0], longer.bp), (34.708_407_650_468_02, 1.0));
        // log(0) is -inf: the score is 0.0, as Moses' floored log gives.
        assert_eq!(
            run(&k, &[15.0, 9.0, 5.0, 0.0], &t, 19.0, 21.0).scores,
            [0.0]
        );
        // `r / c` raises without hypothesis tokens, whatever the reference length.
        assert!(try_run(&k, &[0.0; 4], &[0.0; 4], 0.0, 0.0).is_err());
    }

    #[test]
    fn mteval_vectors() {
        let t = COUNTS.1;
        let k = own(Arithmetic::Mteval, CountSmoothing::Exp, 1);
        let s = run(&k, &[15.0, 9.0, 0.0, 0.0], &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.104_459_269_454_153_49]);
        assert_eq!(s.bp, 0.900_087_626_252_259_1);
        let none = own(Arithmetic::Mteval, CountSmoothing::None, 1);
        let s = run(&none, &[15.0, 9.0, 0.0, 2.0], &t, 19.0, 21.0);
        assert_eq!(s.scores, [0.424_218_115_373_037_44]);
    }

    /// pycocoevalcap 1.2's `BleuScorer.compute_score(option="closest")` on these counts.
    #[test]
    fn coco_vectors() {
        let (m, t) = COUNTS;
        let k = own(Arithmetic::Coco, CountSmoothing::None, 1);
        let shorter = run(&k, &m, &t, 19.0, 20.0);
        assert_eq!(
            shorter.scores,
            [
                0.748_996_957_828_871_8,
                0.596_068_575_861_033_7,
                0.462_826_954_808_365_6,
                0.329_288_895_388_045_73
            ]
        );
        let longer = run(&k, &m, &t, 19.0, 18.0);
        assert_eq!(longer.bp, 1.0);
        assert_eq!(
            longer.scores,
            [
                0.789_473_684_168_975_1,
                0.628_280_862_403_557_4,
                0.487_838_698_576_865_4,
                0.347_084_076_484_765_36
            ]
        );
        // Nothing at all: the guards keep every division finite and the penalty is 0.
        for r in [0.0, 5.0] {
            assert_eq!(run(&k, &[0.0; 4], &[0.0; 4], 0.0, r).scores, [0.0; 4]);
        }
        // Weights are not the coco arithmetic's: it scores every order.
        let weights = vec![vec![0.5, 0.5]];
        let weighted = Combine {
            uniform_weights: false,
            ..knobs(
                Arithmetic::Coco,
                Precisions::Own(CountSmoothing::None),
                &weights,
            )
        };
        assert!(try_run(&weighted, &m, &t, 19.0, 20.0).is_err());
    }

    #[test]
    fn upstream_exceptions_and_bad_knobs() {
        let (m, t) = COUNTS;
        // A weight that sends math.exp past f64::MAX.
        let huge = vec![vec![-10_000.0, 0.0, 0.0, 0.0]];
        let k = Combine {
            uniform_weights: false,
            ..knobs(
                Arithmetic::Nmt,
                Precisions::Own(CountSmoothing::None),
                &huge,
            )
        };
        assert_eq!(
            try_run(&k, &m, &t, 19.0, 21.0),
            Err(ArithmeticError::Python(PythonError::MathRange))
        );
        let bad = own(Arithmetic::Moses, CountSmoothing::Exp, 1);
        assert!(matches!(
            try_run(&bad, &m, &t, 19.0, 21.0),
            Err(ArithmeticError::Core(_))
        ));
        assert_eq!(
            brevity_penalty(Arithmetic::Nmt, 0.0, 0.0, &mut Libm),
            Err(PythonError::FloatDivisionByZero)
        );
        assert_eq!(PythonError::MathRange.class_name(), "OverflowError");
    }
}
