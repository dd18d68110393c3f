//! ROUGE-Lsum's union: which positions of each reference line some LCS against a hypothesis
//! line has used, and a cheap test of whether a hypothesis line could still add one.
//!
//! A line's unused positions are bits (one word per 64 tokens). The ids at those positions
//! are a bitset too, and so are each hypothesis line's ids, all folded onto at most
//! [`MAX_ID_WORDS`] words (bit `id % width`): a hypothesis line whose folded ids miss a
//! reference line's shares no token with its unused positions, so its LCS cannot add to the
//! union and is never computed. While the segment has at most `64 × MAX_ID_WORDS` ids the
//! test is exact; past that, a pair that passes may still add nothing, which only costs the
//! LCS. Each folded bit of a line counts its unused positions, so using a position updates the
//! bitset in place (its bit clears when its count reaches zero) rather than folding the line
//! again.

use crate::count::ngrams::ABSENT;

/// Words of the folded id bitsets at most (512 ids before two share a bit).
const MAX_ID_WORDS: usize = 8;

/// The union of one hypothesis against one reference, line by line.
#[derive(Debug, Default)]
pub struct LineUnion {
    /// Reference line `l`'s unused positions: bits of words `starts[l]..starts[l + 1]`.
    unused: Vec<u64>,
    starts: Vec<usize>,
    /// Reference line `l`'s ids at unused positions, folded: `id_words` words from
    /// `l * id_words`.
    unused_ids: Vec<u64>,
    /// Per folded bit of `unused_ids` (the same layout, 64 per word): the unused positions
    /// whose id folds onto it. A count that reached `u16::MAX` stays there and its bit stays
    /// set (a bit set too long only costs an LCS).
    unused_counts: Vec<u16>,
    /// Hypothesis line `k`'s ids, folded the same way.
    hypothesis_ids: Vec<u64>,
    /// A power of two, so folding is a mask.
    id_words: usize,
    /// One past the reference lines' largest id.
    id_bound: usize,
}

/// Sets the bit of every id of `ids` (but [`ABSENT`]) in `bits`, `bits.len()` a power of two,
/// calling `each(bit)` for every id folded.
fn fold(ids: impl Iterator<Item = u32>, bits: &mut [u64], mut each: impl FnMut(usize)) {
    let fold = bits.len() * 64 - 1;
    for id in ids.filter(|&id| id != ABSENT) {
        let bit = id as usize & fold;
        if let Some(word) = bits.get_mut(bit / 64) {
            *word |= 1 << (bit % 64);
            each(bit);
        }
    }
}

/// The positions whose bits are set in `words` (bit `k % 64` of word `k / 64`), ascending.
fn set_bits(words: impl Iterator<Item = u64>) -> impl Iterator<Item = usize> {
    words.enumerate().flat_map(|(w, word)| {
        let mut left = word;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let bit = left.trailing_zeros() as usize;
                left &= left - 1;
                w * 64 + bit
            })
        })
    })
}

/// `width` words from `width * index` of `words`.
fn words_of(words: &[u64], index: usize, width: usize) -> &[u64] {
    words
        .get(index * width..(index + 1) * width)
        .unwrap_or_default()
}

