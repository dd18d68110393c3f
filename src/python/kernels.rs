//! A metric's configuration as one Python object: the kernels.
//!
//! Each metric's settings cross the FFI once, as a frozen object checked when it is made
//! (`_core.BleuKernel(...)`, `_core.ChrfKernel(...)`, ...). The generic operations
//! (`statistics.rs`, `scoring.rs`, `pairwise.rs`, `text.rs`) take any kernel and dispatch on
//! it through [`Kernel`] to the core's traits, so a new metric adds a kernel class and the
//! arms of [`Kernel`]'s methods, never a new `#[pyfunction]`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::{PyClass, PyClassInitializer};

use super::args::typed;
use super::errors::{type_error, type_name};
use super::text::MecabTagger;
use crate::error::{Error, Result};
use crate::metrics::bleu::arithmetic::Arithmetic;
use crate::metrics::bleu::{BleuConfig, FloatSemantics, RefLength, Smoothing, StatsOptions};
use crate::metrics::chrf::ChrfConfig;
use crate::metrics::cider::score::{order_sums, CaptionIds, CiderSettings};
use crate::metrics::cider::CiderCaptions;
use crate::metrics::gleu::{GleuConfig, GleuStats};
use crate::metrics::rouge::{MultiReference, RougeConfig, RougeTokenizer, RougeType};
use crate::metrics::ter::TerTokenizerConfig;
use crate::metrics::wer::{EditRules, EmptyReference, KaldiAlign, Split, Unit, WerStats};
use crate::text::normalize::Normalization;
use crate::tokenize::mecab::MecabModel;
use crate::tokenize::{Pipeline, Tokenizer};

/// The text pipeline for a tokenizer name and an optional normalization; `None` (no
/// tokenizer) means the caller passes token lists, which take no normalization.
/// sacrebleu's MeCab tokenizers: no name builds them, the kernel takes the loaded model.
const MECAB_TOKENIZERS: [&str; 2] = ["ja-mecab", "ko-mecab"];

/// The `tagger` argument: a loaded MeCab model, or `None`.
fn tagger(value: &Bound<'_, PyAny>) -> PyResult<Option<Arc<MecabModel>>> {
    if value.is_none() {
        return Ok(None);
    }
    let tagger = value.cast::<MecabTagger>().map_err(|_| {
        type_error(format!(
            "tagger must be a MecabTagger or None, got {}",
            type_name(value)
        ))
    })?;
    Ok(Some(Arc::clone(&tagger.get().model)))
}

fn pipeline(
    tokenizer: Option<&str>,
    normalize: Option<&str>,
    tagger: Option<Arc<MecabModel>>,
) -> Result<Option<Pipeline>> {
    let normalization = normalize.map(Normalization::from_name).transpose()?;
    let mecab = tokenizer.is_some_and(|name| MECAB_TOKENIZERS.contains(&name));
    match (tagger, mecab) {
        (Some(model), true) => return Ok(Some(Pipeline::mecab(normalization, model))),
        (None, true) => {
            return Err(Error::invalid_option(format!(
                "tokenizer {:?} runs a loaded MeCab model: pass tagger=MecabTagger(...)",
                tokenizer.unwrap_or_default()
            )));
        }
        (Some(_), false) => {
            return Err(Error::invalid_option(format!(
                "tagger= goes with tokenizer {}, not {tokenizer:?}",
                MECAB_TOKENIZERS.join(" or ")
            )));
        }
        (None, false) => {}
    }
    match tokenizer {
        Some(name) => Ok(Some(Pipeline {
            normalization,
            tokenizer: Tokenizer::from_name(name)?,
        })),
        None if normalization.is_some() => Err(Error::invalid_option(
            "normalize= applies to text, but tokenizer=None takes token lists counted as given: \
             normalize the tokens first, or pass text with a tokenizer name",
        )),
        None => Ok(None),
    }
}

