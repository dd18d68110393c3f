//! Text before counting: tokenizing (any kernel's tokenizer, or a tokenizer by name), the
//! script counts behind the CJK warning, references per segment, and MeCab's taggers.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::args::{line_count, run_interruptible, typed, workers, WATCH_MIN_BYTES};
use super::convert::{extract_reference_streams, StrStream};
use super::errors::{type_error, type_name};
use super::kernels::Kernel;
use crate::metrics::rouge::TokenReader;
use crate::parallel;
use crate::text::normalize::Normalization;
use crate::text::script;
use crate::tokenize::mecab::{MecabModel, CACHE_LINES};
use crate::tokenize::ptb::{LineBreaks, PtbLexer};
use crate::tokenize::{jiwer, regexp_stage_into, tercom, Pipeline, TextScratch, Tokenizer};

/// How `tokenize` turns one line into its output.
enum Tokenizing<'a> {
    /// A BLEU pipeline (normalization, then a tokenizer), or a normalization alone.
    Pipeline(Pipeline),
    /// sacrebleu's `TokenizerRegexp` on its own.
    Regexp,
    /// TER's Tercom tokenizer.
    Tercom(crate::metrics::ter::TerTokenizerConfig),
    /// The WER family's split into tokens (a list per line), after its normalizer if any.
    Words(&'a super::kernels::WerKernel),
    /// ROUGE's tokens of the whole text (a list per line), stemmed where the kernel stems.
    Rouge(&'a crate::metrics::rouge::RougeConfig),
    /// One of the Whisper normalizers' stages, text to text.
    Whisper(&'a WhisperStage),
    /// A kernel that has no tokenizer of its own.
    None(Kernel<'a>),
}

fn tokenizing<'a>(
    tokenizer: &'a Bound<'_, PyAny>,
    normalize: Option<&str>,
) -> PyResult<Tokenizing<'a>> {
    let normalization = normalize.map(Normalization::from_name).transpose()?;
    if let Ok(stage) = tokenizer.cast::<WhisperStage>() {
        if normalization.is_some() {
            return Err(crate::error::Error::invalid_option(
                "normalize= goes with a tokenizer name, not a WhisperStage",
            )
            .into());
        }
        return Ok(Tokenizing::Whisper(stage.get()));
    }
    if let Ok(name) = tokenizer.cast::<PyString>() {
        let name = name.to_str()?;
        if name == "regexp" && normalization.is_none() {
            return Ok(Tokenizing::Regexp);
        }
        return Ok(Tokenizing::Pipeline(Pipeline {
            normalization,
            tokenizer: Tokenizer::from_name(name)?,
        }));
    }
    let kernel = Kernel::extract(tokenizer).map_err(|_| {
        type_error(format!(
            "tokenizer must be a str (a tokenizer name) or a metric kernel, got {}",
            type_name(tokenizer)
        ))
    })?;
    if normalization.is_some() {
        return Err(crate::error::Error::invalid_option(
            "normalize= goes with a tokenizer name; a kernel carries its own normalization",
        )
        .into());
    }
    Ok(match kernel {
        Kernel::Bleu(k) => match &k.pipeline {
            Some(pipeline) => Tokenizing::Pipeline(pipeline.clone()),
            None => Tokenizing::None(kernel),
        },
        Kernel::Gleu(k) => match &k.pipeline {
            Some(pipeline) => Tokenizing::Pipeline(pipeline.clone()),
            None => Tokenizing::None(kernel),
        },
        Kernel::Ter(k) => Tokenizing::Tercom(k.config),
        Kernel::Wer(k) => Tokenizing::Words(k),
        Kernel::Rouge(k) => Tokenizing::Rouge(&k.config),
        Kernel::Chrf(_) => Tokenizing::None(kernel),
    })
}

/// Every line tokenized as the metric counts it: `tokenizer` is a kernel (BLEU's or GLEU's
/// pipeline, TER's Tercom tokenizer, the WER family's split, which gives a list of tokens per
/// line), a [`WhisperStage`] (the line normalized by it) or a tokenizer name (`13a`, `intl`, `zh`, `char`, `none`, `split-ascii`,
/// `strip-punct`, or `regexp`, sacrebleu's `TokenizerRegexp` alone), with an optional
/// Unicode normalization (`nfc`, `nfkc`) first. `None` lines stay `None`. `name` names the
/// lines in errors.
#[pyfunction]
#[pyo3(signature = (tokenizer, lines, *, normalize = None, name = "lines", workers = -1))]
pub(crate) fn tokenize<'py>(
    py: Python<'py>,
    tokenizer: &Bound<'py, PyAny>,
    lines: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = typed::normalize)] normalize: Option<&str>,
    #[pyo3(from_py_with = typed::name)] name: &str,
    #[pyo3(from_py_with = workers)] workers: i64,
) -> PyResult<Bound<'py, PyList>> {
    let how = tokenizing(tokenizer, normalize)?;
    if let Tokenizing::None(kernel) = how {
        return Err(kernel.undefined("tokenize"));
    }
    let stream = StrStream::extract(lines, name, true)?;
    let lines = stream.borrow();
    let watch = stream.bytes() >= WATCH_MIN_BYTES;
    if let Tokenizing::Rouge(config) = how {
        let tokens = run_interruptible(py, watch, || {
            parallel::try_map_init(&lines, workers, TokenReader::default, |reader, line| {
                let Some(line) = line else { return Ok(None) };
                let mut out = Vec::new();
                reader.read(&config.tokenizer, line, false, |token, _, _| {
                    out.push(String::from_utf8_lossy(token).into_owned());
                })?;
                Ok(Some(out))
            })
        })?;
        return PyList::new(py, tokens);
    }
    if let Tokenizing::Words(wer) = how {
        let split = wer.split;
        let tokens = run_interruptible(py, watch, || {
            let normalized = wer.normalized(&lines, name, 0, workers)?;
            let lines: Vec<Option<&str>> = match &normalized {
                Some(n) => n.iter().map(Option::as_deref).collect(),
                None => lines.clone(),
            };
            parallel::map_init(
                &lines,
                workers,
                || (),
                |(), line| {
                    line.map(|l| {
                        let mut out = Vec::new();
                        jiwer::tokens(l, split, &mut out);
                        out.into_iter().map(str::to_owned).collect::<Vec<String>>()
                    })
                },
            )
        })?;
        let out = PyList::empty(py);
        for line in tokens {
            match line {
                Some(tokens) => out.append(PyList::new(py, tokens)?)?,
                None => out.append(py.None())?,
            }
        }
        return Ok(out);
    }
    let tokenized: Vec<Option<String>> = run_interruptible(py, watch, || {
        parallel::try_map_init(&lines, workers, Scratch::default, |scratch, line| {
            let Some(line) = line else { return Ok(None) };
            let mut out = String::new();
            match &how {
                Tokenizing::Pipeline(pipeline) => {
                    pipeline.tokenize_into(line, &mut scratch.text, &mut out)?;
                }
                Tokenizing::Regexp => regexp_stage_into(line, &mut out),
                Tokenizing::Tercom(config) => {
                    tercom::tokenize_into(line, *config, &mut scratch.tercom, &mut out);
                }
                Tokenizing::Whisper(stage) => stage.stage.normalize(line, &mut out)?,
                Tokenizing::Words(_) | Tokenizing::Rouge(_) | Tokenizing::None(_) => {}
            }
            Ok(Some(out))
        })
    })?;
    PyList::new(py, tokenized)
}

