//! Text to BLEU sufficient statistics: one row `[hyp_len, ref_len, correct_1..N, total_1..N]`
//! per segment, exactly as sacrebleu's `BLEU._compute_segment_statistics` builds it.

use super::config::BleuConfig;
use crate::error::Result;
use crate::ngram::NgramMatcher;
use crate::parallel;
use crate::reference_sets::{self, SegmentScorer};
use crate::text::{char_words, py_rstrip, py_split, split_joined, CharWords, JoinedSplit, PySplit};
use crate::tokenize::{Pipeline, Tokenizer};

/// One hypothesis with its references.
#[derive(Debug, Clone)]
pub struct Segment<'a> {
    /// The system output.
    pub hypothesis: &'a str,
    /// Its references (at least one).
    pub references: Vec<&'a str>,
}

/// Per-thread buffers reused across segments.
struct Scratch {
    matcher: NgramMatcher,
    tokenized: String,
    normalized: String,
    ref_lens: Vec<usize>,
}

impl Scratch {
    fn new(max_order: usize) -> Self {
        Self {
            matcher: NgramMatcher::new(max_order),
            tokenized: String::with_capacity(512),
            normalized: String::new(),
            ref_lens: Vec::with_capacity(4),
        }
    }
}

/// The words BLEU counts: `tokenizer(line).split()`.
enum Words<'a> {
    /// Python's whitespace split of raw text (`none`).
    Python(PySplit<'a>),
    /// `char`: every non-whitespace character, read straight from the line.
    Chars(CharWords<'a>),
    /// `13a`, `intl` and `zh` output is already `' '.join(words)`: a plain split on `' '` suffices.
    Joined(JoinedSplit<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Self::Python(it) => it.next(),
            Self::Chars(it) => it.next(),
            Self::Joined(it) => it.next(),
        }
    }
}

/// Normalizes `line` if asked (into `normalized`), then tokenizes it into `tokenized` (unless
/// the tokenizer is the identity) and splits it: sacrebleu's `tokenizer(line.rstrip()).split()`.
fn words<'a>(
    pipeline: Pipeline,
    line: &'a str,
    normalized: &'a mut String,
    tokenized: &'a mut String,
) -> Words<'a> {
    let line = py_rstrip(pipeline.normalize(line, normalized));
    let tokenizer = pipeline.tokenizer;
    match tokenizer {
        Tokenizer::None => Words::Python(py_split(line)),
        Tokenizer::Char => Words::Chars(char_words(line)),
        Tokenizer::V13a | Tokenizer::Intl | Tokenizer::Zh => {
            tokenizer.tokenize_into(line, tokenized);
            Words::Joined(split_joined(tokenized))
        }
    }
}

/// sacrebleu's `_get_closest_ref_len`: the reference length closest to `hyp_len`, the shorter
/// one on ties.
fn closest_ref_len(hyp_len: usize, ref_len: usize, best: Option<usize>) -> usize {
    match best {
        None => ref_len,
        Some(b) => {
            let (d, db) = (hyp_len.abs_diff(ref_len), hyp_len.abs_diff(b));
            if d < db || (d == db && ref_len < b) {
                ref_len
            } else {
                b
            }
        }
    }
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Scratch {
    /// Tokenizes and interns one segment's references; `index` names the segment in errors.
    fn prepare_references<'a>(
        &mut self,
        pipeline: Pipeline,
        refs: impl Iterator<Item = &'a str>,
        index: usize,
    ) -> Result<()> {
        self.matcher.begin_segment();
        self.ref_lens.clear();
        for reference in refs {
            let words = words(
                pipeline,
                reference,
                &mut self.normalized,
                &mut self.tokenized,
            );
            self.ref_lens.push(self.matcher.add_reference(words));
        }
        if self.ref_lens.is_empty() {
            return Err(reference_sets::no_references(index));
        }
        Ok(())
    }

    /// Fills the statistics row of `hypothesis` against the prepared references.
    fn match_row(&mut self, pipeline: Pipeline, hypothesis: &str, row: &mut [i64]) {
        let (head, counts) = row.split_at_mut(2);
        let (correct, total) = counts.split_at_mut(counts.len() / 2);
        let words = words(
            pipeline,
            hypothesis,
            &mut self.normalized,
            &mut self.tokenized,
        );
        let hyp_len = self.matcher.match_hypothesis(words, correct, total);
        let ref_len = self
            .ref_lens
            .iter()
            .fold(None, |best, &len| Some(closest_ref_len(hyp_len, len, best)))
            .unwrap_or(0);
        if let [h, r] = head {
            *h = to_i64(hyp_len);
            *r = to_i64(ref_len);
        }
    }
}

