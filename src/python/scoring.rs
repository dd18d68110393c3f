//! Statistics to scores for every metric, in each upstream's float order: sentence scores,
//! the parts behind them, float32 resample sums (sacrebleu's bootstrap), and the other BLEU
//! implementations' arithmetic. One FFI call per batch; each operation dispatches on a kernel.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::{max_ngram_order, run_interruptible, typed, WATCH_MIN_BYTES};
use super::convert::{array1, ensure_numpy, held_rows, numpy_floats_array, owned_rows};
use super::convert::{TokenLine, TokenLists};
use super::errors::type_error;
use super::errors::type_name;
use super::kernels::{BleuKernel, Kernel};
use crate::error::Error;
use crate::metrics::bleu::arithmetic::{
    self, combine, Arithmetic, ArithmeticError, Combine, CountSmoothing, Counts, Float32Math,
    Precisions,
};
use crate::metrics::rouge::score as rouge;
use crate::resample::numpy_float::{NumpyFloat, Promotion};

impl Kernel<'_> {
    /// The rows as an owned buffer of this kernel's width; `what` names them in errors.
    fn rows(self, rows: &PyReadonlyArray2<'_, i64>) -> PyResult<Vec<i64>> {
        let what = format!("{} statistics", self.name());
        owned_rows(rows, self.width(), &what)
    }

    /// [`Kernel::rows`] for work done while the GIL is held: borrowed where contiguous.
    fn held_rows<'a>(
        self,
        rows: &'a PyReadonlyArray2<'_, i64>,
    ) -> PyResult<std::borrow::Cow<'a, [i64]>> {
        let what = format!("{} statistics", self.name());
        held_rows(rows, self.width(), &what)
    }
}

/// Column sums of row-major rows (wrapping, as numpy's int64 sums do).
fn column_sums(rows: &[i64], width: usize) -> Vec<i64> {
    let mut sums = vec![0i64; width];
    for row in rows.chunks_exact(width.max(1)) {
        for (s, v) in sums.iter_mut().zip(row) {
            *s = s.wrapping_add(*v);
        }
    }
    sums
}

/// The sentence score of every row, as the metric's upstream computes it: float64 `(n,)`
/// (BLEU and chrF in sacrebleu's arithmetic, TER in percent, WER in percent).
#[pyfunction]
pub(crate) fn scores<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::rows_int64)] rows: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let kernel = Kernel::extract(kernel)?;
    let rows = kernel.rows(&rows)?;
    let scores = py.detach(|| -> crate::error::Result<Vec<f64>> {
        match kernel {
            Kernel::Bleu(k) => {
                crate::metrics::bleu::scores_from_rows(&rows, k.sacrebleu()?, &k.semantics)
            }
            Kernel::Chrf(k) => Ok(crate::metrics::chrf::scores_from_rows(&rows, &k.config)),
            Kernel::Ter(_) => Ok(crate::metrics::ter::row_scores(&rows)?
                .iter()
                .map(|s| s.score)
                .collect()),
            Kernel::Wer(k) => Ok(crate::metrics::wer::row_measures(&rows, k.empty_reference)?
                .iter()
                .map(|m| 100.0 * m.wer)
                .collect()),
            Kernel::Gleu(_) => Err(Error::invalid_option(
                "GLEU scores the sums of its rows (n_match / n_all), not each row",
            )),
            // The first type's F-measure, in percent.
            Kernel::Rouge(k) => {
                let scoring = k.config.scoring();
                let types = scoring.types;
                Ok(rouge::row_scores(&rows, &scoring)
                    .iter()
                    .step_by(types.max(1))
                    .map(|s| 100.0 * s.fmeasure)
                    .collect())
            }
        }
    })?;
    array1(py, scores)
}

