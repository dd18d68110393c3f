//! Upstream's own outputs against ours: `tests/data/golden_whisper_normalizers.jsonl` (made
//! by `tools/gen_whisper_golden.py` running openai-whisper 20250625's normalizers),
//! `tests/data/golden_whisper_normalizer_package.jsonl` (the whisper-normalizer 0.1.15
//! package's), `tests/data/golden_open_asr_normalizers.jsonl` (the Open ASR Leaderboard's, by
//! `tools/gen_open_asr_golden.py`), and, when
//! `BLEUPRINT_WHISPER_COMPARE` names files in the same format (e.g. upstream's outputs on
//! every English line of WMT22, written by `tools/gen_whisper_golden.py --lines ...`), those.
//!
//! ```text
//! D=../shared/data/wmt22
//! python tools/gen_whisper_golden.py --lines $D/sources/*.en $D/references/*.en \
//!     $D/system-outputs/*.en --out /tmp/wmt22_whisper.jsonl
//! BLEUPRINT_WHISPER_COMPARE=/tmp/wmt22_whisper.jsonl cargo test --lib text::whisper
//! ```

use std::path::{Path, PathBuf};

use super::*;

/// A JSON value, as far as the golden records use them.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Str(String),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Json::Str(s)) => Some(s),
            _ => None,
        }
    }
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Reader<'_> {
    fn parse(line: &str) -> Json {
        let mut r = Reader {
            chars: line.chars().peekable(),
        };
        let v = r.value();
        r.space();
        assert!(r.chars.next().is_none(), "trailing text in {line}");
        v
    }
    fn space(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.chars.next();
        }
    }
    fn expect(&mut self, word: &str) {
        for w in word.chars() {
            assert_eq!(self.chars.next(), Some(w));
        }
    }
    fn value(&mut self) -> Json {
        self.space();
        match self.chars.peek().copied() {
            Some('{') => {
                self.chars.next();
                let mut items = Vec::new();
                loop {
                    self.space();
                    match self.chars.peek() {
                        Some('}') => {
                            self.chars.next();
                            return Json::Object(items);
                        }
                        Some(',') => {
                            self.chars.next();
                        }
                        _ => {
                            let Json::Str(key) = self.value() else {
                                panic!("object key")
                            };
                            self.space();
                            self.expect(":");
                            items.push((key, self.value()));
                        }
                    }
                }
            }
            Some('"') => {
                self.chars.next();
                Json::Str(self.string())
            }
            Some('t') => {
                self.expect("true");
                Json::Bool(true)
            }
            Some('f') => {
                self.expect("false");
                Json::Bool(false)
            }
            Some('n') => {
                self.expect("null");
                Json::Null
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    fn hex4(&mut self) -> u32 {
        let hex: String = (0..4).map(|_| self.chars.next().unwrap()).collect();
        u32::from_str_radix(&hex, 16).unwrap()
    }
    fn string(&mut self) -> String {
        let mut out = String::new();
        loop {
            match self.chars.next().unwrap() {
                '"' => return out,
                '\\' => match self.chars.next().unwrap() {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'u' => {
                        let hi = self.hex4();
                        let cp = if (0xD800..0xDC00).contains(&hi) {
                            self.expect("\\u");
                            let lo = self.hex4();
                            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                        } else {
                            hi
                        };
                        out.push(char::from_u32(cp).expect("no lone surrogates in records"));
                    }
                    c => out.push(c),
                },
                c => out.push(c),
            }
        }
    }
}

/// The normalizers a golden file names, built once.
struct Normalizers {
    english: EnglishTextNormalizer,
    package_english: EnglishTextNormalizer,
    numbers: EnglishNumberNormalizer,
    spelling: EnglishSpellingNormalizer,
}

/// Runs the normalizer a record names (`whisper-basic(remove_diacritics=True)`, ...) on
/// `input`; `Err` where ours fails (upstream raised).
fn run(name: &str, input: &str, n: &Normalizers) -> Result<String, String> {
    if name.starts_with("open-asr") {
        // The leaderboard's, by their names as metrics take them.
        let form = crate::text::normalize::Normalization::from_name(name).unwrap();
        return form
            .apply(input)
            .map(|s| s.into_owned())
            .map_err(|e| e.to_string());
    }
    let mut out = String::new();
    let basic =
        |remove_diacritics, split_letters| whisper_basic(input, remove_diacritics, split_letters);
    let with_marks = |split_letters| {
        let mut out = String::new();
        BasicTextNormalizer::new(false, split_letters)
            .preserving_marks()
            .normalize(input, &mut out);
        out
    };
    let Normalizers {
        english,
        package_english,
        numbers,
        spelling,
    } = n;
    match name {
        "whisper-english" => english
            .normalize(input, &mut out)
            .map_err(|e| e.to_string())?,
        "whisper-normalizer-english" => package_english
            .normalize(input, &mut out)
            .map_err(|e| e.to_string())?,
        "whisper-normalizer-basic" => out = basic(false, false),
        "whisper-normalizer-basic(remove_diacritics=True)" => out = basic(true, false),
        "whisper-normalizer-basic(preserve_marks=True)" => out = with_marks(false),
        "whisper-normalizer-basic(split_letters=True, preserve_marks=True)" => {
            out = with_marks(true);
        }
        "remove_symbols(preserve_marks=True)" => push_remove_symbols_with(input, true, &mut out),
        "whisper-english-numbers" => numbers
            .normalize(input, &mut out)
            .map_err(|e| e.to_string())?,
        "whisper-english-spelling" => spelling.normalize(input, &mut out),
        "whisper-basic" => out = basic(false, false),
        "whisper-basic(remove_diacritics=True)" => out = basic(true, false),
        "whisper-basic(split_letters=True)" => out = basic(false, true),
        "whisper-basic(remove_diacritics=True, split_letters=True)" => out = basic(true, true),
        "remove_symbols" => out = remove_symbols(input),
        "remove_symbols_and_diacritics(keep='.%$¢€£')" => {
            out = remove_symbols_and_diacritics(input, ".%$¢€£");
        }
        other => panic!("unknown normalizer {other}"),
    }
    Ok(out)
}

/// Compares every output of every record of `path`; returns (inputs, outputs compared,
/// mismatches as text).
fn compare_file(path: &Path) -> (usize, usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let normalizers = Normalizers {
        english: EnglishTextNormalizer::new(),
        package_english: EnglishTextNormalizer::whisper_normalizer(),
        numbers: EnglishNumberNormalizer::new(),
        spelling: EnglishSpellingNormalizer::new(),
    };
    let (mut inputs, mut compared) = (0, 0);
    let mut mismatches = Vec::new();
    let mut header = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record = Reader::parse(line);
        let upstream = (record.str("upstream"), record.str("version"));
        assert!(
            upstream == (Some(UPSTREAM), Some(UPSTREAM_VERSION))
                || upstream == (Some(PACKAGE), Some(PACKAGE_VERSION))
                || upstream == (Some(OPEN_ASR), Some(OPEN_ASR_REVISION)),
            "{upstream:?}"
        );
        let Some(input) = record.str("input") else {
            header = true;
            continue;
        };
        inputs += 1;
        let Some(Json::Object(expected)) = record.get("expected") else {
            panic!("no expected outputs in {line}")
        };
        for (name, want) in expected {
            compared += 1;
            let ours = run(name, input, &normalizers);
            let ok = match (&ours, want) {
                (Ok(got), Json::Str(want)) => got == want,
                (Err(_), Json::Object(_)) => want.str("error").is_some(),
                _ => false,
            };
            if !ok {
                mismatches.push(format!(
                    "{name}: input {input:?}: upstream {want:?}, ours {ours:?}"
                ));
            }
        }
    }
    assert!(header, "{} has no header record", path.display());
    (inputs, compared, mismatches)
}

#[test]
fn golden_file() {
    golden("golden_whisper_normalizers.jsonl", 1000, 7000);
}

#[test]
fn package_golden_file() {
    golden("golden_whisper_normalizer_package.jsonl", 900, 5400);
}

#[test]
fn open_asr_golden_file() {
    golden("golden_open_asr_normalizers.jsonl", 1700, 12000);
}

/// Every output of `tests/data/<name>` (at least `min_inputs` inputs and `min_outputs`
/// outputs) equals ours.
fn golden(name: &str, min_inputs: usize, min_outputs: usize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let (inputs, compared, mismatches) = compare_file(&path);
    assert!(
        inputs > min_inputs && compared > min_outputs,
        "only {inputs} inputs, {compared} outputs"
    );
    assert!(
        mismatches.is_empty(),
        "{} of {compared} outputs differ:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `BLEUPRINT_WHISPER_COMPARE=file.jsonl[:file2.jsonl...]`: skipped when unset or when a file
/// is absent (the WMT22 data lives outside the repository).
#[test]
fn compare_with_upstream_dumps() {
    let Ok(paths) = std::env::var("BLEUPRINT_WHISPER_COMPARE") else {
        return;
    };
    for path in std::env::split_paths(&paths) {
        if !path.exists() {
            eprintln!("skipping {}: absent", path.display());
            continue;
        }
        let (inputs, compared, mismatches) = compare_file(&path);
        eprintln!(
            "{}: {inputs} inputs, {compared} outputs compared, {} mismatches",
            path.display(),
            mismatches.len()
        );
        assert!(
            mismatches.is_empty(),
            "{}",
            mismatches
                .iter()
                .take(30)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// `BLEUPRINT_WHISPER_BENCH=lines.txt`: lines per second of each normalizer on the file's
/// lines (run with `--profile quick` or `--release`; skipped when unset).
#[test]
fn bench_lines() {
    let Ok(path) = std::env::var("BLEUPRINT_WHISPER_BENCH") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.split('\n').filter(|l| !l.is_empty()).collect();
    let english = EnglishTextNormalizer::new();
    let basic = BasicTextNormalizer::new(false, false);
    let mut out = String::new();
    let run_english = |s: &str, o: &mut String| english.normalize(s, o).unwrap();
    let run_basic = |s: &str, o: &mut String| basic.normalize(s, o);
    type Run<'a> = (&'a str, &'a dyn Fn(&str, &mut String));
    let runs: [Run<'_>; 2] = [
        ("whisper-english", &run_english),
        ("whisper-basic", &run_basic),
    ];
    for (name, run) in runs {
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for line in &lines {
            out.clear();
            run(line, &mut out);
            bytes += out.len();
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {} lines in {secs:.3} s, {:.0} lines/s, {:.2} us/line ({bytes} bytes out)",
            lines.len(),
            lines.len() as f64 / secs,
            secs * 1e6 / lines.len() as f64
        );
    }
}
