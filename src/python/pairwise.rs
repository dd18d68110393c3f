//! Bindings for pairwise matrices: sentences counted once into an `NgramBags` object (BLEU,
//! chrF) or tokenized once into `TerSentences` (TER), then any block of hypotheses ×
//! references scored from it (or, for n-grams, returned as rows).

use std::ops::Range;

use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;

use super::args::{
    char_order, max_ngram_order, run_interruptible, type_name, typed, word_order, workers,
};
use super::bleu::{config as bleu_config, pipeline};
use super::chrf::config as chrf_config;
use super::convert::{array1, rows_array, StrStream};
use super::errors::type_error;
use crate::count::NgramBag;
use crate::error::{Error, Result};
use crate::metrics::bleu::pairwise::{BleuBagStats, BleuBags};
use crate::metrics::bleu::{self, FloatSemantics, RefLength};
use crate::metrics::chrf;
use crate::metrics::chrf::pairwise::{ChrfBagStats, ChrfBags};
use crate::metrics::ter::pairwise::{TerSentence, TerSentences};
use crate::metrics::ter::{self, TerTokenizerConfig};
use crate::statistics::pairwise::{self, MirroredRows};

/// Matrices with more cells than this check for Ctrl-C while they run.
const WATCH_MIN_CELLS: usize = 1 << 16;
/// The same for TER, whose cells cost an edit-distance search each.
const WATCH_MIN_TER_CELLS: usize = 1 << 10;

enum Counted {
    Bleu(BleuBags),
    Chrf(ChrfBags),
}

/// Sentences counted once (BLEU or chrF n-grams under one configuration), for scoring any
/// block of pairs without tokenizing again.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct NgramBags {
    counted: Counted,
}

#[pymethods]
impl NgramBags {
    /// Not for direct use: `bleu_bags` and `chrf_bags` count sentences into bags.
    #[new]
    fn new() -> PyResult<Self> {
        Err(type_error(
            "NgramBags are made by bleu_bags() or chrf_bags(), not directly",
        ))
    }

    fn __len__(&self) -> usize {
        self.bags().len()
    }

    /// `"bleu"` or `"chrf"`: the n-grams counted.
    #[getter]
    fn metric(&self) -> &'static str {
        match self.counted {
            Counted::Bleu(_) => "bleu",
            Counted::Chrf(_) => "chrf",
        }
    }
}

/// The `bags` argument: counted sentences, or an `InputTypeError` naming what was given.
fn bags_arg<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, NgramBags>> {
    value.cast::<NgramBags>().cloned().map_err(|_| {
        type_error(format!(
            "bags must be counted sentences from bleu_bags() or chrf_bags(), got {}",
            type_name(value)
        ))
    })
}

impl NgramBags {
    fn bags(&self) -> &[NgramBag] {
        match &self.counted {
            Counted::Bleu(b) => &b.bags,
            Counted::Chrf(c) => &c.bags,
        }
    }

    /// The bags of `range`, checked against the number of sentences; `what` names it.
    fn slice(&self, range: (usize, usize), what: &str) -> Result<Vec<&NgramBag>> {
        Ok(range_of(self.bags(), range, what)?.iter().collect())
    }

    fn bleu(&self) -> Result<&BleuBags> {
        match &self.counted {
            Counted::Bleu(b) => Ok(b),
            Counted::Chrf(_) => Err(Error::invalid_input(
                "these sentences were counted for chrF, not BLEU",
            )),
        }
    }

    fn chrf(&self) -> Result<&ChrfBags> {
        match &self.counted {
            Counted::Chrf(c) => Ok(c),
            Counted::Bleu(_) => Err(Error::invalid_input(
                "these sentences were counted for BLEU, not chrF",
            )),
        }
    }
}

fn count_lines<F>(py: Python<'_>, lines: &Bound<'_, PyAny>, count: F) -> PyResult<NgramBags>
where
    F: FnOnce(&[&str]) -> Result<Counted> + Send,
{
    let stream = StrStream::extract(lines, "lines", false)?;
    let text = stream.borrow_all();
    let watch = stream.bytes() >= super::args::WATCH_MIN_BYTES;
    let counted = run_interruptible(py, watch, || count(&text))?;
    Ok(NgramBags { counted })
}

