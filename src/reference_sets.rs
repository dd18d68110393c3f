//! Scoring hypotheses against reference *streams*, shared by every metric.
//!
//! `streams[k][i]` is the k-th reference of segment `i`; `None` drops it for that segment
//! (sacrebleu semantics; an empty string is a real, empty reference). Segments that share the
//! same references (many systems on one test set, MBR) are grouped, so each distinct reference
//! set is prepared once per task and every hypothesis of the task is matched against it.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use crate::error::{Error, Result};
use crate::id_table::IdTable;
use crate::parallel;

/// A metric's per-thread state: it prepares one segment's references, then fills the
/// statistics rows of any number of hypotheses against them.
pub trait SegmentScorer {
    /// Prepares the references of segment `index` (named in errors).
    ///
    /// # Errors
    /// Whatever the metric rejects, e.g. a segment without references.
    fn prepare<'a>(
        &mut self,
        references: impl Iterator<Item = &'a str>,
        index: usize,
    ) -> Result<()>;

    /// Fills `row` for `hypothesis` against the prepared references.
    ///
    /// # Errors
    /// Whatever the metric rejects.
    fn score(&mut self, hypothesis: &str, row: &mut [i64]) -> Result<()>;
}

/// The error for a segment none of whose streams holds a reference.
pub fn no_references(index: usize) -> Error {
    Error::invalid_input(format!(
        "segment {index} has no references: every reference stream holds None there"
    ))
}

/// Checks grouped references (`references[i]` lists the references of hypothesis `i`): one
/// list per hypothesis and, where `require_nonempty`, at least one reference in each.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] naming both lengths, or the first empty list.
pub fn check_grouped<T>(
    hypotheses: usize,
    references: &[Vec<T>],
    require_nonempty: bool,
) -> Result<()> {
    if references.len() != hypotheses {
        return Err(Error::invalid_input(format!(
            "hypotheses has {hypotheses} items but references has {}: give one list of \
             references per hypothesis",
            references.len()
        )));
    }
    if require_nonempty {
        if let Some(i) = references.iter().position(Vec::is_empty) {
            return Err(Error::invalid_input(format!(
                "references[{i}] is empty: every hypothesis needs at least one reference"
            )));
        }
    }
    Ok(())
}

/// Checks there is at least one stream and that every stream has one entry per hypothesis.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] naming the first stream of the wrong length.
pub fn check_streams(hypotheses: usize, streams: &[Vec<Option<&str>>]) -> Result<()> {
    if streams.is_empty() {
        return Err(Error::invalid_input("no reference streams were given"));
    }
    for (k, stream) in streams.iter().enumerate() {
        if stream.len() != hypotheses {
            return Err(Error::invalid_input(format!(
                "reference stream {k} has {} segments but there are {hypotheses} hypotheses",
                stream.len(),
            )));
        }
    }
    Ok(())
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

/// Largest number of segments one task matches against a shared reference set, so that a
/// test set scored for many hypotheses (MBR, many systems) still spreads over every thread.
const MAX_SEGMENTS_PER_TASK: usize = 256;

/// Segments grouped by identical references (in every stream), in order of first appearance:
/// `order` lists segment indices group by group and group `g` is
/// `order[starts[g]..starts[g + 1]]`.
pub(crate) struct ReferenceGroups {
    pub(crate) order: Vec<usize>,
    pub(crate) starts: Vec<usize>,
}

pub(crate) fn group_by_references(
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

/// Statistics rows (row-major, `width` columns) for hypotheses against reference streams.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
///   hypotheses, or from the scorer (e.g. a segment without references).
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `workers`.
pub fn score_streams<S, I>(
    hypotheses: &[&str],
    streams: &[Vec<Option<&str>>],
    width: usize,
    workers: i64,
    init: I,
) -> Result<Vec<i64>>
where
    S: SegmentScorer,
    I: Fn() -> S + Sync + Send,
{
    check_streams(hypotheses.len(), streams)?;
    let mut out = vec![0i64; hypotheses.len() * width];
    let refs_of = |i: usize| {
        streams
            .iter()
            .filter_map(move |s| s.get(i).copied().flatten())
    };
    let groups = group_by_references(streams, hypotheses.len(), workers)?;
    if groups.starts.len() > hypotheses.len() {
        // Every reference set is distinct: score row by row.
        parallel::fill_rows(&mut out, width, workers, &init, |scorer, i, row| {
            scorer.prepare(refs_of(i), i)?;
            scorer.score(hypotheses.get(i).copied().unwrap_or(""), row)
        })?;
        return Ok(out);
    }
    // Rows are computed in group order, then put back.
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
    parallel::for_each_mut_init(&mut tasks, workers, &init, |scorer, (members, rows)| {
        let Some(&first) = members.first() else {
            return Ok(());
        };
        scorer.prepare(refs_of(first), first)?;
        for (&i, row) in members.iter().zip(rows.chunks_mut(width.max(1))) {
            scorer.score(hypotheses.get(i).copied().unwrap_or(""), row)?;
        }
        Ok(())
    })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_counts() {
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
    }

    #[test]
    fn groups_follow_every_stream() {
        let refs = ["x", "y", ""];
        let streams = vec![
            (0..700).map(|i| Some(refs[i % 3])).collect::<Vec<_>>(),
            (0..700)
                .map(|i| (i % 5 != 0).then_some(refs[(i + 1) % 3]))
                .collect(),
        ];
        let groups = group_by_references(&streams, 700, 1).unwrap();
        // Both streams follow i % 3, and the second one is dropped or not: 3 x 2 sets.
        assert_eq!(groups.starts.len() - 1, 6);
    }

    /// Row = [segment index, length of the hypothesis, total reference length].
    struct Lengths(usize, i64);

    impl SegmentScorer for Lengths {
        fn prepare<'a>(&mut self, refs: impl Iterator<Item = &'a str>, index: usize) -> Result<()> {
            self.0 = index;
            self.1 = refs.map(|r| r.len() as i64).sum();
            Ok(())
        }
        fn score(&mut self, hypothesis: &str, row: &mut [i64]) -> Result<()> {
            row.copy_from_slice(&[hypothesis.len() as i64, self.1]);
            Ok(())
        }
    }

    #[test]
    fn grouped_rows_come_back_in_segment_order() {
        let hyps: Vec<String> = (0..600).map(|i| "h".repeat(i % 11)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs = ["ab", "abcd", "a"];
        let streams = vec![(0..600).map(|i| Some(refs[i % 3])).collect::<Vec<_>>()];
        for workers in [1, 2, -1] {
            let rows = score_streams(&hyps, &streams, 2, workers, || Lengths(0, 0)).unwrap();
            for (i, row) in rows.chunks(2).enumerate() {
                assert_eq!(row, [(i % 11) as i64, refs[i % 3].len() as i64]);
            }
        }
        let err = score_streams(&hyps, &[vec![None; 3]], 2, 1, || Lengths(0, 0)).unwrap_err();
        assert!(err.message().contains("stream 0 has 3 segments"), "{err}");
    }
}
