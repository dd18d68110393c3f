//! Bindings for BLEU statistics and scoring: one FFI call per batch.

use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::{max_ngram_order, run_interruptible, typed, workers};
use super::convert::{
    array1, owned_rows, references_per_segment, rows_array, GroupedInput, StrStream, StreamInput,
    TokenLine, TokenLists,
};
use super::tokenize::normalization;
use crate::error::{to_i64, Error};
use crate::metrics::bleu::{self, BleuConfig, FloatSemantics, RefLength, Smoothing, StatsOptions};
use crate::tokenize::{Pipeline, Tokenizer};

pub(super) fn config(
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<BleuConfig> {
    let config = BleuConfig {
        max_order,
        smoothing: Smoothing::from_name(smooth_method, smooth_value)?,
        effective_order,
    };
    config.validate()?;
    Ok(config)
}

/// sacrebleu's default `smooth_value` per method, `None` where the method takes none. A
/// whole-number default is an `int`, as sacrebleu writes add-k's `1` (its counts stay ints).
pub(crate) fn smooth_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let defaults = PyDict::new(py);
    for (name, value) in bleu::SMOOTHING_METHODS {
        match value {
            #[allow(clippy::cast_possible_truncation)] // a whole number of a few units
            Some(v) if v.fract() == 0.0 => defaults.set_item(name, v as i64)?,
            Some(v) => defaults.set_item(name, v)?,
            None => defaults.set_item(name, py.None())?,
        }
    }
    Ok(defaults)
}

/// Names of the BLEU statistics columns for `max_order`: `hyp_len, ref_len, correct_1..N,
/// total_1..N`.
#[pyfunction]
pub(crate) fn bleu_column_names(
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
) -> Vec<String> {
    BleuConfig {
        max_order,
        ..BleuConfig::default()
    }
    .column_names()
}

/// The text pipeline for a tokenizer name and an optional normalization.
pub(crate) fn pipeline(tokenizer: &str, normalize: Option<&str>) -> PyResult<Pipeline> {
    Ok(Pipeline {
        normalization: normalization(normalize)?,
        tokenizer: Tokenizer::from_name(tokenizer)?,
    })
}

/// The pipeline for `tokenizer=` of the grouped bindings: `None` (token lists) takes no
/// normalization.
pub(crate) fn optional_pipeline(
    tokenizer: Option<&str>,
    normalize: Option<&str>,
) -> PyResult<Option<Pipeline>> {
    match tokenizer {
        Some(name) => pipeline(name, normalize).map(Some),
        None if normalize.is_some() => Err(Error::invalid_option(
            "normalize= applies to text, but tokenizer=None takes token lists counted as given: \
             normalize the tokens first, or pass text with a tokenizer name",
        )
        .into()),
        None => Ok(None),
    }
}

/// Per-segment BLEU statistics, shape `(n, 2 + 2 * max_order)`, dtype int64, together with
/// the references per segment (-1 where it varies) and the number of hypotheses that end in a
/// tokenized period (sacrebleu's `force` heuristic), which come from the same pass.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, tokenizer, max_order, normalize = None, ref_length = "closest", workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bleu_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::tokenizer)] tokenizer: &str,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    #[pyo3(from_py_with = typed::ref_length)] ref_length: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64, usize)> {
    let options = StatsOptions {
        pipeline: pipeline(tokenizer, normalize)?,
        ref_length: RefLength::from_name(ref_length)?,
    };
    let config = config(max_order, "none", None, false)?;
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let (rows, nrefs, periods) = run_interruptible(py, input.is_large(), || {
        let rows = bleu::stream_stats(&hyps, &streams, options, &config, workers)?;
        let nrefs = references_per_segment(&streams);
        Ok((rows, nrefs, bleu::count_tokenized_periods(&hyps)))
    })?;
    Ok((
        rows_array(py, input.len(), config.width(), rows)?,
        nrefs,
        periods,
    ))
}

