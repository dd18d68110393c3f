//! Text to tokens, exactly as jiwer 4.0.0's default transforms produce them.
//!
//! * Words (`wer_default`): `re.sub(r"\s\s+", " ", s)`, then `s.strip()`, then
//!   `s.split(" ")` without the empty strings. A run of two or more whitespace characters
//!   separates words, and so does a single ASCII space; a single other whitespace character
//!   (a tab, U+00A0, U+3000, ...) between two non-space characters stays inside the word
//!   (`"a\tb c"` is two words: `"a\tb"` and `"c"`). `\s` and `str.strip()` both use Python's
//!   whitespace set ([`crate::text::is_py_whitespace`]).
//! * Characters (`cer_default`): `s.strip()`, then every code point (spaces included).
//!
//! The `raw` variants skip the whitespace handling: words are `s.split(" ")` without empty
//! strings (jiwer's `ReduceToListOfListOfWords` alone), characters are every code point of `s`.

use crate::text::{py_space_len, py_strip};

/// What the text is split into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Words (WER, MER, WIL, WIP).
    Word,
    /// Characters (CER).
    Char,
}

crate::enums::name_table!(Unit, "unit", {
    Word => "word",
    Char => "char",
});

/// How text becomes tokens: the unit, and whether jiwer's whitespace cleanup runs first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Split {
    /// Words or characters.
    pub unit: Unit,
    /// Skip the whitespace cleanup (see the module documentation).
    pub raw: bool,
}

/// Appends the words of `s` as jiwer's `wer_default` splits them.
pub fn jiwer_words<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut word_start: Option<usize> = None;
    while i < bytes.len() {
        let n = py_space_len(bytes, i);
        if n == 0 {
            word_start.get_or_insert(i);
            // Whitespace starts only at ASCII or UTF-8 lead bytes, so stepping byte by byte
            // never finds one inside another character.
            i += 1;
            continue;
        }
        let run_start = i;
        let mut run_chars = 0usize;
        loop {
            match py_space_len(bytes, i) {
                0 => break,
                m => {
                    i += m;
                    run_chars += 1;
                }
            }
        }
        let Some(start) = word_start else {
            continue; // leading whitespace: stripped
        };
        if i == bytes.len() {
            // Trailing whitespace: stripped.
            out.extend(s.get(start..run_start));
            return;
        }
        if run_chars >= 2 || bytes.get(run_start) == Some(&b' ') {
            out.extend(s.get(start..run_start));
            word_start = None;
        }
        // Otherwise a single non-space whitespace character stays inside the word.
    }
    if let Some(start) = word_start {
        out.extend(s.get(start..));
    }
}

/// Appends the words of `s.split(" ")`, without empty strings.
pub fn space_words<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    out.extend(s.split(' ').filter(|w| !w.is_empty()));
}

/// Appends the tokens of `s` under `split`; characters come as one-character slices.
pub fn tokens<'a>(s: &'a str, split: Split, out: &mut Vec<&'a str>) {
    match (split.unit, split.raw) {
        (Unit::Word, false) => jiwer_words(s, out),
        (Unit::Word, true) => space_words(s, out),
        (Unit::Char, raw) => {
            let s = if raw { s } else { py_strip(s) };
            out.extend(
                s.char_indices()
                    .filter_map(|(i, c)| s.get(i..i + c.len_utf8())),
            );
        }
    }
}

/// The text whose characters `Split { unit: Char, .. }` counts.
pub fn char_text(s: &str, raw: bool) -> &str {
    if raw {
        s
    } else {
        py_strip(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        jiwer_words(s, &mut out);
        out
    }

    /// The jiwer pipeline written out literally, for comparison.
    fn reference_words(s: &str) -> Vec<String> {
        // re.sub(r"\s\s+", " ", s)
        let chars: Vec<char> = s.chars().collect();
        let mut collapsed = String::new();
        let mut i = 0;
        while i < chars.len() {
            if crate::text::is_py_whitespace(chars[i]) {
                let mut j = i;
                while j < chars.len() && crate::text::is_py_whitespace(chars[j]) {
                    j += 1;
                }
                if j - i >= 2 {
                    collapsed.push(' ');
                } else {
                    collapsed.push(chars[i]);
                }
                i = j;
            } else {
                collapsed.push(chars[i]);
                i += 1;
            }
        }
        py_strip(&collapsed)
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn jiwer_word_splitting() {
        assert_eq!(words("a\tb c"), ["a\tb", "c"]);
        assert_eq!(words("  hello   world  "), ["hello", "world"]);
        assert_eq!(words("a \tb"), ["a", "b"]);
        assert_eq!(words("\ta\u{3000}b\u{a0}"), ["a\u{3000}b"]);
        assert_eq!(words("a\u{3000}\u{3000}b"), ["a", "b"]);
        assert!(words("").is_empty());
        assert!(words(" \t\n").is_empty());
        assert!(words("\u{85}").is_empty());
        assert_eq!(words("x\u{200b} y"), ["x\u{200b}", "y"]);
    }

    #[test]
    fn agrees_with_the_literal_pipeline() {
        let pieces = [
            "a", "bc", " ", "  ", "\t", "\n", "\u{a0}", "\u{3000}", "\u{2028}", "é", "日本",
            "\u{1c}", "\u{85}",
        ];
        // Every string of up to four pieces.
        let mut stack = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &stack {
                for p in &pieces {
                    next.push(format!("{s}{p}"));
                }
            }
            for s in &next {
                assert_eq!(words(s), reference_words(s), "{s:?}");
            }
            stack = next;
        }
    }

    #[test]
    fn characters_and_raw_modes() {
        let mut out = Vec::new();
        tokens(
            " ab  é ",
            Split {
                unit: Unit::Char,
                raw: false,
            },
            &mut out,
        );
        assert_eq!(out, ["a", "b", " ", " ", "é"]);
        out.clear();
        tokens(
            " a ",
            Split {
                unit: Unit::Char,
                raw: true,
            },
            &mut out,
        );
        assert_eq!(out, [" ", "a", " "]);
        out.clear();
        tokens(
            " a\tb  c ",
            Split {
                unit: Unit::Word,
                raw: true,
            },
            &mut out,
        );
        assert_eq!(out, ["a\tb", "c"]);
        assert!(Unit::from_name("words").is_err());
    }
}
