//! Every hypothesis against every reference (MBR utility matrices, train × test similarity):
//! cell `(i, j)` is hypothesis `i` scored with reference `j` as its only reference, exactly the
//! row [`super::rows`] makes for that one segment.
//!
//! The driver splits the hypotheses into blocks, one task each: a task prepares each reference
//! once, then scores the block's hypotheses against it. With items counted once beforehand
//! ([`crate::count::bags`]), preparing and scoring are lookups, so a cell costs a few hundred
//! nanoseconds.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{SegmentScorer, StatsMetric};
use crate::count::{DenseCounts, NgramBag};
use crate::error::{Error, Result};
use crate::parallel;

/// Hypotheses per task: enough for preparing a reference to cost little per cell, few enough
/// for every thread to get tasks.
const MAX_HYPOTHESES_PER_TASK: usize = 64;

/// For every cell `(i, j)` of `hypotheses × references`, the metric's statistics row; a block
/// of hypotheses' rows against one reference (hypothesis order) becomes `out_width` values per
/// cell through `finish(rows, values)`. Returned row-major (`i` major), `out_width` values per
/// cell. `finish` runs on the worker threads, so scoring is parallel too, and no statistics
/// are kept beyond one block per thread.
///
/// # Errors
/// - [`crate::ErrorKind::InvalidInput`] for a matrix too large to address.
/// - [`crate::ErrorKind::InvalidOption`] for an invalid `workers`.
/// - [`crate::ErrorKind::Interrupted`] once the call is cancelled ([`crate::cancel`]).
/// - Whatever the metric's scorer or `finish` rejects.
pub fn cells<'a, X, M, T, F>(
    hypotheses: &[&'a X],
    references: &[&'a X],
    metric: &M,
    out_width: usize,
    workers: i64,
    finish: F,
) -> Result<Vec<T>>
where
    X: ?Sized + Sync + 'a,
    M: StatsMetric<'a, X>,
    T: Copy + Default + Send,
    F: Fn(&[i64], &mut [T]) -> Result<()> + Sync + Send,
{
    let (h, r, width) = (hypotheses.len(), references.len(), metric.width());
    let row_len = r.checked_mul(out_width).ok_or_else(|| too_large(h, r))?;
    let cells_len = row_len.checked_mul(h).ok_or_else(|| too_large(h, r))?;
    let mut out = vec![T::default(); cells_len];
    if cells_len == 0 {
        return Ok(out);
    }
    let threads = parallel::resolve_workers(workers)?;
    let per_task = h.div_ceil(4 * threads).clamp(1, MAX_HYPOTHESES_PER_TASK);
    // Task k: hypotheses k * per_task.., and their rows of the output (contiguous).
    let mut tasks: Vec<(usize, &mut [T])> =
        out.chunks_mut(per_task * row_len).enumerate().collect();
    parallel::for_each_mut_init(
        &mut tasks,
        workers,
        || {
            let rows = vec![0i64; per_task * width];
            (
                metric.scorer(),
                rows,
                vec![T::default(); per_task * out_width],
            )
        },
        |(scorer, rows, values), (k, block)| {
            let start = *k * per_task;
            let hyps = hypotheses
                .get(start..(start + per_task).min(h))
                .ok_or_else(|| Error::internal(format!("no hypotheses from {start}")))?;
            let (rows, values) = (
                rows.get_mut(..hyps.len() * width).unwrap_or_default(),
                values.get_mut(..hyps.len() * out_width).unwrap_or_default(),
            );
            for (j, reference) in references.iter().enumerate() {
                scorer.prepare(std::iter::once(*reference))?;
                rows.fill(0);
                for (hypothesis, row) in hyps.iter().zip(rows.chunks_exact_mut(width.max(1))) {
                    scorer.score(hypothesis, row)?;
                }
                finish(rows, values)?;
                // Cell (i, j) of this block is at (i * r + j) * out_width.
                for (cell, value) in block
                    .chunks_exact_mut(row_len)
                    .zip(values.chunks_exact(out_width.max(1)))
                {
                    if let Some(target) = cell.get_mut(j * out_width..(j + 1) * out_width) {
                        target.copy_from_slice(value);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(out)
}

/// Every cell's statistics row (`metric.width()` columns), row-major.
///
/// # Errors
/// As [`cells`].
pub fn rows<'a, X, M>(
    hypotheses: &[&'a X],
    references: &[&'a X],
    metric: &M,
    workers: i64,
) -> Result<Vec<i64>>
where
    X: ?Sized + Sync + 'a,
    M: StatsMetric<'a, X>,
{
    cells(
        hypotheses,
        references,
        metric,
        metric.width(),
        workers,
        |rows, cells| {
            cells.copy_from_slice(rows);
            Ok(())
        },
    )
}

/// Every cell's score as an `(H, R)` row-major matrix; `score(rows)` scores a block of
/// rows (row-major, `metric.width()` columns), one value per row.
///
/// # Errors
/// As [`cells`].
pub fn scores<'a, X, M, S>(
    hypotheses: &[&'a X],
    references: &[&'a X],
    metric: &M,
    workers: i64,
    score: S,
) -> Result<Vec<f64>>
where
    X: ?Sized + Sync + 'a,
    M: StatsMetric<'a, X>,
    S: Fn(&[i64]) -> Result<Vec<f64>> + Sync + Send,
{
    cells(hypotheses, references, metric, 1, workers, |rows, cells| {
        cells.copy_from_slice(&scored(&score, rows, cells.len())?);
        Ok(())
    })
}

/// Statistics whose row for hypothesis `b` against reference `a` follows from the row for `a`
/// against `b`: the clipped match counts are symmetric, only the lengths and totals swap. The
/// square matrix of a set against itself then needs only its upper triangle counted
/// ([`mirrored_scores`]).
pub trait MirroredRows<'a, X: ?Sized + 'a>: StatsMetric<'a, X> {
    /// Writes into `mirrored` the row of `reference` scored against `hypothesis`, from `row`,
    /// the row of `hypothesis` against `reference`.
    fn mirror(&self, row: &[i64], hypothesis: &X, reference: &X, mirrored: &mut [i64]);
}

/// [`scores`] of `hypotheses` x `references`; when `same` (the two are one list, scored
/// against itself: an `(n, n)` matrix) each pair is counted once, cell `(j, i)` coming from
/// cell `(i, j)` through [`MirroredRows::mirror`]. Equal to [`scores`] either way.
///
/// # Errors
/// As [`cells`].
pub fn mirrored_scores<'a, X, M, S>(
    hypotheses: &[&'a X],
    references: &[&'a X],
    same: bool,
    metric: &M,
    workers: i64,
    score: S,
) -> Result<Vec<f64>>
where
    X: ?Sized + Sync + 'a,
    M: MirroredRows<'a, X>,
    S: Fn(&[i64]) -> Result<Vec<f64>> + Sync + Send,
{
    if !same {
        return scores(hypotheses, references, metric, workers, score);
    }
    let items = hypotheses;
    let (n, width) = (items.len(), metric.width());
    let len = n.checked_mul(n).ok_or_else(|| too_large(n, n))?;
    // Tasks write cells of other tasks' rows (the mirrored ones): atomic stores of the
    // bits, each cell written by exactly one task.
    let out: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(0)).collect();
    let threads = parallel::resolve_workers(workers)?;
    // Small tasks: the triangle gives the first rows the most work.
    let per_task = n.div_ceil(16 * threads).clamp(1, MAX_HYPOTHESES_PER_TASK);
    let mut tasks: Vec<usize> = (0..n.div_ceil(per_task)).collect();
    parallel::for_each_mut_init(
        &mut tasks,
        workers,
        || (metric.scorer(), Vec::new(), Vec::new()),
        |(scorer, rows, mirrored), k| {
            let start = *k * per_task;
            let block = items.get(start..(start + per_task).min(n)).unwrap_or(&[]);
            for (j, reference) in items.iter().enumerate().skip(start) {
                scorer.prepare(std::iter::once(*reference))?;
                // Rows i of the block with i <= j: cells (i, j), then their mirrors (j, i).
                let upto = (j + 1 - start).min(block.len());
                rows.clear();
                rows.resize(upto * width, 0);
                mirrored.clear();
                mirrored.resize(upto * width, 0);
                let pairs = rows
                    .chunks_exact_mut(width.max(1))
                    .zip(mirrored.chunks_exact_mut(width.max(1)));
                for (hypothesis, (row, mirror)) in block.iter().zip(pairs) {
                    scorer.score(hypothesis, row)?;
                    metric.mirror(row, hypothesis, reference, mirror);
                }
                let direct = scored(&score, rows, upto)?;
                let flipped = scored(&score, mirrored, upto)?;
                for (offset, (d, f)) in direct.iter().zip(&flipped).enumerate() {
                    let i = start + offset;
                    store(&out, i * n + j, *d);
                    if i != j {
                        store(&out, j * n + i, *f);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(out
        .into_iter()
        .map(|bits| f64::from_bits(bits.into_inner()))
        .collect())
}

/// The only reference of a pairwise cell, for scorers that take exactly one (the bag
/// scorers).
///
/// # Errors
/// [`crate::ErrorKind::Internal`] for none or several.
pub fn only_reference<'a, X: ?Sized + 'a>(
    mut references: impl Iterator<Item = &'a X>,
) -> Result<&'a X> {
    match (references.next(), references.next()) {
        (Some(reference), None) => Ok(reference),
        _ => Err(Error::internal(
            "a pairwise scorer takes exactly one reference",
        )),
    }
}

/// A metric over [`NgramBag`]s of one builder (BLEU's, chrF's): how a hypothesis bag's row
/// follows from its clipped matches against a reference bag. Each is a pairwise metric
/// ([`StatsMetric`], scored by a [`BagScorer`]).
pub trait BagRows: Copy + Sync {
    /// The orders a row reads (the bags may hold more).
    fn orders(&self) -> usize;

    /// Every id of the bags is below this ([`crate::count::BagBuilder::ids`]).
    fn ids(&self) -> usize;

    /// Columns of a row.
    fn row_width(&self) -> usize;

    /// Fills `row` for `hypothesis` against a reference of `reference[o]` n-grams of order
    /// `o + 1`, `matched[o]` of which the hypothesis matched, clipped.
    fn fill(&self, hypothesis: &NgramBag, reference: &[usize], matched: &[usize], row: &mut [i64]);
}

/// A bag metric's per-thread state: the prepared reference's counts spread over every id (so a
/// hypothesis' clipped matches are one lookup per distinct n-gram), and its n-grams per order.
#[derive(Debug)]
pub struct BagScorer<M> {
    metric: M,
    counts: DenseCounts,
    reference: Vec<usize>,
    matched: Vec<usize>,
}

impl<'a, M: BagRows> SegmentScorer<'a, NgramBag> for BagScorer<M> {
    fn prepare<I: Iterator<Item = &'a NgramBag>>(&mut self, references: I) -> Result<()> {
        let reference = only_reference(references)?;
        self.counts.load(reference, self.metric.ids());
        self.reference.clear();
        self.reference
            .extend((1..=self.metric.orders()).map(|o| reference.total(o)));
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a NgramBag, row: &mut [i64]) -> Result<()> {
        self.counts.match_orders(hypothesis, &mut self.matched);
        self.metric
            .fill(hypothesis, &self.reference, &self.matched, row);
        Ok(())
    }
}

impl<'a, M: BagRows> StatsMetric<'a, NgramBag> for M {
    type Scorer = BagScorer<M>;

    fn width(&self) -> usize {
        self.row_width()
    }

    fn scorer(&self) -> BagScorer<M> {
        BagScorer {
            metric: *self,
            counts: DenseCounts::default(),
            reference: Vec::new(),
            matched: Vec::new(),
        }
    }
}

/// `score(rows)`, checked to hold the `expected` scores (one per row).
fn scored<S>(score: &S, rows: &[i64], expected: usize) -> Result<Vec<f64>>
where
    S: Fn(&[i64]) -> Result<Vec<f64>>,
{
    let scores = score(rows)?;
    if scores.len() != expected {
        return Err(Error::internal("a score per row"));
    }
    Ok(scores)
}

fn store(out: &[AtomicU64], at: usize, value: f64) {
    if let Some(cell) = out.get(at) {
        cell.store(value.to_bits(), Ordering::Relaxed);
    }
}

fn too_large(h: usize, r: usize) -> Error {
    Error::invalid_input(format!(
        "a {h} x {r} matrix does not fit in memory; score it in blocks of hypotheses"
    ))
}

/// The check every bag metric's tests run.
#[cfg(test)]
pub(crate) mod testing {
    use super::{mirrored_scores, rows, scores, BagRows, MirroredRows};
    use crate::count::NgramBag;
    use crate::error::Result;

    /// Sentences for the bag metrics' tests: repeats, punctuation, empty and blank lines.
    const LINES: [&str; 8] = [
        "The cat sat on the mat.",
        "the cat the cat the cat",
        "the cat, the cat (the cat)",
        "",
        " ",
        "On the mat, a cat sat.",
        "A dog.",
        "aaa aa a",
    ];

    /// A bag metric on [`LINES`] against themselves (`count` makes their bags and the metric):
    /// each cell's row is `one_row(hypothesis, reference)`, the row of that segment alone, and
    /// the scores of the square (each pair counted once, then mirrored) are the full matrix's.
    pub(crate) fn check_bag_cells<M, S>(
        count: impl Fn(&[&str]) -> (Vec<NgramBag>, M),
        score: S,
        one_row: impl Fn(&str, &str) -> Vec<i64>,
    ) where
        M: BagRows + for<'a> MirroredRows<'a, NgramBag> + std::fmt::Debug,
        S: Fn(&[i64]) -> Result<Vec<f64>> + Sync + Send + Copy,
    {
        let (bags, metric) = count(&LINES);
        let all: Vec<&NgramBag> = bags.iter().collect();
        let cells = rows(&all, &all, &metric, 2).unwrap();
        let square = mirrored_scores(&all, &all, true, &metric, 2, score).unwrap();
        assert_eq!(square, scores(&all, &all, &metric, 1, score).unwrap());
        let width = metric.row_width();
        for (i, h) in LINES.iter().enumerate() {
            for (j, r) in LINES.iter().enumerate() {
                let k = (i * LINES.len() + j) * width;
                let cell = &cells[k..k + width];
                assert_eq!(cell, one_row(h, r), "{metric:?} {h:?} / {r:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::{self, Grouped};

    /// Row = [hypothesis length, reference length, common prefix length].
    struct Prefix;
    struct PrefixScorer<'a>(&'a str);

    impl<'a> SegmentScorer<'a, str> for PrefixScorer<'a> {
        fn prepare<I: Iterator<Item = &'a str>>(&mut self, mut refs: I) -> Result<()> {
            self.0 = refs.next().unwrap_or("");
            Ok(())
        }
        fn score(&mut self, h: &'a str, row: &mut [i64]) -> Result<()> {
            let common = h
                .bytes()
                .zip(self.0.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            row.copy_from_slice(&[h.len() as i64, self.0.len() as i64, common as i64]);
            Ok(())
        }
    }

    impl<'a> StatsMetric<'a, str> for Prefix {
        type Scorer = PrefixScorer<'a>;
        fn width(&self) -> usize {
            3
        }
        fn scorer(&self) -> PrefixScorer<'a> {
            PrefixScorer("")
        }
    }

    #[test]
    fn cells_equal_one_segment_rows() {
        let hyps: Vec<String> = (0..70).map(|i| "ab".repeat(i % 7)).collect();
        let refs: Vec<String> = (0..90).map(|i| "aba".repeat(i % 5)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        for workers in [1, 2, -1] {
            let rows = rows(&hyps, &refs, &Prefix, workers).unwrap();
            let scores = scores(&hyps, &refs, &Prefix, workers, |rows| {
                Ok(rows.chunks(3).map(|row| row[2] as f64).collect())
            })
            .unwrap();
            assert_eq!((rows.len(), scores.len()), (70 * 90 * 3, 70 * 90));
            for (i, h) in hyps.iter().enumerate() {
                for (j, r) in refs.iter().enumerate() {
                    let one =
                        statistics::rows(&Grouped::new(&[*h][..], &[vec![*r]][..]), &Prefix, 1)
                            .unwrap();
                    let k = i * refs.len() + j;
                    assert_eq!(rows[3 * k..3 * k + 3], one[..]);
                    assert_eq!(scores[k], one[2] as f64);
                }
            }
        }
    }

    #[test]
    fn empty_sides() {
        let some = ["a"];
        assert!(rows(&some, &[], &Prefix, 1).unwrap().is_empty());
        assert!(rows(&[], &some, &Prefix, 1).unwrap().is_empty());
        let failing = scores(&some, &some, &Prefix, 1, |_| {
            Err(Error::invalid_input("no"))
        });
        assert!(scores(&some, &some, &Prefix, 1, |_| Ok(vec![])).is_err());
        assert!(failing.is_err());
    }
}
