//! Longest common subsequences of two symbol sequences, bit-parallel (Allison–Dix, Hyyrö):
//! one pass over `a` with a word of bits per 64 symbols of `b`, instead of the `|a| × |b|`
//! table. [`Lcs::indices`] also keeps each row's bits, so a backtrack can read any cell of
//! the table, and returns the positions in `a` of the one subsequence rouge-score's
//! `_backtrack_norec` picks.
//!
//! Symbols are dense ids (`u32`) indexing a table of match masks; [`super::ABSENT`] (a
//! hypothesis token no reference has) matches nothing.
//!
//! ```
//! use bleuprint::count::lcs::Lcs;
//!
//! let mut lcs = Lcs::default();
//! assert_eq!(lcs.length(&[1, 2, 3, 4], &[2, 4, 3]), 2);
//! let mut at = Vec::new();
//! lcs.indices(&[1, 2, 3, 4], &[2, 4, 3], &mut at)?;
//! assert_eq!(at, [1, 2]); // "2 3", the pick of rouge-score's backtrack
//! # Ok::<(), bleuprint::Error>(())
//! ```

use super::ABSENT;
use crate::error::{Error, Result};

/// Reusable scratch for LCS computations: the match masks of the current `b` and the rows.
#[derive(Debug, Default, Clone)]
pub struct Lcs {
    /// `masks[id * words + w]`: bit `j % 64` of word `w` is set where `b[j] == id`.
    masks: Vec<u64>,
    /// The current row's bits (`length`), or every row's (`indices`): `(|a| + 1) × words`.
    rows: Vec<u64>,
    /// For one-word rows, the position in `a` after which each kept row comes.
    positions: Vec<u32>,
}

/// Words of bits for `n` symbols.
#[inline]
fn words_for(n: usize) -> usize {
    n.div_ceil(64).max(1)
}

impl Lcs {
    /// Sets the masks of `b` (each `words` long); ids of `b` beyond the table grow it.
    fn set_masks(&mut self, b: &[u32], words: usize) {
        for (j, &id) in b.iter().enumerate() {
            if id == ABSENT {
                continue;
            }
            let base = id as usize * words;
            if self.masks.len() < base + words {
                self.masks.resize(base + words, 0);
            }
            if let Some(word) = self.masks.get_mut(base + j / 64) {
                *word |= 1 << (j % 64);
            }
        }
    }

    /// Clears what [`Lcs::set_masks`] set, leaving the table all zeros again.
    fn clear_masks(&mut self, b: &[u32], words: usize) {
        for &id in b {
            if id == ABSENT {
                continue;
            }
            let base = id as usize * words;
            if let Some(mask) = self.masks.get_mut(base..base + words) {
                mask.fill(0);
            }
        }
    }

    /// The match mask of symbol `id` (`words` long), or `None` where `b` lacks it.
    #[inline]
    fn mask(masks: &[u64], id: u32, words: usize) -> Option<&[u64]> {
        if id == ABSENT {
            return None;
        }
        let base = id as usize * words;
        masks.get(base..base + words)
    }

    /// One row of the recurrence: `row` (the bits after `a[..i]`) becomes the bits after
    /// `a[..=i]`, for the match mask `mask` of `a[i]`: `V' = (V + (V & M)) | (V & !M)`, the
    /// sum carried across words.
    #[inline]
    fn step(mask: &[u64], row: &mut [u64]) {
        let mut carry = false;
        for (v, &m) in row.iter_mut().zip(mask) {
            let u = *v & m;
            let (sum, c1) = v.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *v = sum | (*v & !m);
        }
    }

    /// Zero bits among the first `j` bits of `row`: the table's cell `(i, j)` for the row
    /// after `a[..i]`.
    #[inline]
    fn cell(row: &[u64], j: usize) -> usize {
        j - ones_below(row, j)
    }

    /// Prepares `b` for any number of [`Lcs::length_with`] and [`Lcs::indices_with`] calls;
    /// [`Lcs::release`] the same `b` afterwards.
    pub fn prepare(&mut self, b: &[u32]) {
        self.set_masks(b, words_for(b.len()));
    }

