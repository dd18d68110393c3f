//! sacrebleu's `BeamEditDistance`: Levenshtein distance from a hypothesis (rows `i`) to the
//! reference (columns `j`), computed only in a beam around the length-scaled diagonal, with
//! the trace of edit operations.
//!
//! sacrebleu caches rows in a trie keyed by hypothesis prefixes. Every hypothesis scored
//! against one reference has the same length (shifts keep it), so a row depends only on the
//! prefix above it: here the rows of the current hypothesis are kept and a shifted candidate
//! recomputes only the rows below its longest common prefix with it. The results are the same.
//!
//! Cells outside the beam hold `INFINITY`. sacrebleu lets such values grow past its
//! infinity (`1e16 + k` down column 0); here every value is capped at `INFINITY`. That
//! changes no finite cell, the final distance, or any operation on the trace: a finite cell
//! never takes an infinite candidate, and the trace only visits finite cells.

use crate::error::{Error, Result};

/// The value of an uncomputed cell.
pub(crate) const INFINITY: i32 = 1 << 30;
/// sacrebleu's `_BEAM_WIDTH`.
const BEAM_WIDTH: usize = 25;

/// An edit operation, as sacrebleu's trace spells it (before `_flip_trace`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `' '`: the words are equal.
    Nop,
    /// `'s'`: substitution.
    Sub,
    /// `'i'`: a reference word is inserted (moves left in the matrix).
    Ins,
    /// `'d'`: a hypothesis word is deleted (moves up).
    Del,
}

/// The columns of one matrix row: it computes `[min_j, max_j)` and stores `[lo, hi)` at
/// `offset` in the matrix. The stored span adds the cells the next row reads around the beam
/// (one to the left, and up to the next row's end), which stay [`INFINITY`].
#[derive(Debug, Clone, Copy)]
struct Row {
    min_j: usize,
    max_j: usize,
    lo: usize,
    hi: usize,
    offset: usize,
}

/// Beam edit distance against one reference, for hypotheses of one length.
#[derive(Debug, Default)]
pub struct BeamEditDistance {
    reference: Vec<u32>,
    /// Row `i` of the matrix, for `i` in `0..=hyp_len`.
    rows: Vec<Row>,
    /// The hypothesis whose rows `matrix` holds.
    base: Vec<u32>,
    /// The stored span of every row, back to back: memory grows with the beam, not with
    /// `hyp_len × ref_len`.
    matrix: Vec<i32>,
    /// Two full-width rows for candidates, so scoring one never disturbs `matrix`.
    row_a: Vec<i32>,
    row_b: Vec<i32>,
}

/// The rows below the first `common` of a hypothesis' matrix, each with the word it reads:
/// row `i` (1-based; row 0 is the empty prefix) reads `words[i - 1]`.
fn rows_below(words: &[u32], common: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
    words
        .iter()
        .enumerate()
        .skip(common)
        .map(|(k, &word)| (k + 1, word))
}

/// Whether the call was cancelled, asked every 1024 rows.
#[inline]
fn polls_cancelled(row: usize) -> bool {
    row % 1024 == 0 && crate::cancel::checkpoint()
}

/// Scratch larger than this many cells is released after use rather than kept for reuse.
const KEEP_CELLS: usize = 1 << 22;

