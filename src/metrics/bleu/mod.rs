//! BLEU (Papineni et al. 2002) exactly as sacrebleu 2.6.0 computes it.
//!
//! - [`config`]: the knobs (order, smoothing, effective order).
//! - [`details`]: per-n-gram counts of one sentence (for explaining a row).
//! - [`pairwise`]: sentences counted once, then rows for every hypothesis × reference pair.
//! - [`ref_length`]: which reference length a row holds (closest, shortest, ...).
//! - [`stats`]: text to one integer row per segment, `[hyp_len, ref_len, correct_1..N, total_1..N]`.
//! - [`score`]: a statistics row to a score, with the float operations in sacrebleu's order.
//! - [`arithmetic`]: summed counts to a score in any emulated upstream's float operations
//!   (nltk, tensorflow/nmt, torchmetrics, Moses, fairseq, mteval, sacrebleu).
//! - [`penalty`]: the brevity penalty, once, in each upstream's float operations.
//! - [`python_float`]: Python's float operations the upstreams run (`sum()`, `math.fsum`,
//!   sacrebleu's `my_log`) and the exceptions they raise.

pub mod arithmetic;
pub mod config;
pub mod details;
pub mod pairwise;
pub mod penalty;
pub mod python_float;
pub mod ref_length;
pub mod score;
pub mod self_bleu;
pub mod stats;

pub use crate::statistics::references_per_segment;
pub use config::{BleuConfig, Smoothing, MAX_NGRAM_ORDER, SMOOTHING_METHODS};
pub use ref_length::RefLength;
pub use score::{
    score_from_float32_sums, score_from_stats, scores_from_rows, BleuScore, FloatSemantics,
};
pub use stats::{
    count_tokenized_periods, grouped_stats, grouped_token_stats, segment_stats, stream_stats,
    Segment, StatsOptions,
};
