//! The only PyO3 code: the `bleuprint._core` extension module.
//!
//! A metric's configuration crosses the FFI once, as a kernel object (`kernels.rs`); the
//! operations are generic over kernels, one FFI call per batch:
//!
//! | file            | operations                                                          |
//! |-----------------|---------------------------------------------------------------------|
//! | `kernels.rs`    | `BleuKernel`, `ChrfKernel`, `TerKernel`, `WerKernel`, `GleuKernel`, `RougeKernel`; `CiderKernel` (its own `count`, `order_sums`) |
//! | `statistics.rs` | `stats`, `grouped_stats`, `token_id_stats`, `alignments`            |
//! | `scoring.rs`    | `scores`, `details`, `resampled_scores`, `arithmetic_score`, `brevity_penalty`, `ngram_details` |
//! | `pairwise.rs`   | `bags` (a `Sentences` object), `pairwise`, `aggregate`              |
//! | `text.rs`       | `tokenize`, `script_counts`, `references_per_segment`, `MecabTagger`, `PtbTokenizer` |
//! | `resample.rs`   | `bootstrap_sums`, `randomization_sums`                              |
//! | `io.rs`, `arrow.rs` | `read_lines`, `line_end`; `TextColumn` (Arrow string columns)   |
//!
//! `convert.rs` borrows Python inputs without copying the text, `args.rs` checks arguments
//! and runs long calls interruptibly, `errors.rs` maps the core's errors to Python's classes.

mod args;
mod arrow;
mod convert;
mod errors;
mod io;
mod kernels;
mod pairwise;
mod resample;
mod scoring;
mod statistics;
mod text;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// sacrebleu's default `smooth_value` per method, `None` where the method takes none. A
/// whole-number default is an `int`, as sacrebleu writes add-k's `1` (its counts stay ints).
fn smooth_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let defaults = PyDict::new(py);
    for (name, value) in crate::metrics::bleu::SMOOTHING_METHODS {
        match value {
            #[allow(clippy::cast_possible_truncation)] // a whole number of a few units
            Some(v) if v.fract() == 0.0 => defaults.set_item(name, v as i64)?,
            Some(v) => defaults.set_item(name, v)?,
            None => defaults.set_item(name, py.None())?,
        }
    }
    Ok(defaults)
}