/// What every metric kernel has: the shape of its statistics rows. (The metric kernels
/// below extend it; their settings are their own.)
#[pyclass(module = "bleuprint._core", frozen, subclass)]
pub(crate) struct MetricKernel;

/// A kernel's Python object: its settings over the shared base.
fn extended<K: PyClass<BaseType = MetricKernel>>(kernel: K) -> PyClassInitializer<K> {
    PyClassInitializer::from(MetricKernel).add_subclass(kernel)
}

#[pymethods]
impl MetricKernel {
    /// Columns of a statistics row.
    #[getter]
    fn width(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Kernel::extract(slf.as_any())?.width())
    }

    /// The names of a statistics row's columns.
    #[getter]
    fn column_names(slf: &Bound<'_, Self>) -> PyResult<Vec<String>> {
        Ok(Kernel::extract(slf.as_any())?.column_names())
    }
}

/// BLEU's settings: how text becomes n-gram counts (tokenizer, normalization, orders,
/// reference length rule) and how counts become a score (sacrebleu's smoothing and effective
/// order, or another upstream's arithmetic, weights and scale).
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct BleuKernel {
    /// `None`: the caller passes token lists.
    pub(crate) pipeline: Option<Pipeline>,
    pub(crate) ref_length: RefLength,
    pub(crate) max_order: usize,
    /// sacrebleu's scoring, when `smooth_method` is one of sacrebleu's four.
    pub(crate) sacrebleu: Option<BleuConfig>,
    pub(crate) semantics: FloatSemantics,
    pub(crate) arithmetic: Arithmetic,
    pub(crate) smooth_method: String,
    pub(crate) smooth_value: Option<f64>,
    pub(crate) effective_order: bool,
    /// The weight sets (uniform over `max_order` unless given).
    pub(crate) weights: Vec<Vec<f64>>,
    /// Whether the weights are the uniform default (the arithmetic then weights the orders
    /// in use, as each upstream does).
    pub(crate) uniform_weights: bool,
    pub(crate) auto_reweigh: bool,
    pub(crate) scale: u32,
    tokenizer_name: Option<String>,
}

impl BleuKernel {
    /// The statistics stage's BLEU metric for this kernel's pipeline (text) or token lists.
    pub(crate) fn stats_metric(&self) -> Result<crate::metrics::bleu::stats::BleuStats> {
        let options = StatsOptions {
            pipeline: self
                .pipeline
                .clone()
                .unwrap_or_else(|| Pipeline::from(Tokenizer::None)),
            ref_length: self.ref_length,
        };
        crate::metrics::bleu::stats::BleuStats::new(options, &self.counting())
    }

    /// The counting configuration: the orders only.
    pub(crate) fn counting(&self) -> BleuConfig {
        BleuConfig {
            max_order: self.max_order,
            ..BleuConfig::default()
        }
    }

    /// sacrebleu's scoring configuration, or an error naming why this kernel has none.
    pub(crate) fn sacrebleu(&self) -> Result<&BleuConfig> {
        self.sacrebleu.as_ref().ok_or_else(|| {
            Error::invalid_option(format!(
                "smooth_method {:?} is not one of sacrebleu's ({}); score these counts with the \
                 arithmetic of their preset",
                self.smooth_method,
                Smoothing::NAMES.join(", ")
            ))
        })
    }
}

