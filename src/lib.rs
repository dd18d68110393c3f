//! # bleuprint core
//!
//! Exact, fast BLEU: every number is bit-identical to sacrebleu 2.6.0.
//!
//! The pipeline is text → tokenize ([`tokenize`]) → per-segment integer statistics
//! ([`bleu::segment_stats`]) → sum → score ([`bleu::score_from_stats`]). Statistics are the
//! currency: corpus scores, batches and resampling all work on them.
//!

pub mod bleu;
pub mod error;
pub mod ngram;
pub mod parallel;
pub mod text;
pub mod tokenize;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, ErrorKind, Result};
