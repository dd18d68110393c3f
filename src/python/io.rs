//! Binding for the file reader: one call per file, the parse runs without the GIL.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use super::args::{size_option, typed};
use super::errors::type_error;
use super::errors::type_name;
use crate::error::{Error, ErrorKind};
use crate::text::lines;

/// `OSError(errno, strerror, filename)`, which Python turns into the matching subclass
/// (`FileNotFoundError`, `IsADirectoryError`, `PermissionError`, ...).
fn os_error(err: &std::io::Error, path: &Path) -> PyErr {
    let filename = path.display().to_string();
    match err.raw_os_error() {
        Some(code) => {
            let text = err.to_string();
            let suffix = format!(" (os error {code})");
            let strerror = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
            PyOSError::new_err((code, strerror, filename))
        }
        None => PyOSError::new_err(format!("{filename}: {err}")),
    }
}

/// Reads a UTF-8 text file into a list of lines, as sacrebleu's command line reads its files:
/// split on `\n` only, no empty line after a final newline, each line `rstrip()`-ed (so CRLF
/// files work). A leading UTF-8 byte order mark is dropped.
///
/// Raises `OSError` (its subclasses) when the file cannot be read and
/// `bleuprint.InputDecodeError` naming the path and byte offset when it is not valid UTF-8.
#[pyfunction]
pub(crate) fn read_lines(
    py: Python<'_>,
    #[pyo3(from_py_with = typed::path)] path: PathBuf,
) -> PyResult<Bound<'_, PyList>> {
    let bytes = py
        .detach(|| std::fs::read(&path))
        .map_err(|e| os_error(&e, &path))?;
    let lines = py.detach(|| lines::parse_lines(&bytes)).map_err(|e| {
        Error::new(
            ErrorKind::Decode,
            format!("{}: {}", path.display(), e.message()),
        )
    })?;
    PyList::new(py, lines.iter().map(|line| PyString::new(py, line)))
}

/// Where the next `n` lines of `data` from byte `start` end: `(end, lines)` (see
/// [`lines::line_end`]). The command line cuts its blocks of whole lines here, so the streams
/// it reads in step hold the same segments.
#[pyfunction]
pub(crate) fn line_end(
    data: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = offset)] start: usize,
    #[pyo3(from_py_with = count)] n: usize,
) -> PyResult<(usize, usize)> {
    let bytes = data
        .cast::<PyBytes>()
        .map_err(|_| type_error(format!("data must be bytes, got {}", type_name(data))))?;
    Ok(lines::line_end(bytes.as_bytes(), start, n))
}

/// `line_end`'s `start`: a byte offset, any non-negative `i64`.
fn offset(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(
        value,
        "start",
        0,
        usize::try_from(i64::MAX).unwrap_or(usize::MAX),
    )
}

/// `line_end`'s `n`: a number of lines, any non-negative `i64`.
fn count(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    size_option(
        value,
        "n",
        0,
        usize::try_from(i64::MAX).unwrap_or(usize::MAX),
    )
}
