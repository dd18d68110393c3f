//! Edit counts and alignments as kaldialign 0.12.0 computes them (Kaldi's
//! `LevenshteinEditDistance` and `LevenshteinAlignment`, and kaldialign's compound forms),
//! which the Open ASR Leaderboard scores with.
//!
//! They differ from RapidFuzz's ([`super::levenshtein`]) in how a tie between optimal
//! alignments is broken, and so in how the errors split into substitutions, deletions and
//! insertions: each cell keeps the counts of the one path its rule picks (a substitution or
//! match when strictly cheapest, else a deletion when strictly cheaper than an insertion, else
//! an insertion). `sclite` sets sclite's costs (insertion 3, deletion 3, substitution 4)
//! instead of 1, 1, 1. With `merge_compounds`, adjacent words of either side concatenated
//! (without a separator) match one word of the other at no cost, when that is strictly cheaper
//! than the cell's standard step: `white paper` against `whitepaper` is no error.
//!
//! ```
//! use bleuprint::metrics::wer::kaldi::{counts, KaldiAlign};
//!
//! let reference: Vec<&[u8]> = vec![b"a", b"white", b"paper"];
//! let hypothesis: Vec<&[u8]> = vec![b"a", b"whitepaper"];
//! let plain = counts(&reference, &hypothesis, KaldiAlign::default());
//! assert_eq!((plain.replace, plain.delete, plain.insert), (1, 1, 0));
//! let merge = KaldiAlign { merge_compounds: true, ..KaldiAlign::default() };
//! let merged = counts(&reference, &hypothesis, merge);
//! assert_eq!(merged.total(), 0);
//! ```

use std::ops::Range;

use super::EditCounts;

/// kaldialign's options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KaldiAlign {
    /// sclite's costs: insertion 3, deletion 3, substitution 4 (else 1, 1, 1).
    pub sclite: bool,
    /// Adjacent words concatenated match one word of the other side at no cost.
    pub merge_compounds: bool,
    /// The Open ASR Leaderboard's pass before kaldialign (`normalize_compound_pairs`, see
    /// [`super::compound_pairs`]): a differing region spelling the same characters on both
    /// sides becomes one joined word on both.
    pub compound_pairs: bool,
}

impl KaldiAlign {
    /// (insertion, deletion, substitution) costs.
    fn costs(self) -> (u64, u64, u64) {
        if self.sclite {
            (3, 3, 4)
        } else {
            (1, 1, 1)
        }
    }
}

/// A cell of the table: the counts along the path its rule picked, and that path's cost.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    insert: usize,
    delete: usize,
    replace: usize,
    cost: u64,
}

/// The step a cell's rule picks, from the cells above-left (`diagonal`), above (`up`: one
/// reference word deleted) and left (`left`: one hypothesis word inserted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Diagonal,
    Delete,
    Insert,
}

/// Kaldi's rule: the diagonal (a match, or a substitution) when strictly cheapest, else a
/// deletion when strictly cheaper than an insertion, else an insertion.
fn standard(diagonal: u64, up: u64, left: u64) -> (Step, u64) {
    if diagonal < up && diagonal < left {
        (Step::Diagonal, diagonal)
    } else if up < left {
        (Step::Delete, up)
    } else {
        (Step::Insert, left)
    }
}

/// Whether `parts` concatenated equal `whole`, without building the concatenation.
fn concatenates_to(parts: &[&[u8]], whole: &[u8]) -> bool {
    let mut rest = whole;
    for part in parts {
        match rest.strip_prefix(*part) {
            Some(after) => rest = after,
            None => return false,
        }
    }
    rest.is_empty()
}

/// The compound steps into cell `(i, j)` (1-based), in kaldialign's order: `k >= 2`
/// reference words ending at `i` against hypothesis word `j` (from cell `(i - k, j - 1)`),
/// then `k >= 2` hypothesis words ending at `j` against reference word `i` (from
/// `(i - 1, j - k)`). Each yields its origin; the caller keeps one only when strictly
/// cheaper than what the cell holds. The search for a `k` stops once the words joined are
/// longer than the word they should equal, as kaldialign's does.
fn compound_origins<'t>(
    reference: &'t [&'t [u8]],
    hypothesis: &'t [&'t [u8]],
    i: usize,
    j: usize,
) -> impl Iterator<Item = (usize, usize)> + 't {
    let joined = |words: &'t [&'t [u8]], end: usize, other: &'t [u8], flip: bool| {
        let mut length = words.get(end - 1).map_or(0, |w| w.len());
        (2..=end)
            .map_while(move |k| {
                length += words.get(end - k).map_or(0, |w| w.len());
                (length <= other.len()).then_some(k)
            })
            .filter(move |&k| {
                words
                    .get(end - k..end)
                    .is_some_and(|parts| concatenates_to(parts, other))
            })
            .map(move |k| if flip { (i - 1, j - k) } else { (i - k, j - 1) })
    };
    let hyp_word = hypothesis.get(j - 1).copied().unwrap_or_default();
    let ref_word = reference.get(i - 1).copied().unwrap_or_default();
    joined(reference, i, hyp_word, false).chain(joined(hypothesis, j, ref_word, true))
}