#[pymethods]
impl BleuKernel {
    #[new]
    #[pyo3(signature = (*, tokenizer = Some("13a"), normalize = None, max_order = 4, ref_length = "closest", smooth_method = "exp", smooth_value = None, effective_order = false, compensated_sum = false, arithmetic = "sacrebleu", weights = None, uniform_weights = None, auto_reweigh = false, scale = 100, tagger = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
        #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
        #[pyo3(from_py_with = super::args::max_ngram_order)] max_order: usize,
        #[pyo3(from_py_with = typed::ref_length)] ref_length: &str,
        #[pyo3(from_py_with = typed::smooth_method)] smooth_method: &str,
        #[pyo3(from_py_with = typed::smooth_value)] smooth_value: Option<f64>,
        #[pyo3(from_py_with = typed::effective_order)] effective_order: bool,
        #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
        #[pyo3(from_py_with = typed::arithmetic)] arithmetic: &str,
        #[pyo3(from_py_with = typed::optional_weights)] weights: Option<Vec<Vec<f64>>>,
        #[pyo3(from_py_with = typed::optional_uniform_weights)] uniform_weights: Option<bool>,
        #[pyo3(from_py_with = typed::auto_reweigh)] auto_reweigh: bool,
        #[pyo3(from_py_with = super::args::scale)] scale: u32,
        #[pyo3(from_py_with = tagger)] tagger: Option<Arc<MecabModel>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let sacrebleu = if Smoothing::NAMES.contains(&smooth_method) {
            let config = BleuConfig {
                max_order,
                smoothing: Smoothing::from_name(smooth_method, smooth_value)?,
                effective_order,
            };
            config.validate()?;
            Some(config)
        } else {
            None
        };
        let arithmetic = Arithmetic::from_name(arithmetic)?;
        Ok(extended(Self {
            pipeline: pipeline(tokenizer, normalize, tagger)?,
            ref_length: RefLength::from_name(ref_length)?,
            max_order,
            sacrebleu,
            semantics: FloatSemantics { compensated_sum },
            arithmetic,
            smooth_method: smooth_method.to_owned(),
            smooth_value,
            effective_order,
            uniform_weights: uniform_weights.unwrap_or(weights.is_none()),
            #[allow(clippy::cast_precision_loss)] // an order of at most 255
            weights: weights.unwrap_or_else(|| vec![vec![1.0 / max_order as f64; max_order]]),
            auto_reweigh,
            scale,
            tokenizer_name: tokenizer.map(str::to_owned),
        }))
    }

    /// Self-BLEU's rows, `(n, 2 + 2 * max_order)`: each of `sentences` (token lists) clipped
    /// against all the others (all of them, itself too, with `include_self`), its reference
    /// length the closest among them ([`crate::metrics::bleu::self_bleu`]).
    #[pyo3(signature = (sentences, *, include_self = false, workers = -1))]
    fn self_stats<'py>(
        &self,
        py: Python<'py>,
        sentences: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = typed::include_self)] include_self: bool,
        #[pyo3(from_py_with = super::args::workers)] workers: i64,
    ) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let lists = super::convert::TokenLists::extract(sentences, "sentences")?;
        let watch = lists.bytes() >= super::args::WATCH_MIN_BYTES;
        let sentences = lists.borrow();
        let max_order = self.max_order;
        let rows = super::args::run_interruptible(py, watch, || {
            crate::metrics::bleu::self_bleu::self_bleu_rows(
                &sentences,
                max_order,
                include_self,
                workers,
            )
        })?;
        super::convert::rows_array(py, sentences.len(), 2 + 2 * max_order, rows)
    }

    fn __repr__(&self) -> String {
        format!(
            "BleuKernel(tokenizer={}, max_order={}, ref_length={:?}, smooth_method={:?}, \
             arithmetic={:?})",
            self.tokenizer_name
                .as_deref()
                .map_or_else(|| "None".to_owned(), |name| format!("{name:?}")),
            self.max_order,
            self.ref_length.name(),
            self.smooth_method,
            self.arithmetic.name()
        )
    }
}

/// chrF's settings: character and word orders, beta (as `beta ** 2` and `1 + beta ** 2`,
/// computed by the caller with Python numbers), whitespace and smoothing.
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct ChrfKernel {
    pub(crate) config: ChrfConfig,
    pub(crate) semantics: FloatSemantics,
}