/// BLEU's n-grams of orders `1..=max_order` of every line, tokenized as `bleu_stats` does.
#[pyfunction]
#[pyo3(signature = (lines, *, tokenizer, max_order, normalize = None))]
pub(crate) fn bleu_bags(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::tokenizer)] tokenizer: &str,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
) -> PyResult<NgramBags> {
    let pipeline = pipeline(tokenizer, normalize)?;
    count_lines(py, lines, |text| {
        Ok(Counted::Bleu(BleuBags::from_text(
            text, pipeline, max_order,
        )?))
    })
}

/// chrF's character (and word) n-grams of every line, as `chrf_stats` reads them.
#[pyfunction]
#[pyo3(signature = (lines, *, char_order, word_order, whitespace))]
pub(crate) fn chrf_bags(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = char_order)] char_order: usize,
    #[pyo3(from_py_with = word_order)] word_order: usize,
    #[pyo3(from_py_with = typed::whitespace)] whitespace: bool,
) -> PyResult<NgramBags> {
    // beta only matters for scoring (chrf_pairwise takes it).
    let config = chrf_config(char_order, word_order, 4.0, 5.0, whitespace, false)?;
    count_lines(py, lines, |text| {
        Ok(Counted::Chrf(ChrfBags::from_text(text, &config)?))
    })
}

/// The scoring configuration of chrF bags: the orders and whitespace rule they were counted
/// with, and the given beta factors and smoothing.
fn chrf_scoring(
    counted: &ChrfBags,
    factor: f64,
    one_plus_factor: f64,
    eps_smoothing: bool,
) -> PyResult<crate::metrics::chrf::ChrfConfig> {
    let c = counted.config();
    chrf_config(
        c.char_order,
        c.word_order,
        factor,
        one_plus_factor,
        c.whitespace,
        eps_smoothing,
    )
}

fn cells(hypotheses: &Range<usize>, references: &Range<usize>) -> usize {
    hypotheses.len().saturating_mul(references.len())
}

/// The `(H, R)` scores of the bags `ranges.0 × ranges.1` under `metric`, `score` scoring
/// blocks of rows; a range against itself takes the square path (each pair matched once).
fn score_matrix<'py, M, S>(
    py: Python<'py>,
    bags: &NgramBags,
    ranges: ((usize, usize), (usize, usize)),
    metric: &M,
    workers: i64,
    score: S,
) -> PyResult<Bound<'py, PyArray2<f64>>>
where
    M: for<'a> MirroredRows<'a, NgramBag>,
    S: Fn(&[i64]) -> Result<Vec<f64>> + Sync + Send,
{
    let (hypotheses, references) = ranges;
    let (hyps, refs) = (
        bags.slice(hypotheses, "hypotheses")?,
        bags.slice(references, "references")?,
    );
    let watch =
        cells(&(hypotheses.0..hypotheses.1), &(references.0..references.1)) >= WATCH_MIN_CELLS;
    let scores = run_interruptible(py, watch, || {
        if hypotheses == references {
            pairwise::square_scores(&hyps, metric, workers, score)
        } else {
            pairwise::scores(&hyps, &refs, metric, workers, score)
        }
    })?;
    rows_array(py, hyps.len(), refs.len(), scores)
}

/// The `(H, R)` float64 matrix of sentence BLEU for the sentences `hypotheses` (a
/// `(start, stop)` range of `bags`) against each of `references` (another range) as the only
/// reference, with sacrebleu's scoring. When the two ranges are the same, each pair's n-grams
/// are matched once for both of its cells.
#[pyfunction]
#[pyo3(signature = (bags, hypotheses, references, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bleu_pairwise<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = bags_arg)] bags: Bound<'py, NgramBags>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let bags = bags.get();
    let config = bleu_config(max_order, smooth_method, smooth_value, effective_order)?;
    let semantics = FloatSemantics { compensated_sum };
    let metric = BleuBagStats::new(bags.bleu()?, max_order, RefLength::Closest)?;
    let score = |rows: &[i64]| bleu::scores_from_rows(rows, &config, &semantics);
    score_matrix(py, bags, (hypotheses, references), &metric, workers, score)
}

