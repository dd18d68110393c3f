//! Python's notion of whitespace, which sacrebleu relies on through `str.split()` and
//! `str.rstrip()`. Reproducing it exactly is what makes token counts identical.

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

/// Iterates over the words of `s` exactly as Python's `s.split()` (no argument) does.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_whitespace).filter(|w| !w.is_empty())
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
    let mut first = true;
    for word in py_split(s) {
        if !first {
            out.push(' ');
        }
        out.push_str(word);
        first = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
