//! Unicode as the upstream's Python sees it: CPython 3.11's `unicodedata` (Unicode 14.0.0) for
//! categories, `str.lower()`, `str.isalnum()`, decimal digits and NFKC/NFKD, and the `regex`
//! module 2026.5.9 for `\X` grapheme clusters. The tables are generated
//! (`tools/gen_whisper_tables.py`, [`super::unicode_tables`]).
//!
//! Normalization runs on the `unicode-normalization` crate, whose tables are newer than
//! Unicode 14.0. Unicode's stability policy freezes the decompositions, combining classes and
//! compositions of assigned characters, so the crate agrees with Python 3.11 on every
//! character assigned in 14.0; a character assigned later is, for Python 3.11, an unassigned
//! code point with no decomposition and combining class 0. The text is therefore cut before
//! such characters (and before ASCII, which never composes with what precedes it), each piece
//! normalized alone, and the late characters passed through untouched: the result is Python
//! 3.11's on every input.

use unicode_normalization::UnicodeNormalization;

use super::unicode_tables::{CHAR_PROPS, DIGIT_ZEROS, GRAPHEME_PROPS, LOWER};

/// General category M* (a mark).
pub(super) const MARK: u32 = 1;
/// General category Mn (a nonspacing mark).
pub(super) const MN: u32 = 2;
/// General category S* (a symbol).
pub(super) const SYMBOL: u32 = 4;
/// General category P* (punctuation).
pub(super) const PUNCT: u32 = 8;
/// `re`'s `\w`: `str.isalnum()` or `_`.
pub(super) const WORD: u32 = 16;
/// Unassigned in Unicode 14.0 (category Cn).
pub(super) const UNASSIGNED: u32 = 32;
/// `re`'s `\d`: a decimal digit (Nd).
pub(super) const DECIMAL: u32 = 64;
/// Skipped by `str.lower()`'s Final_Sigma context search (case-ignorable).
const CASE_IGNORABLE: u32 = 128;
/// Cased and not case-ignorable.
const CASED: u32 = 256;

const PROPS_SHIFT: u32 = 11;
const GRAPHEME_SHIFT: u32 = 8;

/// The value of the run containing `cp` in a table of `start << shift | value` runs.
fn run_value(table: &[u32], shift: u32, cp: u32) -> u32 {
    let after = table.partition_point(|&entry| entry >> shift <= cp);
    after
        .checked_sub(1)
        .and_then(|i| table.get(i))
        .map_or(0, |&entry| entry & ((1 << shift) - 1))
}

#[allow(clippy::indexing_slicing)] // const evaluation: checked by the compiler
const fn ascii_props_table() -> [u16; 128] {
    let mut out = [0u16; 128];
    let mut i = 0;
    while i < CHAR_PROPS.len() {
        let start = CHAR_PROPS[i] >> PROPS_SHIFT;
        if start >= 128 {
            break;
        }
        let end = if i + 1 < CHAR_PROPS.len() {
            CHAR_PROPS[i + 1] >> PROPS_SHIFT
        } else {
            0x110000
        };
        let mut cp = start;
        while cp < end && cp < 128 {
            out[cp as usize] = (CHAR_PROPS[i] & ((1 << PROPS_SHIFT) - 1)) as u16;
            cp += 1;
        }
        i += 1;
    }
    out
}

static ASCII_PROPS: [u16; 128] = ascii_props_table();

/// The property bits of `c` ([`MARK`], [`WORD`], ...).
#[inline]
pub(super) fn props(c: char) -> u32 {
    let cp = c as u32;
    match ASCII_PROPS.get(cp as usize) {
        Some(&p) => u32::from(p),
        None => run_value(&CHAR_PROPS, PROPS_SHIFT, cp),
    }
}

/// `re`'s `\w` for `str` patterns.
#[inline]
pub(super) fn is_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    props(c) & WORD != 0
}

/// `re`'s `\d` for `str` patterns (any Nd digit).
#[inline]
pub(super) fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    props(c) & DECIMAL != 0
}