impl BeamEditDistance {
    /// Prepares for hypotheses of `hyp_len` words against `reference`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] when the matrix cannot be allocated.
    pub fn reset(&mut self, reference: &[u32], hyp_len: usize) -> Result<()> {
        self.reference.clear();
        self.reference.extend_from_slice(reference);
        let width = reference.len() + 1;
        // `length_ratio = n_ref / n_hyp if words_h else 1`, as Python floats.
        #[allow(clippy::cast_precision_loss)] // sacrebleu divides Python ints into a float too
        let ratio = if hyp_len == 0 {
            1.0
        } else {
            reference.len() as f64 / hyp_len as f64
        };
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            float_to_usize((ratio / 2.0 + BEAM_WIDTH as f64).ceil())
        } else {
            BEAM_WIDTH
        };
        let beam_of = |i: usize| -> (usize, usize) {
            if i == 0 {
                return (0, width);
            }
            #[allow(clippy::cast_precision_loss)]
            let diagonal = float_to_usize((i as f64 * ratio).floor());
            let min_j = diagonal.saturating_sub(beam);
            let max_j = if i == hyp_len {
                width
            } else {
                width.min(diagonal.saturating_add(beam))
            };
            (min_j, max_j.max(min_j))
        };
        self.rows.clear();
        let mut offset = 0usize;
        let mut next = beam_of(0);
        for i in 0..=hyp_len {
            let (min_j, max_j) = next;
            next = if i < hyp_len { beam_of(i + 1) } else { next };
            let (lo, hi) = (min_j.saturating_sub(1), max_j.max(next.1));
            self.rows.push(Row {
                min_j,
                max_j,
                lo,
                hi,
                offset,
            });
            offset = offset
                .checked_add(hi - lo)
                .ok_or_else(|| too_long(hyp_len, reference.len()))?;
        }
        if self.matrix.capacity() > KEEP_CELLS.max(offset) {
            self.matrix = Vec::new();
        }
        self.matrix.clear();
        self.matrix
            .try_reserve_exact(offset)
            .map_err(|_| too_long(hyp_len, reference.len()))?;
        self.matrix.resize(offset, INFINITY);
        // Row 0: `(j * COST_INS, 'i')`.
        for (cell, j) in self.matrix.iter_mut().zip(0..width) {
            *cell = to_i32(j);
        }
        self.base.clear();
        for row in [&mut self.row_a, &mut self.row_b] {
            if row.capacity() > KEEP_CELLS.max(width) {
                *row = Vec::new();
            }
            row.clear();
            row.resize(width, INFINITY);
        }
        Ok(())
    }

    fn width(&self) -> usize {
        self.reference.len() + 1
    }

    /// The rows are laid out for hypotheses of the length given to [`Self::reset`]; shifts
    /// keep the length, so another one is a bug in the caller.
    fn check_length(&self, n: usize) -> Result<()> {
        if n + 1 == self.rows.len() {
            Ok(())
        } else {
            let laid_out = match self.rows.len().checked_sub(1) {
                Some(len) => format!("{len} words"),
                None => "no hypothesis (reset was not called)".to_owned(),
            };
            Err(Error::internal(format!(
                "TER: a hypothesis keeps its length through every shift, but {n} words were \
                 scored with rows laid out for {laid_out}"
            )))
        }
    }

    /// Row `i`, for `i` in `0..=hyp_len`: the public methods check the hypothesis length
    /// ([`Self::check_length`]) before reading rows up to it.
    #[inline]
    fn row(&self, i: usize) -> Row {
        debug_assert!(i < self.rows.len(), "TER: row {i} of {}", self.rows.len());
        // In bounds: `reset` pushes rows `0..=hyp_len`, and callers stay within them.
        #[allow(clippy::indexing_slicing)]
        self.rows[i]
    }

    /// The edit distance of `words` (of the length given to [`Self::reset`]); its rows become
    /// the ones candidates start from. `trace` receives the operations from the start.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] if the trace reaches an uncomputed cell, which
    /// sacrebleu reports as an unknown operation (it cannot happen for a valid beam);
    /// [`crate::ErrorKind::Internal`] if `words` does not have the length given to
    /// [`Self::reset`].
    pub fn distance_with_trace(&mut self, words: &[u32], trace: &mut Vec<Op>) -> Result<i32> {
        let n = words.len();
        self.check_length(n)?;
        // Rows up to the common prefix with the previous base stay valid.
        let common = common_prefix(words, &self.base);
        self.base.clear();
        self.base.extend_from_slice(words);
        // Row i (1-based) reads word i - 1.
        for (i, word) in rows_below(words, common) {
            // A cancelled call stops; the row loop discards what this returns.
            if polls_cancelled(i) {
                break;
            }
            let (above, row) = (self.row(i - 1), self.row(i));
            let (before, rest) = self.matrix.split_at_mut(row.offset);
            // In bounds: `reset` lays the rows' spans back to back, so row `i - 1` starts at
            // or before row `i`, and `matrix` holds row `i`'s `hi - lo` cells after its offset.
            #[allow(clippy::indexing_slicing)]
            let (prev, cur) = (&before[above.offset..], &mut rest[..row.hi - row.lo]);
            compute_row(
                (prev, above.lo),
                (cur, row.lo),
                word,
                &self.reference,
                row.min_j,
                row.max_j,
            );
        }
        self.trace(trace)?;
        Ok(self.cell(n, self.width() - 1))
    }

    /// The edit distance of `words`, reusing the rows of the last
    /// [`Self::distance_with_trace`] hypothesis down to their common prefix.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Internal`] if `words` does not have the length given to
    /// [`Self::reset`].
    pub fn distance(&mut self, words: &[u32]) -> Result<i32> {
        let n = words.len();
        self.check_length(n)?;
        let common = common_prefix(words, &self.base);
        if common == n {
            return Ok(self.cell(n, self.width() - 1));
        }
        let mut prev = std::mem::take(&mut self.row_a);
        let mut cur = std::mem::take(&mut self.row_b);
        // Row `common + 1` reads only inside the stored span of row `common`.
        let first = self.row(common);
        // In bounds: row `common`'s span is `hi - lo` cells of `matrix` from its offset, and
        // `hi` is at most the width, the length of `prev`.
        #[allow(clippy::indexing_slicing)]
        prev[first.lo..first.hi]
            .copy_from_slice(&self.matrix[first.offset..first.offset + (first.hi - first.lo)]);
        for (i, word) in rows_below(words, common) {
            if polls_cancelled(i) {
                // The caller discards the result; the rows stay for the next call.
                self.row_a = prev;
                self.row_b = cur;
                return Ok(INFINITY);
            }
            let row = self.row(i);
            compute_row(
                (&prev, 0),
                (&mut cur, 0),
                word,
                &self.reference,
                row.min_j,
                row.max_j,
            );
            // The next row reads this row's stored span: the cells around the beam must read
            // as uncomputed, not as a stale row's values.
            // In bounds: `min_j - 1 < max_j <= hi <= width`, the length of `cur`.
            #[allow(clippy::indexing_slicing)]
            {
                if let Some(j) = row.min_j.checked_sub(1) {
                    cur[j] = INFINITY;
                }
                cur[row.max_j..row.hi].fill(INFINITY);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        // In bounds: `reset` sizes both candidate rows to the width.
        #[allow(clippy::indexing_slicing)]
        let distance = prev[self.width() - 1];
        self.row_a = prev;
        self.row_b = cur;
        Ok(distance)
    }

    /// The value of cell `(i, j)`: [`INFINITY`] outside the stored span.
    #[inline]
    fn cell(&self, i: usize, j: usize) -> i32 {
        let row = self.row(i);
        if j < row.lo || j >= row.hi {
            return INFINITY;
        }
        // In bounds: `lo <= j < hi`, and `matrix` holds the row's `hi - lo` cells from its
        // offset.
        #[allow(clippy::indexing_slicing)]
        self.matrix[row.offset + j - row.lo]
    }

    /// sacrebleu's backward walk from the last cell. Operations are recomputed from the stored
    /// values with the same strict comparisons (diagonal, then deletion, then insertion) that
    /// chose them.
    fn trace(&self, trace: &mut Vec<Op>) -> Result<()> {
        trace.clear();
        let mut i = self.base.len();
        let mut j = self.reference.len();
        while i > 0 || j > 0 {
            let op = if i == 0 {
                Op::Ins
            } else {
                let row = self.row(i);
                if j < row.min_j || j >= row.max_j {
                    None
                } else if j == 0 {
                    Some(Op::Del)
                } else {
                    let equal = self.base.get(i - 1) == self.reference.get(j - 1);
                    let candidates = [
                        (
                            self.cell(i - 1, j - 1) + i32::from(!equal),
                            if equal { Op::Nop } else { Op::Sub },
                        ),
                        (self.cell(i - 1, j) + 1, Op::Del),
                        (self.cell(i, j - 1) + 1, Op::Ins),
                    ];
                    let mut best = (INFINITY, None);
                    for (cost, op) in candidates {
                        if best.0 > cost {
                            best = (cost, Some(op));
                        }
                    }
                    best.1
                }
                .ok_or_else(|| {
                    Error::invalid_input(format!(
                        "TER: the edit-distance trace reached an uncomputed cell ({i}, {j})"
                    ))
                })?
            };
            trace.push(op);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
            }
        }
        trace.reverse();
        Ok(())
    }
}