/// The `(H, R)` float64 matrix of sentence chrF, as [`bleu_pairwise`] for BLEU; the orders and
/// whitespace rule are the ones the bags were counted with.
#[pyfunction]
#[pyo3(signature = (bags, hypotheses, references, *, factor, one_plus_factor, eps_smoothing, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn chrf_pairwise<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = bags_arg)] bags: Bound<'py, NgramBags>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::factor)] factor: f64,
    #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
    #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let bags = bags.get();
    let counted = bags.chrf()?;
    let config = chrf_scoring(counted, factor, one_plus_factor, eps_smoothing)?;
    let metric = ChrfBagStats::new(counted);
    let score = |rows: &[i64]| Ok(chrf::scores_from_rows(rows, &config));
    score_matrix(py, bags, (hypotheses, references), &metric, workers, score)
}

/// Every cell's statistics row, `(H * R, width)` int64 with the hypothesis index major: BLEU's
/// `[hyp_len, ref_len, correct_1..N, total_1..N]` (with `ref_length`'s rule; `max_order` at
/// most the counted orders) or chrF's `[hyp, ref, match]` per order.
#[pyfunction]
#[pyo3(signature = (bags, hypotheses, references, *, max_order = None, ref_length = "closest", workers = -1))]
pub(crate) fn pairwise_rows<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = bags_arg)] bags: Bound<'py, NgramBags>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::optional_max_order)] max_order: Option<usize>,
    #[pyo3(from_py_with = typed::ref_length)] ref_length: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let bags = bags.get();
    let (hyps, refs) = (
        bags.slice(hypotheses, "hypotheses")?,
        bags.slice(references, "references")?,
    );
    let n = hyps.len() * refs.len();
    let watch = n >= WATCH_MIN_CELLS;
    let (rows, width) = match &bags.counted {
        Counted::Bleu(b) => {
            let metric = BleuBagStats::new(
                b,
                max_order.unwrap_or(b.max_order),
                RefLength::from_name(ref_length)?,
            )?;
            let width = 2 + 2 * metric.max_order;
            (
                run_interruptible(py, watch, || pairwise::rows(&hyps, &refs, &metric, workers))?,
                width,
            )
        }
        Counted::Chrf(c) => {
            let metric = ChrfBagStats::new(c);
            let width = c.config().width();
            (
                run_interruptible(py, watch, || pairwise::rows(&hyps, &refs, &metric, workers))?,
                width,
            )
        }
    };
    rows_array(py, n, width, rows)
}

/// Reference aggregation for BLEU: float64 `(H,)`, each hypothesis of the range `hypotheses`
/// scored against the expected n-gram counts and length of the range `references`, weighted
/// by `log_weights` (one per reference), as mbrs computes it.
#[pyfunction]
#[pyo3(signature = (bags, hypotheses, references, log_weights, *, max_order, smooth_method, smooth_value, effective_order, compensated_sum, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn bleu_aggregate<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = bags_arg)] bags: Bound<'py, NgramBags>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::log_weights)] log_weights: Vec<f64>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
    #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
    #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
    #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let bags = bags.get();
    let config = bleu_config(max_order, smooth_method, smooth_value, effective_order)?;
    let semantics = FloatSemantics { compensated_sum };
    let counted = bags.bleu()?;
    aggregate_array(
        py,
        bags,
        (hypotheses, references),
        &log_weights,
        |hyps, refs, w| {
            bleu::pairwise::aggregate_scores(counted, hyps, refs, w, &config, &semantics, workers)
        },
    )
}

/// Reference aggregation for chrF and chrF++, as [`bleu_aggregate`] for BLEU.
#[pyfunction]
#[pyo3(signature = (bags, hypotheses, references, log_weights, *, factor, one_plus_factor, eps_smoothing, compensated_sum, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn chrf_aggregate<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = bags_arg)] bags: Bound<'py, NgramBags>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::log_weights)] log_weights: Vec<f64>,
    #[pyo3(from_py_with = typed::factor)] factor: f64,
    #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
    #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
    #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let bags = bags.get();
    let counted = bags.chrf()?;
    let config = chrf_scoring(counted, factor, one_plus_factor, eps_smoothing)?;
    let semantics = FloatSemantics { compensated_sum };
    aggregate_array(
        py,
        bags,
        (hypotheses, references),
        &log_weights,
        |hyps, refs, w| {
            chrf::pairwise::aggregate_scores(counted, hyps, refs, w, &config, &semantics, workers)
        },
    )
}

