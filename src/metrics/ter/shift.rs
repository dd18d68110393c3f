//! The shift search of sacrebleu's `lib_ter.py`: `translation_edit_rate`, `_shift`,
//! `_find_shifted_pairs`, `_perform_shift` and `trace_to_alignment`, on interned word ids.

use super::edit_distance::{BeamEditDistance, Op};
use crate::error::to_i64;
use crate::error::{Error, Result};

/// `_MAX_SHIFT_SIZE`: the longest block a shift moves.
const MAX_SHIFT_SIZE: usize = 10;
/// `_MAX_SHIFT_DIST`: the largest distance between a block in the hypothesis and its match.
const MAX_SHIFT_DIST: usize = 50;
/// `_MAX_SHIFT_CANDIDATES`: candidates evaluated per hypothesis/reference pair, over all rounds.
const MAX_SHIFT_CANDIDATES: usize = 1000;

/// Buffers for [`translation_edit_rate`], reused across calls.
#[derive(Debug, Default)]
pub struct ShiftScratch {
    ed: BeamEditDistance,
    words: Vec<u32>,
    shifted: Vec<u32>,
    trace: Vec<Op>,
    alignment: Alignment,
    occurrences: Occurrences,
}

/// Where each word occurs in the reference, so the pair search visits only matching starts.
#[derive(Debug, Default)]
struct Occurrences {
    /// `first[id]`: the first reference position holding `id`, or [`NONE`].
    first: Vec<usize>,
    /// `next[r]`: the next position after `r` holding the same word, or [`NONE`].
    next: Vec<usize>,
}

/// No position: a position is below the reference's length, so never `usize::MAX`.
const NONE: usize = usize::MAX;

impl Occurrences {
    fn build(&mut self, reference: &[u32]) {
        let ids = reference.iter().max().map_or(0, |&id| id as usize + 1);
        self.first.clear();
        self.first.resize(ids, NONE);
        self.next.clear();
        self.next.resize(reference.len(), NONE);
        for (r, (&id, next)) in reference.iter().zip(self.next.iter_mut()).enumerate().rev() {
            debug_assert!(
                (id as usize) < self.first.len(),
                "`first` has a slot for every index"
            );
            if let Some(first) = self.first.get_mut(id as usize) {
                *next = *first;
                *first = r;
            }
        }
    }

    /// The positions of `id` in `lo..hi`, in increasing order.
    fn positions(&self, id: u32, lo: usize, hi: usize) -> impl Iterator<Item = usize> + '_ {
        // `first` covers the ids up to the reference's largest: a larger id (a hypothesis word
        // the reference lacks) has no position.
        let start = self.first.get(id as usize).copied().unwrap_or(NONE);
        std::iter::successors(Some(start), |&r| self.next.get(r).copied())
            .take_while(|&r| r != NONE)
            .skip_while(move |&r| r < lo)
            .take_while(move |&r| r < hi)
    }
}

/// `trace_to_alignment` of the flipped trace. The error lists are kept as prefix sums, since
/// `_shift` only asks whether a range holds an error.
#[derive(Debug, Default)]
struct Alignment {
    /// `align[pos_ref] = pos_hyp + 1`: sacrebleu's alignment (-1 before the first hypothesis
    /// word) plus one, i.e. the number of hypothesis words up to the aligned one, which is
    /// also the shift target sacrebleu derives from it. Every reference position gets one.
    align: Vec<usize>,
    /// `hyp_errors[k]`: errors among the first `k` hypothesis words.
    hyp_errors: Vec<u32>,
    /// `ref_errors[k]`: errors among the first `k` reference words.
    ref_errors: Vec<u32>,
}

