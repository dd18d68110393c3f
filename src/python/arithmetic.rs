//! Binding for the combine step of every emulated upstream BLEU (`crate::metrics::bleu::arithmetic`).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use super::args::{scale, typed};
use super::convert::array1;
use crate::error::Error;
use crate::metrics::bleu::arithmetic::{
    self, combine, Arithmetic, ArithmeticError, Combine, CountSmoothing, Counts, Float32Math,
    Precisions,
};
use crate::metrics::bleu::FloatSemantics;

/// The torch arithmetic's float32 `log`/`exp` by numpy's own functions (`np.log` of the
/// precisions' array, `np.exp` of a float32 scalar), as bleuprint's torchmetrics emulation
/// computed them before this arithmetic moved to Rust: numpy's float32 SIMD code is neither
/// `logf`/`expf` nor the same on every CPU. The first Python error is kept for the caller.
struct NumpyMath<'py> {
    numpy: Bound<'py, PyModule>,
    error: Option<PyErr>,
}

impl NumpyMath<'_> {
    fn ln_numpy(&self, values: &[f32]) -> PyResult<Vec<f32>> {
        let array = array1(self.numpy.py(), values.to_vec())?;
        let logs = self.numpy.getattr("log")?.call1((array,))?;
        Ok(logs.cast_into::<PyArray1<f32>>()?.to_vec()?)
    }

    fn exp_numpy(&self, x: f32) -> PyResult<f32> {
        let scalar = self.numpy.getattr("float32")?.call1((f64::from(x),))?;
        self.numpy
            .getattr("exp")?
            .call1((scalar,))?
            .extract::<f32>()
    }

    fn keep<T>(&mut self, result: PyResult<T>, fallback: T) -> T {
        result.unwrap_or_else(|e| {
            self.error.get_or_insert(e);
            fallback
        })
    }
}

impl Float32Math for NumpyMath<'_> {
    fn ln(&mut self, values: &[f32]) -> Vec<f32> {
        let result = self.ln_numpy(values);
        self.keep(result, vec![f32::NAN; values.len()])
    }
    fn exp(&mut self, x: f32) -> f32 {
        let result = self.exp_numpy(x);
        self.keep(result, f32::NAN)
    }
}

/// The exception the upstream's Python raises: `(class name, message)`.
type PythonException = Option<(&'static str, &'static str)>;

/// The result tuple: `(scores, bp, ratio, precisions, smoothed_orders, (scores_int, bp_int,
/// ratio_int, precisions_int), python_error)`.
type ArithmeticTuple = (
    Vec<f64>,
    f64,
    f64,
    Vec<f64>,
    usize,
    (bool, bool, bool, Vec<bool>),
    PythonException,
);

