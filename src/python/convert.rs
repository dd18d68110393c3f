//! Python inputs to borrowed Rust values, without copying the text.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyImportError, PyUnicodeEncodeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyList, PyString};

use super::errors::{internal_error, type_error, type_name};
use crate::error::Error;

/// The UTF-8 bytes of a Python `str`, as a pointer and length valid while the object lives.
///
/// # Safety
/// `s` must point to a live `str` object, and the GIL must be held.
unsafe fn utf8_of(py: Python<'_>, s: *mut ffi::PyObject) -> PyResult<(*const u8, usize)> {
    let mut size: ffi::Py_ssize_t = 0;
    // CPython returns a pointer into a UTF-8 buffer owned (and cached) by the object, valid
    // until the object is freed, or NULL with an exception set.
    let data = unsafe { ffi::PyUnicode_AsUTF8AndSize(s, &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(py));
    }
    Ok((data.cast::<u8>(), usize::try_from(size).unwrap_or(0)))
}

/// The error for a `str` without a UTF-8 form: CPython's `UnicodeEncodeError` (a lone
/// surrogate) becomes an `InvalidInputError` naming the item (`item`, e.g. `hypotheses[3]`),
/// the code point and its character position; any other error passes through.
fn lone_surrogate_error(py: Python<'_>, err: PyErr, item: &str) -> PyErr {
    if !err.is_instance_of::<PyUnicodeEncodeError>(py) {
        return err;
    }
    let value = err.value(py);
    let found = || -> PyResult<(usize, u32)> {
        let start: usize = value.getattr("start")?.extract()?;
        let text = value.getattr("object")?;
        let code = py
            .import("builtins")?
            .getattr("ord")?
            .call1((text.get_item(start)?,))?
            .extract()?;
        Ok((start, code))
    };
    let Ok((start, code)) = found() else {
        return err;
    };
    Error::invalid_input(format!(
        "{item} holds a lone surrogate '\\u{code:04x}' at character {start}, which is not \
         text (it cannot be encoded as UTF-8); decode the input with errors='replace' or fix \
         the source"
    ))
    .into()
}

/// Strings ahead whose objects the extraction prefetches.
const STRINGS_AHEAD: usize = 8;

/// One text stream taken from Python: a private list copy of the caller's sequence (one C-level
/// pass that holds every string alive, so the text outlives a released GIL whatever the caller
/// does to their own list) and a view of each string's UTF-8 bytes. A `bytes` object is a
/// block of a text file's lines instead: its views are the lines, borrowed from it.
pub(crate) struct StrStream<'py> {
    _keep: Bound<'py, PyAny>,
    views: Vec<Option<(*const u8, usize)>>,
    bytes: usize,
}

impl<'py> StrStream<'py> {
    /// A stream of `views` into text that `keep` holds alive.
    fn from_views(keep: Bound<'py, PyAny>, views: Vec<Option<(*const u8, usize)>>) -> Self {
        let bytes = views.iter().flatten().map(|v| v.1).sum();
        Self {
            _keep: keep,
            views,
            bytes,
        }
    }

