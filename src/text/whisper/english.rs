//! `EnglishSpellingNormalizer` and `EnglishTextNormalizer` of openai-whisper 20250625
//! (`whisper/normalizers/english.py`), whisper-normalizer 0.1.15's `EnglishTextNormalizer`
//! (the same with four more replacements), and the Open ASR Leaderboard's (more fillers and
//! titles, compound words, its own spelling table, names and acronyms).

use memchr::memmem::Finder;
use rustc_hash::{FxHashMap, FxHashSet};

use super::basic::push_remove_symbols_and_diacritics;
use super::numbers::EnglishNumberNormalizer;
use super::open_asr_tables as open_asr;
use super::scan::{
    has_word_in, join_acronyms, join_word_pair, remove_brackets, remove_digit_commas,
    remove_parens, remove_space_before_apostrophe, remove_words, space_percent_after_non_digit,
    space_periods, space_symbols_before_non_digit, sub_literal,
};
use super::tables::{FILLERS, PACKAGE_REPLACERS, REPLACERS, SPELLING};
use super::unicode::{push_collapsed_whitespace, push_lower};
use crate::error::Result;
use crate::text::py_split;

/// British -> American spelling (`english.json`), word by word.
#[derive(Debug, Clone)]
pub struct EnglishSpellingNormalizer {
    mapping: FxHashMap<&'static str, &'static str>,
    /// The shortest and longest key, in bytes.
    key_lengths: (usize, usize),
}

impl Default for EnglishSpellingNormalizer {
    fn default() -> Self {
        Self::new()
    }
}

impl EnglishSpellingNormalizer {
    /// Loads the mapping.
    pub fn new() -> Self {
        Self::of(&SPELLING)
    }

    /// A word-for-word mapping of `table`.
    fn of(table: &'static [(&'static str, &'static str)]) -> Self {
        Self::of_map(table.iter().copied().collect())
    }

    /// The Open ASR Leaderboard's: openai-whisper's less the keys it removed, with the
    /// entries it added or changed.
    fn open_asr() -> Self {
        let mut mapping: FxHashMap<&'static str, &'static str> = SPELLING.iter().copied().collect();
        for key in open_asr::SPELLING_REMOVED {
            mapping.remove(key);
        }
        mapping.extend(open_asr::SPELLING_CHANGED);
        Self::of_map(mapping)
    }

    fn of_map(mapping: FxHashMap<&'static str, &'static str>) -> Self {
        let lengths = mapping.keys().map(|k| k.len());
        Self {
            key_lengths: (
                lengths.clone().min().unwrap_or(0),
                lengths.max().unwrap_or(0),
            ),
            mapping,
        }
    }

    /// Appends `" ".join(mapping.get(word, word) for word in s.split())` to `out`.
    pub fn normalize(&self, s: &str, out: &mut String) {
        for (i, word) in py_split(s).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(self.map(word));
        }
    }

    /// `mapping.get(word, word)`.
    fn map<'w>(&self, word: &'w str) -> &'w str {
        let (shortest, longest) = self.key_lengths;
        if !(shortest..=longest).contains(&word.len()) {
            return word;
        }
        self.mapping.get(word).copied().unwrap_or(word)
    }
}

/// One of `EnglishTextNormalizer.replacers`.
#[derive(Debug, Clone)]
struct Replacer {
    finder: Finder<'static>,
    boundary_before: bool,
    boundary_after: bool,
    replacement: &'static str,
    /// Which quick test says the pattern cannot match.
    kind: ReplacerKind,
}

/// The quick tests that skip most replacers on most lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplacerKind {
    /// `\bword\b` with ASCII letters only: matches only a whole `\w+` run equal to it.
    Word,
    /// Contains an apostrophe: no match without one.
    Apostrophe,
    /// Anything else: always tried.
    Other,
}

impl ReplacerKind {
    fn of(boundary_before: bool, text: &str, boundary_after: bool) -> Self {
        if boundary_before
            && boundary_after
            && !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_lowercase())
        {
            Self::Word
        } else if text.contains('\'') {
            Self::Apostrophe
        } else {
            Self::Other
        }
    }
}

