//! Python inputs to borrowed Rust values, without copying the text.

use std::os::raw::c_char;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PySequence, PyString};

extern "C" {
    // Exported by every CPython >= 3.3 and part of the stable ABI since 3.10. pyo3-ffi hides it
    // for abi3 builds that target 3.9, but the symbol is present there too; declaring it here lets
    // us borrow each string's cached UTF-8 buffer instead of copying it.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// Borrows the UTF-8 bytes of a Python `str`. The slice lives as long as `s` does.
pub(crate) fn borrow_str<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str`; CPython returns a pointer into a UTF-8 buffer owned (and
    // cached) by the object, valid until the object is freed, or NULL with an exception set.
    unsafe {
        let data = PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size);
        if data.is_null() {
            return Err(PyErr::fetch(s.py()));
        }
        let len = usize::try_from(size).unwrap_or(0);
        let bytes = std::slice::from_raw_parts(data.cast::<u8>(), len);
        // CPython guarantees valid UTF-8 here (it raises for lone surrogates).
        Ok(std::str::from_utf8_unchecked(bytes))
    }
}

/// Holds the Python strings of one text stream alive so that borrowed `&str`s can outlive the
/// GIL while Rust works on them.
pub(crate) struct StrStream<'py> {
    items: Vec<Option<Bound<'py, PyString>>>,
}

impl<'py> StrStream<'py> {
    /// Extracts a sequence of `str` (or `None` where `allow_none`). `what` names the argument in
    /// error messages, e.g. `"hypotheses"` or `"references[1]"`.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str, allow_none: bool) -> PyResult<Self> {
        let convert =
            |i: usize, item: Bound<'py, PyAny>| -> PyResult<Option<Bound<'py, PyString>>> {
                if item.is_none() && allow_none {
                    return Ok(None);
                }
                item.cast_into::<PyString>().map(Some).map_err(|e| {
                    let type_name = e
                        .into_inner()
                        .get_type()
                        .name()
                        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                    let allowed = if allow_none { "str or None" } else { "str" };
                    PyTypeError::new_err(format!("{what}[{i}] must be {allowed}, got {type_name}"))
                })
            };
        let items = if let Ok(list) = seq.cast::<PyList>() {
            list.iter()
                .enumerate()
                .map(|(i, item)| convert(i, item))
                .collect::<PyResult<Vec<_>>>()?
        } else {
            let seq = seq
                .cast::<PySequence>()
                .map_err(|_| PyTypeError::new_err(format!("{what} must be a sequence of str")))?;
            seq.try_iter()?
                .enumerate()
                .map(|(i, item)| convert(i, item?))
                .collect::<PyResult<Vec<_>>>()?
        };
        Ok(Self { items })
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Borrowed views of the strings; `None` stays `None`.
    pub(crate) fn borrow(&self) -> PyResult<Vec<Option<&str>>> {
        self.items
            .iter()
            .map(|s| s.as_ref().map(borrow_str).transpose())
            .collect()
    }

    /// Borrowed views, for a stream that may not hold `None`.
    pub(crate) fn borrow_all(&self) -> PyResult<Vec<&str>> {
        self.items
            .iter()
            .map(|s| s.as_ref().map_or(Ok(""), borrow_str))
            .collect()
    }
}
