//! The single mapping from core [`ErrorKind`]s to the Python classes in `bleuprint/errors.py`.

use pyo3::import_exception;
use pyo3::PyErr;

use crate::error::{Error, ErrorKind};

import_exception!(bleuprint.errors, InvalidOptionError);
import_exception!(bleuprint.errors, InvalidInputError);
import_exception!(bleuprint.errors, InputDecodeError);

/// Converts a core error into the Python exception for its kind.
pub(crate) fn to_py_err(err: Error) -> PyErr {
    let message = err.message().to_owned();
    match err.kind() {
        ErrorKind::InvalidOption => InvalidOptionError::new_err(message),
        ErrorKind::InvalidInput => InvalidInputError::new_err(message),
        ErrorKind::Decode => InputDecodeError::new_err(message),
    }
}

/// An array of the wrong shape: only possible through a bug, reported rather than panicking.
pub(crate) fn shape_error(e: impl std::fmt::Display) -> PyErr {
    to_py_err(Error::invalid_input(e.to_string()))
}