/// openai-whisper's `EnglishTextNormalizer`: lowercase, drop bracketed text and fillers,
/// expand contractions and titles, numbers to digits, British to American spelling.
#[derive(Debug, Clone)]
pub struct EnglishTextNormalizer {
    replacers: Vec<Replacer>,
    /// The literals of the [`ReplacerKind::Word`] replacers, and their longest length.
    replacer_words: FxHashSet<&'static str>,
    replacer_word_len: usize,
    numbers: EnglishNumberNormalizer,
    spelling: EnglishSpellingNormalizer,
    fillers: &'static [&'static str],
    /// The leaderboard's: `\ba\s+b\b` -> one word (a finder of `a`, `b`, the word), then
    /// after the spelling, names and acronyms. Its spelling and name tables map one
    /// lowercase word to another (checked by the generator), so the three word-for-word
    /// steps share one split.
    compounds: Vec<(Finder<'static>, &'static str, &'static str)>,
    names: Option<EnglishSpellingNormalizer>,
}

impl Default for EnglishTextNormalizer {
    fn default() -> Self {
        Self::new()
    }
}

/// A replacement table: (pattern starts with `\b`, literal, pattern ends with `\b`,
/// replacement), in the order they apply.
type Replacements = [(bool, &'static str, bool, &'static str)];

impl EnglishTextNormalizer {
    /// openai-whisper's. Builds the tables once; reuse the normalizer for every text.
    pub fn new() -> Self {
        Self::with_replacements(&REPLACERS)
    }

    /// whisper-normalizer 0.1.15's (`whisper_normalizer.english.EnglishTextNormalizer`):
    /// openai-whisper's, but "kinda", "sorta", "dunno" and "cause" are also spelled out ("kind
    /// of", "sort of", "do not know", "because").
    pub fn whisper_normalizer() -> Self {
        Self::with_replacements(&PACKAGE_REPLACERS)
    }

    /// The Open ASR Leaderboard's (`normalizer.EnglishTextNormalizer()` at
    /// [`super::OPEN_ASR_REVISION`]): whisper's with 14 more fillers, `'s` spelled "is" only
    /// after 13 pronouns and adverbs, 16 compound words joined ("wi fi" -> "wifi"), its own
    /// spelling table, name variants to one spelling ("allan" -> "allen"), runs of
    /// single-character words joined ("b b c" -> "bbc"), and a number normalizer without two
    /// of whisper's assertions.
    pub fn open_asr() -> Self {
        Self {
            numbers: EnglishNumberNormalizer::without_assertions(),
            spelling: EnglishSpellingNormalizer::open_asr(),
            fillers: &open_asr::FILLERS,
            compounds: open_asr::COMPOUNDS
                .iter()
                .map(|&(first, second, joined)| (Finder::new(first).into_owned(), second, joined))
                .collect(),
            names: Some(EnglishSpellingNormalizer::of(&open_asr::NAMES)),
            ..Self::with_replacements(&open_asr::REPLACERS)
        }
    }

    fn with_replacements(table: &'static Replacements) -> Self {
        let replacers = table
            .iter()
            .map(|&(before, text, after, replacement)| Replacer {
                finder: Finder::new(text).into_owned(),
                boundary_before: before,
                boundary_after: after,
                replacement,
                kind: ReplacerKind::of(before, text, after),
            })
            .collect();
        let replacer_words: FxHashSet<&'static str> = table
            .iter()
            .filter(|&&(before, text, after, _)| {
                ReplacerKind::of(before, text, after) == ReplacerKind::Word
            })
            .map(|r| r.1)
            .collect();
        let replacer_word_len = replacer_words.iter().map(|w| w.len()).max().unwrap_or(0);
        Self {
            replacers,
            replacer_words,
            replacer_word_len,
            numbers: EnglishNumberNormalizer::new(),
            spelling: EnglishSpellingNormalizer::new(),
            fillers: &FILLERS,
            compounds: Vec::new(),
            names: None,
        }
    }

