//! Self-BLEU's statistics in linear time: each sentence's BLEU row
//! `[hyp_len, ref_len, correct_1..N, total_1..N]` against all the other sentences as its
//! references (Zhu et al. 2018, Texygen), or against all of them, itself included (Texygen's
//! `get_bleu`).
//!
//! Scoring sentence `i` against the `N - 1` others one by one costs `O(N²)`. But BLEU's
//! clipping only asks, per n-gram, for the highest count among the references, and the
//! highest count among all sentences but `i` is the highest of all (`top1`) unless `i` holds
//! it, and then the second highest (`top2`, equal to `top1` when two sentences hold it). So
//! one pass keeps `top1` and `top2` per n-gram, and a second pass clips each sentence's counts
//! against them. The closest reference length (nltk's and sacrebleu's rule: the nearest, the
//! shorter on ties) among the others is a search in the sorted lengths with `i`'s own taken
//! out once. Both passes are linear in the number of n-grams; the second runs in parallel.

use crate::count::clip::count;
use crate::count::ngrams::{extend_order, NgramIds, ABSENT};
use crate::count::vocabulary::Vocabulary;
use crate::error::{to_i64, Error, Result};
use crate::parallel;

/// The n-grams of every sentence, as ids, order by order.
struct Sentences {
    /// `orders[n - 1]`: every sentence's n-gram ids, one after another.
    orders: Vec<Vec<u32>>,
    /// Sentence `i`'s n-grams of order `n` are `orders[n - 1][starts[n - 1][i]..starts[n - 1][i + 1]]`.
    starts: Vec<Vec<usize>>,
    /// The sentences' lengths in tokens.
    lengths: Vec<usize>,
    /// One past the largest id.
    ids: usize,
}

impl Sentences {
    fn count<T: AsRef<[u8]>>(sentences: &[Vec<T>], max_order: usize) -> Self {
        let mut vocabulary = Vocabulary::default();
        let mut ngram_ids = NgramIds::default();
        let mut orders: Vec<Vec<u32>> = vec![Vec::new(); max_order];
        let mut starts: Vec<Vec<usize>> = vec![vec![0]; max_order];
        let mut lengths = Vec::with_capacity(sentences.len());
        let (mut order, mut tokens) = (Vec::new(), Vec::new());
        for sentence in sentences {
            tokens.clear();
            tokens.extend(
                sentence
                    .iter()
                    .map(|token| vocabulary.intern_with(token.as_ref(), || ngram_ids.new_id())),
            );
            order.clone_from(&tokens);
            lengths.push(tokens.len());
            for n in 1..=max_order {
                if n > 1 {
                    extend_order(&mut order, &tokens, n, |prefix, last| {
                        ngram_ids.intern(prefix, last)
                    });
                }
                if let (Some(all), Some(start)) = (orders.get_mut(n - 1), starts.get_mut(n - 1)) {
                    all.extend_from_slice(&order);
                    start.push(all.len());
                }
            }
        }
        let ids = orders
            .iter()
            .flatten()
            .filter(|&&id| id != ABSENT)
            .max()
            .map_or(0, |&id| id as usize + 1);
        Self {
            orders,
            starts,
            lengths,
            ids,
        }
    }

