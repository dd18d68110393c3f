//! What sacrebleu's chrF counts: the characters of a line (whitespace dropped unless asked
//! for), and chrF++'s words (`CHRF._remove_punctuation`).

use super::strip_punct::is_punctuation;
use crate::text::{is_py_whitespace, py_split};

/// Appends the code points chrF counts: all of them with `whitespace`, else all but Python
/// whitespace.
pub fn push_chrf_chars(line: &str, whitespace: bool, out: &mut Vec<u32>) {
    // Two loops: the whitespace test stays out of the one that keeps everything.
    if whitespace {
        out.extend(line.chars().map(u32::from));
    } else {
        out.extend(
            line.chars()
                .filter(|&c| !is_py_whitespace(c))
                .map(u32::from),
        );
    }
}

/// sacrebleu's `CHRF._remove_punctuation`: Python-whitespace words, with one character of
/// `string.punctuation` (its `_PUNCTS`) split off the end, or else off the start, of every
/// word longer than one character.
pub fn chrf_words(line: &str) -> impl Iterator<Item = &str> + '_ {
    py_split(line).flat_map(|word| {
        let (head, tail) = split_punctuation(word);
        std::iter::once(head).chain(tail)
    })
}

/// `word` with a punctuation character cut off its end or else its start, if it has more
/// than one character.
fn split_punctuation(word: &str) -> (&str, Option<&str>) {
    let mut chars = word.chars();
    let (Some(first), Some(last)) = (chars.next(), chars.next_back()) else {
        return (word, None); // one character
    };
    // The punctuation is ASCII, one byte, so the cut is a character boundary.
    let cut = if is_punctuation(last) {
        word.len() - 1
    } else if is_punctuation(first) {
        1
    } else {
        return (word, None);
    };
    match word.split_at_checked(cut) {
        Some((head, tail)) => (head, Some(tail)),
        None => (word, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_split_follows_sacrebleu() {
        // sacrebleu.md §3.1: one character only, the end first (#124).
        let words: Vec<&str> = chrf_words("(hi) word.) 'x' a , ...").collect();
        assert_eq!(
            words,
            ["(hi", ")", "word.", ")", "'x", "'", "a", ",", "..", "."]
        );
        let words: Vec<&str> = chrf_words("¿qué? «x»").collect();
        assert_eq!(words, ["¿qué", "?", "«x»"]);
    }

    #[test]
    fn whitespace_is_counted_only_when_asked_for() {
        let chars = |whitespace| {
            let mut out = Vec::new();
            push_chrf_chars(" a\u{3000}b ", whitespace, &mut out);
            out
        };
        assert_eq!(chars(false), [97, 98]);
        assert_eq!(chars(true), [32, 97, 0x3000, 98, 32]);
    }
}
