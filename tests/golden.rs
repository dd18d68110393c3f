//! The golden vectors of `tests/data/golden_*.jsonl` (the upstreams' published results, see
//! `tests/golden.py`) through the Rust API: BLEU and chrF statistics and scores, TER
//! statistics and scores and the Tercom tokenizer, WER/CER edit counts and measures, compared
//! with `==`. Vectors that need Python (its `str.lower()`, the bootstrap's resampling, the
//! text forms, nltk's compat layer) are left to pytest.

// A test: a broken vector or file should stop it with a message.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use bleuprint::metrics::bleu::{
    score_from_stats, segment_stats, BleuConfig, FloatSemantics, Segment, Smoothing,
};
use bleuprint::metrics::chrf::{self, ChrfConfig};
use bleuprint::metrics::ter::{self, TerTokenizerConfig};
use bleuprint::metrics::wer::kaldi::{self, KaldiAlign};
use bleuprint::metrics::wer::{self, Split, Unit};
use bleuprint::tokenize::{tercom, Tokenizer};

// --- a JSON reader for the vectors (objects, arrays, strings, numbers, true/false/null) -------

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn parse(line: &str) -> Json {
        let mut reader = Reader {
            text: line.as_bytes(),
            at: 0,
        };
        let value = reader.value();
        reader.space();
        assert_eq!(reader.at, reader.text.len(), "trailing text in {line}");
        value
    }

    fn space(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) {
        self.space();
        assert_eq!(
            self.text[self.at], byte,
            "expected {:?} at {}",
            byte as char, self.at
        );
        self.at += 1;
    }

    fn value(&mut self) -> Json {
        self.space();
        match self.text[self.at] {
            b'{' => {
                let mut object = BTreeMap::new();
                self.items(b'}', |reader| {
                    reader.space();
                    let key = reader.string();
                    reader.eat(b':');
                    object.insert(key, reader.value());
                });
                Json::Object(object)
            }
            b'[' => {
                let mut array = Vec::new();
                self.items(b']', |reader| array.push(reader.value()));
                Json::Array(array)
            }
            b'"' => Json::String(self.string()),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => {
                let start = self.at;
                while self.at < self.text.len()
                    && matches!(
                        self.text[self.at],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.at += 1;
                }
                let number = std::str::from_utf8(&self.text[start..self.at]).unwrap();
                // Python writes the shortest repr that reads back exactly; Rust's parse is
                // correctly rounded, so the value is the upstream's float bit for bit.
                Json::Number(number.parse().unwrap())
            }
        }
    }

    /// The items of an object or array after its opening bracket, each read by `item`, up to
    /// the `close` bracket.
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self)) {
        self.at += 1;
        self.space();
        if self.text[self.at] == close {
            self.at += 1;
            return;
        }
        loop {
            item(self);
            self.space();
            self.at += 1;
            match self.text[self.at - 1] {
                b',' => continue,
                b if b == close => return,
                other => panic!("unexpected {:?} before {:?}", other as char, close as char),
            }
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Json {
        assert!(self.text[self.at..].starts_with(word.as_bytes()));
        self.at += word.len();
        value
    }

    fn hex4(&mut self) -> u32 {
        let digits = std::str::from_utf8(&self.text[self.at..self.at + 4]).unwrap();
        self.at += 4;
        u32::from_str_radix(digits, 16).unwrap()
    }

    fn string(&mut self) -> String {
        self.eat(b'"');
        let mut bytes = Vec::new();
        loop {
            let byte = self.text[self.at];
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(bytes).unwrap(),
                b'\\' => {
                    let escape = self.text[self.at];
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let high = self.hex4();
                            let code = if (0xD800..0xDC00).contains(&high) {
                                assert_eq!(&self.text[self.at..self.at + 2], b"\\u");
                                self.at += 2;
                                0x10000 + ((high - 0xD800) << 10) + (self.hex4() - 0xDC00)
                            } else {
                                high
                            };
                            char::from_u32(code).unwrap()
                        }
                        other => panic!("unknown escape \\{}", other as char),
                    };
                    bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                _ => bytes.push(byte),
            }
        }
    }
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(object) => object.get(key),
            _ => None,
        }
    }

    fn field(&self, key: &str) -> &Json {
        self.get(key)
            .unwrap_or_else(|| panic!("no field {key:?} in {self:?}"))
    }

    fn str(&self) -> &str {
        match self {
            Json::String(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    fn f64(&self) -> f64 {
        match self {
            Json::Number(x) => *x,
            other => panic!("not a number: {other:?}"),
        }
    }

    fn usize(&self) -> usize {
        let x = self.f64();
        assert!(x >= 0.0 && x.fract() == 0.0, "not a count: {x}");
        x as usize
    }

    fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            other => panic!("not a bool: {other:?}"),
        }
    }

    fn array(&self) -> &[Json] {
        match self {
            Json::Array(a) => a,
            other => panic!("not an array: {other:?}"),
        }
    }

    fn numbers(&self) -> Vec<f64> {
        self.array().iter().map(Json::f64).collect()
    }
}

