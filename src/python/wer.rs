//! Bindings for WER/CER statistics and alignments: one FFI call per batch, the GIL released
//! while segments are aligned.

use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::args::{run_interruptible, typed, workers, WATCH_MIN_BYTES};
use super::convert::{array1, owned_rows, rows_array, StrStream, StreamInput, TokenLists};
use crate::error::to_i64;
use crate::metrics::wer::{self, EmptyReference, OpTag, SegmentAlignment, Split, Unit};

fn split(unit: &str, raw: bool) -> PyResult<Split> {
    Ok(Split {
        unit: Unit::from_name(unit)?,
        raw,
    })
}

/// Hypotheses and references as token lists, and whether they are large enough to watch.
fn token_input<'py>(
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
) -> PyResult<(TokenLists<'py>, TokenLists<'py>, bool)> {
    let hyps = TokenLists::extract(hypotheses, "hypotheses")?;
    let refs = TokenLists::extract(references, "references")?;
    let watch = hyps.bytes() + refs.bytes() >= WATCH_MIN_BYTES;
    Ok((hyps, refs, watch))
}

fn stats_array(py: Python<'_>, n: usize, rows: Vec<i64>) -> PyResult<Bound<'_, PyArray2<i64>>> {
    rows_array(py, n, wer::WIDTH, rows)
}

/// Per-segment statistics `[substitutions, deletions, insertions, hits, ref_words,
/// hyp_words]`, shape `(n, 6)`, int64, each segment against its best reference.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, unit, raw = false, workers = -1))]
pub(crate) fn wer_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::unit)] unit: &str,
    #[pyo3(from_py_with = typed::raw)] raw: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let split = split(unit, raw)?;
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let rows = run_interruptible(py, input.is_large(), || {
        wer::stream_stats(&hyps, &streams, split, workers)
    })?;
    stats_array(py, input.len(), rows)
}

fn tag_code(tag: OpTag) -> i64 {
    match tag {
        OpTag::Equal => 0,
        OpTag::Replace => 1,
        OpTag::Delete => 2,
        OpTag::Insert => 3,
    }
}

/// Statistics `(n, 6)`, the aligned stream per segment `(n,)`, the opcodes of every segment
/// concatenated `(m, 5)` as `[tag, ref_start, ref_end, hyp_start, hyp_end]` (tag 0 equal,
/// 1 substitute, 2 delete, 3 insert) and the offsets of each segment's opcodes `(n + 1,)`.
type Alignments<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn alignment_arrays(py: Python<'_>, aligned: Vec<SegmentAlignment>) -> PyResult<Alignments<'_>> {
    let n = aligned.len();
    let mut rows = Vec::with_capacity(n * wer::WIDTH);
    let mut streams = Vec::with_capacity(n);
    let mut ops = Vec::new();
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0i64);
    for segment in &aligned {
        rows.extend_from_slice(&segment.row);
        streams.push(to_i64(segment.stream));
        for op in &segment.opcodes {
            ops.extend_from_slice(&[
                tag_code(op.tag),
                to_i64(op.src_start),
                to_i64(op.src_end),
                to_i64(op.dest_start),
                to_i64(op.dest_end),
            ]);
        }
        offsets.push(to_i64(ops.len() / 5));
    }
    let m = ops.len() / 5;
    Ok((
        stats_array(py, n, rows)?,
        array1(py, streams)?,
        rows_array(py, m, 5, ops)?,
        array1(py, offsets)?,
    ))
}

/// The statistics and RapidFuzz opcodes of every segment against its best reference.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, unit, raw = false, workers = -1))]
pub(crate) fn wer_alignments<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::unit)] unit: &str,
    #[pyo3(from_py_with = typed::raw)] raw: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Alignments<'py>> {
    let split = split(unit, raw)?;
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let aligned = run_interruptible(py, input.is_large(), || {
        wer::stream_alignments(&hyps, &streams, split, workers)
    })?;
    alignment_arrays(py, aligned)
}

/// The tokens of every line: `list[list[str]]`.
#[pyfunction]
#[pyo3(signature = (lines, *, unit, raw = false, workers = -1, name = "lines"))]
pub(crate) fn wer_tokens<'py>(
    py: Python<'py>,
    lines: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::unit)] unit: &str,
    #[pyo3(from_py_with = typed::raw)] raw: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
    #[pyo3(from_py_with = typed::name)] name: &str,
) -> PyResult<Bound<'py, PyList>> {
    let split = split(unit, raw)?;
    let stream = StrStream::extract(lines, name, false)?;
    let texts = stream.borrow_all();
    let tokens = run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
        wer::split_lines(&texts, split, workers)
    })?;
    let out = PyList::empty(py);
    for line in tokens {
        out.append(PyList::new(py, line)?)?;
    }
    Ok(out)
}

/// Statistics `(n, 6)` of already-split tokens, one reference token list per hypothesis.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, workers = -1))]
pub(crate) fn wer_token_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (hyps, refs, watch) = token_input(hypotheses, references)?;
    let (h, r) = (hyps.borrow(), refs.borrow());
    let rows = run_interruptible(py, watch, || wer::token_stats(&h, &r, workers))?;
    stats_array(py, h.len(), rows)
}

/// Like `wer_alignments`, for already-split tokens (one reference each).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, workers = -1))]
pub(crate) fn wer_token_alignments<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Alignments<'py>> {
    let (hyps, refs, watch) = token_input(hypotheses, references)?;
    let (h, r) = (hyps.borrow(), refs.borrow());
    let aligned = run_interruptible(py, watch, || wer::token_alignments(&h, &r, workers))?;
    alignment_arrays(py, aligned)
}

/// RapidFuzz's `Levenshtein.opcodes(s1, s2)` on integer sequences, as
/// `[(tag, src_start, src_end, dest_start, dest_end)]` with RapidFuzz's tag names.
#[pyfunction]
pub(crate) fn levenshtein_opcodes(
    py: Python<'_>,
    #[pyo3(from_py_with = typed::s1)] s1: Vec<u32>,
    #[pyo3(from_py_with = typed::s2)] s2: Vec<u32>,
) -> Vec<(&'static str, usize, usize, usize, usize)> {
    let codes = py.detach(|| wer::levenshtein::opcodes(&s1, &s2));
    codes
        .into_iter()
        .map(|o| {
            let tag = match o.tag {
                OpTag::Equal => "equal",
                OpTag::Replace => "replace",
                OpTag::Delete => "delete",
                OpTag::Insert => "insert",
            };
            (tag, o.src_start, o.src_end, o.dest_start, o.dest_end)
        })
        .collect()
}

/// The measures of every row `(n, 6)` as fractions, an `(n, 4)` float64 array of
/// `[wer, mer, wil, wip]` with jiwer's formulas. `empty_reference` is what a row without
/// reference words scores: `"ratio"` (WER 1 with errors, else 0) or `"jiwer"` (WER = the
/// insertions).
#[pyfunction]
#[pyo3(signature = (rows, *, empty_reference = "ratio"))]
pub(crate) fn wer_measures<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::rows_int64)] rows: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = typed::empty_reference)] empty_reference: &str,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let empty = EmptyReference::from_name(empty_reference)?;
    let what = "WER statistics [substitutions, deletions, insertions, hits, ref_words, hyp_words]";
    let rows = owned_rows(&rows, wer::WIDTH, what)?;
    let measures = wer::row_measures(&rows, empty)?;
    let n = measures.len();
    let values = measures
        .into_iter()
        .flat_map(|m| [m.wer, m.mer, m.wil, m.wip])
        .collect();
    rows_array(py, n, 4, values)
}