/// One class or function of the Whisper text normalizers with its options, which `tokenize`
/// takes in place of a tokenizer: `english` (`EnglishTextNormalizer`; with `package`,
/// whisper-normalizer 0.1.15's), `numbers` (`EnglishNumberNormalizer`), `spelling`
/// (`EnglishSpellingNormalizer`), `basic` (`BasicTextNormalizer(remove_diacritics,
/// split_letters, preserve_marks)`), `remove_symbols` (with `preserve_marks`) and
/// `remove_symbols_and_diacritics` (with `keep`). The drop-in
/// `bleuprint.compat.whisper_normalizer` calls each through one.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct WhisperStage {
    /// Boxed: the normalizers hold SIMD searchers aligned to 32 bytes, and Python allocates a
    /// class's objects aligned to 16 only.
    stage: Box<Stage>,
}

/// What a [`WhisperStage`] runs.
enum Stage {
    English(Box<crate::text::whisper::EnglishTextNormalizer>),
    Numbers(Box<crate::text::whisper::EnglishNumberNormalizer>),
    Spelling(crate::text::whisper::EnglishSpellingNormalizer),
    Basic(crate::text::whisper::BasicTextNormalizer),
    RemoveSymbols { preserve_marks: bool },
    RemoveSymbolsAndDiacritics { keep: String },
}

