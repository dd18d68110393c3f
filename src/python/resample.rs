//! Bindings for resampled sums (bootstrap and approximate randomization). The index and swap
//! matrices are drawn by numpy on the Python side.

use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

use super::args::{run_interruptible, typed, workers};
use super::convert::{owned_rows, rows_array};
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

/// Float32 statistics summed per resample, row after row in index order (numpy's
/// `stats[indices[k]].sum(0)`); shape `(n_resamples, width)`.
#[pyfunction]
#[pyo3(signature = (stats, indices, *, workers = -1))]
pub(crate) fn bootstrap_sums_float32<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::stats_float32)] stats: PyReadonlyArray2<'py, f32>,
    #[pyo3(from_py_with = typed::indices)] indices: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    bootstrap(py, &stats, &indices, workers)
}

/// Integer statistics summed per resample; shape `(n_resamples, width)`.
#[pyfunction]
#[pyo3(signature = (stats, indices, *, workers = -1))]
pub(crate) fn bootstrap_sums_int64<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::stats_int64)] stats: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = typed::indices)] indices: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    bootstrap(py, &stats, &indices, workers)
}

/// Approximate-randomization sums `(a, b)`, each `(n_trials, width)`: in trial `k`, `a` takes
/// segment `i` from the baseline where swap flag `[k, i]` is set and from the system
/// otherwise; `b` takes the other. `packed_swaps` is the flag matrix packed 8 segments to a
/// byte (`numpy.packbits(flags, axis=1, bitorder="little")`).
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
