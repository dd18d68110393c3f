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
pub mod porter;
pub mod ptb;
mod regexp;
mod rewrite;
pub mod rouge;
mod split_ascii;
mod strip_punct;
pub mod tercom;
mod unicode_class;
mod unicode_tables;
mod v13a;
mod zh;

pub use split_ascii::AsciiSpace;
pub use strip_punct::PunctOrSpace;

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::text::normalize::Normalization;
use crate::text::{push_joined, py_rstrip, NonSpaceChars, PySpace, SingleSpace, WordRule, Words};
use mecab::{MecabModel, Tagger};

/// A tokenizer: one of sacrebleu's rule-based ones (or of two other BLEU implementations'),
/// stateless, or MeCab with a loaded model, whose taggers live in each thread's
/// [`TextScratch`].
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// MeCab (sacrebleu's `ja-mecab` and `ko-mecab`, by the model's dictionary):
    /// `tagger.parse(line.strip()).strip()`. No name builds it: load a [`MecabModel`] first.
    Mecab(Arc<MecabModel>),
}

/// sacrebleu's `TokenizerRegexp()(line)` on its own, into `out` (cleared first): the
/// punctuation passes `13a` and `zh` end with, on the line as given (no padding), then
/// `' '.join(line.split())`. Not a [`Tokenizer`]: sacrebleu's metrics never take it by name.
pub fn regexp_stage_into(line: &str, out: &mut String) {
    out.clear();
    regexp::tokenize(line, false, out);
}

crate::enums::name_table!(Tokenizer, "tokenizer", {
    None => "none",
    V13a => "13a",
    Intl => "intl",
    Char => "char",
    Zh => "zh",
    SplitAscii => "split-ascii",
    StripPunct => "strip-punct",
}, others: {
    Self::Mecab(_) => "mecab",
});

impl Tokenizer {
    /// Writes the tokenization of `line` into `out` (cleared first), exactly as sacrebleu's
    /// tokenizer `__call__(line)` returns it (for `split-ascii` and `strip-punct`: their words
    /// joined by single spaces); MeCab runs the tagger in `tagger`, made there if it is not
    /// this model's.
    fn tokenize_into(
        &self,
        line: &str,
        tagger: &mut Option<Tagger<Arc<MecabModel>>>,
        out: &mut String,
    ) -> Result<()> {
        out.clear();
        match self {
            Self::None => none::tokenize(line, out),
            Self::V13a => v13a::tokenize(line, out),
            Self::Intl => intl::tokenize(line, out),
            Self::Char => char::tokenize(line, out),
            Self::Zh => zh::tokenize(line, out),
            // The words joined by single spaces: `split-ascii` words never hold an ASCII space,
            // so `out.split(' ')` recovers them (Python's `split()` would also split at U+00A0).
            Self::SplitAscii => push_joined(AsciiSpace.words(line), out),
            Self::StripPunct => push_joined(PunctOrSpace.words(line), out),
            Self::Mecab(model) => return model_tagger(tagger, model)?.parse_into(line, out),
        }
        Ok(())
    }
}

/// The tagger in `slot` if it is `model`'s, else a new one of `model`, kept there.
fn model_tagger<'t>(
    slot: &'t mut Option<Tagger<Arc<MecabModel>>>,
    model: &Arc<MecabModel>,
) -> Result<&'t mut Tagger<Arc<MecabModel>>> {
    if !slot
        .as_ref()
        .is_some_and(|tagger| Arc::ptr_eq(tagger.model(), model))
    {
        *slot = None;
        *slot = Some(Tagger::new(Arc::clone(model))?);
    }
    slot.as_mut()
        .ok_or_else(|| Error::internal("a MeCab tagger was just made"))
}

/// Per-thread state for running [`Pipeline`]s over many lines: the current line's normalized
/// and tokenized text, and MeCab's tagger, made on first use (a tagger serves one thread at a
/// time; the model it was made from is shared).
#[derive(Debug, Default)]
pub struct TextScratch {
    normalized: String,
    tokenized: String,
    tagger: Option<Tagger<Arc<MecabModel>>>,
}