impl Stage {
    /// Appends `text` normalized to `out`.
    fn normalize(&self, text: &str, out: &mut String) -> crate::error::Result<()> {
        use crate::text::whisper;
        match self {
            Self::English(english) => english.normalize(text, out)?,
            Self::Numbers(numbers) => numbers.normalize(text, out)?,
            Self::Spelling(spelling) => spelling.normalize(text, out),
            Self::Basic(basic) => basic.normalize(text, out),
            Self::RemoveSymbols { preserve_marks } => {
                whisper::push_remove_symbols_with(text, *preserve_marks, out);
            }
            Self::RemoveSymbolsAndDiacritics { keep } => {
                whisper::push_remove_symbols_and_diacritics(text, keep, out);
            }
        }
        Ok(())
    }
}

#[pymethods]
impl WhisperStage {
    #[new]
    #[pyo3(signature = (
        stage, *, package = false, remove_diacritics = false, split_letters = false,
        preserve_marks = false, keep = ""
    ))]
    fn new(
        #[pyo3(from_py_with = typed::stage)] stage: &str,
        #[pyo3(from_py_with = typed::package)] package: bool,
        #[pyo3(from_py_with = typed::remove_diacritics)] remove_diacritics: bool,
        #[pyo3(from_py_with = typed::split_letters)] split_letters: bool,
        #[pyo3(from_py_with = typed::preserve_marks)] preserve_marks: bool,
        #[pyo3(from_py_with = typed::keep)] keep: &str,
    ) -> PyResult<Self> {
        use crate::text::whisper::{
            BasicTextNormalizer, EnglishSpellingNormalizer, EnglishTextNormalizer,
        };
        let stage = match stage {
            "english" if package => {
                Stage::English(Box::new(EnglishTextNormalizer::whisper_normalizer()))
            }
            "english" => Stage::English(Box::default()),
            "numbers" => Stage::Numbers(Box::default()),
            "spelling" => Stage::Spelling(EnglishSpellingNormalizer::new()),
            "basic" => {
                let basic = BasicTextNormalizer::new(remove_diacritics, split_letters);
                Stage::Basic(if preserve_marks {
                    basic.preserving_marks()
                } else {
                    basic
                })
            }
            "remove_symbols" => Stage::RemoveSymbols { preserve_marks },
            "remove_symbols_and_diacritics" => Stage::RemoveSymbolsAndDiacritics {
                keep: keep.to_owned(),
            },
            other => {
                return Err(crate::error::Error::invalid_option(format!(
                    "unknown Whisper normalizer stage {other:?}; expected english, numbers, \
                     spelling, basic, remove_symbols or remove_symbols_and_diacritics"
                ))
                .into())
            }
        };
        Ok(Self {
            stage: Box::new(stage),
        })
    }
}

/// Per-thread buffers of `tokenize`.
#[derive(Default)]
struct Scratch {
    text: TextScratch,
    tercom: tercom::TokenizerScratch,
}

