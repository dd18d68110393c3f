//! `13a`: sacrebleu `Tokenizer13a`, the mteval-v13a tokenization used by WMT.
//!
//! 1. `<skipped>` → '', `-\n` → '', `\n` → ' ' (sequential `str.replace`s);
//! 2. only if the line has an `&`: `&quot;` `&amp;` `&lt;` `&gt;` → `"` `&` `<` `>`, in that
//!    order, so `&amp;lt;` becomes `<` (and `&apos;` stays);
//! 3. [`regexp::tokenize`] on `f' {line} '`.
//!
//! Step 1 and 2 need `<skipped>`, `\n` or `&`, which most lines lack: those go straight to
//! step 3 without copying.

use super::regexp;
use super::rewrite::{replace, with_scratch};

/// The replacements of step 1 and 2, in sacrebleu's order.
const PRE: [(&str, &str); 3] = [("<skipped>", ""), ("-\n", ""), ("\n", " ")];
const ENTITIES: [(&str, &str); 4] = [
    ("&quot;", "\""),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
];

pub(super) fn tokenize(line: &str, out: &mut String) {
    // `[u8]::contains` and `str::contains` are vectorised: far cheaper than one byte loop.
    let bytes = line.as_bytes();
    if !(bytes.contains(&b'&') || bytes.contains(&b'\n') || line.contains("<skipped>")) {
        regexp::tokenize(line, true, out);
        return;
    }
    with_scratch(|text, spare| {
        text.push_str(line);
        for (from, to) in PRE {
            replace(text, spare, from, to);
        }
        if text.contains('&') {
            for (from, to) in ENTITIES {
                replace(text, spare, from, to);
            }
        }
        regexp::tokenize(text, true, out);
    });
}

#[cfg(test)]
mod tests {
    use super::super::regexp::reference;

    /// `Tokenizer13a()(line)`, step by step with `str::replace`.
    fn reference_13a(line: &str) -> String {
        let mut line = line
            .replace("<skipped>", "")
            .replace("-\n", "")
            .replace('\n', " ");
        if line.contains('&') {
            line = line
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">");
        }
        reference::regexp(&format!(" {line} "))
    }

    #[test]
    fn verified_examples() {
        // (name, input, expected): sacrebleu.md §2.2, checked against sacrebleu 2.6.0.
        let cases = [
            ("comma and bang", "Hello, world!", "Hello , world !"),
            (
                "money and abbreviations",
                "It costs $3.50, i.e. 3,000 yen.",
                "It costs $ 3.50 , i . e . 3,000 yen .",
            ),
            (
                "final period after year",
                "The year was 2017.",
                "The year was 2017 .",
            ),
            ("hyphens", "e-mail 1-2 a-b 12-3", "e-mail 1 - 2 a-b 12 - 3"),
            ("apostrophes", "don't 'quoted'", "don't 'quoted'"),
            (
                "non-ascii punctuation untouched",
                "“Smart quotes” — dash… €5 ¿Qué?",
                "“Smart quotes” — dash… €5 ¿Qué ?",
            ),
            (
                "periods and digits",
                "3.14 .5 5. a.b 1,000,000",
                "3.14 . 5 5 . a . b 1,000,000",
            ),
            (
                "entities",
                "&amp; &lt;tag&gt; &quot;q&quot; &apos;",
                "& < tag > \" q \" & apos ;",
            ),
            ("cjk one token", "我爱北京天安门。", "我爱北京天安门。"),
            ("skipped removed", "a <skipped> b<skipped>c", "a bc"),
            ("hyphenated line end joined", "word-\nnext", "wordnext"),
            ("newline is a space", "a\nb\r\nc", "a b c"),
            (
                "entities are sequential",
                "&amp;lt; &amp;amp; &amp;quot;",
                "< & amp ; & quot ;",
            ),
            ("skipped removed before dash-newline", "-<skipped>\nx", "x"),
            ("escaped skipped survives", "&lt;skipped&gt;", "< skipped >"),
            ("only one dash-newline pass", "--\n\n", "-"),
            ("empty", "", ""),
        ];
        reference::check_examples(super::tokenize, reference_13a, &cases);
    }

    #[test]
    fn exhaustive_short_strings_match_literal_passes() {
        let alphabet = [
            "a",
            "1",
            ".",
            "-",
            " ",
            "\n",
            "&",
            "&amp;",
            "lt;",
            "&gt;",
            "<skipped>",
            "<",
            "é",
        ];
        let strings = reference::all_strings(&alphabet, 4);
        reference::check_agree(super::tokenize, reference_13a, strings);
    }
}
