//! The `re.sub` passes of the normalizers as hand-written scans. Each appends the result of
//! one `re.sub` on `s` to `out` and says whether anything matched (when nothing does, `out`
//! holds a copy of `s`). They follow Python `re`'s rules: leftmost match, scanning resumes
//! after a match, `\b`, `\w`, `\d` and `\s` of `str` patterns (Unicode), `[0-9]` ASCII only.

use super::unicode::{is_boundary, is_decimal};
use crate::text::is_py_whitespace;

/// `re.sub(r"[<\[][^>\]]*[>\]]", "", s)`: removes `<...>` and `[...]` (either opener, up to
/// the first `>` or `]`).
pub(super) fn remove_brackets(s: &str, out: &mut String) -> bool {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while let Some(open) = memchr::memchr2(b'<', b'[', bytes.get(at..).unwrap_or_default()) {
        let open = at + open;
        let Some(close) = memchr::memchr2(b'>', b']', bytes.get(open + 1..).unwrap_or_default())
        else {
            break; // no closer after this opener, so none after any later one either
        };
        let close = open + 1 + close;
        out.push_str(s.get(copied..open).unwrap_or_default());
        copied = close + 1;
        at = close + 1;
        changed = true;
    }
    out.push_str(s.get(copied..).unwrap_or_default());
    changed
}

/// `re.sub(r"\(([^)]+?)\)", "", s)`: removes `(...)` with at least one character inside.
pub(super) fn remove_parens(s: &str, out: &mut String) -> bool {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while let Some(open) = memchr::memchr(b'(', bytes.get(at..).unwrap_or_default()) {
        let open = at + open;
        if bytes.get(open + 1) == Some(&b')') {
            at = open + 1; // "()": no match here
            continue;
        }
        let Some(close) = memchr::memchr(b')', bytes.get(open + 1..).unwrap_or_default()) else {
            break;
        };
        let close = open + 1 + close;
        out.push_str(s.get(copied..open).unwrap_or_default());
        copied = close + 1;
        at = close + 1;
        changed = true;
    }
    out.push_str(s.get(copied..).unwrap_or_default());
    changed
}