fn load(name: &str) -> Vec<Json> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(format!("golden_{name}.jsonl"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(Reader::parse)
        .collect()
}

// --- a vector's inputs ------------------------------------------------------------------------

struct Inputs {
    hypotheses: Vec<String>,
    /// Per segment, its references (`null` in a stream drops that reference).
    references: Vec<Vec<String>>,
}

fn inputs(vector: &Json) -> Inputs {
    let hypotheses: Vec<String> = vector
        .field("hypotheses")
        .array()
        .iter()
        .map(|h| h.str().to_owned())
        .collect();
    let streams = vector.field("references").array();
    let references = (0..hypotheses.len())
        .map(|i| {
            streams
                .iter()
                .filter_map(|stream| match &stream.array()[i] {
                    Json::Null => None,
                    text => Some(text.str().to_owned()),
                })
                .collect()
        })
        .collect();
    Inputs {
        hypotheses,
        references,
    }
}

fn arg<'a>(vector: &'a Json, key: &str) -> Option<&'a Json> {
    vector.field("args").get(key)
}

/// The `sum()` of floats of the Python the vector was computed on (compensated from 3.12).
fn semantics(vector: &Json) -> FloatSemantics {
    let (major, minor) = vector.field("python").str().split_once('.').unwrap();
    let version = (major.parse::<u32>().unwrap(), minor.parse::<u32>().unwrap());
    FloatSemantics {
        compensated_sum: version >= (3, 12),
    }
}

fn column_sums(rows: &[i64], width: usize) -> Vec<i64> {
    let mut sums = vec![0; width];
    for row in rows.chunks(width) {
        for (sum, x) in sums.iter_mut().zip(row) {
            *sum += x;
        }
    }
    sums
}

// --- BLEU -------------------------------------------------------------------------------------

/// The vector's BLEU settings, sacrebleu's defaults where it gives none.
/// Runs `check(vector, id)` on every vector of `tests/data/golden_{name}.jsonl` and asserts
/// that at least `at_least` of them were checked; `check` returns `false` for one it leaves
/// to pytest.
fn check_vectors(name: &str, at_least: usize, mut check: impl FnMut(&Json, &str) -> bool) {
    let mut checked = 0;
    for vector in load(name) {
        if check(&vector, vector.field("id").str()) {
            checked += 1;
        }
    }
    assert!(checked >= at_least, "only {checked} {name} vectors checked");
}

/// Whether the vector lowercases its text: Python's `str.lower()` runs before the core, so
/// pytest checks it.
fn lowercases(vector: &Json) -> bool {
    arg(vector, "lowercase").is_some_and(Json::bool)
}

/// The expected statistics rows, row-major.
fn expected_rows(expected: &Json) -> Vec<i64> {
    expected
        .field("rows")
        .array()
        .iter()
        .flat_map(|row| row.numbers())
        .map(|x| x as i64)
        .collect()
}

fn bleu_config(vector: &Json, default_smoothing: &str, effective_order: bool) -> BleuConfig {
    let method = arg(vector, "smooth_method").map_or(default_smoothing, Json::str);
    let value = arg(vector, "smooth_value").map(Json::f64);
    BleuConfig {
        max_order: arg(vector, "max_ngram_order").map_or(4, Json::usize),
        smoothing: Smoothing::from_name(method, value).unwrap(),
        effective_order: arg(vector, "effective_order").map_or(effective_order, Json::bool),
    }
}