    /// Sentence `i`'s n-gram ids of order `n`.
    fn ngrams(&self, n: usize, i: usize) -> &[u32] {
        let (Some(all), Some(starts)) = (self.orders.get(n - 1), self.starts.get(n - 1)) else {
            return &[];
        };
        match (starts.get(i), starts.get(i + 1)) {
            (Some(&start), Some(&end)) => all.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// Calls `each(id, count)` once for each distinct id of `ids`, counted in `counts` (all zero
/// before and after; one entry per id).
fn distinct(ids: &[u32], counts: &mut [u32], mut each: impl FnMut(u32, u32)) {
    count(counts, ids);
    for &id in ids {
        if let Some(c) = counts.get_mut(id as usize).filter(|c| **c > 0) {
            each(id, *c);
            *c = 0;
        }
    }
}

/// The length closest to `length` among `sorted` (ascending) without one occurrence of
/// `length` itself unless `include_self`: the nearest, the shorter on ties. `None` when no
/// length is left.
fn closest_other(sorted: &[usize], length: usize, include_self: bool) -> Option<usize> {
    let below = sorted.partition_point(|&l| l < length);
    let above = sorted.partition_point(|&l| l <= length);
    let own = above - below;
    if own >= 2 || (own == 1 && include_self) {
        return Some(length);
    }
    let shorter = below.checked_sub(1).and_then(|k| sorted.get(k)).copied();
    let longer = sorted.get(above).copied();
    match (shorter, longer) {
        (Some(s), Some(l)) => Some(if length - s <= l - length { s } else { l }),
        (s, l) => s.or(l),
    }
}

/// Self-BLEU's rows, one per sentence, `[hyp_len, ref_len, correct_1..N, total_1..N]` for
/// `N = max_order`: each sentence clipped against the others (or all, with `include_self`).
///
/// # Errors
/// [`crate::ErrorKind::InvalidInput`] for fewer than two sentences without `include_self`
/// (one sentence has no other to compare with) or none at all;
/// [`crate::ErrorKind::InvalidOption`] for `max_order` 0, or a bad `workers`.
pub fn self_bleu_rows<T: AsRef<[u8]> + Sync>(
    sentences: &[Vec<T>],
    max_order: usize,
    include_self: bool,
    workers: i64,
) -> Result<Vec<i64>> {
    if max_order == 0 {
        return Err(Error::invalid_option(
            "Self-BLEU needs max_ngram_order >= 1",
        ));
    }
    let least = if include_self { 1 } else { 2 };
    if sentences.len() < least {
        return Err(Error::invalid_input(format!(
            "Self-BLEU needs at least {least} sentence{} (each is scored against the others), \
             got {}",
            if least == 1 { "" } else { "s" },
            sentences.len()
        )));
    }
    let counted = Sentences::count(sentences, max_order);
    // The highest and second highest count of each n-gram over the sentences.
    let (mut top1, mut top2) = (vec![0u32; counted.ids], vec![0u32; counted.ids]);
    let mut counts = vec![0u32; counted.ids];
    for n in 1..=max_order {
        for i in 0..sentences.len() {
            distinct(counted.ngrams(n, i), &mut counts, |id, c| {
                if let (Some(t1), Some(t2)) = (top1.get_mut(id as usize), top2.get_mut(id as usize))
                {
                    if c > *t1 {
                        (*t1, *t2) = (c, *t1);
                    } else if c > *t2 {
                        *t2 = c;
                    }
                }
            });
        }
    }
    let mut sorted = counted.lengths.clone();
    sorted.sort_unstable();
    let width = 2 + 2 * max_order;
    let mut rows = vec![0i64; sentences.len() * width];
    let top = (&top1, &top2);
    let scratch = || vec![0u32; counted.ids];
    parallel::fill_rows(&mut rows, width, workers, scratch, |counts, i, row| {
        let length = counted.lengths.get(i).copied().unwrap_or(0);
        let reference = closest_other(&sorted, length, include_self).unwrap_or(0);
        let (lengths, cells) = row.split_at_mut(2);
        let (correct, total) = cells.split_at_mut(max_order);
        lengths.copy_from_slice(&[to_i64(length), to_i64(reference)]);
        for (n, (correct, total)) in (1..).zip(correct.iter_mut().zip(total)) {
            let mut matched = 0usize;
            distinct(counted.ngrams(n, i), counts, |id, c| {
                let at = |t: &Vec<u32>| t.get(id as usize).copied().unwrap_or(0);
                let (t1, t2) = (at(top.0), at(top.1));
                let others = if include_self || c < t1 { t1 } else { t2 };
                matched += c.min(others) as usize;
            });
            *correct = to_i64(matched);
            *total = to_i64((length + 1).saturating_sub(n));
        }
        Ok(())
    })?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quadratic definition: each sentence's row against the others, clipped by the
    /// highest count among them.
    fn quadratic(sentences: &[Vec<&str>], max_order: usize, include_self: bool) -> Vec<i64> {
        let ngrams = |s: &[&str], n: usize| -> Vec<String> {
            if s.len() < n {
                return Vec::new();
            }
            (0..=s.len() - n).map(|k| s[k..k + n].join(" ")).collect()
        };
        let count = |list: &[String], g: &String| list.iter().filter(|x| *x == g).count();
        let mut out = Vec::new();
        for (i, h) in sentences.iter().enumerate() {
            let others: Vec<&Vec<&str>> = sentences
                .iter()
                .enumerate()
                .filter(|(j, _)| include_self || *j != i)
                .map(|(_, s)| s)
                .collect();
            let reference = others
                .iter()
                .map(|s| s.len())
                .min_by_key(|&l| (l.abs_diff(h.len()), l))
                .unwrap();
            out.extend([h.len() as i64, reference as i64]);
            for n in 1..=max_order {
                let mine = ngrams(h, n);
                let mut distinct = mine.clone();
                distinct.sort();
                distinct.dedup();
                let correct: usize = distinct
                    .iter()
                    .map(|g| {
                        let most = others
                            .iter()
                            .map(|s| count(&ngrams(s, n), g))
                            .max()
                            .unwrap();
                        count(&mine, g).min(most)
                    })
                    .sum();
                out.push(correct as i64);
            }
            for n in 1..=max_order {
                out.push((h.len() + 1).saturating_sub(n) as i64);
            }
        }
        out
    }

    #[test]
    fn equals_the_quadratic_definition() {
        let texts = [
            "the cat sat on the mat",
            "the cat sat",
            "a dog sat on the mat the mat",
            "",
            "the the the",
            "the cat sat on the mat",
            "mat",
        ];
        let sentences: Vec<Vec<&str>> = texts
            .iter()
            .map(|t| t.split_whitespace().collect())
            .collect();
        for max_order in 1..=5 {
            for include_self in [false, true] {
                assert_eq!(
                    self_bleu_rows(&sentences, max_order, include_self, 1).unwrap(),
                    quadratic(&sentences, max_order, include_self),
                    "max_order {max_order}, include_self {include_self}"
                );
            }
        }
        let two = &sentences[..2];
        assert_eq!(
            self_bleu_rows(two, 4, false, 2).unwrap(),
            quadratic(two, 4, false)
        );
    }

    #[test]
    fn closest_length_leaves_one_own_length_out() {
        assert_eq!(closest_other(&[3, 5, 7], 5, false), Some(3));
        assert_eq!(closest_other(&[3, 5, 5, 7], 5, false), Some(5));
        assert_eq!(closest_other(&[3, 5, 7], 5, true), Some(5));
        assert_eq!(closest_other(&[4, 5, 7], 5, false), Some(4));
        assert_eq!(closest_other(&[2, 5, 6], 5, false), Some(6));
        assert_eq!(closest_other(&[5], 5, false), None);
    }

    #[test]
    fn refuses_too_few_sentences() {
        let one = vec![vec!["a"]];
        assert!(self_bleu_rows(&one, 4, false, 1).is_err());
        assert!(self_bleu_rows(&one, 4, true, 1).is_ok());
        assert!(self_bleu_rows(&one, 0, true, 1).is_err());
    }
}