    /// Extracts a sequence of `str` (or `None` where `allow_none`), or a `bytes` block of lines
    /// (see [`Self::from_lines`]). `what` names the argument in error messages, e.g.
    /// `"hypotheses"` or `"references[1]"`.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str, allow_none: bool) -> PyResult<Self> {
        Self::extract_for(seq, what, allow_none, -1)
    }

    /// [`Self::extract`], cutting a block of lines on `workers` threads (the call's own
    /// setting, so `workers=1` stays on one thread).
    pub(crate) fn extract_for(
        seq: &Bound<'py, PyAny>,
        what: &str,
        allow_none: bool,
        workers: i64,
    ) -> PyResult<Self> {
        let py = seq.py();
        if let Ok(block) = seq.cast::<PyBytes>() {
            return Self::from_lines(block, what, workers);
        }
        if let Ok(column) = seq.cast::<TextColumn>() {
            return Self::from_column(column, what, allow_none);
        }
        if seq.is_instance_of::<PyString>() {
            return Err(type_error(format!(
                "{what} must be a sequence of str, got a single str"
            )));
        }
        // SAFETY: PySequence_List returns a new reference (or NULL with an exception set).
        let snapshot =
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PySequence_List(seq.as_ptr())) }
                .map_err(|_| type_error(format!("{what} must be a sequence of str")))?
                .cast_into::<PyList>()
                .map_err(|_| type_error(format!("{what} must be a sequence of str")))?;
        let mut views = Vec::with_capacity(snapshot.len());
        for i in 0..snapshot.len() {
            // The strings lie apart in memory: fetch a later one's header (and the UTF-8
            // pointer it holds) meanwhile.
            if i + STRINGS_AHEAD < snapshot.len() {
                let ahead = ffi::Py_ssize_t::try_from(i + STRINGS_AHEAD).unwrap_or(0);
                // SAFETY: in bounds of a list we own; a borrowed reference, only prefetched.
                let object = unsafe { ffi::PyList_GetItem(snapshot.as_ptr(), ahead) };
                crate::statistics::prefetch_at(object.cast(), 128);
            }
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
                let view = unsafe { utf8_of(py, item) }
                    .map_err(|err| lone_surrogate_error(py, err, &format!("{what}[{i}]")))?;
                views.push(Some(view));
            } else if allow_none && item == unsafe { ffi::Py_None() } {
                views.push(None);
            } else {
                // SAFETY: `item` is a live borrowed reference.
                let item = unsafe { Bound::from_borrowed_ptr(py, item) };
                let type_name = type_name(&item);
                let allowed = if allow_none { "str or None" } else { "str" };
                return Err(type_error(format!(
                    "{what}[{i}] must be {allowed}, got {type_name}"
                )));
            }
        }
        Ok(Self::from_views(snapshot.into_any(), views))
    }

    /// [`Self::extract`] (`None` allowed) where only the lines [`script::sample_counts`]
    /// reads of `max_lines` matter: of a [`TextColumn`], only those cells are taken (at most
    /// `max_lines`, so sampling them reads them all), and a sample of a large column costs no
    /// more than the sample.
    ///
    /// [`script::sample_counts`]: crate::text::script::sample_counts
    pub(crate) fn extract_sample(
        seq: &Bound<'py, PyAny>,
        what: &str,
        max_lines: usize,
    ) -> PyResult<Self> {
        let Ok(column) = seq.cast::<TextColumn>() else {
            return Self::extract(seq, what, true);
        };
        let cells = &column.get().cells;
        // No step: the sample is empty.
        let views: Vec<_> = crate::text::script::sample_step(cells.len(), max_lines)
            .map(|step| cells.iter().step_by(step))
            .into_iter()
            .flatten()
            .map(|cell| cell.map(|(address, len)| (address as *const u8, len)))
            .collect();
        Ok(Self::from_views(column.clone().into_any(), views))
    }

    /// The lines of a block of a UTF-8 text file, as the file readers give them: split on
    /// `\n` only, no empty line after a final `\n`, each line right-stripped with Python's
    /// whitespace set. The command line passes blocks of whole lines, so a file's text never
    /// becomes Python strings. Invalid UTF-8 raises `InputDecodeError` (the caller names the
    /// file and place).
    fn from_lines(block: &Bound<'py, PyBytes>, what: &str, workers: i64) -> PyResult<Self> {
        let data = block.as_bytes();
        // Without the GIL, on the call's threads.
        let lines = block
            .py()
            .detach(|| crate::text::lines::split_block_lines(data, workers))
            .map_err(|e| Error::new(e.kind(), format!("{what}: {}", e.message())))?;
        let views: Vec<_> = lines
            .into_iter()
            .map(|line| Some((line.as_ptr(), line.len())))
            .collect();
        Ok(Self::from_views(block.clone().into_any(), views))
    }

    /// The cells of a [`TextColumn`], borrowed from its buffer (a null is `None`, refused
    /// where `allow_none` is false, as a `None` in a list is).
    fn from_column(
        column: &Bound<'py, TextColumn>,
        what: &str,
        allow_none: bool,
    ) -> PyResult<Self> {
        let text = column.get();
        let mut views = Vec::with_capacity(text.cells.len());
        for (i, cell) in text.cells.iter().enumerate() {
            match cell {
                Some((address, len)) => views.push(Some((*address as *const u8, *len))),
                None if allow_none => views.push(None),
                None => {
                    return Err(type_error(format!(
                        "{what}[{i}] must be str, got NoneType (a null in the column)"
                    )))
                }
            }
        }
        Ok(Self::from_views(column.clone().into_any(), views))
    }

    pub(crate) fn len(&self) -> usize {
        self.views.len()
    }

    /// The UTF-8 bytes of all strings together.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    fn view(&self, view: (*const u8, usize)) -> &str {
        // SAFETY: the pointer and length came from PyUnicode_AsUTF8AndSize on a string that
        // `self._keep` keeps alive for as long as `self` is borrowed (CPython guarantees the
        // buffer is valid UTF-8; it raises for lone surrogates instead), or from a line of an
        // immutable `bytes` object that `self._keep` holds, checked as UTF-8 in `from_lines`.
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

