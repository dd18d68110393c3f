//! The Penn Treebank tokenizer of Stanford CoreNLP 3.4.1, exactly as pycocoevalcap 1.2 runs it:
//! `java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines
//! -lowerCase`, then its list of punctuation tokens dropped.
//!
//! The jar's `PTBLexer` is a JFlex 1.5.1 scanner: a DFA over UTF-16 code units (an emoji is two
//! units, each untokenizable and deleted), the longest match winning and the earlier rule
//! breaking ties, with trailing contexts (`r1/r2`) resolved by the forward and backward
//! automata JFlex builds for them. [`PtbLexer`] runs the same tables (`tables.rs`, read from the
//! user's jar) with the same loop, and the 54 rule actions below do what the generated
//! `next()` does with the options `PTBTokenizer.main` passes (`ptb3Escaping` defaults plus
//! `tokenizeNLs`): brackets become `-LRB-` .., quotes become LaTeX quotes by the rule that
//! matched them, `&amp;` becomes `&`, soft hyphens go, spaces inside a token become U+00A0, and
//! so on.
//!
//! `-preserveLines` writes the tokens of a line separated by one space and each newline token
//! as a line break; `-lowerCase` is Java's `toLowerCase(Locale.ENGLISH)` (Java 17, Unicode 13:
//! the few letters later Unicode versions gave a lowercase stay as they are); the writer turns
//! a lone surrogate into `?`, as Java's UTF-8 encoder does.

mod tables;

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::text::py_rstrip;
use tables::Tables;

/// The DFA state the scanner starts every token in: `ZZ_LEXSTATE[YyTraditionalTreebank3]`
/// (`strictTreebank3` is off).
const START: usize = 2;

/// The tokens pycocoevalcap's `PTBTokenizer.tokenize` removes after lowercasing (the bracket
/// names in its list are upper case, so `-lrb-` .. stay).
pub const COCO_PUNCTUATION: [&str; 17] = [
    "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--",
    "...", ";",
];

/// The characters the scanner may read as the end of a line (`NEWLINE` in `PTBLexer.flex`,
/// without U+0085, which its ellipsis rule takes first). In a caption they split it, and in
/// pycocoevalcap's one-call batch every later caption moves to the wrong image.
pub const LINE_BREAKS: [char; 6] = ['\n', '\r', '\u{0B}', '\u{0C}', '\u{2028}', '\u{2029}'];

/// What [`PtbLexer::coco_captions`] does with a caption's [`LINE_BREAKS`] characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineBreaks {
    /// Refuse the caption.
    Error,
    /// `\n` becomes a space (pycocoevalcap's own `replace('\n', ' ')`); the others refuse it.
    NewlineSpace,
    /// Every one becomes a space.
    Space,
}

crate::enums::name_table!(LineBreaks, "line_breaks", {
    Error => "error",
    NewlineSpace => "newline-space",
    Space => "space",
});

/// One token of the scanner: its text (UTF-16, as the jar's `String`s), or a line end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token<'a> {
    /// A token's normalized text.
    Text(Cow<'a, [u16]>),
    /// `*NL*`: a newline (`tokenizeNLs`).
    Newline,
}

/// CoreNLP 3.4.1's `PTBLexer` with the tables of its class file.
#[derive(Debug)]
pub struct PtbLexer {
    tables: Tables,
}

/// A match: where it starts and where the next one will (the actions move the end back).
struct Span {
    start: usize,
    end: usize,
}

impl PtbLexer {
    /// The lexer of `edu/stanford/nlp/process/PTBLexer.class` from CoreNLP 3.4.1's jar.
    ///
    /// # Errors
    /// `InvalidInput` when the bytes are not that class.
    pub fn from_class_file(class: &[u8]) -> Result<Self> {
        Ok(Self {
            tables: Tables::from_class_file(class)?,
        })
    }