/// How a line becomes tokens: an optional Unicode normalization, then a tokenizer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    /// Applied to the raw line first; `None` keeps the text as it is (sacrebleu's behaviour).
    pub normalization: Option<Normalization>,
    /// The tokenizer.
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
    /// MeCab with `model` after `normalization` (as sacrebleu's `ja-mecab` and `ko-mecab`
    /// run, when `normalization` is `None`).
    pub fn mecab(normalization: Option<Normalization>, model: Arc<MecabModel>) -> Self {
        Self {
            normalization,
            tokenizer: Tokenizer::Mecab(model),
        }
    }

    /// `line` in the pipeline's normalization: `line` itself when unchanged, else the
    /// normalized text, kept in `buffer`.
    ///
    /// # Errors
    /// The normalization's ([`Normalization::apply`]).
    pub fn normalize<'a>(&self, line: &'a str, buffer: &'a mut String) -> Result<&'a str> {
        match self
            .normalization
            .map(|form| form.apply(line))
            .transpose()?
        {
            Some(std::borrow::Cow::Owned(text)) => {
                *buffer = text;
                Ok(buffer)
            }
            _ => Ok(line),
        }
    }

    /// Normalizes `line` if asked and tokenizes it into `out` (replacing its content), as
    /// sacrebleu's tokenizer returns it (see [`Tokenizer`]).
    ///
    /// # Errors
    /// The normalization's; MeCab's: it cannot make a tagger, fails on the line or returns invalid UTF-8.
    pub fn tokenize_into(
        &self,
        line: &str,
        scratch: &mut TextScratch,
        out: &mut String,
    ) -> Result<()> {
        let line = self.normalize(line, &mut scratch.normalized)?;
        self.tokenizer.tokenize_into(line, &mut scratch.tagger, out)
    }

    /// The tokens a metric counts in `line`: sacrebleu's `tokenizer(line.rstrip()).split()`,
    /// after the normalization, read from the tokenizer's output (kept in `scratch`) or, where
    /// the tokens are plain spans of the line, from the line itself. `split-ascii` skips the
    /// `rstrip()` (Python's whitespace set), because `multi-bleu.perl` keeps a trailing U+00A0
    /// as part of the last word, and splits on ASCII whitespace only.
    ///
    /// # Errors
    /// As [`Pipeline::tokenize_into`].
    #[inline]
    pub fn tokens<'s>(&self, line: &'s str, scratch: &'s mut TextScratch) -> Result<Tokens<'s>> {
        let TextScratch {
            normalized,
            tokenized,
            tagger,
        } = scratch;
        let line = self.normalize(line, normalized)?;
        let (text, split) = match &self.tokenizer {
            Tokenizer::SplitAscii => (line, TokenSplit::Ascii),
            Tokenizer::None => (py_rstrip(line), TokenSplit::Python),
            Tokenizer::Char => (py_rstrip(line), TokenSplit::Chars),
            Tokenizer::StripPunct => (py_rstrip(line), TokenSplit::StripPunct),
            // Their output is `' '.join(words)`: splitting on `' '` suffices.
            Tokenizer::V13a | Tokenizer::Intl | Tokenizer::Zh => {
                self.tokenizer
                    .tokenize_into(py_rstrip(line), tagger, tokenized)?;
                (tokenized.as_str(), TokenSplit::Joined)
            }
            // MeCab strips the line itself; its output is split as Python splits it.
            Tokenizer::Mecab(_) => {
                self.tokenizer.tokenize_into(line, tagger, tokenized)?;
                (tokenized.as_str(), TokenSplit::Python)
            }
        };
        Ok(split.words(text))
    }
}