/// A column of text in Arrow's layout: UTF-8 buffers, offsets into them and optional
/// validity, checked once here. Every text input of the core takes it in place of a list of
/// `str`, so a pyarrow string column is counted without a Python string per cell.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct TextColumn {
    /// What keeps the cells' bytes alive: the `bytes` given to `new`, or the capsules of the
    /// exported Arrow arrays (each releases its array when collected).
    _owners: Vec<Py<PyAny>>,
    /// The address and length of each cell's bytes; `None` for a null.
    cells: Vec<Option<(usize, usize)>>,
}

/// Appends to `cells` the cells of UTF-8 `bytes` cut at `offsets` (`n + 1` values);
/// `present(i)` is false for a null. Refuses offsets outside `bytes` or decreasing, text that
/// is not UTF-8, and cuts inside a character.
fn checked_cells<T: Copy + Into<i64>>(
    bytes: &[u8],
    offsets: &[T],
    present: impl Fn(usize) -> bool,
    cells: &mut Vec<Option<(usize, usize)>>,
) -> Result<(), Error> {
    let (first, last) = match (offsets.first(), offsets.last()) {
        (Some(&first), Some(&last)) => (first.into(), last.into()),
        _ => {
            return Err(Error::invalid_input(
                "offsets must hold n + 1 values, at least 1",
            ))
        }
    };
    let text = usize::try_from(first)
        .ok()
        .zip(usize::try_from(last).ok())
        .filter(|(a, b)| a <= b)
        .and_then(|(a, b)| bytes.get(a..b))
        .ok_or_else(|| {
            Error::invalid_input("offsets must rise from 0 or more to at most len(data)")
        })?;
    let first = usize::try_from(first).unwrap_or(0);
    crate::text::lines::check_utf8(text).map_err(|offset| {
        let at = first + offset;
        Error::invalid_input(format!("data is not UTF-8 from byte {at} on"))
    })?;
    // `text` is UTF-8, so a cut is whole unless it falls before a continuation byte.
    let boundary = |at: usize| bytes.get(at).is_none_or(|&b| b & 0xC0 != 0x80);
    let base = bytes.as_ptr() as usize;
    cells.reserve(offsets.len() - 1);
    for (i, pair) in offsets.windows(2).enumerate() {
        let &[start, end] = pair else { continue };
        let (start, end): (i64, i64) = (start.into(), end.into());
        if start > end {
            return Err(Error::invalid_input(format!(
                "offsets must not decrease: cell {i} ends before it starts"
            )));
        }
        // Within `text`'s range (checked above), so both convert.
        let (start, end) = (
            usize::try_from(start).unwrap_or(0),
            usize::try_from(end).unwrap_or(0),
        );
        if !boundary(start) || !boundary(end) {
            return Err(Error::invalid_input(format!(
                "cell {i} does not start and end on character boundaries"
            )));
        }
        cells.push(present(i).then_some((base + start, end - start)));
    }
    Ok(())
}