/// References per segment in reference streams (`references[k][i]`, `None` drops one): the
/// count when it is the same for every segment, else -1.
#[pyfunction]
pub(crate) fn references_per_segment(references: &Bound<'_, PyAny>) -> PyResult<i64> {
    let streams = extract_reference_streams(references)?;
    let borrowed: Vec<_> = streams.iter().map(StrStream::borrow).collect();
    Ok(super::convert::references_per_segment(&borrowed))
}

/// Letters by script in the first `max_lines` lines: `(han, kana, hangul, other)`, for the
/// warning when CJK text meets a tokenizer made for spaced scripts.
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

/// A MeCab model loaded from a `libmecab` shared library; tokenizes on every core.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct MecabTagger {
    /// Shared with every kernel made with this tagger (each thread makes its own tagger from
    /// it).
    pub(crate) model: Arc<MecabModel>,
}

#[pymethods]
impl MecabTagger {
    /// Loads `library_path` and builds a model from `args`, MeCab's command-line options after
    /// the program name.
    #[new]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = typed::library_path)] library_path: PathBuf,
        #[pyo3(from_py_with = typed::args)] args: Vec<String>,
    ) -> PyResult<Self> {
        py.detach(|| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            MecabModel::open(&library_path, &args)
        })
        .map(|model| Self {
            model: Arc::new(model),
        })
        .map_err(PyErr::from)
    }

    /// `tagger.parse(line.strip()).strip()` for every line, on `workers` threads.
    #[pyo3(signature = (lines, workers = -1))]
    fn tokenize(
        &self,
        py: Python<'_>,
        lines: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = workers)] workers: i64,
    ) -> PyResult<Vec<String>> {
        let stream = StrStream::extract(lines, "lines", false)?;
        let lines = stream.borrow_all();
        run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
            self.model.tokenize_batch(&lines, workers)
        })
    }

    /// Forgets the tokenized lines the model remembers (the next call parses every line).
    fn clear_cache(&self) {
        self.model.clear_cache();
    }

    /// The tokenized lines the model remembers (`size`) and their bound (`max_size`).
    fn cache_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("size", self.model.cached_lines())?;
        info.set_item("max_size", CACHE_LINES)?;
        Ok(info)
    }

    /// The MeCab version of the library (`0.996`, `0.996/ko-0.9.2`).
    fn version(&self) -> PyResult<String> {
        Ok(self.model.version()?)
    }

    /// The loaded dictionaries, system dictionary first, as dicts with the fields of MeCab's
    /// `DictionaryInfo` (`filename`, `charset`, `size`, `type`, `lsize`, `rsize`, `version`).
    fn dictionary_info<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.model
            .dictionary_info()?
            .into_iter()
            .map(|d| {
                let dict = PyDict::new(py);
                dict.set_item("filename", d.filename)?;
                dict.set_item("charset", d.charset)?;
                dict.set_item("size", d.size)?;
                dict.set_item("type", d.kind)?;
                dict.set_item("lsize", d.lsize)?;
                dict.set_item("rsize", d.rsize)?;
                dict.set_item("version", d.version)?;
                Ok(dict)
            })
            .collect()
    }
}

/// Stanford CoreNLP 3.4.1's PTB tokenizer as pycocoevalcap runs it (`-preserveLines
/// -lowerCase`, then its punctuation list dropped), built from the `PTBLexer.class` of that
/// jar; tokenizes on every core.
#[pyclass(module = "bleuprint._core", frozen)]
pub(crate) struct PtbTokenizer {
    /// Shared with every kernel made with this tokenizer.
    pub(crate) lexer: Arc<PtbLexer>,
}

