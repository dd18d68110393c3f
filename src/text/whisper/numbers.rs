//! `EnglishNumberNormalizer` of openai-whisper 20250625 (`whisper/normalizers/english.py`):
//! spelled-out numbers to digits, currency words to symbols, "percent" to `%`.
//!
//! Python's integers are unbounded and its `Fraction`s exact; here an integer is its decimal
//! digits (ASCII, no leading zeros) and a fraction the digit strings around its point, so
//! every number of any length comes out as upstream writes it. Where upstream raises (an
//! integer of more than 4300 digits, CPython's `int`/`str` conversion limit), so does this.

use memchr::memmem::Finder;
use rustc_hash::FxHashMap;

use super::unicode::{digit_value, is_boundary, is_decimal, is_word};
use crate::error::{Error, Result};
use crate::text::{is_py_whitespace, py_split, py_strip};

/// CPython's default `sys.get_int_max_str_digits()`.
const MAX_STR_DIGITS: usize = 4300;

const ONES: [&str; 19] = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
/// The multipliers and their powers of ten.
const MULTIPLIERS: [(&str, usize); 12] = [
    ("hundred", 2),
    ("thousand", 3),
    ("million", 6),
    ("billion", 9),
    ("trillion", 12),
    ("quadrillion", 15),
    ("quintillion", 18),
    ("sextillion", 21),
    ("septillion", 24),
    ("octillion", 27),
    ("nonillion", 30),
    ("decillion", 33),
];