/// The edit counts kaldialign's `edit_distance(reference, hypothesis, sclite_mode,
/// merge_compounds)` returns (`ins`, `del`, `sub`; their sum is its `total`). Words compare
/// as bytes.
pub fn counts(reference: &[&[u8]], hypothesis: &[&[u8]], options: KaldiAlign) -> EditCounts {
    let words = options.merge_compounds.then_some((reference, hypothesis));
    count_table(reference, hypothesis, options, words)
}

/// [`counts`] of symbols given as ids (characters, or words without `merge_compounds`,
/// which needs their text and is ignored here).
pub fn counts_of_ids(reference: &[u32], hypothesis: &[u32], options: KaldiAlign) -> EditCounts {
    count_table(reference, hypothesis, options, None)
}

/// Words as bytes, for the compound steps: (reference, hypothesis).
type Words<'w> = (&'w [&'w [u8]], &'w [&'w [u8]]);

/// The counts of the table's last cell; compound steps where `words` are given.
fn count_table<T: PartialEq>(
    reference: &[T],
    hypothesis: &[T],
    options: KaldiAlign,
    words: Option<Words<'_>>,
) -> EditCounts {
    // One table per thread, reused: a pair's table is (m + 1) * (n + 1) cells with
    // compounds, and a fresh allocation per pair costs time and leaves the allocator's pages
    // scattered.
    thread_local! {
        static TABLE: std::cell::RefCell<Vec<Cell>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TABLE.with_borrow_mut(|table| {
        table.clear();
        fill_table(reference, hypothesis, options, words, table)
    })
}

fn fill_table<T: PartialEq>(
    reference: &[T],
    hypothesis: &[T],
    options: KaldiAlign,
    words: Option<Words<'_>>,
    table: &mut Vec<Cell>,
) -> EditCounts {
    let (insert_cost, delete_cost, replace_cost) = options.costs();
    let (m, n) = (reference.len(), hypothesis.len());
    // Row `i` of the table: cells (i, 0..=n). Compound steps reach back any number of rows,
    // so then every row is kept; else two are.
    let keep_all = words.is_some();
    let width = n + 1;
    table.reserve(if keep_all { (m + 1) * width } else { 2 * width });
    for j in 0..=n {
        table.push(Cell {
            insert: j,
            cost: j as u64 * insert_cost,
            ..Cell::default()
        });
    }
    for i in 1..=m {
        let (above, here) = if keep_all {
            ((i - 1) * width, i * width)
        } else {
            ((i - 1) % 2 * width, i % 2 * width)
        };
        if table.len() < here + width {
            table.resize(here + width, Cell::default());
        }
        let get = |table: &[Cell], at: usize| table.get(at).copied().unwrap_or_default();
        let first = get(table, above);
        if let Some(cell) = table.get_mut(here) {
            *cell = Cell {
                delete: first.delete + 1,
                cost: first.cost + delete_cost,
                ..first
            };
        }
        for j in 1..=n {
            let same = reference.get(i - 1) == hypothesis.get(j - 1);
            let diagonal = get(table, above + j - 1);
            let up = get(table, above + j);
            let left = get(table, here + j - 1);
            let (step, cost) = standard(
                diagonal.cost + if same { 0 } else { replace_cost },
                up.cost + delete_cost,
                left.cost + insert_cost,
            );
            let mut cell = match step {
                Step::Diagonal => Cell {
                    replace: diagonal.replace + usize::from(!same),
                    ..diagonal
                },
                Step::Delete => Cell {
                    delete: up.delete + 1,
                    ..up
                },
                Step::Insert => Cell {
                    insert: left.insert + 1,
                    ..left
                },
            };
            cell.cost = cost;
            if let Some((reference, hypothesis)) = words {
                for (oi, oj) in compound_origins(reference, hypothesis, i, j) {
                    let origin = get(table, oi * width + oj);
                    if origin.cost < cell.cost {
                        cell = origin; // the words merged: no new error
                    }
                }
            }
            if let Some(slot) = table.get_mut(here + j) {
                *slot = cell;
            }
        }
    }
    let last = if keep_all {
        m * width + n
    } else {
        m % 2 * width + n
    };
    let end = table.get(last).copied().unwrap_or_default();
    EditCounts {
        replace: end.replace,
        delete: end.delete,
        insert: end.insert,
    }
}

/// kaldialign's `align(reference, hypothesis, eps, sclite_mode, merge_compounds)` as spans:
/// each step is the reference words and hypothesis words it covers, in order. An empty
/// reference span is an insertion, an empty hypothesis span a deletion, one word each a match
/// or substitution, and several words on one side a merged compound (kaldialign writes them
/// joined with spaces).
pub fn alignment(
    reference: &[&[u8]],
    hypothesis: &[&[u8]],
    options: KaldiAlign,
) -> Vec<(Range<usize>, Range<usize>)> {
    let words = options.merge_compounds.then_some((reference, hypothesis));
    align_table(reference, hypothesis, options, words)
}

/// [`alignment`] of symbols given as ids (no compounds, as [`counts_of_ids`]).
pub fn alignment_of_ids(
    reference: &[u32],
    hypothesis: &[u32],
    options: KaldiAlign,
) -> Vec<(Range<usize>, Range<usize>)> {
    align_table(reference, hypothesis, options, None)
}

/// The steps of the cheapest path, its cells' origins chosen as [`count_table`] chooses
/// them; compound steps where `words` are given.
fn align_table<T: PartialEq>(
    reference: &[T],
    hypothesis: &[T],
    options: KaldiAlign,
    words: Option<Words<'_>>,
) -> Vec<(Range<usize>, Range<usize>)> {
    let (insert_cost, delete_cost, replace_cost) = options.costs();
    let (m, n) = (reference.len(), hypothesis.len());
    let width = n + 1;
    // Cost and origin of every cell.
    let mut cost = vec![0u64; (m + 1) * width];
    let mut origin = vec![(0usize, 0usize); (m + 1) * width];
    for j in 1..=n {
        if let (Some(c), Some(o)) = (cost.get_mut(j), origin.get_mut(j)) {
            (*c, *o) = (j as u64 * insert_cost, (0, j - 1));
        }
    }
    for i in 1..=m {
        if let (Some(c), Some(o)) = (cost.get_mut(i * width), origin.get_mut(i * width)) {
            (*c, *o) = (i as u64 * delete_cost, (i - 1, 0));
        }
        for j in 1..=n {
            let at = |i: usize, j: usize| cost.get(i * width + j).copied().unwrap_or(u64::MAX);
            let same = reference.get(i - 1) == hypothesis.get(j - 1);
            let (step, mut best) = standard(
                at(i - 1, j - 1) + if same { 0 } else { replace_cost },
                at(i - 1, j) + delete_cost,
                at(i, j - 1) + insert_cost,
            );
            let mut from = match step {
                Step::Diagonal => (i - 1, j - 1),
                Step::Delete => (i - 1, j),
                Step::Insert => (i, j - 1),
            };
            if let Some((reference, hypothesis)) = words {
                for (oi, oj) in compound_origins(reference, hypothesis, i, j) {
                    if at(oi, oj) < best {
                        (best, from) = (at(oi, oj), (oi, oj));
                    }
                }
            }
            if let (Some(c), Some(o)) = (cost.get_mut(i * width + j), origin.get_mut(i * width + j))
            {
                (*c, *o) = (best, from);
            }
        }
    }
    let mut steps = Vec::new();
    let (mut i, mut j) = (m, n);
    while i != 0 || j != 0 {
        let Some(&(pi, pj)) = origin.get(i * width + j) else {
            break;
        };
        steps.push((pi..i, pj..j));
        (i, j) = (pi, pj);
    }
    steps.reverse();
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&[u8]> {
        s.split_whitespace().map(str::as_bytes).collect()
    }

    #[test]
    fn kaldialigns_examples() {
        // kaldialign's README and tests/test_align.py.
        let (a, b) = (words("a b c"), words("a s x c"));
        let c = counts(&a, &b, KaldiAlign::default());
        assert_eq!((c.insert, c.delete, c.replace), (1, 0, 1));
        let sclite = KaldiAlign {
            sclite: true,
            ..KaldiAlign::default()
        };
        let (a, b) = (words("a b"), words("b c"));
        let c = counts(&a, &b, sclite);
        assert_eq!((c.insert, c.delete, c.replace), (1, 1, 0));
        assert_eq!(
            alignment(&a, &b, sclite),
            [(0..1, 0..0), (1..2, 0..1), (2..2, 1..2)]
        );
        let merge = KaldiAlign {
            merge_compounds: true,
            ..KaldiAlign::default()
        };
        let (a, b) = (
            words("the white paper is new"),
            words("the whitepaper is new"),
        );
        assert_eq!(counts(&a, &b, merge).total(), 0);
        assert_eq!(
            alignment(&a, &b, merge),
            [(0..1, 0..1), (1..3, 1..2), (3..4, 2..3), (4..5, 3..4)]
        );
        let (a, b) = (words("newyork city"), words("new york city"));
        assert_eq!(alignment(&a, &b, merge), [(0..1, 0..2), (1..2, 2..3)]);
        assert_eq!(counts(&[], &b, merge).insert, 3);
        assert_eq!(counts(&a, &[], KaldiAlign::default()).delete, 2);
        assert!(alignment(&[], &[], merge).is_empty());
    }
}
