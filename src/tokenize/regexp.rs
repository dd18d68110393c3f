//! sacrebleu's `TokenizerRegexp` (`tokenizer_re.py`): the four `re.sub` passes shared by
//! `13a` (on the space-padded line) and `zh` (unpadded), then `' '.join(line.split())`.
//!
//! | # | pattern                                | replacement |
//! |---|----------------------------------------|-------------|
//! | 1 | ``([\{-\~\[-\` -\&\(-\+\:-\@\/])``     | ` \1 `      |
//! | 2 | `([^0-9])([\.,])`                      | `\1 \2 `    |
//! | 3 | `([\.,])([^0-9])`                      | ` \1 \2`    |
//! | 4 | `([0-9])(-)`                           | `\1 \2 `    |
//!
//! Instead of rewriting the line four times, one scan decides where the passes put word
//! breaks; the result only depends on those, because the final split throws the spaces
//! away. Why one scan is exact:
//! - Every pattern is ASCII, so scanning bytes is scanning characters: a multi-byte
//!   character can only ever stand in for `[^0-9]`, and its last byte does the same.
//! - Pass 1 isolates its characters. Each is `[^0-9]` and not `[.,-]`, exactly like the
//!   spaces it adds, so passes 2–4 treat `c` and ` c ` alike: pass 1 commutes to the end.
//! - Pass 4 only sees a digit directly followed by `-`; passes 2 and 3 only add spaces next
//!   to `.`/`,`, so they neither create nor destroy such pairs.
//! - Passes 2 and 3 act on each maximal run of `.`/`,` separately, with the outcome fixed by
//!   the run length and whether its neighbours are digits: see [`run_breaks`].

use crate::text::py_space_len;

/// A neighbour of a run of punctuation, as the `(non-digit)(punct)` / `(punct)(non-digit)`
/// passes see it: `13a` means `[0-9]` by digit, `intl` means `\p{N}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// The run touches the start or end of the string.
    Absent,
    /// A digit (so `[^0-9]` / `\P{N}` does not match it).
    Digit,
    /// Anything else, including whitespace.
    Other,
}

/// Where `X = ([^D])([C]) → '\1 \2 '` followed by `Y = ([C])([^D]) → ' \1 \2'` leave word
/// breaks around a maximal run of `len >= 1` characters of class `C` (with `C` disjoint from
/// `D`): returns `(break before the run, break after it)`. Every gap inside the run breaks.
///
/// Derivation (`p` = run character, greedy leftmost matching):
/// - X pairs up `(left, p1)` when `left` is a non-digit, then `(p2, p3)`, ... otherwise
///   `(p1, p2)`, `(p3, p4)`, ...; each matched `p` gets a space after it.
/// - Y then matches every `p` followed by a space or a non-digit, unless that `p` was the
///   second half of Y's previous match; it puts a space before the `p`.
/// - Net effect: inside the run everything splits. Before the run: a break unless `left` is a
///   digit, the run is one character and `right` is not a non-digit (`1.5`, `1.` at the
///   end). After the run: always before a non-digit; before a digit only if X consumed the
///   last `p`, i.e. `len + (left is a non-digit)` is even (`a.5` → `a . 5`, `1.5` stays).
///
/// The exhaustive tests below check this against literal emulation of the passes.
#[inline]
pub(super) fn run_breaks(left: Side, len: usize, right: Side) -> (bool, bool) {
    let before = match left {
        Side::Absent => false,
        Side::Other => true,
        Side::Digit => len >= 2 || right == Side::Other,
    };
    let after = match right {
        Side::Absent => false,
        Side::Other => true,
        Side::Digit => (len + usize::from(left == Side::Other)) % 2 == 0,
    };
    (before, after)
}

/// Builds `' '.join(words)` in place: text pushed after a [`Words::gap`] starts a new word,
/// text pushed without one extends the current word. No leading or trailing space.
pub(super) struct Words<'a> {
    out: &'a mut String,
    base: usize,
    gap: bool,
}

impl<'a> Words<'a> {
    pub(super) fn new(out: &'a mut String) -> Self {
        let base = out.len();
        Self {
            out,
            base,
            gap: false,
        }
    }