/// What a word is to the number normalizer (its `self.words`, by the dict it is in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Zero,
    One(u32),
    OneSuffixed(u32, &'static str),
    Ten(u32),
    TenSuffixed(u32, &'static str),
    Multiplier(usize),
    MultiplierSuffixed(usize, &'static str),
    PrecedingPrefixer(char),
    FollowingPrefixer(char),
    /// "per" ("per cent" is `%`).
    Per,
    /// "percent".
    Percent,
    And,
    Double,
    Triple,
    Point,
}

/// A number being built: an integer (decimal digits, canonical) or digits as text.
#[derive(Debug, Clone)]
enum Value {
    Int(String),
    Str(String),
}

/// `str(int)` of CPython, which refuses integers of more than 4300 digits.
fn int_str(digits: &str) -> Result<&str> {
    if digits.len() > MAX_STR_DIGITS {
        return Err(Error::invalid_input(format!(
            "ValueError: Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string \
             conversion; use sys.set_int_max_str_digits() to increase the limit (openai-whisper's \
             number normalizer raises this for a number of {} digits): split the number, or \
             normalize with whisper-basic, which reads no numbers",
            digits.len()
        )));
    }
    Ok(digits)
}

impl Value {
    /// `str(value)`.
    fn text(&self) -> Result<&str> {
        match self {
            Self::Int(d) => int_str(d),
            Self::Str(s) => Ok(s),
        }
    }
}

/// `str(value or "")`: `None` and the integer 0 are falsy.
fn text_or_empty(value: Option<&Value>) -> Result<&str> {
    match value {
        None => Ok(""),
        Some(Value::Int(d)) if d == "0" => Ok(""),
        Some(v) => v.text(),
    }
}

/// `a + b` for canonical decimal digit strings.
fn add(a: &str, b: &str) -> String {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut sum = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u8;
    let (mut i, mut j) = (a.len(), b.len());
    while i > 0 || j > 0 || carry > 0 {
        let mut d = carry;
        if i > 0 {
            i -= 1;
            d += a.get(i).map_or(0, |x| x - b'0');
        }
        if j > 0 {
            j -= 1;
            d += b.get(j).map_or(0, |x| x - b'0');
        }
        sum.push(b'0' + d % 10);
        carry = d / 10;
    }
    sum.reverse();
    canonical(sum.into_iter().map(char::from))
}

/// Decimal digits without leading zeros ("0" for zero).
fn canonical(digits: impl Iterator<Item = char>) -> String {
    let out: String = digits.skip_while(|&c| c == '0').collect();
    if out.is_empty() {
        "0".to_owned()
    } else {
        out
    }
}

/// `value // 1000 * 1000 + value % 1000 * 10**power`.
fn apply_multiplier(value: &str, power: usize) -> String {
    let split = value.len().saturating_sub(3);
    let (head, tail) = value.split_at(split);
    let residual: u32 = tail.parse().unwrap_or(0);
    let before = if head.is_empty() {
        "0".to_owned()
    } else {
        format!("{head}000")
    };
    if residual == 0 {
        return before;
    }
    add(&before, &format!("{residual}{}", "0".repeat(power)))
}

fn power_of_ten(power: usize) -> String {
    format!("1{}", "0".repeat(power))
}

/// `re.match(r"^\d+(\.\d+)?$", s)` (Unicode digits).
fn is_numeric(s: &str) -> bool {
    // digits, then optionally a point and digits
    let mut digits_before = 0;
    let mut digits_after = 0;
    let mut point = false;
    for c in s.chars() {
        if c == '.' && !point {
            point = true;
        } else if is_decimal(c) {
            if point {
                digits_after += 1;
            } else {
                digits_before += 1;
            }
        } else {
            return false;
        }
    }
    digits_before > 0 && (!point || digits_after > 0)
}

/// A decimal parsed as `Fraction(s)` reads it: integer digits (canonical) and the digits after
/// the point (ASCII, as written). `None` where `Fraction` raises `ValueError`, including
/// CPython's 4300-digit limit on either part.
fn to_fraction(s: &str) -> Option<(String, String)> {
    let (int, frac) = match s.split_once('.') {
        Some((int, frac)) => (int, frac),
        None => (s, ""),
    };
    // (?=\d|\.\d)(?P<num>\d*)(?:\.(?P<decimal>\d*))?
    let starts_ok = int.chars().next().is_some_and(is_decimal)
        || (int.is_empty() && frac.chars().next().is_some_and(is_decimal));
    if !starts_ok || !int.chars().all(is_decimal) || !frac.chars().all(is_decimal) {
        return None;
    }
    let (int_len, frac_len) = (int.chars().count(), frac.chars().count());
    if int_len > MAX_STR_DIGITS || frac_len > MAX_STR_DIGITS {
        return None;
    }
    let ascii = |t: &str| -> String {
        t.chars()
            .map(|c| char::from(b'0' + digit_value(c).unwrap_or(0)))
            .collect()
    };
    Some((canonical(ascii(int).chars()), ascii(frac)))
}

/// `Fraction(int.frac) * 10**power` when it is an integer.
fn times_power(int: &str, frac: &str, power: usize) -> Option<String> {
    let significant = frac.trim_end_matches('0');
    if significant.len() > power {
        return None;
    }
    let mut digits = String::with_capacity(int.len() + power);
    digits.push_str(int);
    digits.push_str(significant);
    digits.extend(std::iter::repeat_n('0', power - significant.len()));
    Some(canonical(digits.chars()))
}

/// The number normalizer: its word tables, built once.
#[derive(Debug, Clone)]
pub struct EnglishNumberNormalizer {
    words: FxHashMap<String, Word>,
    and_finder: Finder<'static>,
    /// openai-whisper's `assert value[-1] == "0"` before replacing a tens' last zero: the
    /// leaderboard's copy drops the assertion (and the last character, whatever it is).
    assert_last_zero: bool,
}

impl Default for EnglishNumberNormalizer {
    fn default() -> Self {
        Self::new()
    }
}

/// The words joined by `" ".join(...)` as they are yielded.
struct Output<'o> {
    out: &'o mut String,
    first: bool,
}

impl Output<'_> {
    fn push(&mut self, prefix: Option<char>, parts: &[&str]) {
        if !self.first {
            self.out.push(' ');
        }
        self.first = false;
        if let Some(p) = prefix {
            self.out.push(p);
        }
        for part in parts {
            self.out.push_str(part);
        }
    }
}

/// `process_words`' variables `prefix` and `value`, and its `output()`.
struct State<'o> {
    prefix: Option<char>,
    value: Option<Value>,
    out: Output<'o>,
}

impl State<'_> {
    /// `yield output(parts...)`: the prefix, if any, goes first; prefix and value are reset.
    fn output(&mut self, parts: &[&str]) {
        let prefix = self.prefix.take();
        self.out.push(prefix, parts);
        self.value = None;
    }

    /// `if value is not None: yield output(value)`.
    fn flush(&mut self) -> Result<()> {
        if let Some(value) = self.value.take() {
            let text = value.text()?;
            let prefix = self.prefix.take();
            self.out.push(prefix, &[text]);
        }
        Ok(())
    }
}

fn assertion() -> Error {
    Error::invalid_input(
        "AssertionError: openai-whisper's number normalizer fails on this input (a number of \
         more than 4300 digits): split the number, or normalize with whisper-basic, which reads \
         no numbers",
    )
}

