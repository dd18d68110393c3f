//! The only PyO3 code: the `bleuprint._core` extension module.

mod args;
mod arithmetic;
mod arrow;
mod bleu;
mod chrf;
mod convert;
mod errors;
mod gleu;
mod io;
mod mecab;
mod pairwise;
mod resample;
mod ter;
mod tokenize;
mod wer;

use pyo3::prelude::*;

/// The compiled core of bleuprint. Private: use the `bleuprint` package instead.
#[pymodule(name = "_core")]
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
        "SMOOTH_METHODS",
        crate::metrics::bleu::Smoothing::NAMES.to_vec(),
    )?;
    m.add("SMOOTH_DEFAULTS", bleu::smooth_defaults(m.py())?)?;
    m.add(
        "EMPTY_REFERENCE_RULES",
        crate::metrics::wer::EmptyReference::NAMES.to_vec(),
    )?;
    m.add("TER_COLUMNS", crate::metrics::ter::COLUMNS.to_vec())?;
    m.add("WER_COLUMNS", crate::metrics::wer::COLUMNS.to_vec())?;
    m.add("GLEU_COLUMNS", crate::metrics::gleu::COLUMNS.to_vec())?;
    m.add(
        "ARITHMETICS",
        crate::metrics::bleu::arithmetic::Arithmetic::NAMES.to_vec(),
    )?;
    m.add("ARITHMETIC_SMOOTHINGS", arithmetic::own_smoothings())?;
    m.add("MAX_NGRAM_ORDER", crate::metrics::bleu::MAX_NGRAM_ORDER)?;
    m.add("MAX_CHRF_ORDER", crate::metrics::chrf::config::MAX_ORDER)?;
    let (major, minor, update) = crate::text::normalize::UNICODE_VERSION;
    m.add(
        "NORMALIZATION_UNICODE_VERSION",
        format!("{major}.{minor}.{update}"),
    )?;
    m.add_function(wrap_pyfunction!(tokenize::tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize::tokenize_regexp, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize::normalize, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize::script_counts, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize::references_per_segment, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_column_names, m)?)?;
    m.add_function(wrap_pyfunction!(chrf::chrf_column_names, m)?)?;
    m.add_class::<convert::TextColumn>()?;
    m.add_function(wrap_pyfunction!(bleu::bleu_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_grouped_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_token_id_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_ngram_details, m)?)?;
    m.add_function(wrap_pyfunction!(gleu::gleu_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_score_details, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu::bleu_scores_float32, m)?)?;
    m.add_function(wrap_pyfunction!(arithmetic::arithmetic_score, m)?)?;
    m.add_function(wrap_pyfunction!(arithmetic::brevity_penalty, m)?)?;
    m.add_function(wrap_pyfunction!(chrf::chrf_stats, m)?)?;
    m.add_function(wrap_pyfunction!(chrf::chrf_scores, m)?)?;
    m.add_function(wrap_pyfunction!(chrf::chrf_scores_float32, m)?)?;
    m.add_function(wrap_pyfunction!(ter::ter_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ter::ter_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(ter::ter_scores_from_sums, m)?)?;
    m.add_function(wrap_pyfunction!(ter::ter_corpus_score, m)?)?;
    m.add_function(wrap_pyfunction!(ter::ter_row_scores, m)?)?;
    m.add_function(wrap_pyfunction!(resample::bootstrap_sums_float32, m)?)?;
    m.add_function(wrap_pyfunction!(resample::bootstrap_sums_int64, m)?)?;
    m.add_function(wrap_pyfunction!(resample::randomization_sums, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_lines, m)?)?;
    m.add_function(wrap_pyfunction!(io::line_end, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_stats, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_alignments, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_token_stats, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_token_alignments, m)?)?;
    m.add_function(wrap_pyfunction!(wer::levenshtein_opcodes, m)?)?;
    m.add_function(wrap_pyfunction!(wer::wer_measures, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::bleu_bags, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::chrf_bags, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::bleu_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::chrf_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::pairwise_rows, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::bleu_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::chrf_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::ter_sentences, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise::ter_pairwise, m)?)?;
    m.add_class::<mecab::MecabTagger>()?;
    m.add_class::<pairwise::NgramBags>()?;
    m.add_class::<pairwise::PyTerSentences>()?;
    Ok(())
}
