//! BLEU tokenizers, each identical string for string to its sacrebleu 2.6.0 counterpart.
//!
//! | name   | sacrebleu class                | file        |
//! |--------|--------------------------------|-------------|
//! | `none` | `NoneTokenizer`                | `none.rs`   |
//! | `13a`  | `Tokenizer13a` (mteval-v13a)   | `v13a.rs`   |
//! | `intl` | `TokenizerV14International`    | `intl.rs`   |
//! | `char` | `TokenizerChar`                | `char.rs`   |

mod char;
mod intl;
mod none;
mod regexp;
mod unicode_tables;
mod v13a;

use crate::error::{Error, Result};

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
}

impl Tokenizer {
    /// Every tokenizer name accepted by [`Tokenizer::from_name`].
    pub const NAMES: [&'static str; 4] = ["none", "13a", "intl", "char"];

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
        }
    }

    /// Returns the tokenization of `line` as a new string.
    pub fn tokenize(self, line: &str) -> String {
        let mut out = String::with_capacity(line.len() + line.len() / 4);
        self.tokenize_into(line, &mut out);
        out
    }
}
