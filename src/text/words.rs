//! The words of a line, as slices of it: one iterator, [`Words`], over any rule that finds the
//! next word ([`WordRule`], `rule.words(line)`). The rules here are Python's: `str.split()`
//! ([`PySpace`], or [`py_split`]), the split of text that is already `' '.join(words)`
//! ([`SingleSpace`]) and the characters of `" ".join(line).split()` ([`NonSpaceChars`]);
//! tokenizers add their own (Moses' ASCII whitespace, jury's punctuation).

use super::whitespace::{is_py_whitespace, py_space_len};

/// Where a rule's words are.
pub trait WordRule {
    /// The first word of `text` at or after byte `*pos`, which it moves past the word (and
    /// whatever the rule reads with it); `None` when no word is left.
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str>;

    /// The words of `text` under this rule.
    fn words(self, text: &str) -> Words<'_, Self>
    where
        Self: Sized,
    {
        Words {
            text,
            pos: 0,
            rule: self,
        }
    }
}

/// The words of a text under the rule `R`.
#[derive(Debug, Clone)]
pub struct Words<'a, R> {
    text: &'a str,
    pos: usize,
    rule: R,
}

impl<'a, R: WordRule> Iterator for Words<'a, R> {
    type Item = &'a str;

    #[inline(always)]
    fn next(&mut self) -> Option<&'a str> {
        self.rule.next_word(self.text, &mut self.pos)
    }
}

/// Appends `' '.join(words)` to `out`.
pub fn push_joined<'w>(words: impl Iterator<Item = &'w str>, out: &mut String) {
    for (i, word) in words.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// Bytes that can start a Python whitespace character: ASCII whitespace and the UTF-8 lead
/// bytes of the non-ASCII ones.
static MAY_START_SPACE: [bool; 256] = crate::text::byte_table!(256, false, |b| matches!(
    b,
    0x09..=0x0D | 0x1C..=0x20 | 0xC2 | 0xE1 | 0xE2 | 0xE3
));

/// Python's `str.split()` (no argument): runs of Python whitespace separate words.
#[derive(Debug, Clone, Copy, Default)]
pub struct PySpace;

impl WordRule for PySpace {
    #[inline]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        let bytes = text.as_bytes();
        // Skip whitespace; a single ASCII space is by far the most common separator.
        loop {
            match bytes.get(*pos) {
                None => return None,
                Some(b' ') => *pos += 1,
                Some(_) => match py_space_len(bytes, *pos) {
                    0 => break,
                    n => *pos += n,
                },
            }
        }
        let start = *pos;
        let mut end = start;
        loop {
            // Whitespace starts at an ASCII byte or at a UTF-8 lead byte, so the word ends on
            // a character boundary.
            // In bounds: `end` starts at `pos` (the byte just read) and only moves to a byte
            // found below or one past it, so `end <= bytes.len()`; a `u8` indexes the
            // 256-entry table.
            #[allow(clippy::indexing_slicing)]
            let candidate = bytes[end..]
                .iter()
                .position(|&b| MAY_START_SPACE[usize::from(b)]);
            match candidate {
                None => {
                    end = bytes.len();
                    break;
                }
                Some(offset) => {
                    end += offset;
                    if py_space_len(bytes, end) > 0 {
                        break;
                    }
                    end += 1;
                }
            }
        }
        *pos = end;
        text.get(start..end)
    }
}

/// The words of `s` exactly as Python's `s.split()` (no argument) yields them.
pub fn py_split(s: &str) -> Words<'_, PySpace> {
    PySpace.words(s)
}

/// Text that is already `' '.join(words)` (the output of the `13a` and `intl` tokenizers):
/// words are separated by single ASCII spaces, so splitting on that byte is Python's split.
#[derive(Debug, Clone, Copy, Default)]
pub struct SingleSpace;

impl WordRule for SingleSpace {
    #[inline(always)]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        let start = *pos;
        let rest = text.as_bytes().get(start..).filter(|r| !r.is_empty())?;
        // No space: the last word runs to the end.
        let len = rest.iter().position(|&b| b == b' ').unwrap_or(rest.len());
        // Past the word and the space after it. A space is ASCII, so both ends of the word
        // are character boundaries.
        *pos = start + len + 1;
        text.get(start..start + len)
    }
}

/// `" ".join(s).split()`: every character but Python whitespace is a word of its own (what
/// BLEU counts with the `char` tokenizer), without building the joined string.
#[derive(Debug, Clone, Copy, Default)]
pub struct NonSpaceChars;

impl WordRule for NonSpaceChars {
    #[inline]
    fn next_word<'a>(&self, text: &'a str, pos: &mut usize) -> Option<&'a str> {
        let rest = text.get(*pos..)?;
        let (offset, c) = rest.char_indices().find(|&(_, c)| !is_py_whitespace(c))?;
        let start = *pos + offset;
        *pos = start + c.len_utf8();
        text.get(start..*pos)
    }
}