    /// Marks a word boundary (any amount of whitespace in the Python original).
    #[inline]
    pub(super) fn gap(&mut self) {
        self.gap = true;
    }

    #[inline]
    fn space_if_gap(&mut self) {
        if self.gap {
            if self.out.len() > self.base {
                self.out.push(' ');
            }
            self.gap = false;
        }
    }

    #[inline]
    pub(super) fn push(&mut self, s: &str) {
        if !s.is_empty() {
            self.space_if_gap();
            self.out.push_str(s);
        }
    }

    #[inline(always)]
    pub(super) fn push_char(&mut self, c: char) {
        self.space_if_gap();
        self.out.push(c);
    }

    /// Pushes `s[start..end]`; both are character boundaries by construction of the callers.
    #[inline]
    pub(super) fn push_range(&mut self, s: &str, start: usize, end: usize) {
        if let Some(piece) = s.get(start..end) {
            self.push(piece);
        }
    }

    /// Flushes the pending text `s[start..i]`, then writes `c` as a word of its own: what a
    /// ` \1 ` substitution does to a character.
    #[inline(always)]
    pub(super) fn isolate(&mut self, s: &str, start: usize, i: usize, c: char) {
        self.push_pending(s, start, i);
        self.gap();
        self.push_char(c);
        self.gap();
    }

    /// Flushes the pending text `s[start..i]`, then writes the punctuation run `s[i..end]` one
    /// character per word, with the breaks before and after it that [`run_breaks`] decided.
    #[inline(always)]
    pub(super) fn push_run(
        &mut self,
        s: &str,
        start: usize,
        (i, end): (usize, usize),
        (before, after): (bool, bool),
    ) {
        self.push_pending(s, start, i);
        if before {
            self.gap();
        }
        for (k, c) in s.get(i..end).unwrap_or_default().chars().enumerate() {
            if k > 0 {
                self.gap();
            }
            self.push_char(c);
        }
        if after {
            self.gap();
        }
    }

    /// Pushes pending text `s[start..end]` that may hold single ASCII spaces between words
    /// (see [`keeps_space`]); a trailing one becomes a gap.
    #[inline]
    pub(super) fn push_pending(&mut self, s: &str, start: usize, end: usize) {
        if end > start && s.as_bytes().get(end - 1) == Some(&b' ') {
            self.push_range(s, start, end - 1);
            self.gap();
        } else {
            self.push_range(s, start, end);
        }
    }
}

/// Whether the ASCII space at `bytes[i]` can stay inside the pending text `bytes[start..i]`:
/// copied verbatim it is exactly the one space `' '.join(line.split())` puts there, provided
/// the pending text is not empty (so nothing before it breaks) and does not end with a space
/// (so spaces never double). Keeping it lets whole runs of plain words go out in one copy.
/// Whatever flushes the pending text next adds a break anyway ([`Words::push_pending`]).
#[inline]
pub(super) fn keeps_space(bytes: &[u8], start: usize, i: usize) -> bool {
    i > start && i.checked_sub(1).and_then(|j| bytes.get(j)) != Some(&b' ')
}

/// Byte classes for the scan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Byte {
    /// Nothing happens around it: letters, digits (they only matter as neighbours, which
    /// are looked at directly), `'`, continuation bytes, most lead bytes.
    Plain,
    /// ASCII Python whitespace.
    Space,
    /// Lead byte of a possible non-ASCII Python whitespace character.
    MaybeSpace,
    /// Pass 1's set (other than the space): isolated.
    Isolate,
    /// `.` or `,`.
    DotComma,
    /// `-`.
    Hyphen,
}

/// [`byte_class`] for every byte, so the hot loop is a load and a compare.
#[allow(clippy::cast_possible_truncation)] // `b` counts bytes up to 255
const CLASSES: [Byte; 256] = crate::text::byte_table!(256, Byte::Plain, |b| byte_class(b as u8));

#[inline]
fn class_of(b: u8) -> Byte {
    // In bounds: a `u8` indexes the 256-entry table.
    #[allow(clippy::indexing_slicing)]
    CLASSES[usize::from(b)]
}

