//! The metrics: each a statistics kernel (a [`crate::statistics::StatsMetric`] impl built from
//! [`crate::tokenize`] and [`crate::count`]) and pure score functions over its rows, with the
//! float operations in the upstream's order.
//!
//! - [`bleu`]: BLEU as sacrebleu 2.6.0 computes it, and every emulated upstream's arithmetic.
//! - [`gleu`]: GLEU as nltk's `corpus_gleu` (and Hugging Face's `google_bleu`) counts it.
//! - [`chrf`]: chrF and chrF++ as sacrebleu computes them.
//! - [`cider`]: CIDEr-D as pycocoevalcap 1.2 computes it.
//! - [`rouge`]: ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score 0.1.2 computes them.
//! - [`ter`]: TER as sacrebleu computes it.
//! - [`wer`]: WER, CER, MER, WIL and WIP as jiwer 4.0.0 computes them.

pub mod bleu;
pub mod chrf;
pub mod cider;
pub mod gleu;
pub mod rouge;
pub mod ter;
pub mod wer;