#[pymethods]
impl ChrfKernel {
    #[new]
    #[pyo3(signature = (*, char_order = 6, word_order = 0, factor = 4.0, one_plus_factor = 5.0, whitespace = false, eps_smoothing = false, compensated_sum = false))]
    fn new(
        #[pyo3(from_py_with = super::args::char_order)] char_order: usize,
        #[pyo3(from_py_with = super::args::word_order)] word_order: usize,
        #[pyo3(from_py_with = typed::factor)] factor: f64,
        #[pyo3(from_py_with = typed::one_plus_factor)] one_plus_factor: f64,
        #[pyo3(from_py_with = typed::whitespace)] whitespace: bool,
        #[pyo3(from_py_with = typed::eps_smoothing)] eps_smoothing: bool,
        #[pyo3(from_py_with = typed::compensated_sum)] compensated_sum: bool,
    ) -> PyResult<PyClassInitializer<Self>> {
        let config = ChrfConfig {
            char_order,
            word_order,
            factor,
            one_plus_factor,
            whitespace,
            eps_smoothing,
        };
        config.validate()?;
        Ok(extended(Self {
            config,
            semantics: FloatSemantics { compensated_sum },
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "ChrfKernel(char_order={}, word_order={})",
            self.config.char_order, self.config.word_order
        )
    }
}

/// TER's settings: the Tercom tokenizer's options.
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct TerKernel {
    pub(crate) config: TerTokenizerConfig,
}

#[pymethods]
impl TerKernel {
    #[new]
    #[pyo3(signature = (*, normalized = false, no_punct = false, asian_support = false))]
    fn new(
        #[pyo3(from_py_with = typed::normalized)] normalized: bool,
        #[pyo3(from_py_with = typed::no_punct)] no_punct: bool,
        #[pyo3(from_py_with = typed::asian_support)] asian_support: bool,
    ) -> PyClassInitializer<Self> {
        extended(Self {
            config: TerTokenizerConfig {
                normalized,
                no_punct,
                asian_support,
            },
        })
    }

    fn __repr__(&self) -> String {
        let c = self.config;
        format!(
            "TerKernel(normalized={}, no_punct={}, asian_support={})",
            c.normalized, c.no_punct, c.asian_support
        )
    }
}

/// The WER family's settings: words or characters, jiwer's whitespace cleanup or none, and
/// the rule for segments without reference words.
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct WerKernel {
    pub(crate) split: Split,
    /// A text normalizer the core applies before splitting (`WER(normalizer=...)`).
    pub(crate) normalize: Option<Normalization>,
    /// Whose alignment: RapidFuzz's (jiwer's), or kaldialign's.
    pub(crate) rules: EditRules,
    pub(crate) empty_reference: EmptyReference,
}

impl WerKernel {
    /// Every line under the kernel's normalizer, owned (`None` stays `None`); `None` without
    /// a normalizer. An error names the line (`name[offset + i]`).
    pub(crate) fn normalized(
        &self,
        lines: &[Option<&str>],
        name: &str,
        offset: usize,
        workers: i64,
    ) -> Result<Option<Vec<Option<String>>>> {
        let Some(form) = self.normalize else {
            return Ok(None);
        };
        let out = crate::parallel::map_range(lines.len(), workers, |i| {
            let Some(Some(line)) = lines.get(i) else {
                return Ok(None);
            };
            form.apply(line).map(|s| Some(s.into_owned())).map_err(|e| {
                let at = offset + i;
                Error::new(e.kind(), format!("{name}[{at}]: {}", e.message()))
            })
        })?;
        out.into_iter().collect::<Result<Vec<_>>>().map(Some)
    }

    /// The statistics stage's WER metric.
    pub(crate) fn stats(&self) -> WerStats {
        WerStats {
            split: self.split,
            rules: self.rules,
        }
    }
}

#[pymethods]
impl WerKernel {
    #[new]
    #[pyo3(signature = (
        *, unit = "word", raw = false, empty_reference = "ratio", aligner = "rapidfuzz",
        sclite = false, merge_compounds = false, compound_pairs = false, normalize = None
    ))]
    #[allow(clippy::too_many_arguments)] // one per constructor keyword
    fn new(
        #[pyo3(from_py_with = typed::unit)] unit: &str,
        #[pyo3(from_py_with = typed::raw)] raw: bool,
        #[pyo3(from_py_with = typed::empty_reference)] empty_reference: &str,
        #[pyo3(from_py_with = typed::aligner)] aligner: &str,
        #[pyo3(from_py_with = typed::sclite)] sclite: bool,
        #[pyo3(from_py_with = typed::merge_compounds)] merge_compounds: bool,
        #[pyo3(from_py_with = typed::compound_pairs)] compound_pairs: bool,
        #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let kaldi = KaldiAlign {
            sclite,
            merge_compounds,
            compound_pairs,
        };
        let rules = match aligner {
            "rapidfuzz" if kaldi == KaldiAlign::default() => EditRules::RapidFuzz,
            "kaldialign" => EditRules::Kaldi(kaldi),
            "rapidfuzz" => {
                return Err(crate::error::Error::invalid_option(
                    "sclite, merge_compounds and compound_pairs are kaldialign's options: use \
                     aligner=\"kaldialign\"",
                )
                .into())
            }
            other => {
                return Err(crate::error::Error::invalid_option(format!(
                    "unknown aligner {other:?}; expected \"rapidfuzz\" or \"kaldialign\""
                ))
                .into())
            }
        };
        let unit = Unit::from_name(unit)?;
        rules.check(unit)?;
        Ok(extended(Self {
            split: Split { unit, raw },
            normalize: normalize.map(Normalization::from_name).transpose()?,
            rules,
            empty_reference: EmptyReference::from_name(empty_reference)?,
        }))
    }

    fn __repr__(&self) -> String {
        let (aligner, kaldi) = match self.rules {
            EditRules::RapidFuzz => ("rapidfuzz", KaldiAlign::default()),
            EditRules::Kaldi(k) => ("kaldialign", k),
        };
        format!(
            "WerKernel(unit={:?}, raw={}, empty_reference={:?}, aligner={aligner:?}, \
             sclite={}, merge_compounds={}, compound_pairs={})",
            self.split.unit.name(),
            self.split.raw,
            self.empty_reference.name(),
            kaldi.sclite,
            kaldi.merge_compounds,
            kaldi.compound_pairs,
        )
    }
}