/// Per-segment BLEU statistics `(n, 2 + 2 * max_order)` for hypotheses that each carry their
/// own list of references: text lines with a tokenizer name, or token lists with
/// `tokenizer=None`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, tokenizer, max_order, normalize = None, ref_length = "closest", workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bleu_grouped_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    #[pyo3(from_py_with = typed::ref_length)] ref_length: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let pipeline = optional_pipeline(tokenizer, normalize)?;
    let ref_length = RefLength::from_name(ref_length)?;
    let config = config(max_order, "none", None, false)?;
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
            let options = StatsOptions {
                pipeline,
                ref_length,
            };
            run_interruptible(py, watch, || {
                bleu::grouped_stats(&hyps, &refs, options, &config, workers)
            })
        }
        GroupedInput::Tokens {
            hypotheses,
            references,
        } => {
            let (hyps, refs) = (hypotheses.borrow(), references.borrow());
            run_interruptible(py, watch, || {
                bleu::grouped_token_stats(&hyps, &refs, ref_length, &config, workers)
            })
        }
    }?;
    let n = rows.len() / config.width();
    rows_array(py, n, config.width(), rows)
}

/// Per-candidate BLEU statistics `(B, 2 + 2 * max_order)` of token-ID sequences (RL rewards,
/// `token_bleu`): `tokens[ends[k - 1]..ends[k]]` is sequence `k`; the `B` candidates come
/// first, then each candidate's `reference_counts[b]` references in candidate order. Tokens
/// compare as integers.
#[pyfunction]
#[pyo3(signature = (tokens, ends, reference_counts, *, max_order, ref_length = "closest", workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bleu_token_id_stats<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::tokens)] tokens: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = typed::ends)] ends: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = typed::reference_counts)] reference_counts: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::ref_length)] ref_length: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let config = config(max_order, "none", None, false)?;
    let ref_length = RefLength::from_name(ref_length)?;
    let owned = |a: &PyReadonlyArray1<'py, i64>| -> Vec<i64> {
        match a.as_slice() {
            Ok(s) => s.to_vec(),
            Err(_) => a.as_array().iter().copied().collect(),
        }
    };
    let (tokens, ends, counts) = (owned(&tokens), owned(&ends), owned(&reference_counts));
    let (hyps, refs) = token_id_sequences(&tokens, &ends, &counts)?;
    let watch = tokens.len() * 8 >= super::args::WATCH_MIN_BYTES;
    let rows = run_interruptible(py, watch, || {
        bleu::grouped_token_stats(&hyps, &refs, ref_length, &config, workers)
    })?;
    rows_array(py, hyps.len(), config.width(), rows)
}

/// Candidates and their references as token sequences (each token's 8 little-endian bytes),
/// from the flat layout of [`bleu_token_id_stats`], checked.
#[allow(clippy::type_complexity)]
fn token_id_sequences(
    tokens: &[i64],
    ends: &[i64],
    counts: &[i64],
) -> PyResult<(Vec<Vec<[u8; 8]>>, Vec<Vec<Vec<[u8; 8]>>>)> {
    let bad = |message: String| -> PyErr { Error::invalid_input(message).into() };
    let mut sequences = Vec::with_capacity(ends.len());
    let mut start = 0usize;
    for (k, &end) in ends.iter().enumerate() {
        let end = usize::try_from(end).map_err(|_| bad(format!("ends[{k}] is negative")))?;
        let slice = tokens.get(start..end).ok_or_else(|| {
            bad(format!(
                "ends[{k}] = {end} is not a valid end after {start}"
            ))
        })?;
        sequences.push(slice.iter().map(|t| t.to_le_bytes()).collect::<Vec<_>>());
        start = end;
    }
    if start != tokens.len() {
        return Err(bad(format!(
            "the last end is {start}, not the {} tokens",
            tokens.len()
        )));
    }
    let b = counts.len();
    let mut rest = sequences.split_off(b.min(sequences.len()));
    if sequences.len() != b {
        return Err(bad(format!(
            "{b} candidates but only {} sequences",
            sequences.len()
        )));
    }
    let mut refs = Vec::with_capacity(b);
    for (i, &count) in counts.iter().enumerate() {
        let count = usize::try_from(count)
            .ok()
            .filter(|&c| c >= 1 && c <= rest.len())
            .ok_or_else(|| {
                bad(format!(
                    "candidate {i}: {count} references, {} left",
                    rest.len()
                ))
            })?;
        let tail = rest.split_off(count);
        refs.push(std::mem::replace(&mut rest, tail));
    }
    if !rest.is_empty() {
        return Err(bad(format!(
            "{} sequences are left after the references",
            rest.len()
        )));
    }
    Ok((sequences, refs))
}