#[pymethods]
impl TextColumn {
    /// `data`: the cells' UTF-8 bytes; `offsets`: `n + 1` native-endian int64 byte offsets
    /// (cell `i` is `data[offsets[i]:offsets[i + 1]]`); `valid`: `n` bytes, 0 for a null.
    #[new]
    #[pyo3(signature = (data, offsets, valid = None))]
    fn new(
        data: &Bound<'_, PyAny>,
        offsets: &Bound<'_, PyAny>,
        valid: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        fn as_bytes<'a>(value: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a [u8]> {
            value
                .cast::<PyBytes>()
                .map(|b| b.as_bytes())
                .map_err(|_| type_error(format!("{name} must be bytes, got {}", type_name(value))))
        }
        let bytes = as_bytes(data, "data")?;
        let offsets = as_bytes(offsets, "offsets")?;
        let valid = valid
            .filter(|v| !v.is_none())
            .map(|v| as_bytes(v, "valid"))
            .transpose()?;
        if offsets.is_empty() || offsets.len() % 8 != 0 {
            return Err(Error::invalid_input(format!(
                "offsets must hold n + 1 int64 values (a multiple of 8 bytes, at least 8), got {} bytes",
                offsets.len()
            ))
            .into());
        }
        let offsets: Vec<i64> = offsets
            .chunks_exact(8)
            .map(|b| i64::from_ne_bytes(b.try_into().unwrap_or_default()))
            .collect();
        let n = offsets.len() - 1;
        if let Some(valid) = valid {
            if valid.len() != n {
                return Err(Error::invalid_input(format!(
                    "valid has {} entries but the offsets describe {n} cells",
                    valid.len()
                ))
                .into());
            }
        }
        let present = |i: usize| valid.is_none_or(|v| v.get(i).is_some_and(|&b| b != 0));
        let mut cells = Vec::new();
        checked_cells(bytes, &offsets, present, &mut cells)?;
        Ok(Self {
            _owners: vec![data.clone().unbind()],
            cells,
        })
    }

    /// The cells of pyarrow `string` or `large_string` arrays, read in place: `chunks` holds
    /// one `(schema, array)` capsule pair per array, as `Array.__arrow_c_array__()` returns
    /// it; the cells follow in order.
    #[staticmethod]
    fn from_arrow(chunks: &Bound<'_, PyAny>) -> PyResult<Self> {
        let chunks = chunks
            .cast::<PyList>()
            .map_err(|_| type_error(format!("chunks must be a list, got {}", type_name(chunks))))?;
        let mut owners = Vec::with_capacity(2 * chunks.len());
        let mut cells = Vec::new();
        for (k, chunk) in chunks.iter().enumerate() {
            let not_capsules = || {
                type_error(format!(
                    "chunks[{k}] must be the (schema, array) capsules of __arrow_c_array__()"
                ))
            };
            let (schema, array): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
                chunk.extract().map_err(|_| not_capsules())?;
            let schema = schema
                .cast_into::<PyCapsule>()
                .map_err(|_| not_capsules())?;
            let array = array.cast_into::<PyCapsule>().map_err(|_| not_capsules())?;
            let schema_pointer = schema
                .pointer_checked(Some(c"arrow_schema"))
                .map_err(|_| not_capsules())?;
            let array_pointer = array
                .pointer_checked(Some(c"arrow_array"))
                .map_err(|_| not_capsules())?;
            // SAFETY: capsules named "arrow_schema" and "arrow_array" hold the structs of one
            // export (the interface's PyCapsule protocol), alive while the capsules are, which
            // `owners` keeps.
            let strings = unsafe {
                super::arrow::string_array(
                    schema_pointer.cast::<super::arrow::ArrowSchema>().as_ref(),
                    array_pointer.cast::<super::arrow::ArrowArray>().as_ref(),
                )
            }
            .map_err(|why| Error::invalid_input(format!("chunks[{k}]: {why}")))?;
            let present = |i: usize| strings.is_valid(i);
            match strings.offsets {
                super::arrow::Offsets::Small(o) => {
                    checked_cells(strings.data, o, present, &mut cells)
                }
                super::arrow::Offsets::Large(o) => {
                    checked_cells(strings.data, o, present, &mut cells)
                }
            }
            .map_err(|err| Error::invalid_input(format!("chunks[{k}]: {err}")))?;
            owners.push(schema.into_any().unbind());
            owners.push(array.into_any().unbind());
        }
        Ok(Self {
            _owners: owners,
            cells,
        })
    }

    fn __len__(&self) -> usize {
        self.cells.len()
    }
}

