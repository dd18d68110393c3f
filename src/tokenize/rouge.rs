//! rouge-score 0.1.2's default tokenizer (`tokenize.tokenize`): Python's `str.lower()`, every
//! run of characters outside `[a-z0-9]` a separator, empty tokens dropped.
//!
//! Only two characters outside ASCII lowercase to something with an ASCII letter or digit
//! in Python (checked over every code point): KELVIN SIGN (U+212A) to `k`, and LATIN CAPITAL
//! LETTER I WITH DOT ABOVE (U+0130) to `i` + U+0307, whose combining dot then ends the token.
//! Every other non-ASCII character separates, so the scan works on bytes.
//!
//! ```
//! use bleuprint::tokenize::rouge::Tokens;
//!
//! let mut tokens = Tokens::default();
//! tokens.read("Don't STOP-me, İzmir 5K\u{212A}!");
//! let words: Vec<&[u8]> = tokens.iter().collect();
//! assert_eq!(words, [&b"don"[..], b"t", b"stop", b"me", b"i", b"zmir", b"5kk"]);
//! ```

/// The tokens of one text: their lowercase bytes, one after another, and where each ends.
#[derive(Debug, Default, Clone)]
pub struct Tokens {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    /// Tokens before each line of the text that starts after a `\n` (`rougeLsum`'s
    /// sentences), when read with [`Tokens::read_lines`].
    line_starts: Vec<u32>,
}

impl Tokens {
    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there is no token.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(s, &e)| self.bytes.get(s as usize..e as usize).unwrap_or_default())
    }

    /// The token count at the start of each non-empty line (rouge-score's
    /// `[s for s in text.split("\n") if len(s)]`), then the total: line `k`'s tokens are
    /// `bounds[k]..bounds[k + 1]`. Valid after [`Tokens::read_lines`].
    pub fn line_bounds(&self) -> &[u32] {
        &self.line_starts
    }

    /// Replaces the tokens with those of `text`.
    pub fn read(&mut self, text: &str) {
        self.scan(text, false);
    }

    /// As [`Tokens::read`], also recording where each non-empty `\n`-separated line starts
    /// ([`Tokens::line_bounds`]). A `\n` always separates tokens, so the lines' tokens are
    /// the text's tokens.
    pub fn read_lines(&mut self, text: &str) {
        self.scan(text, true);
    }

    /// Closes the token being read, if any.
    #[inline]
    fn end_token(&mut self, in_token: &mut bool) {
        if *in_token {
            self.ends
                .push(u32::try_from(self.bytes.len()).unwrap_or(u32::MAX));
            *in_token = false;
        }
    }

    fn count(&self) -> u32 {
        u32::try_from(self.ends.len()).unwrap_or(u32::MAX)
    }

    fn scan(&mut self, text: &str, lines: bool) {
        self.bytes.clear();
        self.ends.clear();
        self.line_starts.clear();
        let bytes = text.as_bytes();
        self.bytes.reserve(bytes.len());
        // Whether the current line has any character (empty lines are no sentences).
        let mut line_open = false;
        let mut in_token = false;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if lines && !line_open && b != b'\n' {
                line_open = true;
                let count = self.count();
                self.line_starts.push(count);
            }
            if b.is_ascii_alphanumeric() {
                // `| 0x20` lowercases ASCII letters and keeps digits.
                self.bytes.push(b | 0x20);
                in_token = true;
                i += 1;
                continue;
            }
            match bytes.get(i..).unwrap_or_default() {
                // U+0130: `i` and a combining dot, which separates.
                [0xC4, 0xB0, ..] => {
                    self.bytes.push(b'i');
                    in_token = true;
                    self.end_token(&mut in_token);
                    i += 2;
                }
                // U+212A KELVIN SIGN: `k`.
                [0xE2, 0x84, 0xAA, ..] => {
                    self.bytes.push(b'k');
                    in_token = true;
                    i += 3;
                }
                [b'\n', ..] => {
                    self.end_token(&mut in_token);
                    line_open = false;
                    i += 1;
                }
                _ => {
                    self.end_token(&mut in_token);
                    i += 1;
                }
            }
        }
        self.end_token(&mut in_token);
        if lines {
            let count = self.count();
            self.line_starts.push(count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut tokens = Tokens::default();
        tokens.read(text);
        tokens
            .iter()
            .map(|t| String::from_utf8(t.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn rouge_score_tokens() {
        assert_eq!(words(""), Vec::<String>::new());
        assert_eq!(words("  ..  "), Vec::<String>::new());
        assert_eq!(words("The 3 cats' toys"), ["the", "3", "cats", "toys"]);
        assert_eq!(words("naïve café"), ["na", "ve", "caf"]);
        assert_eq!(words("日本語 abc"), ["abc"]);
        assert_eq!(words("a\u{0130}b"), ["ai", "b"]);
        assert_eq!(words("\u{212A}\u{212A}"), ["kk"]);
    }

    #[test]
    fn lines_are_the_non_empty_ones() {
        let mut tokens = Tokens::default();
        tokens.read_lines("a b\n\n...\nc\n");
        assert_eq!(tokens.len(), 3);
        // Lines "a b", "..." (no token) and "c"; the empty ones are no sentences.
        assert_eq!(tokens.line_bounds(), [0, 2, 2, 3]);
        tokens.read_lines("");
        assert_eq!(tokens.line_bounds(), [0]);
    }
}
