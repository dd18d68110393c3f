//! sacrebleu's `TercomTokenizer` (`tokenizers/tokenizer_ter.py`), as TER applies it:
//! `tokenizer(line.rstrip())`.
//!
//! Lowercasing (the default `case_sensitive=False`) is *not* done here: Python's `str.lower()`
//! is applied by the Python layer before the text reaches the core. Lowercasing commutes with
//! `rstrip` and with the empty check, so the order does not matter.
//!
//! The stdlib-`re` substitutions are reproduced pass by pass, because each pass sees the
//! spaces the previous ones inserted (`'s `, and the digit/period rules look at neighbours).

use super::rewrite::{map_chars, push_spaced, replace};
use crate::text::{push_joined_words, py_rstrip};

/// The tokenizer flags of `TER(normalized=, no_punct=, asian_support=)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TerTokenizerConfig {
    /// Tokenize punctuation and unescape XML entities (`_normalize_general_and_western`).
    pub normalized: bool,
    /// Delete punctuation.
    pub no_punct: bool,
    /// With `normalized`, split CJK characters; with `no_punct`, also delete CJK punctuation.
    pub asian_support: bool,
}

impl TerTokenizerConfig {
    /// True when tokenization is only `' '.join(line.split())`, so words can be read straight
    /// from the line.
    pub fn is_identity(self) -> bool {
        !self.normalized && !self.no_punct
    }
}

/// Buffers the passes ping-pong through, reusable across lines.
#[derive(Debug, Default)]
pub struct TokenizerScratch {
    a: String,
    b: String,
}

/// Writes the tokenized `line` (sacrebleu's `TercomTokenizer(...)(line.rstrip())`, without the
/// lowercasing) to `out`, replacing its content.
pub fn tokenize_into(
    line: &str,
    config: TerTokenizerConfig,
    scratch: &mut TokenizerScratch,
    out: &mut String,
) {
    out.clear();
    let line = py_rstrip(line);
    if line.is_empty() {
        return;
    }
    if config.is_identity() {
        push_joined_words(line, out);
        return;
    }
    let TokenizerScratch { a, b } = scratch;
    a.clear();
    a.push_str(line);
    if config.normalized {
        normalize_general_and_western(a, b);
        if config.asian_support {
            map_chars(a, b, |c, out| {
                if is_cjk(c) || is_asian_punct(c) || is_full_width_punct(c) {
                    push_spaced(c, out);
                } else {
                    out.push(c);
                }
            });
        }
    }
    if config.no_punct {
        let asian = config.asian_support;
        map_chars(a, b, |c, out| {
            let removed = matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
                || (asian && (is_asian_punct(c) || is_full_width_punct(c)));
            if !removed {
                out.push(c);
            }
        });
    }
    push_joined_words(a, out);
}

/// Convenience for tests and one-off calls: the tokenized line as a new `String`.
pub fn tokenize(line: &str, config: TerTokenizerConfig) -> String {
    let mut out = String::new();
    tokenize_into(line, config, &mut TokenizerScratch::default(), &mut out);
    out
}

/// `_normalize_general_and_western`, substitution by substitution.
fn normalize_general_and_western(text: &mut String, spare: &mut String) {
    replace(text, spare, "\n-", "");
    replace(text, spare, "\n", " ");
    replace(text, spare, "&quot;", "\"");
    replace(text, spare, "&amp;", "&");
    replace(text, spare, "&lt;", "<");
    replace(text, spare, "&gt;", ">");
    // f" {sent} " and r"([{-~[-` -&(-+:-@/])" → r" \1 ": the class includes the space, so
    // the padding becomes three spaces on each side.
    spare.clear();
    push_spaced(' ', spare);
    for c in text.chars() {
        if is_western_punct(c) {
            push_spaced(c, spare);
        } else {
            spare.push(c);
        }
    }
    push_spaced(' ', spare);
    std::mem::swap(text, spare);
    replace(text, spare, "'s ", " 's ");
    // r"'s$" → r" 's" never matches: the text ends with the padding space.
    // r"([^0-9])([\.,])" → r"\1 \2 "
    pairs(
        text,
        spare,
        |c, d| !c.is_ascii_digit() && matches!(d, '.' | ','),
        |c, d, out| {
            out.push(c);
            push_spaced(d, out);
        },
    );
    // r"([\.,])([^0-9])" → r" \1 \2"
    pairs(
        text,
        spare,
        |c, d| matches!(c, '.' | ',') && !d.is_ascii_digit(),
        |c, d, out| {
            push_spaced(c, out);
            out.push(d);
        },
    );
    // r"([0-9])(-)" → r"\1 \2 "
    pairs(
        text,
        spare,
        |c, d| c.is_ascii_digit() && d == '-',
        |c, d, out| {
            out.push(c);
            push_spaced(d, out);
        },
    );
}

