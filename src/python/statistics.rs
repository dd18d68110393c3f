//! The statistics stage for every metric: text (or tokens) to one int64 row per segment, in
//! one FFI call per batch. Each operation takes a kernel ([`Kernel`]) and dispatches on it
//! to the core's `StatsMetric` implementations through the statistics driver.

use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;

use super::args::{
    release_freed_memory, run_interruptible, typed, workers, RELEASE_MIN_BYTES, WATCH_MIN_BYTES,
    WATCH_MIN_BYTES_TER,
};
use super::convert::{
    array1, references_per_segment, rows_array, GroupedTokenLists, StrStream, StreamInput,
    TokenLists,
};
use super::kernels::Kernel;
use crate::error::{to_i64, Error, Result};
use crate::metrics::wer::{OpTag, PreSplit, SegmentAlignment};
use crate::statistics::{self, Grouped, Layout, Pairs, Streams};

/// Segments normalized at a time: the owned copies of a batch, not of a whole input.
const NORMALIZE_BATCH: usize = 8192;

/// Text under a WER kernel's normalizer (`WER(normalizer=...)`, applied by the core so that
/// file blocks and Arrow columns never become Python strings): owned copies of every line.
struct NormalizedInput {
    hypotheses: Vec<Option<String>>,
    references: Vec<Vec<Option<String>>>,
}

impl NormalizedInput {
    /// `None` when the kernel has no normalizer. `offset`: the first segment's index, for
    /// errors.
    fn of(
        kernel: Kernel<'_>,
        hyps: &[&str],
        streams: &[Vec<Option<&str>>],
        offset: usize,
        workers: i64,
    ) -> Result<Option<Self>> {
        let Kernel::Wer(wer) = kernel else {
            return Ok(None);
        };
        let lines: Vec<Option<&str>> = hyps.iter().map(|h| Some(*h)).collect();
        let Some(hypotheses) = wer.normalized(&lines, "hypotheses", offset, workers)? else {
            return Ok(None);
        };
        let mut references = Vec::with_capacity(streams.len());
        for (k, stream) in streams.iter().enumerate() {
            let name = format!("references[{k}]");
            references.push(
                wer.normalized(stream, &name, offset, workers)?
                    .unwrap_or_default(),
            );
        }
        Ok(Some(Self {
            hypotheses,
            references,
        }))
    }

    fn borrow(&self) -> (Vec<&str>, Vec<Vec<Option<&str>>>) {
        (
            self.hypotheses
                .iter()
                .map(|h| h.as_deref().unwrap_or(""))
                .collect(),
            self.references
                .iter()
                .map(|s| s.iter().map(Option::as_deref).collect())
                .collect(),
        )
    }
}

impl Kernel<'_> {
    /// The rows of a text layout under this kernel.
    fn text_rows<'t, L: Layout<'t, Item = str>>(
        self,
        layout: &L,
        workers: i64,
    ) -> Result<Vec<i64>> {
        match self {
            Self::Bleu(k) => statistics::rows(layout, &k.stats_metric()?, workers),
            Self::Chrf(k) => statistics::rows(layout, &k.config, workers),
            Self::Ter(k) => statistics::rows(layout, &k.config, workers),
            Self::Wer(k) => statistics::rows(layout, &k.stats(), workers),
            Self::Gleu(k) => statistics::rows(layout, &k.stats_metric()?, workers),
            Self::Rouge(k) => statistics::rows(layout, &&k.config, workers),
        }
    }

    /// Whether this kernel counts token lists (its tokenizer is `None`), else text.
    fn takes_tokens(self) -> bool {
        match self {
            Self::Bleu(k) => k.pipeline.is_none(),
            Self::Gleu(k) => k.pipeline.is_none(),
            Self::Wer(_) => true,
            Self::Chrf(_) | Self::Ter(_) | Self::Rouge(_) => false,
        }
    }

    /// Text below this many bytes is scored without the Ctrl-C watch.
    fn watch_min_bytes(self) -> usize {
        match self {
            // Each TER segment costs an edit-distance search.
            Self::Ter(_) => WATCH_MIN_BYTES_TER,
            _ => WATCH_MIN_BYTES,
        }
    }
}