fn bleu_rows(vector: &Json, tokenizer: &str, config: &BleuConfig) -> Vec<i64> {
    let inputs = inputs(vector);
    let segments: Vec<Segment<'_>> = inputs
        .hypotheses
        .iter()
        .zip(&inputs.references)
        .map(|(hypothesis, references)| Segment {
            hypothesis,
            references: references.iter().map(String::as_str).collect(),
        })
        .collect();
    let tokenizer = Tokenizer::from_name(tokenizer).unwrap();
    segment_stats(&segments, tokenizer, config, 1).unwrap()
}

#[test]
fn bleu_vectors() {
    check_vectors("bleu", 50, |vector, id| {
        if lowercases(vector) {
            return false;
        }
        let call = vector.field("call").str();
        let expected = vector.field("expected");
        let tokenizer = arg(vector, "tokenize").map_or("13a", Json::str);
        let (config, row) = match call {
            "corpus_score" | "sentence_score" | "stats" => {
                let config = bleu_config(vector, "exp", call == "sentence_score");
                let rows = bleu_rows(vector, tokenizer, &config);
                if call == "stats" {
                    assert_eq!(rows, expected_rows(expected), "{id}");
                    return true;
                }
                let row = column_sums(&rows, config.width());
                (config, row)
            }
            "raw_corpus_bleu" => {
                // sacrebleu: floor smoothing with the given value, effective order, no tokenizer.
                let config = BleuConfig {
                    max_order: 4,
                    smoothing: Smoothing::Floor(arg(vector, "smooth_value").unwrap().f64()),
                    effective_order: true,
                };
                let rows = bleu_rows(vector, "none", &config);
                let row = column_sums(&rows, config.width());
                (config, row)
            }
            "compute_bleu" => {
                let config = bleu_config(vector, "none", false);
                let mut row = vec![
                    arg(vector, "sys_len").unwrap().f64() as i64,
                    arg(vector, "ref_len").unwrap().f64() as i64,
                ];
                for key in ["correct", "total"] {
                    row.extend(
                        arg(vector, key)
                            .unwrap()
                            .numbers()
                            .iter()
                            .map(|&x| x as i64),
                    );
                }
                (config, row)
            }
            other => panic!("{id}: unknown call {other}"),
        };
        let score = score_from_stats(&row, &config, &semantics(vector)).unwrap();
        assert_eq!(score.score, expected.field("score").f64(), "{id}");
        assert_eq!(score.bp, expected.field("bp").f64(), "{id}");
        assert_eq!(row[0] as f64, expected.field("sys_len").f64(), "{id}");
        assert_eq!(row[1] as f64, expected.field("ref_len").f64(), "{id}");
        if !matches!(config.smoothing, Smoothing::AddK(_)) {
            // sacrebleu reports add-k's counts with k added; the rows hold the plain counts.
            let n = config.max_order;
            let counts: Vec<f64> = row[2..2 + n].iter().map(|&x| x as f64).collect();
            let totals: Vec<f64> = row[2 + n..].iter().map(|&x| x as f64).collect();
            assert_eq!(counts, expected.field("counts").numbers(), "{id}");
            assert_eq!(totals, expected.field("totals").numbers(), "{id}");
            assert_eq!(
                score.precisions,
                expected.field("precisions").numbers(),
                "{id}"
            );
        }
        true
    });
}

// --- chrF -------------------------------------------------------------------------------------