impl EnglishNumberNormalizer {
    /// Builds the word tables as upstream's `__init__` does.
    pub fn new() -> Self {
        let mut words = FxHashMap::default();
        for z in ["o", "oh", "zero"] {
            words.insert(z.to_owned(), Word::Zero);
        }
        let mut suffixed = Vec::new();
        for (value, name) in (1u32..).zip(ONES) {
            words.insert(name.to_owned(), Word::One(value));
            let plural = if name == "six" {
                "sixes".to_owned()
            } else {
                format!("{name}s")
            };
            suffixed.push((plural, Word::OneSuffixed(value, "s")));
        }
        for (name, value, suffix) in [
            ("zeroth", 0, "th"),
            ("first", 1, "st"),
            ("second", 2, "nd"),
            ("third", 3, "rd"),
            ("fifth", 5, "th"),
            ("twelfth", 12, "th"),
        ] {
            suffixed.push((name.to_owned(), Word::OneSuffixed(value, suffix)));
        }
        for (value, name) in (1u32..).zip(ONES) {
            if value > 3 && value != 5 && value != 12 {
                let ending = if name.ends_with('t') { "h" } else { "th" };
                suffixed.push((format!("{name}{ending}"), Word::OneSuffixed(value, "th")));
            }
        }
        for (value, name) in (2u32..).map(|t| t * 10).zip(TENS) {
            words.insert(name.to_owned(), Word::Ten(value));
            suffixed.push((name.replace('y', "ies"), Word::TenSuffixed(value, "s")));
            suffixed.push((name.replace('y', "ieth"), Word::TenSuffixed(value, "th")));
        }
        for (name, power) in MULTIPLIERS {
            words.insert(name.to_owned(), Word::Multiplier(power));
            suffixed.push((format!("{name}s"), Word::MultiplierSuffixed(power, "s")));
            suffixed.push((format!("{name}th"), Word::MultiplierSuffixed(power, "th")));
        }
        for (name, word) in suffixed {
            words.entry(name).or_insert(word);
        }
        for (name, sign) in [
            ("minus", '-'),
            ("negative", '-'),
            ("plus", '+'),
            ("positive", '+'),
        ] {
            words.insert(name.to_owned(), Word::PrecedingPrefixer(sign));
        }
        for (name, sign) in [
            ("pound", '£'),
            ("pounds", '£'),
            ("euro", '€'),
            ("euros", '€'),
            ("dollar", '$'),
            ("dollars", '$'),
            ("cent", '¢'),
            ("cents", '¢'),
        ] {
            words.insert(name.to_owned(), Word::FollowingPrefixer(sign));
        }
        words.insert("per".to_owned(), Word::Per);
        words.insert("percent".to_owned(), Word::Percent);
        words.insert("and".to_owned(), Word::And);
        words.insert("double".to_owned(), Word::Double);
        words.insert("triple".to_owned(), Word::Triple);
        words.insert("point".to_owned(), Word::Point);
        Self {
            words,
            and_finder: Finder::new("and").into_owned(),
            assert_last_zero: true,
        }
    }

    /// The Open ASR Leaderboard's copy: `value[:-1] + ones` without asserting that the last
    /// character is a zero.
    pub fn without_assertions() -> Self {
        Self {
            assert_last_zero: false,
            ..Self::new()
        }
    }

    fn word(&self, w: Option<&str>) -> Option<Word> {
        // every key is 1 to 13 lowercase ASCII letters
        w.filter(|w| w.len() <= 13 && w.as_bytes().first().is_some_and(u8::is_ascii_lowercase))
            .and_then(|w| self.words.get(w).copied())
    }

    /// Appends upstream's `EnglishNumberNormalizer()(s)` to `out`.
    pub fn normalize(&self, s: &str, out: &mut String) -> Result<()> {
        let mut a = String::with_capacity(s.len() + 16);
        let mut b = String::with_capacity(s.len() + 16);
        self.preprocess(s, &mut a, &mut b);
        let words: Vec<&str> = py_split(&a).collect();
        b.clear();
        self.process_words(&words, &mut b)?;
        postprocess(&b, out);
        Ok(())
    }

    /// `preprocess(s)`, into `out` (`tmp` is scratch).
    fn preprocess(&self, s: &str, out: &mut String, tmp: &mut String) {
        tmp.clear();
        self.replace_halves(s, tmp);
        out.clear();
        space_letter_digit(tmp, out);
        tmp.clear();
        space_digit_letter(out, tmp);
        out.clear();
        join_ordinal_suffixes(tmp, out);
    }