/// Every row's score with the parts behind it, as a dict of lists (Python floats and ints,
/// what the score objects are made of) named as the metric's result names them: BLEU
/// `score`, `bp`, `precisions` (a list per row) and `smoothed_orders` (the orders add-k
/// smoothing added to), or under the `coco` arithmetic `scores` (Bleu_1 .. Bleu_N), `bp`,
/// `ratio`, `precisions` and `error` (the exception pycocoevalcap would raise); chrF `score`; TER `score`, `edits`, `ref_length`; WER `wer`, `mer`,
/// `wil`, `wip` (fractions). With `corpus=True`, the one corpus result of all rows: the parts
/// of their column sums, which come back as `sums` (one list), and for TER the edits over the
/// per-segment average reference lengths added in row order, as sacrebleu adds them.
#[pyfunction]
#[pyo3(signature = (kernel, rows, *, corpus = false))]
pub(crate) fn details<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::rows_int64)] rows: PyReadonlyArray2<'py, i64>,
    #[pyo3(from_py_with = typed::corpus_flag)] corpus: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let kernel = Kernel::extract(kernel)?;
    let out = PyDict::new(py);
    if let Kernel::Rouge(k) = kernel {
        // Scored holding the GIL (each figure is one pass over the rows), so the array's
        // buffer needs no copy.
        rouge_details(&out, &kernel.held_rows(&rows)?, &k.config.scoring(), corpus)?;
        return Ok(out);
    }
    let mut rows = kernel.rows(&rows)?;
    if corpus {
        if let Kernel::Ter(_) = kernel {
            let s = crate::metrics::ter::corpus_score(&rows)?;
            out.set_item("score", [s.score])?;
            out.set_item("edits", [s.edits])?;
            out.set_item("ref_length", [s.ref_length])?;
            return Ok(out);
        }
        rows = column_sums(&rows, kernel.width());
        out.set_item("sums", [rows.as_slice()])?;
    }
    match kernel {
        Kernel::Bleu(k) if k.arithmetic == Arithmetic::Coco && !corpus => {
            match own_precisions(k)? {
                Some(precisions) => coco_details(py, &out, k, precisions, &rows)?,
                None => {
                    return Err(
                        kernel.undefined("details with a smoothing the coco arithmetic lacks")
                    )
                }
            }
        }
        Kernel::Bleu(k) => {
            let config = k.sacrebleu()?;
            let details = py.detach(|| {
                rows.chunks(config.width())
                    .map(|row| crate::metrics::bleu::score_from_stats(row, config, &k.semantics))
                    .collect::<Result<Vec<_>, _>>()
            })?;
            let column = |f: fn(&crate::metrics::bleu::BleuScore) -> f64| -> Vec<f64> {
                details.iter().map(f).collect()
            };
            out.set_item("score", column(|d| d.score))?;
            out.set_item("bp", column(|d| d.bp))?;
            let smoothed: Vec<usize> = details.iter().map(|d| d.smoothed_orders).collect();
            out.set_item("smoothed_orders", smoothed)?;
            let precisions: Vec<Vec<f64>> = details.into_iter().map(|d| d.precisions).collect();
            out.set_item("precisions", precisions)?;
        }
        Kernel::Chrf(k) => {
            let scores = crate::metrics::chrf::scores_from_rows(&rows, &k.config);
            out.set_item("score", scores)?;
        }
        Kernel::Ter(_) => {
            let scores = crate::metrics::ter::row_scores(&rows)?;
            let edits: Vec<i64> = scores.iter().map(|s| s.edits).collect();
            out.set_item("score", scores.iter().map(|s| s.score).collect::<Vec<_>>())?;
            out.set_item("edits", edits)?;
            let lengths: Vec<f64> = scores.iter().map(|s| s.ref_length).collect();
            out.set_item("ref_length", lengths)?;
        }
        Kernel::Wer(k) => {
            let measures = crate::metrics::wer::row_measures(&rows, k.empty_reference)?;
            let column = |f: fn(&crate::metrics::wer::Measures) -> f64| -> Vec<f64> {
                measures.iter().map(f).collect()
            };
            out.set_item("wer", column(|m| m.wer))?;
            out.set_item("mer", column(|m| m.mer))?;
            out.set_item("wil", column(|m| m.wil))?;
            out.set_item("wip", column(|m| m.wip))?;
        }
        // GLEU's parts are its sums (`n_match / n_all`): only the corpus form has them.
        Kernel::Gleu(_) if corpus => {}
        Kernel::Gleu(_) => return Err(kernel.undefined("details")),
        Kernel::Rouge(_) => {}
    }
    Ok(out)
}

