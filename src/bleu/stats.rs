//! Text to BLEU sufficient statistics: one row `[hyp_len, ref_len, correct_1..N, total_1..N]`
//! per segment, exactly as sacrebleu's `BLEU._compute_segment_statistics` builds it.

use super::config::BleuConfig;
use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::error::{Error, Result};
use crate::id_table::IdTable;
use crate::ngram::NgramMatcher;
use crate::parallel;
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
            return Err(Error::invalid_input(format!(
                "segment {index} has no references: every reference stream holds None there"
            )));
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

/// Largest number of segments one task matches against a shared reference set, so that a
/// test set scored for many hypotheses (MBR, many systems) still spreads over every thread.
const MAX_SEGMENTS_PER_TASK: usize = 256;

/// Segments grouped by identical references (in every stream), in order of first appearance:
/// `order` lists segment indices group by group and group `g` is
/// `order[starts[g]..starts[g + 1]]`.
struct ReferenceGroups {
    order: Vec<usize>,
    starts: Vec<usize>,
}

fn group_by_references(
    streams: &[Vec<Option<&str>>],
    segments: usize,
    workers: i64,
) -> Result<ReferenceGroups> {
    let refs_of = |i: usize| streams.iter().map(move |s| s.get(i).copied().flatten());
    let hashes = parallel::map_range(segments, workers, |i| {
        let mut h = FxHasher::default();
        for reference in refs_of(i) {
            match reference {
                None => h.write_u8(0),
                Some(text) => {
                    h.write_u8(1);
                    h.write(text.as_bytes());
                    h.write_usize(text.len());
                }
            }
        }
        h.finish()
    })?;
    let mut table = IdTable::default();
    let mut first_member: Vec<usize> = Vec::new();
    let mut group_of = Vec::with_capacity(segments);
    for (i, &hash) in hashes.iter().enumerate() {
        let fresh = u32::try_from(first_member.len()).unwrap_or(u32::MAX);
        let group = table.find_or_insert(
            hash,
            |g| {
                first_member
                    .get(g as usize)
                    .is_some_and(|&j| refs_of(j).eq(refs_of(i)))
            },
            || fresh,
        );
        if group == fresh {
            first_member.push(i);
        }
        group_of.push(group as usize);
    }
    // Counting sort of the segments by group.
    let mut starts = vec![0usize; first_member.len() + 1];
    for &g in &group_of {
        if let Some(c) = starts.get_mut(g + 1) {
            *c += 1;
        }
    }
    for g in 1..starts.len() {
        let previous = starts.get(g - 1).copied().unwrap_or(0);
        if let Some(c) = starts.get_mut(g) {
            *c += previous;
        }
    }
    let mut next = starts.clone();
    let mut order = vec![0usize; segments];
    for (i, &g) in group_of.iter().enumerate() {
        if let Some(slot) = next.get_mut(g) {
            if let Some(o) = order.get_mut(*slot) {
                *o = i;
            }
            *slot += 1;
        }
    }
    Ok(ReferenceGroups { order, starts })
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
    let refs_of = |i: usize| {
        streams
            .iter()
            .filter_map(move |s| s.get(i).copied().flatten())
    };
    let groups = group_by_references(streams, hypotheses.len(), workers)?;
    if groups.starts.len() > hypotheses.len() {
        // Every reference set is distinct: score row by row.
        parallel::fill_rows(
            &mut out,
            width,
            workers,
            || Scratch::new(config.max_order),
            |scratch, i, row| {
                let hypothesis = hypotheses.get(i).copied().unwrap_or("");
                fill_row(scratch, pipeline, hypothesis, refs_of(i), i, row)
            },
        )?;
        return Ok(out);
    }
    // Shared reference sets are tokenized and interned once per task, then every hypothesis
    // of the task is matched against them. Rows are computed in group order, then put back.
    let mut tasks: Vec<(&[usize], &mut [i64])> = Vec::new();
    let mut grouped = vec![0i64; out.len()];
    let mut rest = grouped.as_mut_slice();
    for bounds in groups.starts.windows(2) {
        let (start, end) = match bounds {
            [start, end] => (*start, *end),
            _ => continue,
        };
        let members = groups.order.get(start..end).unwrap_or_default();
        for chunk in members.chunks(MAX_SEGMENTS_PER_TASK) {
            let (rows, tail) = std::mem::take(&mut rest).split_at_mut(chunk.len() * width);
            rest = tail;
            tasks.push((chunk, rows));
        }
    }
    parallel::for_each_mut_init(
        &mut tasks,
        workers,
        || Scratch::new(config.max_order),
        |scratch, (members, rows)| {
            let Some(&first) = members.first() else {
                return Ok(());
            };
            scratch.prepare_references(pipeline, refs_of(first), first)?;
            for (&i, row) in members.iter().zip(rows.chunks_mut(width)) {
                let hypothesis = hypotheses.get(i).copied().unwrap_or("");
                scratch.match_row(pipeline, hypothesis, row);
            }
            Ok(())
        },
    )?;
    // Put the rows back in segment order: row i was computed at position[i].
    let mut position = vec![0usize; hypotheses.len()];
    for (k, &i) in groups.order.iter().enumerate() {
        if let Some(p) = position.get_mut(i) {
            *p = k;
        }
    }
    parallel::fill_rows(
        &mut out,
        width,
        workers,
        || (),
        |(), i, row| {
            let k = position.get(i).copied().unwrap_or(0);
            if let Some(computed) = grouped.get(k * width..(k + 1) * width) {
                row.copy_from_slice(computed);
            }
            Ok(())
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
        let groups = group_by_references(&streams, hyps.len(), 1).unwrap();
        // Both streams follow i % 3, and the second one is dropped or not: 3 x 2 sets.
        assert_eq!(groups.starts.len() - 1, 6);
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