/// The value of a decimal digit ([`is_decimal`]), as `int()` reads it.
pub(super) fn digit_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return Some(c as u8 - b'0');
    }
    if !is_decimal(c) {
        return None;
    }
    let cp = c as u32;
    let after = DIGIT_ZEROS.partition_point(|&zero| zero <= cp);
    let zero = after.checked_sub(1).and_then(|i| DIGIT_ZEROS.get(i))?;
    u8::try_from(cp - zero).ok().filter(|&v| v < 10)
}

/// `\b` at byte offset `at` of `s`: exactly one of the characters around it is a word
/// character (the ends of the text count as non-word).
#[inline]
pub(super) fn is_boundary(s: &str, at: usize) -> bool {
    let before = s.get(..at).and_then(|h| h.chars().next_back());
    let after = s.get(at..).and_then(|t| t.chars().next());
    before.is_some_and(is_word) != after.is_some_and(is_word)
}

/// The one-to-one `str.lower()` of `c` (not U+0130, not the Final_Sigma context).
fn lower_char(c: char) -> char {
    let cp = c as u32;
    let after = LOWER.partition_point(|&(first, ..)| first <= cp);
    let Some(&(first, last, step, delta)) = after.checked_sub(1).and_then(|i| LOWER.get(i)) else {
        return c;
    };
    if cp > last || (cp - first) % step != 0 {
        return c;
    }
    cp.checked_add_signed(delta)
        .and_then(char::from_u32)
        .unwrap_or(c)
}

/// Whether the Σ at byte offset `at` of `s` is word-final for `str.lower()`: a cased letter
/// before it and none after it, skipping case-ignorable characters both ways.
fn final_sigma(s: &str, at: usize) -> bool {
    let class = |c: char| props(c) & (CASE_IGNORABLE | CASED);
    let before = s.get(..at).map_or("", |h| h);
    let cased_before = before
        .chars()
        .rev()
        .find(|&c| class(c) != CASE_IGNORABLE)
        .is_some_and(|c| class(c) == CASED);
    if !cased_before {
        return false;
    }
    let after = s.get(at + 'Σ'.len_utf8()..).map_or("", |t| t);
    after
        .chars()
        .find(|&c| class(c) != CASE_IGNORABLE)
        .is_none_or(|c| class(c) != CASED)
}

/// Appends Python 3.11's `s.lower()` to `out`.
pub(super) fn push_lower(s: &str, out: &mut String) {
    if s.is_ascii() {
        let start = out.len();
        out.push_str(s);
        if let Some(appended) = out.get_mut(start..) {
            appended.make_ascii_lowercase();
        }
        return;
    }
    for (at, c) in s.char_indices() {
        match c {
            _ if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            '\u{130}' => out.push_str("i\u{307}"),
            'Σ' => out.push(if final_sigma(s, at) { 'ς' } else { 'σ' }),
            _ => out.push(lower_char(c)),
        }
    }
}

/// Calls `f` on every character of Python 3.11's `unicodedata.normalize("NFKD" or "NFKC", s)`
/// (`compose`: NFKC). See the module docs for why the text is cut into pieces.
pub(super) fn for_each_normalized(s: &str, compose: bool, mut f: impl FnMut(char)) {
    if s.is_ascii() {
        s.chars().for_each(f);
        return;
    }
    let mut piece_start = 0;
    let flush = |piece: &str, f: &mut dyn FnMut(char)| {
        if piece.len() == 1 {
            piece.chars().for_each(f);
        } else if compose {
            piece.nfkc().for_each(f);
        } else {
            piece.nfkd().for_each(f);
        }
    };
    for (at, c) in s.char_indices() {
        let late = !c.is_ascii() && props(c) & UNASSIGNED != 0;
        if c.is_ascii() || late {
            if let Some(piece) = s.get(piece_start..at).filter(|p| !p.is_empty()) {
                flush(piece, &mut f);
            }
            piece_start = at;
            if late {
                f(c);
                piece_start = at + c.len_utf8();
            }
        }
    }
    if let Some(piece) = s.get(piece_start..).filter(|p| !p.is_empty()) {
        flush(piece, &mut f);
    }
}

