//! Bindings for chrF statistics and scoring: one FFI call per batch.

use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use super::convert::{
    extract_reference_streams, numpy_floats_array, owned_rows, rows_array, StrStream,
};
use super::errors::to_py_err;
use crate::chrf::{self, ChrfConfig};
use crate::error::Error;
use crate::reference_sets::references_per_segment;

fn config(
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
    config.validate().map_err(to_py_err)?;
    Ok(config)
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
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    whitespace: bool,
    eps_smoothing: bool,
    workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64)> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        whitespace,
        eps_smoothing,
    )?;
    let hyp_stream = StrStream::extract(hypotheses, "hypotheses", false)?;
    let ref_streams = extract_reference_streams(references)?;
    let hyps = hyp_stream.borrow_all();
    let streams: Vec<_> = ref_streams.iter().map(StrStream::borrow).collect();
    let (rows, nrefs) = py
        .detach(|| {
            let rows = chrf::stream_stats(&hyps, &streams, &config, workers)?;
            let nrefs = references_per_segment(&streams)
                .map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
            Ok::<_, Error>((rows, nrefs))
        })
        .map_err(to_py_err)?;
    Ok((
        rows_array(py, hyp_stream.len(), config.width(), rows)?,
        nrefs,
    ))
}

/// Scores every row of a chrF statistics matrix; returns a float64 array of shape `(n,)`.
#[pyfunction]
#[pyo3(signature = (stats, *, char_order, word_order, factor, one_plus_factor, eps_smoothing))]
pub(crate) fn chrf_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        false,
        eps_smoothing,
    )?;
    let what = format!("chrF statistics for char_order={char_order}, word_order={word_order}");
    let rows = owned_rows(&stats, config.width(), &what)?;
    let scores = py.detach(|| chrf::scores_from_rows(&rows, &config));
    Ok(Array1::from_vec(scores).into_pyarray(py))
}

/// Scores float32 sums (sacrebleu's bootstrap resamples) with numpy's float32 arithmetic:
/// `(values, is_float32)`, the scores as float64 and whether each is a numpy.float32 (a score
/// of exactly 0 from no matches at all is a Python float).
#[pyfunction]
#[pyo3(signature = (sums, *, char_order, word_order, factor, one_plus_factor, eps_smoothing))]
#[allow(clippy::type_complexity)]
pub(crate) fn chrf_scores_float32<'py>(
    py: Python<'py>,
    sums: PyReadonlyArray2<'py, f32>,
    char_order: usize,
    word_order: usize,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>)> {
    let config = config(
        char_order,
        word_order,
        factor,
        one_plus_factor,
        false,
        eps_smoothing,
    )?;
    let what = format!("chrF statistics for char_order={char_order}, word_order={word_order}");
    let rows = owned_rows(&sums, config.width(), &what)?;
    let scores: Vec<_> = py.detach(|| {
        rows.chunks_exact(config.width())
            .map(|row| chrf::f_score_float32(row, &config))
            .collect()
    });
    Ok(numpy_floats_array(py, &scores))
}
