//! The single mapping from core [`ErrorKind`]s to the Python classes in `bleuprint/errors.py`:
//! bindings end in `?` through `From<Error> for PyErr`.

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::import_exception;
use pyo3::prelude::*;

use crate::error::{Error, ErrorKind};

import_exception!(bleuprint.errors, InvalidOptionError);
import_exception!(bleuprint.errors, InvalidInputError);
import_exception!(bleuprint.errors, InputDecodeError);
import_exception!(bleuprint.errors, InputTypeError);
import_exception!(bleuprint.errors, InternalError);

impl From<Error> for PyErr {
    fn from(err: Error) -> Self {
        let message = err.message().to_owned();
        match err.kind() {
            ErrorKind::InvalidOption => InvalidOptionError::new_err(message),
            ErrorKind::InvalidInput => InvalidInputError::new_err(message),
            ErrorKind::Decode => InputDecodeError::new_err(message),
            ErrorKind::InvalidType => InputTypeError::new_err(message),
            // Only reached when the flag was set without a pending Python exception (the
            // interruptible runner re-raises the one it caught).
            ErrorKind::Interrupted => PyKeyboardInterrupt::new_err(message),
            ErrorKind::Internal => InternalError::new_err(message),
        }
    }
}

/// A type error naming the value, as a `bleuprint.InputTypeError` (also a `TypeError`).
pub(crate) fn type_error(message: impl Into<String>) -> PyErr {
    InputTypeError::new_err(message.into())
}

/// A broken invariant of the bindings (an array of the wrong shape): a bug, reported as
/// `bleuprint.InternalError` rather than a panic.
pub(crate) fn internal_error(e: impl std::fmt::Display) -> PyErr {
    Error::internal(e.to_string()).into()
}

/// The type name of `value`, for error messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