/// GLEU's settings (nltk's `corpus_gleu`, HF's `google_bleu`): the tokenizer (or token lists)
/// and the n-gram lengths.
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct GleuKernel {
    pub(crate) pipeline: Option<Pipeline>,
    pub(crate) config: GleuConfig,
}

impl GleuKernel {
    /// The statistics stage's GLEU metric.
    pub(crate) fn stats_metric(&self) -> Result<GleuStats> {
        let pipeline = self
            .pipeline
            .clone()
            .unwrap_or_else(|| Pipeline::from(Tokenizer::None));
        GleuStats::new(pipeline, &self.config)
    }
}

#[pymethods]
impl GleuKernel {
    #[new]
    #[pyo3(signature = (*, tokenizer = Some("13a"), normalize = None, min_len = 1, max_len = 4))]
    fn new(
        #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
        #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
        #[pyo3(from_py_with = super::args::min_len)] min_len: usize,
        #[pyo3(from_py_with = super::args::max_len)] max_len: usize,
    ) -> PyResult<PyClassInitializer<Self>> {
        let config = GleuConfig { min_len, max_len };
        config.validate()?;
        Ok(extended(Self {
            pipeline: pipeline(tokenizer, normalize, None)?,
            config,
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "GleuKernel(min_len={}, max_len={})",
            self.config.min_len, self.config.max_len
        )
    }
}

/// ROUGE's settings: the types (one `[match, hyp, ref]` triple each, in order) and how text
/// becomes tokens: rouge-score's default tokenizer (optionally stemmed), a bleuprint
/// tokenizer, or `tokenizer=None` for tokens the caller split (`"whole\nline 1\nline 2"`,
/// tokens separated by spaces).
#[pyclass(module = "bleuprint._core", frozen, extends = MetricKernel)]
pub(crate) struct RougeKernel {
    pub(crate) config: RougeConfig,
}

#[pymethods]
impl RougeKernel {
    #[new]
    #[pyo3(signature = (*, types, tokenizer = Some("rouge"), stem = false, normalize = None, tagger = None, multi_reference = "best-f", beta = 1.0))]
    #[allow(clippy::too_many_arguments)] // the ROUGE settings, each a keyword
    fn new(
        #[pyo3(from_py_with = super::args::rouge_types)] types: Vec<String>,
        #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
        #[pyo3(from_py_with = typed::stem)] stem: bool,
        #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
        #[pyo3(from_py_with = tagger)] tagger: Option<Arc<MecabModel>>,
        #[pyo3(from_py_with = typed::multi_reference)] multi_reference: &str,
        #[pyo3(from_py_with = typed::beta)] beta: f64,
    ) -> PyResult<PyClassInitializer<Self>> {
        let types = types
            .iter()
            .map(|name| RougeType::from_name(name))
            .collect::<Result<Vec<_>>>()?;
        let tokenizer = match tokenizer {
            Some("rouge") if tagger.is_none() && normalize.is_none() => {
                RougeTokenizer::Default { stem }
            }
            Some("rouge") => {
                return Err(Error::invalid_option(
                    "rouge-score's tokenizer takes no normalize= or tagger=",
                )
                .into())
            }
            Some("split-space") if !stem && tagger.is_none() && normalize.is_none() => {
                RougeTokenizer::SplitSpace
            }
            Some("split-space") => {
                return Err(Error::invalid_option(
                    "tokenizer 'split-space' (str.split(' ')) takes no stem=, normalize= or \
                     tagger=",
                )
                .into())
            }
            _ if stem => {
                return Err(Error::invalid_option(format!(
                    "stem=True applies rouge-score's Porter stemmer to its own tokenizer's \
                     tokens, not to tokenizer {tokenizer:?}"
                ))
                .into())
            }
            _ => pipeline(tokenizer, normalize, tagger)?
                .map_or(RougeTokenizer::PreSplit, RougeTokenizer::Pipeline),
        };
        let config = RougeConfig {
            references: MultiReference::from_name(multi_reference)?,
            beta,
            ..RougeConfig::rouge_score(types, tokenizer)
        };
        config.validate()?;
        Ok(extended(Self { config }))
    }

    fn __repr__(&self) -> String {
        let types: Vec<String> = self.config.types.iter().map(|t| t.name()).collect();
        let tokenizer = match &self.config.tokenizer {
            RougeTokenizer::Default { stem } => format!("\"rouge\", stem={stem}"),
            RougeTokenizer::Pipeline(p) => format!("{:?}", p.tokenizer.name()),
            RougeTokenizer::PreSplit => "None".to_owned(),
            RougeTokenizer::SplitSpace => "\"split-space\"".to_owned(),
        };
        let (references, beta) = (self.config.references.name(), self.config.beta);
        format!(
            "RougeKernel(types={types:?}, tokenizer={tokenizer}, multi_reference={references:?}, \
             beta={beta:?})"
        )
    }
}

/// CIDEr-D's settings: how captions become tokens, the n-gram orders, the sums per image and
/// the length penalty's `2 * sigma**2`. Its statistics are captions as token ids, not rows
/// (an image's score depends on every image's references), so instead of the generic
/// operations it has its own two: `count` (text to token ids) and `order_sums` (token ids to
/// each image's per-order sums over its references).
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct CiderKernel {
    pipeline: Pipeline,
    settings: CiderSettings,
}

/// A 1-D int64 array's values as `T`, each checked (`what` names the array).
fn checked_values<T: TryFrom<i64>>(
    array: &numpy::PyReadonlyArray1<'_, i64>,
    what: &str,
) -> PyResult<Vec<T>> {
    array
        .as_array()
        .iter()
        .map(|&v| {
            T::try_from(v).map_err(|_| {
                Error::invalid_input(format!("CIDEr-D statistics: {what} holds {v}")).into()
            })
        })
        .collect()
}

#[pymethods]
impl CiderKernel {
    #[new]
    #[pyo3(signature = (*, tokenizer = "none", normalize = None, orders = 4, columns = 4, two_sigma_squared = 72.0))]
    fn new(
        #[pyo3(from_py_with = typed::optional_tokenizer)] tokenizer: Option<&str>,
        #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
        #[pyo3(from_py_with = super::args::cider_orders)] orders: usize,
        #[pyo3(from_py_with = super::args::cider_columns)] columns: usize,
        #[pyo3(from_py_with = typed::two_sigma_squared)] two_sigma_squared: f64,
    ) -> PyResult<Self> {
        let Some(pipeline) = pipeline(tokenizer, normalize, None)? else {
            return Err(Error::invalid_option("CIDEr-D counts text: name a tokenizer").into());
        };
        let settings = CiderSettings {
            orders,
            columns,
            two_sigma_squared,
        };
        settings.validate()?;
        Ok(Self { pipeline, settings })
    }

    /// The captions of `hypotheses` and their reference streams as token ids:
    /// `(tokens, ids, caption_ends, image_ends)`, counted on `workers` threads.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (hypotheses, references, *, workers = -1))]
    fn count<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = super::args::workers)] workers: i64,
    ) -> PyResult<(
        Vec<String>,
        Bound<'py, numpy::PyArray1<i64>>,
        Bound<'py, numpy::PyArray1<i64>>,
        Bound<'py, numpy::PyArray1<i64>>,
    )> {
        let input = super::convert::StreamInput::extract(hypotheses, references, -1)?;
        let watch = input.bytes() >= super::args::WATCH_MIN_BYTES;
        let (hypotheses, streams) = input.borrow();
        let counted = super::args::run_interruptible(py, watch, || {
            CiderCaptions::count(&hypotheses, &streams, &self.pipeline, workers)
        })?;
        let as_i64 = |values: Vec<usize>| -> Vec<i64> {
            values
                .into_iter()
                .map(|v| i64::try_from(v).unwrap_or(i64::MAX))
                .collect()
        };
        let ids = counted.ids.into_iter().map(i64::from).collect();
        Ok((
            counted.tokens,
            super::convert::array1(py, ids)?,
            super::convert::array1(py, as_i64(counted.caption_ends))?,
            super::convert::array1(py, as_i64(counted.image_ends))?,
        ))
    }

    /// Each image's per-order sums over its references, shape `(images, columns)`, from
    /// token ids as `count` returns them; `log_table[k]` is `numpy.log(max(1.0, k))` for `k`
    /// from 0 to the number of images at least.
    #[pyo3(signature = (tokens, caption_ends, image_ends, log_table, *, workers = -1))]
    fn order_sums<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = typed::tokens)] tokens: numpy::PyReadonlyArray1<'py, i64>,
        #[pyo3(from_py_with = typed::caption_ends)] caption_ends: numpy::PyReadonlyArray1<'py, i64>,
        #[pyo3(from_py_with = typed::image_ends)] image_ends: numpy::PyReadonlyArray1<'py, i64>,
        #[pyo3(from_py_with = typed::log_table)] log_table: numpy::PyReadonlyArray1<'py, f64>,
        #[pyo3(from_py_with = super::args::workers)] workers: i64,
    ) -> PyResult<Bound<'py, numpy::PyArray2<f64>>> {
        let ids: Vec<u32> = checked_values(&tokens, "tokens")?;
        let caption_ends: Vec<usize> = checked_values(&caption_ends, "caption_ends")?;
        let image_ends: Vec<usize> = checked_values(&image_ends, "image_ends")?;
        let log_table = log_table.as_array().to_vec();
        let captions = CaptionIds {
            ids: &ids,
            caption_ends: &caption_ends,
            image_ends: &image_ends,
        };
        let watch = ids.len() >= super::args::WATCH_MIN_BYTES;
        let settings = self.settings;
        let sums = super::args::run_interruptible(py, watch, || {
            order_sums(&captions, &log_table, settings, workers)
        })?;
        super::convert::rows_array(py, image_ends.len(), settings.columns, sums)
    }

    fn __repr__(&self) -> String {
        let CiderSettings {
            orders,
            columns,
            two_sigma_squared,
        } = self.settings;
        format!(
            "CiderKernel(tokenizer={:?}, orders={orders}, columns={columns}, \
             two_sigma_squared={two_sigma_squared:?})",
            self.pipeline.tokenizer.name()
        )
    }
}

