//! # bleuprint core
//!
//! Exact, fast machine-translation metrics: BLEU ([`metrics::bleu`], and the GLEU of nltk and
//! Hugging Face, [`metrics::gleu`]), chrF and chrF++ ([`metrics::chrf`]), TER
//! ([`metrics::ter`]) and the WER family ([`metrics::wer`]: WER, CER, MER, WIL, WIP). Every
//! number is bit-identical to sacrebleu 2.6.0 (jiwer 4.0.0 for the WER family).
//!
//! The crate is laid out as the pipeline runs:
//!
//! | module | stage |
//! |---|---|
//! | [`text`] | lines as sacrebleu reads them, Python's whitespace and `split()`, NFC/NFKC, script counts |
//! | [`tokenize`] | every tokenizer (13a, intl, zh, char, Tercom, jiwer's splits, MeCab, ...); a [`tokenize::Pipeline`] is normalization + tokenizer |
//! | [`count`] | the counting pieces: vocabulary, id table, n-gram ids, clipping, the n-gram matcher, n-gram bags |
//! | [`statistics`] | the one driver: layout × metric → one integer row per segment, parallel and interruptible; pairwise matrices |
//! | [`metrics`] | each metric's kernel (its [`statistics::StatsMetric`]) and pure score functions in the upstream's float order |
//! | [`resample`] | bootstrap and approximate-randomization sums of rows, and numpy's float32 arithmetic for scoring them |
//!
//! Statistics are the currency: corpus scores, batches and resampling all work on the rows
//! ([`statistics::rows`]; each metric's `stream_stats` calls it), then score them
//! ([`metrics::bleu::score_from_stats`], [`metrics::chrf::score`], [`metrics::ter::score`],
//! [`metrics::wer::score`]). Long calls can be cancelled ([`cancel`]); `workers` sizes the
//! thread pools ([`parallel`]); every error is an [`Error`] ([`error`]). The Python extension
//! module `bleuprint._core` is built from this crate with the `python` feature (`src/python/`,
//! the only PyO3 code).
//!
//! ```
//! use bleuprint::metrics::bleu::{
//!     score_from_stats, segment_stats, BleuConfig, FloatSemantics, Segment,
//! };
//! use bleuprint::tokenize::Tokenizer;
//!
//! let config = BleuConfig::default();
//! let segments = [Segment {
//!     hypothesis: "The cat sat on the mat.",
//!     references: vec!["The cat is on the mat."],
//! }];
//! let stats = segment_stats(&segments, Tokenizer::V13a, &config, 1)?;
//! assert_eq!(stats, [7, 7, 6, 4, 2, 1, 7, 6, 5, 4]);
//! let bleu = score_from_stats(&stats, &config, &FloatSemantics::default())?;
//! assert_eq!(format!("{:.2}", bleu.score), "48.89");
//! # Ok::<(), bleuprint::Error>(())
//! ```

#[cfg(feature = "python")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod cancel;
pub mod count;
mod enums;
pub mod error;
pub mod metrics;
pub mod parallel;
pub mod resample;
pub mod statistics;
pub mod text;
pub mod tokenize;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, ErrorKind, Result};
