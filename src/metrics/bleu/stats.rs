//! Text to BLEU sufficient statistics: one row `[hyp_len, ref_len, correct_1..N, total_1..N]`
//! per segment, exactly as sacrebleu's `BLEU._compute_segment_statistics` builds it.

use super::config::BleuConfig;
use super::ref_length::RefLength;
use crate::count::matcher::NgramMatcher;
use crate::error::to_i64;
use crate::error::Result;
use crate::statistics::{self, Grouped, SegmentScorer, Segments, StatsMetric, Streams};
use crate::tokenize::{Pipeline, TextScratch, Tokenizer};

pub use crate::statistics::Segment;

/// How rows are counted, apart from the scoring [`BleuConfig`]: the text pipeline and the
/// rule for the `ref_len` column. A [`Tokenizer`] or [`Pipeline`] converts into options with
/// sacrebleu's closest-length rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsOptions {
    /// Normalization and tokenizer for text input.
    pub pipeline: Pipeline,
    /// What the `ref_len` column holds.
    pub ref_length: RefLength,
}

impl From<Pipeline> for StatsOptions {
    fn from(pipeline: Pipeline) -> Self {
        Self {
            pipeline,
            ref_length: RefLength::default(),
        }
    }
}

impl From<Tokenizer> for StatsOptions {
    fn from(tokenizer: Tokenizer) -> Self {
        Pipeline::from(tokenizer).into()
    }
}

/// One segment's references, interned, with their lengths.
struct Counter {
    matcher: NgramMatcher,
    ref_lens: Vec<usize>,
}

impl Counter {
    fn new(max_order: usize) -> Self {
        Self {
            matcher: NgramMatcher::new(max_order),
            ref_lens: Vec::with_capacity(4),
        }
    }

    fn begin_segment(&mut self) {
        self.matcher.begin_segment();
        self.ref_lens.clear();
    }

    fn add_reference<'t, T: AsRef<[u8]> + ?Sized + 't>(
        &mut self,
        tokens: impl Iterator<Item = &'t T>,
    ) {
        let len = self.matcher.add_reference(tokens);
        self.ref_lens.push(len);
    }

    /// Fills the statistics row of the hypothesis `tokens` against the added references.
    fn fill_row<'t, T: AsRef<[u8]> + ?Sized + 't>(
        &mut self,
        tokens: impl Iterator<Item = &'t T>,
        ref_length: RefLength,
        row: &mut [i64],
    ) {
        let (head, counts) = row.split_at_mut(2.min(row.len()));
        let (correct, total) = counts.split_at_mut(counts.len() / 2);
        let hyp_len = self.matcher.match_hypothesis(tokens, correct, total);
        let ref_len = ref_length.pick(hyp_len, &self.ref_lens);
        if let [h, r] = head {
            *h = to_i64(hyp_len);
            *r = to_i64(ref_len);
        }
    }
}

/// BLEU's statistics for the driver ([`statistics::rows`]): of text through `options`, or of
/// token sequences counted as given (compared as bytes; only `options.ref_length` applies).
#[derive(Debug, Clone)]
pub struct BleuStats {
    /// The text pipeline and the `ref_len` rule.
    pub options: StatsOptions,
    /// The longest n-gram counted.
    pub max_order: usize,
}

impl BleuStats {
    /// The statistics `config` scores, counted under `options`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for an invalid `config`.
    pub fn new(options: impl Into<StatsOptions>, config: &BleuConfig) -> Result<Self> {
        config.validate()?;
        Ok(Self {
            options: options.into(),
            max_order: config.max_order,
        })
    }
}

/// A segment's state: the interned references, the options, and the text pipeline's buffers
/// (and MeCab tagger) for text.
pub struct BleuScorer {
    counter: Counter,
    options: StatsOptions,
    text: TextScratch,
}

/// Text: tokenized by the pipeline.
impl<'a> SegmentScorer<'a, str> for BleuScorer {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, refs: I) -> Result<()> {
        self.counter.begin_segment();
        for reference in refs {
            let tokens = self.options.pipeline.tokens(reference, &mut self.text)?;
            self.counter.add_reference(tokens);
        }
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        let tokens = self.options.pipeline.tokens(hypothesis, &mut self.text)?;
        self.counter.fill_row(tokens, self.options.ref_length, row);
        Ok(())
    }
}