/// Per order `1..=max_order`, the distinct n-grams of one tokenized hypothesis in order of
/// first occurrence: `(ngram, count, max_ref_count, clipped)`.
#[pyfunction]
#[pyo3(signature = (hypothesis, references, *, max_order))]
pub(crate) fn bleu_ngram_details<'py>(
    py: Python<'py>,
    hypothesis: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
) -> PyResult<Bound<'py, PyList>> {
    let hyp = TokenLine::extract(hypothesis, "hypothesis")?;
    let refs = TokenLists::extract(references, "references")?;
    let (tokens, ref_tokens) = (hyp.borrow(), refs.borrow());
    let watch = refs.bytes() >= super::args::WATCH_MIN_BYTES;
    let orders = run_interruptible(py, watch, || {
        bleu::details::ngram_details(&tokens, &ref_tokens, max_order)
    })?;
    let out = PyList::empty(py);
    for (i, order) in orders.iter().enumerate() {
        let entries = PyList::empty(py);
        for d in order {
            let ngram = hyp.list().get_slice(d.start, d.start + i + 1).to_tuple();
            entries.append((ngram, d.count, d.max_ref, d.clipped))?;
        }
        out.append(entries)?;
    }
    Ok(out)
}

/// Every row's score with the parts behind it: `(scores (n,), bp (n,), precisions (n, N),
/// smoothed_orders (n,))`, for building result objects.
#[pyfunction]
#[pyo3(signature = (stats, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum))]
#[allow(clippy::type_complexity)]
pub(crate) fn bleu_score_details<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::stats_int64)] stats: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<i64>>,
)> {
    let (config, rows, semantics) = scoring_inputs(
        &stats,
        max_order,
        smooth_method,
        smooth_value,
        effective_order,
        compensated_sum,
    )?;
    let details = py.detach(|| {
        rows.chunks(config.width())
            .map(|row| bleu::score_from_stats(row, &config, &semantics))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let n = details.len();
    let scores = details.iter().map(|d| d.score).collect();
    let bps = details.iter().map(|d| d.bp).collect();
    let smoothed = details.iter().map(|d| to_i64(d.smoothed_orders)).collect();
    let precisions = details.into_iter().flat_map(|d| d.precisions).collect();
    Ok((
        array1(py, scores)?,
        array1(py, bps)?,
        rows_array(py, n, config.max_order, precisions)?,
        array1(py, smoothed)?,
    ))
}

/// The scoring configuration and the rows as one owned buffer.
fn scoring_inputs<T: numpy::Element + Copy>(
    stats: &PyReadonlyArray2<'_, T>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    compensated_sum: bool,
) -> PyResult<(BleuConfig, Vec<T>, FloatSemantics)> {
    let config = config(max_order, smooth_method, smooth_value, effective_order)?;
    let what = format!("BLEU statistics for max_ngram_order={}", config.max_order);
    let rows = owned_rows(stats, config.width(), &what)?;
    Ok((config, rows, FloatSemantics { compensated_sum }))
}

/// Scores every row of a statistics matrix; returns a float64 array of shape `(n,)`.
#[pyfunction]
#[pyo3(signature = (stats, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum))]
pub(crate) fn bleu_scores<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::stats_int64)] stats: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (config, rows, semantics) = scoring_inputs(
        &stats,
        max_order,
        smooth_method,
        smooth_value,
        effective_order,
        compensated_sum,
    )?;
    let scores = py.detach(|| bleu::scores_from_rows(&rows, &config, &semantics))?;
    array1(py, scores)
}

/// Scores float32 sums (sacrebleu's bootstrap resamples): precisions in float32 arithmetic,
/// as `compute_bleu` does on numpy.float32 counts; a float64 array of shape `(n,)`.
#[pyfunction]
#[pyo3(signature = (sums, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum))]
pub(crate) fn bleu_scores_float32<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = typed::sums_float32)] sums: PyReadonlyArray2<'py, f32>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (config, rows, semantics) = scoring_inputs(
        &sums,
        max_order,
        smooth_method,
        smooth_value,
        effective_order,
        compensated_sum,
    )?;
    let scores: Vec<f64> = py.detach(|| {
        rows.chunks_exact(config.width())
            .map(|row| bleu::score_from_float32_sums(row, &config, &semantics))
            .collect()
    });
    array1(py, scores)
}
