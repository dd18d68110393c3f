//! Text before tokenizing: reading lines as sacrebleu does, Python's whitespace, Unicode
//! normalization, and which scripts a text is written in.
//!
//! - [`whitespace`]: Python's whitespace set, `str.split()`, `str.strip()` and `rstrip()`; its
//!   items are re-exported here, since every tokenizer and metric splits with them.
//! - [`lines`]: text files to lines (BOM, `\n`-only line ends, `rstrip`, decode errors with
//!   byte offsets).
//! - [`normalize`]: optional NFC/NFKC before tokenizing.
//! - [`script`]: letter counts by script (Han, kana, Hangul, other) for the CJK warning.

pub mod lines;
pub mod normalize;
pub mod script;
pub mod whitespace;

pub use whitespace::{
    char_words, is_py_whitespace, push_joined_words, py_rstrip, py_space_len, py_split, py_strip,
    split_joined, CharWords, JoinedSplit, PySplit,
};