/// Per-segment statistics of `hypotheses` against reference *streams* (`references[k][i]` is
/// reference `k` of segment `i`; `None` drops it), under `kernel`: `(rows, nrefs,
/// tokenized_periods)`, the int64 rows `(n, kernel.width)`, the references per segment (-1
/// where it varies) and, for a BLEU kernel, how many hypotheses end in a tokenized period
/// (`" ."`, sacrebleu's `force` heuristic; 0 for the other kernels, which have no use for it and
/// would pay a pass over every hypothesis), all from one pass.
#[pyfunction]
#[pyo3(signature = (kernel, hypotheses, references, *, workers = -1))]
pub(crate) fn stats<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<(Bound<'py, PyArray2<i64>>, i64, usize)> {
    let kernel = Kernel::extract(kernel)?;
    let input = StreamInput::extract(hypotheses, references, workers)?;
    let (hyps, streams) = input.borrow();
    let watch = input.bytes() >= kernel.watch_min_bytes();
    let (rows, nrefs, periods) = run_interruptible(py, watch, || {
        let rows = if matches!(kernel, Kernel::Wer(w) if w.normalize.is_some()) {
            // Normalized a batch at a time, so that only a batch is copied at once.
            let mut rows = Vec::new();
            for start in (0..hyps.len()).step_by(NORMALIZE_BATCH) {
                let end = (start + NORMALIZE_BATCH).min(hyps.len());
                let batch_hyps = hyps.get(start..end).unwrap_or_default();
                let batch_streams: Vec<Vec<Option<&str>>> = streams
                    .iter()
                    .map(|s| s.get(start..end).unwrap_or_default().to_vec())
                    .collect();
                let normalized =
                    NormalizedInput::of(kernel, batch_hyps, &batch_streams, start, workers)?
                        .ok_or_else(|| Error::internal("a WER normalizer normalizes"))?;
                let (h, s) = normalized.borrow();
                rows.extend(kernel.text_rows(&Streams::part(&h, &s, start), workers)?);
            }
            rows
        } else {
            kernel.text_rows(&Streams::new(&hyps, &streams), workers)?
        };
        let periods = match kernel {
            Kernel::Bleu(_) => crate::metrics::bleu::count_tokenized_periods(&hyps),
            _ => 0,
        };
        Ok((rows, references_per_segment(&streams), periods))
    })?;
    if input.bytes() >= RELEASE_MIN_BYTES {
        release_freed_memory();
    }
    Ok((
        rows_array(py, input.len(), kernel.width(), rows)?,
        nrefs,
        periods,
    ))
}

/// Per-segment statistics of hypotheses that each carry their own list of references
/// (`references[i]` lists those of `hypotheses[i]`): text lines, or token lists when the
/// kernel takes tokens (a `BleuKernel` or `GleuKernel` made with `tokenizer=None`; a
/// `WerKernel`, whose `references[i]` holds exactly one token list).
#[pyfunction]
#[pyo3(signature = (kernel, hypotheses, references, *, workers = -1))]
pub(crate) fn grouped_stats<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let kernel = Kernel::extract(kernel)?;
    let (n, rows) = if kernel.takes_tokens() {
        let hyps = TokenLists::extract(hypotheses, "hypotheses")?;
        let refs = GroupedTokenLists::extract(references, "references")?;
        let watch = hyps.bytes() + refs.bytes() >= WATCH_MIN_BYTES;
        let (h, r) = (hyps.borrow(), refs.borrow());
        let rows = run_interruptible(py, watch, || token_rows(kernel, &h, &r, workers))?;
        (h.len(), rows)
    } else {
        let hyps = StrStream::extract(hypotheses, "hypotheses", false)?;
        let refs = super::convert::extract_grouped_text(references)?;
        let watch = hyps.bytes() + refs.iter().map(StrStream::bytes).sum::<usize>()
            >= kernel.watch_min_bytes();
        let h = hyps.borrow_all();
        let r: Vec<Vec<&str>> = refs.iter().map(StrStream::borrow_all).collect();
        let rows = run_interruptible(py, watch, || {
            kernel.text_rows(&Grouped::new(&h, &r), workers)
        })?;
        (h.len(), rows)
    };
    rows_array(py, n, kernel.width(), rows)
}

/// The rows of token lists: BLEU and GLEU over grouped references, WER over one reference
/// per hypothesis.
fn token_rows<'t>(
    kernel: Kernel<'_>,
    hyps: &'t [Vec<&'t [u8]>],
    refs: &'t [Vec<Vec<&'t [u8]>>],
    workers: i64,
) -> Result<Vec<i64>> {
    match kernel {
        Kernel::Bleu(k) => statistics::rows(&Grouped::new(hyps, refs), &k.stats_metric()?, workers),
        Kernel::Gleu(k) => statistics::rows(&Grouped::new(hyps, refs), &k.stats_metric()?, workers),
        Kernel::Wer(k) => {
            let single = single_references(refs)?;
            statistics::rows(&Pairs::new(hyps, &single), &PreSplit(k.rules), workers)
        }
        Kernel::Chrf(_) | Kernel::Ter(_) | Kernel::Rouge(_) => Err(Error::invalid_option(format!(
            "{} counts text, not token lists",
            kernel.name()
        ))),
    }
}

/// The one reference of each hypothesis (WER on token lists compares pairs).
fn single_references<'t>(refs: &[Vec<Vec<&'t [u8]>>]) -> Result<Vec<Vec<&'t [u8]>>> {
    refs.iter()
        .enumerate()
        .map(|(i, group)| match group.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(Error::invalid_input(format!(
                "references[{i}] holds {} references; WER on token lists takes exactly one",
                group.len()
            ))),
        })
        .collect()
}