/// ROUGE's details: `precision`, `recall` and `fmeasure`, a list per row with one value per
/// type. With `corpus`, one row: the means of the rows' sentence scores, with `sums` (the
/// summed row) and the micro-averaged scores of the sums (`micro_precision`, ...).
fn rouge_details(
    out: &Bound<'_, PyDict>,
    rows: &[i64],
    scoring: &rouge::Scoring,
    corpus: bool,
) -> PyResult<()> {
    let types = scoring.types;
    let set = |prefix: &str, scores: &[rouge::Prf]| -> PyResult<()> {
        let per_row = |part: fn(&rouge::Prf) -> f64| -> Vec<Vec<f64>> {
            scores
                .chunks(types.max(1))
                .map(|row| row.iter().map(part).collect())
                .collect()
        };
        out.set_item(format!("{prefix}precision"), per_row(|s| s.precision))?;
        out.set_item(format!("{prefix}recall"), per_row(|s| s.recall))?;
        out.set_item(format!("{prefix}fmeasure"), per_row(|s| s.fmeasure))
    };
    if !corpus {
        return set("", &rouge::row_scores(rows, scoring));
    }
    let sums = column_sums(rows, scoring.width());
    set("", &rouge::mean_scores(rows, scoring))?;
    set("micro_", &rouge::row_scores(&sums, scoring))?;
    out.set_item("sums", [sums])
}

/// Scores of resampled column sums as sacrebleu's bootstrap computes them on
/// `numpy.float32` statistics, under the loaded numpy's scalar `promotion` (`"weak"`: numpy
/// 2's NEP 50, `"legacy"`: numpy 1's): `(scores, is_numpy)`, the values as float64 and
/// whether each is a numpy scalar (`numpy.float32` under NEP 50, `numpy.float64` under
/// numpy 1's rule; else a Python float). `sums` is a float32 array (BLEU, chrF, TER) or, for
/// TER's `[edits, reference length]` sums, float64.
#[pyfunction]
#[pyo3(signature = (kernel, sums, *, promotion))]
#[allow(clippy::type_complexity)]
pub(crate) fn resampled_scores<'py>(
    py: Python<'py>,
    kernel: &Bound<'py, PyAny>,
    sums: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::promotion)] promotion: &str,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>)> {
    ensure_numpy(py)?;
    let kernel = Kernel::extract(kernel)?;
    let promotion = Promotion::from_name(promotion)?;
    let float32 = sums.extract::<PyReadonlyArray2<'py, f32>>();
    let scores: Vec<NumpyFloat> = match (kernel, float32) {
        (Kernel::Ter(_), Ok(sums)) => ter_sums(&sums, |v| NumpyFloat::Float32(v, promotion))?,
        (Kernel::Ter(_), Err(_)) => {
            let sums = sums
                .extract::<PyReadonlyArray2<'py, f64>>()
                .map_err(|_| sums_type_error(sums))?;
            ter_sums(&sums, NumpyFloat::Python)?
        }
        (Kernel::Bleu(k), Ok(sums)) => {
            let config = k.sacrebleu()?;
            let rows = owned_rows(&sums, config.width(), "BLEU resample sums")?;
            py.detach(|| {
                rows.chunks_exact(config.width())
                    .map(|row| {
                        NumpyFloat::Python(crate::metrics::bleu::score_from_float32_sums(
                            row,
                            config,
                            &k.semantics,
                            promotion,
                        ))
                    })
                    .collect()
            })
        }
        (Kernel::Chrf(k), Ok(sums)) => {
            let rows = owned_rows(&sums, k.config.width(), "chrF resample sums")?;
            py.detach(|| {
                rows.chunks_exact(k.config.width())
                    .map(|row| crate::metrics::chrf::f_score_float32(row, &k.config, promotion))
                    .collect()
            })
        }
        (Kernel::Bleu(_) | Kernel::Chrf(_), Err(_)) => return Err(sums_type_error(sums)),
        (Kernel::Wer(_) | Kernel::Gleu(_) | Kernel::Rouge(_), _) => {
            return Err(kernel.undefined("resampled_scores"))
        }
    };
    numpy_floats_array(py, &scores)
}