    /// Scans `text` (UTF-16 code units) and hands every token to `emit`, as `PTBLexer.next()`
    /// returns them until the end of the input.
    ///
    /// # Errors
    /// `Internal` if the tables leave the scanner without a match, which 3.4.1's catch-all
    /// rules rule out.
    pub fn scan(&self, text: &[u16], mut emit: impl FnMut(Token<'_>)) -> Result<()> {
        self.scan_until(text, text.contains(&SOFT_HYPHEN), |token| {
            emit(token);
            true
        })
    }

    /// [`PtbLexer::scan`] until `emit` returns `false`; `soft_hyphens`: whether `text` may hold
    /// U+00AD (which some rules remove), known to the caller.
    fn scan_until(
        &self,
        text: &[u16],
        soft_hyphens: bool,
        mut emit: impl FnMut(Token<'_>) -> bool,
    ) -> Result<()> {
        let t = &self.tables;
        let mut marked = 0;
        while marked < text.len() {
            let start = marked;
            let mut current = start;
            let mut row = t.row(START);
            let mut accepted = (t.attribute(START) & 1 == 1).then_some(START);
            while let Some(&unit) = text.get(current) {
                current += 1;
                let Some(step) = t.step(row, unit) else {
                    break;
                };
                row = step.row();
                if step.accepts() {
                    let state = step.state();
                    accepted = Some(state);
                    marked = current;
                    if t.attribute(state) & 8 == 8 {
                        break;
                    }
                }
            }
            let Some(accepted) = accepted else {
                return Err(Error::internal(format!(
                    "PTBLexer found no rule for the text at code unit {start}"
                )));
            };
            let mut span = Span { start, end: marked };
            let mut more = true;
            let unsoft = if soft_hyphens {
                remove_soft_hyphens
            } else {
                as_is
            };
            self.act(t.action(accepted), text, &mut span, unsoft, &mut |token| {
                more = emit(token);
            })?;
            if span.end <= start {
                return Err(Error::internal(format!(
                    "PTBLexer rule {} matched nothing at code unit {start}",
                    t.action(accepted)
                )));
            }
            marked = span.end;
            if !more {
                break;
            }
        }
        Ok(())
    }

    /// The action of rule `action` (the `case`s of the generated `next()`).
    /// `unsoft` removes soft hyphens (the identity where the text has none).
    fn act(
        &self,
        action: u8,
        text: &[u16],
        span: &mut Span,
        unsoft: fn(&[u16]) -> Cow<'_, [u16]>,
        emit: &mut impl FnMut(Token<'_>),
    ) -> Result<()> {
        if action == 5 {
            emit(Token::Newline);
            return Ok(());
        }
        let mut word = |span: &Span, f: fn(&[u16]) -> Cow<'_, [u16]>| {
            let matched = text.get(span.start..span.end).unwrap_or_default();
            emit(Token::Text(f(matched)));
        };
        match action {
            // Untokenizable (deleted, with a warning once), spaces and U+007F: no token.
            1 | 7 | 23 => {}
            2 => word(span, |_| owned("<")),
            10 => word(span, |_| owned(">")),
            // Runs of hyphens: three or four are a dash.
            4 => word(span, |m| {
                if (3..=4).contains(&m.len()) {
                    owned("--")
                } else {
                    Cow::Borrowed(m)
                }
            }),
            6 | 12 | 29 => word(span, unsoft),
            8 => word(span, |m| latex_quotes(m, false)),
            11 => word(span, |_| owned("--")),
            13 => word(span, |_| owned("...")),
            14 => word(span, normalize_fractions),
            15 => word(span, normalize_currency),
            16 => word(span, |_| owned("-RCB-")),
            17 => word(span, |_| owned("-LRB-")),
            18 => word(span, |_| owned("-RRB-")),
            20 => word(span, |_| owned("-LCB-")),
            21 => word(span, |_| owned("-RSB-")),
            22 => word(span, |_| owned("-LSB-")),
            3 | 9 | 19 | 31 | 45 | 52 => word(span, as_is),
            27 | 38 | 39 => word(span, |m| replace_units(m, &[(u16::from(b' '), "\u{A0}")])),
            28 => word(span, normalize_parentheses),
            37 => word(span, normalize_amp),
            54 => word(span, |m| {
                let spaced = replace_units(m, &[(u16::from(b' '), "\u{A0}")]);
                Cow::Owned(normalize_parentheses(&spaced).into_owned())
            }),
            // Fixed-length trailing contexts: the action first gives back the context.
            25 | 48 | 53 | 42 | 50 => {
                span.end -= match action {
                    25 => 1,
                    42 | 48 => 2,
                    50 => 3,
                    _ => 4,
                };
                word(span, as_is);
            }
            26 | 36 => {
                span.end -= 1;
                word(
                    span,
                    if action == 26 {
                        left_quotes
                    } else {
                        right_quotes
                    },
                );
            }
            32 | 46 => {
                span.end -= 1;
                word(span, unsoft);
            }
            34 => {
                span.end -= 1;
                word(span, normalize_parentheses);
            }
            51 => {
                span.end -= 1;
                word(span, normalize_amp);
            }
            // A trailing context after a one-unit base: the quote is the whole token.
            35 => {
                span.end = span.start + 1;
                word(span, left_quotes);
            }
            // `{ABBREV1}` at the end of the input: the abbreviation, then its period again.
            33 => {
                word(span, as_is);
                span.end -= 1;
            }
            // General trailing contexts.
            24 | 30 | 40 | 41 | 43 | 44 | 47 | 49 => {
                let (forward, backward) = match action {
                    24 => (13, 14),
                    30 => (3, 4),
                    40 => (5, 6),
                    41 => (16, 17),
                    43 => (15, 14),
                    44 => (9, 10),
                    47 => (7, 8),
                    _ => (11, 12),
                };
                span.end = self.lookahead_end(text, span, forward, backward)?;
                match action {
                    30 | 40 => word(span, unsoft),
                    44 => {
                        trim_trailing_space(text, span);
                        word(span, as_is);
                    }
                    // `{ACRONYM}` before a sentence start: "I." gives "I" then ".", a longer
                    // one itself then its period again.
                    47 => {
                        trim_trailing_space(text, span);
                        if span.end - span.start == 2 {
                            span.end -= 1;
                            word(span, as_is);
                        } else {
                            word(span, as_is);
                            span.end -= 1;
                        }
                    }
                    // `{ABBREV1}` before a sentence end: itself, then its period again.
                    49 => {
                        word(span, as_is);
                        span.end -= 1;
                    }
                    _ => word(span, as_is),
                }
            }
            other => {
                return Err(Error::internal(format!("PTBLexer has no action {other}")));
            }
        }
        Ok(())
    }

    /// Where the base of a general trailing-context match ends: the generated code's two passes
    /// (the forward automaton marks where the base can end, the backward one reads the context
    /// back from the end of the match until both agree).
    fn lookahead_end(
        &self,
        text: &[u16],
        span: &Span,
        forward: usize,
        backward: usize,
    ) -> Result<usize> {
        let t = &self.tables;
        let broken = || Error::internal("PTBLexer's trailing-context automata disagree");
        let mut fin = vec![false; span.end - span.start + 1];
        let mut state = Some(forward);
        let mut pos = span.start;
        while let Some(s) = state {
            if pos >= span.end {
                break;
            }
            *fin.get_mut(pos - span.start).ok_or_else(broken)? = t.attribute(s) & 1 == 1;
            state = t.next(s, *text.get(pos).ok_or_else(broken)?);
            pos += 1;
        }
        if let Some(s) = state {
            *fin.get_mut(pos - span.start).ok_or_else(broken)? = t.attribute(s) & 1 == 1;
        }
        let mut state = backward;
        let mut pos = span.end;
        while !fin.get(pos - span.start).copied().ok_or_else(broken)? || t.attribute(state) & 1 != 1
        {
            pos = pos
                .checked_sub(1)
                .filter(|&p| p >= span.start)
                .ok_or_else(broken)?;
            state = t
                .next(state, *text.get(pos).ok_or_else(broken)?)
                .ok_or_else(broken)?;
        }
        Ok(pos)
    }

    /// What the jar writes for `text` with `-preserveLines -lowerCase`: each line's tokens
    /// separated by one space, a line break for each newline token.
    ///
    /// # Errors
    /// As [`PtbLexer::scan`].
    pub fn jar_output(&self, text: &str, out: &mut String) -> Result<()> {
        let mut units = Vec::with_capacity(text.len());
        push_utf16(text, &mut units);
        let mut bytes = Vec::with_capacity(text.len() + text.len() / 4);
        let mut line_start = true;
        let mut word = String::new();
        self.scan(&units, |token| match token {
            Token::Newline => {
                bytes.push(b'\n');
                line_start = true;
            }
            Token::Text(text) => {
                push_token(&text, line_start, &mut word, &mut bytes);
                line_start = false;
            }
        })?;
        out.push_str(utf8(&bytes)?);
        Ok(())
    }

    /// pycocoevalcap's caption for one line of the jar's output: `' '.join(w for w in
    /// line.rstrip().split(' ') if w not in PUNCTUATIONS)`, appended to `out`.
    pub fn push_coco_caption(line: &str, out: &mut String) {
        let mut first = true;
        // Split as bytes: words are short, and a search per word costs more than the loop.
        let line = py_rstrip(line);
        let mut start = 0;
        for end in line
            .bytes()
            .enumerate()
            .filter_map(|(k, b)| (b == b' ').then_some(k))
            .chain(std::iter::once(line.len()))
        {
            // Between two spaces (ASCII), so on character boundaries.
            let word = line.get(start..end).unwrap_or_default();
            start = end + 1;
            if is_coco_punctuation(word.as_bytes()) {
                continue;
            }
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(word);
        }
    }

    /// One caption as pycocoevalcap tokenizes it in the middle of its call when the next
    /// caption is empty: the jar's first output line for the caption and a line break (so the
    /// rules that want a line end after a token see one), punctuation dropped, into `out`
    /// (cleared first). Only the rules that read the next caption's first characters can
    /// tokenize it otherwise in a batch ([`PtbLexer::coco_captions`]).
    ///
    /// # Errors
    /// `InvalidInput` when the caption holds a [`LINE_BREAKS`] character, which would split it.
    pub fn coco_caption(
        &self,
        caption: &str,
        scratch: &mut String,
        out: &mut String,
    ) -> Result<()> {
        if let Some(c) = caption.chars().find(|c| LINE_BREAKS.contains(c)) {
            let excerpt: String = caption.chars().take(60).collect();
            return Err(Error::invalid_input(format!(
                "the line {excerpt:?} contains U+{:04X}, which the Stanford PTB tokenizer reads \
                 as a line end (it would split the line in two); replace such characters with \
                 spaces first",
                u32::from(c)
            )));
        }
        out.clear();
        scratch.clear();
        scratch.push_str(caption);
        scratch.push('\n');
        let mut jar = String::new();
        self.jar_output(scratch, &mut jar)?;
        let line = jar.split('\n').next().unwrap_or_default();
        Self::push_coco_caption(line, out);
        Ok(())
    }

    /// The captions as pycocoevalcap's `PTBTokenizer.tokenize` returns them from its one call
    /// of the jar: the captions joined by `\n` are one text, in which a rule may look past the
    /// end of a caption into the next ones. Runs on `workers` threads: each caption starts a
    /// token (the `\n` before it is a newline token), so a batch of captions is scanned from
    /// its first caption on, through as much of the text after it as the rules read.
    ///
    /// # Errors
    /// `InvalidInput` naming the first caption that holds a [`LINE_BREAKS`] character, or
    /// whose token runs into the next caption (an SGML tag with a quote left open), which
    /// would move every later caption to the wrong image.
    pub fn coco_captions(
        &self,
        captions: &[&str],
        line_breaks: LineBreaks,
        workers: i64,
    ) -> Result<Vec<String>> {
        const BATCH: usize = 256;
        let (text, starts) = joined_utf16(captions, line_breaks, workers)?;
        let soft_hyphens = text.contains(&SOFT_HYPHEN);
        let batches: Vec<usize> = (0..captions.len()).step_by(BATCH).collect();
        let done = crate::parallel::try_map_init(
            &batches,
            workers,
            || (Vec::new(), String::new()),
            |(line, word), &first| {
                let count = BATCH.min(captions.len() - first);
                let from = starts.get(first).copied().unwrap_or_default();
                let mut out = Vec::with_capacity(count);
                let mut split = None;
                let mut bad_utf8 = false;
                line.clear();
                let rest = text.get(from..).unwrap_or_default();
                self.scan_until(rest, soft_hyphens, |token| {
                    match token {
                        Token::Newline => {
                            // At most the line: the filter only drops words and spaces.
                            let mut caption = String::with_capacity(line.len());
                            match simdutf8::basic::from_utf8(line) {
                                Ok(text) => Self::push_coco_caption(text, &mut caption),
                                Err(_) => bad_utf8 = true,
                            }
                            out.push(caption);
                            line.clear();
                        }
                        Token::Text(units) => {
                            if units.contains(&u16::from(b'\n')) && split.is_none() {
                                split = Some(first + out.len());
                            }
                            // Tokens are never empty: an empty line is one at its start.
                            push_token(&units, line.is_empty(), word, line);
                        }
                    }
                    out.len() < count
                })?;
                if let Some(i) = split {
                    return Err(Error::invalid_input(format!(
                        "caption {i} has a token that runs into the next caption (an SGML \
                         tag with an unclosed quote): the Stanford PTB tokenizer would join \
                         the two lines and pycocoevalcap would give every later caption to the \
                         wrong image. Close or remove the quote"
                    )));
                }
                if out.len() < count {
                    let mut caption = String::new();
                    Self::push_coco_caption(utf8(line)?, &mut caption);
                    out.push(caption);
                }
                if bad_utf8 {
                    return Err(Error::internal("the PTB tokenizer wrote invalid UTF-8"));
                }
                if out.len() != count {
                    return Err(Error::internal(format!(
                        "the PTB tokenizer gave {} lines for {count} captions",
                        out.len()
                    )));
                }
                Ok(out)
            },
        )?;
        Ok(done.into_iter().flatten().collect())
    }
}

/// Whether `word` is one of [`COCO_PUNCTUATION`].
#[inline]
fn is_coco_punctuation(word: &[u8]) -> bool {
    match word {
        [] | [_, _, _, _, _, _, ..] => false,
        _ => COCO_PUNCTUATION.iter().any(|p| p.as_bytes() == word),
    }
}

/// Refuses a caption holding a character the scanner may take for a line end.
fn check_line(caption: &str, index: usize) -> Result<()> {
    // U+2028 and U+2029 start with 0xE2 in UTF-8.
    let bytes = caption.as_bytes();
    if memchr::memchr3(b'\n', b'\r', 0xE2, bytes).is_none()
        && memchr::memchr2(0x0B, 0x0C, bytes).is_none()
    {
        return Ok(());
    }
    match caption.chars().find(|c| LINE_BREAKS.contains(c)) {
        None => Ok(()),
        Some(c) => Err(line_break_error(index, u32::from(c))),
    }
}

/// The error of caption `index`, which holds the line break `code`.
fn line_break_error(index: usize, code: u32) -> Error {
    Error::invalid_input(format!(
        "caption {index} contains U+{code:04X}, which the Stanford PTB tokenizer reads as a line \
         end: pycocoevalcap would split the caption there and give every later caption to the \
         wrong image. Replace such characters with spaces first (line_breaks=\"space\")"
    ))
}

/// A caption's line breaks (in its UTF-16 `units`) as spaces where `mode` allows, else the
/// error naming the first one.
fn space_line_breaks(units: &mut [u16], mode: LineBreaks, index: usize) -> Result<()> {
    for unit in units.iter_mut() {
        let is_break = matches!(*unit, 0x0A..=0x0D | 0x2028 | 0x2029);
        if !is_break {
            continue;
        }
        if mode == LineBreaks::Space || (mode == LineBreaks::NewlineSpace && *unit == 0x0A) {
            *unit = u16::from(b' ');
        } else {
            return Err(line_break_error(index, u32::from(*unit)));
        }
    }
    Ok(())
}

/// A token appended to the jar's output `line` as `-preserveLines` writes it: after a space
/// unless it starts the line, lowercased (`-lowerCase`).
fn push_token(units: &[u16], starts_line: bool, word: &mut String, line: &mut Vec<u8>) {
    if !starts_line {
        line.push(b' ');
    }
    push_java_lowercase(units, word, line);
}

/// `bytes` as text (the output buffers only ever receive UTF-8).
fn utf8(bytes: &[u8]) -> Result<&str> {
    simdutf8::basic::from_utf8(bytes)
        .map_err(|_| Error::internal("the PTB tokenizer wrote invalid UTF-8"))
}

/// The token's text as Java's `toLowerCase(Locale.ENGLISH)` gives it, lone surrogates written
/// as `?`, appended to `out` as UTF-8; `word` is scratch.
fn push_java_lowercase(units: &[u16], word: &mut String, out: &mut Vec<u8>) {
    if units.iter().all(|&u| u < 0x80) {
        out.extend(units.iter().map(|&u| (u as u8).to_ascii_lowercase()));
        return;
    }
    word.clear();
    word.extend(char::decode_utf16(units.iter().copied()).map(|c| c.unwrap_or('?')));
    if !word.chars().any(newer_than_java) {
        out.extend_from_slice(word.to_lowercase().as_bytes());
        return;
    }
    // Letters that have a lowercase only after Unicode 13 (Java 17's) stay; the text between
    // them is lowercased as a whole (the final sigma looks at its neighbours).
    let mut buffer = [0; 4];
    for (i, piece) in word.split(newer_than_java).enumerate() {
        if let Some(kept) = (i > 0).then(|| nth_newer(word, i - 1)).flatten() {
            out.extend_from_slice(kept.encode_utf8(&mut buffer).as_bytes());
        }
        out.extend_from_slice(piece.to_lowercase().as_bytes());
    }
}

/// The `n`-th character of `word` that [`newer_than_java`] keeps.
fn nth_newer(word: &str, n: usize) -> Option<char> {
    word.chars().filter(|&c| newer_than_java(c)).nth(n)
}

/// Letters with a lowercase mapping in Rust's Unicode tables but not in Java 17's (Unicode 13).
fn newer_than_java(c: char) -> bool {
    matches!(
        u32::from(c),
        0x1C89
            | 0x2C2F
            | 0xA7C0
            | 0xA7CB..=0xA7DC
            | 0x1_0570..=0x1_0595
            | 0x1_0D50..=0x1_0D65
            | 0x1_6EA0..=0x1_6EB8
    )
}

fn owned(s: &str) -> Cow<'static, [u16]> {
    Cow::Owned(s.encode_utf16().collect())
}

/// Gives back trailing spaces and line ends (the actions' workaround for a JFlex bug).
fn trim_trailing_space(text: &[u16], span: &mut Span) {
    while span.end > span.start {
        match text.get(span.end - 1) {
            Some(&u) if u == 0x20 || u == 0x09 || (0x0A..=0x0D).contains(&u) || u == 0x85 => {
                span.end -= 1;
            }
            _ => break,
        }
    }
}

/// The matched text unchanged.
fn as_is(text: &[u16]) -> Cow<'_, [u16]> {
    Cow::Borrowed(text)
}

