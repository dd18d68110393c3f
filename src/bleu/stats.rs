//! Text to BLEU sufficient statistics: one row `[hyp_len, ref_len, correct_1..N, total_1..N]`
//! per segment, exactly as sacrebleu's `BLEU._compute_segment_statistics` builds it.

use super::config::BleuConfig;
use crate::error::{Error, Result};
use crate::ngram::NgramMatcher;
use crate::parallel;
use crate::text::{py_rstrip, py_split, split_joined, JoinedSplit, PySplit};
use crate::tokenize::Tokenizer;

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
    ref_lens: Vec<usize>,
}

impl Scratch {
    fn new(max_order: usize) -> Self {
        Self {
            matcher: NgramMatcher::new(max_order),
            tokenized: String::with_capacity(512),
            ref_lens: Vec::with_capacity(4),
        }
    }
}

/// The words BLEU counts: `tokenizer(line).split()`.
enum Words<'a> {
    /// Python's whitespace split (raw text, or `char` output, which keeps whitespace tokens).
    Python(PySplit<'a>),
    /// `13a` and `intl` output is already `' '.join(words)`: a plain split on `' '` suffices.
    Joined(JoinedSplit<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Self::Python(it) => it.next(),
            Self::Joined(it) => it.next(),
        }
    }
}

/// Tokenizes `line` into `buffer` (unless the tokenizer is the identity) and splits it.
fn words<'a>(tokenizer: Tokenizer, line: &'a str, buffer: &'a mut String) -> Words<'a> {
    match tokenizer {
        Tokenizer::None => Words::Python(py_split(line)),
        Tokenizer::Char => {
            tokenizer.tokenize_into(line, buffer);
            Words::Python(py_split(buffer))
        }
        Tokenizer::V13a | Tokenizer::Intl => {
            tokenizer.tokenize_into(line, buffer);
            Words::Joined(split_joined(buffer))
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

/// Fills one statistics row. `refs` yields the segment's references; `index` names the
/// segment in errors.
fn fill_row<'a>(
    scratch: &mut Scratch,
    tokenizer: Tokenizer,
    hypothesis: &str,
    refs: impl Iterator<Item = &'a str>,
    index: usize,
    row: &mut [i64],
) -> Result<()> {
    let Scratch {
        matcher,
        tokenized,
        ref_lens,
    } = scratch;
    matcher.begin_segment();
    ref_lens.clear();
    for reference in refs {
        let line = py_rstrip(reference);
        ref_lens.push(matcher.add_reference(words(tokenizer, line, tokenized)));
    }
    if ref_lens.is_empty() {
        return Err(Error::invalid_input(format!(
            "segment {index} has no references: every reference stream holds None there"
        )));
    }
    let (head, counts) = row.split_at_mut(2);
    let (correct, total) = counts.split_at_mut(counts.len() / 2);
    let line = py_rstrip(hypothesis);
    let hyp_len = matcher.match_hypothesis(words(tokenizer, line, tokenized), correct, total);
    let ref_len = ref_lens
        .iter()
        .fold(None, |best, &len| Some(closest_ref_len(hyp_len, len, best)))
        .unwrap_or(0);
    if let [h, r] = head {
        *h = to_i64(hyp_len);
        *r = to_i64(ref_len);
    }
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
    tokenizer: Tokenizer,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
    config.validate()?;
    if streams.is_empty() {
        return Err(Error::invalid_input("no reference streams were given"));
    }
    for (k, stream) in streams.iter().enumerate() {
        if stream.len() != hypotheses.len() {
            return Err(Error::invalid_input(format!(
                "reference stream {k} has {} segments but there are {} hypotheses",
                stream.len(),
                hypotheses.len()
            )));
        }
    }
    let width = config.width();
    let mut out = vec![0i64; hypotheses.len() * width];
    parallel::fill_rows(
        &mut out,
        width,
        workers,
        || Scratch::new(config.max_order),
        |scratch, i, row| {
            let hypothesis = hypotheses.get(i).copied().unwrap_or("");
            let refs = streams.iter().filter_map(|s| s.get(i).copied().flatten());
            fill_row(scratch, tokenizer, hypothesis, refs, i, row)
        },
    )?;
    Ok(out)
}

/// sacrebleu's `num_refs`: the number of references every segment has, or `None` when it
/// varies (a `None` entry drops a reference for one segment).
pub fn references_per_segment(streams: &[Vec<Option<&str>>]) -> Option<usize> {
    let segments = streams.first().map_or(0, Vec::len);
    let count = |i: usize| {
        streams
            .iter()
            .filter(|s| matches!(s.get(i), Some(Some(_))))
            .count()
    };
    if segments == 0 {
        return Some(streams.len());
    }
    let first = count(0);
    (1..segments).all(|i| count(i) == first).then_some(first)
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
    tokenizer: Tokenizer,
    config: &BleuConfig,
    workers: i64,
) -> Result<Vec<i64>> {
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
                tokenizer,
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
    fn reference_counts_and_tokenized_periods() {
        assert_eq!(
            references_per_segment(&[vec![Some("a"), Some("b")], vec![Some(""), Some("c")]]),
            Some(2)
        );
        assert_eq!(
            references_per_segment(&[vec![Some("a"), Some("b")], vec![None, Some("c")]]),
            None
        );
        assert_eq!(
            references_per_segment(&[vec![None, None], vec![Some("a"), Some("b")]]),
            Some(1)
        );
        assert_eq!(references_per_segment(&[vec![], vec![]]), Some(2));
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
