//! `split-ascii`: the word split of Moses `multi-bleu.perl` (`split(' ', $line)` in Perl on
//! undecoded bytes). Words are separated by runs of ASCII whitespace only: space, `\t`, `\n`,
//! `\x0b`, `\x0c` and `\r`; leading and trailing whitespace is ignored. Every other character,
//! including Unicode spaces such as U+00A0, U+0085, U+001C..U+001F and U+2003, is part of a
//! word, because Perl's `\s` on a byte string only knows ASCII.

use crate::text::WordRule;

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
        super::super::tests::check_splitter(super::super::Tokenizer::SplitAscii, AsciiSpace, cases);
    }
}
