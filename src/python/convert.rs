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

/// The UTF-8 bytes of a Python `str`, as a pointer and length valid while the object lives.
fn utf8_of(s: &Bound<'_, PyString>) -> PyResult<(*const u8, usize)> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str`; CPython returns a pointer into a UTF-8 buffer owned (and
    // cached) by the object, valid until the object is freed, or NULL with an exception set.
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    Ok((data.cast::<u8>(), usize::try_from(size).unwrap_or(0)))
}

/// One text stream taken from Python in a single pass: a strong reference to every string
/// (so the text outlives a released GIL even if the caller's list changes) and a view of its
/// UTF-8 bytes.
pub(crate) struct StrStream<'py> {
    holders: Vec<Bound<'py, PyString>>,
    views: Vec<Option<(*const u8, usize)>>,
}

impl<'py> StrStream<'py> {
    /// Extracts a sequence of `str` (or `None` where `allow_none`). `what` names the argument in
    /// error messages, e.g. `"hypotheses"` or `"references[1]"`.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str, allow_none: bool) -> PyResult<Self> {
        let capacity = seq.len().unwrap_or(0);
        let mut stream = Self {
            holders: Vec::with_capacity(capacity),
            views: Vec::with_capacity(capacity),
        };
        let mut push = |i: usize, item: Bound<'py, PyAny>| -> PyResult<()> {
            if item.is_none() && allow_none {
                stream.views.push(None);
                return Ok(());
            }
            let text = item.cast_into::<PyString>().map_err(|e| {
                let type_name = e
                    .into_inner()
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                let allowed = if allow_none { "str or None" } else { "str" };
                PyTypeError::new_err(format!("{what}[{i}] must be {allowed}, got {type_name}"))
            })?;
            stream.views.push(Some(utf8_of(&text)?));
            stream.holders.push(text);
            Ok(())
        };
        if let Ok(list) = seq.cast::<PyList>() {
            for (i, item) in list.iter().enumerate() {
                push(i, item)?;
            }
        } else {
            let seq = seq
                .cast::<PySequence>()
                .map_err(|_| PyTypeError::new_err(format!("{what} must be a sequence of str")))?;
            for (i, item) in seq.try_iter()?.enumerate() {
                push(i, item?)?;
            }
        }
        Ok(stream)
    }

    pub(crate) fn len(&self) -> usize {
        self.views.len()
    }

    fn view(&self, view: (*const u8, usize)) -> &str {
        // SAFETY: the pointer and length came from PyUnicode_AsUTF8AndSize on a string that
        // `self.holders` keeps alive for as long as `self` is borrowed; CPython guarantees
        // the buffer is valid UTF-8 (it raises for lone surrogates instead).
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(view.0, view.1)) }
    }

    /// Borrowed views of the strings; `None` stays `None`.
    pub(crate) fn borrow(&self) -> Vec<Option<&str>> {
        self.views.iter().map(|v| v.map(|v| self.view(v))).collect()
    }

    /// Borrowed views, for a stream that may not hold `None`.
    pub(crate) fn borrow_all(&self) -> Vec<&str> {
        self.views
            .iter()
            .map(|v| v.map_or("", |v| self.view(v)))
            .collect()
    }
}
