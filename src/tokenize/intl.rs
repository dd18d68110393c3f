//! `intl`: sacrebleu `TokenizerV14International` (mteval-v14 `--international-tokenization`).
//!
//! With the `regex` module: `(\P{N})(\p{P})` → `\1 \2 `, then `(\p{P})(\P{N})` → ` \1 \2`,
//! then `(\p{S})` → ` \1 `, then `' '.join(line.split())`. No padding, no entities.
//!
//! This is the `13a` scan of [`super::regexp`] with `[.,]` widened to `\p{P}` and `[0-9]` to
//! `\p{N}`: the first two passes act on each maximal run of punctuation alone
//! ([`run_breaks`]), and the symbol pass commutes to the end because symbols and the spaces
//! the other passes add are both `\P{N}` and not `\p{P}`. Character classes come from
//! tables generated from the `regex` module itself ([`super::unicode_tables`]).

use super::regexp::{keeps_space, run_breaks, Side, Words};
use super::unicode_class::{class, Class};
use super::unicode_tables::ASCII as ASCII_CLASSES;
use crate::text::is_py_whitespace;

/// What the scan does with one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Python whitespace (never P, S or N).
    Space,
    /// `\p{P}`.
    Punct,
    /// `\p{S}`.
    Symbol,
    /// `\p{N}`.
    Number,
    /// Everything else.
    Other,
}

impl Kind {
    /// The kind of a character of `class` that is not whitespace.
    const fn of_class(class: Class) -> Self {
        match class {
            Class::Punct => Self::Punct,
            Class::Symbol => Self::Symbol,
            Class::Number => Self::Number,
            Class::Other => Self::Other,
        }
    }
}

/// The kind of every ASCII character, so ASCII text needs no table search.
#[allow(clippy::cast_possible_truncation)] // `b` counts ASCII characters
const ASCII_KINDS: [Kind; 128] = crate::text::byte_table!(128, Kind::Other, |b| match b as u8 {
    0x09..=0x0D | 0x1C..=0x20 => Kind::Space,
    _ => Kind::of_class(ASCII_CLASSES[b]),
});

#[inline(always)]
fn kind_of(c: char) -> Kind {
    match ASCII_KINDS.get(c as usize) {
        Some(&kind) => kind,
        None => non_ascii_kind(c),
    }
}

fn non_ascii_kind(c: char) -> Kind {
    match class(c) {
        // Non-ASCII whitespace lies in U+0085..=U+3000 (and is none of P, S, N); the range
        // test spares most letters the full check.
        Class::Other
            if matches!(u32::from(c), 0x85..=0xA0 | 0x1680..=0x3000) && is_py_whitespace(c) =>
        {
            Kind::Space
        }
        class => Kind::of_class(class),
    }
}

/// How the character next to a punctuation run looks to `\P{N}`.
#[inline]
fn side(c: Option<char>) -> Side {
    match c.map(kind_of) {
        None => Side::Absent,
        Some(Kind::Number) => Side::Digit,
        Some(_) => Side::Other,
    }
}

pub(super) fn tokenize(line: &str, out: &mut String) {
    let mut words = Words::new(out);
    // `line[start..i]` is text seen but not yet written: it has no breaks inside.
    let mut start = 0;
    let mut i = 0;
    loop {
        // Most characters need nothing: skip them in a tight loop, dispatch on the rest.
        // In bounds and on a character boundary: `i` only ever moves past whole characters.
        #[allow(clippy::indexing_slicing)]
        let mut rest = line[i..].chars();
        let mut prev_space = !keeps_space(line.as_bytes(), start, i);
        let c = loop {
            let Some(c) = rest.next() else { break None };
            let space = c == ' ';
            if !(matches!(kind_of(c), Kind::Other | Kind::Number) | (space & !prev_space)) {
                break Some(c);
            }
            prev_space = space;
        };
        let Some(c) = c else { break };
        let len = c.len_utf8();
        // `rest` now starts right after `c`.
        i = line.len() - rest.as_str().len() - len;
        match kind_of(c) {
            Kind::Other | Kind::Number => i += len,
            Kind::Space => {
                words.push_pending(line, start, i);
                words.gap();
                i += len;
                start = i;
            }
            Kind::Symbol => {
                words.isolate(line, start, i, c);
                i += len;
                start = i;
            }
            Kind::Punct => {
                // The run of punctuation starting at `c`, and what is on either side of it.
                #[allow(clippy::indexing_slicing)] // `i` is a character boundary (see above)
                let left = side(line[..i].chars().next_back());
                let mut after_run = rest.clone();
                let mut run = 1;
                let right = loop {
                    let next = after_run.clone().next();
                    if next.map(kind_of) == Some(Kind::Punct) {
                        after_run.next();
                        run += 1;
                    } else {
                        break side(next);
                    }
                };
                let end = line.len() - after_run.as_str().len();
                // `end` is where `after_run` starts: a character boundary at or after `i`.
                words.push_run(line, start, (i, end), run_breaks(left, run, right));
                i = end;
                start = end;
            }
        }
    }
    words.push_pending(line, start, line.len());
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::regexp::reference;
    use super::super::unicode_class::{class, Class};
    use super::Kind;

    /// `TokenizerV14International()(line)`, pass by pass.
    pub(in crate::tokenize) fn reference_intl(line: &str) -> String {
        let number = |c: char| class(c) == Class::Number;
        let punct = |c: char| class(c) == Class::Punct;
        let s = reference::sub_pair(line, |c| !number(c), punct, true);
        let s = reference::sub_pair(&s, punct, |c| !number(c), false);
        let s = reference::sub_one(&s, |c| class(c) == Class::Symbol);
        reference::join_words(&s)
    }

    #[test]
    fn kinds_agree_with_tables_and_python_whitespace() {
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            let expected = if crate::text::is_py_whitespace(c) {
                Kind::Space
            } else {
                Kind::of_class(class(c))
            };
            assert_eq!(super::kind_of(c), expected, "{c:?}");
        }
    }

    #[test]
    fn exhaustive_short_strings_match_literal_passes() {
        let alphabet = [
            "a", "1", ".", "!", "$", "€", "“", "²", " ", "\n", "中", "\u{3000}", "\u{85}",
        ];
        let strings = reference::all_strings(&alphabet, 5);
        reference::check_agree(super::tokenize, reference_intl, strings);
    }
}
