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
    utf8(body).map_err(|e| {
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

/// `bytes` as UTF-8 text: checked with SIMD instructions, then, only when that finds an error,
/// again by the standard library for the error's position and length.
fn utf8(bytes: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

/// `bytes` as UTF-8 text, or the offset of the first byte that is not valid UTF-8.
///
/// # Errors
/// `Err(offset)` as `Utf8Error::valid_up_to` gives it.
pub fn check_utf8(bytes: &[u8]) -> std::result::Result<&str, usize> {
    utf8(bytes).map_err(|e| e.valid_up_to())
}

fn bytecount(bytes: &[u8], needle: u8) -> usize {
    bytes.iter().filter(|&&b| b == needle).count()
}

/// Splits decoded text into right-stripped lines: split on `\n` only, drop the empty piece
/// after a final `\n`, `rstrip()` each line with Python's whitespace set.
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    push_lines(text, &mut lines);
    lines
}

/// Appends the lines of `text` ([`split_lines`]) to `lines`.
fn push_lines<'t>(text: &'t str, lines: &mut Vec<&'t str>) {
    if text.is_empty() {
        return;
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut start = 0;
    // memchr's vectorized search: `str::split` with a char pattern is several times slower.
    for end in memchr::memchr_iter(b'\n', body.as_bytes()) {
        // Both ends sit next to a `\n`, so on character boundaries.
        lines.extend(body.get(start..end).map(py_rstrip));
        start = end + 1;
    }
    lines.extend(body.get(start..).map(py_rstrip));
}

/// Blocks under this size are decoded and split on the calling thread.
const MIN_PARALLEL_BYTES: usize = 1 << 20;
/// Pieces a larger block is cut into: enough for the parallel map to spread them.
const PIECES: usize = 128;

/// The lines of a block of whole lines of a UTF-8 file ([`split_lines`] after checking it is
/// UTF-8; the block starts at a line, so no byte order mark is looked for), on `workers`
/// threads: the block is cut after a `\n` into pieces that are checked and split on their own.
/// A `\n` byte is never inside a multi-byte sequence, so the pieces decode exactly as the
/// whole does.
///
/// # Errors
/// [`ErrorKind::Decode`] naming the byte offset of the first byte that is not valid UTF-8;
/// [`ErrorKind::Interrupted`] once the call is cancelled.
pub fn split_block_lines(bytes: &[u8], workers: i64) -> Result<Vec<&str>> {
    let piece_bytes = if bytes.len() < MIN_PARALLEL_BYTES {
        bytes.len().max(1)
    } else {
        bytes.len() / PIECES
    };
    let mut cuts = vec![0];
    while let Some(&last) = cuts.last() {
        if last >= bytes.len() {
            break;
        }
        let target = last.saturating_add(piece_bytes).min(bytes.len());
        let tail = bytes.get(target..).unwrap_or_default();
        cuts.push(memchr::memchr(b'\n', tail).map_or(bytes.len(), |i| target + i + 1));
    }
    let pieces = crate::parallel::map_range(cuts.len() - 1, workers, |k| {
        let (start, end) = (cuts.get(k).copied(), cuts.get(k + 1).copied());
        let piece = bytes
            .get(start.unwrap_or(0)..end.unwrap_or(0))
            .unwrap_or_default();
        utf8(piece)
            .map(|text| {
                let mut lines = Vec::with_capacity(piece.len() / 64);
                push_lines(text, &mut lines);
                lines
            })
            .map_err(|e| start.unwrap_or(0) + e.valid_up_to())
    })?;
    let mut lines = Vec::with_capacity(pieces.iter().map(|p| p.as_ref().map_or(0, Vec::len)).sum());
    for piece in pieces {
        match piece {
            Ok(piece) => lines.extend(piece),
            Err(offset) => {
                return Err(Error::new(
                    ErrorKind::Decode,
                    format!("invalid UTF-8 at byte offset {offset} of the block"),
                ))
            }
        }
    }
    Ok(lines)
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
    fn block_lines_equal_whole_text_lines() {
        // Lines of every length around the piece size, CRLF and trailing spaces, non-ASCII.
        let mut text = String::new();
        for i in 0..12_000 {
            text.push_str(&"é".repeat(i % 97));
            text.push_str(["\n", "\r\n", "  \n", "\u{a0}x\n"][i % 4]);
        }
        for end in [0, 1, text.len() - 1, text.len()] {
            let part = text.get(..end).unwrap_or(&text);
            for workers in [1, 2] {
                let lines = split_block_lines(part.as_bytes(), workers).unwrap();
                assert_eq!(lines, split_lines(part), "{end} bytes, {workers} workers");
            }
        }
        assert!(
            MIN_PARALLEL_BYTES < text.len(),
            "the text is cut into pieces"
        );
    }

    #[test]
    fn block_lines_report_the_first_bad_byte() {
        let mut bytes = "abc\n".repeat(300_000).into_bytes();
        let bad = bytes.len() - 5;
        bytes[bad] = 0xFF;
        bytes[bad + 2] = 0xFF;
        let err = split_block_lines(&bytes, 2).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert!(err.message().contains(&format!("offset {bad} ")), "{err}");
        assert_eq!(
            std::str::from_utf8(&bytes).unwrap_err().valid_up_to(),
            bad,
            "the offset the whole block gives"
        );
    }

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
