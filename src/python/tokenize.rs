//! Binding for the tokenizers: one call per batch of lines.

use super::convert::StrStream;
use super::errors::to_py_err;
use crate::parallel;
use crate::tokenize::Tokenizer;
use pyo3::prelude::*;

/// Tokenizes every line with the named tokenizer, exactly as sacrebleu's tokenizer would.
#[pyfunction]
#[pyo3(signature = (lines, tokenizer, *, workers = -1))]
pub(crate) fn tokenize(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    tokenizer: &str,
    workers: i64,
) -> PyResult<Vec<String>> {
    let tokenizer = Tokenizer::from_name(tokenizer).map_err(to_py_err)?;
    let stream = StrStream::extract(lines, "lines", false)?;
    let lines = stream.borrow_all();
    py.detach(|| parallel::map_init(&lines, workers, || (), |_, line| tokenizer.tokenize(line)))
        .map_err(to_py_err)
}
