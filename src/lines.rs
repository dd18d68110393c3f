//! Reading text files into lines the way sacrebleu's command line does, without Python.
//!
//! sacrebleu opens reference and system files with `open(path, encoding="utf-8", newline="\n")`
//! and `rstrip()`s every line. That means:
//!
//! * only `\n` ends a line: `\r`, U+2028, U+0085 and the other characters that
//!   `str.splitlines()` would split on stay *inside* the line;
//! * a final `\n` does not start another (empty) line, but a final line without `\n` counts;
//! * every line loses its trailing Python whitespace ([`crate::text::py_rstrip`]), which also
//!   removes the `\r` of CRLF files.
//!
//! One deliberate difference: a leading UTF-8 byte order mark is dropped (sacrebleu keeps it
//! as part of the first segment, which changes that segment's score).

use std::path::Path;

use crate::error::{Error, ErrorKind, Result};
use crate::text::py_rstrip;

/// The UTF-8 encoding of U+FEFF, the byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `bytes` without a leading UTF-8 byte order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// Validates `bytes` (after dropping a leading byte order mark) as UTF-8.
///
/// # Errors
///
/// [`ErrorKind::Decode`] naming the byte offset (counted from the start of `bytes`, BOM
/// included) and the 1-based line of the first byte that is not valid UTF-8.
pub fn decode(bytes: &[u8]) -> Result<&str> {
    let skipped = bytes.len() - strip_bom(bytes).len();
    let body = strip_bom(bytes);
    std::str::from_utf8(body).map_err(|e| {
        let valid = e.valid_up_to();
        let offset = skipped + valid;
        // In bounds: `valid_up_to()` counts bytes of `body` that decoded, so at most its length.
        #[allow(clippy::indexing_slicing)]
        let (good, rest) = (&body[..valid], &body[valid..]);
        let line = 1 + bytecount(good, b'\n');
        // No `error_len`: the input ends inside a sequence, so all of `rest` is the bad part.
        let n = e.error_len().unwrap_or(rest.len()).min(4);
        let bad = rest
            .iter()
            .take(n)
            .map(|b| format!("0x{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ");
        let what = if e.error_len().is_none() {
            "truncated UTF-8 sequence"
        } else {
            "invalid UTF-8"
        };
        Error::new(
            ErrorKind::Decode,
            format!("{what} at byte offset {offset} (line {line}): {bad}"),
        )
    })
}

fn bytecount(bytes: &[u8], needle: u8) -> usize {
    bytes.iter().filter(|&&b| b == needle).count()
}

/// Splits decoded text into right-stripped lines: split on `\n` only, drop the empty piece
/// after a final `\n`, `rstrip()` each line with Python's whitespace set.
pub fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').map(py_rstrip).collect()
}

/// [`decode`] followed by [`split_lines`]: the lines of a file's bytes, borrowed from them.
///
/// # Errors
///
/// [`ErrorKind::Decode`] when the bytes are not valid UTF-8.
pub fn parse_lines(bytes: &[u8]) -> Result<Vec<&str>> {
    decode(bytes).map(split_lines)
}

/// Reads a UTF-8 text file into owned lines (see the module documentation for the rules).
///
/// # Errors
///
/// [`ErrorKind::InvalidInput`] when the file cannot be read, [`ErrorKind::Decode`] when it is
/// not valid UTF-8. Both messages start with the path.
pub fn read_lines(path: impl AsRef<Path>) -> Result<Vec<String>> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| {
        Error::new(
            ErrorKind::InvalidInput,
            format!("{}: cannot read: {e}", path.display()),
        )
    })?;
    let lines = parse_lines(&bytes)
        .map_err(|e| Error::new(e.kind(), format!("{}: {}", path.display(), e.message())))?;
    Ok(lines.into_iter().map(str::to_owned).collect())
}

