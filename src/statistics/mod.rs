//! The statistics stage every metric shares: text (or tokens) to one integer row per segment.
//!
//! A metric implements two small traits and gets every input layout, the parallel loop, the
//! per-thread scratch state and cancellation from one driver, [`rows`]:
//!
//! - [`StatsMetric`]: the row width and a fresh per-thread [`SegmentScorer`].
//! - [`SegmentScorer`]: prepares one segment's references, then fills the row of any number
//!   of hypotheses against them.
//!
//! The layouts ([`layout`]) say where segment `i`'s hypothesis and references are: reference
//! streams ([`Streams`], sacrebleu's `refs[k][i]`), a list of references per hypothesis
//! ([`Grouped`], text or token sequences), one reference per hypothesis ([`Pairs`]) and BLEU's
//! [`Segment`] list ([`Segments`]). Where several segments share the same references (many
//! systems on one test set, MBR), the driver prepares each distinct reference set once per task
//! ([`shared`]).
//!
//! Every pair of two sets (MBR matrices) has its own driver, [`pairwise`], over the same
//! traits; there the items are usually sentences counted once into
//! [`crate::count::NgramBag`]s ([`crate::count::bags`]).
//!
//! Adding a metric means one `StatsMetric` + `SegmentScorer` impl; adding a layout means one
//! [`Layout`] impl. Neither writes a loop.

pub mod layout;
pub mod pairwise;
pub mod shared;

pub use layout::{Grouped, Layout, Pairs, Segment, Segments, Streams};
pub use shared::{no_references, references_per_segment};

use crate::error::Result;
use crate::parallel;

/// A metric's per-thread state over items of type `X` (`str` for text, `[T]` for token
/// sequences) borrowed for `'a`: it prepares one segment's references, then fills the
/// statistics rows of any number of hypotheses against them.
pub trait SegmentScorer<'a, X: ?Sized + 'a> {
    /// Prepares the references of the next segment. The driver never passes an empty iterator
    /// to a metric whose [`StatsMetric::NEEDS_REFERENCES`] holds.
    ///
    /// # Errors
    /// Whatever the metric rejects.
    fn prepare<I: Iterator<Item = &'a X>>(&mut self, references: I) -> Result<()>;

    /// Fills `row` (the metric's width) for `hypothesis` against the prepared references.
    ///
    /// # Errors
    /// Whatever the metric rejects.
    fn score(&mut self, hypothesis: &'a X, row: &mut [i64]) -> Result<()>;
}

/// A metric's statistics over items of type `X`: how wide a row is and how to make the
/// per-thread scorer. Implemented by each metric's settings (e.g. [`crate::metrics::chrf::ChrfConfig`]).
pub trait StatsMetric<'a, X: ?Sized + 'a>: Sync {
    /// The per-thread scorer.
    type Scorer: SegmentScorer<'a, X>;

    /// Whether every segment needs at least one reference (GLEU scores none as `[0, 0]`).
    const NEEDS_REFERENCES: bool = true;

    /// Whether [`SegmentScorer::prepare`] does work worth sharing between segments with the
    /// same references (tokenizing, interning). A metric whose `prepare` only keeps the
    /// references (WER, GLEU) says no, and the driver skips grouping them.
    const SHARES_PREPARED_REFERENCES: bool = true;

    /// Number of columns of a statistics row.
    fn width(&self) -> usize;

    /// A fresh scorer, one per thread.
    fn scorer(&self) -> Self::Scorer;