fn sums_type_error(sums: &Bound<'_, PyAny>) -> PyErr {
    type_error(format!(
        "sums must be a 2-D float32 numpy array (float64 for TER), got {}",
        type_name(sums)
    ))
}

/// TER scores of `[edits, reference length]` sums.
fn ter_sums<T>(
    sums: &PyReadonlyArray2<'_, T>,
    as_float: impl Fn(T) -> NumpyFloat,
) -> PyResult<Vec<NumpyFloat>>
where
    T: numpy::Element + Copy,
{
    let rows = owned_rows(sums, 2, "summed TER statistics [edits, reference length]")?;
    Ok(rows
        .chunks_exact(2)
        .map(|r| match *r {
            [edits, length] => {
                crate::metrics::ter::score_from_sums(as_float(edits), as_float(length))
            }
            _ => NumpyFloat::Python(f64::NAN),
        })
        .collect())
}

/// numpy's float32 `log` and `exp` for torchmetrics' arithmetic, which the core takes through
/// its [`Float32Math`] hook; the first Python error is kept and raised after the call.
struct NumpyMath<'py> {
    numpy: Bound<'py, PyModule>,
    error: Option<PyErr>,
}

impl<'py> NumpyMath<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        Ok(Self {
            numpy: py.import("numpy")?,
            error: None,
        })
    }

    fn ln_numpy(&self, values: &[f32]) -> PyResult<Vec<f32>> {
        let array = array1(self.numpy.py(), values.to_vec())?;
        let logs = self.numpy.getattr("log")?.call1((array,))?;
        Ok(logs.cast_into::<PyArray1<f32>>()?.to_vec()?)
    }

    fn exp_numpy(&self, x: f32) -> PyResult<f32> {
        let scalar = self.numpy.getattr("float32")?.call1((f64::from(x),))?;
        self.numpy
            .getattr("exp")?
            .call1((scalar,))?
            .extract::<f32>()
    }

    fn keep<T>(&mut self, result: PyResult<T>, fallback: T) -> T {
        result.unwrap_or_else(|e| {
            self.error.get_or_insert(e);
            fallback
        })
    }

    /// The kept Python error, if any.
    fn check(self) -> PyResult<()> {
        self.error.map_or(Ok(()), Err)
    }
}

impl Float32Math for NumpyMath<'_> {
    fn ln(&mut self, values: &[f32]) -> Vec<f32> {
        let result = self.ln_numpy(values);
        self.keep(result, vec![f32::NAN; values.len()])
    }
    fn exp(&mut self, x: f32) -> f32 {
        let result = self.exp_numpy(x);
        self.keep(result, f32::NAN)
    }
}

/// The exception the upstream's own Python raises (class name, message), which the caller
/// raises; `None` when the upstream returns normally.
type PythonException = Option<(&'static str, &'static str)>;

type ArithmeticTuple = (
    Vec<f64>,
    f64,
    f64,
    Vec<f64>,
    usize,
    (bool, bool, bool, Vec<bool>),
    PythonException,
);

