//! CIDEr-D (Vedantam et al. 2015) as pycocoevalcap 1.2 computes it (`cider/cider_scorer.py`):
//! per n-gram order, the cosine of two TF-IDF vectors with the caption's weights clipped by
//! the reference's, times a Gaussian penalty on the difference of their lengths, averaged over
//! the orders and the references, times 10.
//!
//! The IDF is `log(images) - log(max(1, df))`, where `df` counts the images whose references
//! hold the n-gram: it depends on every reference of the corpus, so an image's score is not a
//! function of a fixed row of its own. The statistics are therefore the captions themselves as
//! token ids ([`CiderCaptions`], integers only): two sets merge by mapping one token table onto
//! the other and concatenating, and the n-gram bags and the document frequencies are counted
//! from them when scoring ([`score::order_sums`]), so merged statistics score exactly as one
//! pass over all the images (the document frequency of merged sets is the sum of theirs).

pub mod score;

use crate::count::vocabulary::Vocabulary;
use crate::error::Result;
use crate::parallel;
use crate::statistics::{no_references, Layout, Streams};
use crate::tokenize::{Pipeline, TextScratch};

/// Captions as token ids: per image its caption, then its references, each a run of ids into
/// [`CiderCaptions::tokens`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CiderCaptions {
    /// The text of every token id, in order of first appearance.
    pub tokens: Vec<String>,
    /// Every caption's token ids, caption after caption.
    pub ids: Vec<u32>,
    /// Caption `c` is `ids[caption_ends[c - 1]..caption_ends[c]]` (from 0 for caption 0).
    pub caption_ends: Vec<usize>,
    /// Image `i`'s captions run up to `image_ends[i]` (from `image_ends[i - 1]`, or 0): the
    /// image's caption first, then its references in stream order.
    pub image_ends: Vec<usize>,
}

/// Images a thread counts at a time under a vocabulary of its own: small enough that a
/// COCO-sized set makes the parallel loop's minimum of chunks, large enough that merging
/// the chunks' tables costs little beside counting them.
const CHUNK_IMAGES: usize = 256;

impl CiderCaptions {
    /// The captions of `hypotheses` with their reference `streams` (`streams[k][i]`, `None`
    /// drops one), split into tokens by `pipeline` (pycocoevalcap's: `str.split()`).
    ///
    /// Chunks of images are tokenized and interned on `workers` threads, each under a
    /// vocabulary of its own; their tables are then merged in order, so the tokens are
    /// numbered in order of first appearance, as one pass would number them.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
    /// hypotheses or an image has no reference; the pipeline's errors; cancellation.
    pub fn count(
        hypotheses: &[&str],
        streams: &[Vec<Option<&str>>],
        pipeline: &Pipeline,
        workers: i64,
    ) -> Result<Self> {
        let layout = Streams::new(hypotheses, streams);
        layout.check(true)?;
        let starts: Vec<usize> = (0..layout.len()).step_by(CHUNK_IMAGES).collect();
        let parts =
            parallel::try_map_init(&starts, workers, TextScratch::default, |scratch, &first| {
                let mut part = Self::default();
                let mut vocabulary = Vocabulary::default();
                for i in first..layout.len().min(first + CHUNK_IMAGES) {
                    part.add(pipeline, layout.hypothesis(i)?, &mut vocabulary, scratch)?;
                    let mut references = layout.references(i).peekable();
                    if references.peek().is_none() {
                        return Err(no_references(i));
                    }
                    for reference in references {
                        part.add(pipeline, reference, &mut vocabulary, scratch)?;
                    }
                    part.image_ends.push(part.caption_ends.len());
                }
                Ok(part)
            })?;
        Ok(Self::merge(parts))
    }