#[test]
fn chrf_vectors() {
    check_vectors("chrf", 30, |vector, id| {
        if lowercases(vector) {
            return false;
        }
        // sacrebleu squares an int beta exactly; every vector's beta is a small int.
        let beta = arg(vector, "beta").map_or(2.0, Json::f64);
        let config = ChrfConfig {
            char_order: arg(vector, "char_order").map_or(6, Json::usize),
            word_order: arg(vector, "word_order").map_or(0, Json::usize),
            factor: beta * beta,
            one_plus_factor: 1.0 + beta * beta,
            whitespace: arg(vector, "whitespace").is_some_and(Json::bool),
            eps_smoothing: arg(vector, "eps_smoothing").is_some_and(Json::bool),
        };
        let inputs = inputs(vector);
        let mut rows = Vec::new();
        for (hypothesis, references) in inputs.hypotheses.iter().zip(&inputs.references) {
            let references: Vec<&str> = references.iter().map(String::as_str).collect();
            rows.extend(chrf::segment_stats(hypothesis, &references, config).unwrap());
        }
        let expected = vector.field("expected");
        if vector.field("call").str() == "stats" {
            assert_eq!(rows, expected_rows(expected), "{id}");
        } else {
            let score = chrf::f_score(&column_sums(&rows, config.width()), &config);
            assert_eq!(score, expected.field("score").f64(), "{id}");
        }
        true
    });
}

// --- TER --------------------------------------------------------------------------------------

fn ter_config(vector: &Json) -> TerTokenizerConfig {
    let flag = |key| arg(vector, key).is_some_and(Json::bool);
    TerTokenizerConfig {
        normalized: flag("normalized"),
        no_punct: flag("no_punct"),
        asian_support: flag("asian_support"),
    }
}

#[test]
fn ter_vectors() {
    check_vectors("ter", 30, |vector, id| {
        let config = ter_config(vector);
        let case_sensitive = arg(vector, "case_sensitive").is_some_and(Json::bool);
        // sacrebleu lowercases (Python's str.lower(); on these ASCII and CJK texts the same
        // as Rust's to_lowercase) unless TER is case-sensitive.
        let prepare = |text: &str| {
            if case_sensitive {
                text.to_owned()
            } else {
                text.to_lowercase()
            }
        };
        let expected = vector.field("expected");
        let inputs = inputs(vector);
        if vector.field("call").str() == "tokenize" {
            let line = prepare(&inputs.hypotheses[0]);
            assert_eq!(
                tercom::tokenize(&line, config),
                expected.field("tokens").str(),
                "{id}"
            );
            return true;
        }
        // Rows [fewest edits, summed reference lengths, reference count].
        let mut rows = Vec::new();
        for (hypothesis, references) in inputs.hypotheses.iter().zip(&inputs.references) {
            let references: Vec<String> = references.iter().map(|r| prepare(r)).collect();
            let references: Vec<&str> = references.iter().map(String::as_str).collect();
            rows.extend(ter::segment_stats(&prepare(hypothesis), &references, config).unwrap());
        }
        match vector.field("call").str() {
            "stats" => {
                // sacrebleu's rows: [fewest edits, average reference length].
                let want: Vec<(i64, f64)> = expected
                    .field("rows")
                    .array()
                    .iter()
                    .map(|row| (row.array()[0].f64() as i64, row.array()[1].f64()))
                    .collect();
                let rows: Vec<(i64, f64)> = rows
                    .chunks(3)
                    .map(|row| ter::score::edits_and_length(row).unwrap())
                    .collect();
                assert_eq!(rows, want, "{id}");
            }
            _ => {
                let score = ter::corpus_score(&rows).unwrap();
                assert_eq!(score.score, expected.field("score").f64(), "{id}");
                assert_eq!(
                    score.edits as f64,
                    expected.field("num_edits").f64(),
                    "{id}"
                );
                assert_eq!(score.ref_length, expected.field("ref_length").f64(), "{id}");
            }
        }
        true
    });
}

// --- WER family -------------------------------------------------------------------------------