/// Where [`Pipeline::tokens`] finds the tokens: the word rule of the tokenizer's output, or of
/// the line itself where the tokens are spans of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenSplit {
    /// Python's `str.split()` (`none`, MeCab's output).
    Python,
    /// `char`: every character but whitespace.
    Chars,
    /// `' '.join(words)` (the output of `13a`, `intl` and `zh`).
    Joined,
    /// `split-ascii`: runs of ASCII whitespace separate.
    Ascii,
    /// `strip-punct`: ASCII punctuation and Python whitespace separate.
    StripPunct,
}

impl WordRule for TokenSplit {
    #[inline(always)]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        match self {
            Self::Python => PySpace.next_word(text, pos),
            Self::Chars => NonSpaceChars.next_word(text, pos),
            Self::Joined => SingleSpace.next_word(text, pos),
            Self::Ascii => AsciiSpace.next_word(text, pos),
            Self::StripPunct => PunctOrSpace.next_word(text, pos),
        }
    }
}

/// The tokens of one line, as [`Pipeline::tokens`] reads them.
pub type Tokens<'a> = Words<'a, TokenSplit>;

#[cfg(test)]
mod tests {
    use super::*;

    /// `rule` splits each line into its words, and `tokenizer` writes them joined by spaces.
    pub(super) fn check_splitter(
        tokenizer: Tokenizer,
        rule: impl WordRule + Copy,
        cases: &[(&str, &[&str])],
    ) {
        let pipeline = Pipeline::from(tokenizer);
        let (mut scratch, mut out) = (TextScratch::default(), String::new());
        for (line, words) in cases {
            assert_eq!(rule.words(line).collect::<Vec<_>>(), *words, "{line:?}");
            pipeline
                .tokenize_into(line, &mut scratch, &mut out)
                .unwrap();
            assert_eq!(out, words.join(" "), "{line:?}");
        }
    }

    /// What sacrebleu 2.6.0 returns for these lines: `(tokenizer, line, tokens)` rows of
    /// `verified.tsv`, unescaped.
    fn verified() -> Vec<(String, String, String)> {
        let rows = include_str!("verified.tsv").lines();
        rows.filter(|row| !row.starts_with('#'))
            .map(|row| {
                let fields: Vec<String> = row.split('\t').map(unescape).collect();
                let [tokenizer, line, tokens] = <[String; 3]>::try_from(fields).unwrap();
                (tokenizer, line, tokens)
            })
            .collect()
    }

    /// `\t`, `\n`, `\r`, `\\` and `\u{hex}` (`\u{20}` for a space at either end of a field) as
    /// the characters they stand for.
    fn unescape(field: &str) -> String {
        let mut out = String::new();
        let mut chars = field.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some('u') => {
                    let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                    out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                }
                other => panic!("unknown escape \\{other:?} in {field:?}"),
            }
        }
        out
    }

    /// The literal pass-by-pass emulation of a tokenizer, where the tests have one: the
    /// yardstick of its fused scan.
    fn literal(tokenizer: &str) -> Option<fn(&str) -> String> {
        match tokenizer {
            "13a" => Some(v13a::tests::reference_13a),
            "intl" => Some(intl::tests::reference_intl),
            "regexp" => Some(regexp::reference::regexp),
            _ => None,
        }
    }

    #[test]
    fn sacrebleu_verified_examples() {
        let (mut scratch, mut out) = (TextScratch::default(), String::from("left over"));
        let rows = verified();
        assert!(rows.len() >= 70, "{} rows", rows.len());
        for (name, line, expected) in &rows {
            let (name, line) = (name.as_str(), line.as_str());
            if name == "regexp" {
                regexp_stage_into(line, &mut out);
            } else {
                let pipeline = Pipeline::from(Tokenizer::from_name(name).unwrap());
                pipeline
                    .tokenize_into(line, &mut scratch, &mut out)
                    .unwrap();
            }
            assert_eq!(&out, expected, "{name} {line:?}");
            if let Some(reference) = literal(name) {
                assert_eq!(
                    &reference(line),
                    expected,
                    "{name} {line:?} (literal passes)"
                );
            }
        }
        assert!(Tokenizer::from_name("mecab").is_err());
    }
}