/// Each unit in `map` replaced by its string; borrowed when none occurs.
fn replace_units<'a>(text: &'a [u16], map: &[(u16, &str)]) -> Cow<'a, [u16]> {
    if !text.iter().any(|u| map.iter().any(|(from, _)| from == u)) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    for &u in text {
        match map.iter().find(|(from, _)| *from == u) {
            Some((_, to)) => out.extend(to.encode_utf16()),
            None => out.push(u),
        }
    }
    Cow::Owned(out)
}

/// Every occurrence of the ASCII `pattern` (matched as given, or ASCII-caselessly) replaced
/// by `to`, scanning left to right as Java's `replaceAll` does.
fn replace_ascii<'a>(text: &'a [u16], pattern: &str, caseless: bool, to: &str) -> Cow<'a, [u16]> {
    let pattern: Vec<u16> = pattern.encode_utf16().collect();
    let same = |a: u16, b: u16| {
        a == b || (caseless && a < 0x80 && b < 0x80 && (a as u8).eq_ignore_ascii_case(&(b as u8)))
    };
    let hit = |at: usize| {
        text.get(at..at + pattern.len())
            .is_some_and(|w| w.iter().zip(&pattern).all(|(&a, &b)| same(a, b)))
    };
    if !(0..text.len()).any(hit) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while let Some(&u) = text.get(i) {
        if hit(i) {
            out.extend(to.encode_utf16());
            i += pattern.len();
        } else {
            out.push(u);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// U+00AD, the soft hyphen.
const SOFT_HYPHEN: u16 = 0xAD;

/// The captions joined by `\n` as one UTF-16 text, with each caption's first code unit,
/// written in place on `workers` threads; each caption checked for [`LINE_BREAKS`] and its
/// breaks replaced where `line_breaks` allows (else the error naming the first).
fn joined_utf16(
    captions: &[&str],
    line_breaks: LineBreaks,
    workers: i64,
) -> Result<(Vec<u16>, Vec<usize>)> {
    const BATCH: usize = 1024;
    let mut starts = Vec::with_capacity(captions.len());
    let mut total = 0;
    for caption in captions {
        total += usize::from(!starts.is_empty()); // the `\n` before every caption but the first
        starts.push(total);
        total += utf16_len(caption);
    }
    let mut text = vec![0u16; total];
    // Each batch's captions and the `\n` after each (but the last caption's): disjoint parts.
    let mut tasks = Vec::with_capacity(captions.len().div_ceil(BATCH));
    let mut rest = text.as_mut_slice();
    for (k, batch) in captions.chunks(BATCH).enumerate() {
        let first = k * BATCH;
        let end = starts.get(first + batch.len()).copied().unwrap_or(total);
        let begin = starts.get(first).copied().unwrap_or(total);
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(end - begin);
        rest = tail;
        tasks.push((first, batch, part, None));
    }
    // A batch keeps its first error, so the error is the first caption's (in order) however
    // the threads run.
    crate::parallel::for_each_mut_init(
        &mut tasks,
        workers,
        || (),
        |(), (first, batch, part, error)| {
            *error = write_batch(*first, batch, part, line_breaks).err();
            Ok(())
        },
    )?;
    if let Some(error) = tasks.into_iter().find_map(|task| task.3) {
        return Err(error);
    }
    Ok((text, starts))
}

/// Writes captions `first..` (`batch`) into `part`, each followed by `\n` while `part` has
/// room (the text's last caption has none); see [`joined_utf16`].
fn write_batch(
    first: usize,
    batch: &[&str],
    part: &mut [u16],
    line_breaks: LineBreaks,
) -> Result<()> {
    let mut at = 0;
    for (k, caption) in batch.iter().enumerate() {
        let units = part.get_mut(at..).unwrap_or_default();
        let written = write_utf16(caption, units);
        if check_line(caption, first + k).is_err() {
            let units = units.get_mut(..written).unwrap_or_default();
            space_line_breaks(units, line_breaks, first + k)?;
        }
        at += written;
        if let Some(unit) = part.get_mut(at) {
            *unit = u16::from(b'\n');
            at += 1;
        }
    }
    Ok(())
}

/// The number of UTF-16 code units of `text`.
fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}

/// Writes `text` as UTF-16 code units at the start of `out` (at least [`utf16_len`] long;
/// runs of ASCII widened in bulk) and returns how many it wrote.
fn write_utf16(text: &str, out: &mut [u16]) -> usize {
    let mut written = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.bytes().position(|b| b >= 0x80).unwrap_or(rest.len());
        let (run, tail) = rest.split_at(ascii);
        let units = out.get_mut(written..).unwrap_or_default();
        for (unit, byte) in units.iter_mut().zip(run.bytes()) {
            *unit = u16::from(byte);
        }
        written += run.len();
        let mut chars = tail.chars();
        if let Some(c) = chars.next() {
            let mut buffer = [0; 2];
            for &unit in c.encode_utf16(&mut buffer).iter() {
                if let Some(slot) = out.get_mut(written) {
                    *slot = unit;
                }
                written += 1;
            }
        }
        rest = chars.as_str();
    }
    written
}