    /// Checks the settings before any row is counted (the drivers call it first).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for settings the metric rejects.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

/// The statistics rows (row-major, [`StatsMetric::width`] columns) of every segment of
/// `layout` under `metric`, on `workers` threads (`-1`: all cores). Rows are identical for
/// every `workers` value.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] for inconsistent input (see each [`Layout::check`]) or
///   a segment without references where the metric needs them.
/// - [`crate::ErrorKind::InvalidOption`] for invalid settings or `workers`.
/// - [`crate::ErrorKind::Interrupted`] once the call is cancelled ([`crate::cancel`]).
/// - Whatever the metric's scorer rejects.
pub fn rows<'a, L, M>(layout: &L, metric: &M, workers: i64) -> Result<Vec<i64>>
where
    L: Layout<'a>,
    M: StatsMetric<'a, L::Item>,
{
    metric.validate()?;
    layout.check(M::NEEDS_REFERENCES)?;
    let width = metric.width();
    let mut out = vec![0i64; layout.len() * width];
    let prepare = |scorer: &mut M::Scorer, i: usize| {
        if M::NEEDS_REFERENCES && layout.references(i).next().is_none() {
            return Err(no_references(layout.first_segment() + i));
        }
        scorer.prepare(layout.references(i))
    };
    let groups = if M::SHARES_PREPARED_REFERENCES {
        layout.shared_references(workers)?
    } else {
        None
    };
    match groups {
        None => parallel::fill_rows(
            &mut out,
            width,
            workers,
            || metric.scorer(),
            |scorer, i, row| {
                // The segments' texts lie apart in memory: fetch a later one's meanwhile.
                if let Ok(ahead) = layout.hypothesis(i + PREFETCH_DISTANCE) {
                    prefetch(ahead);
                }
                layout.references(i + PREFETCH_DISTANCE).for_each(prefetch);
                prepare(scorer, i)?;
                scorer.score(layout.hypothesis(i)?, row)
            },
        )?,
        Some(groups) => groups.fill_rows(&mut out, width, |tasks| {
            parallel::for_each_mut_init(
                tasks,
                workers,
                || metric.scorer(),
                |scorer, task| {
                    let members = task.members();
                    let Some(&first) = members.first() else {
                        return Ok(());
                    };
                    prepare(scorer, first)?;
                    let mut prepared = first;
                    for (k, (i, row)) in task.rows().enumerate() {
                        // The members' texts lie apart in memory: fetch a later one's meanwhile.
                        if let Some(&ahead) = members.get(k + PREFETCH_DISTANCE) {
                            if let Ok(item) = layout.hypothesis(ahead) {
                                prefetch(item);
                            }
                            layout.references(ahead).for_each(prefetch);
                        }
                        // Groups share a hash: a member whose references differ from the
                        // first's (two sets, one hash) is prepared on its own.
                        let own = i != first && !layout.same_references(first, i);
                        let wanted = if own { i } else { first };
                        if wanted != prepared {
                            prepare(scorer, wanted)?;
                            prepared = wanted;
                        }
                        scorer.score(layout.hypothesis(i)?, row)?;
                    }
                    Ok(())
                },
            )
        })?,
    }
    Ok(out)
}

/// Segments ahead whose hypothesis [`prefetch`] asks for.
pub(crate) const PREFETCH_DISTANCE: usize = 4;

/// Asks the processor to bring the first cache lines of `item` (text or tokens) into cache,
/// where it has such a hint; a hint only, it never faults.
#[inline]
pub(crate) fn prefetch<T: ?Sized>(item: &T) {
    prefetch_at(std::ptr::from_ref(item).cast(), std::mem::size_of_val(item));
}

/// [`prefetch`] for the first `bytes` (up to four cache lines) at `start`, which need not be
/// valid: a prefetch reads nothing and cannot fault.
#[inline]
pub(crate) fn prefetch_at(start: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in (0..bytes.min(256)).step_by(64) {
            // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(line).cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, bytes);
}

/// Statistics for hypotheses against reference *streams* (sacrebleu's layout): `streams[k][i]`
/// is the k-th reference of segment `i`, and `None` drops it for that segment (an empty
/// string is a real, empty reference). Returns a row-major `(n, metric.width())` matrix.
///
/// # Errors
/// As [`rows`]: among others, [`crate::ErrorKind::InvalidInput`] when a stream's length
/// differs from the number of hypotheses or a segment has no reference at all.
pub fn stream_stats<'a, M: StatsMetric<'a, str>>(
    hypotheses: &'a [&'a str],
    streams: &'a [Vec<Option<&'a str>>],
    metric: M,
    workers: i64,
) -> Result<Vec<i64>> {
    rows(&Streams::new(hypotheses, streams), &metric, workers)
}

/// The statistics row of one hypothesis against its references.
///
/// # Errors
/// As [`rows`].
pub fn segment_stats<M>(hypothesis: &str, references: &[&str], metric: M) -> Result<Vec<i64>>
where
    M: for<'b> StatsMetric<'b, str>,
{
    let (hypotheses, references) = ([hypothesis], [references.to_vec()]);
    rows(&Grouped::new(&hypotheses, &references), &metric, 1)
}

/// One value per segment of `layout`, for outputs that are not statistics rows (e.g. WER's
/// alignments): `f(scratch, i, hypothesis, references)` with per-thread `scratch` from `init`,
/// in segment order. The same checks, cancellation and threads as [`rows`].
///
/// # Errors
/// As [`rows`], or the first error `f` returns.
pub fn map_segments<'a, L, S, R, I, F>(
    layout: &L,
    needs_references: bool,
    workers: i64,
    init: I,
    f: F,
) -> Result<Vec<R>>
where
    L: Layout<'a>,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &'a L::Item, &mut dyn Iterator<Item = &'a L::Item>) -> Result<R>
        + Sync
        + Send,
{
    layout.check(needs_references)?;
    let segments: Vec<usize> = (0..layout.len()).collect();
    parallel::try_map_init(&segments, workers, init, |scratch, &i| {
        if needs_references && layout.references(i).next().is_none() {
            return Err(no_references(layout.first_segment() + i));
        }
        f(scratch, i, layout.hypothesis(i)?, &mut layout.references(i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row = [length of the hypothesis, the sum of a measure of each reference].
    struct ReferenceSums(fn(&str) -> i64);
    struct ReferenceSumScorer(fn(&str) -> i64, i64);

    impl<'a> SegmentScorer<'a, str> for ReferenceSumScorer {
        fn prepare<I: Iterator<Item = &'a str>>(&mut self, refs: I) -> Result<()> {
            self.1 = refs.map(self.0).sum();
            Ok(())
        }
        fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
            row.copy_from_slice(&[hypothesis.len() as i64, self.1]);
            Ok(())
        }
    }

    impl<'a> StatsMetric<'a, str> for ReferenceSums {
        type Scorer = ReferenceSumScorer;
        fn width(&self) -> usize {
            2
        }
        fn scorer(&self) -> ReferenceSumScorer {
            ReferenceSumScorer(self.0, 0)
        }
    }

    /// Row = [length of the hypothesis, total reference length].
    const LENGTHS: ReferenceSums = ReferenceSums(|r| r.len() as i64);

    /// Row = [length of the hypothesis, the sum of the references' bytes]: tells texts of one
    /// length apart.
    const BYTE_SUMS: ReferenceSums = ReferenceSums(|r| r.bytes().map(i64::from).sum());

    #[test]
    fn shared_reference_rows_come_back_in_segment_order() {
        let hyps: Vec<String> = (0..600).map(|i| "h".repeat(i % 11)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs = ["ab", "abcd", "a"];
        let streams = vec![(0..600).map(|i| Some(refs[i % 3])).collect::<Vec<_>>()];
        for workers in [1, 2, -1] {
            let rows = rows(&Streams::new(&hyps, &streams), &LENGTHS, workers).unwrap();
            for (i, row) in rows.chunks(2).enumerate() {
                assert_eq!(row, [(i % 11) as i64, refs[i % 3].len() as i64]);
            }
        }
        let lists: Vec<Vec<&str>> = (0..600).map(|i| vec![refs[i % 3], "x"]).collect();
        for workers in [1, 2] {
            let rows = rows(&Grouped::new(&hyps, &lists), &LENGTHS, workers).unwrap();
            for (i, row) in rows.chunks(2).enumerate() {
                assert_eq!(row, [(i % 11) as i64, refs[i % 3].len() as i64 + 1]);
            }
        }
        let short = [vec![None; 3]];
        let err = rows(&Streams::new(&hyps, &short), &LENGTHS, 1).unwrap_err();
        assert!(err.message().contains("stream 0 has 3 segments"), "{err}");
    }

    /// Streams whose segments all share one reference hash, as if every set collided.
    struct Colliding<'a>(Streams<'a>);

    impl<'a> Layout<'a> for Colliding<'a> {
        type Item = str;
        fn len(&self) -> usize {
            self.0.len()
        }
        fn check(&self, needs_references: bool) -> Result<()> {
            self.0.check(needs_references)
        }
        fn hypothesis(&self, i: usize) -> Result<&'a str> {
            self.0.hypothesis(i)
        }
        fn references(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
            self.0.references(i)
        }
        fn shared_references(&self, _: i64) -> Result<Option<shared::ReferenceGroups>> {
            shared::ReferenceGroups::from_hashes(&vec![7; self.len()])
        }
        fn same_references(&self, a: usize, b: usize) -> bool {
            self.0.same_references(a, b)
        }
    }

    #[test]
    fn references_that_share_a_hash_but_differ_get_their_own_rows() {
        let hyps: Vec<String> = (0..700).map(|i| "h".repeat(i % 7)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs = ["ab", "abcd", "a", "abc"];
        let streams = vec![
            (0..700).map(|i| Some(refs[i % 4])).collect::<Vec<_>>(),
            (0..700).map(|i| (i % 3 == 0).then_some("xy")).collect(),
        ];
        let plain = Streams::new(&hyps, &streams);
        for workers in [1, 2, -1] {
            let expected = rows(&plain, &LENGTHS, workers).unwrap();
            assert_eq!(
                rows(&Colliding(plain), &LENGTHS, workers).unwrap(),
                expected
            );
            for (i, row) in expected.chunks(2).enumerate() {
                let extra = if i % 3 == 0 { 2 } else { 0 };
                assert_eq!(row, [(i % 7) as i64, refs[i % 4].len() as i64 + extra]);
            }
        }
    }

    #[test]
    fn references_that_differ_only_in_the_middle_keep_their_own_rows() {
        // One length and the same first and last 16 bytes: one grouping key, so the driver
        // tells the texts apart.
        let refs: Vec<String> = (0..5u8)
            .map(|k| {
                format!(
                    "{}{}{}",
                    "a".repeat(20),
                    char::from(b'k' + k),
                    "b".repeat(20)
                )
            })
            .collect();
        let hyps = vec![""; 500];
        let streams = vec![(0..500)
            .map(|i| Some(refs[i % 5].as_str()))
            .collect::<Vec<_>>()];
        for workers in [1, 2, -1] {
            let rows = rows(&Streams::new(&hyps, &streams), &BYTE_SUMS, workers).unwrap();
            for (i, row) in rows.chunks(2).enumerate() {
                assert_eq!(row[1], refs[i % 5].bytes().map(i64::from).sum::<i64>());
            }
        }
    }

    #[test]
    fn every_layout_gives_the_same_rows() {
        let hyps = ["a b", "", "c"];
        let grouped = vec![vec!["xy", "z"], vec!["q"], vec!["", "rs"]];
        let streams = vec![
            vec![Some("xy"), Some("q"), Some("")],
            vec![Some("z"), None, Some("rs")],
        ];
        let segments: Vec<Segment<'_>> = hyps
            .iter()
            .zip(&grouped)
            .map(|(h, r)| Segment {
                hypothesis: h,
                references: r.clone(),
            })
            .collect();
        let expected = vec![3, 3, 0, 1, 1, 2];
        for workers in [1, 2] {
            assert_eq!(
                rows(&Streams::new(&hyps, &streams), &LENGTHS, workers).unwrap(),
                expected
            );
            assert_eq!(
                rows(&Grouped::new(&hyps, &grouped), &LENGTHS, workers).unwrap(),
                expected
            );
            assert_eq!(
                rows(&Segments(&segments), &LENGTHS, workers).unwrap(),
                expected
            );
        }
        let pairs = ["xy", "q", "rs"];
        assert_eq!(
            rows(&Pairs::new(&hyps, &pairs), &LENGTHS, 1).unwrap(),
            [3, 2, 0, 1, 1, 2]
        );
    }

    /// Counts the `prepare` calls, sharing references or not.
    struct Prepares(std::sync::atomic::AtomicUsize);
    struct PrepareCounter<'m>(&'m std::sync::atomic::AtomicUsize);

    impl<'a> SegmentScorer<'a, str> for PrepareCounter<'_> {
        fn prepare<I: Iterator<Item = &'a str>>(&mut self, _: I) -> Result<()> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
        fn score(&mut self, _: &'a str, _: &mut [i64]) -> Result<()> {
            Ok(())
        }
    }

    struct Sharing(Prepares);
    struct NotSharing(Prepares);

    impl<'a, 'm> StatsMetric<'a, str> for &'m Sharing {
        type Scorer = PrepareCounter<'m>;
        fn width(&self) -> usize {
            1
        }
        fn scorer(&self) -> PrepareCounter<'m> {
            PrepareCounter(&self.0 .0)
        }
    }

    impl<'a, 'm> StatsMetric<'a, str> for &'m NotSharing {
        type Scorer = PrepareCounter<'m>;
        const SHARES_PREPARED_REFERENCES: bool = false;
        fn width(&self) -> usize {
            1
        }
        fn scorer(&self) -> PrepareCounter<'m> {
            PrepareCounter(&self.0 .0)
        }
    }

    #[test]
    fn shared_references_are_prepared_once_per_task_unless_the_metric_declines() {
        let hyps = vec!["h"; 100];
        let streams = vec![vec![Some("same"); 100]];
        let layout = Streams::new(&hyps, &streams);
        let sharing = Sharing(Prepares(0.into()));
        rows(&layout, &&sharing, 1).unwrap();
        assert_eq!(sharing.0 .0.into_inner(), 1);
        let not_sharing = NotSharing(Prepares(0.into()));
        rows(&layout, &&not_sharing, 1).unwrap();
        assert_eq!(not_sharing.0 .0.into_inner(), 100);
    }

    #[test]
    fn a_segment_without_references_is_named() {
        let streams = vec![vec![Some("a"), None, None]];
        let err = rows(&Streams::new(&["x", "y", "z"], &streams), &LENGTHS, 1).unwrap_err();
        assert!(
            err.message().starts_with("segment 1 has no references"),
            "{err}"
        );
        let grouped: Vec<Vec<&str>> = vec![vec!["a"], vec![]];
        let err = rows(&Grouped::new(&["x", "y"], &grouped), &LENGTHS, 1).unwrap_err();
        assert!(err.message().starts_with("references[1] is empty"), "{err}");
    }

    #[test]
    fn cancelled_calls_stop() {
        let hyps = vec!["a"; 5000];
        let streams = vec![vec![Some("b"); 5000]];
        let flag = crate::cancel::Cancel::new();
        flag.cancel();
        let err = flag
            .run(|| rows(&Streams::new(&hyps, &streams), &LENGTHS, 2))
            .unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Interrupted);
    }
}
