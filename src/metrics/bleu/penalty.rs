//! The brevity penalty, the one home of BLEU's length penalty in every emulated upstream's
//! float operations and edge cases ([`brevity_penalty`]); sacrebleu's score takes its
//! variant ([`sacrebleu_penalty`]).

use super::arithmetic::{Arithmetic, Float32Math, Libm};
use super::python_float::{float_div, int_div, py_exp, PyResult};

/// `math.exp(1 - r / c)` for `c` hypothesis tokens against `r` reference tokens, as sacrebleu,
/// nltk, Moses and fairseq compute it (`r / c` of Python numbers raises for `c == 0`).
fn exp_penalty(c: f64, r: f64) -> PyResult<f64> {
    py_exp(1.0 - int_div(r, c)?)
}

/// `float(hyp_len) / float(ref_len)`, 0.0 without reference tokens.
pub(super) fn length_ratio(c: f64, r: f64) -> f64 {
    if r == 0.0 {
        0.0
    } else {
        c / r
    }
}

/// tensorflow/nmt's `exp(1 - 1/ratio)`.
pub(super) fn ratio_penalty(ratio: f64) -> PyResult<f64> {
    py_exp(1.0 - float_div(1.0, ratio)?)
}

/// A brevity penalty as the upstream returns it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penalty {
    /// The penalty (a float32 value under the torch arithmetic).
    pub value: f64,
    /// Whether the upstream returns it as a Python int (nltk's `1` and `0`).
    pub int: bool,
}

impl Penalty {
    fn float(value: f64) -> Self {
        Self { value, int: false }
    }
}

/// The brevity penalty of `hyp_len` tokens against `ref_len`, with `arithmetic`'s float
/// operations and edge cases: sacrebleu `exp(1 - r/c)` when shorter, 0.0 when empty; nltk
/// int `1` when longer, int `0` when empty; nmt from the length ratio; torch in float32 (its
/// `exp` from `math`); Moses 1.0 unless shorter; mteval `exp(min(0, 1 - r/c))`, 0.0 when empty;
/// coco `exp(1 - 1/ratio)` of its guarded ratio when that is below 1.
///
/// # Errors
/// The exception the upstream's Python raises: tensorflow/nmt's `1 / ratio` without
/// hypothesis tokens, Moses' `r / c` of an empty hypothesis.
#[allow(clippy::cast_possible_truncation)] // torchmetrics' float32 lengths
#[inline]
pub fn brevity_penalty(
    arithmetic: Arithmetic,
    hyp_len: f64,
    ref_len: f64,
    math: &mut dyn Float32Math,
) -> PyResult<Penalty> {
    let (c, r) = (hyp_len, ref_len);
    Ok(match arithmetic {
        Arithmetic::Sacrebleu if c < r && c > 0.0 => Penalty::float(exp_penalty(c, r)?),
        Arithmetic::Sacrebleu if c < r => Penalty::float(0.0),
        Arithmetic::Sacrebleu => Penalty::float(1.0),
        Arithmetic::Nltk if c > r => Penalty {
            value: 1.0,
            int: true,
        },
        Arithmetic::Nltk if c == 0.0 => Penalty {
            value: 0.0,
            int: true,
        },
        Arithmetic::Nltk => Penalty::float(exp_penalty(c, r)?),
        Arithmetic::Nmt => {
            let ratio = length_ratio(c, r);
            Penalty::float(if ratio > 1.0 {
                1.0
            } else {
                ratio_penalty(ratio)?
            })
        }
        Arithmetic::Torch => {
            let (c, r) = (c as f32, r as f32);
            Penalty::float(f64::from(if c > r { 1.0 } else { math.exp(1.0 - r / c) }))
        }
        Arithmetic::Moses if c < r => Penalty::float(exp_penalty(c, r)?),
        Arithmetic::Moses => Penalty::float(1.0),
        // `min(1, exp(1 - r / c))`: `r / c` raises without hypothesis tokens, even when r is 0.
        Arithmetic::Fairseq => Penalty::float(exp_penalty(c, r)?.min(1.0)),
        Arithmetic::Mteval if c > 0.0 => Penalty::float(py_exp(mteval_log_penalty(c, r)?)?),
        Arithmetic::Mteval => Penalty::float(0.0),
        Arithmetic::Coco => {
            let ratio = super::arithmetic::coco_ratio(c, r);
            Penalty::float(if ratio < 1.0 {
                py_exp(1.0 - 1.0 / ratio)?
            } else {
                1.0
            })
        }
    })
}

/// sacrebleu's penalty ([`brevity_penalty`] under [`Arithmetic::Sacrebleu`]), which raises
/// nothing: it only divides by a positive length, into a negative exponent.
#[inline]
pub fn sacrebleu_penalty(sys_len: f64, ref_len: f64) -> f64 {
    brevity_penalty(Arithmetic::Sacrebleu, sys_len, ref_len, &mut Libm)
        .map_or(f64::NAN, |p| p.value)
}

/// mteval's log brevity penalty `min(0, 1 - r/c)`.
pub(super) fn mteval_log_penalty(c: f64, r: f64) -> PyResult<f64> {
    Ok((1.0 - int_div(r, c)?).min(0.0))
}