/// Extracts reference *streams* (`references[k][i]`; `None` entries allowed).
pub(crate) fn extract_reference_streams<'py>(
    references: &Bound<'py, PyAny>,
) -> PyResult<Vec<StrStream<'py>>> {
    extract_reference_streams_for(references, -1)
}

/// [`extract_reference_streams`], cutting blocks of lines on `workers` threads.
fn extract_reference_streams_for<'py>(
    references: &Bound<'py, PyAny>,
    workers: i64,
) -> PyResult<Vec<StrStream<'py>>> {
    if references.is_instance_of::<PyString>() {
        return Err(type_error(
            "references must be a sequence of reference streams, got a single str",
        ));
    }
    let references = references
        .cast::<pyo3::types::PySequence>()
        .map_err(|_| type_error("references must be a sequence of reference streams"))?;
    references
        .try_iter()?
        .enumerate()
        .map(|(k, stream)| {
            StrStream::extract_for(&stream?, &format!("references[{k}]"), true, workers)
        })
        .collect()
}

/// Hypotheses with reference streams, the opening of every stream binding: extracted while
/// holding the GIL, borrowed for the GIL-free work.
pub(crate) struct StreamInput<'py> {
    hypotheses: StrStream<'py>,
    references: Vec<StrStream<'py>>,
}

impl<'py> StreamInput<'py> {
    /// Extracts `hypotheses` (str) and `references` (streams of str or None); blocks of
    /// lines are cut on the call's `workers` threads.
    pub(crate) fn extract(
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        workers: i64,
    ) -> PyResult<Self> {
        Ok(Self {
            hypotheses: StrStream::extract_for(hypotheses, "hypotheses", false, workers)?,
            references: extract_reference_streams_for(references, workers)?,
        })
    }

    /// The number of hypotheses (rows).
    pub(crate) fn len(&self) -> usize {
        self.hypotheses.len()
    }

    /// The UTF-8 bytes of all hypotheses and references together.
    pub(crate) fn bytes(&self) -> usize {
        let refs: usize = self.references.iter().map(StrStream::bytes).sum();
        self.hypotheses.bytes() + refs
    }

    /// The hypotheses and the reference streams as borrowed text.
    pub(crate) fn borrow(&self) -> (Vec<&str>, Vec<Vec<Option<&str>>>) {
        (
            self.hypotheses.borrow_all(),
            self.references.iter().map(StrStream::borrow).collect(),
        )
    }
}

/// References per segment as the statistics report it: the count when every segment has the
/// same number of references, else -1.
pub(crate) fn references_per_segment(streams: &[Vec<Option<&str>>]) -> i64 {
    crate::statistics::references_per_segment(streams).map_or(-1, crate::error::to_i64)
}

/// Whether [`ensure_numpy`] has succeeded in this process.
static NUMPY_READY: AtomicBool = AtomicBool::new(false);

/// Loads numpy and rust-numpy's array API, once per process. Every binding that makes or
/// reads an array comes through here first (`array1`, `rows_array` and the array arguments'
/// extractors call it; clippy.toml refuses rust-numpy's constructors anywhere else), so
/// `import bleuprint` never loads numpy.
///
/// rust-numpy loads its API on first use and panics on any Python error meanwhile, so a
/// KeyboardInterrupt (or any raising signal handler) pending then came out as a
/// `PanicException`. Here numpy's import runs first, on the calling thread, as a `PyResult`
/// (a signal during it raises its own exception), and rust-numpy's set-up, which still runs
/// Python code (numpy's version check) even when numpy is loaded, runs on a helper thread:
/// Python runs signal handlers on the main thread only. Needs the GIL; after the first
/// success it costs one atomic load.
pub(crate) fn ensure_numpy(py: Python<'_>) -> PyResult<()> {
    if NUMPY_READY.load(Ordering::Acquire) {
        return Ok(());
    }
    py.import("numpy")?;
    let outcome = py.detach(|| {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("bleuprint-numpy-setup".to_owned())
                .spawn_scoped(scope, || Python::attach(set_up_numpy_api))
                .map(|helper| helper.join())
        })
    });
    match outcome {
        Ok(Ok(())) => {}
        // No thread to be had (e.g. under a memory limit): set up here, after running any
        // pending signal handler, which leaves only a signal arriving within microseconds.
        Err(_) => {
            py.check_signals()?;
            set_up_numpy_api(py);
        }
        Ok(Err(panic)) => {
            let reason = if let Some(message) = panic.downcast_ref::<String>() {
                message.as_str()
            } else if let Some(message) = panic.downcast_ref::<&str>() {
                message
            } else {
                "rust-numpy panicked"
            };
            return Err(PyImportError::new_err(format!(
                "numpy's C API could not be loaded: {reason}"
            )));
        }
    }
    NUMPY_READY.store(true, Ordering::Release);
    Ok(())
}