/// Summed counts to a score in one upstream's arithmetic (`crate::metrics::bleu::arithmetic::combine`).
/// `smoothed` (with `positive`, each `p > 0`) holds the caller's smoothed precisions for a
/// smoothing the arithmetic does not compute itself, `None` where the caller skipped them.
/// Where the upstream's Python raises, `python_error` names the exception class and message
/// and the other fields are empty.
#[pyfunction]
#[pyo3(signature = (correct, total, *, hyp_len, ref_len, arithmetic, weights, uniform_weights, effective_order, auto_reweigh, smooth_method, smooth_value, smoothed, positive, item_lengths, scale, compensated_sum))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn arithmetic_score(
    py: Python<'_>,
    #[pyo3(from_py_with = typed::correct)] correct: Vec<f64>,
    #[pyo3(from_py_with = typed::total)] total: Vec<f64>,
    #[pyo3(from_py_with = typed::hyp_len)] hyp_len: f64,
    #[pyo3(from_py_with = typed::ref_len)] ref_len: f64,
    #[pyo3(from_py_with = typed::arithmetic)] arithmetic: &str,
    #[pyo3(from_py_with = typed::weights)] weights: Vec<Vec<f64>>,
    #[pyo3(from_py_with = typed::uniform_weights)] uniform_weights: bool,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::auto_reweigh)] auto_reweigh: bool,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::smoothed)] smoothed: Option<Vec<f64>>,
    #[pyo3(from_py_with = typed::positive)] positive: Option<Vec<bool>>,
    #[pyo3(from_py_with = typed::item_lengths)] item_lengths: Option<(f64, f64)>,
    #[pyo3(from_py_with = scale)] scale: u32,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
) -> PyResult<ArithmeticTuple> {
    let arithmetic = Arithmetic::from_name(arithmetic)?;
    let precisions = match (&smoothed, &positive) {
        (Some(values), Some(positive)) if values.len() == positive.len() => {
            Precisions::Given { values, positive }
        }
        (Some(_), _) | (None, Some(_)) => {
            return Err(Error::invalid_input(
                "smoothed and positive go together, one flag per smoothed precision",
            )
            .into())
        }
        (None, None) if arithmetic.own_smoothings().contains(&smooth_method) => {
            Precisions::Own(CountSmoothing::from_name(smooth_method, smooth_value)?)
        }
        (None, None) => Precisions::Skipped,
    };
    let knobs = Combine {
        arithmetic,
        precisions,
        weights: &weights,
        uniform_weights,
        effective_order,
        auto_reweigh,
        item_lengths,
        scale,
        semantics: FloatSemantics { compensated_sum },
    };
    let counts = Counts {
        hyp_len,
        ref_len,
        correct: &correct,
        total: &total,
    };
    let mut math = NumpyMath {
        numpy: py.import("numpy")?,
        error: None,
    };
    let result = combine(&knobs, &counts, &mut math);
    if let Some(e) = math.error {
        return Err(e);
    }
    match result {
        Ok(s) => Ok((
            s.scores,
            s.bp,
            s.ratio,
            s.precisions,
            s.smoothed_orders,
            (s.ints.scores, s.ints.bp, s.ints.ratio, s.ints.precisions),
            None,
        )),
        Err(ArithmeticError::Core(e)) => Err(e.into()),
        Err(ArithmeticError::Python(e)) => Ok((
            Vec::new(),
            0.0,
            0.0,
            Vec::new(),
            0,
            (false, false, false, Vec::new()),
            Some((e.class_name(), e.message())),
        )),
    }
}

/// The brevity penalty in one upstream's arithmetic
/// (`crate::metrics::bleu::arithmetic::brevity_penalty`): `(value, is_int, python_error)`.
#[pyfunction]
#[pyo3(signature = (hyp_len, ref_len, *, arithmetic))]
pub(crate) fn brevity_penalty(
    py: Python<'_>,
    #[pyo3(from_py_with = typed::hyp_len)] hyp_len: f64,
    #[pyo3(from_py_with = typed::ref_len)] ref_len: f64,
    #[pyo3(from_py_with = typed::arithmetic)] arithmetic: &str,
) -> PyResult<(f64, bool, PythonException)> {
    let arithmetic = Arithmetic::from_name(arithmetic)?;
    let mut math = NumpyMath {
        numpy: py.import("numpy")?,
        error: None,
    };
    let result = arithmetic::brevity_penalty(arithmetic, hyp_len, ref_len, &mut math);
    if let Some(e) = math.error {
        return Err(e);
    }
    Ok(match result {
        Ok(p) => (p.value, p.int, None),
        Err(e) => (0.0, false, Some((e.class_name(), e.message()))),
    })
}

/// Each arithmetic's name with the smoothing methods it computes from the counts itself.
pub(crate) fn own_smoothings() -> Vec<(&'static str, Vec<&'static str>)> {
    Arithmetic::NAMES
        .iter()
        .filter_map(|name| Arithmetic::from_name(name).ok())
        .map(|a| (a.name(), a.own_smoothings().to_vec()))
        .collect()
}
