//! `strip-punct`: the word split of nlg-metricverse / jury `normalize_text` without its
//! lowercasing (callers lowercase first): every character of Python's `string.punctuation`
//! (the 32 ASCII characters ``!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~``) becomes a space, then the
//! line is split like Python's `str.split()`. Non-ASCII punctuation (`«`, `—`, `…`) stays.

use crate::text::{is_py_whitespace, WordRule};

/// True for the characters of Python's `string.punctuation`.
#[inline]
pub(super) fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
}

#[inline]
fn is_separator(c: char) -> bool {
    is_punctuation(c) || is_py_whitespace(c)
}

/// Maximal runs of characters that are neither Python whitespace nor ASCII punctuation are
/// the words: the split of the line with its punctuation replaced by spaces, without building
/// that line.
#[derive(Debug, Clone, Copy, Default)]
pub struct PunctOrSpace;

impl WordRule for PunctOrSpace {
    #[inline]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        let start = *pos + text.get(*pos..)?.find(|c: char| !is_separator(c))?;
        let word = text.get(start..)?;
        *pos = start + word.find(is_separator).unwrap_or(word.len());
        text.get(start..*pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_punctuation_is_the_ascii_set() {
        // string.punctuation
        let expected = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
        let got: String = (0..0x11_0000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_punctuation(c))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn punctuation_becomes_space() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("...", &[]),
            (
                "Look! what a wonderful day, today.",
                &["Look", "what", "a", "wonderful", "day", "today"],
            ),
            (
                "«bonjour» — dit il… ok",
                &["«bonjour»", "—", "dit", "il…", "ok"],
            ),
            (
                "it's a-b_c\u{3000}d\u{a0}e",
                &["it", "s", "a", "b", "c", "d", "e"],
            ),
            ("x\u{200b}y", &["x\u{200b}y"]),
        ];
        super::super::tests::check_splitter(
            super::super::Tokenizer::StripPunct,
            PunctOrSpace,
            cases,
        );
    }
}
