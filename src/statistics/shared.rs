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

/// Segments grouped by a hash of their references' keys (each reference's length and first
/// and last 16 bytes, so grouping reads a few bytes of a long text, not all of it), in order of first appearance: `order` lists segment indices group by group and
/// group `g` is `order[starts[g]..starts[g + 1]]`. Members of a group almost always share
/// their references; two different sets with one hash are told apart as the rows are
/// computed ([`Task::rows`]'s caller compares each member's text with the task's first).
#[derive(Debug)]
pub struct ReferenceGroups {
    order: Vec<usize>,
    starts: Vec<usize>,
}

/// A reference's key for grouping: its length and its first and last 16 bytes, all of it
/// for a shorter one. Equal texts share it; two texts that differ share it only where they
/// differ in the middle, and the driver tells those apart (it compares the texts).
fn text_key(text: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write_usize(text.len());
    if text.len() <= 32 {
        h.write(text);
    } else {
        h.write(text.get(..16).unwrap_or_default());
        h.write(text.get(text.len() - 16..).unwrap_or_default());
    }
    h.finish()
}

impl ReferenceGroups {
    /// Groups `segments` segments by a hash of the references `references_of(i)` yields, or
    /// `None` when every segment's hash is distinct (nothing to share).
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
                        h.write_u64(text_key(text.as_bytes()));
                    }
                }
            }
            h.finish()
        })?;
        Self::from_hashes(&hashes)
    }

    /// [`ReferenceGroups::find`] given each segment's hash of its references.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] past 2^32 groups.
    pub(super) fn from_hashes(hashes: &[u64]) -> Result<Option<Self>> {
        let segments = hashes.len();
        let (first_member, group_of) = group_by(hashes)?;
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

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when there is no segment.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `out` (segment order, `width` columns, one row per segment of the groups): `run`
    /// computes the rows of every task (each a run of one group's segments), which write
    /// their rows in place.
    ///
    /// # Errors
    /// Whatever `run` returns, or [`crate::ErrorKind::Internal`] when `out` does not hold a
    /// row per segment.
    pub fn fill_rows<F>(&self, out: &mut [i64], width: usize, run: F) -> Result<()>
    where
        F: FnOnce(&mut [Task<'_>]) -> Result<()>,
    {
        if out.len() != self.order.len() * width {
            return Err(Error::internal(format!(
                "{} statistics cells for {} segments of {width}",
                out.len(),
                self.order.len()
            )));
        }
        let rows = ScatteredRows::new(out, width);
        let mut tasks: Vec<Task<'_>> = Vec::new();
        for bounds in self.starts.windows(2) {
            let &[start, end] = bounds else { continue };
            let members = self.order.get(start..end).ok_or_else(|| bad_group(start))?;
            for chunk in members.chunks(MAX_SEGMENTS_PER_TASK) {
                tasks.push(Task {
                    members: chunk,
                    rows: &rows,
                });
            }
        }
        run(&mut tasks)
    }
}

/// A task of the driver: segments of one group, whose rows it writes.
#[derive(Debug)]
pub struct Task<'t> {
    members: &'t [usize],
    rows: &'t ScatteredRows<'t>,
}

impl<'t> Task<'t> {
    /// The segments, ascending.
    pub fn members(&self) -> &'t [usize] {
        self.members
    }

    /// Each segment with its row of the output.
    pub fn rows(&mut self) -> impl Iterator<Item = (usize, &mut [i64])> + '_ {
        let rows = self.rows;
        self.members.iter().map(move |&i| {
            // SAFETY: the tasks' members are a permutation of the segments (`order`), so no
            // other task holds row `i`, and this task's rows are distinct; `&mut self` keeps
            // the task from handing them out twice at once.
            (i, unsafe { rows.row(i) })
        })
    }
}

/// The output rows, written in place by the tasks on every thread, each row by the one task
/// that holds its segment (as `chunks_mut` hands out rows, but in group order).
#[derive(Debug)]
struct ScatteredRows<'o> {
    start: std::ptr::NonNull<i64>,
    rows: usize,
    width: usize,
    _out: std::marker::PhantomData<&'o mut [i64]>,
}

// SAFETY: it stands for `&mut [i64]`, and its rows are only handed out one task each.
unsafe impl Send for ScatteredRows<'_> {}
// SAFETY: as above; a shared reference gives rows only through `Task::rows`.
unsafe impl Sync for ScatteredRows<'_> {}

impl<'o> ScatteredRows<'o> {
    fn new(out: &'o mut [i64], width: usize) -> Self {
        Self {
            start: std::ptr::NonNull::from(&mut *out).cast(),
            rows: out.len().checked_div(width).unwrap_or(0),
            width,
            _out: std::marker::PhantomData,
        }
    }

    /// Row `i` (an empty slice past the end).
    ///
    /// # Safety
    /// No other reference to row `i` may be alive while the result is.
    #[allow(clippy::mut_from_ref)] // disjoint rows, as documented
    unsafe fn row(&self, i: usize) -> &mut [i64] {
        if i >= self.rows {
            return &mut [];
        }
        // SAFETY: `i < rows`, so the row lies within the output slice this borrows mutably;
        // the caller guarantees it is not aliased.
        unsafe {
            std::slice::from_raw_parts_mut(self.start.as_ptr().add(i * self.width), self.width)
        }
    }
}

/// Segments grouped by `hashes`: each group's first member and each segment's group, groups
/// numbered in order of first appearance.
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] past 2^32 groups.
fn group_by(hashes: &[u64]) -> Result<(Vec<usize>, Vec<usize>)> {
    // Sized for every segment a group of its own (the usual case): no growing on the way.
    let mut table = IdTable::with_capacity(hashes.len());
    let mut first_member: Vec<usize> = Vec::new();
    let mut group_of = Vec::with_capacity(hashes.len());
    for (i, &hash) in hashes.iter().enumerate() {
        let fresh = u32::try_from(first_member.len())
            .map_err(|_| Error::invalid_input("more than 2**32 distinct reference sets"))?;
        let group = table.find_or_insert(hash, |_| true, || fresh);
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
    fn grouping_keys_read_the_length_and_both_ends() {
        let long = |middle: &str| format!("{}{middle}{}", "a".repeat(16), "b".repeat(16));
        assert_eq!(
            text_key(long("x").as_bytes()),
            text_key(long("y").as_bytes())
        );
        assert_ne!(
            text_key(long("x").as_bytes()),
            text_key(long("xy").as_bytes())
        );
        assert_ne!(text_key(b"short x"), text_key(b"short y"));
        assert_ne!(text_key(b""), text_key(b"a"));
    }

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
    fn groups_follow_hashes_and_tasks_write_their_rows() {
        let groups = ReferenceGroups::from_hashes(&[7, 3, 7, 7, 3])
            .unwrap()
            .unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups.order, [0, 2, 3, 1, 4]);
        assert!(ReferenceGroups::from_hashes(&[1, 2, 3]).unwrap().is_none());
        let mut out = vec![0i64; 10];
        groups
            .fill_rows(&mut out, 2, |tasks| {
                for task in tasks.iter_mut() {
                    let first = task.members()[0] as i64;
                    for (i, row) in task.rows() {
                        row.copy_from_slice(&[i as i64, first]);
                    }
                }
                Ok(())
            })
            .unwrap();
        assert_eq!(out, [0, 0, 1, 1, 2, 0, 3, 0, 4, 1]);
        let err = groups.fill_rows(&mut [0; 3], 2, |_| Ok(())).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Internal);
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