/// Where the next `n` whole lines of `bytes` from offset `start` end: `(end, lines)`, with
/// `end` just after the `lines`-th `\n` (`lines < n` when fewer follow; a last line without
/// `\n` is not whole and is left out).
pub fn line_end(bytes: &[u8], start: usize, n: usize) -> (usize, usize) {
    let tail = bytes.get(start..).unwrap_or_default();
    let mut end = start;
    let mut found = 0;
    // memchr's vectorized search: cutting blocks must cost little next to counting them.
    for offset in memchr::memchr_iter(b'\n', tail).take(n) {
        end = start + offset + 1;
        found += 1;
    }
    (end, found)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn line_end_finds_whole_lines() {
        assert_eq!(line_end(b"a\nbb\nc", 0, 1), (2, 1));
        assert_eq!(line_end(b"a\nbb\nc", 0, 2), (5, 2));
        assert_eq!(line_end(b"a\nbb\nc", 0, 5), (5, 2));
        assert_eq!(line_end(b"a\nbb\nc", 2, 5), (5, 1));
        assert_eq!(line_end(b"a\nbb\nc", 5, 5), (5, 0));
        assert_eq!(line_end(b"a\nbb\n", 0, 0), (0, 0));
        assert_eq!(line_end(b"\n\n\n", 1, 2), (3, 2));
        assert_eq!(line_end(b"abc", 9, 1), (9, 0));
    }

    fn lines(bytes: &[u8]) -> Vec<&str> {
        parse_lines(bytes).unwrap()
    }

    #[test]
    fn splits_on_newline_and_drops_final_empty_piece() {
        assert_eq!(lines(b"a b\nc d\n"), ["a b", "c d"]);
        assert_eq!(lines(b"a b\nc d"), ["a b", "c d"]);
        assert_eq!(lines(b""), Vec::<&str>::new());
        assert_eq!(lines(b"\n"), [""]);
        assert_eq!(lines(b"\n\n"), ["", ""]);
        assert_eq!(lines(b"x\n\ny\n"), ["x", "", "y"]);
    }

    #[test]
    fn crlf_is_stripped_and_lone_cr_stays_inside() {
        assert_eq!(lines(b"a b\r\nc d\r\n"), ["a b", "c d"]);
        assert_eq!(lines(b"a\rb\n"), ["a\rb"]);
        assert_eq!(lines(b"a\r\n\r\n"), ["a", ""]);
    }

    #[test]
    fn no_trailing_newline() {
        assert_eq!(lines(b"only line"), ["only line"]);
        assert_eq!(lines(b"one\ntwo  \t"), ["one", "two"]);
    }

    #[test]
    fn rstrips_python_whitespace_only_at_the_end() {
        assert_eq!(lines("  lead\u{3000}\u{85}\n".as_bytes()), ["  lead"]);
        // U+200B and U+FEFF are not Python whitespace.
        assert_eq!(lines("x\u{200B}\n".as_bytes()), ["x\u{200B}"]);
    }

    #[test]
    fn line_separators_stay_inside_a_line() {
        let text = "one\u{2028}two\u{2029}three\u{85}four\x0bfive\x0cend\n";
        assert_eq!(lines(text.as_bytes()), [text.trim_end()]);
        assert_eq!(lines(text.as_bytes()).len(), 1);
    }

    #[test]
    fn strips_a_leading_bom_only() {
        assert_eq!(lines(b"\xEF\xBB\xBFhello\nworld\n"), ["hello", "world"]);
        assert_eq!(lines(b"\xEF\xBB\xBF"), Vec::<&str>::new());
        // A BOM elsewhere is an ordinary (non-whitespace) character.
        assert_eq!(lines("a\n\u{FEFF}b\n".as_bytes()), ["a", "\u{FEFF}b"]);
        assert_eq!(strip_bom(b"\xEF\xBBx"), b"\xEF\xBBx");
    }

    #[test]
    fn invalid_utf8_reports_offset_and_line() {
        let err = parse_lines(b"ok\nfine\nbad \xff here\n").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert_eq!(
            err.message(),
            "invalid UTF-8 at byte offset 12 (line 3): 0xff"
        );
    }

    #[test]
    fn invalid_utf8_offset_counts_the_bom() {
        let err = parse_lines(b"\xEF\xBB\xBFab\xc3(").unwrap_err();
        assert!(err
            .message()
            .starts_with("invalid UTF-8 at byte offset 5 (line 1)"));
    }

    #[test]
    fn truncated_sequence_at_end_of_file() {
        let err = parse_lines(b"abc\n\xe2\x82").unwrap_err();
        assert_eq!(
            err.message(),
            "truncated UTF-8 sequence at byte offset 4 (line 2): 0xe2 0x82"
        );
    }

    #[test]
    fn read_lines_from_disk() {
        let dir = std::env::temp_dir().join(format!("bleuprint-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, b"\xEF\xBB\xBFa\r\nb\n").unwrap();
        assert_eq!(read_lines(&good).unwrap(), ["a", "b"]);
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, b"a\n\x80").unwrap();
        let err = read_lines(&bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert!(err
            .message()
            .contains("bad.txt: invalid UTF-8 at byte offset 2"));
        let missing = read_lines(dir.join("missing.txt")).unwrap_err();
        assert_eq!(missing.kind(), ErrorKind::InvalidInput);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