/// The BLEU of summed counts in the arithmetic of the kernel's upstream (its `arithmetic`,
/// weights, effective order, auto_reweigh, smoothing and scale): `(scores, bp, ratio,
/// precisions, smoothed_orders, (scores_int, bp_int, ratio_int, precision_ints), error)`.
/// `smoothed` and `positive` give precisions smoothed by the caller (a smoothing the
/// arithmetic does not compute itself); `item_lengths` the per-item lengths of
/// nlg-metricverse's multi-prediction aggregation. Where the upstream's Python raises
/// (`math.exp` overflow, a division by zero), `error` names the exception instead.
#[pyfunction]
#[pyo3(signature = (kernel, correct, total, *, hyp_len, ref_len, smoothed = None, positive = None, item_lengths = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn arithmetic_score(
    py: Python<'_>,
    kernel: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = typed::correct)] correct: Vec<f64>,
    #[pyo3(from_py_with = typed::total)] total: Vec<f64>,
    #[pyo3(from_py_with = typed::hyp_len)] hyp_len: f64,
    #[pyo3(from_py_with = typed::ref_len)] ref_len: f64,
    #[pyo3(from_py_with = typed::smoothed)] smoothed: Option<Vec<f64>>,
    #[pyo3(from_py_with = typed::positive)] positive: Option<Vec<bool>>,
    #[pyo3(from_py_with = typed::item_lengths)] item_lengths: Option<(f64, f64)>,
) -> PyResult<ArithmeticTuple> {
    let bleu = bleu_kernel(kernel)?;
    let precisions = match (&smoothed, &positive) {
        (Some(values), Some(positive)) if values.len() == positive.len() => {
            Precisions::Given { values, positive }
        }
        (Some(_), _) | (None, Some(_)) => {
            return Err(Error::invalid_input(
                "smoothed and positive go together, one flag per smoothed precision",
            )
            .into())
        }
        (None, None) => own_precisions(bleu)?.unwrap_or(Precisions::Skipped),
    };
    let knobs = combine_knobs(bleu, precisions, item_lengths);
    let counts = Counts {
        hyp_len,
        ref_len,
        correct: &correct,
        total: &total,
    };
    let mut math = NumpyMath::new(py)?;
    let result = combine(&knobs, &counts, &mut math);
    math.check()?;
    match result {
        Ok(s) => Ok((
            s.scores,
            s.bp,
            s.ratio,
            s.precisions,
            s.smoothed_orders,
            (s.ints.scores, s.ints.bp, s.ints.ratio, s.ints.precisions),
            None,
        )),
        Err(ArithmeticError::Core(e)) => Err(e.into()),
        Err(ArithmeticError::Python(e)) => Ok((
            Vec::new(),
            0.0,
            0.0,
            Vec::new(),
            0,
            (false, false, false, Vec::new()),
            Some((e.class_name(), e.message())),
        )),
    }
}

/// The combine step's knobs of `bleu` with these precisions.
fn combine_knobs<'a>(
    bleu: &'a BleuKernel,
    precisions: Precisions<'a>,
    item_lengths: Option<(f64, f64)>,
) -> Combine<'a> {
    Combine {
        arithmetic: bleu.arithmetic,
        precisions,
        weights: &bleu.weights,
        uniform_weights: bleu.uniform_weights,
        effective_order: bleu.effective_order,
        auto_reweigh: bleu.auto_reweigh,
        item_lengths,
        scale: bleu.scale,
        semantics: bleu.semantics,
    }
}

/// The precisions the kernel's arithmetic computes from the counts with its smoothing, or
/// `None` where the smoothing is not the arithmetic's own (the caller smooths).
fn own_precisions(bleu: &BleuKernel) -> crate::error::Result<Option<Precisions<'static>>> {
    let smoothing = bleu.smooth_method.as_str();
    if !bleu.arithmetic.own_smoothings().contains(&smoothing) {
        return Ok(None);
    }
    Ok(Some(Precisions::Own(CountSmoothing::from_name(
        smoothing,
        bleu.smooth_value,
    )?)))
}

