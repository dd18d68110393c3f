//! Every hypothesis against every reference (MBR matrices): sentences counted once into a
//! `Sentences` object under a kernel (BLEU's and chrF's n-gram bags, TER's tokenized
//! sentences), then any block of hypotheses x references scored from them, returned as the
//! cells' statistics rows, or aggregated over references.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::args::{run_interruptible, typed, workers, WATCH_MIN_BYTES};
use super::convert::{array1, rows_array, StrStream};
use super::errors::type_error;
use super::errors::type_name;
use super::kernels::Kernel;
use crate::count::{Aggregation, NgramBag};
use crate::error::{Error, Result};
use crate::metrics::bleu::pairwise::{BleuBagStats, BleuBags};
use crate::metrics::chrf::pairwise::{ChrfBagStats, ChrfBags};
use crate::metrics::rouge::pairwise::RougeSentences;
use crate::metrics::rouge::{score as rouge_score, RougeText};
use crate::metrics::ter::pairwise::{TerSentence, TerSentences};
use crate::metrics::{bleu, chrf};
use crate::statistics::pairwise::{self as driver, MirroredRows};

/// Matrices with more cells than this check for Ctrl-C while they run.
const WATCH_MIN_CELLS: usize = 1 << 16;
/// The same for TER, whose cells cost an edit-distance search each.
const WATCH_MIN_TER_CELLS: usize = 1 << 10;

enum Counted {
    Bleu(BleuBags),
    Chrf(ChrfBags),
    Ter(TerSentences),
    Rouge(RougeSentences),
}

impl Counted {
    fn metric(&self) -> &'static str {
        match self {
            Self::Bleu(_) => "BLEU",
            Self::Chrf(_) => "chrF",
            Self::Ter(_) => "TER",
            Self::Rouge(_) => "ROUGE",
        }
    }
}

/// Sentences counted once under a kernel (`bags(kernel, lines)`), for scoring any block of
/// pairs without tokenizing again.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct Sentences {
    counted: Counted,
}

#[pymethods]
impl Sentences {
    /// Not for direct use: `bags(kernel, lines)` counts sentences.
    #[new]
    fn new() -> PyResult<Self> {
        Err(type_error(
            "Sentences are made by bags(kernel, lines), not directly",
        ))
    }

    fn __len__(&self) -> usize {
        match &self.counted {
            Counted::Bleu(b) => b.bags.len(),
            Counted::Chrf(c) => c.bags.len(),
            Counted::Ter(t) => t.sentences.len(),
            Counted::Rouge(r) => r.sentences.len(),
        }
    }

    /// `"BLEU"`, `"chrF"` or `"TER"`: the metric they were counted for.
    #[getter]
    fn metric(&self) -> &'static str {
        self.counted.metric()
    }
}

/// The `sentences` argument: counted sentences, or an `InputTypeError` naming what was given.
fn sentences_arg<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Sentences>> {
    value.cast::<Sentences>().cloned().map_err(|_| {
        type_error(format!(
            "sentences must come from bags(kernel, lines), got {}",
            type_name(value)
        ))
    })
}

/// The items of `range` (a `(start, stop)` pair), checked against the number counted.
fn range_of<'s, T>(items: &'s [T], range: (usize, usize), what: &str) -> Result<Vec<&'s T>> {
    let (start, stop) = range;
    (start <= stop)
        .then(|| items.get(start..stop))
        .flatten()
        .map(|slice| slice.iter().collect())
        .ok_or_else(|| {
            Error::invalid_input(format!(
                "{what} ({start}, {stop}) is not a range of the {} counted sentences",
                items.len()
            ))
        })
}

fn cells(hypotheses: (usize, usize), references: (usize, usize)) -> usize {
    hypotheses
        .1
        .saturating_sub(hypotheses.0)
        .saturating_mul(references.1.saturating_sub(references.0))
}

