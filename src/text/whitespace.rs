//! Python's notion of whitespace, which sacrebleu relies on through `str.split()` and
//! `str.rstrip()`. Reproducing it exactly is what makes token counts identical.

use super::words::{push_joined, py_split};

/// True for the characters Python's `str.split()` treats as whitespace: U+0009–000D,
/// U+001C–001F, U+0020, U+0085, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F,
/// U+205F and U+3000. Not U+200B (zero width space) and not U+FEFF (BOM).
#[inline]
pub fn is_py_whitespace(c: char) -> bool {
    match c {
        '\u{09}'..='\u{0D}' | '\u{1C}'..='\u{20}' => true,
        c if (c as u32) < 0x85 => false,
        '\u{85}' | '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' => true,
        '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => true,
        _ => false,
    }
}

/// The byte length of the Python whitespace character starting at `bytes[i]`, or 0 if there is
/// none. Matches the UTF-8 encodings of the set in [`is_py_whitespace`] without decoding.
#[inline]
pub fn py_space_len(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i..) {
        Some([0x09..=0x0D | 0x1C..=0x20, ..]) => 1,
        Some([0xC2, 0x85 | 0xA0, ..]) => 2,
        Some([0xE1, 0x9A, 0x80, ..] | [0xE3, 0x80, 0x80, ..] | [0xE2, 0x81, 0x9F, ..]) => 3,
        Some([0xE2, 0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF, ..]) => 3,
        _ => 0,
    }
}

/// `s.rstrip()` with Python's whitespace set.
#[inline]
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_whitespace)
}

/// `s.strip()` with Python's whitespace set.
#[inline]
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_whitespace)
}

/// Appends `' '.join(s.split())` to `out`: collapses runs of Python whitespace to one space
/// and drops leading and trailing whitespace.
pub fn push_joined_words(s: &str, out: &mut String) {
    push_joined(py_split(s), out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::words::{NonSpaceChars, SingleSpace, WordRule};

    #[test]
    fn whitespace_set_matches_python() {
        // Generated with: [i for i in range(0x110000) if chr(i).isspace()] on CPython 3.11
        let expected: Vec<u32> = vec![
            9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196,
            8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288,
        ];
        let got: Vec<u32> = (0..0x11_0000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_py_whitespace(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn byte_split_agrees_with_char_predicate() {
        let mut text = String::new();
        for c in (0..0x3100u32).filter_map(char::from_u32) {
            text.push(c);
            text.push('x');
        }
        let expected: Vec<&str> = text
            .split(is_py_whitespace)
            .filter(|w| !w.is_empty())
            .collect();
        assert_eq!(py_split(&text).collect::<Vec<_>>(), expected);
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let encoded = c.encode_utf8(&mut buf);
            let len = py_space_len(encoded.as_bytes(), 0);
            assert_eq!(len > 0, is_py_whitespace(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn joined_split_inverts_join() {
        for words in [
            vec![],
            vec!["a"],
            vec!["a", "bc", "日本"],
            vec!["x", "y", "z", "."],
        ] {
            let joined = words.join(" ");
            assert_eq!(SingleSpace.words(&joined).collect::<Vec<_>>(), words);
            assert_eq!(py_split(&joined).collect::<Vec<_>>(), words);
        }
    }

    #[test]
    fn char_words_are_the_joined_split() {
        for s in [
            "",
            "ab",
            " a\u{3000}b\u{2028}c ",
            "日本 語",
            "\u{85}x\u{a0}",
        ] {
            let joined: Vec<char> = s.chars().collect();
            let joined = joined
                .iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            let expected: Vec<&str> = py_split(&joined).collect();
            assert_eq!(
                NonSpaceChars.words(s).collect::<Vec<_>>(),
                expected,
                "{s:?}"
            );
        }
    }

    #[test]
    fn split_and_strip() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("  a \t b\u{3000}c\u{200B}d  ", &["a", "b", "c\u{200B}d"]),
            ("\u{FEFF}x", &["\u{FEFF}x"]),
        ];
        for (input, words) in cases {
            assert_eq!(py_split(input).collect::<Vec<_>>(), *words, "{input:?}");
        }
        assert_eq!(py_rstrip("a b \r\n\u{85}"), "a b");
        assert_eq!(py_strip("\u{A0} a "), "a");
        let mut out = String::new();
        push_joined_words("  a  b\n c ", &mut out);
        assert_eq!(out, "a b c");
    }
}