    /// `re.split(r"\band\s+a\s+half\b", s)`, then "point five" after a number word and
    /// "and a half" elsewhere, skipping blank pieces, joined with spaces.
    fn replace_halves(&self, s: &str, out: &mut String) {
        let mut segments: Vec<&str> = Vec::new();
        let mut start = 0;
        let mut at = 0;
        while let Some(found) = s.get(at..).and_then(|t| self.and_finder.find(t.as_bytes())) {
            let p = at + found;
            match half_match_end(s, p) {
                Some(end) => {
                    segments.push(s.get(start..p).unwrap_or_default());
                    start = end;
                    at = end;
                }
                None => at = p + 1,
            }
        }
        segments.push(s.get(start..).unwrap_or_default());
        let last = segments.len() - 1;
        let mut first = true;
        let mut push = |piece: &str, out: &mut String| {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(piece);
        };
        for (i, segment) in segments.iter().enumerate() {
            if py_strip(segment).is_empty() {
                continue;
            }
            push(segment, out);
            if i != last {
                let last_word = py_split(segment).last().unwrap_or_default();
                let number = matches!(
                    self.word(Some(last_word)),
                    Some(Word::Zero | Word::One(_) | Word::Ten(_) | Word::Multiplier(_))
                );
                push(if number { "point five" } else { "and a half" }, out);
            }
        }
    }