impl Alignment {
    /// Reads the trace of rewriting the hypothesis into the reference as sacrebleu reads its
    /// flip (a deletion of a hypothesis word becomes an insertion, and the reverse).
    fn build(&mut self, trace: &[Op]) {
        self.align.clear();
        self.hyp_errors.clear();
        self.ref_errors.clear();
        self.hyp_errors.push(0);
        self.ref_errors.push(0);
        // sacrebleu's `pos_hyp + 1`.
        let mut hyp_words = 0usize;
        let (mut hyp_errors, mut ref_errors) = (0u32, 0u32);
        for &op in trace {
            match op {
                Op::Nop | Op::Sub => {
                    hyp_words += 1;
                    self.align.push(hyp_words);
                    let error = u32::from(op == Op::Sub);
                    hyp_errors += error;
                    ref_errors += error;
                    self.hyp_errors.push(hyp_errors);
                    self.ref_errors.push(ref_errors);
                }
                // Flipped to 'i': a hypothesis word with no reference counterpart.
                Op::Del => {
                    hyp_words += 1;
                    hyp_errors += 1;
                    self.hyp_errors.push(hyp_errors);
                }
                // Flipped to 'd': a reference word, aligned after the last hypothesis word.
                Op::Ins => {
                    self.align.push(hyp_words);
                    ref_errors += 1;
                    self.ref_errors.push(ref_errors);
                }
            }
        }
    }

    /// Whether words `start..start + len` of one side hold an error, from that side's prefix
    /// sums.
    #[inline]
    fn has_error(prefix: &[u32], start: usize, len: usize) -> bool {
        debug_assert!(
            start + len < prefix.len(),
            "TER: error prefix sums too short"
        );
        // In bounds: `prefix` has one sum per word plus the leading 0, and callers pass a
        // block that the pair search found inside that side's words.
        #[allow(clippy::indexing_slicing)]
        let (before, after) = (prefix[start], prefix[start + len]);
        after != before
    }
}

/// `_perform_shift(words, start, length, target)` into `out`. Python's slices clamp, which
/// matters when the target lies inside the block: `words[start + length : length + target]`.
pub fn perform_shift(
    words: &[u32],
    start: usize,
    length: usize,
    target: usize,
    out: &mut Vec<u32>,
) {
    let slice = |from: usize, to: usize| {
        let to = to.min(words.len());
        // In bounds: `from.min(to) <= to <= words.len()` (Python's clamping).
        #[allow(clippy::indexing_slicing)]
        &words[from.min(to)..to]
    };
    let end = start + length;
    out.clear();
    if target < start {
        out.extend_from_slice(slice(0, target));
        out.extend_from_slice(slice(start, end));
        out.extend_from_slice(slice(target, start));
        out.extend_from_slice(slice(end, words.len()));
    } else if target > end {
        out.extend_from_slice(slice(0, start));
        out.extend_from_slice(slice(end, target));
        out.extend_from_slice(slice(start, end));
        out.extend_from_slice(slice(target, words.len()));
    } else {
        out.extend_from_slice(slice(0, start));
        out.extend_from_slice(slice(end, length + target));
        out.extend_from_slice(slice(start, end));
        out.extend_from_slice(slice(length + target, words.len()));
    }
}

/// The ranking key of a shift candidate: sacrebleu's tuple `(gain, length, -start_h, -idx,
/// shifted_words)`. The last element never decides: equal `start_h`, `length` and `idx` give
/// the same shifted words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    gain: i64,
    length: usize,
    neg_start: i64,
    neg_target: i64,
}

/// What one `_shift` round found.
enum Round {
    /// `checked_candidates` reached the cap: sacrebleu stops without applying the round's best.
    Capped,
    /// The best candidate, if any, as `(rank, start, length, target)`.
    Best(Option<(Rank, usize, usize, usize)>),
}