/// Fills one statistics row from scratch.
fn fill_row<'a>(
    scratch: &mut Scratch,
    pipeline: Pipeline,
    hypothesis: &str,
    refs: impl Iterator<Item = &'a str>,
    index: usize,
    row: &mut [i64],
) -> Result<()> {
    scratch.prepare_references(pipeline, refs, index)?;
    scratch.match_row(pipeline, hypothesis, row);
    Ok(())
}

/// Statistics for hypotheses against reference *streams*: `streams[k][i]` is the k-th
/// reference of segment `i`, and `None` drops it for that segment (sacrebleu semantics; an
/// empty string is a real, empty reference). Returns a row-major `(n, config.width())` matrix.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
///   hypotheses, or a segment has no reference at all.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `config` or `workers`.
pub fn stream_stats(
    hypotheses: &[&str],
    streams: &[Vec<Option<&str>>],
    pipeline: impl Into<Pipeline>,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let pipeline = pipeline.into();
    config.validate()?;
    reference_sets::score_streams(hypotheses, streams, config.width(), workers, || {
        BleuScorer {
            scratch: Scratch::new(config.max_order),
            pipeline,
        }
    })
}

/// [`Scratch`] with its pipeline, for [`reference_sets::score_streams`].
struct BleuScorer {
    scratch: Scratch,
    pipeline: Pipeline,
}

impl SegmentScorer for BleuScorer {
    fn prepare<'a>(&mut self, refs: impl Iterator<Item = &'a str>, index: usize) -> Result<()> {
        self.scratch.prepare_references(self.pipeline, refs, index)
    }

    fn score(&mut self, hypothesis: &str, row: &mut [i64]) -> Result<()> {
        self.scratch.match_row(self.pipeline, hypothesis, row);
        Ok(())
    }
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
    pipeline: impl Into<Pipeline>,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    let pipeline = pipeline.into();
    config.validate()?;
    let width = config.width();
    let mut out = vec![0i64; segments.len() * width];
    parallel::fill_rows(
        &mut out,
        width,
        workers,
        || Scratch::new(config.max_order),
        |scratch, i, row| match segments.get(i) {
            Some(s) => fill_row(
                scratch,
                pipeline,
                s.hypothesis,
                s.references.iter().copied(),
                i,
                row,
            ),
            None => Ok(()),
        },
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_length_prefers_shorter_on_ties() {
        let pick = |hyp, refs: &[usize]| {
            refs.iter()
                .fold(None, |b, &r| Some(closest_ref_len(hyp, r, b)))
                .unwrap()
        };
        assert_eq!(pick(5, &[4, 6]), 4);
        assert_eq!(pick(5, &[6, 4]), 4);
        assert_eq!(pick(5, &[7, 6, 3]), 6);
        assert_eq!(pick(0, &[0, 3]), 0);
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
        let refs = ["the cat is on the mat", "a dog barked .", ""];
        let hyps_text: Vec<String> = (0..700)
            .map(|i| format!("the cat {} on a mat barked {}", i % 7, i % 3))
            .collect();
        let hyps: Vec<&str> = hyps_text.iter().map(String::as_str).collect();
        // Two streams; the second drops its reference for every fifth segment.
        let streams = vec![
            hyps.iter()
                .enumerate()
                .map(|(i, _)| Some(refs[i % 3]))
                .collect::<Vec<_>>(),
            hyps.iter()
                .enumerate()
                .map(|(i, _)| (i % 5 != 0).then_some(refs[(i + 1) % 3]))
                .collect(),
        ];
        let segments: Vec<Segment> = (0..hyps.len())
            .map(|i| Segment {
                hypothesis: hyps[i],
                references: streams.iter().filter_map(|s| s[i]).collect(),
            })
            .collect();
        for workers in [1, 2, -1] {
            let grouped = stream_stats(&hyps, &streams, Tokenizer::V13a, &config, workers).unwrap();
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
}
