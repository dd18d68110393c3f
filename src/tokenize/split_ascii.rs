//! `split-ascii`: the word split of Moses `multi-bleu.perl` (`split(' ', $line)` in Perl on
//! undecoded bytes). Words are separated by runs of ASCII whitespace only: space, `\t`, `\n`,
//! `\x0b`, `\x0c` and `\r`; leading and trailing whitespace is ignored. Every other character,
//! including Unicode spaces such as U+00A0, U+0085, U+001C..U+001F and U+2003, is part of a
//! word, because Perl's `\s` on a byte string only knows ASCII.

/// True for the bytes Perl's `split ' '` separates on.
#[inline]
fn is_ascii_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// Iterator over the words of a line, as `multi-bleu.perl` splits it.
#[derive(Debug, Clone)]
pub struct AsciiWords<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for AsciiWords<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let rest = bytes.get(self.pos..)?;
        let skip = rest.iter().position(|&b| !is_ascii_separator(b))?;
        let start = self.pos + skip;
        // The word runs to the next separator, or to the end of the text.
        let len = rest
            .iter()
            .skip(skip)
            .position(|&b| is_ascii_separator(b))
            .unwrap_or(rest.len() - skip);
        self.pos = start + len;
        // Separators are ASCII, so both ends are character boundaries.
        self.text.get(start..start + len)
    }
}

/// The words of `line` split on ASCII whitespace only.
pub fn ascii_words(line: &str) -> AsciiWords<'_> {
    AsciiWords { text: line, pos: 0 }
}

/// The words joined by single spaces. A word never contains an ASCII space, so
/// `out.split(' ')` recovers them (Python's `split()` would also split at U+00A0 and friends).
pub(super) fn tokenize(line: &str, out: &mut String) {
    super::push_words(ascii_words(line), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ascii_whitespace_separates() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            (" \t\r\n\x0b\x0c ", &[]),
            ("a\u{a0}b c d", &["a\u{a0}b", "c", "d"]),
            (
                "  x\x1cy\u{85}z\u{2003}w\tv\x0bu\x0ct\rs\n",
                &["x\x1cy\u{85}z\u{2003}w", "v", "u", "t", "s"],
            ),
            ("\u{a0}lead trail\u{a0}", &["\u{a0}lead", "trail\u{a0}"]),
            ("日本  語", &["日本", "語"]),
        ];
        for (line, words) in cases {
            assert_eq!(ascii_words(line).collect::<Vec<_>>(), *words, "{line:?}");
            let mut out = String::new();
            tokenize(line, &mut out);
            assert_eq!(out, words.join(" "), "{line:?}");
        }
    }
}
