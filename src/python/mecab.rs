//! Binding for MeCab through its C API (`ja-mecab`, `ko-mecab`): the SWIG wrapper's strings
//! without its GIL.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::{run_interruptible, typed, workers, WATCH_MIN_BYTES};
use super::convert::StrStream;
use crate::tokenize::mecab::MecabModel;

/// A MeCab model loaded from a `libmecab` shared library; tokenizes on every core.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct MecabTagger {
    model: MecabModel,
}

#[pymethods]
impl MecabTagger {
    /// Loads `library_path` and builds a model from `args`, MeCab's command-line options after
    /// the program name.
    #[new]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = typed::library_path)] library_path: PathBuf,
        #[pyo3(from_py_with = typed::args)] args: Vec<String>,
    ) -> PyResult<Self> {
        py.detach(|| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            MecabModel::open(&library_path, &args)
        })
        .map(|model| Self { model })
        .map_err(PyErr::from)
    }

    /// `tagger.parse(line.strip()).strip()` for every line, on `workers` threads.
    #[pyo3(signature = (lines, workers = -1))]
    fn tokenize(
        &self,
        py: Python<'_>,
        lines: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = workers)] workers: i64,
    ) -> PyResult<Vec<String>> {
        let stream = StrStream::extract(lines, "lines", false)?;
        let lines = stream.borrow_all();
        run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
            self.model.tokenize_batch(&lines, workers)
        })
    }

    /// The MeCab version of the library (`0.996`, `0.996/ko-0.9.2`).
    fn version(&self) -> PyResult<String> {
        Ok(self.model.version()?)
    }

    /// The loaded dictionaries, system dictionary first, as dicts with the fields of MeCab's
    /// `DictionaryInfo` (`filename`, `charset`, `size`, `type`, `lsize`, `rsize`, `version`).
    fn dictionary_info<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.model
            .dictionary_info()?
            .into_iter()
            .map(|d| {
                let dict = PyDict::new(py);
                dict.set_item("filename", d.filename)?;
                dict.set_item("charset", d.charset)?;
                dict.set_item("size", d.size)?;
                dict.set_item("type", d.kind)?;
                dict.set_item("lsize", d.lsize)?;
                dict.set_item("rsize", d.rsize)?;
                dict.set_item("version", d.version)?;
                Ok(dict)
            })
            .collect()
    }
}
