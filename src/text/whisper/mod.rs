//! The text normalizers of openai-whisper 20250625 (`whisper/normalizers/`), as speech
//! evaluation applies them to references and hypotheses before WER:
//!
//! - [`whisper_basic`] / [`BasicTextNormalizer`]: `BasicTextNormalizer(remove_diacritics,
//!   split_letters)`, with [`remove_symbols`] and [`remove_symbols_and_diacritics`];
//! - [`EnglishTextNormalizer`]: `EnglishTextNormalizer()` (contractions, titles, fillers,
//!   [`EnglishNumberNormalizer`], [`EnglishSpellingNormalizer`] with `english.json`).
//!
//! And the PyPI package whisper-normalizer 0.1.15's variants of them ([`PACKAGE`]): its
//! `EnglishTextNormalizer` has four more replacements
//! ([`EnglishTextNormalizer::whisper_normalizer`]) and its `BasicTextNormalizer` and
//! `remove_symbols` can keep marks ([`BasicTextNormalizer::preserving_marks`]).
//!
//! Their output is upstream's string on every input, which took reproducing, with hand-written
//! scans instead of regular expressions, every `re.sub` of upstream in order with Python's
//! rules (Unicode `\w`, `\d`, `\s` and `\b`, non-overlapping matches), `str.lower()` and
//! `str.split()`, Python's unbounded integers and `Fraction` parsing in the number normalizer
//! (numbers of any length; where upstream raises, for numbers past CPython's 4300-digit
//! conversion limit, [`EnglishTextNormalizer::normalize`] returns an error), and upstream's
//! quirks (`1.5` becomes `one.5`, `1,2,3` becomes `12 3`, `$1` becomes ` one`).
//!
//! **Unicode versions.** Upstream runs on Python's `unicodedata` (categories, NFKC/NFKD,
//! `str.lower()`, `str.isalnum()` for `\w`, decimal digits) and, for `split_letters`, on the
//! `regex` module's `\X`. The tables here (`unicode_tables.rs`, generated) are CPython 3.11's
//! (Unicode 14.0.0) and regex 2026.5.9's (its own Unicode version), so results are exact for
//! upstream on Python 3.11 with that regex. On another Python, upstream's own output differs
//! for characters whose properties changed between Unicode versions (mostly characters
//! assigned after 14.0: Python 3.12 has Unicode 15.0, 3.13 has 15.1, 3.14 has 16.0), and so
//! would differ from this. Normalization uses the `unicode-normalization` crate, cut at the
//! characters Python 3.11 does not know (see `unicode.rs`), which makes it Python 3.11's.
//!
//! The data tables (`tables.rs`: `english.json`, `ADDITIONAL_DIACRITICS`, the fillers and
//! replacements) are generated from upstream's sdist by `tools/gen_whisper_tables.py`, which
//! also checks them (`--check`).

mod basic;
mod english;
mod numbers;
mod scan;
mod tables;
mod unicode;
mod unicode_tables;

pub use basic::{
    push_remove_symbols, push_remove_symbols_and_diacritics, push_remove_symbols_with,
    remove_symbols, remove_symbols_and_diacritics, whisper_basic, BasicTextNormalizer,
};
pub use english::{whisper_english, EnglishSpellingNormalizer, EnglishTextNormalizer};
pub use numbers::EnglishNumberNormalizer;

/// The upstream these normalizers reproduce, as a signature names it.
pub const UPSTREAM: &str = "openai-whisper";
/// Its version.
pub const UPSTREAM_VERSION: &str = "20250625";
/// The PyPI package `whisper-normalizer`, a copy of these normalizers that has diverged a
/// little ([`EnglishTextNormalizer::whisper_normalizer`], [`BasicTextNormalizer`]'s
/// `preserve_marks`).
pub const PACKAGE: &str = "whisper-normalizer";
/// The version of it reproduced.
pub const PACKAGE_VERSION: &str = "0.1.15";

/// `english.json`: British spelling -> American (`EnglishSpellingNormalizer.mapping`).
pub fn spelling_map() -> impl Iterator<Item = (&'static str, &'static str)> {
    tables::SPELLING.iter().copied()
}

/// `basic.ADDITIONAL_DIACRITICS`: the letters NFKD leaves whole and their spellings.
pub fn additional_diacritics() -> impl Iterator<Item = (&'static str, &'static str)> {
    tables::ADDITIONAL_DIACRITICS.iter().copied()
}

/// `EnglishTextNormalizer.replacers` as upstream writes them (regular expression, replacement),
/// in order: openai-whisper's, or with `package` whisper-normalizer's.
pub fn replacers(package: bool) -> impl Iterator<Item = (String, &'static str)> {
    let table: &[(bool, &str, bool, &str)] = if package {
        &tables::PACKAGE_REPLACERS
    } else {
        &tables::REPLACERS
    };
    table.iter().map(|&(before, text, after, replacement)| {
        let b = |on: bool| if on { "\\b" } else { "" };
        (format!("{}{text}{}", b(before), b(after)), replacement)
    })
}

/// `EnglishTextNormalizer.ignore_patterns`: `\b(hmm|mm|...)\b`.
pub fn ignore_patterns() -> String {
    format!("\\b({})\\b", tables::FILLERS.join("|"))
}

#[cfg(test)]
mod golden;