/// Counts every line once under `kernel` (BLEU's or chrF's n-grams, TER's tokens) for
/// `pairwise` and `aggregate`.
#[pyfunction]
#[pyo3(signature = (kernel, lines, *, workers = -1))]
pub(crate) fn bags(
    py: Python<'_>,
    kernel: &Bound<'_, PyAny>,
    lines: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Sentences> {
    let kernel = Kernel::extract(kernel)?;
    let stream = StrStream::extract(lines, "lines", false)?;
    let text = stream.borrow_all();
    let watch = stream.bytes() >= WATCH_MIN_BYTES;
    let counted = run_interruptible(py, watch, || match kernel {
        Kernel::Bleu(k) => {
            let pipeline = k.pipeline.clone().ok_or_else(|| {
                Error::invalid_option("pairwise BLEU counts text: give the kernel a tokenizer")
            })?;
            Ok(Counted::Bleu(BleuBags::from_text(
                &text,
                pipeline,
                k.max_order,
            )?))
        }
        Kernel::Chrf(k) => Ok(Counted::Chrf(ChrfBags::from_text(&text, &k.config)?)),
        Kernel::Ter(k) => Ok(Counted::Ter(TerSentences::from_text(
            &text, k.config, workers,
        )?)),
        Kernel::Rouge(k) => Ok(Counted::Rouge(RougeSentences::from_text(&text, &k.config)?)),
        Kernel::Wer(_) | Kernel::Gleu(_) => Err(Error::invalid_option(format!(
            "{} has no counted sentences; score its pairs as segments",
            kernel.name()
        ))),
    })?;
    Ok(Sentences { counted })
}

/// The cells a `pairwise` call asks for: two ranges of counted sentences, rows or scores.
struct Block {
    hypotheses: (usize, usize),
    references: (usize, usize),
    rows: bool,
    workers: i64,
}

/// A block of cells over n-gram bags (BLEU, chrF): their statistics rows, or their scores by
/// `score` (an error, such as a smoothing sacrebleu's scoring lacks, only when scores are
/// asked for), each pair matched once when the two ranges are the same.
fn bag_block<'py, M, S>(
    py: Python<'py>,
    bags: &[NgramBag],
    metric: &M,
    block: &Block,
    score: Result<S>,
) -> PyResult<Bound<'py, PyAny>>
where
    M: for<'b> MirroredRows<'b, NgramBag>,
    S: Fn(&[i64]) -> Result<Vec<f64>> + Sync + Send,
{
    let hyps = range_of(bags, block.hypotheses, "hypotheses")?;
    let refs = range_of(bags, block.references, "references")?;
    let n_cells = cells(block.hypotheses, block.references);
    let (watch, workers) = (n_cells >= WATCH_MIN_CELLS, block.workers);
    if block.rows {
        let out = run_interruptible(py, watch, || driver::rows(&hyps, &refs, metric, workers))?;
        return Ok(rows_array(py, n_cells, metric.width(), out)?.into_any());
    }
    let (score, same) = (score?, block.hypotheses == block.references);
    let scores = run_interruptible(py, watch, || {
        driver::mirrored_scores(&hyps, &refs, same, metric, workers, score)
    })?;
    Ok(rows_array(py, hyps.len(), refs.len(), scores)?.into_any())
}

/// The `(H, R)` float64 matrix of sentence scores of the counted sentences `hypotheses` (a
/// `(start, stop)` range) against each of `references` (another range) as the only
/// reference, under `kernel`'s scoring; with `rows=True`, the `(H * R, width)` int64
/// statistics rows of the cells instead (row-major over cells), for scoring in another
/// upstream's arithmetic. When the two ranges are the same, each pair is matched once for
/// both of its cells.
#[pyfunction]
#[pyo3(signature = (kernel, sentences, hypotheses, references, *, rows = false, workers = -1))]
pub(crate) fn pairwise<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = sentences_arg)] sentences: Bound<'py, Sentences>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::rows_flag)] rows: bool,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyAny>> {
    let kernel = Kernel::extract(kernel)?;
    let n_cells = cells(hypotheses, references);
    let (h, r) = (
        hypotheses.1.saturating_sub(hypotheses.0),
        references.1.saturating_sub(references.0),
    );
    let block = Block {
        hypotheses,
        references,
        rows,
        workers,
    };
    match (&sentences.get().counted, kernel) {
        (Counted::Bleu(bags), Kernel::Bleu(k)) => {
            let metric = BleuBagStats::new(bags, k.max_order, k.ref_length)?;
            let semantics = k.semantics;
            let score = k.sacrebleu().copied().map(|config| {
                move |rows: &[i64]| bleu::scores_from_rows(rows, &config, &semantics)
            });
            bag_block(py, &bags.bags, &metric, &block, score)
        }
        (Counted::Chrf(bags), Kernel::Chrf(k)) => {
            let config = scoring_config(bags, &k.config);
            let score = move |rows: &[i64]| Ok(chrf::scores_from_rows(rows, &config));
            bag_block(py, &bags.bags, &ChrfBagStats::new(bags), &block, Ok(score))
        }
        (Counted::Ter(counted), Kernel::Ter(_)) => {
            if rows {
                return Err(kernel.undefined("pairwise rows"));
            }
            let hyps: Vec<&TerSentence> = range_of(&counted.sentences, hypotheses, "hypotheses")?;
            let refs: Vec<&TerSentence> = range_of(&counted.sentences, references, "references")?;
            let watch = n_cells >= WATCH_MIN_TER_CELLS;
            let scores = run_interruptible(py, watch, || {
                driver::scores(&hyps, &refs, &counted.config(), workers, |rows| {
                    Ok(crate::metrics::ter::row_scores(rows)?
                        .iter()
                        .map(|s| s.score)
                        .collect())
                })
            })?;
            Ok(rows_array(py, h, r, scores)?.into_any())
        }
        (Counted::Rouge(counted), Kernel::Rouge(k)) => {
            if counted.config() != &k.config {
                return Err(Error::invalid_input(
                    "these sentences were read under other ROUGE settings",
                )
                .into());
            }
            let hyps: Vec<&RougeText> = range_of(&counted.sentences, hypotheses, "hypotheses")?;
            let refs: Vec<&RougeText> = range_of(&counted.sentences, references, "references")?;
            let metric = counted.config();
            let (watch, scoring) = (n_cells >= WATCH_MIN_CELLS, metric.scoring());
            let types = scoring.types;
            if rows {
                let out =
                    run_interruptible(py, watch, || driver::rows(&hyps, &refs, &metric, workers))?;
                return Ok(rows_array(py, n_cells, metric.width(), out)?.into_any());
            }
            let scores = run_interruptible(py, watch, || {
                driver::scores(&hyps, &refs, &metric, workers, |rows| {
                    Ok(rouge_score::row_scores(rows, &scoring)
                        .iter()
                        .step_by(types.max(1))
                        .map(|s| 100.0 * s.fmeasure)
                        .collect())
                })
            })?;
            Ok(rows_array(py, h, r, scores)?.into_any())
        }
        (counted, _) => Err(mismatch(counted, kernel)),
    }
}

