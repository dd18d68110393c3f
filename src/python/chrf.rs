//! Bindings for chrF statistics and scoring: one FFI call per batch.

use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use super::args::{char_order, run_interruptible, typed, word_order, workers};
use super::convert::{
    array1, numpy_floats_array, owned_rows, references_per_segment, rows_array, StreamInput,
};
use crate::metrics::chrf::{self, ChrfConfig};

pub(super) fn config(
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    whitespace: bool,
    eps_smoothing: bool,
) -> PyResult<ChrfConfig> {
    let config = ChrfConfig {
        char_order,
        word_order,
        factor,
        one_plus_factor,
        whitespace,
        eps_smoothing,
    };
    config.validate()?;
    Ok(config)
}

/// Names of the chrF statistics columns: `char1_hyp, char1_ref, char1_match, ...`, then the
/// word orders.
#[pyfunction]
pub(crate) fn chrf_column_names(
    #[pyo3(from_py_with = char_order)] char_order: usize,
    #[pyo3(from_py_with = word_order)] word_order: usize,
) -> PyResult<Vec<String>> {
    let config = ChrfConfig {
        char_order,
        word_order,
        ..ChrfConfig::default()
    };
    config.validate()?;
    Ok(config.column_names())
}

/// Per-segment chrF statistics, shape `(n, 3 * (char_order + word_order))`, dtype int64, and
/// the references per segment (-1 where it varies). `factor` is `beta ** 2` and
/// `one_plus_factor` is `1 + beta ** 2`, both computed in Python as sacrebleu does: the best
/// reference of a segment is chosen by F-score.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, char_order, word_order, factor, one_plus_factor, whitespace, eps_smoothing, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn chrf_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = char_order)] char_order: usize,
    #[pyo3(from_py_with = word_order)] word_order: usize,
    #[pyo3(from_py_with = typed::factor)] factor: f64,
    #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
    #[pyo3(from_py_with = typed::whitespace)] whitespace: bool,
    #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64)> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        whitespace,
        eps_smoothing,
    )?;
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let (rows, nrefs) = run_interruptible(py, input.is_large(), || {
        let rows = chrf::stream_stats(&hyps, &streams, config, workers)?;
        Ok((rows, references_per_segment(&streams)))
    })?;
    Ok((rows_array(py, input.len(), config.width(), rows)?, nrefs))
}

/// Scores every row of a chrF statistics matrix; returns a float64 array of shape `(n,)`.
#[pyfunction]
#[pyo3(signature = (stats, *, char_order, word_order, factor, one_plus_factor, eps_smoothing))]
pub(crate) fn chrf_scores<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::stats_int64)] stats: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = char_order)] char_order: usize,
    #[pyo3(from_py_with = word_order)] word_order: usize,
    #[pyo3(from_py_with = typed::factor)] factor: f64,
    #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
    #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        false,
        eps_smoothing,
    )?;
    let what = format!(
        "chrF statistics for char_order={}, word_order={}",
        config.char_order, config.word_order
    );
    let rows = owned_rows(&stats, config.width(), &what)?;
    let scores = py.detach(|| chrf::scores_from_rows(&rows, &config));
    array1(py, scores)
}

/// Scores float32 sums (sacrebleu's bootstrap resamples) with numpy's float32 arithmetic:
/// `(values, is_float32)`, the scores as float64 and whether each is a numpy.float32 (a score
/// of exactly 0 from no matches at all is a Python float).
#[pyfunction]
#[pyo3(signature = (sums, *, char_order, word_order, factor, one_plus_factor, eps_smoothing))]
#[allow(clippy::type_complexity)]
pub(crate) fn chrf_scores_float32<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::sums_float32)] sums: PyReadonlyArray2<'py, f32>,
    #[pyo3(from_py_with = char_order)] char_order: usize,
    #[pyo3(from_py_with = word_order)] word_order: usize,
    #[pyo3(from_py_with = typed::factor)] factor: f64,
    #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
    #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>)> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        false,
        eps_smoothing,
    )?;
    let what = format!(
        "chrF statistics for char_order={}, word_order={}",
        config.char_order, config.word_order
    );
    let rows = owned_rows(&sums, config.width(), &what)?;
    let scores: Vec<_> = py.detach(|| {
        rows.chunks_exact(config.width())
            .map(|row| chrf::f_score_float32(row, &config))
            .collect()
    });
    numpy_floats_array(py, &scores)
}