/// The compiled core of bleuprint, `bleuprint._core._ext` (re-exported as `bleuprint._core`).
/// Private: use the `bleuprint` package instead.
#[pymodule(name = "_ext")]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy loads on the first call that makes or reads an array (convert::ensure_numpy), so
    // importing the module stays quick.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TOKENIZERS", crate::tokenize::Tokenizer::NAMES.to_vec())?;
    m.add(
        "REF_LENGTHS",
        crate::metrics::bleu::RefLength::NAMES.to_vec(),
    )?;
    m.add(
        "NORMALIZATIONS",
        crate::text::normalize::Normalization::NAMES.to_vec(),
    )?;
    m.add(
        "NORMALIZATION_SIGNATURES",
        crate::text::normalize::Normalization::NAMES
            .iter()
            .filter_map(|name| crate::text::normalize::Normalization::from_name(name).ok())
            .map(|form| (form.name(), form.signature_name()))
            .collect::<std::collections::HashMap<_, _>>(),
    )?;
    m.add("WHISPER_TABLES", whisper_tables(m.py())?)?;
    m.add("OPEN_ASR_REVISION", crate::text::whisper::OPEN_ASR_REVISION)?;
    m.add(
        "SMOOTH_METHODS",
        crate::metrics::bleu::Smoothing::NAMES.to_vec(),
    )?;
    m.add("SMOOTH_DEFAULTS", smooth_defaults(m.py())?)?;
    m.add(
        "EMPTY_REFERENCE_RULES",
        crate::metrics::wer::EmptyReference::NAMES.to_vec(),
    )?;
    m.add(
        "ARITHMETICS",
        crate::metrics::bleu::arithmetic::Arithmetic::NAMES.to_vec(),
    )?;
    m.add("ARITHMETIC_SMOOTHINGS", scoring::own_smoothings())?;
    m.add("MAX_NGRAM_ORDER", crate::metrics::bleu::MAX_NGRAM_ORDER)?;
    m.add("MAX_CHRF_ORDER", crate::metrics::chrf::config::MAX_ORDER)?;
    let (major, minor, update) = crate::text::normalize::UNICODE_VERSION;
    m.add(
        "NORMALIZATION_UNICODE_VERSION",
        format!("{major}.{minor}.{update}"),
    )?;
    m.add_class::<kernels::MetricKernel>()?;
    m.add_class::<kernels::BleuKernel>()?;
    m.add_class::<kernels::ChrfKernel>()?;
    m.add_class::<kernels::TerKernel>()?;
    m.add_class::<kernels::WerKernel>()?;
    m.add_class::<kernels::GleuKernel>()?;
    m.add_class::<kernels::RougeKernel>()?;
    m.add_class::<kernels::CiderKernel>()?;
    m.add_class::<convert::TextColumn>()?;
    m.add_class::<pairwise::Sentences>()?;
    m.add_class::<text::MecabTagger>()?;
    m.add_class::<text::WhisperStage>()?;
    m.add_class::<text::PtbTokenizer>()?;
    m.add_function(wrap_pyfunction!(statistics::stats, m)?)?;
    m.add_function(wrap_pyfunction!(statistics::grouped_stats, m)?)?;
    m.add_function(wrap_pyfunction!(statistics::token_id_stats, m)?)?;
    m.add_function(wrap_pyfunction!(statistics::alignments, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::scores, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::details, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::resampled_scores, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::arithmetic_score, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::brevity_penalty, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::ngram_details, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::bags, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(text::tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(text::script_counts, m)?)?;
    m.add_function(wrap_pyfunction!(text::references_per_segment, m)?)?;
    m.add_function(wrap_pyfunction!(resample::bootstrap_sums, m)?)?;
    m.add_function(wrap_pyfunction!(resample::randomization_sums, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_lines, m)?)?;
    m.add_function(wrap_pyfunction!(io::line_end, m)?)?;
    Ok(())
}

/// The Whisper normalizers' data as upstream's attributes hold it: `spelling`
/// (`EnglishSpellingNormalizer.mapping`), `additional_diacritics`, `replacers` and
/// `package_replacers` (`EnglishTextNormalizer.replacers`, openai-whisper's and
/// whisper-normalizer's: pattern -> replacement, in order) and `ignore_patterns`.
fn whisper_tables(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    use crate::text::whisper;
    let tables = pyo3::types::PyDict::new(py);
    let pairs = |items: &mut dyn Iterator<Item = (String, &'static str)>| -> PyResult<_> {
        let d = pyo3::types::PyDict::new(py);
        for (k, v) in items {
            d.set_item(k, v)?;
        }
        Ok(d)
    };
    let owned = |(k, v): (&str, &'static str)| (k.to_owned(), v);
    tables.set_item("spelling", pairs(&mut whisper::spelling_map().map(owned))?)?;
    tables.set_item(
        "additional_diacritics",
        pairs(&mut whisper::additional_diacritics().map(owned))?,
    )?;
    tables.set_item("replacers", pairs(&mut whisper::replacers(false))?)?;
    tables.set_item("package_replacers", pairs(&mut whisper::replacers(true))?)?;
    tables.set_item("ignore_patterns", whisper::ignore_patterns())?;
    Ok(tables)
}

#[cfg(test)]
mod tests {
    /// Python allocates a class's objects aligned to 16 bytes: a `#[pyclass]` whose fields
    /// need more (a SIMD searcher held inline) would be read with misaligned vector loads,
    /// which fault. Such a field goes behind a `Box`.
    #[test]
    fn classes_need_no_more_than_python_aligns() {
        let aligns = [
            (
                "TextColumn",
                std::mem::align_of::<super::convert::TextColumn>(),
            ),
            (
                "MetricKernel",
                std::mem::align_of::<super::kernels::MetricKernel>(),
            ),
            (
                "BleuKernel",
                std::mem::align_of::<super::kernels::BleuKernel>(),
            ),
            (
                "ChrfKernel",
                std::mem::align_of::<super::kernels::ChrfKernel>(),
            ),
            (
                "TerKernel",
                std::mem::align_of::<super::kernels::TerKernel>(),
            ),
            (
                "WerKernel",
                std::mem::align_of::<super::kernels::WerKernel>(),
            ),
            (
                "GleuKernel",
                std::mem::align_of::<super::kernels::GleuKernel>(),
            ),
            (
                "RougeKernel",
                std::mem::align_of::<super::kernels::RougeKernel>(),
            ),
            (
                "CiderKernel",
                std::mem::align_of::<super::kernels::CiderKernel>(),
            ),
            (
                "Sentences",
                std::mem::align_of::<super::pairwise::Sentences>(),
            ),
            (
                "WhisperStage",
                std::mem::align_of::<super::text::WhisperStage>(),
            ),
            (
                "MecabTagger",
                std::mem::align_of::<super::text::MecabTagger>(),
            ),
            (
                "PtbTokenizer",
                std::mem::align_of::<super::text::PtbTokenizer>(),
            ),
        ];
        for (name, align) in aligns {
            assert!(align <= 16, "{name} needs {align}-byte alignment");
        }
    }
}