/// Per-candidate BLEU statistics `(B, 2 + 2 * max_order)` of token-ID sequences (RL rewards,
/// `token_bleu`): `tokens[ends[k - 1]..ends[k]]` is sequence `k`; the `B` candidates come
/// first, then each candidate's `reference_counts[b]` references in candidate order. Tokens
/// compare as integers. Takes a `BleuKernel` (its orders and reference-length rule).
#[pyfunction]
#[pyo3(signature = (kernel, tokens, ends, reference_counts, *, workers = -1))]
pub(crate) fn token_id_stats<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::tokens)] tokens: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = typed::ends)] ends: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = typed::reference_counts)] reference_counts: PyReadonlyArray1<'py, i64>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let kernel = Kernel::extract(kernel)?;
    let Kernel::Bleu(bleu) = kernel else {
        return Err(kernel.undefined("token_id_stats"));
    };
    let owned = |a: &PyReadonlyArray1<'py, i64>| -> Vec<i64> {
        match a.as_slice() {
            Ok(s) => s.to_vec(),
            Err(_) => a.as_array().iter().copied().collect(),
        }
    };
    let (tokens, ends, counts) = (owned(&tokens), owned(&ends), owned(&reference_counts));
    let (hyps, refs) = token_id_sequences(&tokens, &ends, &counts)?;
    let watch = tokens.len() * 8 >= WATCH_MIN_BYTES;
    let rows = run_interruptible(py, watch, || {
        let metric = bleu.stats_metric()?;
        statistics::rows(&Grouped::new(&hyps, &refs), &metric, workers)
    })?;
    rows_array(py, hyps.len(), kernel.width(), rows)
}

/// Candidates and their references as token sequences (each token's 8 little-endian bytes),
/// from the flat layout of [`token_id_stats`], checked.
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

fn tag_code(tag: OpTag) -> i64 {
    match tag {
        OpTag::Equal => 0,
        OpTag::Replace => 1,
        OpTag::Delete => 2,
        OpTag::Insert => 3,
    }
}

/// Every segment's WER alignment as arrays: `(rows (n, 6), stream (n,), opcodes (m, 5),
/// offsets (n + 1,))`.
type Alignments<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn alignment_arrays(py: Python<'_>, aligned: Vec<SegmentAlignment>) -> PyResult<Alignments<'_>> {
    let n = aligned.len();
    let mut rows = Vec::with_capacity(n * crate::metrics::wer::WIDTH);
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
        rows_array(py, n, crate::metrics::wer::WIDTH, rows)?,
        array1(py, streams)?,
        rows_array(py, m, 5, ops)?,
        array1(py, offsets)?,
    ))
}

/// Every segment's alignment with its best reference, as jiwer draws it (RapidFuzz's
/// opcodes): `(rows (n, 6), stream (n,), opcodes (m, 5), offsets (n + 1,))`; segment `i`'s
/// opcodes are `opcodes[offsets[i]:offsets[i + 1]]`, each `(tag, ref_start, ref_end,
/// hyp_start, hyp_end)` with tags 0 equal, 1 replace, 2 delete, 3 insert, and `stream[i]` is
/// the reference stream chosen. Text takes reference streams; with `tokens=True`,
/// `hypotheses` and `references` are token lists, one reference per hypothesis. Takes a
/// `WerKernel`.
#[pyfunction]
#[pyo3(signature = (kernel, hypotheses, references, *, tokens = false, workers = -1))]
pub(crate) fn alignments<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::tokens_flag)] tokens: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Alignments<'py>> {
    let kernel = Kernel::extract(kernel)?;
    let Kernel::Wer(wer) = kernel else {
        return Err(kernel.undefined("alignments"));
    };
    let aligned = if tokens {
        let hyps = TokenLists::extract(hypotheses, "hypotheses")?;
        let refs = TokenLists::extract(references, "references")?;
        let watch = hyps.bytes() + refs.bytes() >= WATCH_MIN_BYTES;
        let (h, r) = (hyps.borrow(), refs.borrow());
        run_interruptible(py, watch, || {
            crate::metrics::wer::token_alignments(&h, &r, wer.rules, workers)
        })?
    } else {
        let input = StreamInput::extract(hypotheses, references, workers)?;
        let (hyps, streams) = input.borrow();
        run_interruptible(py, input.bytes() >= WATCH_MIN_BYTES, || {
            let normalized = NormalizedInput::of(kernel, &hyps, &streams, 0, workers)?;
            let (hyps, streams) = match &normalized {
                Some(n) => n.borrow(),
                None => (hyps.clone(), streams.clone()),
            };
            crate::metrics::wer::stream_alignments(&hyps, &streams, wer.stats(), workers)
        })?
    };
    alignment_arrays(py, aligned)
}