    /// The images of `parts` in order, their token tables merged into one.
    fn merge(parts: Vec<Self>) -> Self {
        let mut merged = Self::default();
        let mut vocabulary = Vocabulary::default();
        for part in parts {
            let to_merged: Vec<u32> = part
                .tokens
                .into_iter()
                .map(|token| {
                    let next = u32::try_from(merged.tokens.len()).unwrap_or(u32::MAX);
                    let id = vocabulary.intern_with(&token, || next);
                    if id == next {
                        merged.tokens.push(token);
                    }
                    id
                })
                .collect();
            let (ids, captions) = (merged.ids.len(), merged.caption_ends.len());
            let local = |id: u32| to_merged.get(id as usize).copied().unwrap_or(u32::MAX);
            merged.ids.extend(part.ids.into_iter().map(local));
            merged
                .caption_ends
                .extend(part.caption_ends.into_iter().map(|end| end + ids));
            merged
                .image_ends
                .extend(part.image_ends.into_iter().map(|end| end + captions));
        }
        merged
    }

    /// Appends one caption's token ids, giving new tokens the next ids.
    fn add(
        &mut self,
        pipeline: &Pipeline,
        caption: &str,
        vocabulary: &mut Vocabulary,
        scratch: &mut TextScratch,
    ) -> Result<()> {
        for token in pipeline.tokens(caption, scratch)? {
            let next = u32::try_from(self.tokens.len()).unwrap_or(u32::MAX);
            let id = vocabulary.intern_with(token, || next);
            if id == next {
                self.tokens.push(token.to_owned());
            }
            self.ids.push(id);
        }
        self.caption_ends.push(self.ids.len());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::Tokenizer;

    fn split() -> Pipeline {
        Pipeline {
            normalization: None,
            tokenizer: Tokenizer::None,
        }
    }

    #[test]
    fn captions_become_token_ids() {
        let streams = vec![
            vec![Some("a cat sat"), Some("a  dog")],
            vec![None, Some("dog\u{a0}a")],
        ];
        let counted = CiderCaptions::count(&["a cat", ""], &streams, &split(), 1).unwrap();
        assert_eq!(counted.tokens, ["a", "cat", "sat", "dog"]);
        assert_eq!(counted.ids, [0, 1, 0, 1, 2, 0, 3, 3, 0]);
        assert_eq!(counted.caption_ends, [2, 5, 5, 7, 9]);
        assert_eq!(counted.image_ends, [2, 5]);
    }

    #[test]
    fn chunks_on_any_threads_number_tokens_as_one_pass() {
        // Past one chunk of images; tokens recur across chunks and first appear in any.
        let images = 2 * CHUNK_IMAGES + 37;
        let text = |i: usize, k: usize| format!("w{} w{} w{}", i % 97, (i * 7 + k) % 301, i);
        let hypotheses: Vec<String> = (0..images).map(|i| text(i, 0)).collect();
        let references: Vec<String> = (0..images).map(|i| text(i, 1)).collect();
        let hyps: Vec<&str> = hypotheses.iter().map(String::as_str).collect();
        let streams = vec![references.iter().map(|r| Some(r.as_str())).collect()];
        let counted = CiderCaptions::count(&hyps, &streams, &split(), 1).unwrap();
        for workers in [2, -1] {
            assert_eq!(
                CiderCaptions::count(&hyps, &streams, &split(), workers).unwrap(),
                counted
            );
        }
        // One pass numbers tokens in order of first appearance.
        let mut seen: Vec<&str> = Vec::new();
        for caption in hyps
            .iter()
            .zip(&references)
            .flat_map(|(h, r)| [*h, r.as_str()])
        {
            for token in caption.split(' ') {
                if !seen.contains(&token) {
                    seen.push(token);
                }
            }
        }
        assert_eq!(counted.tokens, seen);
        assert_eq!(counted.image_ends.len(), images);
        assert_eq!(counted.caption_ends.last(), Some(&counted.ids.len()));
    }

    #[test]
    fn an_image_without_references_is_an_error() {
        let streams = vec![vec![Some("a"), None]];
        let err = CiderCaptions::count(&["a", "b"], &streams, &split(), 2).unwrap_err();
        assert!(err.message().starts_with("segment 1 has no references"));
        let err = CiderCaptions::count(&["a"], &streams, &split(), -1).unwrap_err();
        assert!(err.message().contains('2'), "{}", err.message());
    }
}