/// rust-numpy's lazily loaded state, loaded: the array API capsule (with numpy's version
/// check), the shared borrow-checking capsule and the type of the containers that hand Rust
/// buffers to numpy. Panics where rust-numpy would.
#[allow(clippy::disallowed_methods)] // this is the set-up the helpers rely on
fn set_up_numpy_api(py: Python<'_>) {
    use numpy::{IntoPyArray, PyArrayMethods};
    let array = numpy::PyArray1::<i64>::zeros(py, 0, false);
    drop(array.readonly());
    drop(Vec::<i64>::new().into_pyarray(py));
}

/// A buffer as a 1-D numpy array (numpy loaded first, see [`ensure_numpy`]).
#[allow(clippy::disallowed_methods)] // the one place 1-D arrays are made
pub(crate) fn array1<T: numpy::Element>(
    py: Python<'_>,
    values: Vec<T>,
) -> PyResult<Bound<'_, numpy::PyArray1<T>>> {
    use numpy::IntoPyArray;
    ensure_numpy(py)?;
    Ok(values.into_pyarray(py))
}

/// A row-major buffer as an `(n, width)` array, e.g. statistics rows (numpy loaded first, see
/// [`ensure_numpy`]).
#[allow(clippy::disallowed_methods)] // the one place 2-D arrays are made
pub(crate) fn rows_array<T: numpy::Element>(
    py: Python<'_>,
    n: usize,
    width: usize,
    rows: Vec<T>,
) -> PyResult<Bound<'_, numpy::PyArray2<T>>> {
    use numpy::IntoPyArray;
    ensure_numpy(py)?;
    let array = numpy::ndarray::Array2::from_shape_vec((n, width), rows).map_err(internal_error)?;
    Ok(array.into_pyarray(py))
}

/// A token view: a pointer and length into a buffer kept alive elsewhere.
type TokenView = (*const u8, usize);

/// A snapshot of the sequence `seq` as a list; `what` names it in errors, `expected` says what
/// it should be (e.g. "a list of str tokens").
fn snapshot_list<'py>(
    seq: &Bound<'py, PyAny>,
    what: &str,
    expected: &str,
) -> PyResult<Bound<'py, PyList>> {
    if seq.is_instance_of::<PyString>() {
        return Err(type_error(format!("{what} must be {expected}, got a str")));
    }
    seq.cast::<pyo3::types::PySequence>()
        .map_err(|_| type_error(format!("{what} must be {expected}, got {}", type_name(seq))))?
        .to_list()
}

