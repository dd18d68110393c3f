//! Python inputs to borrowed Rust values, without copying the text.

use std::os::raw::c_char;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

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
///
/// # Safety
/// `s` must point to a live `str` object, and the GIL must be held.
unsafe fn utf8_of(py: Python<'_>, s: *mut ffi::PyObject) -> PyResult<(*const u8, usize)> {
    let mut size: ffi::Py_ssize_t = 0;
    // CPython returns a pointer into a UTF-8 buffer owned (and cached) by the object, valid
    // until the object is freed, or NULL with an exception set.
    let data = unsafe { PyUnicode_AsUTF8AndSize(s, &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(py));
    }
    Ok((data.cast::<u8>(), usize::try_from(size).unwrap_or(0)))
}

/// One text stream taken from Python: a private list copy of the caller's sequence (one C-level
/// pass that holds every string alive, so the text outlives a released GIL whatever the caller
/// does to their own list) and a view of each string's UTF-8 bytes.
pub(crate) struct StrStream<'py> {
    _snapshot: Bound<'py, PyList>,
    views: Vec<Option<(*const u8, usize)>>,
}

impl<'py> StrStream<'py> {
    /// Extracts a sequence of `str` (or `None` where `allow_none`). `what` names the argument in
    /// error messages, e.g. `"hypotheses"` or `"references[1]"`.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str, allow_none: bool) -> PyResult<Self> {
        let py = seq.py();
        if seq.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{what} must be a sequence of str, got a single str"
            )));
        }
        // SAFETY: PySequence_List returns a new reference (or NULL with an exception set).
        let snapshot =
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PySequence_List(seq.as_ptr())) }
                .map_err(|_| PyTypeError::new_err(format!("{what} must be a sequence of str")))?
                .cast_into::<PyList>()
                .map_err(|_| PyTypeError::new_err(format!("{what} must be a sequence of str")))?;
        let mut views = Vec::with_capacity(snapshot.len());
        for i in 0..snapshot.len() {
            let index = ffi::Py_ssize_t::try_from(i).unwrap_or(ffi::Py_ssize_t::MAX);
            // SAFETY: `i` is in bounds of a list we own; the item is a borrowed reference that
            // the list keeps alive.
            let item = unsafe { ffi::PyList_GetItem(snapshot.as_ptr(), index) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // SAFETY: `item` is a live object (see above) and we hold the GIL.
            let is_str = unsafe { ffi::PyUnicode_Check(item) } != 0;
            if is_str {
                // SAFETY: `item` is a live `str`.
                views.push(Some(unsafe { utf8_of(py, item) }?));
            } else if allow_none && item == unsafe { ffi::Py_None() } {
                views.push(None);
            } else {
                // SAFETY: `item` is a live borrowed reference.
                let item = unsafe { Bound::from_borrowed_ptr(py, item) };
                let type_name = item
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                let allowed = if allow_none { "str or None" } else { "str" };
                return Err(PyTypeError::new_err(format!(
                    "{what}[{i}] must be {allowed}, got {type_name}"
                )));
            }
        }
        Ok(Self {
            _snapshot: snapshot,
            views,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.views.len()
    }

    fn view(&self, view: (*const u8, usize)) -> &str {
        // SAFETY: the pointer and length came from PyUnicode_AsUTF8AndSize on a string that
        // `self._snapshot` keeps alive for as long as `self` is borrowed; CPython guarantees
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

/// Extracts reference *streams* (`references[k][i]`; `None` entries allowed).
pub(crate) fn extract_reference_streams<'py>(
    references: &Bound<'py, PyAny>,
) -> PyResult<Vec<StrStream<'py>>> {
    if references.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "references must be a sequence of reference streams, got a single str",
        ));
    }
    let references = references
        .cast::<pyo3::types::PySequence>()
        .map_err(|_| PyTypeError::new_err("references must be a sequence of reference streams"))?;
    references
        .try_iter()?
        .enumerate()
        .map(|(k, stream)| StrStream::extract(&stream?, &format!("references[{k}]"), true))
        .collect()
}

/// A row-major statistics buffer as an `(n, width)` int64 array.
pub(crate) fn rows_array(
    py: Python<'_>,
    n: usize,
    width: usize,
    rows: Vec<i64>,
) -> PyResult<Bound<'_, numpy::PyArray2<i64>>> {
    use numpy::IntoPyArray;
    let array = numpy::ndarray::Array2::from_shape_vec((n, width), rows)
        .map_err(super::errors::shape_error)?;
    Ok(array.into_pyarray(py))
}