/// `text` as UTF-16 code units, appended to `out`.
fn push_utf16(text: &str, out: &mut Vec<u16>) {
    let at = out.len();
    out.resize(at + utf16_len(text), 0);
    write_utf16(text, out.get_mut(at..).unwrap_or_default());
}

/// `removeSoftHyphens`: U+00AD deleted; a token of nothing else becomes `-`.
fn remove_soft_hyphens(text: &[u16]) -> Cow<'_, [u16]> {
    if !text.contains(&SOFT_HYPHEN) {
        return Cow::Borrowed(text);
    }
    let out: Vec<u16> = text.iter().copied().filter(|&u| u != SOFT_HYPHEN).collect();
    Cow::Owned(if out.is_empty() {
        vec![u16::from(b'-')]
    } else {
        out
    })
}

/// `normalizeParentheses`: `(` and `)` as `-LRB-` and `-RRB-`.
fn normalize_parentheses(text: &[u16]) -> Cow<'_, [u16]> {
    replace_units(text, &[(0x28, "-LRB-"), (0x29, "-RRB-")])
}

/// `normalizeAmp`: `&amp;` (any ASCII case) as `&`.
fn normalize_amp(text: &[u16]) -> Cow<'_, [u16]> {
    replace_ascii(text, "&amp;", true, "&")
}

