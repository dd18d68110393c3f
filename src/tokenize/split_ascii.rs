//! `split-ascii`: the word split of Moses `multi-bleu.perl` (`split(' ', $line)` in Perl on
//! undecoded bytes). Words are separated by runs of ASCII whitespace only: space, `\t`, `\n`,
//! `\x0b`, `\x0c` and `\r`; leading and trailing whitespace is ignored. Every other character,
//! including Unicode spaces such as U+00A0, U+0085, U+001C..U+001F and U+2003, is part of a
//! word, because Perl's `\s` on a byte string only knows ASCII.

use crate::text::{push_joined, WordRule, Words};

/// True for the bytes Perl's `split ' '` separates on.
#[inline]
fn is_ascii_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// `multi-bleu.perl`'s split: runs of ASCII whitespace separate words.
#[derive(Debug, Clone, Copy, Default)]
pub struct AsciiSpace;

impl WordRule for AsciiSpace {
    #[inline]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        let rest = text.as_bytes().get(*pos..)?;
        let start = *pos + rest.iter().position(|&b| !is_ascii_separator(b))?;
        // The word runs to the next separator, or to the end of the text. Separators are
        // ASCII, so both ends are character boundaries.
        let word = text.as_bytes().get(start..)?;
        *pos = start
            + word
                .iter()
                .position(|&b| is_ascii_separator(b))
                .unwrap_or(word.len());
        text.get(start..*pos)
    }
}

/// The words of a line, as `multi-bleu.perl` splits it.
pub type AsciiWords<'a> = Words<'a, AsciiSpace>;

/// The words of `line` split on ASCII whitespace only.
pub fn ascii_words(line: &str) -> AsciiWords<'_> {
    Words::new(line, AsciiSpace)
}

/// The words joined by single spaces. A word never contains an ASCII space, so
/// `out.split(' ')` recovers them (Python's `split()` would also split at U+00A0 and friends).
pub(super) fn tokenize(line: &str, out: &mut String) {
    push_joined(ascii_words(line), out);
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