/// chrF's scoring configuration for bags: the orders and whitespace rule they were counted
/// with, the kernel's beta and smoothing.
fn scoring_config(
    bags: &ChrfBags,
    kernel: &crate::metrics::chrf::ChrfConfig,
) -> crate::metrics::chrf::ChrfConfig {
    crate::metrics::chrf::ChrfConfig {
        factor: kernel.factor,
        one_plus_factor: kernel.one_plus_factor,
        eps_smoothing: kernel.eps_smoothing,
        ..*bags.config()
    }
}

fn mismatch(counted: &Counted, kernel: Kernel<'_>) -> PyErr {
    Error::invalid_input(format!(
        "these sentences were counted for {}, not {}",
        counted.metric(),
        kernel.name()
    ))
    .into()
}

/// Reference aggregation (linear-time MBR, as mbrs computes it): every hypothesis of the
/// counted range `hypotheses` scored against the references' n-gram statistics averaged with
/// `log_weights` (one log weight per reference): float64 `(H,)`. BLEU (DeNero et al. 2009)
/// and chrF (Vamvas & Sennrich 2024).
#[pyfunction]
#[pyo3(signature = (kernel, sentences, hypotheses, references, log_weights, *, workers = -1))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn aggregate<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = sentences_arg)] sentences: Bound<'py, Sentences>,
    #[pyo3(from_py_with = typed::hypotheses_range)] hypotheses: (usize, usize),
    #[pyo3(from_py_with = typed::references_range)] references: (usize, usize),
    #[pyo3(from_py_with = typed::log_weights)] log_weights: Vec<f64>,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let kernel = Kernel::extract(kernel)?;
    let bags: &[NgramBag] = match &sentences.get().counted {
        Counted::Bleu(b) => &b.bags,
        Counted::Chrf(c) => &c.bags,
        counted @ (Counted::Ter(_) | Counted::Rouge(_)) => return Err(mismatch(counted, kernel)),
    };
    let hyps = range_of(bags, hypotheses, "hypotheses")?;
    let refs = range_of(bags, references, "references")?;
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
    let counted = &sentences.get().counted;
    let cells = Aggregation {
        hypotheses: &hyps,
        references: &refs,
        log_weights: &log_weights,
    };
    let scores = match (counted, kernel) {
        (Counted::Bleu(bags), Kernel::Bleu(k)) => {
            let config = *k.sacrebleu()?;
            run_interruptible(py, false, || {
                bleu::pairwise::aggregate_scores(bags, cells, &config, &k.semantics, workers)
            })?
        }
        (Counted::Chrf(bags), Kernel::Chrf(k)) => {
            let config = scoring_config(bags, &k.config);
            run_interruptible(py, false, || {
                chrf::pairwise::aggregate_scores(bags, cells, &config, &k.semantics, workers)
            })?
        }
        (counted, _) => return Err(mismatch(counted, kernel)),
    };
    array1(py, scores)
}