    /// `" ".join(process_words(words))`, appended to `out`.
    fn process_words(&self, words: &[&str], out: &mut String) -> Result<()> {
        let mut st = State {
            prefix: None,
            value: None,
            out: Output { out, first: true },
        };
        let mut skip = false;
        let classes: Vec<Option<Word>> = words.iter().map(|&w| self.word(Some(w))).collect();
        let class = |j: Option<usize>| j.and_then(|j| classes.get(j)).copied().flatten();
        for (i, &current) in words.iter().enumerate() {
            if skip {
                skip = false;
                continue;
            }
            let next = words.get(i + 1).copied();
            let prev_word = class(i.checked_sub(1));
            let next_word = class(Some(i + 1));
            let prev_is_one = matches!(prev_word, Some(Word::One(_)));
            let prev_is_ten = matches!(prev_word, Some(Word::Ten(_)));
            let next_is_numeric = next.is_some_and(is_numeric);
            let first = current.chars().next();
            let has_prefix = first.is_some_and(|c| matches!(c, '-' | '+' | '£' | '€' | '$' | '¢'));
            let without_prefix = match first {
                Some(c) if has_prefix => current.get(c.len_utf8()..).unwrap_or_default(),
                _ => current,
            };
            if is_numeric(without_prefix) {
                // arabic numbers (potentially with signs and fractions)
                let (int, frac) = to_fraction(without_prefix).ok_or_else(assertion)?;
                if let Some(value) = &mut st.value {
                    if let Value::Str(v) = value {
                        if v.ends_with('.') {
                            // concatenate decimals / ip address components
                            v.push_str(current);
                            continue;
                        }
                    }
                    st.flush()?;
                }
                if has_prefix {
                    st.prefix = first;
                }
                st.value = Some(if frac.bytes().all(|d| d == b'0') {
                    Value::Int(int)
                } else {
                    Value::Str(without_prefix.to_owned())
                });
                continue;
            }
            let Some(word) = class(Some(i)) else {
                // non-numeric words
                st.flush()?;
                st.output(&[current]);
                continue;
            };
            match word {
                Word::Zero => {
                    let text = format!("{}0", text_or_empty(st.value.as_ref())?);
                    st.value = Some(Value::Str(text));
                }
                Word::One(ones) => {
                    let ones_text = ones.to_string();
                    st.value = Some(match st.value.take() {
                        None => Value::Int(ones_text),
                        Some(value) if matches!(value, Value::Str(_)) || prev_is_one => {
                            if prev_is_ten && ones < 10 {
                                Value::Str(replace_last_zero(
                                    &value,
                                    &ones_text,
                                    self.assert_last_zero,
                                )?)
                            } else {
                                Value::Str(format!("{}{ones_text}", value.text()?))
                            }
                        }
                        Some(Value::Int(v)) => {
                            let round = if ones < 10 {
                                v.ends_with('0')
                            } else {
                                v == "0" || v.ends_with("00")
                            };
                            if round {
                                Value::Int(add(&v, &ones_text))
                            } else {
                                Value::Str(format!("{}{ones_text}", int_str(&v)?))
                            }
                        }
                        Some(Value::Str(_)) => unreachable_value()?,
                    });
                }
                Word::OneSuffixed(ones, suffix) => {
                    // ordinal or cardinal; yield the number right away
                    let ones_text = ones.to_string();
                    match st.value.take() {
                        None => st.output(&[&ones_text, suffix]),
                        Some(value) if matches!(value, Value::Str(_)) || prev_is_one => {
                            if prev_is_ten && ones < 10 {
                                let text =
                                    replace_last_zero(&value, &ones_text, self.assert_last_zero)?;
                                st.output(&[&text, suffix]);
                            } else {
                                st.output(&[value.text()?, &ones_text, suffix]);
                            }
                        }
                        Some(Value::Int(v)) => {
                            let round = if ones < 10 {
                                v.ends_with('0')
                            } else {
                                v == "0" || v.ends_with("00")
                            };
                            if round {
                                st.output(&[int_str(&add(&v, &ones_text))?, suffix]);
                            } else {
                                st.output(&[int_str(&v)?, &ones_text, suffix]);
                            }
                        }
                        Some(Value::Str(_)) => {
                            unreachable_value()?;
                        }
                    }
                    st.value = None;
                }
                Word::Ten(tens) => {
                    let tens_text = tens.to_string();
                    st.value = Some(match st.value.take() {
                        None => Value::Int(tens_text),
                        Some(Value::Str(v)) => Value::Str(v + &tens_text),
                        Some(Value::Int(v)) => {
                            if v == "0" || v.ends_with("00") {
                                Value::Int(add(&v, &tens_text))
                            } else {
                                Value::Str(format!("{}{tens_text}", int_str(&v)?))
                            }
                        }
                    });
                }
                Word::TenSuffixed(tens, suffix) => {
                    let tens_text = tens.to_string();
                    match st.value.take() {
                        None => st.output(&[&tens_text, suffix]),
                        Some(Value::Str(v)) => st.output(&[&v, &tens_text, suffix]),
                        Some(Value::Int(v)) => {
                            if v == "0" || v.ends_with("00") {
                                st.output(&[int_str(&add(&v, &tens_text))?, suffix]);
                            } else {
                                st.output(&[int_str(&v)?, &tens_text, suffix]);
                            }
                        }
                    }
                }
                Word::Multiplier(power) => {
                    st.value = Some(match st.value.take() {
                        None => Value::Int(power_of_ten(power)),
                        Some(Value::Int(v)) if v == "0" => Value::Int(v),
                        Some(Value::Str(v)) => {
                            match to_fraction(&v).and_then(|(i, f)| times_power(&i, &f, power)) {
                                Some(product) => Value::Int(product),
                                None => {
                                    st.value = Some(Value::Str(v));
                                    st.flush()?;
                                    Value::Int(power_of_ten(power))
                                }
                            }
                        }
                        Some(Value::Int(v)) => Value::Int(apply_multiplier(&v, power)),
                    });
                }
                Word::MultiplierSuffixed(power, suffix) => {
                    match st.value.take() {
                        None => st.output(&[&power_of_ten(power), suffix]),
                        Some(Value::Str(v)) => {
                            match to_fraction(&v).and_then(|(i, f)| times_power(&i, &f, power)) {
                                Some(product) => st.output(&[int_str(&product)?, suffix]),
                                None => {
                                    st.output(&[&v]);
                                    st.output(&[&power_of_ten(power), suffix]);
                                }
                            }
                        }
                        Some(Value::Int(v)) => {
                            let product = apply_multiplier(&v, power);
                            st.output(&[int_str(&product)?, suffix]);
                        }
                    }
                    st.value = None;
                }
                Word::PrecedingPrefixer(sign) => {
                    // apply prefix (positive, minus, etc.) if it precedes a number
                    st.flush()?;
                    if next_word.is_some() || next_is_numeric {
                        st.prefix = Some(sign);
                    } else {
                        st.output(&[current]);
                    }
                }
                Word::FollowingPrefixer(sign) => {
                    // apply prefix (dollars, cents, etc.) only after a number
                    if st.value.is_some() {
                        st.prefix = Some(sign);
                        st.flush()?;
                    } else {
                        st.output(&[current]);
                    }
                }
                Word::Per | Word::Percent => match st.value.take() {
                    Some(value) => {
                        if word == Word::Percent {
                            st.output(&[value.text()?, "%"]);
                        } else if next == Some("cent") {
                            st.output(&[value.text()?, "%"]);
                            skip = true;
                        } else {
                            st.value = Some(value);
                            st.flush()?;
                            st.output(&[current]);
                        }
                    }
                    None => st.output(&[current]),
                },
                Word::And | Word::Double | Word::Triple | Word::Point => {
                    if next_word.is_none() && !next_is_numeric {
                        // apply special handling only if the next word can be numeric
                        st.flush()?;
                        st.output(&[current]);
                    } else if word == Word::And {
                        // ignore "and" after hundreds, thousands, etc.
                        if !matches!(prev_word, Some(Word::Multiplier(_))) {
                            st.flush()?;
                            st.output(&[current]);
                        }
                    } else if word == Word::Point {
                        let decimal =
                            matches!(next_word, Some(Word::Zero | Word::One(_) | Word::Ten(_)));
                        if decimal || next_is_numeric {
                            let text = format!("{}.", text_or_empty(st.value.as_ref())?);
                            st.value = Some(Value::Str(text));
                        }
                    } else {
                        let digit = match next_word {
                            Some(Word::One(ones)) => Some(ones),
                            Some(Word::Zero) => Some(0),
                            _ => None,
                        };
                        match digit {
                            Some(ones) => {
                                let repeats = if word == Word::Double { 2 } else { 3 };
                                let text = format!(
                                    "{}{}",
                                    text_or_empty(st.value.as_ref())?,
                                    ones.to_string().repeat(repeats)
                                );
                                st.value = Some(Value::Str(text));
                                skip = true;
                            }
                            None => {
                                st.flush()?;
                                st.output(&[current]);
                            }
                        }
                    }
                }
            }
        }
        st.flush()
    }
}