/// pycocoevalcap's per-image BLEU of every row in the `coco` arithmetic with its own guard
/// against zero counts (no smoothing from the caller): `scores` (Bleu_1 .. Bleu_N per row),
/// `bp`, `ratio` and `precisions`, what `arithmetic_score` gives for each row alone, and
/// `error`: the exception upstream's Python raises at the first row that raises one (rows no
/// counting makes: `math.exp`'s overflow), as `(class name, message)`, or `None`.
fn coco_details(
    py: Python<'_>,
    out: &Bound<'_, PyDict>,
    bleu: &BleuKernel,
    precisions: Precisions<'_>,
    rows: &[i64],
) -> PyResult<()> {
    let n = bleu.max_order;
    let knobs = combine_knobs(bleu, precisions, None);
    #[allow(clippy::cast_precision_loss)] // counts, as Python's float() of them
    let as_f64 = |cells: &[i64]| -> Vec<f64> { cells.iter().map(|&c| c as f64).collect() };
    let (results, error) = py.detach(|| {
        let mut results = Vec::with_capacity(rows.len() / (2 + 2 * n));
        for row in rows.chunks_exact(2 + 2 * n) {
            let (lengths, counts) = row.split_at(2);
            let (correct, total) = counts.split_at(n);
            let (correct, total, lengths) = (as_f64(correct), as_f64(total), as_f64(lengths));
            let counts = Counts {
                hyp_len: lengths.first().copied().unwrap_or(0.0),
                ref_len: lengths.get(1).copied().unwrap_or(0.0),
                correct: &correct,
                total: &total,
            };
            match combine(&knobs, &counts, &mut arithmetic::Libm) {
                Ok(score) => results.push(score),
                Err(ArithmeticError::Core(e)) => return Err(e),
                Err(ArithmeticError::Python(e)) => {
                    return Ok((results, Some((e.class_name(), e.message()))))
                }
            }
        }
        Ok((results, None))
    })?;
    let scores: Vec<&[f64]> = results.iter().map(|r| r.scores.as_slice()).collect();
    out.set_item("scores", scores)?;
    out.set_item("bp", results.iter().map(|r| r.bp).collect::<Vec<_>>())?;
    out.set_item("ratio", results.iter().map(|r| r.ratio).collect::<Vec<_>>())?;
    let precisions: Vec<&[f64]> = results.iter().map(|r| r.precisions.as_slice()).collect();
    out.set_item("precisions", precisions)?;
    out.set_item("error", error)
}

/// The `BleuKernel` behind `kernel`, or an error naming what was given.
fn bleu_kernel<'a>(kernel: &'a Bound<'_, PyAny>) -> PyResult<&'a BleuKernel> {
    match Kernel::extract(kernel)? {
        Kernel::Bleu(k) => Ok(k),
        other => Err(other.undefined("BLEU arithmetic")),
    }
}

/// The brevity penalty of `hyp_len` tokens against `ref_len` in the float operations of
/// `arithmetic` (one of `ARITHMETICS`): `(value, is_int, error)`, `error` naming the
/// exception the upstream's Python raises instead.
#[pyfunction]
#[pyo3(signature = (hyp_len, ref_len, *, arithmetic))]
pub(crate) fn brevity_penalty(
    py: Python<'_>,
    #[pyo3(from_py_with = typed::hyp_len)] hyp_len: f64,
    #[pyo3(from_py_with = typed::ref_len)] ref_len: f64,
    #[pyo3(from_py_with = typed::arithmetic)] arithmetic: &str,
) -> PyResult<(f64, bool, PythonException)> {
    let arithmetic = Arithmetic::from_name(arithmetic)?;
    let mut math = NumpyMath::new(py)?;
    let result = arithmetic::brevity_penalty(arithmetic, hyp_len, ref_len, &mut math);
    math.check()?;
    Ok(match result {
        Ok(p) => (p.value, p.int, None),
        Err(e) => (0.0, false, Some((e.class_name(), e.message()))),
    })
}

/// The smoothing methods each arithmetic computes from the counts itself.
pub(crate) fn own_smoothings() -> Vec<(&'static str, Vec<&'static str>)> {
    Arithmetic::NAMES
        .iter()
        .filter_map(|name| Arithmetic::from_name(name).ok())
        .map(|a| (a.name(), a.own_smoothings().to_vec()))
        .collect()
}

/// Per order `1..=max_order`, the distinct n-grams of one tokenized hypothesis in order of
/// first occurrence: `(ngram, count, max_ref_count, clipped)` (`explain`).
#[pyfunction]
#[pyo3(signature = (hypothesis, references, *, max_order))]
pub(crate) fn ngram_details<'py>(
    py: Python<'py>,
    hypothesis: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = max_ngram_order)] max_order: usize,
) -> PyResult<Bound<'py, PyList>> {
    let hyp = TokenLine::extract(hypothesis, "hypothesis")?;
    let refs = TokenLists::extract(references, "references")?;
    let (tokens, ref_tokens) = (hyp.borrow(), refs.borrow());
    let watch = refs.bytes() >= WATCH_MIN_BYTES;
    let orders = run_interruptible(py, watch, || {
        crate::metrics::bleu::details::ngram_details(&tokens, &ref_tokens, max_order)
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