#[test]
fn jiwer_vectors() {
    check_vectors("jiwer", 9, |vector, id| {
        let unit = match vector.field("unit").str() {
            "words" => Unit::Word,
            _ => Unit::Char,
        };
        let text = |key| -> Vec<String> {
            let values = vector.field(key).array();
            values.iter().map(|t| t.str().to_owned()).collect()
        };
        let (hypotheses, references) = (text("hypotheses"), text("references"));
        let hypotheses: Vec<&str> = hypotheses.iter().map(String::as_str).collect();
        let stream = vec![references.iter().map(|r| Some(r.as_str())).collect()];
        let split = Split { unit, raw: false };
        let rows = wer::stream_stats(&hypotheses, &stream, wer::WerStats::from(split), 1).unwrap();
        let sums = column_sums(&rows, wer::WIDTH);
        let expected = vector.field("expected");
        let mut counts = 0;
        for (column, sum) in wer::COLUMNS.iter().zip(&sums) {
            if let Some(want) = expected.get(column) {
                assert_eq!(*sum as f64, want.f64(), "{id}: {column}");
                counts += 1;
            }
        }
        assert_eq!(
            counts, 4,
            "{id}: hits, substitutions, deletions and insertions"
        );
        let measures = wer::measures(&sums, wer::EmptyReference::Jiwer).unwrap();
        if unit == Unit::Word {
            assert_eq!(measures.wer, expected.field("wer").f64(), "{id}");
            assert_eq!(measures.mer, expected.field("mer").f64(), "{id}");
            assert_eq!(measures.wil, expected.field("wil").f64(), "{id}");
            assert_eq!(measures.wip, expected.field("wip").f64(), "{id}");
        } else {
            assert_eq!(measures.wer, expected.field("cer").f64(), "{id}");
        }
        true
    });
}

/// kaldialign 0.12.0's `edit_distance` and `align` (`tools/gen_kaldialign_golden.py`) under
/// every combination of `sclite_mode` and `merge_compounds`.
#[test]
fn kaldialign_counts_and_alignments() {
    let vectors = load("kaldialign");
    assert!(vectors.len() >= 600);
    let mut compared = 0;
    for vector in &vectors {
        let id = vector.field("id").str();
        let text = |key: &str| -> Vec<String> {
            vector
                .field(key)
                .array()
                .iter()
                .map(|w| w.str().to_owned())
                .collect()
        };
        let (reference, hypothesis) = (text("reference"), text("hypothesis"));
        let r: Vec<&[u8]> = reference.iter().map(|w| w.as_bytes()).collect();
        let h: Vec<&[u8]> = hypothesis.iter().map(|w| w.as_bytes()).collect();
        for (name, sclite, merge_compounds) in [
            ("plain", false, false),
            ("sclite", true, false),
            ("compounds", false, true),
            ("sclite+compounds", true, true),
        ] {
            let options = KaldiAlign {
                sclite,
                merge_compounds,
                compound_pairs: false,
            };
            let expected = vector.field("expected").field(name);
            let counts = kaldi::counts(&r, &h, options);
            let got = [counts.insert, counts.delete, counts.replace, counts.total()];
            let want = ["ins", "del", "sub", "total"].map(|k| expected.field(k).usize());
            assert_eq!(got, want, "{id} {name}: ins, del, sub, total");
            // kaldialign's pairs: "*" for an empty side, several words joined with spaces.
            let side = |words: &[String], span: std::ops::Range<usize>| {
                if span.is_empty() {
                    "*".to_owned()
                } else {
                    words[span].join(" ")
                }
            };
            let ours: Vec<(String, String)> = kaldi::alignment(&r, &h, options)
                .into_iter()
                .map(|(a, b)| (side(&reference, a), side(&hypothesis, b)))
                .collect();
            let theirs: Vec<(String, String)> = expected
                .field("align")
                .array()
                .iter()
                .map(|pair| {
                    (
                        pair.array()[0].str().to_owned(),
                        pair.array()[1].str().to_owned(),
                    )
                })
                .collect();
            assert_eq!(ours, theirs, "{id} {name}: alignment");
            compared += 1;
        }
    }
    assert_eq!(compared, vectors.len() * 4);
}

#[test]
fn json_reader_reads_what_python_writes() {
    let value =
        Reader::parse(r#"{"a": [1, -2.5e-3, 1e+16], "b": "\u00e9\ud83d\ude00\n\"", "c": null}"#);
    assert_eq!(value.field("a").numbers(), [1.0, -2.5e-3, 1e16]);
    assert_eq!(value.field("b").str(), "é😀\n\"");
    assert_eq!(value.field("c"), &Json::Null);
}