    /// Forgets the prepared `b`.
    pub fn release(&mut self, b: &[u32]) {
        self.clear_masks(b, words_for(b.len()));
    }

    /// The length of a longest common subsequence of `a` and the prepared `b`.
    pub fn length_with(&mut self, a: &[u32], b: &[u32]) -> usize {
        if a.is_empty() || b.is_empty() {
            return 0;
        }
        let words = words_for(b.len());
        if words == 1 {
            let mut v = u64::MAX;
            for &id in a {
                let m = self.masks.get(id as usize).copied().unwrap_or(0);
                v = v.wrapping_add(v & m) | (v & !m);
            }
            return Self::cell(&[v], b.len());
        }
        let mut row = std::mem::take(&mut self.rows);
        row.clear();
        row.resize(words, u64::MAX);
        for &id in a {
            if let Some(mask) = Self::mask(&self.masks, id, words) {
                Self::step(mask, &mut row);
            }
        }
        let length = Self::cell(&row, b.len());
        self.rows = row;
        length
    }

    /// The positions in `a` (ascending) of the longest common subsequence rouge-score's
    /// `lcs_ind(a, b)` returns, for the prepared `b`: backtracking from the table's last cell,
    /// a diagonal step on equal symbols, else left (`j - 1`) only where that cell is strictly
    /// larger than the one above, else up. Replaces `out`'s content.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] when the rows (`|a| × |b| / 64` words) do not fit in
    /// memory.
    pub fn indices_with(&mut self, a: &[u32], b: &[u32], out: &mut Vec<u32>) -> Result<()> {
        out.clear();
        if a.is_empty() || b.is_empty() {
            return Ok(());
        }
        let words = words_for(b.len());
        if words == 1 {
            self.indices_one_word(a, b.len(), out);
            return Ok(());
        }
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        let cells = (a.len() + 1).saturating_mul(words);
        if rows.try_reserve_exact(cells).is_err() {
            return Err(Error::invalid_input(format!(
                "ROUGE-Lsum: the LCS of a {}-token line against a {}-token line needs more memory \
                 than is available; split such text into shorter lines",
                a.len(),
                b.len()
            )));
        }
        rows.resize(cells, u64::MAX);
        for (i, &id) in a.iter().enumerate() {
            let (done, next) = rows.split_at_mut((i + 1) * words);
            let row = next.get_mut(..words).unwrap_or_default();
            row.copy_from_slice(done.get(i * words..).unwrap_or_default());
            if let Some(mask) = Self::mask(&self.masks, id, words) {
                Self::step(mask, row);
            }
        }
        let table = AllRows {
            rows: &rows,
            words,
            masks: &self.masks,
            a,
            b_len: b.len(),
        };
        backtrack(&table, out);
        self.rows = rows;
        Ok(())
    }

    /// [`Lcs::indices_with`] for a `b` of at most 64 symbols: one word per row. Only the rows
    /// after a symbol `b` holds differ from the row above them, and the backtrack steps
    /// straight up through the others, so only those rows are kept (with their positions in
    /// `a`): an LCS of two lines that share a few words walks a few rows, not every row.
    fn indices_one_word(&mut self, a: &[u32], b_len: usize, out: &mut Vec<u32>) {
        // Grown, never cleared: every row kept is written before it is read.
        if self.rows.len() <= a.len() {
            self.rows.resize(a.len() + 1, 0);
        }
        if self.positions.len() < a.len() {
            self.positions.resize(a.len(), 0);
        }
        let (rows, positions) = (&mut self.rows, &mut self.positions);
        if let Some(first) = rows.first_mut() {
            *first = u64::MAX;
        }
        let (mut v, mut kept) = (u64::MAX, 0);
        for (k, &id) in a.iter().enumerate() {
            // A symbol `b` lacks (or `ABSENT`) has mask 0, which leaves the row as it is; the
            // row is written either way and kept only for a symbol `b` holds (no branch).
            let m = self.masks.get(id as usize).copied().unwrap_or(0);
            v = v.wrapping_add(v & m) | (v & !m);
            if let (Some(row), Some(at)) = (rows.get_mut(kept + 1), positions.get_mut(kept)) {
                (*row, *at) = (v, u32::try_from(k).unwrap_or(u32::MAX));
            }
            kept += usize::from(m != 0);
        }
        let table = KeptRows {
            rows: rows.get(..=kept).unwrap_or_default(),
            positions: positions.get(..kept).unwrap_or_default(),
            masks: &self.masks,
            a,
            b_len,
        };
        backtrack(&table, out);
    }

