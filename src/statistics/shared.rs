//! Segments that share their references: grouped so the driver prepares each distinct
//! reference set once per task (many systems scored on one test set, MBR), and the per-segment
//! reference count sacrebleu reports.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use super::PREFETCH_DISTANCE;
use crate::count::id_table::IdTable;
use crate::error::{Error, Result};
use crate::parallel;

/// The error for a segment none of whose streams holds a reference.
pub fn no_references(index: usize) -> Error {
    Error::invalid_input(format!(
        "segment {index} has no references: every reference stream holds None there"
    ))
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

/// A task of the driver: the segments it scores (sharing one reference set) and their rows.
pub type Task<'t> = (&'t [usize], &'t mut [i64]);

/// Segments grouped by identical references, in order of first appearance: `order` lists
/// segment indices group by group and group `g` is `order[starts[g]..starts[g + 1]]`.
#[derive(Debug)]
pub struct ReferenceGroups {
    order: Vec<usize>,
    starts: Vec<usize>,
}

impl ReferenceGroups {
    /// Groups `segments` segments by the references `references_of(i)` yields, or `None` when
    /// every segment's set is distinct (nothing to share).
    ///
    /// # Errors
    /// As [`parallel::resolve_workers`], or [`crate::ErrorKind::Interrupted`].
    pub fn find<'r, R, F>(segments: usize, workers: i64, references_of: F) -> Result<Option<Self>>
    where
        R: Iterator<Item = Option<&'r str>>,
        F: Fn(usize) -> R + Sync,
    {
        if segments < 2 {
            return Ok(None); // nothing to share (and one sentence pays nothing for grouping)
        }
        let hashes = parallel::map_range(segments, workers, |i| {
            // The texts lie apart in memory: fetch a later segment's meanwhile.
            if i + PREFETCH_DISTANCE < segments {
                references_of(i + PREFETCH_DISTANCE)
                    .flatten()
                    .for_each(super::prefetch);
            }
            let mut h = FxHasher::default();
            for reference in references_of(i) {
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
        Self::from_hashes(&hashes, workers, references_of)
    }

    /// [`ReferenceGroups::find`] given each segment's hash of its references.
    fn from_hashes<'r, R, F>(hashes: &[u64], workers: i64, references_of: F) -> Result<Option<Self>>
    where
        R: Iterator<Item = Option<&'r str>>,
        F: Fn(usize) -> R + Sync,
    {
        let segments = hashes.len();
        // Grouped by hash on one thread (a table of hashes, which stays in cache), then every
        // segment checked against its group's first on all of them: the texts are read in
        // parallel. Two different sets with one 64-bit hash fail the check, and the sets are
        // grouped again, each compared with the text as it is inserted.
        let (mut first_member, mut group_of) = group_by(hashes, |_, _| true)?;
        let checks = parallel::map_range(segments, workers, |i| {
            if i + PREFETCH_DISTANCE < segments {
                references_of(i + PREFETCH_DISTANCE)
                    .flatten()
                    .for_each(super::prefetch);
            }
            let first = group_of.get(i).and_then(|&g| first_member.get(g)).copied();
            first.is_some_and(|j| j == i || references_of(j).eq(references_of(i)))
        })?;
        if checks.contains(&false) {
            (first_member, group_of) =
                group_by(hashes, |j, i| references_of(j).eq(references_of(i)))?;
        }
        if first_member.len() == segments {
            return Ok(None);
        }
        // Counting sort of the segments by group: `starts[g + 1]` counts group g's members,
        // then the running sum turns counts into starts.
        let mut starts = vec![0usize; first_member.len() + 1];
        for &g in &group_of {
            let count = starts.get_mut(g + 1).ok_or_else(|| bad_group(g))?;
            *count += 1;
        }
        let mut running = 0;
        for start in &mut starts {
            running += *start;
            *start = running;
        }
        let mut next = starts.clone();
        let mut order = vec![0usize; segments];
        for (i, &g) in group_of.iter().enumerate() {
            let slot = next.get_mut(g).ok_or_else(|| bad_group(g))?;
            *order.get_mut(*slot).ok_or_else(|| bad_group(g))? = i;
            *slot += 1;
        }
        Ok(Some(Self { order, starts }))
    }

    /// Number of distinct reference sets.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when there is no segment.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `out` (segment order, `width` columns): `run` computes the rows of every task
    /// (each a run of one group's segments), then they are put back in segment order.
    ///
    /// # Errors
    /// Whatever `run` returns, or as [`parallel::fill_rows`].
    pub fn fill_rows<F>(&self, out: &mut [i64], width: usize, workers: i64, run: F) -> Result<()>
    where
        F: FnOnce(&mut [Task<'_>]) -> Result<()>,
    {
        let mut grouped = vec![0i64; out.len()];
        let mut tasks: Vec<Task<'_>> = Vec::new();
        let mut rest = grouped.as_mut_slice();
        for bounds in self.starts.windows(2) {
            let &[start, end] = bounds else { continue };
            let members = self.order.get(start..end).ok_or_else(|| bad_group(start))?;
            for chunk in members.chunks(MAX_SEGMENTS_PER_TASK) {
                let (rows, tail) = std::mem::take(&mut rest).split_at_mut(chunk.len() * width);
                rest = tail;
                tasks.push((chunk, rows));
            }
        }
        run(&mut tasks)?;
        // Row i was computed at position[i].
        let mut position = vec![0usize; self.order.len()];
        for (k, &i) in self.order.iter().enumerate() {
            *position.get_mut(i).ok_or_else(|| bad_group(i))? = k;
        }
        parallel::fill_rows(
            out,
            width,
            workers,
            || (),
            |(), i, row| {
                let k = *position.get(i).ok_or_else(|| bad_group(i))?;
                let computed = grouped
                    .get(k * width..(k + 1) * width)
                    .ok_or_else(|| bad_group(k))?;
                row.copy_from_slice(computed);
                Ok(())
            },
        )
    }
}

/// Segments grouped by `hashes` and `same(first member, segment)`: each group's first member
/// and each segment's group, groups numbered in order of first appearance.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] past 2^32 groups.
fn group_by(
    hashes: &[u64],
    same: impl Fn(usize, usize) -> bool,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut table = IdTable::default();
    let mut first_member: Vec<usize> = Vec::new();
    let mut group_of = Vec::with_capacity(hashes.len());
    for (i, &hash) in hashes.iter().enumerate() {
        let fresh = u32::try_from(first_member.len())
            .map_err(|_| Error::invalid_input("more than 2**32 distinct reference sets"))?;
        let group = table.find_or_insert(
            hash,
            |g| first_member.get(g as usize).is_some_and(|&j| same(j, i)),
            || fresh,
        );
        if group == fresh {
            first_member.push(i);
        }
        group_of.push(group as usize);
    }
    Ok((first_member, group_of))
}

fn bad_group(at: usize) -> Error {
    Error::internal(format!(
        "reference groups are inconsistent at {at}: every segment belongs to exactly one group"
    ))
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
    fn equal_hashes_of_different_references_are_told_apart() {
        let refs = ["x", "y", "x", "z", "y"];
        let of = |i: usize| std::iter::once(Some(refs[i]));
        // Every hash the same: the check finds the collision and groups by text.
        let groups = ReferenceGroups::from_hashes(&[7; 5], 2, of)
            .unwrap()
            .unwrap();
        assert_eq!(groups.len(), 3);
        assert_eq!(groups.order, [0, 2, 1, 4, 3]);
        let distinct =
            ReferenceGroups::from_hashes(&[7; 3], 1, |i| std::iter::once(Some(["a", "b", "c"][i])));
        assert!(distinct.unwrap().is_none());
    }

    #[test]
    fn groups_follow_every_stream() {
        let refs = ["x", "y", ""];
        let streams = [
            (0..700).map(|i| Some(refs[i % 3])).collect::<Vec<_>>(),
            (0..700)
                .map(|i| (i % 5 != 0).then_some(refs[(i + 1) % 3]))
                .collect(),
        ];
        let groups = ReferenceGroups::find(700, 1, |i| streams.iter().map(move |s| s[i]))
            .unwrap()
            .unwrap();
        // Both streams follow i % 3, and the second one is dropped or not: 3 x 2 sets.
        assert_eq!(groups.len(), 6);
        let distinct = ReferenceGroups::find(3, 1, |i| std::iter::once(Some(refs[i]))).unwrap();
        assert!(distinct.is_none());
    }
}