impl ShiftScratch {
    /// One call of `_shift` on `self.words`; `pre_score` is their edit distance.
    ///
    /// # Errors
    /// As [`BeamEditDistance::distance`].
    fn shift_round(
        &mut self,
        reference: &[u32],
        pre_score: i32,
        checked: &mut usize,
    ) -> Result<Round> {
        let Self {
            ed,
            words,
            shifted,
            alignment,
            occurrences,
            ..
        } = self;
        let m = reference.len();
        let mut best: Option<(Rank, usize, usize, usize)> = None;
        // Every candidate needs an error on both sides: without one, all are skipped.
        if alignment.hyp_errors.last() == Some(&0) || alignment.ref_errors.last() == Some(&0) {
            return Ok(Round::Best(None));
        }
        for (start_h, &first) in words.iter().enumerate() {
            let lo = start_h.saturating_sub(MAX_SHIFT_DIST);
            let hi = m.min(start_h + MAX_SHIFT_DIST + 1);
            for start_r in occurrences.positions(first, lo, hi) {
                // `_find_shifted_pairs` yields every matching length 1..=10 in turn, and stops
                // where either sequence ends.
                let mut length = 0;
                while length < MAX_SHIFT_SIZE
                    && words.get(start_h + length).is_some()
                    && words.get(start_h + length) == reference.get(start_r + length)
                {
                    length += 1;
                    if !Alignment::has_error(&alignment.hyp_errors, start_h, length)
                        || !Alignment::has_error(&alignment.ref_errors, start_r, length)
                    {
                        continue;
                    }
                    // sacrebleu's targets `align[start_r + offset] + 1` for `offset` in
                    // `range(-1, length)`, 0 where that reads before the reference: here the
                    // entry before the block, then the block's own entries.
                    // In bounds: the block matched the reference, so `start_r + length <= m`,
                    // and `align` has `m` entries.
                    #[allow(clippy::indexing_slicing)]
                    let (before, block) = (
                        start_r.checked_sub(1).map_or(0, |k| alignment.align[k]),
                        &alignment.align[start_r..start_r + length],
                    );
                    // sacrebleu skips a block whose first reference word is aligned inside it:
                    // `start_h <= align[start_r] < start_h + length`, plus one here.
                    // In bounds: `length >= 1` here.
                    #[allow(clippy::indexing_slicing)]
                    if (start_h + 1..=start_h + length).contains(&block[0]) {
                        continue;
                    }
                    let mut prev_target = None;
                    for target in std::iter::once(before).chain(block.iter().copied()) {
                        if prev_target == Some(target) {
                            continue;
                        }
                        prev_target = Some(target);
                        perform_shift(words, start_h, length, target, shifted);
                        let rank = Rank {
                            gain: i64::from(pre_score) - i64::from(ed.distance(shifted)?),
                            length,
                            neg_start: -to_i64(start_h),
                            neg_target: -to_i64(target),
                        };
                        *checked += 1;
                        // A cancelled call stops here; the row loop discards the result.
                        if *checked % 32 == 0 && crate::cancel::checkpoint() {
                            return Ok(Round::Capped);
                        }
                        if best.is_none_or(|(b, ..)| rank > b) {
                            best = Some((rank, start_h, length, target));
                        }
                    }
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        return Ok(Round::Capped);
                    }
                }
            }
        }
        Ok(Round::Best(best))
    }
}