/// One token sequence: every token's UTF-8 bytes, borrowed from the string (or, for a string
/// with lone surrogates, from its `surrogatepass` encoding, which goes into `keep`). Returns
/// the snapshot list, which the caller must keep alive as long as the views. `what` names the
/// sequence in errors (`hypotheses[2]`, so a bad token is `hypotheses[2][5]`).
fn extract_token_line<'py>(
    item: &Bound<'py, PyAny>,
    what: &dyn Fn() -> String,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyList>, Vec<TokenView>)> {
    let py = item.py();
    if item.is_instance_of::<PyString>() {
        return Err(type_error(format!(
            "{} must be a list of str tokens, got a str",
            what()
        )));
    }
    let inner = item
        .cast::<pyo3::types::PySequence>()
        .map_err(|_| {
            type_error(format!(
                "{} must be a list of str tokens, got {}",
                what(),
                type_name(item)
            ))
        })?
        .to_list()?;
    let mut line = Vec::with_capacity(inner.len());
    for (j, token) in inner.iter().enumerate() {
        let token = token.cast_into::<PyString>().map_err(|e| {
            let name = type_name(&e.into_inner());
            type_error(format!("{}[{j}] must be str, got {name}", what()))
        })?;
        // SAFETY: `token` is a live str and we hold the GIL; the buffer lives as long as the
        // string, which `inner` (returned to the caller, who keeps it) holds.
        match unsafe { utf8_of(py, token.as_ptr()) } {
            Ok(view) => line.push(view),
            Err(_) => {
                // Lone surrogates: compare their surrogatepass encodings instead.
                let encoded = token
                    .call_method1("encode", ("utf-8", "surrogatepass"))?
                    .cast_into::<pyo3::types::PyBytes>()
                    .map_err(|_| internal_error("str.encode did not return bytes"))?;
                let bytes = encoded.as_bytes();
                line.push((bytes.as_ptr(), bytes.len()));
                keep.push(encoded.into_any());
            }
        }
    }
    Ok((inner, line))
}

/// The views of a token line as byte slices.
///
/// # Safety
/// Every view must point into a buffer that outlives `'a`.
unsafe fn token_slices<'a>(line: &[TokenView]) -> Vec<&'a [u8]> {
    line.iter()
        // SAFETY: guaranteed by the caller.
        .map(|&(p, n)| unsafe { std::slice::from_raw_parts(p, n) })
        .collect()
}

/// Token lists taken from Python (`list[list[str]]`): every token's UTF-8 bytes, borrowed from
/// the string (or, for a string with lone surrogates, from its `surrogatepass` encoding), kept
/// alive by snapshots of the lists.
pub(crate) struct TokenLists<'py> {
    _keep: Vec<Bound<'py, PyAny>>,
    views: Vec<Vec<TokenView>>,
}

impl<'py> TokenLists<'py> {
    /// Extracts a sequence of token lists; `what` names the argument in error messages.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        let outer = snapshot_list(seq, what, "a list of token lists")?;
        let mut keep: Vec<Bound<'py, PyAny>> = vec![outer.clone().into_any()];
        let views = token_lines(&outer, |i| format!("{what}[{i}]"), &mut keep)?;
        Ok(Self { _keep: keep, views })
    }

    /// The UTF-8 bytes of all tokens together.
    pub(crate) fn bytes(&self) -> usize {
        self.views.iter().flatten().map(|v| v.1).sum()
    }

    /// The tokens as byte slices, one list per line.
    pub(crate) fn borrow(&self) -> Vec<Vec<&[u8]>> {
        self.views
            .iter()
            // SAFETY: each view points into a buffer owned by an object in `self._keep`,
            // alive while `self` is borrowed.
            .map(|line| unsafe { token_slices(line) })
            .collect()
    }
}

/// Each item of `list` as a token line (`name(k)` names item `k` in errors), its snapshot
/// kept alive in `keep`.
fn token_lines<'py>(
    list: &Bound<'py, PyList>,
    name: impl Fn(usize) -> String,
    keep: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<Vec<Vec<TokenView>>> {
    let mut lines = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let (inner, line) = extract_token_line(&item, &|| name(k), keep)?;
        keep.push(inner.into_any());
        lines.push(line);
    }
    Ok(lines)
}

/// One token sequence taken from Python, with its snapshot list (whose items are the
/// original `str` objects, e.g. for building result tuples).
pub(crate) struct TokenLine<'py> {
    list: Bound<'py, PyList>,
    _keep: Vec<Bound<'py, PyAny>>,
    views: Vec<TokenView>,
}

impl<'py> TokenLine<'py> {
    /// Extracts a sequence of `str` tokens; `what` names the argument in error messages.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        let mut keep = Vec::new();
        let (list, views) = extract_token_line(seq, &|| what.to_owned(), &mut keep)?;
        Ok(Self {
            list,
            _keep: keep,
            views,
        })
    }

    /// The snapshot of the tokens.
    pub(crate) fn list(&self) -> &Bound<'py, PyList> {
        &self.list
    }

    /// The tokens as byte slices.
    pub(crate) fn borrow(&self) -> Vec<&[u8]> {
        // SAFETY: each view points into a token of `self.list` or a buffer in `self._keep`.
        unsafe { token_slices(&self.views) }
    }
}