/// `re.sub(pattern, replacement, s)` where `pattern` is the literal `text`, with `\b` before
/// it when `before` and after it when `after`.
pub(super) fn sub_literal(
    s: &str,
    finder: &memchr::memmem::Finder<'_>,
    before: bool,
    after: bool,
    replacement: &str,
    out: &mut String,
) -> bool {
    let len = finder.needle().len();
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while let Some(found) = s.get(at..).and_then(|t| finder.find(t.as_bytes())) {
        let start = at + found;
        let end = start + len;
        if (!before || is_boundary(s, start)) && (!after || is_boundary(s, end)) {
            out.push_str(s.get(copied..start).unwrap_or_default());
            out.push_str(replacement);
            copied = end;
            at = end;
            changed = true;
        } else {
            // resume at the next character (a needle starts with an ASCII byte)
            at = start + 1;
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
    changed
}

/// `re.sub(r"\b(a|b|...)\b", "", s)` for ASCII word alternatives tried in order.
pub(super) fn remove_words(s: &str, alternatives: &[&str], out: &mut String) -> bool {
    let bytes = s.as_bytes();
    let mut firsts: Vec<u8> = alternatives
        .iter()
        .filter_map(|a| a.bytes().next())
        .collect();
    firsts.sort_unstable();
    firsts.dedup();
    let next_candidate = |from: usize| -> Option<usize> {
        let rest = bytes.get(from..)?;
        let found = match *firsts.as_slice() {
            [a] => memchr::memchr(a, rest),
            [a, b] => memchr::memchr2(a, b, rest),
            [a, b, c] => memchr::memchr3(a, b, c, rest),
            _ => rest.iter().position(|b| firsts.contains(b)),
        };
        found.map(|f| from + f)
    };
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while let Some(p) = next_candidate(at) {
        let matched = is_boundary(s, p)
            .then(|| {
                alternatives.iter().find(|alt| {
                    bytes.get(p..p + alt.len()) == Some(alt.as_bytes())
                        && is_boundary(s, p + alt.len())
                })
            })
            .flatten();
        if let Some(alt) = matched {
            out.push_str(s.get(copied..p).unwrap_or_default());
            at = p + alt.len();
            copied = at;
            changed = true;
        } else {
            at = p + 1; // an ASCII byte: the next character starts here
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
    changed
}

/// Whether a run of word characters (`\w+` between non-word characters) of `s` is in `words`
/// (none of which is longer than `max_len` bytes).
pub(super) fn has_word_in(
    s: &str,
    words: &rustc_hash::FxHashSet<&'static str>,
    max_len: usize,
) -> bool {
    let mut start: Option<usize> = None;
    let check = |from: usize, to: usize| {
        to - from <= max_len && s.get(from..to).is_some_and(|w| words.contains(w))
    };
    let bytes = s.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        let (word, len) = if b < 0x80 {
            (b.is_ascii_alphanumeric() || b == b'_', 1)
        } else {
            let c = s.get(at..).and_then(|t| t.chars().next()).unwrap_or(' ');
            (super::unicode::is_word(c), c.len_utf8())
        };
        match (word, start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                if check(from, at) {
                    return true;
                }
                start = None;
            }
            _ => {}
        }
        at += len;
    }
    start.is_some_and(|from| check(from, s.len()))
}

/// `re.sub(r"\s+'", "'", s)`: drops whitespace before an apostrophe.
pub(super) fn remove_space_before_apostrophe(s: &str, out: &mut String) -> bool {
    if memchr::memchr(b'\'', s.as_bytes()).is_none() {
        out.push_str(s);
        return false;
    }
    let mut changed = false;
    let mut space_start: Option<usize> = None;
    for (at, c) in s.char_indices() {
        if is_py_whitespace(c) {
            space_start.get_or_insert(at);
            continue;
        }
        if let Some(start) = space_start.take() {
            if c != '\'' {
                out.push_str(s.get(start..at).unwrap_or_default());
            } else {
                changed = true;
            }
        }
        out.push(c);
    }
    if let Some(start) = space_start {
        out.push_str(s.get(start..).unwrap_or_default());
    }
    changed
}

/// `re.sub(r"(\d),(\d)", r"\1\2", s)`: drops a comma between two digits (Unicode `\d`);
/// `1,2,3` gives `12,3`, as matches do not overlap.
pub(super) fn remove_digit_commas(s: &str, out: &mut String) -> bool {
    if memchr::memchr(b',', s.as_bytes()).is_none() {
        out.push_str(s);
        return false;
    }
    let mut changed = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if is_decimal(c) && chars.peek() == Some(&',') {
            let mut rest = chars.clone();
            rest.next();
            if let Some(d) = rest.next().filter(|&d| is_decimal(d)) {
                out.push(d);
                chars = rest;
                changed = true;
            }
        }
    }
    changed
}

/// `re.sub(r"\.([^0-9]|$)", r" \1", s)`: a period not followed by an ASCII digit becomes a
/// space, and the character after it is not looked at again.
pub(super) fn space_periods(s: &str, out: &mut String) -> bool {
    if memchr::memchr(b'.', s.as_bytes()).is_none() {
        out.push_str(s);
        return false;
    }
    let mut changed = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '.' {
            match chars.peek() {
                Some(d) if d.is_ascii_digit() => out.push('.'),
                Some(&d) => {
                    out.push(' ');
                    out.push(d);
                    chars.next();
                    changed = true;
                }
                None => {
                    out.push(' ');
                    changed = true;
                }
            }
        } else {
            out.push(c);
        }
    }
    changed
}

/// `re.sub(r"[.$¢€£]([^0-9])", r" \1", s)`: those symbols become a space unless an ASCII
/// digit follows (or nothing does).
pub(super) fn space_symbols_before_non_digit(s: &str, out: &mut String) -> bool {
    let is_symbol = |c: char| matches!(c, '.' | '$' | '¢' | '€' | '£');
    if !s.chars().any(is_symbol) {
        out.push_str(s);
        return false;
    }
    let mut changed = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&d) if is_symbol(c) && !d.is_ascii_digit() => {
                out.push(' ');
                out.push(d);
                chars.next();
                changed = true;
            }
            _ => out.push(c),
        }
    }
    changed
}