/// `value[:-1] + ones` after `assert value[-1] == "0"` (when `asserted`).
fn replace_last_zero(value: &Value, ones: &str, asserted: bool) -> Result<String> {
    match value {
        Value::Str(v) => match v.strip_suffix('0') {
            Some(head) => Ok(format!("{head}{ones}")),
            None if !asserted => {
                let mut head = v.clone();
                head.pop();
                Ok(head + ones)
            }
            None => Err(assertion()),
        },
        Value::Int(_) => Err(assertion()),
    }
}

/// A branch the match guards leave unreachable.
fn unreachable_value() -> Result<Value> {
    Err(Error::internal(
        "whisper number normalizer: text value in the integer branch",
    ))
}

/// The end of a `\band\s+a\s+half\b` match starting at `at` ("and" is there), if it matches.
fn half_match_end(s: &str, at: usize) -> Option<usize> {
    if !is_boundary(s, at) {
        return None;
    }
    let mut rest = s.get(at + 3..)?;
    let spaces = |t: &str| t.len() - t.trim_start_matches(is_py_whitespace).len();
    let n = spaces(rest);
    rest = rest.get(n..).filter(|_| n > 0)?.strip_prefix('a')?;
    let m = spaces(rest);
    rest = rest.get(m..).filter(|_| m > 0)?.strip_prefix("half")?;
    let end = s.len() - rest.len();
    is_boundary(s, end).then_some(end)
}

/// `re.sub(r"([a-z])([0-9])", r"\1 \2", s)`.
fn space_letter_digit(s: &str, out: &mut String) {
    space_pairs(s, out, |a, b| a.is_ascii_lowercase() && b.is_ascii_digit());
}

/// `re.sub(r"([0-9])([a-z])", r"\1 \2", s)`.
fn space_digit_letter(s: &str, out: &mut String) {
    space_pairs(s, out, |a, b| a.is_ascii_digit() && b.is_ascii_lowercase());
}

fn space_pairs(s: &str, out: &mut String, pair: impl Fn(u8, u8) -> bool) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while at + 1 < bytes.len() {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(&x), Some(&y)) if pair(x, y) => {
                out.push_str(s.get(copied..at + 1).unwrap_or_default());
                out.push(' ');
                copied = at + 1;
                at += 2;
            }
            _ => at += 1,
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

