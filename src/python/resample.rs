//! Bindings for resampled sums (bootstrap and approximate randomization). The index and swap
//! matrices are drawn by numpy on the Python side.

use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use super::args::{run_interruptible, typed, workers};
use super::convert::{owned_rows, rows_array};
use super::errors::{type_error, type_name};
use crate::resample;

/// Resampling tables above this many values run interruptibly.
const WATCH_MIN_VALUES: usize = 1 << 16;

fn sums_array<T: numpy::Element>(
    py: Python<'_>,
    width: usize,
    sums: Vec<T>,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    let rows = sums.len().checked_div(width).unwrap_or(0);
    rows_array(py, rows, width, sums)
}

fn bootstrap<'py, T>(
    py: Python<'py>,
    stats: &PyReadonlyArray2<'py, T>,
    indices: &PyReadonlyArray2<'py, i64>,
    workers: i64,
) -> PyResult<Bound<'py, PyArray2<T>>>
where
    T: numpy::Element + Copy + Default + std::ops::AddAssign + Send + Sync,
{
    let width = stats.as_array().ncols();
    let rows = owned_rows(stats, width, "statistics")?;
    let n_segments = stats.as_array().nrows();
    let idx = owned_rows(indices, n_segments, "resample indices (one per segment)")?;
    let watch = idx.len() >= WATCH_MIN_VALUES;
    let sums = run_interruptible(py, watch, || {
        resample::bootstrap_sums(&rows, width, &idx, workers)
    })?;
    sums_array(py, width, sums)
}

/// Column sums of `n_samples` bootstrap resamples of the statistics rows: row `s` of the
/// result sums `stats[indices[s, k]]` over `k`, in index order. `stats` is a float32 array
/// (sacrebleu's bootstrap sums float32 statistics in that order, so the rounding matches), a
/// float64 array (per-segment scores, as ROUGE's mean of sentence scores resamples them) or
/// an int64 array (exact sums); the result has its dtype.
#[pyfunction]
#[pyo3(signature = (stats, indices, *, workers = -1))]
pub(crate) fn bootstrap_sums<'py>(
    py: Python<'py>,
    stats: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::indices)] indices: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(float32) = stats.extract::<PyReadonlyArray2<'py, f32>>() {
        return Ok(bootstrap(py, &float32, &indices, workers)?.into_any());
    }
    if let Ok(float64) = stats.extract::<PyReadonlyArray2<'py, f64>>() {
        return Ok(bootstrap(py, &float64, &indices, workers)?.into_any());
    }
    match stats.extract::<PyReadonlyArray2<'py, i64>>() {
        Ok(int64) => Ok(bootstrap(py, &int64, &indices, workers)?.into_any()),
        Err(_) => Err(type_error(format!(
            "stats must be a 2-D float32, float64 or int64 numpy array, got {}",
            type_name(stats)
        ))),
    }
}

#[pyfunction]
#[pyo3(signature = (baseline, system, packed_swaps, *, workers = -1))]
#[allow(clippy::type_complexity)]
pub(crate) fn randomization_sums<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::baseline)] baseline: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = typed::system)] system: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = typed::packed_swaps)] packed_swaps: PyReadonlyArray2<'py, u8>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray2<i64>>)> {
    let width = baseline.as_array().ncols();
    let bl = owned_rows(&baseline, width, "baseline statistics")?;
    let sys = owned_rows(
        &system,
        width,
        "system statistics (as many as the baseline's)",
    )?;
    let n_segments = baseline.as_array().nrows();
    let what = "packed swap flags (one bit per segment)";
    let flags = owned_rows(&packed_swaps, n_segments.div_ceil(8), what)?;
    let watch = flags.len() * 8 * width >= WATCH_MIN_VALUES;
    let (a, b) = run_interruptible(py, watch, || {
        resample::randomization_sums(&bl, &sys, width, &flags, workers)
    })?;
    Ok((sums_array(py, width, a)?, sums_array(py, width, b)?))
}