/// Computes a row (columns `[min_j, max_j)`) into `cur` from the row above in `prev`; each
/// comes with the column its slice starts at. Column 0 is a deletion from the cell above;
/// other cells take the first strictly smaller of diagonal, deletion and insertion, starting
/// from [`INFINITY`].
#[inline]
fn compute_row(
    (prev, prev_lo): (&[i32], usize),
    (cur, cur_lo): (&mut [i32], usize),
    word: u32,
    reference: &[u32],
    min_j: usize,
    max_j: usize,
) {
    let mut left = INFINITY;
    let mut start = min_j;
    if min_j == 0 {
        let (Some(&up), Some(first)) = (prev.first(), cur.first_mut()) else {
            return;
        };
        left = (up + 1).min(INFINITY);
        *first = left;
        start = 1;
    }
    if start >= max_j || start - 1 < prev_lo || start < cur_lo {
        return;
    }
    let (Some(diagonal), Some(above), Some(words), Some(out)) = (
        prev.get(start - 1 - prev_lo..max_j - 1 - prev_lo),
        prev.get(start - prev_lo..max_j - prev_lo),
        reference.get(start - 1..max_j - 1),
        cur.get_mut(start - cur_lo..max_j - cur_lo),
    ) else {
        return;
    };
    // Diagonal and deletion do not depend on this row, so they vectorize. The insertion chain
    // `cur[j] = min(t[j], cur[j-1] + 1)` is `j + prefix_min(t[k] - k)`: a running minimum,
    // half the latency of add-then-min. Capping `t` keeps every value at most INFINITY.
    let mut offset = 0i32;
    for (((&d, &u), &r), c) in diagonal.iter().zip(above).zip(words).zip(out.iter_mut()) {
        offset += 1;
        *c = (d + i32::from(r != word)).min(u + 1).min(INFINITY) - offset;
    }
    let mut offset = 0i32;
    for c in out {
        offset += 1;
        left = left.min(*c);
        *c = left + offset;
    }
}

fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // non-negative and small
fn float_to_usize(x: f64) -> usize {
    x as usize
}

/// A column index as a cell value, capped at [`INFINITY`] like every value (the cap is the
/// module's convention, so the saturation is the intended result, not a hidden failure).
fn to_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(INFINITY).min(INFINITY)
}

fn too_long(hyp_len: usize, ref_len: usize) -> Error {
    Error::invalid_input(format!(
        "TER: a {hyp_len}-word hypothesis against a {ref_len}-word reference needs more memory \
         than is available"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain Levenshtein distance, for comparison where the beam covers every cell.
    fn levenshtein(a: &[u32], b: &[u32]) -> i32 {
        let mut row: Vec<i32> = (0..=b.len() as i32).collect();
        for (i, &x) in a.iter().enumerate() {
            let mut prev = row[0];
            row[0] = i as i32 + 1;
            for (j, &y) in b.iter().enumerate() {
                let next = (prev + i32::from(x != y))
                    .min(row[j + 1] + 1)
                    .min(row[j] + 1);
                prev = row[j + 1];
                row[j + 1] = next;
            }
        }
        row[b.len()]
    }

    /// A literal port of sacrebleu's `_edit_distance` (full matrix, Python's uncapped 1e16
    /// infinity, `'x'` for uncomputed cells), returning the distance and the trace.
    fn sacrebleu_beam(hyp: &[u32], reference: &[u32]) -> (i64, Vec<Op>) {
        const INF: i64 = 10_000_000_000_000_000;
        let (n, m) = (hyp.len(), reference.len());
        let mut dist = vec![vec![(INF, 'x'); m + 1]; n + 1];
        for (j, cell) in dist[0].iter_mut().enumerate() {
            *cell = (j as i64, 'i');
        }
        let ratio = if n == 0 { 1.0 } else { m as f64 / n as f64 };
        let beam = if 25.0 < ratio / 2.0 {
            (ratio / 2.0 + 25.0).ceil() as i64
        } else {
            25
        };
        for i in 1..=n {
            let diag = (i as f64 * ratio).floor() as i64;
            let min_j = (diag - beam).max(0) as usize;
            let mut max_j = ((m + 1) as i64).min(diag + beam).max(0) as usize;
            if i == n {
                max_j = m + 1;
            }
            for j in min_j..max_j {
                if j == 0 {
                    dist[i][0] = (dist[i - 1][0].0 + 1, 'd');
                    continue;
                }
                let (cost, op) = if hyp[i - 1] == reference[j - 1] {
                    (0, ' ')
                } else {
                    (1, 's')
                };
                let ops = [
                    (dist[i - 1][j - 1].0 + cost, op),
                    (dist[i - 1][j].0 + 1, 'd'),
                    (dist[i][j - 1].0 + 1, 'i'),
                ];
                for (c, o) in ops {
                    if dist[i][j].0 > c {
                        dist[i][j] = (c, o);
                    }
                }
            }
        }
        let (mut i, mut j, mut trace) = (n, m, Vec::new());
        while i > 0 || j > 0 {
            let op = dist[i][j].1;
            trace.push(match op {
                ' ' => Op::Nop,
                's' => Op::Sub,
                'i' => Op::Ins,
                'd' => Op::Del,
                _ => panic!("unknown operation at ({i}, {j})"),
            });
            match op {
                ' ' | 's' => (i, j) = (i - 1, j - 1),
                'i' => j -= 1,
                _ => i -= 1,
            }
        }
        trace.reverse();
        (dist[n][m].0, trace)
    }

    /// xorshift: deterministic pseudo-random numbers without a dependency.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn matches_a_literal_port_of_sacrebleu() {
        let mut state = 0x9E37_79B9_7F4A_7C15;
        let mut ed = BeamEditDistance::default();
        let mut trace = Vec::new();
        for round in 0..150 {
            let vocab = 2 + next(&mut state) % 6;
            // Mostly similar lengths, sometimes far apart (the beam widens past ratio 50).
            let n = (next(&mut state) % 90) as usize;
            let m = if round % 5 == 0 {
                (next(&mut state) % 400) as usize
            } else {
                (n as u64 + next(&mut state) % 20).saturating_sub(10) as usize
            };
            let junk = n.min((next(&mut state) % 50) as usize);
            let mut words = |len: usize| -> Vec<u32> {
                (0..len)
                    .map(|_| (next(&mut state) % vocab) as u32)
                    .collect()
            };
            let reference = words(m);
            let mut hyp = words(n);
            if round % 3 == 1 {
                // Junk, then the reference: the best path runs down column 0, then along the
                // beam's left edge.
                hyp = words(junk);
                hyp.extend_from_slice(&reference);
            }
            let n = hyp.len();
            ed.reset(&reference, n).unwrap();
            for _ in 0..4 {
                let (expected, expected_trace) = sacrebleu_beam(&hyp, &reference);
                assert_eq!(
                    i64::from(ed.distance_with_trace(&hyp, &mut trace).unwrap()),
                    expected
                );
                assert_eq!(trace, expected_trace);
                // Candidates: the base with a random stretch rewritten.
                for _ in 0..6 {
                    let mut other = hyp.clone();
                    if n > 0 {
                        let from = (next(&mut state) as usize) % n;
                        let to = from + (next(&mut state) as usize) % (n - from) + 1;
                        for w in &mut other[from..to] {
                            *w = (next(&mut state) % vocab) as u32;
                        }
                    }
                    let (expected, _) = sacrebleu_beam(&other, &reference);
                    assert_eq!(
                        i64::from(ed.distance(&other).unwrap()),
                        expected,
                        "n={n} m={m}"
                    );
                }
                // The next base shares a prefix with this one.
                if n > 0 {
                    let from = (next(&mut state) as usize) % n;
                    for w in &mut hyp[from..] {
                        *w = (next(&mut state) % vocab) as u32;
                    }
                }
            }
        }
    }

    #[test]
    fn small_inputs_are_levenshtein() {
        let reference = [1, 2, 3, 4, 5];
        let mut ed = BeamEditDistance::default();
        let mut trace = Vec::new();
        for hyp in [
            vec![1, 2, 3, 4, 5],
            vec![5, 4, 3, 2, 1],
            vec![9, 9, 9, 9, 9],
            vec![2, 3, 4, 5, 1],
        ] {
            ed.reset(&reference, hyp.len()).unwrap();
            let expected = levenshtein(&hyp, &reference);
            assert_eq!(ed.distance_with_trace(&hyp, &mut trace).unwrap(), expected);
            for other in [[1, 1, 1, 1, 1], [1, 2, 3, 9, 9], [5, 1, 2, 3, 4]] {
                assert_eq!(
                    ed.distance(&other).unwrap(),
                    levenshtein(&other, &reference)
                );
            }
        }
    }

    #[test]
    fn trace_prefers_diagonal_then_deletion_then_insertion() {
        let mut ed = BeamEditDistance::default();
        let mut trace = Vec::new();
        ed.reset(&[1, 2], 2).unwrap();
        assert_eq!(ed.distance_with_trace(&[2, 1], &mut trace).unwrap(), 2);
        assert_eq!(trace, [Op::Sub, Op::Sub]);
        ed.reset(&[1, 2, 3], 2).unwrap();
        assert_eq!(ed.distance_with_trace(&[2, 3], &mut trace).unwrap(), 1);
        assert_eq!(trace, [Op::Ins, Op::Nop, Op::Nop]);
        ed.reset(&[1], 0).unwrap();
        assert_eq!(ed.distance_with_trace(&[], &mut trace).unwrap(), 1);
        assert_eq!(trace, [Op::Ins]);
    }

    #[test]
    fn a_hypothesis_of_another_length_is_an_internal_error() {
        let mut ed = BeamEditDistance::default();
        let mut trace = Vec::new();
        let err = ed.distance(&[1]).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Internal);
        assert!(err.message().contains("reset was not called"), "{err}");
        ed.reset(&[1, 2, 3], 2).unwrap();
        for words in [&[1][..], &[1, 2, 3]] {
            let err = ed.distance_with_trace(words, &mut trace).unwrap_err();
            assert_eq!(err.kind(), crate::ErrorKind::Internal);
            assert!(err.message().contains("laid out for 2 words"), "{err}");
            assert_eq!(
                ed.distance(words).unwrap_err().kind(),
                crate::ErrorKind::Internal
            );
        }
        // The rows are untouched: the right length still scores.
        assert_eq!(ed.distance_with_trace(&[1, 3], &mut trace).unwrap(), 1);
        assert_eq!(ed.distance(&[1, 2]).unwrap(), 1);
    }

    #[test]
    fn beam_limits_long_mismatched_lengths() {
        // Values from sacrebleu's BeamEditDistance. 60 reference words against 2: the beam
        // (25) keeps row 1 at columns 5..55 and row 2 at 35..61, so neither word's match is
        // used (Levenshtein would give 58).
        let reference: Vec<u32> = (0..60).collect();
        let mut ed = BeamEditDistance::default();
        let mut trace = Vec::new();
        ed.reset(&reference, 2).unwrap();
        assert_eq!(ed.distance_with_trace(&[0, 59], &mut trace).unwrap(), 60);
        let mut expected = vec![Op::Ins; 53];
        expected.extend([Op::Sub, Op::Sub]);
        expected.extend([Op::Ins; 5]);
        assert_eq!(trace, expected);
        assert_eq!(ed.distance(&[0, 1]).unwrap(), 60);
        // A ratio of 100 or 200 widens the beam to 75 or 125.
        let reference: Vec<u32> = (0..200).collect();
        ed.reset(&reference, 2).unwrap();
        assert_eq!(ed.distance_with_trace(&[0, 199], &mut trace).unwrap(), 200);
        assert_eq!(ed.distance(&[0, 1]).unwrap(), 200);
        ed.reset(&reference, 1).unwrap();
        assert_eq!(ed.distance_with_trace(&[150], &mut trace).unwrap(), 199);
    }
}
