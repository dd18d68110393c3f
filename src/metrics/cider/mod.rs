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

impl CiderCaptions {
    /// The captions of `hypotheses` with their reference `streams` (`streams[k][i]`, `None`
    /// drops one), split into tokens by `pipeline` (pycocoevalcap's: `str.split()`).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] when a stream's length differs from the number of
    /// hypotheses or an image has no reference; the pipeline's errors.
    pub fn count(
        hypotheses: &[&str],
        streams: &[Vec<Option<&str>>],
        pipeline: &Pipeline,
    ) -> Result<Self> {
        let layout = Streams::new(hypotheses, streams);
        layout.check(true)?;
        let mut counted = Self::default();
        let (mut vocabulary, mut scratch) = (Vocabulary::default(), TextScratch::default());
        for i in 0..layout.len() {
            counted.add(
                pipeline,
                layout.hypothesis(i)?,
                &mut vocabulary,
                &mut scratch,
            )?;
            let mut references = layout.references(i).peekable();
            if references.peek().is_none() {
                return Err(no_references(i));
            }
            for reference in references {
                counted.add(pipeline, reference, &mut vocabulary, &mut scratch)?;
            }
            counted.image_ends.push(counted.caption_ends.len());
        }
        Ok(counted)
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
        let counted = CiderCaptions::count(&["a cat", ""], &streams, &split()).unwrap();
        assert_eq!(counted.tokens, ["a", "cat", "sat", "dog"]);
        assert_eq!(counted.ids, [0, 1, 0, 1, 2, 0, 3, 3, 0]);
        assert_eq!(counted.caption_ends, [2, 5, 5, 7, 9]);
        assert_eq!(counted.image_ends, [2, 5]);
    }

    #[test]
    fn an_image_without_references_is_an_error() {
        let streams = vec![vec![Some("a"), None]];
        let err = CiderCaptions::count(&["a", "b"], &streams, &split()).unwrap_err();
        assert!(err.message().starts_with("segment 1 has no references"));
        let err = CiderCaptions::count(&["a"], &streams, &split()).unwrap_err();
        assert!(err.message().contains('2'), "{}", err.message());
    }
}