#[pymethods]
impl PtbTokenizer {
    /// The tokenizer of `class_file`, the bytes of `edu/stanford/nlp/process/PTBLexer.class`.
    #[new]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = typed::class_file)] class_file: Vec<u8>,
    ) -> PyResult<Self> {
        py.detach(|| PtbLexer::from_class_file(&class_file))
            .map(|lexer| Self {
                lexer: Arc::new(lexer),
            })
            .map_err(PyErr::from)
    }

    /// Each caption on its own, as pycocoevalcap tokenizes it followed by a line break, on
    /// `workers` threads.
    #[pyo3(signature = (captions, *, workers = -1))]
    fn tokenize(
        &self,
        py: Python<'_>,
        captions: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = workers)] workers: i64,
    ) -> PyResult<Vec<String>> {
        let stream = StrStream::extract(captions, "captions", false)?;
        let captions = stream.borrow_all();
        run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
            parallel::try_map_init(&captions, workers, String::new, |scratch, caption| {
                let mut out = String::new();
                self.lexer.coco_caption(caption, scratch, &mut out)?;
                Ok(out)
            })
        })
    }

    /// The captions as pycocoevalcap's one call of the jar tokenizes them (joined by `\\n`,
    /// so a rule may look into the next caption), on `workers` threads; `line_breaks`: what
    /// becomes of a caption's line breaks (`error`; `newline-space`: `\\n` as a space, as
    /// pycocoevalcap replaces it, the others refused; `space`).
    #[pyo3(signature = (captions, *, line_breaks = "error", workers = -1))]
    fn tokenize_batch(
        &self,
        py: Python<'_>,
        captions: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = typed::line_breaks)] line_breaks: &str,
        #[pyo3(from_py_with = workers)] workers: i64,
    ) -> PyResult<Vec<String>> {
        let line_breaks = LineBreaks::from_name(line_breaks)?;
        let stream = StrStream::extract(captions, "captions", false)?;
        let captions = stream.borrow_all();
        run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
            self.lexer.coco_captions(&captions, line_breaks, workers)
        })
    }

    /// pycocoevalcap's `PTBTokenizer().tokenize(captions_for_image)`: `{image: [{"caption":
    /// str}, ...]}` to `{image: [tokenized caption, ...]}` in the same order (no entry for an
    /// image without captions), every caption tokenized in one batch as
    /// [`Self::tokenize_batch`] does. Errors name the caption by its index in the batch.
    #[pyo3(signature = (captions_for_image, *, line_breaks = "error", workers = -1))]
    fn tokenize_images<'py>(
        &self,
        py: Python<'py>,
        captions_for_image: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = typed::line_breaks)] line_breaks: &str,
        #[pyo3(from_py_with = workers)] workers: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let line_breaks = LineBreaks::from_name(line_breaks)?;
        let (captions, key) = (PyList::empty(py), pyo3::intern!(py, "caption"));
        let mut images = Vec::new();
        for item in captions_for_image.call_method0("items")?.try_iter()? {
            let (image, entries): (Bound<'py, PyAny>, Bound<'py, PyAny>) = item?.extract()?;
            let before = captions.len();
            for entry in entries.try_iter()? {
                captions.append(entry?.get_item(key)?)?;
            }
            images.push((image, captions.len() - before));
        }
        let stream = StrStream::extract(captions.as_any(), "captions", false)?;
        let borrowed = stream.borrow_all();
        let lines = run_interruptible(py, stream.bytes() >= WATCH_MIN_BYTES, || {
            self.lexer.coco_captions(&borrowed, line_breaks, workers)
        })?;
        let tokenized = PyDict::new(py);
        let mut lines = lines.into_iter();
        for (image, count) in images.into_iter().filter(|&(_, count)| count > 0) {
            tokenized.set_item(image, PyList::new(py, lines.by_ref().take(count))?)?;
        }
        Ok(tokenized)
    }

    /// What the jar writes for `text` with `-preserveLines -lowerCase` (punctuation kept).
    fn jar_output(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = typed::text)] text: &str,
    ) -> PyResult<String> {
        let mut out = String::new();
        py.detach(|| self.lexer.jar_output(text, &mut out))?;
        Ok(out)
    }
}
