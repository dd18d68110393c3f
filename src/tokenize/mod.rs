//! BLEU tokenizers, each identical string for string to its sacrebleu 2.6.0 counterpart.
//!
//! | name   | sacrebleu class                | file        |
//! |--------|--------------------------------|-------------|
//! | `none` | `NoneTokenizer`                | `none.rs`   |
//! | `13a`  | `Tokenizer13a` (mteval-v13a)   | `v13a.rs`   |
//! | `intl` | `TokenizerV14International`    | `intl.rs`   |
//! | `char` | `TokenizerChar`                | `char.rs`   |
//! | `zh`   | `TokenizerZh`                  | `zh.rs`     |

mod char;
mod intl;
mod none;
mod regexp;
mod unicode_tables;
mod v13a;
mod zh;

use crate::error::{Error, Result};
use crate::normalize::Normalization;

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
}

impl Tokenizer {
    /// Every tokenizer name accepted by [`Tokenizer::from_name`].
    pub const NAMES: [&'static str; 5] = ["none", "13a", "intl", "char", "zh"];

    /// Parses a sacrebleu tokenizer name.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for a name that is not in [`Tokenizer::NAMES`].
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(Self::None),
            "13a" => Ok(Self::V13a),
            "intl" => Ok(Self::Intl),
            "char" => Ok(Self::Char),
            "zh" => Ok(Self::Zh),
            other => Err(Error::invalid_option(format!(
                "unknown tokenizer {other:?}; expected one of {}",
                Self::NAMES.join(", ")
            ))),
        }
    }

    /// The name used in signatures (`tok:13a`).
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::V13a => "13a",
            Self::Intl => "intl",
            Self::Char => "char",
            Self::Zh => "zh",
        }
    }

    /// Writes the tokenization of `line` into `out` (which is cleared first), exactly as
    /// sacrebleu's tokenizer `__call__(line)` returns it.
    pub fn tokenize_into(self, line: &str, out: &mut String) {
        out.clear();
        match self {
            Self::None => none::tokenize(line, out),
            Self::V13a => v13a::tokenize(line, out),
            Self::Intl => intl::tokenize(line, out),
            Self::Char => char::tokenize(line, out),
            Self::Zh => zh::tokenize(line, out),
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
