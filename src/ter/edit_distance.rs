//! sacrebleu's `BeamEditDistance`: Levenshtein distance from a hypothesis (rows `i`) to the
//! reference (columns `j`), computed only in a beam around the length-scaled diagonal, with
//! the trace of edit operations.
//!
//! sacrebleu caches rows in a trie keyed by hypothesis prefixes. Every hypothesis scored
//! against one reference has the same length (shifts keep it), so a row depends only on the
//! prefix above it: here the rows of the current hypothesis are kept and a shifted candidate
//! recomputes only the rows below its longest common prefix with it. The results are the same.
//!
//! Cells outside the beam hold [`INFINITY`]. sacrebleu lets such values grow past its
//! infinity (`1e16 + k` down column 0); here every value is capped at [`INFINITY`]. That
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

/// Beam edit distance against one reference, for hypotheses of one length.
#[derive(Debug, Default)]
pub struct BeamEditDistance {
    reference: Vec<u32>,
    /// `bounds[i]`: the columns `[min_j, max_j)` row `i` computes.
    bounds: Vec<(usize, usize)>,
    /// The hypothesis whose rows `matrix` holds.
    base: Vec<u32>,
    /// `(hyp_len + 1) × (ref_len + 1)` values; cells outside the beam stay [`INFINITY`].
    matrix: Vec<i32>,
    /// Two rows for candidates, so scoring one never disturbs `matrix`.
    row_a: Vec<i32>,
    row_b: Vec<i32>,
}

impl BeamEditDistance {
    /// Prepares for hypotheses of `hyp_len` words against `reference`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] when the matrix cannot be allocated.
    pub fn reset(&mut self, reference: &[u32], hyp_len: usize) -> Result<()> {
        self.reference.clear();
        self.reference.extend_from_slice(reference);
        let width = reference.len() + 1;
        self.bounds.clear();
        self.bounds.push((0, width));
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
        for i in 1..=hyp_len {
            #[allow(clippy::cast_precision_loss)]
            let diagonal = float_to_usize((i as f64 * ratio).floor());
            let min_j = diagonal.saturating_sub(beam);
            let max_j = if i == hyp_len {
                width
            } else {
                width.min(diagonal.saturating_add(beam))
            };
            self.bounds.push((min_j, max_j.max(min_j)));
        }
        let cells = width
            .checked_mul(hyp_len + 1)
            .ok_or_else(|| too_long(hyp_len, reference.len()))?;
        self.matrix.clear();
        self.matrix
            .try_reserve_exact(cells)
            .map_err(|_| too_long(hyp_len, reference.len()))?;
        self.matrix.resize(cells, INFINITY);
        // Row 0: `(j * COST_INS, 'i')`.
        for (cell, j) in self.matrix.iter_mut().zip(0..width) {
            *cell = to_i32(j);
        }
        self.base.clear();
        for row in [&mut self.row_a, &mut self.row_b] {
            row.clear();
            row.resize(width, INFINITY);
        }
        Ok(())
    }

    fn width(&self) -> usize {
        self.reference.len() + 1
    }

    /// The edit distance of `words` (of the length given to [`Self::reset`]); its rows become
    /// the ones candidates start from. `trace` receives the operations from the start.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] if the trace reaches an uncomputed cell, which
    /// sacrebleu reports as an unknown operation (it cannot happen for a valid beam).
    pub fn distance_with_trace(&mut self, words: &[u32], trace: &mut Vec<Op>) -> Result<i32> {
        let width = self.width();
        let n = words.len();
        // Rows up to the common prefix with the previous base stay valid.
        let common = common_prefix(words, &self.base);
        self.base.clear();
        self.base.extend_from_slice(words);
        for i in common + 1..=n {
            let (min_j, max_j) = self.bounds.get(i).copied().unwrap_or((0, 0));
            let word = words.get(i - 1).copied().unwrap_or(u32::MAX);
            let (above, rest) = self.matrix.split_at_mut(i * width);
            let prev = above.get((i - 1) * width..).unwrap_or_default();
            let cur = rest.get_mut(..width).unwrap_or_default();
            compute_row(prev, cur, word, &self.reference, min_j, max_j);
        }
        self.trace(trace)?;
        Ok(self.cell(n, width - 1))
    }

    /// The edit distance of `words`, reusing the rows of the last
    /// [`Self::distance_with_trace`] hypothesis down to their common prefix.
    pub fn distance(&mut self, words: &[u32]) -> i32 {
        let width = self.width();
        let n = words.len();
        let common = common_prefix(words, &self.base);
        if common == n {
            return self.cell(n, width - 1);
        }
        let mut prev = std::mem::take(&mut self.row_a);
        let mut cur = std::mem::take(&mut self.row_b);
        let first = self
            .matrix
            .get(common * width..(common + 1) * width)
            .unwrap_or_default();
        prev.clear();
        prev.extend_from_slice(first);
        for i in common + 1..=n {
            let (min_j, max_j) = self.bounds.get(i).copied().unwrap_or((0, 0));
            let next_max = self.bounds.get(i + 1).map_or(max_j, |&(_, b)| b);
            let word = words.get(i - 1).copied().unwrap_or(u32::MAX);
            compute_row(&prev, &mut cur, word, &self.reference, min_j, max_j);
            // The next row reads one cell left of this row's beam and up to its own end:
            // those cells must read as uncomputed, not as a stale row's values.
            if let Some(left) = min_j.checked_sub(1).and_then(|j| cur.get_mut(j)) {
                *left = INFINITY;
            }
            if let Some(right) = cur.get_mut(max_j..next_max.max(max_j)) {
                right.fill(INFINITY);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        let distance = prev.get(width - 1).copied().unwrap_or(INFINITY);
        self.row_a = prev;
        self.row_b = cur;
        distance
    }

    #[inline]
    fn cell(&self, i: usize, j: usize) -> i32 {
        self.matrix
            .get(i * self.width() + j)
            .copied()
            .unwrap_or(INFINITY)
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
                let (min_j, max_j) = self.bounds.get(i).copied().unwrap_or((0, 0));
                if j < min_j || j >= max_j {
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

/// Computes row `i` into `cur` (columns `[min_j, max_j)`) from row `i - 1` in `prev`.
/// Column 0 is a deletion from the cell above; other cells take the first strictly smaller of
/// diagonal, deletion and insertion, starting from [`INFINITY`].
#[inline]
fn compute_row(
    prev: &[i32],
    cur: &mut [i32],
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
    if start >= max_j {
        return;
    }
    let (Some(diagonal), Some(above), Some(words), Some(out)) = (
        prev.get(start - 1..max_j - 1),
        prev.get(start..max_j),
        reference.get(start - 1..max_j - 1),
        cur.get_mut(start..max_j),
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
                assert_eq!(ed.distance(&other), levenshtein(&other, &reference));
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
        assert_eq!(ed.distance(&[0, 1]), 60);
        // A ratio of 100 or 200 widens the beam to 75 or 125.
        let reference: Vec<u32> = (0..200).collect();
        ed.reset(&reference, 2).unwrap();
        assert_eq!(ed.distance_with_trace(&[0, 199], &mut trace).unwrap(), 200);
        assert_eq!(ed.distance(&[0, 1]), 200);
        ed.reset(&reference, 1).unwrap();
        assert_eq!(ed.distance_with_trace(&[150], &mut trace).unwrap(), 199);
    }
}
