//! `whisper/normalizers/basic.py` of openai-whisper 20250625: `remove_symbols`,
//! `remove_symbols_and_diacritics` and `BasicTextNormalizer`, with whisper-normalizer 0.1.15's
//! `preserve_marks` (keep Unicode marks such as Brahmic vowel signs and viramas).

use super::scan::{remove_brackets, remove_parens};
use super::tables::ADDITIONAL_DIACRITICS;
use super::unicode::{
    ascii_props, for_each_normalized, props, push_collapsed_whitespace, push_lower,
    push_split_graphemes, MARK, MN, PUNCT, SYMBOL,
};

/// The replacement of a letter that NFKD leaves whole (`ADDITIONAL_DIACRITICS`: œ, ø, ß, ...).
fn additional_diacritic(c: char) -> Option<&'static str> {
    if c.is_ascii() {
        return None;
    }
    let mut buf = [0u8; 4];
    let key: &str = c.encode_utf8(&mut buf);
    ADDITIONAL_DIACRITICS
        .iter()
        .find(|(from, _)| *from == key)
        .map(|(_, to)| *to)
}

/// Appends `remove_symbols_and_diacritics(s, keep)` to `out`: NFKD, then the characters of
/// `keep` stay, `ADDITIONAL_DIACRITICS` are spelled out, nonspacing marks (Mn) are dropped and
/// other marks, symbols and punctuation (M*, S*, P*) become spaces.
pub fn push_remove_symbols_and_diacritics(s: &str, keep: &str, out: &mut String) {
    if s.is_ascii() {
        return push_ascii_without_symbols(s, keep, out);
    }
    for_each_normalized(s, false, |c| {
        let p = props(c);
        if p & (MARK | SYMBOL | PUNCT) == 0 {
            // not a mark, symbol or punctuation: kept, unless it is one of the extra letters
            match additional_diacritic(c) {
                Some(spelled) if !keep.contains(c) => out.push_str(spelled),
                _ => out.push(c),
            }
        } else if keep.contains(c) {
            out.push(c);
        } else if p & MN == 0 {
            out.push(' ');
        }
    });
}

/// Both removals on ASCII text, which normalization leaves alone and which has no marks: each
/// symbol or punctuation byte not in `keep` becomes a space.
fn push_ascii_without_symbols(s: &str, keep: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    for (at, &b) in bytes.iter().enumerate() {
        if ascii_props(b) & (SYMBOL | PUNCT) != 0 && !keep.as_bytes().contains(&b) {
            out.push_str(s.get(copied..at).unwrap_or_default());
            out.push(' ');
            copied = at + 1;
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

/// upstream's `remove_symbols_and_diacritics(s, keep)`.
pub fn remove_symbols_and_diacritics(s: &str, keep: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_remove_symbols_and_diacritics(s, keep, &mut out);
    out
}

/// Appends `remove_symbols(s)` to `out`: NFKC, then marks, symbols and punctuation (M*, S*,
/// P*) become spaces; diacritics stay.
pub fn push_remove_symbols(s: &str, out: &mut String) {
    push_remove_symbols_with(s, false, out);
}

/// [`push_remove_symbols`], or with `preserve_marks` whisper-normalizer 0.1.15's
/// `remove_symbols(s, preserve_marks=True)`: marks (M*) stay too.
pub fn push_remove_symbols_with(s: &str, preserve_marks: bool, out: &mut String) {
    if s.is_ascii() {
        return push_ascii_without_symbols(s, "", out);
    }
    let removed = if preserve_marks {
        SYMBOL | PUNCT
    } else {
        MARK | SYMBOL | PUNCT
    };
    for_each_normalized(s, true, |c| {
        if props(c) & removed != 0 {
            out.push(' ');
        } else {
            out.push(c);
        }
    });
}

/// upstream's `remove_symbols(s)`.
pub fn remove_symbols(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_remove_symbols(s, &mut out);
    out
}

/// openai-whisper's `BasicTextNormalizer(remove_diacritics, split_letters)`, and
/// whisper-normalizer 0.1.15's with `preserve_marks`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BasicTextNormalizer {
    /// Use `remove_symbols_and_diacritics` rather than `remove_symbols`.
    pub remove_diacritics: bool,
    /// Separate the grapheme clusters (`regex`'s `\X`) with spaces.
    pub split_letters: bool,
    /// whisper-normalizer's `preserve_marks`: `remove_symbols` keeps marks (M*). Upstream
    /// refuses it with `remove_diacritics`, which ignores it here.
    pub preserve_marks: bool,
}

impl BasicTextNormalizer {
    /// The normalizer with these options (openai-whisper's: marks become spaces).
    pub fn new(remove_diacritics: bool, split_letters: bool) -> Self {
        Self {
            remove_diacritics,
            split_letters,
            preserve_marks: false,
        }
    }

    /// The same, keeping marks (whisper-normalizer 0.1.15's `preserve_marks=True`).
    #[must_use]
    pub fn preserving_marks(self) -> Self {
        Self {
            preserve_marks: true,
            ..self
        }
    }

    /// Appends the normalized `text` to `out`.
    pub fn normalize(&self, text: &str, out: &mut String) {
        let mut a = String::with_capacity(text.len() + 8);
        let mut b = String::with_capacity(text.len() + 8);
        push_lower(text, &mut a);
        remove_brackets(&a, &mut b); // remove words between brackets
        a.clear();
        remove_parens(&b, &mut a); // remove words between parenthesis
        b.clear();
        if self.remove_diacritics {
            push_remove_symbols_and_diacritics(&a, "", &mut b);
        } else {
            push_remove_symbols_with(&a, self.preserve_marks, &mut b);
        }
        a.clear();
        push_lower(&b, &mut a);
        if self.split_letters {
            b.clear();
            push_split_graphemes(&a, &mut b);
            std::mem::swap(&mut a, &mut b);
        }
        push_collapsed_whitespace(&a, out);
    }
}

/// `BasicTextNormalizer(remove_diacritics, split_letters)(text)` of openai-whisper 20250625.
pub fn whisper_basic(text: &str, remove_diacritics: bool, split_letters: bool) -> String {
    let mut out = String::with_capacity(text.len());
    BasicTextNormalizer::new(remove_diacritics, split_letters).normalize(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic() {
        assert_eq!(whisper_basic("", false, false), "");
        assert_eq!(
            whisper_basic("Hello, [noise] World! (laughs) <unk>", false, false),
            "hello world "
        );
        assert_eq!(whisper_basic("Crème brûlée", false, false), "crème brûlée");
        assert_eq!(whisper_basic("Crème brûlée", true, false), "creme brulee");
        assert_eq!(whisper_basic("Straße Œuvre", true, false), "strasse oeuvre");
        assert_eq!(whisper_basic("ﬁve ²", false, false), "five 2");
        assert_eq!(whisper_basic("ab c", false, true), "a b c");
        assert_eq!(remove_symbols_and_diacritics("a.b%", ".%"), "a.b%");
        assert_eq!(remove_symbols("a-b"), "a b");
        // Devanagari vowel signs and the virama are marks: gone, or kept with preserve_marks.
        let hindi = "हिन्दी, नमस्ते!";
        assert_eq!(whisper_basic(hindi, false, false), "ह न द नमस त ");
        let mut out = String::new();
        BasicTextNormalizer::new(false, false)
            .preserving_marks()
            .normalize(hindi, &mut out);
        assert_eq!(out, "हिन्दी नमस्ते ");
    }
}