/// `re.sub(r"([0-9])\s+(st|nd|rd|th|s)\b", r"\1\2", s)`.
fn join_ordinal_suffixes(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes.get(at).is_some_and(u8::is_ascii_digit) {
            let after = s.get(at + 1..).unwrap_or_default();
            let rest = after.trim_start_matches(is_py_whitespace);
            let space = after.len() - rest.len();
            if space > 0 {
                let suffix_start = at + 1 + space;
                let suffix = ["st", "nd", "rd", "th", "s"].into_iter().find(|suffix| {
                    rest.starts_with(suffix) && is_boundary(s, suffix_start + suffix.len())
                });
                if let Some(suffix) = suffix {
                    out.push_str(s.get(copied..at + 1).unwrap_or_default());
                    out.push_str(suffix);
                    at = suffix_start + suffix.len();
                    copied = at;
                    continue;
                }
            }
        }
        at += 1;
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

/// The number of ASCII digits at the start of `s`.
fn ascii_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// `[0-9]{1,2}\b` at the start of `s`: the digits, if it matches.
fn cents_digits(s: &str) -> Option<&str> {
    let n = ascii_digits(s);
    let digits = s.get(..n).filter(|_| (1..=2).contains(&n))?;
    let after = s.get(n..).and_then(|t| t.chars().next());
    (!after.is_some_and(is_word)).then_some(digits)
}

/// `postprocess(s)`: currency cents and "one(s)", appended to `out`.
fn postprocess(s: &str, out: &mut String) {
    let mut a = String::with_capacity(s.len() + 8);
    combine_cents(s, &mut a);
    let mut b = String::with_capacity(a.len() + 8);
    extract_cents(&a, &mut b);
    write_ones(&b, out);
}

fn is_currency(c: char) -> bool {
    matches!(c, '€' | '£' | '$')
}

/// `re.sub(r"([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\b", combine_cents, s)`: "$2 and ¢7" ->
/// "$2.07".
fn combine_cents(s: &str, out: &mut String) {
    if memchr::memmem::find(s.as_bytes(), "¢".as_bytes()).is_none() {
        out.push_str(s);
        return;
    }
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let tail = rest.get(c.len_utf8()..).unwrap_or_default();
        if is_currency(c) {
            let n = ascii_digits(tail);
            let integer = tail.get(..n).unwrap_or_default();
            let after = tail.get(n..).and_then(|t| t.strip_prefix(' '));
            let after = after.and_then(|t| t.strip_prefix("and ¢").or_else(|| t.strip_prefix('¢')));
            if let Some((after, cents)) = after
                .filter(|_| n > 0)
                .and_then(|t| Some((t, cents_digits(t)?)))
            {
                out.push(c);
                out.push_str(integer);
                out.push('.');
                if cents.len() == 1 {
                    out.push('0');
                }
                out.push_str(cents);
                rest = after.get(cents.len()..).unwrap_or_default();
                continue;
            }
        }
        out.push(c);
        rest = tail;
    }
}

/// `re.sub(r"[€£$]0.([0-9]{1,2})\b", extract_cents, s)` (the `.` is any character but a
/// newline): "$0.07" -> "¢7".
fn extract_cents(s: &str, out: &mut String) {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let tail = rest.get(c.len_utf8()..).unwrap_or_default();
        if is_currency(c) {
            if let Some(after_zero) = tail.strip_prefix('0') {
                if let Some(any) = after_zero.chars().next().filter(|&d| d != '\n') {
                    let after_any = after_zero.get(any.len_utf8()..).unwrap_or_default();
                    if let Some(cents) = cents_digits(after_any) {
                        out.push('¢');
                        let value = cents.trim_start_matches('0');
                        out.push_str(if value.is_empty() { "0" } else { value });
                        rest = after_any.get(cents.len()..).unwrap_or_default();
                        continue;
                    }
                }
            }
        }
        out.push(c);
        rest = tail;
    }
}