const fn byte_class(b: u8) -> Byte {
    match b {
        0x09..=0x0D | 0x1C..=0x20 => Byte::Space,
        b'.' | b',' => Byte::DotComma,
        b'-' => Byte::Hyphen,
        b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => Byte::Isolate,
        0xC2 | 0xE1..=0xE3 => Byte::MaybeSpace,
        _ => Byte::Plain,
    }
}

#[inline]
fn side(b: Option<&u8>, edge: Side) -> Side {
    match b {
        None => edge,
        Some(b) if b.is_ascii_digit() => Side::Digit,
        Some(_) => Side::Other,
    }
}

/// Appends `TokenizerRegexp()(line)` to `out`, or, with `padded`, `TokenizerRegexp()(f' {line} ')`
/// (what `13a` calls). Padding only changes what the line's ends look like to the patterns.
pub(super) fn tokenize(line: &str, padded: bool, out: &mut String) {
    let bytes = line.as_bytes();
    let edge = if padded { Side::Other } else { Side::Absent };
    let mut words = Words::new(out);
    // `line[start..i]` is text seen but not yet written: it has no breaks inside.
    let mut start = 0;
    let mut i = 0;
    loop {
        // Most bytes need nothing: skip them in a tight loop and only dispatch on the rest.
        // An `if` chain, not a `match`: a jump table here would mispredict on every word.
        // In bounds: `i` advances only over bytes of `bytes`.
        #[allow(clippy::indexing_slicing)]
        let rest = &bytes[i..];
        let mut prev_space = !keeps_space(bytes, start, i);
        let mut skipped = rest.len();
        for (k, &b) in rest.iter().enumerate() {
            let class = class_of(b);
            if class == Byte::Plain {
                prev_space = false;
                continue;
            }
            if b == b' ' {
                if !prev_space {
                    prev_space = true;
                    continue;
                }
            } else if class == Byte::MaybeSpace && py_space_len(rest, k) == 0 {
                // Lead bytes of CJK text, mostly: rarely a space.
                prev_space = false;
                continue;
            }
            skipped = k;
            break;
        }
        i += skipped;
        let Some(&b) = bytes.get(i) else { break };
        match class_of(b) {
            Byte::Plain => i += 1,
            Byte::Space => {
                words.push_pending(line, start, i);
                words.gap();
                i += 1;
                start = i;
            }
            Byte::MaybeSpace => {
                let n = py_space_len(bytes, i);
                if n > 0 {
                    words.push_pending(line, start, i);
                    words.gap();
                    i += n;
                    start = i;
                } else {
                    i += 1;
                }
            }
            Byte::Isolate => {
                words.isolate(line, start, i, char::from(b));
                i += 1;
                start = i;
            }
            Byte::Hyphen => {
                // Pass 4: only a digit right before the hyphen matters.
                let after_digit = i
                    .checked_sub(1)
                    .and_then(|j| bytes.get(j))
                    .is_some_and(u8::is_ascii_digit);
                if after_digit {
                    words.isolate(line, start, i, '-');
                    start = i + 1;
                }
                i += 1;
            }
            Byte::DotComma => {
                let mut end = i + 1;
                while matches!(bytes.get(end), Some(b'.' | b',')) {
                    end += 1;
                }
                let left = side(i.checked_sub(1).and_then(|j| bytes.get(j)), edge);
                let breaks = run_breaks(left, end - i, side(bytes.get(end), edge));
                words.push_run(line, start, (i, end), breaks);
                i = end;
                start = end;
            }
        }
    }
    words.push_pending(line, start, bytes.len());
}