    /// The length of a longest common subsequence of `a` and `b`.
    pub fn length(&mut self, a: &[u32], b: &[u32]) -> usize {
        self.prepare(b);
        let length = self.length_with(a, b);
        self.release(b);
        length
    }

    /// As [`Lcs::indices_with`], preparing `b` for this one call.
    ///
    /// # Errors
    /// As [`Lcs::indices_with`].
    pub fn indices(&mut self, a: &[u32], b: &[u32], out: &mut Vec<u32>) -> Result<()> {
        self.prepare(b);
        let done = self.indices_with(a, b, out);
        self.release(b);
        done
    }
}

/// The match masks of a `b` of at most 64 symbols into `masks` (replaced): `masks[id]` has bit
/// `j` set where `b[j] == id`, for [`length_with_masks`]. `None` for a longer `b`.
pub fn one_word_masks(b: &[u32], masks: &mut Vec<u64>) -> Option<()> {
    masks.clear();
    if b.len() > 64 {
        return None;
    }
    for (j, &id) in b.iter().enumerate() {
        if id == ABSENT {
            continue;
        }
        let k = id as usize;
        if masks.len() <= k {
            masks.resize(k + 1, 0);
        }
        if let Some(mask) = masks.get_mut(k) {
            *mask |= 1 << j;
        }
    }
    Some(())
}

/// The length of a longest common subsequence of `a` and the `b` of `b_len` (at most 64)
/// symbols whose masks [`one_word_masks`] made: the bit-parallel row, one word.
pub fn length_with_masks(masks: &[u64], a: &[u32], b_len: usize) -> usize {
    let mut v = u64::MAX;
    for &id in a {
        let m = masks.get(id as usize).copied().unwrap_or(0);
        v = v.wrapping_add(v & m) | (v & !m);
    }
    Lcs::cell(&[v], b_len)
}

/// What the backtrack over rows of several words reads: every row (`rows[i * words..]`: the
/// row after `a[..i]`), `b`'s match masks (`words` each), `a` and the length of `b`.
struct AllRows<'t> {
    rows: &'t [u64],
    words: usize,
    masks: &'t [u64],
    a: &'t [u32],
    b_len: usize,
}

/// The ones among the bits below column `j` of a row of words.
#[inline(always)]
fn ones_below(row: &[u64], j: usize) -> usize {
    let (full, rest) = (j / 64, j % 64);
    let mut ones: usize = row.iter().take(full).map(|w| w.count_ones() as usize).sum();
    if rest > 0 {
        ones += row
            .get(full)
            .map_or(0, |w| (w & (u64::MAX >> (64 - rest))).count_ones() as usize);
    }
    ones
}

/// The highest column `c` in `1..=j` whose bit `c - 1` is set in `bits(w)` (word `w` of a
/// row), or 0 for none.
#[inline(always)]
fn highest_below(j: usize, bits: impl Fn(usize) -> u64) -> usize {
    let (mut w, rest) = (j / 64, j % 64);
    // The partial word first, then whole words down to the first.
    let mut word = if rest > 0 {
        bits(w) & (u64::MAX >> (64 - rest))
    } else {
        0
    };
    loop {
        if word != 0 {
            return w * 64 + 64 - word.leading_zeros() as usize;
        }
        if w == 0 {
            return 0;
        }
        w -= 1;
        word = bits(w);
    }
}