/// `re.sub` of a two-character pattern `(X)(Y)`: scanning left to right, a match consumes both
/// characters, so the second cannot start the next match.
fn pairs(
    text: &mut String,
    spare: &mut String,
    is_match: impl Fn(char, char) -> bool,
    substitute: impl Fn(char, char, &mut String),
) {
    spare.clear();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&d) if is_match(c, d) => {
                chars.next();
                substitute(c, d, spare);
            }
            _ => spare.push(c),
        }
    }
    std::mem::swap(text, spare);
}

/// ``[{-~[-` -&(-+:-@/]``: ASCII punctuation and symbols except `'`, `,`, `-`, `.`, plus the
/// space.
fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// The characters `_normalize_asian` surrounds with spaces one at a time. The hiragana,
/// katakana and phonetic-extension substitutions anchor on `^` inside the pattern, which only
/// matches at the start of the text, and the text starts with the padding space: they never
/// match. U+3200–U+3F22 is the range the regex really spans (its comment says 32FF).
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4e00}'..='\u{9fff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{31c0}'..='\u{31ef}'
        | '\u{2e80}'..='\u{2eff}'
        | '\u{3300}'..='\u{33ff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}'
        | '\u{3200}'..='\u{3f22}')
}

/// `TercomTokenizer.ASIAN_PUNCT`.
fn is_asian_punct(c: char) -> bool {
    matches!(c,
        '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff61}'..='\u{ff65}' | '\u{30fb}')
}

/// `TercomTokenizer.FULL_WIDTH_PUNCT`.
fn is_full_width_punct(c: char) -> bool {
    matches!(
        c,
        '\u{ff0e}'
            | '\u{ff0c}'
            | '\u{ff1f}'
            | '\u{ff1a}'
            | '\u{ff1b}'
            | '\u{ff01}'
            | '\u{ff02}'
            | '\u{ff08}'
            | '\u{ff09}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NORMALIZED: TerTokenizerConfig = TerTokenizerConfig {
        normalized: true,
        no_punct: false,
        asian_support: false,
    };
    const NO_PUNCT: TerTokenizerConfig = TerTokenizerConfig {
        normalized: false,
        no_punct: true,
        asian_support: false,
    };

    fn asian(config: TerTokenizerConfig) -> TerTokenizerConfig {
        TerTokenizerConfig {
            asian_support: true,
            ..config
        }
    }

    #[test]
    fn sacrebleu_test_vectors() {
        // Inputs already lowercased, as the Python layer passes them.
        let cases = [
            (TerTokenizerConfig::default(), "a b c d.", "a b c d."),
            (NO_PUNCT, "a ; b ) c : d.", "a b c d"),
            (NORMALIZED, "a b (c) d.", "a b ( c ) d ."),
            (NORMALIZED, "jim's car.", "jim 's car ."),
            (NORMALIZED, "4.2", "4.2"),
            (asian(NORMALIZED), "美众院公布对特", "美 众 院 公 布 对 特"),
            (asian(NORMALIZED), "りの拳銃を持", "りの 拳 銃 を 持"),
            (NO_PUNCT, "it's 4.2 and 1,000.", "it's 42 and 1000"),
            (NO_PUNCT, "&quot;x&quot;", "&quotx&quot"),
            (NORMALIZED, "hello\n-world", "helloworld"),
            (
                asian(NORMALIZED),
                "日本語、テスト。「引用」！？",
                "日 本 語 、 テスト 。 「 引 用 」 ！ ？",
            ),
            (
                asian(NO_PUNCT),
                "日本語、テスト。「引用」！？",
                "日本語テスト引用",
            ),
        ];
        for (config, input, expected) in cases {
            assert_eq!(tokenize(input, config), expected, "{input:?} {config:?}");
        }
    }

    #[test]
    fn edge_cases() {
        assert_eq!(tokenize("", NORMALIZED), "");
        assert_eq!(tokenize(" \t\u{3000}", NORMALIZED), "");
        // Entities unescape in order: &amp;quot; becomes &quot;, not ".
        assert_eq!(tokenize("&amp;quot;", NORMALIZED), "& quot ;");
        // 's before a tab is not followed by a space; at the end the padding follows it.
        assert_eq!(tokenize("it's\tit's", NORMALIZED), "it's it 's");
        assert_eq!(
            tokenize("3-4 a-b 1.5, x.y", NORMALIZED),
            "3 - 4 a-b 1.5 , x . y"
        );
        assert_eq!(tokenize("a.,b", NORMALIZED), "a . , b");
        // asian_support alone does nothing.
        assert_eq!(
            tokenize("美众。", asian(TerTokenizerConfig::default())),
            "美众。"
        );
    }
}