impl LineUnion {
    /// Starts a union over `reference_lines` (every position unused) for `hypothesis_lines`.
    pub fn reset<'a>(
        &mut self,
        reference_lines: impl Iterator<Item = &'a [u32]> + Clone,
        hypothesis_lines: impl Iterator<Item = &'a [u32]>,
    ) {
        let largest = reference_lines
            .clone()
            .flat_map(|line| line.iter().copied())
            .filter(|&id| id != ABSENT)
            .max()
            .map_or(0, |id| id as usize);
        self.id_bound = largest + 1;
        let width = (largest / 64 + 1).next_power_of_two().min(MAX_ID_WORDS);
        self.id_words = width;
        self.unused.clear();
        self.starts.clear();
        self.unused_ids.clear();
        self.unused_counts.clear();
        for line in reference_lines {
            self.starts.push(self.unused.len());
            let (full, rest) = (line.len() / 64, line.len() % 64);
            self.unused.extend(std::iter::repeat_n(u64::MAX, full));
            if rest > 0 {
                self.unused.push((1 << rest) - 1);
            }
            let at = self.unused_ids.len();
            self.unused_ids.resize(at + width, 0);
            self.unused_counts.resize((at + width) * 64, 0);
            let counts = self.unused_counts.get_mut(at * 64..).unwrap_or_default();
            fold(
                line.iter().copied(),
                self.unused_ids.get_mut(at..).unwrap_or_default(),
                |bit| {
                    if let Some(count) = counts.get_mut(bit) {
                        *count = count.saturating_add(1);
                    }
                },
            );
        }
        self.starts.push(self.unused.len());
        self.hypothesis_ids.clear();
        for line in hypothesis_lines {
            let at = self.hypothesis_ids.len();
            self.hypothesis_ids.resize(at + width, 0);
            fold(
                line.iter().copied(),
                self.hypothesis_ids.get_mut(at..).unwrap_or_default(),
                |_| {},
            );
        }
    }

    /// One past the largest id of the reference lines.
    pub fn id_bound(&self) -> usize {
        self.id_bound
    }

    /// Whether hypothesis line `hypothesis_line` may add to reference line `line`'s union:
    /// false only when it shares no token with the line's unused positions.
    pub fn may_add(&self, line: usize, hypothesis_line: usize) -> bool {
        let ids = words_of(&self.unused_ids, line, self.id_words);
        let other = words_of(&self.hypothesis_ids, hypothesis_line, self.id_words);
        ids.iter().zip(other).any(|(&u, &p)| u & p != 0)
    }

    /// Where reference line `line`'s unused bits lie in `unused`.
    fn unused_span(&self, line: usize) -> std::ops::Range<usize> {
        match (self.starts.get(line), self.starts.get(line + 1)) {
            (Some(&start), Some(&end)) => start..end,
            _ => 0..0,
        }
    }

    /// Adds `positions` of reference line `line` (its tokens `ids`) to the union.
    pub fn add(&mut self, line: usize, ids: &[u32], positions: &[u32]) {
        let span = self.unused_span(line);
        let width = self.id_words;
        let fold = width * 64 - 1;
        let unused = self.unused.get_mut(span).unwrap_or_default();
        let folded = self
            .unused_ids
            .get_mut(line * width..(line + 1) * width)
            .unwrap_or_default();
        let counts = self
            .unused_counts
            .get_mut(line * width * 64..(line + 1) * width * 64)
            .unwrap_or_default();
        for &k in positions {
            let Some(word) = unused.get_mut(k as usize / 64) else {
                continue;
            };
            let position = 1 << (k % 64);
            if *word & position == 0 {
                continue; // used already
            }
            *word &= !position;
            let Some(&id) = ids.get(k as usize).filter(|&&id| id != ABSENT) else {
                continue;
            };
            let bit = id as usize & fold;
            if let Some(count) = counts.get_mut(bit).filter(|c| **c != u16::MAX) {
                *count -= 1;
                if *count == 0 {
                    if let Some(word) = folded.get_mut(bit / 64) {
                        *word &= !(1 << (bit % 64));
                    }
                }
            }
        }
    }

    /// The used positions of reference line `line` (`len` tokens), ascending.
    pub fn used(&self, line: usize, len: usize) -> impl Iterator<Item = usize> + '_ {
        let words = self.unused.get(self.unused_span(line)).unwrap_or_default();
        // Bits past the line's end are never unused.
        set_bits(words.iter().map(|w| !w)).take_while(move |&k| k < len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_and_tests_lines() {
        let lines: [&[u32]; 2] = [&[1, 2, 3, 2], &[600, 4]];
        let hypothesis: [&[u32]; 4] = [&[ABSENT], &[2], &[88], &[3, 1]];
        let mut union = LineUnion::default();
        union.reset(lines.iter().copied(), hypothesis.iter().copied());
        // 601 ids fold onto 8 words: 600 and 88 share a bit.
        assert_eq!(union.id_words, 8);
        assert_eq!(union.id_bound(), 601);
        assert!(!union.may_add(0, 0) && !union.may_add(1, 0));
        assert!(union.may_add(0, 1) && !union.may_add(1, 1));
        assert!(union.may_add(1, 2), "a folded bit may pass, never block");
        union.add(0, lines[0], &[1]);
        assert!(union.may_add(0, 1), "2 is still unused at position 3");
        union.add(0, lines[0], &[3, 1]);
        assert!(!union.may_add(0, 1) && union.may_add(0, 3));
        assert_eq!(union.used(0, 4).collect::<Vec<_>>(), [1, 3]);
        // A line of 70 tokens spans two words.
        let long: Vec<u32> = (0..70).collect();
        union.reset(
            std::iter::once(long.as_slice()),
            [&[70u32][..], &[69, 68]].into_iter(),
        );
        assert_eq!(union.id_words, 2);
        union.add(0, &long, &[0, 69]);
        assert_eq!(union.used(0, 70).collect::<Vec<_>>(), [0, 69]);
        assert!(!union.may_add(0, 0) && union.may_add(0, 1));
    }
}
