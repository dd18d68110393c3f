//! Every tokenizer: text to the tokens a metric counts, each identical string for string to
//! its upstream.
//!
//! sacrebleu's BLEU tokenizers, the [`Tokenizer`] enum:
//!
//! | name   | sacrebleu class                | file        |
//! |--------|--------------------------------|-------------|
//! | `none` | `NoneTokenizer`                | `none.rs`   |
//! | `13a`  | `Tokenizer13a` (mteval-v13a)   | `v13a.rs`   |
//! | `intl` | `TokenizerV14International`    | `intl.rs`   |
//! | `char` | `TokenizerChar`                | `char.rs`   |
//! | `zh`   | `TokenizerZh`                  | `zh.rs`     |
//!
//! `13a` and `zh` share sacrebleu's `TokenizerRegexp` passes (`regexp.rs`); `intl` reads the
//! Unicode tables that `tools/gen_unicode_tables.py` generates (`unicode_tables.rs`).
//!
//! Two splitters that are not sacrebleu's, for emulating other BLEU implementations:
//!
//! | name          | upstream                                          | file             |
//! |---------------|---------------------------------------------------|------------------|
//! | `split-ascii` | Moses `multi-bleu.perl` (`split` on ASCII spaces) | `split_ascii.rs` |
//! | `strip-punct` | nlg-metricverse / jury `normalize_text`           | `strip_punct.rs` |
//!
//! Their output is the words joined by single spaces; `split-ascii` words may contain
//! non-ASCII whitespace, so split its output on `' '` only.
//!
//! The other metrics' tokenizers:
//!
//! - [`chrf`]: the characters and words sacrebleu's chrF and chrF++ count;
//! - [`tercom`]: sacrebleu's `TercomTokenizer`, which TER applies;
//! - [`jiwer`]: jiwer's word and character splitting (the WER family);
//! - [`mecab`]: MeCab through its C API (`ja-mecab`, `ko-mecab`).
//!
//! A [`Pipeline`] is what BLEU and GLEU run on a line: an optional Unicode normalization, then
//! a tokenizer.

mod char;
pub mod chrf;
mod intl;
pub mod jiwer;
pub mod mecab;
mod none;
mod regexp;
mod rewrite;
mod split_ascii;
mod strip_punct;
pub mod tercom;
mod unicode_tables;
mod v13a;
mod zh;

pub use split_ascii::{ascii_words, AsciiWords};
pub use strip_punct::{strip_punct_words, StripPunctWords};

use crate::text::normalize::Normalization;

/// A BLEU tokenizer. Cheap to copy; holds no state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokenizer {
    /// Identity: the text is only split on whitespace later.
    None,
    /// mteval-v13a: the default of sacrebleu and WMT.
    V13a,
    /// mteval-v14 international tokenization (Unicode punctuation and symbols).
    Intl,
    /// One token per character.
    Char,
    /// Chinese: every CJK character is a token, the rest goes through 13a's regexes.
    Zh,
    /// Moses `multi-bleu.perl`: words separated by ASCII whitespace only (not sacrebleu's).
    SplitAscii,
    /// jury / nlg-metricverse: ASCII punctuation becomes a space, then Python's `split()`
    /// (not sacrebleu's).
    StripPunct,
}

/// sacrebleu's `TokenizerRegexp()(line)` on its own, into `out` (cleared first): the
/// punctuation passes `13a` and `zh` end with, on the line as given (no padding), then
/// `' '.join(line.split())`. Not a [`Tokenizer`]: sacrebleu's metrics never take it by name.
pub fn regexp_stage_into(line: &str, out: &mut String) {
    out.clear();
    regexp::tokenize(line, false, out);
}

crate::names::name_table!(Tokenizer, "tokenizer", {
    None => "none",
    V13a => "13a",
    Intl => "intl",
    Char => "char",
    Zh => "zh",
    SplitAscii => "split-ascii",
    StripPunct => "strip-punct",
});

impl Tokenizer {
    /// Writes the tokenization of `line` into `out` (which is cleared first), exactly as
    /// sacrebleu's tokenizer `__call__(line)` returns it (for `split-ascii` and `strip-punct`:
    /// their words joined by single spaces).
    pub fn tokenize_into(self, line: &str, out: &mut String) {
        out.clear();
        match self {
            Self::None => none::tokenize(line, out),
            Self::V13a => v13a::tokenize(line, out),
            Self::Intl => intl::tokenize(line, out),
            Self::Char => char::tokenize(line, out),
            Self::Zh => zh::tokenize(line, out),
            Self::SplitAscii => split_ascii::tokenize(line, out),
            Self::StripPunct => strip_punct::tokenize(line, out),
        }
    }

    /// Returns the tokenization of `line` as a new string.
    pub fn tokenize(self, line: &str) -> String {
        let mut out = String::with_capacity(line.len() + line.len() / 4);
        self.tokenize_into(line, &mut out);
        out
    }
}

/// How a line becomes tokens: an optional Unicode normalization, then a tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipeline {
    /// Applied to the raw line first; `None` keeps the text as it is (sacrebleu's behaviour).
    pub normalization: Option<Normalization>,
    /// The sacrebleu tokenizer.
    pub tokenizer: Tokenizer,
}

impl From<Tokenizer> for Pipeline {
    fn from(tokenizer: Tokenizer) -> Self {
        Self {
            normalization: None,
            tokenizer,
        }
    }
}

impl Pipeline {
    /// Normalizes `line` (into `normalized` when it changes) and tokenizes it into `out`.
    pub fn tokenize_into(self, line: &str, normalized: &mut String, out: &mut String) {
        let line = self.normalize(line, normalized);
        self.tokenizer.tokenize_into(line, out);
    }

    /// `line` in the pipeline's normalization form: `line` itself when unchanged, else the
    /// normalized text, kept in `buffer`.
    pub fn normalize<'a>(self, line: &'a str, buffer: &'a mut String) -> &'a str {
        match self.normalization.map(|form| form.apply(line)) {
            Some(std::borrow::Cow::Owned(text)) => {
                *buffer = text;
                buffer
            }
            _ => line,
        }
    }
}

#[cfg(test)]
mod tests {
    /// `TokenizerRegexp()(line)` of sacrebleu 2.6.0 (printed by it for these lines).
    #[test]
    fn regexp_stage_is_sacrebleus_tokenizer_regexp() {
        let cases = [
            ("Hello, world.", "Hello , world ."),
            ("3.14 and 1,000-2", "3.14 and 1,000 - 2"),
            (" a.b,c ", "a . b , c"),
            ("x-1 -2 9-", "x-1 -2 9 -"),
            ("end.", "end ."),
            (".start", ". start"),
            ("tab\there\nnew", "tab here new"),
            ("ü.ö, 中文.", "ü . ö , 中文 ."),
            ("", ""),
            ("a\u{a0}b", "a b"),
        ];
        let mut out = String::from("left over");
        for (line, expected) in cases {
            super::regexp_stage_into(line, &mut out);
            assert_eq!(out, expected, "{line:?}");
        }
    }
}
