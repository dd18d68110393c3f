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
pub(super) mod tests {
    use super::super::regexp::reference;

    /// `Tokenizer13a()(line)`, step by step with `str::replace`.
    pub(in crate::tokenize) fn reference_13a(line: &str) -> String {
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
