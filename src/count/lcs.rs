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
//! lcs.indices(&[1, 2, 3, 4], &[2, 4, 3], &mut at);
//! assert_eq!(at, [1, 2]); // "2 3", the pick of rouge-score's backtrack
//! ```

use super::ABSENT;

/// Reusable scratch for LCS computations: the match masks of the current `b` and the rows.
#[derive(Debug, Default, Clone)]
pub struct Lcs {
    /// `masks[id * words + w]`: bit `j % 64` of word `w` is set where `b[j] == id`.
    masks: Vec<u64>,
    /// The current row's bits (`length`), or every row's (`indices`): `(|a| + 1) × words`.
    rows: Vec<u64>,
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

    /// One row of the recurrence: `row` (the bits after `a[..i]`) becomes the bits after
    /// `a[..=i]`, for the symbol `id` of `a[i]`: `V' = (V + (V & M)) | (V & !M)`, the sum
    /// carried across words.
    #[inline]
    fn step(masks: &[u64], id: u32, words: usize, row: &mut [u64]) {
        let base = id as usize * words;
        let Some(mask) = masks.get(base..base + words) else {
            return; // a symbol `b` lacks matches nothing: the row stays
        };
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
        let (full, rest) = (j / 64, j % 64);
        let mut ones = row
            .iter()
            .take(full)
            .map(|w| w.count_ones() as usize)
            .sum::<usize>();
        if rest > 0 {
            ones += row
                .get(full)
                .map_or(0, |w| (w & ((1u64 << rest) - 1)).count_ones() as usize);
        }
        j - ones
    }

    /// The length of a longest common subsequence of `a` and `b`.
    pub fn length(&mut self, a: &[u32], b: &[u32]) -> usize {
        if a.is_empty() || b.is_empty() {
            return 0;
        }
        let words = words_for(b.len());
        self.set_masks(b, words);
        let mut row = std::mem::take(&mut self.rows);
        row.clear();
        row.resize(words, u64::MAX);
        for &id in a {
            if id != ABSENT {
                Self::step(&self.masks, id, words, &mut row);
            }
        }
        let length = Self::cell(&row, b.len());
        self.rows = row;
        self.clear_masks(b, words);
        length
    }

    /// The positions in `a` (ascending) of the longest common subsequence rouge-score's
    /// `lcs_ind(a, b)` returns: backtracking from the table's last cell, a diagonal step on
    /// equal symbols, else left (`j - 1`) only where that cell is strictly larger than the one
    /// above, else up. Replaces `out`'s content.
    pub fn indices(&mut self, a: &[u32], b: &[u32], out: &mut Vec<u32>) {
        out.clear();
        if a.is_empty() || b.is_empty() {
            return;
        }
        let words = words_for(b.len());
        self.set_masks(b, words);
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        rows.resize((a.len() + 1) * words, u64::MAX);
        for (i, &id) in a.iter().enumerate() {
            let (done, next) = rows.split_at_mut((i + 1) * words);
            let row = next.get_mut(..words).unwrap_or_default();
            row.copy_from_slice(done.get(i * words..).unwrap_or_default());
            if id != ABSENT {
                Self::step(&self.masks, id, words, row);
            }
        }
        let row = |i: usize| rows.get(i * words..(i + 1) * words).unwrap_or_default();
        let (mut i, mut j) = (a.len(), b.len());
        while i > 0 && j > 0 {
            let (x, y) = (a.get(i - 1).copied(), b.get(j - 1).copied());
            if x == y && x != Some(ABSENT) {
                out.push(u32::try_from(i - 1).unwrap_or(u32::MAX));
                i -= 1;
                j -= 1;
            } else if Self::cell(row(i), j - 1) > Self::cell(row(i - 1), j) {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        out.reverse();
        self.rows = rows;
        self.clear_masks(b, words);
    }
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
            lcs.indices(&a, &b, &mut at);
            assert_eq!(at, expected, "{a:?} {b:?}");
            assert_eq!(lcs.length(&b, &a), length);
        }
        assert!(lcs.masks.iter().all(|&w| w == 0), "masks cleared");
    }

    #[test]
    fn empty_and_absent() {
        let mut lcs = Lcs::default();
        let mut at = vec![9];
        assert_eq!(lcs.length(&[], &[1]), 0);
        lcs.indices(&[1], &[], &mut at);
        assert!(at.is_empty());
        assert_eq!(lcs.length(&[ABSENT, 1], &[ABSENT, 1]), 1);
        // 64 and 65 symbols: the carry crosses a word.
        let a: Vec<u32> = (0..130).map(|i| i % 3).collect();
        let b: Vec<u32> = (0..65).map(|i| (i + 1) % 3).collect();
        assert_eq!(lcs.length(&a, &b), table_indices(&a, &b).0);
    }
}