// --- `\X`, as regex 2026.5.9's `unicode_at_grapheme_boundary` decides it ------------------

const GB_CR: u32 = 1;
const GB_LF: u32 = 2;
const GB_CONTROL: u32 = 3;
const GB_EXTEND: u32 = 4;
const GB_ZWJ: u32 = 5;
const GB_RI: u32 = 6;
const GB_PREPEND: u32 = 7;
const GB_SPACING_MARK: u32 = 8;
const GB_L: u32 = 9;
const GB_V: u32 = 10;
const GB_T: u32 = 11;
const GB_LV: u32 = 12;
const GB_LVT: u32 = 13;
const INCB_LINKER: u32 = 1;
const INCB_CONSONANT: u32 = 2;
const INCB_EXTEND: u32 = 3;

#[derive(Clone, Copy)]
struct GraphemeProps(u32);

impl GraphemeProps {
    fn of(c: char) -> Self {
        Self(run_value(&GRAPHEME_PROPS, GRAPHEME_SHIFT, c as u32))
    }
    fn gcb(self) -> u32 {
        self.0 & 0xF
    }
    fn incb(self) -> u32 {
        (self.0 >> 4) & 3
    }
    fn pictographic(self) -> bool {
        self.0 & 0x40 != 0
    }
}

/// Whether regex's `\X` breaks between `props[at - 1]` and `props[at]` (0 < at < len).
fn grapheme_boundary(props: &[GraphemeProps], at: usize) -> bool {
    let (Some(left), Some(right)) = (at.checked_sub(1).and_then(|i| props.get(i)), props.get(at))
    else {
        return true;
    };
    let (l, r) = (left.gcb(), right.gcb());
    if l == GB_CR && r == GB_LF {
        return false; // GB3
    }
    if matches!(l, GB_CONTROL | GB_CR | GB_LF) || matches!(r, GB_CONTROL | GB_CR | GB_LF) {
        return true; // GB4, GB5
    }
    if l == GB_L && matches!(r, GB_L | GB_V | GB_LV | GB_LVT) {
        return false; // GB6
    }
    if matches!(l, GB_LV | GB_V) && matches!(r, GB_V | GB_T) {
        return false; // GB7
    }
    if matches!(l, GB_LVT | GB_T) && r == GB_T {
        return false; // GB8
    }
    if matches!(r, GB_EXTEND | GB_ZWJ | GB_SPACING_MARK) || l == GB_PREPEND {
        return false; // GB9, GB9a, GB9b
    }
    if right.incb() == INCB_CONSONANT {
        // GB9c, scanning back from the left character as regex does.
        let mut linker = false;
        for p in props.get(..at).unwrap_or_default().iter().rev() {
            match p.incb() {
                INCB_LINKER => linker = true,
                INCB_EXTEND => {}
                INCB_CONSONANT if linker => return false,
                _ => break,
            }
        }
    }
    if l == GB_ZWJ && right.pictographic() {
        // GB11
        let before = props.get(..at - 1).unwrap_or_default();
        if before
            .iter()
            .rev()
            .find(|p| p.gcb() != GB_EXTEND)
            .is_some_and(|p| p.pictographic())
        {
            return false;
        }
    }
    if r == GB_RI {
        // GB12, GB13: an odd number of regional indicators before the break point
        let count = props
            .get(..at)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|p| p.gcb() == GB_RI)
            .count();
        if count % 2 == 1 {
            return false;
        }
    }
    true
}

/// Appends `" ".join(regex.findall(r"\X", s))` to `out`.
pub(super) fn push_split_graphemes(s: &str, out: &mut String) {
    let chars: Vec<char> = s.chars().collect();
    let props: Vec<GraphemeProps> = chars.iter().map(|&c| GraphemeProps::of(c)).collect();
    for (at, &c) in chars.iter().enumerate() {
        if at > 0 && grapheme_boundary(&props, at) {
            out.push(' ');
        }
        out.push(c);
    }
}