/// Token sequences: counted as given.
impl<'a, T: AsRef<[u8]> + 'a> SegmentScorer<'a, [T]> for BleuScorer {
    fn prepare<I: Iterator<Item = &'a [T]>>(&mut self, refs: I) -> Result<()> {
        self.counter.begin_segment();
        for reference in refs {
            self.counter.add_reference(reference.iter());
        }
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a [T], row: &mut [i64]) -> Result<()> {
        self.counter
            .fill_row(hypothesis.iter(), self.options.ref_length, row);
        Ok(())
    }
}

/// Text and token sequences alike: the scorer's impls say what an item is.
impl<'a, X: ?Sized + 'a> StatsMetric<'a, X> for BleuStats
where
    BleuScorer: SegmentScorer<'a, X>,
{
    type Scorer = BleuScorer;

    fn width(&self) -> usize {
        2 + 2 * self.max_order
    }

    fn scorer(&self) -> BleuScorer {
        BleuScorer {
            counter: Counter::new(self.max_order),
            options: self.options.clone(),
            text: TextScratch::default(),
        }
    }
}

/// Statistics for hypotheses against reference *streams*: `streams[k][i]` is the k-th
/// reference of segment `i`, and `None` drops it for that segment (sacrebleu semantics; an
/// empty string is a real, empty reference). Returns a row-major `(n, config.width())` matrix.
/// `options` is a [`Tokenizer`], a [`Pipeline`] or [`StatsOptions`] (to pick another
/// [`RefLength`] rule; "first listed" is stream order among a segment's references).
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
///   hypotheses, or a segment has no reference at all.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `config` or `workers`.
pub fn stream_stats(
    hypotheses: &[&str],
    streams: &[Vec<Option<&str>>],
    options: impl Into<StatsOptions>,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let metric = BleuStats::new(options, config)?;
    statistics::rows(&Streams::new(hypotheses, streams), &metric, workers)
}

/// Statistics for hypotheses that each carry their own list of references:
/// `references[i]` are the references of `hypotheses[i]`, as many as it has (in order: the
/// first listed is the first for [`RefLength::ClosestFirst`]). The same rows as
/// [`stream_stats`] on the transposed streams. Returns a row-major `(n, config.width())` matrix.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when `references` and `hypotheses` differ in length or
///   a hypothesis has an empty reference list.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `config` or `workers`.
pub fn grouped_stats(
    hypotheses: &[&str],
    references: &[Vec<&str>],
    options: impl Into<StatsOptions>,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let metric = BleuStats::new(options, config)?;
    statistics::rows(&Grouped::new(hypotheses, references), &metric, workers)
}

/// Like [`grouped_stats`], for already-split tokens counted as given (`&str` or `&[u8]`,
/// compared as bytes): `hypotheses[i]` is a token sequence and `references[i][k]` the k-th
/// reference of hypothesis `i` as a token sequence.
///
/// # Errors
/// As [`grouped_stats`].
pub fn grouped_token_stats<T: AsRef<[u8]> + Sync>(
    hypotheses: &[Vec<T>],
    references: &[Vec<Vec<T>>],
    ref_length: RefLength,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let options = StatsOptions {
        pipeline: Pipeline::from(Tokenizer::None),
        ref_length,
    };
    let metric = BleuStats::new(options, config)?;
    statistics::rows(&Grouped::new(hypotheses, references), &metric, workers)
}

/// How many hypotheses end in `" ."`: sacrebleu warns (unless `force`) when at least 100 do,
/// because such output looks tokenized already.
pub fn count_tokenized_periods(hypotheses: &[&str]) -> usize {
    hypotheses.iter().filter(|h| h.ends_with(" .")).count()
}

