//! The `regex` module's classes of a character for the `intl` tokenizer: `\p{P}`, `\p{S}`,
//! `\p{N}` or none of them, from the tables `tools/gen_unicode_tables.py` generates
//! ([`super::unicode_tables`], whose documentation says which `regex` and Unicode version).
//!
//! ASCII has a flat table and the BMP a two-level one (64-code-point blocks, 2 bits per code
//! point, identical blocks shared); above the BMP the sorted ranges are searched. A test checks
//! that the fast paths agree with the ranges on every code point.

use super::unicode_tables::{ASCII, BMP_INDEX, BMP_PATTERNS, NUMBER, PUNCT, SYMBOL};

/// What the `intl` tokenizer needs to know about a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// `\p{P}`: general category P*.
    Punct,
    /// `\p{S}`: general category S*.
    Symbol,
    /// `\p{N}`: general category N*.
    Number,
    /// Anything else (`\P{N}` and neither P nor S).
    Other,
}

/// The class of `c`, as the `regex` release of the tables sees it.
#[inline]
pub(super) fn class(c: char) -> Class {
    let cp = u32::from(c);
    if let Some(&cls) = ASCII.get(cp as usize) {
        return cls;
    }
    if let Some(&block) = BMP_INDEX.get((cp >> 6) as usize) {
        let pattern = BMP_PATTERNS.get(usize::from(block)).map_or(0, |&p| p);
        return match (pattern >> ((cp & 63) * 2)) & 3 {
            1 => Class::Punct,
            2 => Class::Symbol,
            3 => Class::Number,
            _ => Class::Other,
        };
    }
    // Outside the BMP (emoji, historic scripts, mathematical alphanumerics): search.
    searched(cp)
}

/// The class of code point `cp` by searching the ranges.
fn searched(cp: u32) -> Class {
    if in_ranges(PUNCT, cp) {
        Class::Punct
    } else if in_ranges(SYMBOL, cp) {
        Class::Symbol
    } else if in_ranges(NUMBER, cp) {
        Class::Number
    } else {
        Class::Other
    }
}

/// Binary search in sorted, disjoint, inclusive ranges.
#[inline]
fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                core::cmp::Ordering::Less
            } else if lo > cp {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The table that `runs` spell out (a count, then the value that many entries have, and so
/// on), at compile time: how the generator writes a table of long runs of one value. Counts
/// that do not add up to `N` fail the build.
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)] // const evaluation
pub(super) const fn expand_runs<const N: usize>(runs: &[u16]) -> [u8; N] {
    let mut table = [0; N];
    let (mut at, mut r) = (0, 0);
    while r + 1 < runs.len() {
        let (count, value) = (runs[r] as usize, runs[r + 1] as u8);
        let mut k = 0;
        while k < count {
            table[at] = value;
            at += 1;
            k += 1;
        }
        r += 2;
    }
    assert!(at == N && r == runs.len(), "the runs do not fill the table");
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_code_points() {
        use Class::{Number as N, Other as O, Punct as P, Symbol as S};
        let cases: &[(char, Class, &str)] = &[
            ('a', O, ""),
            ('!', P, ""),
            ('\'', P, ""),
            ('-', P, ""),
            ('$', S, ""),
            ('+', S, ""),
            ('^', S, ""),
            ('`', S, ""),
            ('7', N, ""),
            ('\n', O, ""),
            (' ', O, ""),
            ('\u{A0}', O, ""),
            ('\u{A7}', P, "SECTION SIGN is Po"),
            ('\u{A9}', S, "COPYRIGHT SIGN"),
            ('\u{B2}', N, "SUPERSCRIPT TWO"),
            ('\u{E9}', O, "e acute"),
            ('\u{2014}', P, "EM DASH"),
            ('\u{201C}', P, "LEFT DOUBLE QUOTATION MARK"),
            ('\u{20AC}', S, "EURO SIGN"),
            ('\u{20C1}', S, "SAUDI RIYAL SIGN (Unicode 17.0)"),
            ('\u{2FFC}', S, "IDC (Unicode 15.1)"),
            ('\u{3002}', P, "IDEOGRAPHIC FULL STOP"),
            ('\u{3007}', N, "IDEOGRAPHIC NUMBER ZERO (Nl)"),
            ('\u{4E00}', O, "CJK ideograph one (Lo, not N)"),
            ('\u{FF01}', P, "FULLWIDTH EXCLAMATION MARK"),
            ('\u{FF10}', N, "FULLWIDTH DIGIT ZERO"),
            ('\u{1CC00}', S, "UP-POINTING GO-KART (Unicode 16.0)"),
            ('\u{1D7CE}', N, "MATHEMATICAL BOLD DIGIT ZERO"),
            ('\u{1F600}', S, "GRINNING FACE"),
            ('\u{E000}', O, "private use"),
            ('\u{10FFFF}', O, "noncharacter"),
        ];
        for &(c, expected, what) in cases {
            assert_eq!(class(c), expected, "U+{:04X} {what}", u32::from(c));
        }
    }

    #[test]
    fn tables_are_sorted_disjoint_and_agree_with_fast_paths() {
        for table in [PUNCT, SYMBOL, NUMBER] {
            assert!(table.iter().all(|&(lo, hi)| lo <= hi));
            for (a, b) in table.iter().zip(table.iter().skip(1)) {
                assert!(a.1 + 1 < b.0, "{a:?} {b:?}");
            }
        }
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            assert_eq!(class(c), searched(u32::from(c)), "U+{:04X}", u32::from(c));
        }
    }
}