/// Bytes that can start a Python whitespace character.
static MAY_START_SPACE: [bool; 256] = crate::text::byte_table!(256, false, |b| matches!(
    b,
    0x09..=0x0D | 0x1C..=0x20 | 0xC2 | 0xE1 | 0xE2 | 0xE3
));

/// The property bits of ASCII byte `b` (`b < 128`).
#[inline]
pub(super) fn ascii_props(b: u8) -> u32 {
    ASCII_PROPS.get(usize::from(b)).map_or(0, |&p| u32::from(p))
}

/// Appends `re.sub(r"\s+", " ", s)` to `out`.
pub(super) fn push_collapsed_whitespace(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let space_len = |at: usize| {
        let may_start = bytes
            .get(at)
            .and_then(|&b| MAY_START_SPACE.get(usize::from(b)))
            .is_some_and(|&m| m);
        if may_start {
            crate::text::py_space_len(bytes, at)
        } else {
            0
        }
    };
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let n = space_len(at);
        if n == 0 {
            at += 1;
            continue;
        }
        if bytes.get(at) == Some(&b' ') && space_len(at + 1) == 0 {
            at += 1; // a lone space stays as it is
            continue;
        }
        out.push_str(s.get(copied..at).unwrap_or_default());
        out.push(' ');
        at += n;
        loop {
            let m = space_len(at);
            if m == 0 {
                break;
            }
            at += m;
        }
        copied = at;
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties() {
        assert!(is_word('a') && is_word('_') && is_word('٣') && is_word('²'));
        assert!(!is_word('-') && !is_word(' ') && !is_word('\''));
        assert!(is_decimal('٣') && !is_decimal('²') && !is_decimal('a'));
        assert_eq!(digit_value('٣'), Some(3));
        assert_eq!(digit_value('\u{1D7D9}'), Some(1)); // MATHEMATICAL DOUBLE-STRUCK DIGIT ONE
        assert_eq!(digit_value('x'), None);
        assert_eq!(props('\u{301}') & (MARK | MN), MARK | MN);
        assert_eq!(props('€') & SYMBOL, SYMBOL);
        assert_eq!(props('«') & PUNCT, PUNCT);
        // U+1FAE0 MELTING FACE is Unicode 14.0; U+1FA75 LIGHT BLUE HEART is 15.0.
        assert_eq!(props('\u{1FAE0}') & UNASSIGNED, 0);
        assert_eq!(props('\u{1FA75}') & UNASSIGNED, UNASSIGNED);
    }

    #[test]
    fn lower() {
        let lower = |s: &str| {
            let mut out = String::new();
            push_lower(s, &mut out);
            out
        };
        assert_eq!(lower("ÀÉÎ ΣΑΣ Σ İ"), "àéî σας σ i\u{307}");
        assert_eq!(lower("ΑΣ."), "ας.");
        assert_eq!(lower("ΑΣ\u{301}Α"), "ασ\u{301}α");
        // U+A7CB (Unicode 16.0) has a lowercase today but not in Python 3.11.
        assert_eq!(lower("\u{A7CB}"), "\u{A7CB}");
    }

    #[test]
    fn normalization_stops_at_late_characters() {
        let nfkc = |s: &str| {
            let mut out = String::new();
            for_each_normalized(s, true, |c| out.push(c));
            out
        };
        assert_eq!(nfkc("e\u{301}ﬁ"), "éfi");
        // U+16D67 KIRAT RAI VOWEL SIGN E (Unicode 16.0): twice composes to U+16D68 today.
        assert_eq!(nfkc("\u{16D67}\u{16D67}"), "\u{16D67}\u{16D67}");
    }

    #[test]
    fn graphemes() {
        let split = |s: &str| {
            let mut out = String::new();
            push_split_graphemes(s, &mut out);
            out
        };
        assert_eq!(split("ab"), "a b");
        assert_eq!(split("e\u{301}x"), "e\u{301} x");
        assert_eq!(split("\r\n"), "\r\n");
        assert_eq!(split("🇫🇷🇩"), "🇫🇷 🇩");
        assert_eq!(split(""), "");
    }
}
