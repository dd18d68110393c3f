//! Bindings for BLEU statistics and scoring: one FFI call per batch.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PySequence;

use super::convert::StrStream;
use super::errors::to_py_err;
use crate::bleu::{self, BleuConfig, FloatSemantics, Smoothing};
use crate::error::Error;
use crate::tokenize::Tokenizer;

fn config(
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<BleuConfig> {
    let config = BleuConfig {
        max_order,
        smoothing: Smoothing::from_name(smooth_method, smooth_value).map_err(to_py_err)?,
        effective_order,
    };
    config.validate().map_err(to_py_err)?;
    Ok(config)
}

fn shape_error(e: impl std::fmt::Display) -> PyErr {
    to_py_err(Error::invalid_input(e.to_string()))
}

/// Per-segment BLEU statistics, shape `(n, 2 + 2 * max_order)`, dtype int64.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, tokenizer, max_order, workers = -1))]
pub(crate) fn bleu_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenizer: &str,
    max_order: usize,
    workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let tokenizer = Tokenizer::from_name(tokenizer).map_err(to_py_err)?;
    let config = config(max_order, "none", None, false)?;
    let hyp_stream = StrStream::extract(hypotheses, "hypotheses", false)?;
    let references = references
        .cast::<PySequence>()
        .map_err(|_| PyTypeError::new_err("references must be a sequence of reference streams"))?;
    let ref_streams = references
        .try_iter()?
        .enumerate()
        .map(|(k, stream)| StrStream::extract(&stream?, &format!("references[{k}]"), true))
        .collect::<PyResult<Vec<_>>>()?;
    let hyps = hyp_stream.borrow_all()?;
    let streams = ref_streams
        .iter()
        .map(StrStream::borrow)
        .collect::<PyResult<Vec<_>>>()?;
    let n = hyp_stream.len();
    let rows = py
        .detach(|| bleu::stream_stats(&hyps, &streams, tokenizer, &config, workers))
        .map_err(to_py_err)?;
    let array = Array2::from_shape_vec((n, config.width()), rows).map_err(shape_error)?;
    Ok(array.into_pyarray(py))
}

/// Scores one summed statistics row. Returns `(score, bp, precisions, smoothed_orders)`.
#[pyfunction]
#[pyo3(signature = (stats, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum))]
pub(crate) fn bleu_score(
    stats: PyReadonlyArray1<'_, i64>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    compensated_sum: bool,
) -> PyResult<(f64, f64, Vec<f64>, usize)> {
    let config = config(max_order, smooth_method, smooth_value, effective_order)?;
    let row = stats.as_array().to_vec();
    let s = bleu::score_from_stats(&row, &config, &FloatSemantics { compensated_sum })
        .map_err(to_py_err)?;
    Ok((s.score, s.bp, s.precisions, s.smoothed_orders))
}

/// Scores every row of a statistics matrix; returns a float64 array of shape `(n,)`.
#[pyfunction]
#[pyo3(signature = (stats, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum))]
pub(crate) fn bleu_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    compensated_sum: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let config = config(max_order, smooth_method, smooth_value, effective_order)?;
    let array = stats.as_array();
    if array.ncols() != config.width() {
        return Err(to_py_err(Error::invalid_input(format!(
            "BLEU statistics for max_ngram_order={max_order} need {} columns, got {}",
            config.width(),
            array.ncols()
        ))));
    }
    let rows: Vec<i64> = array.iter().copied().collect();
    let semantics = FloatSemantics { compensated_sum };
    let scores = py
        .detach(|| bleu::scores_from_rows(&rows, &config, &semantics))
        .map_err(to_py_err)?;
    Ok(Array1::from_vec(scores).into_pyarray(py))
}