/// `normalizeFractions`: the five common vulgar fractions spelled with a slash.
fn normalize_fractions(text: &[u16]) -> Cow<'_, [u16]> {
    replace_units(
        text,
        &[
            (0xBC, "1/4"),
            (0xBD, "1/2"),
            (0xBE, "3/4"),
            (0x2153, "1/3"),
            (0x2154, "2/3"),
        ],
    )
}

/// `normalizeCurrency`: cents, pounds (`#`, as in the PTB) and other currency signs (`$`).
fn normalize_currency(text: &[u16]) -> Cow<'_, [u16]> {
    replace_units(
        text,
        &[
            (0xA2, "cents"),
            (0xA3, "#"),
            (0x80, "$"),
            (0xA4, "$"),
            (0x20A0, "$"),
            (0x20AC, "$"),
        ],
    )
}

fn left_quotes(text: &[u16]) -> Cow<'_, [u16]> {
    latex_quotes(text, true)
}

fn right_quotes(text: &[u16]) -> Cow<'_, [u16]> {
    latex_quotes(text, false)
}

/// `latexQuotes(in, probablyLeft)`: ASCII quotes (and `&apos;`, `&quot;`) by the side the rule
/// guessed, then the curly and angle quotes by their own side.
fn latex_quotes(text: &[u16], probably_left: bool) -> Cow<'_, [u16]> {
    let (single, double) = if probably_left {
        ("`", "``")
    } else {
        ("'", "''")
    };
    let s = replace_ascii(text, "&apos;", false, single);
    let s = replace_units(&s, &[(u16::from(b'\''), single)]).into_owned();
    let s = replace_ascii(&s, "&quot;", false, double).into_owned();
    let s = replace_units(&s, &[(u16::from(b'"'), double)]).into_owned();
    let s = replace_units(
        &s,
        &[
            (0x91, "`"),
            (0x2018, "`"),
            (0x201B, "`"),
            (0x2039, "`"),
            (0x92, "'"),
            (0x2019, "'"),
            (0x203A, "'"),
            (0x93, "``"),
            (0x201C, "``"),
            (0xAB, "``"),
            (0x94, "''"),
            (0x201D, "''"),
            (0xBB, "''"),
        ],
    )
    .into_owned();
    if s == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn captions_join_in_utf16_and_the_first_bad_caption_is_named() {
        let captions = ["a", "\u{e9}\u{1F600}", "", "b\rc"];
        for workers in [1, 2] {
            let (text, starts) = joined_utf16(&captions, LineBreaks::Space, workers).unwrap();
            assert_eq!(text, utf16("a\n\u{e9}\u{1F600}\n\nb c"));
            assert_eq!(starts, [0, 2, 6, 7]);
            let error = joined_utf16(&captions, LineBreaks::NewlineSpace, workers).unwrap_err();
            assert!(error.message().starts_with("caption 3 contains U+000D"));
        }
        // Batches of 1,024 run on any thread; the error is still the first caption's.
        let mut many = vec!["x y"; 5000];
        (many[1500], many[4000]) = ("p\u{2028}q", "r\u{0B}s");
        for workers in [1, 2, -1] {
            let error = joined_utf16(&many, LineBreaks::Error, workers).unwrap_err();
            assert!(error.message().starts_with("caption 1500 contains U+2028"));
        }
        let (text, starts) = joined_utf16(&many, LineBreaks::Space, -1).unwrap();
        assert_eq!(starts[4000], 4000 * 4);
        assert_eq!(string(&text[starts[4000]..starts[4001]]), "r s\n");
        assert_eq!(string(&text[starts[4999]..]), "x y");
        assert_eq!(
            joined_utf16(&[], LineBreaks::Error, 2).unwrap(),
            (vec![], vec![])
        );
    }

    fn string(units: &[u16]) -> String {
        String::from_utf16_lossy(units)
    }

    #[test]
    fn quotes_follow_the_rule_and_their_own_side() {
        let cases = [
            ("'", false, "'"),
            ("'", true, "`"),
            ("\"", true, "``"),
            ("\"", false, "''"),
            ("&quot;", false, "''"),
            ("&apos;", true, "`"),
            ("&APOS;", true, "&APOS;"), // Java's pattern is case-sensitive
            ("\u{201C}", false, "``"),
            ("\u{2019}", true, "'"),
            ("\u{AB}\u{BB}", true, "``''"),
            ("\u{91}\u{92}\u{93}\u{94}", false, "`'``''"),
        ];
        for (text, left, expected) in cases {
            assert_eq!(
                string(&latex_quotes(&utf16(text), left)),
                expected,
                "{text:?}"
            );
        }
    }

    #[test]
    fn normalizations() {
        assert_eq!(string(&normalize_amp(&utf16("AT&AmP;T&amp;"))), "AT&T&");
        assert_eq!(string(&remove_soft_hyphens(&utf16("\u{AD}\u{AD}"))), "-");
        assert_eq!(string(&remove_soft_hyphens(&utf16("co\u{AD}op"))), "coop");
        assert_eq!(
            string(&normalize_currency(&utf16("\u{20AC}\u{A2}\u{A3}"))),
            "$cents#"
        );
        assert_eq!(
            string(&normalize_fractions(&utf16("\u{BD}\u{2157}"))),
            "1/2\u{2157}"
        );
        assert_eq!(string(&normalize_parentheses(&utf16("(a)"))), "-LRB-a-RRB-");
        assert!(matches!(normalize_amp(&utf16("plain")), Cow::Borrowed(_)));
    }

    #[test]
    fn lowercase_as_java_17() {
        let (mut word, mut out) = (String::new(), Vec::new());
        for (text, expected) in [
            ("ABC", "abc"),
            (
                "\u{39F}\u{394}\u{39F}\u{3A3}",
                "\u{3BF}\u{3B4}\u{3BF}\u{3C2}",
            ),
            ("\u{130}", "i\u{307}"),
            ("\u{2C2F}A\u{A7C0}", "\u{2C2F}a\u{A7C0}"),
        ] {
            out.clear();
            push_java_lowercase(&utf16(text), &mut word, &mut out);
            assert_eq!(out, expected.as_bytes(), "{text:?}");
        }
        out.clear();
        push_java_lowercase(&[0xD800, u16::from(b'A')], &mut word, &mut out);
        assert_eq!(out, b"?a");
    }

    #[test]
    fn coco_captions_drop_pycocoevalcap_punctuation_after_lowercasing() {
        let mut out = String::new();
        PtbLexer::push_coco_caption("a , -lrb- b '' `` ... -- c . \u{A0}", &mut out);
        assert_eq!(out, "a -lrb- b c");
        assert!(check_line("a\u{2028}b", 3)
            .unwrap_err()
            .message()
            .contains("caption 3 contains U+2028"));
        assert!(check_line("a\u{85}b", 0).is_ok());
    }
}
