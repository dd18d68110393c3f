//! Bindings for the text steps before counting: tokenizers, normalization, script counts.

use super::args::{line_count, run_interruptible, typed, workers, WATCH_MIN_BYTES};
use super::convert::{extract_reference_streams, StrStream};
use crate::parallel;
use crate::text::normalize::Normalization;
use crate::text::script;
use crate::tokenize::{regexp_stage_into, Pipeline, TextScratch, Tokenizer};
use pyo3::prelude::*;

/// Parses the optional `normalize=` argument shared by several bindings.
pub(crate) fn normalization(name: Option<&str>) -> PyResult<Option<Normalization>> {
    Ok(name.map(Normalization::from_name).transpose()?)
}

/// Tokenizes every line with the named tokenizer, exactly as sacrebleu's tokenizer would,
/// after an optional Unicode normalization. `name` names the stream in errors (`text[3]`).
#[pyfunction]
#[pyo3(signature = (lines, tokenizer, *, normalize = None, name = "lines", workers = -1))]
pub(crate) fn tokenize(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::tokenizer)] tokenizer: &str,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    #[pyo3(from_py_with = typed::name)] name: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Vec<String>> {
    let pipeline = Pipeline {
        normalization: normalization(normalize)?,
        tokenizer: Tokenizer::from_name(tokenizer)?,
    };
    let stream = StrStream::extract(lines, name, false)?;
    let lines = stream.borrow_all();
    run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
        parallel::try_map_init(&lines, workers, TextScratch::default, |scratch, line| {
            let mut out = String::new();
            pipeline
                .tokenize_into(line, scratch, &mut out)
                .map(|()| out)
        })
    })
}

/// sacrebleu's `TokenizerRegexp()(line)` for every line: the punctuation stage of `13a` and
/// `zh` on its own. `name` names the stream in errors.
#[pyfunction]
#[pyo3(signature = (lines, *, name = "lines", workers = -1))]
pub(crate) fn tokenize_regexp(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::name)] name: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Vec<String>> {
    let stream = StrStream::extract(lines, name, false)?;
    let lines = stream.borrow_all();
    run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
        parallel::map_init(
            &lines,
            workers,
            || (),
            |_, line| {
                let mut out = String::new();
                regexp_stage_into(line, &mut out);
                out
            },
        )
    })
}

/// Every string of `lines` in Unicode normalization form `form` (`nfc` or `nfkc`); `None`
/// items pass through. `name` names the stream in errors (`hypotheses[3] must be str`).
#[pyfunction]
#[pyo3(signature = (lines, form, *, name = "lines", workers = -1))]
pub(crate) fn normalize(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::form)] form: &str,
    #[pyo3(from_py_with = typed::name)] name: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Vec<Option<String>>> {
    let form = Normalization::from_name(form)?;
    let stream = StrStream::extract(lines, name, true)?;
    let lines = stream.borrow();
    run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
        parallel::map_init(
            &lines,
            workers,
            || (),
            |(), line| line.map(|l| form.apply(l).into_owned()),
        )
    })
}

/// sacrebleu's `num_refs` of reference streams (`None` entries are missing references): the
/// references every segment has, or -1 when that varies. The one count that every metric's
/// statistics report.
#[pyfunction]
pub(crate) fn references_per_segment(references: &Bound<'_, PyAny>) -> PyResult<i64> {
    let streams = extract_reference_streams(references)?;
    let borrowed: Vec<_> = streams.iter().map(StrStream::borrow).collect();
    Ok(super::convert::references_per_segment(&borrowed))
}

/// Letter counts `(han, kana, hangul, other)` over up to `max_lines` lines spread evenly over
/// `lines` (`None` items are skipped).
#[pyfunction]
#[pyo3(signature = (lines, max_lines = 1000))]
pub(crate) fn script_counts(
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = line_count)] max_lines: usize,
) -> PyResult<(usize, usize, usize, usize)> {
    let stream = StrStream::extract_sample(lines, "lines", max_lines)?;
    let c = script::sample_counts(&stream.borrow(), max_lines);
    Ok((c.han, c.kana, c.hangul, c.other))
}
