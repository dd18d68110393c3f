//! Text before tokenizing: reading lines as sacrebleu does, Python's whitespace and word
//! splits, Unicode normalization, and which scripts a text is written in.
//!
//! - [`whitespace`]: Python's whitespace set, `str.strip()` and `str.rstrip()`.
//! - [`words`]: the words of a line as slices of it, under Python's `str.split()` and other
//!   rules ([`words::WordRule`]).
//! - [`lines`]: text files to lines (BOM, `\n`-only line ends, `rstrip`, decode errors with
//!   byte offsets).
//! - [`normalize`]: optional NFC/NFKC before tokenizing.
//! - [`script`]: letter counts by script (Han, kana, Hangul, other) for the CJK warning.
//! - [`whisper`]: openai-whisper's text normalizers (`BasicTextNormalizer`,
//!   `EnglishTextNormalizer`) for speech evaluation.
//!
//! The items of `whitespace` and `words` that every tokenizer and metric uses are re-exported
//! here.

pub mod lines;
pub mod normalize;
pub mod script;
pub mod whisper;
pub mod whitespace;
pub mod words;

pub use whitespace::{is_py_whitespace, push_joined_words, py_rstrip, py_space_len, py_strip};
pub use words::{push_joined, py_split, NonSpaceChars, PySpace, SingleSpace, WordRule, Words};

/// A lookup table of `$len` entries computed at compile time, entry `b` (a `usize`) being
/// `$entry`, so a hot loop classifies a byte or an ASCII character with one load:
/// `byte_table!(256, false, |b| b == 0x20)`. A bad index fails the build.
macro_rules! byte_table {
    ($len:expr, $init:expr, |$b:ident| $entry:expr) => {{
        let mut table = [$init; $len];
        let mut $b = 0;
        while $b < $len {
            #[allow(clippy::indexing_slicing)] // const evaluation: checked by the compiler
            {
                table[$b] = $entry;
            }
            $b += 1;
        }
        table
    }};
}

pub(crate) use byte_table;
