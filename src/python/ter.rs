//! Bindings for TER statistics and the Tercom tokenizer. Lowercasing (TER's default) is done
//! by the caller with Python's `str.lower()`.

use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use super::args::{
    run_interruptible, type_name, typed, workers, WATCH_MIN_BYTES, WATCH_MIN_BYTES_TER,
};
use super::convert::{
    array1, ensure_numpy, numpy_floats_array, owned_rows, references_per_segment, rows_array,
    StrStream, StreamInput,
};
use super::errors::type_error;
use crate::metrics::ter::{self, TerTokenizerConfig};
use crate::parallel;
use crate::resample::numpy_float::NumpyFloat;
use crate::tokenize::tercom;

/// Per-segment TER statistics `[best_edits, sum_of_ref_lengths, references]`, shape `(n, 3)`,
/// dtype int64, together with the references per segment (-1 where it varies).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, normalized = false, no_punct = false, asian_support = false, workers = -1))]
pub(crate) fn ter_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::normalized)] normalized: bool,
    #[pyo3(from_py_with = typed::no_punct)] no_punct: bool,
    #[pyo3(from_py_with = typed::asian_support)] asian_support: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64)> {
    let config = TerTokenizerConfig {
        normalized,
        no_punct,
        asian_support,
    };
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let watch = input.bytes() >= WATCH_MIN_BYTES_TER;
    let (rows, nrefs) = run_interruptible(py, watch, || {
        let rows = ter::stream_stats(&hyps, &streams, config, workers)?;
        Ok((rows, references_per_segment(&streams)))
    })?;
    Ok((rows_array(py, input.len(), ter::WIDTH, rows)?, nrefs))
}

/// Every line as TER sees it: sacrebleu's `TercomTokenizer(...)(line.rstrip())`, without the
/// lowercasing.
#[pyfunction]
#[pyo3(signature = (lines, *, normalized = false, no_punct = false, asian_support = false, workers = -1))]
pub(crate) fn ter_tokenize(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::normalized)] normalized: bool,
    #[pyo3(from_py_with = typed::no_punct)] no_punct: bool,
    #[pyo3(from_py_with = typed::asian_support)] asian_support: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Vec<String>> {
    let config = TerTokenizerConfig {
        normalized,
        no_punct,
        asian_support,
    };
    let stream = StrStream::extract(lines, "lines", false)?;
    let lines = stream.borrow_all();
    run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
        parallel::map_init(
            &lines,
            workers,
            tercom::TokenizerScratch::default,
            |scratch, line| {
                let mut out = String::new();
                tercom::tokenize_into(line, config, scratch, &mut out);
                out
            },
        )
    })
}

/// TER scores of summed `[edits, reference length]` rows, float32 (the bootstrap's sums) or
/// float64 (the approximate randomization's): `(values, is_float32)` as numpy would hold them.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn ter_scores_from_sums<'py>(
    py: Python<'py>,
    sums: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>)> {
    ensure_numpy(py)?;
    let scores = match sums.extract::<PyReadonlyArray2<'py, f32>>() {
        Ok(float32_sums) => scores_of(&float32_sums)?,
        Err(_) => scores_of(&sums.extract::<PyReadonlyArray2<'py, f64>>().map_err(|_| {
            type_error(format!(
                "sums must be a 2-D float32 or float64 numpy array, got {}",
                type_name(sums)
            ))
        })?)?,
    };
    numpy_floats_array(py, &scores)
}

fn scores_of<T>(sums: &PyReadonlyArray2<'_, T>) -> PyResult<Vec<NumpyFloat>>
where
    T: numpy::Element + Copy + Into<NumpyFloat>,
{
    let rows = owned_rows(sums, 2, "summed TER statistics [edits, reference length]")?;
    Ok(rows
        .chunks_exact(2)
        .map(|r| match *r {
            [edits, length] => ter::score_from_sums(edits.into(), length.into()),
            _ => NumpyFloat::Python(f64::NAN),
        })
        .collect())
}

/// Corpus TER of per-segment rows `(n, 3)`: `(score, edits, ref_length)`, sacrebleu's
/// `TERScore` fields (the average reference lengths added in segment order).
#[pyfunction]
pub(crate) fn ter_corpus_score(
    #[pyo3(from_py_with = typed::rows_int64)] rows: PyReadonlyArray2<'_, i64>,
) -> PyResult<(f64, i64, f64)> {
    let rows = owned_rows(
        &rows,
        ter::WIDTH,
        "TER statistics [edits, ref_words, nrefs]",
    )?;
    let s = ter::corpus_score(&rows)?;
    Ok((s.score, s.edits, s.ref_length))
}

/// Every row `(n, 3)` scored as one segment: `(scores, edits, average reference lengths)`,
/// three arrays of shape `(n,)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn ter_row_scores<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::rows_int64)] rows: PyReadonlyArray2<'py, i64>,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    let rows = owned_rows(
        &rows,
        ter::WIDTH,
        "TER statistics [edits, ref_words, nrefs]",
    )?;
    let scores = ter::row_scores(&rows)?;
    Ok((
        array1(py, scores.iter().map(|s| s.score).collect())?,
        array1(py, scores.iter().map(|s| s.edits).collect())?,
        array1(py, scores.iter().map(|s| s.ref_length).collect())?,
    ))
}