/// Token lists taken from Python (`list[list[str]]`): every token's UTF-8 bytes, borrowed from
/// the string (or, for a string with lone surrogates, from its `surrogatepass` encoding), kept
/// alive by snapshots of the lists.
pub(crate) struct TokenLists<'py> {
    _keep: Vec<Bound<'py, PyAny>>,
    views: Vec<Vec<(*const u8, usize)>>,
}

impl<'py> TokenLists<'py> {
    /// Extracts a sequence of token lists; `what` names the argument in error messages.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        let py = seq.py();
        let outer = seq
            .cast::<pyo3::types::PySequence>()
            .map_err(|_| PyTypeError::new_err(format!("{what} must be a list of token lists")))?
            .to_list()?;
        let mut keep: Vec<Bound<'py, PyAny>> = vec![outer.clone().into_any()];
        let mut views = Vec::with_capacity(outer.len());
        for (i, item) in outer.iter().enumerate() {
            if item.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!(
                    "{what}[{i}] must be a list of str tokens, got a str"
                )));
            }
            let inner = item
                .cast::<pyo3::types::PySequence>()
                .map_err(|_| {
                    PyTypeError::new_err(format!("{what}[{i}] must be a list of str tokens"))
                })?
                .to_list()?;
            let mut line = Vec::with_capacity(inner.len());
            for (j, token) in inner.iter().enumerate() {
                let token = token.cast_into::<PyString>().map_err(|e| {
                    let type_name = e
                        .into_inner()
                        .get_type()
                        .name()
                        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                    PyTypeError::new_err(format!("{what}[{i}][{j}] must be str, got {type_name}"))
                })?;
                // SAFETY: `token` is a live str and we hold the GIL; the buffer lives as long
                // as the string, which `inner` (kept below) holds.
                match unsafe { utf8_of(py, token.as_ptr()) } {
                    Ok(view) => line.push(view),
                    Err(_) => {
                        // Lone surrogates: compare their surrogatepass encodings instead.
                        let encoded = token
                            .call_method1("encode", ("utf-8", "surrogatepass"))?
                            .cast_into::<pyo3::types::PyBytes>()
                            .map_err(|_| PyTypeError::new_err("encode did not return bytes"))?;
                        let bytes = encoded.as_bytes();
                        line.push((bytes.as_ptr(), bytes.len()));
                        keep.push(encoded.into_any());
                    }
                }
            }
            keep.push(inner.into_any());
            views.push(line);
        }
        Ok(Self { _keep: keep, views })
    }

    /// The tokens as byte slices, one list per line.
    pub(crate) fn borrow(&self) -> Vec<Vec<&[u8]>> {
        self.views
            .iter()
            .map(|line| {
                line.iter()
                    // SAFETY: each pointer and length came from a buffer owned by an object in
                    // `self._keep`, alive while `self` is borrowed.
                    .map(|&(p, n)| unsafe { std::slice::from_raw_parts(p, n) })
                    .collect()
            })
            .collect()
    }
}

/// A 2-D array's values as an owned row-major buffer, after checking its column count.
/// Owned because the GIL is released while the core works, and Python could write to the
/// array meanwhile.
pub(crate) fn owned_rows<T: numpy::Element + Copy>(
    array: &numpy::PyReadonlyArray2<'_, T>,
    width: usize,
    what: &str,
) -> PyResult<Vec<T>> {
    let view = array.as_array();
    if view.ncols() != width {
        return Err(super::errors::to_py_err(
            crate::error::Error::invalid_input(format!(
                "{what} need {width} columns, got {}",
                view.ncols()
            )),
        ));
    }
    Ok(match array.as_slice() {
        Ok(contiguous) => contiguous.to_vec(),
        Err(_) => view.iter().copied().collect(),
    })
}

/// Values with their numpy scalar kinds as two arrays: the values as float64 and whether each
/// is a `numpy.float32` (else a Python float).
pub(crate) fn numpy_floats_array<'py>(
    py: Python<'py>,
    values: &[crate::numpy_float::NumpyFloat],
) -> (
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<bool>>,
) {
    use numpy::IntoPyArray;
    let floats: Vec<f64> = values.iter().map(|v| v.value()).collect();
    let is_float32: Vec<bool> = values.iter().map(|v| v.is_float32()).collect();
    (floats.into_pyarray(py), is_float32.into_pyarray(py))
}