    /// Appends upstream's `EnglishTextNormalizer()(text)` to `out`. Fails only where upstream
    /// raises: a number of more than 4300 digits (CPython's integer conversion limit).
    pub fn normalize(&self, text: &str, out: &mut String) -> Result<()> {
        let mut a = String::with_capacity(text.len() + 16);
        let mut b = String::with_capacity(text.len() + 16);
        push_lower(text, &mut a);
        // Each pass reads `a` and writes `b`; then they swap.
        let pass = |f: &dyn Fn(&str, &mut String) -> bool, a: &mut String, b: &mut String| {
            b.clear();
            f(a, b);
            std::mem::swap(a, b);
        };
        pass(&|s, o| remove_brackets(s, o), &mut a, &mut b); // words between brackets
        pass(&|s, o| remove_parens(s, o), &mut a, &mut b); // words between parenthesis
        pass(&|s, o| remove_words(s, self.fillers, o), &mut a, &mut b); // hmm, mm, uh, um ...
        pass(&remove_space_before_apostrophe, &mut a, &mut b);
        // Exact shortcuts, recomputed whenever a replacement changes the text: a word
        // replacer matches only a whole `\w+` run equal to its literal, an apostrophe replacer
        // only where there is an apostrophe.
        let mut words_possible = has_word_in(&a, &self.replacer_words, self.replacer_word_len);
        let mut apostrophe = memchr::memchr(b'\'', a.as_bytes()).is_some();
        for r in &self.replacers {
            let possible = match r.kind {
                ReplacerKind::Word => words_possible,
                ReplacerKind::Apostrophe => apostrophe,
                ReplacerKind::Other => true,
            };
            if !possible || r.finder.find(a.as_bytes()).is_none() {
                continue;
            }
            b.clear();
            sub_literal(
                &a,
                &r.finder,
                r.boundary_before,
                r.boundary_after,
                r.replacement,
                &mut b,
            );
            std::mem::swap(&mut a, &mut b);
            words_possible = has_word_in(&a, &self.replacer_words, self.replacer_word_len);
            apostrophe = memchr::memchr(b'\'', a.as_bytes()).is_some();
        }
        pass(&remove_digit_commas, &mut a, &mut b); // commas between digits
        pass(&space_periods, &mut a, &mut b); // periods not followed by numbers
        b.clear();
        push_remove_symbols_and_diacritics(&a, ".%$¢€£", &mut b); // keep numeric symbols
        std::mem::swap(&mut a, &mut b);
        for (first, second, joined) in &self.compounds {
            // "wi fi" -> "wifi": hyphens are spaces by now
            b.clear();
            if join_word_pair(&a, first, second, joined, &mut b) {
                std::mem::swap(&mut a, &mut b);
            }
        }
        b.clear();
        self.numbers.normalize(&a, &mut b)?;
        a.clear();
        match &self.names {
            None => self.spelling.normalize(&b, &mut a),
            Some(names) => {
                // spelling, names, then runs of letters joined ("b b c" -> "bbc")
                let words: Vec<&str> = py_split(&b)
                    .map(|w| names.map(self.spelling.map(w)))
                    .collect();
                join_acronyms(&words, &mut a);
            }
        }
        // prefix/suffix symbols that are not preceded/followed by numbers
        pass(&space_symbols_before_non_digit, &mut a, &mut b);
        pass(&space_percent_after_non_digit, &mut a, &mut b);
        push_collapsed_whitespace(&a, out);
        Ok(())
    }
}

/// `EnglishTextNormalizer()(text)` of openai-whisper 20250625 (builds the tables on every
/// call: keep an [`EnglishTextNormalizer`] for many texts).
pub fn whisper_english(text: &str) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    EnglishTextNormalizer::new().normalize(text, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_tests() {
        // openai-whisper's tests/test_normalizer.py
        let std = EnglishTextNormalizer::new();
        let n = |s: &str| {
            let mut out = String::new();
            std.normalize(s, &mut out).unwrap();
            out
        };
        assert_eq!(n("Let's"), "let us");
        assert_eq!(n("he's like"), "he is like");
        assert_eq!(n("she's been like"), "she has been like");
        assert_eq!(n("10km"), "10 km");
        assert_eq!(n("10mm"), "10 mm");
        assert_eq!(n("RC232"), "rc 232");
        assert_eq!(
            n("Mr. Park visited Assoc. Prof. Kim Jr."),
            "mister park visited associate professor kim junior"
        );
        let spelling = EnglishSpellingNormalizer::new();
        let mut out = String::new();
        spelling.normalize("mobilisation", &mut out);
        assert_eq!(out, "mobilization");
        assert_eq!(n(""), "");
        assert_eq!(n("1.5"), "one.5");
        assert_eq!(n("$1"), " one");
        assert_eq!(n("1,2,3"), "12 3");
        // whisper-normalizer's four more replacements, and nothing else changed.
        let package = EnglishTextNormalizer::whisper_normalizer();
        let p = |s: &str| {
            let mut out = String::new();
            package.normalize(s, &mut out).unwrap();
            out
        };
        let said = "I dunno, kinda 'cause sorta Mr. Park's colour";
        assert_eq!(n(said), "i dunno kinda cause sorta mister park is color");
        assert_eq!(
            p(said),
            "i do not know kind of because sort of mister park is color"
        );
        assert_eq!(p("Let's pay ten dollars"), n("Let's pay ten dollars"));
    }
}
