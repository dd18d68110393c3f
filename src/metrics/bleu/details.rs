//! Per-n-gram counts of one sentence, for explaining a BLEU row: which hypothesis n-grams
//! matched and how the reference counts clipped them. A teaching view, so it favours
//! simplicity (hash maps of token slices) over the speed of [`crate::count::matcher`].

use std::collections::HashMap;

use crate::error::Result;

/// One distinct hypothesis n-gram of one order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NgramDetail {
    /// Index of its first occurrence in the hypothesis: the n-gram is
    /// `hypothesis[start..start + n]`.
    pub start: usize,
    /// Occurrences in the hypothesis.
    pub count: usize,
    /// The maximum of its occurrences over the references (0 without references).
    pub max_ref: usize,
    /// `min(count, max_ref)`: what it contributes to the order's `correct` column.
    pub clipped: usize,
}

/// For each order `n = 1..=max_order`, the distinct n-grams of `hypothesis` in order of first
/// occurrence, with their hypothesis count, maximum reference count and clipped count. Tokens
/// (`&str` or `&[u8]`) are compared as bytes.
///
/// # Errors
/// [`crate::ErrorKind::InvalidOption`] for `max_order` outside `1..=MAX_NGRAM_ORDER`.
pub fn ngram_details<T: AsRef<[u8]>>(
    hypothesis: &[T],
    references: &[Vec<T>],
    max_order: usize,
) -> Result<Vec<Vec<NgramDetail>>> {
    crate::error::check_range("max_ngram_order", max_order, 1, super::MAX_NGRAM_ORDER)?;
    fn key<T: AsRef<[u8]>>(window: &[T]) -> Vec<&[u8]> {
        window.iter().map(AsRef::as_ref).collect()
    }
    let mut orders = Vec::with_capacity(max_order);
    for n in 1..=max_order {
        let mut details: Vec<NgramDetail> = Vec::new();
        let mut index: HashMap<Vec<&[u8]>, usize> = HashMap::new();
        for (start, window) in hypothesis.windows(n).enumerate() {
            let slot = *index.entry(key(window)).or_insert_with(|| {
                details.push(NgramDetail {
                    start,
                    count: 0,
                    max_ref: 0,
                    clipped: 0,
                });
                details.len() - 1
            });
            if let Some(detail) = details.get_mut(slot) {
                detail.count += 1;
            }
        }
        for reference in references {
            let mut counts: HashMap<Vec<&[u8]>, usize> = HashMap::new();
            for window in reference.windows(n) {
                let k = key(window);
                if index.contains_key(&k) {
                    *counts.entry(k).or_insert(0) += 1;
                }
            }
            for (k, count) in counts {
                if let Some(detail) = index.get(&k).and_then(|&slot| details.get_mut(slot)) {
                    detail.max_ref = detail.max_ref.max(count);
                }
            }
        }
        for detail in &mut details {
            detail.clipped = detail.count.min(detail.max_ref);
        }
        orders.push(details);
    }
    Ok(orders)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(n-gram text, count, max_ref, clipped)` per order.
    fn table(
        hyp: &str,
        refs: &[&str],
        max_order: usize,
    ) -> Vec<Vec<(String, usize, usize, usize)>> {
        let hyp: Vec<&str> = hyp.split(' ').collect();
        let refs: Vec<Vec<&str>> = refs.iter().map(|r| r.split(' ').collect()).collect();
        ngram_details(&hyp, &refs, max_order)
            .unwrap()
            .into_iter()
            .enumerate()
            .map(|(i, order)| {
                order
                    .into_iter()
                    .map(|d| {
                        let text = hyp[d.start..d.start + i + 1].join(" ");
                        (text, d.count, d.max_ref, d.clipped)
                    })
                    .collect()
            })
            .collect()
    }

    /// One order's details as `n-gram count/max_ref/clipped`, joined by `, `.
    fn render(order: &[(String, usize, usize, usize)]) -> String {
        let cells: Vec<String> = order
            .iter()
            .map(|(text, count, max_ref, clipped)| format!("{text} {count}/{max_ref}/{clipped}"))
            .collect();
        cells.join(", ")
    }

    #[test]
    fn the_picture_example() {
        let t = table(
            "the picture the picture by me",
            &[
                "this picture is clicked by me",
                "the picture was clicked by me",
            ],
            4,
        );
        let rendered: Vec<String> = t.iter().map(|order| render(order)).collect();
        assert_eq!(
            rendered,
            [
                "the 2/1/1, picture 2/1/1, by 1/1/1, me 1/1/1",
                "the picture 2/1/1, picture the 1/0/0, picture by 1/0/0, by me 1/1/1",
                "the picture the 1/0/0, picture the picture 1/0/0, the picture by 1/0/0, \
                 picture by me 1/0/0",
                "the picture the picture 1/0/0, picture the picture by 1/0/0, \
                 the picture by me 1/0/0",
            ]
        );
    }

    #[test]
    fn clipped_counts_sum_to_the_bleu_row() {
        use crate::metrics::bleu::{grouped_stats, BleuConfig};
        use crate::tokenize::Tokenizer;
        let hyp = "a a b a c b a";
        let refs = ["a b a x", "c b a a a", ""];
        let config = BleuConfig::default();
        let row = grouped_stats(&[hyp], &[refs.to_vec()], Tokenizer::None, &config, 1).unwrap();
        let t = table(hyp, &refs, 4);
        for n in 0..4 {
            let correct: usize = t[n].iter().map(|r| r.3).sum();
            let total: usize = t[n].iter().map(|r| r.1).sum();
            assert_eq!((correct as i64, total as i64), (row[2 + n], row[6 + n]));
        }
    }

    #[test]
    fn no_references_and_short_hypotheses() {
        let hyp = ["x", "y"];
        let details = ngram_details(&hyp, &[], 3).unwrap();
        assert_eq!(details[0].len(), 2);
        assert!(details[0].iter().all(|d| d.max_ref == 0 && d.clipped == 0));
        assert!(details[2].is_empty());
        let empty: [&str; 0] = [];
        assert_eq!(
            ngram_details(&empty, &[vec!["x"]], 2).unwrap(),
            [vec![], vec![]]
        );
        assert!(ngram_details(&hyp, &[], 0).is_err());
    }
}