/// The backtrack of [`backtrack_rows`] over rows of several words: a walk left along a row
/// ends at the highest column, in any word, whose symbol matches or whose left cell is
/// smaller.
#[inline(always)]
fn backtrack_all_rows(table: &AllRows<'_>, out: &mut Vec<u32>) {
    let AllRows {
        rows,
        words,
        masks,
        a,
        b_len,
    } = *table;
    let row = |i: usize| rows.get(i * words..(i + 1) * words).unwrap_or_default();
    let word = |r: &[u64], w: usize| r.get(w).copied().unwrap_or(u64::MAX);
    let (mut i, mut j) = (a.len(), b_len);
    while i > 0 && j > 0 && ones_below(row(i), j) < j {
        let (here, above) = (row(i), row(i - 1));
        // `ABSENT` has no mask: it matches nothing.
        let matches: &[u64] = match a.get(i - 1) {
            Some(&id) if id != ABSENT => {
                let base = id as usize * words;
                masks.get(base..base + words).unwrap_or_default()
            }
            _ => &[],
        };
        let matched = |w: usize| matches.get(w).copied().unwrap_or(0);
        let column = if ones_below(above, j) > ones_below(here, j) {
            highest_below(j, |w| matched(w) | !word(here, w))
        } else {
            j
        };
        if column == 0 {
            break; // the walk left reaches column 0
        }
        i -= 1;
        if matched((column - 1) / 64) >> ((column - 1) % 64) & 1 == 1 {
            out.push(u32::try_from(i).unwrap_or(u32::MAX));
            j = column - 1;
        } else {
            j = column;
        }
    }
    out.reverse();
}

/// What the one-word backtrack reads: the kept rows (`rows[t + 1]`: the row after
/// `a[positions[t]]`, `rows[0]` the first row; every row left out equals the kept one above
/// it), `b`'s match masks, `a` and the length of `b`.
struct KeptRows<'t> {
    rows: &'t [u64],
    positions: &'t [u32],
    masks: &'t [u64],
    a: &'t [u32],
    b_len: usize,
}

/// A backtrack over the rows of an LCS table: rouge-score's pick, as positions in `a`
/// ascending, into `out`.
trait Backtrack {
    fn walk(&self, out: &mut Vec<u32>);
}

impl Backtrack for KeptRows<'_> {
    #[inline(always)]
    fn walk(&self, out: &mut Vec<u32>) {
        backtrack_rows(self, out);
    }
}

impl Backtrack for AllRows<'_> {
    #[inline(always)]
    fn walk(&self, out: &mut Vec<u32>) {
        backtrack_all_rows(self, out);
    }
}

