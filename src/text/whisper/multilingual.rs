//! The Open ASR Leaderboard's multilingual normalizer (`normalizer/data_utils.py`'s
//! `MultilingualNormalizer(remove_diacritics=False)`, called as `ml_normalizer(text,
//! lang=...)`): whisper's basic normalizer, then every character that is neither `\w` nor
//! `\s` dropped, whitespace collapsed and stripped, and, given a language, digits spelled out
//! with num2words.

use super::basic::BasicTextNormalizer;
use super::num2words::{cardinal, NumberLanguage};
use super::unicode::{digit_value, is_decimal, is_word};
use crate::text::{is_py_whitespace, py_space_len};

/// CPython's limit on the digits `int()` converts (`sys.get_int_max_str_digits()`): the
/// leaderboard keeps longer runs as digits.
const MAX_STR_DIGITS: usize = 4300;

/// `MultilingualNormalizer(remove_diacritics=False)` with `lang=language`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultilingualNormalizer {
    /// The language digits are spelled in; `None` leaves them (`lang=None`).
    pub language: Option<NumberLanguage>,
}

impl MultilingualNormalizer {
    /// Appends the normalized `text` to `out`.
    pub fn normalize(&self, text: &str, out: &mut String) {
        let mut a = String::with_capacity(text.len() + 8);
        BasicTextNormalizer::new(false, false).normalize(text, &mut a);
        // re.sub(r"[^\w\s]", "", s), re.sub(r"\s+", " ", s).strip()
        let mut b = String::with_capacity(a.len());
        let mut pending_space = false;
        for c in a.chars() {
            if is_py_whitespace(c) {
                pending_space = !b.is_empty();
            } else if is_word(c) {
                if pending_space {
                    b.push(' ');
                    pending_space = false;
                }
                b.push(c);
            }
        }
        match self.language {
            None => out.push_str(&b),
            Some(language) => {
                a.clear();
                join_thousands(&b, &mut a);
                spell_digits(&a, language, out);
            }
        }
    }
}

/// `re.sub(r"(\d)\s+(\d{3})\b", r"\1\2", s)`: "10 000" -> "10000".
fn join_thousands(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(c) = s.get(at..).and_then(|t| t.chars().next()) {
        let next = at + c.len_utf8();
        if !is_decimal(c) {
            at = next;
            continue;
        }
        let mut end = next;
        let mut spaces = 0;
        loop {
            let n = py_space_len(bytes, end);
            if n == 0 {
                break;
            }
            end += n;
            spaces += 1;
        }
        let mut group = s.get(end..).unwrap_or_default().char_indices();
        let three = spaces > 0
            && group
                .by_ref()
                .take(3)
                .filter(|&(_, d)| is_decimal(d))
                .count()
                == 3;
        let group_end = s
            .get(end..)
            .and_then(|t| t.char_indices().nth(3))
            .map_or(s.len(), |(i, _)| end + i);
        let boundary = three && super::unicode::is_boundary(s, group_end);
        if boundary {
            out.push_str(s.get(copied..next).unwrap_or_default());
            out.push_str(s.get(end..group_end).unwrap_or_default());
            copied = group_end;
            at = group_end;
        } else {
            at = next;
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

/// `re.sub(r"\d+", lambda m: num2words(int(m.group()), lang=...), s)`, keeping a run where
/// `int` or num2words raises.
fn spell_digits(s: &str, language: NumberLanguage, out: &mut String) {
    let mut run = String::new();
    let mut run_start = 0;
    let mut run_chars = 0;
    let flush = |run: &mut String, run_chars: &mut usize, original: &str, out: &mut String| {
        if *run_chars == 0 {
            return;
        }
        let spelled = (*run_chars <= MAX_STR_DIGITS)
            .then(|| cardinal(language, run))
            .flatten();
        out.push_str(spelled.as_deref().unwrap_or(original));
        run.clear();
        *run_chars = 0;
    };
    for (i, c) in s.char_indices() {
        if let Some(d) = is_decimal(c).then(|| digit_value(c)).flatten() {
            if run_chars == 0 {
                run_start = i;
            }
            run.push(char::from(b'0' + d));
            run_chars += 1;
            continue;
        }
        flush(
            &mut run,
            &mut run_chars,
            s.get(run_start..i).unwrap_or_default(),
            out,
        );
        out.push(c);
    }
    let tail = s.get(run_start..).unwrap_or_default();
    flush(&mut run, &mut run_chars, tail, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(language: Option<&str>, text: &str) -> String {
        let mut out = String::new();
        MultilingualNormalizer {
            language: language.and_then(NumberLanguage::from_code),
        }
        .normalize(text, &mut out);
        out
    }

    #[test]
    fn leaderboard() {
        assert_eq!(norm(None, "  Él dijo: «¡Hola!» (risas) "), "él dijo hola");
        assert_eq!(
            norm(Some("de"), "Es kostet 10 000 Euro."),
            "es kostet zehntausend euro"
        );
        assert_eq!(norm(Some("fr"), "J'ai 21 ans"), "j ai vingt et un ans");
        // Upstream's join is one non-overlapping pass: "1 000 000" becomes "1000 000".
        assert_eq!(norm(Some("es"), "1 000 000 y 5"), "mil cero y cinco");
    }
}