/// Grouped token references taken from Python: `references[i][k]` is the k-th reference
/// (a list of str tokens) of hypothesis `i`.
pub(crate) struct GroupedTokenLists<'py> {
    _keep: Vec<Bound<'py, PyAny>>,
    views: Vec<Vec<Vec<TokenView>>>,
}

impl<'py> GroupedTokenLists<'py> {
    /// Extracts `list[list[list[str]]]`; `what` names the argument in error messages.
    pub(crate) fn extract(seq: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        let outer = snapshot_list(seq, what, "a list of reference lists (one per hypothesis)")?;
        let mut keep: Vec<Bound<'py, PyAny>> = vec![outer.clone().into_any()];
        let mut views = Vec::with_capacity(outer.len());
        for (i, item) in outer.iter().enumerate() {
            let group = snapshot_list(
                &item,
                &format!("{what}[{i}]"),
                "a list of references, each a list of str tokens",
            )?;
            views.push(token_lines(
                &group,
                |k| format!("{what}[{i}][{k}]"),
                &mut keep,
            )?);
            keep.push(group.into_any());
        }
        Ok(Self { _keep: keep, views })
    }

    /// The UTF-8 bytes of all tokens together.
    pub(crate) fn bytes(&self) -> usize {
        self.views.iter().flatten().flatten().map(|v| v.1).sum()
    }

    /// The tokens as byte slices: per hypothesis, per reference, per token.
    pub(crate) fn borrow(&self) -> Vec<Vec<Vec<&[u8]>>> {
        self.views
            .iter()
            .map(|group| {
                group
                    .iter()
                    // SAFETY: each view points into a buffer owned by an object in
                    // `self._keep`, alive while `self` is borrowed.
                    .map(|line| unsafe { token_slices(line) })
                    .collect()
            })
            .collect()
    }
}

/// Extracts grouped text references: `references[i]` is the list of references (str) of
/// hypothesis `i`.
pub(crate) fn extract_grouped_text<'py>(
    references: &Bound<'py, PyAny>,
) -> PyResult<Vec<StrStream<'py>>> {
    let outer = snapshot_list(
        references,
        "references",
        "a list of reference lists (one per hypothesis)",
    )?;
    outer
        .iter()
        .enumerate()
        .map(|(i, group)| StrStream::extract(&group, &format!("references[{i}]"), false))
        .collect()
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
        return Err(crate::error::Error::invalid_input(format!(
            "{what} need {width} columns, got {}",
            view.ncols()
        ))
        .into());
    }
    Ok(match array.as_slice() {
        Ok(contiguous) => contiguous.to_vec(),
        Err(_) => view.iter().copied().collect(),
    })
}

/// [`owned_rows`] for work done while the GIL is held (Python cannot write to the array
/// meanwhile): the array's own buffer where it is contiguous, a copy otherwise.
pub(crate) fn held_rows<'a, T: numpy::Element + Copy>(
    array: &'a numpy::PyReadonlyArray2<'_, T>,
    width: usize,
    what: &str,
) -> PyResult<std::borrow::Cow<'a, [T]>> {
    match array.as_slice() {
        Ok(contiguous) if array.as_array().ncols() == width => {
            Ok(std::borrow::Cow::Borrowed(contiguous))
        }
        _ => owned_rows(array, width, what).map(std::borrow::Cow::Owned),
    }
}

/// Values with their numpy scalar kinds as two arrays: the values as float64 and whether each
/// is a numpy scalar (else a Python float).
#[allow(clippy::type_complexity)]
pub(crate) fn numpy_floats_array<'py>(
    py: Python<'py>,
    values: &[crate::resample::numpy_float::NumpyFloat],
) -> PyResult<(
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<bool>>,
)> {
    let floats: Vec<f64> = values.iter().map(|v| v.value()).collect();
    let is_numpy: Vec<bool> = values.iter().map(|v| v.is_numpy()).collect();
    Ok((array1(py, floats)?, array1(py, is_numpy)?))
}
