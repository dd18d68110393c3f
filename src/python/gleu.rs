//! Binding for GLEU statistics (nltk `corpus_gleu`): one FFI call per batch.

use numpy::PyArray2;
use pyo3::prelude::*;

use super::args::{max_len, min_len, run_interruptible, typed, workers};
use super::bleu::optional_pipeline;
use super::convert::{rows_array, GroupedInput, StrStream};
use crate::metrics::gleu::{self, GleuConfig};

/// Per-segment GLEU statistics `[n_match, n_all]`, shape `(n, 2)`, dtype int64: text lines
/// with a tokenizer name, or token lists with `tokenizer=None`; grouped references (an empty
/// list gives `[0, 0]`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, tokenizer, min_len = 1, max_len = 4, normalize = None, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn gleu_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
    #[pyo3(from_py_with = min_len)] min_len: usize,
    #[pyo3(from_py_with = max_len)] max_len: usize,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let pipeline = optional_pipeline(tokenizer, normalize)?;
    let config = GleuConfig { min_len, max_len };
    config.validate()?;
    let input = GroupedInput::extract(hypotheses, references, pipeline)?;
    let watch = input.is_large();
    let rows = match input {
        GroupedInput::Text {
            hypotheses,
            references,
            pipeline,
        } => {
            let hyps = hypotheses.borrow_all();
            let refs: Vec<Vec<&str>> = references.iter().map(StrStream::borrow_all).collect();
            run_interruptible(py, watch, || {
                gleu::text_stats(&hyps, &refs, pipeline, &config, workers)
            })
        }
        GroupedInput::Tokens {
            hypotheses,
            references,
        } => {
            let (hyps, refs) = (hypotheses.borrow(), references.borrow());
            run_interruptible(py, watch, || {
                gleu::token_stats(&hyps, &refs, &config, workers)
            })
        }
    }?;
    rows_array(py, rows.len() / gleu::WIDTH, gleu::WIDTH, rows)
}