/// `re.sub(r"\b1(s?)\b", r"one\1", s)`.
fn write_ones(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'1', bytes.get(at..).unwrap_or_default()) {
        let p = at + found;
        at = p + 1;
        if !is_boundary(s, p) {
            continue;
        }
        let end = if bytes.get(p + 1) == Some(&b's') && is_boundary(s, p + 2) {
            p + 2
        } else if is_boundary(s, p + 1) {
            p + 1
        } else {
            continue;
        };
        out.push_str(s.get(copied..p).unwrap_or_default());
        out.push_str("one");
        if end == p + 2 {
            out.push('s');
        }
        copied = end;
        at = end;
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        let mut out = String::new();
        EnglishNumberNormalizer::new()
            .normalize(s, &mut out)
            .unwrap();
        out
    }

    #[test]
    fn upstream_tests() {
        // openai-whisper's tests/test_normalizer.py, test_number_normalizer
        assert_eq!(norm("two"), "2");
        assert_eq!(norm("thirty one"), "31");
        assert_eq!(norm("five twenty four"), "524");
        assert_eq!(norm("nineteen ninety nine"), "1999");
        assert_eq!(norm("twenty nineteen"), "2019");
        assert_eq!(norm("two point five million"), "2500000");
        assert_eq!(norm("four point two billions"), "4200000000s");
        assert_eq!(norm("200 thousand"), "200000");
        assert_eq!(norm("200 thousand dollars"), "$200000");
        assert_eq!(norm("$20 million"), "$20000000");
        assert_eq!(norm("€52.4 million"), "€52400000");
        assert_eq!(norm("£77 thousands"), "£77000s");
        assert_eq!(norm("two double o eight"), "2008");
        assert_eq!(norm("three thousand twenty nine"), "3029");
        assert_eq!(norm("forty three thousand two hundred sixty"), "43260");
        assert_eq!(norm("forty three thousand two hundred and sixty"), "43260");
        assert_eq!(norm("nineteen fifties"), "1950s");
        assert_eq!(norm("thirty first"), "31st");
        assert_eq!(
            norm("thirty three thousand and three hundred and thirty third"),
            "33333rd"
        );
        assert_eq!(norm("three billion"), "3000000000");
        assert_eq!(norm("millions"), "1000000s");
        assert_eq!(norm("july third twenty twenty"), "july 3rd 2020");
        assert_eq!(
            norm("august twenty sixth twenty twenty one"),
            "august 26th 2021"
        );
        assert_eq!(norm("3 14"), "3 14");
        assert_eq!(norm("3.14"), "3.14");
        assert_eq!(norm("3 point 2"), "3.2");
        assert_eq!(norm("3 point 14"), "3.14");
        assert_eq!(norm("fourteen point 4"), "14.4");
        assert_eq!(norm("two point two five dollars"), "$2.25");
        assert_eq!(norm("two hundred million dollars"), "$200000000");
        assert_eq!(norm("$20.1 million"), "$20100000");
        assert_eq!(norm("ninety percent"), "90%");
        assert_eq!(norm("seventy six per cent"), "76%");
        assert_eq!(norm("double oh seven"), "007");
        assert_eq!(norm("double zero seven"), "007");
        assert_eq!(norm("nine one one"), "911");
        assert_eq!(norm("nine double one"), "911");
        assert_eq!(norm("one triple oh one"), "10001");
        assert_eq!(norm("two thousandth"), "2000th");
        assert_eq!(norm("thirty two thousandth"), "32000th");
        assert_eq!(norm("minus 500"), "-500");
        assert_eq!(norm("positive twenty thousand"), "+20000");
        assert_eq!(norm("two dollars and seventy cents"), "$2.70");
        assert_eq!(norm("3 cents"), "¢3");
        assert_eq!(norm("$0.36"), "¢36");
        assert_eq!(norm("three euros and sixty five cents"), "€3.65");
        assert_eq!(norm("three and a half million"), "3500000");
        assert_eq!(norm("forty eight and a half dollars"), "$48.5");
        assert_eq!(norm("b747"), "b 747");
        assert_eq!(norm("10 th"), "10th");
        assert_eq!(norm("10th"), "10th");
    }

    #[test]
    fn big_numbers() {
        assert_eq!(norm("one decillion"), format!("1{}", "0".repeat(33)));
        let long = "9".repeat(50);
        // value // 1000 * 1000 + value % 1000 * 1000, as upstream computes it
        assert_eq!(
            norm(&format!("{long} thousand")),
            format!("1{}998000", "0".repeat(44))
        );
        assert_eq!(apply_multiplier("123456", 2), "168600"); // 123000 + 456 * 100
        assert_eq!(
            apply_multiplier("999", 33),
            format!("999{}", "0".repeat(33))
        );
        let mut out = String::new();
        let too_long = "1".repeat(4301);
        assert!(EnglishNumberNormalizer::new()
            .normalize(&too_long, &mut out)
            .is_err());
        out.clear();
        let ok = "1".repeat(4300);
        EnglishNumberNormalizer::new()
            .normalize(&ok, &mut out)
            .unwrap();
        assert_eq!(out, ok);
    }
}