/// `re.sub(r"([^0-9])%", r"\1 ", s)`: `%` after anything but an ASCII digit becomes a space.
pub(super) fn space_percent_after_non_digit(s: &str, out: &mut String) -> bool {
    if memchr::memchr(b'%', s.as_bytes()).is_none() {
        out.push_str(s);
        return false;
    }
    let mut changed = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if !c.is_ascii_digit() && chars.peek() == Some(&'%') {
            out.push(' ');
            chars.next();
            changed = true;
        }
    }
    changed
}

/// `re.sub(r"\bfirst\s+second\b", joined, s)` for ASCII words `first` (found by `finder`)
/// and `second`. Writes to `out` only when something matches (and then says so).
pub(super) fn join_word_pair(
    s: &str,
    finder: &memchr::memmem::Finder<'_>,
    second: &str,
    joined: &str,
    out: &mut String,
) -> bool {
    let bytes = s.as_bytes();
    let first_len = finder.needle().len();
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while let Some(found) = bytes.get(at..).and_then(|t| finder.find(t)) {
        let start = at + found;
        let mut end = start + first_len;
        let mut spaces = 0;
        loop {
            let n = crate::text::py_space_len(bytes, end);
            if n == 0 {
                break;
            }
            end += n;
            spaces += 1;
        }
        let matched = spaces > 0
            && is_boundary(s, start)
            && bytes.get(end..end + second.len()) == Some(second.as_bytes())
            && is_boundary(s, end + second.len());
        if matched {
            out.push_str(s.get(copied..start).unwrap_or_default());
            out.push_str(joined);
            at = end + second.len();
            copied = at;
            changed = true;
        } else {
            at = start + 1; // `first` starts with an ASCII byte
        }
    }
    if changed {
        out.push_str(s.get(copied..).unwrap_or_default());
    }
    changed
}

/// The leaderboard's `EnglishAcronymNormalizer` on `s.split()`'s words: each run of
/// one-character alphanumeric words joined into one word when it has at least two (three
/// when "a" or "i" is among them), then `" ".join` into `out`.
pub(super) fn join_acronyms(words: &[&str], out: &mut String) {
    let single = |w: &str| {
        let mut chars = w.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c != '_' && super::unicode::is_word(c))
    };
    let mut first = true;
    let mut push = |w: &str, out: &mut String| {
        if !first {
            out.push(' ');
        }
        first = false;
        out.push_str(w);
    };
    let mut i = 0;
    while let Some(&word) = words.get(i) {
        if !single(word) {
            push(word, out);
            i += 1;
            continue;
        }
        let run = words
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|w| single(w))
            .count();
        let run_words = words.get(i..i + run).unwrap_or_default();
        let common = run_words.iter().any(|&w| w == "a" || w == "i");
        if run >= if common { 3 } else { 2 } {
            push(&run_words.concat(), out);
        } else {
            for w in run_words {
                push(w, out);
            }
        }
        i += run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: fn(&str, &mut String) -> bool, s: &str) -> String {
        let mut out = String::new();
        f(s, &mut out);
        out
    }

    #[test]
    fn passes() {
        assert_eq!(run(remove_brackets, "a <b] c [d> e [f"), "a  c  e [f");
        assert_eq!(run(remove_brackets, "a [ [b] c]"), "a  c]");
        assert_eq!(run(remove_parens, "a () (b) ((c)) (d"), "a ()  ) (d");
        assert_eq!(run(remove_space_before_apostrophe, "a  'b c\t'"), "a'b c'");
        assert_eq!(run(remove_digit_commas, "1,2,3 ٣,٤ a,1"), "12,3 ٣٤ a,1");
        assert_eq!(run(space_periods, "a.b 1.5 ... x."), "a b 1.5  .  x ");
        assert_eq!(run(space_symbols_before_non_digit, "$$5 .a €"), " $5  a €");
        assert_eq!(run(space_percent_after_non_digit, "a%% 5% %"), "a % 5%  ");
        let mut out = String::new();
        remove_words(
            "hmm mm mmm mhmm um_ um",
            &["hmm", "mm", "mhm", "mmm", "uh", "um"],
            &mut out,
        );
        assert_eq!(out, "   mhmm um_ ");
        let finder = memchr::memmem::Finder::new("mr");
        let mut out = String::new();
        sub_literal("mr. mrs mr", &finder, true, true, "mister ", &mut out);
        assert_eq!(out, "mister . mrs mister ");
    }
}