/// `table`'s backtrack, with the hardware `popcnt` where the processor has it (the portable
/// build counts bits in software, which costs the backtrack half its time).
fn backtrack(table: &impl Backtrack, out: &mut Vec<u32>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has `popcnt`, the one feature the function is built with.
        unsafe { backtrack_popcnt(table, out) };
        return;
    }
    table.walk(out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn backtrack_popcnt(table: &impl Backtrack, out: &mut Vec<u32>) {
    table.walk(out);
}

/// The backtrack itself, one kept row per step. rouge-score steps left from cell `(i, j)` when
/// the cell to the left is strictly larger than the one above: when bit `j - 1` of row `i` is
/// set (the left cell equals this one) and the cell above is one less (its row has more ones
/// below `j`). Once the cell above is one less, it stays so all along the walk left, so the
/// walk ends at the highest column at or below `j` whose symbol matches `a[i - 1]` (a
/// diagonal step) or whose left cell is smaller (a step up): one bit search instead of a step
/// per column. A row left out equals the one above it, so its cell above is never less and
/// the walk steps straight up through it. A cell has a common subsequence left when its row
/// has a zero bit below `j`.
#[inline(always)]
fn backtrack_rows(table: &KeptRows<'_>, out: &mut Vec<u32>) {
    let KeptRows {
        rows,
        positions,
        masks,
        a,
        b_len,
    } = *table;
    let low = |j: usize| if j >= 64 { u64::MAX } else { (1u64 << j) - 1 };
    let row = |t: usize| rows.get(t).copied().unwrap_or(u64::MAX);
    let (mut t, mut j) = (positions.len(), b_len);
    while t > 0 && j > 0 && !row(t) & low(j) != 0 {
        let (here, at) = (row(t), positions.get(t - 1).copied().unwrap_or(0));
        // `ABSENT` has no mask: it matches nothing.
        let matches = a
            .get(at as usize)
            .and_then(|&id| masks.get(id as usize))
            .copied()
            .unwrap_or(0);
        let above_is_less = (row(t - 1) & low(j)).count_ones() > (here & low(j)).count_ones();
        // Bit c - 1 set: the walk along the row stops at column c.
        let stops = if above_is_less {
            (matches | !here) & low(j)
        } else {
            1 << (j - 1)
        };
        if stops == 0 {
            break; // the walk left reaches column 0
        }
        let column = 64 - stops.leading_zeros() as usize;
        t -= 1;
        if matches >> (column - 1) & 1 == 1 {
            out.push(at);
            j = column - 1;
        } else {
            j = column;
        }
    }
    out.reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rouge-score's `_lcs_table` and `_backtrack_norec`, literally: the yardstick.
    fn table_indices(a: &[u32], b: &[u32]) -> (usize, Vec<u32>) {
        let (m, n) = (a.len(), b.len());
        let mut t = vec![vec![0usize; n + 1]; m + 1];
        for i in 1..=m {
            for j in 1..=n {
                t[i][j] = if a[i - 1] == b[j - 1] && a[i - 1] != ABSENT {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        let (mut i, mut j, mut out) = (m, n, Vec::new());
        while i > 0 && j > 0 {
            if a[i - 1] == b[j - 1] && a[i - 1] != ABSENT {
                out.push(u32::try_from(i - 1).unwrap());
                i -= 1;
                j -= 1;
            } else if t[i][j - 1] > t[i - 1][j] {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        out.reverse();
        (t[m][n], out)
    }

    /// A small deterministic generator (xorshift), so the test needs no crate.
    fn sequences(seed: u64, count: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|k| {
                let alphabet = 1 + (next() % 6) as u32;
                let long = if k % 7 == 0 { 150 } else { 20 };
                let (m, n) = ((next() % long) as usize, (next() % long) as usize);
                let mut symbol = || match next() % 9 {
                    0 => ABSENT,
                    s => (s as u32 + next() as u32) % alphabet,
                };
                let a = (0..m).map(|_| symbol()).collect();
                let b = (0..n).map(|_| symbol()).collect();
                (a, b)
            })
            .collect()
    }

    #[test]
    fn equals_the_table_and_its_backtrack() {
        let mut lcs = Lcs::default();
        let mut at = Vec::new();
        for (a, b) in sequences(0x9E37_79B9_7F4A_7C15, 3000) {
            let (length, expected) = table_indices(&a, &b);
            assert_eq!(lcs.length(&a, &b), length, "{a:?} {b:?}");
            lcs.indices(&a, &b, &mut at).unwrap();
            assert_eq!(at, expected, "{a:?} {b:?}");
            assert_eq!(lcs.length(&b, &a), length);
            let mut masks = Vec::new();
            if one_word_masks(&b, &mut masks).is_some() {
                assert_eq!(length_with_masks(&masks, &a, b.len()), length);
            }
        }
        assert!(lcs.masks.iter().all(|&w| w == 0), "masks cleared");
    }

    #[test]
    fn empty_and_absent() {
        let mut lcs = Lcs::default();
        let mut at = vec![9];
        assert_eq!(lcs.length(&[], &[1]), 0);
        lcs.indices(&[1], &[], &mut at).unwrap();
        assert!(at.is_empty());
        assert_eq!(lcs.length(&[ABSENT, 1], &[ABSENT, 1]), 1);
        // 64 and 65 symbols: the carry crosses a word.
        let a: Vec<u32> = (0..130).map(|i| i % 3).collect();
        let b: Vec<u32> = (0..65).map(|i| (i + 1) % 3).collect();
        assert_eq!(lcs.length(&a, &b), table_indices(&a, &b).0);
    }
}