/// Statistics for a list of segments, each carrying its own references. Returns a row-major
/// `(segments.len(), config.width())` matrix.
///
/// # Errors
/// As [`stream_stats`].
pub fn segment_stats(
    segments: &[Segment<'_>],
    options: impl Into<StatsOptions>,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let metric = BleuStats::new(options, config)?;
    statistics::rows(&Segments(segments), &metric, workers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus whose segments share reference sets: `n` hypotheses `hypothesis(i)`, and three
    /// streams drawn in turn from `pool`, the second dropping its reference at every fifth
    /// segment and the third keeping one at every third; also each segment's references as a
    /// list.
    struct Sharing {
        hypotheses: Vec<String>,
        streams: Vec<Vec<Option<&'static str>>>,
    }

    impl Sharing {
        fn new(n: usize, hypothesis: impl Fn(usize) -> String, pool: &[&'static str]) -> Self {
            let k = pool.len();
            let streams = vec![
                (0..n).map(|i| Some(pool[i % k])).collect(),
                (0..n)
                    .map(|i| (i % 5 != 0).then_some(pool[(i + 1) % k]))
                    .collect(),
                (0..n)
                    .map(|i| (i % 3 == 0).then_some(pool[(i + 2) % k]))
                    .collect(),
            ];
            Self {
                hypotheses: (0..n).map(hypothesis).collect(),
                streams,
            }
        }

        fn hypotheses(&self) -> Vec<&str> {
            self.hypotheses.iter().map(String::as_str).collect()
        }

        fn grouped(&self) -> Vec<Vec<&'static str>> {
            let segments = 0..self.hypotheses.len();
            segments
                .map(|i| self.streams.iter().filter_map(|s| s[i]).collect())
                .collect()
        }
    }

    fn options(tokenizer: Tokenizer, ref_length: &str) -> StatsOptions {
        StatsOptions {
            pipeline: tokenizer.into(),
            ref_length: RefLength::from_name(ref_length).unwrap(),
        }
    }

    #[test]
    fn ref_length_rules_on_rows() {
        let config = BleuConfig::default();
        // hyp_len 12; references of 13 and 11 tokens, in both orders.
        let hyp = "a b c d e f g h i j k l";
        let (r13, r11) = ("a b c d e f g h i j k l m", "a b c d e f g h i j k");
        let expected = [
            ("closest", [11, 11]),
            ("closest-first", [13, 11]),
            ("shortest", [11, 11]),
            ("average", [24, 24]),
        ];
        for (rule, ref_lens) in expected {
            let streams = vec![vec![Some(r13), Some(r11)], vec![Some(r11), Some(r13)]];
            let rows = stream_stats(
                &[hyp, hyp],
                &streams,
                options(Tokenizer::None, rule),
                &config,
                1,
            )
            .unwrap();
            assert_eq!([rows[1], rows[11]], ref_lens, "{rule}");
            let grouped = grouped_stats(
                &[hyp, hyp],
                &[vec![r13, r11], vec![r11, r13]],
                options(Tokenizer::None, rule),
                &config,
                1,
            )
            .unwrap();
            assert_eq!(grouped, rows, "{rule}");
        }
        // "First listed" among the streams that hold a reference for the segment.
        let streams = vec![vec![None], vec![Some(r13)], vec![Some(r11)]];
        let rows = stream_stats(
            &[hyp],
            &streams,
            options(Tokenizer::None, "closest-first"),
            &config,
            1,
        )
        .unwrap();
        assert_eq!(rows[1], 13);
        // The default keeps sacrebleu's rule.
        let rows = stream_stats(&[hyp], &streams, Tokenizer::None, &config, 1).unwrap();
        assert_eq!(rows[1], 11);
    }

    #[test]
    fn grouped_rows_equal_stream_rows() {
        let config = BleuConfig::default();
        let pool = [
            "The cat is on the mat.",
            "A dog barked 2 times!",
            "",
            "the cat sat on a mat barked 1",
        ];
        let corpus = Sharing::new(
            300,
            |i| format!("The cat {} sat on a mat, barked {}.", i % 7, i % 3),
            &pool,
        );
        let (hyps, refs, streams) = (corpus.hypotheses(), corpus.grouped(), &corpus.streams);
        for tokenizer in Tokenizer::NAMES {
            let tokenizer = Tokenizer::from_name(tokenizer).unwrap();
            for rule in RefLength::NAMES {
                let opts = options(tokenizer.clone(), rule);
                for workers in [1, 2] {
                    let grouped =
                        grouped_stats(&hyps, &refs, opts.clone(), &config, workers).unwrap();
                    let streamed =
                        stream_stats(&hyps, streams, opts.clone(), &config, workers).unwrap();
                    assert_eq!(grouped, streamed, "{tokenizer:?} {rule}");
                }
            }
        }
        // Tokens as given: the `none` split of the same text gives the same rows.
        fn split(s: &str) -> Vec<&[u8]> {
            s.split_whitespace().map(str::as_bytes).collect()
        }
        let hyp_tokens: Vec<Vec<&[u8]>> = hyps.iter().map(|h| split(h)).collect();
        let ref_tokens: Vec<Vec<Vec<&[u8]>>> = refs
            .iter()
            .map(|r| r.iter().map(|t| split(t)).collect())
            .collect();
        for rule in RefLength::NAMES {
            let rule = RefLength::from_name(rule).unwrap();
            let tokens = grouped_token_stats(&hyp_tokens, &ref_tokens, rule, &config, 2).unwrap();
            let text = grouped_stats(
                &hyps,
                &refs,
                StatsOptions {
                    pipeline: Tokenizer::None.into(),
                    ref_length: rule,
                },
                &config,
                1,
            )
            .unwrap();
            assert_eq!(tokens, text);
        }
    }

    #[test]
    fn tokens_with_spaces_are_single_tokens() {
        let config = BleuConfig {
            max_order: 2,
            ..BleuConfig::default()
        };
        let hyps = vec![vec!["a", "b"]];
        let refs = vec![vec![vec!["a b"]]];
        let rows = grouped_token_stats(&hyps, &refs, RefLength::Closest, &config, 1).unwrap();
        assert_eq!(rows, [2, 1, 0, 0, 2, 1]);
    }

    #[test]
    fn grouped_errors_name_the_problem() {
        let config = BleuConfig::default();
        let err =
            grouped_stats(&["a", "b"], &[vec!["a"]], Tokenizer::None, &config, 1).unwrap_err();
        assert!(
            err.message()
                .starts_with("hypotheses has 2 items but references has 1"),
            "{err}"
        );
        let err = grouped_stats(
            &["a", "b", "c"],
            &[vec!["a"], vec!["b"], vec![]],
            Tokenizer::None,
            &config,
            1,
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "references[2] is empty: every hypothesis needs at least one reference"
        );
        let hyps: Vec<Vec<&str>> = vec![vec![]];
        let refs: Vec<Vec<Vec<&str>>> = vec![vec![]];
        assert!(grouped_token_stats(&hyps, &refs, RefLength::Closest, &config, 1).is_err());
    }

    #[test]
    fn new_splitters_in_rows() {
        let config = BleuConfig {
            max_order: 1,
            ..BleuConfig::default()
        };
        // (tokenizer, hypothesis, reference, row)
        let cases = [
            // `a\u{a0}b` and `d\u{a0}` are words of their own: only `c` matches.
            (
                Tokenizer::SplitAscii,
                "a\u{a0}b c d\u{a0}",
                "a b c d",
                [3, 4, 1, 3],
            ),
            (
                Tokenizer::StripPunct,
                "Look! what a wonderful day, today.",
                "look what a day today",
                [6, 5, 4, 6],
            ),
        ];
        for (tokenizer, hypothesis, reference, row) in cases {
            let refs = [vec![reference]];
            let rows = grouped_stats(&[hypothesis], &refs, tokenizer, &config, 1).unwrap();
            assert_eq!(rows, row, "{hypothesis:?}");
        }
    }

    #[test]
    fn rows_for_streams_with_none_and_empty() {
        let config = BleuConfig::default();
        let hyps = ["the cat sat on the mat", "a b"];
        let streams = vec![
            vec![Some("the cat is on the mat"), None],
            vec![Some("there is a cat on the mat"), Some("")],
        ];
        let rows = stream_stats(&hyps, &streams, Tokenizer::None, &config, 1).unwrap();
        assert_eq!(&rows[..10], &[6, 6, 5, 3, 1, 0, 6, 5, 4, 3]);
        assert_eq!(&rows[10..], &[2, 0, 0, 0, 0, 0, 2, 1, 0, 0]);
    }

    #[test]
    fn shared_references_give_the_same_rows_as_scoring_each_segment() {
        let config = BleuConfig::default();
        let pool = ["the cat is on the mat", "a dog barked .", ""];
        let corpus = Sharing::new(
            700,
            |i| format!("the cat {} on a mat barked {}", i % 7, i % 3),
            &pool,
        );
        let (hyps, streams) = (corpus.hypotheses(), &corpus.streams);
        let segments: Vec<Segment> = (hyps.iter().zip(corpus.grouped()))
            .map(|(hypothesis, references)| Segment {
                hypothesis,
                references,
            })
            .collect();
        for workers in [1, 2, -1] {
            let grouped = stream_stats(&hyps, streams, Tokenizer::V13a, &config, workers).unwrap();
            let single = segment_stats(&segments, Tokenizer::V13a, &config, workers).unwrap();
            assert_eq!(grouped, single);
        }
    }

    #[test]
    fn the_first_segment_without_references_is_named() {
        let config = BleuConfig::default();
        let hyps = ["a", "b", "c", "d"];
        let streams = vec![vec![Some("a"), None, Some("c"), None]];
        let err = stream_stats(&hyps, &streams, Tokenizer::None, &config, 1).unwrap_err();
        assert!(
            err.message().starts_with("segment 1 has no references"),
            "{err}"
        );
    }

    #[test]
    fn tokenized_periods() {
        assert_eq!(count_tokenized_periods(&["a b .", "a b.", " .", "."]), 2);
    }

    #[test]
    fn errors_name_the_problem() {
        let config = BleuConfig::default();
        let err = stream_stats(
            &["a"],
            &[vec![Some("a"), Some("b")]],
            Tokenizer::None,
            &config,
            1,
        )
        .unwrap_err();
        assert!(
            err.message()
                .contains("stream 0 has 2 segments but there are 1"),
            "{err}"
        );
        let err = stream_stats(&["a"], &[vec![None]], Tokenizer::None, &config, 1).unwrap_err();
        assert!(
            err.message().contains("segment 0 has no references"),
            "{err}"
        );
    }

    /// MeCab inside the pipeline, on the driver's threads, counts what the Python path
    /// counted: the lines normalized, tokenized by MeCab (`tokenize_batch`, the
    /// `MecabTagger.tokenize` binding), then counted with the `none` tokenizer.
    #[test]
    fn mecab_in_the_pipeline_counts_what_tokenizing_first_counts() {
        use crate::text::normalize::Normalization;
        use std::sync::Arc;
        let Some(model) = crate::tokenize::mecab::testing::ipadic() else {
            return;
        };
        let model = Arc::new(model);
        let config = BleuConfig::default();
        let pool = [
            "猫はマットの上に座った。",
            "犬が２匹\u{3000}吠えた。",
            "",
            "ＡＢＣ１",
        ];
        let corpus = Sharing::new(
            400,
            |i| format!(" 猫が{}匹、マットの上に\t座った。ＡＢＣ{} ", i % 7, i % 3),
            &pool,
        );
        let (hyps, streams) = (corpus.hypotheses(), &corpus.streams);
        for normalization in [None, Some(Normalization::Nfkc)] {
            let through_mecab = |lines: &[&str]| -> Vec<String> {
                let normalized: Vec<String> = lines
                    .iter()
                    .map(|l| {
                        normalization.map_or((*l).to_owned(), |n| n.apply(l).unwrap().into_owned())
                    })
                    .collect();
                let normalized: Vec<&str> = normalized.iter().map(String::as_str).collect();
                model.tokenize_batch(&normalized, 1).unwrap()
            };
            let hyp_tokens = through_mecab(&hyps);
            let hyp_tokens: Vec<&str> = hyp_tokens.iter().map(String::as_str).collect();
            let ref_tokens: Vec<Vec<String>> = streams
                .iter()
                .map(|stream| {
                    let present: Vec<&str> = stream.iter().map(|r| r.unwrap_or("")).collect();
                    through_mecab(&present)
                })
                .collect();
            let token_streams: Vec<Vec<Option<&str>>> = streams
                .iter()
                .zip(&ref_tokens)
                .map(|(stream, tokens)| {
                    let pairs = stream.iter().zip(tokens);
                    pairs.map(|(r, t)| r.map(|_| t.as_str())).collect()
                })
                .collect();
            let expected =
                stream_stats(&hyp_tokens, &token_streams, Tokenizer::None, &config, 1).unwrap();
            let pipeline = Pipeline::mecab(normalization, Arc::clone(&model));
            for workers in [1, 2, -1] {
                let options = StatsOptions::from(pipeline.clone());
                let rows = stream_stats(&hyps, streams, options, &config, workers).unwrap();
                assert_eq!(rows, expected, "{normalization:?} workers={workers}");
            }
            let grouped = corpus.grouped();
            let rows = grouped_stats(&hyps, &grouped, pipeline.clone(), &config, 2).unwrap();
            assert_eq!(rows, expected, "{normalization:?} grouped");
        }
    }
}
