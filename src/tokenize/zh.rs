//! `zh`: sacrebleu `TokenizerZh`.
//!
//! 1. `line.strip()`;
//! 2. every "Chinese" character `c` becomes `" c "`;
//! 3. [`regexp::tokenize`] *without* 13a's padding, entity and `<skipped>` steps.
//!
//! sacrebleu tests characters with string comparisons against `_UCODE_RANGES`, some of whose
//! bounds are malformed (`u'\u20000'` is `'\u2000' + '0'`). [`CHINESE_RANGES`] is the set
//! that code really accepts, found by testing every code point: it covers curly quotes,
//! dashes, `€` and arrows, but not kana and not astral CJK.

use super::regexp;
use super::rewrite::{push_spaced, with_scratch};
use crate::text::py_strip;

/// Inclusive code point ranges that sacrebleu 2.6.0's `_is_chinese_char` accepts.
const CHINESE_RANGES: [(u32, u32); 13] = [
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),
    (0x3100, 0x312F),
    (0x31A0, 0x31EF),
    (0x3200, 0x4DB5),
    (0x4E00, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
];

/// Whether sacrebleu's `zh` tokenizer puts spaces around `c`.
fn is_chinese_char(c: char) -> bool {
    let c = u32::from(c);
    // Every range starts above U+2000: ASCII and Latin text exit here.
    c >= 0x2001
        && CHINESE_RANGES
            .iter()
            .any(|&(start, end)| start <= c && c <= end)
}

pub(super) fn tokenize(line: &str, out: &mut String) {
    let line = py_strip(line);
    if !line.chars().any(is_chinese_char) {
        regexp::tokenize(line, false, out);
        return;
    }
    with_scratch(|spaced, _| {
        spaced.reserve(line.len() * 2);
        for c in line.chars() {
            if is_chinese_char(c) {
                push_spaced(c, spaced);
            } else {
                spaced.push(c);
            }
        }
        regexp::tokenize(spaced, false, out);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_edges() {
        for (start, end) in CHINESE_RANGES {
            for (cp, inside) in [
                (start - 1, false),
                (start, true),
                (end, true),
                (end + 1, false),
            ] {
                let Some(c) = char::from_u32(cp) else {
                    continue;
                };
                let adjacent = CHINESE_RANGES.iter().any(|&(s, e)| s <= cp && cp <= e);
                assert_eq!(is_chinese_char(c), inside || adjacent, "U+{cp:04X}");
            }
        }
        assert!(!is_chinese_char('あ'));
        assert!(!is_chinese_char('\u{20000}'));
    }
}
