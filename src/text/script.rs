//! Which writing systems a text uses: enough to tell Chinese, Japanese and Korean apart from
//! each other and from alphabetic text, so a caller can warn about a wrong tokenizer.

/// Letter counts by script.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScriptCounts {
    /// CJK ideographs (Chinese hanzi, Japanese kanji, Korean hanja).
    pub han: usize,
    /// Hiragana and katakana: only Japanese uses them.
    pub kana: usize,
    /// Hangul syllables and jamo: Korean.
    pub hangul: usize,
    /// Every other alphabetic character (Latin, Cyrillic, ...).
    pub other: usize,
}

fn in_ranges(c: u32, ranges: &[(u32, u32)]) -> bool {
    ranges.iter().any(|&(start, end)| start <= c && c <= end)
}

const HAN: [(u32, u32); 5] = [
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x20000, 0x2FFFF),
    (0x30000, 0x3FFFF),
];
const KANA: [(u32, u32); 4] = [
    (0x3040, 0x309F),
    (0x30A0, 0x30FF),
    (0x31F0, 0x31FF),
    (0xFF66, 0xFF9F),
];
const HANGUL: [(u32, u32); 5] = [
    (0x1100, 0x11FF),
    (0x3130, 0x318F),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7AF),
    (0xD7B0, 0xD7FF),
];

impl ScriptCounts {
    /// Adds the letters of `text`.
    pub fn add(&mut self, text: &str) {
        for c in text.chars() {
            if c.is_ascii() {
                self.other += usize::from(c.is_ascii_alphabetic());
                continue;
            }
            let cp = u32::from(c);
            if in_ranges(cp, &HAN) {
                self.han += 1;
            } else if in_ranges(cp, &KANA) {
                self.kana += 1;
            } else if in_ranges(cp, &HANGUL) {
                self.hangul += 1;
            } else if c.is_alphabetic() {
                self.other += 1;
            }
        }
    }

    /// CJK letters of any kind.
    pub fn cjk(&self) -> usize {
        self.han + self.kana + self.hangul
    }
}

/// The step between the lines [`sample_counts`] reads: up to `max_lines` of `len` lines,
/// spread evenly (lines 0, step, 2 * step, ...); `None` when it reads none.
pub fn sample_step(len: usize, max_lines: usize) -> Option<usize> {
    (len > 0 && max_lines > 0).then(|| len.div_ceil(max_lines))
}

/// Counts the letters of up to `max_lines` lines spread evenly over `lines`.
pub fn sample_counts(lines: &[Option<&str>], max_lines: usize) -> ScriptCounts {
    let mut counts = ScriptCounts::default();
    let Some(step) = sample_step(lines.len(), max_lines) else {
        return counts;
    };
    for line in lines.iter().step_by(step).flatten() {
        counts.add(line);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> ScriptCounts {
        let mut c = ScriptCounts::default();
        c.add(text);
        c
    }

    #[test]
    fn scripts() {
        let c = count("中文English混合，测试！");
        assert_eq!((c.han, c.kana, c.hangul, c.other), (6, 0, 0, 7));
        let c = count("今日は良い天気ですね。");
        assert_eq!((c.han, c.kana, c.hangul), (5, 5, 0));
        let c = count("안녕하세요. 저는 학생입니다!");
        assert_eq!((c.hangul, c.han, c.cjk()), (12, 0, 12));
        let c = count("Привет, мир 123");
        assert_eq!((c.other, c.cjk()), (9, 0));
    }

    #[test]
    fn sampling() {
        let lines = vec![Some("日本"), None, Some("ab"), Some("c")];
        assert_eq!(sample_counts(&lines, 10).other, 3);
        assert_eq!(sample_counts(&lines, 2).han, 2);
        assert_eq!(sample_counts(&lines, 2).other, 2);
        assert_eq!(sample_counts(&[], 5), ScriptCounts::default());
    }
}
