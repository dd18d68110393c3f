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

/// The tokens of one text: their lowercase bytes and where each starts and ends.
#[derive(Debug, Default, Clone)]
pub struct Tokens {
    /// The text lowercased (tokens are spans of it), or, where a character changes length
    /// when lowercased, the tokens' bytes one after another.
    bytes: Vec<u8>,
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Tokens before each line of the text that starts after a `\n` (`rougeLsum`'s
    /// sentences), when read with [`Tokens::read_lines`].
    line_starts: Vec<u32>,
}

/// `b` in every byte.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// Bit `i` set where byte `i` of `x` (little-endian) is an ASCII letter or digit: each byte's
/// high bit answers "at least" with one add that cannot carry into the next byte (the bytes'
/// low seven bits plus at most 0x80), then one multiply gathers the eight high bits.
fn alnum_bits(x: u64) -> u64 {
    const HIGH: u64 = splat(0x80);
    let low = x & !HIGH;
    // High bit set: the byte is at least `lo`; is above `hi`.
    let at_least = |v: u64, lo: u8| v + splat(0x80 - lo);
    let above = |v: u64, hi: u8| v + splat(0x7F - hi);
    let digit = at_least(low, b'0') & !above(low, b'9');
    // `| 0x20` folds `A-Z` onto `a-z` and nothing else onto them.
    let folded = low | splat(0x20);
    let letter = at_least(folded, b'a') & !above(folded, b'z');
    let high_bits = (digit | letter) & !x & HIGH;
    // Byte i's bit (at 8i + 7) lands on bit 56 + i, with no two products on one bit.
    (high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit `j` set where byte `j` of `chunk` (at most 64 bytes) is an ASCII letter or digit.
fn alnum_mask(chunk: &[u8]) -> u64 {
    let mut words = chunk.chunks_exact(8);
    let mut mask = 0;
    for (k, word) in (&mut words).enumerate() {
        let x = <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes);
        mask |= alnum_bits(x) << (8 * k);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        // Zero bytes past the end are no letters.
        let mut last = [0u8; 8];
        for (to, &from) in last.iter_mut().zip(rest) {
            *to = from;
        }
        mask |= alnum_bits(u64::from_le_bytes(last)) << (chunk.len() - rest.len());
    }
    mask
}

/// Position `i` as a token offset (texts are far below 4 GiB; past it, offsets saturate).
fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
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
        self.starts
            .iter()
            .zip(&self.ends)
            .map(|(&s, &e)| self.bytes.get(s as usize..e as usize).unwrap_or_default())
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

    fn count(&self) -> u32 {
        offset(self.ends.len())
    }

    fn clear(&mut self) {
        self.starts.clear();
        self.ends.clear();
        self.line_starts.clear();
    }

    fn scan(&mut self, text: &str, lines: bool) {
        self.clear();
        let bytes = text.as_bytes();
        self.scan_blocks(bytes);
        // The two characters that lowercase to an ASCII letter change the text's length.
        let resized = memchr::memchr2_iter(0xC4, 0xE2, bytes).any(|i| {
            matches!(
                bytes.get(i..),
                Some([0xC4, 0xB0, ..] | [0xE2, 0x84, 0xAA, ..])
            )
        });
        if resized {
            self.clear();
            self.scan_bytes(bytes, lines);
        } else if lines {
            self.find_lines(bytes);
        }
    }

    /// Tokens as spans of the lowercased text: per block of 64 bytes, a mask of token bytes
    /// whose changes are the tokens' starts and ends, with no branch per byte. Wrong only
    /// where the text has U+0130 or U+212A, which [`Tokens::scan_bytes`] reads instead.
    fn scan_blocks(&mut self, bytes: &[u8]) {
        self.bytes.clear();
        self.bytes.extend(
            bytes
                .iter()
                .map(|&b| b | u8::from(b.wrapping_sub(b'A') < 26) << 5),
        );
        let mut in_token = false;
        for (block, chunk) in bytes.chunks(64).enumerate() {
            let mask = alnum_mask(chunk);
            // Bit j: byte j differs from the one before it (in or out of a token).
            let mut changes =
                (mask ^ (mask << 1 | u64::from(in_token))) & u64::MAX >> (64 - chunk.len());
            while changes != 0 {
                let at = offset(block * 64 + changes.trailing_zeros() as usize);
                if in_token {
                    self.ends.push(at);
                } else {
                    self.starts.push(at);
                }
                in_token = !in_token;
                changes &= changes - 1;
            }
            in_token = mask >> (chunk.len() - 1) & 1 == 1;
        }
        if in_token {
            self.ends.push(offset(bytes.len()));
        }
    }

    /// The token count at each non-empty line's start, then the total.
    fn find_lines(&mut self, bytes: &[u8]) {
        let mut tokens = self.starts.iter().peekable();
        let mut before = 0u32;
        let mut line_start = 0usize;
        let breaks = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
        for line_end in breaks {
            if line_end > line_start {
                let at = offset(line_start);
                while tokens.next_if(|&&s| s < at).is_some() {
                    before += 1;
                }
                self.line_starts.push(before);
            }
            line_start = line_end + 1;
        }
        let count = self.count();
        self.line_starts.push(count);
    }

    /// The byte-by-byte scan, for text with U+0130 or U+212A: the tokens' lowercase bytes
    /// one after another.
    fn scan_bytes(&mut self, bytes: &[u8], lines: bool) {
        self.bytes.clear();
        self.bytes.reserve(bytes.len());
        // Whether the current line has any character (empty lines are no sentences).
        let mut line_open = false;
        let mut in_token = false;
        let mut token_start = 0;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if lines && !line_open && b != b'\n' {
                line_open = true;
                let count = self.count();
                self.line_starts.push(count);
            }
            if !in_token {
                token_start = self.bytes.len();
            }
            let mut end_token = true;
            match bytes.get(i..).unwrap_or_default() {
                _ if b.is_ascii_alphanumeric() => {
                    // `| 0x20` lowercases ASCII letters and keeps digits.
                    self.bytes.push(b | 0x20);
                    (in_token, end_token) = (true, false);
                    i += 1;
                }
                // U+0130: `i` and a combining dot, which separates.
                [0xC4, 0xB0, ..] => {
                    self.bytes.push(b'i');
                    in_token = true;
                    i += 2;
                }
                // U+212A KELVIN SIGN: `k`.
                [0xE2, 0x84, 0xAA, ..] => {
                    self.bytes.push(b'k');
                    (in_token, end_token) = (true, false);
                    i += 3;
                }
                [b'\n', ..] => {
                    line_open = false;
                    i += 1;
                }
                _ => i += 1,
            }
            if end_token && in_token {
                self.starts.push(offset(token_start));
                self.ends.push(offset(self.bytes.len()));
                in_token = false;
            }
        }
        if in_token {
            self.starts.push(offset(token_start));
            self.ends.push(offset(self.bytes.len()));
        }
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
    fn block_scan_equals_byte_scan() {
        let pieces = [
            "a",
            "Bc",
            "Z9",
            " ",
            "\n",
            "\n\n",
            "é",
            "’",
            "--",
            "x".repeat(70).as_str().to_owned().leak(),
            " ".repeat(63).as_str().to_owned().leak(),
            "日本",
            "\t",
            ".",
            "Q",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let (mut blocks, mut bytes) = (Tokens::default(), Tokens::default());
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(state % 40) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            blocks.clear();
            blocks.scan_blocks(text.as_bytes());
            blocks.find_lines(text.as_bytes());
            bytes.clear();
            bytes.scan_bytes(text.as_bytes(), true);
            assert_eq!(
                blocks.iter().collect::<Vec<_>>(),
                bytes.iter().collect::<Vec<_>>(),
                "{text:?}"
            );
            assert_eq!(blocks.line_bounds(), bytes.line_bounds(), "{text:?}");
        }
    }

    #[test]
    fn alnum_mask_is_the_byte_test() {
        let is_token = |b: u8| b.is_ascii_alphanumeric();
        // Every byte value at every position of a word, among neighbours of every kind.
        for b in 0..=255u8 {
            for at in 0..8 {
                for fill in [0u8, b' ', b'a', 0xFF, b'Z'] {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let expected = (0..8).fold(0, |m, j| m | u64::from(is_token(word[j])) << j);
                    assert_eq!(alnum_bits(u64::from_le_bytes(word)), expected, "{word:?}");
                }
            }
        }
        // Chunks of every length up to 64.
        let text: Vec<u8> = (0..64u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(40))
            .collect();
        for len in 0..=64 {
            let chunk = &text[..len];
            let expected = chunk
                .iter()
                .enumerate()
                .fold(0, |m, (j, &b)| m | u64::from(is_token(b)) << j);
            assert_eq!(alnum_mask(chunk), expected, "{len}");
        }
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