/// `translation_edit_rate(words_hyp, words_ref)`: `(number of edits, reference length)`.
///
/// # Errors
/// As [`BeamEditDistance::reset`] and [`BeamEditDistance::distance_with_trace`], or
/// [`crate::ErrorKind::Interrupted`] when the call is cancelled (see [`crate::cancel`]).
pub fn translation_edit_rate(
    hypothesis: &[u32],
    reference: &[u32],
    scratch: &mut ShiftScratch,
) -> Result<(usize, usize)> {
    if reference.is_empty() {
        return Ok((hypothesis.len(), 0));
    }
    scratch.ed.reset(reference, hypothesis.len())?;
    scratch.occurrences.build(reference);
    scratch.words.clear();
    scratch.words.extend_from_slice(hypothesis);
    let mut shifts = 0usize;
    let mut checked = 0usize;
    loop {
        crate::cancel::check()?;
        let pre_score = scratch
            .ed
            .distance_with_trace(&scratch.words, &mut scratch.trace)?;
        scratch.alignment.build(&scratch.trace);
        let best = match scratch.shift_round(reference, pre_score, &mut checked)? {
            Round::Capped => None,
            Round::Best(best) => best.filter(|(rank, ..)| rank.gain > 0),
        };
        let Some((_, start, length, target)) = best else {
            let edits = usize::try_from(pre_score).map_err(|_| {
                Error::internal(format!(
                    "TER: an edit distance is a count of edits, never negative: {pre_score}"
                ))
            })?;
            return Ok((shifts + edits, reference.len()));
        };
        shifts += 1;
        perform_shift(&scratch.words, start, length, target, &mut scratch.shifted);
        std::mem::swap(&mut scratch.words, &mut scratch.shifted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str, vocab: &mut Vec<String>) -> Vec<u32> {
        text.split_whitespace()
            .map(|w| match vocab.iter().position(|v| v == w) {
                Some(i) => i as u32,
                None => {
                    vocab.push(w.to_owned());
                    (vocab.len() - 1) as u32
                }
            })
            .collect()
    }

    fn ter(hyp: &str, reference: &str) -> (usize, usize) {
        let mut vocab = Vec::new();
        let (h, r) = (ids(hyp, &mut vocab), ids(reference, &mut vocab));
        translation_edit_rate(&h, &r, &mut ShiftScratch::default()).unwrap()
    }

    #[test]
    fn sacrebleu_vectors() {
        assert_eq!(ter("d e f g h a b c", "a b c d e f g h"), (1, 8));
        assert_eq!(
            ter(
                "the quick brown fox jumps over the lazy dog",
                "the lazy dog jumps over the quick brown fox"
            ),
            (2, 9)
        );
        assert_eq!(
            ter(
                "one two three four five six seven",
                "four five six seven one two three"
            ),
            (1, 7)
        );
        assert_eq!(ter("a b c", "c b a"), (2, 3));
        assert_eq!(ter("x y z", "a b c d e f g h"), (8, 8));
        assert_eq!(ter("", ""), (0, 0));
        assert_eq!(ter("a", ""), (1, 0));
        assert_eq!(ter("", "a b"), (2, 2));
        assert_eq!(ter("aaaa bbbb cccc dddd", "aaaa bbbb cccc dddd"), (0, 4));
        assert_eq!(ter("dddd eeee ffff", "aaaa bbbb cccc"), (3, 3));
    }

    #[test]
    fn perform_shift_cases() {
        let words = [0, 1, 2, 3, 4, 5];
        let mut out = Vec::new();
        perform_shift(&words, 3, 2, 1, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2, 5]);
        perform_shift(&words, 0, 2, 4, &mut out);
        assert_eq!(out, [2, 3, 0, 1, 4, 5]);
        // Target inside the block's span: the block moves past `target - start` words.
        perform_shift(&words, 1, 2, 3, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2, 5]);
        perform_shift(&words, 3, 2, 5, &mut out);
        assert_eq!(out, [0, 1, 2, 5, 3, 4]);
        perform_shift(&words, 2, 2, 2, &mut out);
        assert_eq!(out, words);
    }

    #[test]
    fn alignment_of_a_trace() {
        let mut alignment = Alignment::default();
        // hyp "a x b", ref "a b c": nop, del (x), nop, ins (c)
        alignment.build(&[Op::Nop, Op::Del, Op::Nop, Op::Ins]);
        // sacrebleu's [0, 2, 2], plus one.
        assert_eq!(alignment.align, [1, 3, 3]);
        assert_eq!(alignment.hyp_errors, [0, 0, 1, 1]);
        assert_eq!(alignment.ref_errors, [0, 0, 0, 1]);
    }
}