/// Literal emulations of `re.sub` passes, the yardstick for the fused scans.
#[cfg(test)]
pub(super) mod reference {
    /// `re.sub(r'(A)(B)', repl, s)` with `repl` = `\1 \2 ` (`space_after`) or ` \1 \2`:
    /// leftmost, non-overlapping matches.
    pub(in crate::tokenize) fn sub_pair(
        s: &str,
        a: impl Fn(char) -> bool,
        b: impl Fn(char) -> bool,
        space_after: bool,
    ) -> String {
        let chars: Vec<char> = s.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            match chars.get(i + 1) {
                Some(&d) if a(c) && b(d) => {
                    if !space_after {
                        out.push(' ');
                    }
                    out.push(c);
                    out.push(' ');
                    out.push(d);
                    if space_after {
                        out.push(' ');
                    }
                    i += 2;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        out
    }

    /// `re.sub(r'(A)', r' \1 ', s)`.
    pub(in crate::tokenize) fn sub_one(s: &str, a: impl Fn(char) -> bool) -> String {
        let mut out = String::new();
        for c in s.chars() {
            if a(c) {
                super::super::rewrite::push_spaced(c, &mut out);
            } else {
                out.push(c);
            }
        }
        out
    }

    /// `' '.join(s.split())`.
    pub(in crate::tokenize) fn join_words(s: &str) -> String {
        let mut out = String::new();
        crate::text::push_joined_words(s, &mut out);
        out
    }

    /// `TokenizerRegexp()(s)`, pass by pass.
    pub(in crate::tokenize) fn regexp(s: &str) -> String {
        let digit = |c: char| c.is_ascii_digit();
        let dot = |c: char| c == '.' || c == ',';
        let isolate =
            |c: char| matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/');
        let s = sub_one(s, isolate);
        let s = sub_pair(&s, |c| !digit(c), dot, true);
        let s = sub_pair(&s, dot, |c| !digit(c), false);
        let s = sub_pair(&s, digit, |c| c == '-', true);
        join_words(&s)
    }

    /// What `tokenize` writes for `line`.
    pub(in crate::tokenize) fn run(tokenize: &impl Fn(&str, &mut String), line: &str) -> String {
        let mut out = String::new();
        tokenize(line, &mut out);
        out
    }

    /// `tokenize` and the literal passes `reference` agree on every string of `strings`.
    pub(in crate::tokenize) fn check_agree(
        tokenize: impl Fn(&str, &mut String),
        reference: impl Fn(&str) -> String,
        strings: impl IntoIterator<Item = String>,
    ) {
        for s in strings {
            assert_eq!(run(&tokenize, &s), reference(&s), "{s:?}");
        }
    }

    /// Every string of up to `max_len` items of `alphabet`, concatenated.
    pub(in crate::tokenize) fn all_strings(alphabet: &[&str], max_len: u32) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut layer = vec![String::new()];
        for _ in 0..max_len {
            layer = layer
                .iter()
                .flat_map(|s| alphabet.iter().map(move |a| format!("{s}{a}")))
                .collect();
            all.extend(layer.iter().cloned());
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::reference::{self, all_strings, check_agree};

    /// `tokenize` on the line as given, or as `13a` pads it.
    fn tokenizer(padded: bool) -> impl Fn(&str, &mut String) {
        move |line, out| super::tokenize(line, padded, out)
    }

    /// `TokenizerRegexp()(line)`, or of `f' {line} '`, pass by pass.
    fn literal(padded: bool) -> impl Fn(&str) -> String {
        move |line| match padded {
            true => reference::regexp(&format!(" {line} ")),
            false => reference::regexp(line),
        }
    }

    #[test]
    fn run_breaks_match_literal_passes() {
        // The derivation in `run_breaks`, checked on every run length and neighbourhood.
        let runs = ["", "a", "1"].into_iter().flat_map(|left| {
            ["", "b", "2"].into_iter().flat_map(move |right| {
                (1..=8).map(move |len| format!("{left}{}{right}", ".".repeat(len)))
            })
        });
        check_agree(tokenizer(false), literal(false), runs);
    }

    #[test]
    fn exhaustive_short_strings_match_literal_passes() {
        let alphabet = [
            "a", "1", ".", ",", "-", " ", "!", "'", "é", "\u{A0}", "\n", "\u{2009}",
        ];
        for padded in [false, true] {
            check_agree(
                tokenizer(padded),
                literal(padded),
                all_strings(&alphabet, 5),
            );
        }
    }
}