/// `aggregate(hypotheses, references, log_weights)` on the bags of both ranges, checked to
/// have one log weight (< inf) per reference: float64 `(H,)`.
fn aggregate_array<'py, F>(
    py: Python<'py>,
    bags: &NgramBags,
    (hypotheses, references): ((usize, usize), (usize, usize)),
    log_weights: &[f64],
    aggregate: F,
) -> PyResult<Bound<'py, PyArray1<f64>>>
where
    F: FnOnce(&[&NgramBag], &[&NgramBag], &[f64]) -> Result<Vec<f64>> + Send,
{
    let (hyps, refs) = (
        bags.slice(hypotheses, "hypotheses")?,
        bags.slice(references, "references")?,
    );
    if log_weights.len() != refs.len()
        || log_weights
            .iter()
            .any(|w| w.is_nan() || *w == f64::INFINITY)
    {
        return Err(Error::invalid_input(format!(
            "log_weights must hold one log weight (< inf) per reference: {} for {} references",
            log_weights.len(),
            refs.len()
        ))
        .into());
    }
    let scores = run_interruptible(py, false, || aggregate(&hyps, &refs, log_weights))?;
    array1(py, scores)
}

/// Sentences tokenized once for TER (as hypotheses and as references), for scoring any block
/// of pairs without tokenizing again.
#[pyclass(module = "bleuprint._core", name = "TerSentences", frozen)]
pub(crate) struct PyTerSentences {
    counted: TerSentences,
}

#[pymethods]
impl PyTerSentences {
    /// Not for direct use: `ter_sentences` tokenizes sentences.
    #[new]
    fn new() -> PyResult<Self> {
        Err(type_error(
            "TerSentences are made by ter_sentences(), not directly",
        ))
    }

    fn __len__(&self) -> usize {
        self.counted.sentences.len()
    }
}

/// Every line tokenized as `ter_stats` reads it as a hypothesis and as a reference
/// (lowercased already unless TER is case-sensitive).
#[pyfunction]
#[pyo3(signature = (lines, *, normalized = false, no_punct = false, asian_support = false, workers = -1))]
pub(crate) fn ter_sentences(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::normalized)] normalized: bool,
    #[pyo3(from_py_with = typed::no_punct)] no_punct: bool,
    #[pyo3(from_py_with = typed::asian_support)] asian_support: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<PyTerSentences> {
    let config = TerTokenizerConfig {
        normalized,
        no_punct,
        asian_support,
    };
    let stream = StrStream::extract(lines, "lines", false)?;
    let text = stream.borrow_all();
    let watch = stream.bytes() >= super::args::WATCH_MIN_BYTES;
    let counted = run_interruptible(py, watch, || {
        TerSentences::from_text(&text, config, workers)
    })?;
    Ok(PyTerSentences { counted })
}

/// The `(H, R)` float64 matrix of sentence TER for the sentences `hypotheses` (a
/// `(start, stop)` range of `sentences`) against each of `references` as the only reference.
#[pyfunction]
#[pyo3(signature = (sentences, hypotheses, references, *, workers = -1))]
pub(crate) fn ter_pairwise<'py>(
    py: Python<'py>,
    sentences: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let sentences = sentences.cast::<PyTerSentences>().map_err(|_| {
        type_error(format!(
            "sentences must come from ter_sentences(), got {}",
            type_name(sentences)
        ))
    })?;
    let counted = &sentences.get().counted;
    let items: Vec<&TerSentence> = counted.sentences.iter().collect();
    let (hyps, refs) = (
        range_of(&items, hypotheses, "hypotheses")?,
        range_of(&items, references, "references")?,
    );
    let watch =
        cells(&(hypotheses.0..hypotheses.1), &(references.0..references.1)) >= WATCH_MIN_TER_CELLS;
    let scores = run_interruptible(py, watch, || {
        pairwise::scores(hyps, refs, &counted.config(), workers, |rows| {
            Ok(ter::row_scores(rows)?.iter().map(|s| s.score).collect())
        })
    })?;
    rows_array(py, hyps.len(), refs.len(), scores)
}

/// `items[start..stop]`, or an error naming `what` and the number of items.
fn range_of<'s, T>(items: &'s [T], range: (usize, usize), what: &str) -> Result<&'s [T]> {
    let (start, stop) = range;
    (start <= stop)
        .then(|| items.get(start..stop))
        .flatten()
        .ok_or_else(|| {
            Error::invalid_input(format!(
                "{what} ({start}, {stop}) is not a range of the {} counted sentences",
                items.len()
            ))
        })
}