/// Any kernel, borrowed from its Python object: what every generic operation dispatches on.
#[derive(Clone, Copy)]
pub(crate) enum Kernel<'a> {
    Bleu(&'a BleuKernel),
    Chrf(&'a ChrfKernel),
    Ter(&'a TerKernel),
    Wer(&'a WerKernel),
    Gleu(&'a GleuKernel),
    Rouge(&'a RougeKernel),
}

impl<'a> Kernel<'a> {
    /// The kernel behind `value`, or an `InputTypeError` naming what was given.
    pub(crate) fn extract(value: &'a Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(k) = value.cast::<BleuKernel>() {
            return Ok(Self::Bleu(k.get()));
        }
        if let Ok(k) = value.cast::<ChrfKernel>() {
            return Ok(Self::Chrf(k.get()));
        }
        if let Ok(k) = value.cast::<TerKernel>() {
            return Ok(Self::Ter(k.get()));
        }
        if let Ok(k) = value.cast::<WerKernel>() {
            return Ok(Self::Wer(k.get()));
        }
        if let Ok(k) = value.cast::<GleuKernel>() {
            return Ok(Self::Gleu(k.get()));
        }
        if let Ok(k) = value.cast::<RougeKernel>() {
            return Ok(Self::Rouge(k.get()));
        }
        Err(type_error(format!(
            "kernel must be a metric kernel (BleuKernel, ChrfKernel, TerKernel, WerKernel, \
             GleuKernel, RougeKernel), got {}",
            type_name(value)
        )))
    }

    /// The metric's name in error messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Bleu(_) => "BLEU",
            Self::Chrf(_) => "chrF",
            Self::Ter(_) => "TER",
            Self::Wer(_) => "WER",
            Self::Gleu(_) => "GLEU",
            Self::Rouge(_) => "ROUGE",
        }
    }

    /// Columns of this metric's statistics rows.
    pub(crate) fn width(self) -> usize {
        match self {
            Self::Bleu(k) => k.counting().width(),
            Self::Chrf(k) => k.config.width(),
            Self::Ter(_) => crate::metrics::ter::WIDTH,
            Self::Wer(_) => crate::metrics::wer::WIDTH,
            Self::Gleu(_) => crate::metrics::gleu::WIDTH,
            Self::Rouge(k) => k.config.width(),
        }
    }

    /// The names of this metric's statistics columns.
    pub(crate) fn column_names(self) -> Vec<String> {
        match self {
            Self::Bleu(k) => k.counting().column_names(),
            Self::Chrf(k) => k.config.column_names(),
            Self::Ter(_) => crate::metrics::ter::COLUMNS.map(str::to_owned).to_vec(),
            Self::Wer(_) => crate::metrics::wer::COLUMNS.map(str::to_owned).to_vec(),
            Self::Gleu(_) => crate::metrics::gleu::COLUMNS.map(str::to_owned).to_vec(),
            Self::Rouge(k) => k.config.column_names(),
        }
    }

    /// An `InvalidOptionError` saying `operation` is not defined for this metric.
    pub(crate) fn undefined(self, operation: &str) -> PyErr {
        Error::invalid_option(format!("{operation} is not defined for {}", self.name())).into()
    }
}
